//! Railways for the stress loop, by size level: tiny shapes first, where most wrong ideas
//! already fail (self-loops, a single charger, stations whose only track is a self-loop,
//! one owner only, cycles with and without chargers, lines, dense little graphs), then the
//! generator's families ([`Family::ALL`], so families added later come in by themselves) at
//! growing sizes up to the limits; the extreme railways the stress loop tries right after
//! its first tiny ones ([`extreme`]); and the exhaustive enumeration of every railway of up
//! to four stations ([`exhaustive`]).

use std::ops::RangeInclusive;

use engine::rng::SplitMix64;
use judge::Invalid;
use judge::Limits;

use super::validate;
use crate::generator::{self, Family, GenParams};
use crate::railway::Railway;
use crate::railway::{ORIGINAL_MAX_STATIONS, ORIGINAL_MAX_TRACKS, bounds};

/// Size levels: 0 to 2 tiny shapes (up to 3, 6, 10 stations), 3 up to 15 stations (the
/// original's subtask 2), 4 to 6 the families at up to 100, 1,000 and the limit, 7 a mix.
pub(crate) const LEVELS: u32 = 8;

/// How many draws a level gets before falling back to a tiny shape, which is always valid.
const ATTEMPTS: usize = 8;

/// A railway valid under `limits`, drawn the way `level` draws them.
pub(crate) fn railway(rng: &mut SplitMix64, level: u32, limits: Limits) -> Railway {
    let level = if level + 1 >= LEVELS { rng.below(LEVELS as usize - 1) as u32 } else { level };
    for _ in 0..ATTEMPTS {
        let drawn = match level {
            0 => Some(tiny(rng, 1..=3, limits)),
            1 => Some(tiny(rng, 1..=6, limits)),
            2 => Some(tiny(rng, 4..=10, limits)),
            3 if rng.chance(1, 2) => Some(tiny(rng, 7..=15, limits)),
            3 => family(rng, 3..=15, limits),
            4 => family(rng, 16..=100, limits),
            5 => family(rng, 101..=1000, limits),
            _ => {
                let top = match limits {
                    Limits::Original => bounds(limits).0 as usize,
                    Limits::Extended => 20_000,
                };
                family(rng, 1001..=top, limits)
            }
        };
        if let Some(railway) = drawn.filter(|r| validate(r, limits).is_ok()) {
            return railway;
        }
    }
    tiny(rng, 1..=6, limits)
}

/// A railway of a random family at the original limit's size (5,000 stations), valid under
/// the original limits: the largest of a subtask's railways (`Packaged::group_input`'s last
/// level).
pub(crate) fn at_the_limit(rng: &mut SplitMix64) -> Railway {
    let n = ORIGINAL_MAX_STATIONS as usize;
    for _ in 0..ATTEMPTS {
        let drawn = family(rng, n..=n, Limits::Original);
        if let Some(railway) = drawn.filter(|r| validate(r, Limits::Original).is_ok()) {
            return railway;
        }
    }
    // A random railway of that size always exists.
    generator::generate(&GenParams::new(Family::Random, n, rng.next_u64()))
        .expect("a random railway of 5,000 stations")
}

/// A uniform size in `sizes`.
fn size(rng: &mut SplitMix64, sizes: &RangeInclusive<usize>) -> usize {
    rng.range(*sizes.start() as u64, *sizes.end() as u64) as usize
}

/// A tiny railway of one of five shapes, with owners all Arezou's, all Borzou's or mixed,
/// and one charger, all, none (extended limits only) or some. Every station gets a track.
/// Tracks are listed by tail (heads now and then shuffled), and now and then in any order,
/// as the format allows; under the extended limits a track is now and then repeated.
fn tiny(rng: &mut SplitMix64, sizes: RangeInclusive<usize>, limits: Limits) -> Railway {
    let n = size(rng, &sizes);
    let arezou: Vec<bool> = match rng.below(4) {
        0 => vec![true; n],
        1 => vec![false; n],
        _ => (0..n).map(|_| rng.chance(1, 2)).collect(),
    };
    let mut charging: Vec<bool> = match rng.below(6) {
        0 => {
            let one = rng.below(n);
            (0..n).map(|s| s == one).collect()
        }
        1 => vec![true; n],
        2 if limits == Limits::Extended => vec![false; n],
        _ => (0..n).map(|_| rng.chance(1, 3)).collect(),
    };
    if limits == Limits::Original && !charging.contains(&true) {
        charging[rng.below(n)] = true;
    }
    let mut heads = vec![vec![false; n]; n];
    match rng.below(5) {
        // A cycle through every station, and now and then a chord.
        0 => {
            for (u, row) in heads.iter_mut().enumerate() {
                row[(u + 1) % n] = true;
                if rng.chance(1, 4) {
                    row[rng.below(n)] = true;
                }
            }
        }
        // Half the stations have a self-loop as their only track, the others random tracks.
        1 => {
            for (u, row) in heads.iter_mut().enumerate() {
                if rng.chance(1, 2) {
                    row[u] = true;
                } else {
                    row.iter_mut().for_each(|h| *h = rng.chance(1, 3));
                }
            }
        }
        // Subtask 1's line: u -> u, u -> u + 1 or both.
        2 => {
            for (u, row) in heads.iter_mut().enumerate() {
                let kind = if u + 1 == n { 0 } else { rng.below(3) };
                row[u] = kind != 1;
                if kind != 0 {
                    row[u + 1] = true;
                }
            }
        }
        // Dense: every track with chance one half.
        3 => heads.iter_mut().flatten().for_each(|h| *h = rng.chance(1, 2)),
        // Sparse: one to three random heads a station.
        _ => {
            for row in &mut heads {
                for _ in 0..=rng.below(3) {
                    row[rng.below(n)] = true;
                }
            }
        }
    }
    let mut tracks = Vec::new();
    for (u, row) in heads.iter_mut().enumerate() {
        if !row.contains(&true) {
            row[rng.below(n)] = true;
        }
        let mut out: Vec<(u32, u32)> =
            (0..n).filter(|&v| row[v]).map(|v| (u as u32, v as u32)).collect();
        if rng.chance(1, 3) {
            rng.shuffle(&mut out);
        }
        tracks.extend(out);
    }
    if rng.chance(1, 4) {
        rng.shuffle(&mut tracks);
    }
    let mut railway = Railway { arezou, charging, tracks };
    if limits == Limits::Extended && rng.chance(1, 4) {
        repeat_a_track(rng, &mut railway);
    }
    railway
}

/// Repeats a random track right after itself (extended limits: duplicates allowed).
fn repeat_a_track(rng: &mut SplitMix64, railway: &mut Railway) {
    let i = rng.below(railway.m());
    let track = railway.tracks[i];
    railway.tracks.insert(i + 1, track);
}

/// A railway of a random family of the generator with `n` in `sizes`, random `m` (half the
/// time), owner and charger chances (half the time each), shuffled half the time. `None`
/// when the family has no railway of the drawn size.
fn family(rng: &mut SplitMix64, sizes: RangeInclusive<usize>, limits: Limits) -> Option<Railway> {
    let (family, _) = Family::ALL[rng.below(Family::ALL.len())];
    let n = size(rng, &sizes);
    let most_tracks = (bounds(limits).1 as usize).min(n.saturating_mul(n)).min(6 * n);
    let mut params = GenParams::new(family, n, rng.next_u64());
    if rng.chance(1, 2) {
        params.m = Some(rng.range(n as u64, most_tracks as u64) as usize);
    }
    if rng.chance(1, 2) {
        params.arezou_per_mille = Some(rng.range(0, 1000));
    }
    if rng.chance(1, 2) {
        params.charging_per_mille = Some(rng.range(1, 300));
    }
    params.shuffle = rng.chance(1, 2);
    let mut railway = generator::generate(&params)
        .or_else(|_| generator::generate(&GenParams { m: None, ..params }))
        .ok()?;
    if limits == Limits::Extended {
        if rng.chance(1, 8) {
            railway.charging.fill(false);
        }
        if rng.chance(1, 4) {
            repeat_a_track(rng, &mut railway);
        }
    }
    Some(railway)
}

/// The extreme railways: (stations, tracks, chargers) of each, in the order the stress loop
/// tries them. One station; then the original's largest `n` with `m = n` (every station's
/// only track chosen) and with the largest `m`, each with a single charger and with every
/// station charging. The sizes are valid under both limits; the extended ones use them too,
/// as 5,000 stations already find the programs that fail only at the largest sizes (a table
/// one too short, a recursion too deep) and larger railways cost every later run its time.
const EXTREMES: [(usize, usize, Chargers); 5] = {
    let (n, m) = (ORIGINAL_MAX_STATIONS as usize, ORIGINAL_MAX_TRACKS as usize);
    [
        (1, 1, Chargers::One),
        (n, n, Chargers::One),
        (n, n, Chargers::All),
        (n, m, Chargers::One),
        (n, m, Chargers::All),
    ]
};

/// How many stations of an extreme railway charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chargers {
    One,
    All,
}

/// How many extreme railways there are (the same under both limits).
pub(crate) fn extremes(_limits: Limits) -> u32 {
    EXTREMES.len() as u32
}

/// Extreme railway `k` (see [`EXTREMES`]): owners mixed half and half, structure from `rng`,
/// no repeated track, a track out of every station, valid under both limits. With `m = n`,
/// the single-charger railway is one path through every station in a random order that
/// ends in a cycle back to a random station of the path (the deepest railway there is), and
/// the all-charger one gives each station a random head (a random forest of trees hanging
/// off cycles); with the largest `m`, the tracks are the generator's random distinct tracks,
/// listed by tail or shuffled. `O(n + m)`.
///
/// # Panics
/// `k >= extremes(limits)`.
pub(crate) fn extreme(k: u32, rng: &mut SplitMix64, limits: Limits) -> Railway {
    let (n, m, chargers) = EXTREMES[k as usize];
    let arezou: Vec<bool> = (0..n).map(|_| rng.chance(1, 2)).collect();
    let charging = match chargers {
        Chargers::One => {
            let one = rng.below(n);
            (0..n).map(|s| s == one).collect()
        }
        Chargers::All => vec![true; n],
    };
    let tracks = if m == n {
        let mut heads = vec![0u32; n];
        if chargers == Chargers::One {
            let mut order: Vec<u32> = (0..n as u32).collect();
            rng.shuffle(&mut order);
            for w in order.windows(2) {
                heads[w[0] as usize] = w[1];
            }
            heads[order[n - 1] as usize] = order[rng.below(n)];
        } else {
            heads.iter_mut().for_each(|h| *h = rng.below(n) as u32);
        }
        heads.iter().enumerate().map(|(u, &v)| (u as u32, v)).collect()
    } else {
        let mut params = GenParams::new(Family::Random, n, rng.next_u64());
        params.m = Some(m);
        params.shuffle = rng.chance(1, 2);
        generator::generate(&params)
            .expect("the largest original railway is a random family's")
            .tracks
    };
    let railway = Railway { arezou, charging, tracks };
    debug_assert!(validate(&railway, limits).is_ok(), "extreme {k}");
    railway
}

/// The largest bound of the exhaustive enumeration: 4 stations already make 12,150,000
/// railways, 5 would make 28 billion.
const EXHAUSTIVE_MAX_STATIONS: u64 = 4;

/// How many railways of exactly `n` stations the exhaustive enumeration holds: owners, then
/// charger sets (not empty under the original limits), then a non-empty set of heads for
/// each station.
fn exhaustive_count(n: usize, limits: Limits) -> u64 {
    let subsets = 1u64 << n;
    let chargers = match limits {
        Limits::Original => subsets - 1,
        Limits::Extended => subsets,
    };
    subsets * chargers * (subsets - 1).pow(n as u32)
}

/// How many railways the enumeration up to `bound` stations holds (see
/// [`Judge::exhaustive_len`](super::Judge)).
///
/// # Errors
/// `bound` is outside `1..=EXHAUSTIVE_MAX_STATIONS`.
pub(crate) fn exhaustive_len(bound: u64, limits: Limits) -> Result<u64, Invalid> {
    if !(1..=EXHAUSTIVE_MAX_STATIONS).contains(&bound) {
        return Err(Invalid(format!(
            "the bound is the largest number of stations, in 1..={EXHAUSTIVE_MAX_STATIONS}; \
             found {bound}"
        )));
    }
    Ok((1..=bound as usize).map(|n| exhaustive_count(n, limits)).sum())
}

/// Railway `index` of the enumeration up to `bound` stations (see
/// [`Judge::exhaustive`](super::Judge)), `None` past its end. `O(n²)`.
pub(crate) fn exhaustive(bound: u64, index: u64, limits: Limits) -> Option<Railway> {
    if exhaustive_len(bound, limits).ok()? <= index {
        return None;
    }
    let mut rest = index;
    let n = (1..=bound as usize).find(|&n| {
        let count = exhaustive_count(n, limits);
        if rest < count {
            return true;
        }
        rest -= count;
        false
    })?;
    let subsets = 1u64 << n;
    let mut digit = |radix: u64| {
        let d = rest % radix;
        rest /= radix;
        d
    };
    let arezou: Vec<bool> = {
        let mask = digit(subsets);
        (0..n).map(|s| mask >> s & 1 == 1).collect()
    };
    let charging: Vec<bool> = {
        let mask = match limits {
            Limits::Original => digit(subsets - 1) + 1,
            Limits::Extended => digit(subsets),
        };
        (0..n).map(|s| mask >> s & 1 == 1).collect()
    };
    let mut tracks = Vec::new();
    for u in 0..n as u32 {
        let heads = digit(subsets - 1) + 1;
        tracks.extend((0..n as u32).filter(|&v| heads >> v & 1 == 1).map(|v| (u, v)));
    }
    Some(Railway { arezou, charging, tracks })
}

#[cfg(test)]
mod tests {
    use judge::Problem;
    use judge::render;

    use super::*;
    use crate::judge::{Judge, subtasks};

    /// The extremes are the largest railways of the original, with one charger and with all,
    /// owners mixed, and the single-charger railway with `m = n` is one path into a cycle.
    #[test]
    fn the_extremes_reach_the_limits() {
        for limits in [Limits::Original, Limits::Extended] {
            assert_eq!(Judge.extremes(limits), 5);
            let mut rng = SplitMix64::new(11);
            let all: Vec<Railway> = (0..5).map(|k| Judge.extreme(k, &mut rng, limits)).collect();
            let shapes: Vec<(usize, usize, usize)> =
                all.iter().map(|r| (r.n(), r.m(), r.chargers())).collect();
            assert_eq!(
                shapes,
                [
                    (1, 1, 1),
                    (5000, 5000, 1),
                    (5000, 5000, 5000),
                    (5000, 20000, 1),
                    (5000, 20000, 5000)
                ]
            );
            for r in &all {
                assert_eq!(validate(r, Limits::Original), Ok(()), "valid under both limits");
                if r.n() > 1 {
                    let arezou = r.arezou.iter().filter(|&&a| a).count();
                    assert!((2000..=3000).contains(&arezou), "owners mixed: {arezou}");
                }
            }
            // Following the only tracks from the station nothing leads to visits every
            // station before it repeats one.
            let path = &all[1];
            let mut head = vec![0u32; 5000];
            let mut entered = vec![false; 5000];
            for &(u, v) in &path.tracks {
                head[u as usize] = v;
                entered[v as usize] = true;
            }
            let mut s = entered.iter().position(|&e| !e).expect("the path's start") as u32;
            let mut seen = vec![false; 5000];
            while !seen[s as usize] {
                seen[s as usize] = true;
                s = head[s as usize];
            }
            assert!(seen.iter().all(|&v| v), "one path through every station");
        }
    }

    /// The tiny levels reach the shapes where wrong ideas fail, and every original subtask.
    #[test]
    fn tiny_levels_reach_the_edge_shapes() {
        let mut rng = SplitMix64::new(3);
        let inputs: Vec<Railway> =
            (0..300).map(|i| Judge.generate(&mut rng, i % 2, Limits::Original)).collect();
        let count = |p: &dyn Fn(&Railway) -> bool| inputs.iter().filter(|r| p(r)).count();
        let only_self_loop =
            |r: &Railway, s: u32| r.tracks.iter().filter(|t| t.0 == s).all(|t| t.1 == s);
        assert!(count(&|r| r.n() == 1) >= 10);
        assert!(count(&|r| r.tracks.iter().any(|t| t.0 == t.1)) >= 100);
        assert!(count(&|r| (0..r.n() as u32).any(|s| only_self_loop(r, s))) >= 100);
        assert!(
            count(&|r| r.n() >= 3
                && (0..r.n() as u32).all(|s| r.tracks.contains(&(s, (s + 1) % r.n() as u32))))
                >= 20,
            "cycles"
        );
        assert!(
            count(&|r| r.tracks.windows(2).any(|w| w[0].0 > w[1].0)) >= 20,
            "tracks out of order"
        );
        for k in 1..=6 {
            assert!(count(&|r| subtasks(r).unwrap().contains(&k)) >= 20, "subtask {k}");
        }
        let answers: Vec<Vec<bool>> = inputs.iter().map(|r| Judge.solve(r)).collect();
        assert!(answers.iter().filter(|a| a.iter().all(|&w| w)).count() >= 30);
        assert!(answers.iter().filter(|a| a.iter().all(|&w| !w)).count() >= 30);
        assert!(answers.iter().filter(|a| a.contains(&true) && a.contains(&false)).count() >= 30);
    }

    #[test]
    fn extended_inputs_bring_duplicates_and_railways_without_chargers() {
        let mut rng = SplitMix64::new(5);
        let inputs: Vec<Railway> =
            (0..200).map(|i| Judge.generate(&mut rng, i % 3, Limits::Extended)).collect();
        assert!(inputs.iter().filter(|r| r.chargers() == 0).count() >= 5);
        assert!(inputs.iter().filter(|r| validate(r, Limits::Original).is_err()).count() >= 20);
    }

    #[test]
    fn the_exhaustive_enumeration_lists_every_small_railway_once() {
        for limits in [Limits::Original, Limits::Extended] {
            let total = Judge.exhaustive_len(3, limits).unwrap();
            let all: Vec<Railway> =
                (0..total).map(|i| Judge.exhaustive(3, i, limits).unwrap()).collect();
            assert!(all.iter().all(|r| validate(r, limits).is_ok()));
            assert!(all.windows(2).all(|w| w[0].n() <= w[1].n()), "by number of stations");
            let distinct: std::collections::HashSet<&Railway> = all.iter().collect();
            assert_eq!(distinct.len(), all.len());
            assert_eq!(Judge.exhaustive(3, total, limits), None);
        }
        assert_eq!(Judge.exhaustive_len(3, Limits::Original), Ok(2 + 108 + 19_208));
        assert_eq!(Judge.exhaustive_len(3, Limits::Extended), Ok(4 + 144 + 21_952));
        assert_eq!(Judge.exhaustive_len(4, Limits::Original), Ok(2 + 108 + 19_208 + 12_150_000));
        assert!(Judge.exhaustive_len(0, Limits::Original).is_err());
        assert!(Judge.exhaustive_len(5, Limits::Original).is_err());
        let first = Judge.exhaustive(1, 0, Limits::Original).unwrap();
        assert_eq!(render(&Judge, &first), b"1 1\n0\n1\n0 0\n");
    }
}
