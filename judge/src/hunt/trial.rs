//! One trial: an input given to the contestant's program (as a file, or as a game against
//! the jury: [`Contestant`]), and the run judged (runtime error, time and memory limits
//! first, then the problem's rule or the jury).

use super::interactive::Transcript;
use super::stress::Schedule;
use crate::rules::{Limits, Problem, Verdict, VerdictKind, render};
use crate::sandbox::{ChildError, ChildOptions, ChildReport, Exit, Program, Sandbox};
use crate::text::{megabytes, seconds};

/// A judged run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The verdict.
    pub verdict: Verdict,
    /// What the run did.
    pub run: ChildReport,
    /// What was said, in an interactive trial.
    pub transcript: Option<Box<Transcript>>,
}

/// How many characters of stderr a runtime error's message quotes.
const STDERR_IN_MESSAGE: usize = 300;

/// The verdict of `program`'s run that did not end normally (time limits, memory limit,
/// signal, non-zero exit, output limit); `None` for an exit with code 0, which the problem's
/// rule judges. A runtime error quotes stderr, a sanitizer's headline first; a memory limit
/// of an AddressSanitizer build says how to give it room.
#[must_use]
pub fn run_verdict(
    program: &Program,
    report: &ChildReport,
    options: &ChildOptions,
) -> Option<Verdict> {
    let kind = match report.exit {
        Exit::Code(0) | Exit::Stopped => return None,
        Exit::TimeLimit => {
            return Some(Verdict::new(
                VerdictKind::TimeLimit,
                format!(
                    "CPU time {} over the {} limit (wall {})",
                    seconds(report.cpu),
                    seconds(options.time_limit),
                    seconds(report.wall)
                ),
            ));
        }
        Exit::WallTimeLimit => {
            return Some(Verdict::new(
                VerdictKind::TimeLimit,
                format!(
                    "killed at the wall-clock backstop, {}, with {} of CPU time counted against \
                     the {} limit: it slept or waited, or got too little of a core",
                    seconds(options.wall_limit),
                    seconds(report.cpu),
                    seconds(options.time_limit)
                ),
            ));
        }
        Exit::MemoryLimit => {
            let limit = options.memory_limit_kib.expect("only a run with a memory limit has one");
            let mut message = format!(
                "peak resident memory {} (memory limit {})",
                megabytes(report.memory.kib()),
                megabytes(limit)
            );
            if program.address_sanitized() {
                message += &format!(
                    "; an AddressSanitizer build, whose quarantine alone may hold 256 MB: give \
                     it room with a larger limit, e.g. -m {}",
                    (limit / 1024 + 1024).next_power_of_two()
                );
            }
            return Some(Verdict::new(VerdictKind::MemoryLimit, message));
        }
        Exit::Code(_) | Exit::Signal(_) | Exit::OutputLimit => VerdictKind::RuntimeError,
    };
    let mut message = report.exit.to_string();
    if report.exit == Exit::OutputLimit {
        message += &format!(" ({} bytes)", options.output_limit);
    }
    let stderr = report.stderr_excerpt(STDERR_IN_MESSAGE);
    if !stderr.is_empty() {
        message += &format!(", stderr: {stderr:?}");
    }
    Some(Verdict::new(kind, message))
}

/// Who is judged, and how a trial of theirs is made: the one place the hunt tells a batch
/// program ([`Program`]: the input on stdin, its output judged by the problem's rule) from a
/// player of the problem's game ([`Player`](super::Player): every game of the input played
/// against the jury in one run). The stress loop, confirmation and the shrinker take any
/// contestant.
pub trait Contestant: Sync {
    /// The program that runs.
    fn program(&self) -> &Program;

    /// One trial: `input` given to the program under `options`, the run judged. A run that
    /// exits normally is judged by its output only when `judge_output` is set (a search for a
    /// runtime error or an exceeded limit need not); otherwise it is `ok` unjudged.
    ///
    /// # Errors
    /// The program cannot be run at all, or a signal stopped the run (see [`ChildError`]).
    fn trial<P: Problem>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        input: &P::Input,
        options: &ChildOptions,
        judge_output: bool,
    ) -> Result<Trial, ChildError>;

    /// What a stress loop runs when its options name no schedule.
    fn schedule<P: Problem>(&self, problem: &P, limits: Limits) -> Schedule;
}

impl Contestant for Program {
    fn program(&self) -> &Program {
        self
    }

    /// The input rendered, the program run on it, its run judged ([`run_verdict`]), then its
    /// output by the problem's rule against our answer. Time: our solver on `input`, plus
    /// the run, plus the judge's pass over the output.
    fn trial<P: Problem>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        input: &P::Input,
        options: &ChildOptions,
        judge_output: bool,
    ) -> Result<Trial, ChildError> {
        let bytes = render(problem, input);
        let report = sandbox.run(self, &bytes, options)?;
        let verdict = match run_verdict(self, &report, options) {
            Some(verdict) => verdict,
            None if judge_output => problem.judge(input, &problem.solve(input), &report.stdout),
            None => Verdict::ok("exited normally, output not judged"),
        };
        Ok(Trial { verdict, run: report, transcript: None })
    }

    /// [`Schedule::for_problem`]: tiny inputs, the extremes, then the levels.
    fn schedule<P: Problem>(&self, problem: &P, limits: Limits) -> Schedule {
        Schedule::for_problem(problem, limits)
    }
}

/// Runs `contestant` on `input` and judges the run ([`Contestant::trial`], the output
/// judged).
///
/// # Errors
/// The program cannot be run at all, or a signal stopped the run (see [`ChildError`]).
pub fn trial<P: Problem, C: Contestant + ?Sized>(
    sandbox: &Sandbox,
    problem: &P,
    contestant: &C,
    input: &P::Input,
    options: &ChildOptions,
) -> Result<Trial, ChildError> {
    contestant.trial(sandbox, problem, input, options, true)
}
