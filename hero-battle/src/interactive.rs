//! The battle as a [`judge::game::Game`]: the jury of the interactive version, `play` and
//! `query`, on [`crate::position`]. The protocol is in the statement's "Interactive version".

use judge::Limits;
use judge::game::{Game, MoveError, Turn, Value};

use crate::position::{Oracle, Position};
use crate::rules::{Attack, Player};

/// The sample of the statement.
const SAMPLE: &[u8] = b"4\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n30 30 5 5 1 1 1 1 7 2 2 7\n12 7 9 15 4 2 3 5 2 6 4 1\n";

/// The battle one position at a time, with the oracle's tables.
#[derive(Debug, Default)]
pub struct HeroGame {
    oracle: Oracle,
}

impl HeroGame {
    /// A game with empty tables.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

fn letter(p: Player) -> char {
    if p == Player::Alice { 'A' } else { 'B' }
}

impl Game for HeroGame {
    type Position = Position;
    type Move = Attack;
    type Player = Player;

    fn name(&self) -> &'static str {
        "hero-battle"
    }

    /// Two games a case: Alice moving first, then Bob.
    fn starts(&mut self, input: &[u8]) -> Result<Vec<Position>, String> {
        let cases = judge::Problem::parse(&crate::judge::Judge, input, Limits::Extended)
            .map_err(|e| e.to_string())?;
        Ok(cases
            .into_iter()
            .flat_map(|c| [Position::new(c, Player::Alice), Position::new(c, Player::Bob)])
            .collect())
    }

    fn sample(&self) -> &'static [u8] {
        SAMPLE
    }

    /// Every level: a file holds 40 cases (80 games) at most under the original limits.
    fn stress_levels(&self) -> u32 {
        <crate::judge::Judge as judge::Problem>::LEVELS
    }

    fn program_side(&mut self, start: &Position) -> Player {
        match self.oracle.value(start) {
            Value::Win { .. } => start.mover,
            _ => start.mover.other(),
        }
    }

    /// The case's line, then who moves first, then the program's side.
    fn intro(&self, start: &Position, side: Player) -> Vec<String> {
        let numbers: Vec<String> = start.case.to_array().iter().map(u8::to_string).collect();
        vec![numbers.join(" "), start.mover.to_string(), side.to_string()]
    }

    fn turn(&self, position: &Position) -> Turn<Player> {
        match position.winner_if_over() {
            Some(winner) => Turn::Over(winner),
            None => Turn::Player(position.mover),
        }
    }

    fn moves(&mut self, position: &Position) -> Vec<(Attack, Value)> {
        if position.winner_if_over().is_some() {
            return Vec::new();
        }
        self.oracle.moves(position)
    }

    fn chances(&self, _: &Position) -> Vec<(Attack, f64)> {
        Vec::new()
    }

    fn after(&self, position: &Position, mv: &Attack) -> Position {
        position.after(*mv)
    }

    /// Two numbers: the target (1 or 2) of the mover's hero 1 and of hero 2, 0 for a dead
    /// hero.
    fn parse_move(&self, position: &Position, line: &str) -> Result<Attack, MoveError> {
        let numbers: Vec<&str> = line.split_whitespace().collect();
        let target = |t: &str| t.parse::<u8>().ok().filter(|&t| t <= 2);
        let targets = match numbers[..] {
            [a, b] => target(a).zip(target(b)),
            _ => None,
        };
        let Some((t1, t2)) = targets else {
            return Err(MoveError::Malformed(
                "expected two targets, each 0 (a dead hero), 1 or 2".to_owned(),
            ));
        };
        position.attack_of([t1, t2]).ok_or_else(|| {
            let legal: Vec<String> =
                position.moves().iter().map(|a| self.write_move(position, a)).collect();
            MoveError::Illegal(format!("the legal moves are {}", legal.join(", ")))
        })
    }

    fn write_move(&self, _: &Position, mv: &Attack) -> String {
        let t = |i: usize| mv.targets[i].map_or(0, |t| t + 1);
        format!("{} {}", t(0), t(1))
    }

    fn draw(&self, position: &Position) -> String {
        let c = &position.case;
        let hp = |p: Player, hp: [u8; 2]| {
            format!("{}1 {:>2} HP   {}2 {:>2} HP", letter(p), hp[0], letter(p), hp[1])
        };
        let damage = |p: Player, d: [[u8; 2]; 2]| {
            let (me, them) = (letter(p), letter(p.other()));
            format!(
                "damage {me}1->{them}1 {}, {me}1->{them}2 {}, {me}2->{them}1 {}, {me}2->{them}2 {}",
                d[0][0], d[0][1], d[1][0], d[1][1]
            )
        };
        format!(
            "Alice: {}   ({})\nBob:   {}   ({})\n{} to move",
            hp(Player::Alice, c.alice_hp),
            damage(Player::Alice, c.alice_damage),
            hp(Player::Bob, c.bob_hp),
            damage(Player::Bob, c.bob_damage),
            position.mover
        )
    }
}
