//! The judge's command-line side (feature `cli`): clap arguments for `check`, `validate` and
//! `stress`, and the runners a problem binary calls with its [`Problem`]. Each runner prints
//! its report and returns the process's exit code.
//!
//! Exit codes: `check` and `validate` follow the chosen [`Protocol`]; `stress` follows GNU
//! diff: 0 no failure within the budget, 1 a failure (shrunk and saved), 2 trouble.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "these runners are the binaries' UI")]

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::time::Duration;

use super::problem::{Limits, Problem, check, render};
use super::protocol::{EXIT_FAIL, Protocol, Source};
use super::run::{Program, RunOptions, shell_quote};
use super::shrink::{ShrinkOptions, shrink};
use super::stress::{Progress, StressOptions, stress};
use super::verdict::Verdict;

/// `stress`'s exit code when no failure was found.
pub const EXIT_PASSED: i32 = 0;
/// `stress`'s exit code when a failure was found.
pub const EXIT_FOUND: i32 = 1;
/// `stress`'s exit code for trouble: the command cannot run, bad options, a bug of ours.
pub const EXIT_TROUBLE: i32 = 2;

/// Parses a problem binary's command line, `A` being its clap arguments with the judge's
/// subcommands: `stress --exhaustive` gets `exhaustive_help` (what BOUND means for this
/// problem), and a usage error of `check` exits 3, a judge failure. clap's own usage errors
/// exit 2, which testlib reads as a presentation error of the contestant.
#[must_use]
pub fn parse_args<A: clap::Parser>(exhaustive_help: &'static str) -> A {
    let command = A::command().mut_subcommand("stress", |stress| {
        stress.mut_arg("exhaustive", |a| a.help(exhaustive_help))
    });
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

/// `PROBLEM check`: judge a contestant's output.
#[derive(Clone, Debug, clap::Args)]
pub struct CheckArgs {
    /// Files in the protocol's order: testlib INPUT OUTPUT, then ANSWER if given (else our own
    /// answer is used); kattis INPUT ANSWER FEEDBACK_DIR with the output on stdin; cms INPUT
    /// ANSWER OUTPUT.
    // Counted by `Protocol::check_files`, not by clap: a wrong count must exit 3 (fail), and
    // clap's usage errors exit 2, a presentation error to testlib. Binaries should likewise
    // turn clap's other errors for `check` into exit 3.
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
    /// Per-run wall time limit; the run's process group is killed there.
    #[arg(long, short = 't', value_parser = parse_duration, default_value = "2s")]
    pub time_limit: Duration,
    /// Per-run memory limit in megabytes (MiB), e.g. 256 or 1G: a run whose peak resident
    /// memory passes it is killed and fails with "memory limit exceeded" [default: none].
    #[arg(long, short = 'm', value_parser = parse_megabytes, value_name = "MB")]
    pub memory_limit: Option<u64>,
    /// Runs at once [default: the number of cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Where the shrunk failing input is written.
    #[arg(long, default_value = "counterexample.in")]
    pub save: PathBuf,
    /// Limits of the generated inputs (and of every shrink candidate).
    #[arg(long, value_enum, default_value_t)]
    pub limits: Limits,
    /// Time budget for shrinking.
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub shrink_time: Duration,
    /// Report the failing input as found, unshrunk.
    #[arg(long)]
    pub no_shrink: bool,
    /// Instead of generated inputs, every input up to BOUND in the problem's exhaustive
    /// order, smallest first, in files of the official size; what BOUND bounds is the
    /// problem's (see its README). Runs to the end unless --time or --runs is given.
    #[arg(long, value_name = "BOUND")]
    pub exhaustive: Option<u64>,
    /// The program and its arguments (after --); it reads the input on stdin.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

impl StressArgs {
    /// The loop's options.
    #[must_use]
    pub fn stress_options(&self) -> StressOptions {
        StressOptions {
            seed: self.seed,
            first: self.from,
            runs: self.runs,
            time: self.time.or(if self.runs.is_none() && self.exhaustive.is_none() {
                Some(Duration::from_secs(10))
            } else {
                None
            }),
            jobs: self.jobs(),
            limits: self.limits,
            run: self.run_options(),
            schedule: None,
            exhaustive: self.exhaustive,
        }
    }

    /// The shrinker's options: the same limits and time limit as the loop.
    #[must_use]
    pub fn shrink_options(&self) -> ShrinkOptions {
        ShrinkOptions {
            jobs: self.jobs(),
            limits: self.limits,
            run: self.run_options(),
            time: Some(self.shrink_time),
            runs: None,
        }
    }

    fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            usize::from,
        )
    }

    fn run_options(&self) -> RunOptions {
        RunOptions {
            time_limit: self.time_limit,
            memory_limit_kib: self.memory_limit,
            ..RunOptions::default()
        }
    }
}

fn read(path: Option<&std::path::Path>) -> Result<Vec<u8>, String> {
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

/// Runs `validate`: prints `ok: ...` on stdout or `invalid: line L, column C: ...` on
/// stderr, returns the protocol's exit code.
pub fn run_validate<P: Problem>(problem: &P, args: &ValidateArgs) -> i32 {
    let bytes = match read(args.file.as_deref()) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("fail: {e}");
            return EXIT_FAIL;
        }
    };
    match problem.parse(&bytes, args.limits) {
        Ok(input) => {
            println!("ok: {}, within the {} limits", problem.summary(&input), args.limits);
            args.protocol.validator_exit_code(true)
        }
        Err(e) => {
            eprintln!("invalid: {e} ({} limits)", args.limits);
            args.protocol.validator_exit_code(false)
        }
    }
}

/// `1 run`, `2 runs`.
fn plural(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// Lines of `bytes`, indented, at most `head + tail` of them with a marker between.
fn excerpt(bytes: &[u8], head: usize, tail: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut push = |line: &str| {
        let _ = writeln!(out, "    {line}");
    };
    if lines.len() <= head + tail {
        lines.iter().for_each(|l| push(l));
    } else {
        lines[..head].iter().for_each(|l| push(l));
        push(&format!("... {} more lines ...", lines.len() - head - tail));
        lines[lines.len() - tail..].iter().for_each(|l| push(l));
    }
    if lines.is_empty() {
        push("(empty)");
    }
    out
}

/// Runs `stress`: the loop, then shrinking, then the report on stdout. `binary` is the
/// problem binary's name for the reproduction line.
///
/// The report depends only on the seed (or the exhaustive bound), the options and the user's
/// program, not on `-j`, except its last line, `time: ...`, which holds the wall times, the
/// shrinker's run count (candidates run beside an accepted one vary with `-j`) and `-j`.
pub fn run_stress<P: Problem>(problem: &P, args: &StressArgs, binary: &str) -> i32 {
    let program = Program::new(&args.command);
    let options = args.stress_options();
    // An exhaustive run's length, checked before any run so a bad bound is trouble at once.
    let total = match args.exhaustive.map(|b| problem.exhaustive_len(b, args.limits)).transpose() {
        Ok(total) => total,
        Err(e) => {
            eprintln!("error: no exhaustive run: {e}");
            return EXIT_TROUBLE;
        }
    };
    let bar = io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    });
    let show = |p: Progress| {
        if let Some(bar) = &bar {
            let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
            bar.set_message(format!("{}{of} runs, {} cases", p.runs, p.cases));
        }
    };
    let report = match stress(problem, &program, &options, Some(&show)) {
        Ok(report) => report,
        Err(e) => {
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let source = match args.exhaustive {
        Some(bound) => format!("exhaustive up to {bound}"),
        None => format!("seed {}", args.seed),
    };
    let counts =
        format!("{}, {} ({source})", plural(report.runs, "run"), plural(report.cases, "case"));
    let mut time = format!("time: {:.1} s", report.elapsed.as_secs_f64());
    let Some(failure) = report.failure else {
        let everything = total.is_some_and(|t| args.from == 0 && report.runs == t);
        if everything {
            println!("ok: right on every input: {counts}");
        } else {
            println!("ok: no failure in {counts}");
        }
        println!("{time}, -j {}", options.jobs);
        return EXIT_PASSED;
    };
    let mut text = String::new();
    let _ = writeln!(text, "found by run {}: {}", failure.index, failure.trial.verdict);
    let _ = writeln!(text, "tried {counts}");
    let (input, trial) = if args.no_shrink {
        (failure.input, failure.trial)
    } else {
        match shrink(problem, &program, failure.input, failure.trial, &args.shrink_options()) {
            Ok(shrunk) => {
                let _ = writeln!(
                    text,
                    "shrunk by {} moves: {}",
                    shrunk.steps,
                    if shrunk.minimal {
                        "1-minimal (no single move gives a valid input that fails the same way)"
                    } else {
                        "stopped by --shrink-time, not known to be 1-minimal"
                    }
                );
                let _ = write!(
                    time,
                    ", shrinking {:.1} s in {} runs",
                    shrunk.elapsed.as_secs_f64(),
                    shrunk.runs
                );
                (shrunk.input, shrunk.trial)
            }
            Err(e) => {
                eprintln!("error: while shrinking: {e}");
                return EXIT_TROUBLE;
            }
        }
    };
    let bytes = render(problem, &input);
    let saved = match std::fs::write(&args.save, &bytes) {
        Ok(()) => format!("saved to {}", args.save.display()),
        Err(e) => format!("not saved: cannot write {}: {e}", args.save.display()),
    };
    let mut ours = Vec::new();
    problem.render_answer(&input, &problem.solve(&input), &mut ours);
    let _ = writeln!(text, "\n{}", trial.verdict);
    let _ = write!(
        text,
        "\ninput ({saved}, {}):\n{}",
        problem.summary(&input),
        excerpt(&bytes, 30, 10)
    );
    let _ = write!(text, "our answer:\n{}", excerpt(&ours, 30, 10));
    let _ = write!(text, "your output:\n{}", excerpt(&trial.run.stdout, 30, 10));
    if !trial.run.stderr_tail.is_empty() {
        let _ = write!(text, "your stderr ends with:\n{}", excerpt(&trial.run.stderr_tail, 0, 10));
    }
    if let Some(proof) = problem.explain(&input) {
        let _ = write!(text, "why our answer is right:\n{}", excerpt(proof.as_bytes(), 40, 10));
    }
    let source = match args.exhaustive {
        Some(bound) => format!("--exhaustive {bound}"),
        None => format!("--seed {}", args.seed),
    };
    // As given, in megabytes (`256`, `0.5`): f64 prints a whole number without a point.
    let memory = args
        .memory_limit
        .map_or_else(String::new, |kib| format!(" --memory-limit {}M", kib as f64 / 1024.0));
    let _ = writeln!(
        text,
        "\nreproduce: {binary} stress {source} --from {} --runs 1 --time-limit {}s{memory} --limits {} -- {}",
        failure.index,
        args.time_limit.as_secs_f64(),
        args.limits,
        args.command
            .iter()
            .map(|a| shell_quote(&a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(text, "{time}, -j {}", options.jobs);
    print!("{text}");
    EXIT_FOUND
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
        for bad in ["0", "-1", "lots", "", "12K", "inf", "NaN"] {
            assert!(parse_megabytes(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn long_texts_are_cut_in_the_middle() {
        let text: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let cut = excerpt(text.as_bytes(), 2, 1);
        assert_eq!(cut, "    1\n    2\n    ... 97 more lines ...\n    100\n");
    }
}
