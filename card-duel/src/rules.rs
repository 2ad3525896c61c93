//! The game's pieces as both solvers see them: the limits, a board as counts of 1-HP and 2-HP
//! minions, a position just before E's turn, and the actions a player can take.

use std::fmt;

/// Largest hit points a player may have in the input (the original's limit). The dense tables
/// are sized for it, so larger values are rejected rather than silently mis-indexed.
pub const MAX_HP: u8 = 20;
/// Largest O (hero powers plus cards played per turn) the solvers accept. The original uses
/// 3..=5; time and memory of the fast solver grow linearly with O.
pub const MAX_OPS: u8 = 20;
/// The values of O the contest allows.
pub const ORIGINAL_OPS: std::ops::RangeInclusive<u8> = 3..=5;
/// Cases in an official data file, the most the contest allows in one.
pub const OFFICIAL_CASES: usize = 351_493;
/// Most minions a board holds.
pub(crate) const MAX_MINIONS: u8 = 4;
/// Most cards a hand holds.
pub(crate) const MAX_HAND: u8 = 3;
/// Distinct boards of one side: `ones + twos <= 4`.
pub(crate) const BOARD_SHAPES: usize = 15;
/// HP a hero power costs its user.
pub(crate) const HERO_POWER_COST: u8 = 2;
/// HP a minion's face attack takes from the enemy player.
pub(crate) const FACE_DAMAGE: u8 = 3;
/// Pings a played card makes before it lands, each taking 1 HP from a random character.
pub(crate) const PINGS_PER_PLAY: u8 = 3;
/// HP of a played minion, the most a minion ever has.
pub(crate) const MINION_HP: u8 = 2;

/// One side's minions. Minions of equal HP are interchangeable, so counts say everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// Minions with 1 HP.
    pub ones: u8,
    /// Minions with 2 HP.
    pub twos: u8,
}

/// Counts of minions of one kind a board can hold, `0..=MAX_MINIONS`.
const MINION_COUNTS: usize = MAX_MINIONS as usize + 1;

/// `BOARD_INDEX[ones][twos]`: boards numbered in lexicographic order of `(ones, twos)`.
const BOARD_INDEX: [[u8; MINION_COUNTS]; MINION_COUNTS] = {
    let mut table = [[u8::MAX; MINION_COUNTS]; MINION_COUNTS];
    let mut next = 0;
    let mut ones = 0;
    while ones <= MAX_MINIONS as usize {
        let mut twos = 0;
        while ones + twos <= MAX_MINIONS as usize {
            table[ones][twos] = next;
            next += 1;
            twos += 1;
        }
        ones += 1;
    }
    table
};

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { ones: 0, twos: 0 };

    /// A board of `ones` 1-HP and `twos` 2-HP minions, if it holds at most four.
    #[must_use]
    pub const fn new(ones: u8, twos: u8) -> Option<Board> {
        if ones as u16 + twos as u16 <= MAX_MINIONS as u16 {
            Some(Board { ones, twos })
        } else {
            None
        }
    }

    /// Number of minions.
    #[must_use]
    pub const fn len(self) -> u8 {
        self.ones + self.twos
    }

    /// Whether the board has no minion.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Total HP of the minions.
    #[must_use]
    pub const fn hp(self) -> u8 {
        self.ones + 2 * self.twos
    }

    /// Dense index in `0..BOARD_SHAPES`.
    #[must_use]
    pub const fn index(self) -> usize {
        BOARD_INDEX[self.ones as usize][self.twos as usize] as usize
    }

    /// Inverse of [`Board::index`].
    ///
    /// # Panics
    /// When `index >= BOARD_SHAPES`.
    #[must_use]
    pub(crate) fn from_index(index: usize) -> Board {
        Board::all().nth(index).unwrap_or_else(|| panic!("board index {index} out of range"))
    }

    /// Every board, in index order.
    pub fn all() -> impl Iterator<Item = Board> {
        (0..=MAX_MINIONS)
            .flat_map(|ones| (0..=MAX_MINIONS - ones).map(move |twos| Board { ones, twos }))
    }
}

/// A position just before E's turn starts (E draws first), as the input gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// E's hit points, `1..=MAX_HP`.
    pub e_hp: u8,
    /// The teacher's hit points, `1..=MAX_HP`.
    pub teacher_hp: u8,
    /// E's minions.
    pub e_board: Board,
    /// The teacher's minions.
    pub teacher_board: Board,
    /// Cards in E's hand, `0..=MAX_HAND`.
    pub e_hand: u8,
    /// Cards in the teacher's hand, `0..=MAX_HAND`.
    pub teacher_hand: u8,
}

impl Position {
    /// Total HP on the table: both players and every minion.
    #[must_use]
    pub fn total_hp(&self) -> u8 {
        self.e_hp + self.teacher_hp + self.e_board.hp() + self.teacher_board.hp()
    }

    /// E's hand after the draw that starts his turn.
    #[must_use]
    pub(crate) fn e_hand_after_draw(&self) -> u8 {
        (self.e_hand + 1).min(MAX_HAND)
    }
}

/// One operation of a turn. Minions are named by their HP because equal minions are
/// interchangeable: two ready 1-HP minions offer the same choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Lose 2 HP, draw a card.
    HeroPower,
    /// A ready minion with `minion_hp` HP hits the enemy player for 3.
    Face {
        /// HP of the attacking minion (1 or 2).
        minion_hp: u8,
    },
    /// A ready minion with `minion_hp` HP and an enemy minion with `target_hp` HP both die.
    Trade {
        /// HP of the attacking minion (1 or 2).
        minion_hp: u8,
        /// HP of the enemy minion (1 or 2).
        target_hp: u8,
    },
    /// Play a card: three random pings, then a 2-HP minion that cannot attack this turn.
    Play,
    /// End the turn.
    EndTurn,
}

impl Action {
    /// Every action that can open a turn, in the order explanations list them (ending the
    /// turn cannot open one): the order `Action` sorts in, which a test checks.
    pub const FIRST: [Action; 8] = [
        Action::HeroPower,
        Action::Face { minion_hp: 1 },
        Action::Face { minion_hp: 2 },
        Action::Trade { minion_hp: 1, target_hp: 1 },
        Action::Trade { minion_hp: 1, target_hp: 2 },
        Action::Trade { minion_hp: 2, target_hp: 1 },
        Action::Trade { minion_hp: 2, target_hp: 2 },
        Action::Play,
    ];
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::HeroPower => f.write_str("hero power"),
            Action::Face { minion_hp } => write!(f, "face with a {minion_hp}-HP minion"),
            Action::Trade { minion_hp, target_hp } => {
                write!(f, "trade a {minion_hp}-HP minion for an enemy {target_hp}-HP minion")
            }
            Action::Play => f.write_str("play a card"),
            Action::EndTurn => f.write_str("end the turn"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_indices_are_dense_and_round_trip() {
        let boards: Vec<Board> = Board::all().collect();
        assert_eq!(boards.len(), BOARD_SHAPES);
        for (i, b) in boards.iter().enumerate() {
            assert_eq!(b.index(), i);
            assert_eq!(Board::from_index(i), *b);
            assert!(b.len() <= MAX_MINIONS);
        }
        assert_eq!(Board::new(3, 2), None);
        assert_eq!(Board::new(2, 2).map(Board::hp), Some(6));
    }

    #[test]
    fn the_first_actions_are_listed_in_the_order_actions_sort_in() {
        // Explanations sort actions by `Ord`; the documentation names `Action::FIRST`.
        assert!(Action::FIRST.is_sorted());
        assert!(Action::FIRST.iter().all(|&action| action < Action::EndTurn));
    }
}
