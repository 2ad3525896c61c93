//! [`Lenient`]: a problem whose judge accepts everything after doing its work, for measuring
//! what the stress loop itself costs (`stress --accept-everything`, hidden;
//! `cargo xtask bench judge`).

use engine::input::InputError;
use engine::rng::SplitMix64;

use super::problem::{Exhibit, Invalid, Problem, RunLimits};
use super::verdict::Verdict;
use engine::input::Limits;

/// `P` with a judge that does all of the real judge's work (our answer, the rule) and then
/// accepts: `stress --accept-everything` then measures the loop's own cost with a program
/// that answers anything. Every other method is `P`'s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lenient<'a, P>(pub(crate) &'a P);

impl<P: Problem> Problem for Lenient<'_, P> {
    type Input = P::Input;
    type Answer = P::Answer;
    const LEVELS: u32 = P::LEVELS;
    const RUN_LIMITS: RunLimits = P::RUN_LIMITS;

    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<P::Input, InputError> {
        self.0.parse(bytes, limits)
    }
    fn validate(&self, input: &P::Input, limits: Limits) -> Result<(), Invalid> {
        self.0.validate(input, limits)
    }
    fn render(&self, input: &P::Input, out: &mut Vec<u8>) {
        self.0.render(input, out);
    }
    fn cases(&self, input: &P::Input) -> usize {
        self.0.cases(input)
    }
    fn size(&self, input: &P::Input) -> u64 {
        self.0.size(input)
    }
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> P::Input {
        self.0.generate(rng, level, limits)
    }
    fn extremes(&self, limits: Limits) -> u32 {
        self.0.extremes(limits)
    }
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> P::Input {
        self.0.extreme(k, rng, limits)
    }
    fn solve(&self, input: &P::Input) -> P::Answer {
        self.0.solve(input)
    }
    fn render_answer(&self, input: &P::Input, answer: &P::Answer, out: &mut Vec<u8>) {
        self.0.render_answer(input, answer, out);
    }
    fn parse_answer(&self, input: &P::Input, bytes: &[u8]) -> Result<P::Answer, String> {
        self.0.parse_answer(input, bytes)
    }
    fn judge(&self, input: &P::Input, answer: &P::Answer, output: &[u8]) -> Verdict {
        let verdict = self.0.judge(input, answer, output);
        Verdict::ok(format!("accepted whatever the judge said ({})", verdict.kind))
    }
    fn shrink(&self, input: &P::Input) -> impl Iterator<Item = P::Input> {
        self.0.shrink(input)
    }
    fn explain(&self, input: &P::Input) -> Vec<Exhibit> {
        self.0.explain(input)
    }
    fn exhaustive_len(&self, bound: u64, limits: Limits) -> Result<u64, Invalid> {
        self.0.exhaustive_len(bound, limits)
    }
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<P::Input> {
        self.0.exhaustive(bound, index, limits)
    }
    fn summary(&self, input: &P::Input) -> String {
        self.0.summary(input)
    }
}
