//! [`Exact`]: any game's exact values from its [`Rules`] alone, by a memoized search over
//! every position reachable: the shared reference of the problems' differential tests, and
//! the whole valuer of a small game.
//!
//! A position's value is kept for one player, the one who moves there (the winner once the
//! game is over), and turned to another player's view when asked: a win for one is a loss
//! for the other in the same number of moves, a probability `p` is `1 - p`. A player's
//! position takes the best of its moves ([`Value::rank`]: win fastest, lose slowest, highest
//! probability), each move's value the child's seen by the mover one move earlier
//! ([`Value::after_move`] when the turn passes, [`Value::after_own_move`] when the mover
//! moves again). A chance node is the expectation of its children's winning probabilities,
//! a [`Value::Chance`] (remoteness is not defined through chance). A finished game is a win
//! in 0 moves for its winner, so a loss in 0 for the other, as GamesmanOne counts.
//!
//! Cost: `O(P * d)` time and `O(P)` memory for `P` positions reachable and `d` moves a
//! position, and recursion as deep as the longest game. The game must be finite: a
//! position reached again while it is being valued is a cycle, and panics.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;

use crate::{Rules, Turn, Value};

/// Exact values of one game's positions, memoized (see the module notes).
#[derive(Debug)]
pub struct Exact<P, Q> {
    /// Each position valued (for the player kept with it), or `None` while it is being
    /// valued. Interior mutability lets a game keep its `Exact` beside the rules it borrows.
    memo: RefCell<HashMap<P, Option<(Q, Value)>>>,
}

impl<P, Q> Default for Exact<P, Q> {
    fn default() -> Self {
        Self { memo: RefCell::new(HashMap::new()) }
    }
}

impl<P: Clone + Eq + Hash, Q: Copy + PartialEq> Exact<P, Q> {
    /// An empty memo.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Positions valued so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.memo.borrow().len()
    }

    /// Whether nothing is valued yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every value (another game's rules come next).
    pub fn clear(&self) {
        self.memo.borrow_mut().clear();
    }

    /// The value of `position` for `player`. See the module notes for the cost.
    ///
    /// # Panics
    /// When the game has a cycle from `position`.
    pub fn value_for<R>(&self, rules: &R, position: &P, player: Q) -> Value
    where
        R: Rules<Position = P, Player = Q>,
    {
        let (owner, value) = self.solve(rules, position);
        if owner == player { value } else { value.flipped() }
    }

    /// Every legal move of `position` with its value for the mover, in [`Rules::moves`]
    /// order; empty at a chance node or once the game is over.
    ///
    /// # Panics
    /// When the game has a cycle from `position`.
    pub fn moves<R>(&self, rules: &R, position: &P) -> Vec<(R::Move, Value)>
    where
        R: Rules<Position = P, Player = Q>,
    {
        let Turn::Player(mover) = rules.turn(position) else { return Vec::new() };
        rules
            .moves(position)
            .into_iter()
            .map(|mv| {
                let value = self.seen_by(rules, &rules.after(position, &mv), mover);
                (mv, value)
            })
            .collect()
    }

    /// The value for `mover` of a move into `child`.
    fn seen_by<R>(&self, rules: &R, child: &P, mover: Q) -> Value
    where
        R: Rules<Position = P, Player = Q>,
    {
        let (owner, value) = self.solve(rules, child);
        if owner == mover { value.after_own_move() } else { value.after_move() }
    }

    /// The value of `position` and the player it is for.
    fn solve<R>(&self, rules: &R, position: &P) -> (Q, Value)
    where
        R: Rules<Position = P, Player = Q>,
    {
        if let Some(known) = self.memo.borrow().get(position) {
            return known.expect("the game has no cycle: a position is not reached again");
        }
        let solved = match rules.turn(position) {
            Turn::Over(winner) => (winner, Value::win(0)),
            Turn::Player(mover) => {
                self.memo.borrow_mut().insert(position.clone(), None);
                let moves = rules.moves(position);
                let best = moves
                    .iter()
                    .map(|mv| self.seen_by(rules, &rules.after(position, mv), mover))
                    .min_by_key(|v| v.rank())
                    .expect("a player to move has a legal move");
                (mover, best)
            }
            Turn::Chance => {
                self.memo.borrow_mut().insert(position.clone(), None);
                let mut owner = None;
                let mut probability = 0.0;
                for (mv, p) in rules.chances(position) {
                    let (q, value) = self.solve(rules, &rules.after(position, &mv));
                    let first = *owner.get_or_insert(q);
                    let value = if q == first { value } else { value.flipped() };
                    probability += p * value.probability();
                }
                (owner.expect("chance has a move"), Value::Chance { probability })
            }
        };
        self.memo.borrow_mut().insert(position.clone(), Some(solved));
        solved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Take 1 or 2 from a pile; who takes the last wins. With a coin flip before every move
    /// when `coin`: heads takes one more from the pile for nobody.
    struct Pile {
        coin: bool,
    }

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct At {
        left: u32,
        mover: u8,
        flipped: bool,
    }

    impl Rules for Pile {
        type Position = At;
        type Move = u32;
        type Player = u8;

        fn turn(&self, p: &At) -> Turn<u8> {
            if p.left == 0 {
                Turn::Over(1 - p.mover)
            } else if self.coin && !p.flipped {
                Turn::Chance
            } else {
                Turn::Player(p.mover)
            }
        }

        fn moves(&self, p: &At) -> Vec<u32> {
            (1..=p.left.min(2)).collect()
        }

        fn chances(&self, p: &At) -> Vec<(u32, f64)> {
            if matches!(self.turn(p), Turn::Chance) { vec![(0, 0.5), (1, 0.5)] } else { vec![] }
        }

        fn after(&self, p: &At, mv: &u32) -> At {
            if matches!(self.turn(p), Turn::Chance) {
                // Heads takes one for nobody; the same player moves next, and loses if it was
                // the last.
                return At { left: p.left - mv, mover: p.mover, flipped: true };
            }
            At { left: p.left - mv, mover: 1 - p.mover, flipped: false }
        }
    }

    #[test]
    fn values_follow_the_rules_with_remoteness() {
        let (rules, exact) = (Pile { coin: false }, Exact::new());
        // Multiples of 3 lose; the others win in one move or by reaching a multiple of 3.
        for left in 1..=20u32 {
            let start = At { left, mover: 0, flipped: false };
            let value = exact.value_for(&rules, &start, 0);
            let remoteness = left.div_ceil(3) * 2 - u32::from(left % 3 != 0);
            if left % 3 == 0 {
                assert_eq!(value, Value::lose(2 * left / 3), "{left}");
            } else {
                assert_eq!(value, Value::win(remoteness), "{left}");
            }
            assert_eq!(exact.value_for(&rules, &start, 1).kind(), value.flipped().kind());
        }
        let moves = exact.moves(&rules, &At { left: 4, mover: 0, flipped: false });
        assert_eq!(moves, vec![(1, Value::win(3)), (2, Value::lose(2))]);
    }

    #[test]
    fn chance_nodes_are_expectations() {
        let (rules, exact) = (Pile { coin: true }, Exact::new());
        // One stone: tails, the mover takes it and wins; heads takes it for nobody, and the
        // mover, facing an empty pile, has lost.
        let one = At { left: 1, mover: 0, flipped: false };
        assert!((exact.value_for(&rules, &one, 0).probability() - 0.5).abs() < 1e-12);
        assert!((exact.value_for(&rules, &one, 1).probability() - 0.5).abs() < 1e-12);
        let mut total = 0.0;
        for left in 1..=12 {
            let p = exact.value_for(&rules, &At { left, mover: 0, flipped: false }, 0);
            let q = exact.value_for(&rules, &At { left, mover: 0, flipped: false }, 1);
            assert!((p.probability() + q.probability() - 1.0).abs() < 1e-12);
            total += p.probability();
        }
        assert!(total > 0.0 && total < 12.0);
    }
}
