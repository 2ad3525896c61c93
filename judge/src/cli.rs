//! The judge's command-line side (feature `cli`): the subcommands `check`, `validate`,
//! `stress`, `shrink`, `generate`, `run`, `package`, `interface`, `play`, `query` and
//! `interact` (and `jury`, an interactive package's jury) as one clap [`JudgeCommand`] that every problem binary flattens into its own
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
//! with 130, 143 or 129, and a second signal ends them at once with the same code
//! (`catch_signals`).

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "these runners are the binaries' UI")]

mod args;
mod command;
mod interact;
mod jury;
pub(crate) mod layout;
mod package;
mod play;
mod program;
mod report;
mod run;
mod serve;

pub use args::{
    CheckArgs, EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, GenerateArgs, JudgeHelp, LimitArgs,
    ShrinkArgs, StressArgs, ValidateArgs, parse_args,
};
pub(crate) use args::{LimitsUsed, RunArgs, parse_duration};
pub use command::JudgeCommand;
pub use interact::InteractArgs;
pub use jury::JuryArgs;
pub use package::PackageArgs;
pub use play::{PlayArgs, QueryArgs};
pub use program::InterfaceArgs;
pub use run::RunTestsArgs;
pub use serve::ServeArgs;

use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use engine::rng::SplitMix64;

use crate::hunt::{
    Contestant, HuntOptions, HuntProgress, Juries, Player, StressOptions, examine, hunt,
};
use crate::package::{BuiltProgram, InGroup, Packaged};
use crate::rules::lenient::Lenient;
use crate::rules::{EXIT_FAIL, Limits, Problem, Source, Verdict, check, render};
use crate::sandbox::{Program, Sandbox, exit_code, second_signal};
use crate::text::{count, plural};
use args::HuntArgs;
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

/// Catches SIGINT, SIGTERM and SIGHUP for `sandbox` ([`Sandbox::catch_signals`]: the first
/// winds the work down and it reports), and ends the process at once with `128 + signal` on
/// a second one, caught by any sandbox: a user who signals again will not wait. The library
/// never exits; a thread of the command line's does, once for the process.
fn catch_signals(sandbox: &Sandbox) -> io::Result<()> {
    static WATCHING: Mutex<bool> = Mutex::new(false);
    sandbox.catch_signals()?;
    let mut watching = WATCHING.lock().unwrap_or_else(PoisonError::into_inner);
    if !*watching {
        std::thread::Builder::new()
            .name("judge-second-signal".into())
            .spawn(|| std::process::exit(exit_code(second_signal())))?;
        *watching = true;
    }
    Ok(())
}

/// Runs `check`: judges, delivers the verdict by the protocol, returns its exit code.
pub(crate) fn run_check<P: Problem>(problem: &P, args: &CheckArgs) -> i32 {
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
pub(crate) fn run_validate<P: Problem>(problem: &P, args: &ValidateArgs) -> i32 {
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

    /// Trouble already said on stderr (a source COMMAND that cannot be built), and its exit
    /// code.
    fn said(code: i32) -> Self {
        Self { stdout: String::new(), stderr: String::new(), code }
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

/// Runs `generate`: the input on stdout, exit 0; a level or extreme the problem does not have
/// is trouble (exit 2).
pub(crate) fn run_generate<P: Problem>(problem: &P, args: &GenerateArgs) -> i32 {
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

/// The contestant `run` asks for: `None` for `program` itself, `program` playing against
/// `juries` with `--interactive`; trouble when the problem has no game.
fn player(
    run: &RunArgs,
    program: &Program,
    juries: Option<&Juries>,
) -> Result<Option<Player>, String> {
    match (run.interactive, juries) {
        (false, _) => Ok(None),
        (true, Some(juries)) => {
            Ok(Some(Player::new(program.clone(), juries.clone(), run.jury_seed)))
        }
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

/// `problem` held to its subtask `subtask` (`--subtask`), whose inputs are the original
/// limits'; the error is the ending that says why.
fn held<P: Packaged>(
    problem: &P,
    subtask: usize,
    limits: Limits,
) -> Result<InGroup<'_, P>, Ending> {
    if limits != Limits::Original {
        let message = "--subtask is a subtask of the original limits: leave out --limits extended";
        return Err(Ending::trouble(None, message));
    }
    InGroup::new(problem, subtask).map_err(|e| Ending::trouble(None, e))
}

/// How `stress` or `shrink` (`args`) ends, without printing but for a source COMMAND's build
/// on stderr: the arguments resolved once ([`Hunting`]), the problem held to `--subtask`
/// when one is given, the program playing against `juries` with `--interactive`; then the
/// hunt and its report.
///
/// `stress`'s report depends only on the seed (or the exhaustive bound), the options and the
/// user's program, not on `-j`, except its measured figures (CPU and wall times, memory) and
/// its last line, `time: ...`, which holds the wall times, the shrinker's run count
/// (candidates run beside an accepted one vary with `-j`) and `-j`. `shrink` runs the given
/// input (confirmed alone, or rerun when it passes), then shrinks it.
pub(crate) fn hunt_ending<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    args: HuntArgs<'_>,
    juries: Option<&Juries>,
) -> Ending {
    let hunting = match Hunting::resolve(sandbox, problem, args) {
        Ok(hunting) => hunting,
        Err(ending) => return ending,
    };
    let run = args.run();
    match run.subtask {
        None => hunting.ending(problem, juries),
        Some(k) => match held(problem, k, run.limits) {
            Ok(held) => hunting.ending(&held, juries),
            Err(ending) => ending,
        },
    }
}

/// A `stress` or `shrink` command resolved once from its arguments, as ripgrep resolves its
/// low arguments into high ones: signals caught, a source COMMAND built, the limits chosen.
/// What depends on the problem's type (held to a subtask, accepting everything) and on the
/// contestant (the program, or a player) is chosen after, by [`Hunting::ending`].
struct Hunting<'a> {
    sandbox: &'a Sandbox,
    args: HuntArgs<'a>,
    /// The program: COMMAND, or what its source file was built into.
    program: Program,
    /// What holds a built program's binary, kept while it runs.
    _built: Option<BuiltProgram>,
    /// The limits each run gets.
    limits: LimitsUsed,
}

impl<'a> Hunting<'a> {
    /// Catches signals, once for the command (a build may be stopped too), then builds a
    /// source COMMAND (saying how on stderr) and chooses the limits; the error is the ending.
    fn resolve<P: Packaged>(
        sandbox: &'a Sandbox,
        problem: &P,
        args: HuntArgs<'a>,
    ) -> Result<Self, Ending> {
        if let Err(e) = catch_signals(sandbox) {
            return Err(Ending::trouble(None, format!("cannot catch signals: {e}")));
        }
        let run = args.run();
        let built = program::build(sandbox, problem, &run.command).map_err(Ending::said)?;
        let program =
            built.as_ref().map_or_else(|| Program::new(&run.command), |b| b.program.clone());
        let limits = run.limits_used(P::RUN_LIMITS);
        Ok(Self { sandbox, args, program, _built: built, limits })
    }

    /// How the command ends on `problem`: judged by the judge that accepts everything with
    /// `stress --accept-everything`, against the program or a player of `juries`
    /// (`--interactive`).
    fn ending<P: Problem>(&self, problem: &P, juries: Option<&Juries>) -> Ending {
        match self.args {
            HuntArgs::Stress(args) if args.accept_everything => {
                self.contestant(&Lenient(problem), juries)
            }
            _ => self.contestant(problem, juries),
        }
    }

    /// [`Hunting::ending`] once the problem is chosen: the contestant chosen, then the hunt.
    fn contestant<P: Problem>(&self, problem: &P, juries: Option<&Juries>) -> Ending {
        match player(self.args.run(), &self.program, juries) {
            Ok(Some(player)) => self.hunt(problem, &player),
            Ok(None) => self.hunt(problem, &self.program),
            Err(e) => Ending::trouble(self.sandbox.caught(), e),
        }
    }

    /// The hunt, `stress`'s or `shrink`'s, and its report.
    fn hunt<P: Problem, C: Contestant>(&self, problem: &P, contestant: &C) -> Ending {
        let run = self.args.run();
        let time_limit_margin = match self.args {
            // A time limit is reported as found: `shrink` shrinks it, under a margin.
            HuntArgs::Stress(_) => None,
            HuntArgs::Shrink(_) => Some(TIME_LIMIT_MARGIN),
        };
        let context = Context {
            problem,
            program: contestant.program(),
            jury_seed: run.interactive.then_some(run.jury_seed),
            limits: &self.limits,
            inputs: run.limits,
            save: &run.save,
            shrink_time: run.shrink_time,
            jobs: run.jobs(),
            time_limit_margin,
        };
        let report = match self.args {
            HuntArgs::Stress(args) => self.stress(args, &context, contestant),
            HuntArgs::Shrink(args) => self.shrink(args, &context, contestant),
        };
        match report {
            Ok((text, code)) => Ending::report(self.sandbox.caught(), text, code),
            Err(e) => Ending::trouble(self.sandbox.caught(), e),
        }
    }

    /// `stress`: the loop, then shrinking, then the report and its exit code.
    fn stress<P: Problem, C: Contestant>(
        &self,
        args: &StressArgs,
        context: &Context<'_, P>,
        contestant: &C,
    ) -> Result<(String, i32), String> {
        let problem = context.problem;
        if let Some(level) = args.level.filter(|&level| level >= P::LEVELS) {
            let last = P::LEVELS - 1;
            return Err(format!("no level {level}: {}'s levels are 0 to {last}", problem.name()));
        }
        // An exhaustive run's length, checked before any run so a bad bound is trouble at once.
        let total = (args.exhaustive.map(|b| problem.exhaustive_len(b, args.run.limits)))
            .transpose()
            .map_err(|e| format!("no exhaustive run: {e}"))?;
        let options = HuntOptions {
            stress: args.stress_options(&self.limits),
            shrink: (!args.no_shrink).then(|| args.run.shrink_options(&self.limits)),
            time_limit_margin: context.time_limit_margin,
            total: args.time,
        };
        let hunt = with_spinner(
            |show| hunt(self.sandbox, problem, contestant, &options, Some(show)),
            |p| hunt_progress(p, total),
        )
        .map_err(|e| e.to_string())?;
        Ok(report::stress(context, args, &hunt, total, self.sandbox.caught()))
    }

    /// `shrink`: the given input's run, then shrinking, then the report and its exit code.
    fn shrink<P: Problem, C: Contestant>(
        &self,
        args: &ShrinkArgs,
        context: &Context<'_, P>,
        contestant: &C,
    ) -> Result<(String, i32), String> {
        let problem = context.problem;
        let inputs = args.run.limits;
        let input = read(Some(&args.input))
            .and_then(|bytes| problem.parse(&bytes, inputs).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e} ({inputs} limits)", args.input.display()))?;
        let options = HuntOptions {
            stress: StressOptions { run: self.limits.child_options(), ..StressOptions::default() },
            shrink: Some(args.run.shrink_options(&self.limits)),
            time_limit_margin: context.time_limit_margin,
            total: None,
        };
        let hunt = with_spinner(
            |show| examine(self.sandbox, problem, contestant, input, &options, Some(show)),
            |p| hunt_progress(p, None),
        )
        .map_err(|e| e.to_string())?;
        Ok(report::shrink(context, &args.input, &hunt, self.sandbox.caught()))
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
    use crate::sandbox::alone::{printed, raise, run, soon};

    use super::*;

    #[test]
    fn a_second_signal_ends_the_command_at_once() {
        let ended =
            run(concat!(module_path!(), "::a_second_signal_ends_the_command_at_once"), || {
                let sandbox = Sandbox::new();
                catch_signals(&sandbox).expect("the signals can be caught");
                // The first winds the work down: the process goes on.
                raise(libc::SIGINT);
                assert!(soon(|| sandbox.caught() == Some(libc::SIGINT)));
                std::thread::sleep(Duration::from_millis(100));
                raise(libc::SIGTERM);
                std::thread::sleep(Duration::from_secs(5));
            });
        if let Some(output) = ended {
            assert_eq!(
                output.status.code(),
                Some(exit_code(libc::SIGTERM)),
                "{}",
                printed(&output)
            );
        }
    }
}
