//! `cargo xtask gen card-duel` and `cargo xtask bench card-duel`: the files of
//! [`card_duel::generate`] (official-size files, every position of one O, families of
//! positions), and the benchmark: the latency of single positions (heavy ones and a uniform
//! sample) for O = 1, 5, 10 and 20, swept and read off a tablebase, an official-size file, and
//! every position of O = 5 and O = 20, with 1 and 2 threads and read off a tablebase, and
//! peak memory.

use std::io::Write;

use card_duel::StartKey;
use card_duel::generate::{self, Family, OFFICIAL_CASES, SEED};

use crate::TaskResult;
use crate::measure::{self, BenchArgs, Contender};

/// Which file to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// `--cases` distinct positions (351,493 by default) drawn uniformly, in drawn order: the
    /// official files' shape.
    Official,
    /// Every one of the 1,440,000 positions of one O, shuffled.
    All,
    /// `--cases` positions drawn uniformly, repeats allowed.
    Uniform,
    /// `--cases` of the costliest positions: E = S = 20, full boards, full hands.
    Heavy,
    /// `--cases` positions with both players at 5 HP or less, for the reference solver.
    SmallHp,
    /// `--cases` positions with every field at an end of its range or a rule's threshold.
    Edge,
}

/// Generator options for card-duel.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// Which file.
    #[arg(value_enum)]
    kind: Kind,
    /// O for the whole file.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=20))]
    ops: u8,
    /// Number of cases (at most 1,440,000 for `official`, whose cases are distinct; ignored
    /// by `all`).
    #[arg(long, default_value_t = OFFICIAL_CASES as u32,
          value_parser = clap::value_parser!(u32).range(0..=1_440_000))]
    cases: u32,
    /// Seed of the generator.
    #[arg(long, default_value_t = SEED)]
    seed: u64,
}

/// Writes a generated card-duel input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    let cases = args.cases as usize;
    let drawn =
        |family| card_duel::write_input(args.ops, &generate::positions(family, cases, args.seed));
    let text = match args.kind {
        Kind::Official => generate::official_file(args.ops, cases, args.seed),
        Kind::All => generate::all_file(args.ops, args.seed),
        Kind::Uniform => drawn(Family::Uniform),
        Kind::Heavy => drawn(Family::Heavy),
        Kind::SmallHp => drawn(Family::SmallHp),
        Kind::Edge => drawn(Family::Edge),
    };
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write: {e}"))
}

/// The official solution's published figures on an official-size file (O = 5, 351,493
/// cases), as `docs/problems/card-duel.md` reports them.
const OFFICIAL: &str = "17 s and 1.35 GB";

/// Benchmarks card-duel, ours with 2 threads and with 1: the latency of single positions
/// (every heavy position, E = S = 20 with full boards and hands, and a uniform sample, each as
/// its own file) for O = 1, 5, 10 and 20, swept and read off that O's tablebase (whose
/// writing is timed too); then an official-size file and every position of O = 5 and of
/// O = 20, swept and read off the tablebase, with peak memory and the 1- to 2-thread ratio,
/// beside the official solution's published figures. `--quick` keeps O = 5 and the
/// official-size file.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let binary = measure::build_release("card-duel")?;
    let ours = |threads: &str| {
        Contender::new(format!("card-duel ({threads} thr)"), &binary, &["-j", threads])
    };
    let contenders = [ours("2"), ours("1")];

    let sample = measure::write_input("card-duel-sample2.in", b"1 4\n5 14\n1 1\n1 1\n1 0\n")?;
    measure::compare("one case: official sample 2", &sample, &contenders, args.runs)?;
    let ops_list: &[u8] = if args.quick { &[5] } else { &[1, 5, 10, 20] };
    for &ops in ops_list {
        // The tablebase of this O, built once, then read by every single position beside
        // the sweep.
        let tablebase = tablebase_path(ops)?;
        let started = std::time::Instant::now();
        let built = std::process::Command::new(&binary)
            .args(["tablebase", &ops.to_string(), "-j", "2"])
            .arg(&tablebase)
            .output()
            .map_err(|e| format!("cannot run card-duel tablebase: {e}"))?;
        if !built.status.success() {
            return Err(format!(
                "card-duel tablebase {ops} failed: {}",
                String::from_utf8_lossy(&built.stderr)
            ));
        }
        println!(
            "\ntablebase of O = {ops} (card-duel tablebase {ops}, 2 thr): written in {:.2} s",
            started.elapsed().as_secs_f64()
        );
        let single = [contenders[0].clone(), read_off(&binary, ops)?];
        // Every heavy position (25 distinct), and 20 distinct positions drawn uniformly
        // (`cargo xtask gen card-duel official --cases 20 --seed 7`).
        let mut heavy = generate::positions(Family::Heavy, 400, SEED);
        heavy.sort_by_key(|p| StartKey::of(p).rank());
        heavy.dedup();
        let uniform = generate::distinct_positions(20, 7);
        for (name, positions) in [("heavy", &heavy), ("uniform", &uniform)] {
            let files = positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let text = card_duel::write_input(ops, std::slice::from_ref(p));
                    measure::write_input(
                        &format!("card-duel-{name}-o{ops}-{i}.in"),
                        text.as_bytes(),
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            let title = format!("single positions, O = {ops}: {} {name}", files.len());
            measure::latency(&title, &files, &single, args.runs)?;
        }
    }

    let official = generate::official_file(5, OFFICIAL_CASES, SEED);
    let official = measure::write_input("card-duel-official-o5.in", official.as_bytes())?;
    // The sweep with two threads and one, then the answers read off the tablebase of O = 5
    // written above.
    let files = [contenders[0].clone(), contenders[1].clone(), read_off(&binary, 5)?];
    let meds = measure::compare("official-size file, O = 5", &official, &files, args.runs)?;
    measure::print_ratio("1 to 2 threads", meds[1], meds[0]);
    println!("  official solution (published): {OFFICIAL} on an official-size file");

    if !args.quick {
        for ops in [5, 20] {
            let all = generate::all_file(ops, SEED);
            let all = measure::write_input(&format!("card-duel-all-o{ops}.in"), all.as_bytes())?;
            let title = format!("every position of O = {ops}");
            let files = [contenders[0].clone(), contenders[1].clone(), read_off(&binary, ops)?];
            let meds = measure::compare(&title, &all, &files, args.runs)?;
            measure::print_ratio("1 to 2 threads", meds[1], meds[0]);
        }
    }
    Ok(())
}

/// Where the bench writes the tablebase of O = `ops`.
fn tablebase_path(ops: u8) -> Result<std::path::PathBuf, String> {
    Ok(measure::bench_dir()?.join(format!("card-duel-o{ops}.tablebase")))
}

/// card-duel with two threads, reading every value off the tablebase of O = `ops` that the
/// bench wrote.
fn read_off(binary: &std::path::Path, ops: u8) -> Result<Contender, String> {
    let tablebase = tablebase_path(ops)?.display().to_string();
    Ok(Contender::new("--tablebase (2 thr)", binary, &["-j", "2", "--tablebase", &tablebase]))
}
