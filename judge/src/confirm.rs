//! Confirming a failure before it is reported: the failing input is run again, alone (no other
//! run of ours beside it), to tell a failure of the program from one of the moment.
//!
//! One rerun that fails the same way (the same verdict kind) confirms it: a deterministic
//! program fails again, and that is the whole cost of a confirmed failure. When the rerun does
//! not fail that way, [`MORE_RERUNS`] more reruns count how often it does:
//!
//! - none of them, for a time limit: the first run met the limit only because the machine was
//!   busy (a CPU-time limit is robust to load, but not immune: a shared cache, a wall-clock
//!   backstop under heavy load). It is [`Standing::Unconfirmed`], and the stress loop goes on;
//! - otherwise the program fails on that input only sometimes: [`Standing::Nondeterministic`]
//!   (failed k of n), reported with its input but not shrunk, since shrinking would follow
//!   chance rather than the bug.

use super::child::{ChildError, ChildOptions, Program};
use super::problem::Problem;
use super::trial::{Trial, trial_judging};
use super::verdict::VerdictKind;

/// Reruns after a first rerun that did not fail the same way.
pub const MORE_RERUNS: u32 = 4;

/// Reruns of a shrunk input, to say in the report how often it fails alone.
pub const FINAL_RERUNS: u32 = 2;

/// What reruns alone said of a failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reruns {
    /// Reruns made.
    pub runs: u32,
    /// How many failed the same way.
    pub failed: u32,
    /// The first rerun that failed the same way, measured alone.
    pub trial: Option<Trial>,
}

/// Where a failure stands once rerun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The first rerun failed the same way.
    Confirmed,
    /// Some reruns failed the same way, not the first: the program fails on this input only
    /// sometimes.
    Nondeterministic,
    /// A time limit that no rerun alone met: the machine's load, not the program.
    Unconfirmed,
}

impl Reruns {
    /// Where the failure of kind `kind` stands.
    #[must_use]
    pub fn standing(&self, kind: VerdictKind) -> Standing {
        if self.failed == self.runs {
            Standing::Confirmed
        } else if self.failed == 0 && kind == VerdictKind::TimeLimit {
            Standing::Unconfirmed
        } else {
            Standing::Nondeterministic
        }
    }

    /// `failed 2 of 6 runs` counting the first (failing) run too, for reports.
    #[must_use]
    pub fn with_first(&self) -> String {
        format!("failed {} of {} runs", self.failed + 1, self.runs + 1)
    }
}

/// Reruns `input`, which failed with `kind`, alone: once, and [`MORE_RERUNS`] more times when
/// that rerun does not fail the same way (see the module notes).
///
/// Time: one run of the program for a deterministic failure, at most `1 + MORE_RERUNS`.
///
/// # Errors
/// A rerun could not be carried out, or a signal stopped it.
pub fn confirm<P: Problem>(
    problem: &P,
    program: &Program,
    input: &P::Input,
    kind: VerdictKind,
    options: &ChildOptions,
) -> Result<Reruns, ChildError> {
    let first = rerun(problem, program, input, kind, options, 1)?;
    if first.failed == 1 {
        return Ok(first);
    }
    let more = rerun(problem, program, input, kind, options, MORE_RERUNS)?;
    Ok(Reruns { runs: 1 + more.runs, failed: more.failed, trial: more.trial })
}

/// Reruns `input` alone `runs` times and counts the runs that fail with `kind`.
///
/// # Errors
/// As [`confirm`].
pub fn rerun<P: Problem>(
    problem: &P,
    program: &Program,
    input: &P::Input,
    kind: VerdictKind,
    options: &ChildOptions,
    runs: u32,
) -> Result<Reruns, ChildError> {
    let judge_output = kind.judges_output();
    let mut reruns = Reruns { runs, failed: 0, trial: None };
    for _ in 0..runs {
        let t = trial_judging(problem, program, input, options, judge_output)?;
        if t.verdict.kind == kind {
            reruns.failed += 1;
            reruns.trial.get_or_insert(t);
        }
    }
    Ok(reruns)
}
