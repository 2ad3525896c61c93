//! Measures the judge: the stress loop's own work per run, its throughput with a trivial user
//! program, and the time to shrink a 40-case failure. Run
//! `cargo run --release -p engine --example judge_bench`.
//!
//! The user program is this binary itself (`judge_bench solve [--bug]`): a compiled program
//! that starts as fast as a C++ one, reads the toy input and prints the sums (with `--bug`,
//! one less whenever a + b > 1000).
//!
//! Last, a problem shaped like hero-battle (40 cases of twelve numbers in 1..=99, one answer
//! line per case) with a bug that needs four numbers of one case to stay large, to time the
//! shrink the target is about.

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

/// Hero-battle's shape: cases of twelve numbers in 1..=99, T <= 40; the answer to a case is
/// its sum. The bug: a case whose first two numbers are at least 40 and whose last two sum
/// to at least 120 gets its sum plus one.
struct Twelve;

fn twelve_bug(case: &[u32]) -> bool {
    case[0] >= 40 && case[1] >= 40 && case[10] + case[11] >= 120
}

fn solve_twelve() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let numbers: Vec<u32> = text.split_whitespace().map(|t| t.parse().unwrap_or(0)).collect();
    let mut out = String::new();
    for case in numbers[1..].chunks(12) {
        let sum: u32 = case.iter().sum();
        out += &format!("{}\n", sum + u32::from(twelve_bug(case)));
    }
    std::io::stdout().write_all(out.as_bytes()).expect("stdout is writable");
}

impl Problem for Twelve {
    type Input = Vec<[u32; 12]>;
    type Answer = Vec<u32>;

    fn name(&self) -> &'static str {
        "twelve"
    }

    fn parse(&self, bytes: &[u8], _: Limits) -> Result<Self::Input, engine::InputError> {
        let mut input = engine::Input::new(bytes);
        let t: u32 = input.uint("T", 1..=40)?;
        let mut cases = Vec::new();
        for _ in 0..t {
            let mut case = [0; 12];
            for v in &mut case {
                *v = input.uint("value", 1..=99)?;
            }
            cases.push(case);
        }
        input.finish("the last case")?;
        Ok(cases)
    }

    fn validate(
        &self,
        input: &Self::Input,
        _: Limits,
    ) -> Result<(), engine::judge::problem::Invalid> {
        let ok =
            (1..=40).contains(&input.len()) && input.iter().flatten().all(|v| (1..=99).contains(v));
        if ok { Ok(()) } else { Err(engine::judge::problem::Invalid("out of range".into())) }
    }

    fn render(&self, input: &Self::Input, out: &mut Vec<u8>) {
        out.extend_from_slice(format!("{}\n", input.len()).as_bytes());
        for case in input {
            let line: Vec<String> = case.iter().map(u32::to_string).collect();
            out.extend_from_slice(format!("{}\n", line.join(" ")).as_bytes());
        }
    }

    fn cases(&self, input: &Self::Input) -> usize {
        input.len()
    }

    fn size(&self, input: &Self::Input) -> u64 {
        input.iter().flatten().map(|&v| u64::from(v)).sum::<u64>() + input.len() as u64
    }

    fn generate(&self, rng: &mut SplitMix64, _: u32, _: Limits) -> Self::Input {
        (0..40).map(|_| std::array::from_fn(|_| rng.range(1, 99) as u32)).collect()
    }

    fn solve(&self, input: &Self::Input) -> Self::Answer {
        input.iter().map(|c| c.iter().sum()).collect()
    }

    fn render_answer(&self, _: &Self::Input, answer: &Self::Answer, out: &mut Vec<u8>) {
        for a in answer {
            out.extend_from_slice(format!("{a}\n").as_bytes());
        }
    }

    fn parse_answer(&self, _: &Self::Input, _: &[u8]) -> Result<Self::Answer, String> {
        Err("not used here".into())
    }

    fn judge(
        &self,
        _: &Self::Input,
        answer: &Self::Answer,
        output: &[u8],
    ) -> engine::judge::Verdict {
        let expected: Vec<String> = answer.iter().map(u32::to_string).collect();
        engine::judge::compare::compare(
            engine::judge::compare::Unit::Line,
            &expected,
            output,
            |t| t.iter().all(u8::is_ascii_digit),
            |i| format!("case {}", i + 1),
        )
    }

    fn shrink(&self, input: &Self::Input) -> impl Iterator<Item = Self::Input> {
        let numbers = (0..12 * input.len()).flat_map(move |k| {
            engine::judge::moves::lower(u64::from(input[k / 12][k % 12]), 1).map(move |v| {
                let mut next = input.clone();
                next[k / 12][k % 12] = v as u32;
                next
            })
        });
        engine::judge::moves::drop_chunks(input)
            .chain(engine::judge::moves::drop_each(input))
            .chain(numbers)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("solve") => return solve(args.get(2).map(String::as_str) == Some("--bug")),
        Some("twelve") => return solve_twelve(),
        _ => {}
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

    // 4. The hero-battle-shaped shrink.
    let twelve = Program::new(&[me.as_os_str(), "twelve".as_ref()]);
    let mut rng = SplitMix64::new(3);
    let input = loop {
        let input = Twelve.generate(&mut rng, 0, Limits::Original);
        if input.iter().filter(|c| twelve_bug(&c[..])).count() == 1 {
            break input;
        }
    };
    for jobs in [1, 2] {
        let failing = trial(&Twelve, &twelve, &input, &run).expect("the program runs");
        let options = ShrinkOptions {
            jobs,
            limits: Limits::Original,
            run: run.clone(),
            ..Default::default()
        };
        let shrunk = shrink(&Twelve, &twelve, input.clone(), failing, &options).expect("it runs");
        println!(
            "twelve -j {jobs}: 40 cases (1 failing) -> {:?} in {:.2} s, {} runs, {} moves, \
             1-minimal: {}",
            shrunk.input,
            shrunk.elapsed.as_secs_f64(),
            shrunk.runs,
            shrunk.steps,
            shrunk.minimal
        );
    }
}
