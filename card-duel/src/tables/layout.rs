//! Where each board pair's cells sit in every layer ([`LayerLayout`], [`Span`]), and the runs
//! of consecutive cells the sweep works on ([`Run`]).

use super::reach::Reach;
use crate::rules::{FACE_DAMAGE, MAX_HP};
use crate::shapes::PAIR_INFO;

/// Where each board pair's cells sit in every layer, for one reach: a pair's span covers its
/// reached mover HP, so a small reach gets small, dense layers and touches few pages.
pub(super) struct LayerLayout {
    /// `spans[t][pair]`: the pair's cells in layer `t`, for `t <= max_total`.
    pub(super) spans: Vec<Vec<Span>>,
    /// Cells of the largest layer.
    pub(super) max_cells: usize,
}

/// One board pair's cells in one layer: mover HP `lo..=hi` (empty when `lo > hi`), stored
/// from cell `first` on in that order. The other HP is `heroes - a`: within a layer a pair's
/// cells share the players' HP sum.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) first: u32,
    pub(super) lo: u8,
    pub(super) hi: u8,
    pub(super) heroes: u8,
}

impl Span {
    /// Number of cells.
    pub(super) fn len(self) -> usize {
        (usize::from(self.hi) + 1).saturating_sub(usize::from(self.lo))
    }
}

/// Consecutive cells of one pair in one layer, all reached: mover HP `a0..a0 + len`, other
/// HP `heroes - a`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) pair: u16,
    pub(super) a0: u8,
    pub(super) len: usize,
    pub(super) heroes: u8,
}

impl Run {
    /// How many of the run's first cells leave the other player more than [`FACE_DAMAGE`] HP,
    /// so that one face attack does not kill him. His HP falls as the mover's rises, so these
    /// come first.
    pub(super) fn other_survives_face(self) -> usize {
        let damage = usize::from(FACE_DAMAGE);
        usize::from(self.heroes).saturating_sub(usize::from(self.a0) + damage).min(self.len)
    }
}

impl LayerLayout {
    /// Spans from the first to the last reached mover HP of each pair and layer (cells in
    /// between that are not reached keep their place but are never computed).
    /// `O(layers * pairs * 20)`.
    pub(super) fn new(reach: &Reach) -> LayerLayout {
        let max = i32::from(MAX_HP);
        let mut spans = Vec::with_capacity(usize::from(reach.max_total()) + 1);
        let mut max_cells = 0;
        for t in 0..=usize::from(reach.max_total()) {
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
        LayerLayout { spans, max_cells }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::PAIRS;

    #[test]
    fn layers_cover_every_cell_once() {
        let mut cells = 0;
        for (t, spans) in LayerLayout::new(&Reach::all()).spans.iter().enumerate() {
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
        assert_eq!(cells, usize::from(MAX_HP).pow(2) * PAIRS);
    }
}
