//! The kernel: filling one layer from the finished layers below it, in three phases (see
//! [`tables`](super)). The two heavy phases split the layer into units, one per chunk of
//! board pairs, and a unit walks its chunk's [`Run`]s of consecutive cells. A cell keeps its
//! slots in one piece ([`layout`](super::layout)), so the attacks of a run read one piece of
//! each target pair's cells, all in one pass over the run's values, and the plays of a cell
//! read one piece of each outcome's cell, summed in registers while the outcomes stream past.

use std::ops::Range;
use std::sync::Mutex;

use engine::memory::HugeZeroed;
#[cfg(target_arch = "x86_64")]
use engine::simd::Avx2;
use rayon::prelude::*;

use super::key::{HAND_SIZES, StartKey, hand_slot, start_rank};
use super::layout::{CELLS, Chunk, LayerLayout, NOT_STORED, Run};
use super::slots::{DRAWN_HANDS, MAX_UNPLAYED_ROWS, OTHER_CLASSES, Slots, Subplane, other_class};
use super::{MAX_DROP, Starts};
use crate::pings::{PINGS, SAFE_HP};
use crate::rules::{Action, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_HP, Position};
use crate::shapes::{PAIR_INFO, TurnBoard, pair_index};

/// Values of an illegal action; every real value is in `0..=1`, so it never wins a max.
const ILLEGAL: f64 = -1.0;

/// Slots of one cell in one subplane: one per class of the other player's hand.
const G: usize = OTHER_CLASSES;

/// A finished (or filling) layer: where its cells sit and their values.
#[derive(Debug, Default)]
pub(super) struct LayerValues {
    pub(super) layout: LayerLayout,
    pub(super) values: HugeZeroed,
}

impl LayerValues {
    /// The value of slot (`left`, `hand`, other's hand class `other`) of cell (`pair`, `a`),
    /// read where it is stored: at its effective plays left.
    fn value(&self, pair: usize, a: u8, left: usize, hand: usize, other: usize) -> f64 {
        cell_row(&self.layout, &self.values, pair, a, left, hand)[other]
    }
}

/// The values, by the other's hand class, of slot (`left`, `hand`) of cell (`pair`, `a`) in a
/// layer laid out by `layout`, read where it is stored: at its effective plays left. A won
/// cell is not stored: it is worth 1.
#[inline]
fn cell_row<'v>(
    layout: &LayerLayout,
    values: &'v [f64],
    pair: usize,
    a: u8,
    left: usize,
    hand: usize,
) -> &'v [f64; G] {
    if layout.won(pair, a) {
        return &[1.0; G];
    }
    let at = layout.slot(Slots::effective(a, left, hand), pair, a);
    values[at..].first_chunk().expect("an open cell's slots are stored")
}

/// Filling one layer.
pub(super) struct Layer<'a> {
    slots: Slots,
    layout: &'a LayerLayout,
    /// Layers `t-1..=t-MAX_DROP`, finished (`None` below layer 0).
    below: [Option<&'a LayerValues>; MAX_DROP],
    /// Where the operations of a cell read and write.
    plan: CellPlan,
    /// The same for a cell of a pair where no card was played.
    unplayed: UnplayedPlan,
    /// The sums its phases use.
    kernel: Kernel,
}

/// Which [`Sums`] a layer's phases use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    /// The widest vectors the CPU has (AVX2 where it has it): what every sweep uses.
    Widest,
    /// The portable arrays on any CPU, so that a test can compare whole sweeps of each.
    #[cfg(test)]
    Portable,
}

/// Where the operations of a cell read and write, diagonal by diagonal, in the lanes of a
/// cell that stored every diagonal ([`Slots::offset`]): a cell with mover HP `a` takes the
/// pieces of its computed diagonals. Built for each layer, in `O(diagonals)`.
struct CellPlan {
    /// The hero power's pieces, those of diagonal `d` at `hero_at[d]..hero_at[d + 1]`.
    hero: Vec<HeroPiece>,
    hero_at: Vec<usize>,
    /// By diagonal: its first lane, where its rows' hands start among a cell's end-of-turn
    /// values (`[hand][other's class]`), and its rows.
    ends: Vec<(usize, usize, usize)>,
    /// By lane: minus infinity on a diagonal's first row, which cannot play, else 0
    /// ([`play_cell`]); minus infinity for [`CHUNK`] lanes past the last.
    row_starts: Vec<f64>,
}

/// Where the operations of a cell of a pair where no card was played this turn read, row
/// by row (its rows: [`Slots::unplayed`]), by mover HP. Such a cell's hero power reads the
/// cell of the same pair with HERO_POWER_COST HP less, whose rows are its own kind; a face
/// attack by a 2-HP minion and a play lead to pairs where a card was played, whose cells
/// keep every diagonal (read from their base, as [`Slots::offset`] counts).
struct UnplayedPlan {
    /// The row each row's hero power reads (`None`: no play left, illegal).
    hero: Vec<[Option<u8>; MAX_UNPLAYED_ROWS]>,
    /// Each row's slots in a cell where a card was played.
    played: Vec<[u16; MAX_UNPLAYED_ROWS]>,
    /// The rows that can play (a play left), and the slots they read in an outcome's cell.
    plays: Vec<Vec<PlayRow>>,
    /// Each row's hand.
    hands: Vec<[u8; MAX_UNPLAYED_ROWS]>,
}

/// A row of a cell where no card was played that can play: its place in the cell, and the
/// slots it reads in an outcome's cell (where a card was played: from its base), the row
/// before in the same diagonal.
#[derive(Clone, Copy, Debug)]
struct PlayRow {
    row: usize,
    from: usize,
}

impl UnplayedPlan {
    fn new(slots: &Slots) -> UnplayedPlan {
        let mut plan = UnplayedPlan {
            hero: vec![[None; MAX_UNPLAYED_ROWS]; CELLS],
            played: vec![[0; MAX_UNPLAYED_ROWS]; CELLS],
            plays: vec![Vec::new(); CELLS],
            hands: vec![[0; MAX_UNPLAYED_ROWS]; CELLS],
        };
        let played = |s: Subplane| slots.offset(s.diagonal()) + s.row() * G;
        for a in 1..=MAX_HP {
            let i = usize::from(a);
            for (row, s) in slots.unplayed(a).rows().enumerate() {
                plan.hands[i][row] = s.hand as u8;
                plan.played[i][row] = u16::try_from(played(s)).expect("a short cell");
                if s.left == 0 {
                    continue;
                }
                if a > HERO_POWER_COST {
                    let below = a - HERO_POWER_COST;
                    let hand = (s.hand + 1).min(usize::from(MAX_HAND));
                    let source = Slots::effective(below, s.left - 1, hand);
                    let source = slots.unplayed(below).row_of(source);
                    let source = source.expect("a hero power keeps to the rows without a play");
                    plan.hero[i][row] = Some(source as u8);
                } else {
                    // No cell below: it kills the mover, worth 0.
                    plan.hero[i][row] = Some(0);
                }
                debug_assert!(s.hand > 0, "a turn without a play keeps its drawn card");
                let from = Subplane { left: s.left - 1, hand: s.hand - 1 };
                debug_assert_eq!(from.diagonal(), s.diagonal(), "a play keeps the diagonal");
                plan.plays[i].push(PlayRow { row, from: played(from) });
            }
        }
        plan
    }
}

/// Consecutive rows (1 to 3) of a diagonal whose hero power reads consecutive rows of one
/// diagonal below (`src`, in the cell with HERO_POWER_COST HP less), or one row where it is
/// illegal (`None`: no play left).
#[derive(Clone, Copy, Debug)]
struct HeroPiece {
    dst: usize,
    src: Option<usize>,
    rows: usize,
}

impl CellPlan {
    fn new(slots: &Slots) -> CellPlan {
        let mut hero = Vec::new();
        let mut hero_at = vec![0];
        let mut ends = Vec::new();
        let mut row_starts = Vec::new();
        for d in 0..slots.diagonals() {
            let first_hand = Slots::first_hand(d);
            let width = slots.width(d);
            let at = slots.offset(d);
            // Row 0 has no play left when `left = d + first_hand - 3` is 0; the rows that gain
            // a card (hand below MAX_HAND) read consecutive rows of the diagonal two below,
            // the full hand's row the diagonal one below.
            let playing = usize::from(d + first_hand + 1 == HAND_SIZES);
            if playing == 1 {
                hero.push(HeroPiece { dst: at, src: None, rows: 1 });
            }
            let gaining = width.min(usize::from(MAX_HAND) - first_hand);
            if playing < gaining {
                let hand = first_hand + playing + 1;
                let src = slots.offset(d - 2) + (hand - Slots::first_hand(d - 2)) * G;
                let rows = gaining - playing;
                hero.push(HeroPiece { dst: at + playing * G, src: Some(src), rows });
            }
            if gaining < width && playing < width {
                debug_assert_eq!(first_hand + width - 1, usize::from(MAX_HAND), "a full hand");
                let hand = usize::from(MAX_HAND);
                let src = slots.offset(d - 1) + (hand - Slots::first_hand(d - 1)) * G;
                hero.push(HeroPiece { dst: at + (width - 1) * G, src: Some(src), rows: 1 });
            }
            hero_at.push(hero.len());
            ends.push((at, first_hand * G, width));
            for row in 0..width {
                let value = if row == 0 { f64::NEG_INFINITY } else { 0.0 };
                row_starts.extend([value; G]);
            }
        }
        row_starts.extend([f64::NEG_INFINITY; CHUNK]);
        CellPlan { hero, hero_at, ends, row_starts }
    }
}

/// One unit of a parallel phase: one chunk of pairs and its values.
struct Unit<'v> {
    /// The chunk's runs, in the layout's runs.
    runs: Range<usize>,
    /// Where the chunk's values start in the layer.
    first: usize,
    /// The chunk's values.
    values: &'v mut [f64],
}

/// Which pairs a phase fills.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairs {
    /// Every minion ready: turns start there.
    Starts,
    /// Some minion spent.
    Others,
}

impl<'a> Layer<'a> {
    pub(super) fn new(
        slots: Slots,
        layout: &'a LayerLayout,
        below: [Option<&'a LayerValues>; MAX_DROP],
        kernel: Kernel,
    ) -> Layer<'a> {
        let (plan, unplayed) = (CellPlan::new(&slots), UnplayedPlan::new(&slots));
        Layer { slots, layout, below, plan, unplayed, kernel }
    }

    /// The finished layer `back + 1` below this one.
    #[inline]
    fn below(&self, back: usize) -> &'a LayerValues {
        self.below[back].expect("an operation of a reached cell leads to a layer at or above 0")
    }

    /// Fills every reached cell of this layer into `values` (the layer's, laid out by
    /// `self.layout`) and its turn starts into `table`; `rows` is scratch for the turn-start
    /// rows.
    pub(super) fn fill(&self, values: &mut [f64], starts: &mut Starts, rows: &mut Vec<f64>) {
        // Phase 1: the best operation of the cells where a turn can start (every minion
        // ready): the turn starts of this layer are read from them. Its chunks share out
        // those cells; phase 3's share out the others, whose best operation it computes.
        let start_chunks = &self.layout.start_chunks;
        for_each_unit(self.units(values, start_chunks), |unit, scratch| {
            self.run_unit(unit, Pairs::Starts, &[], scratch);
        });
        // Phase 2: the turn starts kept (all, or the file's positions) and the turn-start
        // rows of every open cell where turns start, which ending a turn reads (it hands the
        // swapped position to the other player), set apart before phase 3 ends the turns
        // there too.
        rows.resize(self.layout.turn_rows_len(), 0.0);
        let values_read = &*values;
        match starts {
            Starts::Every(table) => {
                rayon::join(
                    || self.turn_starts(values_read, table),
                    || self.turn_rows(values_read, rows),
                );
            }
            Starts::Positions { ranks, values: kept } => {
                self.position_starts(values_read, ranks, kept);
                self.turn_rows(values_read, rows);
            }
        }
        // Phase 3: the other cells' best operation; in every open cell the better of that
        // and ending the turn; then the saturated copies that plays from above read.
        let rows = &rows[..];
        for_each_unit(self.units(values, &self.layout.chunks), |unit, scratch| {
            self.run_unit(unit, Pairs::Others, rows, scratch);
        });
    }

    /// Splits the layer's values into units, one per chunk of `chunks` (which cover the
    /// layer in order).
    fn units<'v>(&self, values: &'v mut [f64], chunks: &[Chunk]) -> Vec<Unit<'v>> {
        let mut units = Vec::with_capacity(chunks.len());
        let mut rest = values;
        for c in chunks {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(c.values.len());
            rest = tail;
            units.push(Unit { runs: c.runs.clone(), first: c.values.start, values: head });
        }
        units
    }

    /// Phase 1 or 3 of `unit`, with the layer's kernel: the widest vectors the CPU has,
    /// unless a test asked for the portable arrays.
    fn run_unit(&self, unit: &mut Unit<'_>, pairs: Pairs, rows: &[f64], scratch: &mut Scratch) {
        if self.kernel == Kernel::Widest {
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = Avx2::detect() {
                self.run_unit_avx2(unit, pairs, rows, scratch, avx2);
                return;
            }
        }
        self.phase(unit, pairs, rows, scratch, Portable);
    }

    /// [`Layer::phase`] compiled for AVX2: twice the lanes per instruction in the sums and
    /// maxima. The values are the same bits: every lane does the same IEEE operations in the
    /// same order (no fused multiply-add).
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    fn run_unit_avx2(
        &self,
        unit: &mut Unit<'_>,
        pairs: Pairs,
        rows: &[f64],
        scratch: &mut Scratch,
        avx2: Avx2,
    ) {
        #[target_feature(enable = "avx2")]
        fn phase_avx2(
            layer: &Layer<'_>,
            unit: &mut Unit<'_>,
            pairs: Pairs,
            rows: &[f64],
            scratch: &mut Scratch,
            avx2: Avx2,
        ) {
            layer.phase(unit, pairs, rows, scratch, avx2);
        }
        // SAFETY: an `Avx2` is made only where the CPU has AVX2, the only feature enabled.
        unsafe { phase_avx2(self, unit, pairs, rows, scratch, avx2) }
    }

    /// Phase 1 (`Starts`) or 3 (`Others`, with the turn-start rows `rows`) of `unit`.
    /// Run by run, so that a run's values are still in the core's cache when phase 3 ends
    /// its turns and copies its saturated cells: those read and write only the run's cells,
    /// and the best operations of the other runs read only the layers below.
    #[inline(always)]
    fn phase<S: Sums>(
        &self,
        unit: &mut Unit<'_>,
        pairs: Pairs,
        rows: &[f64],
        scratch: &mut Scratch,
        sums: S,
    ) {
        for run in self.runs(unit) {
            let info = &PAIR_INFO[usize::from(run.pair)];
            if info.start.is_some() == (pairs == Pairs::Starts) {
                self.best_operations(unit, run, scratch, sums);
            }
            if pairs == Pairs::Others {
                self.end_turns(unit, run, rows);
                if !info.unplayed {
                    self.saturate(unit, run);
                }
            }
        }
    }

    /// The runs of `unit`'s chunk.
    fn runs(&self, unit: &Unit<'_>) -> &'a [Run] {
        &self.layout.runs[unit.runs.clone()]
    }

    /// The first value of the open cell (`pair`, `a`) of this layer within `unit`.
    #[inline(always)]
    fn cell_in(&self, unit: &Unit<'_>, pair: usize, a: u8) -> usize {
        self.layout.cell_start(pair, a) - unit.first
    }

    /// Writes the best operation's value (end of turn excluded) of every open cell of `run`
    /// in its computed slots (won cells are not stored): the attacks and hero powers, then
    /// the plays.
    #[inline(always)]
    fn best_operations<S: Sums>(
        &self,
        unit: &mut Unit<'_>,
        run: &Run,
        scratch: &mut Scratch,
        sums: S,
    ) {
        if run.open == 0 {
            return;
        }
        self.attacks(unit, run);
        let info = &PAIR_INFO[usize::from(run.pair)];
        if info.can_play && info.unplayed {
            self.unplayed_plays(unit, run, scratch, sums);
        } else if info.can_play {
            self.plays(unit, run, scratch, sums);
        }
    }

    /// The open cells of `run`: the best of the hero power, the face attacks and the trades
    /// (illegal ones count as [`ILLEGAL`]) in their computed slots. Their targets are open
    /// too, so stored: a hero power keeps the pair and the other player's HP; a trade keeps
    /// his HP and takes one of the ready minions; a face attack takes 3 of his HP and, by
    /// spending one ready minion, 3 of the damage the others could still deal. An attack
    /// keeps the slot and the mover's HP, so the run's cells read the target pair's cells of
    /// the same HP, which are laid out alike: one pass over one piece (the saturated copies
    /// included, which phase 3 writes last).
    #[inline(always)]
    fn attacks(&self, unit: &mut Unit<'_>, run: &Run) {
        let pair = usize::from(run.pair);
        let info = &PAIR_INFO[pair];
        let last = run.a0 + run.open - 1;
        for a in run.a0..=last {
            if info.unplayed {
                self.unplayed_hero_powers(unit, pair, a);
            } else {
                self.hero_powers(unit, pair, a);
            }
        }
        let at = self.cell_in(unit, pair, run.a0);
        let len = self.cell_in(unit, pair, last) + self.layout.cell_len(pair, last) - at;
        // Face: the enemy loses FACE_DAMAGE HP (an open cell's enemy survives it: he has more
        // HP than the ready minions deal); the minion is spent. Trade: both minions die, which
        // lowers the total by their HP; no player's HP changes.
        let faces = info.face.iter().flatten().map(|&next| (usize::from(FACE_DAMAGE), next));
        let trades = info.trade.iter().enumerate().flat_map(|(i, row)| {
            row.iter().enumerate().filter_map(move |(j, next)| next.map(|next| (i + j + 2, next)))
        });
        let mut sources: [&[f64]; MAX_ATTACKS] = [&[]; MAX_ATTACKS];
        let mut attacks = 0;
        let mut to_played = None;
        for (drop, next) in faces.chain(trades) {
            let layer = self.below(drop - 1);
            let next = usize::from(next);
            if PAIR_INFO[next].unplayed != info.unplayed {
                // A 2-HP minion's face attack where no card was played: it lands where one
                // was (its minion spent), whose cells keep every diagonal.
                debug_assert!(info.unplayed && to_played.is_none(), "one such attack");
                to_played = Some((layer, next));
                continue;
            }
            debug_assert!(layer.layout.reaches(next, run.a0, usize::from(run.open)), "closed");
            let from = layer.layout.cell_start(next, run.a0);
            debug_assert_eq!(
                layer.layout.cell_start(next, last) - from,
                self.cell_in(unit, pair, last) - at,
                "the target's cells are stored alike"
            );
            sources[attacks] = &layer.values[from..from + len];
            attacks += 1;
        }
        // All the attacks in one pass over the run's values.
        let dst = &mut unit.values[at..at + len];
        match attacks {
            0 => {}
            1 => max_of::<1>(dst, &sources),
            2 => max_of::<2>(dst, &sources),
            3 => max_of::<3>(dst, &sources),
            4 => max_of::<4>(dst, &sources),
            5 => max_of::<5>(dst, &sources),
            _ => max_of::<MAX_ATTACKS>(dst, &sources),
        }
        if let Some((layer, next)) = to_played {
            self.unplayed_to_played(unit, run, layer, next);
        }
    }

    /// The hero power of the open cell (`pair`, `a`) in every computed slot: HERO_POWER_COST
    /// HP, a card, one play used; it kills a mover with no more HP than that (worth 0).
    /// Without a play left it is illegal. In a diagonal, the rows that gain a card (hand below
    /// MAX_HAND) read consecutive rows of the diagonal two below, the full hand's row the
    /// diagonal one below, all in the cell of the same pair with HERO_POWER_COST HP less.
    #[inline(always)]
    fn hero_powers(&self, unit: &mut Unit<'_>, pair: usize, a: u8) {
        let cell = self.slots.cell(a);
        let (at, first) = (self.cell_in(unit, pair, a), self.slots.offset(cell.first));
        let below = (a > HERO_POWER_COST).then(|| {
            let below = self.below(usize::from(HERO_POWER_COST) - 1);
            (&below.values[..], below.layout.base(pair, a - HERO_POWER_COST))
        });
        let plan = &self.plan;
        let pieces = &plan.hero[plan.hero_at[cell.first]..plan.hero_at[cell.computed]];
        let values = &mut unit.values[at..at + self.slots.cell_len(a)];
        let Some((below, base)) = below else {
            for piece in pieces {
                let value = if piece.src.is_some() { 0.0 } else { ILLEGAL };
                values[piece.dst - first..][..piece.rows * G].fill(value);
            }
            return;
        };
        for piece in pieces {
            let dst = &mut values[piece.dst - first..];
            let Some(src) = piece.src else {
                *dst.first_chunk_mut::<G>().expect("a row") = [ILLEGAL; G];
                continue;
            };
            let src = &below[base.wrapping_add(src)..];
            match piece.rows {
                1 => copy_rows::<G>(dst, src),
                2 => copy_rows::<{ 2 * G }>(dst, src),
                _ => copy_rows::<{ 3 * G }>(dst, src),
            }
        }
    }

    /// [`Layer::hero_powers`] of the open cell (`pair`, `a`) of a pair where no card was
    /// played, row by row.
    #[inline(always)]
    fn unplayed_hero_powers(&self, unit: &mut Unit<'_>, pair: usize, a: u8) {
        let rows = self.slots.unplayed(a).len();
        let at = self.cell_in(unit, pair, a);
        let values = &mut unit.values[at..at + rows * G];
        let below = (a > HERO_POWER_COST).then(|| {
            let below = self.below(usize::from(HERO_POWER_COST) - 1);
            (&below.values[..], below.layout.cell_start(pair, a - HERO_POWER_COST))
        });
        let sources = &self.unplayed.hero[usize::from(a)][..rows];
        for (dst, &source) in values.chunks_exact_mut(G).zip(sources) {
            let dst: &mut [f64; G] = dst.try_into().expect("a row");
            *dst = match (source, below) {
                (None, _) => [ILLEGAL; G],
                (Some(_), None) => [0.0; G],
                (Some(row), Some((values, start))) => {
                    *values[start + usize::from(row) * G..].first_chunk().expect("a row")
                }
            };
        }
    }

    /// A 2-HP minion's face attack from the open cells of `run`, a pair where no card was
    /// played, to `next`, where one was (the minion is spent): each row reads the same
    /// subplane there.
    #[inline(always)]
    fn unplayed_to_played(&self, unit: &mut Unit<'_>, run: &Run, layer: &LayerValues, next: usize) {
        let pair = usize::from(run.pair);
        for a in run.a0..run.a0 + run.open {
            let rows = self.slots.unplayed(a).len();
            let at = self.cell_in(unit, pair, a);
            let values = &mut unit.values[at..at + rows * G];
            let base = layer.layout.base(next, a);
            let played = &self.unplayed.played[usize::from(a)][..rows];
            for (dst, &from) in values.chunks_exact_mut(G).zip(played) {
                let src = &layer.values[base.wrapping_add(usize::from(from))..];
                max_rows::<G>(dst, src);
            }
        }
    }

    /// [`Layer::plays`] of the open cells of `run`, a pair where no card was played: each row
    /// that can play reads the row before in the same diagonal of each outcome's cell, where
    /// a card was played ([`Sums::play_rows`]).
    #[inline(always)]
    fn unplayed_plays<S: Sums>(
        &self,
        unit: &mut Unit<'_>,
        run: &Run,
        scratch: &mut Scratch,
        sums: S,
    ) {
        let pair = usize::from(run.pair);
        let below = self.below(0);
        let bases = below.layout.all_bases();
        let end = usize::from(run.a0) + usize::from(run.open);
        let pings = PINGS.of_pair(pair);
        let Scratch { terms } = scratch;
        let mut a = run.a0;
        while usize::from(a) < end {
            let b = run.heroes - a;
            let m = if a >= SAFE_HP && b >= SAFE_HP {
                usize::from(b - SAFE_HP + 1).min(end - usize::from(a))
            } else {
                1
            };
            let (win, outcomes) = pings.get(a, b);
            terms.clear();
            terms.extend(outcomes.iter().map(|o| Term {
                p: o.p,
                cells: usize::from(o.pair) * CELLS,
                loss: o.mover_loss,
                start: 0,
                won: false,
            }));
            for a in a..a + m as u8 {
                let rows = &self.unplayed.plays[usize::from(a)];
                if rows.is_empty() {
                    continue;
                }
                for term in terms.iter_mut() {
                    debug_assert!(!PAIR_INFO[term.cells / CELLS].unplayed, "a card was played");
                    let base = bases[term.cells + usize::from(a - term.loss)];
                    term.won = base == NOT_STORED;
                    term.start = base as usize;
                }
                let at = self.cell_in(unit, pair, a);
                sums.play_rows(&mut unit.values[at..], rows, &below.values, terms, win);
            }
            a += m as u8;
        }
    }

    /// The plays of the open cells of `run`: a card leaves the hand, one play is used, three
    /// pings, then the minion. Slot (left, hand) reads slot (left - 1, hand - 1), the row
    /// before in the same diagonal, of each outcome's cell in the layer below; a diagonal's
    /// first row (no card, or no play left) cannot play. A cell keeps its diagonals' rows one
    /// after the other, so its computed slots read, for each outcome, one piece of the
    /// outcome's cell starting one row earlier ([`play_cell`]). Cells with both HP at
    /// [`SAFE_HP`] or more share one outcome list, set up once for all of them.
    #[inline(always)]
    fn plays<S: Sums>(&self, unit: &mut Unit<'_>, run: &Run, scratch: &mut Scratch, sums: S) {
        let pair = usize::from(run.pair);
        let below = self.below(0);
        let bases = below.layout.all_bases();
        let end = usize::from(run.a0) + usize::from(run.open);
        let pings = PINGS.of_pair(pair);
        let Scratch { terms } = scratch;
        let mut a = run.a0;
        while usize::from(a) < end {
            let b = run.heroes - a;
            // Thresholds are min(hp, SAFE_HP): all cells with both HP at SAFE_HP or more share
            // a list, those from mover HP a up to other HP SAFE_HP.
            let m = if a >= SAFE_HP && b >= SAFE_HP {
                usize::from(b - SAFE_HP + 1).min(end - usize::from(a))
            } else {
                1
            };
            let (win, outcomes) = pings.get(a, b);
            terms.clear();
            terms.extend(outcomes.iter().map(|o| Term {
                p: o.p,
                cells: usize::from(o.pair) * CELLS,
                loss: o.mover_loss,
                start: 0,
                won: false,
            }));
            for a in a..a + m as u8 {
                let cell = self.slots.cell(a);
                // The cell's slots from the second row of its first diagonal to the end of
                // its computed ones; the outcome's from one row earlier.
                let x0 = self.slots.offset(cell.first) + G;
                let x1 = self.slots.offset(cell.computed);
                if x1 <= x0 {
                    continue;
                }
                for term in terms.iter_mut() {
                    let base = bases[term.cells + usize::from(a - term.loss)];
                    // The pings may leave the other player to the mover's ready minions: the
                    // outcome's cell is won, worth 1, and not stored.
                    term.won = base == NOT_STORED;
                    term.start = (base as usize).wrapping_add(x0 - G);
                }
                let out = self.cell_in(unit, pair, a) + G;
                let piece = Piece { out, lanes: x1 - x0, first_lane: x0 };
                let row_starts = &self.plan.row_starts;
                play_cell(sums, unit.values, piece, &below.values, terms, win, row_starts);
            }
            a += m as u8;
        }
    }

    /// Phase 2, the table: every turn start of this layer (each hand before the draw) is the
    /// best operation of its cell with O plays left and the hand after the draw. The table
    /// is split by mover HP, the leading field of its ranks, and the pieces filled in
    /// parallel, each from the runs of the pairs where turns start.
    fn turn_starts(&self, values: &[f64], table: &mut [f64]) {
        let per_hp = StartKey::CARDINALITY / usize::from(MAX_HP);
        let starts: Vec<(&Run, (u8, u8))> = (self.layout.runs.iter())
            .filter_map(|run| Some((run, PAIR_INFO[usize::from(run.pair)].start?)))
            .collect();
        table.par_chunks_mut(per_hp).enumerate().for_each(|(hp, table)| {
            let a = hp as u8 + 1;
            for &(run, (mover_board, other_board)) in &starts {
                let pair = usize::from(run.pair);
                if !(run.a0..run.a0 + run.len).contains(&a) {
                    continue;
                }
                // Mover HP leads the ranks: this piece holds every rank of mover HP `a`.
                let rank = start_rank(a, run.heroes - a, mover_board, other_board) - hp * per_hp;
                debug_assert!(rank < per_hp, "a rank of mover HP {a} in its piece");
                for mover in 0..HAND_SIZES {
                    let row = self.start_row(values, pair, a, mover);
                    for other in 0..HAND_SIZES {
                        table[rank + hand_slot(mover, other)] = row[other_class(other)];
                    }
                }
            }
        });
    }

    /// The values, by the other's hand class, of a turn start in cell (`pair`, `a`) of this
    /// layer with `mover` cards before the draw: its cell's best operation with O plays left
    /// and the hand after the draw.
    #[inline]
    fn start_row<'v>(&self, values: &'v [f64], pair: usize, a: u8, mover: usize) -> &'v [f64; G] {
        let drawn = (mover + 1).min(usize::from(MAX_HAND));
        cell_row(self.layout, values, pair, a, self.slots.ops, drawn)
    }

    /// Phase 2 for tables that keep only the file's positions: those of this layer, by rank
    /// (`ranks` sorted, `kept` their values), read off their cells as
    /// [`Layer::turn_starts`] reads every turn start.
    fn position_starts(&self, values: &[f64], ranks: &[usize], kept: &mut [f64]) {
        for (&rank, kept) in ranks.iter().zip(kept) {
            let p = StartKey::unrank(rank).position();
            if usize::from(p.total_hp()) != self.layout.t {
                continue;
            }
            let pair = pair_index(TurnBoard::ready(p.e_board), p.teacher_board);
            let row = self.start_row(values, pair, p.e_hp, usize::from(p.e_hand));
            *kept = row[other_class(usize::from(p.teacher_hand))];
        }
    }

    /// Phase 2, the turn-start rows of every open cell where turns start: its best operation
    /// with O plays left and each hand after the draw, by the other's hand class, as phase 1
    /// left them. Phase 3 ends the turns there too; ending a turn reads these. Shared out by
    /// phase 1's chunks, which share out those cells.
    fn turn_rows(&self, values: &[f64], rows: &mut [f64]) {
        let layout = self.layout;
        let mut pieces = Vec::with_capacity(layout.start_chunks.len());
        let mut rest = rows;
        for chunk in &layout.start_chunks {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(chunk.turn_rows.len());
            rest = tail;
            pieces.push((chunk, head));
        }
        pieces.par_iter_mut().for_each(|(chunk, rows)| {
            for run in &layout.runs[chunk.runs.clone()] {
                let pair = usize::from(run.pair);
                if PAIR_INFO[pair].start.is_none() {
                    continue;
                }
                let block = layout.turn_row_block(pair);
                for a in run.a0..run.a0 + run.open {
                    let cell: &mut [f64; DRAWN_HANDS * G] = rows
                        [block.at(0, a) - chunk.turn_rows.start..]
                        .first_chunk_mut()
                        .expect("a cell's turn-start rows");
                    // Row `mover`: the hand after a draw from `mover` cards.
                    for (mover, row) in cell.chunks_exact_mut(G).enumerate() {
                        row.copy_from_slice(self.start_row(values, pair, a, mover));
                    }
                }
            }
        });
    }

    /// Phase 3, the end of the turn: every open cell of `run` takes, in its computed slots,
    /// the better of its best operation and ending the turn. Ending the turn hands the swapped
    /// position to the other player, who starts his turn there, so it is worth 1 - his turn
    /// start's value, read off the turn-start rows `rows`; it depends on the mover's hand and
    /// the other's class only, and a diagonal's rows are consecutive hands, so each diagonal
    /// of a cell takes one piece of the cell's end-of-turn values. Won cells are not stored.
    #[inline(always)]
    fn end_turns(&self, unit: &mut Unit<'_>, run: &Run, rows: &[f64]) {
        let pair = usize::from(run.pair);
        let next = usize::from(PAIR_INFO[pair].next_start);
        let next_block = self.layout.turn_row_block(next);
        for a in run.a0..run.a0 + run.open {
            // The swapped position's turn-start rows: the other player, with `other` cards,
            // draws (row `other`) and has O plays left.
            let b = run.heroes - a;
            let starts: &[f64; DRAWN_HANDS * G] = if self.layout.won(next, b) {
                &[1.0; DRAWN_HANDS * G]
            } else {
                rows[next_block.at(0, b)..].first_chunk().expect("a cell's turn-start rows")
            };
            // `[hand][other's class]`.
            let mut ends = [0.0; HAND_SIZES * G];
            for hand in 0..HAND_SIZES {
                for other in 0..G {
                    ends[hand * G + other] = 1.0 - starts[other * G + other_class(hand)];
                }
            }
            if PAIR_INFO[pair].unplayed {
                let rows = self.slots.unplayed(a).len();
                let at = self.cell_in(unit, pair, a);
                let values = &mut unit.values[at..at + rows * G];
                let hands = &self.unplayed.hands[usize::from(a)][..rows];
                for (dst, &hand) in values.chunks_exact_mut(G).zip(hands) {
                    max_rows::<G>(dst, &ends[usize::from(hand) * G..]);
                }
                continue;
            }
            let cell = self.slots.cell(a);
            let (at, first) = (self.cell_in(unit, pair, a), self.slots.offset(cell.first));
            let values = &mut unit.values[at..at + self.slots.cell_len(a)];
            for &(lane, hand, rows) in &self.plan.ends[cell.first..cell.computed] {
                let (dst, src) = (&mut values[lane - first..], &ends[hand..]);
                match rows {
                    1 => max_rows::<G>(dst, src),
                    2 => max_rows::<{ 2 * G }>(dst, src),
                    3 => max_rows::<{ 3 * G }>(dst, src),
                    _ => max_rows::<{ 4 * G }>(dst, src),
                }
            }
        }
    }

    /// Phase 3, last for `run`: the saturated copies of every open cell get the values of
    /// their effective subplanes, which have fewer plays left and are finished (the same
    /// cell, ended above); plays from the layers above read them. Every saturated slot of a
    /// cell `a` reads diagonal `a + 2` (plays left `a - 1 + hand`), whose rows start at hand 0
    /// and cover the copy's hands, so each saturated diagonal copies one contiguous piece.
    #[inline(always)]
    fn saturate(&self, unit: &mut Unit<'_>, run: &Run) {
        let pair = usize::from(run.pair);
        for a in run.a0..run.a0 + run.open {
            let cell = self.slots.cell(a);
            if cell.stored == cell.computed {
                continue;
            }
            let (at, first) = (self.cell_in(unit, pair, a), self.slots.offset(cell.first));
            // Hand 0 with `a - 1` plays left: the first row of diagonal `a + 2`.
            let from = Subplane { left: usize::from(a) - 1, hand: 0 };
            debug_assert_eq!(from.diagonal() + 1, cell.computed, "the last computed diagonal");
            let src = at + self.slots.offset(from.diagonal()) - first;
            for d in cell.computed..cell.stored {
                debug_assert_eq!(Slots::first_hand(d), 0, "a saturated diagonal starts at hand 0");
                let dst = at + self.slots.offset(d) - first;
                let lanes = self.slots.width(d) * G;
                unit.values.copy_within(src..src + lanes, dst);
            }
        }
    }

    /// E's first actions in `position` and their values, when its cell is in this layer
    /// (whose layers below are finished), in [`Action::FIRST`] order. Each value is computed
    /// with the same operations, in the same order, as the sweep computes it.
    pub(super) fn first_actions(&self, position: &Position) -> Option<Vec<(Action, f64)>> {
        if usize::from(position.total_hp()) != self.layout.t {
            return None;
        }
        let pair = pair_index(TurnBoard::ready(position.e_board), position.teacher_board);
        let info = &PAIR_INFO[pair];
        let (a, b) = (position.e_hp, position.teacher_hp);
        let left = self.slots.ops;
        let hand = usize::from(position.e_hand_after_draw());
        let other = other_class(usize::from(position.teacher_hand));
        let mut actions = Vec::new();
        let hero_power = if a <= HERO_POWER_COST {
            0.0
        } else {
            let drawn = (hand + 1).min(usize::from(MAX_HAND));
            let below = self.below(usize::from(HERO_POWER_COST) - 1);
            below.value(pair, a - HERO_POWER_COST, left - 1, drawn, other)
        };
        actions.push((Action::HeroPower, hero_power));
        for (i, next) in info.face.iter().enumerate() {
            let Some(next) = *next else { continue };
            let value = if b <= FACE_DAMAGE {
                1.0
            } else {
                let below = self.below(usize::from(FACE_DAMAGE) - 1);
                below.value(usize::from(next), a, left, hand, other)
            };
            actions.push((Action::Face { minion_hp: i as u8 + 1 }, value));
        }
        for (i, row) in info.trade.iter().enumerate() {
            for (j, next) in row.iter().enumerate() {
                let Some(next) = *next else { continue };
                let value = self.below(i + j + 1).value(usize::from(next), a, left, hand, other);
                let action = Action::Trade { minion_hp: i as u8 + 1, target_hp: j as u8 + 1 };
                actions.push((action, value));
            }
        }
        if info.can_play {
            let (win, outcomes) = PINGS.get(pair, a, b);
            let below = self.below(0);
            let value = outcomes.iter().fold(win, |sum, o| {
                let a = a - o.mover_loss;
                sum + o.p * below.value(usize::from(o.pair), a, left - 1, hand - 1, other)
            });
            actions.push((Action::Play, value));
        }
        Some(actions)
    }
}

/// Runs `work` on every unit, each taken in order by whichever thread of the pool comes free
/// (the layout cuts the units shrinking, so the last ones are small); each thread keeps its
/// [`Scratch`].
fn for_each_unit<'v>(units: Vec<Unit<'v>>, work: impl Fn(&mut Unit<'v>, &mut Scratch) + Sync) {
    let threads = rayon::current_num_threads().min(units.len());
    let queue = Mutex::new(units.into_iter());
    (0..threads).into_par_iter().for_each(|_| {
        let mut scratch = Scratch { terms: Vec::new() };
        loop {
            let next = queue.lock().expect("no thread panics while taking a unit").next();
            let Some(mut unit) = next else { break };
            work(&mut unit, &mut scratch);
        }
    });
}

/// What a thread of a phase keeps from one play to the next: the play's outcomes.
pub(super) struct Scratch {
    terms: Vec<Term>,
}

/// One ping outcome of a play, for [`play_cell`]: its probability, where its pair's cell
/// bases are in the layer below, the mover HP the pings take, and for the cell being
/// computed, where the outcome's piece starts or whether its cell is won.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Term {
    p: f64,
    cells: usize,
    loss: u8,
    start: usize,
    won: bool,
}

/// The slots of one cell whose plays [`play_cell`] computes: where the first one is in the
/// output, how many, and where the first one sits in its cell (counted as
/// [`Slots::offset`] counts).
#[derive(Clone, Copy, Debug)]
struct Piece {
    out: usize,
    lanes: usize,
    first_lane: usize,
}

/// Most lanes of a cell's sums that one pass over the terms keeps in registers: 9 vectors
/// of 4 (AVX2 has 16 registers).
const CHUNK: usize = 36;

/// For each lane `y` of `piece`: `out[y] = max(out[y], win + sum of p * x[y])` over `terms`
/// in order, `x` the term's piece of the layer below or 1 when its cell is won, so that each
/// slot's sum is exactly what a plain loop over the outcomes computes. Lanes on a
/// diagonal's first row (which cannot play: `row_starts` is minus infinity there, else 0)
/// are summed too and written back as they were. The piece starts on the second row of the
/// cell's first diagonal; it is widened to whole vectors of 4 lanes by taking in up to 3
/// lanes of the first row before it, and cut into equal chunks of at most [`CHUNK`] lanes,
/// whose sums stay in registers while the terms stream past. `O(lanes * terms)`.
#[inline(always)]
fn play_cell<S: Sums>(
    sums: S,
    out: &mut [f64],
    piece: Piece,
    src: &[f64],
    terms: &[Term],
    win: f64,
    row_starts: &[f64],
) {
    debug_assert!(piece.first_lane >= G && piece.out >= G, "the piece starts on a second row");
    let widened = (4 - piece.lanes % 4) % 4;
    let lanes = piece.lanes + widened;
    let chunks = lanes.div_ceil(CHUNK);
    let per_chunk = (lanes / 4).div_ceil(chunks) * 4;
    let out = &mut out[piece.out - widened..];
    let row_starts = &row_starts[piece.first_lane - widened..];
    let mut from = 0;
    while from < lanes {
        let chunk = per_chunk.min(lanes - from);
        let play = PlayChunk {
            win,
            // Where the terms' pieces are read, from their starts (before them for the
            // lanes taken in).
            read: from.wrapping_sub(widened),
            row_starts: &row_starts[from..],
        };
        let out = &mut out[from..];
        match chunk / 4 {
            1 => sums.play_chunk::<4>(out, &play, src, terms),
            2 => sums.play_chunk::<8>(out, &play, src, terms),
            3 => sums.play_chunk::<12>(out, &play, src, terms),
            4 => sums.play_chunk::<16>(out, &play, src, terms),
            5 => sums.play_chunk::<20>(out, &play, src, terms),
            6 => sums.play_chunk::<24>(out, &play, src, terms),
            7 => sums.play_chunk::<28>(out, &play, src, terms),
            8 => sums.play_chunk::<32>(out, &play, src, terms),
            _ => sums.play_chunk::<CHUNK>(out, &play, src, terms),
        }
        from += chunk;
    }
}

/// One chunk of [`play_cell`]: the sums' first value, where the terms' pieces are read from
/// their starts (wrapping below them for lanes taken in before the piece), and the chunk's
/// lanes of `row_starts`.
struct PlayChunk<'r> {
    win: f64,
    read: usize,
    row_starts: &'r [f64],
}

/// The multiply-adds of the plays ([`play_cell`]), with the widest vectors the CPU has.
/// Every implementation does, in every lane, the same IEEE operations in the same order (a
/// multiplication, then an addition: no fused multiply-add), so the values are the same bits;
/// this file's tests compare them bit for bit, alone, in a layer's phases and in whole sweeps.
trait Sums: Copy {
    /// The plays of a cell where no card was played, at the start of `out`: for each of
    /// `rows`, `max(row, win + sum of p * x)` over `terms` in order, `x` the term's cell's
    /// slots at `from` or 1 when its cell is won.
    fn play_rows(self, out: &mut [f64], rows: &[PlayRow], src: &[f64], terms: &[Term], win: f64);

    /// `K` lanes (a multiple of 4, at most [`CHUNK`]) at the start of `out`.
    fn play_chunk<const K: usize>(
        self,
        out: &mut [f64],
        play: &PlayChunk<'_>,
        src: &[f64],
        terms: &[Term],
    );
}

/// Any CPU: arrays, which the compiler vectorizes as it can.
#[derive(Clone, Copy, Debug)]
struct Portable;

impl Sums for Portable {
    #[inline(always)]
    fn play_rows(self, out: &mut [f64], rows: &[PlayRow], src: &[f64], terms: &[Term], win: f64) {
        play_rows_portable(out, rows, src, terms, win);
    }

    #[inline(always)]
    fn play_chunk<const K: usize>(
        self,
        out: &mut [f64],
        play: &PlayChunk<'_>,
        src: &[f64],
        terms: &[Term],
    ) {
        let mut sums = [play.win; K];
        for term in terms {
            let x = term_lanes::<K>(src, term, play.read);
            for (sum, &x) in sums.iter_mut().zip(&x) {
                *sum += term.p * x;
            }
        }
        let out: &mut [f64; K] = out.first_chunk_mut().expect("whole vectors within the cell");
        let row_starts: &[f64; K] = play.row_starts.first_chunk().expect("whole vectors");
        for ((out, &sum), &dropped) in out.iter_mut().zip(&sums).zip(row_starts) {
            let sum = sum + dropped;
            *out = if *out > sum { *out } else { sum };
        }
    }
}

/// The `K` lanes of `term`'s piece from `read`: 1 for a won cell.
#[inline(always)]
fn term_lanes<const K: usize>(src: &[f64], term: &Term, read: usize) -> [f64; K] {
    if term.won {
        return [1.0; K];
    }
    match src.get(term.start.wrapping_add(read)..).and_then(<[f64]>::first_chunk) {
        Some(x) => *x,
        None => lanes_near_start(src, term.start, read),
    }
}

/// The lanes of a chunk that starts before the layer's first value (lanes taken in from an
/// outcome's cell at the layer's start: they are dropped, so any value does).
#[cold]
fn lanes_near_start<const K: usize>(src: &[f64], start: usize, read: usize) -> [f64; K] {
    std::array::from_fn(|k| src.get(start.wrapping_add(read).wrapping_add(k)).map_or(0.0, |&x| x))
}

/// AVX2: the sums of a chunk in up to 9 registers of 4 lanes, for a CPU that has AVX2: an
/// [`Avx2`] is made only there.
#[cfg(target_arch = "x86_64")]
impl Sums for Avx2 {
    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    #[inline(always)]
    fn play_rows(self, out: &mut [f64], rows: &[PlayRow], src: &[f64], terms: &[Term], win: f64) {
        // SAFETY: an `Avx2` is made only where the CPU has AVX2.
        unsafe { play_rows_avx2(out, rows, src, terms, win) }
    }

    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    #[inline(always)]
    fn play_chunk<const K: usize>(
        self,
        out: &mut [f64],
        play: &PlayChunk<'_>,
        src: &[f64],
        terms: &[Term],
    ) {
        // SAFETY: an `Avx2` is made only where the CPU has AVX2.
        unsafe { play_chunk_avx2::<K>(out, play, src, terms) }
    }
}

/// [`Sums::play_chunk`] with AVX2 intrinsics.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code, reason = "AVX2 loads and stores of lanes checked to be in bounds")]
fn play_chunk_avx2<const K: usize>(
    out: &mut [f64],
    play: &PlayChunk<'_>,
    src: &[f64],
    terms: &[Term],
) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_max_pd, _mm256_mul_pd, _mm256_set1_pd,
        _mm256_storeu_pd,
    };
    const { assert!(K.is_multiple_of(4) && K <= CHUNK, "whole vectors within a chunk") };
    let out: &mut [f64; K] = out.first_chunk_mut().expect("whole vectors within the cell");
    let row_starts: &[f64; K] = play.row_starts.first_chunk().expect("whole vectors");
    let mut sums: [__m256d; CHUNK / 4] = [_mm256_set1_pd(play.win); CHUNK / 4];
    for term in terms {
        let p = _mm256_set1_pd(term.p);
        if term.won {
            // p * 1 is p.
            for sum in &mut sums[..K / 4] {
                *sum = _mm256_add_pd(*sum, p);
            }
            continue;
        }
        let near_start;
        let x: &[f64; K] =
            match src.get(term.start.wrapping_add(play.read)..).and_then(<[f64]>::first_chunk) {
                Some(x) => x,
                None => {
                    near_start = lanes_near_start(src, term.start, play.read);
                    &near_start
                }
            };
        for (i, sum) in sums[..K / 4].iter_mut().enumerate() {
            // SAFETY: lanes `4 * i..4 * i + 4` of `x`, `i < K / 4`, are in bounds.
            let x = unsafe { _mm256_loadu_pd(x.as_ptr().add(4 * i)) };
            *sum = _mm256_add_pd(*sum, _mm256_mul_pd(p, x));
        }
    }
    for (i, &sum) in sums[..K / 4].iter().enumerate() {
        // SAFETY: lanes `4 * i..4 * i + 4` of `out` and `row_starts`, `i < K / 4`, are in
        // bounds.
        unsafe {
            let sum = _mm256_add_pd(sum, _mm256_loadu_pd(row_starts.as_ptr().add(4 * i)));
            let at = out.as_mut_ptr().add(4 * i);
            // `max_pd(a, b)` is `a > b ? a : b`, as [`max_into`] is.
            _mm256_storeu_pd(at, _mm256_max_pd(_mm256_loadu_pd(at), sum));
        }
    }
}

/// Values a layer keeps past its last, read by [`play_rows_avx2`] past a cell's last row.
pub(super) const PAST_THE_END: usize = 4 - G;

/// Rows of [`Sums::play_rows`] that one pass over the terms keeps in registers.
const ROWS_CHUNK: usize = 8;

/// [`Sums::play_rows`] in arrays, for any CPU.
#[inline(always)]
fn play_rows_portable(out: &mut [f64], rows: &[PlayRow], src: &[f64], terms: &[Term], win: f64) {
    for row in rows {
        let mut sums = [win; G];
        for term in terms {
            let x: [f64; G] = if term.won {
                [1.0; G]
            } else {
                *src[term.start.wrapping_add(row.from)..].first_chunk().expect("a stored row")
            };
            for (sum, &x) in sums.iter_mut().zip(&x) {
                *sum += term.p * x;
            }
        }
        max_rows::<G>(&mut out[row.row * G..], &sums);
    }
}

/// [`Sums::play_rows`] with AVX2 intrinsics: up to [`ROWS_CHUNK`] rows a pass, each in one
/// register of 4 lanes whose last lane (the next slot of the outcome's cell, read past the
/// row) is summed and dropped.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn play_rows_avx2(out: &mut [f64], rows: &[PlayRow], src: &[f64], terms: &[Term], win: f64) {
    for rows in rows.chunks(ROWS_CHUNK) {
        match rows.len() {
            1 => play_rows_chunk_avx2::<1>(out, rows, src, terms, win),
            2 => play_rows_chunk_avx2::<2>(out, rows, src, terms, win),
            3 => play_rows_chunk_avx2::<3>(out, rows, src, terms, win),
            4 => play_rows_chunk_avx2::<4>(out, rows, src, terms, win),
            5 => play_rows_chunk_avx2::<5>(out, rows, src, terms, win),
            6 => play_rows_chunk_avx2::<6>(out, rows, src, terms, win),
            7 => play_rows_chunk_avx2::<7>(out, rows, src, terms, win),
            _ => play_rows_chunk_avx2::<ROWS_CHUNK>(out, rows, src, terms, win),
        }
    }
}

/// `N` rows of [`play_rows_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unsafe_code, reason = "AVX2 loads and stores of lanes checked to be in bounds")]
fn play_rows_chunk_avx2<const N: usize>(
    out: &mut [f64],
    rows: &[PlayRow],
    src: &[f64],
    terms: &[Term],
    win: f64,
) {
    use std::arch::x86_64::{
        __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_maskload_pd, _mm256_maskstore_pd,
        _mm256_max_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setr_epi64x,
    };
    let rows: &[PlayRow; N] = rows.try_into().expect("N rows");
    // The lanes every term reads: from the first row's, up to the last one's 4th.
    let first = rows.iter().map(|r| r.from).min().expect("a row");
    let reach = rows.iter().map(|r| r.from).max().expect("a row") + 4 - first;
    let from: [usize; N] = std::array::from_fn(|i| rows[i].from - first);
    let mut sums: [__m256d; N] = [_mm256_set1_pd(win); N];
    for term in terms {
        let p = _mm256_set1_pd(term.p);
        if term.won {
            // p * 1 is p.
            for sum in &mut sums {
                *sum = _mm256_add_pd(*sum, p);
            }
            continue;
        }
        let cell = &src[term.start.wrapping_add(first)..][..reach];
        for (sum, &from) in sums.iter_mut().zip(&from) {
            // SAFETY: lanes `from..from + 4` of `cell` are in bounds.
            let x = unsafe { _mm256_loadu_pd(cell.as_ptr().add(from)) };
            *sum = _mm256_add_pd(*sum, _mm256_mul_pd(p, x));
        }
    }
    let row_lanes = _mm256_setr_epi64x(-1, -1, -1, 0);
    for (&sum, row) in sums.iter().zip(rows) {
        let dst = &mut out[row.row * G..row.row * G + G];
        // SAFETY: the three unmasked lanes are `dst`'s.
        unsafe {
            let current = _mm256_maskload_pd(dst.as_ptr(), row_lanes);
            _mm256_maskstore_pd(dst.as_mut_ptr(), row_lanes, _mm256_max_pd(current, sum));
        }
    }
}

/// Most attacks a cell has: two face attacks, four trades.
const MAX_ATTACKS: usize = 6;

/// `dst[i] = max(dst[i], sources[0][i], ..., sources[N - 1][i])`, each lane read and written
/// once, vectorized as [`max_into`] is.
#[inline(always)]
fn max_of<const N: usize>(dst: &mut [f64], sources: &[&[f64]; MAX_ATTACKS]) {
    let sources: [&[f64]; N] = std::array::from_fn(|i| &sources[i][..dst.len()]);
    for (i, d) in dst.iter_mut().enumerate() {
        let mut max = *d;
        for source in &sources {
            let x = source[i];
            max = if max > x { max } else { x };
        }
        *d = max;
    }
}

/// `max_into` of the first `L` lanes of `dst` and `src` (rows of a diagonal).
#[inline(always)]
fn max_rows<const L: usize>(dst: &mut [f64], src: &[f64]) {
    let dst: &mut [f64; L] = dst.first_chunk_mut().expect("a diagonal's rows");
    max_into(dst, src.first_chunk::<L>().expect("a diagonal's rows"));
}

/// Copies the first `L` lanes of `src` to `dst` (rows of a diagonal).
#[inline(always)]
fn copy_rows<const L: usize>(dst: &mut [f64], src: &[f64]) {
    *dst.first_chunk_mut::<L>().expect("a diagonal's rows") =
        *src.first_chunk().expect("a diagonal's rows");
}

/// `dst[i] = max(dst[i], src[i])`, vectorized. No value is NaN, and `d > s ? d : s` is what
/// one vector maximum instruction computes (`f64::max` adds a NaN check a vector; a
/// conditional store compiles to masked stores).
#[inline(always)]
fn max_into(dst: &mut [f64], src: &[f64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = if *d > s { *d } else { s };
    }
}

/// The two kernels against each other. Every other test runs whichever sums this CPU has, so
/// on an AVX2 machine the portable ones would run nowhere; these run both on the same values
/// and compare every value's bits, as the notes of [`Sums`] claim they are the same. Without
/// AVX2 they say they are skipped ([`judge::testing::avx2`]); on a CPU other than x86-64
/// there is no second kernel to compare.
#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use engine::rng::SplitMix64;
    use judge::testing::avx2;

    use super::super::{Reach, Tables};
    use super::*;
    use crate::rules::{Board, MAX_MINIONS, MAX_OPS};

    /// Values that stress the sums' rounding and their maxima: zeros of both signs, the
    /// extremes of `0..=1`, the largest value below 1, and values whose products are
    /// subnormal or vanish.
    const EDGES: [f64; 8] =
        [0.0, -0.0, 1.0, 0.5, 1.0 - f64::EPSILON / 2.0, f64::MIN_POSITIVE, 5e-324, 1e-300];

    /// A value for a layer or a probability: an edge case one time in eight, else uniform in
    /// `0..1` with all 53 bits random, so that every rounding of a sum is met.
    fn value(rng: &mut SplitMix64) -> f64 {
        let bits = rng.next_u64();
        if bits.is_multiple_of(8) {
            EDGES[(bits >> 3) as usize % EDGES.len()]
        } else {
            (bits >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// `len` values, each [`value`].
    fn values(len: usize, rng: &mut SplitMix64) -> Vec<f64> {
        (0..len).map(|_| value(rng)).collect()
    }

    /// Layer `t` of `reach` for `slots`, laid out for two threads, its values (and the values
    /// the sweep keeps past the last, which AVX2 reads and drops) random.
    fn random_layer(t: usize, reach: &Reach, slots: &Slots, rng: &mut SplitMix64) -> LayerValues {
        let mut layout = LayerLayout::default();
        layout.build(t, reach, slots, 2);
        let mut values = HugeZeroed::new(layout.len() + PAST_THE_END);
        values.iter_mut().for_each(|v| *v = value(rng));
        LayerValues { layout, values }
    }

    /// Phase 1 (`Starts`) or 3 (`Others`) of `layer` into `values`, unit by unit in order,
    /// with the AVX2 sums as the sweep enters them, or the portable ones.
    fn run_phase(
        layer: &Layer<'_>,
        values: &mut [f64],
        pairs: Pairs,
        rows: &[f64],
        avx2: Option<Avx2>,
    ) {
        let chunks = match pairs {
            Pairs::Starts => &layer.layout.start_chunks,
            Pairs::Others => &layer.layout.chunks,
        };
        let mut scratch = Scratch { terms: Vec::new() };
        for mut unit in layer.units(values, chunks) {
            match avx2 {
                Some(avx2) => layer.run_unit_avx2(&mut unit, pairs, rows, &mut scratch, avx2),
                None => layer.phase(&mut unit, pairs, rows, &mut scratch, Portable),
            }
        }
    }

    /// Asserts that `portable` and `avx2` hold the same bits, naming the first value that
    /// differs.
    fn assert_same_bits(portable: &[f64], avx2: &[f64], what: &str) {
        assert_eq!(portable.len(), avx2.len(), "{what}");
        let differ = |(p, a): (&f64, &f64)| p.to_bits() != a.to_bits();
        let count = portable.iter().zip(avx2).filter(|&pair| differ(pair)).count();
        if let Some(i) = portable.iter().zip(avx2).position(differ) {
            let (p, a) = (portable[i], avx2[i]);
            panic!("{what}: {count} values differ, the first at {i}: {p:e} portable, {a:e} AVX2");
        }
    }

    /// The reach of every position with at most `hp` HP each (a box: more positions than an
    /// exact reach marks).
    fn reach_up_to(hp: u8) -> Reach {
        let board = Board { ones: 0, twos: MAX_MINIONS };
        let positions: Vec<Position> = (1..=hp)
            .flat_map(|e_hp| (1..=hp).map(move |teacher_hp| (e_hp, teacher_hp)))
            .map(|(e_hp, teacher_hp)| Position {
                e_hp,
                teacher_hp,
                e_board: board,
                teacher_board: board,
                e_hand: 0,
                teacher_hand: 0,
            })
            .collect();
        Reach::of(&positions)
    }

    /// Phases 1 and 3 of a layer, given the same random values (below it, and in it before
    /// they run), write the same bits with the portable sums as with AVX2, for every O. The
    /// layers are chosen so that every count of [`play_rows_avx2`]'s rows and the lanes read
    /// near a layer's start occur, and every width of [`play_cell`]'s chunks that a sweep
    /// meets: 16 to 36 lanes where players have up to 20 HP, 12 where they have at most 10
    /// and O is larger (the HP decide how many plays left a cell keeps).
    #[test]
    fn the_portable_phases_are_the_avx2_phases() {
        let Some(avx2) = avx2("the_portable_phases_are_the_avx2_phases") else {
            return;
        };
        let mut rng = SplitMix64::new(38);
        let reaches = [(Reach::all(), [3, 8, 17, 28]), (reach_up_to(10), [6, 13, 21, 30])];
        for ops in 1..=MAX_OPS {
            for (reach, layers) in &reaches {
                let slots = Slots::new(ops, reach.max_hp());
                for &t in layers {
                    let below: Vec<LayerValues> = (1..=MAX_DROP.min(t))
                        .map(|k| random_layer(t - k, reach, &slots, &mut rng))
                        .collect();
                    let below: [Option<&LayerValues>; MAX_DROP] =
                        std::array::from_fn(|k| below.get(k));
                    let current = random_layer(t, reach, &slots, &mut rng);
                    let layer = Layer::new(slots, &current.layout, below, Kernel::Widest);
                    let what = format!("O = {ops}, up to {} HP, layer {t}", reach.max_hp());
                    let mut portable = current.values[..current.layout.len()].to_vec();
                    let mut vector = portable.clone();
                    run_phase(&layer, &mut portable, Pairs::Starts, &[], None);
                    run_phase(&layer, &mut vector, Pairs::Starts, &[], Some(avx2));
                    assert_same_bits(&portable, &vector, &format!("{what}, phase 1"));
                    let mut rows = vec![0.0; current.layout.turn_rows_len()];
                    layer.turn_rows(&portable, &mut rows);
                    run_phase(&layer, &mut portable, Pairs::Others, &rows, None);
                    run_phase(&layer, &mut vector, Pairs::Others, &rows, Some(avx2));
                    assert_same_bits(&portable, &vector, &format!("{what}, phase 3"));
                }
            }
        }
    }

    /// `count` random terms whose pieces start in `0..starts`, one in eight of them won, and
    /// one in four starting within 3 values of the layer's start (whose lanes before it a
    /// widened piece takes in).
    fn random_terms(count: usize, starts: usize, rng: &mut SplitMix64) -> Vec<Term> {
        (0..count)
            .map(|_| Term {
                p: value(rng),
                cells: 0,
                loss: 0,
                start: if rng.chance(1, 4) { rng.below(4) } else { rng.below(starts) },
                won: rng.chance(1, 8),
            })
            .collect()
    }

    /// The sums alone, on random values: [`play_cell`] on pieces of 1 to 120 lanes (every
    /// widening to whole vectors, every width of a chunk from 4 to 36 lanes, one to four
    /// chunks, even those no sweep meets) and [`Sums::play_rows`] on 1 to 20 rows (every
    /// count of a pass, one to three passes); then both where their maxima meet zeros of
    /// both signs, which only the order of a maximum's operands tells apart.
    #[test]
    fn the_portable_sums_are_the_avx2_sums() {
        let Some(avx2) = avx2("the_portable_sums_are_the_avx2_sums") else {
            return;
        };
        let mut rng = SplitMix64::new(6);
        let src = values(4_000, &mut rng);
        for lanes in 1..=120 {
            for _ in 0..10 {
                let terms = random_terms(rng.below(40), src.len() - lanes - 4, &mut rng);
                let (win, first_lane, at) = (value(&mut rng), G + rng.below(8), G + rng.below(8));
                let piece = Piece { out: at, lanes, first_lane };
                // Minus infinity on a diagonal's first row, which cannot play, else 0.
                let row_starts: Vec<f64> = (0..first_lane + lanes)
                    .map(|_| if rng.chance(1, 4) { f64::NEG_INFINITY } else { 0.0 })
                    .collect();
                let mut portable = values(at + lanes, &mut rng);
                let mut vector = portable.clone();
                play_cell(Portable, &mut portable, piece, &src, &terms, win, &row_starts);
                play_cell(avx2, &mut vector, piece, &src, &terms, win, &row_starts);
                assert_same_bits(&portable, &vector, &format!("a piece of {lanes} lanes"));
            }
        }
        for count in 1..=20 {
            for _ in 0..20 {
                let mut rows: Vec<PlayRow> =
                    (0..count).map(|row| PlayRow { row, from: rng.below(60) }).collect();
                rng.shuffle(&mut rows);
                let terms = random_terms(rng.below(40), src.len() - 64, &mut rng);
                let win = value(&mut rng);
                let mut portable = values(count * G, &mut rng);
                let mut vector = portable.clone();
                Portable.play_rows(&mut portable, &rows, &src, &terms, win);
                avx2.play_rows(&mut vector, &rows, &src, &terms, win);
                assert_same_bits(&portable, &vector, &format!("{count} rows"));
            }
        }
        // Zeros of both signs in one maximum, where only the order of its operands decides
        // which stays: without terms every sum is `win` (plus 0 on a row that can play).
        let no_starts = vec![0.0; 2 * G + 40];
        for (win, old) in [(0.0, -0.0), (-0.0, 0.0)] {
            for lanes in 1..=40 {
                let piece = Piece { out: G, lanes, first_lane: G };
                let mut portable = vec![old; G + lanes];
                let mut vector = portable.clone();
                play_cell(Portable, &mut portable, piece, &src, &[], win, &no_starts);
                play_cell(avx2, &mut vector, piece, &src, &[], win, &no_starts);
                assert_same_bits(&portable, &vector, &format!("zeros, {lanes} lanes"));
            }
            for count in 1..=10 {
                let rows: Vec<PlayRow> = (0..count).map(|row| PlayRow { row, from: 0 }).collect();
                let mut portable = vec![old; count * G];
                let mut vector = portable.clone();
                Portable.play_rows(&mut portable, &rows, &src, &[], win);
                avx2.play_rows(&mut vector, &rows, &src, &[], win);
                assert_same_bits(&portable, &vector, &format!("zeros, {count} rows"));
            }
        }
    }

    /// Whole sweeps of every position, one with the portable sums and one with the widest the
    /// CPU has (AVX2), give every turn start the same bits.
    #[test]
    fn the_portable_sweep_is_the_avx2_sweep() {
        if avx2("the_portable_sweep_is_the_avx2_sweep").is_none() {
            return;
        }
        for ops in [1, 4, MAX_OPS] {
            let [portable, widest] = [Kernel::Portable, Kernel::Widest]
                .map(|kernel| Tables::sweep(ops, Reach::all(), &[], kernel).0);
            let every = |tables: &Tables| tables.every_start().expect("every position").to_vec();
            assert_same_bits(&every(&portable), &every(&widest), &format!("O = {ops}"));
        }
    }
}
