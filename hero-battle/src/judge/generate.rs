//! hero-battle's inputs for the judge: the stress loop's files by size level ([`file`]), the
//! extreme files it tries right after its first ten tiny ones ([`extreme`]), and the
//! exhaustive enumeration of every case whose values lie in `1..=bound` ([`files`],
//! [`exhaustive_file`]). The judge's module notes say what each level and extreme holds;
//! the items here say why.

use std::ops::RangeInclusive;

use engine::rng::SplitMix64;
use judge::Invalid;
use judge::Limits;

use crate::generate::Family;
use crate::rules::{Case, MAX_VALUE, ORIGINAL_MAX_CASES};

/// Most cases a tiny (level 0) file holds: half the original limit, so that a program that
/// fails only at the largest `T` passes them and is found by the extremes that follow.
const TINY_MAX_CASES: usize = ORIGINAL_MAX_CASES / 2;

/// Cases of the extended limits' largest extreme file, drawn from the Random family: past
/// 65,535, so a 16-bit count or a table sized for the original `T` fails, and few enough
/// that a run of our own binary and our answer to it stay short (games of the Random family
/// last a few turns).
const MANY_CASES: usize = 70_000;

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

/// The size levels: one for each way of drawing cases, and the mix.
pub(super) const LEVELS: u32 = DRAWS as u32 + 1;

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

/// A file of `level` (see [`Judge::generate`](super::Judge)): each case drawn the level's
/// way, or at the last level each from any of the others or Hard (one in 32), and one file
/// in 64 all Hard (at most [`ORIGINAL_MAX_CASES`] of them).
pub(super) fn file(rng: &mut SplitMix64, level: u32, limits: Limits) -> Vec<Case> {
    let count = file_cases(rng, level, limits);
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

/// The extreme inputs, in the order the stress loop tries them ([`extreme`]): every file but
/// the last holds [`ORIGINAL_MAX_CASES`] cases, the largest `T` the original limits allow,
/// with numbers at the ends of `1..=99`.
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
    /// uniform in `1..=99`, games of a few turns).
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

/// How many extreme files `limits` take: five, and under the extended limits a sixth.
pub(super) fn extremes(limits: Limits) -> u32 {
    Extreme::count(limits) as u32
}

/// Extreme file `k` under `limits`.
///
/// # Panics
/// When `limits` have no extreme `k`.
pub(super) fn extreme(k: u32, rng: &mut SplitMix64, limits: Limits) -> Vec<Case> {
    let k = k as usize;
    assert!(k < Extreme::count(limits), "{limits} limits have no extreme input {k}");
    Extreme::ALL[k].input(rng)
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

/// How many files of [`ORIGINAL_MAX_CASES`] the `bound^12` cases of the enumeration fill.
///
/// # Errors
/// `bound` is outside `1..=99`, or the count of files does not fit a `u64` (`bound > 54`).
pub(super) fn files(bound: u64) -> Result<u64, Invalid> {
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

/// File `index` of the enumeration up to `bound`, `index` below what [`files`] gives for
/// `bound`. `O(40 * 12 * bound)`.
pub(super) fn exhaustive_file(bound: u8, index: u64) -> Vec<Case> {
    let per_file = ORIGINAL_MAX_CASES as u128;
    let first = u128::from(index) * per_file;
    let end = (first + per_file).min(pow(u128::from(bound), 12));
    (first..end).map(|rank| unrank(bound, rank)).collect()
}

#[cfg(test)]
mod tests {
    use judge::Problem;

    use super::*;
    use crate::judge::Judge;
    use crate::rules::WhoWins;

    fn case(v: [u8; 12]) -> Case {
        Case::from_array(v)
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
}
