//! hero-battle: an exact solver for "Battle in Two Pairs of Heroes" (ICPC 2017 Qingdao).
//!
//! Alice's heroes A1, A2 and Bob's B1, B2 take turns attacking; who wins under optimal play,
//! for each first mover? The statement is in `docs/problems/hero-battle.md`. The crate has
//!
//! - [`rules`]: the case, the attacks a side may order and their effect;
//! - [`threshold`]: the fast exact solver, a DP over Alice's hit points whose cells are
//!   monotone win/lose boundaries over Bob's (`O(R * B)` per case, see the module);
//! - [`reference`](mod@reference): the reference, a plain memoized search straight from the
//!   rules;
//! - [`explain`]: winning first attacks, for `--explain`;
//! - [`generate`]: case families with fixed seeds;
//! - [`judge`]: the problem as the judge sees it (limits, checker, generation, shrink
//!   moves, exhaustive enumeration), behind the binary's `check`, `validate` and `stress`;
//! - [`run`]: the whole program, judge input in, judge output out.
//!
//! ```
//! let input = b"1\n10 10 10 10 3 3 3 3 3 3 3 3\n";
//! let output = hero_battle::run(input, &hero_battle::Options::default())?;
//! assert_eq!(output.stdout, b"It depends\n");
//! # Ok::<(), engine::RunError>(())
//! ```

#![forbid(unsafe_code)]

pub mod explain;
pub mod generate;
pub mod judge;
pub mod reference;
pub mod rules;
pub mod threshold;

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use ::judge::Limits;
use engine::driver::{BatchOf, BatchSolver, Format};
use engine::input::{Input, InputError};
use engine::{DriverOptions, Output, RunError};

pub use rules::{Case, Outcome, Player, WhoWins};

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

/// The judge's input format: `T`, then `T` lines of twelve numbers in `1..=99`, with `T`
/// in the range `limits` allow. The one parser of the input: the solver reads with
/// [`InputFormat::SOLVER`], the judge ([`crate::judge::Judge`]) under the limits it is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputFormat {
    /// Which case counts `T` are accepted.
    pub limits: Limits,
}

impl InputFormat {
    /// What the solver reads: any `T` up to [`MAX_CASES`] (the extended limits).
    pub const SOLVER: Self = Self { limits: Limits::Extended };

    /// The case counts `T` the limits allow: `1..=40` under the original limits,
    /// `0..=MAX_CASES` under the extended ones.
    #[must_use]
    pub fn case_counts(&self) -> RangeInclusive<usize> {
        match self.limits {
            Limits::Original => 1..=judge::ORIGINAL_MAX_CASES,
            Limits::Extended => 0..=MAX_CASES,
        }
    }
}

/// The batch solver: options plus the engine's [`BatchSolver`] plumbing.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeroBattle {
    /// Which solver to run.
    pub solver: Solver,
    /// Add a winning first attack per first mover to each answer.
    pub explain: bool,
    /// Record work and time per case.
    pub stats: bool,
}

/// Per-thread scratch: both solvers' tables, reused across cases.
#[derive(Debug, Default)]
pub struct Scratch {
    threshold: threshold::ThresholdSolver,
    reference: reference::Reference,
}

/// One case's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Who wins for each first mover.
    pub outcome: Outcome,
    /// `--explain` text and `--stats` figures, when asked for.
    pub detail: Option<Box<Detail>>,
}

/// What `--explain` and `--stats` add to an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// One line per first mover.
    pub explanation: Option<[explain::Line; 2]>,
    /// Work and time, for `--stats`.
    pub stats: Option<CaseStats>,
}

/// Work and time of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseStats {
    /// Fast solver: Alice hit-point pairs reached; reference: positions expanded.
    pub expanded: usize,
    /// Fast solver: boundary cells filled; reference: memo entries.
    pub memo_entries: usize,
    /// Wall time of the solve.
    pub time: Duration,
}

/// Largest case count accepted; more cases than this cannot fit in memory anyway.
pub const MAX_CASES: usize = 1 << 32;

impl Format for InputFormat {
    type Header = ();
    type Case = Case;

    fn parse_header(&self, input: &mut Input<'_>) -> Result<((), usize), InputError> {
        Ok(((), input.uint("the number of cases T", self.case_counts())?))
    }

    /// The judge's files hold one case a line.
    fn lines_per_case(&self, _: &()) -> Option<usize> {
        Some(1)
    }

    fn parse_case(&self, _: &(), _index: usize, input: &mut Input<'_>) -> Result<Case, InputError> {
        let mut v = [0u8; 12];
        for (value, what) in v.iter_mut().zip(rules::FIELDS) {
            *value = input.uint(what, 1..=rules::MAX_VALUE)?;
        }
        Ok(Case::from_array(v))
    }
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

/// Solves one case with the fast solver (a convenience for tests and library users).
#[must_use]
pub fn solve(case: &Case) -> Outcome {
    threshold::ThresholdSolver::new().solve(case)
}

/// The judge's output for a solved batch (one verdict line per case, each followed by its
/// explanation lines when asked for), and the `--stats` lines meant for stderr.
#[must_use]
pub fn render(batch: &BatchOf<HeroBattle>) -> Output {
    let stdout = engine::driver::write_ordered(batch.answers.len(), |i, out| {
        write_report(&batch.answers[i], out);
    });
    Output { stdout, stderr: stats_lines(batch) }
}

/// Appends one case's output: its verdict line, then its explanation lines if any.
fn write_report(report: &Report, out: &mut Vec<u8>) {
    out.extend_from_slice(report.outcome.who_wins().as_str().as_bytes());
    out.push(b'\n');
    if let Some(detail) = &report.detail {
        for line in detail.explanation.iter().flatten() {
            let _ = writeln!(out, "  {line}");
        }
    }
}

/// The `--stats` line of every case that has figures.
fn stats_lines(batch: &BatchOf<HeroBattle>) -> String {
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
