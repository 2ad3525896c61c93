//! The engine every solver in this workspace is built on; it knows nothing about any problem.
//!
//! - [`key`]: packed state keys, small integer fields packed into one `u64` with checked
//!   widths, and a mixed-radix rank that turns a key into a dense table index.
//! - [`store`]: memo stores: a hash memo on ahash for sparse reachable sets, an epoch-stamped
//!   dense table, and 1- and 2-bit tables on bitvec. Every store resets between cases at a cost
//!   proportional to what the case touched, not to its capacity.
//! - [`input`]: a fast tokenizer over the whole input that reports errors by line and column.
//! - [`driver`]: the parallel multi-testcase driver: parse a header and the cases, solve them
//!   on a rayon pool with per-thread scratch, and return answers in input order.
//! - [`cli`]: the pieces the thin binaries share (input file or stdin, `--threads`).
//! - [`rng`]: a tiny, version-stable generator for reproducible test and benchmark inputs.
//! - [`judge`]: judging a user's program: running it under limits, verdicts and checker
//!   protocols, the [`judge::Problem`] trait, the stress loop and the shrinking driver.

// `deny`, not `forbid`: `judge::sys` alone allows the three system calls std does not offer
// (`waitid` without reaping, `wait4` with resource usage, `killpg`).
#![deny(unsafe_code)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod driver;
pub mod input;
pub mod judge;
pub mod key;
pub mod rng;
pub mod store;

pub use driver::{BatchSolver, DriverOptions};
pub use input::{Input, InputError};
pub use key::{KeyError, Layout};
