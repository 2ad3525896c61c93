//! Which cells a file can reach ([`Reach`]), and the word-parallel walk that marks them one by
//! one for a small file ([`mark_reachable`]), the pairs of a layer in parallel.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{MAX_DROP, MAX_TOTAL, PLAY_DROP};
use crate::pings::PINGS;
use crate::rules::{FACE_DAMAGE, HERO_POWER_COST, MAX_HP, Position};
use crate::shapes::{PAIR_INFO, PAIRS, PairInfo, TurnBoard, pair_index};

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
    /// `box_words[s]`: bit `a` set when mover HP `a` and other HP `s - a` are in the box.
    box_words: [u32; MAX_HEROES + 1],
    /// The cells marked one by one, for a file of at most [`Reach::EXACT_UP_TO`] positions.
    marked: Option<Marked>,
}

/// The cells a few positions reach, marked one by one.
#[derive(Clone, Debug)]
struct Marked {
    /// The positions marked from (the file's).
    positions: Vec<Position>,
    /// `cells[t][pair]` has bit `a` set when the cell of `pair` with mover HP `a` in layer
    /// `t` is reached.
    cells: Vec<Vec<u32>>,
}

/// What a file asks of its positions, which decides how far the marking of a small file goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    /// Their values: a position won by face attacks is worth 1 and needs no cell below it.
    Values,
    /// The values of their first actions, as [`Tables::build_probed`](super::Tables) gives:
    /// every first action is followed, even from a position face attacks win.
    FirstActions,
}

impl Reach {
    /// Files with at most this many positions get their reachable cells marked one by one.
    pub const EXACT_UP_TO: usize = 32;

    /// Every cell: all positions of one O.
    #[must_use]
    pub fn all() -> Reach {
        let mut max_other = [MAX_HP; MAX_HP as usize + 1];
        max_other[0] = 0;
        Reach {
            max_other,
            max_total: MAX_TOTAL as u8,
            box_words: box_words(&max_other),
            marked: None,
        }
    }

    /// The cells reachable from `positions` that their values need. `O(positions + 20)`, plus
    /// for a few positions a walk over their reachable cells,
    /// `O(cells * (outcomes of a play + 8))`.
    #[must_use]
    pub fn of(positions: &[Position]) -> Reach {
        Reach::new(positions, Asked::Values)
    }

    /// [`Reach::of`], also reaching everything the first actions of `positions` lead to: a
    /// position won by face attacks needs no cell below for its value, but does to value its
    /// other first actions.
    pub(super) fn of_probes(positions: &[Position]) -> Reach {
        Reach::new(positions, Asked::FirstActions)
    }

    fn new(positions: &[Position], asked: Asked) -> Reach {
        // The box of each chunk of positions, on the current rayon pool, then their union: a
        // file of every position has 1,440,000 of them.
        let boxed = |mut max: ([u8; MAX_HP as usize + 1], u8), p: &Position| {
            let (e, s) = (usize::from(p.e_hp), usize::from(p.teacher_hp));
            max.0[e] = max.0[e].max(p.teacher_hp);
            max.0[s] = max.0[s].max(p.e_hp);
            max.1 = max.1.max(p.total_hp());
            max
        };
        let union = |mut a: ([u8; MAX_HP as usize + 1], u8), b: ([u8; MAX_HP as usize + 1], u8)| {
            a.0.iter_mut().zip(b.0).for_each(|(a, b)| *a = (*a).max(b));
            (a.0, a.1.max(b.1))
        };
        let empty = || ([0u8; MAX_HP as usize + 1], 0u8);
        let (mut max_other, max_total) =
            positions.par_iter().with_min_len(1 << 14).fold(empty, boxed).reduce(empty, union);
        // A box reaching HP a also reaches every lower HP with the same other HP.
        for a in (1..MAX_HP as usize).rev() {
            max_other[a] = max_other[a].max(max_other[a + 1]);
        }
        max_other[0] = 0;
        let marked = (positions.len() <= Reach::EXACT_UP_TO).then(|| {
            // The marking follows plays through the ping lists, so another thread builds them
            // meanwhile, ahead of it, until the marking is done.
            let marking = AtomicBool::new(true);
            let (cells, ()) = rayon::join(
                || {
                    let cells = mark_reachable(positions, usize::from(max_total), asked);
                    marking.store(false, Ordering::Relaxed);
                    cells
                },
                || PINGS.build_while(|| marking.load(Ordering::Relaxed)),
            );
            Marked { positions: positions.to_vec(), cells }
        });
        Reach { max_other, max_total, box_words: box_words(&max_other), marked }
    }

    /// Whether `position` is reached (its value is in tables built for this reach). `O(1)`.
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
    fn contains_hp(&self, a: u8, b: u8) -> bool {
        a <= MAX_HP && b >= 1 && b <= self.max_other[usize::from(a)]
    }

    /// Whether cell (`pair`, `a`, `b`) of layer `t <= max_total` is reached.
    #[inline]
    pub(super) fn contains_cell(&self, t: usize, pair: usize, a: u8, b: u8) -> bool {
        self.contains_hp(a, b)
            && self.marked.as_ref().is_none_or(|marked| marked.cells[t][pair] >> a & 1 == 1)
    }

    /// Bit `a` set when the cell of `pair` with mover HP `a` and other HP `heroes - a` in
    /// layer `t <= max_total` is reached. `O(1)`.
    #[inline]
    pub(super) fn layer_word(&self, t: usize, pair: usize, heroes: u8) -> u32 {
        let boxed = self.box_words.get(usize::from(heroes)).copied().unwrap_or(0);
        match &self.marked {
            Some(marked) => boxed & marked.cells[t][pair],
            None => boxed,
        }
    }

    /// The most HP a player has in any reached position.
    pub(super) fn max_hp(&self) -> u8 {
        self.max_other.iter().rposition(|&b| b > 0).map_or(0, |a| a as u8)
    }

    /// The largest total HP reached (players plus minions).
    pub(super) fn max_total(&self) -> u8 {
        self.max_total
    }

    /// Whether the reachable cells are marked one by one (a file of at most
    /// [`Reach::EXACT_UP_TO`] positions) rather than taken as whole HP boxes.
    pub(super) fn is_exact(&self) -> bool {
        self.marked.is_some()
    }

    /// The positions an exact reach was marked from; `None` when it is not exact.
    pub(super) fn positions(&self) -> Option<&[Position]> {
        self.marked.as_ref().map(|marked| marked.positions.as_slice())
    }
}

/// Largest sum of the players' HP.
const MAX_HEROES: usize = 2 * MAX_HP as usize;

/// For each sum `s` of the players' HP, the mover HP `a` whose pair `(a, s - a)` is in the box
/// `max_other`.
fn box_words(max_other: &[u8; MAX_HP as usize + 1]) -> [u32; MAX_HEROES + 1] {
    std::array::from_fn(|heroes| {
        (1..=MAX_HP)
            .filter(|&a| {
                let b = heroes as i32 - i32::from(a);
                b >= 1 && b <= i32::from(max_other[usize::from(a)])
            })
            .fold(0, |word, a| word | 1 << a)
    })
}

/// Marks the cells reachable from `positions`, layer by layer from the top: a cell's
/// operations lead to lower layers, ending the turn to the same layer. A position face attacks
/// win is followed only when its first actions are asked. A pair's cells in a layer are one
/// word with a bit per mover HP, so each operation moves all of them at once: a play outcome
/// costing the mover `d` HP shifts the word right by `d`.
/// `O(layers * pairs * (outcomes of a play + 8))`.
fn mark_reachable(positions: &[Position], max_total: usize, asked: Asked) -> Vec<Vec<u32>> {
    let pairs = &*PAIR_INFO;
    let mut marks = vec![vec![0u32; PAIRS]; max_total + 1];
    // The positions whose every first action is followed, even where face attacks win.
    let mut expanded = vec![vec![0u32; PAIRS]; max_total + 1];
    for p in positions {
        let pair = pair_index(TurnBoard::ready(p.e_board), p.teacher_board);
        marks[usize::from(p.total_hp())][pair] |= 1 << p.e_hp;
        if asked == Asked::FirstActions {
            expanded[usize::from(p.total_hp())][pair] |= 1 << p.e_hp;
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
        // else, unless it is an expanded position of the file.
        let open = |pair: usize, info: &PairInfo, word: u32| {
            let won = word & !below(i32::from(heroes(info)) - i32::from(info.lethal));
            word & !(won & !expanded[t][pair])
        };
        // Ending the turn swaps the HP into the next turn start's pair, in the same layer;
        // repeat until the layer is closed under it.
        let mut changed = true;
        while changed {
            changed = false;
            for (pair, info) in pairs.iter().enumerate() {
                let word = open(pair, info, layer[pair]);
                if word == 0 {
                    continue;
                }
                // Mover HP `a` becomes the other's, `heroes - a`: the word reversed within
                // bits `0..=heroes`.
                let swapped = (u64::from(word).reverse_bits() >> (63 - heroes(info))) as u32;
                let next = &mut layer[usize::from(info.next_start)];
                changed |= *next | swapped != *next;
                *next |= swapped;
            }
        }
        // The operations of every open cell, pairs in parallel: each chunk of pairs gathers
        // what it reaches in the layers below, `reached[(drop - 1) * PAIRS + pair]`, and the
        // chunks' words are or-ed together.
        let layer = &*layer;
        let reached = (0..PAIRS)
            .into_par_iter()
            .with_min_len(64)
            .fold(
                || vec![0u32; MAX_DROP * PAIRS],
                |mut reached, pair| {
                    let info = &pairs[pair];
                    let word = open(pair, info, layer[pair]);
                    if word != 0 {
                        operations(t, pair, info, word, &mut reached);
                    }
                    reached
                },
            )
            .reduce(
                || vec![0u32; MAX_DROP * PAIRS],
                |mut all, some| {
                    all.iter_mut().zip(&some).for_each(|(all, some)| *all |= some);
                    all
                },
            );
        for (drop, words) in reached.chunks_exact(PAIRS).enumerate() {
            if let Some(below) = t.checked_sub(drop + 1) {
                lower[below].iter_mut().zip(words).for_each(|(to, from)| *to |= from);
            }
        }
    }
    marks
}

/// What the operations of the open cells `word` of `pair` in layer `t` reach below, or-ed
/// into `reached[(drop - 1) * PAIRS + pair]` for the layer `drop` below.
fn operations(t: usize, pair: usize, info: &PairInfo, word: u32, reached: &mut [u32]) {
    let below = |n: i32| if n >= 32 { u32::MAX } else { (1u32 << n.max(0)) - 1 };
    let mut reach = |drop: usize, target: usize, bits: u32| {
        if t >= drop {
            reached[(drop - 1) * PAIRS + target] |= bits;
        }
    };
    let sum = (t as u8).wrapping_sub(info.hp);
    let heroes = i32::from(sum);
    // Cells whose other player survives a face attack: other HP > FACE_DAMAGE, that is mover
    // HP a < heroes - FACE_DAMAGE.
    let survives_face = word & below(heroes - i32::from(FACE_DAMAGE));
    // Hero power from more HP than it costs; with no more, it kills the mover.
    let survives = word & !below(i32::from(HERO_POWER_COST) + 1);
    reach(usize::from(HERO_POWER_COST), pair, survives >> HERO_POWER_COST);
    if survives_face != 0 {
        for &next in info.face.iter().flatten() {
            reach(usize::from(FACE_DAMAGE), usize::from(next), survives_face);
        }
    }
    // A trade removes a minion of HP i + 1 and one of HP j + 1.
    for (i, row) in info.trade.iter().enumerate() {
        for (j, next) in row.iter().enumerate() {
            if let Some(next) = *next {
                reach((i + 1) + (j + 1), usize::from(next), word);
            }
        }
    }
    if info.can_play {
        // The outcomes with both players alive are, at any HP, those of the safe list (where
        // the pings cannot kill) that take less than each player's HP (`pings::Alive`), so
        // each moves every cell it applies to at once: mover HP a > mover_loss and other HP
        // heroes - a > other_loss.
        for o in PINGS.of_pair(pair).safe() {
            let alive = word
                & !below(i32::from(o.mover_loss) + 1)
                & below(heroes - i32::from(o.other_loss));
            if alive != 0 {
                reach(PLAY_DROP, usize::from(o.pair), alive >> o.mover_loss);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::rules::Board;
    use crate::tables::StartKey;

    /// Number of cells marked one by one; `None` for whole HP boxes.
    fn marked_cells(reach: &Reach) -> Option<usize> {
        let cells = &reach.marked.as_ref()?.cells;
        Some(cells.iter().flatten().map(|word| word.count_ones() as usize).sum())
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
        let hp_pairs =
            |reach: &Reach| reach.max_other.iter().map(|&b| usize::from(b)).sum::<usize>();
        let reach = Reach::of(&[p(5, 14), p(2, 2)]);
        assert_eq!(hp_pairs(&reach), 5 * 14 + 14 * 5 - 25);
        assert!(reach.contains_hp(14, 5) && reach.contains_hp(5, 14) && reach.contains_hp(1, 1));
        assert!(!reach.contains_hp(6, 6) && !reach.contains_hp(15, 1));
        assert_eq!(reach.max_total(), 19);
        let with_minion = Position { e_board: Board { ones: 1, twos: 0 }, ..p(5, 14) };
        assert!(reach.contains(&p(5, 14)) && !reach.contains(&with_minion));
        assert_eq!(hp_pairs(&Reach::all()), 400);
    }

    /// The reachable cells by a plain walk over single cells, to check the word-wise one: the
    /// successors of every cell except those won by face attacks, unless expanded.
    fn reachable_cell_by_cell(positions: &[Position], asked: Asked) -> BTreeSet<(usize, u16, u8)> {
        let mut seen = BTreeSet::new();
        let starts: Vec<(usize, u16, u8)> = positions
            .iter()
            .map(|p| {
                let pair = pair_index(TurnBoard::ready(p.e_board), p.teacher_board) as u16;
                (usize::from(p.total_hp()), pair, p.e_hp)
            })
            .collect();
        let mut work = starts.clone();
        while let Some((t, pair, a)) = work.pop() {
            if !seen.insert((t, pair, a)) {
                continue;
            }
            let info = &PAIR_INFO[usize::from(pair)];
            let b = t as u8 - info.hp - a;
            let won = b <= info.lethal;
            if won && !(asked == Asked::FirstActions && starts.contains(&(t, pair, a))) {
                continue;
            }
            if a > HERO_POWER_COST {
                let cost = usize::from(HERO_POWER_COST);
                work.push((t - cost, pair, a - HERO_POWER_COST));
            }
            if b > FACE_DAMAGE {
                let damage = usize::from(FACE_DAMAGE);
                work.extend(info.face.iter().flatten().map(|&next| (t - damage, next, a)));
            }
            for (i, row) in info.trade.iter().enumerate() {
                work.extend(
                    row.iter()
                        .enumerate()
                        .filter_map(|(j, next)| next.map(|next| (t - (i + 1) - (j + 1), next, a))),
                );
            }
            if info.can_play {
                work.extend(
                    PINGS
                        .get(usize::from(pair), a, b)
                        .1
                        .iter()
                        .map(|o| (t - PLAY_DROP, o.pair, a - o.mover_loss)),
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
            for asked in [Asked::Values, Asked::FirstActions] {
                let reach = Reach::new(&positions, asked);
                let expected = reachable_cell_by_cell(&positions, asked);
                assert_eq!(marked_cells(&reach), Some(expected.len()));
                for &(t, pair, a) in &expected {
                    let b = t as u8 - PAIR_INFO[usize::from(pair)].hp - a;
                    assert!(reach.contains_cell(t, usize::from(pair), a, b));
                }
                assert!(positions.iter().all(|p| reach.contains(p)));
            }
        }
        assert_eq!(marked_cells(&Reach::of(&[won])), Some(1));
        let many = vec![StartKey::unrank(0).position(); Reach::EXACT_UP_TO + 1];
        assert_eq!(marked_cells(&Reach::of(&many)), None);
    }
}
