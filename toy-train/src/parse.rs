//! Reading the official sample grader's input straight into a [`Game`], with errors located by
//! line and column.

use engine::input::{Input, InputError};

use crate::game::{Game, GameError, MAX_STATIONS, MAX_TRACKS, Tracks};

/// Parses `n m`, the owner flags `a`, the charger flags `r` and `m` tracks `u v`.
///
/// Stations are numbered from 0; duplicate tracks and self-loops are accepted, and so is a
/// railway without charging stations (Borzou then wins everywhere). Nothing may follow the
/// last track. `O(size of input + n + m)` time; besides the game it needs no more than the
/// tracks' tails (`4m` bytes), and only when they are not listed in order.
///
/// # Errors
/// The first problem found, located at the offending token (or the end of the input):
/// a number out of range (`n` in `1..=`[`MAX_STATIONS`], `m` in `n..=`[`MAX_TRACKS`] since
/// every station needs a track, flags in `0..=1`, stations in `0..n`), a token that is not a
/// number, a truncated file, extra tokens, or a station without an outgoing track (located
/// at its owner flag).
pub fn parse(bytes: &[u8]) -> Result<Game, InputError> {
    let mut input = Input::new(bytes);
    let n = input.uint("the number of stations n", 1..=MAX_STATIONS)? as usize;
    let m = input
        .uint("the number of tracks m (at least one per station)", n as u64..=MAX_TRACKS)?
        as usize;
    // Reserve no more than the input could describe, so an absurd header in a short file
    // cannot make us allocate gigabytes before the truncation is found.
    let rest = bytes.len() - input.offset();
    let flags_start = input.offset();
    let mut owner = Vec::with_capacity(n.min(rest / 2 + 1));
    for i in 0..n {
        owner.push(flag(&mut input, "owner flag a", i)?);
    }
    let mut flags = Vec::with_capacity(n.min(rest / 2 + 1));
    for (i, &a) in owner.iter().enumerate() {
        let r = flag(&mut input, "charger flag r", i)?;
        flags.push(Game::flag(a, r));
    }
    drop(owner);
    let last = n as u64 - 1;
    let rest = bytes.len() - input.offset();
    let mut tracks = Tracks::new(n, m.min(rest / 4 + 1));
    for i in 0..m {
        let u = station(&mut input, "u", i, last)?;
        let v = station(&mut input, "v", i, last)?;
        tracks.push(u, v);
    }
    input.finish("the m tracks")?;
    tracks.into_game(flags).map_err(|e| match e {
        GameError::NoOutgoingTrack { station } => input.error_at(
            token_offset(bytes, flags_start, station as usize),
            format!("expected a track leaving station {station}, found none among the {m} tracks"),
        ),
        // `into_game` reports nothing else; keep the message if that ever changes.
        other => input.error_at(flags_start, other.to_string()),
    })
}

/// Reads a 0/1 flag; the error names the flag as `a[i]` or `r[i]`.
#[inline]
fn flag(input: &mut Input<'_>, what: &str, i: usize) -> Result<bool, InputError> {
    match input.uint(what, 0u8..=1) {
        Ok(x) => Ok(x == 1),
        Err(e) => Err(rename(e, what, &format!("{what}[{i}]"))),
    }
}

/// Reads a station index in `0..=last`; the error names it as `u[i]` or `v[i]`.
#[inline]
fn station(input: &mut Input<'_>, side: &str, i: usize, last: u64) -> Result<u32, InputError> {
    match input.uint("station", 0..=last) {
        Ok(x) => Ok(x as u32),
        Err(e) => Err(rename(e, "station", &format!("station {side}[{i}] of track {i}"))),
    }
}

/// The hot path names numbers generically to avoid formatting; on an error, say exactly
/// which number was wrong.
#[cold]
#[inline(never)]
fn rename(mut err: InputError, generic: &str, exact: &str) -> InputError {
    err.message =
        err.message.replacen(&format!("expected {generic} "), &format!("expected {exact} "), 1);
    err
}

/// Byte offset of the `index`-th token at or after `from`. `O(bytes scanned)`; errors only.
fn token_offset(bytes: &[u8], from: usize, index: usize) -> usize {
    let mut input = Input::new(bytes);
    // Skip to `from` by reading tokens; the header is two tokens, so this stays cheap.
    while input.offset() < from {
        if input.next_token().is_none() {
            break;
        }
    }
    for _ in 0..index {
        input.next_token();
    }
    input.next_token().map_or(input.offset(), |t| t.offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_sample() {
        let game = parse(b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n").unwrap();
        assert_eq!((game.n(), game.m()), (2, 4));
        assert!(!game.arezou(0) && game.arezou(1));
        assert!(game.charging(0) && !game.charging(1));
        assert_eq!(game.succ(0), &[0, 1]);
        assert_eq!(game.pred(1), &[0, 1]);
    }

    #[test]
    fn errors_name_the_number_and_its_place() {
        assert_eq!(
            err("2 4\n0 1\n1 0\n0 0\n0 2\n"),
            "line 5, column 3: expected station v[1] of track 1 in 0..=1, found \"2\""
        );
        assert_eq!(
            err("2 2\n0 3\n"),
            "line 2, column 3: expected owner flag a[1] in 0..=1, found \"3\""
        );
        assert_eq!(
            err("2 2\n0 1\n1 0\n0 0\n"),
            "line 4, column 4: expected station u[1] of track 1 in 0..=1, found end of input"
        );
        assert_eq!(
            err("3 2\n"),
            "line 1, column 3: expected the number of tracks m (at least one per station) \
             in 3..=1000000000, found \"2\""
        );
        assert_eq!(
            err("2 2\n0 1\n1 0\n0 0\n0 1\n"),
            "line 2, column 3: expected a track leaving station 1, found none among the 2 tracks"
        );
        assert_eq!(
            err("1 1\n0\n1\n0 0\n7\n"),
            "line 5, column 1: expected end of input after the m tracks, found \"7\""
        );
    }

    #[test]
    fn absurd_sizes_in_short_files_fail_without_huge_allocations() {
        let e = err("99999999 999999999\n0 1\n");
        assert_eq!(e, "line 2, column 4: expected owner flag a[2] in 0..=1, found end of input");
        let e = err("100000001 100000001\n");
        assert!(e.starts_with("line 1, column 1: expected the number of stations n"), "{e}");
    }
}
