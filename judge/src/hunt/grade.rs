//! Grading a program on a set of tests, as `PROBLEM run` grades it (which prints it) and as
//! `package` grades a submission (which files it by it): [`grade`] judges the tests (every
//! one, or only those the grade needs: [`Coverage`]), tracks the slowest run, and grades by
//! the groups' rule, [`Score::grade`]; and a package's groups read back from its files
//! ([`groups_on_disk`]) for `run`.
//!
//! The rule is how a scoring package grades a submission, as IOI graded its subtasks and as
//! problemtools grades the package's groups (`grader_flags: min`, `accept_score`,
//! `on_reject: break`): a group scores its points when every test in it passes and nothing
//! otherwise, and the score is the sum over the groups. A test sits in every group whose
//! constraints it meets, so one failure costs every group that holds it.

#![cfg_attr(
    not(feature = "cli"),
    expect(
        dead_code,
        reason = "`PROBLEM run` (feature `cli`) alone grades on every test, on disk"
    )
)]

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::testset::{TestFile, judge_test};
use crate::rules::{Problem, Verdict, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Program, Sandbox};

/// One group's tests, for [`Score::grade`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GroupTests {
    /// Its name: `group2`.
    pub(crate) name: String,
    /// The points it gives when every test in it passes.
    pub(crate) points: u32,
    /// Its tests in the order the group runs them: an index into the caller's tests, and the
    /// test's path in the group (`secret/group2/kills-greedy`).
    pub(crate) tests: Vec<(usize, String)>,
}

/// One group's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupScore {
    /// Its name: `group2`.
    pub name: String,
    /// The points it gives when every test in it passes.
    pub points: u32,
    /// Its first failing test (in its order) and the verdict there; `None` when every test
    /// passed.
    pub failure: Option<(Verdict, String)>,
}

impl GroupScore {
    /// The points it scored: all or nothing.
    #[must_use]
    pub fn scored(&self) -> u32 {
        if self.failure.is_none() { self.points } else { 0 }
    }
}

/// A submission's score on a scoring package: each group's result, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The groups, in order.
    pub groups: Vec<GroupScore>,
}

impl Score {
    /// Grades `groups` in order: each group's tests in its order, stopping at its first
    /// failure (`on_reject: break`). `failure(test)` judges test `test` (an index of
    /// [`GroupTests::tests`]) and gives its verdict when it fails; it is called once per
    /// test at most, as a test held by several groups is judged once, as IOI judged it. `O(the
    /// groups' tests)` plus the judging.
    ///
    /// # Errors
    /// The first error of `failure`.
    pub(crate) fn grade<E>(
        groups: &[GroupTests],
        mut failure: impl FnMut(usize) -> Result<Option<Verdict>, E>,
    ) -> Result<Self, E> {
        let mut judged: Vec<(usize, Option<Verdict>)> = Vec::new();
        let mut scores = Vec::with_capacity(groups.len());
        for group in groups {
            let mut first = None;
            for (test, path) in &group.tests {
                let verdict = match judged.iter().find(|(t, _)| t == test) {
                    Some((_, verdict)) => verdict.clone(),
                    None => {
                        let verdict = failure(*test)?;
                        judged.push((*test, verdict.clone()));
                        verdict
                    }
                };
                if let Some(verdict) = verdict {
                    first = Some((verdict, path.clone()));
                    break;
                }
            }
            scores.push(GroupScore {
                name: group.name.clone(),
                points: group.points,
                failure: first,
            });
        }
        Ok(Self { groups: scores })
    }

    /// The points scored.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.groups.iter().map(GroupScore::scored).sum()
    }

    /// The points of every group.
    #[must_use]
    pub(crate) fn out_of(&self) -> u32 {
        self.groups.iter().map(|g| g.points).sum()
    }

    /// The first failure of the first group that failed: what problemtools reports
    /// (`first_error`) when no group passed.
    #[must_use]
    pub(crate) fn first_failure(&self) -> Option<&(Verdict, String)> {
        self.groups.iter().find_map(|g| g.failure.as_ref())
    }
}

impl fmt::Display for Score {
    /// `score 39 of 100: group1 5/5, group2 0/10, ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "score {} of {}", self.total(), self.out_of())?;
        for (k, group) in self.groups.iter().enumerate() {
            let comma = if k == 0 { ":" } else { "," };
            write!(f, "{comma} {} {}/{}", group.name, group.scored(), group.points)?;
        }
        Ok(())
    }
}

/// A test [`grade`] judges: its files, read when it is judged.
pub(crate) trait GradedTest {
    /// Its input and its answer.
    ///
    /// # Errors
    /// A file cannot be read: what went wrong.
    fn files(&self) -> Result<Files<'_>, String>;

    /// Its files as the system names them: tests of the same files (a package's link from
    /// one group to another) are judged once. `None` when no other test holds its files.
    fn same_files(&self) -> Option<(PathBuf, Option<PathBuf>)> {
        None
    }
}

/// A test's files, read or borrowed.
pub(crate) struct Files<'a> {
    /// The input.
    pub(crate) input: Cow<'a, [u8]>,
    /// The answer; `None`: our own answer is the answer.
    pub(crate) answer: Option<Cow<'a, [u8]>>,
}

impl<T: GradedTest + ?Sized> GradedTest for &T {
    fn files(&self) -> Result<Files<'_>, String> {
        (**self).files()
    }

    fn same_files(&self) -> Option<(PathBuf, Option<PathBuf>)> {
        (**self).same_files()
    }
}

/// How much of a test set [`grade`] judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coverage {
    /// Every test in order, whatever fails (`PROBLEM run`, which shows each).
    Every,
    /// What the grade needs (a package's filing): a pass-fail set up to its first failure, a
    /// scoring one group by group up to each group's first failure; a `fail` verdict (our
    /// test is wrong) stops it.
    Needed,
}

/// What [`grade`] judges, and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grading<'a> {
    /// Each run's limits.
    pub(crate) run: &'a ChildOptions,
    /// The groups of a scoring test set; `None` for a pass-fail one.
    pub(crate) groups: Option<&'a [GroupTests]>,
    /// How much is judged.
    pub(crate) coverage: Coverage,
}

/// What became of one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Not judged: the grade did not need it, or a signal stopped the grading first.
    NotJudged,
    /// Its files cannot be read: what went wrong.
    Unreadable(String),
    /// Judged: the verdict, and the run's CPU time and peak memory in KiB.
    Judged {
        /// The verdict.
        verdict: Verdict,
        /// The run's CPU time.
        cpu: Duration,
        /// The run's peak memory in KiB.
        memory_kib: u64,
    },
    /// The same files as this earlier test's, judged there.
    Same(usize),
}

/// A program graded on a set of tests.
#[derive(Clone, Debug)]
pub(crate) struct Graded {
    /// Each test's outcome, in the set's order.
    pub(crate) outcomes: Vec<Outcome>,
    /// The score, for a scoring set whose grade was reached: every group judged up to its
    /// first failure ([`Coverage::Needed`]), or every test judged ([`Coverage::Every`]).
    pub(crate) score: Option<Score>,
    /// The slowest run in the order judged (the first of equals) and its test.
    pub(crate) slowest: Option<(Duration, usize)>,
    /// The run of the highest peak memory (the first of equals), in KiB, and its test.
    pub(crate) peak: Option<(u64, usize)>,
    /// The first test judged whose output the problem's rule accepted only by overlooking a
    /// flaw (`Verdict::lenient`).
    pub(crate) lenient: Option<usize>,
    /// Tests read without an answer of their own, judged against ours.
    pub(crate) ours: usize,
    /// The signal that stopped the grading, if one did.
    pub(crate) interrupted: Option<i32>,
}

impl Graded {
    /// Test `test`'s verdict, wherever its files were judged; `None` when they were not.
    #[must_use]
    pub(crate) fn verdict(&self, test: usize) -> Option<&Verdict> {
        match &self.outcomes[test] {
            Outcome::Judged { verdict, .. } => Some(verdict),
            Outcome::Same(earlier) => self.verdict(*earlier),
            Outcome::NotJudged | Outcome::Unreadable(_) => None,
        }
    }

    /// The first test in the set's order that was judged and failed, and its verdict.
    #[must_use]
    pub(crate) fn first_failure(&self) -> Option<(usize, &Verdict)> {
        (0..self.outcomes.len())
            .find_map(|k| self.verdict(k).filter(|v| !v.is_ok()).map(|verdict| (k, verdict)))
    }
}

/// A run that could not be carried out, and its test.
#[derive(Debug)]
pub(crate) struct GradeError {
    /// The test, an index into the set.
    pub(crate) test: usize,
    /// What went wrong.
    pub(crate) source: ChildError,
}

/// Grades `program` on `tests` as `grading` asks (see [`Coverage`]): each test judged from
/// its files ([`judge_test`]), `progress` told of each test judged or unreadable as it comes,
/// the slowest run tracked, and for a scoring set the groups graded by [`Score::grade`]. A
/// signal stops it ([`Graded::interrupted`]), with what was judged so far.
///
/// Time: one run of the program and one judging pass for each test judged.
///
/// # Errors
/// A run that could not be carried out, but for a signal.
pub(crate) fn grade<P: Problem, T: GradedTest>(
    sandbox: &Sandbox,
    problem: &P,
    program: &Program,
    tests: &[T],
    grading: &Grading<'_>,
    progress: impl FnMut(usize, &Outcome),
) -> Result<Graded, GradeError> {
    let mut grader = Grader {
        sandbox,
        problem,
        program,
        tests,
        grading,
        progress,
        seen: Vec::new(),
        graded: Graded {
            outcomes: vec![Outcome::NotJudged; tests.len()],
            score: None,
            slowest: None,
            peak: None,
            lenient: None,
            ours: 0,
            interrupted: None,
        },
    };
    let stopped = match (grading.coverage, grading.groups) {
        (Coverage::Every, groups) => grader.every(groups),
        (Coverage::Needed, None) => grader.until_failure(),
        (Coverage::Needed, Some(groups)) => {
            Score::grade(groups, |k| grader.failure(k)).map(|score| {
                grader.graded.score = Some(score);
            })
        }
    };
    match stopped {
        Ok(()) | Err(Stop::Fail) => {}
        Err(Stop::Interrupted(signal)) => grader.graded.interrupted = Some(signal),
        Err(Stop::Run(test, source)) => return Err(GradeError { test, source }),
    }
    Ok(grader.graded)
}

/// Why [`grade`] stopped before the end.
enum Stop {
    /// A `fail` verdict, under [`Coverage::Needed`].
    Fail,
    /// A signal.
    Interrupted(i32),
    /// A run of this test could not be carried out.
    Run(usize, ChildError),
}

/// [`grade`]'s state.
struct Grader<'a, P, T, F> {
    sandbox: &'a Sandbox,
    problem: &'a P,
    program: &'a Program,
    tests: &'a [T],
    grading: &'a Grading<'a>,
    progress: F,
    /// The files judged so far, and the test that judged them.
    seen: Vec<((PathBuf, Option<PathBuf>), usize)>,
    graded: Graded,
}

impl<P: Problem, T: GradedTest, F: FnMut(usize, &Outcome)> Grader<'_, P, T, F> {
    /// Every test in order; then the score, when every test has a verdict.
    fn every(&mut self, groups: Option<&[GroupTests]>) -> Result<(), Stop> {
        for k in 0..self.tests.len() {
            self.judge(k)?;
        }
        let graded = &self.graded;
        if let Some(groups) = groups
            && (0..graded.outcomes.len()).all(|k| graded.verdict(k).is_some())
        {
            // Every test was judged: the grading only looks the verdicts up.
            let failure = |k| Ok::<_, ()>(graded.verdict(k).filter(|v| !v.is_ok()).cloned());
            let score = Score::grade(groups, failure).expect("looking verdicts up cannot fail");
            self.graded.score = Some(score);
        }
        Ok(())
    }

    /// The tests in order up to the first that fails.
    fn until_failure(&mut self) -> Result<(), Stop> {
        for k in 0..self.tests.len() {
            if self.failure(k)?.is_some() {
                break;
            }
        }
        Ok(())
    }

    /// Judges test `k` and gives its verdict when it failed.
    fn failure(&mut self, k: usize) -> Result<Option<Verdict>, Stop> {
        self.judge(k)?;
        Ok(self.graded.verdict(k).filter(|v| !v.is_ok()).cloned())
    }

    /// Judges test `k`, unless its files were judged already; an unreadable test is its
    /// outcome, not an error.
    fn judge(&mut self, k: usize) -> Result<(), Stop> {
        let test = &self.tests[k];
        let same_files = test.same_files();
        let earlier = same_files
            .as_ref()
            .and_then(|files| self.seen.iter().find(|(f, _)| f == files))
            .map(|&(_, earlier)| earlier);
        if let Some(earlier) = earlier {
            self.graded.outcomes[k] = Outcome::Same(earlier);
            return Ok(());
        }
        let Files { input, answer } = match test.files() {
            Ok(files) => files,
            Err(e) => {
                self.graded.outcomes[k] = Outcome::Unreadable(e);
                (self.progress)(k, &self.graded.outcomes[k]);
                return Ok(());
            }
        };
        self.graded.ours += usize::from(answer.is_none());
        let options = self.grading.run;
        let trial = match judge_test(
            self.sandbox,
            self.problem,
            self.program,
            &input,
            answer.as_deref(),
            options,
        ) {
            Ok(trial) => trial,
            Err(ChildError::Interrupted(signal)) => return Err(Stop::Interrupted(signal)),
            Err(e) => return Err(Stop::Run(k, e)),
        };
        if let Some(files) = same_files {
            self.seen.push((files, k));
        }
        let (verdict, cpu, memory_kib) = (trial.verdict, trial.run.cpu, trial.run.memory.kib());
        let graded = &mut self.graded;
        if graded.slowest.is_none_or(|(time, _)| cpu > time) {
            graded.slowest = Some((cpu, k));
        }
        if graded.peak.is_none_or(|(most, _)| memory_kib > most) {
            graded.peak = Some((memory_kib, k));
        }
        if graded.lenient.is_none() && verdict.is_ok() && verdict.lenient.is_some() {
            graded.lenient = Some(k);
        }
        let fail = verdict.kind == VerdictKind::Fail;
        graded.outcomes[k] = Outcome::Judged { verdict, cpu, memory_kib };
        (self.progress)(k, &graded.outcomes[k]);
        if fail && self.grading.coverage == Coverage::Needed {
            return Err(Stop::Fail);
        }
        Ok(())
    }
}

/// A test on disk is read when it is judged; a link to another test's files (a package's
/// link from one group to another), or a copy by another name, is the same files.
impl GradedTest for TestFile {
    fn files(&self) -> Result<Files<'_>, String> {
        let read = |path: &Path| {
            std::fs::read(path)
                .map(Cow::Owned)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        let answer = self.answer.as_deref().map(read).transpose();
        Ok(Files { input: read(&self.input)?, answer: answer? })
    }

    fn same_files(&self) -> Option<(PathBuf, Option<PathBuf>)> {
        Some((canonical(&self.input), self.answer.as_deref().map(canonical)))
    }
}

/// A file's path with every link resolved (itself when it cannot be resolved), so that a
/// link and its target are the same file.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

/// The groups of a scoring package as its files say, for `tests` found below `data` (a
/// package's `data/`, [`find_tests`](super::find_tests)'s names): each folder whose
/// `testdata.yaml` gives an `accept_score` (`secret/group2`) is a group of that many
/// points, holding the tests below it in their order. Empty for a pass-fail package or a
/// folder of tests that is no package. `O(tests · folders)`.
#[must_use]
pub(crate) fn groups_on_disk(data: &Path, tests: &[TestFile]) -> Vec<GroupTests> {
    let mut groups: Vec<GroupTests> = Vec::new();
    for (index, test) in tests.iter().enumerate() {
        // The innermost folder above the test that is a group.
        let parts: Vec<&str> = test.name.split('/').collect();
        let group = (1..parts.len()).rev().find_map(|depth| {
            let folder = parts[..depth].join("/");
            accept_score(&data.join(&folder).join("testdata.yaml")).map(|points| (folder, points))
        });
        let Some((folder, points)) = group else { continue };
        let name = folder.rsplit('/').next().unwrap_or(&folder).to_owned();
        match groups.iter_mut().find(|g| g.name == name) {
            Some(group) => group.tests.push((index, test.name.clone())),
            None => {
                groups.push(GroupTests { name, points, tests: vec![(index, test.name.clone())] });
            }
        }
    }
    groups
}

/// The `accept_score` of a `testdata.yaml`, if the file gives one (a line
/// `accept_score: N`, as the packages we write hold it).
fn accept_score(path: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| line.strip_prefix("accept_score:")?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_costs_every_group_that_holds_the_test() {
        // Test 0 is in groups a and c, test 1 in b and c; test 0 fails.
        let group = |name: &str, points, tests: &[usize]| GroupTests {
            name: name.to_owned(),
            points,
            tests: tests.iter().map(|&t| (t, format!("{name}/t{t}"))).collect(),
        };
        let groups = [group("a", 10, &[0]), group("b", 30, &[1]), group("c", 60, &[0, 1])];
        let mut judged = Vec::new();
        let score = Score::grade(&groups, |test| {
            judged.push(test);
            Ok::<_, ()>((test == 0).then(|| Verdict::wrong_answer("no")))
        })
        .expect("no error");
        assert_eq!(judged, [0, 1], "each test is judged once");
        assert_eq!(score.total(), 30);
        assert_eq!(score.out_of(), 100);
        assert_eq!(score.to_string(), "score 30 of 100: a 0/10, b 30/30, c 0/60");
        assert_eq!(score.first_failure().map(|(_, test)| test.as_str()), Some("a/t0"));
    }
}
