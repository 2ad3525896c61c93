//! card-duel's inputs for the judge: the stress loop's files by size level ([`file`]), the
//! extreme files it tries right after its first ten tiny ones ([`extreme`]), and the
//! exhaustive enumeration of every position of one O in files of the official size
//! ([`files`], [`exhaustive_file`]). The judge's module notes say what each level and extreme
//! holds; the items here say why.

use engine::rng::SplitMix64;
use judge::Invalid;
use judge::Limits;

use crate::TestFile;
use crate::generate::{Family, distinct_positions};
use crate::parse::InputFormat;
use crate::rules::{
    Board, FACE_DAMAGE, MAX_HAND, MAX_HP, MAX_MINIONS, MAX_OPS, OFFICIAL_CASES, Position,
};
use crate::tables::StartKey;

/// A board of at most `most` minions, each of HP 1 or 2.
fn board_up_to(rng: &mut SplitMix64, most: u8) -> Board {
    let count = rng.range(0, u64::from(most)) as u8;
    let ones = rng.range(0, u64::from(count)) as u8;
    Board { ones, twos: count - ones }
}

/// A hand: full half the time (the draw then does nothing), else any size.
fn hand(rng: &mut SplitMix64) -> u8 {
    if rng.chance(1, 2) { MAX_HAND } else { rng.range(0, u64::from(MAX_HAND)) as u8 }
}

/// A position with both HPs in `1..=hp` and boards of at most `minions` minions.
fn small_position(rng: &mut SplitMix64, hp: u8, minions: u8) -> Position {
    let (e_hp, teacher_hp) = (rng.range(1, u64::from(hp)) as u8, rng.range(1, u64::from(hp)) as u8);
    let (e_board, teacher_board) = (board_up_to(rng, minions), board_up_to(rng, minions));
    let (e_hand, teacher_hand) = (hand(rng), hand(rng));
    Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand }
}

/// Whether E wins `p` at once by face attacks (the teacher has at most 3 HP per minion of
/// E's, all ready).
fn won_at_once(p: &Position) -> bool {
    u16::from(p.teacher_hp) <= u16::from(FACE_DAMAGE) * u16::from(p.e_board.len())
}

/// A small position that face attacks do not decide at once, but one time in four: with
/// small HP most positions where E has a minion would be such wins, which every program
/// gets right.
fn small_open_position(rng: &mut SplitMix64, hp: u8, minions: u8) -> Position {
    loop {
        let p = small_position(rng, hp, minions);
        if !won_at_once(&p) || rng.chance(1, 4) {
            return p;
        }
    }
}

/// Levels whose cases are drawn one way each; the levels above mix them.
const DRAWS: usize = 6;

/// One position drawn the way level `level` (`0..DRAWS`) draws them.
fn draw(rng: &mut SplitMix64, level: usize) -> Position {
    match level {
        0 => small_open_position(rng, 3, 2),
        1 => small_open_position(rng, 4, MAX_MINIONS),
        2 => Family::SmallHp.draw(rng),
        3 => Family::Edge.draw(rng),
        4 => Family::Uniform.draw(rng),
        5 => Family::Heavy.draw(rng),
        _ => unreachable!("levels of single draws are 0..{DRAWS}"),
    }
}

/// The size levels: one for each way of drawing cases, then files of 1,000 mixed cases, then
/// files of 10,000 or of the official size.
pub(super) const LEVELS: u32 = DRAWS as u32 + 2;

/// Cases of a file of single draws, and of the two mixed levels.
const SMALL_FILE: usize = 40;
const MIXED_FILE: usize = 1000;
const LARGE_FILE: usize = 10_000;

/// O for a generated file under `limits`: any of 3, 4 and 5 (all edges of the original
/// range), or under the extended limits mostly an edge of what the solver takes.
fn draw_ops(rng: &mut SplitMix64, limits: Limits) -> u8 {
    match limits {
        Limits::Original => rng.range(3, 5) as u8,
        Limits::Extended => {
            const EDGES: [u8; 5] = [1, 2, 3, 5, MAX_OPS];
            if rng.chance(3, 4) {
                EDGES[rng.below(EDGES.len())]
            } else {
                rng.range(1, u64::from(MAX_OPS)) as u8
            }
        }
    }
}

/// How many cases a file of `most` holds: `most` mostly (many cases a file save process
/// starts), fewer now and then; under the extended limits rarely none.
fn file_cases(rng: &mut SplitMix64, most: usize, limits: Limits) -> usize {
    if limits == Limits::Extended && rng.chance(1, 64) {
        return 0;
    }
    if rng.chance(3, 4) { most } else { rng.below(most) + 1 }
}
/// A file of `level` (see [`Judge::generate`](super::Judge)) under `limits`.
pub(super) fn file(rng: &mut SplitMix64, level: u32, limits: Limits) -> TestFile {
    let ops = draw_ops(rng, limits);
    let level = level as usize;
    let mixed = |rng: &mut SplitMix64, count: usize| -> Vec<Position> {
        (0..count)
            .map(|_| {
                let level = rng.below(DRAWS);
                draw(rng, level)
            })
            .collect()
    };
    let positions = match level {
        _ if level < DRAWS => {
            let count = file_cases(rng, SMALL_FILE, limits);
            (0..count).map(|_| draw(rng, level)).collect()
        }
        DRAWS => {
            let count = file_cases(rng, MIXED_FILE, limits);
            mixed(rng, count)
        }
        _ => {
            if rng.chance(1, 2) {
                distinct_positions(OFFICIAL_CASES, rng.next_u64())
            } else {
                let count = file_cases(rng, LARGE_FILE, limits);
                mixed(rng, count)
            }
        }
    };
    TestFile { ops, positions }
}

/// The extreme inputs, in the order the stress loop tries them ([`extreme`]): HP 20
/// for both players, full boards and full hands, the largest `T` the original limits allow,
/// O at both ends of its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extreme {
    /// The 25 heavy positions (both players at [`MAX_HP`], both boards full, both hands full:
    /// the costliest positions), each once, shuffled, O = 5: a small file that a program
    /// failing on any of these fails on, and that shrinks in a moment.
    Heavy,
    /// The 576 positions whose every field is at an end of its range, each once, shuffled:
    /// HP 1 or 20, each board empty or full (any mix of 1-HP and 2-HP minions), each hand
    /// empty or full; O = 3.
    Ends,
    /// [`OFFICIAL_CASES`] distinct positions drawn uniformly, as the official files are;
    /// O = 5.
    Official,
    /// [`OFFICIAL_CASES`] heavy positions (drawn from the 25, so each many times: the format
    /// allows repeats), O = 3.
    OfficialHeavy3,
    /// The same at O = 5.
    OfficialHeavy5,
    /// Extended limits only: every one of the 1,440,000 positions once, shuffled, at O =
    /// [`MAX_OPS`]: the largest O, and more cases than the original limits allow. Our answer
    /// to it is the tablebase of O = 20 and lookups.
    EveryPositionMaxOps,
}

impl Extreme {
    /// Every extreme, in order; the original limits take all but the last.
    const ALL: [Extreme; 6] = [
        Extreme::Heavy,
        Extreme::Ends,
        Extreme::Official,
        Extreme::OfficialHeavy3,
        Extreme::OfficialHeavy5,
        Extreme::EveryPositionMaxOps,
    ];

    /// How many extremes `limits` take.
    fn count(limits: Limits) -> usize {
        match limits {
            Limits::Original => Extreme::ALL.len() - 1,
            Limits::Extended => Extreme::ALL.len(),
        }
    }

    /// The file, with `rng` drawing what the extreme leaves open (orders, which heavy
    /// positions).
    fn input(self, rng: &mut SplitMix64) -> TestFile {
        let heavy = heavy_positions();
        let (ops, positions) = match self {
            Extreme::Heavy => (5, shuffled(heavy, rng)),
            Extreme::Ends => (3, shuffled(end_positions(), rng)),
            Extreme::Official => (5, distinct_positions(OFFICIAL_CASES, rng.next_u64())),
            Extreme::OfficialHeavy3 | Extreme::OfficialHeavy5 => {
                let ops = if self == Extreme::OfficialHeavy3 { 3 } else { 5 };
                (ops, (0..OFFICIAL_CASES).map(|_| heavy[rng.below(heavy.len())]).collect())
            }
            Extreme::EveryPositionMaxOps => {
                (MAX_OPS, distinct_positions(StartKey::CARDINALITY, rng.next_u64()))
            }
        };
        TestFile { ops, positions }
    }
}

/// The five full boards: four minions, 0 to 4 of them with 1 HP.
fn full_boards() -> impl Iterator<Item = Board> + Clone {
    (0..=MAX_MINIONS).map(|ones| Board { ones, twos: MAX_MINIONS - ones })
}

/// The 25 heavy positions: both players at [`MAX_HP`], both boards full, both hands full.
fn heavy_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for teacher_board in full_boards() {
        for e_board in full_boards() {
            positions.push(Position {
                e_hp: MAX_HP,
                teacher_hp: MAX_HP,
                e_board,
                teacher_board,
                e_hand: MAX_HAND,
                teacher_hand: MAX_HAND,
            });
        }
    }
    positions
}

/// The 576 positions whose every field is at an end of its range: HP 1 or [`MAX_HP`], each
/// board empty or full, each hand 0 or [`MAX_HAND`].
fn end_positions() -> Vec<Position> {
    let boards: Vec<Board> = std::iter::once(Board::EMPTY).chain(full_boards()).collect();
    let mut positions = Vec::new();
    for e_hp in [1, MAX_HP] {
        for teacher_hp in [1, MAX_HP] {
            for &teacher_board in &boards {
                for &e_board in &boards {
                    for teacher_hand in [0, MAX_HAND] {
                        for e_hand in [0, MAX_HAND] {
                            positions.push(Position {
                                e_hp,
                                teacher_hp,
                                e_board,
                                teacher_board,
                                e_hand,
                                teacher_hand,
                            });
                        }
                    }
                }
            }
        }
    }
    positions
}

/// `positions` in an order drawn by `rng` (Fisher-Yates).
fn shuffled(mut positions: Vec<Position>, rng: &mut SplitMix64) -> Vec<Position> {
    for i in (1..positions.len()).rev() {
        positions.swap(i, rng.below(i + 1));
    }
    positions
}

/// How many extreme files `limits` take: five, and under the extended limits a sixth.
pub(super) fn extremes(limits: Limits) -> u32 {
    Extreme::count(limits) as u32
}

/// Extreme file `k` under `limits`.
///
/// # Panics
/// When `limits` have no extreme `k`.
pub(super) fn extreme(k: u32, rng: &mut SplitMix64, limits: Limits) -> TestFile {
    let k = k as usize;
    assert!(k < Extreme::count(limits), "the {limits} limits have no extreme input {k}");
    Extreme::ALL[k].input(rng)
}

/// How many files of the official size the positions of O = `bound` fill.
///
/// # Errors
/// `bound` is not an O of `limits`.
pub(super) fn files(bound: u64, limits: Limits) -> Result<u64, Invalid> {
    let ops = InputFormat { limits }.ops();
    if !(u64::from(*ops.start())..=u64::from(*ops.end())).contains(&bound) {
        return Err(Invalid(format!(
            "the bound is O, in {}..={} under the {limits} limits; found {bound}",
            ops.start(),
            ops.end()
        )));
    }
    Ok(StartKey::CARDINALITY.div_ceil(OFFICIAL_CASES) as u64)
}

/// File `index` of the enumeration of O = `ops`, `index` below what [`files`] gives: the
/// positions of ranks `351,493 * index ..` in [`StartKey`] order. `O(351,493)`.
pub(super) fn exhaustive_file(ops: u8, index: usize) -> TestFile {
    let first = index * OFFICIAL_CASES;
    let end = (first + OFFICIAL_CASES).min(StartKey::CARDINALITY);
    TestFile {
        ops,
        positions: (first..end).map(|rank| StartKey::unrank(rank).position()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use judge::Problem;

    use super::*;
    use crate::Reference;
    use crate::judge::Judge;
    use crate::judge::tests::position;

    /// The first levels reach what the issue names: HP 1 and 2, empty and small boards, 1-HP
    /// and 2-HP minions, full hands, every O of the contest, and answers of every kind; the
    /// reference solver agrees with our answers on the first.
    #[test]
    fn small_levels_reach_the_small_positions_and_our_answers_pass() {
        let judge = Judge::new();
        let mut rng = SplitMix64::new(3);
        let mut ops = HashSet::new();
        let mut positions = Vec::new();
        let mut references: Vec<Reference> = (0..=5).map(Reference::new).collect();
        for level in 0..3 {
            for _ in 0..20 {
                let input = judge.generate(&mut rng, level, Limits::Original);
                // A judge a file, so that every file gets tables of its own reach.
                let answer = Judge::new().solve(&input);
                if level == 0 {
                    // The rules played literally agree, to the 9 decimals printed.
                    let reference = &mut references[usize::from(input.ops)];
                    for (p, &value) in input.positions.iter().zip(&answer) {
                        let exact = reference.value(p);
                        assert!((exact - value).abs() <= 5.000_001e-10, "{p:?}: {exact} {value}");
                    }
                }
                let mut output = Vec::new();
                judge.render_answer(&input, &answer, &mut output);
                assert!(judge.judge(&input, &answer, &output).is_ok());
                ops.insert(input.ops);
                positions.extend(input.positions.into_iter().zip(answer));
            }
        }
        assert_eq!(ops, HashSet::from([3, 4, 5]));
        let count =
            |f: &dyn Fn(&(Position, f64)) -> bool| positions.iter().filter(|p| f(p)).count();
        assert!(positions.len() > 1500, "{} cases", positions.len());
        assert!(count(&|(p, _)| p.e_hp == 1) > 200);
        assert!(count(&|(p, _)| p.teacher_hp == 2) > 200);
        assert!(count(&|(p, _)| p.e_board.is_empty() && p.teacher_board.is_empty()) > 100);
        assert!(count(&|(p, _)| p.e_board.ones > 0 && p.teacher_board.twos > 0) > 100);
        assert!(count(&|(p, _)| p.e_board.len() == MAX_MINIONS) > 20);
        assert!(count(&|(p, _)| p.e_hand == MAX_HAND && p.teacher_hand == MAX_HAND) > 200);
        assert!(count(&|(_, v)| *v == 1.0) > 200);
        assert!(count(&|(_, v)| *v > 0.0 && *v < 1.0) > 500);
        assert!(count(&|(_, v)| *v < 0.5) > 200, "the teacher is favoured often enough");
    }

    /// The extremes: HP 20, full boards and hands, the largest T, O at 3 and 5 (and 20 under
    /// the extended limits), each file what its name says.
    #[test]
    fn extremes_are_heavy_positions_ends_and_official_sizes() {
        let judge = Judge::new();
        assert_eq!(judge.extremes(Limits::Original), 5);
        assert_eq!(judge.extremes(Limits::Extended), 6);
        let mut rng = SplitMix64::new(8);
        let files: Vec<TestFile> =
            (0..6).map(|k| judge.extreme(k, &mut rng, Limits::Extended)).collect();
        let shape = |f: &TestFile| {
            let distinct: HashSet<usize> =
                f.positions.iter().map(|p| StartKey::of(p).rank()).collect();
            (f.ops, f.positions.len(), distinct.len())
        };
        let shapes: Vec<(u8, usize, usize)> = files.iter().map(shape).collect();
        assert_eq!(
            shapes,
            [
                (5, 25, 25),
                (3, 576, 576),
                (5, OFFICIAL_CASES, OFFICIAL_CASES),
                (3, OFFICIAL_CASES, 25),
                (5, OFFICIAL_CASES, 25),
                (MAX_OPS, StartKey::CARDINALITY, StartKey::CARDINALITY),
            ]
        );
        let heavy = |p: &Position| {
            (p.e_hp, p.teacher_hp, p.e_board.len(), p.teacher_board.len(), p.e_hand, p.teacher_hand)
                == (20, 20, 4, 4, 3, 3)
        };
        for k in [0, 3, 4] {
            assert!(files[k].positions.iter().all(heavy), "extreme {k}");
        }
        let ends = |p: &Position| {
            [p.e_hp, p.teacher_hp].iter().all(|&hp| hp == 1 || hp == 20)
                && [p.e_board, p.teacher_board].iter().all(|b| b.is_empty() || b.len() == 4)
                && [p.e_hand, p.teacher_hand].iter().all(|&h| h == 0 || h == 3)
        };
        assert!(files[1].positions.iter().all(ends));
        // Shuffled, so the first cases differ from the rank order; valid under the limits
        // they belong to (the last only under the extended ones).
        assert_ne!(files[0].positions, heavy_positions());
        for (k, file) in files.iter().enumerate() {
            let limits = if k < 5 { Limits::Original } else { Limits::Extended };
            assert_eq!(judge.validate(file, limits), Ok(()), "extreme {k}");
        }
        // Under the original limits the first five are the same files.
        let mut again = SplitMix64::new(8);
        for (k, file) in files.iter().take(5).enumerate() {
            assert_eq!(&judge.extreme(k as u32, &mut again, Limits::Original), file);
        }
    }

    #[test]
    fn the_exhaustive_files_hold_every_position_once_in_official_sizes() {
        let judge = Judge::new();
        assert_eq!(judge.exhaustive_len(5, Limits::Original), Ok(5));
        assert_eq!(judge.exhaustive_len(1, Limits::Extended), Ok(5));
        assert_eq!(
            judge.exhaustive_len(2, Limits::Original).unwrap_err().0,
            "the bound is O, in 3..=5 under the original limits; found 2"
        );
        assert!(judge.exhaustive_len(21, Limits::Extended).is_err());
        let mut seen = vec![false; StartKey::CARDINALITY];
        for index in 0..5 {
            let file = judge.exhaustive(4, index, Limits::Original).unwrap();
            assert_eq!(file.ops, 4);
            let expected = if index < 4 { OFFICIAL_CASES } else { 34_028 };
            assert_eq!(file.positions.len(), expected);
            for p in &file.positions {
                let rank = StartKey::of(p).rank();
                assert!(!seen[rank], "{p:?} twice");
                seen[rank] = true;
            }
            if index == 4 {
                assert_eq!(judge.validate(&file, Limits::Original), Ok(()));
            }
        }
        assert!(seen.iter().all(|&s| s), "every position once");
        assert_eq!(judge.exhaustive(4, 5, Limits::Original), None);
        let first = judge.exhaustive(3, 0, Limits::Original).unwrap().positions[0];
        assert_eq!(first, position(1, 1, (0, 0), (0, 0), (0, 0)));
    }
}
