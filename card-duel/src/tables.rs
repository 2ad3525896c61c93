//! The value tables, the fast solver: every turn-start value a file needs, computed once,
//! bottom-up, into a dense table indexed by [`StartKey`] ranks.
//!
//! The game is symmetric, so one table serves both players: `V(start)` is the probability
//! that the player about to start a turn (before his draw) wins. Inside a turn the mover's
//! decision states add which of his minions may still attack, the hero powers plus plays he
//! has left (`0..=O`), and whether he has acted; a *cell* is (board pair, mover HP, other
//! HP), and its *slots* are (plays left, mover's hand, other's hand). Which slots are stored,
//! and where, is the business of `slots`: the other's hand has three classes that matter,
//! plays beyond what the mover's HP and hand allow change nothing (saturation), the limit
//! binds less and less as a turn goes on (the deficit), and no turn has O plays left and no
//! card, so a cell keeps at most `((O + 1) * 4 - 1) * 3` values and, for large O, far fewer.
//!
//! Every operation lowers the total HP on the table (players plus minions): hero power by 2,
//! face by 3, trade by 2 to 4, play by exactly 1 (three pings, then a 2-HP minion). Ending the
//! turn keeps it. So cells are layered by total `t <= 56`; layer `t` needs layers `t-1..t-4`
//! and the turn starts of layer `t`, which need only the best non-ending action. A layer is
//! therefore filled in three phases: (1) the best operation of the cells where every minion
//! is ready, the only ones a turn starts in, from the finished layers below; (2) the
//! turn-start values of layer `t` read off those cells, and their rows set apart; (3) every
//! other cell's best operation, then every cell takes the better of its best operation and
//! ending the turn (`1 - V` of the swapped position, worked out from the rows set apart, run
//! by run while a run's values are in the cache). Phases 1 and 3 run in parallel over chunks
//! of board pairs, and the next layer's layout is built meanwhile. Only five layers are
//! alive at once, each allocated once at the largest layer's length.
//!
//! A cell that face attacks win outright (the other player has no more HP than the mover's
//! ready minions deal) is worth 1 in every slot and is not stored: no attack or hero power
//! of an open cell leads to one, and a play whose pings do adds its outcome's probability.
//!
//! Only cells a file can reach are computed ([`Reach`]): HP and the total HP on the table
//! only fall, so a position reaches a box of HP pairs (and its mirror, for the other player's
//! turns) below its own total. A file of a few positions gets the cells reachable from them
//! marked exactly, which for one typical position is a third or less of its box.
//!
//! Cells of one pair that follow each other in mover HP lead, by an attack, to cells that
//! follow each other in the layer below, so the sweep works on such *runs*: a run's attacks
//! are one pass over contiguous memory, and each play outcome of a cell one multiply-add over
//! contiguous memory (a cell keeps all its slots together). Every slot's value
//! is computed by the same IEEE operations in the same order whatever the layout, the reach or
//! the thread count, so every table agrees with every other to the last bit.
//!
//! Time: `O(slots * (outcomes per play + 8))`, where `slots` is at most 420,000 cells times
//! `((O + 1) * 4 - 1) * 3`, 32.5 outcomes per play on average. Space: the value table (1,440,000
//! `f64`, 11.5 MB; a file of a few positions keeps only its own) plus five layers of at most
//! 18,612 cells and their stored slots (see `slots` and the crate's README for the figures).
//!
//! The parts: `key` places a turn start in the value table ([`StartKey`]); `reach` decides
//! which cells a file needs ([`Reach`]); `slots` which slots of a cell are stored; `layout`
//! places those slots in each layer; `sweep` fills a layer from the layers below (the
//! kernel). This file drives them, layer by layer.

mod key;
mod layout;
mod reach;
mod slots;
mod sweep;

use std::sync::LazyLock;

use engine::memory::HugeZeroed;

pub use key::StartKey;
pub use reach::Reach;

use crate::pings::PINGS;
use crate::rules::{
    Action, FACE_DAMAGE, HERO_POWER_COST, MAX_HP, MAX_MINIONS, MAX_OPS, MINION_HP, PINGS_PER_PLAY,
    Position,
};
use crate::shapes::PAIR_INFO;
use layout::LayerLayout;
use rayon::prelude::*;
use slots::Slots;
use sweep::{Kernel, Layer, LayerValues};

/// Turn-start values for every position within a [`Reach`], for one O.
#[derive(Debug)]
pub struct Tables {
    reach: Reach,
    starts: Starts,
    /// What the sweep computed; `None` for tables read off a tablebase.
    size: Option<SweepSize>,
}

/// How much one sweep computed: its layers, the values of all of them, and the values of the
/// largest, whose length every one of the five live layers is allocated at. Each value is an
/// `f64`, written once and read again by the operations of the four layers above it; the
/// sweep's layer memory grows with `largest_layer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SweepSize {
    /// Layers swept, one per total HP from 0 to the reach's largest.
    pub(crate) layers: usize,
    /// Stored values of every layer.
    pub(crate) values: usize,
    /// Stored values of the largest layer.
    pub(crate) largest_layer: usize,
}

impl std::fmt::Display for SweepSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mb = |values: usize| (values * size_of::<f64>()) as f64 / 1e6;
        write!(
            f,
            "{} layer{}, {} values ({:.1} MB), the largest layer {} ({:.1} MB)",
            self.layers,
            if self.layers == 1 { "" } else { "s" },
            self.values,
            mb(self.values),
            self.largest_layer,
            mb(self.largest_layer)
        )
    }
}

/// The turn-start values a [`Tables`] keeps.
#[derive(Debug)]
enum Starts {
    /// Every turn start within the reach, by [`StartKey`] rank (11.5 MB).
    Every(HugeZeroed),
    /// Only the file's own positions, for an exact reach (a file of a few positions): their
    /// ranks, sorted and distinct, and their values. Nothing in the sweep reads turn starts
    /// from the table (an end of turn reads the cells below), so a single position's sweep
    /// never touches the 11.5 MB of the whole table.
    Positions { ranks: Vec<usize>, values: Vec<f64> },
}

impl Starts {
    /// What `reach` needs: its own positions when it is exact, else every turn start.
    fn for_reach(reach: &Reach) -> Starts {
        match reach.positions() {
            Some(positions) => {
                let mut ranks: Vec<usize> =
                    positions.iter().map(|p| StartKey::of(p).rank()).collect();
                ranks.sort_unstable();
                ranks.dedup();
                Starts::Positions { values: vec![0.0; ranks.len()], ranks }
            }
            None => Starts::Every(HugeZeroed::new(StartKey::CARDINALITY)),
        }
    }

    /// The value kept for the turn start of `rank`, if it is kept.
    #[inline]
    fn get(&self, rank: usize) -> Option<f64> {
        match self {
            Starts::Every(table) => Some(table[rank]),
            Starts::Positions { ranks, values } => {
                ranks.binary_search(&rank).ok().map(|i| values[i])
            }
        }
    }
}

impl Tables {
    /// Computes every turn-start value within `reach`, on the current rayon pool. Time and
    /// space as in the module notes; the result is the same for every thread count.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    #[must_use]
    pub fn build(ops: u8, reach: Reach) -> Tables {
        Tables::sweep(ops, reach, &[], Kernel::Widest).0
    }

    /// [`Tables::build`] over the reach of `probes`, also valuing every legal first action of
    /// E after his draw in each of them, in [`Action::FIRST`] order. The reach follows those
    /// actions even from a position face attacks win, which a value alone would not need.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    #[must_use]
    pub(crate) fn build_probed(ops: u8, probes: &[Position]) -> (Tables, Vec<Vec<(Action, f64)>>) {
        Tables::sweep(ops, Reach::of_probes(probes), probes, Kernel::Widest)
    }

    /// The sweep over every layer of `reach`, bottom-up, valuing the first actions of
    /// `probes` (all within `reach`) as their layer is filled; its phases use `kernel`'s sums.
    fn sweep(
        ops: u8,
        reach: Reach,
        probes: &[Position],
        kernel: Kernel,
    ) -> (Tables, Vec<Vec<(Action, f64)>>) {
        assert!((1..=MAX_OPS).contains(&ops), "O = {ops} is outside 1..={MAX_OPS}");
        debug_assert!(probes.iter().all(|p| reach.contains(p)), "a probe outside the reach");
        // Built here, before any layer, so that no pool thread waits on another's lazy build.
        // A small file's exact reach has already built the ping lists of every pair it plays
        // from; a large file plays from nearly all of them.
        LazyLock::force(&PAIR_INFO);
        if !reach.is_exact() {
            PINGS.build_all();
        }
        let slots = Slots::new(ops, reach.max_hp());
        let threads = rayon::current_num_threads();
        let mut starts = Starts::for_reach(&reach);
        let mut explained = vec![Vec::new(); probes.len()];
        let mut ring: [LayerValues; RING] = Default::default();
        let mut rows = Vec::new();
        // Every layer's values are allocated at the largest layer's length, once: a layer
        // that grew into a fresh allocation would have the kernel fault in and zero its
        // pages again (the layers grow with `t` up to the middle of the sweep).
        let max_total = usize::from(reach.max_total());
        let most = (0..=max_total)
            .into_par_iter()
            .map(|t| LayerLayout::values_len(t, &reach, &slots))
            .max()
            .unwrap_or(0);
        // The layout of the next layer, built while this one is filled (the layers' layouts
        // depend on the reach alone); the ring's oldest layout is reused for it.
        let mut next = LayerLayout::default();
        next.build(0, &reach, &slots, threads);
        let mut size = SweepSize { layers: max_total + 1, values: 0, largest_layer: most };
        for t in 0..=max_total {
            let mut current = std::mem::take(&mut ring[t % RING]);
            std::mem::swap(&mut current.layout, &mut next);
            let len = current.layout.len();
            if current.values.is_empty() {
                // A fresh zeroed allocation: the kernel zeroes its pages as the phases first
                // touch them, on every thread, instead of one thread writing zeros now; pages
                // beyond what the layers of this slot use are never touched. Huge pages, as
                // plays read the layer below at scattered places.
                current.values = HugeZeroed::new(most + sweep::PAST_THE_END);
            }
            debug_assert_eq!(len, LayerLayout::values_len(t, &reach, &slots), "its length");
            assert!(len <= current.values.len(), "no layer is longer than the longest");
            size.values += len;
            {
                let below: [Option<&LayerValues>; MAX_DROP] =
                    std::array::from_fn(|k| (t > k).then(|| &ring[(t - k - 1) % RING]));
                let layer = Layer::new(slots, &current.layout, below, kernel);
                for (probe, out) in probes.iter().zip(&mut explained) {
                    if let Some(actions) = layer.first_actions(probe) {
                        *out = actions;
                    }
                }
                let layer_values = &mut current.values[..len];
                if t < max_total {
                    rayon::join(
                        || layer.fill(layer_values, &mut starts, &mut rows),
                        || next.build(t + 1, &reach, &slots, threads),
                    );
                } else {
                    layer.fill(layer_values, &mut starts, &mut rows);
                }
            }
            ring[t % RING] = current;
        }
        (Tables { reach, starts, size: Some(size) }, explained)
    }

    /// Tables over every cell whose turn-start values are `table`, by [`StartKey`] rank (a
    /// tablebase read back).
    pub(crate) fn from_every_start(table: HugeZeroed) -> Tables {
        assert_eq!(table.len(), StartKey::CARDINALITY, "one value a turn start");
        Tables { reach: Reach::all(), starts: Starts::Every(table), size: None }
    }

    /// What the sweep that built these tables computed; `None` for tables read off a
    /// tablebase.
    #[must_use]
    pub(crate) fn size(&self) -> Option<SweepSize> {
        self.size
    }

    /// Every turn-start value by [`StartKey`] rank, when the tables keep them all (a reach of
    /// more than a few positions).
    pub(crate) fn every_start(&self) -> Option<&[f64]> {
        match &self.starts {
            Starts::Every(table) => Some(table),
            Starts::Positions { .. } => None,
        }
    }

    /// E's winning probability in `position`, or `None` when the tables do not keep it:
    /// outside their reach or, for tables of a few positions (an exact reach), not one of
    /// them. `O(1)`, or `O(log positions)` for a few positions.
    #[inline]
    #[must_use]
    pub fn value(&self, position: &Position) -> Option<f64> {
        if !self.reach.contains(position) {
            return None;
        }
        self.starts.get(StartKey::of(position).rank())
    }

    /// [`Tables::value`] of every position, in order, on the current rayon pool: `None` if
    /// any is outside the reach. A file's positions read the table at random places, so the
    /// reads are made in small groups whose places are computed first: the group's reads
    /// then wait on memory together rather than one after another. `O(positions)`.
    #[must_use]
    pub fn values(&self, positions: &[Position]) -> Option<Vec<f64>> {
        const GROUP: usize = 32;
        let Starts::Every(table) = &self.starts else {
            return positions.iter().map(|p| self.value(p)).collect();
        };
        let mut out = vec![0.0; positions.len()];
        engine::memory::advise_huge_pages(&out);
        let all_reached = out.par_chunks_mut(1 << 12).zip(positions.par_chunks(1 << 12)).all(
            |(out, positions)| {
                out.chunks_mut(GROUP).zip(positions.chunks(GROUP)).all(|(out, group)| {
                    let mut ranks = [0; GROUP];
                    for (rank, p) in ranks.iter_mut().zip(group) {
                        if !self.reach.contains(p) {
                            return false;
                        }
                        *rank = StartKey::of(p).rank();
                    }
                    for (value, &rank) in out.iter_mut().zip(&ranks) {
                        *value = table[rank];
                    }
                    true
                })
            },
        );
        all_reached.then_some(out)
    }
}

/// Largest total HP on the table: two players at [`MAX_HP`] and two full boards of
/// [`MINION_HP`] minions.
const MAX_TOTAL: usize = 2 * (MAX_HP as usize + MAX_MINIONS as usize * MINION_HP as usize);

/// How much a play lowers the total HP: three pings, then a minion.
const PLAY_DROP: usize = (PINGS_PER_PLAY - MINION_HP) as usize;

/// The most one operation lowers the total HP: a trade of two full-HP minions, more than a
/// face attack, a hero power or a play.
const MAX_DROP: usize = 2 * MINION_HP as usize;

const _: () = assert!(
    FACE_DAMAGE as usize <= MAX_DROP
        && HERO_POWER_COST as usize <= MAX_DROP
        && PLAY_DROP <= MAX_DROP
        && PLAY_DROP >= 1
);

/// Layers alive at once: the one being filled and the [`MAX_DROP`] an operation can reach.
const RING: usize = MAX_DROP + 1;
