//! The hero-battle binary: judge input in (a file or stdin), one verdict per case out; and the
//! judge's subcommands (`docs/judging.md`) on [`hero_battle::judge::Judge`].

use clap::{Parser, Subcommand};
use engine::cli::{BatchArgs, exit_with_error, finish};
use hero_battle::judge::Judge;
use hero_battle::{Options, Solver};
use judge::cli::{JudgeCommand, JudgeHelp, parse_args};

/// Decides "Battle in Two Pairs of Heroes" (ICPC 2017 Qingdao) for every case of the input:
/// `Alice wins`, `Bob wins` or `It depends`. The subcommands judge another program.
#[derive(Parser)]
#[command(name = "hero-battle", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
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

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Judge(JudgeCommand),
}

/// What the judge's subcommands say of this problem in `--help`.
const HELP: JudgeHelp = JudgeHelp {
    check: "Judge a contestant's OUTPUT for INPUT. The original judge's checker is not \
            recorded; the rule assumed is exact lines, one per case, each exactly `Alice wins`, \
            `Bob wins` or `It depends`: the strictest rule judges of the time applied, so an \
            output accepted here is accepted whatever the original was, and white space a \
            lenient judge forgives (a trailing space, a \\r) is a presentation error here. A \
            missing final newline is accepted, marked as overlooked; --strict rejects it too, \
            asking for our answer byte for byte. Exit 0 ok, 1 wrong answer, 2 presentation \
            error, 3 fail (testlib)",
    validate: "Is FILE a valid input, in the canonical format (one space between numbers, a \
               case a line, a final newline; --lenient: any white space)? Original limits: 1 \
               <= T <= 40, every number in 1..=99; extended: any T our solver takes. Exit 0 \
               valid, 3 invalid (testlib)",
    exhaustive: "Instead of generated inputs, every case whose twelve numbers are all in \
                 1..=BOUND, by largest number then lexicographically, 40 cases a file; runs to \
                 the end unless --time or --runs is given (BOUND 2: 103 files, 3: 13,287)",
};

fn main() {
    let args = parse_args::<Args, Judge>(&HELP);
    if let Some(Command::Judge(judge)) = &args.command {
        std::process::exit(judge.run_with_game(&Judge, hero_battle::position::HeroGame::new));
    }
    let input = args.batch.read_input().unwrap_or_else(|e| exit_with_error(&e));
    let options = Options {
        solver: args.solver,
        explain: args.explain,
        stats: args.stats,
        driver: args.batch.driver_options(),
    };
    finish(hero_battle::run(&input, &options))
}
