//! The workspace's own integration tests: the tidy checks of the architecture and of the
//! documents' examples. Each problem's tests live in its crate (`CRATE/tests/`), on this
//! package's harness.

mod examples;
mod tidy;
