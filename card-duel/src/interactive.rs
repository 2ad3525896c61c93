//! The duel as a [`judge::game::Game`]: the jury of the interactive version, `play` and
//! `query`, on [`crate::position`]. The protocol is in the statement's "Interactive
//! version".

use std::sync::{Arc, OnceLock};

use judge::game::{Game, MoveError, Turn, Value};

use crate::position::{Oracle, Side, State, Target};
use crate::rules::{Action, Board, MAX_OPS};
use crate::tablebase::Tablebase;

/// A move: a player's action, or the character a ping hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelMove {
    /// The mover's action.
    Action(Action),
    /// A ping's target.
    Ping(Target),
}

/// The duel one moment at a time: the oracle over the tablebase of the input's O, built
/// the first time an input of that O is read (one sweep, 0.1 to 0.25 s with two threads,
/// 11.5 MB) and kept, shared with the games made by [`DuelGame::sharing`].
#[derive(Debug, Default)]
pub struct DuelGame {
    oracle: Option<Oracle>,
    tablebases: Arc<Tablebases>,
}

/// The tablebases built so far, by O.
type Tablebases = [OnceLock<Arc<Tablebase>>; MAX_OPS as usize + 1];

impl DuelGame {
    /// A game with no tablebase yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A game of its own (its own oracle and memo) that shares this one's tablebases, read
    /// only: the juries of a stress loop make one per trial in flight, and each O's
    /// tablebase is still built once.
    #[must_use]
    pub fn sharing(&self) -> Self {
        Self { oracle: None, tablebases: Arc::clone(&self.tablebases) }
    }

    fn oracle(&mut self) -> &mut Oracle {
        self.oracle.as_mut().expect("an input is read before its games")
    }
}

/// A board in the input's format: the count, then each minion's HP.
fn board_line(board: Board) -> String {
    let mut line = board.len().to_string();
    for hp in (0..board.ones).map(|_| 1).chain((0..board.twos).map(|_| 2)) {
        line.push_str(&format!(" {hp}"));
    }
    line
}

impl Game for DuelGame {
    type Position = State;
    type Move = DuelMove;
    type Player = Side;

    fn name(&self) -> &'static str {
        "card-duel"
    }

    /// One game a case.
    fn starts(&mut self, input: &[u8]) -> Result<Vec<State>, String> {
        let file =
            judge::Problem::parse(&crate::judge::Judge::new(), input, judge::Limits::Extended)
                .map_err(|e| e.to_string())?;
        if self.oracle.as_ref().is_none_or(|o| o.ops() != file.ops) {
            let built = self.tablebases[usize::from(file.ops)]
                .get_or_init(|| Arc::new(Tablebase::build(file.ops)));
            self.oracle = Some(Oracle::new(Arc::clone(built)));
        }
        Ok(file.positions.iter().map(|p| State::start(file.ops, p)).collect())
    }

    fn sample(&self) -> &'static [u8] {
        b"1 4\n5 14\n1 1\n1 1\n1 0\n"
    }

    /// Levels 0 to 5, 40 cases a file (the larger levels hold 1,000 to 351,493 games).
    fn stress_levels(&self) -> u32 {
        6
    }

    /// E, whose winning probability the problem asks.
    fn program_side(&mut self, _: &State) -> Side {
        Side::E
    }

    /// O, then the position as the input gives it (before E's draw), then `E`.
    fn intro(&self, start: &State, _: Side) -> Vec<String> {
        let e_hand = start.hand[0] - 1;
        vec![
            start.ops.to_string(),
            format!("{} {}", start.hp[0], start.hp[1]),
            board_line(start.other),
            board_line(start.ready),
            format!("{} {}", start.hand[1], e_hand),
            "E".to_owned(),
        ]
    }

    fn turn(&self, state: &State) -> Turn<Side> {
        match state.turn() {
            crate::position::Turn::Choose(side) => Turn::Player(side),
            crate::position::Turn::Chance => Turn::Chance,
            crate::position::Turn::Over(side) => Turn::Over(side),
        }
    }

    fn moves(&mut self, state: &State) -> Vec<(DuelMove, Value)> {
        let actions = self.oracle().actions(state);
        actions
            .into_iter()
            .map(|(a, p)| (DuelMove::Action(a), Value::Chance { probability: p }))
            .collect()
    }

    fn chances(&self, state: &State) -> Vec<(DuelMove, f64)> {
        state.outcomes().into_iter().map(|(t, p, _)| (DuelMove::Ping(t), p)).collect()
    }

    fn after(&self, state: &State, mv: &DuelMove) -> State {
        match *mv {
            DuelMove::Action(action) => state.after(action),
            DuelMove::Ping(target) => {
                let outcomes = state.outcomes();
                let found = outcomes.iter().find(|(t, ..)| *t == target);
                found.expect("a ping hits a character on the table").2
            }
        }
    }

    /// `hero`, `face H`, `trade H G`, `play` or `end`: H the attacking minion's HP, G the
    /// enemy minion's.
    fn parse_move(&self, state: &State, line: &str) -> Result<DuelMove, MoveError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let hp = |w: &str| w.parse::<u8>().ok().filter(|h| (1..=2).contains(h));
        let action = match words[..] {
            ["hero"] => Some(Action::HeroPower),
            ["play"] => Some(Action::Play),
            ["end"] => Some(Action::EndTurn),
            ["face", h] => hp(h).map(|minion_hp| Action::Face { minion_hp }),
            ["trade", h, g] => hp(h)
                .zip(hp(g))
                .map(|(minion_hp, target_hp)| Action::Trade { minion_hp, target_hp }),
            _ => None,
        };
        let action = action.ok_or_else(|| {
            MoveError::Malformed("expected hero, face H, trade H G, play or end".to_owned())
        })?;
        if state.actions().contains(&action) {
            Ok(DuelMove::Action(action))
        } else {
            let legal: Vec<String> = state
                .actions()
                .into_iter()
                .map(|a| self.write_move(state, &DuelMove::Action(a)))
                .collect();
            Err(MoveError::Illegal(format!("the legal actions are {}", legal.join(", "))))
        }
    }

    fn write_move(&self, _: &State, mv: &DuelMove) -> String {
        match *mv {
            DuelMove::Action(Action::HeroPower) => "hero".to_owned(),
            DuelMove::Action(Action::Play) => "play".to_owned(),
            DuelMove::Action(Action::EndTurn) => "end".to_owned(),
            DuelMove::Action(Action::Face { minion_hp }) => format!("face {minion_hp}"),
            DuelMove::Action(Action::Trade { minion_hp, target_hp }) => {
                format!("trade {minion_hp} {target_hp}")
            }
            DuelMove::Ping(target) => format!("ping {target}"),
        }
    }

    fn draw(&self, state: &State) -> String {
        let minions = |side: Side| {
            let mut out = Vec::new();
            let (ready, spent) = if side == state.mover {
                (state.ready, state.spent)
            } else {
                (state.other, Board::EMPTY)
            };
            for (board, mark) in [(ready, ""), (spent, "*")] {
                out.extend((0..board.ones).map(|_| format!("1{mark}")));
                out.extend((0..board.twos).map(|_| format!("2{mark}")));
            }
            if out.is_empty() { "none".to_owned() } else { out.join(" ") }
        };
        let line = |side: Side, i: usize| {
            format!(
                "{side}: {} HP, {} cards, minions {}",
                state.hp[i],
                state.hand[i],
                minions(side)
            )
        };
        let pings = if state.pings > 0 {
            format!(", {} pings to come", state.pings)
        } else {
            String::new()
        };
        format!(
            "{}\n{}\n{} moves; {} of {} hero powers and plays used{pings} (* cannot attack this turn)",
            line(Side::E, 0),
            line(Side::Teacher, 1),
            state.mover,
            state.used,
            state.ops
        )
    }
}
