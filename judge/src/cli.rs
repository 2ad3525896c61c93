//! The judge's command-line side (feature `cli`): the subcommands `check`, `validate`,
//! `stress`, `shrink`, `generate`, `run` and `package` as one clap [`JudgeCommand`] that
//! every problem binary flattens into its own, and the runners behind them (`run`'s in
//! [`run`], `package`'s in [`package`]). Each runner prints its report and returns the
//! process's exit code.
//!
//! Exit codes: `check` and `validate` follow the chosen [`Protocol`]; `stress`, `shrink`,
//! `run` and `package` follow GNU diff: 0 no failure (within the budget), 1 a failure
//! (shrunk and saved; a failed test; a submission no test kills), 2 trouble; stopped by
//! SIGINT, SIGTERM or SIGHUP they report what they found so far and exit with 130, 143 or
//! 129.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "these runners are the binaries' UI")]

pub mod package;
pub mod run;

use std::ffi::OsString;
use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use engine::rng::SplitMix64;

use super::child::{ChildError, ChildOptions, Program, shell_quote, wall_backstop};
use super::confirm::{self, Standing};
use super::interrupt;
use super::lenient::Lenient;
use super::package::Packaged;
use super::problem::{Limits, Problem, RunLimits, check, render};
use super::protocol::{EXIT_FAIL, Protocol, Source};
use super::report::{
    FailureReport, Saved, Text, beside, count, plural, saved_text, unused_save_path,
};
use super::shrink::{ShrinkEnd, ShrinkOptions, ShrinkProgress, Shrunk, shrink_with_progress};
use super::stress::{Progress, Schedule, StressOptions, stress};
use super::trial::{Trial, megabytes, seconds as seconds2, trial};
use super::verdict::Verdict;

/// `stress`'s and `shrink`'s exit code when no failure was found.
pub const EXIT_PASSED: i32 = 0;
/// `stress`'s and `shrink`'s exit code when a failure was found.
pub const EXIT_FOUND: i32 = 1;
/// `stress`'s and `shrink`'s exit code for trouble: the command cannot run, bad options, a
/// bug of ours.
pub const EXIT_TROUBLE: i32 = 2;

/// What a problem's binary says about its judge in `--help`.
#[derive(Clone, Copy, Debug)]
pub struct JudgeHelp {
    /// `check`'s one-line rule: how the original judge compares an output.
    pub check: &'static str,
    /// `validate`'s limits, in words.
    pub validate: &'static str,
    /// What `stress --exhaustive BOUND` runs.
    pub exhaustive: &'static str,
}

/// Parses a problem binary's command line, `A` being its clap arguments with a
/// [`JudgeCommand`] flattened into its subcommands, `P` its problem. `help` and `P`'s
/// [`RUN_LIMITS`](Problem::RUN_LIMITS) fill in the judge's help texts; a usage error of
/// `check` exits 3, a judge failure, where clap's own usage errors exit 2, which testlib reads
/// as a presentation error of the contestant.
#[must_use]
pub fn parse_args<A: clap::Parser, P: Problem>(help: &JudgeHelp) -> A {
    let limits = P::RUN_LIMITS;
    let time = format!(
        "Each run's CPU-time limit (user plus system, of the program and everything it starts), \
         as isolate and DOMjudge judge; a run that sleeps or waits is killed at the wall-clock \
         backstop, twice the limit plus 1 s [default: {}, {}]",
        seconds(limits.time),
        limits.origin
    );
    let memory = format!(
        "Each run's memory limit in megabytes (MiB), e.g. 256 or 1G, or none: a run whose peak \
         resident memory passes it is killed; the stack may grow to it [default: {} MB, {}]",
        limits.memory_mib, limits.origin
    );
    let judge_args = |sub: clap::Command| {
        let time = time.clone();
        let memory = memory.clone();
        sub.mut_arg("time_limit", move |a| a.help(time))
            .mut_arg("memory_limit", move |a| a.help(memory))
    };
    let command = A::command()
        .mut_subcommand("check", |c| c.about(help.check))
        .mut_subcommand("validate", |c| c.about(help.validate))
        .mut_subcommand("stress", |c| {
            judge_args(c).mut_arg("exhaustive", |a| a.help(help.exhaustive))
        })
        .mut_subcommand("shrink", judge_args)
        .mut_subcommand("run", judge_args);
    let parsed = command.try_get_matches().and_then(|m| A::from_arg_matches(&m));
    parsed.unwrap_or_else(|e| {
        let checking = std::env::args_os().nth(1).is_some_and(|a| a == "check");
        if checking && e.use_stderr() {
            let _ = e.print();
            std::process::exit(EXIT_FAIL);
        }
        e.exit()
    })
}

/// `1.5 s`, `20 s`.
fn seconds(time: Duration) -> String {
    format!("{} s", time.as_secs_f64())
}

/// Parses a duration: seconds (`10`, `1.5`) or with a unit (`1500ms`, `2s`, `1m`).
///
/// # Errors
/// Not a non-negative number with an optional unit `ms`, `s` or `m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    scaled(text, &[("ms", 1e-3), ("s", 1.0), ("m", 60.0)], 1.0)
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .ok_or_else(|| {
            format!("expected a duration such as 10, 2.5s or 1500ms, found {:?}", text.trim())
        })
}

/// `text` as a number times its unit's scale: the first of `units` (suffix, scale) it ends
/// with, else `bare`. `None` when the number does not parse or is not finite.
fn scaled(text: &str, units: &[(&str, f64)], bare: f64) -> Option<f64> {
    let text = text.trim();
    let (number, scale) = (units.iter())
        .find_map(|&(suffix, scale)| text.strip_suffix(suffix).map(|number| (number, scale)))
        .unwrap_or((text, bare));
    let value = number.trim().parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some(value * scale)
}

/// A memory limit as given: a size, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// At most this many KiB.
    Kib(u64),
    /// No limit (the peak is still measured).
    Unlimited,
}

/// Parses a memory limit: a size in megabytes ([`parse_megabytes`]) or `none`.
///
/// # Errors
/// Neither.
pub fn parse_memory_limit(text: &str) -> Result<MemoryLimit, String> {
    if text.trim().eq_ignore_ascii_case("none") {
        return Ok(MemoryLimit::Unlimited);
    }
    parse_megabytes(text).map(MemoryLimit::Kib)
}

/// Parses a memory size in megabytes (MiB), as judges state memory limits: `256`, `256M`,
/// `256MB`, `1G`, `1.5GB`; returns KiB.
///
/// # Errors
/// A size that is not a positive number with one of those units.
pub fn parse_megabytes(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    scaled(upper.trim_end_matches('B'), &[("G", 1024.0 * 1024.0), ("M", 1024.0)], 1024.0)
        .filter(|&kib| kib >= 1.0)
        .map(|kib| kib.round() as u64)
        .ok_or_else(|| {
            format!("expected a size in megabytes such as 256, 256M or 1G, found {:?}", text.trim())
        })
}

/// The judge's subcommands, for a problem binary to flatten into its own
/// (`#[command(flatten)] Judge(JudgeCommand)`) and hand to [`JudgeCommand::run`].
#[derive(Clone, Debug, clap::Subcommand)]
pub enum JudgeCommand {
    /// Judge a contestant's OUTPUT for INPUT as the original judge does.
    Check(CheckArgs),
    /// Is FILE a valid input?
    Validate(ValidateArgs),
    /// Run COMMAND on generated inputs (or every input up to a bound) until it fails, then
    /// shrink the failure to a 1-minimal input. Exit 0 no failure, 1 failure, 2 trouble;
    /// stopped by SIGINT, SIGTERM or SIGHUP, it reports what it found and exits 130, 143, 129.
    Stress(StressArgs),
    /// Shrink INPUT, on which COMMAND fails, to a 1-minimal input that fails the same way (a
    /// failure saved by `stress`, or any input). Exit 0 it does not fail, 1 shrunk, 2 trouble;
    /// stopped by a signal, it reports how far it got and exits 130, 143, 129.
    Shrink(ShrinkArgs),
    /// Print an input as `stress` generates them: size level LEVEL, or extreme input K, from
    /// SEED; the same arguments give the same bytes.
    Generate(GenerateArgs),
    /// Judge COMMAND on a folder of tests (NAME.in with NAME.ans; a package's data/): each
    /// test's verdict, CPU time and peak memory, then a summary. Exit 0 all passed, 1 some
    /// failed, 2 trouble.
    Run(run::RunTestsArgs),
    /// Write a problem package in the Kattis format (legacy), which DOMjudge imports: the
    /// samples, the extremes and generated tests with our answers, a test that kills each
    /// --wrong and --slow submission (found by stress and shrunk), the validators, the
    /// submissions filed by verdict. Exit 0 all filed, 1 some submission killed by no test
    /// (not filed), 2 trouble.
    Package(package::PackageArgs),
}

/// `PROBLEM generate`: a generated input on stdout.
#[derive(Clone, Debug, clap::Args)]
pub struct GenerateArgs {
    /// The size level, 0 (the smallest) up to the problem's largest.
    #[arg(long, default_value_t = 0)]
    pub level: u32,
    /// Extreme input K instead (the largest sizes and values the limits allow).
    #[arg(long, value_name = "K", conflicts_with = "level")]
    pub extreme: Option<u32>,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Limits the input respects.
    #[arg(long, value_enum, default_value_t)]
    pub limits: Limits,
}

impl JudgeCommand {
    /// Runs the subcommand on `problem` and returns the process's exit code.
    pub fn run<P: Packaged>(&self, problem: &P) -> i32 {
        match self {
            Self::Check(args) => run_check(problem, args),
            Self::Validate(args) => run_validate(problem, args),
            Self::Stress(args) => run_stress(problem, args),
            Self::Shrink(args) => run_shrink(problem, args),
            Self::Generate(args) => run_generate(problem, args),
            Self::Run(args) => run::run_tests(problem, args),
            Self::Package(args) => package::run_package(problem, args),
        }
    }
}

/// `PROBLEM check`: judge a contestant's output.
#[derive(Clone, Debug, clap::Args)]
pub struct CheckArgs {
    /// Files in the protocol's order: testlib INPUT OUTPUT, then ANSWER if given (else our own
    /// answer is used); kattis INPUT ANSWER FEEDBACK_DIR with the output on stdin; cms INPUT
    /// ANSWER OUTPUT.
    // Counted by `Protocol::check_files`, not by clap: a wrong count must exit 3 (fail), and
    // clap's usage errors exit 2, a presentation error to testlib. `parse_args` likewise turns
    // clap's other errors for `check` into exit 3.
    #[arg(value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Checker protocol: exit codes and where the message goes.
    #[arg(long, value_enum, default_value_t)]
    pub protocol: Protocol,
    /// Limits the input is read under.
    #[arg(long, value_enum, default_value_t = Limits::Extended)]
    pub limits: Limits,
    /// Take a given ANSWER as it is, without checking it against our own answer.
    #[arg(long)]
    pub trust_answer: bool,
    /// Reject what the official checker overlooks (the problem's README says what, e.g. text
    /// after the last answer): a presentation error instead of ok.
    #[arg(long)]
    pub strict: bool,
}

/// `PROBLEM validate`: is a file a valid input?
#[derive(Clone, Debug, clap::Args)]
pub struct ValidateArgs {
    /// Input file; standard input when absent.
    pub file: Option<PathBuf>,
    /// Which constraints to enforce.
    #[arg(long, value_enum, default_value_t)]
    pub limits: Limits,
    /// Validator protocol: testlib exits 0/3, kattis 42/43.
    #[arg(long, value_enum, default_value_t)]
    pub protocol: Protocol,
    /// Accept any white space between numbers and leading zeros, as the solver reads,
    /// instead of the canonical format (one space between numbers, `\n` line ends, a final
    /// newline, numbers in plain decimal).
    #[arg(long)]
    pub lenient: bool,
}

/// The time and memory every run of the user's program gets: the arguments `stress`,
/// `shrink` and `run` share.
#[derive(Clone, Debug, clap::Args)]
pub struct LimitArgs {
    /// Each run's CPU-time limit (the problem's help gives its default).
    #[arg(long, short = 't', value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Each run's memory limit (the problem's help gives its default).
    #[arg(long, short = 'm', value_parser = parse_memory_limit, value_name = "MB")]
    pub memory_limit: Option<MemoryLimit>,
}

/// What every run of the user's program gets, and how failures are shrunk and saved: the
/// arguments `stress` and `shrink` share.
#[derive(Clone, Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub limit: LimitArgs,
    /// Limits of the inputs (generated ones and every shrink candidate).
    #[arg(long, value_enum, default_value_t)]
    pub limits: Limits,
    /// Runs at once [default: the number of cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Where the failing input is saved; our answer, the program's output and our proofs go
    /// beside it (`.ans`, `.out`, ...).
    #[arg(long, default_value = "counterexample.in")]
    pub save: PathBuf,
    /// Time budget for shrinking.
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub shrink_time: Duration,
    /// The program and its arguments (after --); it reads the input on stdin.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

/// `PROBLEM stress`: run a program on generated inputs until it fails, then shrink.
#[derive(Clone, Debug, clap::Args)]
pub struct StressArgs {
    /// Master seed: the same seed gives the same inputs in the same order, whatever -j.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time budget, e.g. 30, 30s, 2m [default: 10s unless --runs or --exhaustive is given].
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Run budget.
    #[arg(long)]
    pub runs: Option<u64>,
    /// First run index (with --runs 1, replays one run of a seed).
    #[arg(long, default_value_t = 0)]
    pub from: u64,
    /// Report the failing input as found, unshrunk.
    #[arg(long)]
    pub no_shrink: bool,
    /// Instead of generated inputs, every input up to BOUND in the problem's exhaustive
    /// order (the problem's help says what BOUND bounds).
    #[arg(long, value_name = "BOUND")]
    pub exhaustive: Option<u64>,
    /// Every run at size level LEVEL (0, the smallest, up to the problem's largest), without
    /// the extreme inputs.
    #[arg(long, value_name = "LEVEL", conflicts_with = "exhaustive")]
    pub level: Option<u32>,
    /// Judge every output and then accept it: the loop's own cost, for `cargo xtask bench
    /// judge`.
    #[arg(long, hide = true)]
    pub accept_everything: bool,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub run: RunArgs,
}

/// `PROBLEM shrink`: shrink a failing input.
#[derive(Clone, Debug, clap::Args)]
pub struct ShrinkArgs {
    /// The input COMMAND fails on.
    pub input: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub run: RunArgs,
}

/// The limits a run gets: the arguments given, else the problem's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitsUsed {
    /// Each run's time limit.
    pub time: Duration,
    /// Each run's memory limit in KiB, if any.
    pub memory_kib: Option<u64>,
    /// `the original judge's`, `given`, or a mix.
    pub origin: &'static str,
}

impl LimitsUsed {
    /// The limits `args` ask for over `defaults`.
    #[must_use]
    pub fn new(args: &LimitArgs, defaults: RunLimits) -> Self {
        let time = args.time_limit.unwrap_or(defaults.time);
        let memory_kib = match args.memory_limit {
            None => Some(defaults.memory_mib * 1024),
            Some(MemoryLimit::Kib(kib)) => Some(kib),
            Some(MemoryLimit::Unlimited) => None,
        };
        let origin = match (args.time_limit.is_some(), args.memory_limit.is_some()) {
            (false, false) => defaults.origin,
            (true, true) => "given",
            _ => "given, and the default",
        };
        Self { time, memory_kib, origin }
    }

    /// `1 s of CPU time (3 s of wall time) and 256 MB of memory, the stack's too, a run (the
    /// original judge's)`.
    #[must_use]
    pub fn describe(&self) -> String {
        let memory = self.memory_kib.map_or_else(
            || "no memory limit (the stack unlimited)".to_owned(),
            |kib| format!("{} of memory, the stack's too", megabytes(kib)),
        );
        format!(
            "{} of CPU time ({} of wall time) and {memory}, a run ({})",
            seconds(self.time),
            seconds(wall_backstop(self.time)),
            self.origin
        )
    }

    /// The report's limits line: these limits, and those of the inputs.
    fn line(&self, inputs: Limits) -> String {
        format!("limits: {}; inputs within the {inputs} limits", self.describe())
    }

    /// The flags that give these limits, for commands that repeat a run.
    fn flags(&self) -> String {
        let memory = match self.memory_kib {
            // As given, in megabytes (`256`, `0.5`): f64 prints a whole number without a point.
            Some(kib) => format!("{}M", kib as f64 / 1024.0),
            None => "none".to_owned(),
        };
        format!("--time-limit {}s --memory-limit {memory}", self.time.as_secs_f64())
    }

    pub(crate) fn child_options(&self) -> ChildOptions {
        ChildOptions::new(self.time, self.memory_kib)
    }
}

impl RunArgs {
    fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            usize::from,
        )
    }

    fn shrink_options(&self, limits: &LimitsUsed) -> ShrinkOptions {
        ShrinkOptions {
            jobs: self.jobs(),
            limits: self.limits,
            run: limits.child_options(),
            time: Some(self.shrink_time),
            runs: None,
        }
    }

    fn program(&self) -> Program {
        Program::new(&self.command)
    }
}

impl StressArgs {
    /// The loop's options under `limits`.
    #[must_use]
    pub fn stress_options(&self, limits: &LimitsUsed) -> StressOptions {
        let unbounded = self.runs.is_none() && self.exhaustive.is_none();
        StressOptions {
            seed: self.seed,
            first: self.from,
            runs: self.runs,
            time: self.time.or(unbounded.then_some(Duration::from_secs(10))),
            jobs: self.run.jobs(),
            limits: self.run.limits,
            run: limits.child_options(),
            schedule: self.level.map(Schedule::at_level),
            exhaustive: self.exhaustive,
        }
    }
}

fn read(path: Option<&Path>) -> Result<Vec<u8>, String> {
    match path {
        Some(path) => {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        }
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(bytes)
        }
    }
}

/// Runs `check`: judges, delivers the verdict by the protocol, returns its exit code.
pub fn run_check<P: Problem>(problem: &P, args: &CheckArgs) -> i32 {
    let files = match args.protocol.check_files(&args.files) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("fail: {e}");
            return EXIT_FAIL;
        }
    };
    let verdict = (|| -> Result<Verdict, String> {
        let input = read(Some(&files.input))?;
        let output = match &files.output {
            Source::File(path) => read(Some(path))?,
            Source::Stdin => read(None)?,
        };
        let answer = files.answer.as_deref().map(|p| read(Some(p))).transpose()?;
        let verify = !args.trust_answer;
        Ok(check(problem, &input, &output, answer.as_deref(), args.limits, verify, args.strict))
    })()
    .unwrap_or_else(Verdict::fail);
    args.protocol
        .deliver(
            &verdict,
            files.feedback_dir.as_deref(),
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )
        .unwrap_or(EXIT_FAIL)
}

/// Runs `validate`: reads the file in the canonical format (or leniently) with
/// [`validate_file`](super::canonical::validate_file), prints `ok: ...` on stdout or `invalid: line L, column C: ...` on
/// stderr, returns the protocol's exit code.
pub fn run_validate<P: Problem>(problem: &P, args: &ValidateArgs) -> i32 {
    use super::canonical::{Strictness, validate_file};
    let bytes = match read(args.file.as_deref()) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("fail: {e}");
            return EXIT_FAIL;
        }
    };
    let strictness = if args.lenient { Strictness::Lenient } else { Strictness::Canonical };
    match validate_file(problem, &bytes, args.limits, strictness) {
        Ok(input) => {
            let line =
                format!("ok: {}, within the {} limits\n", problem.summary(&input), args.limits);
            let _ = io::stdout().lock().write_all(line.as_bytes());
            args.protocol.validator_exit_code(true)
        }
        Err(e) => {
            eprintln!("invalid: {e}");
            args.protocol.validator_exit_code(false)
        }
    }
}

/// How a `stress` or `shrink` command ended: the report for stdout, what went wrong for
/// stderr, and the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The report.
    pub stdout: String,
    /// `error: ...` when something other than the user's program went wrong.
    pub stderr: String,
    /// The exit code.
    pub code: i32,
}

impl Ending {
    /// The report `stdout` ending with `code`, or with `128 + signal` when a signal stopped
    /// the work.
    fn report(stdout: String, code: i32) -> Self {
        let code = interrupt::caught().map_or(code, interrupt::exit_code);
        Self { stdout, stderr: String::new(), code }
    }

    /// Trouble: `error: {message}` and exit code 2 (or `128 + signal`).
    fn trouble(message: impl fmt::Display) -> Self {
        let code = interrupt::caught().map_or(EXIT_TROUBLE, interrupt::exit_code);
        Self { stdout: String::new(), stderr: format!("error: {message}\n"), code }
    }

    /// Prints the ending and returns its exit code. A reader that stopped reading (`| head`)
    /// is not an error: what it read is what it wanted.
    fn print(self) -> i32 {
        let _ = io::stdout().lock().write_all(self.stdout.as_bytes());
        let _ = io::stderr().lock().write_all(self.stderr.as_bytes());
        self.code
    }
}

/// Runs `stress` and prints its report: see [`stress_ending`].
pub fn run_stress<P: Problem>(problem: &P, args: &StressArgs) -> i32 {
    if args.accept_everything {
        return stress_ending(&Lenient(problem), args).print();
    }
    stress_ending(problem, args).print()
}

/// Runs `generate`: the input on stdout, exit 0; a level or extreme the problem does not have
/// is trouble (exit 2).
pub fn run_generate<P: Problem>(problem: &P, args: &GenerateArgs) -> i32 {
    let mut rng = SplitMix64::new(args.seed);
    let input = match args.extreme {
        Some(k) if k < problem.extremes(args.limits) => problem.extreme(k, &mut rng, args.limits),
        Some(k) => {
            let have = problem.extremes(args.limits);
            return Ending::trouble(format!(
                "no extreme input {k}: {} has {have} under the {} limits (0 to {})",
                problem.name(),
                args.limits,
                have.saturating_sub(1)
            ))
            .print();
        }
        None if args.level < P::LEVELS => problem.generate(&mut rng, args.level, args.limits),
        None => {
            return Ending::trouble(format!(
                "no level {}: {}'s levels are 0 to {}",
                args.level,
                problem.name(),
                P::LEVELS - 1
            ))
            .print();
        }
    };
    let written = io::stdout().lock().write_all(&render(problem, &input));
    // A reader that stopped reading (`| head`) is not an error.
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Ending::trouble(format!("cannot write the input: {e}")).print()
        }
        _ => EXIT_PASSED,
    }
}

/// Runs `shrink` and prints its report: see [`shrink_ending`].
pub fn run_shrink<P: Problem>(problem: &P, args: &ShrinkArgs) -> i32 {
    shrink_ending(problem, args).print()
}

/// `stress`: the loop, then shrinking, then the report.
///
/// The report depends only on the seed (or the exhaustive bound), the options and the user's
/// program, not on `-j`, except its measured figures (CPU and wall times, memory) and its last
/// line, `time: ...`, which holds the wall times, the shrinker's run count (candidates run
/// beside an accepted one vary with `-j`) and `-j`.
pub fn stress_ending<P: Problem>(problem: &P, args: &StressArgs) -> Ending {
    if let Err(e) = interrupt::catch() {
        return Ending::trouble(format!("cannot catch signals: {e}"));
    }
    let limits = LimitsUsed::new(&args.run.limit, P::RUN_LIMITS);
    if let Some(level) = args.level.filter(|&level| level >= P::LEVELS) {
        return Ending::trouble(format!(
            "no level {level}: {}'s levels are 0 to {}",
            problem.name(),
            P::LEVELS - 1
        ));
    }
    let options = args.stress_options(&limits);
    // An exhaustive run's length, checked before any run so a bad bound is trouble at once.
    let total =
        match args.exhaustive.map(|b| problem.exhaustive_len(b, args.run.limits)).transpose() {
            Ok(total) => total,
            Err(e) => return Ending::trouble(format!("no exhaustive run: {e}")),
        };
    let program = args.run.program();
    let report = with_spinner(
        |show| stress(problem, &program, &options, Some(show)),
        |p: Progress| {
            let of = total.map(|t| format!(" of {}", count(t))).unwrap_or_default();
            format!("{}{of} runs, {}", count(p.runs), plural(p.cases, "case"))
        },
    );
    let report = match report {
        Ok(report) => report,
        Err(e) => return Ending::trouble(e),
    };
    let source = match args.exhaustive {
        Some(bound) => format!("exhaustive up to {bound}"),
        None => format!("seed {}", args.seed),
    };
    let counts =
        format!("{}, {} ({source})", plural(report.runs, "run"), plural(report.cases, "case"));
    let mut about = vec![limits.line(args.run.limits)];
    if !report.unconfirmed.is_empty() {
        let runs: Vec<String> = report.unconfirmed.iter().map(u64::to_string).collect();
        about.push(format!(
            "{} that no rerun alone met, taken for the machine's load: run {}",
            plural(report.unconfirmed.len() as u64, "time limit"),
            runs.join(", ")
        ));
    }
    let time = format!("time: {:.1} s", report.elapsed.as_secs_f64());
    let Some(failure) = report.failure else {
        let headline = if let Some(signal) = report.interrupted {
            format!(
                "interrupted by {} after {counts}: no failure so far",
                interrupt::signal_name(signal)
            )
        } else if total.is_some_and(|t| args.from == 0 && report.runs == t) {
            format!("ok: right on every input: {counts}")
        } else {
            format!("ok: no failure in {counts}")
        };
        let text = format!("{headline}\n{}\n{time}, -j {}\n", about.join("\n"), options.jobs);
        return Ending::report(text, EXIT_PASSED);
    };
    let replay_source = match (args.exhaustive, args.level) {
        (Some(bound), _) => format!("--exhaustive {bound}"),
        (None, Some(level)) => format!("--seed {} --level {level}", args.seed),
        (None, None) => format!("--seed {}", args.seed),
    };
    let replay = format!(
        "{} stress {replay_source} --from {} --runs 1 {} --limits {} -- {}",
        problem.name(),
        failure.index,
        limits.flags(),
        args.run.limits,
        program.display()
    );
    about.insert(0, format!("tried {counts}"));
    let found = Found {
        headline: format!("found by run {}: {}", failure.index, failure.trial.verdict),
        about,
        replay: Some(replay),
        time,
    };
    let session = Session { problem, run: &args.run, limits, program };
    session.confirmed_and_reported(
        failure.input,
        failure.trial,
        failure.reruns,
        found,
        !args.no_shrink,
    )
}

/// `shrink`: the given input's run (confirmed alone, or rerun when it passes), then shrinking,
/// then the report.
pub fn shrink_ending<P: Problem>(problem: &P, args: &ShrinkArgs) -> Ending {
    if let Err(e) = interrupt::catch() {
        return Ending::trouble(format!("cannot catch signals: {e}"));
    }
    let limits = LimitsUsed::new(&args.run.limit, P::RUN_LIMITS);
    let name = args.input.display();
    let input = match read(Some(&args.input))
        .and_then(|bytes| problem.parse(&bytes, args.run.limits).map_err(|e| e.to_string()))
    {
        Ok(input) => input,
        Err(e) => return Ending::trouble(format!("{name}: {e} ({} limits)", args.run.limits)),
    };
    let started = std::time::Instant::now();
    let program = args.run.program();
    let options = limits.child_options();
    let mut first = match trial(problem, &program, &input, &options) {
        Ok(first) => first,
        Err(e) => return Ending::trouble(e),
    };
    let limits_line = limits.line(args.run.limits);
    // A program that fails only sometimes may pass the first run: a few more runs alone say.
    let mut passes = 1;
    while !first.verdict.kind.is_failure() && passes < 1 + confirm::FINAL_RERUNS {
        first = match trial(problem, &program, &input, &options) {
            Ok(t) => t,
            Err(e) => return Ending::trouble(e),
        };
        passes += 1;
    }
    let time = format!("time: {:.1} s", started.elapsed().as_secs_f64());
    if !first.verdict.kind.is_failure() {
        let text = format!(
            "ok: {} passes on {name} ({}): {}\n{limits_line}\n{time}\n",
            program.display(),
            plural(u64::from(passes), "run"),
            first.verdict
        );
        return Ending::report(text, EXIT_PASSED);
    }
    let kind = first.verdict.kind;
    let reruns = if passes > 1 {
        // It passed before it failed: nondeterministic, as the report will say.
        let runs = passes - 1;
        Some(confirm::Reruns { kind, first_counts: true, runs, failed: 0, trial: None })
    } else {
        match confirm::confirm(problem, &program, &input, kind, &options) {
            Ok(reruns) if reruns.standing() == Standing::Unconfirmed => {
                let text = format!(
                    "ok: {} passes on {name}: its {} was not met again in {} alone, taken for \
                     the machine's load\n{limits_line}\n{time}\n",
                    program.display(),
                    kind.words(),
                    plural(u64::from(reruns.runs), "rerun")
                );
                return Ending::report(text, EXIT_PASSED);
            }
            Ok(reruns) => Some(reruns),
            Err(ChildError::Interrupted(_)) => None,
            Err(e) => return Ending::trouble(e),
        }
    };
    let found = Found {
        headline: format!("{name} fails: {}", first.verdict),
        about: vec![limits_line],
        replay: None,
        time,
    };
    let session = Session { problem, run: &args.run, limits, program };
    session.confirmed_and_reported(input, first, reruns, found, true)
}

/// How a failure was found, for its report.
struct Found {
    /// `found by run 14: ...`.
    headline: String,
    /// Lines about the search and the limits.
    about: Vec<String>,
    /// A command that replays the run that found it.
    replay: Option<String>,
    /// The search's time line.
    time: String,
}

/// What `stress` and `shrink` resolve once from their arguments: the problem, the program,
/// the limits, and the arguments for shrinking and saving.
struct Session<'a, P> {
    problem: &'a P,
    run: &'a RunArgs,
    limits: LimitsUsed,
    program: Program,
}

impl<P: Problem> Session<'_, P> {
    /// Reports a failure as its reruns alone left it: a confirmed one shrunk (when
    /// `shrinking`), a nondeterministic one or one whose reruns a signal stopped as found.
    fn confirmed_and_reported(
        &self,
        input: P::Input,
        failing: Trial,
        reruns: Option<confirm::Reruns>,
        mut found: Found,
        shrinking: bool,
    ) -> Ending {
        let mut failing = failing;
        match &reruns {
            None => found.about.push(format!(
                "not confirmed: stopped by {} before a rerun alone",
                interrupt::caught().map_or_else(|| "a signal".to_owned(), interrupt::signal_name)
            )),
            Some(r) if r.standing() == Standing::Confirmed => {
                if let Some(alone) = r.trial.as_ref().filter(|_| !r.first_counts) {
                    // Alone, with its time, the run fails otherwise: that failure is the one.
                    found.about.push(format!("run alone, it fails otherwise: {}", alone.verdict));
                    failing = alone.clone();
                }
                found.about.push(format!(
                    "confirmed: it failed the same way in {} alone",
                    plural(u64::from(r.runs), "rerun")
                ));
            }
            Some(r) => {
                found.about.push(format!(
                    "nondeterministic: it {} of this input (the reruns alone); not shrunk, since \
                     a shrink would follow chance rather than the bug",
                    r.with_first()
                ));
                return self.report(&input, failing, found, None, false);
            }
        }
        if !shrinking || reruns.is_none() {
            let measured_alone = reruns.and_then(|r| r.trial);
            return self.report(&input, measured_alone.unwrap_or(failing), found, None, true);
        }
        let shrunk = with_spinner(
            |show| {
                let options = self.run.shrink_options(&self.limits);
                shrink_with_progress(
                    self.problem,
                    &self.program,
                    input.clone(),
                    failing.clone(),
                    &options,
                    Some(show),
                )
            },
            |p: ShrinkProgress| {
                format!(
                    "shrinking: {}, {}, size {}",
                    plural(p.steps, "move"),
                    plural(p.runs, "run"),
                    count(p.size)
                )
            },
        );
        let shrunk = match shrunk {
            Ok(shrunk) => shrunk,
            Err(e) => return Ending::trouble(format!("while shrinking: {e}")),
        };
        found.time += &format!(
            ", shrinking {:.1} s in {}",
            shrunk.elapsed.as_secs_f64(),
            plural(shrunk.runs, "run")
        );
        let shrunk_line = shrink_line(&shrunk, self.run);
        match shrunk.reruns {
            Some(r) if r.failed == 0 => {
                // The shrink followed chance: say what was tried, not what it claimed.
                found.about.push(format!(
                    "nondeterministic: a shrink by {} ended on an input that failed 0 of {} \
                     alone; the input as found is reported instead",
                    plural(shrunk.steps, "move"),
                    plural(u64::from(r.runs), "rerun")
                ));
                self.report(&input, failing, found, None, false)
            }
            Some(r) if r.failed < r.runs => {
                found.about.push(format!(
                    "nondeterministic: {}, but the shrunk input failed {} of {} alone, so the \
                     shrink may have followed chance",
                    shrunk_line,
                    r.failed,
                    plural(u64::from(r.runs), "rerun")
                ));
                let trial = r.trial.unwrap_or(shrunk.trial);
                self.report(&shrunk.input, trial, found, Some(shrunk.end), false)
            }
            Some(r) => {
                found.about.push(shrunk_line);
                found.about.push(format!(
                    "the shrunk input failed again in {} of {} alone",
                    r.failed,
                    plural(u64::from(r.runs), "rerun")
                ));
                let trial = r.trial.unwrap_or(shrunk.trial);
                self.report(&shrunk.input, trial, found, Some(shrunk.end), true)
            }
            None => {
                found.about.push(shrunk_line);
                self.report(&shrunk.input, shrunk.trial, found, Some(shrunk.end), true)
            }
        }
    }

    /// Saves the failing input and its texts beside `--save` (under a name no earlier failure
    /// holds) and ends with the report; `shrinkable` offers a command that shrinks it (further).
    fn report(
        &self,
        input: &P::Input,
        trial: Trial,
        found: Found,
        end: Option<ShrinkEnd>,
        shrinkable: bool,
    ) -> Ending {
        let Found { headline, about, replay, time } = found;
        let problem = self.problem;
        let exhibits = problem.explain(input);
        let mut extensions = vec!["ans", "out"];
        extensions.extend(exhibits.iter().map(|e| e.extension));
        let save = unused_save_path(&self.run.save, &extensions);
        let mut ours = Vec::new();
        problem.render_answer(input, &problem.solve(input), &mut ours);
        let mut texts = vec![
            saved_text("input", Some(problem.summary(input)), render(problem, input), save.clone()),
            saved_text("our answer", None, ours, beside(&save, "ans")),
            saved_text("your output", None, trial.run.stdout.clone(), beside(&save, "out")),
        ];
        if !trial.run.stderr_tail.is_empty() {
            let about = (trial.run.stderr_len > trial.run.stderr_tail.len()).then(|| {
                format!("its last {}", super::report::bytes_text(trial.run.stderr_tail.len()))
            });
            texts.push(Text {
                title: "your stderr".to_owned(),
                about,
                bytes: trial.run.stderr_tail.clone(),
                saved: Saved::No,
            });
        }
        for exhibit in exhibits {
            let path = beside(&save, exhibit.extension);
            texts.push(saved_text(exhibit.title, None, exhibit.text.into_bytes(), path));
        }
        let command = self.program.display();
        let saved = shell_quote(&save.display().to_string());
        let mut commands = vec![("run it again".to_owned(), format!("{command} < {saved}"))];
        if let Some(replay) = replay {
            commands.push(("replay the run".to_owned(), replay));
        }
        if shrinkable && end != Some(ShrinkEnd::Minimal) {
            commands.push((
                "go on shrinking".to_owned(),
                format!(
                    "{} shrink {saved} {} --limits {} -- {command}",
                    problem.name(),
                    self.limits.flags(),
                    self.run.limits
                ),
            ));
        }
        let run = &trial.run;
        let measured = format!(
            "measured: CPU {}, wall {}, peak memory {}",
            seconds2(run.cpu),
            seconds2(run.wall),
            megabytes(run.memory.kib())
        );
        let report = FailureReport {
            found: headline,
            about,
            verdict: trial.verdict,
            texts,
            answer_and_output: Some((1, 2)),
            commands,
            measured,
            time: format!("{time}, -j {}", self.run.jobs()),
        };
        Ending::report(report.to_string(), EXIT_FOUND)
    }
}

/// The line that says how far shrinking got.
fn shrink_line<I>(shrunk: &Shrunk<I>, run: &RunArgs) -> String {
    let moves = plural(shrunk.steps, "move");
    match shrunk.end {
        ShrinkEnd::Minimal => format!(
            "shrunk by {moves}: 1-minimal (no single move gives a valid input that fails the same way)"
        ),
        ShrinkEnd::Time => format!(
            "shrunk by {moves}, then stopped by --shrink-time {}: not known to be 1-minimal",
            seconds(run.shrink_time)
        ),
        ShrinkEnd::Runs => format!("shrunk by {moves}, then stopped by the run budget"),
        ShrinkEnd::Interrupted(signal) => format!(
            "shrunk by {moves}, then stopped by {}: not known to be 1-minimal",
            interrupt::signal_name(signal)
        ),
    }
}

/// Runs `work` with a spinner on stderr when it is a terminal; `work` gets a callback that
/// updates the spinner's message with `describe`.
fn with_spinner<T, U: Copy>(
    work: impl FnOnce(&(dyn Fn(U) + Sync)) -> T,
    describe: impl Fn(U) -> String + Sync,
) -> T {
    let bar = io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    });
    let show = |u: U| {
        if let Some(bar) = &bar {
            bar.set_message(describe(u));
        }
    };
    let result = work(&show);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn memory_sizes_are_megabytes() {
        assert_eq!(parse_megabytes("256"), Ok(256 * 1024));
        assert_eq!(parse_megabytes("256M"), Ok(256 * 1024));
        assert_eq!(parse_megabytes("64mb"), Ok(64 * 1024));
        assert_eq!(parse_megabytes("1G"), Ok(1024 * 1024));
        assert_eq!(parse_megabytes("1.5GB"), Ok(1536 * 1024));
        assert_eq!(parse_megabytes("0.5"), Ok(512));
        for bad in ["0", "-1", "lots", "", "12K", "inf", "NaN", "none"] {
            assert!(parse_megabytes(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_memory_limit("none"), Ok(MemoryLimit::Unlimited));
        assert_eq!(parse_memory_limit("2048"), Ok(MemoryLimit::Kib(2048 * 1024)));
    }
}
