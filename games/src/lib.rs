//! Two-player games against perfect play: the vocabulary the problems' games share, so that
//! one jury, one play session, one JSON query and one web page serve them all.
//!
//! A game is three traits, as GamesmanOne splits a game's solver API from its gameplay API:
//!
//! - [`Rules`]: whose turn a position is, the legal moves, chance's moves with their
//!   probabilities, the position after a move. Nothing else: the generic valuer
//!   ([`exact::Exact`]) values any game from these alone.
//! - [`Notation`]: moves as text both ways, a position drawn for a person, and the same
//!   position as data ([`Notation::Board`], serialized for a page).
//! - [`Game`]: a problem's game: its input read and the games it holds, the side a program
//!   plays, the lines that open a game of the interactive version, and every legal move with
//!   its exact [`Value`] (the problem's fast solver, or [`exact::Exact`] for a small game).
//!
//! Built on them: [`session`], a person's game against perfect play over any `BufRead` and
//! `Write`; [`query`], one position's question and answer as JSON; [`page`], the web page
//! that plays a game through those queries. The jury of the
//! interactive version lives with the judge, which runs the program it talks to.
//!
//! Nothing here runs a process or depends on the judge: solving a position needs only this
//! crate and the problem's own.

pub mod exact;
pub mod page;
pub mod query;
pub mod session;
mod value;

pub use value::{OrderedProbability, Value};

use std::fmt;

use engine::rng::SplitMix64;

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

/// A game's rules: what may happen from a position. The implementor holds what positions
/// share (a railway, a case's damage), so a position stays small.
pub trait Rules {
    /// A position, including the start of a game.
    type Position: Clone + fmt::Debug + Send;
    /// A move, the players' and chance's.
    type Move: Clone + PartialEq + fmt::Debug;
    /// A player.
    type Player: Copy + PartialEq + fmt::Debug + fmt::Display + Send;

    /// Whose move `position` is.
    fn turn(&self, position: &Self::Position) -> Turn<Self::Player>;

    /// The legal moves of the player to move, in the game's order; empty at a chance node and
    /// once the game is over.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// Chance's moves with their probabilities (summing to 1); empty unless chance moves.
    fn chances(&self, _position: &Self::Position) -> Vec<(Self::Move, f64)> {
        Vec::new()
    }

    /// The position after `mv`, which is legal at `position`.
    fn after(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;
}

/// A game's notation: its moves as text both ways, and its positions drawn for a person and
/// given as data for a program (a web page draws the board from it).
pub trait Notation: Rules {
    /// A position as data: what the drawn text shows, in fields (serialized as JSON).
    type Board: serde::Serialize;

    /// The move a player's `line` names at `position`.
    ///
    /// # Errors
    /// A line that is not a move, or a move the rules forbid here.
    fn parse_move(&self, position: &Self::Position, line: &str) -> Result<Self::Move, MoveError>;

    /// A move as its line (the inverse of [`Notation::parse_move`]).
    fn write_move(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// A move as a person reads it, in the notation of [`Notation::draw`] (hero-battle's
    /// `A1->B1, A2->B1`, where its protocol writes `1 1`); by default the protocol's line.
    fn show_move(&self, position: &Self::Position, mv: &Self::Move) -> String {
        self.write_move(position, mv)
    }

    /// The move a person's `line` names: the protocol's line ([`Notation::parse_move`]), or a
    /// legal move as [`Notation::show_move`] shows it where that differs from the line (white
    /// space, commas and case aside).
    /// `play`, `query` and the page read moves so; the interactive version's jury reads the
    /// protocol's line alone, so that a program has one form to write and a malformed line
    /// stays malformed. `O(moves)` besides the parse.
    ///
    /// # Errors
    /// The protocol's error, when the line is neither form of a legal move (naming the legal
    /// moves as shown where the forms differ).
    fn parse_typed(&self, position: &Self::Position, line: &str) -> Result<Self::Move, MoveError> {
        let error = match self.parse_move(position, line) {
            Ok(mv) => return Ok(mv),
            Err(error) => error,
        };
        // The shown form compared loosely: `A1->B1 A2->B1` and `a1->b1, a2->b1` name one move.
        let loose = |text: &str| -> String {
            text.chars()
                .filter(|c| !c.is_whitespace() && *c != ',')
                .flat_map(char::to_lowercase)
                .collect()
        };
        let wanted = loose(line);
        let moves = self.moves(position);
        // Only a shown form that is not the protocol's line is read loosely: toy-train's `1 2`
        // must not be station 12.
        let named = moves.iter().find(|mv| {
            let shown = self.show_move(position, mv);
            shown != self.write_move(position, mv) && loose(&shown) == wanted
        });
        if let Some(mv) = named {
            return Ok(mv.clone());
        }
        // Where the two forms differ, a person may have meant the shown one: name those too.
        if moves.iter().all(|mv| self.show_move(position, mv) == self.write_move(position, mv)) {
            return Err(error);
        }
        let shown: Vec<String> = moves.iter().map(|mv| self.show_move(position, mv)).collect();
        let listed = shown.join("; ");
        Err(match error {
            MoveError::Malformed(why) => {
                MoveError::Malformed(format!("{why}, or a move as listed: {listed}"))
            }
            MoveError::Illegal(why) => MoveError::Illegal(format!("{why}; as listed: {listed}")),
        })
    }

    /// The position drawn for a person, a few lines of text.
    fn draw(&self, position: &Self::Position) -> String;

    /// The position as data, the twin of [`Notation::draw`].
    fn board(&self, position: &Self::Position) -> Self::Board;

    /// A picture of the play so far (Graphviz DOT), for games that draw one.
    fn picture(&self, _position: &Self::Position) -> Option<String> {
        None
    }

    /// The script that draws [`Notation::board`] in the web page (`PROBLEM serve`): it sets
    /// `window.drawBoard(answer, page)` (the page module says what it gets); empty for a page
    /// that shows the drawn text.
    fn board_script(&self) -> &'static str {
        ""
    }
}

/// A problem's game: the games an input holds, the interactive version's protocol, and
/// exact values. The implementor keeps what the solver keeps between queries (tables,
/// memos, the railway), so valuing takes `&mut self`.
pub trait Game: Notation {
    /// The problem's input, as its one parser reads it.
    type Input;

    /// The problem's name.
    fn name(&self) -> &'static str;

    /// An input to play when none is given (the statement's sample).
    fn sample(&self) -> &'static [u8];

    /// Reads an input with the problem's parser, under the extended limits.
    ///
    /// # Errors
    /// The input's error, with its line and column.
    fn read(&self, bytes: &[u8]) -> Result<Self::Input, String>;

    /// The games `input` holds, in order (the statement's "Interactive version" says which).
    /// The implementor keeps what the input's games share (a railway, O).
    fn starts(&mut self, input: &Self::Input) -> Vec<Self::Position>;

    /// How many of the problem's size levels, from level 0, a stress loop of interactions
    /// plays (`stress --interactive`): those whose inputs an interaction plays through in a
    /// moment (`u32::MAX`: every level the problem has).
    fn stress_levels(&self) -> u32;

    /// The two players, the first to move in a game's start first.
    fn players(&self) -> [Self::Player; 2];

    /// The side the program (or the person) plays from `start`: the winner where a game has
    /// one, else the problem's protagonist.
    fn program_side(&mut self, start: &Self::Position) -> Self::Player;

    /// The lines the jury sends to open the game from `start`, the program playing `side`.
    fn intro(&self, start: &Self::Position, side: Self::Player) -> Vec<String>;

    /// Every legal move of the player to move with its exact value for that player, in
    /// [`Rules::moves`] order. Empty at a chance node or once the game is over.
    fn valued_moves(&mut self, position: &Self::Position) -> Vec<(Self::Move, Value)>;

    /// The value of `position` for `player`, at any position: the best move's where a player
    /// moves, the expectation of chance's moves at a chance node (by default one
    /// [`Game::valued_moves`] a position reached through chance), a win or a loss in 0 moves
    /// once the game is over.
    fn value_for(&mut self, position: &Self::Position, player: Self::Player) -> Value {
        match self.turn(position) {
            Turn::Over(winner) if winner == player => Value::win(0),
            Turn::Over(_) => Value::lose(0),
            Turn::Player(mover) => {
                let moves = self.valued_moves(position);
                let (_, value) = best(&moves).expect("a player to move has a legal move");
                if mover == player { value } else { value.flipped() }
            }
            Turn::Chance => {
                let probability = self
                    .chances(position)
                    .iter()
                    .map(|(mv, p)| {
                        p * self.value_for(&self.after(position, mv), player).probability()
                    })
                    .sum();
                Value::Chance { probability }
            }
        }
    }
}

/// The player of `game` whose name (as the game writes it) is `name`, ignoring case and a
/// leading `the` (`bob`, `teacher`): `play --side`.
///
/// # Errors
/// No player has that name; the error lists them.
pub fn player_named<G: Game>(game: &G, name: &str) -> Result<G::Player, UnknownPlayer> {
    let loose = |text: &str| {
        let text = text.trim().to_lowercase();
        text.strip_prefix("the ").map_or(text.clone(), str::to_owned)
    };
    let players = game.players();
    players.iter().find(|p| loose(&p.to_string()) == loose(name)).copied().ok_or_else(|| {
        UnknownPlayer { name: name.to_owned(), players: players.map(|p| p.to_string()) }
    })
}

/// A name that is no player's ([`player_named`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlayer {
    /// The name asked for.
    pub name: String,
    /// The game's players, as it writes them.
    pub players: [String; 2],
}

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second] = &self.players;
        write!(f, "no player {:?}: the players are {first} and {second}", self.name)
    }
}

impl std::error::Error for UnknownPlayer {}

/// The best of `moves` for the player to move: the first of the greatest [`Value::rank`]
/// (win fastest, lose slowest, highest probability). `None` when there is none.
pub fn best<M: Clone>(moves: &[(M, Value)]) -> Option<(M, Value)> {
    moves.iter().min_by_key(|(_, v)| v.rank()).cloned()
}

/// One of `chances` drawn by its probability, with 53 bits of `rng`. `O(chances)`.
pub fn draw_chance<M: Clone>(rng: &mut SplitMix64, chances: &[(M, f64)]) -> M {
    // 53 random bits as a number in [0, 1).
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut total = 0.0;
    for (mv, p) in chances {
        total += p;
        if x < total {
            return mv.clone();
        }
    }
    chances.last().expect("chance has a move").0.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One position whose moves are 2 and 12, written as numbers and shown as `take N` when
    /// `shown` (else as the numbers).
    struct Takes {
        shown: bool,
    }

    impl Rules for Takes {
        type Position = ();
        type Move = u32;
        type Player = u8;

        fn turn(&self, (): &()) -> Turn<u8> {
            Turn::Player(0)
        }

        fn moves(&self, (): &()) -> Vec<u32> {
            vec![2, 12]
        }

        fn after(&self, (): &(), _: &u32) {}
    }

    impl Notation for Takes {
        type Board = ();

        fn parse_move(&self, (): &(), line: &str) -> Result<u32, MoveError> {
            let n: u32 = line.parse().map_err(|_| MoveError::Malformed("a number".to_owned()))?;
            if self.moves(&()).contains(&n) {
                Ok(n)
            } else {
                Err(MoveError::Illegal("2 or 12".to_owned()))
            }
        }

        fn write_move(&self, (): &(), mv: &u32) -> String {
            mv.to_string()
        }

        fn show_move(&self, (): &(), mv: &u32) -> String {
            if self.shown { format!("take {mv}") } else { mv.to_string() }
        }

        fn draw(&self, (): &()) -> String {
            String::new()
        }

        fn board(&self, (): &()) {}
    }

    #[test]
    fn a_person_types_either_form_and_nothing_looser() {
        let (plain, shown) = (Takes { shown: false }, Takes { shown: true });
        assert_eq!(plain.parse_typed(&(), "12"), Ok(12));
        // The protocol's line is never read loosely: `1 2` is not 12.
        assert!(matches!(plain.parse_typed(&(), "1 2"), Err(MoveError::Malformed(_))));
        assert_eq!(shown.parse_typed(&(), "12"), Ok(12));
        assert_eq!(shown.parse_typed(&(), " Take 12 "), Ok(12));
        assert_eq!(shown.parse_typed(&(), "take12"), Ok(12));
        let Err(MoveError::Malformed(why)) = shown.parse_typed(&(), "take 3") else {
            panic!("take 3 is no move")
        };
        assert_eq!(why, "a number, or a move as listed: take 2; take 12");
        let Err(MoveError::Illegal(why)) = shown.parse_typed(&(), "3") else { panic!("3") };
        assert_eq!(why, "2 or 12; as listed: take 2; take 12");
    }
}
