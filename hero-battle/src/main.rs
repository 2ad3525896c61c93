//! The hero-battle binary: judge input in (a file or stdin), one verdict per case out.

use clap::Parser;
use engine::cli::{BatchArgs, exit_with_error, finish};
use hero_battle::{Options, Solver};

/// Decides "Battle in Two Pairs of Heroes" (ICPC 2017 Qingdao) for every case of the input:
/// `Alice wins`, `Bob wins` or `It depends`.
#[derive(Parser)]
#[command(name = "hero-battle", version)]
struct Args {
    #[command(flatten)]
    batch: BatchArgs,
    /// After each verdict, a winning first attack of the winner for each first mover.
    #[arg(long)]
    explain: bool,
    /// Work and time per case, on stderr.
    #[arg(long)]
    stats: bool,
    /// Which solver to run (the reference is slow on large hit points with small damage).
    #[arg(long, value_enum, default_value_t)]
    solver: Solver,
}

fn main() {
    let args = Args::parse();
    let input = args.batch.read_input().unwrap_or_else(|e| exit_with_error(&e));
    let options = Options {
        solver: args.solver,
        explain: args.explain,
        stats: args.stats,
        driver: args.batch.driver_options(),
    };
    finish(hero_battle::run(&input, &options))
}
