//! Board pairs inside a turn: the mover's minions split by HP and by whether they may still
//! attack, the other side's minions by HP, the dense numbering of such pairs that the value
//! tables use, and what each pair's operations lead to ([`PairInfo`]).

use std::sync::LazyLock;

use crate::rules::{BOARD_SHAPES, Board, FACE_DAMAGE, MAX_MINIONS};

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

/// Counts one class of a [`TurnBoard`] can hold, `0..=MAX_MINIONS`.
const COUNTS: usize = MAX_MINIONS as usize + 1;

/// `TURN_INDEX[r1][s1][r2][s2]`, numbered in lexicographic order; `u8::MAX` when over
/// [`MAX_MINIONS`].
const TURN_INDEX: [[[[u8; COUNTS]; COUNTS]; COUNTS]; COUNTS] = {
    let mut table = [[[[u8::MAX; COUNTS]; COUNTS]; COUNTS]; COUNTS];
    let mut next = 0;
    let mut a = 0;
    while a < COUNTS {
        let mut b = 0;
        while b < COUNTS {
            let mut c = 0;
            while c < COUNTS {
                let mut d = 0;
                while d < COUNTS {
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
static TURN_BOARDS: LazyLock<Vec<TurnBoard>> = LazyLock::new(|| TurnBoard::all().collect());

const _: () = assert!(BOARD_SHAPES == 15);

/// What a cell's operations lead to, for one board pair. Independent of HP and hands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairInfo {
    /// Total minion HP.
    pub(crate) hp: u8,
    /// The pair after a face attack by a ready 1-HP or 2-HP minion.
    pub(crate) face: [Option<u16>; 2],
    /// The pair after a ready `i+1`-HP minion trades with an enemy `j+1`-HP minion.
    pub(crate) trade: [[Option<u16>; 2]; 2],
    /// Whether the mover's board has room for a card.
    pub(crate) can_play: bool,
    /// Damage of every ready minion's face attack: an other player with at most this much HP
    /// dies this turn whatever happens, so the cell is worth 1.
    pub(crate) lethal: u8,
    /// When every minion is ready: the boards' indices as a turn start.
    pub(crate) start: Option<(u8, u8)>,
    /// The pair of the next turn start.
    pub(crate) next_start: u16,
    /// Whether no card was played this turn: the mover has no spent 2-HP minion (a card
    /// lands as one, and only a later play can damage it).
    pub(crate) unplayed: bool,
}

/// [`PairInfo`] of every board pair, by [`pair_index`].
pub(crate) static PAIR_INFO: LazyLock<Vec<PairInfo>> =
    LazyLock::new(|| (0..PAIRS).map(pair_info).collect());

/// The [`PairInfo`] of the pair with dense index `pair`. `O(1)`.
fn pair_info(pair: usize) -> PairInfo {
    let (mover, other) = pair_of(pair);
    let m = mover.0;
    let face = [(READY1, SPENT1), (READY2, SPENT2)].map(|(ready, spent)| {
        (m[ready] > 0).then(|| {
            let mut after = m;
            after[ready] -= 1;
            after[spent] += 1;
            pair_index(TurnBoard(after), other) as u16
        })
    });
    let enemy_after = [
        (other.ones > 0).then(|| Board { ones: other.ones - 1, twos: other.twos }),
        (other.twos > 0).then(|| Board { ones: other.ones, twos: other.twos - 1 }),
    ];
    let trade = [READY1, READY2].map(|ready| {
        enemy_after.map(|left| {
            let left = left?;
            (m[ready] > 0).then(|| {
                let mut after = m;
                after[ready] -= 1;
                pair_index(TurnBoard(after), left) as u16
            })
        })
    });
    let board = mover.board();
    PairInfo {
        hp: mover.hp() + other.hp(),
        face,
        trade,
        can_play: mover.len() < MAX_MINIONS,
        lethal: FACE_DAMAGE * (m[READY1] + m[READY2]),
        start: mover.all_ready().then_some((board.index() as u8, other.index() as u8)),
        next_start: pair_index(TurnBoard::ready(other), board) as u16,
        unplayed: m[SPENT2] == 0,
    }
}

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
