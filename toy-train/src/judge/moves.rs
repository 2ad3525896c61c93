//! toy-train's shrink moves as a lazy list: a plan of a few dozen segments (one kind of
//! move at one granularity), each candidate railway built only when the driver asks for it,
//! and skipping (`nth`, which the driver uses to take a pass up where it left off)
//! `O(segments)`.
//!
//! The plan goes by granularity across the kinds, as ddmin does: level 1 drops either half
//! of the stations, either half of the droppable tracks (those of stations with another
//! track), and clears either half of the charging flags; level 2 does the same with
//! quarters; and so on to level [`LEVELS`] (chunks of a 256th) or chunks of two items. Then
//! come the single moves: drop one droppable track, clear one charging flag, drop one
//! station ([`Railway::without_station`]: plainly when that leaves every station a track,
//! else by bypassing it, else giving a self-loop to each station it strands), and bypass a
//! station that was dropped plainly (whose only track leads elsewhere and into which a
//! track leads; where the drop was not plain it was the bypass already). So a failure
//! that needs all of a large railway's stations still sheds its tracks and chargers at the
//! first levels, and one that needs few sheds most stations there. A dropped chunk of
//! stations gives a self-loop to each station it strands rather than dropping that one
//! too: once the tracks are shed, most stations have one track, and a cascade would take
//! most of the railway with any chunk.
//!
//! The driver goes on from the position of the move it last accepted, so a move keeps its
//! position as the railway shrinks: level `l`'s segment of each kind has `2^l` moves
//! whatever the length, chunk `i` covering the `i`-th `2^-l` of the items; a chunk of fewer
//! than two items (or of nothing) is the empty railway, which no limit accepts, so it costs
//! the driver no run. The levels stop at [`LEVELS`] because every pass that accepts nothing
//! (at least the last, which proves the railway 1-minimal) tries every chunk: 256 chunks of
//! each kind cost 510 runs a kind and pass, beside the `n` single drops of the stations.
//! The single tracks and chargers come before the single stations for the same reason: a
//! railway that needs all its stations sheds its last tracks and chargers there, so the
//! last move accepted comes before the `n` station drops, which then run once, not twice
//! (6,000 runs instead of 11,000 from an IOI-size railway).
//!
//! Every move lowers stations plus tracks plus chargers, and none strands a station.

use std::ops::Range;

use crate::railway::Railway;

/// The deepest level: chunks of a 256th.
const LEVELS: u32 = 8;

/// What a segment's moves change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Drop stations (chunks give a self-loop to each station they strand).
    Stations,
    /// Drop droppable tracks (indices into [`Moves::droppable`]), except one of each
    /// station that would have none.
    Tracks,
    /// Clear charging flags (indices into [`Moves::chargers`]).
    Chargers,
    /// Bypass a station that [`Railway::without_station`] drops plainly (single moves only).
    Bypasses,
}

/// A run of moves of one kind: the `2^level` chunks of a level, or (`level` `None`) the
/// single moves, one an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    kind: Kind,
    level: Option<u32>,
    /// How many moves the segment holds.
    count: usize,
}

/// The shrink candidates of one railway, in plan order.
#[derive(Clone, Debug)]
pub(crate) struct Moves<'a> {
    railway: &'a Railway,
    /// The tracks of stations with two or more, in order: the tracks a drop can take.
    droppable: Vec<u32>,
    /// The charging stations, in order.
    chargers: Vec<u32>,
    plan: Vec<Segment>,
    /// The segment and the move in it that come next.
    segment: usize,
    offset: usize,
}

impl<'a> Moves<'a> {
    /// The plan for `railway`: `O(n + m)` time and space, the plan itself `O(LEVELS)`.
    /// About `2 * 2^LEVELS` chunks of each kind (fewer for fewer than 512 items) and one
    /// single move per station, droppable track and charger.
    pub(crate) fn new(railway: &'a Railway) -> Self {
        let (n, m) = (railway.n(), railway.m());
        let mut out_degree = vec![0u32; n];
        for &(u, _) in &railway.tracks {
            out_degree[u as usize] += 1;
        }
        let droppable: Vec<u32> = (0..m as u32)
            .filter(|&i| out_degree[railway.tracks[i as usize].0 as usize] >= 2)
            .collect();
        let chargers: Vec<u32> = (0..n as u32).filter(|&s| railway.charging[s as usize]).collect();
        let longest = n.max(droppable.len()).max(chargers.len());
        let mut plan = Vec::new();
        for level in (1..=LEVELS).take_while(|&level| longest >> level >= 2) {
            for kind in [Kind::Stations, Kind::Tracks, Kind::Chargers] {
                plan.push(Segment { kind, level: Some(level), count: 1 << level });
            }
        }
        let singles = [
            (Kind::Tracks, droppable.len()),
            (Kind::Chargers, chargers.len()),
            (Kind::Stations, n),
            (Kind::Bypasses, n),
        ];
        for (kind, count) in singles {
            plan.push(Segment { kind, level: None, count });
        }
        plan.retain(|s| s.count > 0);
        Self { railway, droppable, chargers, plan, segment: 0, offset: 0 }
    }

    /// Move `offset` of `segment`.
    fn build(&self, segment: Segment, offset: usize) -> Railway {
        let r = self.railway;
        let len = match segment.kind {
            Kind::Stations | Kind::Bypasses => r.n(),
            Kind::Tracks => self.droppable.len(),
            Kind::Chargers => self.chargers.len(),
        };
        let range: Range<usize> = match segment.level {
            None => offset..offset + 1,
            Some(level) if len >> level >= 2 => {
                ((offset * len) >> level)..(((offset + 1) * len) >> level)
            }
            // Too few items for chunks at this level: a placeholder the driver skips.
            Some(_) => return Railway::default(),
        };
        match segment.kind {
            Kind::Stations if segment.level.is_none() => r.without_station(offset as u32),
            // Where the single drop is not plain, it is the bypass already (or there is none).
            Kind::Bypasses => {
                let s = offset as u32;
                if r.bypassable(s) && !r.strands(s) { r.bypassing(s) } else { Railway::default() }
            }
            Kind::Stations => r.without_station_chunk(range),
            Kind::Tracks => r.without_tracks(&self.droppable[range]),
            Kind::Chargers => r.without_chargers(&self.chargers[range]),
        }
    }
}

impl Iterator for Moves<'_> {
    type Item = Railway;

    fn next(&mut self) -> Option<Railway> {
        let segment = *self.plan.get(self.segment)?;
        let candidate = self.build(segment, self.offset);
        self.offset += 1;
        if self.offset == segment.count {
            self.segment += 1;
            self.offset = 0;
        }
        Some(candidate)
    }

    /// Skips `k` moves without building them: `O(segments)`.
    fn nth(&mut self, mut k: usize) -> Option<Railway> {
        while let Some(segment) = self.plan.get(self.segment) {
            if self.offset + k < segment.count {
                self.offset += k;
                return self.next();
            }
            k -= segment.count - self.offset;
            self.segment += 1;
            self.offset = 0;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest: usize = self.plan.iter().skip(self.segment).map(|s| s.count).sum();
        let left = rest - self.offset;
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use engine::rng::SplitMix64;
    use judge::{Limits, Problem};

    use super::*;
    use crate::judge::{Judge, validate};

    #[test]
    fn skipping_gives_the_same_moves_as_walking() {
        let r = Railway {
            arezou: vec![true, false, true, false],
            charging: vec![true, false, true, true],
            tracks: vec![(0, 1), (0, 2), (1, 2), (2, 3), (2, 0), (3, 3), (3, 0)],
        };
        let all: Vec<Railway> = Moves::new(&r).collect();
        assert_eq!(Moves::new(&r).size_hint(), (all.len(), Some(all.len())));
        for (k, want) in all.iter().enumerate() {
            assert_eq!(Moves::new(&r).nth(k).as_ref(), Some(want), "move {k}");
            let mut skipped = Moves::new(&r).enumerate().skip(k);
            assert_eq!(skipped.next().map(|(i, _)| i), Some(k));
        }
        assert_eq!(Moves::new(&r).nth(all.len()), None);
        // Halves of the 4 stations, of the 6 droppable tracks (all but 1 -> 2) and of the 3
        // chargers (one and a half a chunk: placeholders); then 6 tracks, 3 chargers and 4
        // stations one by one, and 4 bypasses.
        assert_eq!(all.len(), 3 * 2 + 6 + 3 + 4 + 4);
        assert_eq!(all[0], r.without_station_chunk(0..2));
        assert_eq!(all[2], r.without_tracks(&[0, 1, 3]));
        assert_eq!(all[4], Railway::default(), "half of 3 chargers is a placeholder");
        // Station 1's only track leads to 2, and 0 has another track: 1 is dropped plainly,
        // and bypassed as well.
        assert_eq!(all[all.len() - 7], r.without_stations(&[false, true, false, false]));
        assert_eq!(all[all.len() - 3], r.bypassing(1));
        assert_eq!(all[all.len() - 4], Railway::default(), "station 0 has two tracks");
        assert!(all.iter().all(|c| c.n() + c.m() + c.chargers() < r.n() + r.m() + r.chargers()));
    }

    /// A move keeps its position as the railway shrinks, as the driver's resume rule
    /// expects: the level segments have the same lengths for 1,000 and 600 stations.
    #[test]
    fn positions_hold_as_the_railway_shrinks() {
        let line = |n: u32| Railway {
            arezou: vec![true; n as usize],
            charging: vec![true; n as usize],
            tracks: (0..n).flat_map(|s| [(s, s), (s, (s + 1) % n)]).collect(),
        };
        let (big, small) = (line(1000), line(600));
        let (a, b) = (Moves::new(&big), Moves::new(&small));
        assert_eq!(a.plan[..3 * LEVELS as usize], b.plan[..3 * LEVELS as usize]);
        // Chunk 5 of level 3 drops the sixth eighth of the stations in both.
        let position = 3 * (2 + 4) + 5;
        let mut dropped = Moves::new(&small).nth(position).expect("a move");
        assert_eq!(dropped.n(), 600 - (6 * 600 / 8 - 5 * 600 / 8));
        dropped = Moves::new(&big).nth(position).expect("a move");
        assert_eq!(dropped.n(), 875);
    }

    /// The moves hold every one-step move (drop a station, with its tracks,
    /// renumbered; drop a track; clear a charging flag) whenever that move gives a valid
    /// railway, which makes the driver's result 1-minimal under them, and never strand a
    /// station (the empty railway stands for a chunk too small to drop).
    #[test]
    fn shrink_moves_shrink_and_cover_the_one_step_moves() {
        let mut rng = SplitMix64::new(9);
        for level in [0, 1, 2, 3, 4] {
            for _ in 0..20 {
                let input = Judge.generate(&mut rng, level, Limits::Original);
                let moves: Vec<Railway> = Judge.shrink(&input).collect();
                assert!(moves.iter().all(|m| m.n() == 0 || validate(m, Limits::Extended).is_ok()));
                let mut one_step = Vec::new();
                for s in 0..input.n() {
                    let mut dropped = vec![false; input.n()];
                    dropped[s] = true;
                    one_step.push(input.without_stations(&dropped));
                }
                for t in 0..input.m() {
                    let mut next = input.clone();
                    next.tracks.remove(t);
                    one_step.push(next);
                }
                for s in 0..input.n() as u32 {
                    if input.charging[s as usize] {
                        one_step.push(input.without_chargers(&[s]));
                    }
                }
                for step in one_step {
                    if validate(&step, Limits::Original).is_ok() {
                        assert!(moves.contains(&step), "{input:?}: {step:?} is missing");
                    }
                }
            }
        }
    }
}
