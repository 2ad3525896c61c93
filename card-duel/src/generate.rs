//! Generated inputs from fixed seeds, for the benchmark, the tests and stress testing: files
//! shaped like the official data (distinct positions drawn uniformly), every position of one O
//! shuffled, and [`Family`]s of positions drawn one at a time.
//!
//! Everything is drawn with [`SplitMix64`], whose outputs never change across versions, so a
//! seed names the same file forever: `cargo xtask bench card-duel` times the same inputs from
//! one release to the next.

use engine::rng::SplitMix64;

use crate::parse::write_input;
use crate::pings::SAFE_HP;
use crate::rules::{
    BOARD_SHAPES, Board, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_HP, MAX_MINIONS, Position,
};
use crate::tables::StartKey;

/// The seed of the benchmark's files, and of `cargo xtask gen card-duel` unless told otherwise.
pub const SEED: u64 = 2021;

/// Most HP a player has in [`Family::SmallHp`]: small enough for the reference solver,
/// whatever the boards.
pub const SMALL_HP: u8 = 5;

/// `count` distinct positions drawn uniformly from the 1,440,000 of one O, in drawn order (a
/// partial Fisher-Yates shuffle of the [`StartKey`] ranks); `count` is capped at 1,440,000.
/// The official data files are such draws. `O(1,440,000)` time and space whatever `count`.
#[must_use]
pub fn distinct_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut ranks: Vec<u32> = (0..StartKey::CARDINALITY as u32).collect();
    let count = count.min(ranks.len());
    for i in 0..count {
        let j = rng.range(i as u64, ranks.len() as u64 - 1) as usize;
        ranks.swap(i, j);
    }
    ranks[..count].iter().map(|&r| StartKey::unrank(r as usize).position()).collect()
}

/// Every position of one O, shuffled: [`distinct_positions`] of all 1,440,000. `O(1,440,000)`.
#[must_use]
pub fn all_positions(seed: u64) -> Vec<Position> {
    distinct_positions(StartKey::CARDINALITY, seed)
}

/// The judge's input of an official-size file: `cases` distinct positions drawn uniformly for
/// O = `ops` (the official files hold [`OFFICIAL_CASES`](crate::OFFICIAL_CASES)).
/// `O(1,440,000 + cases)`.
#[must_use]
pub fn official_file(ops: u8, cases: usize, seed: u64) -> String {
    write_input(ops, &distinct_positions(cases, seed))
}

/// The judge's input holding every position of one O once, shuffled. `O(1,440,000)`.
#[must_use]
pub fn all_file(ops: u8, seed: u64) -> String {
    write_input(ops, &all_positions(seed))
}

/// A kind of position, drawn one at a time: what a stress test feeds a program case by case,
/// or a test runs where one kind of position matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Uniform over the 1,440,000 positions of one O (repeats are possible).
    Uniform,
    /// The costliest positions: both players at [`MAX_HP`], both boards full (any mix of 1-HP
    /// and 2-HP minions) and both hands full. They reach the most cells; 25 distinct.
    Heavy,
    /// Both players at [`SMALL_HP`] HP or less, any boards and hands: small enough for the
    /// reference solver, and often decided by who dies to a ping first.
    SmallHp,
    /// Every field at an end of its range or at a threshold of the rules: HP 1 (any ping
    /// kills), 2 (a hero power kills), 3 (a face attack kills), 4 (the pings of one play
    /// cannot kill), [`MAX_HP`] - 1 or [`MAX_HP`]; each board empty or full; each hand empty
    /// or full.
    Edge,
}

impl Family {
    /// Every family, in declaration order.
    pub const ALL: [Family; 4] = [Family::Uniform, Family::Heavy, Family::SmallHp, Family::Edge];

    /// One position of the family. `O(1)`.
    pub fn draw(self, rng: &mut SplitMix64) -> Position {
        match self {
            Family::Uniform => StartKey::unrank(rng.below(StartKey::CARDINALITY)).position(),
            Family::Heavy => Position {
                e_hp: MAX_HP,
                teacher_hp: MAX_HP,
                e_board: full_board(rng),
                teacher_board: full_board(rng),
                e_hand: MAX_HAND,
                teacher_hand: MAX_HAND,
            },
            Family::SmallHp => {
                let mut hp = || rng.range(1, u64::from(SMALL_HP)) as u8;
                let (e_hp, teacher_hp) = (hp(), hp());
                let mut board = || Board::from_index(rng.below(BOARD_SHAPES));
                let (e_board, teacher_board) = (board(), board());
                let mut hand = || rng.range(0, u64::from(MAX_HAND)) as u8;
                let (e_hand, teacher_hand) = (hand(), hand());
                Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand }
            }
            Family::Edge => {
                let edges = [1, HERO_POWER_COST, FACE_DAMAGE, SAFE_HP, MAX_HP - 1, MAX_HP];
                let e_hp = edges[rng.below(edges.len())];
                let teacher_hp = edges[rng.below(edges.len())];
                let board = |rng: &mut SplitMix64| {
                    if rng.chance(1, 2) { full_board(rng) } else { Board::EMPTY }
                };
                let (e_board, teacher_board) = (board(rng), board(rng));
                let mut hand = || if rng.chance(1, 2) { MAX_HAND } else { 0 };
                let (e_hand, teacher_hand) = (hand(), hand());
                Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand }
            }
        }
    }
}

/// A board of [`MAX_MINIONS`] minions, each count of 1-HP minions equally likely.
fn full_board(rng: &mut SplitMix64) -> Board {
    let ones = rng.range(0, u64::from(MAX_MINIONS)) as u8;
    Board { ones, twos: MAX_MINIONS - ones }
}

/// `count` positions of `family` drawn one after another from `seed`. `O(count)`.
#[must_use]
pub fn positions(family: Family, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| family.draw(&mut rng)).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::rules::OFFICIAL_CASES;

    #[test]
    fn drawn_positions_are_distinct_and_reproducible() {
        let a = distinct_positions(5000, 7);
        assert_eq!(a, distinct_positions(5000, 7));
        let keys: HashSet<usize> = a.iter().map(|p| StartKey::of(p).rank()).collect();
        assert_eq!(keys.len(), 5000);
        assert_eq!(distinct_positions(StartKey::CARDINALITY + 1, 7).len(), StartKey::CARDINALITY);
    }

    #[test]
    fn the_benchmark_files_never_change() {
        // FNV-1a over the ranks of the official file's positions, as drawn when the generator
        // lived in xtask: a change here changes every figure measured on these files.
        let digest = |positions: &[Position]| {
            positions.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, p| {
                (h ^ StartKey::of(p).rank() as u64).wrapping_mul(0x0100_0000_01b3)
            })
        };
        assert_eq!(digest(&distinct_positions(OFFICIAL_CASES, SEED)), 6_765_647_670_303_755_383);
        assert!(official_file(5, 3, SEED).starts_with("3 5\n"));
    }

    #[test]
    fn families_stay_in_their_ranges_and_are_reproducible() {
        for family in Family::ALL {
            let drawn = positions(family, 2000, 11);
            assert_eq!(drawn, positions(family, 2000, 11));
            let distinct: HashSet<usize> = drawn.iter().map(|p| StartKey::of(p).rank()).collect();
            for p in &drawn {
                assert!((1..=MAX_HP).contains(&p.e_hp) && (1..=MAX_HP).contains(&p.teacher_hp));
                assert!(p.e_hand <= MAX_HAND && p.teacher_hand <= MAX_HAND);
                match family {
                    Family::Uniform => {}
                    Family::Heavy => {
                        assert_eq!((p.e_hp, p.teacher_hp), (MAX_HP, MAX_HP));
                        assert_eq!((p.e_board.len(), p.teacher_board.len()), (4, 4));
                        assert_eq!((p.e_hand, p.teacher_hand), (MAX_HAND, MAX_HAND));
                    }
                    Family::SmallHp => assert!(p.e_hp.max(p.teacher_hp) <= SMALL_HP),
                    Family::Edge => {
                        for hp in [p.e_hp, p.teacher_hp] {
                            assert!(hp <= SAFE_HP || hp >= MAX_HP - 1);
                        }
                        for board in [p.e_board, p.teacher_board] {
                            assert!(board.is_empty() || board.len() == MAX_MINIONS);
                        }
                        for hand in [p.e_hand, p.teacher_hand] {
                            assert!(hand == 0 || hand == MAX_HAND);
                        }
                    }
                }
            }
            // Each family covers its kind: every heavy position, and many of the others.
            let expected = if family == Family::Heavy { 25 } else { 500 };
            assert!(distinct.len() >= expected, "{family:?}: {} distinct", distinct.len());
        }
    }
}
