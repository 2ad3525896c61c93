//! [`InGroup`]: a scoring problem held to one of its groups (an IOI subtask), for a
//! contestant whose partial solution aims at one subtask: `stress --subtask K`, `shrink
//! --subtask K` and `generate --subtask K` run on it. Its inputs are the group's
//! ([`Packaged::group_input`]) under the original limits, and an input outside the group is
//! invalid, so that shrinking never leaves the subtask.

use engine::input::InputError;
use engine::rng::SplitMix64;

use super::{Group, Packaged};
use crate::rules::{Exhibit, Invalid, Limits, Problem, RunLimits, Verdict};

/// `P` held to group `group` (an index into its [`Scoring::groups`](super::Scoring)): every
/// generated input is in the group, and an input outside it is invalid. Every other method
/// is `P`'s.
#[derive(Clone, Copy, Debug)]
pub struct InGroup<'a, P> {
    problem: &'a P,
    group: usize,
    about: Group,
}

/// Why a problem cannot be held to a group.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupError {
    /// The problem has no groups.
    #[error("{0} has no subtasks: its package is pass-fail")]
    NotScoring(&'static str),
    /// No such group.
    #[error("{problem} has no subtask {subtask}: its subtasks are 1 to {groups}")]
    NoSuchGroup {
        /// The problem's name.
        problem: &'static str,
        /// The subtask asked for, 1-based.
        subtask: usize,
        /// How many it has.
        groups: usize,
    },
}

impl<'a, P: Packaged> InGroup<'a, P> {
    /// `problem` held to its subtask `subtask` (1-based, as IOI numbers them).
    ///
    /// # Errors
    /// The problem has no groups, or not that many.
    pub fn new(problem: &'a P, subtask: usize) -> Result<Self, GroupError> {
        let scoring = problem.scoring().ok_or(GroupError::NotScoring(problem.name()))?;
        let groups = scoring.groups.len();
        let about = (subtask.checked_sub(1).and_then(|k| scoring.groups.get(k)).copied())
            .ok_or(GroupError::NoSuchGroup { problem: problem.name(), subtask, groups })?;
        Ok(Self { problem, group: subtask - 1, about })
    }

    /// `subtask 3 (Arezou owns every station)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("subtask {} ({})", self.group + 1, self.about.about)
    }

    /// Whether `input` is in the group.
    fn holds(&self, input: &P::Input) -> bool {
        self.problem.groups_of(input).contains(&self.group)
    }
}

impl<P: Packaged> Problem for InGroup<'_, P> {
    type Input = P::Input;
    type Answer = P::Answer;
    const LEVELS: u32 = P::LEVELS;
    const RUN_LIMITS: RunLimits = P::RUN_LIMITS;

    fn name(&self) -> &'static str {
        self.problem.name()
    }
    /// `P`'s parse, and an input outside the group is an error (at line 1, column 1: the
    /// group's constraint is the whole input's).
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<P::Input, InputError> {
        let input = self.problem.parse(bytes, limits)?;
        if !self.holds(&input) {
            let message = format!("the input is not in {}", self.describe());
            return Err(InputError { line: 1, column: 1, message });
        }
        Ok(input)
    }
    fn validate(&self, input: &P::Input, limits: Limits) -> Result<(), Invalid> {
        self.problem.validate(input, limits)?;
        if self.holds(input) { Ok(()) } else { Err(Invalid(format!("not in {}", self.describe()))) }
    }
    fn render(&self, input: &P::Input, out: &mut Vec<u8>) {
        self.problem.render(input, out);
    }
    fn cases(&self, input: &P::Input) -> usize {
        self.problem.cases(input)
    }
    fn size(&self, input: &P::Input) -> u64 {
        self.problem.size(input)
    }
    /// The group's input at `level` ([`Packaged::group_input`]), valid under the original
    /// limits (and so under the extended ones).
    fn generate(&self, rng: &mut SplitMix64, level: u32, _limits: Limits) -> P::Input {
        self.problem.group_input(self.group, level, rng)
    }
    /// None: the problem's extremes need not be in the group; its largest level reaches
    /// the limits.
    fn extremes(&self, _limits: Limits) -> u32 {
        0
    }
    fn solve(&self, input: &P::Input) -> P::Answer {
        self.problem.solve(input)
    }
    fn render_answer(&self, input: &P::Input, answer: &P::Answer, out: &mut Vec<u8>) {
        self.problem.render_answer(input, answer, out);
    }
    fn parse_answer(&self, input: &P::Input, bytes: &[u8]) -> Result<P::Answer, String> {
        self.problem.parse_answer(input, bytes)
    }
    fn judge(&self, input: &P::Input, answer: &P::Answer, output: &[u8]) -> Verdict {
        self.problem.judge(input, answer, output)
    }
    fn shrink(&self, input: &P::Input) -> impl Iterator<Item = P::Input> {
        self.problem.shrink(input)
    }
    fn explain(&self, input: &P::Input) -> Vec<Exhibit> {
        self.problem.explain(input)
    }
    fn summary(&self, input: &P::Input) -> String {
        self.problem.summary(input)
    }
}
