//! The judge's command-line side (feature `cli`): the subcommands `check`, `validate`,
//! `stress`, `shrink`, `generate`, `run` and `package` as one clap [`JudgeCommand`] that
//! every problem binary flattens into its own (the arguments in module `args`), and the
//! runners behind them, here (`run`'s in [`run`], `package`'s in [`package`]). Each runner
//! prints its report and returns the process's exit code.
//!
//! Exit codes: `check` and `validate` follow the chosen [`Protocol`](crate::Protocol);
//! `stress`, `shrink`, `run` and `package` follow GNU diff: 0 no failure (within the
//! budget), 1 a failure (shrunk and saved; a failed test; a submission no test kills), 2
//! trouble; stopped by SIGINT, SIGTERM or SIGHUP they report what they found so far and exit
//! with 130, 143 or 129.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "these runners are the binaries' UI")]

mod args;
use args::seconds;
pub mod package;
pub mod play;
pub mod run;

pub use args::{
    CheckArgs, EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, GenerateArgs, JudgeCommand, JudgeHelp,
    LimitArgs, LimitsUsed, MemoryLimit, RunArgs, ShrinkArgs, StressArgs, ValidateArgs, parse_args,
    parse_duration, parse_megabytes, parse_memory_limit,
};

use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::time::Duration;

use engine::rng::SplitMix64;

use super::child::{ChildError, Program, shell_quote};
use super::confirm::{self, Standing};
use super::interrupt;
use super::lenient::Lenient;
use super::problem::{Problem, check, render};
use super::protocol::{EXIT_FAIL, Source};
use super::report::{
    FailureReport, Saved, Text, beside, count, plural, saved_text, unused_save_path,
};
use super::shrink::{ShrinkEnd, ShrinkProgress, Shrunk, shrink_with_progress};
use super::stress::{Progress, stress};
use super::trial::{Trial, megabytes, seconds as seconds2, trial};
use super::verdict::Verdict;

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
