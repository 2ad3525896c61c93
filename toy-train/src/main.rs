//! The toy-train binary: reads the sample grader's input (a file or stdin), prints the answer
//! line, and on request the strategies and a verification line; the judge's subcommands
//! (docs/judging.md) on [`toy_train::judge::Judge`].

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};
use engine::cli::{exit_with_error, finish, read_input};
use judge::cli::{JudgeCommand, JudgeHelp, parse_args};
use toy_train::judge::Judge;
use toy_train::{Options, Solver};

/// Who wins the toy train game from each station (IOI 2017, Toy Train).
///
/// Without a subcommand, solves FILE (or stdin) and prints the answer line.
#[derive(Parser)]
#[command(name = "toy-train", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

/// Solving: the answer line, and what else to print.
#[derive(clap::Args)]
struct SolveArgs {
    /// Input in the sample grader's format; standard input when absent.
    file: Option<PathBuf>,
    /// After the answer line, print one line `s t` per station: the switch at s points to t.
    #[arg(long)]
    strategy: bool,
    /// Check the answer and both strategies independently and print a line saying so (a
    /// failed check is a bug in the solver: exit code 1).
    #[arg(long)]
    verify: bool,
    /// Why each answer is right, as the other binaries' --explain: --strategy and --verify.
    #[arg(long)]
    explain: bool,
    /// Sizes and times, on stderr.
    #[arg(long)]
    stats: bool,
    /// Print a Graphviz DOT picture of the solved railway (owners, chargers, who wins where,
    /// both strategies) instead of the answer line; render it with `dot -Tsvg`.
    #[arg(long)]
    dot: bool,
    /// Which solver to run: the decremental one or the classic repeated attractors.
    #[arg(long, value_enum, default_value_t)]
    solver: Solver,
}

/// Judging a user's program.
#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Judge(JudgeCommand),
}

/// What the judge's subcommands say of this problem in `--help`.
const HELP: JudgeHelp = JudgeHelp {
    check: "Judge a contestant's OUTPUT for INPUT as IOI 2017 did, with CMS's white-diff: line \
            1 must hold the n answers, white space around and between them free, and every \
            later line must be blank. Exit 0 ok, 1 wrong answer (n answers that differ), 2 \
            presentation error (anything else white-diff rejects), 3 fail (testlib); --protocol \
            cms prints white-diff's 1.0 or 0.0. --strict changes nothing",
    validate: "Check that a file is a valid input under the limits, in the canonical format \
               (one space between numbers, the sample grader's lines, a final newline; \
               --lenient: any white space), and name the original subtasks it belongs to: exit \
               0 valid, 3 invalid with the rule broken and its place",
    exhaustive: "Instead of generated inputs, every railway of up to BOUND stations (1..=4) \
                 without duplicate tracks, by number of stations; runs to the end unless \
                 --time or --runs is given (BOUND 2: 110 railways, 3: 19,318, 4: 12,169,318)",
};

fn main() {
    let args = parse_args::<Args, Judge>(&HELP);
    if let Some(Command::Judge(judge)) = &args.command {
        std::process::exit(judge.run_with_game(&Judge, toy_train::position::TrainGame::new));
    }
    let solve = args.solve;
    // Checked here rather than by clap's `conflicts_with`, whose message shows a usage line
    // made of the flags given.
    if solve.dot && (solve.strategy || solve.explain) {
        let flag = if solve.strategy { "--strategy" } else { "--explain" };
        let message = format!(
            "--dot draws both strategies in place of the answer line, and {flag} prints them \
             as lines after it: give one of them"
        );
        Args::command().error(ErrorKind::ArgumentConflict, message).exit();
    }
    // toy-train solves one instance on one thread and has no --threads: one reader too.
    let input = read_input(solve.file.as_deref(), 1).unwrap_or_else(|e| exit_with_error(&e));
    let options = Options {
        solver: solve.solver,
        strategy: solve.strategy || solve.explain,
        verify: solve.verify || solve.explain,
        stats: solve.stats,
        dot: solve.dot,
    };
    finish(toy_train::run(&input, &options))
}
