//! A toy problem for the judge's tests and measurements: "sum of two numbers per case".
//!
//! Input: `T`, then `T` lines `a b`. Original limits: `1 <= T <= 10`, `1 <= a, b <= 9`, no
//! two cases equal (a rule that some shrink moves break, so the driver's validity filter is
//! exercised). Extended: `T <= 1000`, values up to 1000, duplicates allowed. Output: one line
//! per case, `a + b`, compared line by line exactly; a line that is not digits is a
//! presentation error. The exhaustive enumeration up to a bound holds every pair with both
//! values at most the bound, by largest value then lexicographically, in files of the largest
//! `T`. Its package ([`Packaged`]) has a C++ validator of its own (`toy_validator.cpp`)
//! and Kattis's default output validator.

use crate::compare::{Unit, compare};
use crate::moves;
use crate::package::{About, OutputValidator, Packaged, Sample};
use crate::{Invalid, Limits, Problem, RunLimits, Verdict};
use engine::input::{Input, InputError};
use engine::rng::SplitMix64;

/// The toy problem.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sum;

/// `(max T, max value)` under `limits`.
pub fn bounds(limits: Limits) -> (usize, u32) {
    match limits {
        Limits::Original => (10, 9),
        Limits::Extended => (1000, 1000),
    }
}

impl Problem for Sum {
    type Input = Vec<(u32, u32)>;
    type Answer = Vec<u64>;
    const LEVELS: u32 = 4;
    const RUN_LIMITS: RunLimits =
        RunLimits { time: std::time::Duration::from_secs(5), memory_mib: 256, origin: "the toy's" };

    fn name(&self) -> &'static str {
        "sum"
    }

    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Self::Input, InputError> {
        let (max_t, max_v) = bounds(limits);
        let mut input = Input::new(bytes);
        let t = input.uint("T", 1..=max_t as u64)?;
        let mut cases = Vec::new();
        for _ in 0..t {
            let start = input.offset();
            let start =
                start + bytes[start..].iter().take_while(|b| b.is_ascii_whitespace()).count();
            let a = input.uint("a", 1..=u64::from(max_v))? as u32;
            let b = input.uint("b", 1..=u64::from(max_v))? as u32;
            if limits == Limits::Original && cases.contains(&(a, b)) {
                return Err(input.error_at(start, format!("case {a} {b} appears twice")));
            }
            cases.push((a, b));
        }
        input.finish("the last case")?;
        Ok(cases)
    }

    fn validate(&self, input: &Self::Input, limits: Limits) -> Result<(), Invalid> {
        let (max_t, max_v) = bounds(limits);
        if input.is_empty() || input.len() > max_t {
            return Err(Invalid(format!("T = {} is outside 1..={max_t}", input.len())));
        }
        for (i, &(a, b)) in input.iter().enumerate() {
            if !(1..=max_v).contains(&a) || !(1..=max_v).contains(&b) {
                return Err(Invalid(format!("case {}: values outside 1..={max_v}", i + 1)));
            }
            if limits == Limits::Original && input[..i].contains(&(a, b)) {
                return Err(Invalid(format!("case {}: {a} {b} appears twice", i + 1)));
            }
        }
        Ok(())
    }

    fn render(&self, input: &Self::Input, out: &mut Vec<u8>) {
        out.extend_from_slice(format!("{}\n", input.len()).as_bytes());
        for (a, b) in input {
            out.extend_from_slice(format!("{a} {b}\n").as_bytes());
        }
    }

    fn cases(&self, input: &Self::Input) -> usize {
        input.len()
    }

    fn size(&self, input: &Self::Input) -> u64 {
        input.iter().map(|&(a, b)| 1 + u64::from(a) + u64::from(b)).sum()
    }

    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Self::Input {
        let (max_t, max_v) = bounds(limits);
        // Level 0: values up to 3; each level widens the range until the limit.
        let top = u64::from(max_v).min(3 << (2 * level));
        let want = 1 + rng.below(max_t);
        let mut cases: Vec<(u32, u32)> = Vec::new();
        for _ in 0..want * 4 {
            if cases.len() == want {
                break;
            }
            let case = (rng.range(1, top) as u32, rng.range(1, top) as u32);
            if limits == Limits::Extended || !cases.contains(&case) {
                cases.push(case);
            }
        }
        cases
    }

    /// One extreme: the most cases, with values at both ends (no two equal under the
    /// original limits).
    fn extremes(&self, _limits: Limits) -> u32 {
        1
    }

    fn extreme(&self, _k: u32, _rng: &mut SplitMix64, limits: Limits) -> Self::Input {
        let (max_t, max_v) = bounds(limits);
        let ends = [1, 2, max_v - 1, max_v];
        let pairs: Vec<(u32, u32)> =
            ends.iter().flat_map(|&a| ends.iter().map(move |&b| (a, b))).rev().collect();
        // Under the original limits the sixteen pairs cover the ten cases, all distinct.
        pairs.into_iter().cycle().take(max_t).collect()
    }

    fn solve(&self, input: &Self::Input) -> Self::Answer {
        input.iter().map(|&(a, b)| u64::from(a) + u64::from(b)).collect()
    }

    fn render_answer(&self, _input: &Self::Input, answer: &Self::Answer, out: &mut Vec<u8>) {
        for sum in answer {
            out.extend_from_slice(format!("{sum}\n").as_bytes());
        }
    }

    fn parse_answer(&self, input: &Self::Input, bytes: &[u8]) -> Result<Self::Answer, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())?;
        let sums: Vec<u64> = text
            .lines()
            .enumerate()
            .map(|(i, l)| l.parse().map_err(|_| format!("line {}: {l:?} is not a sum", i + 1)))
            .collect::<Result<_, _>>()?;
        if sums.len() != input.len() {
            return Err(format!("{} sums for {} cases", sums.len(), input.len()));
        }
        Ok(sums)
    }

    fn judge(&self, _input: &Self::Input, answer: &Self::Answer, output: &[u8]) -> Verdict {
        let expected: Vec<String> = answer.iter().map(u64::to_string).collect();
        let digits = |t: &[u8]| !t.is_empty() && t.iter().all(u8::is_ascii_digit);
        let verdict = compare(Unit::Line, &expected, output, digits, |i| format!("case {}", i + 1));
        if verdict.is_ok() { Verdict::ok(format!("{} cases", answer.len())) } else { verdict }
    }

    fn exhaustive_len(&self, bound: u64, limits: Limits) -> Result<u64, Invalid> {
        let (max_t, max_v) = bounds(limits);
        if !(1..=u64::from(max_v)).contains(&bound) {
            return Err(Invalid(format!("the bound is a value in 1..={max_v}, found {bound}")));
        }
        Ok((bound * bound).div_ceil(max_t as u64))
    }

    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<Self::Input> {
        let (max_t, _) = bounds(limits);
        let bound = u32::try_from(bound).ok()?;
        let mut pairs: Vec<(u32, u32)> =
            (1..=bound).flat_map(|a| (1..=bound).map(move |b| (a, b))).collect();
        pairs.sort_by_key(|&(a, b)| (a.max(b), a, b));
        let chunk = pairs.chunks(max_t).nth(usize::try_from(index).ok()?)?;
        Some(chunk.to_vec())
    }

    /// Big steps first: drop a half, a quarter, ... of the cases; then the one-step moves
    /// that define minimality: drop one case; then lower each number (to 1, halfway, by 1).
    fn shrink(&self, input: &Self::Input) -> impl Iterator<Item = Self::Input> {
        let numbers = (0..2 * input.len()).flat_map(move |k| {
            let (case, second) = (k / 2, k % 2 == 1);
            let value = if second { input[case].1 } else { input[case].0 };
            moves::lower(u64::from(value), 1).map(move |v| {
                let mut next = input.clone();
                let slot = if second { &mut next[case].1 } else { &mut next[case].0 };
                *slot = v as u32;
                next
            })
        });
        moves::drop_chunks(input).chain(moves::drop_each(input)).chain(numbers)
    }
}

impl Packaged for Sum {
    fn about(&self) -> About {
        const SAMPLES: &[Sample] =
            &[Sample { name: "sample1", input: b"2\n1 2\n3 4\n", answer: b"3\n7\n" }];
        About {
            title: "Sum",
            source: "the judge's tests",
            source_url: None,
            statement_path: "judge/src/testing/toy.rs",
            statement: "Add two numbers, case by case.\n",
            samples: SAMPLES,
        }
    }

    fn input_validator(&self) -> &'static str {
        include_str!("toy_validator.cpp")
    }

    fn output_validator(&self) -> OutputValidator {
        OutputValidator::Default {
            flags: "case_sensitive space_change_sensitive",
            unlike_check: "Kattis's default validator compares byte for byte, as `check` does.",
        }
    }
}
