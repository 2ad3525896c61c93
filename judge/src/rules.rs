//! The rules layer: what a problem is to the judge and how an output is judged, with no
//! process run: the [`Problem`] trait and [`check`] (module `problem`), verdicts, the checker
//! and validator protocols, the readers a problem's checker is built from ([`compare`],
//! [`scanf`]), the canonical input format `validate` holds a file to ([`canonical`]), the
//! building blocks of shrink moves ([`moves`]), and `Lenient`, a problem that accepts
//! everything after judging (the stress loop's own cost).

pub mod canonical;
pub mod compare;
#[cfg(feature = "cli")]
pub(crate) mod lenient;
pub mod moves;
mod problem;
mod protocol;
pub mod scanf;
mod verdict;

pub use engine::input::Limits;
pub use problem::{Exhibit, Invalid, Problem, RunLimits, check, render};
pub use protocol::Protocol;
#[cfg(feature = "cli")]
pub(crate) use protocol::{EXIT_FAIL, Source};
pub use verdict::{Verdict, VerdictKind};
