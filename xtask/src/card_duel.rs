//! `cargo xtask gen card-duel` and `cargo xtask bench card-duel`: official-size files (distinct
//! positions drawn uniformly from the 1,440,000 of one O) and every position of one O, from
//! fixed seeds, timed with 1 and 2 threads.

use std::io::Write;

use card_duel::{Position, StartKey};
use engine::rng::SplitMix64;

use crate::TaskResult;
use crate::measure::{self, BenchArgs, Contender};

/// Cases in an official data file.
const OFFICIAL_CASES: u32 = 351_493;
/// The seed every generated file uses unless told otherwise.
const SEED: u64 = 2021;

/// Which file to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Family {
    /// `--cases` distinct positions (351,493 by default) drawn uniformly, in drawn order.
    Official,
    /// Every one of the 1,440,000 positions of one O, shuffled.
    All,
}

/// Generator options for card-duel.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// Which file.
    #[arg(value_enum)]
    family: Family,
    /// O for the whole file.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=20))]
    ops: u8,
    /// Number of cases of an `official` file (at most 1,440,000: they are distinct).
    #[arg(long, default_value_t = OFFICIAL_CASES,
          value_parser = clap::value_parser!(u32).range(0..=1_440_000))]
    cases: u32,
    /// Seed of the generator.
    #[arg(long, default_value_t = SEED)]
    seed: u64,
}

/// `count` distinct positions drawn uniformly from all of one O (a partial Fisher-Yates over
/// the ranks), in drawn order. `O(1,440,000)`.
fn distinct_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut ranks: Vec<u32> = (0..StartKey::CARDINALITY as u32).collect();
    let count = count.min(ranks.len());
    for i in 0..count {
        let j = rng.range(i as u64, ranks.len() as u64 - 1) as usize;
        ranks.swap(i, j);
    }
    ranks[..count].iter().map(|&r| StartKey::unrank(r as usize).position()).collect()
}

/// The text of a generated file.
fn generate(family: Family, ops: u8, cases: usize, seed: u64) -> String {
    let count = match family {
        Family::Official => cases,
        Family::All => StartKey::CARDINALITY,
    };
    card_duel::write_input(ops, &distinct_positions(count, seed))
}

/// Writes a generated card-duel input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    let text = generate(args.family, args.ops, args.cases as usize, args.seed);
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

    let official = generate(Family::Official, 5, OFFICIAL_CASES as usize, SEED);
    let official = measure::write_input("card-duel-official-o5.in", official.as_bytes())?;
    measure::compare("official-size file, O = 5", &official, &contenders, args.runs)?;

    if !args.quick {
        let all = generate(Family::All, 5, 0, SEED);
        let all = measure::write_input("card-duel-all-o5.in", all.as_bytes())?;
        measure::compare("every position of O = 5", &all, &contenders, args.runs)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_positions_are_distinct_and_reproducible() {
        let a = distinct_positions(5000, 7);
        assert_eq!(a, distinct_positions(5000, 7));
        let keys: std::collections::HashSet<usize> =
            a.iter().map(|p| StartKey::of(p).rank()).collect();
        assert_eq!(keys.len(), 5000);
    }
}
