//! A fast tokenizer over a whole input held in memory, with errors that name line and column.
//!
//! Tokens are runs of non-white-space bytes. The hot path only advances a byte offset; line
//! and column are computed from the offset when an error is built, so reading a 60 MB file
//! costs one pass over its bytes.

use std::fmt;
use std::ops::RangeInclusive;

/// A problem with the input, located by 1-based line and column (columns count characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct InputError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was wrong, e.g. `expected damage in 1..=99, found "0"`.
    pub message: String,
}

/// Which constraints an input must respect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Limits {
    /// The contest's constraints, as its statement and validator state them.
    #[default]
    Original,
    /// What our solvers accept (larger counts and values).
    Extended,
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Original => "original",
            Self::Extended => "extended",
        })
    }
}

/// An unsigned integer type [`Input::uint`] can read.
pub trait Uint: Copy {
    /// The value, widened.
    fn to_u64(self) -> u64;
    /// The value back; only called on numbers within a range of `Self`, which fit.
    fn from_u64(value: u64) -> Self;
}

macro_rules! uint_as {
    ($($t:ty),+) => {$(
        #[allow(clippy::cast_lossless, reason = "one impl for every unsigned type")]
        impl Uint for $t {
            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }

            #[inline]
            fn from_u64(value: u64) -> Self {
                value as $t
            }
        }
    )+};
}

uint_as!(u8, u16, u32, u64, usize);

/// One token: its bytes and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's bytes (never empty, never containing white space).
    pub text: &'a [u8],
    /// Byte offset of the token's first byte.
    pub offset: usize,
}

impl fmt::Display for Token<'_> {
    /// The token quoted, shortened to 40 characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = String::from_utf8_lossy(self.text);
        let mut chars = text.chars();
        let head: String = chars.by_ref().take(40).collect();
        let more = if chars.next().is_some() { "..." } else { "" };
        write!(f, "\"{}{more}\"", head.escape_debug())
    }
}

/// A cursor over the input's tokens.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    /// A cursor at the start of `bytes`.
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// The whole input.
    #[must_use]
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Byte offset of the cursor.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The bytes from the cursor on, for a format that reads its usual layout itself (then
    /// [`Input::advance`]s) and leaves anything else to the tokenizer.
    #[inline]
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Moves the cursor `n` bytes on, past bytes read from [`Input::rest`].
    ///
    /// # Panics
    /// When fewer than `n` bytes are left.
    #[inline]
    pub fn advance(&mut self, n: usize) {
        assert!(n <= self.bytes.len() - self.pos, "advanced past the end of the input");
        self.pos += n;
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
    }

    /// The next token, or `None` at the end of the input.
    #[inline]
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.skip_space();
        let start = self.pos;
        while let Some(b) = self.bytes.get(self.pos) {
            if b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| Token { text: &self.bytes[start..self.pos], offset: start })
    }

    /// Whether only white space is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos == self.bytes.len()
    }

    /// Reads an unsigned integer in `range`, as the range's type; `what` names it in the
    /// error, as in `expected damage in 1..=99, found "0"`. `O(digits)`.
    ///
    /// # Errors
    /// At the end of the input, on a token that is not a decimal number, or on a number
    /// outside `range`; the error points at the token (or at the end of the input).
    #[inline]
    pub fn uint<T: Uint>(&mut self, what: &str, range: RangeInclusive<T>) -> Result<T, InputError> {
        let range = range.start().to_u64()..=range.end().to_u64();
        if let Some(value) = self.short_uint(&range) {
            return Ok(T::from_u64(value));
        }
        let value = self.uint_in(what, range)?;
        Ok(T::from_u64(value))
    }

    /// The common case of [`Input::uint`], small enough to inline at every call: a number of
    /// one or two digits, within `range`, ending its token. Anything else (longer numbers,
    /// errors) returns `None` with the cursor unmoved, and the general reader takes over.
    #[inline(always)]
    fn short_uint(&mut self, range: &RangeInclusive<u64>) -> Option<u64> {
        let bytes = self.bytes;
        let mut pos = self.pos;
        while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        let first = bytes.get(pos)?.wrapping_sub(b'0');
        if first > 9 {
            return None;
        }
        let mut value = u64::from(first);
        pos += 1;
        if let Some(d) = bytes.get(pos).map(|b| b.wrapping_sub(b'0')).filter(|&d| d <= 9) {
            value = value * 10 + u64::from(d);
            pos += 1;
        }
        let ends_token = bytes.get(pos).is_none_or(u8::is_ascii_whitespace);
        (ends_token && range.contains(&value)).then(|| {
            self.pos = pos;
            value
        })
    }

    #[inline]
    fn uint_in(&mut self, what: &str, range: RangeInclusive<u64>) -> Result<u64, InputError> {
        self.skip_space();
        let start = self.pos;
        let mut value: u64 = 0;
        let mut digits = 0;
        while let Some(&b) = self.bytes.get(self.pos) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Wrapping is harmless: a number of more than 20 digits, or of 20 digits above
            // u64::MAX (checked below), is rejected.
            value = value.wrapping_mul(10).wrapping_add(u64::from(d));
            digits += 1;
            self.pos += 1;
        }
        let ends_token = self.bytes.get(self.pos).is_none_or(u8::is_ascii_whitespace);
        // Twenty-digit numbers fit exactly when they sort at or below u64::MAX's digits.
        let fits = digits < 20
            || (digits == 20 && self.bytes[start..self.pos] <= b"18446744073709551615"[..]);
        if digits == 0 || !fits || !ends_token || !range.contains(&value) {
            self.pos = start;
            return Err(self.bad_number(what, &range));
        }
        Ok(value)
    }

    #[cold]
    fn bad_number(&mut self, what: &str, range: &RangeInclusive<u64>) -> InputError {
        let expected = format!("{what} in {}..={}", range.start(), range.end());
        match self.next_token() {
            Some(token) => {
                self.error_at(token.offset, format!("expected {expected}, found {token}"))
            }
            None => {
                // Point just past the last token: "line 3, column 9" reads better than the
                // start of an empty line after the final newline.
                let end =
                    self.bytes.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
                self.error_at(end, format!("expected {expected}, found end of input"))
            }
        }
    }

    /// Succeeds when only white space is left.
    ///
    /// # Errors
    /// Points at the first extra token.
    pub fn finish(&mut self, after: &str) -> Result<(), InputError> {
        match self.next_token() {
            None => Ok(()),
            Some(token) => Err(self.error_at(
                token.offset,
                format!("expected end of input after {after}, found {token}"),
            )),
        }
    }

    /// An error located at byte `offset` of this input.
    #[must_use]
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        let (line, column) = line_column(self.bytes, offset);
        InputError { line, column, message: message.into() }
    }
}

/// The 1-based line and character column of byte `offset`. `O(offset)`; for errors only.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    // Count characters, not bytes: UTF-8 continuation bytes look like 0b10xx_xxxx.
    let column = 1 + before[line_start..].iter().filter(|&&b| b & 0xC0 != 0x80).count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_across_any_white_space() {
        let mut input = Input::new(b" 12\t7\r\n\n  99 ");
        assert_eq!(input.uint("a", 0u64..=100), Ok(12));
        assert_eq!(input.uint("b", 0u64..=100), Ok(7));
        assert_eq!(input.uint("c", 0u64..=100), Ok(99));
        assert!(input.at_end());
        assert_eq!(input.finish("the cases"), Ok(()));
    }

    #[test]
    fn the_short_path_reads_as_the_general_reader() {
        // Every short token, next to longer and malformed ones, after and before any white
        // space, in ranges that cut through them: `uint` (short path first) must give the
        // same value or error, and leave the cursor at the same place, as `uint_in` alone.
        let tokens = ["0", "7", "09", "12", "99", "100", "007", "1a", "a1", "-1", "+5", "9x"];
        let spaces = ["", " ", "\n", "\r\n", "\t \x0c"];
        for (a, b) in tokens.iter().flat_map(|a| tokens.iter().map(move |b| (a, b))) {
            for (before, between) in spaces.iter().flat_map(|x| spaces.iter().map(move |y| (x, y)))
            {
                let text = format!("{before}{a}{between}{b}{before}");
                for range in [0..=0, 0..=9, 1..=20, 7..=12, 0..=u64::MAX] {
                    let (mut fast, mut general) =
                        (Input::new(text.as_bytes()), Input::new(text.as_bytes()));
                    for _ in 0..2 {
                        let got = fast.uint("x", range.clone());
                        let want = general.uint_in("x", range.clone());
                        assert_eq!(got, want, "{text:?} in {range:?}");
                        assert_eq!(fast.offset(), general.offset(), "{text:?} in {range:?}");
                        if got.is_err() {
                            break;
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn errors_name_line_column_and_token() {
        let mut input = Input::new(b"2\n1 5 x7 3\n");
        input.uint("n", 0u64..=9).unwrap();
        input.uint("a", 0u64..=9).unwrap();
        input.uint("a", 0u64..=9).unwrap();
        let err = input.uint("damage", 1u64..=99).unwrap_err();
        assert_eq!(err.to_string(), "line 2, column 5: expected damage in 1..=99, found \"x7\"");
    }

    #[test]
    fn out_of_range_negative_and_huge_numbers_are_errors() {
        for (text, found) in [
            ("0", "\"0\""),
            ("-3", "\"-3\""),
            ("100", "\"100\""),
            ("12a", "\"12a\""),
            ("123456789012345678901234", "\"123456789012345678901234\""),
            ("", "end of input"),
        ] {
            let err = Input::new(text.as_bytes()).uint("hp", 1u64..=99).unwrap_err();
            assert_eq!(err.message, format!("expected hp in 1..=99, found {found}"));
        }
    }

    #[test]
    fn extra_tokens_are_reported() {
        let mut input = Input::new("1\n  é 2".as_bytes());
        input.uint("x", 0u64..=9).unwrap();
        input.next_token();
        let err = input.finish("the last case").unwrap_err();
        assert_eq!((err.line, err.column), (2, 5));
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "z".repeat(100);
        let err = Input::new(long.as_bytes()).uint("n", 0u8..=1).unwrap_err();
        assert!(err.message.ends_with(&format!("\"{}...\"", "z".repeat(40))));
    }

    #[test]
    fn numbers_come_back_in_the_range_type() {
        let mut input = Input::new(b"255 7 18446744073709551615");
        let a: u8 = input.uint("a", 0..=u8::MAX).unwrap();
        let b: usize = input.uint("b", 1..=10).unwrap();
        let c: u64 = input.uint("c", 0..=u64::MAX).unwrap();
        assert_eq!((a, b, c), (255, 7, u64::MAX));
    }

    proptest::proptest! {
        /// Any number the formatter prints is read back; a number glued to other characters
        /// is rejected, pointing at the token's start.
        #[test]
        fn printed_numbers_read_back(x: u64, lead in "[ \t]{0,3}", junk in "[a-z+-]{1,3}") {
            let text = format!("{lead}{x}\n");
            proptest::prop_assert_eq!(Input::new(text.as_bytes()).uint("x", 0u64..=u64::MAX), Ok(x));
            let bad = format!("\n{lead}{x}{junk}");
            let err = Input::new(bad.as_bytes()).uint("x", 0u64..=u64::MAX).unwrap_err();
            proptest::prop_assert_eq!((err.line, err.column), (2, 1 + lead.len()));
        }
    }
}
