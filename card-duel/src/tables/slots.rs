//! Which in-turn slots of a cell the sweep stores, and where: the slots of one cell are
//! (plays left, mover's hand, other's hand), and three facts about the game let the sweep keep
//! far fewer of them than `16 * (O + 1)`.
//!
//! 1. **The other's hand has three classes.** It never changes during the mover's turn and only
//!    matters when the turn ends, through the next turn start's value, where that player draws
//!    first: with 2 or 3 cards he draws to 3 either way. So slots with other hand 2 and 3 are
//!    computed by the same operations from the same numbers and are equal bit for bit; one is
//!    kept ([`OTHER_CLASSES`]).
//! 2. **Saturation.** A mover with HP `a` and `h` cards can use at most `a - 1 + h` plays and
//!    hero powers in a turn without killing himself: each hero power costs 2 HP and gives at
//!    most one card, each play needs a card, and an operation that kills the mover is worth 0,
//!    which ending the turn (worth at least 0) already offers. So with `left >= a - 1 + h` the
//!    limit never binds, and by induction over the sweep the values for every such `left` are
//!    the same bits: every operation from `left` reads the same slots below as from
//!    `a - 1 + h`, because it lowers that bound by at least one. A slot is read at its
//!    *effective* `left`, `min(left, a - 1 + h)` ([`Slots::effective_left`]). (The bound is
//!    `a - 1 + h` rather than the tighter `2 * ((a - 1) / 2) + h` so that it moves in step with
//!    `a` along a run of cells; see 4.)
//! 3. **The deficit never grows.** Call `d = a - 1 + h - left` the *deficit* of a slot (how far
//!    the limit binds). A play keeps `left - h` and never raises `a`, a hero power lowers `a` by
//!    2 and `left - h` by 2 (or by 1 with a full hand), attacks change neither: no operation
//!    raises `d`. Turns start with `left = O` and at least one card, so `d <= A + 2 - O` where
//!    `A` is the largest HP of a player in the file ([`Slots::deficit`]). Slots of larger
//!    deficit are never reached and not stored: for O = 20 a cell keeps about 3 of its 21
//!    plays-left rows.
//! 4. **Diagonals.** `k = left - h` is what a play keeps, so a cell keeps its slots by
//!    diagonal, each diagonal's *rows* (one per hand, so one per subplane: plays left and
//!    mover's hand) side by side, each row the [`OTHER_CLASSES`] slots ([`CellDiagonals`]). A
//!    cell with HP `a` has deficit `a - 1 - k` in diagonal `k`, so the diagonal is computed for
//!    the cells with `a` in `k + 1 ..= k + 1 + deficit` (below `k + 1` the slots are
//!    saturated). A play from such a cell reads the row before in the same diagonal, `left -
//!    1` and `a` at most 3 lower, in the layer below: a cell's computed slots read one piece
//!    of each ping outcome's cell, starting one row earlier. The saturated slots of the three
//!    diagonals after a cell's computed ones, which plays and hero powers from above read, are
//!    stored as copies of their effective slots.
//!
//! 5. **A turn starts with a card.** The mover draws before his first operation, so no turn
//!    reaches the slot with O plays left and no card: plays and hero powers use a play, and
//!    attacks keep the slot. It is the only subplane of the last diagonal, `left - h = O`,
//!    which is not stored.
//! 6. **Before the first card.** A card lands as a spent 2-HP minion, and a spent minion
//!    neither attacks nor trades, so only a later play (whose own card lands spent) can
//!    damage it: a pair where the mover has no spent 2-HP minion has seen no play this turn,
//!    only attacks and hero powers. So its cells are reached with `O - k` plays left and
//!    `min(h + k, 3)` cards only (`k` hero powers after a draw to `h`): `O + 4` subplanes of
//!    the `4 (O + 1) - 1`, and such a cell keeps only their effective subplanes
//!    ([`UnplayedRows`], 46% of the cells of every position of O = 5 with 9 rows instead of
//!    23). No operation leads from a pair where a card was played to one where none was.
//!
//! Space per cell: at most `((O + 1) * 4 - 1) * 3` values and, with the deficit, about
//! `min(O + 1, deficit + 4) * 4 * 3`; where no card was played, at most `(O + 4) * 3`.

use super::key::HAND_SIZES;
use crate::rules::{MAX_HAND, MAX_HP, MAX_OPS, PINGS_PER_PLAY};

/// Classes of the other player's hand whose slots differ: 0, 1, and 2 or more cards (from 2
/// and from 3 he draws to [`MAX_HAND`]).
pub(super) const OTHER_CLASSES: usize = MAX_HAND as usize;

/// Hands a mover can hold after his draw, 1 to [`MAX_HAND`]: the turn-start rows of a cell,
/// hand `h` in row `h - 1`.
pub(super) const DRAWN_HANDS: usize = MAX_HAND as usize;

/// The class of an other player's hand of `hand` cards.
pub(super) const fn other_class(hand: usize) -> usize {
    if hand < OTHER_CLASSES { hand } else { OTHER_CLASSES - 1 }
}

/// Saturated cells stored below the computed ones in each diagonal: a play's pings cost the
/// mover at most this much HP, so plays from the lowest computed cells read this far below.
pub(super) const SATURATED_BELOW: i32 = PINGS_PER_PLAY as i32;

/// Most diagonals of a sweep (O = [`MAX_OPS`]).
pub(super) const MAX_DIAGONALS: usize = MAX_OPS as usize + HAND_SIZES - 1;

/// The slot geometry of one sweep: O and the largest deficit, and where a cell keeps its slots.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots {
    /// O: plays and hero powers a turn allows.
    pub(super) ops: usize,
    /// The largest deficit any reached slot has (module notes, 3).
    pub(super) deficit: i32,
    /// `offsets[d]`: the values of diagonals `0..d` in a cell that stored every diagonal.
    offsets: [u16; MAX_DIAGONALS + 1],
    /// `cells[a]`: the diagonals a cell with mover HP `a` stores.
    cells: [CellDiagonals; MAX_HP as usize + 1],
    /// `unplayed[a]`: the rows a cell with mover HP `a` keeps where no card was played.
    unplayed: [UnplayedRows; MAX_HP as usize + 1],
}

/// Most rows a cell keeps where no card was played this turn: the `O + 4` subplanes such a
/// turn reaches, for the largest O.
pub(super) const MAX_UNPLAYED_ROWS: usize = MAX_OPS as usize + HAND_SIZES;

/// The rows a cell keeps where no card was played this turn (module notes, 6): the effective
/// subplanes (2) of those such a turn reaches within the deficit (3), by diagonal, then hand.
/// Each row is the [`OTHER_CLASSES`] slots of one subplane.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct UnplayedRows {
    /// `(left, hand)` of each row.
    rows: [(u8, u8); MAX_UNPLAYED_ROWS],
    len: usize,
}

impl UnplayedRows {
    /// The rows' subplanes, in order.
    pub(super) fn rows(&self) -> impl Iterator<Item = Subplane> + '_ {
        self.rows[..self.len]
            .iter()
            .map(|&(left, hand)| Subplane { left: left.into(), hand: hand.into() })
    }

    /// Number of rows.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The row of `subplane`, if the cell keeps it.
    pub(super) fn row_of(&self, subplane: Subplane) -> Option<usize> {
        self.rows().position(|s| s == subplane)
    }
}

/// The diagonals a cell stores, `first..stored`, of which `first..computed` are computed and
/// `computed..stored` are saturated copies (module notes, 2 and 4): a cell keeps its slots
/// diagonal by diagonal, each diagonal's rows side by side, each row the classes of the
/// other's hand, so its computed slots come first and make one piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CellDiagonals {
    pub(super) first: usize,
    pub(super) computed: usize,
    pub(super) stored: usize,
}

/// One subplane: the slots with `left` plays left and a mover's hand of `hand` cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Subplane {
    pub(super) left: usize,
    pub(super) hand: usize,
}

impl Subplane {
    /// Its diagonal's index: `left - hand` shifted to start at 0.
    pub(super) const fn diagonal(self) -> usize {
        self.left + HAND_SIZES - 1 - self.hand
    }

    /// Its row within its diagonal's cells: the hand, counted from the diagonal's first.
    pub(super) const fn row(self) -> usize {
        self.hand - Slots::first_hand(self.diagonal())
    }
}

impl Slots {
    /// The geometry for O = `ops` when no player has more than `max_hp` HP.
    pub(super) fn new(ops: u8, max_hp: u8) -> Slots {
        let ops = usize::from(ops);
        // A turn starts with `left = O` and a hand of at least one card after the draw, so
        // its deficit is at most `A - 1 + MAX_HAND - O`.
        let deficit = (i32::from(max_hp) - 1 + i32::from(MAX_HAND) - ops as i32).max(0);
        let mut slots = Slots {
            ops,
            deficit,
            offsets: [0; MAX_DIAGONALS + 1],
            cells: [CellDiagonals::default(); MAX_HP as usize + 1],
            unplayed: [UnplayedRows::default(); MAX_HP as usize + 1],
        };
        for d in 0..slots.diagonals() {
            let lanes = slots.width(d) * OTHER_CLASSES;
            slots.offsets[d + 1] = slots.offsets[d] + u16::try_from(lanes).expect("a short cell");
        }
        // A cell above the largest HP of the sweep stores nothing (it is never reached).
        for a in 1..=i32::from(MAX_HP) {
            let diagonals = 0..slots.diagonals();
            let stores = |d: &usize| (slots.stored(*d).0..=slots.stored(*d).1).contains(&a);
            let computes = |d: &usize| (slots.computed(*d).0..=slots.computed(*d).1).contains(&a);
            let (Some(first), Some(computed), Some(stored)) = (
                diagonals.clone().find(stores),
                diagonals.clone().rfind(computes),
                diagonals.clone().rfind(stores),
            ) else {
                continue;
            };
            let (computed, stored) = (computed + 1, stored + 1);
            debug_assert!(diagonals.clone().filter(stores).eq(first..stored), "one piece");
            debug_assert!(diagonals.filter(computes).eq(first..computed), "computed first");
            slots.cells[a as usize] = CellDiagonals { first, computed, stored };
            slots.unplayed[a as usize] = slots.unplayed_rows(a as u8);
        }
        slots
    }

    /// The rows a cell with mover HP `a` keeps where no card was played this turn. Without a
    /// play, `k` operations are `k` hero powers: from a draw to `h` cards, `O - k` plays left
    /// and `min(h + k, MAX_HAND)` cards.
    fn unplayed_rows(&self, a: u8) -> UnplayedRows {
        let cell = self.cell(a);
        let mut rows: Vec<Subplane> = (0..=self.ops)
            .flat_map(|k| {
                (1..=usize::from(MAX_HAND)).map(move |drawn| Subplane {
                    left: self.ops - k,
                    hand: (drawn + k).min(usize::from(MAX_HAND)),
                })
            })
            .map(|s| Slots::effective(a, s.left, s.hand))
            .filter(|s| (cell.first..cell.computed).contains(&s.diagonal()))
            .collect();
        rows.sort_by_key(|s| (s.diagonal(), s.hand));
        rows.dedup();
        let mut unplayed = UnplayedRows { len: rows.len(), ..UnplayedRows::default() };
        for (row, s) in unplayed.rows.iter_mut().zip(&rows) {
            *row = (s.left as u8, s.hand as u8);
        }
        unplayed
    }

    /// The rows a cell with mover HP `a` keeps where no card was played this turn.
    #[inline]
    pub(super) fn unplayed(&self, a: u8) -> &UnplayedRows {
        &self.unplayed[usize::from(a)]
    }

    /// The values a cell with mover HP `a` keeps where no card was played this turn.
    #[inline]
    pub(super) fn unplayed_len(&self, a: u8) -> usize {
        self.unplayed(a).len() * OTHER_CLASSES
    }

    /// The diagonals a cell with mover HP `a` stores.
    #[inline]
    pub(super) fn cell(&self, a: u8) -> CellDiagonals {
        self.cells[usize::from(a)]
    }

    /// Where diagonal `d` starts in a cell that stored every diagonal: the values of the
    /// diagonals before it. A cell's slots of diagonal `d`, row `row`, are at
    /// `offset(d) - offset(first) + row * OTHER_CLASSES` from its first value.
    #[inline]
    pub(super) fn offset(&self, d: usize) -> usize {
        usize::from(self.offsets[d])
    }

    /// The values a cell with mover HP `a` stores.
    #[inline]
    pub(super) fn cell_len(&self, a: u8) -> usize {
        let cell = self.cell(a);
        self.offset(cell.stored) - self.offset(cell.first)
    }

    /// Number of diagonals stored, `O + HAND_SIZES - 1`: all but the last, whose one
    /// subplane (O plays left, no card) no turn reaches (module notes, 5).
    pub(super) const fn diagonals(&self) -> usize {
        self.ops + HAND_SIZES - 1
    }

    /// Every stored subplane, by plays left, then hand.
    #[cfg(test)]
    pub(super) fn all(&self) -> impl Iterator<Item = Subplane> {
        let ops = self.ops;
        (0..=ops)
            .flat_map(|left| (0..HAND_SIZES).map(move |hand| Subplane { left, hand }))
            .filter(move |s| *s != Subplane { left: ops, hand: 0 })
    }

    /// The subplanes of diagonal `diagonal`, by increasing hand.
    #[cfg(test)]
    pub(super) fn of_diagonal(&self, diagonal: usize) -> impl Iterator<Item = Subplane> {
        let first = Slots::first_hand(diagonal);
        (first..first + self.width(diagonal))
            .map(move |hand| Subplane { left: diagonal + hand + 1 - HAND_SIZES, hand })
    }

    /// The smallest mover's hand among the subplanes of `diagonal` (with 0 plays left).
    pub(super) const fn first_hand(diagonal: usize) -> usize {
        (HAND_SIZES - 1).saturating_sub(diagonal)
    }

    /// Number of subplanes of `diagonal`.
    pub(super) fn width(&self, diagonal: usize) -> usize {
        let last = (HAND_SIZES - 1).min(self.ops + HAND_SIZES - 1 - diagonal);
        last + 1 - Slots::first_hand(diagonal)
    }

    /// Mover HP of the cells diagonal `diagonal` computes: unsaturated, within the deficit.
    pub(super) fn computed(&self, diagonal: usize) -> (i32, i32) {
        let first = diagonal as i32 - (HAND_SIZES as i32 - 1) + 1;
        (first, first + self.deficit)
    }

    /// Mover HP of the cells diagonal `diagonal` stores: the computed ones and the
    /// [`SATURATED_BELOW`] copies below them.
    pub(super) fn stored(&self, diagonal: usize) -> (i32, i32) {
        let (first, last) = self.computed(diagonal);
        (first - SATURATED_BELOW, last)
    }

    /// The subplane where the slot (`left`, `hand`) of a cell with mover HP `a` is stored
    /// or computed: `left` capped at `a - 1 + hand` (module notes, 2).
    pub(super) fn effective(a: u8, left: usize, hand: usize) -> Subplane {
        Subplane { left: left.min(usize::from(a) - 1 + hand), hand }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_partition_the_subplanes() {
        for ops in [1u8, 5, 20] {
            let slots = Slots::new(ops, 20);
            let mut seen = vec![false; (slots.ops + 1) * HAND_SIZES];
            for d in 0..slots.diagonals() {
                assert_eq!(slots.of_diagonal(d).count(), slots.width(d));
                for (row, s) in slots.of_diagonal(d).enumerate() {
                    assert_eq!(s.diagonal(), d);
                    assert_eq!(s.row(), row);
                    let index = s.left * HAND_SIZES + s.hand;
                    assert!(!seen[index]);
                    seen[index] = true;
                }
            }
            // Every subplane but the one no turn reaches: O plays left, no card.
            let unreached = slots.ops * HAND_SIZES;
            assert!(seen.iter().enumerate().all(|(i, &s)| s == (i != unreached)));
            assert_eq!(slots.all().count(), seen.len() - 1);
        }
        assert_eq!(Slots::new(20, 20).deficit, 2);
        assert_eq!(Slots::new(5, 20).deficit, 17);
        assert_eq!(Slots::new(20, 5).deficit, 0);
    }

    #[test]
    fn no_operation_leads_to_a_subplane_not_stored() {
        // Turns start in stored subplanes, and every operation from a stored subplane leads
        // to a stored one: so the one left out (O plays left, no card) is never reached.
        for ops in 1..=20u8 {
            let slots = Slots::new(ops, 20);
            let stored: Vec<Subplane> = slots.all().collect();
            let starts = (1..HAND_SIZES).map(|hand| Subplane { left: slots.ops, hand });
            let next = stored.iter().filter(|s| s.left > 0).flat_map(|s| {
                let hand = (s.hand + 1).min(usize::from(MAX_HAND));
                let hero_power = Subplane { left: s.left - 1, hand };
                let play = (s.hand > 0).then(|| Subplane { left: s.left - 1, hand: s.hand - 1 });
                std::iter::once(hero_power).chain(play)
            });
            for s in starts.chain(next) {
                assert!(stored.contains(&s), "O = {ops}: {s:?}");
                assert!(s.diagonal() < slots.diagonals(), "O = {ops}: {s:?}");
            }
        }
    }

    #[test]
    fn a_turn_start_is_computed_where_it_is_stored() {
        // Every turn start (left = O, a hand of 1..=3 after the draw) lands in a computed cell.
        for ops in 1..=20u8 {
            let slots = Slots::new(ops, 20);
            for a in 1..=20u8 {
                for drawn in 1..=3 {
                    let s = Slots::effective(a, slots.ops, drawn);
                    let (lo, hi) = slots.computed(s.diagonal());
                    assert!((lo..=hi).contains(&i32::from(a)), "O = {ops}, a = {a}, {s:?}");
                }
            }
        }
    }
}
