//! The jury of an interactive problem as a pure state machine over text lines.
//!
//! The interaction: the jury sends the number of games, then plays them in order. Each game
//! opens with the game's lines ([`Game::intro`]); then every move that is not the program's
//! (the jury's, chance's) is sent as one line, in the order they happen, and the program
//! answers each of its turns with one line. A game ends with the line `win` or `lose`, the
//! program's result. The jury plays its side perfectly, the best [`Value::rank`] (the first
//! in the game's order among equals): losing as slowly as it can where values count moves,
//! and, in a game of chance, with the best probability, an action that ends the game against
//! it at once last among equals (a loss in 1, card-duel's values say). It draws chance's
//! moves from a seeded generator. The program must keep a won game won (games without chance) or
//! choose an optimal move at every turn, its value within [`TOLERANCE`] of the best (games of
//! chance). The first move that breaks this, or that is malformed or illegal, ends the whole
//! interaction with a verdict naming it; so does a line the jury did not wait for, or the
//! program's output ending early.
//!
//! Use: [`Jury::open`] gives the first lines; feed each line the program writes to
//! [`Jury::receive`] and, if its output closes, call [`Jury::close`]. Each returns a
//! [`Reply`]: lines to send and whether the jury waits for another line or has ended with a
//! [`Verdict`]. [`Jury::transcript`] is everything said so far.

use engine::rng::SplitMix64;

use games::{Game, MoveError, Turn, Value, best};

/// Chance's seed of the jury that `interact` plays by default and that an interactive
/// package's jury (`PROBLEM jury`) and its trials play: one seed, so that a package's
/// verdicts on the judge are the ones it was built with.
pub const SEED: u64 = 1;

/// How far below the best value a move of a game of chance may be.
pub const TOLERANCE: f64 = 1e-9;

/// Whether the jury rejects a move worth `value` where the best is worth `best`: without
/// chance a won game must stay won; with chance (where a move that ends the game at once is a
/// win or a loss in 1 beside probabilities) the move's probability must be the best's, within
/// [`TOLERANCE`].
#[must_use]
pub fn wrong_move(value: Value, best: Value) -> bool {
    match (value, best) {
        (Value::Win { .. } | Value::Lose { .. }, Value::Win { .. } | Value::Lose { .. }) => {
            matches!(best, Value::Win { .. }) && !matches!(value, Value::Win { .. })
        }
        (v, top) => v.probability() < top.probability() - TOLERANCE,
    }
}

/// How an interaction ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The program played every game as it must.
    Accepted {
        /// Games played.
        games: usize,
    },
    /// A move of the program that loses a won game, or (chance) is not optimal.
    WrongMove {
        /// The game, 1-based.
        game: usize,
        /// The program's move number in that game, 1-based.
        turn: usize,
        /// The move as the program wrote it.
        line: String,
        /// Its value for the program.
        value: Value,
        /// A best move and its value.
        best: (String, Value),
    },
    /// A line that is not a move, or a move the rules forbid.
    BadMove {
        /// The game, 1-based.
        game: usize,
        /// The program's move number in that game, 1-based.
        turn: usize,
        /// The line.
        line: String,
        /// Why.
        error: MoveError,
    },
    /// A line when the jury waited for none, or no line when it waited for one.
    ProtocolError {
        /// What happened.
        message: String,
    },
}

impl Verdict {
    /// Whether the program passed.
    #[must_use]
    pub fn accepted(&self) -> bool {
        matches!(self, Self::Accepted { .. })
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Accepted { games } => write!(f, "ok: {games} games played as they must be"),
            Self::WrongMove { game, turn, line, value, best } => write!(
                f,
                "wrong move: game {game}, move {turn}: {line:?} is worth {value}, but {:?} is \
                 worth {}",
                best.0, best.1
            ),
            Self::BadMove { game, turn, line, error } => {
                write!(f, "{}: game {game}, move {turn}: {line:?}: {error}", kind(error))
            }
            Self::ProtocolError { message } => write!(f, "protocol error: {message}"),
        }
    }
}

fn kind(error: &MoveError) -> &'static str {
    match error {
        MoveError::Malformed(_) => "malformed move",
        MoveError::Illegal(_) => "illegal move",
    }
}

/// What the jury does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Send these lines, then wait for the program's next line.
    Send(Vec<String>),
    /// Send these lines, then stop: the interaction is over.
    End(Vec<String>, Verdict),
}

/// Who said a line of the transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speaker {
    /// The jury.
    Jury,
    /// The program.
    Program,
}

/// The jury over the games of one input.
#[derive(Debug)]
pub struct Jury<G: Game> {
    game: G,
    starts: Vec<G::Position>,
    /// The game being played (0-based) and its position.
    index: usize,
    position: Option<G::Position>,
    side: Option<G::Player>,
    /// The program's moves in this game.
    turns: usize,
    rng: SplitMix64,
    transcript: Vec<(Speaker, String)>,
    ended: bool,
    /// The jury's valued moves at the current position, when judging the program's last
    /// move valued them already ([`Jury::winning_reply`]).
    replies: Option<Vec<(G::Move, Value)>>,
}

impl<G: Game> Jury<G> {
    /// A jury for the games `starts` of `game`, drawing chance's moves from `seed`.
    #[must_use]
    pub fn new(game: G, starts: Vec<G::Position>, seed: u64) -> Self {
        Self {
            game,
            starts,
            index: 0,
            position: None,
            side: None,
            turns: 0,
            rng: SplitMix64::new(seed),
            transcript: Vec::new(),
            ended: false,
            replies: None,
        }
    }

    /// Every line so far, with who said it.
    #[must_use]
    pub fn transcript(&self) -> &[(Speaker, String)] {
        &self.transcript
    }

    /// The position where the jury waits for the program's move, if it does.
    #[must_use]
    pub fn position(&self) -> Option<&G::Position> {
        self.position.as_ref()
    }

    /// The game, for the caller's own queries.
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// The game back, with what it keeps between inputs (tables, memos), for the next jury.
    #[must_use]
    pub fn into_game(self) -> G {
        self.game
    }

    /// The first lines: the number of games, the first game's opening, and the moves before
    /// the program's first turn.
    pub fn open(&mut self) -> Reply {
        let mut lines = vec![self.starts.len().to_string()];
        self.next_game(&mut lines)
    }

    /// The program's `line` (without its line end).
    pub fn receive(&mut self, line: &str) -> Reply {
        self.transcript.push((Speaker::Program, line.to_owned()));
        let (Some(position), Some(_), false) = (self.position.clone(), self.side, self.ended)
        else {
            return self.end(
                Vec::new(),
                Verdict::ProtocolError {
                    message: format!("the program wrote {line:?} after the last game"),
                },
            );
        };
        self.turns += 1;
        let (game, turn) = (self.index + 1, self.turns);
        let trimmed = line.trim();
        let mv = match self.game.parse_move(&position, trimmed) {
            Ok(mv) => mv,
            Err(error) => {
                let line = trimmed.to_owned();
                return self.end(Vec::new(), Verdict::BadMove { game, turn, line, error });
            }
        };
        let next = self.game.after(&position, &mv);
        if let Some(replies) = self.winning_reply(&next) {
            // The move wins: whatever the best was, it is not wrong. The jury's moves from
            // `next`, valued to tell so, are the ones it chooses its reply from.
            self.position = Some(next);
            self.replies = Some(replies);
            let mut lines = Vec::new();
            return self.play_until_program(&mut lines);
        }
        let moves = self.game.valued_moves(&position);
        let value = moves.iter().find(|(m, _)| *m == mv).map(|(_, v)| *v);
        let value = value.expect("a parsed move is one of the legal moves");
        let (best_move, best_value) = best(&moves).expect("a legal move exists");
        if wrong_move(value, best_value) {
            let best = (self.game.write_move(&position, &best_move), best_value);
            let line = trimmed.to_owned();
            return self.end(Vec::new(), Verdict::WrongMove { game, turn, line, value, best });
        }
        self.position = Some(next);
        let mut lines = Vec::new();
        self.play_until_program(&mut lines)
    }

    /// The jury's valued moves at `next`, the position after a move of the program's, when
    /// they show that move winning: the jury moves at `next` and loses whatever it plays
    /// (games without chance). One valuing of `next`'s moves then both judges the program's
    /// move and chooses the jury's reply, where valuing the program's moves as well would
    /// cost as much again on every turn of a long game.
    fn winning_reply(&mut self, next: &G::Position) -> Option<Vec<(G::Move, Value)>> {
        let side = self.side?;
        let Turn::Player(mover) = self.game.turn(next) else { return None };
        if mover == side {
            return None;
        }
        let replies = self.game.valued_moves(next);
        let jury_best = best(&replies)?.1;
        matches!(jury_best, Value::Lose { .. }).then_some(replies)
    }

    /// The program's output ended.
    pub fn close(&mut self) -> Reply {
        if self.ended {
            return Reply::End(Vec::new(), self.verdict_after_all());
        }
        let message = format!(
            "the program's output ended in game {} while the jury waited for its move",
            self.index + 1
        );
        self.end(Vec::new(), Verdict::ProtocolError { message })
    }

    fn verdict_after_all(&self) -> Verdict {
        Verdict::Accepted { games: self.starts.len() }
    }

    /// Starts game `index` (or ends the interaction after the last).
    fn next_game(&mut self, lines: &mut Vec<String>) -> Reply {
        let Some(start) = self.starts.get(self.index).cloned() else {
            self.position = None;
            let verdict = self.verdict_after_all();
            return self.end(std::mem::take(lines), verdict);
        };
        let side = self.game.program_side(&start);
        lines.extend(self.game.intro(&start, side));
        self.position = Some(start);
        self.side = Some(side);
        self.turns = 0;
        self.play_until_program(lines)
    }

    /// Plays the jury's and chance's moves until the program's turn or the game's end.
    fn play_until_program(&mut self, lines: &mut Vec<String>) -> Reply {
        let side = self.side.expect("a game is on");
        loop {
            let position = self.position.clone().expect("a game is on");
            let mv = match self.game.turn(&position) {
                Turn::Player(p) if p == side => {
                    let lines = std::mem::take(lines);
                    self.transcript.extend(lines.iter().map(|l| (Speaker::Jury, l.clone())));
                    return Reply::Send(lines);
                }
                Turn::Player(_) => {
                    let moves = match self.replies.take() {
                        Some(moves) => moves,
                        None => self.game.valued_moves(&position),
                    };
                    best(&moves).expect("the jury has a move").0
                }
                Turn::Chance => {
                    let chances = self.game.chances(&position);
                    games::draw_chance(&mut self.rng, &chances)
                }
                Turn::Over(winner) => {
                    lines.push(if winner == side { "win" } else { "lose" }.to_owned());
                    self.index += 1;
                    return self.next_game(lines);
                }
            };
            lines.push(self.game.write_move(&position, &mv));
            self.position = Some(self.game.after(&position, &mv));
        }
    }

    fn end(&mut self, lines: Vec<String>, verdict: Verdict) -> Reply {
        self.transcript.extend(lines.iter().map(|l| (Speaker::Jury, l.clone())));
        self.ended = true;
        self.position = None;
        Reply::End(lines, verdict)
    }
}
