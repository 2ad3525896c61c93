//! The hunt layer: searching for an input on which a program fails, on the sandbox and the
//! rules. [`hunt`] is the one way from a program to a typed [`Finding`]: the stress loop
//! (module `stress`), the failure confirmed by reruns alone (module `confirm`), then shrunk
//! (module `shrink`) as [`HuntOptions`] ask. [`examine`] does the same from an input the user
//! already has. The front-ends (`stress` and `shrink` on the command line, `package`'s kill
//! tests) render the finding; they differ in one place, what they keep of a shrink that may
//! have followed chance ([`ShrinkOutcome::FollowedChance`]).
//!
//! - `trial`: one input through the program and the problem's judge; [`Contestant`], the
//!   one place a batch program and a player of the problem's game differ, and the
//!   [`Schedule`] of inputs a contestant's stress loop tries.
//! - `interactive`: a [`Player`]'s trial, every game of the input against the jury.
//! - `confirm`: a failure run again alone before it is reported.
//! - `stress`: the stress loop, deterministic for any number of jobs.
//! - `shrink`: the shrinking driver, greedy to a 1-minimal failing input.
//! - `testset`: a folder of tests on disk, and one test judged from its files.
//! - `grade`: a program graded on a set of tests (`PROBLEM run`'s and a package's), and the
//!   groups' rule ([`Score`]).

mod confirm;
mod grade;
mod interactive;
pub mod jury;
mod shrink;
mod stress;
mod testset;
mod trial;

use std::time::Duration;

pub use confirm::{Reruns, Standing};
pub(crate) use grade::{Coverage, Files, GradedTest, Grading, GroupTests, grade};
pub use grade::{GroupScore, Score};
#[cfg(feature = "cli")]
pub(crate) use grade::{Outcome, groups_on_disk};
pub use interactive::{Juries, PerfectPlay, Player};
pub(crate) use shrink::ShrinkProgress;
pub use shrink::{ShrinkEnd, ShrinkOptions, Shrunk, shrink};
pub use stress::{Failure, Progress, StressError, StressOptions, StressReport, run_seed, stress};
pub(crate) use testset::judge_test;
pub use testset::{TestFile, TestSetError, find_tests};
pub use trial::{Contestant, Plan, ReplyTimes, Schedule, Transcript, Trial, trial};

use crate::rules::{Problem, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Sandbox, wall_backstop};

/// What to do with a failure once found: confirm it, then shrink it or not.
#[derive(Clone, Debug, Default)]
pub(crate) struct HuntOptions {
    /// The stress loop's options ([`hunt`]); their `run` limits every run of the hunt.
    pub stress: StressOptions,
    /// How to shrink a confirmed failure; `None` reports it as found.
    pub shrink: Option<ShrinkOptions>,
    /// How a time limit is shrunk: `None` keeps it as found; `Some(percent)` shrinks it
    /// under that percentage of the time limit (150: one and a half times), when the input
    /// as found fails there too. Shrinking at the limit itself ends on an input just over it,
    /// the most fragile there is, where the machine's load decides.
    pub time_limit_margin: Option<u32>,
    /// A bound on the whole hunt (`stress --time` as given): the loop stops starting runs at
    /// its end, confirming makes only the two reruns that must be made past it, and
    /// shrinking gets what is left, if less than its own budget.
    pub total: Option<Duration>,
}

/// Where a hunt has got, for a progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HuntProgress {
    /// The stress loop: runs and cases finished.
    Stress(Progress),
    /// Shrinking a failure.
    Shrink(ShrinkProgress),
}

/// What a hunt did and found.
#[derive(Clone, Debug)]
#[cfg_attr(
    not(feature = "cli"),
    expect(dead_code, reason = "the command line alone reads the whole hunt")
)]
pub(crate) struct Hunt<I> {
    /// Runs counted: the stress loop's up to and including the failure, else all that ran
    /// ([`examine`]: the runs of the given input before it failed or passed).
    pub runs: u64,
    /// Test cases in those runs.
    pub cases: u64,
    /// Wall time of the search, shrinking aside.
    pub elapsed: Duration,
    /// The runs whose time limit no rerun alone met: the machine's load, not the program;
    /// the loop went on after each.
    pub unconfirmed: Vec<u64>,
    /// Whether what the hunt's bound ([`HuntOptions::total`]) left for shrinking was less than
    /// the shrink's own time budget: a shrink stopped by its time was stopped by that bound.
    pub shrink_cut: bool,
    /// What was found.
    pub finding: Finding<I>,
}

/// What a hunt found.
#[derive(Clone, Debug)]
#[cfg_attr(
    not(feature = "cli"),
    expect(dead_code, reason = "the command line alone reads the whole hunt")
)]
pub(crate) enum Finding<I> {
    /// No failure in the runs made; the last run's trial ([`examine`]), if one is kept.
    Passed(Option<Box<Trial>>),
    /// A signal stopped the hunt before any failure.
    Interrupted(i32),
    /// The given input's time limit that no rerun alone met ([`examine`]): the machine's
    /// load.
    Unconfirmed(Box<Reruns>),
    /// A failure.
    Failed(Box<Failed<I>>),
}

/// A failure: the input as found, where it stands after reruns alone, and how far
/// shrinking got.
#[derive(Clone, Debug)]
#[cfg_attr(
    not(feature = "cli"),
    expect(dead_code, reason = "the command line alone reads the whole hunt")
)]
pub(crate) struct Failed<I> {
    /// The run that found it (its index and seed in a stress loop), and its input.
    pub found: Failure<I>,
    /// The run to report for the input as found: the first rerun alone when the reruns
    /// confirmed a failure of another kind than the first run's (that failure is the one),
    /// else the first run.
    pub failing: Trial,
    /// What shrinking did.
    pub shrink: ShrinkOutcome<I>,
}

/// What shrinking a failure did, or why it was not shrunk.
#[derive(Clone, Debug)]
pub(crate) enum ShrinkOutcome<I> {
    /// Confirmed, and not shrunk: no shrink was asked for.
    NotAsked,
    /// Not shrunk: a time limit met in only `failed` of `runs` runs alone, the program's CPU
    /// time about the limit, where the machine's load decides.
    NearTimeLimit {
        /// Runs that failed the same way, the first included when it did.
        failed: u32,
        /// Runs, the first included when it failed the same way.
        runs: u32,
    },
    /// Not shrunk: the failure came back in only `failed` of `runs` runs alone, and a shrink
    /// would follow chance rather than the bug.
    Nondeterministic {
        /// Runs that failed the same way, the first included when it did.
        failed: u32,
        /// Runs, the first included when it failed the same way.
        runs: u32,
    },
    /// Not shrunk: a signal stopped the reruns alone before they confirmed the failure.
    Stopped,
    /// A time limit, kept as found ([`HuntOptions::time_limit_margin`]): none is asked, or
    /// the input as found does not meet the margin's limit.
    KeptTimeLimit,
    /// Shrunk; the result failed every rerun alone, or a signal stopped its reruns.
    Shrunk(Shrunk<I>),
    /// Shrunk to an input that failed only `failed` of `runs` reruns alone (maybe none): the
    /// shrink may have followed chance rather than the bug.
    FollowedChance {
        /// The shrink.
        shrunk: Shrunk<I>,
        /// Reruns alone of the result that failed the same way.
        failed: u32,
        /// Reruns alone of the result.
        runs: u32,
    },
}

/// Runs the stress loop of `problem` against `contestant`, confirms its failure by reruns alone,
/// and shrinks it as `options` ask, calling `progress` as it goes.
///
/// Time: the loop's and the shrink's (see [`stress`] and [`shrink`]).
///
/// # Errors
/// The lowest-index run that could not be carried out; a shrink candidate that could not be
/// run. Failures of the user's program are not errors but the [`Finding`].
pub(crate) fn hunt<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    options: &HuntOptions,
    progress: Option<&(dyn Fn(HuntProgress) + Sync)>,
) -> Result<Hunt<P::Input>, StressError> {
    let started = std::time::Instant::now();
    let stress_progress = |p| progress.map_or((), |report| report(HuntProgress::Stress(p)));
    let report = stress(sandbox, problem, contestant, &options.stress, Some(&stress_progress))?;
    let mut shrink_cut = false;
    let finding = match (report.failure, report.interrupted) {
        (Some(failure), _) => {
            let index = failure.index;
            // The loop's time budget bounds the whole hunt: shrinking gets what is left of
            // it, if less than its own.
            let mut options = options.clone();
            if let (Some(time), Some(shrink)) = (options.total, options.shrink.as_mut()) {
                let left = time.saturating_sub(started.elapsed());
                shrink_cut = shrink.time.is_none_or(|own| left < own);
                shrink.time = Some(shrink.time.map_or(left, |own| own.min(left)));
            }
            let failed = settle(sandbox, problem, contestant, failure, &options, progress)
                .map_err(|source| StressError::Run { index, source })?;
            Finding::Failed(Box::new(failed))
        }
        (None, Some(signal)) => Finding::Interrupted(signal),
        (None, None) => Finding::Passed(None),
    };
    Ok(Hunt {
        runs: report.runs,
        cases: report.cases,
        elapsed: report.elapsed,
        unconfirmed: report.unconfirmed,
        shrink_cut,
        finding,
    })
}

/// How many times [`examine`] runs an input that passes before it says so: a program that
/// fails only sometimes may pass the first run.
#[cfg(feature = "cli")]
pub(crate) const EXAMINE_RUNS: u32 = 1 + confirm::FINAL_RERUNS;

/// [`hunt`] from `input`, which the user says `contestant` fails on: it is run until it fails
/// (at most [`EXAMINE_RUNS`] times), confirmed by reruns alone when it failed at once (a
/// program that passed before it failed is nondeterministic), then shrunk as `options` ask
/// (their `stress` part is not used but for its run limits).
///
/// # Errors
/// A run that could not be carried out.
#[cfg(feature = "cli")]
pub(crate) fn examine<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: P::Input,
    options: &HuntOptions,
    progress: Option<&(dyn Fn(HuntProgress) + Sync)>,
) -> Result<Hunt<P::Input>, ChildError> {
    let started = std::time::Instant::now();
    let run = &options.stress.run;
    let cases = problem.cases(&input) as u64;
    let mut first = trial(sandbox, problem, contestant, &input, run)?;
    let mut runs = 1;
    while !first.verdict.kind.is_failure() && runs < EXAMINE_RUNS {
        first = trial(sandbox, problem, contestant, &input, run)?;
        runs += 1;
    }
    // The search's time is the given input's runs; confirming and shrinking are not searching.
    let elapsed = started.elapsed();
    let hunt = |finding| Hunt {
        runs: u64::from(runs),
        cases: cases * u64::from(runs),
        elapsed,
        unconfirmed: Vec::new(),
        shrink_cut: false,
        finding,
    };
    let kind = first.verdict.kind;
    if !kind.is_failure() {
        return Ok(hunt(Finding::Passed(Some(Box::new(first)))));
    }
    let reruns = if runs > 1 {
        // It passed before it failed: nondeterministic.
        let passed = runs - 1;
        Some(Reruns { kind, first_counts: true, runs: passed, failed: 0, trial: None })
    } else {
        match confirm::confirm(sandbox, problem, contestant, &input, kind, run, None) {
            Ok(reruns) if reruns.standing() == Standing::Unconfirmed => {
                return Ok(hunt(Finding::Unconfirmed(Box::new(reruns))));
            }
            Ok(reruns) => Some(reruns),
            Err(ChildError::Interrupted(_)) => None,
            Err(e) => return Err(e),
        }
    };
    let found = Failure { index: 0, seed: 0, input, trial: first, reruns };
    let failed = settle(sandbox, problem, contestant, found, options, progress)?;
    Ok(hunt(Finding::Failed(Box::new(failed))))
}

/// Shrinks a failure as `options` ask, once its reruns say where it stands; one they did not
/// confirm is not shrunk, and its [`ShrinkOutcome`] says why.
fn settle<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    found: Failure<P::Input>,
    options: &HuntOptions,
    progress: Option<&(dyn Fn(HuntProgress) + Sync)>,
) -> Result<Failed<P::Input>, ChildError> {
    let confirmed = found.reruns.as_ref().is_some_and(|r| r.standing() == Standing::Confirmed);
    // When the reruns alone confirmed a failure of another kind, that failure is the one.
    let failing = match &found.reruns {
        Some(Reruns { trial: Some(alone), first_counts: false, .. }) if confirmed => alone.clone(),
        _ => found.trial.clone(),
    };
    // A failure the reruns alone did not confirm is reported as found, with why.
    let unconfirmed = match &found.reruns {
        None => Some(ShrinkOutcome::Stopped),
        Some(_) if confirmed => None,
        Some(reruns) => {
            let (failed, runs) = reruns.with_first();
            Some(if found.trial.verdict.kind == VerdictKind::TimeLimit {
                ShrinkOutcome::NearTimeLimit { failed, runs }
            } else {
                ShrinkOutcome::Nondeterministic { failed, runs }
            })
        }
    };
    if let Some(shrink) = unconfirmed {
        return Ok(Failed { found, failing, shrink });
    }
    let (shrink_options, failing_there) = match options.shrink.as_ref() {
        Some(shrink) if failing.verdict.kind == VerdictKind::TimeLimit => {
            match margined(sandbox, problem, contestant, &found.input, shrink, options)? {
                Some((shrink, failing)) => (Some(shrink), failing),
                None => return Ok(Failed { found, failing, shrink: ShrinkOutcome::KeptTimeLimit }),
            }
        }
        shrink => (shrink.cloned(), failing.clone()),
    };
    let shrink = match shrink_options {
        None => ShrinkOutcome::NotAsked,
        Some(shrink_options) => {
            let shrink_progress = |p| progress.map_or((), |report| report(HuntProgress::Shrink(p)));
            let shrunk = shrink::shrink_with_progress(
                sandbox,
                problem,
                contestant,
                found.input.clone(),
                failing_there,
                &shrink_options,
                Some(&shrink_progress),
            )?;
            match shrunk.reruns.as_ref().map(|r| (r.failed, r.runs)) {
                Some((failed, runs)) if failed < runs => {
                    ShrinkOutcome::FollowedChance { shrunk, failed, runs }
                }
                _ => ShrinkOutcome::Shrunk(shrunk),
            }
        }
    };
    Ok(Failed { found, failing, shrink })
}

/// The shrink of a time limit: `shrink` under the margin's time limit, and the input's run
/// alone there, which must be a time limit too; `None` when no margin is asked or the input
/// does not meet the margin's limit (it is kept as found).
fn margined<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: &P::Input,
    shrink: &ShrinkOptions,
    options: &HuntOptions,
) -> Result<Option<(ShrinkOptions, Trial)>, ChildError> {
    let Some(percent) = options.time_limit_margin else { return Ok(None) };
    let time_limit = shrink.run.time_limit * percent / 100;
    let run =
        ChildOptions { time_limit, wall_limit: wall_backstop(time_limit), ..shrink.run.clone() };
    let there = trial(sandbox, problem, contestant, input, &run)?;
    if there.verdict.kind != VerdictKind::TimeLimit {
        return Ok(None);
    }
    Ok(Some((ShrinkOptions { run, ..shrink.clone() }, there)))
}
