//! Problem packages: a problem's whole test set in the Kattis problem package format (the
//! legacy version, which DOMjudge imports and Kattis's `verifyproblem` checks, or version
//! 2025-09, which BAPCtools reads: [`Format`] says what differs), written from the
//! [`Problem`] and what [`Packaged`] adds (the statement, the samples, the validators, the
//! test groups).
//!
//! A package holds `problem.yaml`, `.timelimit`, the statement (`problem_statement/
//! problem.en.tex`), the samples (`data/sample`), the secret tests with our answers
//! (`data/secret`; for a scoring problem each test in every group whose constraints it
//! meets, as IOI's subtasks held them, linked from the first), a C++ input validator, a C++
//! output validator where Kattis's default one does not fit the original rule, a function
//! task's header and grader (`include/cpp/`), and the submissions filed under the verdict
//! each got. [`build`] makes it in this order:
//!
//! 1. **Submissions** are compiled as judges compile them (module `submission`).
//! 2. **Tests** (module `contents`): the samples, the setter's own tests
//!    ([`PackageOptions::own_tests`]), each problem's extreme inputs of the
//!    original limits ([`Problem::extreme`]), [`TestBudget::per_level`] generated inputs of
//!    each size level ([`Problem::generate`]) and, for a scoring problem, the inputs made for
//!    its groups ([`Packaged::group_input`]). Test `k` of a kind draws from its own seed,
//!    [`run_seed`](crate::hunt::run_seed)`(seed, k)` with `k` set apart by kind, so the
//!    same seed gives the same tests; an input equal to an earlier test is left out
//!    (problemtools warns of identical inputs), and so is a test above
//!    [`TestBudget::big_bytes`] once [`TestBudget::big_tests`] of them are in.
//! 3. **The time limit**: every accepted submission runs on every test under the original
//!    memory limit and [`TIME_MULTIPLIER`] times the original time limit, and must pass
//!    them all; the limit is Kattis's rule on the slowest run ([`time_limit`]), its three
//!    slowest tests timed by the quickest of three runs, since load inflates CPU time. A
//!    limit the setter gives ([`PackageOptions::time_limit`]) replaces both.
//! 4. **Kill tests**: for each `--wrong` and `--slow` submission, a hunt from the seed
//!    under [`TIME_SAFETY_MARGIN`] times the package's time limit (so that a time limit it
//!    finds is one at the limit whatever the noise, as problemtools wants) and the original
//!    memory limit, shrinking what it finds but a time limit, which shrinking would bring to
//!    the edge of the limit; the input is the test `kills-STEM`. The accepted submissions
//!    run on the new tests too, and the time limit follows them.
//! 5. **Checks of our own**: every test is valid in the canonical format under the original
//!    limits, and the package's input validator accepts it (with its group's flags); the
//!    output validator accepts our answers.
//! 6. **Verdicts**: every `--wrong` and `--slow` submission runs on every test in the order
//!    problemtools runs them, under the package's limits, and is filed under the verdict the
//!    package's grading gives it (each run judged as `PROBLEM run` judges it). One that passes every test is not filed but reported
//!    ([`Built::not_killed`]).
//! 7. The package is written beside `DIR` and renamed into place (module `place`).
//!
//! **Deterministic.** Every file depends only on the problem, the seed and the submissions'
//! sources, but `.timelimit`, which follows measured times (a slowest accepted run near a
//! multiple of 0.2 s may give either side), and a kill test found by a time limit near the
//! margin's, by a search that stopped at its time budget, or of a nondeterministic program
//! (the report says so).

mod contents;
mod interactive;
mod kattis;
mod place;
mod submission;
mod subtask;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::fs::WriteError;
use engine::rng::SplitMix64;

use crate::hunt::jury::SEED;
use crate::hunt::{
    Contestant, Coverage, Finding, Grading, GroupTests, HuntOptions, Juries, Player, ShrinkOptions,
    ShrinkOutcome, StressError, StressOptions, Trial, hunt, judge_test, trial,
};
use crate::rules::{Limits, Problem, Verdict, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Sandbox};
use crate::text::{bytes, plural, seconds};
use contents::{Test, Tests, add_generated, add_own, add_samples, check_tests};
use place::Place;

pub use crate::hunt::{GroupScore, Score};
pub use interactive::{INTERACTION_LINES, Interactive};
pub use kattis::{Format, TIME_MULTIPLIER, TIME_SAFETY_MARGIN, time_limit};
use kattis::{file_name_ok, short_name_ok};
#[cfg(feature = "cli")]
pub(crate) use submission::{BuiltProgram, build_command};
pub use submission::{PYPY, Role, compile_cpp};
pub(crate) use submission::{SUPPORTED, Submission, compile};
pub use subtask::{GroupError, InGroup};

/// What a package says of a problem beyond its [`Problem`]: its title and origin, its
/// statement and its samples.
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// The title: `Battle in Two Pairs of Heroes`.
    pub title: &'static str,
    /// Where the problem is from: `ICPC 2017 Asia Qingdao Regional Contest`.
    pub source: &'static str,
    /// A page of the problem, where one is known.
    pub source_url: Option<&'static str>,
    /// Where the statement is in the repository: `hero-battle/problem/statement.md`.
    pub statement_path: &'static str,
    /// The statement, in Markdown.
    pub statement: &'static str,
    /// The samples, in order (the official ones where the sources kept them).
    pub samples: &'static [Sample],
}

/// A sample: its name in `data/sample` and its files.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// `sample1`.
    pub name: &'static str,
    /// The input.
    pub input: &'static [u8],
    /// The sample's answer (checked against ours, which the package holds).
    pub answer: &'static [u8],
}

/// How a package judges an output.
#[derive(Clone, Copy, Debug)]
pub enum OutputValidator {
    /// Kattis's default validator with these `validator_flags`.
    Default {
        /// `case_sensitive space_change_sensitive`, `float_absolute_tolerance 1e-6`, or none.
        flags: &'static str,
        /// How it differs from the original rule (`PROBLEM check`), in sentences.
        unlike_check: &'static str,
    },
    /// A C++ validator of our own in `output_validators/NAME/NAME.cpp`, called as Kattis
    /// calls one: `PROG input answer feedback_dir < output`, exit 42 accepted, 43 rejected.
    Custom {
        /// The program's folder and file name: `whitediff`.
        name: &'static str,
        /// The C++ source.
        source: &'static str,
        /// How it differs from the original rule (`PROBLEM check`), in sentences.
        unlike_check: &'static str,
    },
}

impl OutputValidator {
    /// How the validator differs from the original rule.
    #[must_use]
    pub fn unlike_check(&self) -> &'static str {
        match self {
            Self::Default { unlike_check, .. } | Self::Custom { unlike_check, .. } => unlike_check,
        }
    }
}

/// A scoring problem's test groups (`data/secret/group1`, ...), as its original subtasks.
#[derive(Clone, Copy, Debug)]
pub struct Scoring {
    /// The groups, in order: group `k` is `groups[k - 1]`.
    pub groups: &'static [Group],
    /// What `problem.yaml`'s comment says of the groups (how they follow the original).
    pub note: &'static str,
}

/// One test group.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Points for passing every test of the group.
    pub points: u32,
    /// The input validator's flags for the group's tests: `subtask 3`.
    pub validator_flags: &'static str,
    /// What the group's inputs satisfy, in words.
    pub about: &'static str,
}

/// A function task's interface: contestants write a function (`who_wins` in `train.cpp`)
/// against a header (`train.h`), and a grader reads the input, calls the function and prints
/// the answer, as the contest's sample grader did, in our input and output formats.
///
/// One grader serves both kinds of program: its `main` and its reference to the function are
/// weak symbols, so a program with a `main` of its own (reading stdin, as every other
/// problem's) links with it and keeps its `main`, and a function-style one gets the
/// grader's. So a package compiles every C++ submission with the grader beside it (Kattis's
/// `include/cpp/`, copied beside each submission), and `g++ -O2 grader.cpp train.cpp` gives
/// a program `stress` and `run` take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interface {
    /// The function, as the header declares it.
    pub function: &'static str,
    /// The file contestants submit: `train.cpp`.
    pub submission: &'static str,
    /// The header contestants include: (`train.h`, its text).
    pub header: (&'static str, &'static str),
    /// The grader: (`grader.cpp`, its text).
    pub grader: (&'static str, &'static str),
}

impl Interface {
    /// The header and the grader: (file name, text).
    #[must_use]
    pub fn files(&self) -> [(&'static str, &'static str); 2] {
        [self.header, self.grader]
    }
}

/// How many tests a package holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestBudget {
    /// Generated tests of each size level.
    pub per_level: u32,
    /// A test of more bytes than this is big.
    pub big_bytes: usize,
    /// Big tests kept, the first in the order they are made (extremes first); later ones are
    /// left out.
    pub big_tests: usize,
}

impl TestBudget {
    /// Two tests a level; big tests (over 1 MiB) not bounded.
    pub const DEFAULT: Self = Self { per_level: 2, big_bytes: 1 << 20, big_tests: usize::MAX };
}

/// A [`Problem`] that can be written as a package: what the package needs beyond judging.
/// Implemented by each problem crate in its `src/judge/package.rs`.
pub trait Packaged: Problem {
    /// Title, origin, statement and samples.
    fn about(&self) -> About;

    /// The input validator's C++ source: reads an input on stdin and exits 42 when it is
    /// valid in the canonical format under the original limits (what `PROBLEM validate`
    /// accepts), 43 otherwise; for a scoring problem its arguments may name a group's
    /// constraint (a group's [`Group::validator_flags`]). Its line
    /// `#include "canonical_reader.h"` ([`READER_INCLUDE`]) stands for the shared reader of
    /// the canonical format; the package holds [`input_validator_source`].
    fn input_validator(&self) -> &'static str;

    /// How the package judges an output.
    fn output_validator(&self) -> OutputValidator;

    /// The answer validator's C++ source, which a 2025-09 batch package holds as
    /// `answer_validators/answer.cpp`: called `PROG input < answer`, it exits 42 when the
    /// answer is one our solver could have written for the input
    /// ([`answer_is_canonical`]), 43 otherwise. It includes the reader as the input
    /// validator does ([`READER_INCLUDE`]). `None` (the default) for none: BAPCtools
    /// then checks the answers with the output validator, and warns.
    fn answer_validator(&self) -> Option<&'static str> {
        None
    }

    /// The test groups of a scoring problem; `None` (the default) for a pass-fail one.
    fn scoring(&self) -> Option<Scoring> {
        None
    }

    /// The groups (indices into [`Scoring::groups`]) whose constraints `input` meets, in
    /// increasing order; a test goes into each, as IOI's subtasks held every test that meets
    /// theirs. Every valid input of a scoring problem must meet one. The default: none.
    fn groups_of(&self, input: &Self::Input) -> Vec<usize> {
        let _ = input;
        Vec::new()
    }

    /// An input of group `group`'s constraints at size level `level` (as
    /// [`Problem::generate`]'s levels), valid under the original limits: what `stress
    /// --subtask` and `generate --subtask` draw, and two of the package's tests of each
    /// group (the middle level and the last). The default draws [`Problem::generate`] at
    /// `level`, then at each smaller level, until a draw is in the group: a problem whose
    /// groups are rare among its draws makes its own.
    ///
    /// # Panics
    /// The default, when 64 draws at every level down to 0 meet none: the problem must make
    /// its own.
    fn group_input(&self, group: usize, level: u32, rng: &mut SplitMix64) -> Self::Input {
        for level in (0..=level).rev() {
            for _ in 0..64 {
                let input = self.generate(rng, level, Limits::Original);
                if self.groups_of(&input).contains(&group) {
                    return input;
                }
            }
        }
        panic!(
            "{}: no generated input is in group {}: it needs a group_input",
            self.name(),
            group + 1
        )
    }

    /// The function interface of a problem that was a function task (IOI's `who_wins` in
    /// `train.cpp`), if it was: the header contestants include and a grader that reads the
    /// input and prints the answer. `None` (the default) when programs read the input on
    /// stdin, as the contest's did.
    fn interface(&self) -> Option<Interface> {
        None
    }

    /// How many tests the package holds.
    fn test_budget(&self) -> TestBudget {
        TestBudget::DEFAULT
    }
}

/// The line of a validator's source that stands for [`CANONICAL_READER`].
pub const READER_INCLUDE: &str = "#include \"canonical_reader.h\"";

/// The canonical format's reader in C++ (`reject`, `read_number`, `read_end`,
/// `read_case_count`), which every problem's input and answer validators share.
pub const CANONICAL_READER: &str = include_str!("package/canonical_reader.h");

/// `problem`'s input validator as the package holds it ([`validator_source`]).
#[must_use]
pub fn input_validator_source<P: Packaged>(problem: &P) -> String {
    validator_source(problem.name(), problem.input_validator())
}

/// `problem`'s answer validator as a 2025-09 package holds it ([`validator_source`]), if it
/// has one.
#[must_use]
pub fn answer_validator_source<P: Packaged>(problem: &P) -> Option<String> {
    problem.answer_validator().map(|source| validator_source(problem.name(), source))
}

/// A validator's `source` as the package holds it: its line [`READER_INCLUDE`] replaced by
/// [`CANONICAL_READER`], one file that compiles alone.
///
/// # Panics
/// If the source does not include the reader once: every validator of `problem` reads with
/// it.
#[must_use]
pub fn validator_source(problem: &str, source: &str) -> String {
    let lines = source.lines().filter(|line| line.trim() == READER_INCLUDE).count();
    assert_eq!(lines, 1, "{problem}'s validator includes the canonical reader once");
    source.replacen(READER_INCLUDE, CANONICAL_READER.trim_end(), 1)
}

/// Whether `answer` is an answer our solver could have written for `input`: it parses as an
/// answer ([`Problem::parse_answer`]) and [`Problem::render_answer`] writes what it read back
/// byte for byte. What a problem's [`Packaged::answer_validator`] accepts. `O(answer)`.
#[must_use]
pub fn answer_is_canonical<P: Problem>(problem: &P, input: &P::Input, answer: &[u8]) -> bool {
    problem.parse_answer(input, answer).is_ok_and(|parsed| {
        let mut again = Vec::with_capacity(answer.len());
        problem.render_answer(input, &parsed, &mut again);
        again == answer
    })
}

/// What to put in a package.
#[derive(Clone, Debug)]
pub struct PackageOptions {
    /// The package folder; its last part is the problem's short name (`[a-z0-9]+`).
    pub dir: PathBuf,
    /// Right submissions.
    pub accepted: Vec<PathBuf>,
    /// Submissions with a wrong answer (or a crash) on some input.
    pub wrong: Vec<PathBuf>,
    /// Submissions too slow on some input.
    pub slow: Vec<PathBuf>,
    /// The seed of the generated tests and of each stress search.
    pub seed: u64,
    /// Each stress search's time budget.
    pub stress_time: Duration,
    /// Each shrink's run budget. Shrinking runs one candidate at a time, so that where a
    /// budget stops it does not depend on the number of jobs nor on the machine's speed.
    pub shrink_runs: u64,
    /// Programs run at once by a stress search.
    pub jobs: usize,
    /// Only the first this many size levels (the smallest) of the generated tests and of
    /// each stress search, and none of the limits' extremes (`--levels`), when given: a
    /// smaller package, for right players too slow on large inputs (card-duel's at 20 hit
    /// points without its tablebase).
    pub levels: Option<u32>,
    /// The time limit in whole seconds, when the setter gives it (`--time-limit`): the
    /// accepted submissions must pass every test within it, and it is not computed from
    /// them.
    pub time_limit: Option<u64>,
    /// A folder of the setter's own tests (`--tests`): each `NAME.in` in it, held to
    /// `validate` (and `NAME.ans` beside it, if there is one, to our answer), goes into the
    /// secret data as test `NAME`, with our answer.
    pub own_tests: Option<PathBuf>,
    /// The game's interactive version instead of the batch problem (`--interactive`): the
    /// submissions are players, judged by the jury, which goes into the package as a static
    /// binary (module `interactive`).
    pub interactive: Option<Interactive>,
    /// The format's version (`--format`): legacy, or 2025-09 for a pass-fail or interactive
    /// package.
    pub format: Format,
}

/// How a `--wrong` or `--slow` submission's kill test was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kill {
    /// The submission's file name.
    pub file: String,
    /// The test, as its path below `data/` without `.in`: `secret/kills-greedy`.
    pub test: String,
    /// Stress runs up to and including the one that found it.
    pub runs: u64,
    /// The verdict of the run that found it.
    pub found: Verdict,
    /// What became of the input as found.
    pub kept: Kept,
    /// The test's size.
    pub size: TestSize,
}

/// What a kill test keeps of the failing input a stress search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Shrunk by `moves` moves, to a 1-minimal input or as far as the run budget went.
    Shrunk {
        /// Moves accepted.
        moves: u64,
        /// Whether the result is 1-minimal.
        minimal: bool,
    },
    /// A time limit, kept as found: shrinking one ends at the edge of the limit.
    TimeLimit,
    /// As found: a shrink by `moves` moves ended on an input that failed only `failed` of
    /// `runs` reruns alone.
    FollowedChance {
        /// Moves of the shrink.
        moves: u64,
        /// Reruns alone of the shrunk input that failed.
        failed: u32,
        /// Reruns alone of the shrunk input.
        runs: u32,
    },
    /// As found: a time limit met in `failed` of `runs` runs only, the program's CPU time
    /// about the limit.
    NearTimeLimit {
        /// Runs that failed, the first included.
        failed: u32,
        /// Runs, the first included.
        runs: u32,
    },
    /// As found: the failure came back in `failed` of `runs` runs only.
    Nondeterministic {
        /// Runs that failed, the first included.
        failed: u32,
        /// Runs, the first included.
        runs: u32,
    },
    /// As found: a signal stopped its reruns.
    NotConfirmed,
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Shrunk { moves, minimal: true } => {
                write!(f, "shrunk by {}: 1-minimal", plural(moves, "move"))
            }
            Self::Shrunk { moves, minimal: false } => write!(
                f,
                "shrunk by {}, then stopped by its run budget: not known to be 1-minimal",
                plural(moves, "move")
            ),
            Self::TimeLimit => f.write_str("a time limit: kept as found, not shrunk"),
            Self::FollowedChance { moves, failed: 0, .. } => write!(
                f,
                "a shrink by {} ended on an input that passed alone: kept as found",
                plural(moves, "move")
            ),
            Self::FollowedChance { moves, failed, runs } => write!(
                f,
                "a shrink by {} ended on an input that failed {failed} of {runs} reruns alone: \
                 kept as found",
                plural(moves, "move")
            ),
            Self::NearTimeLimit { failed, runs } => write!(
                f,
                "near the limit: a time limit in {failed} of {runs} runs, its CPU time about the \
                 limit; kept as found, not shrunk"
            ),
            Self::Nondeterministic { failed, runs } => {
                write!(f, "nondeterministic: it failed {failed} of {runs} runs; not shrunk")
            }
            Self::NotConfirmed => f.write_str("not confirmed; not shrunk"),
        }
    }
}

/// A test's size: its cases and its input's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestSize {
    /// Test cases.
    pub cases: u64,
    /// Bytes of the input.
    pub bytes: u64,
}

impl fmt::Display for TestSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", plural(self.cases, "case"), bytes(self.bytes))
    }
}

/// A submission filed in the package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filed {
    /// The submission's file name.
    pub file: String,
    /// The option that named it.
    pub role: Role,
    /// Its folder under `submissions/`: `wrong_answer`.
    pub folder: &'static str,
    /// How the package's grading judged it.
    pub grade: Grade,
    /// Its slowest run, and on which test.
    pub slowest: (Duration, String),
    /// The first test whose output the original rule accepted only by overlooking a flaw
    /// (`Verdict::lenient`), which the package's output validator may reject.
    pub lenient: Option<String>,
}

/// How a submission fares on the package's tests, as its grading sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    /// Every test passed (every group, for a scoring problem).
    Accepted,
    /// Some groups passed: the score, each group's.
    Partial(Score),
    /// The first failure that counts, and its test.
    Failed(Verdict, String),
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Accepted => f.write_str("right on every test"),
            Self::Partial(score) => write!(f, "{score}"),
            Self::Failed(verdict, test) => write!(f, "{verdict} on {test}"),
        }
    }
}

/// A `--wrong` or `--slow` submission that passed every test: not filed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotKilled {
    /// The submission's file name.
    pub file: String,
    /// The option that named it.
    pub role: Role,
    /// Stress runs tried without a failure.
    pub runs: u64,
}

/// A package written.
#[derive(Clone, Debug)]
pub struct Built {
    /// The package folder.
    pub dir: PathBuf,
    /// Tests in it (samples included) and their bytes (inputs and answers).
    pub tests: usize,
    /// Their size in bytes.
    pub bytes: u64,
    /// Big tests left out by the budget.
    pub left_out: usize,
    /// The format's version it is written in.
    pub format: Format,
    /// The time limit written to `.timelimit` (2025-09: `problem.yaml`), in seconds.
    pub time_limit: u64,
    /// Whether the setter gave it, rather than the accepted submissions setting it.
    pub time_limit_given: bool,
    /// An interactive package's jury binary's size in bytes.
    pub jury_bytes: Option<u64>,
    /// The interpreter the Python submissions ran with, when there are any: `pypy3`, the
    /// judges', when it is on `PATH`, else `python3`.
    pub python: Option<&'static str>,
    /// The slowest accepted run and its test.
    pub slowest_accepted: (Duration, String),
    /// The kill tests found.
    pub kills: Vec<Kill>,
    /// The submissions filed, in the order given.
    pub filed: Vec<Filed>,
    /// The `--wrong` and `--slow` submissions no test kills.
    pub not_killed: Vec<NotKilled>,
    /// The build's wall time.
    pub elapsed: Duration,
}

/// A step of a build, for a progress line.
#[derive(Clone, Debug)]
pub enum Step {
    /// A submission compiled.
    Compiled(String, Role),
    /// The tests before the kill tests: how many, their bytes, big ones left out.
    Tests(usize, u64, usize),
    /// An accepted submission passed every test so far; its slowest run and test.
    AcceptedRan(String, Duration, String),
    /// The setter's tests from a folder: how many were added, and each left out as the same
    /// input as an earlier test (its name, that test).
    OwnTests(PathBuf, usize, Vec<(String, String)>),
    /// The time limit set, in seconds, and whether the setter gave it.
    TimeLimit(u64, bool),
    /// A stress search begins.
    Searching(String),
    /// A kill test found.
    Killed(Kill),
    /// A submission filed.
    Filed(Filed),
    /// A submission no test kills.
    NotKilled(NotKilled),
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Compiled(file, role) => write!(f, "compiled {file} ({})", role.option()),
            Self::Tests(tests, size, left_out) => {
                write!(f, "{}, {}", plural(*tests as u64, "test"), bytes(*size))?;
                if *left_out > 0 {
                    write!(
                        f,
                        " ({} left out by the size budget)",
                        plural(*left_out as u64, "big test")
                    )?;
                }
                Ok(())
            }
            Self::AcceptedRan(file, slowest, test) => {
                write!(f, "{file}: right on every test, slowest {} on {test}", seconds(*slowest))
            }
            Self::OwnTests(dir, added, same) => {
                write!(f, "{} of yours from {}", plural(*added as u64, "test"), dir.display())?;
                for (name, held) in same {
                    write!(f, "; {name} left out, the same input as {held}")?;
                }
                Ok(())
            }
            Self::TimeLimit(limit, true) => write!(f, "time limit {limit} s, as given"),
            Self::TimeLimit(limit, false) => write!(
                f,
                "time limit {limit} s: {TIME_MULTIPLIER} times the slowest accepted run, rounded \
                 up to whole seconds, at least 1 s"
            ),
            Self::Searching(file) => write!(f, "{file}: stress, looking for a test that kills it"),
            Self::Killed(kill) => write!(
                f,
                "{}: killed by {} ({}; found by run {} of stress: {}; {})",
                kill.file, kill.test, kill.size, kill.runs, kill.found.kind, kill.kept
            ),
            Self::Filed(filed) => write!(f, "{}: {} ({})", filed.file, filed.folder, filed.grade),
            Self::NotKilled(not) => write!(
                f,
                "{} ({}): not killed: no failure in {} of stress nor on any test; not filed",
                not.file,
                not.role.option(),
                plural(not.runs, "run")
            ),
        }
    }
}

/// Why a package cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The folder's last part is not a short name problemtools takes.
    #[error(
        "the package folder's name {name:?} is not a short name problemtools takes \
         ([a-z0-9]+, the folder's last part): name it, say, {suggestion}"
    )]
    ShortName {
        /// The folder's last part.
        name: String,
        /// A name that would do: `packages/herobattle`.
        suggestion: String,
    },
    /// The folder exists and holds something other than a package.
    #[error(
        "{0} exists and is not a problem package (no problem.yaml): name a new folder, or \
         remove it"
    )]
    NotAPackage(PathBuf),
    /// No `--accepted` submission.
    #[error("no --accepted submission: the time limit follows the accepted submissions")]
    NoAccepted,
    /// A submission's file name does not fit the package format.
    #[error(
        "{}: a submission's file name must match [a-zA-Z0-9_][a-zA-Z0-9_.-]* for the package \
         format",
        file.display()
    )]
    FileName {
        /// The submission.
        file: PathBuf,
    },
    /// Two submissions share a file name.
    #[error("two submissions are named {0}: the package keeps each under its file name")]
    DuplicateName(String),
    /// A submission's language is not supported.
    #[error("{}: not a supported language: supported are {SUPPORTED}", file.display())]
    Language {
        /// The submission.
        file: PathBuf,
    },
    /// A compiler cannot be started.
    #[error("cannot start {compiler}: {source}")]
    Compiler {
        /// `g++` or `python3`.
        compiler: &'static str,
        /// What the system said.
        source: std::io::Error,
    },
    /// A source does not compile.
    #[error(
        "{} does not compile with {compiler} (copied alone into a folder, as a judge builds \
         it: a file it takes from beside it is missing there):\n{messages}",
        file.display()
    )]
    Compile {
        /// The source.
        file: PathBuf,
        /// `g++` or `python3`.
        compiler: &'static str,
        /// The end of the compiler's messages.
        messages: String,
    },
    /// A file cannot be read, or a folder made or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file of the package cannot be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A sample is not valid, or its answer disagrees with ours.
    #[error("sample {name}: {message}")]
    Sample {
        /// The sample's name.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A test we made breaks the original limits or the canonical format, no group takes
    /// it, or our own validators reject it: a bug of ours.
    #[error("test {test}: {message} (a bug of ours)")]
    OurTest {
        /// The test.
        test: String,
        /// What is wrong.
        message: String,
    },
    /// An accepted submission fails a test.
    #[error("{file} (--accepted) fails {test}: {verdict} (under {limits})")]
    AcceptedFails {
        /// The submission.
        file: String,
        /// The test.
        test: String,
        /// Its verdict there.
        verdict: Box<Verdict>,
        /// The limits it ran under, and why those.
        limits: String,
    },
    /// A test of the setter's (`--tests`) cannot be read, is not valid, or its answer
    /// disagrees with ours.
    #[error("{}: {message}", path.display())]
    OwnTest {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A program cannot be run.
    #[error("cannot run {program} on {test}: {source}")]
    Run {
        /// The program (a submission's file name, or a validator).
        program: String,
        /// The test.
        test: String,
        /// What went wrong.
        source: ChildError,
    },
    /// A stress search cannot go on.
    #[error("stress on {file}: {source}")]
    Stress {
        /// The submission.
        file: String,
        /// What went wrong.
        source: StressError,
    },
    /// A scoring problem's package asked for in a format version that has no scoring
    /// package of ours.
    #[error(
        "{0} is a scoring problem, and its package is written in the legacy format only: \
         BAPCtools, the one tool that reads 2025-09, does not take `type: scoring`, so a \
         scoring package in 2025-09 could not be verified (leave out --format, or give \
         --interactive for the game's pass-fail package)"
    )]
    ScoringFormat(&'static str),
    /// A signal stopped the build.
    #[error("stopped by {}", crate::sandbox::signal(*.0))]
    Interrupted(i32),
    /// The jury's binary of an interactive package is not a static binary, which a judge
    /// host without our libraries can run.
    #[error(
        "{}: not a static binary ({why}), which a judge host runs with no library of ours: \
         build one with `rustup target add x86_64-unknown-linux-musl` and `cargo build \
         --release --target x86_64-unknown-linux-musl -p PROBLEM`, and give it with --jury \
         target/x86_64-unknown-linux-musl/release/PROBLEM",
        path.display()
    )]
    JuryNotStatic {
        /// The binary.
        path: PathBuf,
        /// Why it is not one.
        why: String,
    },
}

impl PackageError {
    /// What a run that went wrong means for the build: a signal stops it, anything else is
    /// `program` that cannot be run on `test`.
    pub(super) fn of_run(source: ChildError, program: String, test: String) -> Self {
        match source {
            ChildError::Interrupted(signal) => Self::Interrupted(signal),
            source => Self::Run { program, test, source },
        }
    }
}

/// The folder under `submissions/` for a failure of `kind`. Kattis has no presentation
/// error nor memory limit: the first is a wrong answer there, the second a run-time error
/// (an allocation past its address-space limit fails).
fn folder_of(kind: VerdictKind) -> &'static str {
    match kind {
        VerdictKind::Ok => "accepted",
        VerdictKind::WrongAnswer | VerdictKind::PresentationError | VerdictKind::Fail => {
            "wrong_answer"
        }
        VerdictKind::RuntimeError | VerdictKind::MemoryLimit => "run_time_error",
        VerdictKind::TimeLimit => "time_limit_exceeded",
    }
}

/// Builds the package `options` ask for (see the module notes), calling `progress` at each
/// step.
///
/// Time: compiling the submissions; solving every test once; each accepted submission on
/// every test; each `--wrong` and `--slow` one's stress search and shrink (their budgets) and
/// its runs on the tests up to its first failure (every group's, for a scoring problem).
///
/// # Errors
/// See [`PackageError`]: the folder's name, a submission that cannot be compiled or an
/// accepted one that fails, a run or a search that cannot go on, a file that cannot be
/// written, a signal; and bugs of ours (a test our own validators reject).
pub fn build<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    options: &PackageOptions,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Built, PackageError> {
    let started = Instant::now();
    let interactive = options.interactive.as_ref();
    let mut tests = Tests::new(problem, interactive, options.format);
    if options.format != Format::Legacy && tests.scoring.is_some() {
        return Err(PackageError::ScoringFormat(problem.name()));
    }
    let place = Place::check(&options.dir, problem.name())?;
    let jury_bytes = interactive.map(|i| interactive::check_static(&i.jury)).transpose()?;
    let juries = interactive.map(|i| &i.juries);
    let temp = std::env::temp_dir();
    let scratch = sandbox
        .fresh_folder(&temp, "judge-package-")
        .map_err(|source| PackageError::Io { path: temp.clone(), source })?;
    // An interactive package's players read the jury's lines: no function interface.
    let interface = problem.interface().filter(|_| interactive.is_none());
    let submissions = compile_all(sandbox, options, scratch.path(), interface.as_ref(), progress)?;
    let about = problem.about();
    add_samples(problem, &about, &mut tests)?;
    if let Some(dir) = &options.own_tests {
        let (added, same) = add_own(problem, dir, &mut tests)?;
        progress(Step::OwnTests(dir.clone(), added, same));
    }
    add_generated(problem, options.seed, options.levels, &mut tests)?;
    let (count, bytes) = tests.totals();
    progress(Step::Tests(count, bytes, tests.left_out));

    let memory_kib = P::RUN_LIMITS.memory_mib * 1024;
    // An accepted submission sets the time limit, as on Kattis, so it is not held to the
    // original one: only to TIME_MULTIPLIER times it, which any limit it sets is above. A
    // limit the setter gives holds it.
    let (accepted_time, why) = match options.time_limit {
        Some(given) => (Duration::from_secs(given), "the given time limit".to_owned()),
        None => (
            P::RUN_LIMITS.time * TIME_MULTIPLIER,
            format!("{TIME_MULTIPLIER} times the original time limit"),
        ),
    };
    let accepted_limits = ChildOptions::new(accepted_time, Some(memory_kib));
    let accepted: Vec<&Submission> =
        submissions.iter().filter(|s| s.role == Role::Accepted).collect();
    // Each accepted submission's slowest run and its test.
    let mut accepted_slowest = Vec::new();
    for submission in &accepted {
        let own = run_accepted(
            sandbox,
            problem,
            juries,
            submission,
            &tests.ordered(),
            &accepted_limits,
            &why,
        )?;
        progress(Step::AcceptedRan(submission.file_name.clone(), own.0, own.1.clone()));
        accepted_slowest.push(own);
    }
    let slowest_of = |runs: &[(Duration, String)]| runs.iter().max().cloned().unwrap_or_default();
    let set_limit = |slowest: Duration| options.time_limit.unwrap_or_else(|| time_limit(slowest));
    let first_limit = set_limit(slowest_of(&accepted_slowest).0);
    progress(Step::TimeLimit(first_limit, options.time_limit.is_some()));

    let mut kills = Vec::new();
    let mut searched = Vec::new();
    let run = |limit: u64| ChildOptions::new(Duration::from_secs(limit), Some(memory_kib));
    for submission in submissions.iter().filter(|s| s.role != Role::Accepted) {
        progress(Step::Searching(submission.file_name.clone()));
        // Under the safety margin's limit, as problemtools judges a time_limit_exceeded
        // submission: a test that kills it there kills it at the limit whatever the noise.
        let margin = run(first_limit * u64::from(TIME_SAFETY_MARGIN));
        let (kill, runs) = match juries {
            None => find_kill(
                sandbox,
                problem,
                submission,
                &submission.program,
                options,
                &margin,
                &mut tests,
            )?,
            Some(juries) => {
                let player = Player::new(submission.program.clone(), juries.clone(), SEED);
                find_kill(sandbox, problem, submission, &player, options, &margin, &mut tests)?
            }
        };
        if let Some(kill) = kill {
            progress(Step::Killed(kill.clone()));
            kills.push(kill);
        }
        searched.push((submission.file_name.clone(), runs));
    }
    let kill_tests: Vec<&Test> = (tests.ordered().into_iter())
        .filter(|t| kills.iter().any(|k| k.test == t.path()))
        .collect();
    for (submission, own) in accepted.iter().zip(&mut accepted_slowest) {
        let on_kills = run_accepted(
            sandbox,
            problem,
            juries,
            submission,
            &kill_tests,
            &accepted_limits,
            &why,
        )?;
        *own = own.clone().max(on_kills);
    }
    let slowest = slowest_of(&accepted_slowest);
    let limit = set_limit(slowest.0);
    if limit != first_limit {
        progress(Step::TimeLimit(limit, false));
    }
    check_tests(sandbox, problem, &tests, scratch.path())?;
    if let Some(interactive) = interactive {
        // The jury as the package holds it, under the name it runs by.
        let folder = scratch.path().join(interactive::JURY_FOLDER);
        let run = folder.join("run");
        let io = |source| PackageError::Io { path: run.clone(), source };
        std::fs::create_dir_all(&folder).map_err(io)?;
        std::fs::copy(&interactive.jury, &run).map_err(io)?;
        interactive::check_jury(sandbox, &run, &tests.tests, scratch.path())?;
    }

    let ordered = tests.ordered();
    let mut filed = Vec::new();
    let mut not_killed = Vec::new();
    for (submission, own) in accepted.iter().zip(&accepted_slowest) {
        let file = submission.file_name.clone();
        let role = Role::Accepted;
        let grade = Grade::Accepted;
        let one =
            Filed { file, role, folder: "accepted", grade, slowest: own.clone(), lenient: None };
        progress(Step::Filed(one.clone()));
        filed.push(one);
    }
    for submission in submissions.iter().filter(|s| s.role != Role::Accepted) {
        let Filing { grade, slowest: slow, lenient } = match juries {
            None => {
                grade(sandbox, problem, submission, &ordered, tests.scoring.as_ref(), &run(limit))?
            }
            Some(juries) => {
                grade_played(sandbox, problem, juries, submission, &ordered, &run(limit))?
            }
        };
        let folder = match &grade {
            Grade::Accepted => {
                let runs = searched.iter().find(|(file, _)| *file == submission.file_name);
                let not = NotKilled {
                    file: submission.file_name.clone(),
                    role: submission.role,
                    runs: runs.map_or(0, |(_, runs)| *runs),
                };
                progress(Step::NotKilled(not.clone()));
                not_killed.push(not);
                continue;
            }
            Grade::Partial(_) => "partially_accepted",
            // BAPCtools (and DOMjudge) pass the jury's end of input on to the player at once,
            // so a player the jury rejected that then fails reading past its input may end
            // first and be judged a run-time error (BAPCtools says it cannot tell the two
            // apart): a 2025-09 interactive package files it under `rejected`, which takes
            // either. Kattis and problemtools do not pass it on.
            Grade::Failed(verdict, _)
                if verdict.kind == VerdictKind::WrongAnswer
                    && interactive.is_some()
                    && options.format == Format::V2025_09 =>
            {
                "rejected"
            }
            Grade::Failed(verdict, _) => folder_of(verdict.kind),
        };
        let file = submission.file_name.clone();
        let one = Filed { file, role: submission.role, folder, grade, slowest: slow, lenient };
        progress(Step::Filed(one.clone()));
        filed.push(one);
    }

    let given = options.time_limit.is_some();
    let written = place.write(problem, &about, &tests, &submissions, &filed, (limit, given))?;
    let (count, bytes) = tests.totals();
    Ok(Built {
        dir: written,
        tests: count,
        bytes,
        left_out: tests.left_out,
        format: options.format,
        time_limit: limit,
        time_limit_given: options.time_limit.is_some(),
        jury_bytes,
        python: (submissions.iter())
            .any(|s| s.file_name.ends_with(".py"))
            .then(submission::python_interpreter),
        slowest_accepted: slowest,
        kills,
        filed,
        not_killed,
        elapsed: started.elapsed(),
    })
}

/// Compiles every submission, accepted ones first; file names must differ.
fn compile_all(
    sandbox: &Sandbox,
    options: &PackageOptions,
    scratch: &Path,
    interface: Option<&Interface>,
    progress: &(dyn Fn(Step) + Sync),
) -> Result<Vec<Submission>, PackageError> {
    if options.accepted.is_empty() {
        return Err(PackageError::NoAccepted);
    }
    let mut submissions: Vec<Submission> = Vec::new();
    let roles = [
        (Role::Accepted, &options.accepted),
        (Role::Wrong, &options.wrong),
        (Role::Slow, &options.slow),
    ];
    for (role, sources) in roles {
        for source in sources {
            let submission = compile(sandbox, source, role, scratch, interface)?;
            if submissions.iter().any(|s| s.file_name == submission.file_name) {
                return Err(PackageError::DuplicateName(submission.file_name));
            }
            progress(Step::Compiled(submission.file_name.clone(), role));
            submissions.push(submission);
        }
    }
    Ok(submissions)
}

/// Runs an accepted submission on `tests` under `limits` (see [`build`]): it must pass
/// each. Returns its slowest run and test, its [`SLOWEST_RERUN`] slowest tests each timed by
/// the quickest of `1 + RERUNS` runs: `tests + SLOWEST_RERUN · RERUNS` runs.
fn run_accepted<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    juries: Option<&Juries>,
    submission: &Submission,
    tests: &[&Test],
    limits: &ChildOptions,
    why: &str,
) -> Result<(Duration, String), PackageError> {
    let mut times = Vec::with_capacity(tests.len());
    for test in tests {
        times.push((accepted_cpu(sandbox, problem, juries, submission, test, limits, why)?, test));
    }
    // A busy machine inflates CPU time too (shared caches, a busy sibling thread), and the
    // time limit follows the slowest run: the slowest tests are run again and each keeps its
    // quickest time, the nearest to a quiet machine's.
    times.sort_by_key(|&(time, _)| std::cmp::Reverse(time));
    for (time, test) in times.iter_mut().take(SLOWEST_RERUN) {
        for _ in 0..RERUNS {
            let again = accepted_cpu(sandbox, problem, juries, submission, test, limits, why)?;
            *time = (*time).min(again);
        }
    }
    Ok(times.iter().map(|&(time, test)| (time, test.path())).max().unwrap_or_default())
}

/// How many of an accepted submission's slowest tests are run again, and how many times.
const SLOWEST_RERUN: usize = 3;
/// See [`SLOWEST_RERUN`].
const RERUNS: usize = 2;

/// An accepted submission's CPU time on one test, which it must pass under `limits` (the
/// original memory limit and `why`'s time limit).
fn accepted_cpu<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    juries: Option<&Juries>,
    submission: &Submission,
    test: &Test,
    limits: &ChildOptions,
    why: &str,
) -> Result<Duration, PackageError> {
    let trial = run_test(sandbox, problem, juries, submission, test, limits)?;
    if !trial.verdict.is_ok() {
        let memory = limits.memory_limit_kib.map_or(0, |kib| kib / 1024);
        return Err(PackageError::AcceptedFails {
            file: submission.file_name.clone(),
            test: test.path(),
            verdict: Box::new(trial.verdict),
            limits: format!(
                "{} and {memory} MB: the original memory limit and {why}",
                seconds(limits.time_limit)
            ),
        });
    }
    Ok(trial.run.cpu)
}

/// One submission on one test: its output judged against the test's answer, or (`juries`)
/// its play against the jury.
fn run_test<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    juries: Option<&Juries>,
    submission: &Submission,
    test: &Test,
    limits: &ChildOptions,
) -> Result<Trial, PackageError> {
    let program = &submission.program;
    let ran = match juries {
        None => judge_test(sandbox, problem, program, &test.input, Some(&test.answer), limits),
        Some(juries) => {
            let input = problem
                .parse(&test.input, Limits::Extended)
                .map_err(|e| PackageError::OurTest { test: test.path(), message: e.to_string() })?;
            let player = Player::new(program.clone(), juries.clone(), SEED);
            trial(sandbox, problem, &player, &input, limits)
        }
    };
    ran.map_err(|e| PackageError::of_run(e, submission.file_name.clone(), test.path()))
}

/// How a player fares on an interactive package's `tests` (in problemtools' order) under
/// `limits`: its first failure against the jury (the package is pass-fail), and its slowest
/// run.
fn grade_played<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    juries: &Juries,
    submission: &Submission,
    tests: &[&Test],
    limits: &ChildOptions,
) -> Result<Filing, PackageError> {
    let mut slowest = (Duration::ZERO, String::new());
    for test in tests {
        if let Some(signal) = sandbox.caught() {
            return Err(PackageError::Interrupted(signal));
        }
        let played = run_test(sandbox, problem, Some(juries), submission, test, limits)?;
        if played.run.cpu > slowest.0 {
            slowest = (played.run.cpu, test.path());
        }
        if played.verdict.kind == VerdictKind::Fail {
            let message = played.verdict.to_string();
            return Err(PackageError::OurTest { test: test.path(), message });
        }
        if !played.verdict.is_ok() {
            let grade = Grade::Failed(played.verdict, test.path());
            return Ok(Filing { grade, slowest, lenient: None });
        }
    }
    Ok(Filing { grade: Grade::Accepted, slowest, lenient: None })
}

/// A hunt for a test that kills `submission` under `run` (the safety margin's limit),
/// shrinking what it finds but a time limit; the test is added as `kills-STEM` (or found
/// among the tests already in). A shrunk input that does not fail every rerun alone gives
/// way to the input as found, which did. Returns the kill, if one was found, and the
/// search's runs.
fn find_kill<P: Packaged, C: Contestant>(
    sandbox: &Sandbox,
    problem: &P,
    submission: &Submission,
    contestant: &C,
    options: &PackageOptions,
    run: &ChildOptions,
    tests: &mut Tests<'_, P>,
) -> Result<(Option<Kill>, u64), PackageError> {
    let file = submission.file_name.clone();
    let hunt_options = HuntOptions {
        stress: StressOptions {
            seed: options.seed,
            time: Some(options.stress_time),
            jobs: options.jobs.max(1),
            limits: Limits::Original,
            run: run.clone(),
            schedule: options.levels.map(|most| {
                let mut schedule = contestant.schedule(problem, Limits::Original);
                schedule.levels = schedule.levels.min(most);
                schedule.extremes = 0;
                schedule
            }),
            ..StressOptions::default()
        },
        // One candidate at a time, so that where the run budget stops does not depend on the
        // number of jobs nor on the machine's speed.
        shrink: Some(ShrinkOptions {
            jobs: 1,
            limits: Limits::Original,
            run: run.clone(),
            time: None,
            runs: Some(options.shrink_runs),
        }),
        time_limit_margin: None,
        total: None,
    };
    let hunt =
        hunt(sandbox, problem, contestant, &hunt_options, None).map_err(|source| match source {
            StressError::Run { source, .. } if matches!(source, ChildError::Interrupted(_)) => {
                PackageError::of_run(source, file.clone(), "a shrink candidate".to_owned())
            }
            source => PackageError::Stress { file: file.clone(), source },
        })?;
    let failed = match hunt.finding {
        Finding::Failed(failed) => failed,
        Finding::Interrupted(signal) => return Err(PackageError::Interrupted(signal)),
        Finding::Passed(_) | Finding::Unconfirmed(_) => return Ok((None, hunt.runs)),
    };
    if let Some(signal) = sandbox.caught() {
        return Err(PackageError::Interrupted(signal));
    }
    let found = failed.found;
    let moves = |shrunk: &crate::hunt::Shrunk<P::Input>| shrunk.steps;
    let (input, kept) = match failed.shrink {
        ShrinkOutcome::Shrunk(shrunk) => {
            let kept = Kept::Shrunk { moves: moves(&shrunk), minimal: shrunk.minimal() };
            (shrunk.input, kept)
        }
        // The one place the package differs from the command line: a shrink that may have
        // followed chance gives way to the input as found, which failed every rerun.
        ShrinkOutcome::FollowedChance { shrunk, failed, runs } => {
            (found.input, Kept::FollowedChance { moves: moves(&shrunk), failed, runs })
        }
        ShrinkOutcome::KeptTimeLimit => (found.input, Kept::TimeLimit),
        ShrinkOutcome::NearTimeLimit { failed, runs } => {
            (found.input, Kept::NearTimeLimit { failed, runs })
        }
        ShrinkOutcome::Nondeterministic { failed, runs } => {
            (found.input, Kept::Nondeterministic { failed, runs })
        }
        ShrinkOutcome::Stopped => (found.input, Kept::NotConfirmed),
        ShrinkOutcome::NotAsked => unreachable!("a kill test's hunt always asks for a shrink"),
    };
    let name = format!("kills-{}", submission.stem);
    let test = tests.add_secret(name, &input, true)?.expect("a kill test is never left out");
    let size = tests.tests.iter().find(|t| t.path() == test).map(|t| t.size);
    let kill = Kill {
        file,
        test,
        runs: hunt.runs,
        found: found.trial.verdict,
        kept,
        size: size.expect("the kill test is among the tests"),
    };
    Ok((Some(kill), hunt.runs))
}

/// A submission graded on the package's tests, as it is filed: how it fared, its slowest run
/// and its test, and the first test whose output the original rule accepted only by
/// overlooking a flaw.
struct Filing {
    grade: Grade,
    slowest: (Duration, String),
    lenient: Option<String>,
}

/// How `submission` fares on `tests` (in problemtools' order) under `limits`, graded as the
/// package grades ([`hunt::grade`](crate::hunt::grade), judging what the grade needs):
/// pass-fail, its first failure; scoring, by [`Score::grade`] (every group all or nothing, a
/// test judged once whatever groups hold it, the samples not counted), accepted with a
/// partial score when some group passes, else the first failing group's failure. Also its
/// slowest run and the first lenient `ok`.
fn grade<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    submission: &Submission,
    tests: &[&Test],
    scoring: Option<&Scoring>,
    limits: &ChildOptions,
) -> Result<Filing, PackageError> {
    let groups: Option<Vec<GroupTests>> = scoring.map(|scoring| {
        (scoring.groups.iter().enumerate())
            .map(|(g, group)| {
                let folder = contents::group_folder(g);
                // A group's folder is run in the order of its file names.
                let mut held: Vec<(usize, String)> = (tests.iter().enumerate())
                    .filter(|(_, t)| t.groups.contains(&g))
                    .map(|(k, t)| (k, format!("{folder}/{}", t.name)))
                    .collect();
                held.sort_by(|a, b| a.1.cmp(&b.1));
                let name = folder.trim_start_matches("secret/").to_owned();
                GroupTests { name, points: group.points, tests: held }
            })
            .collect()
    });
    let grading = Grading { run: limits, groups: groups.as_deref(), coverage: Coverage::Needed };
    let graded =
        crate::hunt::grade(sandbox, problem, &submission.program, tests, &grading, |_, _| {})
            .map_err(|e| {
                PackageError::of_run(e.source, submission.file_name.clone(), tests[e.test].path())
            })?;
    if let Some(signal) = graded.interrupted {
        return Err(PackageError::Interrupted(signal));
    }
    // A `fail` verdict is our test's fault, not the submission's.
    let fail = (0..tests.len())
        .find_map(|k| Some((k, graded.verdict(k).filter(|v| v.kind == VerdictKind::Fail)?)));
    if let Some((k, verdict)) = fail {
        return Err(PackageError::OurTest { test: tests[k].path(), message: verdict.to_string() });
    }
    let grade = match &graded.score {
        None => graded.first_failure().map_or(Grade::Accepted, |(k, verdict)| {
            Grade::Failed(verdict.clone(), tests[k].path())
        }),
        Some(score) => match score.first_failure() {
            None => Grade::Accepted,
            Some(_) if score.total() > 0 => Grade::Partial(score.clone()),
            Some((verdict, test)) => Grade::Failed(verdict.clone(), test.clone()),
        },
    };
    let slowest = graded.slowest.map(|(cpu, k)| (cpu, tests[k].path())).unwrap_or_default();
    let lenient =
        (graded.lenient).and_then(|k| Some(format!("{}: {}", tests[k].path(), graded.verdict(k)?)));
    Ok(Filing { grade, slowest, lenient })
}
