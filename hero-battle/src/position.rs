//! One position of the battle at a time: its legal attacks, the position after one, and its
//! exact value (who wins, in how many moves); and the battle as a [`games::Game`]
//! ([`HeroGame`]) for the jury of the interactive version, `play` and `query`. The protocol
//! is in the statement's "Interactive version".
//!
//! # Remoteness
//! The remoteness of a position is the number of moves until the game ends when the winner
//! wins as fast as it can and the loser loses as slowly as it can (GamesmanOne). In a finite
//! game without draws that is the least `k` such that the winner can force the end within `k`
//! moves, so it is found by growing `k`.
//!
//! "Alice wins within `k` moves" is monotone like "Alice wins" (the editorial's fact, see
//! [`crate::threshold`]): lowering Bob's hit points or raising Alice's never makes her need
//! more moves, since she keeps every attack and Bob's only weaken, move for move. So, for
//! each Alice hit-point pair `a`, mover and `b1`, the `b2` values she wins from within `k`
//! moves are a prefix `0..w_k`, and one byte per `(a, b1)` holds a whole layer `k`. With
//! Alice to move she wins in an odd number of moves, with Bob to move in an even one, so one
//! *chain* of layers answers both movers: `A_1, B_2, A_3, B_4, ...`, where `A_k` (Alice to
//! move) takes the best shifted row of `B_(k-1)` at the same `a`, and `B_k` (Bob to move) the
//! element-wise minimum of the rows `A_(k-1)` at the pairs his attacks leave: the formulas of
//! [`crate::threshold`] with the layer below instead of the same one. So one fill of the
//! threshold solver's rows, reading Bob's turns from the previous table, makes `A_(2j+1)`
//! from `A_(2j-1)`, and `B_(2j)` is read from `A_(2j-1)` as the solver reads Bob's cells.
//! Bob's wins are the same chain on the exchanged case.
//!
//! # Cost
//! One query values a position and all its children (at most 4): the winners from the
//! threshold solver (`O(R * B)`, see [`crate::threshold`]), then each winner's chain over the
//! grid of Alice pairs reachable from the asked ones (`P <= 10,000`) and the `b1` values
//! below theirs (`B <= 99`), one fill per two moves until every asked position is decided:
//! `O(r * P * B)` byte operations for the largest remoteness `r` asked (at most about 400,
//! the total hit points), in `r / 2` fills of `P * ceil(B / 32)` vector steps, and two tables
//! of `P * 128` bytes. Where the moves have different winners, both players' chains run, on
//! two threads when both are long. The longest games (all damage 1, every hero at 99:
//! `r = 295`) take about 30 ms a query on this project's machine; `cargo xtask bench play`
//! measures. An oracle keeps its chains between queries (`Chain`: a table every 8 layers), so
//! the queries of one game after its first cost a few fills each instead of a chain each:
//! the jury's CPU time on a 40-case file of long games went from about 7.8 s to 3.6 s.

use games::{Game, MoveError, Notation, Rules, Turn, Value};
use serde::Serialize;

use crate::parse::InputFormat;
use crate::rules::{Attack, AttackList, Case, Player, attacks, decided};
use crate::threshold::{self, Rows, Table, ThresholdSolver};

/// A position: the case's damage, both sides' current hit points, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The damage matrices and the current hit points (dead heroes at 0).
    pub case: Case,
    /// Who moves next.
    pub mover: Player,
}

impl Position {
    /// The start of `case` with `mover` to move.
    #[must_use]
    pub fn new(case: Case, mover: Player) -> Self {
        Self { case, mover }
    }

    /// The winner when one side has no living hero, `None` while both fight on. `O(1)`.
    #[must_use]
    pub fn winner_if_over(&self) -> Option<Player> {
        decided(self.case.alice_hp, self.case.bob_hp)
    }

    /// The mover's hit points and the enemy's.
    fn own_and_enemy(&self) -> ([u8; 2], [u8; 2]) {
        match self.mover {
            Player::Alice => (self.case.alice_hp, self.case.bob_hp),
            Player::Bob => (self.case.bob_hp, self.case.alice_hp),
        }
    }

    /// Every attack the mover may order, in the rules' order (hero 1's target first, B1/A1
    /// before B2/A2); empty once the game is over. `O(1)`, at most 4.
    #[must_use]
    pub fn moves(&self) -> AttackList {
        let (own, enemy) = self.own_and_enemy();
        attacks(self.mover, own, enemy)
    }

    /// The position after `attack`, the other player to move. `O(1)`.
    ///
    /// # Panics
    /// When `attack` is not the mover's.
    #[must_use]
    pub fn after(&self, attack: Attack) -> Self {
        assert_eq!(attack.mover, self.mover, "only the mover attacks");
        let mut case = self.case;
        match self.mover {
            Player::Alice => case.bob_hp = attack.apply(&case.alice_damage, case.bob_hp),
            Player::Bob => case.alice_hp = attack.apply(&case.bob_damage, case.alice_hp),
        }
        Self { case, mover: self.mover.other() }
    }

    /// The attack whose targets are `targets` (1-based, 0 for a dead hero), if legal.
    #[must_use]
    pub fn attack_of(&self, targets: [u8; 2]) -> Option<Attack> {
        let wanted = targets.map(|t| t.checked_sub(1));
        self.moves().into_iter().find(|a| a.targets == wanted)
    }
}

/// The winner of a position (by the threshold solver) and its remoteness, for the player to
/// move: a win or a loss in `remoteness` moves.
fn value_for(mover: Player, winner: Player, remoteness: u32) -> Value {
    if winner == mover { Value::win(remoteness) } else { Value::lose(remoteness) }
}

/// Values positions one query at a time, keeping its tables between queries.
#[derive(Debug)]
pub struct Oracle {
    threshold: ThresholdSolver,
    /// Alice's chain on the case, and Bob's (Alice's on the exchanged case).
    chains: [Chain; 2],
    /// Chains over this many pairs each run on two threads ([`PARALLEL_PAIRS`]; the tests
    /// set it to run them so on small cases too).
    parallel_pairs: usize,
}

impl Default for Oracle {
    fn default() -> Self {
        Self {
            threshold: ThresholdSolver::default(),
            chains: Default::default(),
            parallel_pairs: PARALLEL_PAIRS,
        }
    }
}

/// One position asked of a chain: its index among the asked, the chain side's hit points,
/// the other side's, and whether the chain side moves.
type Query = (usize, [u8; 2], [u8; 2], bool);

impl Oracle {
    /// An oracle with empty tables.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The exact value of `position` for its mover. See the module notes for the cost.
    pub fn value(&mut self, position: &Position) -> Value {
        self.values(std::slice::from_ref(position))[0]
    }

    /// Every legal attack of `position` with its value for the mover who orders it, in the
    /// rules' order: one query for the position's children. See the module notes.
    pub fn moves(&mut self, position: &Position) -> Vec<(Attack, Value)> {
        let moves = position.moves();
        let children: Vec<Position> = moves.iter().map(|&m| position.after(m)).collect();
        let values = self.values(&children);
        moves.into_iter().zip(values).map(|(m, v)| (m, v.after_move())).collect()
    }

    /// The winner of `position`: by the threshold solver where every hero lives (`O(R * B)`),
    /// else from its value.
    pub fn winner(&mut self, position: &Position) -> Player {
        if let Some(winner) = position.winner_if_over() {
            return winner;
        }
        match self.known_winner(position) {
            Some(winner) => winner,
            None => match self.value(position) {
                Value::Win { .. } => position.mover,
                _ => position.mover.other(),
            },
        }
    }

    /// The winner of a position where every hero lives, by the threshold solver; `None` when
    /// a hero is dead (the solver takes only valid cases): both chains then run until one
    /// decides it.
    fn known_winner(&mut self, p: &Position) -> Option<Player> {
        let live = p.case.alice_hp.iter().chain(&p.case.bob_hp).all(|&hp| hp > 0);
        live.then(|| self.threshold.solve(&p.case).winner(p.mover))
    }

    /// The values of `positions` for their movers; all of one case (the same damage).
    ///
    /// # Panics
    /// When the positions' damage differs.
    pub fn values(&mut self, positions: &[Position]) -> Vec<Value> {
        let mut out: Vec<Option<Value>> = vec![None; positions.len()];
        let Some(first) = positions.first() else { return Vec::new() };
        let mut asked: [Vec<Query>; 2] = [Vec::new(), Vec::new()];
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(p.case.alice_damage, first.case.alice_damage, "one case at a time");
            assert_eq!(p.case.bob_damage, first.case.bob_damage, "one case at a time");
            if let Some(winner) = p.winner_if_over() {
                out[i] = Some(value_for(p.mover, winner, 0));
                continue;
            }
            let known = self.known_winner(p);
            let (a, b, alice_moves) = (p.case.alice_hp, p.case.bob_hp, p.mover == Player::Alice);
            if known != Some(Player::Bob) {
                asked[0].push((i, a, b, alice_moves));
            }
            // Bob's wins are Alice's in the exchanged case.
            if known != Some(Player::Alice) {
                asked[1].push((i, b, a, !alice_moves));
            }
        }
        for (side, chain) in self.chains.iter_mut().enumerate() {
            let case = if side == 0 { first.case } else { first.case.swapped() };
            chain.start(&case, &asked[side]);
        }
        // When the positions' winners are known, each is asked of one chain, and two long
        // chains run on two threads: the positions of a long game whose moves have
        // different winners took twice as long as the others.
        let asked_twice = asked[0].iter().any(|q| asked[1].iter().any(|r| r.0 == q.0));
        if !asked_twice && self.chains.iter().all(|c| c.rows.pairs() >= self.parallel_pairs) {
            let [alice, bob] = &mut self.chains;
            let (alice_wins, bob_wins) = std::thread::scope(|s| {
                let bob_wins = s.spawn(|| bob.run(&asked[1], Player::Bob, positions));
                let alice_wins = alice.run(&asked[0], Player::Alice, positions);
                (alice_wins, bob_wins.join().expect("a chain does not panic"))
            });
            for (i, value) in alice_wins.into_iter().chain(bob_wins) {
                out[i] = Some(value);
            }
        }
        let mut steps = 0;
        while out.iter().any(Option::is_none) {
            steps += 1;
            // Each chain starts below its positions' first won layer, and every move removes a
            // hit point, of which a side has at most 4 * 99.
            assert!(steps <= 4 * 99, "a position is decided within {} moves", 8 * 99);
            for (side, chain) in self.chains.iter_mut().enumerate() {
                if !asked[side].iter().any(|q| out[q.0].is_none()) {
                    continue;
                }
                chain.step();
                let winner = if side == 0 { Player::Alice } else { Player::Bob };
                for q in &asked[side] {
                    if out[q.0].is_none() && chain.wins(q) {
                        let moves = moves(q, chain.layer);
                        out[q.0] = Some(value_for(positions[q.0].mover, winner, moves));
                    }
                }
            }
        }
        out.into_iter().map(|v| v.expect("every position is valued")).collect()
    }
}

/// Chains over at least this many pairs each run on two threads when both are needed (a
/// thread's start, some 50 microseconds, is then a small part of the work).
const PARALLEL_PAIRS: usize = 1_000;

/// The moves within which the chain's side wins `query`, decided at layer `layer`.
fn moves(query: &Query, layer: u32) -> u32 {
    if query.3 { 2 * layer - 1 } else { 2 * layer }
}

/// The layers "Alice wins within `k` moves" of one case over a grid of Alice pairs (the union
/// of the asked pairs' reachable ones) and Bob's first hit points, one layer at a time: the
/// rows of layer `j` are `A_(2j - 1)`, and `B_(2j)` is read from them as the threshold solver
/// reads Bob's cells.
///
/// **A game's chain is computed once.** The positions a game asks later (the replies' children)
/// are reached from the first ones, so they lie in the first query's grid, which is closed
/// under the moves: a layer over it holds theirs too. So the chain keeps every
/// [`SAVE_EVERY`]-th layer's table while it steps, and a later query of the same case whose
/// grid lies in the chain's starts from the latest kept layer at which none of its positions is
/// won yet, instead of from layer 0: a reply costs at most about [`SAVE_EVERY`] fills more than
/// its own remoteness's drop, not its whole remoteness. Memory: one table of `P * 129` bytes
/// every [`SAVE_EVERY`] layers, at most `4 * 99 / SAVE_EVERY + 1` of them (about 65 MB at
/// the largest grid), freed when another case or a larger grid is asked.
#[derive(Debug, Default)]
struct Chain {
    /// The latest layer's rows.
    rows: Rows,
    /// The layer the rows hold (0: won only where Bob has no hero).
    layer: u32,
    /// The table of the layer before, kept for the next.
    spare: Table,
    /// Every [`SAVE_EVERY`]-th layer's table from layer 0, as far as the chain has stepped.
    saved: Vec<Table>,
    /// The grid the rows are over: the case's damage (its hit points are the asked
    /// positions'), each Alice hero's reachable values and the rows' width.
    grid: Option<(Damage, [u128; 2], usize)>,
    /// The case, with Bob's heroes renamed when `mirrored`.
    case: Option<Case>,
    /// Whether the rows' cells are over Bob's second hero (the fewer vectors).
    mirrored: bool,
}

/// How many layers apart [`Chain`] keeps a table.
const SAVE_EVERY: u32 = 8;

/// A case's damage, Alice's and Bob's (`Case::alice_damage`, `Case::bob_damage`).
type Damage = ([[u8; 2]; 2], [[u8; 2]; 2]);

impl Chain {
    /// Layer 0 over the grid of `queries` of `case`: won only where Bob has no hero left; or,
    /// when the chain's grid of the same case holds theirs, the latest kept layer at which none
    /// of `queries` is won yet. `O(P * B)`.
    fn start(&mut self, case: &Case, queries: &[Query]) {
        let mut masks = [0u128; 2];
        let mut top = [0u8; 2];
        for q in queries {
            for j in 0..2 {
                let damage = [case.bob_damage[0][j], case.bob_damage[1][j]];
                masks[j] |= threshold::reachable_values(q.1[j], damage);
                top[j] = top[j].max(q.2[j]);
            }
        }
        let damage = (case.alice_damage, case.bob_damage);
        if let Some((grid_damage, grid_masks, width)) = self.grid {
            let row_top = if self.mirrored { top[1] } else { top[0] };
            let inside = (0..2).all(|j| masks[j] & !grid_masks[j] == 0);
            // A grid far smaller than the chain's (late in a game) is cheaper to start anew:
            // a fill costs its pairs.
            let pairs = masks.map(u128::count_ones).iter().product::<u32>() as usize;
            let worth = pairs * SAVE_EVERY as usize >= self.rows.pairs();
            if grid_damage == damage && inside && usize::from(row_top) < width && worth {
                self.rewind(queries);
                return;
            }
        }
        let vectors = |b: u8| threshold::row_vectors(usize::from(b) + 1);
        self.mirrored = vectors(top[1]) < vectors(top[0]);
        let mirrored = if self.mirrored { threshold::mirrored(case) } else { *case };
        let width = usize::from(if self.mirrored { top[1] } else { top[0] }) + 1;
        self.rows.set_grid(&mirrored, masks, width);
        self.rows.set_bob_dead_only();
        self.case = Some(mirrored);
        self.grid = Some((damage, masks, width));
        self.layer = 0;
        self.saved.clear();
        self.saved.push(self.rows.table().clone());
    }

    /// Goes back to the latest layer, kept or the rows', at which none of `queries` is won
    /// yet, so that stepping on finds each one's first won layer. `O(kept * queries)` reads,
    /// and a table's copy when it goes back.
    fn rewind(&mut self, queries: &[Query]) {
        let none_won = |table: &Table| !queries.iter().any(|q| self.wins_in(table, q));
        if none_won(self.rows.table()) {
            return;
        }
        // Layer 0 is won only where Bob has no hero, which no asked position is.
        let kept = (0..self.saved.len()).rev().find(|&i| none_won(&self.saved[i]));
        let kept = kept.expect("no asked position is won at layer 0");
        self.rows.set_table(&self.saved[kept]);
        self.layer = u32::try_from(kept).expect("at most 4 * 99 layers") * SAVE_EVERY;
    }

    /// The next layer, kept when it is the next to keep. `O(P * B)`.
    fn step(&mut self) {
        let case = self.case.expect("a chain is started before it steps");
        self.rows.next_layer(&case, &mut self.spare);
        self.layer += 1;
        // Past 4 * 99 layers (every move removes a hit point, and a side has at most 4 * 99
        // of them) every layer is the same: a chain that loses its positions, stepped while
        // the other decides them, keeps none of them.
        let next = SAVE_EVERY * u32::try_from(self.saved.len()).expect("a few tables");
        if self.layer == next && self.layer <= 4 * 99 {
            self.saved.push(self.rows.table().clone());
        }
    }

    /// Steps until every one of `asked` (each won by the chain's side, `winner`) is decided;
    /// returns their values. `O(r * P * B)`, see the module notes.
    fn run(
        &mut self,
        asked: &[Query],
        winner: Player,
        positions: &[Position],
    ) -> Vec<(usize, Value)> {
        let mut values = Vec::with_capacity(asked.len());
        let mut left: Vec<&Query> = asked.iter().collect();
        let mut steps = 0;
        while !left.is_empty() {
            steps += 1;
            // As in `Oracle::values`: the chain starts below every asked position's won layer.
            assert!(steps <= 4 * 99, "a position is decided within {} moves", 8 * 99);
            self.step();
            left.retain(|q| {
                let won = self.wins(q);
                if won {
                    let moves = moves(q, self.layer);
                    values.push((q.0, value_for(positions[q.0].mover, winner, moves)));
                }
                !won
            });
        }
        values
    }

    /// Whether the latest layer says the chain's side wins `query` with the side that
    /// `query` says to move: within `2j - 1` moves when the chain's side moves, `2j` when
    /// the other does. `O(1)`.
    fn wins(&self, query: &Query) -> bool {
        self.wins_in(self.rows.table(), query)
    }

    /// [`Chain::wins`] at the layer `table` holds (of the chain's grid). `O(1)`.
    fn wins_in(&self, table: &Table, query: &Query) -> bool {
        let (a, b, mover) = (query.1, query.2, if query.3 { Player::Alice } else { Player::Bob });
        let b = if self.mirrored { [b[1], b[0]] } else { b };
        self.rows.boundary_in(table, a, b[0], mover) > b[1]
    }
}

/// The statement's sample.
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

/// A position as data ([`Notation::board`]): each side's heroes and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Alice's heroes A1, A2.
    pub alice: Heroes,
    /// Bob's heroes B1, B2.
    pub bob: Heroes,
    /// `Alice` or `Bob`.
    pub mover: String,
}

/// One side's two heroes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Heroes {
    /// Hit points of hero 1 and hero 2 (0: dead).
    pub hp: [u8; 2],
    /// `damage[i][j]`: what hero `i + 1` deals to the enemy's hero `j + 1`.
    pub damage: [[u8; 2]; 2],
}

fn letter(p: Player) -> char {
    if p == Player::Alice { 'A' } else { 'B' }
}

impl Rules for HeroGame {
    type Position = Position;
    type Move = Attack;
    type Player = Player;

    fn turn(&self, position: &Position) -> Turn<Player> {
        match position.winner_if_over() {
            Some(winner) => Turn::Over(winner),
            None => Turn::Player(position.mover),
        }
    }

    fn moves(&self, position: &Position) -> Vec<Attack> {
        position.moves().into_iter().collect()
    }

    fn after(&self, position: &Position, mv: &Attack) -> Position {
        position.after(*mv)
    }
}

impl Notation for HeroGame {
    type Board = Board;

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

    /// As the board and `--explain` write it: `A1->B1, A2->B1`, a dead hero's order left
    /// out. A person may type this form in `play` and `query`; the protocol keeps its two
    /// numbers.
    fn show_move(&self, _: &Position, mv: &Attack) -> String {
        mv.to_string()
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

    fn board_script(&self) -> &'static str {
        include_str!("board.js")
    }

    fn board(&self, position: &Position) -> Board {
        let c = &position.case;
        Board {
            alice: Heroes { hp: c.alice_hp, damage: c.alice_damage },
            bob: Heroes { hp: c.bob_hp, damage: c.bob_damage },
            mover: position.mover.to_string(),
        }
    }
}

impl Game for HeroGame {
    type Input = Vec<Case>;

    fn name(&self) -> &'static str {
        "hero-battle"
    }

    fn sample(&self) -> &'static [u8] {
        SAMPLE
    }

    fn read(&self, bytes: &[u8]) -> Result<Vec<Case>, String> {
        engine::driver::parse_all(&InputFormat::SOLVER, bytes)
            .map(|((), cases)| cases)
            .map_err(|e| e.to_string())
    }

    /// Two games a case: Alice moving first, then Bob.
    fn starts(&mut self, cases: &Vec<Case>) -> Vec<Position> {
        cases
            .iter()
            .flat_map(|&c| [Position::new(c, Player::Alice), Position::new(c, Player::Bob)])
            .collect()
    }

    /// Every level: a file holds 40 cases (80 games) at most under the original limits.
    fn stress_levels(&self) -> u32 {
        u32::MAX
    }

    fn players(&self) -> [Player; 2] {
        [Player::Alice, Player::Bob]
    }

    /// The winner, by the threshold solver alone (`O(R * B)`): no remoteness is needed.
    fn program_side(&mut self, start: &Position) -> Player {
        self.oracle.winner(start)
    }

    /// The case's line, then who moves first, then the program's side.
    fn intro(&self, start: &Position, side: Player) -> Vec<String> {
        let numbers: Vec<String> = start.case.to_array().iter().map(u8::to_string).collect();
        vec![numbers.join(" "), start.mover.to_string(), side.to_string()]
    }

    fn valued_moves(&mut self, position: &Position) -> Vec<(Attack, Value)> {
        if position.winner_if_over().is_some() {
            return Vec::new();
        }
        self.oracle.moves(position)
    }
}

#[cfg(test)]
mod tests {
    use engine::rng::SplitMix64;
    use games::exact::Exact;

    use super::*;

    fn random_case(rng: &mut SplitMix64, hp: u64, damage: u64) -> Case {
        let mut v = [0u8; 12];
        for (i, x) in v.iter_mut().enumerate() {
            *x = if i < 4 { rng.range(1, hp) } else { rng.range(1, damage) } as u8;
        }
        Case::from_array(v)
    }

    #[test]
    fn values_agree_with_the_generic_exact_search_on_every_reachable_position() {
        let mut rng = SplitMix64::new(33);
        let mut checked = 0;
        let mut remoteness_seen = 0;
        for round in 0..300 {
            // Every other case with the two chains on two threads whenever both are needed.
            let parallel_pairs = if round % 2 == 0 { 0 } else { PARALLEL_PAIRS };
            let mut oracle = Oracle { parallel_pairs, ..Oracle::new() };
            let case = random_case(&mut rng, if round % 3 == 0 { 14 } else { 8 }, 4);
            let exact = Exact::new();
            // A random walk through the game from each first mover, every position checked
            // with its children.
            for first in [Player::Alice, Player::Bob] {
                let mut p = Position::new(case, first);
                while p.winner_if_over().is_none() {
                    let expected = exact.value_for(&HeroGame::new(), &p, p.mover);
                    assert_eq!(oracle.value(&p), expected);
                    let won = matches!(expected, Value::Win { .. });
                    assert_eq!(oracle.winner(&p) == p.mover, won, "{p:?}");
                    let expected = exact.moves(&HeroGame::new(), &p);
                    for (m, v) in oracle.moves(&p) {
                        let child = p.after(m);
                        assert!(expected.contains(&(m, v)), "{child:?}: {v:?}, {expected:?}");
                        if let Value::Win { remoteness: Some(r) }
                        | Value::Lose { remoteness: Some(r) } = v
                        {
                            remoteness_seen = remoteness_seen.max(r);
                        }
                        checked += 1;
                    }
                    let moves = p.moves();
                    p = p.after(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 5_000, "{checked} positions checked");
        assert!(remoteness_seen >= 8, "long games were tried: {remoteness_seen}");
    }

    #[test]
    fn a_games_chain_kept_between_replies_values_as_a_fresh_one() {
        // Long games, many layers kept: one oracle along a game (its chains kept and gone
        // back to) against a fresh oracle at each position.
        let mut rng = SplitMix64::new(41);
        let mut longest = 0;
        for round in 0..6 {
            let case = random_case(&mut rng, 60, 3);
            let mut kept = Oracle {
                parallel_pairs: if round % 2 == 0 { 0 } else { PARALLEL_PAIRS },
                ..Oracle::new()
            };
            for first in [Player::Alice, Player::Bob] {
                let mut p = Position::new(case, first);
                while p.winner_if_over().is_none() {
                    let moves = kept.moves(&p);
                    assert_eq!(moves, Oracle::new().moves(&p), "{p:?}");
                    if let Value::Win { remoteness: Some(r) }
                    | Value::Lose { remoteness: Some(r) } = moves[0].1
                    {
                        longest = longest.max(r);
                    }
                    let all = p.moves();
                    p = p.after(all[rng.below(all.len())]);
                }
            }
        }
        assert!(longest >= 4 * SAVE_EVERY, "long games were tried: {longest}");
    }
}
