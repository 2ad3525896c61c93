//! One position of the battle at a time: its legal attacks, the position after one, and its
//! exact value (who wins, in how many moves), for the jury, `play`, `query` and `--explain`.
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
//! element-wise minimum of the rows `A_(k-1)` at the pairs his attacks leave (the formulas of
//! [`crate::threshold`] with the layer one below instead of the same one). Bob's wins are the
//! same chain on the exchanged case.
//!
//! # Cost
//! One query values a position and all its children (at most 4): the winners from the
//! threshold solver (`O(R * B)`, see [`crate::threshold`]), then each winner's chain over the
//! box of Alice pairs below the position's (`P = (a1 + 1)(a2 + 1) <= 10,000`) and `b1` values
//! below its (`B <= 100`, padded to 112) until every asked position is decided: `O(r * P * B)`
//! byte operations for the largest remoteness `r` asked (at most about 400, the total hit
//! points), `O(P * B)` bytes of space. Hard cases (hit points 90..99, damage 1..3) have `r`
//! near 100 at the start and take tens of milliseconds; `cargo xtask bench play` measures.

use judge::game::Value;

use crate::rules::{Attack, AttackList, Case, Player, attacks, decided};
use crate::threshold::ThresholdSolver;

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
#[derive(Debug, Default)]
pub struct Oracle {
    threshold: ThresholdSolver,
    /// Alice's chain on the case, and Bob's (Alice's on the exchanged case).
    chains: [Chain; 2],
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
        let mut k = 0;
        while out.iter().any(Option::is_none) {
            k += 1;
            // Every move removes a hit point, and a side has at most 4 * 99 of them.
            assert!(k <= 8 * 99, "a position is decided within {} moves", 8 * 99);
            for (side, chain) in self.chains.iter_mut().enumerate() {
                if !asked[side].iter().any(|q| out[q.0].is_none()) {
                    continue;
                }
                chain.step(k);
                let winner = if side == 0 { Player::Alice } else { Player::Bob };
                for q in &asked[side] {
                    if out[q.0].is_none() && chain.wins(q) {
                        out[q.0] = Some(value_for(positions[q.0].mover, winner, k));
                    }
                }
            }
        }
        out.into_iter().map(|v| v.expect("every position is valued")).collect()
    }
}

/// Bytes in one vector register: rows are padded to a multiple of this.
const LANES: usize = 16;

/// The chain of layers "Alice wins within `k` moves" of one case, over a box of Alice pairs
/// and Bob's first hit points.
#[derive(Debug, Default)]
struct Chain {
    /// `alice[slot * stride + b1]`: the latest odd layer, Alice to move.
    alice: Vec<u8>,
    /// The latest even layer, Bob to move.
    bob: Vec<u8>,
    /// The case (its damage).
    case: Option<Case>,
    /// The largest Alice hit points of the box.
    top: [u8; 2],
    /// Bob's first hit points, `0..width`.
    width: usize,
    /// Row length, `width` rounded up to whole vectors.
    stride: usize,
    /// The largest prefix a row holds: one more than the largest `b2` asked.
    cap: u8,
    /// Whether the latest layer is Alice's (odd).
    latest_is_alice: bool,
}

/// The damage vectors of `mover`'s attacks with attackers alive as `own` says against the
/// targets alive as `enemy` says (hit points only tested for being positive).
fn damages(mover: Player, own: [u8; 2], enemy: [u8; 2], damage: &[[u8; 2]; 2]) -> Vec<[u8; 2]> {
    attacks(mover, own, enemy).into_iter().map(|a| a.damage(damage)).collect()
}

impl Chain {
    /// Layer 0 over the box of `queries` of `case`: won only where Bob has no hero left.
    /// `O(P * B)`.
    fn start(&mut self, case: &Case, queries: &[Query]) {
        self.case = Some(*case);
        self.top = [0, 1].map(|j| queries.iter().map(|q| q.1[j]).max().unwrap_or(0));
        self.width = usize::from(queries.iter().map(|q| q.2[0]).max().unwrap_or(0)) + 1;
        self.cap = queries.iter().map(|q| q.2[1]).max().unwrap_or(0).saturating_add(1);
        self.stride = self.width.next_multiple_of(LANES);
        let cells = self.pairs() * self.stride;
        self.alice.clear();
        self.alice.resize(cells, 0);
        self.bob.clear();
        self.bob.resize(cells, 0);
        for s in 0..self.pairs() {
            self.bob[s * self.stride] = 1;
        }
    }

    fn pairs(&self) -> usize {
        (usize::from(self.top[0]) + 1) * (usize::from(self.top[1]) + 1)
    }

    fn slot(&self, a: [u8; 2]) -> usize {
        usize::from(a[0]) * (usize::from(self.top[1]) + 1) + usize::from(a[1])
    }

    /// Whether the latest layer says the chain's side wins `query` (only a layer of the
    /// query's mover's parity can).
    fn wins(&self, query: &Query) -> bool {
        let rows = if query.3 { &self.alice } else { &self.bob };
        let alice_layer = self.latest_is_alice;
        alice_layer == query.3
            && query.2[1] < rows[self.slot(query.1) * self.stride + usize::from(query.2[0])]
    }

    /// Layer `k`: `A_k` from `B_(k-1)` when `k` is odd, `B_k` from `A_(k-1)` when even.
    /// `O(P * B)`; the row loops take a fixed four inputs (moves repeated, which `min` and
    /// `max` ignore) over whole padded rows, so they compile to vector code.
    fn step(&mut self, k: u32) {
        let case = self.case.expect("a chain is started before it steps");
        self.latest_is_alice = k % 2 == 1;
        let stride = self.stride;
        // Damage of each attacker set against each target set, by alive masks (1, 2, 3).
        let table = |mover: Player, damage: &[[u8; 2]; 2]| -> [[[[u8; 2]; 4]; 4]; 4] {
            let mut t = [[[[0u8; 2]; 4]; 4]; 4];
            for (own, row) in t.iter_mut().enumerate().skip(1) {
                for (enemy, cell) in row.iter_mut().enumerate().skip(1) {
                    let bits = |m: usize| [u8::from(m & 1 != 0), u8::from(m & 2 != 0)];
                    let list = damages(mover, bits(own), bits(enemy), damage);
                    *cell = std::array::from_fn(|i| list[i % list.len()]);
                }
            }
            t
        };
        let mask = |hp: [u8; 2]| usize::from(hp[0] > 0) | usize::from(hp[1] > 0) << 1;
        let (alice_table, bob_table) =
            (table(Player::Alice, &case.alice_damage), table(Player::Bob, &case.bob_damage));
        for a1 in 0..=self.top[0] {
            for a2 in 0..=self.top[1] {
                let a = [a1, a2];
                let own = self.slot(a) * stride..(self.slot(a) + 1) * stride;
                if a == [0, 0] {
                    let rows = if k % 2 == 1 { &mut self.alice } else { &mut self.bob };
                    rows[own.clone()].fill(0);
                    rows[own.start] = 1;
                    continue;
                }
                if k % 2 == 1 {
                    self.alice_step(own, &alice_table[mask(a)]);
                } else {
                    let child = |moves: &[[u8; 2]; 4]| {
                        moves.map(|d| {
                            self.slot([a[0].saturating_sub(d[0]), a[1].saturating_sub(d[1])])
                        })
                    };
                    let both = child(&bob_table[3][mask(a)]);
                    let b1_only = child(&bob_table[1][mask(a)]);
                    let b2_only = child(&bob_table[2][mask(a)]);
                    self.bob_step(own, both, b1_only, b2_only);
                }
            }
        }
    }

    /// `A_k`'s row at `own` from `B_(k-1)`'s at the same pair; `moves[targets]` are Alice's
    /// damage vectors against the target set (1: B1 only, 2: B2 only, 3: both).
    fn alice_step(&mut self, own: std::ops::Range<usize>, moves: &[[[u8; 2]; 4]; 4]) {
        // A row shifted by d reads `from[b1 - d]`, and `from[0]` where b1 - d < 0: a copy of
        // the row behind a prefix of `from[0]` makes every shift one contiguous slice.
        const PAD: usize = 128;
        const MAX_STRIDE: usize = 112;
        let (stride, cap) = (self.stride, self.cap);
        let from = &self.bob[own.clone()];
        let mut padded = [0u8; PAD + MAX_STRIDE];
        padded[..PAD].fill(from[0]);
        padded[PAD..PAD + stride].copy_from_slice(from);
        let shifted = |d: u8| &padded[PAD - usize::from(d).min(PAD)..][..stride];
        let [m0, m1, m2, m3] = moves[3];
        let (s0, s1, s2, s3) = (shifted(m0[0]), shifted(m1[0]), shifted(m2[0]), shifted(m3[0]));
        let on_b1 = shifted(moves[1][0][0]);
        let gain = |v: u8, d2: u8| if v > 0 { v.saturating_add(d2) } else { 0 };
        let first = from[0];
        let to = &mut self.alice[own];
        for i in 0..stride {
            let best = gain(s0[i], m0[1]).max(gain(s1[i], m1[1]));
            let best = best.max(gain(s2[i], m2[1]).max(gain(s3[i], m3[1])));
            to[i] = best.max(u8::from(on_b1[i] > 0)).min(cap);
        }
        to[0] = first.saturating_add(moves[2][0][1]).min(cap);
    }

    /// `B_k`'s row at `own` from `A_(k-1)`'s at the slots Bob's attacks leave: with both his
    /// heroes, with B1 only, with B2 only.
    fn bob_step(
        &mut self,
        own: std::ops::Range<usize>,
        both: [usize; 4],
        b1_only: [usize; 4],
        b2_only: [usize; 4],
    ) {
        let stride = self.stride;
        let (from, to) = (&self.alice, &mut self.bob[own]);
        let row = |s: usize| &from[s * stride..(s + 1) * stride];
        let [c0, c1, c2, c3] = both.map(row);
        let [l0, l1, _, _] = b1_only.map(row);
        for i in 0..stride {
            let all = c0[i].min(c1[i]).min(c2[i].min(c3[i]));
            to[i] = all.max(u8::from(l0[i].min(l1[i]) > 0));
        }
        to[0] = b2_only.iter().map(|&s| row(s)[0]).min().unwrap_or(1).max(1);
    }
}

/// The reference for the tests: remoteness by a plain memoized search over every position
/// reachable, straight from the rules. `O(P)` for `P` reachable positions.
#[cfg(test)]
pub(crate) mod naive {
    use std::collections::HashMap;

    use super::{Position, Value};

    /// The value of `position` for its mover.
    pub(crate) fn value(position: &Position, memo: &mut HashMap<Position, Value>) -> Value {
        if let Some(winner) = position.winner_if_over() {
            return super::value_for(position.mover, winner, 0);
        }
        if let Some(&v) = memo.get(position) {
            return v;
        }
        let children: Vec<Value> = position
            .moves()
            .into_iter()
            .map(|m| value(&position.after(m), memo).after_move())
            .collect();
        let best =
            children.into_iter().min_by_key(|v| v.rank()).expect("a live position has a move");
        memo.insert(*position, best);
        best
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use engine::rng::SplitMix64;

    use super::*;

    fn random_case(rng: &mut SplitMix64, hp: u64, damage: u64) -> Case {
        let mut v = [0u8; 12];
        for (i, x) in v.iter_mut().enumerate() {
            *x = if i < 4 { rng.range(1, hp) } else { rng.range(1, damage) } as u8;
        }
        Case::from_array(v)
    }

    #[test]
    fn values_agree_with_the_plain_search_on_every_reachable_position() {
        let mut rng = SplitMix64::new(33);
        let mut oracle = Oracle::new();
        let mut checked = 0;
        let mut remoteness_seen = 0;
        for round in 0..300 {
            let case = random_case(&mut rng, if round % 3 == 0 { 14 } else { 8 }, 4);
            let mut memo = HashMap::new();
            // A random walk through the game from each first mover, every position checked
            // with its children.
            for first in [Player::Alice, Player::Bob] {
                let mut p = Position::new(case, first);
                while p.winner_if_over().is_none() {
                    assert_eq!(oracle.value(&p), naive::value(&p, &mut memo), "{p:?}");
                    for (m, v) in oracle.moves(&p) {
                        let child = p.after(m);
                        assert_eq!(v, naive::value(&child, &mut memo).after_move(), "{child:?}");
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
}
