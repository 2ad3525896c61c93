//! The railway as a game graph: who owns each station, which stations charge, and the tracks
//! in compressed sparse row form (forward and reverse, `u32` indices).

use std::ops::Range;

/// Most stations a game may have: indices are `u32`, and a graph this size needs gigabytes.
pub const MAX_STATIONS: u64 = 100_000_000;

/// Most tracks a game may have: CSR offsets are `u32`, so this stays below `u32::MAX`.
pub const MAX_TRACKS: u64 = 1_000_000_000;

/// Bit set in a station's flags when Arezou owns it.
pub(crate) const AREZOU: u8 = 1;
/// Bit set in a station's flags when it is a charging station.
pub(crate) const CHARGING: u8 = 2;

/// A player of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Wants the train to charge forever.
    Arezou,
    /// Wants it to run out of charge.
    Borzou,
}

impl Player {
    /// Arezou when `arezou`, else Borzou: the owner of a station, or the winner from it.
    #[must_use]
    pub fn of(arezou: bool) -> Self {
        if arezou { Self::Arezou } else { Self::Borzou }
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Arezou => "Arezou",
            Self::Borzou => "Borzou",
        })
    }
}

/// Who wins where, and how: what the solvers find for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `arezou_wins[s]`: Arezou wins when the train starts at `s`.
    pub arezou_wins: Vec<bool>,
    /// `strategy[s] = t`: the switch at `s` is set along track `s → t`. At the winner's
    /// stations this is a positional winning strategy (Arezou's on her region, Borzou's on
    /// his); at the loser's stations it is the station's first track, since every track
    /// there stays in the region anyway.
    pub strategy: Vec<u32>,
}

/// Why a set of stations and tracks is not a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// There are no stations.
    #[error("a railway needs at least one station")]
    NoStations,
    /// More than [`MAX_STATIONS`] stations or [`MAX_TRACKS`] tracks.
    #[error(
        "{stations} stations and {tracks} tracks exceed the limits ({MAX_STATIONS} and {MAX_TRACKS})"
    )]
    TooLarge {
        /// Number of stations.
        stations: u64,
        /// Number of tracks.
        tracks: u64,
    },
    /// The owner and charger lists differ in length.
    #[error("{owners} owner flags but {chargers} charger flags")]
    LengthMismatch {
        /// Length of the owner list.
        owners: usize,
        /// Length of the charger list.
        chargers: usize,
    },
    /// A track names a station that does not exist.
    #[error("track {track} names station {station}, but the stations are 0..{stations}")]
    StationOutOfRange {
        /// 0-based track index.
        track: usize,
        /// The bad station index.
        station: u32,
        /// Number of stations.
        stations: usize,
    },
    /// A station has no outgoing track, so the train could stop there.
    #[error("station {station} has no outgoing track")]
    NoOutgoingTrack {
        /// The station.
        station: u32,
    },
}

/// The game: `n` stations with owners and chargers, and `m` tracks stored twice, by tail
/// (successors) and by head (predecessors), successors in input order, predecessors by tail.
///
/// Space: `n` bytes of flags plus `8(n + 1) + 8m` bytes of CSR arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    flags: Vec<u8>,
    out_start: Vec<u32>,
    out: Vec<u32>,
    in_start: Vec<u32>,
    inc: Vec<u32>,
}

impl Game {
    /// A game from owner flags (`true`: Arezou), charger flags and tracks `(from, to)`.
    /// Duplicate tracks and self-loops are allowed. `O(n + m)` time and space.
    ///
    /// # Errors
    /// No stations, lists of different lengths, sizes beyond the limits, a track naming a
    /// missing station, or a station without an outgoing track.
    pub fn new(
        arezou: &[bool],
        charging: &[bool],
        tracks: &[(u32, u32)],
    ) -> Result<Self, GameError> {
        if arezou.len() != charging.len() {
            return Err(GameError::LengthMismatch {
                owners: arezou.len(),
                chargers: charging.len(),
            });
        }
        let n = arezou.len();
        if n == 0 {
            return Err(GameError::NoStations);
        }
        if n as u64 > MAX_STATIONS || tracks.len() as u64 > MAX_TRACKS {
            return Err(GameError::TooLarge { stations: n as u64, tracks: tracks.len() as u64 });
        }
        for (track, &(u, v)) in tracks.iter().enumerate() {
            for station in [u, v] {
                if station as usize >= n {
                    return Err(GameError::StationOutOfRange { track, station, stations: n });
                }
            }
        }
        let flags = arezou.iter().zip(charging).map(|(&a, &r)| Self::flag(a, r)).collect();
        let mut builder = Tracks::new(n, tracks.len());
        for &(u, v) in tracks {
            builder.push(u, v);
        }
        builder.into_game(flags)
    }

    /// A station's flags byte as [`Tracks::into_game`] takes it.
    pub(crate) fn flag(arezou: bool, charging: bool) -> u8 {
        (u8::from(arezou) * AREZOU) | (u8::from(charging) * CHARGING)
    }

    /// Number of stations.
    #[must_use]
    pub fn n(&self) -> usize {
        self.flags.len()
    }

    /// Number of tracks.
    #[must_use]
    pub fn m(&self) -> usize {
        self.out.len()
    }

    /// Whether Arezou owns station `v`.
    #[inline]
    #[must_use]
    pub fn arezou(&self, v: u32) -> bool {
        self.flags[v as usize] & AREZOU != 0
    }

    /// Whether station `v` is a charging station.
    #[inline]
    #[must_use]
    pub fn charging(&self, v: u32) -> bool {
        self.flags[v as usize] & CHARGING != 0
    }

    /// The stations tracks from `v` lead to, in input order (repeats for duplicate tracks).
    #[inline]
    #[must_use]
    pub fn succ(&self, v: u32) -> &[u32] {
        &self.out[self.out_start[v as usize] as usize..self.out_start[v as usize + 1] as usize]
    }

    /// The stations with a track into `v`, by increasing station (repeats for duplicate tracks).
    #[inline]
    #[must_use]
    pub fn pred(&self, v: u32) -> &[u32] {
        &self.inc[self.in_start[v as usize] as usize..self.in_start[v as usize + 1] as usize]
    }

    /// Stations `0..n` as `u32`.
    pub fn stations(&self) -> Range<u32> {
        0..self.n() as u32
    }
}

/// Tracks gathered in input order and turned into the CSR arrays.
///
/// While the tails come in non-decreasing order (as in the official grader's files and most
/// generated ones), the heads read so far already are the forward CSR array and the tails are
/// implied by the out-degrees, so nothing else is stored: `4m` bytes instead of `8m`, and no
/// sort. The first tail out of order makes the builder keep tails and sort at the end.
pub(crate) struct Tracks {
    heads: Vec<u32>,
    /// `out_count[u + 1]`: tracks from `u` so far, while the tails are in order (prefix sums
    /// make it the CSR offsets).
    out_count: Vec<u32>,
    /// Every track's tail, once one came out of order.
    tails: Option<Vec<u32>>,
    last_tail: u32,
}

impl Tracks {
    /// A builder for tracks over `n` stations, with room for `capacity` tracks.
    pub(crate) fn new(n: usize, capacity: usize) -> Self {
        Self {
            heads: huge_capacity(capacity),
            out_count: huge_zeroed(n + 1),
            tails: None,
            last_tail: 0,
        }
    }

    /// Adds track `u -> v`; both must be below `n`. Amortised `O(1)`; the counts that would
    /// land all over memory are left to [`Tracks::into_game`], where they do not stall the
    /// reading.
    #[inline]
    pub(crate) fn push(&mut self, u: u32, v: u32) {
        match &mut self.tails {
            Some(tails) => tails.push(u),
            None if u < self.last_tail => self.keep_tails(u),
            None => {
                self.last_tail = u;
                self.out_count[u as usize + 1] += 1;
            }
        }
        self.heads.push(v);
    }

    /// Adds the tracks of `tracks` (`(from, to)`), as [`Tracks::push`] would one by one;
    /// while the tails come in order, the builder's fields stay in registers.
    #[inline(always)]
    pub(crate) fn extend(&mut self, tracks: &mut impl Iterator<Item = (u32, u32)>) {
        if self.tails.is_none() {
            let mut heads = std::mem::take(&mut self.heads);
            let mut last_tail = self.last_tail;
            let out_count = &mut self.out_count[..];
            let mut out_of_order = None;
            for (u, v) in tracks.by_ref() {
                if u < last_tail {
                    out_of_order = Some((u, v));
                    break;
                }
                last_tail = u;
                out_count[u as usize + 1] += 1;
                heads.push(v);
            }
            (self.heads, self.last_tail) = (heads, last_tail);
            let Some((u, v)) = out_of_order else { return };
            self.push(u, v);
        }
        for (u, v) in tracks.by_ref() {
            self.push(u, v);
        }
    }

    /// The first tail out of order: write out the (sorted) tails so far, then keep them.
    #[cold]
    fn keep_tails(&mut self, u: u32) {
        self.tails().push(u);
    }

    /// Every track's tail, written out from the counts if they have not been kept so far.
    fn tails(&mut self) -> &mut Vec<u32> {
        let Self { heads, out_count, tails, .. } = self;
        tails.get_or_insert_with(|| {
            let mut tails = Vec::with_capacity(heads.capacity());
            for (t, &count) in out_count[1..].iter().enumerate() {
                tails.extend(std::iter::repeat_n(t as u32, count as usize));
            }
            tails
        })
    }

    /// Appends the tracks of `later`, a builder over the same stations, after these. While
    /// both keep their tails in order, one after the other, only the counts of the stations
    /// `later` has tracks from are added; otherwise both tails are written out.
    /// `O(tracks of later)`, plus `O(n)` for written-out tails.
    pub(crate) fn append(&mut self, mut later: Tracks) {
        let later_first = later.out_count[1..].iter().position(|&c| c > 0);
        match later_first {
            None if later.tails.is_none() => {}
            Some(first)
                if self.tails.is_none()
                    && later.tails.is_none()
                    && first as u32 >= self.last_tail =>
            {
                let range = first + 1..later.last_tail as usize + 2;
                for (mine, theirs) in
                    self.out_count[range.clone()].iter_mut().zip(&later.out_count[range])
                {
                    *mine += theirs;
                }
                self.last_tail = later.last_tail;
            }
            _ => {
                let later_tails = std::mem::take(later.tails());
                self.tails().extend_from_slice(&later_tails);
            }
        }
        self.heads.extend_from_slice(&later.heads);
    }

    /// The game: offsets by prefix sums, the forward array as read (or sorted by tail), the
    /// reverse one by a counting sort. `O(n + m)`.
    ///
    /// # Errors
    /// A station without an outgoing track.
    pub(crate) fn into_game(self, flags: Vec<u8>) -> Result<Game, GameError> {
        let Self { heads, out_count: mut out_start, tails, .. } = self;
        let n = flags.len();
        if let Some(tails) = &tails {
            out_start.fill(0);
            for &u in tails {
                out_start[u as usize + 1] += 1;
            }
        }
        prefix_sums(&mut out_start);
        if let Some(station) = (0..n).find(|&s| out_start[s] == out_start[s + 1]) {
            return Err(GameError::NoOutgoingTrack { station: station as u32 });
        }
        let out = match tails {
            None => heads,
            Some(tails) => {
                let mut fill = out_start[..n].to_vec();
                let mut out = huge_zeroed(heads.len());
                for (&u, &v) in tails.iter().zip(&heads) {
                    let slot = &mut fill[u as usize];
                    out[*slot as usize] = v;
                    *slot += 1;
                }
                out
            }
        };
        let halves = out.len() >= PARALLEL_FROM
            && std::thread::available_parallelism().is_ok_and(|p| p.get() >= 2);
        let (in_start, inc) = reverse(&out_start, &out, halves);
        Ok(Game { flags, out_start, out, in_start, inc })
    }
}

/// `len` zeros, on huge pages where the kernel gives them on request: the graph's arrays are
/// read at random (with 4 KiB pages, nearly every such read of a large graph would miss the
/// TLB), and a fresh huge page costs one page fault instead of 512.
pub(crate) fn huge_zeroed<T: Copy + Default>(len: usize) -> Vec<T> {
    // `vec!` of zeros gets memory the kernel has not touched yet, which the advice reaches.
    let zeros = vec![T::default(); len];
    engine::memory::advise_huge_pages(&zeros);
    zeros
}

/// An empty vector with room for `len` items on huge pages (see [`huge_zeroed`]).
pub(crate) fn huge_capacity<T>(len: usize) -> Vec<T> {
    let mut items = Vec::with_capacity(len);
    engine::memory::advise_huge_pages(items.spare_capacity_mut());
    items
}

/// Turns counts `c[1..]` (with `c[0] = 0`) into running totals.
fn prefix_sums(counts: &mut [u32]) {
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
}

/// Tracks from which [`reverse`] splits its work over two threads: below that, starting a
/// thread costs about what it saves.
const PARALLEL_FROM: usize = 1 << 20;

/// The predecessor offsets and array: for every track `u -> v` in forward order, `u` goes to
/// the next free slot of `v`, so predecessors come by increasing tail. `O(n + m)` time, and
/// `8m` bytes besides the result while it runs.
///
/// Written straight, each track's slot would be a cache miss on a large graph. So this is a
/// radix sort by head in two passes: the tracks are first written as `(tail, head)` pairs
/// into at most 256 buckets of consecutive heads (few enough streams of writes for the
/// cache to gather), in forward order; then each bucket's predecessor lists, a stretch of
/// the array small enough for the cache, are counted and filled from its pairs. With
/// `halves`, two threads share both passes: each writes the pairs of the tracks of the
/// tails on one side of the middle track, then fills half the buckets, from the first half's
/// pairs and then the second's, which gives the same arrays as one thread.
fn reverse(out_start: &[u32], out: &[u32], halves: bool) -> (Vec<u32>, Vec<u32>) {
    let n = out_start.len() - 1;
    let m = out.len();
    // Buckets of 2^shift stations, at most 256 of them.
    let shift = (usize::BITS - n.leading_zeros()).saturating_sub(8);
    let buckets = (n >> shift) + 1;
    let split = if halves { out_start.partition_point(|&s| (s as usize) < m / 2) } else { n };
    // Pass 1: each half's pairs, bucket after bucket, with where each bucket starts.
    let write_pairs = |tails: Range<usize>| {
        let tracks = &out[out_start[tails.start] as usize..out_start[tails.end] as usize];
        let mut start = vec![0u32; buckets + 1];
        for &v in tracks {
            start[(v >> shift) as usize + 1] += 1;
        }
        prefix_sums(&mut start);
        let mut fill = start.clone();
        let mut pairs = huge_zeroed(tracks.len());
        for u in tails {
            for &v in &out[out_start[u] as usize..out_start[u + 1] as usize] {
                let slot = &mut fill[(v >> shift) as usize];
                pairs[*slot as usize] = u64::from(u as u32) << 32 | u64::from(v);
                *slot += 1;
            }
        }
        (start, pairs)
    };
    let parts: Vec<(Vec<u32>, Vec<u64>)> = if halves {
        std::thread::scope(|s| {
            let second = s.spawn(|| write_pairs(split..n));
            vec![write_pairs(0..split), second.join().expect("the reverse does not panic")]
        })
    } else {
        vec![write_pairs(0..n)]
    };
    // Where each bucket's lists start in the predecessor array: after every earlier bucket
    // of every part.
    let base = |bucket: usize| parts.iter().map(|(start, _)| start[bucket]).sum::<u32>();
    // Pass 2: the buckets `range`, whose stations' offsets and lists are `in_start` and `inc`.
    let fill_buckets = |range: Range<usize>, in_start: &mut [u32], inc: &mut [u32]| {
        let (first_station, first_slot) = (range.start << shift, base(range.start));
        let mut count = vec![0u32; (1 << shift) + 1];
        for bucket in range {
            let stations = bucket << shift..((bucket + 1) << shift).min(n);
            let pairs = || {
                parts.iter().flat_map(move |(start, pairs)| {
                    &pairs[start[bucket] as usize..start[bucket + 1] as usize]
                })
            };
            count.fill(0);
            for &pair in pairs() {
                count[pair as u32 as usize - stations.start + 1] += 1;
            }
            prefix_sums(&mut count);
            let offset = base(bucket) - first_slot;
            for (i, v) in stations.clone().enumerate() {
                in_start[v - first_station] = base(bucket) + count[i];
            }
            for &pair in pairs() {
                let slot = &mut count[pair as u32 as usize - stations.start];
                inc[(offset + *slot) as usize] = (pair >> 32) as u32;
                *slot += 1;
            }
        }
    };
    let mut in_start = huge_zeroed(n + 1);
    let mut inc = huge_zeroed(m);
    in_start[n] = m as u32;
    if halves {
        let middle = buckets / 2;
        let (low_start, high_start) = in_start.split_at_mut((middle << shift).min(n));
        let (low_inc, high_inc) = inc.split_at_mut(base(middle) as usize);
        std::thread::scope(|s| {
            s.spawn(|| fill_buckets(middle..buckets, high_start, high_inc));
            fill_buckets(0..middle, low_start, low_inc);
        });
    } else {
        fill_buckets(0..buckets, &mut in_start, &mut inc);
    }
    (in_start, inc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_keeps_input_order_and_duplicates() {
        let game =
            Game::new(&[true, false], &[false, true], &[(0, 1), (1, 0), (0, 0), (0, 1)]).unwrap();
        assert_eq!((game.n(), game.m()), (2, 4));
        assert_eq!(game.succ(0), &[1, 0, 1]);
        assert_eq!(game.succ(1), &[0]);
        assert_eq!(game.pred(0), &[0, 1]);
        assert_eq!(game.pred(1), &[0, 0]);
        assert!(game.arezou(0) && !game.arezou(1));
        assert!(!game.charging(0) && game.charging(1));
    }

    #[test]
    fn the_reverse_lists_every_tail_in_order_on_one_thread_or_two() {
        let mut rng = engine::rng::SplitMix64::new(5);
        for case in 0..120 {
            let n = 1 + rng.below([30, 300, 3000, 70_000][case % 4]);
            let mut degrees: Vec<u32> = (0..n).map(|_| rng.below(4) as u32).collect();
            degrees[rng.below(n)] += rng.below(3 * n) as u32;
            let mut out_start = vec![0];
            for d in &degrees {
                out_start.push(out_start.last().unwrap() + d);
            }
            let out: Vec<u32> = (0..out_start[n]).map(|_| rng.below(n) as u32).collect();
            // Straight from the definition: every track's tail appended to its head's list.
            let mut lists = vec![Vec::new(); n];
            for u in 0..n {
                for &v in &out[out_start[u] as usize..out_start[u + 1] as usize] {
                    lists[v as usize].push(u as u32);
                }
            }
            let mut in_start = vec![0];
            for list in &lists {
                in_start.push(in_start.last().unwrap() + list.len() as u32);
            }
            let want = (in_start, lists.concat());
            assert_eq!(reverse(&out_start, &out, false), want, "n = {n}");
            assert_eq!(reverse(&out_start, &out, true), want, "n = {n}");
        }
    }

    #[test]
    fn bad_games_are_rejected() {
        assert_eq!(Game::new(&[], &[], &[]), Err(GameError::NoStations));
        assert_eq!(
            Game::new(&[true], &[true, false], &[(0, 0)]),
            Err(GameError::LengthMismatch { owners: 1, chargers: 2 })
        );
        assert_eq!(
            Game::new(&[true, true], &[false; 2], &[(0, 1), (1, 2)]),
            Err(GameError::StationOutOfRange { track: 1, station: 2, stations: 2 })
        );
        assert_eq!(
            Game::new(&[true, true], &[false; 2], &[(0, 0), (0, 1)]),
            Err(GameError::NoOutgoingTrack { station: 1 })
        );
    }
}
