//! card-duel: exact solvers for THUPC 2021 problem I, "狗蛋和二五仔", a Hearthstone-like duel
//! with random pings (rules: `problem/statement.md`).
//!
//! The API: [`run`], what the binary calls (judge input in, one probability per line out),
//! with [`Options`] and [`Solver`]; [`solve`] for a list of [`Position`]s, and the fast
//! solver's [`Tables`] behind it: all positions a file can reach ([`Reach`]) valued once,
//! bottom-up by total HP, into a dense table, each case then one lookup; [`StartKey`], the
//! rank of a position among the 1,440,000 of one O (the order of tablebases); tablebases,
//! every position's value of one O kept in a file and read back ([`Tablebase`],
//! [`TablebaseFile`]), and [`Cache`], which keeps the tablebase of each O a program needs, in
//! memory and optionally in a folder, for [`run_with_tablebases`] (`--tablebase`),
//! [`write_tablebase`] and the judge; [`InputFormat`], the judge's format and its one parser,
//! with its writers [`write_input`], [`render_input`] and [`write_probability`];
//! [`generate`], official-size and all-position files and position families with fixed
//! seeds; and [`judge`], the problem as the judge sees it (limits, the official checker's
//! rule, generation, the extreme inputs, shrink moves, the exhaustive enumeration), behind
//! the binary's judging subcommands.
//!
//! Inside, not part of the API (the workspace's tests reach the first five under the hidden
//! `internals` feature):
//!
//! - `reference`: the rules applied literally to an explicit state with a memoized
//!   expectiminimax; slow, for tests and for checking.
//! - `explain`: E's first actions and their values, for `--explain`.
//! - `tablebase`: the tablebase file, its format and the cache.
//! - `parse`: the judge's format, read and written; `rules`: the pieces both solvers share.
//! - `tables`: the sweep behind [`Tables`]; `pings` and `shapes`: the random pings' outcome
//!   tables, and the board pairs.
//!
//! ```
//! // The official first sample: one position, five operations a turn, both heroes at 1 HP,
//! // empty boards, the teacher's hand empty and E's holding one card.
//! let input = b"1 5\n1 1\n0\n0\n0 1\n";
//! let output = card_duel::run(input, &card_duel::Options::default())?;
//! assert_eq!(output.stdout, b"0.500000000\n");
//! # Ok::<(), engine::RunError>(())
//! ```

pub mod generate;
#[cfg(feature = "judge")]
pub mod judge;
mod pings;
pub mod position;
mod shapes;
mod tables;
engine::internal_modules!(explain, parse, reference, rules, tablebase);

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use engine::driver::{self, BatchSolver, DriverOptions, FileSolver, Steps};
use engine::{Output, RunError};

use explain::Explanation;
use parse::{PlacedOps, SolverFormat};
// The crate's own short path (`crate::Reference`), not part of the API.
use reference::Reference;
use tables::SweepSize;

pub use parse::{InputFormat, MAX_CASES, TestFile, render_input, write_input, write_probability};
pub use rules::{Action, Board, MAX_HP, MAX_OPS, OFFICIAL_CASES, ORIGINAL_OPS, Position};
pub use tablebase::{Cache, CacheError, Policy, Store, Tablebase, TablebaseError, TablebaseFile};
pub use tables::{Reach, StartKey, Tables};

/// card-duel as the engine's driver sees it: a [`FileSolver`] whose work is every case's
/// value, read in groups ([`Tables::values`], much faster than one lookup a case) off the
/// tables of one sweep or off a tablebase.
#[derive(Clone, Copy, Debug)]
enum CardDuel<'a> {
    /// One sweep over every cell the file reaches ([`solve`]); its size is the extra (for
    /// `--stats`).
    Sweep,
    /// The tablebase of the file's O in `cache`, read, or built and saved, as `policy` says
    /// ([`Cache::values`]: a few blocks for a small file, else the whole table).
    Cache {
        /// The tablebases.
        cache: &'a Cache,
        /// What to do when the one of the file's O is not in memory.
        policy: Policy,
    },
}

impl FileSolver for CardDuel<'_> {
    type Format = SolverFormat;
    type Answer = f64;
    /// The sweep's size, when the values came from a sweep.
    type Extra = Option<SweepSize>;

    fn format(&self) -> &SolverFormat {
        &SolverFormat
    }

    fn solve_file(
        &self,
        ops: &PlacedOps,
        cases: &[Position],
    ) -> Result<(Vec<f64>, Option<SweepSize>), RunError> {
        match *self {
            CardDuel::Sweep => {
                let tables = Tables::build(ops.ops, Reach::of(cases));
                Ok((values_of(&tables, cases), tables.size()))
            }
            CardDuel::Cache { cache, policy } => match cache.values(ops.ops, cases, policy) {
                Ok(values) => Ok((values, None)),
                Err(e) => Err(run_error(e, ops)),
            },
        }
    }
}

/// A tablebase's error as the run reports it, the one conversion of [`CacheError`]s: a
/// tablebase of another O than the input's points at the input's O, as a malformed input
/// would; a tablebase that cannot be saved is [`RunError::Write`]; any other, a file or a
/// store that cannot be used, is [`RunError::File`].
fn run_error(error: CacheError, ops: &PlacedOps) -> RunError {
    match error {
        CacheError::OtherOps { found, wanted, .. } => RunError::Input(ops.error(format!(
            "expected O = {found} (the tablebase's), found \"{wanted}\": build one for O = {wanted}"
        ))),
        CacheError::Write(write) => RunError::Write(write),
        unusable => {
            let (name, reason) =
                unusable.name_and_reason().expect("every cache error but a write names a file");
            RunError::File { name, reason }
        }
    }
}

/// `--explain` as a file: one sweep values every case's first actions while the layers below
/// it are in memory.
#[derive(Clone, Copy, Debug, Default)]
struct CardDuelExplain;

impl FileSolver for CardDuelExplain {
    type Format = InputFormat;
    type Answer = Explanation;
    /// The sweep's size (for `--stats`).
    type Extra = Option<SweepSize>;

    fn format(&self) -> &InputFormat {
        &InputFormat::SOLVER
    }

    fn solve_file(
        &self,
        ops: &u8,
        cases: &[Position],
    ) -> Result<(Vec<Explanation>, Option<SweepSize>), RunError> {
        let (explained, size) = explain::explain_swept(*ops, cases);
        Ok((explained, Some(size)))
    }
}

/// The reference solver as a batch: each worker thread keeps its own memo across the cases
/// it solves.
#[derive(Clone, Copy, Debug, Default)]
struct CardDuelReference;

impl BatchSolver for CardDuelReference {
    type Format = InputFormat;
    type Shared = ();
    type Scratch = Reference;
    type Answer = f64;

    fn format(&self) -> &InputFormat {
        &InputFormat::SOLVER
    }

    fn prepare(&self, _ops: &u8, _cases: &[Position]) {}

    fn new_scratch(&self, ops: &u8, _shared: &()) -> Reference {
        Reference::new(*ops)
    }

    fn solve(
        &self,
        _: &u8,
        _: &(),
        _index: usize,
        case: &Position,
        reference: &mut Reference,
    ) -> f64 {
        reference.value(case)
    }
}

/// Which solver [`run`] uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Solver {
    /// The table sweep (module `tables`): every position a file reaches, valued once.
    #[default]
    Fast,
    /// The rules applied literally (module `reference`); slow, small HP only.
    Reference,
}

/// What [`run`] computes and prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Which solver values the positions.
    pub solver: Solver,
    /// For each case, E's best first action and the value of every legal first action
    /// (always from the fast tables).
    pub explain: bool,
    /// Sizes and times on stderr.
    pub stats: bool,
    /// Threads and progress.
    pub driver: DriverOptions,
}

/// What a run wrote: the count of cases, the bytes, the driver's steps and the sweep's size
/// when it swept.
type Probabilities = (usize, Vec<u8>, Steps, Option<SweepSize>);

/// Values `bytes` with `solver` and writes one probability a line.
fn probabilities(
    solver: &CardDuel<'_>,
    bytes: &[u8],
    driver: &DriverOptions,
) -> Result<Probabilities, RunError> {
    let (written, swept) = driver::solve_file_and_write(solver, bytes, driver, |b, i, out| {
        write_probability(out, b.answers[i]);
    })?;
    Ok((written.batch.cases.len(), written.bytes, written.steps, swept))
}

/// Solves a whole input in the judge's format and renders the output: one probability per
/// line with 9 decimals, or the explanations.
///
/// # Errors
/// Malformed input (nothing is solved then), or a thread pool that cannot start.
pub fn run(bytes: &[u8], options: &Options) -> Result<Output, RunError> {
    let started = Instant::now();
    let driver = &options.driver;
    let (cases, out, steps, swept) = if options.explain {
        let (written, swept) =
            driver::solve_file_and_write(&CardDuelExplain, bytes, driver, |b, i, out| {
                explain::write(i, &b.answers[i], out);
            })?;
        (written.batch.cases.len(), written.bytes, written.steps, swept)
    } else {
        match options.solver {
            Solver::Fast => probabilities(&CardDuel::Sweep, bytes, driver)?,
            Solver::Reference => {
                let written =
                    driver::solve_and_write(&CardDuelReference, bytes, driver, |b, i, out| {
                        write_probability(out, b.answers[i]);
                    })?;
                (written.batch.cases.len(), written.bytes, written.steps, None)
            }
        }
    };
    let stats = options.stats.then_some((cases, started, steps));
    Ok(output(out, stats, swept))
}

/// The output of a run that wrote `stdout`, with the `--stats` lines when `stats` gives the
/// count of cases, when the run started and the driver's steps: a line of times, and one of
/// the sweep's size when the run swept.
fn output(
    stdout: Vec<u8>,
    stats: Option<(usize, Instant, Steps)>,
    swept: Option<SweepSize>,
) -> Output {
    let mut stderr = String::new();
    if let Some((cases, started, steps)) = stats {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let positions = if cases == 1 { "position" } else { "positions" };
        let _ = writeln!(stderr, "{cases} {positions} in {ms:.3} ms ({steps})");
        if let Some(swept) = swept {
            let _ = writeln!(stderr, "sweep: {swept}");
        }
    }
    Output { stdout, stderr }
}

/// `--tablebase PATH [--build-missing]`: [`run`] with every value read off the tablebase of
/// the input's O in `cache`, instead of a sweep: the same bytes out. The input is parsed
/// first, as any run parses it; then the tablebase comes from the cache
/// ([`Cache::values`]): from memory, or read from the store's file (a file of at most 1,024
/// cases reads only the 4 KiB blocks that hold its positions, `O(cases)`; a larger one reads
/// and checks the whole table, 11.5 MB, then looks its cases up in groups), or, missing
/// there, an error under [`Policy::Read`] and under [`Policy::BuildMissing`] built on
/// `options.driver`'s threads and saved there first ([`Cache::get_or_build`]; one sweep of
/// every position, once). A single-file store answers inputs of its O only; a folder gives
/// its file of the input's O. `options.solver` and `options.explain` do not apply: a
/// tablebase holds values only, the fast solver's.
///
/// # Errors
/// `options` asking for the reference solver or explanations; malformed input; an input
/// whose O is not the tablebase's (pointing at O); a tablebase that cannot be read or is
/// damaged, or a folder without the tablebase of the input's O under [`Policy::Read`]
/// ([`RunError::File`]); a built tablebase that cannot be saved ([`RunError::Write`],
/// `cannot write FILE: ...`); a thread pool that cannot start.
pub fn run_with_tablebases(
    bytes: &[u8],
    cache: &Cache,
    policy: Policy,
    options: &Options,
) -> Result<Output, RunError> {
    let started = Instant::now();
    unsupported(options)?;
    let (cases, out, steps, _) =
        probabilities(&CardDuel::Cache { cache, policy }, bytes, &options.driver)?;
    Ok(output(out, options.stats.then_some((cases, started, steps)), None))
}

/// `card-duel tablebase O PATH`: builds the tablebase of O = `ops` on `driver`'s threads and
/// saves it as PATH or, when PATH is a folder, as its `oO.tb` ([`Cache::at`]); the output says
/// what was written and how long the build took.
///
/// # Errors
/// A thread pool that cannot start; a file that cannot be written ([`RunError::Write`],
/// `cannot write FILE: ...`).
///
/// # Panics
/// When `ops` is outside `1..=MAX_OPS`.
pub fn write_tablebase(ops: u8, path: &Path, driver: &DriverOptions) -> Result<Output, RunError> {
    let file = Cache::at(path).file(ops).expect("a cache at a path has a file for every O");
    let started = Instant::now();
    let tablebase = driver::thread_pool(driver)?.install(|| Tablebase::build(ops));
    let built = started.elapsed();
    tablebase.save(&file)?;
    let stdout = format!(
        "wrote {}: the tablebase of O = {ops}, {} positions, built in {:.2} s\n",
        file.display(),
        StartKey::CARDINALITY,
        built.as_secs_f64()
    );
    Ok(Output { stdout: stdout.into_bytes(), stderr: String::new() })
}

/// Refuses `options` a tablebase cannot serve: the reference solver or explanations.
fn unsupported(options: &Options) -> Result<(), RunError> {
    if options.explain || options.solver != Solver::Fast {
        return Err(RunError::Unsupported(
            "a tablebase holds the fast solver's values only: it neither explains nor runs \
             the reference solver"
                .into(),
        ));
    }
    Ok(())
}

/// E's winning probability for each position, by the fast solver on the current rayon pool.
/// Costs one [`Tables::build`] over the positions' reach plus `O(1)` a position, read in
/// groups ([`Tables::values`]).
///
/// # Panics
/// When `ops` is outside `1..=MAX_OPS` or a position has HP outside `1..=MAX_HP`.
#[must_use]
pub fn solve(ops: u8, positions: &[Position]) -> Vec<f64> {
    values_of(&Tables::build(ops, Reach::of(positions)), positions)
}

/// The values of `positions` off `tables` built over their reach.
fn values_of(tables: &Tables, positions: &[Position]) -> Vec<f64> {
    tables.values(positions).expect("the tables cover the positions they were built for")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_lookups_read_what_single_lookups_read() {
        // 500 positions of up to 6 HP (more than a group, not a multiple of one), then one
        // beyond the tables' reach.
        let positions: Vec<Position> = (0..StartKey::CARDINALITY)
            .step_by(7)
            .map(|r| StartKey::unrank(r).position())
            .filter(|p| p.e_hp <= 6 && p.teacher_hp <= 6)
            .take(500)
            .collect();
        assert_eq!(positions.len(), 500);
        let tables = Tables::build(3, Reach::of(&positions));
        let single: Vec<f64> = positions.iter().map(|p| tables.value(p).unwrap()).collect();
        assert_eq!(tables.values(&positions), Some(single));
        let mut beyond = positions.clone();
        beyond.insert(250, Position { e_hp: 20, ..positions[0] });
        assert_eq!(tables.values(&beyond), None);
    }

    #[test]
    fn stats_give_the_sweeps_size_when_the_run_swept() {
        // Official sample 2: total HP 5 + 14 + 1 + 1, so layers 0 to 21.
        let input = b"1 4\n5 14\n1 1\n1 1\n1 0\n";
        let stats = Options { stats: true, ..Options::default() };
        let swept = run(input, &stats).unwrap();
        let lines: Vec<&str> = swept.stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{}", swept.stderr);
        assert!(lines[0].starts_with("1 position in "), "{}", lines[0]);
        assert!(lines[1].starts_with("sweep: 22 layers, "), "{}", lines[1]);
        let size =
            Tables::build(4, Reach::of(&driver::parse_all(&InputFormat::SOLVER, input).unwrap().1))
                .size()
                .unwrap();
        assert_eq!(lines[1], format!("sweep: {size}"));
        assert!(size.largest_layer < size.values && size.values < 22 * size.largest_layer);
        // An explained run sweeps too, and says so.
        let explained = run(input, &Options { explain: true, ..stats.clone() }).unwrap();
        assert!(explained.stderr.lines().nth(1).is_some_and(|l| l.starts_with("sweep: ")));
        // The reference solver sweeps nothing; without --stats nothing is said.
        let reference = Options { solver: Solver::Reference, ..stats };
        assert_eq!(run(input, &reference).unwrap().stderr.lines().count(), 1);
        assert_eq!(run(input, &Options::default()).unwrap().stderr, "");
    }
}
