//! [`Railway`]: an input exactly as its file lists it (owners, chargers and tracks in file
//! order), what the generators build, the judge reads and edits, and the solvers' [`Game`]
//! is made from; its rendering in the sample grader's format (`write_railway`); and the
//! edits shrink moves are made of (drop stations and renumber, drop tracks, bypass a
//! station, clear charging flags), each keeping a track out of every station.
//!
//! The solver itself does not go through a `Railway`: [`parse`](crate::parse()) streams the
//! input straight into a [`Game`]'s arrays, which is what lets it read 10^8 stations.

use std::collections::HashMap;
#[cfg(feature = "judge")]
use std::collections::HashSet;
#[cfg(feature = "judge")]
use std::ops::Range;

use engine::input::{Input, InputError, Limits};
use engine::rng::SplitMix64;

use crate::game::{Game, GameError, MAX_STATIONS, MAX_TRACKS};
use crate::output::push_uint;

/// A railway exactly as its input file lists it: the stations' flags and the tracks in file
/// order (so rendering and parsing give each other back).
///
/// Space: `2n + 8m` bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Railway {
    /// `a[i]`: Arezou owns station `i`.
    pub arezou: Vec<bool>,
    /// `r[i]`: station `i` charges.
    pub charging: Vec<bool>,
    /// Tracks `(u, v)` in file order.
    pub tracks: Vec<(u32, u32)>,
}

/// Appends a railway in the sample grader's format: `n m`, the owner flags, the charger
/// flags, one track a line. `O(n + m)`.
pub(crate) fn write_railway(
    out: &mut Vec<u8>,
    arezou: &[bool],
    charging: &[bool],
    tracks: &[(u32, u32)],
) {
    out.reserve(4 * arezou.len() + 12 * tracks.len() + 24);
    push_uint(out, arezou.len() as u64);
    out.push(b' ');
    push_uint(out, tracks.len() as u64);
    out.push(b'\n');
    for flags in [arezou, charging] {
        for (i, &f) in flags.iter().enumerate() {
            if i > 0 {
                out.push(b' ');
            }
            out.push(if f { b'1' } else { b'0' });
        }
        out.push(b'\n');
    }
    for &(u, v) in tracks {
        push_uint(out, u64::from(u));
        out.push(b' ');
        push_uint(out, u64::from(v));
        out.push(b'\n');
    }
}

/// Most stations under the original limits.
pub(crate) const ORIGINAL_MAX_STATIONS: u64 = 5_000;
/// Most tracks under the original limits.
pub(crate) const ORIGINAL_MAX_TRACKS: u64 = 20_000;

/// `(most stations, most tracks)` under `limits`.
pub(crate) fn bounds(limits: Limits) -> (u64, u64) {
    match limits {
        Limits::Original => (ORIGINAL_MAX_STATIONS, ORIGINAL_MAX_TRACKS),
        Limits::Extended => (MAX_STATIONS, MAX_TRACKS),
    }
}

impl Railway {
    /// Reads the sample grader's format with the solver's tokenizer and messages, checking
    /// `limits` as it goes (the judge's parser). Under the extended limits it accepts exactly
    /// what [`parse`](crate::parse()) accepts, with the same messages. `O(input + n + m)`; it
    /// allocates no more than the input's length could describe.
    ///
    /// # Errors
    /// The first departure from the format or the limits, with its line and column.
    pub fn parse(bytes: &[u8], limits: Limits) -> Result<Railway, InputError> {
        let (max_n, max_m) = bounds(limits);
        let mut input = Input::new(bytes);
        let n = input.uint("the number of stations n", 1..=max_n)? as usize;
        let m = input.uint("the number of tracks m (at least one per station)", n as u64..=max_m)?
            as usize;
        let rest = bytes.len() - input.offset();
        let flags_start = input.offset();
        let mut arezou = Vec::with_capacity(n.min(rest / 2 + 1));
        for i in 0..n {
            arezou.push(flag(&mut input, "owner flag a", i)?);
        }
        let chargers_start = token_start(bytes, input.offset());
        let mut charging = Vec::with_capacity(n);
        for i in 0..n {
            charging.push(flag(&mut input, "charger flag r", i)?);
        }
        if limits == Limits::Original && !charging.contains(&true) {
            return Err(input.error_at(
                chargers_start,
                "expected at least one charging station (some r[i] = 1), found none",
            ));
        }
        let last = n as u64 - 1;
        let rest = bytes.len() - input.offset();
        let mut tracks = Vec::with_capacity(m.min(rest / 4 + 1));
        let mut has_track = vec![false; n];
        let mut seen = (limits == Limits::Original).then(|| HashMap::with_capacity(m));
        for i in 0..m {
            let start = token_start(bytes, input.offset());
            let u = station(&mut input, "u", i, last)?;
            let v = station(&mut input, "v", i, last)?;
            if let Some(earlier) = seen.as_mut().and_then(|seen| seen.insert((u, v), i)) {
                return Err(input
                    .error_at(start, format!("track {i} ({u} -> {v}) repeats track {earlier}")));
            }
            has_track[u as usize] = true;
            tracks.push((u, v));
        }
        input.finish("the m tracks")?;
        if let Some(s) = has_track.iter().position(|&t| !t) {
            return Err(input.error_at(
                nth_token(bytes, flags_start, s),
                format!("expected a track leaving station {s}, found none among the {m} tracks"),
            ));
        }
        Ok(Railway { arezou, charging, tracks })
    }

    /// Number of stations.
    #[must_use]
    pub fn n(&self) -> usize {
        self.arezou.len()
    }

    /// Number of tracks.
    #[must_use]
    pub fn m(&self) -> usize {
        self.tracks.len()
    }

    /// Number of charging stations.
    #[must_use]
    pub fn chargers(&self) -> usize {
        self.charging.iter().filter(|&&r| r).count()
    }

    /// The game the solvers take. `O(n + m)`.
    ///
    /// # Errors
    /// As [`Game::new`]: never for a generated railway or one the judge's validator accepts.
    pub fn to_game(&self) -> Result<Game, GameError> {
        Game::new(&self.arezou, &self.charging, &self.tracks)
    }

    /// Appends the sample grader's format: `n m`, the owner flags, the charger flags, one
    /// track a line. `O(n + m)`.
    pub fn render(&self, out: &mut Vec<u8>) {
        write_railway(out, &self.arezou, &self.charging, &self.tracks);
    }

    /// The input text in the sample grader's format. `O(n + m)`.
    #[must_use]
    pub fn to_text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.render(&mut out);
        out
    }

    /// Renames the stations by a random permutation and shuffles the track order, keeping
    /// the game the same up to names. `O(n + m)`.
    #[must_use]
    pub(crate) fn shuffled(self, rng: &mut SplitMix64) -> Self {
        let n = self.arezou.len();
        let mut name: Vec<u32> = (0..n as u32).collect();
        rng.shuffle(&mut name);
        let mut arezou = vec![false; n];
        let mut charging = vec![false; n];
        for (old, &new) in name.iter().enumerate() {
            arezou[new as usize] = self.arezou[old];
            charging[new as usize] = self.charging[old];
        }
        let mut tracks: Vec<(u32, u32)> =
            self.tracks.iter().map(|&(u, v)| (name[u as usize], name[v as usize])).collect();
        rng.shuffle(&mut tracks);
        Self { arezou, charging, tracks }
    }
}

/// The edits the judge's shrink moves are made of.
#[cfg(feature = "judge")]
impl Railway {
    /// The railway without the stations marked in `dropped` and the tracks touching them;
    /// the others are renumbered in order. `O(n + m)`.
    #[must_use]
    pub(crate) fn without_stations(&self, dropped: &[bool]) -> Self {
        assert_eq!(dropped.len(), self.n(), "one mark a station");
        let mut name = Vec::with_capacity(self.n());
        let mut next = 0u32;
        for &d in dropped {
            name.push(next);
            next += u32::from(!d);
        }
        let keep = |s: usize| !dropped[s];
        let flags = |v: &[bool]| -> Vec<bool> {
            v.iter().enumerate().filter(|&(s, _)| keep(s)).map(|(_, &f)| f).collect()
        };
        Self {
            arezou: flags(&self.arezou),
            charging: flags(&self.charging),
            tracks: self
                .tracks
                .iter()
                .filter(|&&(u, v)| keep(u as usize) && keep(v as usize))
                .map(|&(u, v)| (name[u as usize], name[v as usize]))
                .collect(),
        }
    }

    /// Whether dropping station `s` with its tracks would leave another station without a
    /// track: some station other than `s` has all its tracks leading to `s`. `O(n + m)`.
    #[must_use]
    pub(crate) fn strands(&self, s: u32) -> bool {
        // `elsewhere[u]`: a track of `u` leads to a station other than `s`.
        let mut elsewhere = vec![false; self.n()];
        for &(u, v) in &self.tracks {
            elsewhere[u as usize] |= v != s;
        }
        elsewhere.iter().enumerate().any(|(u, &e)| u != s as usize && !e)
    }

    /// Whether station `s` can be [bypassed](Self::bypassing) to a purpose: its only track
    /// leads to another station, and some track leads into it. `O(m)`.
    #[must_use]
    pub(crate) fn bypassable(&self, s: u32) -> bool {
        let mut out = self.tracks.iter().filter(|&&(u, _)| u == s);
        let one_track = matches!((out.next(), out.next()), (Some(&(_, t)), None) if t != s);
        one_track && self.tracks.iter().any(|&(u, v)| v == s && u != s)
    }

    /// The railway without station `s`, each other station keeping a track: plainly (`s`
    /// and its tracks dropped, the stations after it renumbered) when that
    /// [strands](Self::strands) no station; otherwise by [bypassing](Self::bypassing) `s`
    /// when its only track leads to another station; otherwise [giving a self-loop to each
    /// station it strands](Self::without_station_chunk). So it is the plain one-step drop
    /// whenever that is valid. `O(n + m)`.
    #[must_use]
    pub(crate) fn without_station(&self, s: u32) -> Self {
        if !self.strands(s) {
            let mut dropped = vec![false; self.n()];
            dropped[s as usize] = true;
            return self.without_stations(&dropped);
        }
        if self.bypassable(s) {
            self.bypassing(s)
        } else {
            self.without_station_chunk(s as usize..s as usize + 1)
        }
    }

    /// The railway without the stations in `range` and the tracks touching them, the others
    /// renumbered in order; a station left without a track gets a self-loop in place of its
    /// first track into `range`, so every station keeps a track and no station but those in
    /// `range` goes. `O(n + m)`.
    #[must_use]
    pub(crate) fn without_station_chunk(&self, range: Range<usize>) -> Self {
        let n = self.n();
        let inside = |s: u32| range.contains(&(s as usize));
        let mut kept_track = vec![false; n];
        for &(u, v) in &self.tracks {
            if !inside(v) {
                kept_track[u as usize] = true;
            }
        }
        let mut looped = kept_track;
        let mut tracks = Vec::with_capacity(self.m());
        for &(u, v) in &self.tracks {
            if inside(u) {
                continue;
            }
            if !inside(v) {
                tracks.push((u, v));
            } else if !looped[u as usize] {
                looped[u as usize] = true;
                tracks.push((u, u));
            }
        }
        let mut dropped = vec![false; n];
        dropped[range].fill(true);
        Self { arezou: self.arezou.clone(), charging: self.charging.clone(), tracks }
            .without_stations(&dropped)
    }

    /// The railway without the tracks `listed` (indices into the tracks), except that a
    /// station whose every track is listed keeps the first of them, so no station is left
    /// without a track out. `O(n + m)`.
    #[must_use]
    pub(crate) fn without_tracks(&self, listed: &[u32]) -> Self {
        let mut drop = vec![false; self.m()];
        for &i in listed {
            drop[i as usize] = true;
        }
        let mut kept = vec![false; self.n()];
        for (&(u, _), &d) in self.tracks.iter().zip(&drop) {
            kept[u as usize] |= !d;
        }
        let mut tracks = Vec::with_capacity(self.m());
        for (&(u, v), &d) in self.tracks.iter().zip(&drop) {
            if !d || !kept[u as usize] {
                kept[u as usize] = true;
                tracks.push((u, v));
            }
        }
        Self { arezou: self.arezou.clone(), charging: self.charging.clone(), tracks }
    }

    /// The railway without station `s`, whose only track `s -> t` (with `t != s`) it
    /// bypasses: every track into `s` now leads to `t` (unless that track already exists),
    /// and the stations after `s` are renumbered. Every station keeps a track out. `O(n + m)`.
    #[must_use]
    pub(crate) fn bypassing(&self, s: u32) -> Self {
        let mut out = self.tracks.iter().filter(|&&(u, _)| u == s);
        let &(_, t) = out.next().expect("a bypassed station has a track");
        assert!(out.next().is_none() && t != s, "station {s} has one track, to another station");
        // Tracks `u -> t` that exist already, among the stations leading into `s`.
        let into_s: HashSet<u32> =
            self.tracks.iter().filter(|&&(_, v)| v == s).map(|&(u, _)| u).collect();
        let mut to_t: HashSet<u32> = self
            .tracks
            .iter()
            .filter(|&&(u, v)| v == t && into_s.contains(&u))
            .map(|&(u, _)| u)
            .collect();
        let mut tracks = Vec::with_capacity(self.m());
        for &(u, v) in &self.tracks {
            if u == s {
                continue;
            }
            if v != s {
                tracks.push((u, v));
            } else if to_t.insert(u) {
                tracks.push((u, t));
            }
        }
        let mut dropped = vec![false; self.n()];
        dropped[s as usize] = true;
        Self { arezou: self.arezou.clone(), charging: self.charging.clone(), tracks }
            .without_stations(&dropped)
    }

    /// The railway with the charging flags of `stations` cleared.
    #[must_use]
    pub(crate) fn without_chargers(&self, stations: &[u32]) -> Self {
        let mut next = self.clone();
        for &s in stations {
            next.charging[s as usize] = false;
        }
        next
    }
}

/// The byte offset where the next token starts (past white space) from `offset`.
pub(crate) fn token_start(bytes: &[u8], offset: usize) -> usize {
    offset + bytes[offset..].iter().take_while(|b| b.is_ascii_whitespace()).count()
}

/// The byte offset of the `index`-th token at or after `from`. `O(bytes scanned)`; errors
/// only.
pub(crate) fn nth_token(bytes: &[u8], from: usize, index: usize) -> usize {
    let mut input = Input::new(&bytes[from..]);
    for _ in 0..index {
        input.next_token();
    }
    from + input.next_token().map_or(input.offset(), |t| t.offset)
}

/// Reads a 0/1 flag; the error names it as `a[i]` or `r[i]`, as the solver's parser does.
fn flag(input: &mut Input<'_>, what: &str, i: usize) -> Result<bool, InputError> {
    match input.uint(what, 0u8..=1) {
        Ok(x) => Ok(x == 1),
        Err(e) => Err(rename(e, what, &format!("{what}[{i}]"))),
    }
}

/// Reads a station index in `0..=last`; the error names it as `u[i]` or `v[i]`.
fn station(input: &mut Input<'_>, side: &str, i: usize, last: u64) -> Result<u32, InputError> {
    match input.uint("station", 0..=last) {
        Ok(x) => Ok(x as u32),
        Err(e) => Err(rename(e, "station", &format!("station {side}[{i}] of track {i}"))),
    }
}

/// The hot path names numbers generically to avoid formatting; on an error, say exactly
/// which number was wrong.
#[cold]
fn rename(mut err: InputError, generic: &str, exact: &str) -> InputError {
    err.message =
        err.message.replacen(&format!("expected {generic} "), &format!("expected {exact} "), 1);
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    fn railway(arezou: &[u8], charging: &[u8], tracks: &[(u32, u32)]) -> Railway {
        Railway {
            arezou: arezou.iter().map(|&a| a == 1).collect(),
            charging: charging.iter().map(|&r| r == 1).collect(),
            tracks: tracks.to_vec(),
        }
    }

    #[test]
    fn renders_the_grader_format() {
        let r = railway(&[0, 1], &[1, 0], &[(0, 0), (0, 1), (1, 0), (1, 1)]);
        let mut out = Vec::new();
        r.render(&mut out);
        assert_eq!(out, b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n");
    }

    #[test]
    fn dropping_stations_renumbers_and_loops_what_they_strand() {
        // 0 -> 1 -> 2 -> 2, 3 -> 0, 3 -> 3.
        let r = railway(&[1, 0, 1, 0], &[0, 1, 0, 1], &[(0, 1), (1, 2), (2, 2), (3, 0), (3, 3)]);
        let plain = r.without_stations(&[false, false, true, false]);
        assert_eq!(plain, railway(&[1, 0, 0], &[0, 1, 1], &[(0, 1), (2, 0), (2, 2)]));
        // Without 2, station 1 has no track: it gets a self-loop; 0 keeps its track to 1.
        let chunk = r.without_station_chunk(2..3);
        assert_eq!(chunk, railway(&[1, 0, 0], &[0, 1, 1], &[(0, 1), (1, 1), (2, 0), (2, 2)]));
        assert_eq!(
            r.without_station_chunk(1..3),
            railway(&[1, 0], &[0, 1], &[(0, 0), (1, 0), (1, 1)])
        );
        // One station: plainly when that strands nothing, else bypassed, else with loops.
        assert_eq!(r.without_station(3), r.without_stations(&[false, false, false, true]));
        assert_eq!(r.without_station(1), r.bypassing(1));
        assert_eq!(r.without_station(2), chunk);
    }

    #[test]
    fn dropping_tracks_keeps_one_per_station() {
        let r = railway(&[1, 1], &[1, 0], &[(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(r.without_tracks(&[1, 2]).tracks, [(0, 0), (1, 1)]);
        assert_eq!(r.without_tracks(&[0, 1, 2, 3]).tracks, [(0, 0), (1, 0)]);
        assert_eq!(r.without_chargers(&[0]).chargers(), 0);
    }

    #[test]
    fn bypassing_a_station_redirects_its_predecessors() {
        // 0 -> 1 -> 2, 0 -> 2, 2 -> 1, 2 -> 2: bypass 1 (its one track goes to 2).
        let r = railway(&[1, 0, 1], &[0, 1, 0], &[(0, 1), (0, 2), (1, 2), (2, 1), (2, 2)]);
        // 0 -> 1 would repeat 0 -> 2, so it goes; 2 -> 1 becomes 2 -> 2, which exists.
        assert_eq!(r.bypassing(1), railway(&[1, 1], &[0, 0], &[(0, 1), (1, 1)]));
        let chain = railway(&[1, 1, 1], &[1, 0, 0], &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(chain.bypassing(2), railway(&[1, 1], &[1, 0], &[(0, 1), (1, 0)]));
    }
}
