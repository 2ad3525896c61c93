//! `cargo xtask`: the project's chores, written in Rust so they run wherever cargo does.
//!
//! - `cargo xtask snapshot [--check]`: regenerate (or verify) the insta snapshots.
//! - `cargo xtask gen PROBLEM FAMILY ...`: write a generated input to stdout.
//! - `cargo xtask bench PROBLEM [--peers DIR]`: time our release binaries against the seed
//!   editorials' programs on the same generated inputs; `cargo xtask bench judge` times the
//!   stress loop itself.
//! - `cargo xtask adversary PROBLEM ...`: search for inputs that make a solver work harder
//!   than the reference.
//! - `cargo xtask examples`: run every example of the workspace, as CI does.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "xtask reports to the terminal")]
#![allow(unreachable_pub, reason = "a binary: `pub` marks what a module offers its siblings")]

mod card_duel;
mod hero_battle;
mod judge;
mod measure;
mod play;
mod snapshot;
mod toy_train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", about = "Project chores")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Regenerate the snapshot tests from the inputs under tests/data.
    Snapshot {
        /// Verify instead: fail on any difference, write nothing.
        #[arg(long)]
        check: bool,
    },
    /// Write a generated input (fixed seed) to stdout.
    Gen {
        #[command(subcommand)]
        problem: GenProblem,
    },
    /// Benchmark a problem's release binary against the seed programs.
    Bench {
        #[command(subcommand)]
        problem: BenchProblem,
    },
    /// Search for inputs on which a solver works harder than the reference.
    Adversary {
        #[command(subcommand)]
        problem: AdversaryProblem,
    },
    /// Run every example of every workspace member, as CI does (each asserts what it prints).
    Examples,
    /// (Internal) run a command on an input, print its wall time and peak memory.
    #[command(hide = true)]
    MeasureChild {
        input: std::path::PathBuf,
        output: std::path::PathBuf,
        #[arg(last = true)]
        command: Vec<std::ffi::OsString>,
    },
}

#[derive(Subcommand)]
enum GenProblem {
    /// hero-battle batches.
    HeroBattle(hero_battle::GenArgs),
    /// toy-train graphs.
    ToyTrain(::toy_train::generator::GenParams),
    /// card-duel files.
    CardDuel(card_duel::GenArgs),
}

#[derive(Subcommand)]
enum AdversaryProblem {
    /// toy-train railways, scored by work counters against the classic solver.
    ToyTrain(toy_train::adversary::AdversaryArgs),
}

#[derive(Subcommand)]
enum BenchProblem {
    /// hero-battle against hero-battle-seed.
    HeroBattle(measure::BenchArgs),
    /// toy-train against toy-train-seed and toy-train-seed-big.
    ToyTrain(measure::BenchArgs),
    /// card-duel on official-size files.
    CardDuel(measure::BenchArgs),
    /// The stress loop's own cost on each problem, with a trivial program.
    Judge(judge::JudgeBenchArgs),
    /// One position's move list (the jury's reply, play's list) for each game.
    Play(play::PlayBenchArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().task {
        Task::Snapshot { check } => snapshot::run(check),
        Task::Gen { problem } => match problem {
            GenProblem::HeroBattle(args) => hero_battle::gen_to_stdout(&args),
            GenProblem::ToyTrain(args) => toy_train::gen_to_stdout(&args),
            GenProblem::CardDuel(args) => card_duel::gen_to_stdout(&args),
        },
        Task::Adversary { problem: AdversaryProblem::ToyTrain(args) } => {
            toy_train::adversary::run(&args)
        }
        Task::Examples => examples(),
        Task::MeasureChild { input, output, command } => {
            measure::measure_child(&input, &output, &command)
        }
        Task::Bench { problem } => match problem {
            BenchProblem::HeroBattle(args) => hero_battle::bench(&args),
            BenchProblem::ToyTrain(args) => toy_train::bench(&args),
            BenchProblem::CardDuel(args) => card_duel::bench(&args),
            BenchProblem::Judge(args) => judge::bench(&args),
            BenchProblem::Play(args) => play::bench(
                &args,
                &[hero_battle::play_rows, toy_train::play_rows, card_duel::play_rows],
            ),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every example of every workspace member (`cargo run --release --example`), from the
/// registry's view of the workspace.
fn examples() -> TaskResult {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    for member in tests::registry::members() {
        for example in &member.examples {
            println!("== {} --example {example}", member.name);
            let status = std::process::Command::new(&cargo)
                .args(["run", "--quiet", "--locked", "--release", "--package", &member.name])
                .args(["--example", example])
                .current_dir(measure::workspace_root())
                .status()
                .map_err(|e| format!("cannot run cargo: {e}"))?;
            if !status.success() {
                return Err(format!("{} --example {example} failed", member.name));
            }
        }
    }
    Ok(())
}

/// What every task returns: a message for the user on failure.
type TaskResult = Result<(), String>;
