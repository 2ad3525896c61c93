//! The first-visit game as a [`judge::game::Game`]: the jury of the interactive version,
//! `play` and `query`, on [`crate::position`]. The protocol is in the statement's
//! "Interactive version".

use std::fmt::Write as _;

use judge::game::{Game as Playable, MoveError, Turn, Value};

use crate::game::{Game, Player};
use crate::position::{self, Position};

/// The railway of the last input read, whose games these are.
#[derive(Debug, Default)]
pub struct TrainGame {
    game: Option<Game>,
    text: Vec<u8>,
}

impl TrainGame {
    /// A game with no railway yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn railway(&self) -> &Game {
        self.game.as_ref().expect("a railway is read before its games")
    }
}

impl Playable for TrainGame {
    type Position = Position;
    type Move = u32;
    type Player = Player;

    fn name(&self) -> &'static str {
        "toy-train"
    }

    /// One game a station: game `k` starts at station `k - 1`.
    fn starts(&mut self, input: &[u8]) -> Result<Vec<Position>, String> {
        let railway = judge::Problem::parse(&crate::judge::Judge, input, judge::Limits::Extended)
            .map_err(|e| e.to_string())?;
        // The judge's parse checked the railway: its graph is built from it, not read again.
        let game = railway.to_game().map_err(|e| e.to_string())?;
        let starts = game.stations().map(Position::start).collect();
        self.text = railway.to_text();
        self.game = Some(game);
        Ok(starts)
    }

    fn sample(&self) -> &'static [u8] {
        b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n"
    }

    /// Levels 0 to 3, railways of up to 15 stations: every game sends the railway, so a
    /// railway of `n` stations and `m` tracks costs `n (m + n)` lines of opening alone.
    fn stress_levels(&self) -> u32 {
        4
    }

    fn program_side(&mut self, start: &Position) -> Player {
        position::outcome(self.railway(), start).winner
    }

    /// The railway in the input's format, then the start station, then the program's side.
    fn intro(&self, start: &Position, side: Player) -> Vec<String> {
        let mut lines: Vec<String> =
            String::from_utf8_lossy(&self.text).lines().map(str::to_owned).collect();
        lines.push(start.current().to_string());
        lines.push(side.to_string());
        lines
    }

    fn turn(&self, position: &Position) -> Turn<Player> {
        match position.winner_if_over(self.railway()) {
            Some(winner) => Turn::Over(winner),
            None => Turn::Player(position.mover(self.railway())),
        }
    }

    fn moves(&mut self, position: &Position) -> Vec<(u32, Value)> {
        position::moves(self.railway(), position)
    }

    fn chances(&self, _: &Position) -> Vec<(u32, f64)> {
        Vec::new()
    }

    fn after(&self, position: &Position, mv: &u32) -> Position {
        position.after(*mv)
    }

    /// The station the train goes to next.
    fn parse_move(&self, position: &Position, line: &str) -> Result<u32, MoveError> {
        let to = line
            .parse::<u32>()
            .map_err(|_| MoveError::Malformed("expected a station number".to_owned()))?;
        if position.moves(self.railway()).contains(&to) {
            Ok(to)
        } else {
            Err(MoveError::Illegal(format!("no track from {} to {to}", position.current())))
        }
    }

    fn write_move(&self, _: &Position, mv: &u32) -> String {
        mv.to_string()
    }

    fn draw(&self, position: &Position) -> String {
        let game = self.railway();
        let name = |s: u32| {
            let owner = if game.arezou(s) { "A" } else { "B" };
            let charger = if game.charging(s) { "*" } else { "" };
            format!("{s}{charger}({owner})")
        };
        let walk: Vec<String> = position.path.iter().map(|&s| name(s)).collect();
        let mut out = format!("walk: {}", walk.join(" -> "));
        if let Some(at) = position.closed_at {
            let _ = write!(out, " -> {} (the cycle closes)", position.path[at]);
        } else {
            let here = position.current();
            let _ =
                write!(out, "\ntrain at {}; {} sets the switch", name(here), position.mover(game));
        }
        out.push_str("\n(* charging station; A Arezou's, B Borzou's)");
        out
    }

    /// The railway with the walk so far in thick numbered arrows.
    fn picture(&mut self, position: &Position) -> Option<String> {
        let game = self.railway();
        let mut out = String::from(
            "digraph play {\n  graph [rankdir=LR, label=\"toy-train play: box = Arezou's, ellipse = Borzou's, double border = charging; thick = the walk so far\", labelloc=t, fontsize=11];\n",
        );
        for s in game.stations() {
            let shape = if game.arezou(s) { "box" } else { "ellipse" };
            let border = if game.charging(s) { 2 } else { 1 };
            let fill =
                if s == position.current() { ", style=filled, fillcolor=\"#ffe08a\"" } else { "" };
            let _ = writeln!(out, "  {s} [shape={shape}, peripheries={border}{fill}];");
        }
        let mut walk: Vec<(u32, u32)> = position.path.windows(2).map(|w| (w[0], w[1])).collect();
        if let Some(at) = position.closed_at {
            walk.push((position.current(), position.path[at]));
        }
        for s in game.stations() {
            let mut seen = Vec::new();
            for &t in game.succ(s) {
                if seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                match walk.iter().position(|&e| e == (s, t)) {
                    Some(i) => {
                        let _ = writeln!(out, "  {s} -> {t} [penwidth=3, label=\"{}\"];", i + 1);
                    }
                    None => {
                        let _ = writeln!(out, "  {s} -> {t} [color=\"#9a9a9a\"];");
                    }
                }
            }
        }
        out.push_str("}\n");
        Some(out)
    }
}
