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
//! attacks of the survivors; the formulas below spell this out. Boundaries are stored capped
//! at 127 (`CAP`), which no `b2` reaches.
//!
//! # Which rows
//! Every hit-point pair Bob's attacks can bring Alice to gets a row, and no other. A hero of
//! Alice with `h` hit points loses a sum of the damages Bob's two heroes deal it (each turn
//! may bring one or two of them, the other hero's damage going elsewhere, and a lone attacker
//! brings one), so its reachable hit points are `h - x` for `x` in the semigroup those two
//! damages generate, `x < h`, and 0. The two heroes' losses are independent (a turn of single
//! hits lowers one only), so the reachable pairs are exactly the product `S1 x S2` of the
//! two heroes' sets: a grid, numbered `i1 * |S2| + i2` by the places of the values in their
//! ascending lists. Every attack lowers both places or keeps them, so filling the grid in that
//! order fills every row after the rows it reads.
//!
//! # Cost
//! With `R = |S1| * |S2|` rows (at most 10,000) and `B` = Bob's first hit points (at most
//! 99), time is `O(R * B)` byte operations: `R * ceil(B / 32)` steps of 32-byte vectors, each
//! combining six rows for Bob and four shifted ones for Alice (about 20 AVX2 instructions,
//! twice as many 16-byte ones where the CPU has no AVX2: `threshold/kernels.rs`), plus
//! `O(R)` to find the rows each turn leads to and `O(1)` a case to set up. The cells `b1 = 0` live
//! apart, one byte a row, so every lane of a vector follows one formula. Space: one table of
//! `10,000 * 128` bytes, Alice's rows, allocated once and touched as far as a case fills
//! them; Bob's rows are used as they are made, and a query of one of his cells recomputes it
//! from hers. The game looks the same with the players exchanged, and with one side's heroes
//! renamed, so each case runs over the side whose `R * ceil(B / 32)` is smaller, its cells
//! over the other side's hero with fewer hit points. Hard cases (hit points 90..99, damage
//! 1..3) have `R` from 8,000 to 10,000; random cases 16 on average.
//!
//! The same fill, reading the rows of Bob's turns from another table instead of its own,
//! makes one layer of "Alice wins within `k` moves" from the layer two moves below: the
//! remoteness of [`crate::position`].

mod kernels;

#[cfg(target_arch = "x86_64")]
use engine::simd::Avx2;
use kernels::{Kernels, Portable, bob_cells};

use crate::rules::{Case, MAX_VALUE, Outcome, Player, decided};

/// Hit points take `RANK_BASE` values, `0..=MAX_VALUE`.
const RANK_BASE: usize = MAX_VALUE as usize + 1;

/// Bytes in one vector register: rows are padded to a multiple of this so the row loops
/// compile to whole 16-byte vector operations.
const LANES: usize = 32;

/// One vector's worth of cells.
type Lanes = [u8; LANES];

/// The longest row: `RANK_BASE` values of `b1` rounded up to whole vectors.
const MAX_STRIDE: usize = RANK_BASE.next_multiple_of(LANES);

/// The most rows a case fills: every pair of hit points.
const MAX_ROWS: usize = RANK_BASE * RANK_BASE;

/// Masks of living heroes: bit 0 is hero 1, bit 1 is hero 2.
const HERO1: usize = 1;
const HERO2: usize = 2;
const BOTH: usize = HERO1 | HERO2;

/// Who of the mover's heroes hits one enemy hero in a turn: an index into a hero's `hits`
/// (`[0, first + second, first, second]`, the damages it takes from them).
type Hit = usize;
const NOBODY: Hit = 0;
const TOGETHER: Hit = 1;
const FIRST: Hit = 2;
const SECOND: Hit = 3;

/// The turns of a side whose living heroes are `attackers` against enemy heroes `targets`
/// (both masks), as who hits each enemy hero, in the order of
/// [`rules::attacks`](crate::rules::attacks) (the tests hold the two to each other), each
/// repeated to four entries: rows are combined with `min` or `max`, which ignore repeats.
fn turns(attackers: usize, targets: usize) -> [[Hit; 2]; 4] {
    let list: &[[Hit; 2]] = match (attackers, targets) {
        (BOTH, BOTH) => &[[TOGETHER, NOBODY], [FIRST, SECOND], [SECOND, FIRST], [NOBODY, TOGETHER]],
        (HERO1, BOTH) => &[[FIRST, NOBODY], [NOBODY, FIRST]],
        (HERO2, BOTH) => &[[SECOND, NOBODY], [NOBODY, SECOND]],
        (BOTH, HERO1) => &[[TOGETHER, NOBODY]],
        (HERO1, HERO1) => &[[FIRST, NOBODY]],
        (HERO2, HERO1) => &[[SECOND, NOBODY]],
        (BOTH, HERO2) => &[[NOBODY, TOGETHER]],
        (HERO1, HERO2) => &[[NOBODY, FIRST]],
        (HERO2, HERO2) => &[[NOBODY, SECOND]],
        _ => unreachable!("a turn needs a living attacker and a living target"),
    };
    std::array::from_fn(|i| list[i % list.len()])
}

/// The damages enemy hero `j` takes: `[0, first + second, first, second]`, indexed by `Hit`.
fn hits(damage: &[[u8; 2]; 2], j: usize) -> [u8; 4] {
    [0, damage[0][j] + damage[1][j], damage[0][j], damage[1][j]]
}

/// The heroes of a side alive at `hp`, as a mask (`HERO1`, `HERO2`, `BOTH`).
fn alive_mask(hp: [u8; 2]) -> usize {
    usize::from(hp[0] > 0) | usize::from(hp[1] > 0) << 1
}

/// Vectors a row of `width` cells takes (`b1 = 0` apart, at least one).
pub(crate) fn row_vectors(width: usize) -> usize {
    (width - 1).div_ceil(LANES).max(1)
}

/// The hit points one hero can be brought to, as a bit mask over `0..=MAX_VALUE`: `hp`
/// minus each sum of the two damages it takes that leaves it alive, and 0. `O(log hp)`
/// word operations.
pub(crate) fn reachable_values(hp: u8, damage: [u8; 2]) -> u128 {
    // Losses that leave the hero alive: the semigroup of the damages, below `hp`. Adding
    // shifts of 1, 2, 4, ... times a damage closes a set under adding that damage.
    let alive = (1u128 << hp) - 1;
    let mut losses = 1u128;
    for d in damage {
        let mut shift = u32::from(d);
        while shift <= u32::from(hp) {
            losses |= losses << shift;
            shift *= 2;
        }
    }
    // Loss `x` leaves `hp - x`: reversing the bits turns bit `x` into bit `127 - x`.
    ((losses & alive).reverse_bits() >> (127 - u32::from(hp))) | 1
}

/// The reachable hit points of one hero, with each value's place among them.
#[derive(Clone, Debug)]
struct Axis {
    /// The values, ascending (`values[0]` is 0).
    values: [u8; RANK_BASE],
    /// `place[v]`: where `v` stands in `values`, or `NOT_REACHED` (any `u8` indexes it).
    place: [u8; 256],
    len: usize,
    /// `child[hit][i]`: the place of `values[i]` after the hit `hit` of `hits`, times the
    /// axis's `scale` (its part of a row number).
    child: [[u16; RANK_BASE]; 4],
}

const NOT_REACHED: u8 = u8::MAX;

impl Default for Axis {
    fn default() -> Self {
        Self {
            values: [0; RANK_BASE],
            place: [NOT_REACHED; 256],
            len: 0,
            child: [[0; RANK_BASE]; 4],
        }
    }
}

impl Axis {
    /// Sets the axis to the values of `mask` (a [`reachable_values`] mask), in
    /// `O(values before and after)`.
    fn set(&mut self, mut mask: u128) {
        for &v in &self.values[..self.len] {
            self.place[usize::from(v)] = NOT_REACHED;
        }
        self.len = 0;
        while mask != 0 {
            let v = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            self.values[self.len] = v;
            self.place[usize::from(v)] = self.len as u8;
            self.len += 1;
        }
    }

    /// Sets `child` for a hero that takes the damages `hits` (see [`hits`]), places counted
    /// `scale` apiece: `O(values)`.
    ///
    /// # Panics
    /// When a hit leaves a value that is not on the axis: the grid would miss a row.
    fn link(&mut self, hits: [u8; 4], scale: usize) {
        for (k, hit) in hits.into_iter().enumerate() {
            for i in 0..self.len {
                self.child[k][i] = (self.place(self.values[i].saturating_sub(hit)) * scale) as u16;
            }
        }
    }

    /// The place of `v`.
    ///
    /// # Panics
    /// When `v` was not reached: a row would be read that was never filled.
    fn place(&self, v: u8) -> usize {
        let place = self.place[usize::from(v)];
        assert!(place != NOT_REACHED, "hit points {v} were not reached");
        usize::from(place)
    }
}

/// Which side's hit points index the rows of the tables, and which hero of the other side the
/// cells of a row. Not part of the API: the tests pick one with `solve_with`, which the
/// `internals` feature shows; without it no public function takes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Orientation {
    /// Whichever costs less for the case (the default).
    Cheaper,
    /// Rows over Alice's hit points (`exchanged`: Bob's, the game with the players' names
    /// exchanged); cells over the other side's first hero (`mirrored`: its second, the
    /// game with that side's heroes renamed).
    Fixed {
        /// Rows over Bob's hit points.
        exchanged: bool,
        /// Cells over the other side's second hero.
        mirrored: bool,
    },
}

impl Orientation {
    /// Every orientation, for the tests.
    pub const ALL: [Self; 5] = [
        Self::Cheaper,
        Self::Fixed { exchanged: false, mirrored: false },
        Self::Fixed { exchanged: false, mirrored: true },
        Self::Fixed { exchanged: true, mirrored: false },
        Self::Fixed { exchanged: true, mirrored: true },
    ];
}

/// `case` with Bob's heroes renamed (B1 is B2 and B2 is B1).
pub(crate) fn mirrored(case: &Case) -> Case {
    let [[a11, a12], [a21, a22]] = case.alice_damage;
    let [b1, b2] = case.bob_damage;
    Case {
        alice_hp: case.alice_hp,
        bob_hp: [case.bob_hp[1], case.bob_hp[0]],
        alice_damage: [[a12, a11], [a22, a21]],
        bob_damage: [b2, b1],
    }
}

/// What the last solve did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SolveStats {
    /// Hit-point pairs of the row side reachable from the start (rows per mover).
    pub(crate) alice_pairs: usize,
    /// Boundary cells filled: two movers times pairs times Bob's `b1` values.
    pub(crate) cells: usize,
}

/// The boundaries of one table: for each pair of the grid with Alice to move, how many `b2`
/// values (from 0 up) Alice wins, by `b1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Table {
    /// The cells `b1 >= 1`: lane `i` of a row is `b1 = i + 1`, `vectors` vectors a row, the
    /// cells beyond the rows' width padding.
    rows: Vec<Lanes>,
    /// The cells `b1 = 0`, where only B2 lives, whose formulas differ from the rest: kept
    /// apart so that every lane of a vector follows one formula.
    first: Vec<u8>,
}

/// Rows over a grid of Alice's hit points, each the boundaries of one pair with Alice to
/// move: the threshold solver's tables, and each layer of [`crate::position`]'s "wins within
/// `k` moves".
#[derive(Clone, Debug, Default)]
pub(crate) struct Rows {
    /// Alice's reachable hit points, hero by hero.
    axes: [Axis; 2],
    /// The boundaries.
    table: Table,
    /// Bob's `b1` values, `0..width`.
    width: usize,
    /// Vectors a row: `width - 1` cells rounded up to whole vectors.
    vectors: usize,
}

impl Rows {
    /// Sets the grid to `masks` (each hero's [`reachable_values`], or a union of them, which
    /// is closed under Bob's hits too) with Bob's damage of `case`, and the rows to `width`
    /// cells. `O(values)`; the boundaries are left as they are.
    pub(crate) fn set_grid(&mut self, case: &Case, masks: [u128; 2], width: usize) {
        for (axis, mask) in self.axes.iter_mut().zip(masks) {
            axis.set(mask);
        }
        let n2 = self.axes[1].len;
        for (j, scale) in [(0, n2), (1, 1)] {
            self.axes[j].link(hits(&case.bob_damage, j), scale);
        }
        assert!((1..=RANK_BASE).contains(&width), "b1 is at most {MAX_VALUE}");
        self.width = width;
        self.vectors = row_vectors(width);
    }

    /// Hit-point pairs of the grid.
    pub(crate) fn pairs(&self) -> usize {
        self.axes[0].len * self.axes[1].len
    }

    /// Sets every boundary to "won only where Bob has no hero" (the cell `b1 = 0`, boundary
    /// 1). `O(pairs * vectors)`.
    pub(crate) fn set_bob_dead_only(&mut self) {
        let (pairs, vectors) = (self.pairs(), self.vectors);
        let Table { rows, first } = &mut self.table;
        rows.clear();
        rows.resize(pairs * vectors, [0; LANES]);
        first.clear();
        first.resize(pairs, 1);
    }

    /// Fills every boundary of the grid for `case` (Bob's hit points below `width` and the
    /// heroes' damage), from the rows Bob's turns lead to: in `previous` (a table of the same
    /// grid), or in the table itself (each row filled after every row it reads) when `None`.
    /// `O(pairs * vectors)`.
    pub(crate) fn fill(&mut self, case: &Case, previous: Option<&Table>) {
        self.make_room(previous);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::detect() {
            self.fill_avx2(case, previous, avx2);
            return;
        }
        self.fill_rows(case, previous, Portable);
    }

    /// Sizes the table for the grid, and checks that `previous` is of the same grid.
    fn make_room(&mut self, previous: Option<&Table>) {
        let (pairs, cells) = (self.pairs(), self.pairs() * self.vectors);
        if self.table.rows.len() < cells {
            self.table.rows.resize(cells, [0; LANES]);
        }
        if self.table.first.len() < pairs {
            self.table.first.resize(pairs, 0);
        }
        assert!(
            previous.is_none_or(|p| p.rows.len() >= cells && p.first.len() >= pairs),
            "the previous layer is of the same grid"
        );
    }

    /// [`Rows::fill`] compiled for AVX2 (the kernels, and the loops around them, whose
    /// copies of rows are then whole vectors too).
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    fn fill_avx2(&mut self, case: &Case, previous: Option<&Table>, avx2: Avx2) {
        #[target_feature(enable = "avx2")]
        fn fill_rows_avx2(rows: &mut Rows, case: &Case, previous: Option<&Table>, avx2: Avx2) {
            rows.fill_rows(case, previous, avx2);
        }
        // SAFETY: an `Avx2` is made only where the CPU has AVX2, the only feature enabled.
        unsafe { fill_rows_avx2(self, case, previous, avx2) }
    }

    /// One copy of the loops per row length, so that they are unrolled and unchecked.
    #[inline(always)]
    fn fill_rows<K: Kernels>(&mut self, case: &Case, previous: Option<&Table>, kernels: K) {
        match self.vectors {
            1 => self.fill_grid::<1, K>(case, previous, kernels),
            2 => self.fill_grid::<2, K>(case, previous, kernels),
            3 => self.fill_grid::<3, K>(case, previous, kernels),
            4 => self.fill_grid::<4, K>(case, previous, kernels),
            n => unreachable!("rows of {n} vectors: b1 is at most {MAX_VALUE}"),
        }
    }

    /// Fills every row, `N` vectors each, in increasing order of places: `O(R * N)`.
    #[inline(always)]
    fn fill_grid<const N: usize, K: Kernels>(
        &mut self,
        case: &Case,
        previous: Option<&Table>,
        kernels: K,
    ) {
        let pairs = self.pairs();
        let grid = Grid {
            alice: self.table.rows[..pairs * N].as_chunks_mut::<N>().0,
            alice_first: &mut self.table.first[..pairs],
            previous: previous.map(|p| (p.rows[..pairs * N].as_chunks::<N>().0, &p.first[..pairs])),
            shifted: [[0; 2 * MAX_STRIDE]; 2],
            kernels,
        };
        grid.fill(&self.axes, case);
    }

    /// Replaces the boundaries by the next layer's, each filled from this one's for `case`
    /// (as [`Rows::fill`]); `spare` is a table the call keeps for the next. `O(pairs *
    /// vectors)`.
    pub(crate) fn next_layer(&mut self, case: &Case, spare: &mut Table) {
        std::mem::swap(&mut self.table, spare);
        self.fill(case, Some(spare));
    }

    /// The boundary of `(alice, b1)` with `mover` to move: how many `b2` values (from 0 up)
    /// Alice wins. Bob's rows are not kept: his cell comes from the rows his turns lead to,
    /// as the fill computes it. `O(1)`.
    ///
    /// # Panics
    /// When `alice` is not on the grid, both her heroes are dead or `b1` is beyond the rows.
    pub(crate) fn boundary(&self, alice: [u8; 2], b1: u8, mover: Player) -> u8 {
        self.boundary_in(&self.table, alice, b1, mover)
    }

    /// The rows' boundaries, as a table of their grid (to be put back by
    /// [`Rows::set_table`]).
    pub(crate) fn table(&self) -> &Table {
        &self.table
    }

    /// Puts back boundaries of this grid taken by [`Rows::table`]. `O(pairs * vectors)`.
    pub(crate) fn set_table(&mut self, table: &Table) {
        self.table.clone_from(table);
    }

    /// [`Rows::boundary`] read from `table`, a table of this grid ([`Rows::table`]). `O(1)`.
    ///
    /// # Panics
    /// As [`Rows::boundary`].
    pub(crate) fn boundary_in(&self, table: &Table, alice: [u8; 2], b1: u8, mover: Player) -> u8 {
        let [first, second] = &self.axes;
        let places = [first.place(alice[0]), second.place(alice[1])];
        let b1 = usize::from(b1);
        assert!(b1 < self.width, "b1 = {b1} is beyond the rows");
        let cell = |slot: usize| -> u8 {
            if b1 == 0 {
                table.first[slot]
            } else {
                table.rows[slot * self.vectors + (b1 - 1) / LANES][(b1 - 1) % LANES]
            }
        };
        match mover {
            Player::Alice => cell(places[0] * second.len + places[1]),
            Player::Bob => {
                let [c0, c1, c2, c3, l0, l1, r0, r1] =
                    bob_turns(alive_mask(alice)).map(|[h1, h2]| {
                        cell(
                            usize::from(first.child[h1][places[0]])
                                + usize::from(second.child[h2][places[1]]),
                        )
                    });
                if b1 == 0 {
                    bob_at_b1_zero([r0, r1])
                } else {
                    let lanes = |v: u8| [v; LANES];
                    let both = [c0, c1, c2, c3].map(lanes);
                    bob_cells(both, [lanes(l0), lanes(l1)])[0]
                }
            }
        }
    }
}

/// The boundary solver with its reusable tables (one per thread; each case overwrites what it
/// reads).
#[derive(Clone, Debug)]
pub struct ThresholdSolver {
    /// Whether the tables hold the case with Alice and Bob exchanged.
    exchanged: bool,
    /// Whether they hold it, after that, with Bob's heroes renamed.
    mirrored: bool,
    /// The rows of the row side's reachable pairs.
    rows: Rows,
    start: [u8; 2],
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
            exchanged: false,
            mirrored: false,
            rows: Rows {
                // Zeroed by the system as pages are first touched: a case touches what it
                // fills, and every row is written before it is read, so the tables are never
                // cleared.
                table: Table {
                    rows: vec![[0; LANES]; MAX_ROWS * MAX_STRIDE / LANES],
                    first: vec![0; MAX_ROWS],
                },
                ..Rows::default()
            },
            start: [0, 0],
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
        // Each side's reachable values under the other's damage, hero by hero.
        let values = |hp: [u8; 2], damage: &[[u8; 2]; 2]| {
            [0, 1].map(|j| reachable_values(hp[j], [damage[0][j], damage[1][j]]))
        };
        let alice = values(case.alice_hp, &case.bob_damage);
        let bob = values(case.bob_hp, &case.alice_damage);
        let (exchanged, mirrored) = match orientation {
            Orientation::Fixed { exchanged, mirrored } => (exchanged, mirrored),
            Orientation::Cheaper => {
                // Rows times vectors a row, each side, cells over the other's lower hit points.
                let cost = |axes: [u128; 2], other: [u8; 2]| {
                    axes[0].count_ones()
                        * axes[1].count_ones()
                        * row_vectors(usize::from(other[0].min(other[1])) + 1) as u32
                };
                let exchanged = cost(bob, case.alice_hp) < cost(alice, case.bob_hp);
                let other = if exchanged { case.alice_hp } else { case.bob_hp };
                (exchanged, other[1] < other[0])
            }
        };
        self.exchanged = exchanged;
        self.mirrored = mirrored;
        let (oriented, axes) = if exchanged { (case.swapped(), bob) } else { (*case, alice) };
        let oriented = if mirrored { self::mirrored(&oriented) } else { oriented };
        let width = usize::from(oriented.bob_hp[0]) + 1;
        self.rows.set_grid(&oriented, axes, width);
        self.start = oriented.bob_hp;
        let pairs = self.rows.pairs();
        self.stats = SolveStats { alice_pairs: pairs, cells: 2 * pairs * width };
        self.rows.fill(&oriented, None);
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
        // The tables hold the oriented game: with the players exchanged its "Alice" is Bob;
        // mirrored, its "B1" is the other side's second hero.
        let (rows, cells, mover) =
            if self.exchanged { (bob, alice, mover.other()) } else { (alice, bob, mover) };
        let cells = if self.mirrored { [cells[1], cells[0]] } else { cells };
        self.row_side_wins(rows, cells, mover) != self.exchanged
    }

    /// [`ThresholdSolver::alice_wins`] in the orientation the tables were filled in.
    fn row_side_wins(&self, alice: [u8; 2], bob: [u8; 2], mover: Player) -> bool {
        if let Some(winner) = decided(alice, bob) {
            return winner == Player::Alice;
        }
        assert!(bob[0] <= self.start[0] && bob[1] <= self.start[1], "Bob's hit points only fall");
        self.rows.boundary(alice, bob[0], mover) > bob[1]
    }
}

/// What fills the rows of the pairs where the heroes of Alice in `alive` live, ready for rows
/// of `N` vectors.
struct PairKind<const N: usize> {
    /// Bob's turns, as who hits `(A1, A2)`: four of both his heroes, two of B1 alone (the
    /// cells `b2 = 0`), two of B2 alone (the cells `b1 = 0`).
    bob: [[Hit; 2]; 8],
    /// Where the shifts of Alice's four turns start in `shifted`. The first turn puts every
    /// hero of hers on B1.
    from: [usize; 4],
    /// The damage to B2 of her other three turns, in every lane, at most `CAP` (more reaches
    /// the cap from any boundary above 0 all the same).
    to_b2: [Lanes; 3],
    /// Her damage to B2 when every hero of hers hits it (the cells `b1 = 0`).
    on_b2: u8,
}

impl<const N: usize> PairKind<N> {
    fn new(case: &Case, alive: usize) -> Self {
        let on_bob = [hits(&case.alice_damage, 0), hits(&case.alice_damage, 1)];
        let damage = |turn: [Hit; 2]| [on_bob[0][turn[0]], on_bob[1][turn[1]]];
        let alice = turns(alive, BOTH).map(damage);
        // At b2 = 0 her only turn puts everyone on B1: her first, which deals B1 the most of
        // the four. A turn that wins there later wins after it too (monotonicity), so the
        // maximum over the four needs no cell of its own at b2 = 0.
        assert_eq!(alice[0], [damage(turns(alive, HERO1)[0])[0], 0], "all on B1 comes first");
        let from = |d: [u8; 2]| ROW_AT - usize::from(d[0]).min(N * LANES);
        Self {
            bob: bob_turns(alive),
            from: alice.map(from),
            to_b2: [1, 2, 3].map(|t| [alice[t][1].min(CAP); LANES]),
            on_b2: damage(turns(alive, HERO2)[0])[1],
        }
    }
}

/// Where a row of Bob to move stands in [`Grid::shifted`]: after room for its padding.
const ROW_AT: usize = MAX_STRIDE;

/// The tables of one case as rows of `N` vectors.
struct Grid<'a, const N: usize, K> {
    /// The cells `b1 >= 1` of Alice's rows (see [`Table`]).
    alice: &'a mut [[Lanes; N]],
    /// Their cells `b1 = 0`.
    alice_first: &'a mut [u8],
    /// The rows Bob's turns lead to, when they are another table's (the layer before);
    /// `None`: `alice` itself, each row filled after the rows it reads.
    previous: Option<(&'a [[Lanes; N]], &'a [u8])>,
    /// Two rows of Bob to move (from `ROW_AT` on, lane `i` the cell `b1 = i + 1`), each
    /// behind `N * LANES` copies of its `b1 = 0` cell, so that each shift of Alice's attacks
    /// is one contiguous slice; a shift of `N * LANES` cells or more reads copies only.
    shifted: [[u8; 2 * MAX_STRIDE]; 2],
    /// The vector loops.
    kernels: K,
}

impl<const N: usize, K: Kernels> Grid<'_, N, K> {
    /// Fills the rows of the grid `axes` of `case` in increasing order of places.
    #[inline(always)]
    fn fill(mut self, axes: &[Axis; 2], case: &Case) {
        // Made in place (an array's `map` moves each through a copy, a third of a small case).
        let kinds: [PairKind<N>; 3] =
            [PairKind::new(case, HERO1), PairKind::new(case, HERO2), PairKind::new(case, BOTH)];
        let [a1_only, a2_only, both] = &kinds;
        let [first, second] = axes;
        let n2 = second.len;
        let mut pending = None;
        for i1 in 0..first.len {
            // The pairs of one place of A1: A2 dead first, then alive, all of one kind.
            let dead_a2 = i1 * n2;
            let [a1, a2] = [first.values[i1], second.values[0]];
            debug_assert_eq!(a2, 0, "the lowest value is 0");
            if a1 == 0 {
                // Alice has lost, except in the (unreachable) position where Bob has too.
                self.alice[dead_a2] = [[0; LANES]; N];
                self.alice_first[dead_a2] = 1;
            } else {
                let kind = a1_only;
                let children = kind.bob.map(|[h1, h2]| {
                    usize::from(first.child[h1][i1]) + usize::from(second.child[h2][0])
                });
                self.visit(dead_a2, children, kind, &mut pending);
            }
            let kind = if a1 == 0 { a2_only } else { both };
            // Each turn's part of the row number from A1, and its column of parts from A2.
            let from1 = kind.bob.map(|[h1, _]| usize::from(first.child[h1][i1]));
            let from2 = kind.bob.map(|[_, h2]| &second.child[h2][..n2]);
            for (i2, slot) in (1..n2).zip(dead_a2 + 1..) {
                let mut children = from1;
                for (child, from2) in children.iter_mut().zip(&from2) {
                    *child += usize::from(from2[i2]);
                }
                self.visit(slot, children, kind, &mut pending);
            }
        }
        if let Some((slot, at_b1_zero, kind)) = pending {
            self.alice_row(slot & 1, slot, at_b1_zero, kind);
        }
    }

    /// Fills the rows of `slot`, whose Bob turns lead to the rows `children` (see
    /// [`PairKind::bob`]): Bob's, then Alice's from it. Filling a layer from the one before,
    /// no row reads another of the same layer, so Alice's row of a pair waits for the next
    /// pair's Bob row: her shifted reads then find his cells stored long enough before to be
    /// read from the cache, not forwarded from the stores (which fails for a read that spans
    /// two stores, and stalls).
    #[inline(always)]
    fn visit<'k>(
        &mut self,
        slot: usize,
        children: [usize; 8],
        kind: &'k PairKind<N>,
        pending: &mut Option<(usize, u8, &'k PairKind<N>)>,
    ) {
        let at_b1_zero = self.bob_row(slot & 1, children);
        if self.previous.is_none() {
            // The next pair's Bob row may read this row.
            self.alice_row(slot & 1, slot, at_b1_zero, kind);
            return;
        }
        if let Some((waiting, at, waiting_kind)) = pending.take() {
            debug_assert_eq!(waiting + 1, slot, "pairs come one after another");
            self.alice_row(waiting & 1, waiting, at, waiting_kind);
        }
        *pending = Some((slot, at_b1_zero, kind));
    }

    /// Bob's row (to move) of a pair whose turns lead to the rows `children`, written biased
    /// into `shifted[buffer]` behind its padding; returns its cell `b1 = 0`. The loops run
    /// over whole vectors with a fixed number of input rows, so they compile to vector code.
    #[inline(always)]
    fn bob_row(&mut self, buffer: usize, children: [usize; 8]) -> u8 {
        let (from, from_first) = match self.previous {
            Some(previous) => previous,
            None => (&*self.alice, &*self.alice_first),
        };
        let (c0, c1, c2, c3) =
            (&from[children[0]], &from[children[1]], &from[children[2]], &from[children[3]]);
        let (l0, l1) = (&from[children[4]], &from[children[5]]);
        let at_b1_zero = bob_at_b1_zero([from_first[children[6]], from_first[children[7]]]);
        let row = self.kernels.bob_row([c0, c1, c2, c3], [l0, l1]);
        // A shift by d reads `bob[b1 - d]`, and `bob[0]` where b1 - d <= 0 (B1 dies): the
        // padding, copies of that cell.
        let (pad, to) = self.shifted[buffer].split_at_mut(ROW_AT);
        pad[ROW_AT - N * LANES..].fill(at_b1_zero | BIAS);
        to[..N * LANES].as_chunks_mut::<LANES>().0.copy_from_slice(&row);
        at_b1_zero
    }

    /// Alice's row (to move) of `slot`: she attacks b and Bob moves next at the same a, whose
    /// row [`Grid::bob_row`] wrote into `shifted[buffer]` with its cell `b1 = 0`.
    #[inline(always)]
    fn alice_row(&mut self, buffer: usize, slot: usize, at_b1_zero: u8, kind: &PairKind<N>) {
        let bob = &self.shifted[buffer];
        let [f0, f1, f2, f3] = kind.from;
        let shift = |from: usize| &bob[from.min(ROW_AT)..][..N * LANES];
        let shifted = [shift(f0), shift(f1), shift(f2), shift(f3)];
        // Winning at (b1', b2') with b2' < v means winning at (b1, b2) for b2 < v + d2; the
        // first turn leaves b2 as it is. On the biased cells (see `BIAS`) that is a
        // saturating addition; the bias comes off after the maximum.
        self.alice[slot] = self.kernels.alice_row(shifted, &kind.to_b2);
        // b1 = 0: every hero of Alice hits B2.
        self.alice_first[slot] = at_b1_zero.saturating_add(kind.on_b2).min(CAP);
    }
}

/// Bob's turns against Alice's living heroes `alive`, as who hits `(A1, A2)`: four of both
/// his heroes, two of B1 alone (the cells `b2 = 0`), two of B2 alone (the cells `b1 = 0`).
fn bob_turns(alive: usize) -> [[Hit; 2]; 8] {
    let [b0, b1, b2, b3] = turns(BOTH, alive);
    let [l0, l1, ..] = turns(HERO1, alive);
    let [r0, r1, ..] = turns(HERO2, alive);
    [b0, b1, b2, b3, l0, l1, r0, r1].map(|turn| turn.map(|hit| hit & 3))
}

/// Bob to move, the cell `b1 = 0`, where only B2 attacks, from the cells `b1 = 0` of the rows
/// his lone turns lead to (`b2 = 0` is his loss: a boundary of at least 1).
#[inline(always)]
fn bob_at_b1_zero(lone_b2: [u8; 2]) -> u8 {
    lone_b2[0].min(lone_b2[1]).max(1)
}

/// Boundaries are stored capped at `CAP`: no query asks beyond `b2 = MAX_VALUE`, and minimum,
/// maximum, the test `w > 0` and adding damage all commute with the cap.
const CAP: u8 = 127;
const _: () = assert!(CAP > MAX_VALUE);

/// Added to every positive boundary of the row Alice's shifts read. A boundary `v` after her
/// turn that deals `d2 <= CAP` to B2 is `v + d2` when `v > 0` (a win for `b2' < v` is a win
/// for `b2 < v + d2`), and 0 when `v = 0` (no win stays none): on biased cells one saturating
/// addition does both, as `0 + d2 < BIAS` comes off with the bias, and `v + BIAS + d2` keeps
/// it (or saturates, which is the cap).
const BIAS: u8 = 128;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{Family, cases};
    use crate::rules::attacks;

    fn mask_hp(mask: usize) -> [u8; 2] {
        [u8::from(mask & HERO1 != 0), u8::from(mask & HERO2 != 0)]
    }

    /// `turns` lists the damages of `rules::attacks`, in its order, for every pair of masks.
    #[test]
    fn turns_are_the_rules_attacks() {
        for case in cases(Family::Random, 200, 3) {
            let damage = &case.alice_damage;
            let on = [hits(damage, 0), hits(damage, 1)];
            for attackers in HERO1..=BOTH {
                for targets in HERO1..=BOTH {
                    let rules: Vec<[u8; 2]> =
                        attacks(Player::Alice, mask_hp(attackers), mask_hp(targets))
                            .into_iter()
                            .map(|attack| attack.damage(damage))
                            .collect();
                    let ours = turns(attackers, targets).map(|t| [on[0][t[0]], on[1][t[1]]]);
                    let expected: [[u8; 2]; 4] = std::array::from_fn(|i| rules[i % rules.len()]);
                    assert_eq!(ours, expected, "attackers {attackers}, targets {targets}");
                }
            }
        }
    }

    /// Filled in one pass or layer by layer, the portable loops and the AVX2 ones give the
    /// same tables (the rest of the tests run whichever this CPU has).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_portable_fill_is_the_avx2_fill() {
        let Some(avx2) = judge::testing::avx2("the_portable_fill_is_the_avx2_fill") else {
            return;
        };
        let families = [Family::Small, Family::Lopsided, Family::Random, Family::Hard];
        for case in families.into_iter().flat_map(|family| cases(family, 20, 5)) {
            let masks: [u128; 2] = [0, 1].map(|j| {
                reachable_values(case.alice_hp[j], [case.bob_damage[0][j], case.bob_damage[1][j]])
            });
            let mut portable = Rows::default();
            portable.set_grid(&case, masks, usize::from(case.bob_hp[0]) + 1);
            portable.set_bob_dead_only();
            let mut vector = portable.clone();
            let (mut spare_portable, mut spare_vector) = (Table::default(), Table::default());
            for _ in 0..6 {
                for (rows, spare) in
                    [(&mut portable, &mut spare_portable), (&mut vector, &mut spare_vector)]
                {
                    std::mem::swap(&mut rows.table, spare);
                    rows.make_room(Some(spare));
                }
                portable.fill_rows(&case, Some(&spare_portable), Portable);
                vector.fill_rows(&case, Some(&spare_vector), avx2);
                assert_eq!(portable.table, vector.table, "{case:?}, a layer");
            }
            portable.fill_rows(&case, None, Portable);
            vector.fill_rows(&case, None, avx2);
            assert_eq!(portable.table, vector.table, "{case:?}, one pass");
        }
    }

    /// The grid of each hero's reachable values is exactly the set of pairs Bob's attacks
    /// (any living attackers) bring Alice to.
    #[test]
    fn the_grid_is_the_reachable_set() {
        let families = [Family::Small, Family::Lopsided, Family::Random, Family::Hard];
        for case in families.into_iter().flat_map(|family| cases(family, 60, 11)) {
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![case.alice_hp];
            while let Some(a) = stack.pop() {
                if seen.insert(a) {
                    for attackers in [[1, 1], [1, 0], [0, 1]] {
                        for attack in attacks(Player::Bob, attackers, a) {
                            stack.push(attack.apply(&case.bob_damage, a));
                        }
                    }
                }
            }
            let grid: [u128; 2] = [0, 1].map(|j| {
                let damage = [case.bob_damage[0][j], case.bob_damage[1][j]];
                reachable_values(case.alice_hp[j], damage)
            });
            let in_grid = |a: [u8; 2]| (0..2).all(|j| grid[j] >> a[j] & 1 == 1);
            let grid_size = grid[0].count_ones() * grid[1].count_ones();
            assert_eq!(grid_size as usize, seen.len(), "{case:?}");
            assert!(seen.iter().all(|&a| in_grid(a)), "{case:?}");
        }
    }
}
