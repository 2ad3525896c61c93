//! `cargo xtask bench judge`: the stress loop's own cost. For each problem it runs `stress`
//! on a trivial program, this binary itself (`cargo xtask trivial PROBLEM`, hidden), which
//! reads the input and prints a plausible answer of the right shape without solving
//! anything; the judge is [`Lenient`], which does all of the real judge's work (our answer,
//! the rule) and then accepts. So the figure is what a run costs us: generating, rendering,
//! solving, starting the program, reading its output and judging it. Over the default
//! schedule the large inputs weigh (card-duel's official-size files cost our sweep); on
//! level 0 alone what shows is the loop's own cost, mostly starting a process.

use std::io::{Read, Write};
use std::time::Instant;

use judge::testing::Lenient;
use judge::{ChildOptions, Limits, Problem, Program, Schedule, StressOptions, stress};

/// Options of `cargo xtask bench judge`.
#[derive(Clone, Debug, clap::Args)]
pub struct JudgeBenchArgs {
    /// Runs of each stress loop.
    #[arg(long, default_value_t = 2000)]
    pub runs: u64,
    /// Repetitions of each loop (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
}

/// The problems the trivial program answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TrivialProblem {
    /// `It depends` for each of T cases.
    HeroBattle,
    /// `0.5` for each of T cases.
    CardDuel,
    /// `0` for each of n stations, on one line.
    ToyTrain,
}

/// The trivial program: reads the input on stdin, prints an answer of the right shape.
pub fn trivial(problem: TrivialProblem) -> crate::TaskResult {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).map_err(|e| format!("stdin: {e}"))?;
    let count: usize = input.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    let (item, separator) = match problem {
        TrivialProblem::HeroBattle => ("It depends", "\n"),
        TrivialProblem::CardDuel => ("0.5", "\n"),
        TrivialProblem::ToyTrain => ("0", " "),
    };
    let mut out = Vec::with_capacity(count * (item.len() + 1));
    for _ in 0..count {
        out.extend_from_slice(item.as_bytes());
        out.extend_from_slice(separator.as_bytes());
    }
    out.push(b'\n');
    std::io::stdout().write_all(&out).map_err(|e| format!("stdout: {e}"))
}

/// Runs the bench and prints its table.
pub fn bench(args: &JudgeBenchArgs) -> crate::TaskResult {
    let me = std::env::current_exe().map_err(|e| format!("cannot find xtask's binary: {e}"))?;
    let program =
        |problem: &str| Program::new(&[me.as_os_str(), "trivial".as_ref(), problem.as_ref()]);
    println!("{}", crate::measure::machine_line(&["-j 1", "-j 2"]));
    println!("\n| problem | inputs | -j 1 | -j 2 |");
    println!("|---|---|---|---|");
    for tiny in [false, true] {
        let card_duel = card_duel::judge::Judge::new();
        row(&Lenient(hero_battle::judge::Judge), &program("hero-battle"), tiny, args)?;
        row(&Lenient(card_duel), &program("card-duel"), tiny, args)?;
        row(&Lenient(toy_train::judge::Judge), &program("toy-train"), tiny, args)?;
    }
    Ok(())
}

/// One row: runs a second with one and two jobs, medians of `args.repeat` loops, over the
/// default schedule or (`tiny`) level 0 alone, where the loop's own cost shows.
fn row<P: Problem>(
    problem: &P,
    program: &Program,
    tiny: bool,
    args: &JudgeBenchArgs,
) -> crate::TaskResult {
    let mut cells = Vec::new();
    for jobs in [1, 2] {
        let mut rates = Vec::new();
        for _ in 0..args.repeat.max(1) {
            let options = StressOptions {
                runs: Some(args.runs),
                jobs,
                limits: Limits::Original,
                run: ChildOptions::new(P::RUN_LIMITS.time, Some(P::RUN_LIMITS.memory_mib * 1024)),
                schedule: tiny.then_some(Schedule {
                    levels: 1,
                    runs_per_level: u64::MAX,
                    extremes: 0,
                    extremes_from: 0,
                }),
                ..StressOptions::default()
            };
            let started = Instant::now();
            let report = stress(problem, program, &options, None).map_err(|e| e.to_string())?;
            if let Some(failure) = report.failure {
                return Err(format!("the lenient judge failed a run: {}", failure.trial.verdict));
            }
            rates.push(report.runs as f64 / started.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        cells.push(format!("{:.0} runs/s", rates[rates.len() / 2]));
    }
    let inputs = if tiny { "level 0 only" } else { "the default schedule" };
    println!("| {} | {inputs} | {} | {} |", problem.name(), cells[0], cells[1]);
    Ok(())
}
