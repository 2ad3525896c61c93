//! The kernel: filling one layer of cells from the finished layers below it. A layer is filled
//! in three steps (see [`tables`](super)); each step works on [`Run`]s of consecutive cells,
//! so that every operation streams one contiguous piece of a layer below.

use rayon::prelude::*;

use super::key::{HAND_SIZES, HANDS, hand_slot, start_rank};
use super::layout::{LayerLayout, Run, Span};
use super::reach::Reach;
use super::{MAX_DROP, PLAY_DROP};
use crate::pings::{Outcome, PINGS, PingTable, SAFE_HP};
use crate::rules::{Action, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_HP, Position};
use crate::shapes::{PAIR_INFO, PairInfo, TurnBoard, pair_index};

/// Values of an illegal action; every real value is in `0..=1`, so it never wins a max.
const ILLEGAL: f64 = -1.0;

/// What the sweep knows for the whole file.
pub(super) struct Sweep<'a> {
    ops: usize,
    /// Values of one cell: a plays-left row of [`HANDS`] slots for each of `0..=ops`.
    pub(super) block: usize,
    reach: &'a Reach,
    layout: &'a LayerLayout,
}

impl<'a> Sweep<'a> {
    pub(super) fn new(ops: u8, reach: &'a Reach, layout: &'a LayerLayout) -> Sweep<'a> {
        let ops = usize::from(ops);
        Sweep { ops, block: HANDS * (ops + 1), reach, layout }
    }

    /// The context for filling layer `t`, given layers `t-1..=t-MAX_DROP`.
    pub(super) fn context<'b>(&'b self, t: usize, below: [&'b [f64]; MAX_DROP]) -> Layer<'b> {
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
pub(super) struct Layer<'a> {
    sweep: &'a Sweep<'a>,
    t: usize,
    /// Layers `t-1..=t-MAX_DROP`, finished.
    below: [&'a [f64]; MAX_DROP],
    /// Spans of this layer and of layers `t-1..=t-MAX_DROP`.
    spans: &'a [Span],
    spans_below: [&'a [Span]; MAX_DROP],
    pairs: &'a [PairInfo],
    pings: &'a PingTable,
}

/// Longest run: one cell per mover HP.
const MAX_RUN: usize = MAX_HP as usize;

impl Layer<'_> {
    /// Fills every reached cell of this layer into `layer` and its turn starts into `values`.
    pub(super) fn fill_layer(&self, layer: &mut [f64], values: &mut [f64]) {
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
                    for mover in 0..HAND_SIZES {
                        let drawn = (mover + 1).min(usize::from(MAX_HAND));
                        for other in 0..HAND_SIZES {
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
                    for mover in 0..HAND_SIZES {
                        for other in 0..HAND_SIZES {
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
    /// most [`FACE_DAMAGE`] HP per ready minion, facing with all of them wins: those cells,
    /// the run's last (his HP falls as the mover's rises), are worth 1 whatever else the
    /// mover could do.
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
        // Hero power: HERO_POWER_COST HP, a card, one play used; it kills a mover with no
        // more HP than that. Without a play left (the first row) it is illegal.
        for (i, cell) in scratch.chunks_exact_mut(block).enumerate() {
            let a = a0 + i as u8;
            cell[..HANDS].fill(ILLEGAL);
            if a <= HERO_POWER_COST {
                cell[HANDS..].fill(0.0);
                continue;
            }
            let src = self.target(usize::from(HERO_POWER_COST), pair, a - HERO_POWER_COST, 1);
            for left in 1..=ops {
                for mover in 0..HAND_SIZES {
                    let drawn = (mover + 1).min(usize::from(MAX_HAND));
                    // One mover hand's slots, every other hand.
                    let to = left * HANDS + hand_slot(mover, 0);
                    let from = (left - 1) * HANDS + hand_slot(drawn, 0);
                    cell[to..to + HAND_SIZES].copy_from_slice(&src[from..from + HAND_SIZES]);
                }
            }
        }
        f(Action::HeroPower, scratch);

        // Face: the enemy loses FACE_DAMAGE HP, and dies with that or less; the minion is
        // spent.
        let alive = run.other_survives_face();
        let damage = usize::from(FACE_DAMAGE);
        for (i, next) in info.face.iter().enumerate() {
            let Some(next) = *next else { continue };
            let action = Action::Face { minion_hp: i as u8 + 1 };
            if alive == len {
                f(action, self.target(damage, next, a0, len));
            } else {
                if alive > 0 {
                    scratch[..alive * block].copy_from_slice(self.target(damage, next, a0, alive));
                }
                scratch[alive * block..].fill(1.0);
                f(action, scratch);
            }
        }

        // Trade: both minions die, which lowers the total by their HP; no player's HP changes.
        for (i, row) in info.trade.iter().enumerate() {
            for (j, next) in row.iter().enumerate() {
                if let Some(next) = *next {
                    let action = Action::Trade { minion_hp: i as u8 + 1, target_hp: j as u8 + 1 };
                    f(action, self.target((i + 1) + (j + 1), next, a0, len));
                }
            }
        }

        // Play: a card leaves the hand, one play is used, three pings, then the minion. Slot
        // (left, hand, other hand) of a cell reads slot (left - 1, hand - 1, other hand) of
        // each outcome's cell: the last PLAY_SLOTS slots of each row but the first read the
        // first PLAY_SLOTS of the row before. Along a run of cells with the same death
        // thresholds the outcomes' cells are consecutive, so each outcome streams one piece
        // of the layer.
        if info.can_play {
            let mut i = 0;
            while i < len {
                let a = a0 + i as u8;
                let b = heroes - a;
                // Thresholds are min(hp, SAFE_HP): all cells with both HP at SAFE_HP or more
                // share a list, those from mover HP a up to other HP SAFE_HP.
                let n = if a >= SAFE_HP && b >= SAFE_HP {
                    usize::from(b - SAFE_HP + 1).min(len - i)
                } else {
                    1
                };
                let (win, outcomes) = self.pings.get(usize::from(pair), a, b);
                let acc = &mut scratch[i * block..(i + n) * block];
                acc.fill(win);
                // A block is whole rows, so the cells split into rows without a remainder.
                let (acc, partial) = acc.as_chunks_mut::<HANDS>();
                debug_assert!(partial.is_empty(), "a block is whole rows");
                let from = |o: &Outcome| {
                    let cells = self.target(PLAY_DROP, o.pair, a - o.mover_loss, n);
                    let (rows, partial) = cells.as_chunks::<HANDS>();
                    debug_assert!(partial.is_empty(), "a block is whole rows");
                    rows
                };
                // Four outcomes a pass keep the sum in a register; the additions happen in
                // the same order as one outcome a pass would make them.
                let (groups, rest) = outcomes.as_chunks::<4>();
                for [o0, o1, o2, o3] in groups {
                    let (s0, s1, s2, s3) = (from(o0), from(o1), from(o2), from(o3));
                    let (p0, p1, p2, p3) = (o0.p, o1.p, o2.p, o3.p);
                    for_each_play_row(ops, acc, |r, out| {
                        let (x0, x1, x2, x3) = (&s0[r], &s1[r], &s2[r], &s3[r]);
                        for k in 0..PLAY_SLOTS {
                            let slot = FIRST_PLAY_SLOT + k;
                            out[slot] =
                                out[slot] + p0 * x0[k] + p1 * x1[k] + p2 * x2[k] + p3 * x3[k];
                        }
                    });
                }
                for o in rest {
                    let x = from(o);
                    for_each_play_row(ops, acc, |r, out| {
                        for k in 0..PLAY_SLOTS {
                            out[FIRST_PLAY_SLOT + k] += o.p * x[r][k];
                        }
                    });
                }
                i += n;
            }
            // No play is left, or the hand is empty: those slots are not computed above.
            for cell in scratch.chunks_exact_mut(block) {
                let (no_play_left, rows) = cell.split_at_mut(HANDS);
                no_play_left.fill(ILLEGAL);
                for row in rows.chunks_exact_mut(HANDS) {
                    row[..FIRST_PLAY_SLOT].fill(ILLEGAL);
                }
            }
            f(Action::Play, scratch);
        }
    }

    /// E's first actions in `position` when its cell is in this layer.
    pub(super) fn first_actions(&self, position: &Position) -> Option<Vec<(Action, f64)>> {
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

/// The first slot of a plays-left row where the mover holds a card: the slots before it are
/// his empty hand, from which no card can be played.
const FIRST_PLAY_SLOT: usize = hand_slot(1, 0);

/// Slots of a plays-left row that a play can fill: mover hand `1..=MAX_HAND`, any other hand.
/// A play from slot `FIRST_PLAY_SLOT + k` reads slot `k` (one card fewer) of the row before.
const PLAY_SLOTS: usize = HANDS - FIRST_PLAY_SLOT;

/// Calls `f(r, row)` for every row of `rows` (blocks of `ops + 1` rows, one per plays left)
/// but a block's first, with `r` the index of the row before: a play from the row's slots
/// `FIRST_PLAY_SLOT..` reads row `r`'s first [`PLAY_SLOTS`] slots.
#[inline(always)]
fn for_each_play_row(
    ops: usize,
    rows: &mut [[f64; HANDS]],
    mut f: impl FnMut(usize, &mut [f64; HANDS]),
) {
    debug_assert_eq!(rows.len() % (ops + 1), 0, "rows come in whole blocks");
    for (c, cell) in rows.chunks_exact_mut(ops + 1).enumerate() {
        for (left, row) in cell.iter_mut().enumerate().skip(1) {
            f(c * (ops + 1) + left - 1, row);
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
