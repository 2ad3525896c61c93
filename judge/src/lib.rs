//! Judging a user's program against ours: the problem-independent half of `check`,
//! `validate`, `stress`, `shrink`, `run` and `package`, generic over each problem's
//! [`Problem`].
//!
//! The crate is four layers, each using only the ones above it:
//!
//! - **rules** (no process run): the [`Problem`] trait and [`check`], verdicts, the checker
//!   and validator protocols, the readers checkers are built from ([`compare`], [`scanf`]),
//!   the canonical input format ([`canonical`]), shrink moves' building blocks ([`moves`]).
//! - **sandbox**: a [`Sandbox`] runs a [`Program`] as a judge runs it: a CPU-time limit with
//!   a wall-clock backstop, a memory limit, a fresh folder, bounded output, and nothing it
//!   starts outliving it; signals stop every run. Not a sandbox for untrusted code: a run
//!   sees the file system and the network as the user does.
//! - **hunt**: one judged run ([`trial`]), the stress loop ([`stress`]), confirmation by
//!   reruns alone, the shrinking driver ([`shrink`]), and `hunt`, which chains them into
//!   one typed finding for the command line and the package; tests on disk ([`find_tests`])
//!   and a program graded on them; a program against the [`jury`] of a problem's game
//!   ([`Player`], [`Juries`]).
//! - **products**: [`package`] (a Kattis problem package) and `cli` (feature `cli`: the
//!   subcommands every problem binary flattens into its own).
//!
//! Every layer may use [`text`], the judge's words (counts, durations, sizes, commands),
//! which imports nothing of the crate.
//!
//! `testing` (feature `testing`, hidden) is what the problem crates' tests share: the
//! contracts of [`Problem`] checked on any problem, a toy problem, the binaries' conformance.
//! Only the sandbox's `sys` module holds `unsafe` code; its module notes list the system
//! calls.

mod rules;

#[cfg(unix)]
mod hunt;
#[cfg(unix)]
pub mod package;
#[cfg(unix)]
mod sandbox;
pub mod text;

#[cfg(all(unix, feature = "cli"))]
pub mod cli;
#[cfg(all(unix, any(test, feature = "testing")))]
#[doc(hidden)]
pub mod testing;

pub use rules::{
    Exhibit, Invalid, Limits, Problem, Protocol, RunLimits, Verdict, VerdictKind, canonical, check,
    compare, moves, render, scanf,
};

#[cfg(unix)]
pub use hunt::jury;
#[cfg(unix)]
pub use hunt::{
    Contestant, Failure, Juries, PerfectPlay, Plan, Player, Progress, ReplyTimes, Reruns, Schedule,
    ShrinkEnd, ShrinkOptions, Shrunk, Standing, StressError, StressOptions, StressReport, TestFile,
    TestSetError, Transcript, Trial, find_tests, run_seed, shrink, stress, trial,
};
#[cfg(unix)]
pub use sandbox::{ChildError, ChildOptions, ChildReport, Exit, PeakMemory, Program, Sandbox};
