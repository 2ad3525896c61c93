//! Reading the official sample grader's input straight into a [`Game`], with errors located by
//! line and column.
//!
//! Two readers share the work. The exact one reads token by token through
//! [`engine::input::Input`] and knows every error message. The fast one reads the usual
//! layout (flags one byte each, stations of up to 7 digits, each number followed by one
//! white-space byte) eight bytes at a time and stops, at the start of the track or flag, at
//! anything else; the exact reader then reads that item and hands back. On a large file
//! the tracks are read by two threads, each from its own half. Since the fast reader only
//! ever accepts what the exact one reads the same way, the result (game or error) does not
//! depend on which read what.

use engine::input::{Input, InputError};

use crate::game::{AREZOU, CHARGING, Game, GameError, MAX_STATIONS, MAX_TRACKS, Tracks};

/// Parses `n m`, the owner flags `a`, the charger flags `r` and `m` tracks `u v`.
///
/// Stations are numbered from 0; duplicate tracks and self-loops are accepted, and so is a
/// railway without charging stations (Borzou then wins everywhere). Nothing may follow the
/// last track. `O(size of input + n + m)` time, on two threads for inputs of more than a
/// few megabytes; besides the game it needs no more than the tracks' tails (`4m` bytes),
/// and only when they are not listed in order.
///
/// # Errors
/// The first problem found, located at the offending token (or the end of the input):
/// a number out of range (`n` in `1..=`[`MAX_STATIONS`], `m` in `n..=`[`MAX_TRACKS`] since
/// every station needs a track, flags in `0..=1`, stations in `0..n`), a token that is not a
/// number, a truncated file, extra tokens, or a station without an outgoing track (located
/// at its owner flag).
pub fn parse(bytes: &[u8]) -> Result<Game, InputError> {
    parse_with(bytes, Reader::DEFAULT)
}

/// Which readers [`parse_with`] uses: the results are the same whatever the setting, which
/// the tests check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reader {
    /// Read the usual layout eight bytes at a time (else every token goes through the exact
    /// reader).
    pub(crate) fast: bool,
    /// Read the tracks on two threads when they take at least this many bytes (and the fast
    /// reader is on).
    pub(crate) parallel_from: usize,
}

impl Reader {
    /// The fast reader, on two threads from 4 MiB of tracks: below that, starting a thread
    /// costs about what it saves.
    pub(crate) const DEFAULT: Self = Self { fast: true, parallel_from: 1 << 22 };
}

/// [`parse`] with the readers given by `reader`.
pub(crate) fn parse_with(bytes: &[u8], reader: Reader) -> Result<Game, InputError> {
    let mut input = Input::new(bytes);
    let n = input.uint("the number of stations n", 1..=MAX_STATIONS)? as usize;
    let m = input
        .uint("the number of tracks m (at least one per station)", n as u64..=MAX_TRACKS)?
        as usize;
    // Reserve no more than the input could describe, so an absurd header in a short file
    // cannot make us allocate gigabytes before the truncation is found.
    let rest = bytes.len() - input.offset();
    let flags_start = input.offset();
    let mut flags = Vec::with_capacity(n.min(rest / 2 + 1));
    read_flags(&mut input, n, reader.fast, "owner flag a", |a| flags.push(a * AREZOU))?;
    let mut i = 0;
    read_flags(&mut input, n, reader.fast, "charger flag r", |r| {
        flags[i] |= r * CHARGING;
        i += 1;
    })?;
    let last = n as u64 - 1;
    let rest = bytes.len() - input.offset();
    let capacity = m.min(rest / 4 + 1);
    let parallel = reader.fast
        && rest >= reader.parallel_from
        && std::thread::available_parallelism().is_ok_and(|p| p.get() >= 2);
    let (mut tracks, mut read) = if parallel {
        read_tracks_in_halves(&mut input, n, m, capacity)
    } else {
        (Tracks::new(n, capacity), 0)
    };
    while read < m {
        if reader.fast {
            read = read_tracks(&mut input, last as u32, read, m, &mut tracks);
            if read == m {
                break;
            }
        }
        let u = station(&mut input, "u", read, last)?;
        let v = station(&mut input, "v", read, last)?;
        tracks.push(u, v);
        read += 1;
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

/// Reads `count` flags, each `0` or `1`, passing each to `put`; the fast way while a flag is
/// one byte followed by one white-space byte, the exact reader otherwise. `O(count)`.
fn read_flags(
    input: &mut Input<'_>,
    count: usize,
    fast: bool,
    what: &str,
    mut put: impl FnMut(u8),
) -> Result<(), InputError> {
    let mut i = 0;
    while i < count {
        if fast {
            let rest = input.rest();
            let mut at = 0;
            // A white-space byte before a flag (a line break, a second space) is skipped
            // here, so only odd layouts reach the exact reader.
            while i < count
                && let Some(&[a, b, c]) = rest.get(at..at + 3)
            {
                let skip = usize::from(a.is_ascii_whitespace());
                let (flag, after) = if skip == 0 { (a, b) } else { (b, c) };
                if flag | 1 != b'1' || !after.is_ascii_whitespace() {
                    break;
                }
                put(flag & 1);
                at += skip + 2;
                i += 1;
            }
            input.advance(at);
            if i == count {
                break;
            }
        }
        put(u8::from(flag(input, what, i)?));
        i += 1;
    }
    Ok(())
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

/// Reads tracks the fast way from the cursor on, counting from track `read`, until `m` are
/// read or one is not in the usual layout (or ends within 16 bytes of the end of the input);
/// the cursor is left at the start of the first track not read. Returns the tracks read in
/// all. `O(bytes read)`.
fn read_tracks(
    input: &mut Input<'_>,
    last: u32,
    read: usize,
    m: usize,
    tracks: &mut Tracks,
) -> usize {
    let rest = input.rest();
    let (at, count) = fast_tracks(rest, rest.len(), last, m - read, tracks);
    input.advance(at);
    read + count
}

/// Reads up to `limit` tracks from the start of `bytes` while each is two numbers of 1 to 7
/// digits in `0..=last`, each followed by one white-space byte, with any white space before
/// them; stops before a track starting at or after `end`, or within 16 bytes of the end of
/// `bytes`. Returns the offset where it stopped (the start of a track, or `end`) and the
/// number of tracks read. `O(bytes read)`.
fn fast_tracks(
    bytes: &[u8],
    end: usize,
    last: u32,
    limit: usize,
    tracks: &mut Tracks,
) -> (usize, usize) {
    let mut reader = FastTracks { bytes, at: 0, end, last, left: limit };
    tracks.extend(&mut reader);
    (reader.at, limit - reader.left)
}

/// The tracks [`fast_tracks`] reads, one by one.
struct FastTracks<'a> {
    bytes: &'a [u8],
    /// Where the next track starts (or white space before it).
    at: usize,
    end: usize,
    last: u32,
    /// How many more tracks may be read.
    left: usize,
}

impl Iterator for FastTracks<'_> {
    type Item = (u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u32)> {
        if self.left == 0 {
            return None;
        }
        let mut start = self.at;
        while self.bytes.get(start).is_some_and(u8::is_ascii_whitespace) {
            start += 1;
        }
        if start >= self.end {
            self.at = start;
            return None;
        }
        // Both numbers of a track in the usual layout lie within 16 bytes of its start.
        // Each number is read as the eight bytes from where it starts: two plain loads (a
        // shift of sixteen bytes by a variable count costs a double shift and a select).
        let line = self.bytes.get(start..start + 16)?;
        let word = |at: usize| Some(u64::from_le_bytes(line.get(at..at + 8)?.try_into().ok()?));
        let (u, u_len) = short_number(word(0)?)?;
        let (v, v_len) = short_number(word(u_len)?)?;
        if u > self.last || v > self.last {
            return None;
        }
        self.at = start + u_len + v_len;
        self.left -= 1;
        Some((u, v))
    }
}

/// The number at the start of `word` (eight bytes of the input, the first in the lowest)
/// when it has 1 to 7 digits followed by a white-space byte, with the bytes it takes with
/// that one; `None` otherwise. The digits are found and converted with a few arithmetic
/// operations on the word, without a loop over them.
#[inline(always)]
fn short_number(word: u64) -> Option<(u32, usize)> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    // Digits become 0..=9; a byte is not a digit when its low seven bits reach 10 (adding
    // 0x76 sets the top bit then, without carrying into the next byte) or its top bit is set.
    let x = word ^ (LOW * u64::from(b'0'));
    let not_digit = (((x & (LOW * 0x7f)) + LOW * 0x76) | x) & (LOW * 0x80);
    let len = (not_digit.trailing_zeros() / 8) as usize;
    if len == 0 || len == 8 || !((word >> (8 * len)) as u8).is_ascii_whitespace() {
        return None;
    }
    // The digits moved to the top bytes, most significant first, zeros below: then pairs,
    // quadruples and the whole are combined by three multiplications.
    let digits = x << (8 * (8 - len));
    let pairs = (digits & (LOW * 0x0f)).wrapping_mul(10 << 8 | 1) >> 8 & 0x00ff_00ff_00ff_00ff;
    let quads = pairs.wrapping_mul(100 << 16 | 1) >> 16 & 0x0000_ffff_0000_ffff;
    let value = quads.wrapping_mul(10_000 << 32 | 1) >> 32;
    Some((value as u32, len + 1))
}

/// Reads as many tracks as it can from the cursor on two threads, the first from the cursor,
/// the second from the first line at or after the middle of the rest: tracks whose numbers
/// the fast reader accepts. The second half counts only if the first ends exactly where the
/// second begins (so the halves split the same sequence of tokens at a track) and the two
/// together have at most `m` tracks. Returns the tracks read, in order, with the cursor after
/// them. `O(bytes read)`, on two threads.
fn read_tracks_in_halves(
    input: &mut Input<'_>,
    n: usize,
    m: usize,
    capacity: usize,
) -> (Tracks, usize) {
    let rest = input.rest();
    let last = n as u32 - 1;
    let middle = rest.len() / 2;
    let second =
        rest[middle..].iter().position(|&b| b == b'\n').map(|k| middle + k + 1).and_then(|at| {
            rest[at..].iter().position(|b| !b.is_ascii_whitespace()).map(|k| at + k)
        });
    let Some(second) = second else {
        return (Tracks::new(n, capacity), 0);
    };
    let share = |part: usize| (capacity as u64 * part as u64 / rest.len() as u64) as usize + 1;
    let ((mut first, (end, count)), (later, (later_end, later_count))) = std::thread::scope(|s| {
        let later = s.spawn(|| {
            let mut tracks = Tracks::new(n, share(rest.len() - second));
            let read = fast_tracks(&rest[second..], usize::MAX, last, m, &mut tracks);
            (tracks, read)
        });
        let mut tracks = Tracks::new(n, capacity);
        let read = fast_tracks(rest, second, last, m, &mut tracks);
        ((tracks, read), later.join().expect("the reader of the second half does not panic"))
    });
    if end != second || count + later_count > m {
        input.advance(end);
        return (first, count);
    }
    first.append(later);
    input.advance(second + later_end);
    (first, count + later_count)
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

    /// The exact reader alone; the fast one on one thread; on two threads whatever the size.
    const READERS: [Reader; 3] = [
        Reader { fast: false, parallel_from: usize::MAX },
        Reader { fast: true, parallel_from: usize::MAX },
        Reader { fast: true, parallel_from: 0 },
    ];

    /// What every reader makes of `text`, which must be the same.
    fn parse_alike(text: &[u8]) -> Result<Game, InputError> {
        let [exact, rest @ ..] = READERS.map(|reader| parse_with(text, reader));
        for got in rest {
            assert_eq!(got, exact, "{:?}", String::from_utf8_lossy(&text[..text.len().min(200)]));
        }
        exact
    }

    /// A railway's text changed the way hand-made and broken files differ from generated
    /// ones: a byte replaced, `\r\n` line ends, runs of white space, leading zeros, long
    /// numbers, a cut, extra tokens.
    fn mutated(text: &[u8], rng: &mut engine::rng::SplitMix64) -> Vec<u8> {
        let mut text = text.to_vec();
        let at = rng.below(text.len());
        match rng.below(8) {
            0 => {
                let bytes = b" \n\r\t\x0b\x0cx-.+0123456789";
                text[at] = bytes[rng.below(bytes.len())];
            }
            1 => {
                text = text
                    .iter()
                    .flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] })
                    .collect();
            }
            2 => {
                let run: &[u8] = [&b"  "[..], b"\n\n", b" \t"][rng.below(3)];
                text.splice(at..at, run.iter().copied()).for_each(drop);
            }
            3 => {
                // A number gets a leading zero (or a few), which keeps its value.
                let digit = text[at..].iter().position(|b| b.is_ascii_digit()).map(|k| at + k);
                if let Some(d) = digit.filter(|&d| d == 0 || text[d - 1].is_ascii_whitespace()) {
                    text.splice(d..d, std::iter::repeat_n(b'0', 1 + rng.below(8))).for_each(drop);
                }
            }
            4 => text.truncate(at),
            5 => text.extend_from_slice(b"0 0\n"),
            6 => text.splice(at..at, *b"12345678").for_each(drop),
            _ => {} // Unchanged.
        }
        text
    }

    #[test]
    fn every_reader_reads_alike() {
        use crate::generator::{Family, GenParams, generate};
        let mut rng = engine::rng::SplitMix64::new(34);
        let (mut valid, mut invalid) = (0, 0);
        for case in 0..3000 {
            let family =
                [Family::Random, Family::Line, Family::Cascade, Family::Staircase][case % 4];
            let n = if case % 100 == 0 { 20_000 } else { 1 + rng.below(60) };
            let mut params = GenParams::new(family, n.max(3), case as u64);
            params.shuffle = case % 3 == 0;
            let Ok(railway) = generate(&params) else { continue };
            let text = mutated(&railway.to_text(), &mut rng);
            match parse_alike(&text) {
                Ok(_) => valid += 1,
                Err(_) => invalid += 1,
            }
        }
        assert!(valid > 1000 && invalid > 500, "{valid} valid, {invalid} invalid");
    }

    #[test]
    fn both_halves_count_on_the_usual_layout() {
        use crate::generator::{Family, GenParams, generate};
        for shuffle in [false, true] {
            let mut params = GenParams::new(Family::Random, 5_000, 7);
            params.shuffle = shuffle;
            let text = generate(&params).unwrap().to_text();
            let mut input = Input::new(&text);
            let (n, m) = (input.uint("n", 0..=u64::MAX).unwrap(), input.uint("m", 0..=u64::MAX));
            let (n, m) = (n as usize, m.unwrap() as usize);
            for _ in 0..2 * n {
                input.uint("flag", 0..=1u8).unwrap();
            }
            let (_, read) = read_tracks_in_halves(&mut input, n, m, m);
            // All but the last track, which ends within 16 bytes of the end.
            assert_eq!(read, m - 1, "shuffled: {shuffle}");
            assert_eq!(parse_alike(&text).unwrap(), params_game(&params));
        }
    }

    fn params_game(params: &crate::generator::GenParams) -> Game {
        crate::generator::generate(params).unwrap().to_game().unwrap()
    }

    #[test]
    fn short_numbers_read_as_the_exact_reader_does() {
        let tokens = ["0", "7", "42", "999999", "1234567", "12345678", "0000001", "1a", "x", "-1"];
        let after = [" ", "\n", "\t", "\r", "x", "", "\x0b"];
        for token in tokens {
            for tail in after {
                let text = format!("{token}{tail}########");
                let word = u64::from_le_bytes(text.as_bytes()[..8].try_into().unwrap());
                let mut input = Input::new(text.as_bytes());
                let exact = input.uint("x", 0..=u64::MAX).ok();
                if let Some((value, len)) = short_number(word) {
                    assert_eq!(Some(u64::from(value)), exact, "{text:?}");
                    assert_eq!(len, token.len() + 1, "{text:?}");
                    assert!(tail.as_bytes()[0].is_ascii_whitespace(), "{text:?}");
                } else {
                    let usual = token.len() <= 7
                        && token.bytes().all(|b| b.is_ascii_digit())
                        && tail.bytes().next().is_some_and(|b| b.is_ascii_whitespace());
                    assert!(!usual, "{text:?} is in the usual layout");
                }
            }
        }
    }
}
