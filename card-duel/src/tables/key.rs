//! Where a turn start's value sits in the value table: [`StartKey`] ranks, with the two hands
//! innermost so that a cell's 16 hand slots are 16 consecutive values.

use crate::rules::{BOARD_SHAPES, Board, MAX_HAND, MAX_HP, Position};

engine::packed_key! {
    /// A position at the start of a turn, before the draw, from the mover's side. Its rank
    /// indexes the value table; there are 20 * 20 * 15 * 15 * 4 * 4 = 1,440,000 of them.
    pub struct StartKey {
        /// The mover's HP.
        mover_hp: u8 in 1..21,
        /// The other player's HP.
        other_hp: u8 in 1..21,
        /// [`Board::index`] of the mover's minions.
        mover_board: usize in 0..15,
        /// [`Board::index`] of the other player's minions.
        other_board: usize in 0..15,
        /// Cards in the mover's hand, before his draw.
        mover_hand: u8 in 0..4,
        /// Cards in the other player's hand.
        other_hand: u8 in 0..4,
    }
}

impl StartKey {
    /// E's turn start in `position`.
    #[must_use]
    pub fn of(position: &Position) -> StartKey {
        StartKey {
            mover_hp: position.e_hp,
            other_hp: position.teacher_hp,
            mover_board: position.e_board.index(),
            other_board: position.teacher_board.index(),
            mover_hand: position.e_hand,
            other_hand: position.teacher_hand,
        }
    }

    /// The position where E is the mover of this key.
    #[must_use]
    pub fn position(self) -> Position {
        Position {
            e_hp: self.mover_hp,
            teacher_hp: self.other_hp,
            e_board: Board::from_index(self.mover_board),
            teacher_board: Board::from_index(self.other_board),
            e_hand: self.mover_hand,
            teacher_hand: self.other_hand,
        }
    }
}

/// Sizes a hand can have, `0..=MAX_HAND`.
pub(super) const HAND_SIZES: usize = MAX_HAND as usize + 1;

/// Slots of one (mover hand, other hand) table: a plays-left row of a cell's block, and the
/// innermost dimension of [`StartKey`] ranks.
pub(super) const HANDS: usize = HAND_SIZES * HAND_SIZES;

/// Hand slot `(mover hand, other hand)` inside one plays-left row, and inside the
/// [`StartKey`] ranks of one turn start.
pub(super) const fn hand_slot(mover: usize, other: usize) -> usize {
    mover * HAND_SIZES + other
}

/// Rank of the first hand slot of a turn start: mover HP `a`, other HP `b` and the two
/// boards' [`Board::index`].
#[inline]
pub(super) fn start_rank(a: u8, b: u8, mover_board: u8, other_board: u8) -> usize {
    StartKey {
        mover_hp: a,
        other_hp: b,
        mover_board: mover_board.into(),
        other_board: other_board.into(),
        mover_hand: 0,
        other_hand: 0,
    }
    .rank()
}

// The key's literal ranges must agree with the limits in `rules`.
const _: () = assert!(
    (MAX_HP as usize).pow(2) * BOARD_SHAPES * BOARD_SHAPES * HANDS == StartKey::CARDINALITY
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_slots_are_innermost_in_start_ranks() {
        let p = Position {
            e_hp: 7,
            teacher_hp: 3,
            e_board: Board { ones: 1, twos: 2 },
            teacher_board: Board { ones: 0, twos: 1 },
            e_hand: 2,
            teacher_hand: 1,
        };
        let key = StartKey::of(&p);
        assert_eq!(key.position(), p);
        assert_eq!(key.rank(), start_rank(7, 3, 7, 1) + hand_slot(2, 1));
    }
}
