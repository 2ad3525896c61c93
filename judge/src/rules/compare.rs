//! Reading a contestant's output: tokens and lines with their line numbers, quoting for
//! messages, the strict decimal grammar, and one comparer for the common rules (exact tokens,
//! exact lines) that names the item and line of the first difference.
//!
//! Everything here is one pass over the output, `O(output + expected)`.

use super::verdict::Verdict;
use engine::input::Token;

/// `bytes` quoted for a message, escaped and shortened to 40 characters: `"Bob wins"`.
#[must_use]
pub fn quote(bytes: &[u8]) -> String {
    Token { text: bytes, offset: 0 }.to_string()
}

/// The whitespace-separated tokens of an output, each with its 1-based line.
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `bytes` from the start.
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0, line: 1 }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (&'a [u8], usize);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            self.line += usize::from(b == b'\n');
            self.pos += 1;
        }
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        (self.pos > start).then(|| (&self.bytes[start..self.pos], self.line))
    }
}

/// The lines of an output (split at `\n`; a final newline does not start another line), each
/// with its 1-based number. Bytes are kept as they are, `\r` included.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a [u8],
    line: usize,
}

impl<'a> Lines<'a> {
    /// Lines of `bytes` from the start.
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes, line: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (&'a [u8], usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        self.line += 1;
        let (text, rest) = match self.rest.iter().position(|&b| b == b'\n') {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None => (self.rest, &[][..]),
        };
        self.rest = rest;
        Some((text, self.line))
    }
}

/// Parses a decimal number in the strict grammar `[-+]?D+(.D+)?([eE][-+]?D+)?` (`D` a
/// digit): no `nan`, `inf`, hex, `1.` or `.5`, which C's `%lf` or Rust's `f64::from_str`
/// would accept.
#[must_use]
pub fn decimal(token: &[u8]) -> Option<f64> {
    if !is_decimal(token) {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// Whether `token` is a number in [`decimal`]'s strict grammar, without reading its value.
#[must_use]
pub fn is_decimal(token: &[u8]) -> bool {
    fn digits(bytes: &[u8], mut i: usize) -> usize {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    }
    let mut i = usize::from(matches!(token.first(), Some(b'-' | b'+')));
    let end = digits(token, i);
    if end == i {
        return false;
    }
    i = end;
    if token.get(i) == Some(&b'.') {
        let end = digits(token, i + 1);
        if end == i + 1 {
            return false;
        }
        i = end;
    }
    if matches!(token.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(token.get(i + 1), Some(b'-' | b'+')));
        let end = digits(token, i + 1 + sign);
        if end == i + 1 + sign {
            return false;
        }
        i = end;
    }
    i == token.len()
}

/// What [`compare`] compares: whitespace-separated tokens, or whole lines byte for byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Tokens; any amount of white space between them, line structure ignored.
    Token,
    /// Lines, exactly (a final newline is optional).
    Line,
}

/// Compares `output` with `expected`, item by item (tokens or lines).
///
/// - an item that is not `readable` (not an answer at all): presentation error;
/// - a readable item that differs: wrong answer;
/// - too few or too many items: presentation error.
///
/// `item(i)` names the 0-based item `i` in messages, e.g. `case 17` or `station 4`; a token's
/// line is added to the message. `O(output + expected)`.
pub fn compare<T: AsRef<[u8]>>(
    unit: Unit,
    expected: &[T],
    output: &[u8],
    readable: impl Fn(&[u8]) -> bool,
    item: impl Fn(usize) -> String,
) -> Verdict {
    let mut found: Box<dyn Iterator<Item = (&[u8], usize)>> = match unit {
        Unit::Token => Box::new(Tokens::new(output)),
        Unit::Line => Box::new(Lines::new(output)),
    };
    let at =
        |line: usize| if unit == Unit::Token { format!(" (line {line})") } else { String::new() };
    for (i, want) in expected.iter().enumerate() {
        let want = want.as_ref();
        let Some((got, line)) = found.next() else {
            return Verdict::presentation_error(format!(
                "{}: expected {}, found end of output",
                item(i),
                quote(want)
            ));
        };
        if got != want {
            let (q_want, q_got) = (quote(want), quote(got));
            return if readable(got) {
                Verdict::wrong_answer(format!(
                    "{}: expected {q_want}, found {q_got}{}",
                    item(i),
                    at(line)
                ))
            } else {
                Verdict::presentation_error(format!(
                    "{}: expected {q_want}, found {q_got}{}, which is not an answer",
                    item(i),
                    at(line)
                ))
            };
        }
    }
    if let Some((extra, line)) = found.next() {
        return Verdict::presentation_error(format!(
            "extra output after {} {}: {} on line {line}",
            expected.len(),
            if unit == Unit::Token { "tokens" } else { "lines" },
            quote(extra),
        ));
    }
    let noun = match (unit, expected.len()) {
        (Unit::Token, 1) => "token",
        (Unit::Token, _) => "tokens",
        (Unit::Line, 1) => "line",
        (Unit::Line, _) => "lines",
    };
    Verdict::ok(format!("{} {noun}", expected.len()))
}

/// Whether `found` is within `tolerance` of `expected`, absolutely: `|found - expected| <=
/// tolerance`, with no slack (the THUPC checker's rule). NaN is never close.
#[must_use]
pub fn absolute_close(expected: f64, found: f64, tolerance: f64) -> bool {
    (found - expected).abs() <= tolerance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VerdictKind;

    #[test]
    fn tokens_and_lines_carry_line_numbers() {
        let text = b" a b\n\n c \nd";
        let tokens: Vec<_> = Tokens::new(text).collect();
        assert_eq!(tokens, [(&b"a"[..], 1), (b"b", 1), (b"c", 3), (b"d", 4)]);
        let lines: Vec<_> = Lines::new(b"x\n\ny\n").collect();
        assert_eq!(lines, [(&b"x"[..], 1), (b"", 2), (b"y", 3)]);
        assert_eq!(Lines::new(b"").count(), 0);
    }

    #[test]
    fn decimals_follow_the_strict_grammar() {
        for good in ["0", "-1", "+2.5", "0.123456789", "1e-7", "3.0E+2"] {
            assert!(decimal(good.as_bytes()).is_some(), "{good}");
            assert!(is_decimal(good.as_bytes()), "{good}");
        }
        for bad in ["", "-", "1.", ".5", "nan", "inf", "0x1p3", "1e", "1_0", "1.2.3", "١"] {
            assert_eq!(decimal(bad.as_bytes()), None, "{bad}");
            assert!(!is_decimal(bad.as_bytes()), "{bad}");
        }
        assert!(absolute_close(0.5, 0.500_000_9, 1e-6));
        assert!(!absolute_close(0.5, 0.500_001_1, 1e-6));
        // The boundary is where floating point bites: 0.500001 - 0.5 is 1.00000000003e-6.
        assert!(!absolute_close(0.5, 0.500_001, 1e-6));
        assert!(!absolute_close(0.5, f64::NAN, 1e-6));
    }

    #[test]
    fn compare_names_item_and_line() {
        let expected = ["Alice wins", "Bob wins"];
        let readable = |t: &[u8]| t == b"Alice wins" || t == b"Bob wins" || t == b"It depends";
        let case = |i: usize| format!("case {}", i + 1);
        let v = compare(Unit::Line, &expected, b"Alice wins\nIt depends\n", readable, case);
        assert_eq!(
            v.to_string(),
            r#"wrong answer: case 2: expected "Bob wins", found "It depends""#
        );
        let v = compare(Unit::Line, &expected, b"Alice wins\nBob win\n", readable, case);
        assert_eq!(v.kind, VerdictKind::PresentationError);
        let v = compare(Unit::Line, &expected, b"Alice wins\n", readable, case);
        assert_eq!(
            v.to_string(),
            r#"presentation error: case 2: expected "Bob wins", found end of output"#
        );
        let v = compare(Unit::Line, &expected, b"Alice wins\nBob wins\n\n", readable, case);
        assert_eq!(
            v.to_string(),
            r#"presentation error: extra output after 2 lines: "" on line 3"#
        );
        let v = compare(Unit::Line, &expected, b"Alice wins\nBob wins", readable, case);
        assert_eq!(v, Verdict::ok("2 lines"));

        let digits = |t: &[u8]| t.iter().all(u8::is_ascii_digit);
        let v = compare(Unit::Token, &["1", "0"], b"1\n\n1", digits, |i| format!("station {i}"));
        assert_eq!(v.to_string(), r#"wrong answer: station 1: expected "0", found "1" (line 3)"#);
    }
}
