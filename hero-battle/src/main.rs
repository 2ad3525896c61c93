//! The hero-battle binary: judge input in (a file or stdin), one verdict per case out.

use clap::Parser;
use engine::cli::{BatchArgs, exit_with_error, write_stdout};
use hero_battle::{HeroBattle, SolverKind};

/// Decides "Battle in Two Pairs of Heroes" (ICPC 2017 Qingdao) for every case of the input:
/// `Alice wins`, `Bob wins` or `It depends`.
#[derive(Parser)]
#[command(version)]
struct Args {
    #[command(flatten)]
    batch: BatchArgs,
    /// After each verdict, a winning first attack of the winner for each first mover.
    #[arg(long)]
    explain: bool,
    /// Work and time per case, on stderr.
    #[arg(long)]
    stats: bool,
    /// Which solver to run (the naive one is slow on large hit points with small damage).
    #[arg(long, value_enum, default_value_t)]
    solver: SolverKind,
}

fn main() {
    let args = Args::parse();
    let input = args.batch.read_input().unwrap_or_else(|e| exit_with_error(&e));
    let solver = HeroBattle { solver: args.solver, explain: args.explain, stats: args.stats };
    let started = std::time::Instant::now();
    let (out, log) = hero_battle::run(&solver, &input, &args.batch.driver_options())
        .unwrap_or_else(|e| exit_with_error(&e));
    if args.stats {
        #[allow(clippy::print_stderr, reason = "--stats reports on stderr")]
        {
            eprint!("{log}");
            eprintln!("total: {:.3} ms", started.elapsed().as_secs_f64() * 1e3);
        }
    }
    write_stdout(out.as_bytes()).unwrap_or_else(|e| exit_with_error(&e));
}
