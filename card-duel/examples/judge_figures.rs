//! Measures card-duel's judge: the stress loop's own work per run at each level, and its
//! throughput with a trivial user program. Run
//!
//! ```text
//! cargo run --release -p card-duel --example judge_figures
//! ```
//!
//! The trivial user program is this binary itself (`judge_figures trivial`): a compiled
//! program that starts as fast as a C++ one, reads the input and prints `0.5` for every case.
//! Its answers are mostly wrong, so the throughput runs judge with [`Lenient`], which does
//! all of the judge's work and then accepts: the figure is the loop's own cost (generate,
//! render, solve, run, judge) with a program that costs nothing.
//!
//! Shrinking and the exhaustive run are measured with the binary itself (see the README's
//! "Judging your program"); `judge_figures corrupt` is the wrong program for the first, as
//! fast as ours because it is ours: our solver's answers, but one position's (E at 12 HP,
//! the teacher at 7, ...) moved by 0.25.
//!
//! ```text
//! card-duel stress --exhaustive 5 -- target/release/examples/judge_figures corrupt
//! ```

#![allow(clippy::print_stdout, reason = "an example reports its measurement")]

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use card_duel::judge::{Judge, TestFile};
use engine::input::InputError;
use engine::judge::problem::{Invalid, render};
use engine::judge::stress::run_seed;
use engine::judge::{Limits, Problem, Program, Schedule, StressOptions, Verdict, stress};
use engine::rng::SplitMix64;

/// card-duel with a judge that does the real judge's work and then accepts anything.
#[derive(Default)]
struct Lenient(Judge);

impl Problem for Lenient {
    type Input = TestFile;
    type Answer = Vec<f64>;
    const LEVELS: u32 = Judge::LEVELS;

    fn name(&self) -> &'static str {
        "card-duel (lenient)"
    }
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<TestFile, InputError> {
        self.0.parse(bytes, limits)
    }
    fn validate(&self, input: &TestFile, limits: Limits) -> Result<(), Invalid> {
        self.0.validate(input, limits)
    }
    fn render(&self, input: &TestFile, out: &mut Vec<u8>) {
        self.0.render(input, out);
    }
    fn cases(&self, input: &TestFile) -> usize {
        self.0.cases(input)
    }
    fn size(&self, input: &TestFile) -> u64 {
        self.0.size(input)
    }
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> TestFile {
        self.0.generate(rng, level, limits)
    }
    fn solve(&self, input: &TestFile) -> Vec<f64> {
        self.0.solve(input)
    }
    fn render_answer(&self, input: &TestFile, answer: &Vec<f64>, out: &mut Vec<u8>) {
        self.0.render_answer(input, answer, out);
    }
    fn parse_answer(&self, input: &TestFile, bytes: &[u8]) -> Result<Vec<f64>, String> {
        self.0.parse_answer(input, bytes)
    }
    fn judge(&self, input: &TestFile, answer: &Vec<f64>, output: &[u8]) -> Verdict {
        let verdict = self.0.judge(input, answer, output);
        Verdict::ok(verdict.to_string())
    }
    fn shrink(&self, input: &TestFile) -> impl Iterator<Item = TestFile> {
        self.0.shrink(input)
    }
}

/// `judge_figures trivial`: prints `0.5` for each case of stdin.
fn trivial() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let count: usize = text.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    std::io::stdout().write_all("0.5\n".repeat(count).as_bytes()).expect("stdout");
}

/// Runs at each level for the measurements: fewer for the big files of the last levels.
fn runs_at(level: u32) -> u64 {
    match level {
        0..=5 => 200,
        6 => 50,
        _ => 10,
    }
}

/// 1. The loop's own work at each level, without the process. One judge throughout, as a
///    stress run has: the first large file of each O builds that O's whole table.
fn own_work(judge: &Judge) {
    for level in 0..Judge::LEVELS {
        let runs = runs_at(level);
        let start = Instant::now();
        let mut cases = 0;
        for i in 0..runs {
            let mut rng = SplitMix64::new(run_seed(1, i));
            let input = judge.generate(&mut rng, level, Limits::Original);
            let bytes = render(judge, &input);
            let answer = judge.solve(&input);
            let mut output = Vec::new();
            judge.render_answer(&input, &answer, &mut output);
            assert!(judge.judge(&input, &answer, &output).is_ok() && !bytes.is_empty());
            cases += input.positions.len();
        }
        let elapsed = start.elapsed();
        println!(
            "level {level}: {:.2} ms a run ({:.0} cases a file, {runs} runs)",
            elapsed.as_secs_f64() / runs as f64 * 1e3,
            cases as f64 / runs as f64
        );
    }
}

/// 2. Runs a second with the trivial program, at each level and over the default schedule.
fn throughput() {
    let me = std::env::current_exe().expect("the example knows its path");
    let program = Program::new(&[me.as_os_str(), "trivial".as_ref()]);
    // Level L alone: a schedule whose levels are far apart, started at level L's first run.
    let far = 1_000_000;
    for jobs in [1, 2] {
        let lenient = Lenient::default();
        for level in 0..Judge::LEVELS {
            let options = StressOptions {
                seed: 1,
                first: u64::from(level) * far,
                runs: Some(runs_at(level) * 2),
                jobs,
                limits: Limits::Original,
                schedule: Some(Schedule { levels: Judge::LEVELS, runs_per_level: far }),
                ..StressOptions::default()
            };
            let report = stress(&lenient, &program, &options, None).expect("the program runs");
            assert!(report.failure.is_none());
            println!(
                "stress -j {jobs}, level {level}: {} runs, {} cases in {:.2} s: {:.0} runs/s",
                report.runs,
                report.cases,
                report.elapsed.as_secs_f64(),
                report.runs as f64 / report.elapsed.as_secs_f64()
            );
        }
        // The default schedule from a fresh judge: 50 runs a level on the way up, then the
        // levels in turn; whole tables built on the way, as in `card-duel stress`.
        let options = StressOptions {
            seed: 1,
            time: Some(Duration::from_secs(20)),
            jobs,
            limits: Limits::Original,
            ..StressOptions::default()
        };
        let report = stress(&Lenient::default(), &program, &options, None).expect("it runs");
        assert!(report.failure.is_none());
        println!(
            "stress -j {jobs}, default schedule for 20 s: {} runs, {} cases: {:.0} runs/s",
            report.runs,
            report.cases,
            report.runs as f64 / report.elapsed.as_secs_f64()
        );
    }
}

/// `judge_figures corrupt`: our answers to stdin, but the one of the position E 12, the
/// teacher 7, the teacher's board `1 2 2`, E's `1 1`, hands `1 2` moved by 0.25.
fn corrupt() {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin is readable");
    let judge = Judge::new();
    let file = judge.parse(&input, Limits::Extended).expect("a valid input");
    let answers = card_duel::solve(file.ops, &file.positions);
    let mut out = Vec::new();
    for (p, &value) in file.positions.iter().zip(&answers) {
        let target = (p.e_hp, p.teacher_hp, p.teacher_board, p.e_board, p.teacher_hand, p.e_hand)
            == (
                12,
                7,
                card_duel::Board { ones: 1, twos: 2 },
                card_duel::Board { ones: 2, twos: 0 },
                1,
                2,
            );
        let value = if target { (value + 0.25) % 1.0 } else { value };
        card_duel::write_probability(&mut out, value);
    }
    std::io::stdout().write_all(&out).expect("stdout");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("trivial") => trivial(),
        Some("corrupt") => corrupt(),
        Some(other) => panic!("unknown mode {other:?}: use no argument"),
        None => {
            own_work(&Judge::new());
            throughput();
        }
    }
}
