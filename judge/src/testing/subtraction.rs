//! A fourth game in one file: the subtraction game on the toy problem's input, valued by the
//! generic exact search ([`games::exact::Exact`]). It shows what a game costs: the rules,
//! the notation and the problem's side, nothing else; `play`, `query`, `interact` and
//! `stress --interactive` come from the judge and the `games` crate
//! (`judge/tests/end_to_end/subtraction.rs` plays it through each).
//!
//! Each case `a b` of [`Sum`](super::toy::Sum)'s input is one game: a pile of `a` stones;
//! the players, first and second, take turns taking 1 to `b` stones; who takes the last one
//! wins. The interactive version opens each game with the line `a b` and the program's side
//! (`first` or `second`); a move is the number of stones taken.

use games::exact::Exact;
use games::{Game, MoveError, Notation, Rules, Turn, Value};
use serde::Serialize;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Side {
    fn other(self) -> Self {
        if self == Self::First { Self::Second } else { Self::First }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Self::First { "first" } else { "second" })
    }
}

/// A position, which is also its board: the stones left, the most a move takes, the player
/// to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Pile {
    /// Stones left.
    pub left: u32,
    /// The most stones a move takes.
    pub most: u32,
    /// The player to move (once the pile is empty, the loser: the winner took the last
    /// stone).
    pub mover: Side,
}

/// The subtraction game, valued by the generic exact search.
#[derive(Debug, Default)]
pub struct Subtraction {
    exact: Exact<Pile, Side>,
}

impl Subtraction {
    /// A game with an empty memo.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl Rules for Subtraction {
    type Position = Pile;
    type Move = u32;
    type Player = Side;

    fn turn(&self, pile: &Pile) -> Turn<Side> {
        if pile.left == 0 { Turn::Over(pile.mover.other()) } else { Turn::Player(pile.mover) }
    }

    fn moves(&self, pile: &Pile) -> Vec<u32> {
        (1..=pile.most.min(pile.left)).collect()
    }

    fn after(&self, pile: &Pile, taken: &u32) -> Pile {
        Pile { left: pile.left - taken, most: pile.most, mover: pile.mover.other() }
    }
}

impl Notation for Subtraction {
    type Board = Pile;

    fn parse_move(&self, pile: &Pile, line: &str) -> Result<u32, MoveError> {
        let taken: u32 =
            line.parse().map_err(|_| MoveError::Malformed("expected a number".to_owned()))?;
        if self.moves(pile).contains(&taken) {
            Ok(taken)
        } else {
            let most = pile.most.min(pile.left);
            Err(MoveError::Illegal(format!("a move takes 1 to {most} stones")))
        }
    }

    fn write_move(&self, _: &Pile, taken: &u32) -> String {
        taken.to_string()
    }

    fn draw(&self, pile: &Pile) -> String {
        format!("{} stones left; take 1 to {}; {} to move", pile.left, pile.most, pile.mover)
    }

    fn board(&self, pile: &Pile) -> Pile {
        pile.clone()
    }
}

impl Game for Subtraction {
    type Input = Vec<(u32, u32)>;

    fn name(&self) -> &'static str {
        "sum"
    }

    fn sample(&self) -> &'static [u8] {
        b"2\n7 3\n8 3\n"
    }

    fn read(&self, bytes: &[u8]) -> Result<Self::Input, String> {
        crate::Problem::parse(&super::toy::Sum, bytes, crate::Limits::Extended)
            .map_err(|e| e.to_string())
    }

    fn starts(&mut self, cases: &Self::Input) -> Vec<Pile> {
        cases.iter().map(|&(left, most)| Pile { left, most, mover: Side::First }).collect()
    }

    fn stress_levels(&self) -> u32 {
        u32::MAX
    }

    fn players(&self) -> [Side; 2] {
        [Side::First, Side::Second]
    }

    fn program_side(&mut self, start: &Pile) -> Side {
        match self.exact.value_for(&*self, start, start.mover) {
            Value::Win { .. } => start.mover,
            _ => start.mover.other(),
        }
    }

    fn intro(&self, start: &Pile, side: Side) -> Vec<String> {
        vec![format!("{} {}", start.left, start.most), side.to_string()]
    }

    fn valued_moves(&mut self, pile: &Pile) -> Vec<(u32, Value)> {
        self.exact.moves(&*self, pile)
    }
}
