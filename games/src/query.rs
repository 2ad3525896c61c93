//! One position's query and answer as JSON (`PROBLEM query`, and `POST /api/query` of
//! `PROBLEM serve`, through [`Answerer::respond`]), shaped for a web page that lets a person play: the
//! page keeps the input and the moves so far, and asks for the position they reach. The
//! format, field by field, is in `docs/query.md`.
//!
//! A query: `{"input": "<the problem's input>", "game": 1, "moves": ["<move>", ...]}`
//! (`game` 1-based, default 1; `moves` from the game's start, chance's included, default
//! none; `input` default the problem's sample). The answer:
//!
//! ```json
//! {"version": 1, "problem": "hero-battle", "game": 1, "games": 2,
//!  "players": ["Alice", "Bob"], "side": "Alice",
//!  "position": "<the position drawn>", "board": {"<the position as data>": "..."},
//!  "turn": "Alice", "winner": null,
//!  "value": {"kind": "win", "remoteness": 5, "probability": 1.0},
//!  "side_value": {"kind": "win", "remoteness": 5, "probability": 1.0},
//!  "moves": [{"move": "1 1", "shown": "A1->B1, A2->B1",
//!              "value": {"kind": "win", "remoteness": 5, "probability": 1.0}}],
//!  "chances": []}
//! ```
//!
//! `turn` is the player to move, `"chance"` or `"over"`; `value` is the best move's value
//! for the player to move (`null` unless a player moves); `side_value` the position's value
//! for `side` at every position (at a chance node the expectation of chance's moves); each
//! value's `remoteness` is `null` where the game does not compute it. A move's `move` is the
//! protocol's line and `shown` the same move as the board writes it; a query's `moves` may
//! be in either form ([`crate::Notation::parse_typed`]).

use serde::{Deserialize, Serialize};

use crate::{Game, Turn, Value, best};

/// A query.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// The problem's input; the sample when absent.
    #[serde(default)]
    pub input: Option<String>,
    /// Which game of the input, 1-based.
    #[serde(default = "first")]
    pub game: usize,
    /// The moves from the game's start.
    #[serde(default)]
    pub moves: Vec<String>,
}

fn first() -> usize {
    1
}

/// A value as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueJson {
    /// `win`, `lose` or `chance`.
    pub kind: &'static str,
    /// Moves to the end, where known.
    pub remoteness: Option<u32>,
    /// The probability of winning (1 or 0 for a win or a loss).
    pub probability: f64,
}

impl From<Value> for ValueJson {
    fn from(value: Value) -> Self {
        let remoteness = match value {
            Value::Win { remoteness } | Value::Lose { remoteness } => remoteness,
            Value::Chance { .. } => None,
        };
        Self { kind: value.kind(), remoteness, probability: value.probability() }
    }
}

/// A move and its value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveJson {
    /// The move's text: the protocol's line.
    #[serde(rename = "move")]
    pub text: String,
    /// The move as a person reads it ([`crate::Notation::show_move`]).
    pub shown: String,
    /// Its value for the player who makes it.
    pub value: ValueJson,
}

/// A chance move and its probability.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChanceJson {
    /// The move's text: the protocol's line.
    #[serde(rename = "move")]
    pub text: String,
    /// The move as a person reads it ([`crate::Notation::show_move`]).
    pub shown: String,
    /// Its probability.
    pub probability: f64,
}

/// The version of the answer's format: it changes when a field changes meaning or goes.
pub const VERSION: u32 = 1;

/// The answer to a query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// The format's [`VERSION`].
    pub version: u32,
    /// The problem.
    pub problem: &'static str,
    /// The game, 1-based.
    pub game: usize,
    /// Games in the input.
    pub games: usize,
    /// The two players, the first to move first.
    pub players: [String; 2],
    /// The side a person plays from the start (the winner, or the protagonist).
    pub side: String,
    /// The position drawn.
    pub position: String,
    /// The position as data ([`crate::Notation::board`]).
    pub board: serde_json::Value,
    /// The player to move, `chance` or `over`.
    pub turn: String,
    /// The winner once the game is over.
    pub winner: Option<String>,
    /// The best move's value for the player to move.
    pub value: Option<ValueJson>,
    /// The position's value for `side`.
    pub side_value: ValueJson,
    /// Every legal move with its value.
    pub moves: Vec<MoveJson>,
    /// Chance's moves with their probabilities.
    pub chances: Vec<ChanceJson>,
}

/// A game that answers queries, keeping the last input's games (and each game's side) so
/// that the queries of a page, which repeat their input, neither read it nor value a start
/// again.
#[derive(Debug)]
pub struct Answerer<G: Game> {
    game: G,
    last: Option<Read<G>>,
}

/// The last input read: its bytes, its games, and each game's side once asked.
#[derive(Debug)]
struct Read<G: Game> {
    bytes: Vec<u8>,
    starts: Vec<G::Position>,
    sides: Vec<Option<G::Player>>,
}

impl<G: Game> Answerer<G> {
    /// Answers queries with `game`.
    #[must_use]
    pub fn new(game: G) -> Self {
        Self { game, last: None }
    }

    /// Answers one query given as JSON text: the answer as one line of JSON, or why the
    /// query cannot be answered (not JSON, an unknown field, a bad input, a game out of
    /// range, a move that is not legal). `PROBLEM query` writes the error as `{"error":
    /// "..."}`, and `serve` answers it with status 400.
    ///
    /// # Errors
    /// The query's fault, as a sentence.
    pub fn respond(&mut self, text: &str) -> Result<String, String> {
        let query: Query = serde_json::from_str(text.trim())
            .map_err(|e| format!("the query is not valid: {e}"))?;
        let answer = self.answer(&query)?;
        Ok(serde_json::to_string(&answer).expect("an answer is JSON"))
    }

    /// Answers `query`: the input's games (read again only when the input differs from the
    /// last query's), the moves replayed, the position valued. `O(input)` to compare the
    /// input, plus `O(moves)`, plus one [`Game::valued_moves`].
    ///
    /// # Errors
    /// A bad input, a game number out of range, a move that is not legal where it is played.
    pub fn answer(&mut self, query: &Query) -> Result<Answer, String> {
        let game = &mut self.game;
        let bytes = query.input.as_deref().map_or(game.sample(), str::as_bytes);
        if self.last.as_ref().is_none_or(|last| last.bytes != bytes) {
            // Forgotten first: a bad input must not leave the games of the one before.
            self.last = None;
            let input = game.read(bytes)?;
            let starts = game.starts(&input);
            let sides = vec![None; starts.len()];
            self.last = Some(Read { bytes: bytes.to_vec(), starts, sides });
        }
        let read = self.last.as_mut().expect("the input was read above");
        let games = read.starts.len();
        let index = query.game.checked_sub(1).filter(|&i| i < games);
        let index = index.ok_or_else(|| format!("game {} out of range 1..={games}", query.game))?;
        let mut position = read.starts[index].clone();
        let side = *read.sides[index].get_or_insert_with(|| game.program_side(&position));
        for (i, text) in query.moves.iter().enumerate() {
            if let Turn::Over(_) = game.turn(&position) {
                return Err(format!("move {} ({text:?}): the game is over", i + 1));
            }
            let mv = match game.turn(&position) {
                Turn::Chance => game
                    .chances(&position)
                    .into_iter()
                    .map(|(m, _)| m)
                    .find(|m| {
                        let text = text.trim();
                        game.write_move(&position, m) == text
                            || game.show_move(&position, m) == text
                    })
                    .ok_or_else(|| {
                        format!("move {} ({text:?}): not one of chance's moves", i + 1)
                    })?,
                _ => {
                    game.parse_typed(&position, text).map_err(|e| format!("move {}: {e}", i + 1))?
                }
            };
            position = game.after(&position, &mv);
        }
        let moves = game.valued_moves(&position);
        let (turn, winner) = match game.turn(&position) {
            Turn::Player(p) => (p.to_string(), None),
            Turn::Chance => ("chance".to_owned(), None),
            Turn::Over(w) => ("over".to_owned(), Some(w.to_string())),
        };
        let chances = game.chances(&position);
        // Where a player moves, the moves just valued say the position's value: no second
        // valuation.
        let side_value = match (game.turn(&position), best(&moves)) {
            (Turn::Player(mover), Some((_, value))) => {
                if mover == side {
                    value
                } else {
                    value.flipped()
                }
            }
            _ => game.value_for(&position, side),
        }
        .into();
        let board = serde_json::to_value(game.board(&position))
            .map_err(|e| format!("the board cannot be written as JSON: {e}"))?;
        Ok(Answer {
            version: VERSION,
            problem: game.name(),
            game: index + 1,
            games,
            players: game.players().map(|p| p.to_string()),
            side: side.to_string(),
            position: game.draw(&position),
            board,
            turn,
            winner,
            value: best(&moves).map(|(_, v)| v.into()),
            side_value,
            moves: moves
                .iter()
                .map(|(m, v)| MoveJson {
                    text: game.write_move(&position, m),
                    shown: game.show_move(&position, m),
                    value: (*v).into(),
                })
                .collect(),
            chances: chances
                .iter()
                .map(|(m, p)| ChanceJson {
                    text: game.write_move(&position, m),
                    shown: game.show_move(&position, m),
                    probability: *p,
                })
                .collect(),
        })
    }
}

/// `{"error": "<message>"}`, one line.
#[must_use]
pub fn error_line(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}
