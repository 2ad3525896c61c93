//! C's `fscanf(f, "%lf", &x)` as glibc does it, for checkers that must judge exactly as an
//! official C checker did: which prefix of the text one conversion consumes, what it returns
//! (1, 0 or `EOF`) and the double it stores, bit for bit.
//!
//! One conversion ([`scan_f64`]) skips white space (C's `isspace` in the C locale: space,
//! `\t`, `\n`, `\v`, `\f`, `\r`), then reads the longest text that can begin a number of the
//! `strtod` grammar: an optional sign; decimal digits with an optional point and exponent
//! (`1.`, `.5`, `1e5`); a hex mantissa after `0x` or `0X` with an optional binary exponent
//! `p`; `inf`, `infinity` or `nan`, case aside. Since a stream can take back one character
//! only, glibc stops at the first character that cannot continue what it has read and keeps
//! the rest consumed, then converts what it read with `strtod`, which may take a shorter
//! prefix. Hence the quirks, all checked against glibc 2.36 by the tests' table:
//!
//! - `1e`, `1e+`, `0x1p`, `0x1p-` and `100ergs` are numbers (1, 1, 1, 1 and 100) with the
//!   `e`, `e+`, `p`, `p-` and `e` consumed (`strtod` converts the digits before them);
//! - `0x` and `0xg` are matching failures with `0x` consumed, but `0x.` is 0;
//! - `-`, `.`, `+.` and `-x` are matching failures, the sign or point consumed;
//! - `nan` never takes a parenthesized `(n-char-sequence)`: `nan(1)` is NaN with `(1)` left;
//! - `inf` followed by anything but `i` is infinity (`infx` leaves `x`), but `infinit` and
//!   `infin x` are matching failures that consumed up to and including the first character
//!   that broke `infinity` (`infin x` consumes the space); a broken `nan` (`nx`, `nax`)
//!   likewise;
//! - end of input after white space alone is `EOF`, but after a sign it is a matching
//!   failure.
//!
//! Values: a decimal is `str::parse::<f64>` of the text `strtod` takes, correctly rounded as
//! glibc's `strtod` is; a hex float is converted here as glibc converts it: to nearest, ties
//! to even, through subnormals to 0 and above the largest double to infinity, but for one
//! glibc slip that we keep: a subnormal from more than 53 significant bits forgets the bit
//! after the 53rd when it rounds (`0x2ee56461a52001p-1088`, just above a tie between two
//! subnormals, goes to the even one, below). `nan` is the quiet NaN `0x7ff8000000000000`,
//! with the sign bit set by `-`.
//!
//! Both costs are linear: `O(skipped white space + consumed text)` time, `O(1)` extra space
//! (a decimal's parse included).

/// Whether `byte` is white space for C's `isspace` in the C locale: space, `\t`, `\n`, `\v`,
/// `\f` or `\r` (Rust's `is_ascii_whitespace` leaves out `\v`).
#[must_use]
pub fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// What one `%lf` conversion gives, as `fscanf`'s return value tells it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// `fscanf` returns 1 and stores this double.
    Number(f64),
    /// `fscanf` returns 0: a matching failure, the text there is not a number.
    Mismatch,
    /// `fscanf` returns `EOF`: nothing but white space was left.
    End,
}

/// One `%lf` conversion: its outcome and how much of the text it consumed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scan {
    /// The return value and the double.
    pub outcome: Outcome,
    /// Where the conversion began, after the white space it skipped.
    pub start: usize,
    /// Where the stream stands afterwards (what `ftell` would say): every byte before it is
    /// consumed, the skipped white space included. For a matching failure too: glibc keeps
    /// what it read but the last character.
    pub end: usize,
}

/// The quiet NaN glibc's `strtod` gives for `nan`.
const QUIET_NAN: u64 = 0x7ff8_0000_0000_0000;
/// The sign bit of a double.
const SIGN: u64 = 1 << 63;

/// `fscanf(f, "%lf", &x)` on `bytes` with the stream at `pos` (see the module notes).
/// `O(skipped white space + consumed text)`.
#[must_use]
pub fn scan_f64(bytes: &[u8], pos: usize) -> Scan {
    let mut start = pos.min(bytes.len());
    while bytes.get(start).copied().is_some_and(is_c_space) {
        start += 1;
    }
    if start == bytes.len() {
        return Scan { outcome: Outcome::End, start, end: start };
    }
    let (outcome, end) = convert(bytes, start);
    Scan { outcome, start, end }
}

/// The byte at `i`, lowercased.
fn lower_at(bytes: &[u8], i: usize) -> Option<u8> {
    bytes.get(i).map(u8::to_ascii_lowercase)
}

/// Reads `word` (lowercase) at `i`, case aside, as glibc reads `nan` and `infinity`: on the
/// first character that differs it fails having consumed that character too, at the end of
/// the text having consumed everything. `Ok` with the position after the word.
fn expect_word(bytes: &[u8], mut i: usize, word: &[u8]) -> Result<usize, usize> {
    for &want in word {
        match lower_at(bytes, i) {
            None => return Err(i),
            Some(got) if got != want => return Err(i + 1),
            Some(_) => i += 1,
        }
    }
    Ok(i)
}

/// One conversion from `start`, a byte that is not white space: the outcome and the end of
/// the consumed text.
fn convert(bytes: &[u8], start: usize) -> (Outcome, usize) {
    let mut i = start;
    let negative = bytes[i] == b'-';
    let got_sign = matches!(bytes[i], b'-' | b'+');
    if got_sign {
        i += 1;
        if i == bytes.len() {
            return (Outcome::Mismatch, i);
        }
    }
    let sign = if negative { SIGN } else { 0 };
    match lower_at(bytes, i) {
        Some(b'n') => {
            return match expect_word(bytes, i + 1, b"an") {
                Ok(end) => (Outcome::Number(f64::from_bits(QUIET_NAN | sign)), end),
                Err(end) => (Outcome::Mismatch, end),
            };
        }
        Some(b'i') => {
            let infinity = f64::from_bits(f64::INFINITY.to_bits() | sign);
            return match expect_word(bytes, i + 1, b"nf") {
                Err(end) => (Outcome::Mismatch, end),
                // `inf` then `i`: the rest of `infinity` must follow.
                Ok(end) if lower_at(bytes, end) == Some(b'i') => {
                    match expect_word(bytes, end + 1, b"nity") {
                        Ok(end) => (Outcome::Number(infinity), end),
                        Err(end) => (Outcome::Mismatch, end),
                    }
                }
                Ok(end) => (Outcome::Number(infinity), end),
            };
        }
        _ => {}
    }
    let mut hex = false;
    let mut got_digit = false;
    if bytes[i] == b'0' {
        i += 1;
        if lower_at(bytes, i) == Some(b'x') {
            hex = true;
            i += 1;
        } else {
            got_digit = true;
        }
    }
    let exp_char = if hex { b'p' } else { b'e' };
    let (mut got_dot, mut got_e) = (false, false);
    while let Some(&c) = bytes.get(i) {
        if c.is_ascii_digit() || (hex && !got_e && c.is_ascii_hexdigit()) {
            got_digit = true;
        } else if got_e && bytes[i - 1].to_ascii_lowercase() == exp_char && matches!(c, b'-' | b'+')
        {
            // A sign right after the exponent's letter.
        } else if got_digit && !got_e && c.to_ascii_lowercase() == exp_char {
            got_e = true;
            got_dot = true;
        } else if !got_dot && c == b'.' {
            got_dot = true;
        } else {
            // Pushed back: the one character a stream can take back.
            break;
        }
        i += 1;
    }
    let read = i - start;
    let sign_len = usize::from(got_sign);
    if read == sign_len || (hex && read == 2 + sign_len) {
        return (Outcome::Mismatch, i);
    }
    let text = &bytes[start + sign_len..i];
    let magnitude = if hex { Some(hex_value(&text[2..])) } else { decimal_value(text) };
    match magnitude {
        Some(value) => (Outcome::Number(f64::from_bits(value.to_bits() | sign)), i),
        None => (Outcome::Mismatch, i),
    }
}

/// The end of the digits (`digit` decides which bytes are digits) of `text` from `i`.
fn digits_end(text: &[u8], mut i: usize, digit: fn(&u8) -> bool) -> usize {
    while text.get(i).is_some_and(digit) {
        i += 1;
    }
    i
}

/// The end of an exponent (`[-+]?D+`, after its letter at `at`) if one is there, else `at`.
fn exponent_end(text: &[u8], at: usize) -> usize {
    let sign = usize::from(matches!(text.get(at + 1), Some(b'-' | b'+')));
    let end = digits_end(text, at + 1 + sign, u8::is_ascii_digit);
    if end > at + 1 + sign { end } else { at }
}

/// `strtod` on unsigned decimal text as glibc's scanf hands it over (digits, at most one
/// point, then maybe `e`, a sign and digits): the value of its longest prefix that is a
/// number, `None` when it has no digit before the exponent.
fn decimal_value(text: &[u8]) -> Option<f64> {
    let whole = digits_end(text, 0, u8::is_ascii_digit);
    let mut end = whole;
    let mut any = whole > 0;
    if text.get(end) == Some(&b'.') {
        let fraction = digits_end(text, end + 1, u8::is_ascii_digit);
        any |= fraction > end + 1;
        end = fraction;
    }
    if !any {
        return None;
    }
    if matches!(text.get(end), Some(b'e' | b'E')) {
        end = exponent_end(text, end);
    }
    let number = std::str::from_utf8(&text[..end]).expect("digits, a point and an exponent");
    Some(number.parse().expect("a decimal in Rust's float grammar"))
}

/// Significant hex digits kept in the 64-bit mantissa; the rest only set the sticky bit.
const KEPT_HEX_DIGITS: u32 = 16;

/// `strtod` on the unsigned hex text after `0x` (hex digits, at most one point, then maybe `p`,
/// a sign and decimal digits), rounded as glibc rounds it ([`round_binary`]). Without a hex
/// digit `strtod` takes the `0` alone: zero.
fn hex_value(text: &[u8]) -> f64 {
    // The value is `mantissa * 2^exponent`, plus less than one unit of the mantissa's last
    // bit when `sticky`.
    let mut mantissa: u64 = 0;
    let mut digits: u32 = 0;
    let mut exponent: i64 = 0;
    let mut sticky = false;
    let mut after_point = false;
    let mut i = 0;
    while let Some(&c) = text.get(i) {
        if c == b'.' && !after_point {
            after_point = true;
            i += 1;
            continue;
        }
        let Some(d) = char::from(c).to_digit(16) else { break };
        if digits < KEPT_HEX_DIGITS {
            if mantissa != 0 || d != 0 {
                mantissa = mantissa << 4 | u64::from(d);
                digits += 1;
            }
            exponent -= if after_point { 4 } else { 0 };
        } else {
            sticky |= d != 0;
            exponent += if after_point { 0 } else { 4 };
        }
        i += 1;
    }
    if matches!(text.get(i), Some(b'p' | b'P')) && exponent_end(text, i) > i {
        let negative = text[i + 1] == b'-';
        let from = i + 1 + usize::from(matches!(text[i + 1], b'-' | b'+'));
        // Beyond 2^40 every mantissa here is 0 or infinity: saturate there.
        let mut value: i64 = 0;
        for &d in &text[from..exponent_end(text, i)] {
            value = (value * 10 + i64::from(d - b'0')).min(1 << 40);
        }
        exponent += if negative { -value } else { value };
    }
    round_binary(mantissa, exponent, sticky)
}

/// `mantissa * 2^exponent` (plus a little when `sticky`, see [`hex_value`]) rounded as
/// glibc's `strtod` rounds a hex float: to nearest, ties to even, from the first 53
/// significant bits, the next one (the round bit) and whether any later one is set, except
/// that a subnormal result forgets that round bit (glibc's `round_and_return` shifts the 53
/// bits right and rounds on the bit shifted out last, keeping only the later bits as sticky).
/// So `0x2ee56461a52001p-1088`, just above a tie between two subnormals, is rounded to the
/// even one, below it.
fn round_binary(mantissa: u64, exponent: i64, sticky: bool) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let top = 63 - mantissa.leading_zeros();
    // The value lies in [2^lead, 2^(lead + 1)).
    let lead = exponent + i64::from(top);
    if lead > 1023 {
        return f64::INFINITY;
    }
    // The first 53 significant bits, the round bit and whether any later bit is set.
    let (bits, round, later) = if top >= 53 {
        let below = top - 53;
        (mantissa >> (below + 1), mantissa >> below & 1 == 1, mantissa & ((1 << below) - 1) != 0)
    } else {
        (mantissa << (52 - top), false, false)
    };
    let later = later || sticky;
    if lead >= -1022 {
        let up = round && (later || bits & 1 == 1);
        let (bits, lead) = if bits + u64::from(up) == 1 << 53 {
            (1 << 52, lead + 1)
        } else {
            (bits + u64::from(up), lead)
        };
        if lead > 1023 {
            return f64::INFINITY;
        }
        let biased = (lead + 1023) as u64;
        return f64::from_bits(biased << 52 | (bits & ((1 << 52) - 1)));
    }
    // Subnormal: the 53 bits shifted right onto the grid of 2^-1074.
    let shift = -1022 - lead;
    if shift > 53 {
        return 0.0;
    }
    let shift = shift as u32;
    let half = bits >> (shift - 1) & 1 == 1;
    let later = later || bits & ((1 << (shift - 1)) - 1) != 0;
    let kept = bits >> shift;
    let up = half && (later || kept & 1 == 1);
    // A carry into 2^52 is the smallest normal double, as its bits say.
    f64::from_bits(kept + u64::from(up))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// glibc's answers, one string a line (the file's header says how they were made).
    const GLIBC: &str = include_str!("../../tests/data/scanf-glibc.txt");

    /// `fscanf`'s return value, the bytes consumed and the double's bits (when 1).
    fn glibc_form(scan: Scan) -> (i32, usize, Option<u64>) {
        match scan.outcome {
            Outcome::Number(x) => (1, scan.end, Some(x.to_bits())),
            Outcome::Mismatch => (0, scan.end, None),
            Outcome::End => (-1, scan.end, None),
        }
    }

    #[test]
    fn every_string_of_the_table_reads_as_glibc_reads_it() {
        let mut wrong = Vec::new();
        let mut seen = [0_usize; 3];
        for line in GLIBC.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let close = line.rfind('"').expect("a quoted string");
            let input = crate::testing::unescape_c(&line[1..close]);
            let fields: Vec<&str> = line[close + 1..].split_whitespace().collect();
            let [ret, consumed, bits] = fields[..] else { panic!("three fields in {line}") };
            let expected = (
                ret.parse::<i32>().unwrap(),
                consumed.parse::<usize>().unwrap(),
                (bits != "-").then(|| u64::from_str_radix(bits, 16).unwrap()),
            );
            let got = glibc_form(scan_f64(&input, 0));
            if got != expected {
                wrong.push(format!("{line}: ours {got:?}"));
            }
            seen[(expected.0 + 1) as usize] += 1;
            // The same text after some already read: the same reading, moved along.
            let mut later = b"7 ".to_vec();
            later.extend_from_slice(&input);
            let moved = scan_f64(&later, 2);
            assert_eq!(glibc_form(moved), (got.0, got.1 + 2, got.2), "{line} after \"7 \"");
        }
        assert!(wrong.is_empty(), "{} strings read otherwise than by glibc:\n{}", wrong.len(), {
            wrong.truncate(20);
            wrong.join("\n")
        });
        // Every outcome, often: EOF, a matching failure, a number.
        assert!(seen.iter().all(|&n| n >= 300), "{seen:?}");
        assert!(seen.iter().sum::<usize>() > 5000);
    }

    #[test]
    fn a_scan_starts_after_the_white_space_and_stops_where_glibc_stops() {
        let text = b"  0.5\n\x0b1e+x nan(1)";
        let first = scan_f64(text, 0);
        assert_eq!(first, Scan { outcome: Outcome::Number(0.5), start: 2, end: 5 });
        let second = scan_f64(text, first.end);
        assert_eq!(second, Scan { outcome: Outcome::Number(1.0), start: 7, end: 10 });
        let third = scan_f64(text, second.end);
        assert_eq!((third.outcome, third.start, third.end), (Outcome::Mismatch, 10, 10));
        let nan = scan_f64(text, 11);
        assert!(matches!(nan.outcome, Outcome::Number(x) if x.is_nan()));
        assert_eq!((nan.start, nan.end), (12, 15));
        assert_eq!(scan_f64(text, 15).outcome, Outcome::Mismatch, "(1) is left");
        assert_eq!(scan_f64(b"1 \t\n", 1), Scan { outcome: Outcome::End, start: 4, end: 4 });
        assert_eq!(scan_f64(b"1", 5), Scan { outcome: Outcome::End, start: 1, end: 1 });
        assert!(is_c_space(0x0b) && !0x0b_u8.is_ascii_whitespace());
    }
}
