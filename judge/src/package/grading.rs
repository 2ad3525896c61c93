//! How a scoring package grades a submission, as IOI graded its subtasks and as problemtools
//! grades the package's groups (`grader_flags: min`, `accept_score`, `on_reject: break`): a
//! group scores its points when every test in it passes and nothing otherwise, and the score
//! is the sum over the groups. A test sits in every group whose constraints it meets, so one
//! failure costs every group that holds it. [`Score::grade`] is that rule, shared by
//! `package` (which files a submission by it) and `PROBLEM run` (which prints it);
//! [`groups_on_disk`] reads a package's groups back from its files for `run`.

use std::fmt;
use std::path::Path;

use crate::hunt::TestFile;
use crate::rules::Verdict;

/// One group's tests, for [`Score::grade`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTests {
    /// Its name: `group2`.
    pub name: String,
    /// The points it gives when every test in it passes.
    pub points: u32,
    /// Its tests in the order the group runs them: an index into the caller's tests, and the
    /// test's path in the group (`secret/group2/kills-greedy`).
    pub tests: Vec<(usize, String)>,
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
    pub fn grade<E>(
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
    pub fn out_of(&self) -> u32 {
        self.groups.iter().map(|g| g.points).sum()
    }

    /// The first failure of the first group that failed: what problemtools reports
    /// (`first_error`) when no group passed.
    #[must_use]
    pub fn first_failure(&self) -> Option<&(Verdict, String)> {
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

/// The groups of a scoring package as its files say, for `tests` found below `data` (a
/// package's `data/`, [`find_tests`](crate::hunt::find_tests)'s names): each folder whose
/// `testdata.yaml` gives an `accept_score` (`secret/group2`) is a group of that many
/// points, holding the tests below it in their order. Empty for a pass-fail package or a
/// folder of tests that is no package. `O(tests · folders)`.
#[must_use]
pub fn groups_on_disk(data: &Path, tests: &[TestFile]) -> Vec<GroupTests> {
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
