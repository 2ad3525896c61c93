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
//! `R` near 9,000; random cases reach a handful of pairs.

use engine::InlineVec;
use engine::store::{BitTable, DenseTable};

use crate::rules::{Case, MAX_VALUE, Outcome, Player, attacks, decided};

/// Hit points take `RANK_BASE` values, `0..=MAX_VALUE`.
const RANK_BASE: usize = MAX_VALUE as usize + 1;

/// Number of hit-point pairs, the size of the per-pair tables.
const PAIRS: usize = RANK_BASE * RANK_BASE;

/// Bytes in one vector register: rows are padded to a multiple of this so the row loops
/// compile to whole 16-byte vector operations.
const LANES: usize = 16;

/// The longest row: `RANK_BASE` values of `b1` rounded up to whole vectors.
const MAX_STRIDE: usize = RANK_BASE.next_multiple_of(LANES);

/// Masks of living heroes: bit 0 is hero 1, bit 1 is hero 2.
const HERO1: usize = 1;
const HERO2: usize = 2;
const BOTH: usize = HERO1 | HERO2;

/// Alice hit points `(a1, a2)` as a dense rank, `a1 * RANK_BASE + a2`.
fn rank(a: [u8; 2]) -> usize {
    usize::from(a[0]) * RANK_BASE + usize::from(a[1])
}

fn unrank(r: usize) -> [u8; 2] {
    debug_assert!(r < PAIRS);
    [(r / RANK_BASE) as u8, (r % RANK_BASE) as u8]
}

/// The damage vectors of one attacker set against one target set (at most four).
type Moves = InlineVec<[u8; 2], 4>;

fn moves(mover: Player, attackers: [u8; 2], targets: [u8; 2], damage: &[[u8; 2]; 2]) -> Moves {
    attacks(mover, attackers, targets).into_iter().map(|attack| attack.damage(damage)).collect()
}

/// Per-case move tables, indexed by the masks of living attackers and living targets
/// (`HERO1`, `HERO2`, `BOTH`; index 0 is unused).
#[derive(Clone, Debug, Default)]
struct MoveTable {
    alice: [[Moves; 4]; 4],
    bob: [[Moves; 4]; 4],
}

impl MoveTable {
    fn new(case: &Case) -> Self {
        let mut table = Self::default();
        for attackers in HERO1..=BOTH {
            for targets in HERO1..=BOTH {
                let own = [u8::from(attackers & 1 != 0), u8::from(attackers & 2 != 0)];
                let enemy = [u8::from(targets & 1 != 0), u8::from(targets & 2 != 0)];
                table.alice[attackers][targets] =
                    moves(Player::Alice, own, enemy, &case.alice_damage);
                table.bob[attackers][targets] = moves(Player::Bob, own, enemy, &case.bob_damage);
            }
        }
        table
    }
}

fn alive_mask(hp: [u8; 2]) -> usize {
    usize::from(hp[0] > 0) | usize::from(hp[1] > 0) << 1
}

/// Marks in `reached` every Alice hit-point pair Bob's attacks (`bob[attackers][targets]`)
/// can reach from rank `top`, and returns how many there are and the lowest; gives up
/// (returning more than `limit`) once more than `limit` are found. One sweep over the set
/// bits in descending rank order, since every attack lowers the rank:
/// `O(pairs * 8 + (top - lowest) / 64)`.
fn mark_reachable(
    reached: &mut BitTable,
    bob: &[[Moves; 4]; 4],
    top: usize,
    limit: usize,
) -> Reach {
    reached.insert(top);
    let mut reach = Reach { pairs: 0, lowest: top };
    // Set bits not visited yet: when none is left the sweep stops instead of scanning the
    // empty words down to rank 0.
    let mut pending = 1usize;
    // A visit may set lower bits of the same word, so the word is read again each time,
    // masked to the bits below the last one visited.
    let mut word = top / 64;
    let mut below = u64::MAX >> (63 - top % 64);
    while pending > 0 {
        let bits = reached.words()[word] & below;
        if bits == 0 {
            word -= 1;
            below = u64::MAX;
            continue;
        }
        let bit = 63 - bits.leading_zeros() as usize;
        below = (1u64 << bit) - 1;
        pending -= 1;
        reach.pairs += 1;
        reach.lowest = word * 64 + bit;
        if reach.pairs > limit {
            break;
        }
        let a = unrank(word * 64 + bit);
        let targets = alive_mask(a);
        if targets == 0 {
            continue;
        }
        for moves in &bob[HERO1..=BOTH] {
            for d in &moves[targets] {
                let child = rank([a[0].saturating_sub(d[0]), a[1].saturating_sub(d[1])]);
                pending += usize::from(!reached.insert(child));
            }
        }
    }
    reach
}

/// What [`mark_reachable`] found.
#[derive(Clone, Copy, Debug)]
struct Reach {
    /// Pairs marked (more than the limit when the sweep gave up).
    pairs: usize,
    /// The lowest marked rank.
    lowest: usize,
}

/// Which side's hit points index the rows of the tables. Not part of the API: the tests pick
/// one with `solve_with`, which the `internals` feature shows; without it no public function
/// takes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Orientation {
    /// Whichever costs less for the case (the default).
    Cheaper,
    /// Rows over Alice's hit points.
    AsGiven,
    /// Rows over Bob's hit points (the exchanged game).
    Swapped,
}

/// A rough count of the pairs reachable from `hp` under `damage`: each hero survives about
/// `hp / (least damage it takes) + 1` distinct values.
fn estimate(hp: [u8; 2], damage: &[[u8; 2]; 2]) -> usize {
    let span = |j: usize| usize::from(hp[j] / damage[0][j].min(damage[1][j])) + 1;
    span(0) * span(1)
}

/// What the last solve did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SolveStats {
    /// Hit-point pairs of the row side reachable from the start (rows per mover).
    pub(crate) alice_pairs: usize,
    /// Boundary cells filled: two movers times pairs times Bob's `b1` values.
    pub(crate) cells: usize,
}

/// The boundary solver with its reusable tables (one per thread; reset per case in time
/// proportional to what the case touched).
#[derive(Clone, Debug)]
pub struct ThresholdSolver {
    reached: BitTable,
    /// Reachable pairs of the other orientation, to pick the cheaper one.
    reached_swapped: BitTable,
    /// Whether the tables hold the case with Alice and Bob exchanged.
    swapped: bool,
    slot_of: DenseTable<u16>,
    /// `alice_row[slot * stride + b1]`: how many `b2` values (from 0 up) Alice wins with
    /// Alice to move. Entries from `width` to `stride` are padding.
    alice_row: Vec<u8>,
    /// The same with Bob to move.
    bob_row: Vec<u8>,
    /// Bob's `b1` values, `0..width`.
    width: usize,
    /// Row length: `width` rounded up to a whole number of 16-byte vectors.
    stride: usize,
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
            reached: BitTable::new(PAIRS),
            reached_swapped: BitTable::new(PAIRS),
            swapped: false,
            slot_of: DenseTable::new(PAIRS),
            alice_row: Vec::new(),
            bob_row: Vec::new(),
            width: 0,
            stride: 0,
            start: [0, 0],
            moves: MoveTable::default(),
            stats: SolveStats::default(),
        }
    }

    /// What the last [`ThresholdSolver::solve`] did.
    #[must_use]
    pub(crate) fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Who wins `case` for each first mover, in the cheaper orientation. Time `O(R * B)`,
    /// see the module notes.
    pub fn solve(&mut self, case: &Case) -> Outcome {
        self.solve_oriented(case, Orientation::Cheaper)
    }

    /// [`ThresholdSolver::solve`] with the rows over the side `orientation` says, for the
    /// tests (feature `internals`). Same complexity.
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn solve_with(&mut self, case: &Case, orientation: Orientation) -> Outcome {
        self.solve_oriented(case, orientation)
    }

    /// Who wins `case` for each first mover, filling the rows over the side `orientation`
    /// says. Afterwards [`ThresholdSolver::alice_wins`] answers for positions whose row-side
    /// hit points were reached.
    fn solve_oriented(&mut self, case: &Case, orientation: Orientation) -> Outcome {
        let moves = MoveTable::new(case);
        self.reached.reset();
        self.reached_swapped.reset();
        let (swapped, reach) = match orientation {
            Orientation::AsGiven => (
                false,
                mark_reachable(&mut self.reached, &moves.bob, rank(case.alice_hp), usize::MAX),
            ),
            Orientation::Swapped => (
                true,
                mark_reachable(
                    &mut self.reached_swapped,
                    &moves.alice,
                    rank(case.bob_hp),
                    usize::MAX,
                ),
            ),
            Orientation::Cheaper => self.probe_cheaper(case, &moves),
        };
        self.swapped = swapped;
        if swapped {
            std::mem::swap(&mut self.reached, &mut self.reached_swapped);
            self.fill_all(&case.swapped(), MoveTable { alice: moves.bob, bob: moves.alice }, reach);
        } else {
            self.fill_all(case, moves, reach);
        }
        Outcome {
            alice_first: self.alice_wins(case.alice_hp, case.bob_hp, Player::Alice),
            bob_first: self.alice_wins(case.alice_hp, case.bob_hp, Player::Bob),
        }
    }

    /// Marks the reachable pairs of both orientations (`reached` as given, `reached_swapped`
    /// exchanged) and returns whether the exchanged one is cheaper, with its pair count.
    ///
    /// The game looks the same with the players' names exchanged, so the rows may run over
    /// either side's hit points; the cost is pairs times row length. A case where Bob deals 1
    /// damage and Alice 60 is cheap over Bob's pairs. The side that looks cheaper is swept
    /// first, the other only until it costs more.
    fn probe_cheaper(&mut self, case: &Case, moves: &MoveTable) -> (bool, Reach) {
        let row_len = |hp: [u8; 2]| usize::from(hp[0]).next_multiple_of(LANES);
        let (given_row, swapped_row) = (row_len(case.bob_hp), row_len(case.alice_hp));
        let guess_swapped = estimate(case.bob_hp, &case.alice_damage) * swapped_row
            < estimate(case.alice_hp, &case.bob_damage) * given_row;
        let given = (&mut self.reached, &moves.bob, case.alice_hp, given_row);
        let exchanged = (&mut self.reached_swapped, &moves.alice, case.bob_hp, swapped_row);
        let (first, second) = if guess_swapped { (exchanged, given) } else { (given, exchanged) };
        let first_reach = mark_reachable(first.0, first.1, rank(first.2), usize::MAX);
        let limit = (first_reach.pairs * first.3).div_ceil(second.3);
        let second_reach = mark_reachable(second.0, second.1, rank(second.2), limit);
        if second_reach.pairs * second.3 < first_reach.pairs * first.3 {
            (!guess_swapped, second_reach)
        } else {
            (guess_swapped, first_reach)
        }
    }

    /// Fills the rows of every pair marked in `reached`, in increasing rank order.
    fn fill_all(&mut self, case: &Case, moves: MoveTable, reach: Reach) {
        let pairs = reach.pairs;
        self.slot_of.reset();
        self.moves = moves;
        self.start = case.bob_hp;
        self.width = usize::from(case.bob_hp[0]) + 1;
        self.stride = self.width.next_multiple_of(LANES);
        self.alice_row.clear();
        self.alice_row.resize(pairs * self.stride, 0);
        self.bob_row.clear();
        self.bob_row.resize(pairs * self.stride, 0);
        self.stats = SolveStats { alice_pairs: pairs, cells: 2 * pairs * self.width };
        let mut slot = 0usize;
        for w in reach.lowest / 64..=rank(case.alice_hp) / 64 {
            let mut bits = self.reached.words()[w];
            while bits != 0 {
                let r = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.slot_of.set(r, slot as u16);
                self.fill(slot, unrank(r));
                slot += 1;
            }
        }
    }

    /// Whether Alice wins at `(alice, bob)` with `mover` to move, for a position of the last
    /// solved case (Alice's hit points reachable, Bob's at most the start's).
    ///
    /// # Panics
    /// When `alice` was not reached by the last solve or `bob` exceeds its start.
    #[must_use]
    pub fn alice_wins(&self, alice: [u8; 2], bob: [u8; 2], mover: Player) -> bool {
        if self.swapped {
            // The tables hold the exchanged game: its "Alice" is Bob.
            return !self.row_side_wins(bob, alice, mover.other());
        }
        self.row_side_wins(alice, bob, mover)
    }

    /// [`ThresholdSolver::alice_wins`] in the orientation the tables were filled in.
    fn row_side_wins(&self, alice: [u8; 2], bob: [u8; 2], mover: Player) -> bool {
        if let Some(winner) = decided(alice, bob) {
            return winner == Player::Alice;
        }
        assert!(bob[0] <= self.start[0] && bob[1] <= self.start[1], "Bob's hit points only fall");
        let slot = self.slot_of.get(rank(alice)).map(usize::from);
        let slot = slot.unwrap_or_else(|| panic!("Alice hit points {alice:?} were not reached"));
        let rows = match mover {
            Player::Alice => &self.alice_row,
            Player::Bob => &self.bob_row,
        };
        rows[slot * self.stride + usize::from(bob[0])] > bob[1]
    }

    /// The slots of the pairs Bob's attacks (attacker mask `attackers`) reach from `a`,
    /// repeated to four entries: rows are combined with `min`, which ignores repeats.
    fn child_slots(&self, a: [u8; 2], attackers: usize) -> [usize; 4] {
        let moves = &self.moves.bob[attackers][alive_mask(a)];
        std::array::from_fn(|i| {
            let d = moves[i % moves.len()];
            let child = rank([a[0].saturating_sub(d[0]), a[1].saturating_sub(d[1])]);
            // Children have lower ranks than `a` and were reached from it, so they were filled.
            usize::from(self.slot_of.get(child).expect("a child row is filled before its parent"))
        })
    }

    /// Fills both rows of `slot`, Alice's hit points `a`.
    ///
    /// The loops run over whole rows with a fixed number of input rows (moves repeated to
    /// four, which `min` and `max` ignore), so they compile to 16-byte vector code.
    fn fill(&mut self, slot: usize, a: [u8; 2]) {
        let stride = self.stride;
        let cap = self.start[1] + 1;
        let own = slot * stride..(slot + 1) * stride;
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
        let both = self.child_slots(a, BOTH);
        let b1_only = self.child_slots(a, HERO1);
        let b2_only = self.child_slots(a, HERO2);
        let rows = &self.alice_row;
        let row = |s: usize| &rows[s * stride..(s + 1) * stride];
        let [c0, c1, c2, c3] = both.map(row);
        let (l0, l1) = (row(b1_only[0]), row(b1_only[1]));
        let out = &mut self.bob_row[own.clone()];
        for i in 0..stride {
            let all_attacks = c0[i].min(c1[i]).min(c2[i].min(c3[i]));
            out[i] = all_attacks.max(u8::from(l0[i].min(l1[i]) > 0));
        }
        out[0] = b2_only.iter().map(|&s| row(s)[0]).min().unwrap_or(1).max(1);

        // Alice to move: she attacks b and Bob moves next at the same a. A row shifted by d
        // reads `bob_row[b1 - d]`, and `bob_row[0]` where b1 - d < 0: a copy of the row behind
        // a prefix of `bob_row[0]` makes every shift one contiguous slice. A shift of `PAD` or
        // more reads only that prefix, since `b1 <= MAX_VALUE < PAD`.
        const PAD: usize = 128;
        const { assert!(PAD > MAX_VALUE as usize) };
        let bob_row = &self.bob_row[own.clone()];
        let mut padded = [0u8; PAD + MAX_STRIDE];
        padded[..PAD].fill(bob_row[0]);
        padded[PAD..PAD + stride].copy_from_slice(bob_row);
        let shifted = |d: u8| &padded[PAD - usize::from(d).min(PAD)..][..stride];
        let attackers = alive_mask(a);
        // b1 = 0: everyone hits B2; b2 = 0: everyone hits B1.
        let on_b2 = self.moves.alice[attackers][HERO2][0][1];
        let on_b1 = shifted(self.moves.alice[attackers][HERO1][0][0]);
        let general = &self.moves.alice[attackers][BOTH];
        let [m0, m1, m2, m3] = std::array::from_fn(|i| general[i % general.len()]);
        let (s0, s1, s2, s3) = (shifted(m0[0]), shifted(m1[0]), shifted(m2[0]), shifted(m3[0]));
        // Winning at (b1', b2') with b2' < v means winning at (b1, b2) for b2 < v + d2.
        let gain = |v: u8, d2: u8| if v > 0 { v.saturating_add(d2) } else { 0 };
        let out = &mut self.alice_row[own];
        for i in 0..stride {
            let best = gain(s0[i], m0[1]).max(gain(s1[i], m1[1]));
            let best = best.max(gain(s2[i], m2[1]).max(gain(s3[i], m3[1])));
            out[i] = best.max(u8::from(on_b1[i] > 0)).min(cap);
        }
        out[0] = bob_row[0].saturating_add(on_b2).min(cap);
    }
}
