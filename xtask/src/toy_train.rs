//! `cargo xtask gen toy-train FAMILY ...` (a generated railway on stdout) and
//! `cargo xtask bench toy-train` (our release binary against the editorial's program on
//! IOI-size inputs, staircases and a graph with a million stations).

use std::path::{Path, PathBuf};

use toy_train::generator::{Family, GenParams, generate};

use crate::TaskResult;
use crate::measure::{self, BenchArgs, Contender};

/// Generator options for toy-train.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// The shape: random, line, small, arezou, borzou, one-charger (the six subtasks, random
    /// standing for the last), staircase, or cascade.
    #[arg(value_parser = parse_family)]
    family: Family,
    /// Number of stations.
    #[arg(long, short = 'n', default_value_t = 10)]
    n: usize,
    /// Number of tracks [default: about 4n; line and cascade fix their own].
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

/// One benchmark input: a title, a file name under `target/bench/` and its parameters.
struct Case {
    title: &'static str,
    file: &'static str,
    params: GenParams,
    /// Run the editorial's program on it (too slow for the large staircase).
    seed_peer: Option<&'static str>,
    /// Also time our classic solver.
    classic: bool,
}

fn case(
    title: &'static str,
    file: &'static str,
    family: Family,
    n: usize,
    m: Option<usize>,
    seed_peer: Option<&'static str>,
    classic: bool,
) -> Case {
    let mut params = GenParams::new(family, n, 1);
    params.m = m;
    Case { title, file, params, seed_peer, classic }
}

/// Benchmarks toy-train: each input is timed for our default solver (and sometimes the
/// classic one) against `toy-train-seed` (arrays for 20,000 stations) or
/// `toy-train-seed-big` (2,000,000), input reading included; the table gives medians,
/// speed-ups over the first contender and peak memory.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let ours = measure::build_release("toy-train")?;
    let peers = measure::peers(args);
    let ioi = Some(20_000);
    let mut cases = vec![
        case(
            "IOI size, random",
            "tt-ioi-random.in",
            Family::Random,
            5_000,
            ioi,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, line (subtask 1)",
            "tt-ioi-line.in",
            Family::Line,
            5_000,
            None,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, Arezou only (subtask 3)",
            "tt-ioi-arezou.in",
            Family::Arezou,
            5_000,
            ioi,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, Borzou only (subtask 4)",
            "tt-ioi-borzou.in",
            Family::Borzou,
            5_000,
            ioi,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, one charger (subtask 5)",
            "tt-ioi-one-charger.in",
            Family::OneCharger,
            5_000,
            ioi,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, staircase",
            "tt-ioi-staircase.in",
            Family::Staircase,
            5_000,
            ioi,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "IOI size, cascade",
            "tt-ioi-cascade.in",
            Family::Cascade,
            5_000,
            None,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "staircase, 20,000 stations",
            "tt-staircase-20k.in",
            Family::Staircase,
            20_000,
            None,
            Some("toy-train-seed"),
            true,
        ),
        case(
            "cascade, 20,000 stations (our worst case)",
            "tt-cascade-20k.in",
            Family::Cascade,
            20_000,
            None,
            Some("toy-train-seed"),
            true,
        ),
    ];
    if !args.quick {
        cases.push(case(
            "staircase, 1,000,000 stations",
            "tt-staircase-1m.in",
            Family::Staircase,
            1_000_000,
            None,
            None,
            false,
        ));
        cases.push(case(
            "random, 1,000,000 stations, 5,000,000 tracks",
            "tt-random-1m.in",
            Family::Random,
            1_000_000,
            Some(5_000_000),
            Some("toy-train-seed-big"),
            true,
        ));
    }
    for c in &cases {
        let input = write_case(c)?;
        let mut contenders = Vec::new();
        if let (Some(dir), Some(peer)) = (&peers, c.seed_peer) {
            contenders.push(Contender::new(peer, &dir.join(peer), &[]));
        }
        contenders.push(Contender::new("ours", &ours, &[]));
        if c.classic {
            contenders.push(Contender::new(
                "ours --solver classic",
                &ours,
                &["--solver", "classic"],
            ));
        }
        measure::compare(c.title, &input, &contenders, args.runs)?;
    }
    Ok(())
}

/// Writes the case's input unless an identical file is already there.
fn write_case(c: &Case) -> Result<PathBuf, String> {
    let text = generate(&c.params).map_err(|e| e.to_string())?.to_text();
    let path = measure::bench_dir()?.join(c.file);
    if same_file_contents(&path, &text) {
        return Ok(path);
    }
    measure::write_input(c.file, &text)
}

fn same_file_contents(path: &Path, text: &[u8]) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() == text.len() as u64)
        && std::fs::read(path).is_ok_and(|old| old == text)
}
