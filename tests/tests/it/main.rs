//! The workspace's own integration tests: the tidy checks of the architecture. Each problem's
//! tests live in its crate (`CRATE/tests/`), on this package's harness.

mod tidy;
