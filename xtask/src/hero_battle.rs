//! `cargo xtask gen hero-battle` and `cargo xtask bench hero-battle`.

use hero_battle::generate::{Family, cases, to_input};

use crate::TaskResult;
use crate::measure::{BenchArgs, Contender, build_release, compare, peers, write_input};

/// Generator options for hero-battle.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// Which kind of cases.
    #[arg(value_enum)]
    pub family: Family,
    /// Number of cases.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Generator seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Writes a generated hero-battle input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    print!("{}", to_input(&cases(args.family, args.count, args.seed)));
    Ok(())
}

/// The benchmark inputs: name, family, cases, and whether `--quick` keeps it (those are also
/// the ones the seed program is timed on).
const INPUTS: [(&str, Family, usize, bool); 4] = [
    ("hero-hard-40.in", Family::Hard, 40, true),
    ("hero-random-20000.in", Family::Random, 20_000, true),
    ("hero-random-1000000.in", Family::Random, 1_000_000, false),
    ("hero-hard-2000.in", Family::Hard, 2_000, false),
];

/// Times ours (one and two threads) against `hero-battle-seed` on each input.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let ours = build_release("hero-battle")?;
    let peer = peers(args).map(|dir| dir.join("hero-battle-seed"));
    for (name, family, count, quick) in INPUTS {
        if args.quick && !quick {
            continue;
        }
        let input = write_input(name, to_input(&cases(family, count, 2017)).as_bytes())?;
        let mut contenders = Vec::new();
        // The seed program spends minutes on the large inputs; time it on the two the issue names.
        if let Some(peer) = peer.as_ref().filter(|_| quick) {
            contenders.push(Contender::new("hero-battle-seed", peer, &[]));
        }
        contenders.push(Contender::new("ours, 1 thread", &ours, &["--threads", "1"]));
        contenders.push(Contender::new("ours, 2 threads", &ours, &["--threads", "2"]));
        compare(&format!("hero-battle: {count} {family:?} cases"), &input, &contenders, args.runs)?;
    }
    Ok(())
}
