//! One trial: an input given to the contestant's program (as a file, or as a game against
//! the jury: [`Contestant`]), and the run judged (runtime error, time and memory limits
//! first, then the problem's rule or the jury); and which input each run of a stress loop
//! tries ([`Schedule`]), which the contestant chooses.

use std::time::Duration;

use super::jury::Speaker;
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
pub(crate) fn run_verdict(
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
                    "killed at the wall-clock backstop, {} not counting the time it waited for \
                     a core, with {} of CPU time counted against the {} limit: it slept or \
                     waited",
                    seconds(options.wall_limit),
                    seconds(report.cpu),
                    seconds(options.time_limit)
                ),
            ));
        }
        Exit::Idle => {
            return Some(Verdict::new(
                VerdictKind::TimeLimit,
                format!(
                    "killed at the wall-clock backstop, {}, idle: both sides were waiting, the \
                     jury for the program's line and the program, using no CPU for the last {} \
                     or more, for input (did it flush its output?); {} of CPU time counted \
                     against the {} limit",
                    seconds(options.wall_limit),
                    seconds(crate::sandbox::IDLE),
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

    /// The input rendered, the program run on it, its run judged by how it ended, then its
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

/// What run `index` of a stress loop tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// A generated input of this size level.
    Level(u32),
    /// The problem's extreme input of this number.
    Extreme(u32),
}

/// Which input each run gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The lowest level run (0 but for a loop held to one level).
    pub first_level: u32,
    /// Levels `first_level..levels` are run.
    pub levels: u32,
    /// Runs spent on each level on the way up.
    pub runs_per_level: u64,
    /// How many extreme inputs the problem has under the loop's limits.
    pub extremes: u32,
    /// The run index of the first extreme input: the runs before it are at level 0.
    pub extremes_from: u64,
}

impl Schedule {
    /// Runs `extremes_from..extremes_from + extremes` take the extreme inputs in turn. The
    /// others, numbered without them, take `runs_per_level` runs at level 0, as many at
    /// level 1, and so on up to the last level; after that, run `i` is at level `i mod
    /// levels`, so small inputs keep coming.
    #[must_use]
    pub fn plan(&self, index: u64) -> Plan {
        let extremes = u64::from(self.extremes);
        let generated = match index.checked_sub(self.extremes_from) {
            Some(k) if k < extremes => {
                return Plan::Extreme(u32::try_from(k).expect("below extremes, a u32"));
            }
            Some(_) => index - extremes,
            None => index,
        };
        let levels = u64::from(self.levels.saturating_sub(self.first_level).max(1));
        let step = generated / self.runs_per_level.max(1);
        let level = if step < levels { step } else { generated % levels };
        let level = u32::try_from(level).expect("below levels, a u32");
        Plan::Level(self.first_level + level)
    }

    /// Every run at `level`, without the extremes (`stress --level`).
    #[must_use]
    pub fn at_level(level: u32) -> Self {
        Self {
            first_level: level,
            levels: level + 1,
            runs_per_level: 1,
            extremes: 0,
            extremes_from: 0,
        }
    }

    /// The default schedule for `problem` under `limits`: ten tiny runs, the extremes, then
    /// its levels, 50 runs each on the way up.
    #[must_use]
    pub fn for_problem<P: Problem>(problem: &P, limits: Limits) -> Self {
        Self {
            first_level: 0,
            levels: P::LEVELS,
            runs_per_level: 50,
            extremes: problem.extremes(limits),
            extremes_from: 10,
        }
    }
}

/// What was said in an interactive trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// Every line, with who said it.
    pub lines: Vec<(Speaker, String)>,
    /// Games in the input.
    pub games: usize,
    /// How long the jury took to answer the program's lines.
    pub replies: ReplyTimes,
}

impl Transcript {
    /// The transcript as text: the jury's lines after `> `, the program's after `< `.
    #[must_use]
    pub fn text(&self) -> Vec<u8> {
        let mut text = String::new();
        for (speaker, line) in &self.lines {
            text.push_str(if *speaker == Speaker::Jury { "> " } else { "< " });
            text.push_str(line);
            text.push('\n');
        }
        text.into_bytes()
    }
}

/// How long the jury took to answer the program's lines, as the interaction saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplyTimes {
    /// Lines answered.
    pub count: usize,
    /// The median answer.
    pub median: Duration,
    /// The slowest.
    pub worst: Duration,
    /// All of them together.
    pub total: Duration,
}

impl ReplyTimes {
    pub(super) fn of(mut times: Vec<Duration>) -> Self {
        times.sort_unstable();
        Self {
            count: times.len(),
            median: times.get(times.len() / 2).copied().unwrap_or_default(),
            worst: times.last().copied().unwrap_or_default(),
            total: times.iter().sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_climbs_then_cycles_with_the_extremes_early() {
        let s = Schedule {
            first_level: 0,
            levels: 3,
            runs_per_level: 2,
            extremes: 0,
            extremes_from: 1,
        };
        let plans: Vec<Plan> = (0..10).map(|i| s.plan(i)).collect();
        let levels = [0, 0, 1, 1, 2, 2, 0, 1, 2, 0].map(Plan::Level);
        assert_eq!(plans, levels);
        let s = Schedule { extremes: 2, ..s };
        let plans: Vec<Plan> = (0..12).map(|i| s.plan(i)).collect();
        let mut expected = levels.to_vec();
        expected.splice(1..1, [Plan::Extreme(0), Plan::Extreme(1)]);
        assert_eq!(plans, expected);
        let one = Schedule::at_level(4);
        assert!((0..20).all(|i| one.plan(i) == Plan::Level(4)));
    }
}
