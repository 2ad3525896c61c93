//! The kernel: filling one layer from the finished layers below it, in three phases (see
//! [`tables`](super)). The two heavy phases split the layer into units, one per chunk of
//! board pairs, and a unit walks its chunk's [`Run`]s of consecutive cells: every operation of
//! a run reads one contiguous piece of a row per subplane of a layer below, and a play's
//! outcomes are read one diagonal at a time, a few hundred kilobytes of the layer below that
//! stay in the core's cache while the unit's pairs use them.

use std::ops::Range;
use std::sync::Mutex;

use engine::memory::HugeZeroed;
use rayon::prelude::*;

use super::key::{HAND_SIZES, StartKey, hand_slot, start_rank};
use super::layout::{Chunk, LayerLayout, Run, bits_between, open_run};
use super::slots::{DRAWN_HANDS, OTHER_CLASSES, SATURATED_BELOW, Slots, Subplane, other_class};
use super::{MAX_DROP, Starts};
use crate::pings::{PINGS, SAFE_HP};
use crate::rules::{Action, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_HP, MAX_OPS, Position};
use crate::shapes::{PAIR_INFO, TurnBoard, pair_index};

/// Values of an illegal action; every real value is in `0..=1`, so it never wins a max.
const ILLEGAL: f64 = -1.0;

/// Slots of one cell in one subplane: one per class of the other player's hand.
const G: usize = OTHER_CLASSES;

/// Most diagonals of a sweep.
const MAX_DIAGONALS: usize = MAX_OPS as usize + HAND_SIZES;

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

/// The open cells of a run that one diagonal computes (won ones are not stored): mover HP
/// `a0..a0 + open`, at least one.
#[derive(Clone, Copy, Debug)]
struct Cells {
    a0: u8,
    open: usize,
}

impl<'a> Layer<'a> {
    pub(super) fn new(
        slots: Slots,
        layout: &'a LayerLayout,
        below: [Option<&'a LayerValues>; MAX_DROP],
    ) -> Layer<'a> {
        Layer { slots, layout, below }
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
        for_each_unit(self.units(values, start_chunks), |unit, terms| {
            self.run_unit(unit, Pairs::Starts, &[], terms);
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
        for_each_unit(self.units(values, &self.layout.chunks), |unit, terms| {
            self.run_unit(unit, Pairs::Others, rows, terms);
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

    /// Phase 1 or 3 of `unit`, with the widest vectors the CPU has.
    fn run_unit(&self, unit: &mut Unit<'_>, pairs: Pairs, rows: &[f64], terms: &mut Vec<Term>) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            self.run_unit_avx2(unit, pairs, rows, terms);
            return;
        }
        self.phase(unit, pairs, rows, terms);
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
        terms: &mut Vec<Term>,
    ) {
        #[target_feature(enable = "avx2")]
        fn phase_avx2(
            layer: &Layer<'_>,
            unit: &mut Unit<'_>,
            pairs: Pairs,
            rows: &[f64],
            terms: &mut Vec<Term>,
        ) {
            layer.phase(unit, pairs, rows, terms);
        }
        // SAFETY: the caller checked that the CPU has AVX2, the only feature enabled.
        unsafe { phase_avx2(self, unit, pairs, rows, terms) }
    }

    /// Phase 1 (`Starts`) or 3 (`Others`, with the turn-start rows `rows`) of `unit`.
    /// Run by run, so that a run's values are still in the core's cache when phase 3 ends
    /// its turns and copies its saturated cells: those read and write only the run's cells,
    /// and the best operations of the other runs read only the layers below.
    #[inline(always)]
    fn phase(&self, unit: &mut Unit<'_>, pairs: Pairs, rows: &[f64], terms: &mut Vec<Term>) {
        for run in self.runs(unit) {
            let info = &PAIR_INFO[usize::from(run.pair)];
            if info.start.is_some() == (pairs == Pairs::Starts) {
                self.best_operations(unit, run, terms);
            }
            if pairs == Pairs::Others {
                self.end_turns(unit, run, rows);
                self.saturate(unit, run);
            }
        }
    }

    /// The runs of `unit`'s chunk.
    fn runs(&self, unit: &Unit<'_>) -> &'a [Run] {
        &self.layout.runs[unit.runs.clone()]
    }

    /// The open cells of `run` that `diagonal` computes, if any.
    #[inline(always)]
    fn computed(&self, diagonal: usize, run: &Run) -> Option<Cells> {
        let (lo, hi) = self.slots.computed(diagonal);
        let first = i32::from(run.a0).max(lo);
        let last = (i32::from(run.a0) + i32::from(run.open) - 1).min(hi);
        (first <= last).then(|| Cells { a0: first as u8, open: (last - first + 1) as usize })
    }

    /// Writes the best operation's value (end of turn excluded) of every open computed cell
    /// of `run` (won cells are not stored): the attacks and hero powers, reading each target
    /// pair's values from one end to the other, then the plays.
    #[inline(always)]
    fn best_operations(&self, unit: &mut Unit<'_>, run: &Run, terms: &mut Vec<Term>) {
        self.attacks(unit, run);
        if PAIR_INFO[usize::from(run.pair)].can_play {
            self.plays(unit, run, terms);
        }
    }

    /// The open computed cells of `run`: the best of the hero power, the face attacks and the
    /// trades (illegal ones count as [`ILLEGAL`]). Their targets are open too, so stored: a
    /// hero power keeps the pair and the other player's HP; a trade keeps his HP and takes one
    /// of the ready minions; a face attack takes 3 of his HP and, by spending one ready
    /// minion, 3 of the damage the others could still deal.
    #[inline(always)]
    fn attacks(&self, unit: &mut Unit<'_>, run: &Run) {
        let pair = usize::from(run.pair);
        let info = &PAIR_INFO[pair];
        let diagonals = self.slots.diagonals();
        let mut cells = [None; MAX_DIAGONALS];
        for (diagonal, cells) in cells.iter_mut().enumerate().take(diagonals) {
            *cells = self.computed(diagonal, run);
        }
        let cells = &cells[..diagonals];
        // Hero power: HERO_POWER_COST HP, a card, one play used; it kills a mover with no more
        // HP than that (worth 0). Without a play left it is illegal.
        for (diagonal, c) in cells.iter().enumerate() {
            let Some(Cells { a0, open }) = *c else { continue };
            let block = self.layout.block(diagonal, pair);
            let at = block.at(0, a0) - unit.first;
            let width = block.cell();
            let dst = &mut unit.values[at..at + open * width];
            let dying =
                (usize::from(HERO_POWER_COST) + 1).saturating_sub(usize::from(a0)).min(open);
            // The rows that gain a card (hand below MAX_HAND) read consecutive rows of one
            // diagonal below, so each cell copies them at once; the full hand's row reads
            // another diagonal.
            let mut gaining: Option<(usize, Subplane)> = None;
            let mut gaining_rows = 0;
            let mut full = None;
            for (row, s) in self.slots.of_diagonal(diagonal).enumerate() {
                if s.left == 0 {
                    fill_cells::<G>(dst, row * G, width, open, ILLEGAL);
                    continue;
                }
                fill_cells::<G>(dst, row * G, width, dying, 0.0);
                if s.hand < usize::from(MAX_HAND) {
                    gaining.get_or_insert((row, s));
                    gaining_rows += 1;
                } else {
                    full = Some((row, s));
                }
            }
            if dying < open {
                let below = self.below(usize::from(HERO_POWER_COST) - 1);
                let a = a0 + dying as u8 - HERO_POWER_COST;
                let dst = &mut dst[dying * width..];
                let cells = open - dying;
                if let Some((row, s)) = gaining {
                    let to = Subplane { left: s.left - 1, hand: s.hand + 1 };
                    let source = below.layout.block(to.diagonal(), pair);
                    let src = &below.values[source.at(to.row(), a)..];
                    let (at, stride) = (row * G, source.cell());
                    match gaining_rows {
                        1 => copy_cells::<G>(dst, at, width, src, stride, cells),
                        2 => copy_cells::<{ 2 * G }>(dst, at, width, src, stride, cells),
                        _ => copy_cells::<{ 3 * G }>(dst, at, width, src, stride, cells),
                    }
                }
                if let Some((row, s)) = full {
                    let to = Subplane { left: s.left - 1, hand: s.hand };
                    let source = below.layout.block(to.diagonal(), pair);
                    let src = &below.values[source.at(to.row(), a)..];
                    copy_cells::<G>(dst, row * G, width, src, source.cell(), cells);
                }
            }
        }
        // Face: the enemy loses FACE_DAMAGE HP (an open cell's enemy survives it: he has more
        // HP than the ready minions deal); the minion is spent. Trade: both minions die, which
        // lowers the total by their HP; no player's HP changes. Both keep the slot, so each
        // is one pass over the run's piece of the target's block.
        let faces = info.face.iter().flatten().map(|&next| (usize::from(FACE_DAMAGE), next));
        let trades = info.trade.iter().enumerate().flat_map(|(i, row)| {
            row.iter().enumerate().filter_map(move |(j, next)| next.map(|next| (i + j + 2, next)))
        });
        for (drop, next) in faces.chain(trades) {
            let layer = self.below(drop - 1);
            for (diagonal, c) in cells.iter().enumerate() {
                let Some(Cells { a0, open }) = *c else { continue };
                debug_assert!(layer.layout.reaches(usize::from(next), a0, open), "reach is closed");
                let block = self.layout.block(diagonal, pair);
                let at = block.at(0, a0) - unit.first;
                let from = layer.layout.block(diagonal, usize::from(next)).at(0, a0);
                let lanes = open * block.cell();
                max_into(&mut unit.values[at..at + lanes], &layer.values[from..from + lanes]);
            }
        }
    }

    /// The plays of the open computed cells of `run`: a card leaves the hand, one play is
    /// used, three pings, then the minion. Slot (left, hand) reads slot (left - 1, hand - 1),
    /// the row before in the same diagonal, of each outcome's cell in the layer below; a
    /// diagonal's first row (no card, or no play left) cannot play. So in a cell the rows
    /// that play are one contiguous piece, and read one contiguous piece of each outcome's
    /// cell; along a run of cells with the same death thresholds the outcomes' cells follow
    /// each other. Each outcome list is read once for every diagonal.
    #[inline(always)]
    fn plays(&self, unit: &mut Unit<'_>, run: &Run, terms: &mut Vec<Term>) {
        let pair = usize::from(run.pair);
        let below = self.below(0);
        let end = usize::from(run.a0) + usize::from(run.open);
        let pings = PINGS.of_pair(pair);
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
            if terms.len() < outcomes.bound() {
                terms.resize(outcomes.bound(), Term::default());
            }
            // Each outcome's probability, target and open cells in the layer below, once for
            // every diagonal.
            let mut alive = 0;
            for (term, o) in terms.iter_mut().zip(outcomes.iter()) {
                let target = usize::from(o.pair);
                *term = Term {
                    p: o.p,
                    open: below.layout.open_word(target),
                    target,
                    loss: o.mover_loss,
                    ..Term::default()
                };
                alive += 1;
            }
            let terms = &mut terms[..alive];
            for diagonal in 0..self.slots.diagonals() {
                let width = self.slots.width(diagonal);
                let (lo, hi) = self.slots.computed(diagonal);
                let first = i32::from(a).max(lo);
                let last = (i32::from(a) + m as i32 - 1).min(hi);
                if width < 2 || first > last {
                    continue;
                }
                let first = first as u8;
                let cells = (last + 1 - i32::from(first)) as usize;
                for term in terms.iter_mut() {
                    let (target, a) = (term.target, first - term.loss);
                    debug_assert!(below.layout.reaches(target, a, cells), "reach is closed");
                    term.start = below.layout.block(diagonal, target).at(0, a);
                    // The pings may leave the other player to the mover's ready minions: the
                    // outcome's cells from there on are won, worth 1, and not stored.
                    term.read = open_run(term.open, a, cells);
                }
                let block = self.layout.block(diagonal, pair);
                let out = block.at(1, first) - unit.first;
                let sums = Sums { out, cells, cell: block.cell() };
                match width {
                    2 => play_sums::<G>(unit.values, sums, &below.values, terms, win),
                    3 => play_sums::<{ 2 * G }>(unit.values, sums, &below.values, terms, win),
                    _ => play_sums::<{ 3 * G }>(unit.values, sums, &below.values, terms, win),
                }
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

    /// Phase 3, the end of the turn: every open computed cell of `run` takes the better of
    /// its best operation and ending the turn. Ending the turn hands the swapped position to
    /// the other player, who starts his turn there, so it is worth 1 - his turn start's value,
    /// read off the turn-start rows `rows`. Won cells are not stored.
    #[inline(always)]
    fn end_turns(&self, unit: &mut Unit<'_>, run: &Run, rows: &[f64]) {
        let pair = usize::from(run.pair);
        // The run's end-of-turn values, `[cell][hand][other's class]`: the cells' rows side
        // by side, each the classes of the other's hand.
        let mut ends = [0.0; MAX_HP as usize * HAND_SIZES * G];
        debug_assert!(
            usize::from(run.open) <= usize::from(MAX_HP),
            "a run has at most one cell a mover HP"
        );
        let next = usize::from(PAIR_INFO[pair].next_start);
        let next_block = self.layout.turn_row_block(next);
        for (cell, a) in ends.chunks_exact_mut(HAND_SIZES * G).zip(run.a0..run.a0 + run.open) {
            // The swapped position's turn-start rows: the other player, with `other` cards,
            // draws (row `other`) and has O plays left.
            let b = run.heroes - a;
            let starts: &[f64; DRAWN_HANDS * G] = if self.layout.won(next, b) {
                &[1.0; DRAWN_HANDS * G]
            } else {
                rows[next_block.at(0, b)..].first_chunk().expect("a cell's turn-start rows")
            };
            for hand in 0..HAND_SIZES {
                for other in 0..G {
                    cell[hand * G + other] = 1.0 - starts[other * G + other_class(hand)];
                }
            }
        }
        let stride = HAND_SIZES * G;
        for diagonal in 0..self.slots.diagonals() {
            let Some(Cells { a0, open }) = self.computed(diagonal, run) else { continue };
            let block = self.layout.block(diagonal, pair);
            let width = block.cell();
            let at = block.at(0, a0) - unit.first;
            let dst = &mut unit.values[at..at + open * width];
            // A cell's rows are consecutive hands, and so are its end-of-turn values: with
            // every hand the cells are one piece, as are their end-of-turn values.
            let from = usize::from(a0 - run.a0) * stride + Slots::first_hand(diagonal) * G;
            match width / G {
                1 => max_cells::<G>(dst, &ends[from..], stride),
                2 => max_cells::<{ 2 * G }>(dst, &ends[from..], stride),
                3 => max_cells::<{ 3 * G }>(dst, &ends[from..], stride),
                _ => {
                    debug_assert_eq!(width, stride, "every hand: the cells' widths agree");
                    max_into(dst, &ends[from..from + open * width]);
                }
            }
        }
    }

    /// Phase 3, last for `run`: in each diagonal, the saturated cells stored below the
    /// computed ones get the values of their effective subplanes, which have fewer plays left
    /// and are finished (the same cells, ended above); plays from the lowest computed cells of
    /// the layers above read them. A saturated cell `a` reads diagonal `a + 2` (plays left
    /// `a - 1 + hand`), whose rows start at hand 0 and cover the copy's hands, so the copy is
    /// one contiguous piece.
    #[inline(always)]
    fn saturate(&self, unit: &mut Unit<'_>, run: &Run) {
        let pair = usize::from(run.pair);
        // Only open cells are stored, so only they get copies.
        let run_bits = bits_between(i32::from(run.a0), i32::from(run.a0 + run.open) - 1);
        for diagonal in 0..self.slots.diagonals() {
            let (lo, _) = self.slots.computed(diagonal);
            let mut copies = run_bits & bits_between(lo - SATURATED_BELOW, lo - 1);
            let block = self.layout.block(diagonal, pair);
            while copies != 0 {
                let a = copies.trailing_zeros() as u8;
                copies &= copies - 1;
                // Hand 0 with `a - 1` plays left: the first row of diagonal `a + 2`.
                let from = Subplane { left: usize::from(a) - 1, hand: 0 };
                debug_assert!(from.diagonal() < diagonal, "a saturated slot has fewer plays left");
                let src = self.layout.slot(from, pair, a) - unit.first;
                let dst = block.at(0, a) - unit.first;
                match block.cell() / G {
                    1 => copy_cell::<G>(unit.values, src, dst),
                    2 => copy_cell::<{ 2 * G }>(unit.values, src, dst),
                    3 => copy_cell::<{ 3 * G }>(unit.values, src, dst),
                    HAND_SIZES => copy_cell::<{ HAND_SIZES * G }>(unit.values, src, dst),
                    rows => unreachable!("a cell of {rows} rows"),
                }
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
/// scratch of terms.
fn for_each_unit<'v>(units: Vec<Unit<'v>>, work: impl Fn(&mut Unit<'v>, &mut Vec<Term>) + Sync) {
    let threads = rayon::current_num_threads().min(units.len());
    let queue = Mutex::new(units.into_iter());
    (0..threads).into_par_iter().for_each(|_| {
        let mut terms = Vec::new();
        loop {
            let next = queue.lock().expect("no thread panics while taking a unit").next();
            let Some(mut unit) = next else { break };
            work(&mut unit, &mut terms);
        }
    });
}

/// One ping outcome of a play, for [`play_sums`]: its probability, where the rows its cells
/// read start in the layer below (the first row of the first cell), and how many of its cells
/// are stored there (the others are won, worth 1), found from the outcome pair's open cells.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Term {
    p: f64,
    start: usize,
    read: usize,
    open: u32,
    /// The outcome's pair.
    target: usize,
    /// The mover's HP the pings take.
    loss: u8,
}

/// Where the sums of a piece go: the first playing row of the first cell, how many cells,
/// and the distance between cells (in the output and in every term's cells alike: one
/// diagonal).
#[derive(Clone, Copy, Debug)]
struct Sums {
    out: usize,
    cells: usize,
    cell: usize,
}

/// For each cell of `sums`, its `T` lanes of playing rows:
/// `max(out, win + sum of p * src[the term's cell..])` over `terms`, the terms added in
/// order, so that the sum of each slot is exactly what a plain loop over the outcomes would
/// compute. Two cells a tile keep their sums in registers while the outcomes stream past.
/// `O(cells * T * terms)`.
#[inline(always)]
fn play_sums<const T: usize>(out: &mut [f64], sums: Sums, src: &[f64], terms: &[Term], win: f64) {
    let mut cell = 0;
    while sums.cells - cell >= 2 {
        play_tile::<T, 2>(out, sums, src, terms, win, cell);
        cell += 2;
    }
    if cell < sums.cells {
        play_tile::<T, 1>(out, sums, src, terms, win, cell);
    }
}

/// One tile of [`play_sums`]: cells `cell..cell + C`.
#[inline(always)]
fn play_tile<const T: usize, const C: usize>(
    out: &mut [f64],
    sums: Sums,
    src: &[f64],
    terms: &[Term],
    win: f64,
    cell: usize,
) {
    let mut tile = [[win; T]; C];
    let offset = cell * sums.cell;
    for term in terms {
        for (c, tile) in tile.iter_mut().enumerate() {
            let x: &[f64; T] = if cell + c < term.read {
                let from = term.start + offset + c * sums.cell;
                src[from..].first_chunk().expect("an outcome's open cells are stored")
            } else {
                &[1.0; T]
            };
            for (sum, &x) in tile.iter_mut().zip(x) {
                *sum += term.p * x;
            }
        }
    }
    for (c, tile) in tile.iter().enumerate() {
        let to = sums.out + offset + c * sums.cell;
        max_into(&mut out[to..to + T], tile);
    }
}

/// Fills lanes `at..at + L` of the first `cells` cells of `dst` (cells `width` apart) with
/// `value`.
#[inline(always)]
fn fill_cells<const L: usize>(dst: &mut [f64], at: usize, width: usize, cells: usize, value: f64) {
    for cell in dst.chunks_exact_mut(width).take(cells) {
        *cell[at..].first_chunk_mut::<L>().expect("lanes within a cell") = [value; L];
    }
}

/// Copies `L` lanes of each of `cells` cells of `src` (`stride` apart, from its start) to lanes
/// `at..at + L` of the cells of `dst` (`width` apart).
#[inline(always)]
fn copy_cells<const L: usize>(
    dst: &mut [f64],
    at: usize,
    width: usize,
    src: &[f64],
    stride: usize,
    cells: usize,
) {
    for (cell, from) in dst.chunks_exact_mut(width).take(cells).zip(src.chunks(stride)) {
        let from: &[f64; L] = from.first_chunk().expect("a stored cell");
        *cell[at..].first_chunk_mut().expect("lanes within a cell") = *from;
    }
}

/// Copies the `L` values at `src` to `dst`, within one slice.
#[inline(always)]
fn copy_cell<const L: usize>(values: &mut [f64], src: usize, dst: usize) {
    let from: [f64; L] = *values[src..].first_chunk().expect("a stored cell");
    *values[dst..].first_chunk_mut().expect("a stored cell") = from;
}

/// [`max_into`] of each cell of `dst` (`L` lanes a cell) from the first `L` lanes of the
/// cells of `src`, `stride` apart.
#[inline(always)]
fn max_cells<const L: usize>(dst: &mut [f64], src: &[f64], stride: usize) {
    for (cell, from) in dst.chunks_exact_mut(L).zip(src.chunks(stride)) {
        let from: &[f64; L] = from.first_chunk().expect("a stored cell");
        max_into(cell, from);
    }
}

/// `dst[i] = max(dst[i], src[i])`, vectorized: `f64::max` costs a maximum and a NaN check a
/// vector, where a plain comparison (no value is NaN) compiles to masked stores, which
/// measured slower.
#[inline(always)]
fn max_into(dst: &mut [f64], src: &[f64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = d.max(s);
    }
}
