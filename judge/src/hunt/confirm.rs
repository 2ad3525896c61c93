//! Confirming a failure before it is reported: the failing input is run again, alone (no other
//! run of ours beside it), to tell a failure of the program from one of the moment.
//!
//! Reruns judge the whole run whatever the first run's verdict: a run that met the time limit
//! on a busy machine may, given its time, end with a wrong answer or a crash, and that is the
//! failure to report. When the first rerun fails another way than the first run did, the
//! reruns' kind is the one confirmed.
//!
//! [`CONFIRM_RERUNS`] reruns that all fail the same way confirm it: a deterministic program
//! fails again each time, and those reruns are the whole cost of a confirmed failure (a
//! program wrong one run in eight passes this test once in 64). Otherwise [`MORE_RERUNS`]
//! more reruns count how often it fails:
//!
//! - never, for a time limit: the first run met the limit only because the machine was busy
//!   (a CPU-time limit is robust to load, but not immune: a shared cache, the wall-clock
//!   backstop under heavy load). It is [`Standing::Unconfirmed`], and the stress loop goes on;
//! - otherwise the program fails on that input only sometimes: [`Standing::Nondeterministic`]
//!   (failed k of n), reported with its input but not shrunk, since shrinking would follow
//!   chance rather than the bug.

use std::time::Instant;

use super::trial::{Contestant, Trial, trial};
use crate::rules::{Problem, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Sandbox};

/// Reruns that must all fail the same way to confirm a failure.
pub(crate) const CONFIRM_RERUNS: u32 = 2;

/// Reruns after confirming ones that did not all fail the same way.
pub(crate) const MORE_RERUNS: u32 = 4;

/// Reruns of a shrunk input, to say in the report how often it fails alone.
pub(crate) const FINAL_RERUNS: u32 = 2;

/// What reruns alone said of a failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reruns {
    /// The kind of failure counted: the first run's, or the first rerun's when that failed
    /// another way.
    pub kind: VerdictKind,
    /// Whether the first run failed that way too (the kind did not change).
    pub first_counts: bool,
    /// Reruns made.
    pub runs: u32,
    /// How many failed with `kind`.
    pub failed: u32,
    /// The first rerun that failed with `kind`, measured alone.
    pub trial: Option<Trial>,
}

/// Where a failure stands once rerun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Every rerun failed the same way.
    Confirmed,
    /// Some reruns failed the same way, not all: the program fails on this input only
    /// sometimes.
    Nondeterministic,
    /// A time limit that no rerun alone met: the machine's load, not the program.
    Unconfirmed,
}

impl Reruns {
    /// Where the failure stands.
    #[must_use]
    pub fn standing(&self) -> Standing {
        if self.failed == self.runs {
            Standing::Confirmed
        } else if self.failed == 0 && self.kind == VerdictKind::TimeLimit {
            Standing::Unconfirmed
        } else {
            Standing::Nondeterministic
        }
    }

    /// The runs that failed with `kind` and the runs made, the first (failing) run counted
    /// when it failed the same way: `(2, 6)`.
    #[must_use]
    pub fn with_first(&self) -> (u32, u32) {
        let first = u32::from(self.first_counts);
        (self.failed + first, self.runs + first)
    }
}

/// Reruns `input`, which failed with `kind`, alone: [`CONFIRM_RERUNS`] times, and
/// [`MORE_RERUNS`] more when they do not all fail the same way (see the module notes).
///
/// Time: two runs of the program for a deterministic failure, at most six; the four more
/// only before `deadline` (the stress loop's `--time`), which the two always made may pass.
///
/// # Errors
/// A rerun could not be carried out, or a signal stopped it.
pub(super) fn confirm<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: &P::Input,
    kind: VerdictKind,
    options: &ChildOptions,
    deadline: Option<Instant>,
) -> Result<Reruns, ChildError> {
    let mut reruns = Reruns { kind, first_counts: true, runs: 0, failed: 0, trial: None };
    let one = |reruns: &mut Reruns| -> Result<(), ChildError> {
        let t = trial(sandbox, problem, contestant, input, options)?;
        let seen = t.verdict.kind;
        if reruns.runs == 0 && seen != kind && seen.is_failure() && seen != VerdictKind::Fail {
            reruns.kind = seen;
            reruns.first_counts = false;
        }
        reruns.runs += 1;
        if seen == reruns.kind {
            reruns.failed += 1;
            reruns.trial.get_or_insert(t);
        }
        Ok(())
    };
    for _ in 0..CONFIRM_RERUNS {
        one(&mut reruns)?;
    }
    if reruns.failed < reruns.runs {
        for _ in 0..MORE_RERUNS {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            one(&mut reruns)?;
        }
    }
    Ok(reruns)
}

/// Reruns `input` alone `runs` times, judging each run whole, and counts the runs that fail
/// with `kind`.
///
/// # Errors
/// As [`confirm`].
pub(super) fn rerun<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: &P::Input,
    kind: VerdictKind,
    options: &ChildOptions,
    runs: u32,
) -> Result<Reruns, ChildError> {
    let mut reruns = Reruns { kind, first_counts: true, runs, failed: 0, trial: None };
    for _ in 0..runs {
        let t = trial(sandbox, problem, contestant, input, options)?;
        if t.verdict.kind == kind {
            reruns.failed += 1;
            reruns.trial.get_or_insert(t);
        }
    }
    Ok(reruns)
}
