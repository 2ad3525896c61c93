//! The shrinking driver: from a failing input, greedily apply the first shrink move whose
//! result is valid under the limits and still fails the same way (same verdict kind), until
//! no move does. The result is then 1-minimal under the problem's moves: no single move
//! gives a valid input that fails the same way.
//!
//! Candidates are tried in the problem's order (big steps first), `jobs` at a time in
//! parallel; of a batch, the first candidate in move order that fails is accepted, so the
//! result does not depend on `jobs`. Every candidate is run as a whole input, so a failure
//! that needs earlier cases (state kept between cases) keeps them.
//!
//! After a move at position `p` of the input's move list is accepted, the new input's moves
//! are tried from position `p` on, then from the first up to `p` (C-Reduce's way of going on
//! where a pass left off). Moves before `p` were just tried on a nearly equal input and
//! mostly fail again: restarting from the first would retry them after every accepted move,
//! which made shrinking one 12-number case cost about three times the runs (a number's
//! halving steps all re-failed each time another number moved). Position `p` of the new
//! list is, for list-shaped moves, the same move on the new input: the next halving step of
//! the same number, the next chunk of the same size. A move that drops cases is the exception:
//! it renumbers the list, and the big chunk drops at its head are worth trying again on the
//! smaller file, so the search starts over (on an official-size card-duel failure, resuming
//! took 136 moves and about 200 runs where starting over takes 20 moves and about 50).
//!
//! Cost: each accepted move costs the candidates tried before it in the circular order; a
//! pass around the whole list that accepts nothing ends the search, so the result is still
//! 1-minimal. Moves that are invalid under the limits cost no run, and when the failure is a
//! runtime error or an exceeded limit, a candidate's output is not judged (our solver is
//! not run): a program that exits normally fails some other way at most.
//!
//! A time limit is shrunk one candidate at a time, so that every run that decides is alone.
//! The result is rerun alone [`FINAL_RERUNS`] times, so the report can say how often it fails
//! ([`Shrunk::reruns`]).
//!
//! The search stops early when its time or run budget ends or a signal is caught
//! ([`Sandbox::caught`]); the result is then the smallest failing input so far,
//! and [`Shrunk::end`] says why it stopped.

use std::thread;
use std::time::{Duration, Instant};

use super::confirm::{FINAL_RERUNS, Reruns, rerun};
use super::trial::{Contestant, Trial};
use crate::rules::{Limits, Problem, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Sandbox};

/// How to shrink. Use the options the failure was found with (same limits and time limit),
/// or the failure may not reproduce.
#[derive(Clone, Debug, Default)]
pub struct ShrinkOptions {
    /// Candidates run at once (at least 1).
    pub jobs: usize,
    /// The limits every candidate must respect.
    pub limits: Limits,
    /// Each run's limits.
    pub run: ChildOptions,
    /// Stop after this much time (the result is then not known to be 1-minimal).
    pub time: Option<Duration>,
    /// Stop after this many runs.
    pub runs: Option<u64>,
}

/// The shrunk failure.
#[derive(Clone, Debug)]
pub struct Shrunk<I> {
    /// The smallest failing input found.
    pub input: I,
    /// Its failing run.
    pub trial: Trial,
    /// Moves accepted.
    pub steps: u64,
    /// Runs made (with `jobs > 1`, this counts candidates run in parallel with an accepted
    /// one, so it varies with `jobs`; the input does not).
    pub runs: u64,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Why the search ended.
    pub end: ShrinkEnd,
    /// The result rerun alone a few times, to say how often it fails; `None` when a signal
    /// stopped the search or the reruns.
    pub reruns: Option<Reruns>,
}

/// Why a shrinking search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShrinkEnd {
    /// No move of the result gives a valid input that fails the same way: it is 1-minimal.
    Minimal,
    /// The time budget ended first.
    Time,
    /// The run budget ended first.
    Runs,
    /// This signal stopped it.
    Interrupted(i32),
}

impl<I> Shrunk<I> {
    /// Whether every move of the result was tried (and none failed the same way).
    #[must_use]
    pub fn minimal(&self) -> bool {
        self.end == ShrinkEnd::Minimal
    }
}

/// Shrinks `input`, which fails with `failing` (its verdict's kind is the one kept).
///
/// # Errors
/// A candidate's run could not be carried out.
///
/// # Panics
/// If a move of the problem does not lower its [`Problem::size`] (shrinking would not end).
pub fn shrink<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: P::Input,
    failing: Trial,
    options: &ShrinkOptions,
) -> Result<Shrunk<P::Input>, ChildError> {
    shrink_with_progress(sandbox, problem, contestant, input, failing, options, None)
}

/// How far a shrinking search has got, passed to a callback after each batch of runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShrinkProgress {
    /// Moves accepted.
    pub steps: u64,
    /// Runs made.
    pub runs: u64,
    /// The current input's size ([`Problem::size`]).
    pub size: u64,
}

/// [`shrink`], calling `progress` after each batch of runs.
///
/// # Errors
/// As [`shrink`].
///
/// # Panics
/// As [`shrink`].
pub(super) fn shrink_with_progress<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: P::Input,
    failing: Trial,
    options: &ShrinkOptions,
    progress: Option<&(dyn Fn(ShrinkProgress) + Sync)>,
) -> Result<Shrunk<P::Input>, ChildError> {
    let start = Instant::now();
    let kind = failing.verdict.kind;
    let judge_output = kind.judges_output();
    // A time limit is decided by runs alone: candidates beside each other would share the
    // cores and slow each other down.
    let jobs = if kind == VerdictKind::TimeLimit { 1 } else { options.jobs.max(1) };
    let mut current = (input, failing);
    let (mut steps, mut runs) = (0, 0);
    // Where the next pass starts in the current input's move list.
    let mut resume = 0;
    let out_of_budget = |runs: u64| {
        if let Some(signal) = sandbox.caught() {
            Some(ShrinkEnd::Interrupted(signal))
        } else if options.time.is_some_and(|t| start.elapsed() >= t) {
            Some(ShrinkEnd::Time)
        } else if options.runs.is_some_and(|limit| runs >= limit) {
            Some(ShrinkEnd::Runs)
        } else {
            None
        }
    };
    let end = 'search: loop {
        let size = problem.size(&current.0);
        let accepted = {
            let circular = problem
                .shrink(&current.0)
                .enumerate()
                .skip(resume)
                .chain(problem.shrink(&current.0).enumerate().take(resume));
            let mut moves = circular.filter(|(_, candidate)| {
                let smaller = problem.size(candidate);
                assert!(
                    smaller < size,
                    "{}: a shrink move went from size {size} to {smaller}",
                    problem.name()
                );
                problem.validate(candidate, options.limits).is_ok()
            });
            // Right after an accepted move the next one often succeeds at once, so the
            // first batch of a pass is one candidate; later batches use every job.
            let mut width = 1;
            loop {
                if let Some(end) = out_of_budget(runs) {
                    break 'search end;
                }
                let (positions, batch): (Vec<usize>, Vec<P::Input>) =
                    moves.by_ref().take(width).unzip();
                width = jobs;
                if batch.is_empty() {
                    break None;
                }
                runs += batch.len() as u64;
                if let Some(report) = progress {
                    report(ShrinkProgress { steps, runs, size });
                }
                let trials = match run_batch(
                    sandbox,
                    problem,
                    contestant,
                    &batch,
                    &options.run,
                    judge_output,
                ) {
                    Err(ChildError::Interrupted(signal)) => {
                        break 'search ShrinkEnd::Interrupted(signal);
                    }
                    trials => trials?,
                };
                let hit = trials
                    .into_iter()
                    .zip(batch)
                    .zip(positions)
                    .find(|((t, _), _)| t.verdict.kind == kind);
                if let Some(((t, candidate), position)) = hit {
                    break Some((candidate, t, position));
                }
            }
        };
        match accepted {
            Some((candidate, t, position)) => {
                // A move that dropped cases renumbers the whole list and makes the big
                // chunk drops at its head worth trying again: start over. Any other move
                // goes on where it was accepted.
                let dropped_cases = problem.cases(&candidate) < problem.cases(&current.0);
                resume = if dropped_cases { 0 } else { position };
                current = (candidate, t);
                steps += 1;
            }
            None => break ShrinkEnd::Minimal,
        }
    };
    let (input, trial) = current;
    let reruns = match end {
        ShrinkEnd::Interrupted(_) => None,
        _ => match rerun(sandbox, problem, contestant, &input, kind, &options.run, FINAL_RERUNS) {
            Err(ChildError::Interrupted(_)) => None,
            reruns => Some(reruns?),
        },
    };
    Ok(Shrunk { input, trial, steps, runs, elapsed: start.elapsed(), end, reruns })
}

/// Runs every candidate of `batch` at once (one thread each; the caller's thread takes the
/// first) and returns their trials in batch order.
fn run_batch<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    batch: &[P::Input],
    options: &ChildOptions,
    judge_output: bool,
) -> Result<Vec<Trial>, ChildError> {
    let Some((first, rest)) = batch.split_first() else { return Ok(Vec::new()) };
    let one = |candidate| contestant.trial(sandbox, problem, candidate, options, judge_output);
    thread::scope(|scope| {
        let others: Vec<_> =
            rest.iter().map(|candidate| scope.spawn(move || one(candidate))).collect();
        // Every thread is joined before an error is returned, so no run outlives the call.
        let mut trials = vec![one(first)];
        trials.extend(others.into_iter().map(|o| o.join().expect("a shrink worker panicked")));
        trials.into_iter().collect()
    })
}
