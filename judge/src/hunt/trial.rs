//! One trial: an input rendered, our answer computed, the user's program run on the input,
//! and the run judged (runtime error, time and memory limits first, then the problem's rule).

use crate::rules::{Problem, Verdict, VerdictKind, render};
use crate::sandbox::{ChildError, ChildOptions, ChildReport, Exit, Program, Sandbox};
use crate::text::{describe_exit, megabytes, seconds};

/// A judged run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The verdict.
    pub verdict: Verdict,
    /// What the run did.
    pub run: ChildReport,
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
    let mut message = describe_exit(report.exit);
    if report.exit == Exit::OutputLimit {
        message += &format!(" ({} bytes)", options.output_limit);
    }
    let stderr = report.stderr_excerpt(STDERR_IN_MESSAGE);
    if !stderr.is_empty() {
        message += &format!(", stderr: {stderr:?}");
    }
    Some(Verdict::new(kind, message))
}

/// Runs `program` on `input` and judges the run with `problem`'s rule against our answer.
///
/// Time: our solver on `input`, plus the program's run, plus the judge's pass over the
/// output.
///
/// # Errors
/// The program cannot be run at all, or a signal stopped the run (see [`ChildError`]).
pub fn trial<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    program: &Program,
    input: &P::Input,
    options: &ChildOptions,
) -> Result<Trial, ChildError> {
    trial_judging(sandbox, problem, program, input, options, true)
}

/// [`trial`], judging the output of a run that exits normally only when `judge_output` is
/// set; otherwise such a run is `ok` unjudged, which is all a search for a runtime error or an
/// exceeded limit needs to know, and it saves our solver's time.
///
/// # Errors
/// As [`trial`].
pub(super) fn trial_judging<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    program: &Program,
    input: &P::Input,
    options: &ChildOptions,
    judge_output: bool,
) -> Result<Trial, ChildError> {
    let bytes = render(problem, input);
    let report = sandbox.run(program, &bytes, options)?;
    let verdict = match run_verdict(program, &report, options) {
        Some(verdict) => verdict,
        None if judge_output => problem.judge(input, &problem.solve(input), &report.stdout),
        None => Verdict::ok("exited normally, output not judged"),
    };
    Ok(Trial { verdict, run: report })
}
