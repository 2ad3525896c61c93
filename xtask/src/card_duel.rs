//! `cargo xtask gen card-duel` and `cargo xtask bench card-duel`: the files of
//! [`card_duel::generate`] (official-size files, every position of one O, families of
//! positions), and the benchmark on single cases, an official-size file and every position of
//! O = 5, with 1 and 2 threads.

use std::io::Write;

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

/// Benchmarks card-duel: single cases, then an official-size file and every position of
/// O = 5, each with 2 threads and with 1. `--quick` skips every-position file.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let binary = measure::build_release("card-duel")?;
    let ours = |threads: &str| {
        Contender::new(format!("card-duel ({threads} thr)"), &binary, &["-j", threads])
    };
    let contenders = [ours("2"), ours("1")];

    let sample = measure::write_input("card-duel-sample2.in", b"1 4\n5 14\n1 1\n1 1\n1 0\n")?;
    measure::compare("one case: official sample 2", &sample, &contenders, args.runs)?;
    let worst =
        measure::write_input("card-duel-worst.in", b"1 5\n20 20\n4 2 2 2 2\n4 2 2 2 2\n3 3\n")?;
    measure::compare("one case: E = S = 20, full boards, O = 5", &worst, &contenders, args.runs)?;

    let official = generate::official_file(5, OFFICIAL_CASES, SEED);
    let official = measure::write_input("card-duel-official-o5.in", official.as_bytes())?;
    measure::compare("official-size file, O = 5", &official, &contenders, args.runs)?;

    if !args.quick {
        let all = generate::all_file(5, SEED);
        let all = measure::write_input("card-duel-all-o5.in", all.as_bytes())?;
        measure::compare("every position of O = 5", &all, &contenders, args.runs)?;
    }
    Ok(())
}
