//! Measures the judge: the stress loop's own work per run, its throughput with a trivial user
//! program, and the time to shrink a 40-case failure. Run
//! `cargo run --release -p engine --example judge_bench`.
//!
//! The user program is this binary itself (`judge_bench solve [--bug]`): a compiled program
//! that starts as fast as a C++ one, reads the toy input and prints the sums (with `--bug`,
//! one less whenever a + b > 1000).

#![allow(clippy::print_stdout, reason = "an example reports its measurement")]

#[path = "../tests/support/toy.rs"]
mod toy;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use engine::judge::problem::render;
use engine::judge::stress::run_seed;
use engine::judge::{
    Limits, Problem, Program, RunOptions, Schedule, ShrinkOptions, StressOptions, shrink, stress,
    trial,
};
use engine::rng::SplitMix64;
use toy::Sum;

fn solve(bug: bool) {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let numbers: Vec<u32> = text.split_whitespace().map(|t| t.parse().unwrap_or(0)).collect();
    let mut out = String::new();
    for pair in numbers[1..].chunks(2) {
        let sum = pair[0] + pair[1];
        let shown = if bug && sum > 1000 { sum - 1 } else { sum };
        out += &format!("{shown}\n");
    }
    std::io::stdout().write_all(out.as_bytes()).expect("stdout is writable");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("solve") {
        solve(args.get(2).map(String::as_str) == Some("--bug"));
        return;
    }
    let me = std::env::current_exe().expect("the example knows its path");
    let right = Program::new(&[me.as_os_str(), "solve".as_ref()]);
    let buggy = Program::new(&[me.as_os_str(), "solve".as_ref(), "--bug".as_ref()]);
    let schedule = Schedule::for_problem::<Sum>();

    // 1. The loop's own work: generate, render, solve and judge, without the process.
    let runs = 100_000u64;
    let start = Instant::now();
    let mut cases = 0;
    for i in 0..runs {
        let mut rng = SplitMix64::new(run_seed(1, i));
        let input = Sum.generate(&mut rng, schedule.level(i), Limits::Original);
        let bytes = render(&Sum, &input);
        let answer = Sum.solve(&input);
        let mut output = Vec::new();
        Sum.render_answer(&input, &answer, &mut output);
        assert!(Sum.judge(&input, &answer, &output).is_ok() && !bytes.is_empty());
        cases += input.len();
    }
    let own = start.elapsed().as_secs_f64() / runs as f64;
    println!("loop's own work: {:.2} us a run ({cases} cases in {runs} runs)", own * 1e6);

    // 2. Throughput with a trivial right program.
    for jobs in [1, 2] {
        let options = StressOptions {
            seed: 1,
            runs: Some(3000),
            jobs,
            limits: Limits::Original,
            ..StressOptions::default()
        };
        let report = stress(&Sum, &right, &options, None).expect("the program runs");
        assert!(report.failure.is_none());
        let rate = report.runs as f64 / report.elapsed.as_secs_f64();
        println!(
            "stress -j {jobs}: {} runs, {} cases in {:.2} s: {rate:.0} runs/s",
            report.runs,
            report.cases,
            report.elapsed.as_secs_f64()
        );
    }

    // 3. Shrinking a 40-case failure (extended limits: values up to 1000).
    let mut rng = SplitMix64::new(7);
    let input: Vec<(u32, u32)> =
        (0..40).map(|_| (rng.range(1, 1000) as u32, rng.range(1, 1000) as u32)).collect();
    let failing_cases = input.iter().filter(|&&(a, b)| a + b > 1000).count();
    let run = RunOptions { time_limit: Duration::from_secs(2), ..RunOptions::default() };
    for jobs in [1, 2] {
        let failing = trial(&Sum, &buggy, &input, &run).expect("the program runs");
        let options = ShrinkOptions {
            jobs,
            limits: Limits::Extended,
            run: run.clone(),
            ..Default::default()
        };
        let shrunk = shrink(&Sum, &buggy, input.clone(), failing, &options).expect("it runs");
        println!(
            "shrink -j {jobs}: 40 cases ({failing_cases} failing) -> {:?} in {:.2} s, {} runs, \
             {} moves, 1-minimal: {} ({})",
            shrunk.input,
            shrunk.elapsed.as_secs_f64(),
            shrunk.runs,
            shrunk.steps,
            shrunk.minimal,
            shrunk.trial.verdict
        );
    }
}
