//! What playing a card can lead to: for every board pair, the distribution of the three pings'
//! results, aggregated by how much HP each hero lost and the boards left behind (with the new
//! minion already on the mover's board), and for every pair of small hero HP the probability
//! that the other player dies.
//!
//! A ping hits one of the `k + 2` characters, so minions of one class (ready 1-HP, spent 1-HP,
//! ready 2-HP, spent 2-HP, enemy 1-HP, enemy 2-HP) are one branch weighted by their count: at
//! most 8 branches a ping and 512 paths. Deaths depend on the order of the hero hits only
//! when a hero has at most 3 HP, so paths are first aggregated by (sequence of hero hits,
//! boards), then each of the 16 combinations of thresholds `min(hp, 4)` is derived from those.
//! HP only fall during the pings, so a path leaves both players alive exactly when its final
//! losses are below their HP: the outcomes at any HP are those of the one list where no ping
//! can kill that take less than each player's HP, with the same probabilities, added in the
//! same order ([`Alive`]). Only that list is stored, with the 16 probabilities of a win.
//!
//! A pair's lists are built the first time they are asked for: a small file plays from a few
//! hundred of the 1050 pairs at most, and building all of them was most of a trivial run's
//! time. A large file builds them all in parallel up front ([`PingTable::build_all`]); while
//! a small file's cells are marked, a spare thread builds ahead ([`PingTable::build_while`]).
//!
//! Build: `O(512)` for a pair's paths plus `O(16 * aggregated)`. Space: 16 bytes per outcome,
//! 17,070 outcomes for all pairs (the 16 lists filtered from them would hold 189,060).

use std::sync::{LazyLock, OnceLock};

use rayon::prelude::*;

use crate::rules::{Board, MAX_MINIONS, PINGS_PER_PLAY};
use crate::shapes::{PAIRS, READY1, READY2, SPENT1, SPENT2, TurnBoard, pair_index, pair_of};

/// The ping outcomes of every board pair, each pair's built on first use and kept for the
/// process: they depend on nothing but the pair.
pub(crate) static PINGS: LazyLock<PingTable> = LazyLock::new(PingTable::new);

/// One way a play can end with both players alive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    /// Its probability.
    pub p: f64,
    /// HP the mover lost.
    pub mover_loss: u8,
    /// HP the other player lost.
    pub other_loss: u8,
    /// The board pair after the pings, the played minion included (spent).
    pub pair: u16,
}

/// A hero with this much HP or more survives the pings of one play whatever they hit.
pub(crate) const SAFE_HP: u8 = PINGS_PER_PLAY + 1;

/// Death thresholds are `min(hp, SAFE_HP)`: from `SAFE_HP` up the pings cannot kill, so such
/// HP share one outcome list.
const THRESHOLDS: usize = SAFE_HP as usize;

/// The outcome lists of every board pair whose mover may play (fewer than four minions),
/// each pair's built on first use.
#[derive(Debug)]
pub(crate) struct PingTable {
    pairs: Vec<OnceLock<PairPings>>,
}

/// One pair's outcomes where no ping can kill, and the probability of a win by thresholds.
#[derive(Debug)]
pub(crate) struct PairPings {
    /// `wins[list_slot(ta, tb)]`: the probability that the other player dies during the
    /// pings, with death thresholds `ta` and `tb`.
    wins: [f64; THRESHOLDS * THRESHOLDS],
    /// The outcomes with both players at `SAFE_HP` or more, in list order.
    outcomes: Vec<Outcome>,
}

impl PairPings {
    /// The probability that a play wins at once (the other player dies) and the outcomes with
    /// both players alive, with hero HP `mover_hp` and `other_hp`. `O(1)`.
    #[inline]
    pub(crate) fn get(&self, mover_hp: u8, other_hp: u8) -> (f64, Alive<'_>) {
        let win = self.wins[list_slot(mover_hp.min(SAFE_HP), other_hp.min(SAFE_HP))];
        (win, Alive { outcomes: &self.outcomes, mover_hp, other_hp })
    }

    /// The outcomes where no ping can kill (both players at `SAFE_HP` or more).
    #[inline]
    pub(crate) fn safe(&self) -> &[Outcome] {
        &self.outcomes
    }
}

/// The outcomes of a play that leave both players alive, with hero HP `mover_hp` and
/// `other_hp`: those of the safe list that take less than each player's HP, in its order.
/// Each has the probability it has there: every path to it leaves both players alive.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alive<'a> {
    outcomes: &'a [Outcome],
    mover_hp: u8,
    other_hp: u8,
}

impl<'a> Alive<'a> {
    /// The outcomes, in list order. `O(safe outcomes)`.
    #[inline]
    pub(crate) fn iter(self) -> impl Iterator<Item = &'a Outcome> {
        let Alive { outcomes, mover_hp, other_hp } = self;
        outcomes.iter().filter(move |o| o.mover_loss < mover_hp && o.other_loss < other_hp)
    }
}

/// A path's hero hits in order: `1 << len | bits`, bit `i` set when hit `i` struck the other
/// player. Distinct for every sequence of up to three hits.
type Pattern = u8;

/// Class counts during the pings: the mover's four classes ([`READY1`] to [`SPENT2`]), then
/// the other side's [`ENEMY1`] and [`ENEMY2`].
type Counts = [u8; CLASSES];

/// The other side's 1-HP minions in [`Counts`].
const ENEMY1: usize = 4;
/// The other side's 2-HP minions in [`Counts`].
const ENEMY2: usize = 5;
/// Minion classes a ping can hit.
const CLASSES: usize = 6;

impl PingTable {
    /// An empty table; each pair's lists are built on first use. `O(pairs)`.
    pub(crate) fn new() -> PingTable {
        PingTable { pairs: (0..PAIRS).map(|_| OnceLock::new()).collect() }
    }

    /// Builds every pair's lists now, the pairs in parallel on the current rayon pool, so that
    /// no pool thread later waits on another's build. Time and space as in the module notes.
    pub(crate) fn build_all(&self) {
        self.pairs.par_iter().enumerate().for_each(|(pair, lists)| {
            if pair_of(pair).0.len() < MAX_MINIONS {
                lists.get_or_init(|| pair_lists(pair));
            }
        });
    }

    /// Builds pairs' lists in pair order, on the calling thread, while `more` says so: a
    /// helper that gets them ready ahead of whoever will ask for them. `O(pairs)` at most.
    pub(crate) fn build_while(&self, more: impl Fn() -> bool) {
        for (pair, lists) in self.pairs.iter().enumerate() {
            if !more() {
                return;
            }
            if pair_of(pair).0.len() < MAX_MINIONS {
                lists.get_or_init(|| pair_lists(pair));
            }
        }
    }

    /// The probability that a play wins at once (the other player dies) and the outcomes with
    /// both players alive, for `pair` with hero HP `mover_hp` and `other_hp`. `O(1)` once the
    /// pair's lists are built.
    #[inline]
    pub(crate) fn get(&self, pair: usize, mover_hp: u8, other_hp: u8) -> (f64, Alive<'_>) {
        self.of_pair(pair).get(mover_hp, other_hp)
    }

    /// The outcome lists of `pair`, built if they were not; `O(1)` once built. A run of cells
    /// of one pair asks for them once rather than once a cell.
    #[inline]
    pub(crate) fn of_pair(&self, pair: usize) -> &PairPings {
        self.pairs[pair].get_or_init(|| pair_lists(pair))
    }

    /// Total number of stored outcomes.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.pairs.iter().filter_map(OnceLock::get).map(|p| p.outcomes.len()).sum()
    }
}

/// One pair's safe outcomes and 16 probabilities of a win.
fn pair_lists(pair: usize) -> PairPings {
    let (mover, other) = pair_of(pair);
    let mut paths = Vec::with_capacity(512);
    let [ready1, spent1, ready2, spent2] = mover.0;
    let counts = [ready1, spent1, ready2, spent2, other.ones, other.twos];
    enumerate(counts, PINGS_PER_PLAY, 1.0, 1, &mut paths);
    // One entry per (boards after, hero hits in order), sorted so that entries with equal
    // boards and equal losses are adjacent: every threshold's outcomes then merge in one pass.
    let mut ends: Vec<(u16, u8, u8, Pattern, f64)> = paths
        .iter()
        .map(|&(pattern, counts, p)| {
            let (lost_m, lost_o) = hits(pattern);
            (after_play(counts) as u16, lost_m, lost_o, pattern, p)
        })
        .collect();
    // A stable sort by (pair, losses, pattern): equal entries keep the order the paths were
    // walked in, which fixes the order their probabilities are added in. Packing the key and
    // the entry's place into one integer gives that order with a fast unstable sort.
    let key = |i: usize, &(pair, lost_m, lost_o, pattern, _): &(u16, u8, u8, Pattern, f64)| {
        u64::from(pair) << 40
            | u64::from(lost_m) << 32
            | u64::from(lost_o) << 24
            | u64::from(pattern) << 16
            | i as u64
    };
    let mut order: Vec<u64> = ends.iter().enumerate().map(|(i, end)| key(i, end)).collect();
    order.sort_unstable();
    let ends_sorted: Vec<_> = order.iter().map(|&k| ends[(k & 0xffff) as usize]).collect();
    ends = ends_sorted;
    ends.dedup_by(|later, kept| {
        let same = (later.0, later.3) == (kept.0, kept.3);
        if same {
            kept.4 += later.4;
        }
        same
    });
    // Each threshold's win adds the entries where the other player dies first, in order.
    let mut wins = [0.0; THRESHOLDS * THRESHOLDS];
    for &(_, _, _, pattern, p) in &ends {
        let mut slots = OTHER_DIES[usize::from(pattern)];
        while slots != 0 {
            wins[slots.trailing_zeros() as usize] += p;
            slots &= slots - 1;
        }
    }
    // With both players at SAFE_HP or more every path leaves them alive: entries with equal
    // boards and losses, adjacent, add up into one outcome.
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(ends.len());
    for &(pair, mover_loss, other_loss, _, p) in &ends {
        match outcomes.last_mut() {
            Some(last)
                if (last.pair, last.mover_loss, last.other_loss)
                    == (pair, mover_loss, other_loss) =>
            {
                last.p += p;
            }
            _ => outcomes.push(Outcome { p, mover_loss, other_loss, pair }),
        }
    }
    outcomes.shrink_to_fit();
    PairPings { wins, outcomes }
}

const fn list_slot(ta: u8, tb: u8) -> usize {
    (ta as usize - 1) * THRESHOLDS + (tb as usize - 1)
}

/// For each hero-hit pattern, bit [`list_slot`]`(ta, tb)` set when with death thresholds `ta`
/// and `tb` the other player dies first.
const OTHER_DIES: [u16; 1 << (PINGS_PER_PLAY + 1)] = {
    let mut masks = [0; 1 << (PINGS_PER_PLAY + 1)];
    let mut pattern = 1;
    while pattern < masks.len() {
        let mut ta = 1;
        while ta <= SAFE_HP {
            let mut tb = 1;
            while tb <= SAFE_HP {
                if let Fate::OtherDies = fate(pattern as Pattern, ta, tb) {
                    masks[pattern] |= 1 << list_slot(ta, tb);
                }
                tb += 1;
            }
            ta += 1;
        }
        pattern += 1;
    }
    masks
};

/// Walks every path of `left` more pings, pushing `(hero-hit pattern, counts, probability)`.
fn enumerate(
    counts: Counts,
    left: u8,
    p: f64,
    pattern: Pattern,
    out: &mut Vec<(Pattern, Counts, f64)>,
) {
    if left == 0 {
        out.push((pattern, counts, p));
        return;
    }
    let minions: u8 = counts.iter().sum();
    let targets = f64::from(minions + 2);
    let len = 7 - pattern.leading_zeros() as u8;
    let bits = pattern & ((1 << len) - 1);
    let hero = |other: u8| (1 << (len + 1)) | bits | (other << len);
    enumerate(counts, left - 1, p / targets, hero(0), out);
    enumerate(counts, left - 1, p / targets, hero(1), out);
    for class in 0..CLASSES {
        if counts[class] == 0 {
            continue;
        }
        let mut next = counts;
        next[class] -= 1;
        // A 2-HP minion survives a ping as a 1-HP minion of the same side and mark.
        match class {
            READY2 => next[READY1] += 1,
            SPENT2 => next[SPENT1] += 1,
            ENEMY2 => next[ENEMY1] += 1,
            _ => {}
        }
        enumerate(next, left - 1, p * f64::from(counts[class]) / targets, pattern, out);
    }
}

enum Fate {
    MoverDies,
    OtherDies,
    /// Both alive after all three pings.
    Alive,
}

/// How many of a pattern's hits struck the mover and the other player.
fn hits(pattern: Pattern) -> (u8, u8) {
    let len = 7 - pattern.leading_zeros() as u8;
    let other = (pattern & ((1 << len) - 1)).count_ones() as u8;
    (len - other, other)
}

/// Replays a hero-hit pattern against thresholds: the first player whose losses reach his
/// threshold dies and the game stops there.
const fn fate(pattern: Pattern, ta: u8, tb: u8) -> Fate {
    let len = 7 - pattern.leading_zeros() as u8;
    let (mut lost_m, mut lost_o) = (0, 0);
    let mut i = 0;
    while i < len {
        if pattern >> i & 1 == 1 {
            lost_o += 1;
            if lost_o >= tb {
                return Fate::OtherDies;
            }
        } else {
            lost_m += 1;
            if lost_m >= ta {
                return Fate::MoverDies;
            }
        }
        i += 1;
    }
    Fate::Alive
}

/// The board pair after the pings with the played 2-HP minion put down, spent.
fn after_play(counts: Counts) -> usize {
    let [ready1, spent1, ready2, spent2, enemy1, enemy2] = counts;
    let mover = TurnBoard([ready1, spent1, ready2, spent2 + 1]);
    pair_index(mover, Board { ones: enemy1, twos: enemy2 })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn probabilities_sum_to_one_and_hp_is_conserved() {
        let table = PingTable::new();
        table.build_all();
        assert!(table.len() > 0);
        for pair in 0..PAIRS {
            let (mover, other) = pair_of(pair);
            if mover.len() >= MAX_MINIONS {
                continue;
            }
            let before = u32::from(mover.hp() + other.hp());
            for ta in 1..=SAFE_HP {
                for tb in 1..=SAFE_HP {
                    let (win, outs) = table.get(pair, ta, tb);
                    let alive: f64 = outs.iter().map(|o| o.p).sum();
                    let outs: Vec<&Outcome> = outs.iter().collect();
                    assert!(win >= 0.0 && alive <= 1.0 + 1e-12);
                    if ta == SAFE_HP && tb == SAFE_HP {
                        assert!(win == 0.0 && (alive - 1.0).abs() < 1e-12, "pair {pair}");
                    }
                    for o in outs {
                        let (m, t) = pair_of(usize::from(o.pair));
                        let lost = 3 - u32::from(o.mover_loss + o.other_loss);
                        assert_eq!(u32::from(m.hp() + t.hp()), before - lost + 2);
                        assert!(o.mover_loss < ta && o.other_loss < tb);
                    }
                }
            }
        }
    }

    /// What the three pings lead to, played out one by one.
    #[derive(Default)]
    struct PlayedOut {
        /// Both players alive: probability by (boards after, mover's loss, other's loss).
        alive: BTreeMap<(u16, u8, u8), f64>,
        /// The other player dies.
        win: f64,
        /// The mover dies.
        dies: f64,
    }

    /// The three pings played out one by one with the heroes' real HP, straight from the
    /// rules.
    fn played_out(pair: usize, mover_hp: u8, other_hp: u8) -> PlayedOut {
        fn ping(
            hp: (u8, u8),
            left: u8,
            p: f64,
            counts: Counts,
            ends: &mut PlayedOut,
            start: (u8, u8),
        ) {
            if hp.0 == 0 {
                ends.dies += p;
                return;
            }
            if hp.1 == 0 {
                ends.win += p;
                return;
            }
            if left == 0 {
                let key = (after_play(counts) as u16, start.0 - hp.0, start.1 - hp.1);
                *ends.alive.entry(key).or_insert(0.0) += p;
                return;
            }
            // Every character one by one: the two heroes, then each minion of each class.
            let characters = 2 + counts.iter().map(|&c| usize::from(c)).sum::<usize>();
            let p = p / characters as f64;
            ping((hp.0 - 1, hp.1), left - 1, p, counts, ends, start);
            ping((hp.0, hp.1 - 1), left - 1, p, counts, ends, start);
            for class in 0..CLASSES {
                for _ in 0..counts[class] {
                    let mut next = counts;
                    next[class] -= 1;
                    match class {
                        READY2 => next[READY1] += 1,
                        SPENT2 => next[SPENT1] += 1,
                        ENEMY2 => next[ENEMY1] += 1,
                        _ => {}
                    }
                    ping(hp, left - 1, p, next, ends, start);
                }
            }
        }
        let (mover, other) = pair_of(pair);
        let [ready1, spent1, ready2, spent2] = mover.0;
        let counts = [ready1, spent1, ready2, spent2, other.ones, other.twos];
        let mut ends = PlayedOut::default();
        let start = (mover_hp, other_hp);
        ping(start, PINGS_PER_PLAY, 1.0, counts, &mut ends, start);
        ends
    }

    /// Every pair's outcomes at every HP near death, filtered from the one safe list, are the
    /// pings played out with those HP: the same outcomes, their probabilities and the win's.
    #[test]
    fn alive_outcomes_at_any_hp_are_the_pings_played_out() {
        let table = PingTable::new();
        for pair in 0..PAIRS {
            if pair_of(pair).0.len() >= MAX_MINIONS {
                continue;
            }
            for mover_hp in 1..=SAFE_HP + 1 {
                for other_hp in 1..=SAFE_HP + 1 {
                    let PlayedOut { alive, win, dies } = played_out(pair, mover_hp, other_hp);
                    let (got_win, got) = table.get(pair, mover_hp, other_hp);
                    let got: Vec<_> = got.iter().collect();
                    assert_eq!(got.len(), alive.len(), "pair {pair}, HP {mover_hp} {other_hp}");
                    for (o, (&(to, m, t), &p)) in got.iter().zip(&alive) {
                        assert_eq!((o.pair, o.mover_loss, o.other_loss), (to, m, t));
                        assert!((o.p - p).abs() < 1e-15, "pair {pair}: {} against {p}", o.p);
                    }
                    assert!((got_win - win).abs() < 1e-15);
                    let total: f64 = alive.values().sum::<f64>() + win + dies;
                    assert!((total - 1.0).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn empty_boards_split_the_first_ping_between_the_heroes() {
        let table = PingTable::new();
        let pair = pair_index(TurnBoard::default(), Board::EMPTY);
        // One HP each: the first ping decides.
        let (win, outs) = table.get(pair, 1, 1);
        assert!((win - 0.5).abs() < 1e-15 && outs.iter().next().is_none());
        // Three pings with 4+ HP: losses (m, o) with m + o = 3, binomial.
        let (win, outs) = table.get(pair, SAFE_HP, SAFE_HP);
        assert_eq!(win, 0.0);
        let probs: Vec<(u8, f64)> = outs.iter().map(|o| (o.mover_loss, o.p)).collect();
        assert_eq!(probs.len(), 4);
        for (m, p) in probs {
            let expected = [1.0, 3.0, 3.0, 1.0][usize::from(m)] / 8.0;
            assert!((p - expected).abs() < 1e-15);
        }
    }
}
