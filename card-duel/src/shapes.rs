//! Board pairs inside a turn: the mover's minions split by HP and by whether they may still
//! attack, the other side's minions by HP, and the dense numbering of such pairs that the fast
//! solver's tables use.

use crate::rules::{BOARD_SHAPES, Board, MAX_MINIONS};

/// The mover's board during his turn: counts of ready 1-HP, spent 1-HP, ready 2-HP and spent
/// 2-HP minions. A minion is spent once it attacked, or when it was played this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TurnBoard(pub [u8; 4]);

/// Class positions inside a [`TurnBoard`].
pub(crate) const READY1: usize = 0;
pub(crate) const SPENT1: usize = 1;
pub(crate) const READY2: usize = 2;
pub(crate) const SPENT2: usize = 3;

engine::packed_key! {
    /// A board pair: the mover's turn board and the other side's board. Its rank numbers the
    /// pairs densely, `mover * 15 + other`.
    pub(crate) struct PairKey {
        /// Index of the mover's [`TurnBoard`].
        mover: usize in 0..70,
        /// Index of the other side's [`Board`].
        other: usize in 0..15,
    }
}

/// Number of board pairs, `70 * 15`.
pub(crate) const PAIRS: usize = PairKey::CARDINALITY;

/// `TURN_INDEX[r1][s1][r2][s2]`, numbered in lexicographic order; `u8::MAX` when over four.
const TURN_INDEX: [[[[u8; 5]; 5]; 5]; 5] = {
    let mut table = [[[[u8::MAX; 5]; 5]; 5]; 5];
    let mut next = 0;
    let mut a = 0;
    while a < 5 {
        let mut b = 0;
        while b < 5 {
            let mut c = 0;
            while c < 5 {
                let mut d = 0;
                while d < 5 {
                    if a + b + c + d <= MAX_MINIONS as usize {
                        table[a][b][c][d] = next;
                        next += 1;
                    }
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
};

impl TurnBoard {
    /// The board at the start of a turn: every minion ready.
    pub(crate) fn ready(board: Board) -> TurnBoard {
        TurnBoard([board.ones, 0, board.twos, 0])
    }

    /// Dense index in `0..70` (four counts with sum at most 4: `C(8, 4)` boards).
    pub(crate) fn index(self) -> usize {
        let [a, b, c, d] = self.0.map(usize::from);
        TURN_INDEX[a][b][c][d] as usize
    }

    /// Every turn board, in index order.
    pub(crate) fn all() -> impl Iterator<Item = TurnBoard> {
        let max = MAX_MINIONS;
        (0..=max).flat_map(move |a| {
            (0..=max - a).flat_map(move |b| {
                (0..=max - a - b)
                    .flat_map(move |c| (0..=max - a - b - c).map(move |d| TurnBoard([a, b, c, d])))
            })
        })
    }

    /// Number of minions.
    pub(crate) fn len(self) -> u8 {
        self.0.iter().sum()
    }

    /// Total HP of the minions.
    pub(crate) fn hp(self) -> u8 {
        self.0[READY1] + self.0[SPENT1] + 2 * (self.0[READY2] + self.0[SPENT2])
    }

    /// The same minions with the attack marks forgotten, as the other side will see them.
    pub(crate) fn board(self) -> Board {
        Board { ones: self.0[READY1] + self.0[SPENT1], twos: self.0[READY2] + self.0[SPENT2] }
    }

    /// Whether every minion may still attack (as at the start of a turn).
    pub(crate) fn all_ready(self) -> bool {
        self.0[SPENT1] == 0 && self.0[SPENT2] == 0
    }
}

/// The dense index of a board pair.
pub(crate) fn pair_index(mover: TurnBoard, other: Board) -> usize {
    PairKey { mover: mover.index(), other: other.index() }.rank()
}

/// The board pair with dense index `index`.
pub(crate) fn pair_of(index: usize) -> (TurnBoard, Board) {
    let key = PairKey::unrank(index);
    (TURN_BOARDS[key.mover], Board::from_index(key.other))
}

/// Every turn board by index.
static TURN_BOARDS: std::sync::LazyLock<Vec<TurnBoard>> =
    std::sync::LazyLock::new(|| TurnBoard::all().collect());

const _: () = assert!(BOARD_SHAPES == 15);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_boards_are_dense_and_round_trip() {
        let all: Vec<TurnBoard> = TurnBoard::all().collect();
        assert_eq!(all.len(), 70);
        for (i, t) in all.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
        for i in 0..PAIRS {
            let (m, o) = pair_of(i);
            assert_eq!(pair_index(m, o), i);
        }
    }
}
