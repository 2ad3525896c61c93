//! `cargo xtask gen toy-train FAMILY ...` (a generated railway on stdout),
//! `cargo xtask bench toy-train` (our release binary against the editorial's program on
//! IOI-size inputs, staircases and a graph with a million stations) and
//! `cargo xtask adversary toy-train` (a search for railways that make the default solver work
//! harder than the classic one; see [`adversary`]).

pub mod adversary;

use std::path::{Path, PathBuf};

use toy_train::generator::{Family, GenParams, generate};

use crate::TaskResult;
use crate::measure::{self, BenchArgs, Contender};

/// Generator options for toy-train.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// The shape: random, line, small, arezou, borzou, one-charger (the six subtasks, random
    /// standing for the last), staircase, cascade, or detour.
    #[arg(value_parser = parse_family)]
    family: Family,
    /// Number of stations.
    #[arg(long, short = 'n', default_value_t = 10)]
    n: usize,
    /// Number of tracks [default: about 4n; line and the cascades fix their own].
    #[arg(long, short = 'm')]
    m: Option<usize>,
    /// The seed: the same arguments always give the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chance per mille that Arezou owns a station [default: 500].
    #[arg(long)]
    arezou_per_mille: Option<u64>,
    /// Chance per mille that a station charges [default: 100].
    #[arg(long)]
    charging_per_mille: Option<u64>,
    /// Rename the stations at random and shuffle the tracks.
    #[arg(long)]
    shuffle: bool,
}

fn parse_family(s: &str) -> Result<Family, String> {
    s.parse()
}

impl GenArgs {
    fn params(&self) -> GenParams {
        GenParams {
            family: self.family,
            n: self.n,
            m: self.m,
            seed: self.seed,
            arezou_per_mille: self.arezou_per_mille,
            charging_per_mille: self.charging_per_mille,
            shuffle: self.shuffle,
        }
    }
}

/// Writes a generated toy-train input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    let instance = generate(&args.params()).map_err(|e| e.to_string())?;
    engine::cli::write_stdout(&instance.to_text()).map_err(|e| format!("cannot write: {e}"))
}

/// The seed peer for up to 20,000 stations, and the one for up to 2,000,000.
const SEED: Option<&str> = Some("toy-train-seed");
const SEED_BIG: Option<&str> = Some("toy-train-seed-big");
/// IOI-size track count.
const IOI_M: Option<usize> = Some(20_000);

/// One benchmark input: title, file under `target/bench/`, family, `n`, `m`, the seed peer to
/// time beside ours (none where it would take minutes), whether to time our classic solver
/// too, and whether `--quick` keeps it.
type Case =
    (&'static str, &'static str, Family, usize, Option<usize>, Option<&'static str>, bool, bool);

#[rustfmt::skip]
const CASES: [Case; 12] = [
    ("IOI size, random", "tt-ioi-random.in", Family::Random, 5_000, IOI_M, SEED, true, true),
    ("IOI size, line (subtask 1)", "tt-ioi-line.in", Family::Line, 5_000, None, SEED, true, true),
    ("IOI size, Arezou only (subtask 3)", "tt-ioi-arezou.in", Family::Arezou, 5_000, IOI_M, SEED, true, true),
    ("IOI size, Borzou only (subtask 4)", "tt-ioi-borzou.in", Family::Borzou, 5_000, IOI_M, SEED, true, true),
    ("IOI size, one charger (subtask 5)", "tt-ioi-one-charger.in", Family::OneCharger, 5_000, IOI_M, SEED, true, true),
    ("IOI size, staircase", "tt-ioi-staircase.in", Family::Staircase, 5_000, IOI_M, SEED, true, true),
    ("IOI size, cascade", "tt-ioi-cascade.in", Family::Cascade, 5_000, None, SEED, true, true),
    ("IOI size, detour (our worst case)", "tt-ioi-detour.in", Family::Detour, 5_000, None, SEED, true, true),
    ("staircase, 20,000 stations", "tt-staircase-20k.in", Family::Staircase, 20_000, None, SEED, true, true),
    ("detour, 20,000 stations (our worst case)", "tt-detour-20k.in", Family::Detour, 20_000, None, SEED, true, true),
    ("staircase, 1,000,000 stations", "tt-staircase-1m.in", Family::Staircase, 1_000_000, None, None, false, false),
    ("random, 1,000,000 stations, 5,000,000 tracks", "tt-random-1m.in", Family::Random, 1_000_000, Some(5_000_000), SEED_BIG, true, false),
];

/// Benchmarks toy-train: each input is timed for our default solver (and sometimes the
/// classic one) against `toy-train-seed` (arrays for 20,000 stations) or
/// `toy-train-seed-big` (2,000,000), input reading included; the table gives medians,
/// speed-ups over the first contender and peak memory.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let ours = measure::build_release("toy-train")?;
    let peers = measure::peers(args);
    for &(title, file, family, n, m, seed_peer, classic, quick) in &CASES {
        if args.quick && !quick {
            continue;
        }
        let mut params = GenParams::new(family, n, 1);
        params.m = m;
        let input = write_case(file, &params)?;
        let mut contenders = Vec::new();
        if let (Some(dir), Some(peer)) = (&peers, seed_peer) {
            contenders.push(Contender::new(peer, &dir.join(peer), &[]));
        }
        contenders.push(Contender::new("ours", &ours, &[]));
        if classic {
            contenders.push(Contender::new(
                "ours --solver classic",
                &ours,
                &["--solver", "classic"],
            ));
        }
        measure::compare(title, &input, &contenders, args.runs)?;
    }
    Ok(())
}

/// Writes a case's input unless an identical file is already there.
fn write_case(file: &str, params: &GenParams) -> Result<PathBuf, String> {
    let text = generate(params).map_err(|e| e.to_string())?.to_text();
    let path = measure::bench_dir()?.join(file);
    if same_file_contents(&path, &text) {
        return Ok(path);
    }
    measure::write_input(file, &text)
}

fn same_file_contents(path: &Path, text: &[u8]) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() == text.len() as u64)
        && std::fs::read(path).is_ok_and(|old| old == text)
}
