//! The card-duel binary: judge input in (a file or stdin), one probability per line out.

use clap::Parser;
use engine::cli::{BatchArgs, exit_with_error, write_stdout};

/// Exact solver for card-duel (THUPC 2021 "狗蛋和二五仔"): E's winning probability per case.
#[derive(Parser)]
#[command(name = "card-duel", version)]
struct Args {
    #[command(flatten)]
    batch: BatchArgs,
    /// For each case, print E's best first action after his draw and the value of every
    /// legal first action.
    #[arg(long, conflicts_with = "reference")]
    explain: bool,
    /// Use the slow reference solver (small hit points only).
    #[arg(long)]
    reference: bool,
}

fn main() {
    let args = Args::parse();
    let mode = if args.explain {
        card_duel::Mode::Explain
    } else if args.reference {
        card_duel::Mode::Reference
    } else {
        card_duel::Mode::Fast
    };
    let bytes = args.batch.read_input().unwrap_or_else(|e| exit_with_error(&e));
    let output = card_duel::run(&bytes, mode, &args.batch.driver_options())
        .unwrap_or_else(|e| exit_with_error(&e));
    write_stdout(&output).unwrap_or_else(|e| exit_with_error(&e));
}
