//! The judge's command-line side (feature `cli`): the subcommands `check`, `validate`,
//! `stress`, `shrink`, `generate`, `run`, `package`, `interface`, `play`, `query` and
//! `interact` as one clap [`JudgeCommand`] that every problem binary flattens into its own
//! (the arguments in module `args`), and the runners behind them, here (`run`'s in module
//! `run`, `package`'s in `package`, the user's program and `interface` in `program`, `play`'s
//! and `query`'s in `play`, `interact`'s in `interact`; a failure's report in `report`, laid
//! out to fit a screen by `layout`). Each runner prints its report and returns the process's
//! exit code.
//!
//! Exit codes: `check` and `validate` follow the chosen [`Protocol`](crate::Protocol);
//! `stress`, `shrink`, `run`, `package` and `interact` follow GNU diff: 0 no failure (within the
//! budget), 1 a failure (shrunk and saved; a failed test; a submission no test kills), 2
//! trouble; stopped by SIGINT, SIGTERM or SIGHUP they report what they found so far and exit
//! with 130, 143 or 129.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "these runners are the binaries' UI")]

mod args;
mod command;
mod interact;
pub(crate) mod layout;
mod package;
mod play;
mod program;
mod report;
mod run;

pub use args::{
    CheckArgs, EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, GenerateArgs, JudgeHelp, LimitArgs,
    LimitsUsed, MemoryLimit, RunArgs, ShrinkArgs, StressArgs, ValidateArgs, parse_args,
    parse_duration, parse_megabytes, parse_memory_limit,
};
pub use command::JudgeCommand;
pub use interact::InteractArgs;
pub use package::PackageArgs;
pub use play::{PlayArgs, QueryArgs};
pub use program::InterfaceArgs;
pub use run::RunTestsArgs;

use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use engine::rng::SplitMix64;

use crate::hunt::{
    Contestant, HuntOptions, HuntProgress, Juries, Player, StressOptions, examine, hunt,
};
use crate::rules::lenient::Lenient;
use crate::rules::{EXIT_FAIL, Problem, Source, Verdict, check, render};
use crate::sandbox::{Sandbox, exit_code};
use crate::text::{count, plural};
use report::Context;

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
/// [`validate_file`](crate::canonical::validate_file), prints `ok: ...` on stdout or
/// `invalid: line L, column C: ...` on stderr, returns the protocol's exit code.
pub fn run_validate<P: Problem>(problem: &P, args: &ValidateArgs) -> i32 {
    use crate::rules::canonical::{Strictness, validate_file};
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
    fn report(caught: Option<i32>, stdout: String, code: i32) -> Self {
        let code = caught.map_or(code, exit_code);
        Self { stdout, stderr: String::new(), code }
    }

    /// Trouble: `error: {message}` and exit code 2 (or `128 + signal`).
    fn trouble(caught: Option<i32>, message: impl fmt::Display) -> Self {
        let code = caught.map_or(EXIT_TROUBLE, exit_code);
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

/// Runs `stress` and prints its report: see [`StressArgs::ending`].
pub fn run_stress<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    args: &StressArgs,
    juries: Option<&Juries>,
) -> i32 {
    if args.accept_everything {
        return args.ending(sandbox, &Lenient(problem), juries).print();
    }
    args.ending(sandbox, problem, juries).print()
}

/// Runs `generate`: the input on stdout, exit 0; a level or extreme the problem does not have
/// is trouble (exit 2).
pub fn run_generate<P: Problem>(problem: &P, args: &GenerateArgs) -> i32 {
    let mut rng = SplitMix64::new(args.seed);
    let input = match args.extreme {
        Some(k) if k < problem.extremes(args.limits) => problem.extreme(k, &mut rng, args.limits),
        Some(k) => {
            let have = problem.extremes(args.limits);
            return Ending::trouble(
                None,
                format!(
                    "no extreme input {k}: {} has {have} under the {} limits (0 to {})",
                    problem.name(),
                    args.limits,
                    have.saturating_sub(1)
                ),
            )
            .print();
        }
        None if args.level < P::LEVELS => problem.generate(&mut rng, args.level, args.limits),
        None => {
            return Ending::trouble(
                None,
                format!(
                    "no level {}: {}'s levels are 0 to {}",
                    args.level,
                    problem.name(),
                    P::LEVELS - 1
                ),
            )
            .print();
        }
    };
    let written = io::stdout().lock().write_all(&render(problem, &input));
    // A reader that stopped reading (`| head`) is not an error.
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Ending::trouble(None, format!("cannot write the input: {e}")).print()
        }
        _ => EXIT_PASSED,
    }
}

/// Runs `shrink` and prints its report: see [`ShrinkArgs::ending`].
pub fn run_shrink<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    args: &ShrinkArgs,
    juries: Option<&Juries>,
) -> i32 {
    args.ending(sandbox, problem, juries).print()
}

/// The contestant `run` asks for: `None` for the program itself, a player against `juries`
/// with `--interactive`; trouble when the problem has no game.
fn player(run: &RunArgs, juries: Option<&Juries>) -> Result<Option<Player>, String> {
    match (run.interactive, juries) {
        (false, _) => Ok(None),
        (true, Some(juries)) => Ok(Some(Player::new(run.program(), juries.clone(), run.jury_seed))),
        (true, None) => Err("--interactive: this problem has no game to play".to_owned()),
    }
}

/// `shrink` shrinks a time limit under one and a half times the limit, so that the input it
/// ends on fails by a margin, not by the machine's load.
pub(crate) const TIME_LIMIT_MARGIN: u32 = 150;

/// What the spinner says of a hunt.
fn hunt_progress(progress: HuntProgress, total: Option<u64>) -> String {
    match progress {
        HuntProgress::Stress(p) => {
            let of = total.map(|t| format!(" of {}", count(t))).unwrap_or_default();
            format!("{}{of} runs, {}", count(p.runs), plural(p.cases, "case"))
        }
        HuntProgress::Shrink(p) => format!(
            "shrinking: {}, {}, size {}",
            plural(p.steps, "move"),
            plural(p.runs, "run"),
            count(p.size)
        ),
    }
}

impl StressArgs {
    /// `stress`: the loop, then shrinking, then the report, without printing.
    ///
    /// The report depends only on the seed (or the exhaustive bound), the options and the
    /// user's program, not on `-j`, except its measured figures (CPU and wall times, memory)
    /// and its last line, `time: ...`, which holds the wall times, the shrinker's run count
    /// (candidates run beside an accepted one vary with `-j`) and `-j`. With
    /// `--interactive`, the program plays against `juries`.
    pub fn ending<P: Problem>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        juries: Option<&Juries>,
    ) -> Ending {
        match player(&self.run, juries) {
            Ok(Some(player)) => self.ending_for(sandbox, problem, &player),
            Ok(None) => self.ending_for(sandbox, problem, &self.run.program()),
            Err(e) => Ending::trouble(sandbox.caught(), e),
        }
    }

    fn ending_for<P: Problem, C: Contestant>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        contestant: &C,
    ) -> Ending {
        if let Err(e) = sandbox.catch_signals() {
            return Ending::trouble(sandbox.caught(), format!("cannot catch signals: {e}"));
        }
        let limits = self.run.limits_used(P::RUN_LIMITS);
        if let Some(level) = self.level.filter(|&level| level >= P::LEVELS) {
            return Ending::trouble(
                sandbox.caught(),
                format!("no level {level}: {}'s levels are 0 to {}", problem.name(), P::LEVELS - 1),
            );
        }
        // An exhaustive run's length, checked before any run so a bad bound is trouble at once.
        let total =
            match self.exhaustive.map(|b| problem.exhaustive_len(b, self.run.limits)).transpose() {
                Ok(total) => total,
                Err(e) => {
                    return Ending::trouble(sandbox.caught(), format!("no exhaustive run: {e}"));
                }
            };
        let options = HuntOptions {
            stress: self.stress_options(&limits),
            shrink: (!self.no_shrink).then(|| self.run.shrink_options(&limits)),
            // A time limit is reported as found: `shrink` shrinks it, under a margin.
            time_limit_margin: None,
        };
        let hunt = with_spinner(
            |show| hunt(sandbox, problem, contestant, &options, Some(show)),
            |p| hunt_progress(p, total),
        );
        let hunt = match hunt {
            Ok(hunt) => hunt,
            Err(e) => return Ending::trouble(sandbox.caught(), e),
        };
        let context = Context {
            problem,
            program: contestant.program(),
            jury_seed: self.run.interactive.then_some(self.run.jury_seed),
            limits: &limits,
            inputs: self.run.limits,
            save: &self.run.save,
            shrink_time: self.run.shrink_time,
            jobs: self.run.jobs(),
            time_limit_margin: options.time_limit_margin,
        };
        let (text, code) = report::stress(&context, self, &hunt, total, sandbox.caught());
        Ending::report(sandbox.caught(), text, code)
    }
}

impl ShrinkArgs {
    /// `shrink`: the given input's run (confirmed alone, or rerun when it passes), then
    /// shrinking, then the report, without printing. With `--interactive`, the program
    /// plays against `juries`.
    pub fn ending<P: Problem>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        juries: Option<&Juries>,
    ) -> Ending {
        match player(&self.run, juries) {
            Ok(Some(player)) => self.ending_for(sandbox, problem, &player),
            Ok(None) => self.ending_for(sandbox, problem, &self.run.program()),
            Err(e) => Ending::trouble(sandbox.caught(), e),
        }
    }

    fn ending_for<P: Problem, C: Contestant>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        contestant: &C,
    ) -> Ending {
        if let Err(e) = sandbox.catch_signals() {
            return Ending::trouble(sandbox.caught(), format!("cannot catch signals: {e}"));
        }
        let limits = self.run.limits_used(P::RUN_LIMITS);
        let name = self.input.display();
        let input = match read(Some(&self.input))
            .and_then(|bytes| problem.parse(&bytes, self.run.limits).map_err(|e| e.to_string()))
        {
            Ok(input) => input,
            Err(e) => {
                return Ending::trouble(
                    sandbox.caught(),
                    format!("{name}: {e} ({} limits)", self.run.limits),
                );
            }
        };
        let options = HuntOptions {
            stress: StressOptions { run: limits.child_options(), ..StressOptions::default() },
            shrink: Some(self.run.shrink_options(&limits)),
            time_limit_margin: Some(TIME_LIMIT_MARGIN),
        };
        let hunt = with_spinner(
            |show| examine(sandbox, problem, contestant, input, &options, Some(show)),
            |p| hunt_progress(p, None),
        );
        let hunt = match hunt {
            Ok(hunt) => hunt,
            Err(e) => return Ending::trouble(sandbox.caught(), e),
        };
        let context = Context {
            problem,
            program: contestant.program(),
            jury_seed: self.run.interactive.then_some(self.run.jury_seed),
            limits: &limits,
            inputs: self.run.limits,
            save: &self.run.save,
            shrink_time: self.run.shrink_time,
            jobs: self.run.jobs(),
            time_limit_margin: options.time_limit_margin,
        };
        let (text, code) = report::shrink(&context, &self.input, &hunt, sandbox.caught());
        Ending::report(sandbox.caught(), text, code)
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
