//! Where one layer's values sit ([`LayerLayout`]): which cells of each board pair the file
//! reaches, their [`Run`]s, and the place of every stored slot.
//!
//! The layer's values are one piece per board pair, in pair order, and a pair's piece holds
//! its stored cells by mover HP, each cell its stored slots `[diagonal][hand row][other's
//! hand class]` (see [`slots`](super::slots): a cell's computed diagonals first, then its
//! saturated copies). So a run of cells is one contiguous piece, and an attack of a run,
//! which keeps every slot and the mover HP, is one pass over one piece of the target pair's;
//! a play of one cell reads one piece of each outcome's cell; a chunk of pairs is one
//! contiguous piece of the layer. The turn-start rows (the values a turn start and the end of
//! a turn read, kept apart before the end of the turn changes them) are laid out by blocks,
//! `[cell][hand after the draw][other's hand class]`, one block per pair where turns start
//! over its open reached cells. Rebuilt for every layer in `O(pairs * MAX_HP)`, reusing its
//! vectors.

use std::ops::Range;

use super::reach::Reach;
use super::slots::{DRAWN_HANDS, OTHER_CLASSES, Slots, Subplane};
use crate::rules::MAX_HP;
use crate::shapes::{PAIR_INFO, PAIRS};

/// Cells of one layer: where each reached cell sits in every subplane.
#[derive(Debug, Default)]
pub(super) struct LayerLayout {
    /// The layer's total HP.
    pub(super) t: usize,
    /// `reached[pair]`: bit `a` set when the pair's cell with mover HP `a` is reached.
    pub(super) reached: Vec<u32>,
    /// `open[pair]`: bit `a` set when the pair's cell with mover HP `a` is not won outright,
    /// reached or not.
    open: Vec<u32>,
    /// Maximal runs of consecutive reached cells, by pair.
    pub(super) runs: Vec<Run>,
    /// `cells[pair * CELLS + a]`: where cell (`pair`, `a`) would keep diagonal 0 (its first
    /// value, less the offset of its first diagonal: [`Slots::offset`]), or, in a pair where
    /// no card was played, its first value; [`NOT_STORED`] when it is not stored.
    cells: Vec<i32>,
    /// The slot geometry of the sweep.
    slots: Option<Slots>,
    /// `unplayed[pair]`: whether no card was played in `pair` ([`PairInfo::unplayed`]), whose
    /// cells keep their rows.
    unplayed: Vec<bool>,
    /// `starts[pair]..starts[pair + 1]`: the pair's values in the layer.
    starts: Vec<usize>,
    /// Each pair's block in the turn-start rows (a row per hand after the draw); only pairs
    /// where turns start have one.
    turn_rows: Vec<Block>,
    /// `turn_row_starts[pair]..turn_row_starts[pair + 1]`: the pair's turn-start rows.
    turn_row_starts: Vec<usize>,
    /// Chunks of pairs cut by their cells where no turn starts (some minion spent), shrinking
    /// along the layer ([`LayerLayout::split_chunks`]), for phase 3, which computes their
    /// best operation.
    pub(super) chunks: Vec<Chunk>,
    /// Chunks of pairs cut the same way by their cells where turns start (every minion
    /// ready), for phase 1, which computes only those: they are not spread evenly over the
    /// pairs, and chunks of all cells leave some threads nearly idle.
    pub(super) start_chunks: Vec<Chunk>,
}

/// Consecutive reached cells of one pair in one layer: mover HP `a0..a0 + len`, other HP
/// `heroes - a`; the first `open` are not won by face attacks outright.
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) pair: u16,
    pub(super) a0: u8,
    pub(super) len: u8,
    pub(super) open: u8,
    pub(super) heroes: u8,
}

/// Where one pair's cells sit in one diagonal or in the turn-start rows, cell by cell, each
/// cell's rows side by side: the slots of cell `a` in row `row` start at
/// `base + a * cell + row * OTHER_CLASSES`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Block {
    base: i32,
    cell: u32,
}

impl Block {
    /// The first value of cell `a` in row `row`. The cell must be stored.
    #[inline]
    pub(super) fn at(self, row: usize, a: u8) -> usize {
        let place = i64::from(self.base)
            + i64::from(a) * i64::from(self.cell)
            + (row * OTHER_CLASSES) as i64;
        debug_assert!(place >= 0, "cell {a} of row {row} is not stored in {self:?}");
        place as usize
    }
}

/// A range of pairs with the runs of its pairs, and the range of its values in the layer and
/// in the turn-start rows.
#[derive(Clone, Debug, Default)]
pub(super) struct Chunk {
    pub(super) runs: Range<usize>,
    pub(super) values: Range<usize>,
    pub(super) turn_rows: Range<usize>,
}

/// Cells a pair has in [`LayerLayout::cell_bases`], one a mover HP (`0` never stored).
pub(super) const CELLS: usize = MAX_HP as usize + 1;

/// The base of a cell that is not stored (not reached, or won).
pub(super) const NOT_STORED: i32 = i32::MIN;

/// Bits `0..n` of a word, for any `n`.
pub(super) fn bits_below(n: i32) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n.max(0)) - 1 }
}

/// Bits `lo..=hi` of a word.
pub(super) fn bits_between(lo: i32, hi: i32) -> u32 {
    bits_below(hi + 1) & !bits_below(lo)
}

impl LayerLayout {
    /// Lays out layer `t` for `reach` and `slots`, its chunks cut for `threads` threads.
    /// `O(pairs * (diagonals + 20))`.
    pub(super) fn build(&mut self, t: usize, reach: &Reach, slots: &Slots, threads: usize) {
        self.t = t;
        self.reached.clear();
        self.runs.clear();
        self.open.clear();
        self.open.extend((0..PAIRS).map(|pair| open_word(t, pair)));
        for (pair, info) in PAIR_INFO.iter().enumerate() {
            let heroes = t as i32 - i32::from(info.hp);
            let word = reached_word(t, pair, reach);
            self.reached.push(word);
            // Cells where the other player has at most `lethal` HP are won: those with
            // a >= heroes - lethal.
            let open = self.open[pair];
            let mut rest = word;
            while rest != 0 {
                let a0 = rest.trailing_zeros();
                let len = (!(rest >> a0)).trailing_zeros();
                let run = bits_between(a0 as i32, (a0 + len) as i32 - 1);
                rest &= !run;
                self.runs.push(Run {
                    pair: pair as u16,
                    a0: a0 as u8,
                    len: len as u8,
                    open: (run & open).count_ones() as u8,
                    heroes: heroes as u8,
                });
            }
        }

        self.slots = Some(*slots);
        self.unplayed.clear();
        self.unplayed.extend(PAIR_INFO.iter().map(|info| info.unplayed));
        self.cells.clear();
        self.cells.resize(PAIRS * CELLS, NOT_STORED);
        self.starts.clear();
        let mut next = 0;
        for (pair, &word) in self.reached.iter().enumerate() {
            self.starts.push(next);
            // Won cells are worth 1 whatever the slot: they are not stored.
            let mut word = word & self.open[pair];
            let unplayed = PAIR_INFO[pair].unplayed;
            while word != 0 {
                let a = word.trailing_zeros() as u8;
                word &= word - 1;
                let before = if unplayed { 0 } else { slots.offset(slots.cell(a).first) };
                let base = next as i64 - before as i64;
                self.cells[pair * CELLS + usize::from(a)] =
                    i32::try_from(base).expect("a layer has fewer than 2^31 values");
                next += cell_len(slots, pair, a);
            }
        }
        self.starts.push(next);

        self.turn_rows.clear();
        self.turn_row_starts.clear();
        let mut next = 0;
        for (pair, &word) in self.reached.iter().enumerate() {
            self.turn_row_starts.push(next);
            let word = if PAIR_INFO[pair].start.is_some() { word & self.open[pair] } else { 0 };
            let (block, len) = block_of(word, DRAWN_HANDS, next).unwrap_or_default();
            self.turn_rows.push(block);
            next += len;
        }
        self.turn_row_starts.push(next);

        self.chunks = self
            .split_chunks(threads.max(1), |run| PAIR_INFO[usize::from(run.pair)].start.is_none());
        self.start_chunks = self
            .split_chunks(threads.max(1), |run| PAIR_INFO[usize::from(run.pair)].start.is_some());
    }

    /// The number of values layer `t` stores ([`LayerLayout::len`] once built), without
    /// laying it out. `O(pairs * MAX_HP)`.
    pub(super) fn values_len(t: usize, reach: &Reach, slots: &Slots) -> usize {
        let mut len = 0;
        for pair in 0..PAIRS {
            let mut word = reached_word(t, pair, reach) & open_word(t, pair);
            while word != 0 {
                len += cell_len(slots, pair, word.trailing_zeros() as u8);
                word &= word - 1;
            }
        }
        len
    }

    /// Splits the runs into ranges of whole pairs (covering every run, in order) for
    /// `threads` threads that take them in order as they come free: one range for one
    /// thread; else shares of the cells of the runs that `counts` shrinking along the layer
    /// (each a `GUIDED` share per thread of the cells left, at least a `SMALLEST` share per
    /// thread of all), so that the ranges taken last are small and the threads end together.
    fn split_chunks(&self, threads: usize, counts: impl Fn(&Run) -> bool) -> Vec<Chunk> {
        const GUIDED: usize = 2;
        const SMALLEST: usize = 64;
        let weight = |run: &Run| if counts(run) { usize::from(run.len) } else { 0 };
        let cells: usize = self.runs.iter().map(weight).sum();
        let smallest = cells.div_ceil(SMALLEST * threads).max(1);
        let share = |left: usize| {
            if threads == 1 { usize::MAX } else { left.div_ceil(GUIDED * threads).max(smallest) }
        };
        let mut split = Vec::new();
        let mut start = 0;
        let mut in_chunk = 0;
        let mut left = cells;
        let mut per_chunk = share(left);
        for i in 0..self.runs.len() {
            in_chunk += weight(&self.runs[i]);
            let last_of_pair =
                self.runs.get(i + 1).is_none_or(|next| next.pair != self.runs[i].pair);
            if last_of_pair && (in_chunk >= per_chunk || i + 1 == self.runs.len()) {
                let pairs = usize::from(self.runs[start].pair)..usize::from(self.runs[i].pair) + 1;
                split.push(Chunk {
                    runs: start..i + 1,
                    values: self.starts[pairs.start]..self.starts[pairs.end],
                    turn_rows: self.turn_row_starts[pairs.start]..self.turn_row_starts[pairs.end],
                });
                start = i + 1;
                left -= in_chunk;
                in_chunk = 0;
                per_chunk = share(left);
            }
        }
        split
    }

    /// Whether the `n` cells of `pair` from mover HP `a0` are all reached.
    pub(super) fn reaches(&self, pair: usize, a0: u8, n: usize) -> bool {
        let cells = bits_between(i32::from(a0), i32::from(a0) + n as i32 - 1);
        self.reached[pair] & cells == cells
    }

    /// Whether cell (`pair`, `a`) is won outright (face attacks kill the other player): its
    /// every slot is worth 1, and it is not stored.
    #[inline]
    pub(super) fn won(&self, pair: usize, a: u8) -> bool {
        self.open[pair] >> a & 1 == 0
    }

    /// Values of the whole layer.
    pub(super) fn len(&self) -> usize {
        *self.starts.last().expect("a layout is built before it is used")
    }

    /// The bases of every cell ([`LayerLayout::base`]), cell (`pair`, `a`) at
    /// `pair * CELLS + a`; [`NOT_STORED`] for a cell not stored.
    #[inline]
    pub(super) fn all_bases(&self) -> &[i32] {
        &self.cells
    }

    /// Where cell (`pair`, `a`) would keep diagonal 0: its diagonal `d` starts
    /// [`Slots::offset`]`(d)` values later. The cell must be stored.
    #[inline]
    pub(super) fn base(&self, pair: usize, a: u8) -> usize {
        let base = self.cells[pair * CELLS + usize::from(a)];
        debug_assert_ne!(base, NOT_STORED, "cell ({pair}, {a}) is not stored");
        base as usize
    }

    /// The first value of cell (`pair`, `a`), which must be stored.
    #[inline(always)]
    pub(super) fn cell_start(&self, pair: usize, a: u8) -> usize {
        if self.unplayed[pair] {
            return self.base(pair, a);
        }
        let slots = self.slots.as_ref().expect("a layout is built before it is used");
        self.base(pair, a).wrapping_add(slots.offset(slots.cell(a).first))
    }

    /// The values cell (`pair`, `a`) keeps, stored or not.
    #[inline]
    pub(super) fn cell_len(&self, pair: usize, a: u8) -> usize {
        let slots = self.slots.as_ref().expect("a layout is built before it is used");
        if self.unplayed[pair] { slots.unplayed_len(a) } else { slots.cell_len(a) }
    }

    /// The first slot of cell (`pair`, `a`) in `subplane`, within the layer's values. The
    /// cell must be stored there: in a pair where no card was played, `subplane` must be the
    /// effective subplane of one such a turn reaches.
    #[inline]
    pub(super) fn slot(&self, subplane: Subplane, pair: usize, a: u8) -> usize {
        let slots = self.slots.as_ref().expect("a layout is built before it is used");
        if self.unplayed[pair] {
            let row = slots.unplayed(a).row_of(subplane);
            let row = row.expect("a subplane a turn without a play reaches");
            return self.base(pair, a) + row * OTHER_CLASSES;
        }
        debug_assert!(
            (slots.cell(a).first..slots.cell(a).stored).contains(&subplane.diagonal()),
            "{subplane:?} of a cell with mover HP {a} is not stored"
        );
        (self.base(pair, a))
            .wrapping_add(slots.offset(subplane.diagonal()) + subplane.row() * OTHER_CLASSES)
    }

    /// The block of `pair` in the turn-start rows; only a pair where turns start has one.
    #[inline]
    pub(super) fn turn_row_block(&self, pair: usize) -> Block {
        self.turn_rows[pair]
    }

    /// Length of the turn-start rows.
    pub(super) fn turn_rows_len(&self) -> usize {
        *self.turn_row_starts.last().expect("a layout is built before it is used")
    }
}

/// The values cell (`pair`, `a`) keeps: its rows where no card was played, else its
/// diagonals.
fn cell_len(slots: &Slots, pair: usize, a: u8) -> usize {
    if PAIR_INFO[pair].unplayed { slots.unplayed_len(a) } else { slots.cell_len(a) }
}

/// The cells of `pair` in layer `t` that face attacks do not win outright: bit `a` for mover
/// HP `a` when the other player has more HP than the mover's ready minions deal.
fn open_word(t: usize, pair: usize) -> u32 {
    let info = &PAIR_INFO[pair];
    bits_below(t as i32 - i32::from(info.hp) - i32::from(info.lethal))
}

/// The cells of `pair` that layer `t` reaches: bit `a` for mover HP `a` when reached (both
/// players with HP in `1..=MAX_HP`).
fn reached_word(t: usize, pair: usize, reach: &Reach) -> u32 {
    let heroes = t as i32 - i32::from(PAIR_INFO[pair].hp);
    if heroes < 2 {
        return 0;
    }
    // Both players have 1..=MAX_HP: a in heroes - MAX_HP..=heroes - 1.
    let max = i32::from(MAX_HP);
    let valid = bits_between((heroes - max).max(1), (heroes - 1).min(max));
    reach.layer_word(t, pair, heroes as u8) & valid
}

/// The block of a pair whose stored cells are the bits of `word`, with `rows` rows, placed at
/// `next`, and its length; `None` when it stores no cell.
fn block_of(word: u32, rows: usize, next: usize) -> Option<(Block, usize)> {
    if word == 0 {
        return None;
    }
    let first = word.trailing_zeros() as usize;
    let last = 31 - word.leading_zeros() as usize;
    let cell = rows * OTHER_CLASSES;
    let base = next as i64 - (first * cell) as i64;
    let block = Block {
        base: i32::try_from(base).expect("a layer has fewer than 2^31 values"),
        cell: u32::try_from(cell).expect("a cell is short"),
    };
    Some((block, (last - first + 1) * cell))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_cover_every_cell_once() {
        let reach = Reach::all();
        for ops in [1, 5, 20] {
            let slots = Slots::new(ops, MAX_HP);
            let mut layout = LayerLayout::default();
            let mut cells = 0;
            for t in 0..=usize::from(reach.max_total()) {
                layout.build(t, &reach, &slots, 3);
                assert_eq!(LayerLayout::values_len(t, &reach, &slots), layout.len());
                let (mut in_runs, mut open_starts) = (0, 0);
                for run in &layout.runs {
                    let pair = usize::from(run.pair);
                    let info = &PAIR_INFO[pair];
                    for a in run.a0..run.a0 + run.len {
                        let b = run.heroes - a;
                        assert!((1..=MAX_HP).contains(&a) && (1..=MAX_HP).contains(&b));
                        assert_eq!(usize::from(a + b + info.hp), t);
                        let open = a < run.a0 + run.open;
                        assert_eq!(open, b > info.lethal);
                        assert_eq!(layout.won(pair, a), !open);
                        let base = layout.all_bases()[pair * CELLS + usize::from(a)];
                        assert_eq!(base == NOT_STORED, !open, "open cells are stored");
                    }
                    in_runs += usize::from(run.len);
                    if info.start.is_some() {
                        open_starts += usize::from(run.open);
                    }
                }
                // Turn-start rows, and all values, are stored for open cells only.
                assert_eq!(layout.turn_rows_len(), open_starts * DRAWN_HANDS * OTHER_CLASSES);
                // Both chunkings cover every run and every value, in order, without a gap.
                for chunks in [&layout.chunks, &layout.start_chunks] {
                    let chunked: usize = chunks.iter().map(|c| c.runs.len()).sum();
                    assert_eq!(chunked, layout.runs.len());
                    for pair in chunks.windows(2) {
                        assert_eq!(pair[0].runs.end, pair[1].runs.start);
                        assert_eq!(pair[0].values.end, pair[1].values.start);
                        assert_eq!(pair[0].turn_rows.end, pair[1].turn_rows.start);
                    }
                    if let (Some(first), Some(last)) = (chunks.first(), chunks.last()) {
                        assert_eq!((first.values.start, last.values.end), (0, layout.len()));
                    }
                }
                // Every stored slot has its own place, inside its chunk's values.
                let mut places = Vec::new();
                for chunk in &layout.chunks {
                    for run in &layout.runs[chunk.runs.clone()] {
                        let pair = usize::from(run.pair);
                        for a in run.a0..run.a0 + run.open {
                            // A pair where no card was played keeps only the rows such a
                            // turn reaches; any other, every diagonal its cells store.
                            let stored: Vec<_> = if PAIR_INFO[pair].unplayed {
                                slots.unplayed(a).rows().collect()
                            } else {
                                let stores = |s: &Subplane| {
                                    let (lo, hi) = slots.stored(s.diagonal());
                                    (lo..=hi).contains(&i32::from(a))
                                };
                                slots.all().filter(stores).collect()
                            };
                            for s in stored {
                                let at = layout.slot(s, pair, a);
                                assert!(at + OTHER_CLASSES <= chunk.values.end);
                                assert!(at >= chunk.values.start);
                                places.push(at);
                            }
                        }
                    }
                }
                let count = places.len();
                places.sort_unstable();
                places.dedup();
                assert_eq!(places.len(), count);
                cells += in_runs;
            }
            assert_eq!(cells, usize::from(MAX_HP).pow(2) * PAIRS);
        }
    }

    /// The sweep keeps five layers, each as large as the largest it ever held: for every O,
    /// a file of every position needs at most 80 MB for them (the README's memory budget).
    #[test]
    fn five_layers_of_every_position_fit_in_80_mb() {
        let reach = Reach::all();
        let mut largest = (0, 0);
        for ops in 1..=crate::rules::MAX_OPS {
            let slots = Slots::new(ops, MAX_HP);
            let mut layout = LayerLayout::default();
            let mut max_len = 0;
            for t in 0..=usize::from(reach.max_total()) {
                layout.build(t, &reach, &slots, 1);
                max_len = max_len.max(layout.len());
            }
            largest = largest.max((max_len, usize::from(ops)));
        }
        let bytes = 5 * largest.0 * size_of::<f64>();
        assert!(bytes <= 80 << 20, "O = {}: {bytes} bytes", largest.1);
        // The largest is for a middle O: below it the plays left grow, above it the deficit
        // shrinks.
        assert!((8..=15).contains(&largest.1), "largest at O = {}", largest.1);
    }
}
