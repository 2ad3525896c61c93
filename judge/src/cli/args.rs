//! The command line's arguments (clap): each subcommand's arguments, the exit codes, the
//! parsers of durations and memory sizes, and [`parse_args`], which gives a problem's binary
//! its help texts. The subcommands' enum is in module `command`, the runners in the parent
//! module.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::hunt::{Schedule, ShrinkOptions, StressOptions};
use crate::rules::{EXIT_FAIL, Limits, Problem, Protocol, RunLimits};
use crate::sandbox::{ChildOptions, wall_backstop};
use crate::text::{megabytes, seconds_given as seconds};

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
/// [`JudgeCommand`](super::JudgeCommand) flattened into its subcommands, `P` its problem.
/// `help` and `P`'s [`RUN_LIMITS`](Problem::RUN_LIMITS) fill in the judge's help texts; a
/// usage error of `check` exits 3, a judge failure, where clap's own usage errors exit 2,
/// which testlib reads as a presentation error of the contestant. A binary started under the
/// name `run` (an interactive package's jury) runs the subcommand `jury` with its arguments.
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
    let command = A::command();
    // Options of many values (`--accepted A B`) would take a DIR given after them: the
    // usage shows the order that works.
    let package_usage = format!(
        "{} package <DIR> --accepted <SRC>... [--wrong <SRC>...] [--slow <SRC>...] [OPTIONS]",
        command.get_name()
    );
    let command = command
        .mut_subcommand("package", |c| c.override_usage(package_usage))
        .mut_subcommand("check", |c| c.long_about(help.check))
        .mut_subcommand("validate", |c| c.long_about(help.validate))
        .mut_subcommand("stress", |c| {
            judge_args(c).mut_arg("exhaustive", |a| a.help(help.exhaustive))
        })
        .mut_subcommand("shrink", judge_args)
        .mut_subcommand("run", judge_args);
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    // A judge runs an interactive package's jury as `output_validators/jury/run`, which is
    // the problem's binary itself under that name (`package --interactive`).
    let as_jury =
        argv.first().and_then(|a| std::path::Path::new(a).file_name()) == Some("run".as_ref());
    if as_jury {
        argv.insert(1, OsString::from("jury"));
    }
    let checking = argv.get(1).is_some_and(|a| a == "check");
    let parsed = command.try_get_matches_from(argv).and_then(|m| A::from_arg_matches(&m));
    parsed.unwrap_or_else(|e| {
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
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
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
pub(crate) enum MemoryLimit {
    /// At most this many KiB.
    Kib(u64),
    /// No limit (the peak is still measured).
    Unlimited,
}

/// Parses a memory limit: a size in megabytes ([`parse_megabytes`]) or `none`.
///
/// # Errors
/// Neither.
pub(crate) fn parse_memory_limit(text: &str) -> Result<MemoryLimit, String> {
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
pub(crate) fn parse_megabytes(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    scaled(upper.trim_end_matches('B'), &[("G", 1024.0 * 1024.0), ("M", 1024.0)], 1024.0)
        .filter(|&kib| kib >= 1.0)
        .map(|kib| kib.round() as u64)
        .ok_or_else(|| {
            format!("expected a size in megabytes such as 256, 256M or 1G, found {:?}", text.trim())
        })
}

/// `PROBLEM generate`: a generated input on stdout.
#[derive(Clone, Debug, clap::Args)]
pub struct GenerateArgs {
    /// The size level, 0 (the smallest) up to the problem's largest.
    #[arg(long, default_value_t = 0)]
    pub(crate) level: u32,
    /// Extreme input K instead (the largest sizes and values the limits allow).
    #[arg(long, value_name = "K", conflicts_with = "level")]
    pub(crate) extreme: Option<u32>,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Limits the input respects.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) limits: Limits,
    /// An input of the problem's original subtask K only (an IOI subtask, for a problem that
    /// has them), at LEVEL's size where the subtask allows it; under the original limits.
    #[arg(long, value_name = "K", conflicts_with = "extreme")]
    pub(crate) subtask: Option<usize>,
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
    pub(crate) files: Vec<PathBuf>,
    /// Checker protocol: exit codes and where the message goes.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) protocol: Protocol,
    /// Limits the input is read under.
    #[arg(long, value_enum, default_value_t = Limits::Extended)]
    pub(crate) limits: Limits,
    /// Take a given ANSWER as it is, without checking it against our own answer.
    #[arg(long)]
    pub(crate) trust_answer: bool,
    /// Reject what the official checker overlooks (the problem's README says what, e.g. text
    /// after the last answer): a presentation error instead of ok.
    #[arg(long)]
    pub(crate) strict: bool,
}

/// `PROBLEM validate`: is a file a valid input?
#[derive(Clone, Debug, clap::Args)]
pub struct ValidateArgs {
    /// Input file; standard input when absent.
    pub(crate) file: Option<PathBuf>,
    /// Which constraints to enforce.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) limits: Limits,
    /// Validator protocol: testlib exits 0/3, kattis 42/43.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) protocol: Protocol,
    /// Accept any white space between numbers and leading zeros, as the solver reads,
    /// instead of the canonical format (one space between numbers, `\n` line ends, a final
    /// newline, numbers in plain decimal).
    #[arg(long)]
    pub(crate) lenient: bool,
}

/// The time and memory every run of the user's program gets: the arguments `stress`,
/// `shrink` and `run` share.
#[derive(Clone, Debug, clap::Args)]
pub struct LimitArgs {
    /// Each run's CPU-time limit (the problem's help gives its default).
    #[arg(long, short = 't', value_parser = parse_duration)]
    pub(crate) time_limit: Option<Duration>,
    /// Each run's memory limit (the problem's help gives its default).
    #[arg(long, short = 'm', value_parser = parse_memory_limit, value_name = "MB")]
    pub(crate) memory_limit: Option<MemoryLimit>,
}

/// What every run of the user's program gets, and how failures are shrunk and saved: the
/// arguments `stress` and `shrink` share.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub(crate) limit: LimitArgs,
    /// Limits of the inputs (generated ones and every shrink candidate).
    #[arg(long, value_enum, default_value_t)]
    pub(crate) limits: Limits,
    /// Runs at once [default: the number of cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// Where the failing input is saved; our answer, the program's output and our proofs go
    /// beside it (`.ans`, `.out`, ...).
    #[arg(long, default_value = "counterexample.in")]
    pub(crate) save: PathBuf,
    /// Time budget for shrinking.
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub(crate) shrink_time: Duration,
    /// Inputs of the problem's original subtask K only (an IOI subtask, for a problem that
    /// has them; under the original limits): every generated input and every shrink
    /// candidate meets its constraints, for a solution meant for that subtask.
    #[arg(long, value_name = "K")]
    pub(crate) subtask: Option<usize>,
    /// COMMAND plays the problem's game against the jury (the statement's "Interactive
    /// version"), every game of an input in one run, instead of reading the input.
    #[arg(long)]
    pub(crate) interactive: bool,
    /// With --interactive: chance's seed in every game (card-duel's pings).
    #[arg(long, default_value_t = 1, value_name = "SEED", requires = "interactive")]
    pub(crate) jury_seed: u64,
    /// The program and its arguments (after --); it reads the input on stdin (or plays, with
    /// --interactive). A source file (.cpp, .cc: g++ -O2 -std=gnu++17, with the problem's
    /// grader when it has no main; .py: python3) is built as `package` builds a submission.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub(crate) command: Vec<OsString>,
}

/// `PROBLEM stress`: run a program on generated inputs until it fails, then shrink.
#[derive(Clone, Debug, clap::Args)]
pub struct StressArgs {
    /// Master seed: the same seed gives the same inputs in the same order, whatever -j.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Time budget, e.g. 30, 30s, 2m [default: 10s for the loop unless --runs or
    /// --exhaustive is given]. Given, it bounds the whole command: shrinking gets what is left
    /// (if less than --shrink-time), and past it only the two reruns that confirm a failure
    /// and the shrunk input's two are made.
    #[arg(long, value_parser = parse_duration)]
    pub(crate) time: Option<Duration>,
    /// Run budget.
    #[arg(long)]
    pub(crate) runs: Option<u64>,
    /// First run index (with --runs 1, replays one run of a seed).
    #[arg(long, default_value_t = 0)]
    pub(crate) from: u64,
    /// Report the failing input as found, unshrunk.
    #[arg(long)]
    pub(crate) no_shrink: bool,
    /// Instead of generated inputs, every input up to BOUND in the problem's exhaustive
    /// order (the problem's help says what BOUND bounds).
    #[arg(long, value_name = "BOUND", conflicts_with = "subtask")]
    pub(crate) exhaustive: Option<u64>,
    /// Every run at size level LEVEL (0, the smallest, up to the problem's largest), without
    /// the extreme inputs.
    #[arg(long, value_name = "LEVEL", conflicts_with = "exhaustive")]
    pub(crate) level: Option<u32>,
    /// Judge every output and then accept it: the loop's own cost, for `cargo xtask bench
    /// judge`.
    #[arg(long, hide = true)]
    pub(crate) accept_everything: bool,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub(crate) run: RunArgs,
}

/// `PROBLEM shrink`: shrink a failing input.
#[derive(Clone, Debug, clap::Args)]
pub struct ShrinkArgs {
    /// The input COMMAND fails on.
    pub(crate) input: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub(crate) run: RunArgs,
}

/// The arguments of a command that hunts for a failure: `stress` or `shrink`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HuntArgs<'a> {
    /// `stress`.
    Stress(&'a StressArgs),
    /// `shrink`.
    Shrink(&'a ShrinkArgs),
}

impl<'a> HuntArgs<'a> {
    /// The arguments both take: the program, its limits, shrinking and saving.
    #[must_use]
    pub(crate) fn run(self) -> &'a RunArgs {
        match self {
            Self::Stress(args) => &args.run,
            Self::Shrink(args) => &args.run,
        }
    }
}

/// The limits a run gets: the arguments given, else the problem's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LimitsUsed {
    /// Each run's time limit.
    pub time: Duration,
    /// Each run's memory limit in KiB, if any.
    pub memory_kib: Option<u64>,
    /// `the original judge's`, `given`, or a mix.
    pub origin: &'static str,
    /// The subtask the inputs keep to (`--subtask`), which a command that repeats a run
    /// repeats.
    pub subtask: Option<usize>,
}

impl LimitsUsed {
    /// The limits `args` ask for over `defaults`.
    #[must_use]
    pub(crate) fn new(args: &LimitArgs, defaults: RunLimits) -> Self {
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
        Self { time, memory_kib, origin, subtask: None }
    }

    /// `1 s of CPU time (3 s of wall time) and 256 MB of memory, the stack's too, a run (the
    /// original judge's)`.
    #[must_use]
    pub(crate) fn describe(&self) -> String {
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
    pub(super) fn line(&self, inputs: Limits) -> String {
        let subtask = self.subtask.map(|k| format!(", in subtask {k}")).unwrap_or_default();
        format!("limits: {}; inputs within the {inputs} limits{subtask}", self.describe())
    }

    /// The flags that give these limits, for commands that repeat a run.
    pub(super) fn flags(&self) -> String {
        let memory = match self.memory_kib {
            // As given, in megabytes (`256`, `0.5`): f64 prints a whole number without a point.
            Some(kib) => format!("{}M", kib as f64 / 1024.0),
            None => "none".to_owned(),
        };
        let subtask = self.subtask.map(|k| format!(" --subtask {k}")).unwrap_or_default();
        format!("--time-limit {}s --memory-limit {memory}{subtask}", self.time.as_secs_f64())
    }

    /// Each run's options under these limits.
    #[must_use]
    pub(crate) fn child_options(&self) -> ChildOptions {
        ChildOptions::new(self.time, self.memory_kib)
    }
}

impl RunArgs {
    pub(super) fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            usize::from,
        )
    }

    pub(super) fn shrink_options(&self, limits: &LimitsUsed) -> ShrinkOptions {
        ShrinkOptions {
            jobs: self.jobs(),
            limits: self.limits,
            run: limits.child_options(),
            time: Some(self.shrink_time),
            runs: None,
        }
    }

    /// The limits runs get under these arguments, over `defaults`.
    pub(super) fn limits_used(&self, defaults: RunLimits) -> LimitsUsed {
        LimitsUsed { subtask: self.subtask, ..LimitsUsed::new(&self.limit, defaults) }
    }
}

impl StressArgs {
    /// The loop's options under `limits`.
    #[must_use]
    pub(crate) fn stress_options(&self, limits: &LimitsUsed) -> StressOptions {
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
