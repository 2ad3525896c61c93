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
//! - [`Output`] and [`RunError`]: the shape of every problem's library entry point, the
//!   bytes it prints or one typed error that knows its exit code.
//! - [`key`]: packed state keys: typed fields packed into one `u64`, and a mixed-radix rank
//!   that turns a key into a dense table index (hero-battle's reference, card-duel's tables).
//! - [`store`]: memo stores whose reset costs what the last case touched: a hash memo on
//!   ahash (the reference solvers), an epoch-stamped dense table and a bit table on bitvec
//!   (hero-battle's fast solver).
//! - [`fs`]: files written whole or not at all: beside their place, then renamed into it.
//! - [`memory`]: zeroed `f64` tables on transparent huge pages, for tables read at random.
//! - [`InlineVec`]: a small vector kept inline, for move lists and minion rows.
//! - [`rng`]: a tiny, version-stable generator for reproducible generated inputs.
//! - [`simd`]: the proof that the CPU has AVX2, which the problems' vector kernels take
//!   before they enter code compiled for it.
//! - `cli` (feature `cli`): what the thin binaries share: clap arguments, reading the input
//!   file or stdin, printing an [`Output`] and exiting with a [`RunError`]'s code.
//!
//! A batch problem implements [`Format`](driver::Format) and
//! [`BatchSolver`](driver::BatchSolver) and calls [`driver::solve_input`]:
//!
//! ```
//! use engine::driver::{BatchSolver, DriverOptions, Format};
//! use engine::input::{Input, InputError};
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
//!
//! The API is the public modules and the items at the root; `internal_modules!` serves the
//! problem crates' hidden `internals` feature.

// `deny`, not `forbid`: one module allows it, saying why: `memory` (one `madvise`).
#![deny(unsafe_code)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod driver;
pub mod fs;
mod inline_vec;
pub mod input;
pub mod key;
pub mod memory;
pub mod rng;
mod run;
pub mod simd;
pub mod store;

pub use inline_vec::InlineVec;
pub use run::{EXIT_BAD_INPUT, EXIT_BUG, Output, RunError};

/// Declares modules that are not part of a crate's API: public, and hidden from the
/// documentation, under the crate's `internals` feature, which the workspace's tests and
/// xtask turn on to reach into them; private otherwise. Inside such a module `pub` marks
/// what the feature shows, and everything else is `pub(crate)`; without the feature the
/// `unreachable_pub` lint is off there, since `pub` then means "public under `internals`".
///
/// A module may carry attributes of its own, such as a `cfg` for one only the tests use:
///
/// ```ignore
/// engine::internal_modules!(reference, tables, #[cfg(any(test, feature = "internals"))] brute);
/// ```
#[macro_export]
macro_rules! internal_modules {
    ($($(#[$attribute:meta])* $module:ident),+ $(,)?) => {$(
        $(#[$attribute])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $module;
        $(#[$attribute])*
        #[cfg(not(feature = "internals"))]
        #[allow(unreachable_pub, reason = "`pub` marks what the internals feature shows")]
        mod $module;
    )+};
}
