//! hero-battle as the judge sees it: [`Judge`] implements [`judge::Problem`] (and, in
//! `judge/package.rs`, `Packaged`), which give the binary its judging subcommands (listed in
//! `docs/judging.md`). This module holds the limits and the checker, the rule an output is judged
//! by; `judge/generate.rs` the stress loop's levels, the extreme inputs and the exhaustive
//! enumeration, and `judge/moves.rs` the shrink moves.
//!
//! - **Limits.** `original`: the contest's, `1 <= T <= 40` and every number in `1..=99`.
//!   `extended`: what the solver accepts, any `T` in `0..=MAX_CASES`, the same values.
//!   The solver's parser ([`InputFormat`]) reads under either limits, numbers separated by
//!   any white space as the statement allows, so the validator's messages are the solver's:
//!   the rule and its line and column, e.g. `line 1, column 1: expected the number of cases
//!   T in 1..=40, found "41"`. `validate` then holds the file to the canonical format,
//!   [`write_input`]'s layout ([`judge::canonical`]).
//! - **Checker.** The original judge's checker is not recorded, so the rule is assumed:
//!   exact lines, one line per case, each exactly `Alice wins`, `Bob wins` or `It depends`.
//!   It is the strictest rule the judges of the time applied to such an output (a line or
//!   byte comparison; token and white-space-insensitive comparisons accept more), so an
//!   output it accepts is accepted whatever the original was, and the statement's output
//!   section fixes those lines exactly. A line that is not one of the three (a misspelling,
//!   a `\r`, a trailing space) is a presentation error, and so is a missing or an extra
//!   line; one of the three other than ours is a wrong answer. A missing newline after the
//!   last line is accepted, as line-reading judges read the same lines, and marked as
//!   overlooked ([`Verdict::lenient`]); `check --strict` rejects it, so that the output must
//!   be our answer byte for byte. `O(output)`.
//! - **Generation** ([`Judge::generate`]), by level: tiny cases (hit points and damage
//!   `1..=3`, where dead heroes, one-hit kills and every answer abound), small ones, edge
//!   values (1 and 99), then the families of [`generate`](crate::generate) (Small,
//!   Lopsided, Random, Large) and last a mix with Hard cases (and, one file in 64, a whole
//!   file of them: the editorial's slowest input). A file holds 40 cases under the original
//!   limits (sometimes fewer), up to 320 under the extended ones; a tiny file at most 20, so
//!   that the largest `T` is first tried by the extremes.
//! - **Extremes** ([`Judge::extreme`]), tried right after the first ten tiny files: 40 cases
//!   (the original limit on `T`) of every number 99, every number 1, each number 1 or 99,
//!   hit points 99 against damage 1 (the longest games), hit points 98 or 99 against damage
//!   1 or 2; under the extended limits also a file of 70,000 cases.
//! - **Shrinking** ([`Judge::shrink`]): drop half the cases, then quarters and so on; drop
//!   one case; every number of the file, then of one case, to 1; lower one number (to 1,
//!   then by half the distance to its current value, a quarter, ..., by one). The driver's
//!   result is 1-minimal under "drop a case" and "lower one number by one".
//! - **Exhaustive** ([`Judge::exhaustive`]): every case whose twelve values lie in
//!   `1..=bound`, ordered by largest value, then lexicographically, in files of 40.
//! - **Proof** ([`Judge::explain`]): `--explain`'s text for the (small) failing input.
//! - **Package** (`judge/package.rs`, [`judge::package::Packaged`]): the title, origin,
//!   statement and sample a Kattis package holds, its input validator
//!   (`judge/validator.cpp`, as strict as `validate`) and its output validation (Kattis's
//!   default, byte for byte).

mod generate;
mod moves;
mod package;

use std::cell::RefCell;
use std::ops::RangeInclusive;
use std::time::Duration;

use engine::driver::{Batch, BatchSolver};
use engine::input::InputError;
use engine::rng::SplitMix64;
use judge::Invalid;
use judge::compare::{Lines, Unit, compare, quote};
use judge::{Exhibit, Limits, Problem, RunLimits, Verdict};

use crate::generate::write_input;
use crate::rules::{Case, FIELDS, MAX_VALUE, WhoWins};
use crate::threshold::ThresholdSolver;
use crate::{HeroBattle, parse::InputFormat};

/// The values a number may take: `1..=99`, under either limits.
const VALUES: RangeInclusive<u8> = 1..=MAX_VALUE;

/// hero-battle for the judge (see the module notes). Its input is the list of cases, its
/// answer one [`WhoWins`] line per case.
#[derive(Clone, Copy, Debug, Default)]
pub struct Judge;

/// `n cases` (or `1 case`).
fn cases_text(n: usize) -> String {
    if n == 1 { "1 case".to_owned() } else { format!("{n} cases") }
}

/// The judge's output for a solved batch (one verdict line per case, each followed by its
/// explanation lines when asked for), and the `--stats` lines meant for stderr.
fn render(batch: &engine::driver::BatchOf<HeroBattle>) -> engine::Output {
    let stdout = engine::driver::write_ordered(batch.answers.len(), |i, out| {
        crate::write_report(&batch.answers[i], out);
    });
    engine::Output { stdout, stderr: crate::stats_lines(batch) }
}

impl Problem for Judge {
    type Input = Vec<Case>;
    type Answer = Vec<WhoWins>;
    const LEVELS: u32 = generate::LEVELS;
    /// The original judge's: 1 s and 256 MB for a file (the statement's Origin).
    const RUN_LIMITS: RunLimits =
        RunLimits { time: Duration::from_secs(1), memory_mib: 256, origin: "the original judge's" };

    fn name(&self) -> &'static str {
        "hero-battle"
    }

    /// Reads `T` and the cases with the solver's parser ([`InputFormat`]), `T` within
    /// `limits`. `O(input)`.
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Vec<Case>, InputError> {
        engine::driver::parse_all(&InputFormat { limits }, bytes).map(|((), cases)| cases)
    }

    fn validate(&self, input: &Vec<Case>, limits: Limits) -> Result<(), Invalid> {
        let counts = InputFormat { limits }.case_counts();
        if !counts.contains(&input.len()) {
            return Err(Invalid(format!(
                "T = {} is outside {}..={}",
                input.len(),
                counts.start(),
                counts.end()
            )));
        }
        for (i, case) in input.iter().enumerate() {
            for (value, what) in case.to_array().into_iter().zip(FIELDS) {
                if !VALUES.contains(&value) {
                    return Err(Invalid(format!(
                        "case {}: {what} = {value} is outside 1..={MAX_VALUE}",
                        i + 1
                    )));
                }
            }
        }
        Ok(())
    }

    fn render(&self, input: &Vec<Case>, out: &mut Vec<u8>) {
        write_input(input, out);
    }

    fn cases(&self, input: &Vec<Case>) -> usize {
        input.len()
    }

    /// Cases plus the sum of all numbers: dropping a case or lowering a number lowers it.
    fn size(&self, input: &Vec<Case>) -> u64 {
        let values: u64 = input.iter().flat_map(Case::to_array).map(u64::from).sum();
        input.len() as u64 + values
    }

    /// Level 0: hit points and damage in `1..=3`; 1: hit points up to 6, damage up to 4;
    /// 2: edge values; 3 to 6: the Small, Lopsided, Random and Large families; 7: each case
    /// from any of those levels or Hard (one in 32), and one file in 64 all Hard. Hard cases
    /// are rare because our own answer to one does thousands of times the work of another
    /// case's (their games are the longest, see [`threshold`](crate::threshold)).
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Vec<Case> {
        generate::file(rng, level, limits)
    }

    /// Five files of 40 cases; under the extended limits also a sixth of 70,000 (see the
    /// module notes).
    fn extremes(&self, limits: Limits) -> u32 {
        generate::extremes(limits)
    }

    /// Extreme `k`: every number 99; every number 1; each 1 or 99; hit points 99 against
    /// damage 1; hit points 98 or 99 against damage 1 or 2; under the extended limits also
    /// 70,000 cases of the Random family.
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> Vec<Case> {
        generate::extreme(k, rng, limits)
    }

    /// The fast solver, with one table per thread. `O(R * B)` per case (see
    /// [`threshold`](crate::threshold)).
    fn solve(&self, input: &Vec<Case>) -> Vec<WhoWins> {
        thread_local! {
            /// One solver a thread, reused across files: its table (up to 1.2 MB) is then
            /// allocated and first touched once, not once a run.
            static SOLVER: RefCell<ThresholdSolver> = RefCell::new(ThresholdSolver::new());
        }
        SOLVER.with_borrow_mut(|solver| {
            input.iter().map(|case| solver.solve(case).who_wins()).collect()
        })
    }

    fn render_answer(&self, _input: &Vec<Case>, answer: &Vec<WhoWins>, out: &mut Vec<u8>) {
        for who_wins in answer {
            out.extend_from_slice(who_wins.as_str().as_bytes());
            out.push(b'\n');
        }
    }

    /// A jury's answer: exactly one verdict line per case.
    fn parse_answer(&self, input: &Vec<Case>, bytes: &[u8]) -> Result<Vec<WhoWins>, String> {
        let mut answers = Vec::with_capacity(input.len());
        for (text, line) in Lines::new(bytes) {
            if answers.len() == input.len() {
                return Err(format!(
                    "line {line}: {} after the last of {}",
                    quote(text),
                    cases_text(input.len())
                ));
            }
            let who_wins = WhoWins::from_line(text).ok_or_else(|| {
                format!(
                    "line {line}: expected \"Alice wins\", \"Bob wins\" or \"It depends\", \
                     found {}",
                    quote(text)
                )
            })?;
            answers.push(who_wins);
        }
        if answers.len() < input.len() {
            return Err(format!("{} verdict lines for {}", answers.len(), cases_text(input.len())));
        }
        Ok(answers)
    }

    /// The assumed rule, exact lines (see the module notes): one line per case, each
    /// exactly its verdict. A missing newline after the last line is overlooked
    /// ([`Verdict::lenient`]), so `--strict` asks for the output byte for byte.
    fn judge(&self, input: &Vec<Case>, answer: &Vec<WhoWins>, output: &[u8]) -> Verdict {
        assert_eq!(answer.len(), input.len(), "an answer holds one line per case");
        let expected: Vec<&str> = answer.iter().map(|v| v.as_str()).collect();
        let readable = |line: &[u8]| WhoWins::from_line(line).is_some();
        let verdict =
            compare(Unit::Line, &expected, output, readable, |i| format!("case {}", i + 1));
        if !verdict.is_ok() {
            return verdict;
        }
        let ok = Verdict::ok(cases_text(answer.len()));
        if output.is_empty() || output.ends_with(b"\n") {
            return ok;
        }
        ok.overlooking(format!(
            "no newline at the end of line {}, the last, which the assumed rule (exact lines) \
             overlooks",
            answer.len()
        ))
    }

    /// Drop half the cases, a quarter, ... (ddmin's chunks), drop each case; set every
    /// number to 1, in the whole file (when two cases or more have a number above 1), then
    /// in each case; then lower each number in input order: to 1, then by half the distance,
    /// a quarter, ..., one.
    fn shrink(&self, input: &Vec<Case>) -> impl Iterator<Item = Vec<Case>> {
        moves::shrink(input)
    }

    /// `bound` is the largest value (`1..=99`) of the enumerated cases: `bound^12` cases in
    /// files of 40, as long as the count of files fits a `u64` (`bound <= 54`).
    fn exhaustive_len(&self, bound: u64, _limits: Limits) -> Result<u64, Invalid> {
        generate::files(bound)
    }

    /// File `index`: cases `40 * index ..` of the order by largest value, then
    /// lexicographic. `O(40 * 12 * bound)`.
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<Vec<Case>> {
        let files = self.exhaustive_len(bound, limits).ok()?;
        if index >= files {
            return None;
        }
        let bound = u8::try_from(bound).expect("exhaustive_len checked the bound");
        Some(generate::exhaustive_file(bound, index))
    }

    /// `--explain`'s output for `input`: each answer line with a winning first attack per
    /// first mover, or the second mover's answer to every opening.
    fn explain(&self, input: &Vec<Case>) -> Vec<Exhibit> {
        let solver = HeroBattle { explain: true, ..HeroBattle::default() };
        let mut scratch = solver.new_scratch(&(), &());
        let answers = input
            .iter()
            .enumerate()
            .map(|(i, case)| solver.solve(&(), &(), i, case, &mut scratch))
            .collect();
        let batch = Batch { header: (), cases: input.clone(), answers };
        let output = render(&batch);
        let text = String::from_utf8(output.stdout).expect("answer lines and attacks are ASCII");
        vec![Exhibit { title: "why our answer is right (--explain)", extension: "proof", text }]
    }

    /// The case count and the ranges of hit points and damage the file holds.
    fn summary(&self, input: &Vec<Case>) -> String {
        let range = |fields: RangeInclusive<usize>| {
            let values = input.iter().flat_map(|c| c.to_array()[fields.clone()].to_vec());
            let (lo, hi) = values.fold((u8::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
            format!("{lo}..={hi}")
        };
        if input.is_empty() {
            return cases_text(0);
        }
        format!(
            "{}, hit points {}, damage {}",
            cases_text(input.len()),
            range(0..=3),
            range(4..=11)
        )
    }
}

#[cfg(test)]
mod tests {
    use judge::render;
    use judge::{VerdictKind, check, testing};

    use super::*;

    fn case(v: [u8; 12]) -> Case {
        Case::from_array(v)
    }

    /// Generated, extreme and exhaustive inputs are valid and round-trip; shrink moves lower
    /// the size.
    #[test]
    fn the_judge_keeps_the_problem_contracts() {
        testing::check_contracts(&Judge, 40, 1000, Some(54));
    }

    #[test]
    fn parse_names_each_rule_with_its_place() {
        let error =
            |text: &str, limits| Judge.parse(text.as_bytes(), limits).unwrap_err().to_string();
        let ones = "1 1 1 1 1 1 1 1 1 1 1 1\n";
        assert_eq!(
            error(&format!("41\n{}", ones.repeat(41)), Limits::Original),
            r#"line 1, column 1: expected the number of cases T in 1..=40, found "41""#
        );
        assert!(
            Judge.parse(format!("41\n{}", ones.repeat(41)).as_bytes(), Limits::Extended).is_ok()
        );
        assert_eq!(
            error("0\n", Limits::Original),
            r#"line 1, column 1: expected the number of cases T in 1..=40, found "0""#
        );
        assert_eq!(Judge.parse(b"0\n", Limits::Extended), Ok(Vec::new()));
        assert_eq!(
            error("1\n1 1 1 1 1 1 1 1 1 100 1 1\n", Limits::Original),
            r#"line 2, column 19: expected damage b12 in 1..=99, found "100""#
        );
        assert_eq!(
            error("2\n1 1 1 1 1 1 1 1 1 1 1 1\n", Limits::Extended),
            "line 2, column 24: expected hit points a1 in 1..=99, found end of input"
        );
        assert_eq!(
            error("1\n1 1 1 1 1 1 1 1 1 1 1 1 1\n", Limits::Original),
            r#"line 2, column 25: expected end of input after case 1, found "1""#
        );
    }

    #[test]
    fn validate_names_the_case_and_the_number() {
        let ok = case([1; 12]);
        assert_eq!(Judge.validate(&vec![ok], Limits::Original), Ok(()));
        assert_eq!(
            Judge.validate(&Vec::new(), Limits::Original).unwrap_err().to_string(),
            "T = 0 is outside 1..=40"
        );
        assert_eq!(Judge.validate(&Vec::new(), Limits::Extended), Ok(()));
        let mut bad = [1; 12];
        bad[6] = 0;
        assert_eq!(
            Judge.validate(&vec![ok, case(bad)], Limits::Extended).unwrap_err().to_string(),
            "case 2: damage a21 = 0 is outside 1..=99"
        );
    }

    #[test]
    fn the_checker_follows_the_original_rule() {
        let input = b"2\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n";
        let judge = |output: &str| {
            check(&Judge, input, output.as_bytes(), None, Limits::Original, true, false)
        };
        assert_eq!(judge("It depends\nBob wins\n").to_string(), "ok: 2 cases");
        let unfinished = judge("It depends\nBob wins");
        let overlooked = "no newline at the end of line 2, the last, which the assumed rule (exact lines) \
             overlooks";
        assert_eq!(unfinished.to_string(), format!("ok: 2 cases; lenient: {overlooked}"));
        assert_eq!(unfinished.strict(), Verdict::presentation_error(overlooked), "--strict");
        let strict = |output: &str| {
            check(&Judge, input, output.as_bytes(), None, Limits::Original, true, true)
        };
        assert_eq!(strict("It depends\nBob wins\n").to_string(), "ok: 2 cases");
        assert_eq!(
            strict("It depends\nAlice wins").to_string(),
            r#"wrong answer: case 2: expected "Bob wins", found "Alice wins""#,
            "--strict changes an ok only"
        );
        assert_eq!(
            judge("It depends\nAlice wins\n").to_string(),
            r#"wrong answer: case 2: expected "Bob wins", found "Alice wins""#
        );
        for (output, message) in [
            (
                "It depends\nBob win\n",
                r#"case 2: expected "Bob wins", found "Bob win", which is not an answer"#,
            ),
            (
                "It depends\nBob wins \n",
                r#"case 2: expected "Bob wins", found "Bob wins ", which is not an answer"#,
            ),
            (
                "It depends\r\nBob wins\r\n",
                r#"case 1: expected "It depends", found "It depends\r", which is not an answer"#,
            ),
            ("It depends\n", r#"case 2: expected "Bob wins", found end of output"#),
            (
                "It depends\nBob wins\nBob wins\n",
                r#"extra output after 2 lines: "Bob wins" on line 3"#,
            ),
        ] {
            let verdict = judge(output);
            assert_eq!(verdict.kind, VerdictKind::PresentationError, "{output:?}");
            assert_eq!(verdict.message, message);
        }
    }

    #[test]
    fn jury_answers_are_read_strictly() {
        let input = vec![case([1; 12]), case([2; 12])];
        assert_eq!(
            Judge.parse_answer(&input, b"It depends\nIt depends\n"),
            Ok(vec![WhoWins::ItDepends; 2])
        );
        assert_eq!(
            Judge.parse_answer(&input, b"It depends\nit depends\n").unwrap_err(),
            r#"line 2: expected "Alice wins", "Bob wins" or "It depends", found "it depends""#
        );
        assert_eq!(
            Judge.parse_answer(&input, b"It depends\n").unwrap_err(),
            "1 verdict lines for 2 cases"
        );
        assert_eq!(
            Judge.parse_answer(&input, b"It depends\nIt depends\n\n").unwrap_err(),
            r#"line 3: "" after the last of 2 cases"#
        );
    }

    #[test]
    fn the_proof_is_the_explained_output() {
        let input = vec![case([10, 10, 10, 10, 3, 3, 3, 3, 3, 3, 3, 3])];
        let proof = Judge.explain(&input).remove(0).text;
        assert!(proof.starts_with("It depends\n  Alice first: Alice wins with "), "{proof}");
        assert_eq!(proof.lines().count(), 3);
        assert_eq!(Judge.summary(&input), "1 case, hit points 10..=10, damage 3..=3");
    }

    proptest::proptest! {
        /// Mutated valid inputs and random bytes: parsing under both limits never panics, and
        /// whatever parses is valid and renders back to an equal input.
        #[test]
        fn parse_and_validate_never_panic(
            seed: u64,
            level in 0..8u32,
            edits in proptest::collection::vec(
                (0..4096usize, 0..8u8, proptest::num::u8::ANY),
                0..6,
            ),
            noise in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        ) {
            let mut rng = SplitMix64::new(seed);
            let valid = render(&Judge, &Judge.generate(&mut rng, level, Limits::Original));
            let corrupted = testing::corrupt::corrupt(valid, &edits, b" 99");
            testing::assert_parses_soundly(&Judge, &corrupted);
            testing::assert_parses_soundly(&Judge, &noise);
        }
    }
}
