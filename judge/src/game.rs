//! Games against perfect play: what the three problems' games share, so that one jury, one
//! play session for a person and one JSON query serve them all.
//!
//! - [`Game`]: a problem's game as the judge sees it: the games an input holds, whose turn
//!   it is, the legal moves with their exact [`Value`]s, the position after a move, moves as
//!   text both ways, the position drawn for a person.
//! - [`jury`]: the jury of an interactive problem as a pure state machine over text lines
//!   ([`Jury`]): what it sends first, and for each line the program sends, its next lines or
//!   the end with a verdict ([`Verdict`]), with the games so far as a transcript.
//! - [`session`]: a person's game against perfect play over any `BufRead` and `Write`.
//! - [`query`]: one position's query and answer as JSON, for a web page.
//!
//! Nothing here runs a process: the caller connects the jury's lines to a program.

pub mod jury;
pub mod query;
pub mod session;
mod value;

pub use jury::{Jury, Reply, Verdict};
pub use value::{OrderedProbability, Value};

use std::fmt;

/// Whose move a position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn<P> {
    /// This player moves.
    Player(P),
    /// Chance moves (card-duel's pings).
    Chance,
    /// The game is over; this player won.
    Over(P),
}

/// Why a player's line is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The line does not have the form of a move.
    Malformed(String),
    /// It has the form, but the rules do not allow it here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(why) => write!(f, "malformed move: {why}"),
            Self::Illegal(why) => write!(f, "illegal move: {why}"),
        }
    }
}

/// A problem's game, one position at a time. The implementor holds what the solver keeps
/// between queries (tables, memos, the railway), so the methods take `&mut self`.
pub trait Game {
    /// A position, including the start of a game.
    type Position: Clone + fmt::Debug;
    /// A move, the players' and chance's.
    type Move: Clone + PartialEq + fmt::Debug;
    /// A player.
    type Player: Copy + PartialEq + fmt::Debug + fmt::Display;

    /// The problem's name.
    fn name(&self) -> &'static str;

    /// The games an input of the problem holds, in order (the statement's "Interactive
    /// version" says which). The implementor keeps what the input shares (a railway, O).
    ///
    /// # Errors
    /// The input's error, with its line and column.
    fn starts(&mut self, input: &[u8]) -> Result<Vec<Self::Position>, String>;

    /// An input to play when none is given (the statement's sample).
    fn sample(&self) -> &'static [u8];

    /// How many of the problem's size levels ([`Problem::generate`](crate::Problem)), from
    /// level 0, a stress loop of interactions plays (`stress --interactive`): those whose
    /// inputs an interaction plays through in a moment. Larger levels hold more games or
    /// larger starts than a loop of interactions affords.
    fn stress_levels(&self) -> u32;

    /// The side the program (or the person) plays from `start`: the winner where a game has
    /// one, else the problem's protagonist.
    fn program_side(&mut self, start: &Self::Position) -> Self::Player;

    /// The lines the jury sends to open the game from `start`, the program playing `side`.
    fn intro(&self, start: &Self::Position, side: Self::Player) -> Vec<String>;

    /// Whose move `position` is.
    fn turn(&self, position: &Self::Position) -> Turn<Self::Player>;

    /// Every legal move of the player to move, with its value for that player, in the
    /// game's order. Empty at a chance node or once the game is over.
    fn moves(&mut self, position: &Self::Position) -> Vec<(Self::Move, Value)>;

    /// Chance's moves with their probabilities (empty unless chance moves).
    fn chances(&self, position: &Self::Position) -> Vec<(Self::Move, f64)>;

    /// The position after `mv`, which is legal.
    fn after(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The move a player's `line` names at `position`.
    ///
    /// # Errors
    /// A line that is not a move, or a move the rules forbid here.
    fn parse_move(&self, position: &Self::Position, line: &str) -> Result<Self::Move, MoveError>;

    /// A move as its line (the inverse of [`Game::parse_move`]).
    fn write_move(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// The position drawn for a person, a few lines of text.
    fn draw(&self, position: &Self::Position) -> String;

    /// A picture of the play so far (Graphviz DOT), for games that draw one.
    fn picture(&mut self, _position: &Self::Position) -> Option<String> {
        None
    }
}

/// The best of `moves` for the player to move: the first of the greatest [`Value::rank`]
/// (win fastest, lose slowest, highest probability). `None` when there is none.
pub fn best<M: Clone>(moves: &[(M, Value)]) -> Option<(M, Value)> {
    moves.iter().min_by_key(|(_, v)| v.rank()).cloned()
}
