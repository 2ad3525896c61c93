//! Measures toy-train's judge: the stress loop's own work per run at each level, its
//! throughput with a trivial user program, and the time to shrink failures of a given
//! program found on railways of the original's size. Run
//!
//! ```text
//! cargo run --release -p toy-train --example train_judge_figures              # 1 and 2
//! cargo run --release -p toy-train --example train_judge_figures -- shrink PROGRAM [ARGS...]
//! ```
//!
//! The trivial user program is this binary itself (`train_judge_figures trivial`): a compiled
//! program that starts as fast as a C++ one, reads the input and prints `0` for every
//! station. Its answers are mostly wrong, so the throughput run judges with [`Lenient`],
//! which does all of the judge's work and then accepts: the figure is the loop's own cost
//! (generate, render, solve and verify, run, judge) with a program that costs nothing.
//!
//! `shrink PROGRAM` looks for railways of the top level (1,001 to 5,000 stations) on which
//! PROGRAM fails and times the shrinking of the first three with one and two jobs.

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
use toy_train::judge::{Judge, Railway};

/// toy-train with a judge that does the real judge's work and then accepts anything.
struct Lenient;

impl Problem for Lenient {
    type Input = Railway;
    type Answer = Vec<bool>;
    const LEVELS: u32 = Judge::LEVELS;

    fn name(&self) -> &'static str {
        "toy-train (lenient)"
    }
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Railway, InputError> {
        Judge.parse(bytes, limits)
    }
    fn validate(&self, input: &Railway, limits: Limits) -> Result<(), Invalid> {
        Judge.validate(input, limits)
    }
    fn render(&self, input: &Railway, out: &mut Vec<u8>) {
        Judge.render(input, out);
    }
    fn cases(&self, input: &Railway) -> usize {
        Judge.cases(input)
    }
    fn size(&self, input: &Railway) -> u64 {
        Judge.size(input)
    }
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Railway {
        Judge.generate(rng, level, limits)
    }
    fn solve(&self, input: &Railway) -> Vec<bool> {
        Judge.solve(input)
    }
    fn render_answer(&self, input: &Railway, answer: &Vec<bool>, out: &mut Vec<u8>) {
        Judge.render_answer(input, answer, out);
    }
    fn parse_answer(&self, input: &Railway, bytes: &[u8]) -> Result<Vec<bool>, String> {
        Judge.parse_answer(input, bytes)
    }
    fn judge(&self, input: &Railway, answer: &Vec<bool>, output: &[u8]) -> Verdict {
        let verdict = Judge.judge(input, answer, output);
        Verdict::ok(verdict.to_string())
    }
    fn shrink(&self, input: &Railway) -> impl Iterator<Item = Railway> {
        Judge.shrink(input)
    }
}

/// `train_judge_figures trivial`: prints `0` for each station of stdin.
fn trivial() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let n: usize = text.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    let mut out = "0 ".repeat(n);
    out.pop();
    out.push('\n');
    std::io::stdout().write_all(out.as_bytes()).expect("stdout is writable");
}

/// 1. The loop's own work at each level, without the process.
fn own_work() {
    let schedule = Schedule::for_problem::<Judge>();
    let mut total = Duration::ZERO;
    let runs = 200;
    for level in 0..Judge::LEVELS {
        let start = Instant::now();
        let (mut stations, mut tracks) = (0, 0);
        for i in 0..runs {
            let mut rng = SplitMix64::new(run_seed(1, i));
            let input = Judge.generate(&mut rng, level, Limits::Original);
            assert!(Judge.validate(&input, Limits::Original).is_ok());
            let bytes = render(&Judge, &input);
            let answer = Judge.solve(&input);
            let mut output = Vec::new();
            Judge.render_answer(&input, &answer, &mut output);
            assert!(Judge.judge(&input, &answer, &output).is_ok() && !bytes.is_empty());
            stations += input.n();
            tracks += input.m();
        }
        let elapsed = start.elapsed();
        total += elapsed / Judge::LEVELS;
        println!(
            "level {level}: {:.1} us a run ({:.0} stations, {:.0} tracks on average)",
            elapsed.as_secs_f64() / runs as f64 * 1e6,
            stations as f64 / runs as f64,
            tracks as f64 / runs as f64
        );
    }
    println!(
        "own work averaged over the levels (the schedule cycles through them after {} runs): \
         {:.1} us a run",
        u64::from(schedule.levels) * schedule.runs_per_level,
        total.as_secs_f64() / runs as f64 * 1e6
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
            "stress -j {jobs}, trivial program: {} runs in {:.2} s: {:.0} runs/s",
            report.runs,
            report.elapsed.as_secs_f64(),
            report.runs as f64 / report.elapsed.as_secs_f64()
        );
    }
}

/// 3. Shrinking failures of `command` on railways of the top level.
fn shrink_failures(command: &[String]) {
    let program = Program::new(command);
    let run = RunOptions { time_limit: Duration::from_secs(5), ..RunOptions::default() };
    let top = Judge::LEVELS - 2;
    let mut found = 0;
    for i in 0..200 {
        let mut rng = SplitMix64::new(run_seed(7, i));
        let input = Judge.generate(&mut rng, top, Limits::Original);
        let failing = trial(&Judge, &program, &input, &run).expect("the program runs");
        if failing.verdict.is_ok() {
            continue;
        }
        println!(
            "railway {i}: {} stations, {} tracks: {} (the run took {:.3} s)",
            input.n(),
            input.m(),
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
                "  shrink -j {jobs}: {:.2} s, {} runs, {} moves, 1-minimal: {} -> {} stations, \
                 {} tracks",
                shrunk.elapsed.as_secs_f64(),
                shrunk.runs,
                shrunk.steps,
                shrunk.minimal,
                shrunk.input.n(),
                shrunk.input.m()
            );
        }
        found += 1;
        if found == 3 {
            return;
        }
    }
    println!("{found} failing railways among 200");
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
