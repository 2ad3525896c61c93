//! The fast exact solver: a dynamic programme over Alice's hit points whose cells are whole
//! monotone win/lose boundaries over Bob's hit points.
//!
//! # Why boundaries
//! Fix Alice's hit points `a` and the mover. Lowering either of Bob's hit points never hurts
//! Alice (the editorial's monotonicity: she keeps every attack, Bob's attacks only weaken), so
//! for each `b1` the set of `b2` where Alice wins is a prefix `0..w`. One byte `w` per
//! `(a, mover, b1)` therefore decides up to 100 positions at once, and the whole game is
//!
//! - `bob_row[a][b1]`, Bob to move: Alice must win after each of his attacks, each of which
//!   lowers `a` to some `a'` and leaves `b`: an element-wise minimum of rows `alice_row[a']`;
//! - `alice_row[a][b1]`, Alice to move: she picks an attack `(d1, d2)` on `b`, leaving `a`: a
//!   maximum over attacks of `bob_row[a][b1 - d1] + d2`, a shifted copy of one row.
//!
//! Dead heroes change who attacks whom, so the cells with `b1 = 0` or `b2 = 0` use the
//! attacks of the survivors; the formulas below spell this out.
//!
//! # Order and cost
//! Bob's attacks lower `a` componentwise, so rows are filled in increasing order of
//! `a1 * 100 + a2` over the Alice hit points reachable from the start (a bit table marks them
//! in one descending sweep). With `R` reachable Alice hit-point pairs and `B` = Bob's first
//! hit points, time is `O(R * B * k)` byte operations with `k <= 8` attacks (the row loops
//! vectorise), and space `O(R * B)` bytes. Hard cases (hit points 90..99, damage 1..3) have
//! `R` near 9,000 and take well under a millisecond; random cases reach a handful of pairs.

use engine::store::{BitTable, DenseTable};

use crate::rules::{Case, Outcome, Player, attacks};

/// Alice hit points `(a1, a2)` as a dense rank, `a1 * 100 + a2`.
fn rank(a: [u8; 2]) -> usize {
    usize::from(a[0]) * 100 + usize::from(a[1])
}

fn unrank(r: usize) -> [u8; 2] {
    [(r / 100) as u8, (r % 100) as u8]
}

/// The damage vectors of one attacker set against one target set (at most four).
#[derive(Clone, Copy, Debug, Default)]
struct Moves {
    len: usize,
    damage: [[u8; 2]; 4],
}

impl Moves {
    fn new(mover: Player, attackers: [u8; 2], targets: [u8; 2], damage: &[[u8; 2]; 2]) -> Self {
        let mut moves = Self::default();
        for attack in attacks(mover, attackers, targets) {
            moves.damage[moves.len] = attack.damage(damage);
            moves.len += 1;
        }
        moves
    }

    fn iter(&self) -> impl Iterator<Item = [u8; 2]> + '_ {
        self.damage[..self.len].iter().copied()
    }
}

/// Per-case move tables, indexed by the bit masks of living attackers and living targets
/// (bit 0 = hero 1, bit 1 = hero 2; masks 1..=3).
#[derive(Clone, Debug, Default)]
struct MoveTable {
    alice: [[Moves; 4]; 4],
    bob: [[Moves; 4]; 4],
}

impl MoveTable {
    fn new(case: &Case) -> Self {
        let mut table = Self::default();
        for attackers in 1..4usize {
            for targets in 1..4usize {
                let own = [u8::from(attackers & 1 != 0), u8::from(attackers & 2 != 0)];
                let enemy = [u8::from(targets & 1 != 0), u8::from(targets & 2 != 0)];
                table.alice[attackers][targets] =
                    Moves::new(Player::Alice, own, enemy, &case.alice_damage);
                table.bob[attackers][targets] =
                    Moves::new(Player::Bob, own, enemy, &case.bob_damage);
            }
        }
        table
    }
}

fn alive_mask(hp: [u8; 2]) -> usize {
    usize::from(hp[0] > 0) | usize::from(hp[1] > 0) << 1
}

/// What the last solve did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Alice hit-point pairs reachable from the start (rows per mover).
    pub alice_pairs: usize,
    /// Boundary cells filled: two movers times pairs times Bob's `b1` values.
    pub cells: usize,
}

/// The boundary solver with its reusable tables (one per thread; reset per case in time
/// proportional to what the case touched).
#[derive(Clone, Debug)]
pub struct ThresholdSolver {
    reached: BitTable,
    slot_of: DenseTable<u16>,
    /// `alice_row[slot * width + b1]`: how many `b2` values (from 0 up) Alice wins with
    /// Alice to move.
    alice_row: Vec<u8>,
    /// The same with Bob to move.
    bob_row: Vec<u8>,
    width: usize,
    start: [u8; 2],
    moves: MoveTable,
    stats: SolveStats,
}

impl Default for ThresholdSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl ThresholdSolver {
    /// Empty tables for any case.
    #[must_use]
    pub fn new() -> Self {
        Self {
            reached: BitTable::new(100 * 100),
            slot_of: DenseTable::new(100 * 100),
            alice_row: Vec::new(),
            bob_row: Vec::new(),
            width: 0,
            start: [0, 0],
            moves: MoveTable::default(),
            stats: SolveStats::default(),
        }
    }

    /// What the last [`ThresholdSolver::solve`] did.
    #[must_use]
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Who wins `case` for each first mover. Time `O(R * B)`, see the module notes.
    pub fn solve(&mut self, case: &Case) -> Outcome {
        self.reached.reset();
        self.slot_of.reset();
        self.moves = MoveTable::new(case);
        self.start = case.bob_hp;
        self.width = usize::from(case.bob_hp[0]) + 1;
        let top = rank(case.alice_hp);
        self.mark_reachable(top);

        let pairs = self.reached.count_ones();
        self.alice_row.clear();
        self.alice_row.resize(pairs * self.width, 0);
        self.bob_row.clear();
        self.bob_row.resize(pairs * self.width, 0);
        self.stats = SolveStats { alice_pairs: pairs, cells: 2 * pairs * self.width };

        let mut slot = 0usize;
        for w in 0..=top / 64 {
            let mut bits = self.reached.words()[w];
            while bits != 0 {
                let r = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.slot_of.set(r, slot as u16);
                self.fill(slot, unrank(r));
                slot += 1;
            }
        }
        Outcome {
            alice_first: self.alice_wins(case.alice_hp, case.bob_hp, Player::Alice),
            bob_first: self.alice_wins(case.alice_hp, case.bob_hp, Player::Bob),
        }
    }

    /// Whether Alice wins at `(alice, bob)` with `mover` to move, for a position of the last
    /// solved case (Alice's hit points reachable, Bob's at most the start's).
    ///
    /// # Panics
    /// When `alice` was not reached by the last solve or `bob` exceeds its start.
    #[must_use]
    pub fn alice_wins(&self, alice: [u8; 2], bob: [u8; 2], mover: Player) -> bool {
        if bob == [0, 0] {
            return true;
        }
        assert!(bob[0] <= self.start[0] && bob[1] <= self.start[1], "Bob's hit points only fall");
        let slot = self.slot_of.get(rank(alice)).map(usize::from);
        let slot = slot.unwrap_or_else(|| panic!("Alice hit points {alice:?} were not reached"));
        let rows = match mover {
            Player::Alice => &self.alice_row,
            Player::Bob => &self.bob_row,
        };
        rows[slot * self.width + usize::from(bob[0])] > bob[1]
    }

    /// Marks every Alice hit-point pair Bob's attacks can reach from rank `top`: one sweep in
    /// descending rank order, since every attack lowers the rank.
    fn mark_reachable(&mut self, top: usize) {
        self.reached.insert(top);
        // Visit set bits from high to low; a visit may set lower bits of the same word, so the
        // word is read again each time, masked to the bits below the last one visited.
        let mut word = top / 64;
        let mut below = u64::MAX >> (63 - top % 64);
        loop {
            let bits = self.reached.words()[word] & below;
            if bits == 0 {
                if word == 0 {
                    break;
                }
                word -= 1;
                below = u64::MAX;
                continue;
            }
            let bit = 63 - bits.leading_zeros() as usize;
            below = (1u64 << bit) - 1;
            let a = unrank(word * 64 + bit);
            let targets = alive_mask(a);
            if targets == 0 {
                continue;
            }
            for attackers in 1..4 {
                for d in self.moves.bob[attackers][targets].iter() {
                    self.reached
                        .insert(rank([a[0].saturating_sub(d[0]), a[1].saturating_sub(d[1])]));
                }
            }
        }
    }

    /// The slots of the pairs Bob's attacks (attacker mask `attackers`) reach from `a`.
    fn child_slots(&self, a: [u8; 2], attackers: usize) -> ([usize; 4], usize) {
        let mut slots = [0; 4];
        let moves = &self.moves.bob[attackers][alive_mask(a)];
        for (slot, d) in slots.iter_mut().zip(moves.iter()) {
            let child = rank([a[0].saturating_sub(d[0]), a[1].saturating_sub(d[1])]);
            // Children were filled before `a`: they have lower ranks and were reached.
            *slot = self.slot_of.get(child).map_or(0, usize::from);
        }
        (slots, moves.len)
    }

    /// Fills both rows of `slot`, Alice's hit points `a`.
    fn fill(&mut self, slot: usize, a: [u8; 2]) {
        let width = self.width;
        let cap = self.start[1] + 1;
        let own = slot * width..(slot + 1) * width;
        if a == [0, 0] {
            // Alice has lost, except in the (unreachable) position where Bob has too.
            self.alice_row[own.clone()].fill(0);
            self.alice_row[own.start] = 1;
            self.bob_row[own.clone()].copy_from_slice(&self.alice_row[own]);
            return;
        }

        // Bob to move. With both Bob heroes alive (b1, b2 >= 1) every attack must leave a win;
        // at b2 = 0 only B1 attacks, at b1 = 0 only B2. Monotonicity makes
        // max(cell b2 = 0 wins, min over two-hero attacks) exactly the prefix length.
        let (both, nb) = self.child_slots(a, 3);
        let (b1_only, n1) = self.child_slots(a, 1);
        let (b2_only, n2) = self.child_slots(a, 2);
        let rows = &self.alice_row;
        let child = |s: usize| &rows[s * width..(s + 1) * width];
        let out = &mut self.bob_row[own.clone()];
        out.copy_from_slice(child(both[0]));
        for &s in &both[1..nb] {
            out.iter_mut().zip(child(s)).for_each(|(o, &c)| *o = (*o).min(c));
        }
        let mut lone = [u8::MAX; 100];
        for &s in &b1_only[..n1] {
            lone.iter_mut().zip(child(s)).for_each(|(o, &c)| *o = (*o).min(c));
        }
        out.iter_mut().zip(&lone).skip(1).for_each(|(o, &l)| *o = (*o).max(u8::from(l > 0)));
        out[0] = b2_only[..n2].iter().map(|&s| child(s)[0]).min().unwrap_or(1).max(1);

        // Alice to move: she attacks b and Bob moves next at the same a.
        let attackers = alive_mask(a);
        let bob_row = &self.bob_row[own.clone()];
        let out = &mut self.alice_row[own];
        // b1 = 0: everyone hits B2; b2 = 0: everyone hits B1.
        let on_b2 = self.moves.alice[attackers][2].damage[0][1];
        let on_b1 = usize::from(self.moves.alice[attackers][1].damage[0][0]);
        out[0] = bob_row[0].saturating_add(on_b2).min(cap);
        for b1 in 1..width {
            out[b1] = u8::from(bob_row[b1.saturating_sub(on_b1)] > 0);
        }
        for d in self.moves.alice[attackers][3].iter() {
            let (d1, d2) = (usize::from(d[0]), d[1]);
            let gain = |v: u8| if v > 0 { v.saturating_add(d2) } else { 0 };
            // Rows b1 < d1 land on b1' = 0, the rest on b1 - d1.
            let split = d1.clamp(1, width);
            let g0 = gain(bob_row[0]);
            out[1..split].iter_mut().for_each(|o| *o = (*o).max(g0));
            if split < width {
                out[split..].iter_mut().zip(&bob_row[split - d1..]).for_each(|(o, &v)| {
                    *o = (*o).max(gain(v));
                });
            }
        }
        out.iter_mut().skip(1).for_each(|o| *o = (*o).min(cap));
    }
}
