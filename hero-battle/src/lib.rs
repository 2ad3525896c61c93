//! hero-battle: an exact solver for "Battle in Two Pairs of Heroes" (ICPC 2017 Qingdao).
//!
//! Alice's heroes A1, A2 and Bob's B1, B2 take turns attacking; who wins under optimal play,
//! for each first mover? The statement is in `problem/statement.md`.
//!
//! The API: [`run`], the whole program (judge input in, judge output out), with [`Options`]
//! and [`Solver`]; [`solve`] for one [`Case`]; [`threshold`], the fast exact solver, a DP
//! over Alice's hit points whose cells are monotone win/lose boundaries over Bob's
//! (`O(R * B)` per case), whose [`ThresholdSolver`](threshold::ThresholdSolver) keeps its
//! tables from one case to the next; [`InputFormat`], the judge's input format and its one
//! parser; [`generate`], case families with fixed seeds; [`position`], one position at a
//! time with its exact value and remoteness, and the battle as a [`games::Game`] (the jury,
//! `play`, `query`); and `judge` (feature `judge`, on by default), the problem as the judge
//! sees it (limits, checker, generation, shrink moves, exhaustive enumeration), behind the
//! binary's judging subcommands.
//!
//! Inside, not part of the API (the workspace's tests reach them under the hidden `internals`
//! feature):
//!
//! - `rules`: the case, the attacks a side may order and their effect;
//! - `reference`: the reference, a plain memoized search straight from the rules;
//! - `explain`: winning first attacks, for `--explain`;
//! - `parse`: the input format.
//!
//! ```
//! let input = b"1\n10 10 10 10 3 3 3 3 3 3 3 3\n";
//! let output = hero_battle::run(input, &hero_battle::Options::default())?;
//! assert_eq!(output.stdout, b"It depends\n");
//! # Ok::<(), engine::RunError>(())
//! ```

// The only unsafe code is the call into the AVX2 copy of the threshold fill (`threshold.rs`).
#![deny(unsafe_code)]

pub mod generate;
#[cfg(feature = "judge")]
pub mod judge;
mod parse;
pub mod position;
pub mod threshold;
engine::internal_modules!(explain, reference, rules);

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use engine::driver::{BatchOf, BatchSolver, DriverOptions};
use engine::{Output, RunError};

pub use parse::{InputFormat, MAX_CASES};
pub use rules::{Attack, AttackList, Case, Outcome, Player, WhoWins};

/// Which solver answers the cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Solver {
    /// The boundary DP (module `threshold`): fast and exact.
    #[default]
    #[cfg_attr(feature = "cli", value(alias = "threshold"))]
    Fast,
    /// The plain memoized search (module `reference`) the tests trust; slow on large
    /// hit points with small damage.
    #[cfg_attr(feature = "cli", value(alias = "naive"))]
    Reference,
}

/// What [`run`] computes and prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Which solver to run.
    pub solver: Solver,
    /// Add a winning first attack per first mover to each answer.
    pub explain: bool,
    /// Work and time per case, on stderr.
    pub stats: bool,
    /// Threads and progress.
    pub driver: DriverOptions,
}

/// The batch solver: options plus the engine's [`BatchSolver`] plumbing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HeroBattle {
    /// Which solver to run.
    pub solver: Solver,
    /// Add a winning first attack per first mover to each answer.
    pub explain: bool,
    /// Record work and time per case.
    pub stats: bool,
}

/// Per-thread scratch: both solvers' tables, reused across cases.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    threshold: threshold::ThresholdSolver,
    reference: reference::Reference,
}

/// One case's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// Who wins for each first mover.
    pub outcome: Outcome,
    /// `--explain` text and `--stats` figures, when asked for.
    pub detail: Option<Box<Detail>>,
}

/// What `--explain` and `--stats` add to an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Detail {
    /// One line per first mover.
    pub explanation: Option<[explain::Line; 2]>,
    /// Work and time, for `--stats`.
    pub stats: Option<CaseStats>,
}

/// Work and time of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CaseStats {
    /// Fast solver: Alice hit-point pairs reached; reference: positions expanded.
    pub expanded: usize,
    /// Fast solver: boundary cells filled; reference: memo entries.
    pub memo_entries: usize,
    /// Wall time of the solve.
    pub time: Duration,
}

impl BatchSolver for HeroBattle {
    type Format = InputFormat;
    type Shared = ();
    type Scratch = Scratch;
    type Answer = Report;

    fn format(&self) -> &InputFormat {
        &InputFormat::SOLVER
    }

    fn prepare(&self, _: &(), _cases: &[Case]) {}

    fn new_scratch(&self, _: &(), _: &()) -> Scratch {
        Scratch::default()
    }

    fn solve(&self, _: &(), _: &(), _index: usize, case: &Case, scratch: &mut Scratch) -> Report {
        let start = self.stats.then(Instant::now);
        let (outcome, expanded, memo_entries) = match self.solver {
            Solver::Fast => {
                let outcome = scratch.threshold.solve(case);
                let s = scratch.threshold.stats();
                (outcome, s.alice_pairs, s.cells)
            }
            Solver::Reference => {
                let outcome = scratch.reference.solve(case);
                let entries = scratch.reference.memo_entries();
                (outcome, entries, entries)
            }
        };
        let stats = start.map(|s| CaseStats { expanded, memo_entries, time: s.elapsed() });
        let explanation = self.explain.then(|| {
            if self.solver != Solver::Fast {
                scratch.threshold.solve(case);
            }
            explain::explain(case, outcome, &scratch.threshold)
        });
        let detail = (explanation.is_some() || stats.is_some())
            .then(|| Box::new(Detail { explanation, stats }));
        Report { outcome, detail }
    }
}

/// Solves one case with the fast solver (a convenience for tests and library users):
/// `O(R * B)` for `R` reachable pairs of Alice's hit points and Bob's first hit points `B`
/// (see [`threshold`]), plus the tables' allocation.
#[must_use]
pub fn solve(case: &Case) -> Outcome {
    threshold::ThresholdSolver::new().solve(case)
}

/// Appends one case's output: its verdict line, then its explanation lines if any.
pub(crate) fn write_report(report: &Report, out: &mut Vec<u8>) {
    out.extend_from_slice(report.outcome.who_wins().as_str().as_bytes());
    out.push(b'\n');
    if let Some(detail) = &report.detail {
        for line in detail.explanation.iter().flatten() {
            let _ = writeln!(out, "  {line}");
        }
    }
}

/// The `--stats` line of every case that has figures.
pub(crate) fn stats_lines(batch: &BatchOf<HeroBattle>) -> String {
    let mut log = String::new();
    for (i, report) in batch.answers.iter().enumerate() {
        if let Some(s) = report.detail.as_ref().and_then(|detail| detail.stats) {
            let _ = writeln!(
                log,
                "case {}: {} expanded, {} memo entries, {:.3} ms",
                i + 1,
                s.expanded,
                s.memo_entries,
                s.time.as_secs_f64() * 1e3
            );
        }
    }
    log
}

/// The whole program: parses `input`, solves every case in parallel and renders the judge's
/// output (and the `--stats` lines). `O(size of input)` plus the solver's time per case.
///
/// # Errors
/// Malformed input (nothing is solved then), or a thread pool that cannot start.
pub fn run(input: &[u8], options: &Options) -> Result<Output, RunError> {
    let solver =
        HeroBattle { solver: options.solver, explain: options.explain, stats: options.stats };
    let started = Instant::now();
    let written =
        engine::driver::solve_and_write(&solver, input, &options.driver, |batch, i, out| {
            write_report(&batch.answers[i], out);
        })?;
    let mut output = Output { stdout: written.bytes, stderr: stats_lines(&written.batch) };
    if options.stats {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let _ = writeln!(output.stderr, "total: {ms:.3} ms ({})", written.steps);
    }
    Ok(output)
}
