//! toy-train's shrink moves as a lazy list: a plan of small move descriptions made in
//! `O(n + m)`, each candidate railway built only when the driver asks for it, and skipping
//! (`nth`, which the driver uses to take a pass up where it left off) free.
//!
//! The plan, in order: drop halves, quarters, ... of the stations down to single ones (each
//! with the stations it strands); bypass each station whose only track leads elsewhere and
//! into which some track leads;
//! drop halves, quarters, ... of the tracks down to single ones (each station keeping one);
//! clear halves, quarters, ... of the charging flags down to single ones. Every move lowers
//! stations plus tracks plus chargers, and none strands a station.

use std::ops::Range;

use crate::railway::Railway;

/// One move of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Move {
    /// Drop these stations and every station that is left without a track.
    Stations(Range<usize>),
    /// Drop this station, leading its predecessors to where its only track goes.
    Bypass(u32),
    /// Drop these tracks, except one of each station that would have none.
    Tracks(Range<usize>),
    /// Clear the charging flags of these chargers (indices into the list of chargers).
    Chargers(Range<usize>),
}

/// The shrink candidates of one railway, in plan order.
#[derive(Clone, Debug)]
pub(crate) struct Moves<'a> {
    railway: &'a Railway,
    /// The charging stations, in order.
    chargers: Vec<u32>,
    plan: Vec<Move>,
    next: usize,
}

impl<'a> Moves<'a> {
    /// The plan for `railway`: about `3n + 2m + 2c` moves, `O(n + m)` to make.
    pub(crate) fn new(railway: &'a Railway) -> Self {
        let (n, m) = (railway.n(), railway.m());
        let mut out_degree = vec![0u32; n];
        let mut in_degree = vec![0u32; n];
        let mut only_head = vec![0u32; n];
        for &(u, v) in &railway.tracks {
            out_degree[u as usize] += 1;
            in_degree[v as usize] += 1;
            only_head[u as usize] = v;
        }
        // A chunk of tracks drops something only if it holds a track of a station with two
        // tracks or more; `many[i]` counts those among the first `i` tracks.
        let mut many = Vec::with_capacity(m + 1);
        many.push(0usize);
        for &(u, _) in &railway.tracks {
            many.push(many[many.len() - 1] + usize::from(out_degree[u as usize] >= 2));
        }
        let chargers: Vec<u32> = (0..n as u32).filter(|&s| railway.charging[s as usize]).collect();
        let mut plan: Vec<Move> = chunks(n).map(Move::Stations).collect();
        // Bypassing a station nothing leads to is dropping it, which is planned already.
        plan.extend(
            (0..n as u32)
                .filter(|&s| {
                    let s = s as usize;
                    out_degree[s] == 1 && only_head[s] != s as u32 && in_degree[s] > 0
                })
                .map(Move::Bypass),
        );
        plan.extend(chunks(m).filter(|r| many[r.end] > many[r.start]).map(Move::Tracks));
        plan.extend(chunks(chargers.len()).map(Move::Chargers));
        Self { railway, chargers, plan, next: 0 }
    }

    fn build(&self, step: &Move) -> Railway {
        let r = self.railway;
        match step {
            Move::Stations(range) => r.without_stations_closed(range.clone()),
            Move::Bypass(s) => r.bypassing(*s),
            Move::Tracks(range) => r.without_tracks(range.clone()),
            Move::Chargers(range) => r.without_chargers(&self.chargers[range.clone()]),
        }
    }
}

impl Iterator for Moves<'_> {
    type Item = Railway;

    fn next(&mut self) -> Option<Railway> {
        let step = self.plan.get(self.next)?;
        self.next += 1;
        Some(self.build(step))
    }

    /// Skips `k` moves without building them.
    fn nth(&mut self, k: usize) -> Option<Railway> {
        self.next = self.next.saturating_add(k).min(self.plan.len());
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.plan.len() - self.next;
        (left, Some(left))
    }
}

/// Index ranges splitting `0..len` into chunks of `len / 2`, then `len / 4`, ... down to
/// single items: ddmin's complements, big first, ending with each item alone. About `2 len`
/// ranges.
fn chunks(len: usize) -> impl Iterator<Item = Range<usize>> {
    std::iter::successors((len > 0).then_some((len / 2).max(1)), |&k| (k > 1).then_some(k / 2))
        .flat_map(move |k| (0..len.div_ceil(k)).map(move |c| c * k..((c + 1) * k).min(len)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Station 1's only track leads to 2: it is bypassed.
        assert!(all.contains(&r.bypassing(1)));
        assert!(all.iter().all(|c| c.n() + c.m() + c.chargers() < r.n() + r.m() + r.chargers()));
    }

    #[test]
    fn chunks_halve_down_to_single_items() {
        let got: Vec<Range<usize>> = chunks(5).collect();
        assert_eq!(got, [0..2, 2..4, 4..5, 0..1, 1..2, 2..3, 3..4, 4..5]);
        assert_eq!(chunks(1).map(|r| (r.start, r.end)).collect::<Vec<_>>(), [(0, 1)]);
        assert_eq!(chunks(0).count(), 0);
    }
}
