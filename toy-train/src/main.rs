//! The toy-train binary: reads the sample grader's input (a file or stdin), prints the answer
//! line, and on request the strategies and a verification line.

use std::path::PathBuf;

use clap::Parser;
use engine::cli::{exit_with_error, finish, read_input};
use toy_train::{Options, Solver};

/// Who wins the toy train game from each station (IOI 2017, Toy Train).
#[derive(Parser)]
#[command(name = "toy-train", version)]
struct Args {
    /// Input in the sample grader's format; standard input when absent.
    file: Option<PathBuf>,
    /// After the answer line, print one line `s t` per station: the switch at s points to t.
    #[arg(long)]
    strategy: bool,
    /// Check the answer and both strategies independently and print a line saying so (a
    /// failed check is a bug in the solver: exit code 1).
    #[arg(long)]
    verify: bool,
    /// Sizes and times, on stderr.
    #[arg(long)]
    stats: bool,
    /// Print a Graphviz DOT picture of the solved railway (owners, chargers, who wins where,
    /// both strategies) instead of the answer line; render it with `dot -Tsvg`.
    #[arg(long, conflicts_with = "strategy")]
    dot: bool,
    /// Which solver to run: the decremental one or the classic repeated attractors.
    #[arg(long, value_enum, default_value_t)]
    solver: Solver,
}

fn main() {
    let args = Args::parse();
    let input = read_input(args.file.as_deref()).unwrap_or_else(|e| exit_with_error(&e));
    let options = Options {
        solver: args.solver,
        strategy: args.strategy,
        verify: args.verify,
        stats: args.stats,
        dot: args.dot,
    };
    finish(toy_train::run(&input, &options))
}
