//! The railway as a game graph: who owns each station, which stations charge, and the tracks
//! in compressed sparse row form (forward and reverse, `u32` indices).

/// Most stations a game may have: indices are `u32`, and a graph this size needs gigabytes.
pub const MAX_STATIONS: u64 = 100_000_000;

/// Most tracks a game may have: CSR offsets are `u32`, so this stays below `u32::MAX`.
pub const MAX_TRACKS: u64 = 1_000_000_000;

/// Bit set in a station's flags when Arezou owns it.
const AREZOU: u8 = 1;
/// Bit set in a station's flags when it is a charging station.
const CHARGING: u8 = 2;

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
/// (successors) and by head (predecessors), each in input order.
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
        Self::from_checked(flags, tracks)
    }

    /// Builds the CSR arrays from flags and in-range tracks by two counting sorts.
    /// `O(n + m)` time; the only check left is that every station has a track out.
    pub(crate) fn from_checked(flags: Vec<u8>, tracks: &[(u32, u32)]) -> Result<Self, GameError> {
        let n = flags.len();
        let (out_start, out) = csr(n, tracks, |&(u, v)| (u, v));
        if let Some(station) = (0..n).find(|&s| out_start[s] == out_start[s + 1]) {
            return Err(GameError::NoOutgoingTrack { station: station as u32 });
        }
        let (in_start, inc) = csr(n, tracks, |&(u, v)| (v, u));
        Ok(Self { flags, out_start, out, in_start, inc })
    }

    /// A station's flags byte as [`Game::from_checked`] takes it.
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

    /// The stations with a track into `v`, in input order (repeats for duplicate tracks).
    #[inline]
    #[must_use]
    pub fn pred(&self, v: u32) -> &[u32] {
        &self.inc[self.in_start[v as usize] as usize..self.in_start[v as usize + 1] as usize]
    }

    /// Stations `0..n` as `u32`.
    pub fn stations(&self) -> std::ops::Range<u32> {
        0..self.n() as u32
    }
}

/// A CSR array of `key -> value` over `0..n` keys, stable in track order.
fn csr(
    n: usize,
    tracks: &[(u32, u32)],
    pick: impl Fn(&(u32, u32)) -> (u32, u32),
) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for t in tracks {
        start[pick(t).0 as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill: Vec<u32> = start[..n].to_vec();
    let mut items = vec![0u32; tracks.len()];
    for t in tracks {
        let (k, v) = pick(t);
        let slot = &mut fill[k as usize];
        items[*slot as usize] = v;
        *slot += 1;
    }
    (start, items)
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
        assert_eq!(game.pred(0), &[1, 0]);
        assert_eq!(game.pred(1), &[0, 0]);
        assert!(game.arezou(0) && !game.arezou(1));
        assert!(!game.charging(0) && game.charging(1));
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
