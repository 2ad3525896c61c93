//! The [`Problem`] trait: everything the judge needs to know about one problem, and
//! [`check`], the `check` subcommand's logic on top of it.
//!
//! A problem has a typed input (a list of cases, a graph) with a renderer to the judge's
//! bytes and a parser back; limits (`original`: the contest's, `extended`: what our solvers
//! accept); generators driven by a seed and a size level; our exact answer; its judge's rule
//! for a contestant's output; and shrink moves. The judge supplies the rest: running the
//! user's program, the stress loop, the shrinking driver and the checker protocols.

use std::fmt;
use std::time::Duration;

use super::verdict::Verdict;
use engine::input::{InputError, Limits};
use engine::rng::SplitMix64;

/// The time and memory a run of the user's program gets by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// CPU time (user plus system); the wall-clock backstop follows from it.
    pub time: Duration,
    /// Peak resident memory, in MiB (as judges state it: `256 MB`).
    pub memory_mib: u64,
    /// Where the figures come from, for `--help` and reports: `the original judge's`.
    pub origin: &'static str,
}

/// Something a report shows beside the input and the answers: our proof, a picture. Printed
/// when short, else summarised and saved beside the failing input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exhibit {
    /// What it is, as a report's heading: `why our answer is right`.
    pub title: &'static str,
    /// The file name's ending when saved: `proof` gives `counterexample.proof`.
    pub extension: &'static str,
    /// The text.
    pub text: String,
}

/// Why a typed input breaks the limits: the rule and where, e.g. `case 3: damage 0 is
/// outside 1..=99`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

/// One problem as the judge sees it. Implemented once per problem crate; the judge's
/// [`check`], [`stress`](crate::stress()) and [`shrink`](crate::shrink()) are generic over
/// it.
///
/// Contracts (the judge relies on them; `testing::check_contracts` checks them):
/// - **Round trip**: for every input `x` that [`validate`](Self::validate) accepts under
///   `limits`, `parse(render(x), limits)` succeeds and gives back `x`; `parse` accepts
///   exactly the renderings of valid inputs (plus white-space variation the judge allows).
/// - **Determinism**: `generate`, `solve`, `judge` and `shrink` depend only on their
///   arguments (and the rng's state), so a seed reproduces a whole stress run.
/// - **Generated inputs are valid** under the limits asked for.
/// - **Shrink moves shrink**: every candidate of [`shrink`](Self::shrink) has a strictly
///   smaller [`size`](Self::size), so shrinking ends. Candidates may break the limits; the
///   driver drops those.
/// - **Extreme inputs are valid**: every [`extreme`](Self::extreme) input below
///   [`extremes`](Self::extremes) is valid under the limits asked for.
/// - **Exhaustive inputs are valid** (when the problem has an enumeration): every
///   [`exhaustive`](Self::exhaustive) input below [`exhaustive_len`](Self::exhaustive_len)
///   is valid under the limits asked for.
pub trait Problem: Sync {
    /// The typed input: what generators build, moves change and [`render`](Self::render)
    /// prints.
    type Input: Clone + fmt::Debug + Send + Sync + 'static;
    /// Our answer to a whole input (e.g. one verdict per case), or the jury's, read from an
    /// answer file.
    type Answer: Send + Sync;

    /// How many size levels [`generate`](Self::generate) distinguishes; the stress loop
    /// walks levels `0..LEVELS` from the smallest.
    const LEVELS: u32 = 8;

    /// The time and memory limits of a run when the user gives none: the original judge's
    /// where the problem's statement records them.
    const RUN_LIMITS: RunLimits;

    /// The problem's name in messages, e.g. `hero-battle`.
    fn name(&self) -> &'static str;

    /// Parses an input in the judge's format and checks it against `limits`.
    ///
    /// # Errors
    /// The first malformed token or broken rule, with its line and column and the rule's
    /// name (`expected T in 1..=40, found "41"`).
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Self::Input, InputError>;

    /// Checks a typed input (a generated one, a shrink candidate) against `limits`.
    ///
    /// # Errors
    /// The first rule broken, with its place.
    fn validate(&self, input: &Self::Input, limits: Limits) -> Result<(), Invalid>;

    /// Appends the input in the judge's format (the bytes the user's program reads).
    fn render(&self, input: &Self::Input, out: &mut Vec<u8>);

    /// How many test cases the input holds (1 for single-instance problems); reported as
    /// "cases tried".
    fn cases(&self, input: &Self::Input) -> usize;

    /// The input's size for shrinking (e.g. cases plus the sum of all numbers): every shrink
    /// candidate must be strictly smaller.
    fn size(&self, input: &Self::Input) -> u64;

    /// Generates an input valid under `limits`. `level` runs from 0 (the smallest values,
    /// many tiny cases) to `LEVELS - 1` (the largest the limits allow) and picks the size and
    /// families; `rng` gives everything else.
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Self::Input;

    /// How many inputs at the extremes of `limits` [`extreme`](Self::extreme) makes: the
    /// stress loop tries them right after its first tiny inputs, so that a program that fails
    /// only at the largest sizes (a table one too short, a recursion too deep, a quadratic
    /// loop) is found within the first runs.
    fn extremes(&self, limits: Limits) -> u32 {
        let _ = limits;
        0
    }

    /// Extreme input `k` (`k < extremes(limits)`): the largest counts, values at both ends of
    /// their ranges, full boards; `rng` fills in what the extreme leaves open.
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> Self::Input {
        let _ = (rng, limits);
        unreachable!("{} has no extreme input {k}", self.name())
    }

    /// Our exact answer.
    fn solve(&self, input: &Self::Input) -> Self::Answer;

    /// Appends an answer in the judge's output format.
    fn render_answer(&self, input: &Self::Input, answer: &Self::Answer, out: &mut Vec<u8>);

    /// Reads a jury's answer file for `input`.
    ///
    /// # Errors
    /// A malformed answer, said in one line with its place (the verdict becomes `fail`).
    fn parse_answer(&self, input: &Self::Input, bytes: &[u8]) -> Result<Self::Answer, String>;

    /// Judges a contestant's `output` for `input` against `answer` with the original judge's
    /// rule. Returns `Ok`, `WrongAnswer` or `PresentationError` (`Fail` only when the answer
    /// itself is inconsistent), with a message naming the case (and line) of the first
    /// difference.
    fn judge(&self, input: &Self::Input, answer: &Self::Answer, output: &[u8]) -> Verdict;

    /// Shrink candidates of `input`, in the order they are tried: big steps first (drop half
    /// the cases, halve a number), then the one-step moves that define minimality (drop one
    /// case, lower one number by one, ...). The shrinking driver accepts the first candidate
    /// that is valid and still fails the same way, so the result is 1-minimal under exactly
    /// these moves.
    fn shrink(&self, input: &Self::Input) -> impl Iterator<Item = Self::Input>;

    /// Proofs of our answer for a failure report (`--explain`'s text, strategies and a
    /// verifier's line, a picture), if the problem has them. Called once, on the shrunk
    /// input; a long one is saved rather than printed.
    fn explain(&self, input: &Self::Input) -> Vec<Exhibit> {
        let _ = input;
        Vec::new()
    }

    /// How many inputs the problem's exhaustive enumeration up to `bound` holds under
    /// `limits` (for `stress --exhaustive BOUND`). What `bound` bounds is the problem's to say
    /// (the largest value of a case, a board size); the enumeration lists every input up to
    /// it, smallest first, packed in files of the official size.
    ///
    /// # Errors
    /// The problem has no exhaustive enumeration (the default), or `bound` is out of its range.
    fn exhaustive_len(&self, bound: u64, limits: Limits) -> Result<u64, Invalid> {
        let _ = (bound, limits);
        Err(Invalid(format!("{} has no exhaustive enumeration", self.name())))
    }

    /// Input `index` of the exhaustive enumeration up to `bound`: `Some` for every index
    /// below [`exhaustive_len`](Self::exhaustive_len), `None` past the end. Random access,
    /// so that `-j` workers can take indices in any order and a failure can be replayed from
    /// its index alone. Every input must be valid under `limits`.
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<Self::Input> {
        let _ = (bound, index, limits);
        None
    }

    /// One line about a valid input for `validate`: by default its case count; a problem may
    /// add features (toy-train: the original subtasks it belongs to).
    fn summary(&self, input: &Self::Input) -> String {
        match self.cases(input) {
            1 => "1 case".to_owned(),
            n => format!("{n} cases"),
        }
    }
}

/// Renders an input to a fresh buffer.
pub fn render<P: Problem>(problem: &P, input: &P::Input) -> Vec<u8> {
    let mut out = Vec::new();
    problem.render(input, &mut out);
    out
}

/// The `check` subcommand's logic: judges `output` for `input` against `answer`, or against
/// our own answer when `answer` is `None`.
///
/// A malformed input or answer is `fail`. A given answer is also judged against our own with
/// the problem's rule when `verify_answer` is set, and a disagreement is `fail` too (the
/// jury's answer is wrong), so a setter's answer files are checked as a side effect.
///
/// With `strict`, an `ok` that the problem's rule gives only by overlooking a flaw of the
/// output ([`Verdict::lenient`], e.g. text after the last answer) is a presentation error
/// saying what; every other verdict is the rule's.
pub fn check<P: Problem>(
    problem: &P,
    input: &[u8],
    output: &[u8],
    answer: Option<&[u8]>,
    limits: Limits,
    verify_answer: bool,
    strict: bool,
) -> Verdict {
    let input = match problem.parse(input, limits) {
        Ok(input) => input,
        Err(e) => return Verdict::fail(format!("input: {e}")),
    };
    let answer = match answer {
        None => problem.solve(&input),
        Some(bytes) => {
            let jury = match problem.parse_answer(&input, bytes) {
                Ok(jury) => jury,
                Err(e) => return Verdict::fail(format!("answer: {e}")),
            };
            if verify_answer {
                let ours = problem.solve(&input);
                let verdict = problem.judge(&input, &ours, bytes);
                if !verdict.is_ok() {
                    return Verdict::fail(format!(
                        "the answer file disagrees with ours: {}",
                        verdict.message
                    ));
                }
            }
            jury
        }
    };
    let verdict = problem.judge(&input, &answer, output);
    if strict { verdict.strict() } else { verdict }
}
