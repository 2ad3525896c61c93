//! The card-duel binary: judge input in (a file or stdin), one probability per line out; the
//! judge's subcommands (`docs/judging.md`) on [`card_duel::judge::Judge`]; and `tablebase`,
//! which writes every position's value of one O for `--tablebase`. It parses the arguments,
//! calls the library and finishes.

use std::path::PathBuf;

use card_duel::judge::Judge;
use card_duel::{Cache, MAX_OPS, Options, Policy, Solver};
use clap::{Parser, Subcommand};
use engine::cli::{BatchArgs, exit_with_error, finish};
use engine::driver::DriverOptions;
use judge::cli::{JudgeCommand, JudgeHelp, parse_args};

/// Exact solver for card-duel (THUPC 2021 "狗蛋和二五仔"): E's winning probability per case.
/// The subcommands judge another program, or write a tablebase.
#[derive(Parser)]
#[command(name = "card-duel", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Read every value off this tablebase (written by `card-duel tablebase`) instead of
    /// sweeping: the same output in milliseconds; the input's O must be the tablebase's. A
    /// folder stands for its tablebase of the input's O (`o5.tb` for O = 5).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["explain", "solver"])]
    tablebase: Option<PathBuf>,
    /// With --tablebase: build the tablebase of the input's O first when it is missing (0.07
    /// to 0.3 s, once), so that later inputs of that O are read off it.
    #[arg(long, requires = "tablebase")]
    build_missing: bool,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Judge(JudgeCommand),
    /// Write the tablebase of O to PATH: every position's value (11.5 MB, one sweep of 0.07 to
    /// 0.3 s), for `--tablebase PATH`. A folder gets it as `oO.tb` (`o5.tb` for O = 5). The
    /// file is written aside, then renamed into place.
    Tablebase(TablebaseArgs),
}

#[derive(clap::Args)]
struct TablebaseArgs {
    /// O, the plays and hero powers a turn allows.
    #[arg(value_name = "O", value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_OPS)))]
    ops: u8,
    /// Where to write it: a file, or a folder of tablebases.
    #[arg(value_name = "PATH")]
    path: PathBuf,
    /// Worker threads [default: the RAYON_NUM_THREADS variable, else all cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

/// What the judge's subcommands say of this problem in `--help`.
const HELP: JudgeHelp = JudgeHelp {
    check: "Judge a contestant's OUTPUT for INPUT as the official checker does: each answer \
            within an absolute error of 1e-6. Exit 0 ok, 1 wrong answer, 2 presentation \
            error, 3 fail (testlib)",
    validate: "Is FILE a valid input, in the canonical format (one space between numbers, \
               four lines a case, a final newline; --lenient: any white space)? Original \
               limits: 1 <= T <= 351,493, 3 <= O <= 5, HP 1..=20, boards of at most 4 minions \
               of HP 1 or 2, hands 0..=3; extended: T and O as our solver takes them. Exit 0 \
               valid, 3 invalid (testlib)",
    exhaustive: "Instead of generated inputs, every one of the 1,440,000 positions of O = \
                 BOUND, in files of 351,493 cases as the official data (5 files, the last of \
                 34,028), by E's HP, the teacher's HP, the boards, then the hands; runs to the \
                 end unless --time or --runs is given",
};

fn main() {
    let args = parse_args::<Args, Judge>(&HELP);
    match &args.command {
        // One judge for the whole command: it keeps the value tables it builds; the games
        // share their tablebases.
        Some(Command::Judge(judge)) => {
            let games = card_duel::position::DuelGame::new();
            std::process::exit(judge.run_with_game(&Judge::new(), move || games.sharing()))
        }
        Some(Command::Tablebase(tablebase)) => {
            let threads = tablebase.threads.map(usize::from);
            let driver = DriverOptions { threads, progress: false };
            finish(card_duel::write_tablebase(tablebase.ops, &tablebase.path, &driver))
        }
        None => {}
    }
    let input = args.batch.read_input().unwrap_or_else(|e| exit_with_error(&e));
    let options = Options {
        solver: args.solver,
        explain: args.explain,
        stats: args.stats,
        driver: args.batch.driver_options(),
    };
    match &args.tablebase {
        Some(path) => {
            let policy = if args.build_missing { Policy::BuildMissing } else { Policy::Read };
            let cache = Cache::at(path);
            finish(card_duel::run_with_tablebases(&input, &cache, policy, &options))
        }
        None => finish(card_duel::run(&input, &options)),
    }
}
