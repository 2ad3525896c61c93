//! What the game solvers share: input, the parallel driver, keys and stores; it knows nothing
//! about any problem, and nothing about judging (the `judge` crate).
//!
//! - [`input`]: a fast tokenizer over the whole input that reports errors by line and column
//!   (every parser of the workspace stands on it).
//! - [`driver`]: the parallel multi-testcase driver: parse a header and the cases (a large
//!   file in chunks on every thread, with the sequential parser's first error), do the
//!   file's shared work once, solve the cases on a rayon pool with per-thread scratch, and
//!   return answers in input order, written out in parallel if asked (hero-battle,
//!   card-duel).
//! - [`run`]: the shape of every problem's library entry point: an [`Output`] or a
//!   [`RunError`] that knows its exit code.
//! - [`key`]: packed state keys: typed fields packed into one `u64`, and a mixed-radix rank
//!   that turns a key into a dense table index (hero-battle's reference, card-duel's tables).
//! - [`store`]: memo stores whose reset costs what the last case touched: a hash memo on
//!   ahash (the reference solvers), an epoch-stamped dense table and a bit table on bitvec
//!   (hero-battle's fast solver).
//! - [`fs`]: files written whole or not at all: beside their place, then renamed into it.
//! - [`memory`]: zeroed `f64` tables on transparent huge pages, for tables read at random.
//! - [`InlineVec`]: a small vector kept inline, for move lists and minion rows.
//! - [`rng`]: a tiny, version-stable generator for reproducible generated inputs.
//! - `cli` (feature `cli`): what the thin binaries share: clap arguments, reading the input
//!   file or stdin, printing an [`Output`] and exiting with a [`RunError`]'s code.
//!
//! A batch problem implements [`Format`] and [`BatchSolver`] and calls
//! [`driver::solve_input`]:
//!
//! ```
//! use engine::{BatchSolver, DriverOptions, Format, Input, InputError};
//!
//! /// "T, then T lines `a b`": print `a + b` for each.
//! struct Pairs;
//!
//! impl Format for Pairs {
//!     type Header = ();
//!     type Case = [u32; 2];
//!     fn parse_header(&self, input: &mut Input<'_>) -> Result<((), usize), InputError> {
//!         Ok(((), input.uint("T", 0..=1_000_000)?))
//!     }
//!     fn parse_case(&self, _: &(), _: usize, input: &mut Input<'_>) -> Result<[u32; 2], InputError> {
//!         Ok([input.uint("a", 0..=1000)?, input.uint("b", 0..=1000)?])
//!     }
//! }
//!
//! impl BatchSolver for Pairs {
//!     type Format = Pairs;
//!     type Shared = ();
//!     type Scratch = ();
//!     type Answer = u32;
//!     fn format(&self) -> &Pairs {
//!         self
//!     }
//!     fn prepare(&self, _: &(), _: &[[u32; 2]]) {}
//!     fn new_scratch(&self, _: &(), _: &()) {}
//!     fn solve(&self, _: &(), _: &(), _index: usize, case: &[u32; 2], _: &mut ()) -> u32 {
//!         case[0] + case[1]
//!     }
//! }
//!
//! let batch = engine::driver::solve_input(&Pairs, b"2\n1 2\n30 40\n", &DriverOptions::default())?;
//! assert_eq!(batch.answers, [3, 70]);
//! # Ok::<(), engine::RunError>(())
//! ```

// `deny`, not `forbid`: one module allows it, saying why: `memory` (one `madvise`).
#![deny(unsafe_code)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod driver;
pub mod fs;
pub mod inline_vec;
pub mod input;
pub mod key;
pub mod memory;
pub mod rng;
pub mod run;
pub mod store;

pub use driver::{BatchSolver, DriverOptions, Format};
pub use inline_vec::InlineVec;
pub use input::{Input, InputError};
pub use key::Layout;
pub use run::{Output, RunError};
