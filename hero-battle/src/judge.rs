//! hero-battle as the judge sees it: [`Judge`] implements [`judge::Problem`], which
//! gives the binary its `check`, `validate`, `stress` and `shrink` subcommands.
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
//!   1 or 2; under the extended limits also a file of [`MANY_CASES`] cases.
//! - **Shrinking** ([`Judge::shrink`]): drop half the cases, then quarters and so on; drop
//!   one case; every number of the file, then of one case, to 1; lower one number (to 1,
//!   then by half the distance to its current value, a quarter, ..., by one). The driver's
//!   result is 1-minimal under "drop a case" and "lower one number by one".
//! - **Exhaustive** ([`Judge::exhaustive`]): every case whose twelve values lie in
//!   `1..=bound`, ordered by largest value, then lexicographically, in files of 40.
//! - **Proof** ([`Judge::explain`]): `--explain`'s text for the (small) failing input.

use std::cell::RefCell;
use std::ops::RangeInclusive;
use std::time::Duration;

use engine::driver::{Batch, BatchSolver};
use engine::input::InputError;
use engine::rng::SplitMix64;
use judge::compare::{Lines, Unit, compare, quote};
use judge::problem::Invalid;
use judge::{Exhibit, Limits, Problem, RunLimits, Verdict, moves};

use crate::generate::{Family, write_input};
use crate::rules::{Case, FIELDS, MAX_VALUE, ORIGINAL_MAX_CASES, WhoWins};
use crate::threshold::ThresholdSolver;
use crate::{HeroBattle, parse::InputFormat};

/// The values a number may take: `1..=99`, under either limits.
const VALUES: RangeInclusive<u8> = 1..=MAX_VALUE;

/// Most cases a tiny (level 0) file holds: half the original limit, so that a program that
/// fails only at the largest `T` passes them and is found by the extremes that follow.
const TINY_MAX_CASES: usize = ORIGINAL_MAX_CASES / 2;

/// Cases of the extended limits' largest extreme file, drawn from the Random family: past
/// 65,535, so a 16-bit count or a table sized for the original `T` fails, and few enough
/// that a run of our own binary and our answer to it take about half a second.
pub const MANY_CASES: usize = 70_000;

/// hero-battle for the judge (see the module notes). Its input is the list of cases, its
/// answer one [`WhoWins`] line per case.
#[derive(Clone, Copy, Debug, Default)]
pub struct Judge;

/// `n cases` (or `1 case`).
fn cases_text(n: usize) -> String {
    if n == 1 { "1 case".to_owned() } else { format!("{n} cases") }
}

/// A case whose hit points are drawn from `hp` and damages from `damage`.
fn uniform(rng: &mut SplitMix64, hp: RangeInclusive<u8>, damage: RangeInclusive<u8>) -> Case {
    let mut v = [0; 12];
    for (k, value) in v.iter_mut().enumerate() {
        let range = if k < 4 { &hp } else { &damage };
        *value = rng.range(u64::from(*range.start()), u64::from(*range.end())) as u8;
    }
    Case::from_array(v)
}

/// A case of edge values: each number is 1 or 99 (a quarter of the time each), else
/// uniform. (Hit points 99 against damage 1 make long games: more edges would make this
/// level the loop's slowest.)
fn edges(rng: &mut SplitMix64) -> Case {
    let mut v = [0; 12];
    for value in &mut v {
        *value = match rng.range(0, 3) {
            0 => 1,
            1 => MAX_VALUE,
            _ => rng.range(1, u64::from(MAX_VALUE)) as u8,
        };
    }
    Case::from_array(v)
}

/// How generated cases are drawn at each level; the last level mixes the others.
const DRAWS: usize = 7;

/// One case drawn the way level `level` (`0..DRAWS`) draws them.
fn draw(rng: &mut SplitMix64, level: usize) -> Case {
    match level {
        0 => uniform(rng, 1..=3, 1..=3),
        1 => uniform(rng, 1..=6, 1..=4),
        2 => edges(rng),
        3 => Family::Small.draw(rng),
        4 => Family::Lopsided.draw(rng),
        5 => Family::Random.draw(rng),
        6 => Family::Large.draw(rng),
        _ => unreachable!("levels of single draws are 0..{DRAWS}"),
    }
}

/// The extreme inputs, in the order the stress loop tries them ([`Judge::extreme`]): every
/// file but the last holds [`ORIGINAL_MAX_CASES`] cases, the largest `T` the original
/// limits allow, with numbers at the ends of `1..=99`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extreme {
    /// Every number 99: every blow kills.
    AllMax,
    /// Every number 1.
    AllMin,
    /// Each number 1 or 99, at random.
    Ends,
    /// Hit points 99, damage 1: the longest games, the editorial's slowest shape.
    LongestGames,
    /// Hit points 98 or 99, damage 1 or 2, at random: long games of every parity.
    NearLongest,
    /// Extended limits only: [`MANY_CASES`] cases of the Random family (every number
    /// uniform in `1..=99`, games of a few turns, a few microseconds each for our solver).
    ManyCases,
}

impl Extreme {
    /// Every extreme, in order; the original limits take all but the last.
    const ALL: [Self; 6] = [
        Self::AllMax,
        Self::AllMin,
        Self::Ends,
        Self::LongestGames,
        Self::NearLongest,
        Self::ManyCases,
    ];

    /// How many of [`Extreme::ALL`] `limits` take.
    fn count(limits: Limits) -> usize {
        match limits {
            Limits::Original => Self::ALL.len() - 1,
            Limits::Extended => Self::ALL.len(),
        }
    }

    /// The values each hit point and each damage is drawn from (uniformly); `None` for
    /// [`Extreme::ManyCases`].
    fn values(self) -> Option<(&'static [u8], &'static [u8])> {
        const ENDS: &[u8] = &[1, MAX_VALUE];
        Some(match self {
            Self::AllMax => (&[MAX_VALUE], &[MAX_VALUE]),
            Self::AllMin => (&[1], &[1]),
            Self::Ends => (ENDS, ENDS),
            Self::LongestGames => (&[MAX_VALUE], &[1]),
            Self::NearLongest => (&[MAX_VALUE - 1, MAX_VALUE], &[1, 2]),
            Self::ManyCases => return None,
        })
    }

    /// The file, with `rng` drawing what the extreme leaves open.
    fn input(self, rng: &mut SplitMix64) -> Vec<Case> {
        let Some((hit_points, damage)) = self.values() else {
            return (0..MANY_CASES).map(|_| Family::Random.draw(rng)).collect();
        };
        let case = |rng: &mut SplitMix64| {
            let mut v = [0; 12];
            for (k, value) in v.iter_mut().enumerate() {
                let from = if k < 4 { hit_points } else { damage };
                *value = from[rng.below(from.len())];
            }
            Case::from_array(v)
        };
        (0..ORIGINAL_MAX_CASES).map(|_| case(rng)).collect()
    }
}

/// `m^e` for the exhaustive enumeration's counts (at most `99^12 < 2^80`).
fn pow(m: u128, e: u32) -> u128 {
    m.pow(e)
}

/// The case of rank `rank` among those with every value in `1..=bound`, ordered by their
/// largest value, then lexicographically (in input order). `O(12 * bound)`.
fn unrank(bound: u8, rank: u128) -> Case {
    let bound = u128::from(bound);
    assert!(rank < pow(bound, 12), "rank {rank} of cases up to {bound}");
    // The largest value m: the cases with largest value below m number (m - 1)^12.
    let m = (1..=bound).find(|&m| pow(m, 12) > rank).expect("rank < bound^12");
    let mut rank = rank - pow(m - 1, 12);
    let mut v = [0; 12];
    let mut has_m = false;
    for (position, value) in v.iter_mut().enumerate() {
        let rest = 11 - position as u32;
        // Completions of the prefix by `rest` values in 1..=m: all of them once the prefix
        // holds m, else only those that hold m somewhere.
        let value_of = (1..=m).find(|&x| {
            let count =
                if has_m || x == m { pow(m, rest) } else { pow(m, rest) - pow(m - 1, rest) };
            if rank < count {
                return true;
            }
            rank -= count;
            false
        });
        let x = value_of.expect("the rank lies among the completions");
        has_m |= x == m;
        *value = x as u8;
    }
    Case::from_array(v)
}

impl Judge {
    /// How many cases a generated file of `level` holds under `limits`.
    fn file_cases(rng: &mut SplitMix64, level: u32, limits: Limits) -> usize {
        if level == 0 {
            // Tiny files hold fewer cases; under the extended limits one in 64 is empty, as at
            // the other levels.
            if limits == Limits::Extended && rng.chance(1, 64) {
                return 0;
            }
            return rng.below(TINY_MAX_CASES) + 1;
        }
        let most = match limits {
            Limits::Original => ORIGINAL_MAX_CASES,
            // Growing with the level, from 40 to 320 cases.
            Limits::Extended => {
                if rng.chance(1, 64) {
                    return 0;
                }
                ORIGINAL_MAX_CASES << (level / 2).min(3)
            }
        };
        // Full files mostly (batching saves process starts), a short one now and then.
        if rng.chance(3, 4) { most } else { rng.below(most) + 1 }
    }
}

impl Problem for Judge {
    type Input = Vec<Case>;
    type Answer = Vec<WhoWins>;
    const LEVELS: u32 = DRAWS as u32 + 1;
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
    /// are rare because our own answer to one takes about a millisecond, as long as a run.
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Vec<Case> {
        let count = Self::file_cases(rng, level, limits);
        let level = level as usize;
        if level < DRAWS {
            return (0..count).map(|_| draw(rng, level)).collect();
        }
        if rng.chance(1, 64) {
            return (0..count.min(ORIGINAL_MAX_CASES)).map(|_| Family::Hard.draw(rng)).collect();
        }
        (0..count)
            .map(|_| {
                if rng.chance(1, 32) {
                    Family::Hard.draw(rng)
                } else {
                    let level = rng.below(DRAWS);
                    draw(rng, level)
                }
            })
            .collect()
    }

    /// Five files of 40 cases; under the extended limits also a sixth of [`MANY_CASES`] (see
    /// the module notes).
    fn extremes(&self, limits: Limits) -> u32 {
        Extreme::count(limits) as u32
    }

    /// Extreme `k`: every number 99; every number 1; each 1 or 99; hit points 99 against
    /// damage 1; hit points 98 or 99 against damage 1 or 2; under the extended limits also
    /// [`MANY_CASES`] cases.
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> Vec<Case> {
        let k = k as usize;
        assert!(k < Extreme::count(limits), "{limits} limits have no extreme input {k}");
        Extreme::ALL[k].input(rng)
    }

    /// The fast solver, with one table per thread. `O(R * B)` per case (see
    /// [`threshold`](crate::threshold)).
    fn solve(&self, input: &Vec<Case>) -> Vec<WhoWins> {
        thread_local! {
            /// One solver a thread, reused across files: its tables (up to 2.3 MB) are then
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
    /// a quarter, ..., one. The ones-moves make a failure that needs many cases but no
    /// particular numbers (a full file of 40 that crashes) cost a run or a run a case
    /// instead of a run a number.
    fn shrink(&self, input: &Vec<Case>) -> impl Iterator<Item = Vec<Case>> {
        let ones = Case::from_array([1; 12]);
        let above_one: Vec<usize> = (0..input.len()).filter(|&i| input[i] != ones).collect();
        let whole_file = (above_one.len() > 1).then(|| vec![ones; input.len()]);
        let each_case = above_one.into_iter().map(move |i| {
            let mut next = input.clone();
            next[i] = ones;
            next
        });
        let numbers = (0..12 * input.len()).flat_map(move |k| {
            let (case, field) = (k / 12, k % 12);
            let values = input[case].to_array();
            moves::lower(u64::from(values[field]), 1).map(move |lower| {
                let mut next = input.clone();
                let mut changed = values;
                changed[field] = u8::try_from(lower).expect("lowered below a u8");
                next[case] = Case::from_array(changed);
                next
            })
        });
        moves::drop_chunks(input)
            .chain(moves::drop_each(input))
            .chain(whole_file)
            .chain(each_case)
            .chain(numbers)
    }

    /// `bound` is the largest value (`1..=99`) of the enumerated cases: `bound^12` cases in
    /// files of 40, as long as the count of files fits a `u64` (`bound <= 54`).
    fn exhaustive_len(&self, bound: u64, _limits: Limits) -> Result<u64, Invalid> {
        if !(1..=u64::from(MAX_VALUE)).contains(&bound) {
            return Err(Invalid(format!(
                "the bound is the largest value of a case, in 1..={MAX_VALUE}; found {bound}"
            )));
        }
        let files = pow(u128::from(bound), 12).div_ceil(ORIGINAL_MAX_CASES as u128);
        u64::try_from(files).map_err(|_| {
            Invalid(format!("{bound}^12 cases make more files ({files}) than a run can count"))
        })
    }

    /// File `index`: cases `40 * index ..` of the order by largest value, then
    /// lexicographic. `O(40 * 12 * bound)`.
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<Vec<Case>> {
        let files = self.exhaustive_len(bound, limits).ok()?;
        if index >= files {
            return None;
        }
        let bound = u8::try_from(bound).expect("exhaustive_len checked the bound");
        let per_file = ORIGINAL_MAX_CASES as u128;
        let first = u128::from(index) * per_file;
        let end = (first + per_file).min(pow(u128::from(bound), 12));
        Some((first..end).map(|rank| unrank(bound, rank)).collect())
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
        let output = crate::render(&batch);
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
    use judge::problem::render;
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

    /// Level 0's tiny cases must reach the positions small inputs are for: heroes dead at the
    /// start of a turn, one-hit kills, and each of the three answers.
    #[test]
    fn tiny_cases_reach_every_kind_of_position() {
        let mut rng = SplitMix64::new(3);
        let cases: Vec<Case> =
            (0..100).flat_map(|_| Judge.generate(&mut rng, 0, Limits::Original)).collect();
        let answers = Judge.solve(&cases);
        for w in WhoWins::ALL {
            assert!(answers.iter().filter(|&&a| a == w).count() >= 50, "{w:?}");
        }
        let one_hit = cases.iter().filter(|c| c.alice_damage[0][0] >= c.bob_hp[0]).count();
        assert!(one_hit > cases.len() / 3, "{one_hit} one-hit kills");
    }

    #[test]
    fn original_files_hold_at_most_forty_cases_and_mostly_forty_tiny_ones_at_most_twenty() {
        let mut rng = SplitMix64::new(5);
        let sizes: Vec<usize> =
            (0..400).map(|i| Judge.generate(&mut rng, 1 + i % 7, Limits::Original).len()).collect();
        assert!(sizes.iter().all(|&n| (1..=40).contains(&n)));
        assert!(sizes.iter().filter(|&&n| n == 40).count() > 250);
        let tiny: Vec<usize> =
            (0..400).map(|_| Judge.generate(&mut rng, 0, Limits::Original).len()).collect();
        assert!(tiny.iter().all(|&n| (1..=20).contains(&n)));
        assert!(tiny.contains(&1) && tiny.contains(&20));
    }

    /// The extremes: 40 cases each (the largest original `T`) with numbers at the ends of
    /// their range, then under the extended limits a file of `MANY_CASES`.
    #[test]
    fn extremes_are_the_largest_t_with_numbers_at_the_ends() {
        let mut rng = SplitMix64::new(8);
        let original: Vec<Vec<Case>> =
            (0..5).map(|k| Judge.extreme(k, &mut rng, Limits::Original)).collect();
        assert_eq!(Judge.extremes(Limits::Original), 5);
        assert!(original.iter().all(|file| file.len() == ORIGINAL_MAX_CASES));
        let values = |file: &[Case], fields: std::ops::Range<usize>| -> Vec<u8> {
            let mut v: Vec<u8> =
                file.iter().flat_map(|c| c.to_array()[fields.clone()].to_vec()).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let shapes: Vec<(Vec<u8>, Vec<u8>)> =
            original.iter().map(|file| (values(file, 0..4), values(file, 4..12))).collect();
        assert_eq!(
            shapes,
            [
                (vec![99], vec![99]),
                (vec![1], vec![1]),
                (vec![1, 99], vec![1, 99]),
                (vec![99], vec![1]),
                (vec![98, 99], vec![1, 2]),
            ]
        );
        assert_eq!(Judge.extremes(Limits::Extended), 6);
        let many = Judge.extreme(5, &mut rng, Limits::Extended);
        assert_eq!(many.len(), MANY_CASES);
        assert_eq!(values(&many, 0..12), (1..=99).collect::<Vec<u8>>());
        // Under the extended limits the first five are the same files.
        let mut again = SplitMix64::new(8);
        for (k, file) in original.iter().enumerate() {
            assert_eq!(&Judge.extreme(k as u32, &mut again, Limits::Extended), file);
        }
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
    fn the_moves_set_numbers_to_one_then_hold_every_single_step() {
        let input =
            vec![case([3, 1, 99, 2, 1, 1, 1, 1, 1, 1, 1, 50]), case([1; 12]), case([2; 12])];
        let moves: Vec<Vec<Case>> = Judge.shrink(&input).collect();
        // Each single-step move is among them: drop one case, lower one number by one.
        for i in 0..input.len() {
            let mut dropped = input.clone();
            dropped.remove(i);
            assert!(moves.contains(&dropped));
        }
        for (i, c) in input.iter().enumerate() {
            for k in 0..12 {
                let mut v = c.to_array();
                if v[k] > 1 {
                    v[k] -= 1;
                    let mut lowered = input.clone();
                    lowered[i] = case(v);
                    assert!(moves.contains(&lowered), "case {i} number {k}");
                }
            }
        }
        // 99 is lowered to 1 first, then by halves: 50, 75, ...
        let firsts: Vec<u8> = moves
            .iter()
            .filter(|m| {
                m.len() == 3
                    && m[0].bob_hp[1] == 2
                    && m[0].alice_hp == [3, 1]
                    && m[0].bob_damage[1][1] == 50
                    && m[1..] == input[1..]
            })
            .map(|m| m[0].bob_hp[0])
            .collect();
        assert_eq!(firsts, [1, 50, 75, 87, 93, 96, 98]);
        // After the three drops: every number to 1 in the file, then in each case not all 1.
        let ones = case([1; 12]);
        assert_eq!(moves[3], [ones; 3]);
        assert_eq!(moves[4], [ones, ones, input[2]]);
        assert_eq!(moves[5], [input[0], ones, ones]);
        assert_eq!(moves[6][0].alice_hp[0], 1, "then the numbers");
        // One case: no file-wide move, which would be the same candidate.
        let single = Judge.shrink(&input[..1].to_vec()).take(2).collect::<Vec<_>>();
        assert_eq!(single[..2], [vec![], vec![ones]]);
    }

    #[test]
    fn the_exhaustive_order_is_by_largest_value_then_lexicographic() {
        let limits = Limits::Original;
        assert_eq!(Judge.exhaustive_len(1, limits), Ok(1));
        assert_eq!(Judge.exhaustive_len(2, limits), Ok(4096 / 40 + 1));
        assert_eq!(Judge.exhaustive_len(3, limits), Ok(531_441_u64.div_ceil(40)));
        assert!(Judge.exhaustive_len(0, limits).is_err());
        assert!(Judge.exhaustive_len(100, limits).is_err());
        assert!(Judge.exhaustive_len(54, limits).is_ok());
        assert!(Judge.exhaustive_len(55, limits).unwrap_err().to_string().contains("more files"));

        assert_eq!(Judge.exhaustive(1, 0, limits), Some(vec![case([1; 12])]));
        assert_eq!(Judge.exhaustive(1, 1, limits), None);
        // Up to 3: every tuple once, in the stated order, 40 to a file.
        let files = Judge.exhaustive_len(3, limits).unwrap();
        let all: Vec<[u8; 12]> = (0..files)
            .flat_map(|i| {
                let file = Judge.exhaustive(3, i, limits).unwrap();
                assert!(Judge.validate(&file, limits).is_ok());
                assert!(file.len() == 40 || i == files - 1);
                file
            })
            .map(|c| c.to_array())
            .collect();
        assert_eq!(all.len(), 531_441);
        let key = |v: &[u8; 12]| (*v.iter().max().unwrap(), *v);
        assert!(
            all.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "strictly increasing, so distinct"
        );
        assert_eq!(all[1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
        assert_eq!(all[4096], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(Judge.exhaustive(3, files, limits), None);
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
