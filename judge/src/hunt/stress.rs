//! The stress loop: generate inputs from a seed in a fixed order, run the user's program on
//! each, judge, and stop at the first failure or when the budget ends.
//!
//! Order: run `i` draws its input from its own seed, [`run_seed`]`(seed, i)`, as
//! [`Schedule::plan`]`(i)` says: a few tiny inputs, then the problem's extreme inputs (the
//! largest sizes and values the limits allow, [`Problem::extreme`]), then many small inputs
//! and growing levels, then all levels in turn. So run `i`'s input depends only on
//! `(seed, i)`. In an exhaustive run
//! ([`StressOptions::exhaustive`]) run `i` takes input `i` of the problem's enumeration
//! ([`Problem::exhaustive`]) instead, and the loop ends with the enumeration.
//!
//! Determinism under `-j N`: workers take run indices from one counter in increasing order.
//! When a run fails, no index above it is started, and every index below it has already
//! been handed out and is finished; the reported failure is the lowest failing index, which
//! is the one a single worker would have found. Runs and cases are counted up to it.
//! (This assumes the user's program is deterministic; near the time limit it may not be.)
//!
//! A failure is confirmed before it is reported (module `confirm`): once the runs
//! beside it have ended, its input is run again alone. A time limit that no rerun alone meets
//! was the machine's load: it is set aside ([`StressReport::unconfirmed`]) and the loop goes
//! on from the next index.
//!
//! A signal caught by the sandbox ([`Sandbox::caught`]) stops the loop: no run starts after it,
//! the running ones are killed and not counted, and the report says so.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::confirm::{Reruns, Standing, confirm};
use super::trial::{Contestant, Plan, Schedule, Trial, trial};
use crate::rules::{Invalid, Limits, Problem, Verdict, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Sandbox};
use engine::rng::SplitMix64;

/// The seed of run `index` under master seed `seed`: the `index`-th output of SplitMix64
/// started at `seed`, so nearby seeds and indices give unrelated inputs.
#[must_use]
pub fn run_seed(seed: u64, index: u64) -> u64 {
    SplitMix64::new(seed.wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15))).next_u64()
}

/// How to stress.
#[derive(Clone, Debug, Default)]
pub struct StressOptions {
    /// The master seed.
    pub seed: u64,
    /// The first run index (to replay run `i` alone: `first = i`, `runs = Some(1)`).
    pub first: u64,
    /// At most this many runs; `None` for no limit.
    pub runs: Option<u64>,
    /// Start no run after this much time; `None` for no limit.
    pub time: Option<Duration>,
    /// Runs at once (at least 1).
    pub jobs: usize,
    /// The limits generated inputs respect.
    pub limits: Limits,
    /// Each run's limits.
    pub run: ChildOptions,
    /// The schedule; `None` for [`Schedule::for_problem`].
    pub schedule: Option<Schedule>,
    /// Run the problem's exhaustive enumeration up to this bound ([`Problem::exhaustive`])
    /// instead of generated inputs; `None` for generated inputs.
    pub exhaustive: Option<u64>,
}

/// A run that failed.
#[derive(Clone, Debug)]
pub struct Failure<I> {
    /// The run's index.
    pub index: u64,
    /// The run's seed ([`run_seed`] of the master seed and the index); 0 in an exhaustive
    /// run, whose inputs depend on no seed.
    pub seed: u64,
    /// The input.
    pub input: I,
    /// The judged run.
    pub trial: Trial,
    /// The reruns alone that confirmed the failure or found it nondeterministic ([`Reruns`]);
    /// `None` when a signal stopped them.
    pub reruns: Option<Reruns>,
}

/// What a stress loop did.
#[derive(Clone, Debug)]
pub struct StressReport<I> {
    /// Runs counted: up to and including the failure, else all that ran.
    pub runs: u64,
    /// Test cases in those runs.
    pub cases: u64,
    /// Wall time of the loop.
    pub elapsed: Duration,
    /// The first failure in run order, if any.
    pub failure: Option<Failure<I>>,
    /// The signal that stopped the loop early, if one did.
    pub interrupted: Option<i32>,
    /// The runs whose time limit no rerun alone met: the machine's load, not the program
    /// ([`Standing::Unconfirmed`]); the loop went on after each.
    pub unconfirmed: Vec<u64>,
}

/// Progress figures passed to a callback after each run (counted as they finish, so not in
/// run order under `-j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Runs finished.
    pub runs: u64,
    /// Test cases in them.
    pub cases: u64,
}

/// Why a stress loop stopped without a verdict about the user's program.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The program could not be run.
    #[error("run {index}: {source}")]
    Run {
        /// The run's index.
        index: u64,
        /// What went wrong.
        source: ChildError,
    },
    /// A generator made an input outside the limits: a bug of ours.
    #[error("run {index} (seed {seed}): the generator made an invalid input: {invalid}")]
    Generated {
        /// The run's index.
        index: u64,
        /// The run's seed.
        seed: u64,
        /// The rule it broke.
        invalid: Invalid,
    },
    /// The problem has no exhaustive enumeration, or not up to the bound asked for.
    #[error("no exhaustive run: {0}")]
    Exhaustive(Invalid),
    /// The judge failed on our own answer: a bug of ours.
    #[error("run {index} (seed {seed}): the judge rejects our own answer: {verdict}")]
    Judge {
        /// The run's index.
        index: u64,
        /// The run's seed.
        seed: u64,
        /// Its verdict.
        verdict: Verdict,
    },
}

/// How one run ended.
enum Outcome<I> {
    /// The program passed.
    Passed,
    /// The program failed.
    Failed(Box<Failure<I>>),
    /// The run could not be carried out.
    Trouble(StressError),
    /// A signal stopped it.
    Interrupted,
}

/// Runs the stress loop of `problem` against `contestant`. A failure is confirmed by reruns
/// alone before it is reported ([`Reruns`]); a time limit that no rerun meets is set aside and
/// the loop goes on.
///
/// Time: per run, generating and solving the input, one process run and one judging pass;
/// runs go `jobs` at a time; a failure adds one rerun, or five when it is not deterministic.
/// Memory: `jobs` inputs at once, plus 12 bytes a finished run for the counts.
///
/// # Errors
/// The lowest-index run that could not be carried out (see [`StressError`]); failures of the
/// user's program are not errors but [`StressReport::failure`].
pub fn stress<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    options: &StressOptions,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
) -> Result<StressReport<P::Input>, StressError> {
    let start = Instant::now();
    let mut end = options.runs.map_or(u64::MAX, |runs| options.first.saturating_add(runs));
    if let Some(bound) = options.exhaustive {
        let len = problem.exhaustive_len(bound, options.limits).map_err(StressError::Exhaustive)?;
        end = end.min(len);
    }
    let loop_ = Loop {
        sandbox,
        problem,
        contestant,
        options,
        schedule: options.schedule.unwrap_or_else(|| contestant.schedule(problem, options.limits)),
        end,
        deadline: options.time.map(|t| start + t),
        done: Mutex::new(Progress { runs: 0, cases: 0 }),
        progress,
    };
    let mut report = StressReport {
        runs: 0,
        cases: 0,
        elapsed: Duration::ZERO,
        failure: None,
        interrupted: None,
        unconfirmed: Vec::new(),
    };
    let mut first = options.first;
    loop {
        let segment = loop_.run_from(first)?;
        report.runs += segment.runs;
        report.cases += segment.cases;
        report.interrupted = segment.interrupted;
        let Some(mut failure) = segment.failure else { break };
        let kind = failure.trial.verdict.kind;
        let deadline = loop_.deadline;
        match confirm(sandbox, problem, contestant, &failure.input, kind, &options.run, deadline) {
            Ok(reruns) if reruns.standing() == Standing::Unconfirmed => {
                report.unconfirmed.push(failure.index);
                first = failure.index + 1;
                continue;
            }
            Ok(reruns) => failure.reruns = Some(reruns),
            Err(ChildError::Interrupted(signal)) => report.interrupted = Some(signal),
            Err(source) => return Err(StressError::Run { index: failure.index, source }),
        }
        report.failure = Some(failure);
        break;
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// One stress loop's fixed parts, run in segments: a segment ends at its first failure.
struct Loop<'a, P: Problem, C: ?Sized> {
    sandbox: &'a Sandbox,
    problem: &'a P,
    contestant: &'a C,
    options: &'a StressOptions,
    schedule: Schedule,
    /// The first index not to run.
    end: u64,
    /// When no run may start any more.
    deadline: Option<Instant>,
    /// Runs and cases finished, for the progress callback.
    done: Mutex<Progress>,
    progress: Option<&'a (dyn Fn(Progress) + Sync)>,
}

/// The runs that stopped the loop, by index: each worker adds the ones it ran.
type Stops<I> = Mutex<Vec<(u64, Outcome<I>)>>;

/// What one segment of the loop did.
struct Segment<I> {
    runs: u64,
    cases: u64,
    failure: Option<Failure<I>>,
    interrupted: Option<i32>,
}

impl<P: Problem, C: Contestant + ?Sized> Loop<'_, P, C> {
    /// Runs indices from `first` on, `jobs` at a time, until the lowest failing index, the end
    /// of the budget or a signal. The failure is the one a single worker would have found.
    fn run_from(&self, first: u64) -> Result<Segment<P::Input>, StressError> {
        let next = AtomicU64::new(first);
        // The lowest index that failed or could not run: no index above it is started.
        let stop = AtomicU64::new(u64::MAX);
        let stops: Stops<P::Input> = Mutex::new(Vec::new());
        let finished: Vec<Vec<(u64, u32)>> = thread::scope(|scope| {
            let workers: Vec<_> = (0..self.options.jobs.max(1))
                .map(|_| scope.spawn(|| self.worker(&next, &stop, &stops)))
                .collect();
            workers.into_iter().map(|w| w.join().expect("a stress worker panicked")).collect()
        });
        let stopped = stops.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        let first_stop = stopped.into_iter().min_by_key(|(index, _)| *index);
        let last = first_stop.as_ref().map_or(u64::MAX, |(index, _)| *index);
        let (mut runs, mut cases) = (0, 0);
        for &(index, c) in finished.iter().flatten() {
            if index <= last {
                runs += 1;
                cases += u64::from(c);
            }
        }
        let failure = match first_stop {
            None => None,
            Some((_, Outcome::Failed(failure))) => Some(*failure),
            Some((_, Outcome::Trouble(error))) => return Err(error),
            Some((_, Outcome::Passed | Outcome::Interrupted)) => {
                unreachable!("only failures and trouble stop the loop")
            }
        };
        // A failure below every run the signal stopped is the one a whole loop would report.
        let interrupted = self.sandbox.caught().filter(|_| failure.is_none());
        Ok(Segment { runs, cases, failure, interrupted })
    }

    /// One worker: takes indices in increasing order until the loop stops; returns the index
    /// and case count of every run it finished.
    fn worker(
        &self,
        next: &AtomicU64,
        stop: &AtomicU64,
        stops: &Stops<P::Input>,
    ) -> Vec<(u64, u32)> {
        let mut finished = Vec::new();
        loop {
            if self.deadline.is_some_and(|d| Instant::now() >= d) || self.sandbox.caught().is_some()
            {
                break;
            }
            let index = next.fetch_add(1, Ordering::SeqCst);
            if index >= self.end || index > stop.load(Ordering::SeqCst) {
                break;
            }
            let (cases, outcome) = self.one(index);
            match outcome {
                Outcome::Interrupted => break,
                Outcome::Passed => {}
                outcome => {
                    stop.fetch_min(index, Ordering::SeqCst);
                    lock(stops).push((index, outcome));
                }
            }
            finished.push((index, u32::try_from(cases).unwrap_or(u32::MAX)));
            if let Some(report) = self.progress {
                let mut done = lock(&self.done);
                done.runs += 1;
                done.cases += cases as u64;
                report(*done);
            }
        }
        finished
    }

    /// Run `index`: its case count and how it ended.
    fn one(&self, index: u64) -> (usize, Outcome<P::Input>) {
        let (problem, options) = (self.problem, self.options);
        let (seed, input) = input_of(problem, options, &self.schedule, index);
        let cases = problem.cases(&input);
        if let Err(invalid) = problem.validate(&input, options.limits) {
            return (cases, Outcome::Trouble(StressError::Generated { index, seed, invalid }));
        }
        let outcome = match trial(self.sandbox, problem, self.contestant, &input, &options.run) {
            Err(ChildError::Interrupted(_)) => Outcome::Interrupted,
            Err(source) => Outcome::Trouble(StressError::Run { index, source }),
            Ok(t) if t.verdict.kind == VerdictKind::Fail => {
                Outcome::Trouble(StressError::Judge { index, seed, verdict: t.verdict })
            }
            Ok(t) if t.verdict.is_ok() => Outcome::Passed,
            Ok(trial) => {
                Outcome::Failed(Box::new(Failure { index, seed, input, trial, reruns: None }))
            }
        };
        (cases, outcome)
    }
}

/// Run `index`'s seed (0 in an exhaustive run) and input.
fn input_of<P: Problem>(
    problem: &P,
    options: &StressOptions,
    schedule: &Schedule,
    index: u64,
) -> (u64, P::Input) {
    if let Some(bound) = options.exhaustive {
        let input = problem.exhaustive(bound, index, options.limits);
        return (0, input.expect("an index below exhaustive_len has an input"));
    }
    let seed = run_seed(options.seed, index);
    let mut rng = SplitMix64::new(seed);
    let input = match schedule.plan(index) {
        Plan::Level(level) => problem.generate(&mut rng, level, options.limits),
        Plan::Extreme(k) => problem.extreme(k, &mut rng, options.limits),
    };
    (seed, input)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_seeds_are_stable_and_distinct() {
        assert_eq!(run_seed(0, 0), SplitMix64::new(0).next_u64());
        let mut seen: Vec<u64> = (0..1000).map(|i| run_seed(7, i)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 1000);
    }
}
