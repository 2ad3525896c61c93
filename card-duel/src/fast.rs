//! The fast solver: every turn-start value a file needs, computed once, bottom-up, into a
//! dense table indexed by [`StartKey`] ranks.
//!
//! The game is symmetric, so one table serves both players: `V(start)` is the probability
//! that the player about to start a turn (before his draw) wins. Inside a turn the mover's
//! decision states add which of his minions may still attack, the hero powers plus plays he
//! has left (`0..=O`), and whether he has acted; a *cell* is (board pair, mover HP, other
//! HP), and holds a *block* of `16 * (O + 1)` values, one per (plays left, mover's hand,
//! other's hand), laid out `[left][mover hand][other hand]`.
//!
//! Every operation lowers the total HP on the table (players plus minions): hero power by 2,
//! face by 3, trade by 2 to 4, play by exactly 1 (three pings, then a 2-HP minion). Ending the
//! turn keeps it. So cells are layered by total `t <= 56`; layer `t` needs layers `t-1..t-4`
//! and the turn starts of layer `t`, which need only the best non-ending action. A layer is
//! therefore filled in three steps: (1) the best operation of every cell from the finished
//! layers below, in parallel; (2) the turn-start values of layer `t`, read off step 1's cells
//! where every minion is ready and no play was used; (3) every cell takes the better of its
//! best operation and ending the turn (`1 - V` of the swapped position), in parallel. Only five
//! layers are alive at once.
//!
//! Only cells a file can reach are computed ([`Reach`]): HP and the total HP on the table
//! only fall, so a position reaches a box of HP pairs (and its mirror, for the other player's
//! turns) below its own total. A file of a few positions gets the cells reachable from them
//! marked exactly, which for one typical position is a third or less of its box.
//!
//! Cells of one pair that follow each other in mover HP lead, by any operation, to cells that
//! follow each other in the layer below, so the sweep works on such *runs*: each play outcome
//! is one long multiply-add over contiguous memory rather than one jump a cell.
//!
//! Time: `O(cells * 16 * (O + 1) * (outcomes per play + 8))`: 420,000 cells when every
//! position is asked, 32.5 outcomes per play on average. Space: the value table (1,440,000
//! `f64`, 11.5 MB) plus five layers of at most 18,612 cells, `5 * 18,612 * 16 * (O + 1) * 8`
//! bytes at most: 71 MB for O = 5, 250 MB for O = 20. Layers are laid out for the file's
//! reach, so a small file gets small layers.

use std::sync::LazyLock;

use rayon::prelude::*;

use crate::pings::{Outcome, PingTable};
use crate::rules::{Action, BOARD_SHAPES, Board, MAX_HAND, MAX_HP, MAX_OPS, Position};
use crate::shapes::{PAIRS, READY1, READY2, SPENT1, SPENT2, TurnBoard, pair_index, pair_of};

engine::packed_key! {
    /// A position at the start of a turn, before the draw, from the mover's side. Its rank
    /// indexes the value table; there are 20 * 20 * 15 * 15 * 4 * 4 = 1,440,000 of them.
    pub struct StartKey {
        /// The mover's HP.
        mover_hp: u8 in 1..21,
        /// The other player's HP.
        other_hp: u8 in 1..21,
        /// [`Board::index`] of the mover's minions.
        mover_board: usize in 0..15,
        /// [`Board::index`] of the other player's minions.
        other_board: usize in 0..15,
        /// Cards in the mover's hand, before his draw.
        mover_hand: u8 in 0..4,
        /// Cards in the other player's hand.
        other_hand: u8 in 0..4,
    }
}

impl StartKey {
    /// E's turn start in `position`.
    #[must_use]
    pub fn of(position: &Position) -> StartKey {
        StartKey {
            mover_hp: position.e_hp,
            other_hp: position.teacher_hp,
            mover_board: position.e_board.index(),
            other_board: position.teacher_board.index(),
            mover_hand: position.e_hand,
            other_hand: position.teacher_hand,
        }
    }

    /// The position where E is the mover of this key.
    #[must_use]
    pub fn position(self) -> Position {
        Position {
            e_hp: self.mover_hp,
            teacher_hp: self.other_hp,
            e_board: Board::from_index(self.mover_board),
            teacher_board: Board::from_index(self.other_board),
            e_hand: self.mover_hand,
            teacher_hand: self.other_hand,
        }
    }
}

/// Which cells a file can reach. HP only falls, so a position with HP `(e, s)` reaches HP
/// `(x, y)` with `x <= e, y <= s` or, after a turn change, `x <= s, y <= e`: for each mover HP
/// `a`, every other HP up to `max_other[a]`. The total HP on the table never rises either, so
/// no cell above the largest total of a position is reached. For a file of at most
/// [`Reach::EXACT_UP_TO`] positions the cells reachable from them are also marked one by one:
/// a single position reaches a third or less of its HP box, but for many positions the union
/// is nearly the whole box and the marking would be wasted.
#[derive(Clone, Debug)]
pub struct Reach {
    max_other: [u8; MAX_HP as usize + 1],
    max_total: u8,
    /// When marked one by one: `cells[t][pair]` has bit `a` set when the cell of `pair` with
    /// mover HP `a` in layer `t` is reached.
    cells: Option<Vec<Vec<u32>>>,
    /// Whether the marked cells include everything the positions' first actions lead to.
    probed: bool,
}

impl Reach {
    /// Files with at most this many positions get their reachable cells marked one by one.
    pub const EXACT_UP_TO: usize = 32;

    /// Every cell: all positions of one O.
    #[must_use]
    pub fn all() -> Reach {
        let mut max_other = [MAX_HP; MAX_HP as usize + 1];
        max_other[0] = 0;
        Reach { max_other, max_total: MAX_TOTAL as u8, cells: None, probed: true }
    }

    /// The cells reachable from `positions` that their values need. `O(positions + 20)`, plus
    /// for a few positions a walk over their reachable cells,
    /// `O(cells * (outcomes of a play + 8))`.
    #[must_use]
    pub fn of(positions: &[Position]) -> Reach {
        Reach::new(positions, false)
    }

    /// [`Reach::of`], also reaching everything the first actions of `positions` lead to, as
    /// [`Tables::build_probed`] needs: a position won by face attacks needs no cell below
    /// for its value, but does to value its other first actions.
    #[must_use]
    pub fn of_probes(positions: &[Position]) -> Reach {
        Reach::new(positions, true)
    }

    fn new(positions: &[Position], probed: bool) -> Reach {
        let mut max_other = [0u8; MAX_HP as usize + 1];
        let mut max_total = 0;
        for p in positions {
            let (e, s) = (usize::from(p.e_hp), usize::from(p.teacher_hp));
            max_other[e] = max_other[e].max(p.teacher_hp);
            max_other[s] = max_other[s].max(p.e_hp);
            max_total = max_total.max(p.total_hp());
        }
        // A box reaching HP a also reaches every lower HP with the same other HP.
        for a in (1..MAX_HP as usize).rev() {
            max_other[a] = max_other[a].max(max_other[a + 1]);
        }
        max_other[0] = 0;
        let cells = (positions.len() <= Reach::EXACT_UP_TO)
            .then(|| mark_reachable(positions, usize::from(max_total), probed));
        Reach { max_other, max_total, cells, probed }
    }

    /// Whether `position` is reached (its value is in tables built for this reach).
    #[must_use]
    pub fn contains(&self, position: &Position) -> bool {
        let (a, b, t) = (position.e_hp, position.teacher_hp, position.total_hp());
        if !self.contains_hp(a, b) || t > self.max_total {
            return false;
        }
        let pair = pair_index(TurnBoard::ready(position.e_board), position.teacher_board);
        self.contains_cell(usize::from(t), pair, a, b)
    }

    /// Whether the pair (mover HP `a`, other HP `b`) is reached.
    #[inline]
    #[must_use]
    pub fn contains_hp(&self, a: u8, b: u8) -> bool {
        a <= MAX_HP && b >= 1 && b <= self.max_other[usize::from(a)]
    }

    /// Whether cell (`pair`, `a`, `b`) of layer `t <= max_total` is reached.
    #[inline]
    fn contains_cell(&self, t: usize, pair: usize, a: u8, b: u8) -> bool {
        self.contains_hp(a, b)
            && self.cells.as_ref().is_none_or(|cells| cells[t][pair] >> a & 1 == 1)
    }

    /// Number of reached HP pairs, at most 400.
    #[must_use]
    pub fn hp_pairs(&self) -> usize {
        self.max_other.iter().map(|&b| usize::from(b)).sum()
    }

    /// The largest total HP reached (players plus minions).
    #[must_use]
    pub fn max_total(&self) -> u8 {
        self.max_total
    }

    /// Number of reached cells, out of 420,000.
    #[must_use]
    pub fn cells(&self) -> usize {
        let layout = Layout::new(self);
        layout
            .spans
            .iter()
            .enumerate()
            .map(|(t, spans)| {
                let spans = spans.iter().enumerate();
                spans
                    .map(|(pair, span)| {
                        (span.lo..=span.hi)
                            .filter(|&a| self.contains_cell(t, pair, a, span.heroes - a))
                            .count()
                    })
                    .sum::<usize>()
            })
            .sum()
    }
}

/// Marks the cells reachable from `positions`, layer by layer from the top: a cell's
/// operations lead to lower layers, ending the turn to the same layer. With `probed`, the
/// operations of `positions` are followed even where face attacks win. A pair's cells in a
/// layer are one word with a bit per mover HP, so each operation moves all of them at once:
/// a play outcome costing the mover `d` HP shifts the word right by `d`.
/// `O(layers * pairs * (outcomes of a play + 8))`, a few milliseconds.
fn mark_reachable(positions: &[Position], max_total: usize, probed: bool) -> Vec<Vec<u32>> {
    let pairs = &*PAIR_INFO;
    let pings = &*PINGS;
    let mut marks = vec![vec![0u32; PAIRS]; max_total + 1];
    let mut asked = vec![vec![0u32; PAIRS]; max_total + 1];
    for p in positions {
        let pair = pair_index(TurnBoard::ready(p.e_board), p.teacher_board);
        marks[usize::from(p.total_hp())][pair] |= 1 << p.e_hp;
        if probed {
            asked[usize::from(p.total_hp())][pair] |= 1 << p.e_hp;
        }
    }
    // Bits 0..n, for any n.
    let below = |n: i32| if n >= 32 { u32::MAX } else { (1u32 << n.max(0)) - 1 };
    for t in (0..=max_total).rev() {
        let (lower, upper) = marks.split_at_mut(t);
        let layer = &mut upper[0];
        // Players' HP sum of each pair's cells in this layer (meaningful where a bit is set).
        let heroes = |info: &PairInfo| (t as u8).wrapping_sub(info.hp);
        // The cells whose operations are looked at: a cell where face attacks kill (the
        // other player at 3 HP or less per ready minion) is a certain win that needs nothing
        // else, unless it is a probed position of the file, whose every first action is
        // valued.
        let open = |pair: usize, info: &PairInfo, word: u32| {
            let won = word & !below(i32::from(heroes(info)) - i32::from(info.lethal));
            word & !(won & !asked[t][pair])
        };
        // Ending the turn swaps the HP into the next turn start's pair, in the same layer;
        // repeat until the layer is closed under it.
        let mut changed = true;
        while changed {
            changed = false;
            for (pair, info) in pairs.iter().enumerate() {
                let mut word = open(pair, info, layer[pair]);
                let mut swapped = 0;
                while word != 0 {
                    let a = word.trailing_zeros() as u8;
                    word &= word - 1;
                    swapped |= 1 << (heroes(info) - a);
                }
                let next = &mut layer[usize::from(info.next_start)];
                changed |= *next | swapped != *next;
                *next |= swapped;
            }
        }
        for (pair, info) in pairs.iter().enumerate() {
            let word = open(pair, info, layer[pair]);
            if word == 0 {
                continue;
            }
            let sum = heroes(info);
            let heroes = i32::from(sum);
            // Cells where the other player keeps more than 3 HP: a <= heroes - 4.
            let other_above_3 = word & below(heroes - 3);
            if t >= 2 {
                // Hero power from 3 HP or more.
                lower[t - 2][pair] |= (word & !below(3)) >> 2;
            }
            if other_above_3 != 0 {
                for &next in info.face.iter().flatten() {
                    lower[t - 3][usize::from(next)] |= other_above_3;
                }
            }
            for (i, row) in info.trade.iter().enumerate() {
                for (j, next) in row.iter().enumerate() {
                    if let Some(next) = *next {
                        lower[t - i - j - 2][usize::from(next)] |= word;
                    }
                }
            }
            if info.can_play {
                // Cells with both players at 4 HP or more share one outcome list.
                let middle = other_above_3 & !below(4);
                if middle != 0 {
                    for o in pings.get(pair, 4, 4).1 {
                        lower[t - 1][usize::from(o.pair)] |= middle >> o.mover_loss;
                    }
                }
                let mut edge = word & !middle;
                while edge != 0 {
                    let a = edge.trailing_zeros() as u8;
                    edge &= edge - 1;
                    for o in pings.get(pair, a, sum - a).1 {
                        lower[t - 1][usize::from(o.pair)] |= 1 << (a - o.mover_loss);
                    }
                }
            }
        }
    }
    marks
}

/// Turn-start values for every position within a [`Reach`], for one O.
#[derive(Debug)]
pub struct Tables {
    ops: u8,
    reach: Reach,
    values: Vec<f64>,
}

impl Tables {
    /// Computes every turn-start value within `reach`, on the current rayon pool. Time and
    /// space as in the module notes; the result is the same for every thread count.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    #[must_use]
    pub fn build(ops: u8, reach: Reach) -> Tables {
        Tables::build_probed(ops, reach, &[]).0
    }

    /// [`Tables::build`], also valuing every legal first action of E after his draw in each
    /// of `probes` (which must lie within `reach`), in [`Action::FIRST`] order.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS` or a probe lies outside `reach`, or `reach` comes
    /// from [`Reach::of`] rather than [`Reach::of_probes`] for a small file.
    #[must_use]
    pub fn build_probed(
        ops: u8,
        reach: Reach,
        probes: &[Position],
    ) -> (Tables, Vec<Vec<(Action, f64)>>) {
        assert!((1..=MAX_OPS).contains(&ops), "O = {ops} is outside 1..={MAX_OPS}");
        assert!(probes.iter().all(|p| reach.contains(p)), "a probe outside the reach");
        let probed = probes.is_empty() || reach.cells.is_none() || reach.probed;
        assert!(probed, "probes need a reach from Reach::of_probes");
        // Built here, before any layer, so that no pool thread waits on another's lazy build.
        // A small file's exact reach has already built the ping lists of every pair it plays
        // from; a large file plays from nearly all of them.
        LazyLock::force(&PAIR_INFO);
        if reach.cells.is_none() {
            PINGS.build_all();
        }
        let layout = Layout::new(&reach);
        let sweep = Sweep::new(ops, &reach, &layout);
        let mut values = vec![0.0; StartKey::CARDINALITY];
        let mut explained = vec![Vec::new(); probes.len()];
        let mut ring: Vec<Vec<f64>> =
            (0..RING).map(|_| vec![0.0; layout.max_cells * sweep.block]).collect();
        for t in 0..=usize::from(reach.max_total) {
            let mut current = std::mem::take(&mut ring[t % RING]);
            {
                let below: [&[f64]; 4] = std::array::from_fn(|k| {
                    if t > k { ring[(t - k - 1) % RING].as_slice() } else { &[] }
                });
                let ctx = sweep.context(t, below);
                for (probe, out) in probes.iter().zip(&mut explained) {
                    if let Some(actions) = ctx.first_actions(probe) {
                        *out = actions;
                    }
                }
                ctx.fill_layer(&mut current, &mut values);
            }
            ring[t % RING] = current;
        }
        (Tables { ops, reach, values }, explained)
    }

    /// The O these tables were built for.
    #[must_use]
    pub fn ops(&self) -> u8 {
        self.ops
    }

    /// The cells these tables cover.
    #[must_use]
    pub fn reach(&self) -> &Reach {
        &self.reach
    }

    /// E's winning probability in `position`, or `None` outside the tables' reach. `O(1)`.
    #[inline]
    #[must_use]
    pub fn value(&self, position: &Position) -> Option<f64> {
        self.reach.contains(position).then(|| self.values[StartKey::of(position).rank()])
    }
}

/// Largest total HP on the table: two players at 20 and eight 2-HP minions.
const MAX_TOTAL: usize = 2 * MAX_HP as usize + 16;
/// Layers alive at once: the one being filled and the four an operation can reach.
const RING: usize = 5;
/// Values of an illegal action; every real value is in `0..=1`, so it never wins a max.
const ILLEGAL: f64 = -1.0;
/// Slots of one (mover hand, other hand) table.
const HANDS: usize = 16;

/// Hand slot `(mover hand, other hand)` inside one plays-left row.
const fn hand_slot(mover: usize, other: usize) -> usize {
    mover * 4 + other
}

/// What a cell's operations lead to, for one board pair. Independent of HP and hands.
#[derive(Clone, Copy, Debug)]
struct PairInfo {
    /// Total minion HP.
    hp: u8,
    /// The pair after a face attack by a ready 1-HP or 2-HP minion.
    face: [Option<u16>; 2],
    /// The pair after a ready `i+1`-HP minion trades with an enemy `j+1`-HP minion.
    trade: [[Option<u16>; 2]; 2],
    /// Whether the mover's board has room for a card.
    can_play: bool,
    /// Damage of every ready minion's face attack, 3 each: an other player with at most
    /// this much HP dies this turn whatever happens, so the cell is worth 1.
    lethal: u8,
    /// When every minion is ready: the boards' indices as a turn start.
    start: Option<(u8, u8)>,
    /// The boards' indices as the next turn start (other side first, marks forgotten).
    end: (u8, u8),
    /// The pair of the next turn start.
    next_start: u16,
}

/// Where each board pair's cells sit in every layer, for one reach: a pair's span covers its
/// reached mover HP, so a small reach gets small, dense layers and touches few pages.
struct Layout {
    /// `spans[t][pair]`: the pair's cells in layer `t`, for `t <= max_total`.
    spans: Vec<Vec<Span>>,
    /// Cells of the largest layer.
    max_cells: usize,
}

/// One board pair's cells in one layer: mover HP `lo..=hi` (empty when `lo > hi`), stored
/// from cell `first` on in that order. The other HP is `heroes - a`: within a layer a pair's
/// cells share the players' HP sum.
#[derive(Clone, Copy, Debug)]
struct Span {
    first: u32,
    lo: u8,
    hi: u8,
    heroes: u8,
}

impl Span {
    fn len(self) -> usize {
        (usize::from(self.hi) + 1).saturating_sub(usize::from(self.lo))
    }
}

/// Consecutive cells of one pair in one layer, all reached: mover HP `a0..a0 + len`, other
/// HP `heroes - a`.
#[derive(Clone, Copy, Debug)]
struct Run {
    pair: u16,
    a0: u8,
    len: usize,
    heroes: u8,
}

impl Run {
    /// How many of the run's first cells leave the other player more than 3 HP, out of reach
    /// of one face attack. His HP falls as the mover's rises, so these come first.
    fn other_above_3(self) -> usize {
        usize::from(self.heroes).saturating_sub(usize::from(self.a0) + 3).min(self.len)
    }
}

static PAIR_INFO: LazyLock<Vec<PairInfo>> = LazyLock::new(|| (0..PAIRS).map(pair_info).collect());
static PINGS: LazyLock<PingTable> = LazyLock::new(PingTable::new);

impl Layout {
    /// Spans from the first to the last reached mover HP of each pair and layer (cells in
    /// between that are not reached keep their place but are never computed).
    /// `O(layers * pairs * 20)`.
    fn new(reach: &Reach) -> Layout {
        let max = i32::from(MAX_HP);
        let mut spans = Vec::with_capacity(usize::from(reach.max_total) + 1);
        let mut max_cells = 0;
        for t in 0..=usize::from(reach.max_total) {
            let mut cells = 0;
            let layer: Vec<Span> = PAIR_INFO
                .iter()
                .enumerate()
                .map(|(pair, info)| {
                    let heroes = (t as i32 - i32::from(info.hp)).max(0);
                    let reached =
                        |a: &i32| reach.contains_cell(t, pair, *a as u8, (heroes - a) as u8);
                    let mut valid = (heroes - max).max(1)..=(heroes - 1).min(max);
                    let lo = valid.find(reached);
                    let hi = valid.rev().find(reached).or(lo);
                    let (lo, hi) = match (lo, hi) {
                        (Some(lo), Some(hi)) => (lo as u8, hi as u8),
                        _ => (1, 0),
                    };
                    let span = Span { first: cells, lo, hi, heroes: heroes as u8 };
                    cells += span.len() as u32;
                    span
                })
                .collect();
            max_cells = max_cells.max(cells as usize);
            spans.push(layer);
        }
        Layout { spans, max_cells }
    }
}

fn pair_info(pair: usize) -> PairInfo {
    let (mover, other) = pair_of(pair);
    let m = mover.0;
    let face = [(READY1, SPENT1), (READY2, SPENT2)].map(|(ready, spent)| {
        (m[ready] > 0).then(|| {
            let mut after = m;
            after[ready] -= 1;
            after[spent] += 1;
            pair_index(TurnBoard(after), other) as u16
        })
    });
    let enemy_after = [
        (other.ones > 0).then(|| Board { ones: other.ones - 1, twos: other.twos }),
        (other.twos > 0).then(|| Board { ones: other.ones, twos: other.twos - 1 }),
    ];
    let trade = [READY1, READY2].map(|ready| {
        enemy_after.map(|left| {
            let left = left?;
            (m[ready] > 0).then(|| {
                let mut after = m;
                after[ready] -= 1;
                pair_index(TurnBoard(after), left) as u16
            })
        })
    });
    let board = mover.board();
    PairInfo {
        hp: mover.hp() + other.hp(),
        face,
        trade,
        can_play: mover.len() < 4,
        lethal: 3 * (m[READY1] + m[READY2]),
        start: mover.all_ready().then_some((board.index() as u8, other.index() as u8)),
        end: (other.index() as u8, board.index() as u8),
        next_start: pair_index(TurnBoard::ready(other), board) as u16,
    }
}

/// What the sweep knows for the whole file.
struct Sweep<'a> {
    ops: usize,
    block: usize,
    reach: &'a Reach,
    layout: &'a Layout,
}

impl<'a> Sweep<'a> {
    fn new(ops: u8, reach: &'a Reach, layout: &'a Layout) -> Sweep<'a> {
        let ops = usize::from(ops);
        Sweep { ops, block: HANDS * (ops + 1), reach, layout }
    }

    /// The context for filling layer `t`, given layers `t-1..t-4`.
    fn context<'b>(&'b self, t: usize, below: [&'b [f64]; 4]) -> Layer<'b> {
        let spans = &self.layout.spans;
        let spans_below =
            std::array::from_fn(|k| if t > k { spans[t - k - 1].as_slice() } else { &[] });
        Layer {
            sweep: self,
            t,
            below,
            spans: &spans[t],
            spans_below,
            pairs: &PAIR_INFO,
            pings: &PINGS,
        }
    }
}

/// Filling one layer.
struct Layer<'a> {
    sweep: &'a Sweep<'a>,
    t: usize,
    /// Layers `t-1..t-4`, finished.
    below: [&'a [f64]; 4],
    /// Spans of this layer and of layers `t-1..t-4`.
    spans: &'a [Span],
    spans_below: [&'a [Span]; 4],
    pairs: &'a [PairInfo],
    pings: &'a PingTable,
}

/// Longest run: one cell per mover HP.
const MAX_RUN: usize = MAX_HP as usize;

impl Layer<'_> {
    /// Fills every reached cell of this layer into `layer` and its turn starts into `values`.
    fn fill_layer(&self, layer: &mut [f64], values: &mut [f64]) {
        let block = self.sweep.block;
        let ops = self.sweep.ops;
        let pairs = self.pairs;
        let spans = self.spans;
        // Each pair's cells are one contiguous piece of the layer, so pairs fill in parallel.
        let mut pieces: Vec<(usize, &mut [f64])> = Vec::with_capacity(spans.len());
        let mut rest = layer;
        for (pair, span) in spans.iter().enumerate() {
            let (piece, tail) = rest.split_at_mut(span.len() * block);
            if !piece.is_empty() {
                pieces.push((pair, piece));
            }
            rest = tail;
        }
        let scratch = || vec![0.0; MAX_RUN * block];
        // Step 1: the best operation in the pairs where every minion is ready, the only ones
        // a turn can start in.
        pieces.par_iter_mut().filter(|(pair, _)| pairs[*pair].start.is_some()).for_each_init(
            scratch,
            |scratch, (pair, piece)| {
                self.for_each_run(*pair, |run, at| {
                    let dst = &mut piece[at * block..(at + run.len) * block];
                    self.best_operation(run, dst, scratch);
                });
            },
        );
        // Step 2: the turn starts of this layer: every play left, after the draw.
        for (pair, piece) in &pieces {
            let Some((mover_board, other_board)) = pairs[*pair].start else { continue };
            self.for_each_run(*pair, |run, at| {
                for i in 0..run.len {
                    let a = run.a0 + i as u8;
                    let cell = &piece[(at + i) * block..(at + i + 1) * block];
                    let rank = start_rank(a, run.heroes - a, mover_board, other_board);
                    for mover in 0..4 {
                        let drawn = (mover + 1).min(usize::from(MAX_HAND));
                        for other in 0..4 {
                            values[rank + hand_slot(mover, other)] =
                                cell[ops * HANDS + hand_slot(drawn, other)];
                        }
                    }
                }
            });
        }
        // Step 3: the other pairs' best operation, then in every cell the better of that and
        // ending the turn, which hands the swapped position to the other player. Cells won by
        // face attacks are 1 already (and the walk of a small file skips what follows them).
        let values = &*values;
        pieces.par_iter_mut().for_each_init(scratch, |scratch, (pair, piece)| {
            let info = &pairs[*pair];
            self.for_each_run(*pair, |run, at| {
                let dst = &mut piece[at * block..(at + run.len) * block];
                if info.start.is_none() {
                    self.best_operation(run, dst, scratch);
                }
                let (next_mover, next_other) = info.end;
                let open = self.open_cells(run);
                for (i, cell) in dst.chunks_exact_mut(block).take(open).enumerate() {
                    let a = run.a0 + i as u8;
                    let rank = start_rank(run.heroes - a, a, next_mover, next_other);
                    let mut end = [0.0; HANDS];
                    for mover in 0..4 {
                        for other in 0..4 {
                            end[hand_slot(mover, other)] =
                                1.0 - values[rank + hand_slot(other, mover)];
                        }
                    }
                    for row in cell.chunks_exact_mut(HANDS) {
                        max_into(row, &end);
                    }
                }
            });
        });
    }

    /// Calls `f` with each maximal run of reached cells of `pair` in this layer and the run's
    /// position (in cells) within the pair's piece.
    fn for_each_run(&self, pair: usize, mut f: impl FnMut(Run, usize)) {
        let span = self.spans[pair];
        let reach = self.sweep.reach;
        let mut start = None;
        for a in span.lo..=span.hi + 1 {
            let reached = a <= span.hi && reach.contains_cell(self.t, pair, a, span.heroes - a);
            match (start, reached) {
                (None, true) => start = Some(a),
                (Some(a0), false) => {
                    let run = Run {
                        pair: pair as u16,
                        a0,
                        len: usize::from(a - a0),
                        heroes: span.heroes,
                    };
                    f(run, usize::from(a0 - span.lo));
                    start = None;
                }
                _ => {}
            }
        }
    }

    /// Writes the best operation's value (end of turn excluded) of every slot of `run`.
    #[inline]
    fn best_operation(&self, run: Run, dst: &mut [f64], scratch: &mut [f64]) {
        let open = self.open_cells(run);
        let (open_cells, won) = dst.split_at_mut(open * self.sweep.block);
        won.fill(1.0);
        if open > 0 {
            open_cells.fill(ILLEGAL);
            let run = Run { len: open, ..run };
            self.visit(run, scratch, |_, values| max_into(open_cells, values));
        }
    }

    /// How many of the run's first cells are not won outright. Where the other player has at
    /// most 3 HP per ready minion, facing with all of them wins: those cells, the run's last
    /// (his HP falls as the mover's rises), are worth 1 whatever else the mover could do.
    fn open_cells(&self, run: Run) -> usize {
        let lethal = self.pairs[usize::from(run.pair)].lethal;
        (usize::from(run.heroes).saturating_sub(usize::from(run.a0) + usize::from(lethal)))
            .min(run.len)
    }

    /// The blocks of cells `(pair, a0..a0 + len)` of layer `t - back`, contiguous.
    #[inline]
    fn target(&self, back: usize, pair: u16, a0: u8, len: usize) -> &[f64] {
        let block = self.sweep.block;
        let span = self.spans_below[back - 1][usize::from(pair)];
        debug_assert!(span.lo <= a0 && usize::from(a0) + len <= usize::from(span.hi) + 1);
        let first = span.first as usize + usize::from(a0 - span.lo);
        &self.below[back - 1][first * block..(first + len) * block]
    }

    /// Calls `f` with each operation's values for every slot of `run` (end of turn
    /// excluded), in [`Action::FIRST`] order; slots where it is illegal hold `ILLEGAL`.
    /// `O(len * block * (outcomes of a play + 8))`.
    ///
    /// Whole runs are processed at once because the cells an operation leads to from
    /// consecutive cells are consecutive too: each operation streams one contiguous piece of
    /// a layer below instead of jumping between blocks.
    #[inline]
    fn visit(&self, run: Run, scratch: &mut [f64], mut f: impl FnMut(Action, &[f64])) {
        let Run { pair, a0, len, heroes } = run;
        let info = &self.pairs[usize::from(pair)];
        let block = self.sweep.block;
        let ops = self.sweep.ops;
        let scratch = &mut scratch[..len * block];
        // Hero power: two HP, a card, one play used; with 2 HP or less it kills the mover.
        for (i, cell) in scratch.chunks_exact_mut(block).enumerate() {
            let a = a0 + i as u8;
            cell[..HANDS].fill(ILLEGAL);
            if a <= 2 {
                cell[HANDS..].fill(0.0);
                continue;
            }
            let src = self.target(2, pair, a - 2, 1);
            for left in 1..=ops {
                for mover in 0..4 {
                    let drawn = (mover + 1).min(usize::from(MAX_HAND));
                    let to = left * HANDS + hand_slot(mover, 0);
                    let from = (left - 1) * HANDS + hand_slot(drawn, 0);
                    cell[to..to + 4].copy_from_slice(&src[from..from + 4]);
                }
            }
        }
        f(Action::HeroPower, scratch);

        // Face: the enemy loses 3 HP, and dies with 3 or less; the minion is spent.
        let alive = run.other_above_3();
        for (i, next) in info.face.iter().enumerate() {
            let Some(next) = *next else { continue };
            let action = Action::Face { minion_hp: i as u8 + 1 };
            if alive == len {
                f(action, self.target(3, next, a0, len));
            } else {
                if alive > 0 {
                    scratch[..alive * block].copy_from_slice(self.target(3, next, a0, alive));
                }
                scratch[alive * block..].fill(1.0);
                f(action, scratch);
            }
        }

        // Trade: both minions die; nobody's HP changes.
        for (i, row) in info.trade.iter().enumerate() {
            for (j, next) in row.iter().enumerate() {
                if let Some(next) = *next {
                    let action = Action::Trade { minion_hp: i as u8 + 1, target_hp: j as u8 + 1 };
                    f(action, self.target(i + j + 2, next, a0, len));
                }
            }
        }

        // Play: a card leaves the hand, one play is used, three pings, then the minion. Slot
        // (left, hand, other hand) of a cell reads slot (left - 1, hand - 1, other hand) of
        // each outcome's cell: the last 12 slots of each row but the first read the first 12
        // of the row before. Along a run of cells with the same death thresholds the
        // outcomes' cells are consecutive, so each outcome streams one piece of the layer.
        if info.can_play {
            let mut i = 0;
            while i < len {
                let a = a0 + i as u8;
                let b = heroes - a;
                // Thresholds are min(hp, 4): all cells with both HP at 4 or more share a list.
                let n = if a >= 4 && b >= 4 { (usize::from(b) - 3).min(len - i) } else { 1 };
                let (win, outcomes) = self.pings.get(usize::from(pair), a, b);
                let acc = &mut scratch[i * block..(i + n) * block];
                acc.fill(win);
                let acc = acc.as_chunks_mut::<HANDS>().0;
                let from = |o: &Outcome| {
                    self.target(1, o.pair, a - o.mover_loss, n).as_chunks::<HANDS>().0
                };
                // Four outcomes a pass keep the sum in a register; the additions happen in
                // the same order as one outcome a pass would make them.
                let mut groups = outcomes.chunks_exact(4);
                for g in &mut groups {
                    let (s0, s1, s2, s3) = (from(&g[0]), from(&g[1]), from(&g[2]), from(&g[3]));
                    let (p0, p1, p2, p3) = (g[0].p, g[1].p, g[2].p, g[3].p);
                    for_each_play_row(ops, acc, |r, out| {
                        let (x0, x1, x2, x3) = (&s0[r], &s1[r], &s2[r], &s3[r]);
                        for k in 0..PLAY_SLOTS {
                            out[k] = out[k] + p0 * x0[k] + p1 * x1[k] + p2 * x2[k] + p3 * x3[k];
                        }
                    });
                }
                for o in groups.remainder() {
                    let x = from(o);
                    for_each_play_row(ops, acc, |r, out| {
                        for k in 0..PLAY_SLOTS {
                            out[k] += o.p * x[r][k];
                        }
                    });
                }
                i += n;
            }
            // No play is left, or the hand is empty: those slots are not computed above.
            for cell in scratch.chunks_exact_mut(block) {
                cell[..HANDS + hand_slot(1, 0)].fill(ILLEGAL);
                for row in cell.chunks_exact_mut(HANDS).skip(2) {
                    row[..4].fill(ILLEGAL);
                }
            }
            f(Action::Play, scratch);
        }
    }

    /// E's first actions in `position` when its cell is in this layer.
    fn first_actions(&self, position: &Position) -> Option<Vec<(Action, f64)>> {
        if usize::from(position.total_hp()) != self.t {
            return None;
        }
        let pair = pair_index(TurnBoard::ready(position.e_board), position.teacher_board) as u16;
        let run =
            Run { pair, a0: position.e_hp, len: 1, heroes: position.e_hp + position.teacher_hp };
        let slot = self.sweep.ops * HANDS
            + hand_slot(
                usize::from(position.e_hand_after_draw()),
                usize::from(position.teacher_hand),
            );
        let mut scratch = vec![0.0; self.sweep.block];
        let mut actions = Vec::new();
        self.visit(run, &mut scratch, |action, values| {
            if values[slot] >= 0.0 {
                actions.push((action, values[slot]));
            }
        });
        Some(actions)
    }
}

/// Slots of a plays-left row that a play can fill: mover hand 1..=3, any other hand.
const PLAY_SLOTS: usize = HANDS - 4;

/// Calls `f(r, slots)` for every row of `rows` (blocks of `ops + 1` rows, one per plays left)
/// but a block's first, with `r` the row before and `slots` the row's last [`PLAY_SLOTS`]
/// slots: a play from that row's (plays left, mover hand) reads row `r`'s first slots.
#[inline(always)]
fn for_each_play_row(
    ops: usize,
    rows: &mut [[f64; HANDS]],
    mut f: impl FnMut(usize, &mut [f64; PLAY_SLOTS]),
) {
    for (c, cell) in rows.chunks_exact_mut(ops + 1).enumerate() {
        for (left, row) in cell.iter_mut().enumerate().skip(1) {
            let Some((_, slots)) = row.split_first_chunk_mut::<4>() else { continue };
            let Ok(slots) = <&mut [f64; PLAY_SLOTS]>::try_from(slots) else { continue };
            f(c * (ops + 1) + left - 1, slots);
        }
    }
}

/// `dst[i] = max(dst[i], src[i])`, written so that it vectorizes.
#[inline]
fn max_into(dst: &mut [f64], src: &[f64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = if s > *d { s } else { *d };
    }
}

/// Rank of the first hand slot of a turn start.
#[inline]
fn start_rank(a: u8, b: u8, mover_board: u8, other_board: u8) -> usize {
    StartKey {
        mover_hp: a,
        other_hp: b,
        mover_board: mover_board.into(),
        other_board: other_board.into(),
        mover_hand: 0,
        other_hand: 0,
    }
    .rank()
}

const _: () = assert!(BOARD_SHAPES * BOARD_SHAPES * 16 * 400 == StartKey::CARDINALITY);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_slots_are_innermost_in_start_ranks() {
        let p = Position {
            e_hp: 7,
            teacher_hp: 3,
            e_board: Board { ones: 1, twos: 2 },
            teacher_board: Board { ones: 0, twos: 1 },
            e_hand: 2,
            teacher_hand: 1,
        };
        let key = StartKey::of(&p);
        assert_eq!(key.position(), p);
        assert_eq!(key.rank(), start_rank(7, 3, 7, 1) + hand_slot(2, 1));
    }

    #[test]
    fn reach_is_closed_under_swaps_and_lowering() {
        let p = |e, s| Position {
            e_hp: e,
            teacher_hp: s,
            e_board: Board::EMPTY,
            teacher_board: Board::EMPTY,
            e_hand: 0,
            teacher_hand: 0,
        };
        let reach = Reach::of(&[p(5, 14), p(2, 2)]);
        assert_eq!(reach.hp_pairs(), 5 * 14 + 14 * 5 - 25);
        assert!(reach.contains_hp(14, 5) && reach.contains_hp(5, 14) && reach.contains_hp(1, 1));
        assert!(!reach.contains_hp(6, 6) && !reach.contains_hp(15, 1));
        assert_eq!(reach.max_total(), 19);
        let with_minion = Position { e_board: Board { ones: 1, twos: 0 }, ..p(5, 14) };
        assert!(reach.contains(&p(5, 14)) && !reach.contains(&with_minion));
        assert_eq!(Reach::all().hp_pairs(), 400);
    }

    #[test]
    fn layers_cover_every_cell_once() {
        let mut cells = 0;
        for (t, spans) in Layout::new(&Reach::all()).spans.iter().enumerate() {
            let mut next = 0;
            for (pair, span) in spans.iter().enumerate() {
                assert_eq!(span.first, next);
                next += span.len() as u32;
                for a in span.lo..=span.hi {
                    let b = span.heroes - a;
                    assert!((1..=MAX_HP).contains(&a) && (1..=MAX_HP).contains(&b));
                    assert_eq!(usize::from(a + b + PAIR_INFO[pair].hp), t);
                }
            }
            cells += next as usize;
        }
        assert_eq!(cells, 400 * PAIRS);
    }

    /// The reachable cells by a plain walk over single cells, to check the word-wise one: the
    /// successors of every cell except those won by face attacks, unless asked and `probed`.
    fn reachable_cell_by_cell(
        positions: &[Position],
        probed: bool,
    ) -> std::collections::BTreeSet<(usize, u16, u8)> {
        let mut seen = std::collections::BTreeSet::new();
        let asked: Vec<(usize, u16, u8)> = positions
            .iter()
            .map(|p| {
                let pair = pair_index(TurnBoard::ready(p.e_board), p.teacher_board) as u16;
                (usize::from(p.total_hp()), pair, p.e_hp)
            })
            .collect();
        let mut work = asked.clone();
        while let Some((t, pair, a)) = work.pop() {
            if !seen.insert((t, pair, a)) {
                continue;
            }
            let info = &PAIR_INFO[usize::from(pair)];
            let b = t as u8 - info.hp - a;
            let won = b <= info.lethal;
            if won && !(probed && asked.contains(&(t, pair, a))) {
                continue;
            }
            if a > 2 {
                work.push((t - 2, pair, a - 2));
            }
            if b > 3 {
                work.extend(info.face.iter().flatten().map(|&next| (t - 3, next, a)));
            }
            for (i, row) in info.trade.iter().enumerate() {
                work.extend(
                    row.iter()
                        .enumerate()
                        .filter_map(|(j, next)| next.map(|next| (t - i - j - 2, next, a))),
                );
            }
            if info.can_play {
                work.extend(
                    PINGS
                        .get(usize::from(pair), a, b)
                        .1
                        .iter()
                        .map(|o| (t - 1, o.pair, a - o.mover_loss)),
                );
            }
            work.push((t, info.next_start, b));
        }
        seen
    }

    #[test]
    fn exact_reach_marks_the_cells_a_plain_walk_finds() {
        let mut rng = engine::rng::SplitMix64::new(12);
        // E at 9 HP with three ready minions against the teacher at 9: won by face attacks.
        let won = Position {
            e_hp: 9,
            teacher_hp: 9,
            e_board: Board { ones: 1, twos: 2 },
            teacher_board: Board { ones: 2, twos: 1 },
            e_hand: 1,
            teacher_hand: 2,
        };
        for count in [1, 1, 1, 4, 0] {
            let mut positions: Vec<Position> = (0..count)
                .map(|_| StartKey::unrank(rng.below(StartKey::CARDINALITY)).position())
                .collect();
            if count == 0 {
                positions.push(won);
            }
            for probed in [false, true] {
                let reach = Reach::new(&positions, probed);
                let expected = reachable_cell_by_cell(&positions, probed);
                assert_eq!(reach.cells(), expected.len());
                for &(t, pair, a) in &expected {
                    let b = t as u8 - PAIR_INFO[usize::from(pair)].hp - a;
                    assert!(reach.contains_cell(t, usize::from(pair), a, b));
                }
                assert!(positions.iter().all(|p| reach.contains(p)));
            }
        }
        assert_eq!(Reach::of(&[won]).cells(), 1);
        assert!(
            Reach::of(&vec![StartKey::unrank(0).position(); Reach::EXACT_UP_TO + 1])
                .cells
                .is_none()
        );
    }
}
