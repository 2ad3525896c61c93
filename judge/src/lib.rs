//! Judging a user's program against ours: the problem-independent half of `check`, `validate`
//! and `stress`.
//!
//! - [`verdict`]: the verdict kinds (ok, wrong answer, presentation error, fail, runtime error,
//!   time limit exceeded) and a verdict's one-line message.
//! - [`protocol`]: how a checker or validator reports a verdict: testlib's exit codes (the
//!   default), Kattis's 42/43 with a feedback folder, CMS's score on stdout; and which file
//!   plays which role in each protocol's argument order.
//! - [`canonical`]: the canonical format `validate` holds an input file to by default (the
//!   problem's rendering of what the file holds, as a setter's validator reads), and the
//!   first departure from it named with its line and column.
//! - [`compare`]: reading a contestant's output: lines and tokens with their line numbers,
//!   quoting, the strict decimal grammar, absolute-error comparison.
//! - [`scanf`]: C's `fscanf(f, "%lf", &x)` exactly as glibc does it (what it consumes, returns
//!   and stores), for judging as an official C checker judged.
//! - [`moves`]: building blocks of shrink moves (drop chunks, drop one, lower a number).
//! - [`problem`]: the [`Problem`] trait each problem crate implements (parse and validate
//!   under [`Limits`], generate, solve, judge, shrink moves), and [`check`] built on it.
//! - [`child`] (Unix): running a program as a judge does: in a fresh folder of its own, under a
//!   CPU-time limit with a wall-clock backstop and a memory limit (the stack's too), with
//!   bounded output, its exit status or signal, CPU and wall time and peak memory; when it
//!   ends, everything it started ends ([`cgroup`] on Linux where one can be had; else its
//!   process group and, on Linux, the subreaper `reaper`).
//! - [`interrupt`] (Unix): SIGINT, SIGTERM and SIGHUP stop every running child and let the
//!   command report what it found; on Linux a child dies with us even on SIGKILL.
//! - [`trial`](mod@trial) (Unix): one input through the user's program and the problem's judge.
//! - [`confirm`] (Unix): a failure run again alone before it is reported: confirmed,
//!   nondeterministic (failed k of n), or a time limit that was the machine's load.
//! - [`stress`](mod@stress) (Unix): the stress loop over generated inputs or a problem's
//!   exhaustive enumeration, deterministic for any number of jobs.
//! - [`shrink`](mod@shrink) (Unix): the shrinking driver, greedy to a 1-minimal failing input.
//! - [`report`] (Unix): a failure's report as a value, fitted to a screen, its texts saved.
//! - [`testset`] (Unix): a folder of tests on disk (`NAME.in` with `NAME.ans`), in the order
//!   Kattis's tools run them, and one test judged from its files (`PROBLEM run`).
//! - [`package`] (Unix): a problem package in the Kattis format (legacy), which DOMjudge
//!   imports: the tests, our answers, the validators and the submissions filed by verdict,
//!   from the [`Problem`] and what [`package::Packaged`] adds (`PROBLEM package`).
//! - [`cli`] (feature `cli`): clap arguments and the runners of the subcommands.
//! - `testing` (feature `testing`, hidden): what the problem crates' tests share, among them
//!   the contracts of [`Problem`] checked on any problem and a toy problem.
//!
//! Only `sys` (private) holds `unsafe` code; its module notes list the system calls.

pub mod canonical;
pub mod compare;
pub mod game;
pub mod lenient;
pub mod moves;
pub mod problem;
pub mod protocol;
pub mod scanf;
pub mod verdict;

#[cfg(unix)]
pub mod cgroup;
#[cfg(unix)]
pub mod child;
#[cfg(unix)]
pub mod confirm;
#[cfg(unix)]
pub mod interrupt;
#[cfg(unix)]
pub mod package;
#[cfg(unix)]
mod reaper;
#[cfg(unix)]
pub mod report;
#[cfg(unix)]
pub mod shrink;
#[cfg(unix)]
pub mod stress;
#[cfg(unix)]
mod sys;
#[cfg(unix)]
pub mod testset;
#[cfg(unix)]
pub mod trial;

#[cfg(all(unix, feature = "cli"))]
pub mod cli;
#[cfg(all(unix, any(test, feature = "testing")))]
#[doc(hidden)]
pub mod testing;

pub use problem::{Exhibit, Invalid, Limits, Problem, RunLimits, check};
pub use protocol::Protocol;
pub use verdict::{Verdict, VerdictKind};

#[cfg(unix)]
pub use child::{ChildError, ChildOptions, ChildReport, Exit, PeakMemory, Program, run_child};
#[cfg(unix)]
pub use shrink::{ShrinkEnd, ShrinkOptions, ShrinkProgress, Shrunk, shrink, shrink_with_progress};
#[cfg(unix)]
pub use stress::{Failure, Plan, Schedule, StressOptions, StressReport, stress};
#[cfg(unix)]
pub use trial::{Trial, trial};
