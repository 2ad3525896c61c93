//! Measures hero-battle's judge: the stress loop's own work per run at each level, its
//! throughput with a trivial user program, and the time to shrink a 40-case failure of a
//! given program. Run
//!
//! ```text
//! cargo run --release -p hero-battle --example stress_figures              # 1 and 2
//! cargo run --release -p hero-battle --example stress_figures -- shrink PROGRAM [ARGS...]
//! ```
//!
//! The trivial user program is this binary itself (`stress_figures trivial`): a compiled
//! program that starts as fast as a C++ one, reads the input and prints `It depends` for
//! every case. Its answers are mostly wrong, so the throughput run judges with [`Lenient`],
//! which does all of the judge's work and then accepts: the figure is the loop's own cost
//! (generate, render, solve, run, judge) with a program that costs nothing.
//!
//! `shrink PROGRAM` looks for 40-case files on which PROGRAM fails, first among Random
//! files, then among Hard ones (the editorial's slowest input), and times the shrinking of
//! each with one and two jobs.

#![allow(clippy::print_stdout, reason = "an example reports its measurement")]

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use engine::input::InputError;
use engine::judge::problem::{Invalid, render};
use engine::judge::stress::run_seed;
use engine::judge::{
    Limits, Problem, Program, RunOptions, Schedule, ShrinkOptions, StressOptions, Verdict, shrink,
    stress, trial,
};
use engine::rng::SplitMix64;
use hero_battle::generate::{Family, cases};
use hero_battle::judge::Judge;
use hero_battle::rules::{self, Case};

/// hero-battle with a judge that does the real judge's work and then accepts anything.
struct Lenient;

impl Problem for Lenient {
    type Input = Vec<Case>;
    type Answer = Vec<rules::Verdict>;
    const LEVELS: u32 = Judge::LEVELS;

    fn name(&self) -> &'static str {
        "hero-battle (lenient)"
    }
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Vec<Case>, InputError> {
        Judge.parse(bytes, limits)
    }
    fn validate(&self, input: &Vec<Case>, limits: Limits) -> Result<(), Invalid> {
        Judge.validate(input, limits)
    }
    fn render(&self, input: &Vec<Case>, out: &mut Vec<u8>) {
        Judge.render(input, out);
    }
    fn cases(&self, input: &Vec<Case>) -> usize {
        input.len()
    }
    fn size(&self, input: &Vec<Case>) -> u64 {
        Judge.size(input)
    }
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Vec<Case> {
        Judge.generate(rng, level, limits)
    }
    fn solve(&self, input: &Vec<Case>) -> Self::Answer {
        Judge.solve(input)
    }
    fn render_answer(&self, input: &Vec<Case>, answer: &Self::Answer, out: &mut Vec<u8>) {
        Judge.render_answer(input, answer, out);
    }
    fn parse_answer(&self, input: &Vec<Case>, bytes: &[u8]) -> Result<Self::Answer, String> {
        Judge.parse_answer(input, bytes)
    }
    fn judge(&self, input: &Vec<Case>, answer: &Self::Answer, output: &[u8]) -> Verdict {
        let verdict = Judge.judge(input, answer, output);
        Verdict::ok(verdict.to_string())
    }
    fn shrink(&self, input: &Vec<Case>) -> impl Iterator<Item = Vec<Case>> {
        Judge.shrink(input)
    }
}

/// `stress_figures trivial`: prints `It depends` for each case of stdin.
fn trivial() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let count: usize = text.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    std::io::stdout().write_all("It depends\n".repeat(count).as_bytes()).expect("stdout");
}

/// 1. The loop's own work at each level, without the process.
fn own_work() {
    let schedule = Schedule::for_problem::<Judge>();
    let mut total = Duration::ZERO;
    for level in 0..Judge::LEVELS {
        let runs = 400;
        let start = Instant::now();
        let mut cases = 0;
        for i in 0..runs {
            let mut rng = SplitMix64::new(run_seed(1, i));
            let input = Judge.generate(&mut rng, level, Limits::Original);
            let bytes = render(&Judge, &input);
            let answer = Judge.solve(&input);
            let mut output = Vec::new();
            Judge.render_answer(&input, &answer, &mut output);
            assert!(Judge.judge(&input, &answer, &output).is_ok() && !bytes.is_empty());
            cases += input.len();
        }
        let elapsed = start.elapsed();
        total += elapsed / Judge::LEVELS;
        println!(
            "level {level}: {:.1} us a run ({:.1} cases a file)",
            elapsed.as_secs_f64() / runs as f64 * 1e6,
            cases as f64 / runs as f64
        );
    }
    println!(
        "own work averaged over the levels (the schedule cycles through them after {} runs): \
         {:.1} us a run",
        u64::from(schedule.levels) * schedule.runs_per_level,
        total.as_secs_f64() / 400.0 * 1e6
    );
}

/// 2. Runs a second with the trivial program.
fn throughput() {
    let me = std::env::current_exe().expect("the example knows its path");
    let program = Program::new(&[me.as_os_str(), "trivial".as_ref()]);
    for jobs in [1, 2] {
        let options = StressOptions {
            seed: 1,
            runs: Some(3000),
            jobs,
            limits: Limits::Original,
            ..StressOptions::default()
        };
        let report = stress(&Lenient, &program, &options, None).expect("the program runs");
        assert!(report.failure.is_none());
        println!(
            "stress -j {jobs}, trivial program: {} runs, {} cases in {:.2} s: {:.0} runs/s",
            report.runs,
            report.cases,
            report.elapsed.as_secs_f64(),
            report.runs as f64 / report.elapsed.as_secs_f64()
        );
    }
}

/// 3. Shrinking 40-case failures of `command`.
fn shrink_failures(command: &[String]) {
    let program = Program::new(command);
    let run = RunOptions { time_limit: Duration::from_secs(5), ..RunOptions::default() };
    for family in [Family::Random, Family::Hard] {
        let found = (0..200).find_map(|seed| {
            let input = cases(family, 40, seed);
            let t = trial(&Judge, &program, &input, &run).expect("the program runs");
            (!t.verdict.is_ok()).then_some((input, t))
        });
        let Some((input, failing)) = found else {
            println!("{family:?}: no failing 40-case file in 200 seeds");
            continue;
        };
        println!(
            "{family:?}: 40 cases, {} (run took {:.2} s)",
            failing.verdict,
            failing.run.wall.as_secs_f64()
        );
        for jobs in [1, 2] {
            let options = ShrinkOptions {
                jobs,
                limits: Limits::Original,
                run: run.clone(),
                ..ShrinkOptions::default()
            };
            let shrunk = shrink(&Judge, &program, input.clone(), failing.clone(), &options)
                .expect("the candidates run");
            println!(
                "  shrink -j {jobs}: {:.2} s, {} runs, {} moves, 1-minimal: {} -> {}",
                shrunk.elapsed.as_secs_f64(),
                shrunk.runs,
                shrunk.steps,
                shrunk.minimal,
                String::from_utf8_lossy(&render(&Judge, &shrunk.input)).replace('\n', " / ")
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("trivial") => trivial(),
        Some("shrink") if args.len() > 1 => shrink_failures(&args[1..]),
        Some(other) => panic!("unknown mode {other:?}: use no argument, or shrink PROGRAM"),
        None => {
            own_work();
            throughput();
        }
    }
}
