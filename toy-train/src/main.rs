//! The toy-train binary: reads the sample grader's input (a file or stdin), prints the answer
//! line, and on request the strategies and a verification line.

use std::path::PathBuf;

use clap::Parser;
use toy_train::{RunError, RunOptions, Solver};

/// Who wins the toy train game from each station (IOI 2017, Toy Train).
#[derive(Parser)]
#[command(name = "toy-train", version)]
struct Args {
    /// Input in the sample grader's format; standard input when absent.
    file: Option<PathBuf>,
    /// After the answer line, print one line `s t` per station: the switch at s points to t.
    #[arg(long)]
    strategy: bool,
    /// Check the answer and both strategies independently and print a line saying so.
    #[arg(long)]
    verify: bool,
    /// The solver: the decremental one or the classic repeated attractors.
    #[arg(long, value_enum, default_value_t)]
    solver: Solver,
}

fn main() {
    let args = Args::parse();
    let input = engine::cli::read_input(args.file.as_deref())
        .unwrap_or_else(|e| engine::cli::exit_with_error(&e));
    let options = RunOptions { solver: args.solver, strategy: args.strategy, verify: args.verify };
    match toy_train::run(&input, options) {
        Ok(out) => {
            drop(input);
            if let Err(e) = engine::cli::write_stdout(&out) {
                engine::cli::exit_with_error(&format!("cannot write the output: {e}"));
            }
        }
        Err(e @ RunError::Input(_)) => engine::cli::exit_with_error(&e),
        Err(e @ RunError::Verify(_)) => internal_error(&e),
    }
}

/// A failed self-check is a bug in the solver, not bad input: exit code 1, not 2.
#[allow(clippy::print_stderr, reason = "the binary's one way to report a failed self-check")]
fn internal_error(err: &RunError) -> ! {
    eprintln!("error: {err}");
    std::process::exit(1)
}
