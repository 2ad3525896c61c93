//! The card-duel binary: judge input in (a file or stdin), one probability per line out.

use card_duel::{Options, Solver};
use clap::Parser;
use engine::cli::{BatchArgs, exit_with_error, finish};

/// Exact solver for card-duel (THUPC 2021 "狗蛋和二五仔"): E's winning probability per case.
#[derive(Parser)]
#[command(name = "card-duel", version)]
struct Args {
    #[command(flatten)]
    batch: BatchArgs,
    /// For each case, print E's best first action after his draw and the value of every
    /// legal first action.
    #[arg(long)]
    explain: bool,
    /// Sizes and times, on stderr.
    #[arg(long)]
    stats: bool,
    /// Which solver to run (the reference is slow: small hit points only).
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
    finish(card_duel::run(&input, &options))
}
