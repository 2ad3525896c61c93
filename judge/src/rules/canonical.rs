//! Canonical input files: what `validate` holds a file to by default, as a problem setter's
//! validator does (testlib's strict reading with `readSpace`, `readEoln` and `readEof`).
//!
//! Every problem's [`render`](crate::Problem::render) writes its format canonically: numbers
//! in plain decimal, one space between the numbers of a line, `\n` line ends, a final newline
//! and nothing after it. A file is canonical when it parses and it is laid out as the
//! rendering of what it holds: the same white space at the same places, and every number
//! spelled as the rendering spells it. One freedom is left: the numbers of a line may come
//! in another order than the rendering's, each in plain decimal, because a format may list
//! equal items in any order (card-duel's official files list a board's minions shuffled,
//! its renderer lists the 1-HP ones first).
//!
//! [`first_difference`] compares a file with its rendering and names the first departure
//! with its line and column in a setter's words (`line 3, column 1: expected "12", found
//! "012"`, `line 4, column 7: expected a newline, found a space`, `line 9: expected the end
//! of the file, found a blank line`); [`validate_file`] is `validate`'s reading, canonical
//! or [`Strictness::Lenient`] (any white space, as the solvers read).

use std::fmt;

use engine::input::{Input, InputError};

use super::compare::quote;
use crate::rules::{Limits, Problem, render};

/// Where a file departs from the canonical format: its line, its column unless the flaw is
/// a whole line (a blank line, a missing final newline), and what was expected and found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct FormatError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters; `None` when the message is about the whole line.
    pub column: Option<usize>,
    /// What was expected and what was found, e.g. `expected a newline, found a space`.
    pub message: String,
}

impl fmt::Display for FormatError {
    /// `line 4, column 7: expected a newline, found a space`, or `line 9: ...` without a
    /// column.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

/// How `validate` reads a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strictness {
    /// The canonical format (see the module notes), as a setter's validator reads.
    #[default]
    Canonical,
    /// Any white space between numbers and any spelling the solver reads (leading zeros):
    /// the file need only parse, as it must for the solvers and `check`.
    Lenient,
}

/// Why `validate` rejects a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The file does not parse under the limits, or breaks one of their rules.
    #[error("{error} ({limits} limits)")]
    Rule {
        /// The rule broken, with its line and column.
        error: InputError,
        /// The limits the file was read under.
        limits: Limits,
    },
    /// The file parses but is not in the canonical format.
    #[error("{0} (canonical format)")]
    Format(FormatError),
}

/// `validate`'s reading of `bytes`: parsed under `limits`, then, unless `strictness` is
/// lenient, compared with its rendering by [`first_difference`]. A rule broken anywhere is
/// reported before a flaw of the format, since the comparison needs what the file holds.
/// `O(input)`.
///
/// # Errors
/// The rule broken, or the first departure from the canonical format.
pub fn validate_file<P: Problem>(
    problem: &P,
    bytes: &[u8],
    limits: Limits,
    strictness: Strictness,
) -> Result<P::Input, Rejection> {
    let input = problem.parse(bytes, limits).map_err(|error| Rejection::Rule { error, limits })?;
    if strictness == Strictness::Canonical {
        first_difference(bytes, &render(problem, &input)).map_err(Rejection::Format)?;
    }
    Ok(input)
}

/// Compares `file` with `canonical`, a problem's rendering of what `file` holds, and returns
/// the first place where `file` departs from it: white space other than the rendering's (a
/// second space, a tab, a `\r`, a blank line, a missing final newline, anything after the
/// end), or a number spelled otherwise (a leading zero). The numbers of a line may come in
/// another order, each in plain decimal (see the module notes). `O(file + canonical)`.
///
/// # Errors
/// The first departure, located by line and, unless it is about a whole line, column.
pub fn first_difference(file: &[u8], canonical: &[u8]) -> Result<(), FormatError> {
    let (mut at, mut canonical_at) = (0, 0);
    loop {
        let gap = white_run(file, at);
        let canonical_gap = white_run(canonical, canonical_at);
        if file[at..at + gap] != canonical[canonical_at..canonical_at + canonical_gap] {
            return Err(white_space_difference(file, at, gap, canonical, canonical_at));
        }
        at += gap;
        canonical_at += canonical_gap;
        let token = token_at(file, at);
        let canonical_token = token_at(canonical, canonical_at);
        match (token.is_empty(), canonical_token.is_empty()) {
            (true, true) => return Ok(()),
            (false, true) => {
                return Err(located(
                    file,
                    at,
                    format!("expected the end of the file, found {}", quote(token)),
                ));
            }
            (true, false) => {
                return Err(located(
                    file,
                    at,
                    format!("expected {}, found the end of the file", quote(canonical_token)),
                ));
            }
            (false, false) => {
                if token != canonical_token && !reordered(file, at, canonical, canonical_at, token)
                {
                    // A number with leading zeros is expected in plain decimal; anything else
                    // (which a parser would hardly accept) as the rendering has it.
                    let expected = plain_decimal(token).unwrap_or(canonical_token);
                    return Err(located(
                        file,
                        at,
                        format!("expected {}, found {}", quote(expected), quote(token)),
                    ));
                }
            }
        }
        at += token.len();
        canonical_at += canonical_token.len();
    }
}

/// The length of the run of white space (as the parsers read it) at `at`.
fn white_run(bytes: &[u8], at: usize) -> usize {
    bytes[at..].iter().take_while(|b| b.is_ascii_whitespace()).count()
}

/// The token at `at` (empty at white space or the end).
fn token_at(bytes: &[u8], at: usize) -> &[u8] {
    let len = bytes[at..].iter().take_while(|b| !b.is_ascii_whitespace()).count();
    &bytes[at..at + len]
}

/// A number written in plain decimal: `0`, or digits without a leading zero.
fn is_plain_decimal(token: &[u8]) -> bool {
    match token {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// `token`'s number in plain decimal when it is one written with leading zeros (`007` gives
/// `7`, `000` gives `0`); `None` for anything else.
fn plain_decimal(token: &[u8]) -> Option<&[u8]> {
    if !token.iter().all(u8::is_ascii_digit) || is_plain_decimal(token) {
        return None;
    }
    let zeros = token.iter().take_while(|&&b| b == b'0').count().min(token.len() - 1);
    Some(&token[zeros..])
}

/// Whether `token` (at `at` in `file`, in plain decimal) differs from the rendering only by
/// the order of its line: the file's line holds the same tokens as the rendering's line
/// (the two lines are aligned, since the white space before them matched).
fn reordered(file: &[u8], at: usize, canonical: &[u8], canonical_at: usize, token: &[u8]) -> bool {
    is_plain_decimal(token) && line_tokens(file, at) == line_tokens(canonical, canonical_at)
}

/// The tokens of the line that holds byte `at`, sorted.
fn line_tokens(bytes: &[u8], at: usize) -> Vec<&[u8]> {
    let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
    let mut tokens: Vec<&[u8]> =
        bytes[start..end].split(u8::is_ascii_whitespace).filter(|t| !t.is_empty()).collect();
    tokens.sort_unstable();
    tokens
}

/// The error for white space that differs: `file`'s run of `gap` bytes at `at` against the
/// rendering's run at `canonical_at`, named at their first differing byte.
fn white_space_difference(
    file: &[u8],
    at: usize,
    gap: usize,
    canonical: &[u8],
    canonical_at: usize,
) -> FormatError {
    let canonical_gap = white_run(canonical, canonical_at);
    let same = (0..gap.min(canonical_gap))
        .take_while(|&k| file[at + k] == canonical[canonical_at + k])
        .count();
    let (here, canonical_here) = (at + same, canonical_at + same);
    let expected = match canonical.get(canonical_here) {
        Some(&b) if b.is_ascii_whitespace() => white_name(b).to_owned(),
        Some(_) => quote(token_at(canonical, canonical_here)),
        None => "the end of the file".to_owned(),
    };
    let found = match file.get(here) {
        // A newline at the start of a line ends an empty line.
        Some(b'\n') if here == 0 || file[here - 1] == b'\n' => {
            return whole_line(file, here, format!("expected {expected}, found a blank line"));
        }
        Some(b'\r') if file.get(here + 1) == Some(&b'\n') => {
            "a carriage return before the newline (a Windows line end)".to_owned()
        }
        Some(&b) if b.is_ascii_whitespace() => white_name(b).to_owned(),
        Some(_) => quote(token_at(file, here)),
        None if canonical.get(canonical_here) == Some(&b'\n') => {
            return whole_line(file, here, "expected a newline at the end of the file".to_owned());
        }
        None => "the end of the file".to_owned(),
    };
    located(file, here, format!("expected {expected}, found {found}"))
}

/// A white-space byte in words.
fn white_name(byte: u8) -> &'static str {
    match byte {
        b' ' => "a space",
        b'\t' => "a tab",
        b'\n' => "a newline",
        b'\r' => "a carriage return (\\r)",
        b'\x0c' => "a form feed (\\f)",
        _ => "white space",
    }
}

/// An error at byte `at` of `file`, with its line and column.
fn located(file: &[u8], at: usize, message: String) -> FormatError {
    let InputError { line, column, .. } = Input::new(file).error_at(at, "");
    FormatError { line, column: Some(column), message }
}

/// An error about the whole line that holds byte `at` of `file`.
fn whole_line(file: &[u8], at: usize, message: String) -> FormatError {
    FormatError { column: None, ..located(file, at, message) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of departure, with the words and place it is reported with.
    #[test]
    fn the_first_difference_is_named_with_its_place() {
        let canonical = "2 4\n10 3\n7\n";
        for (file, message) in [
            ("2 4\n010 3\n7\n", r#"line 2, column 1: expected "10", found "010""#),
            ("2 4\n10 3\n007\n", r#"line 3, column 1: expected "7", found "007""#),
            ("2  4\n10 3\n7\n", r#"line 1, column 3: expected "4", found a space"#),
            (" 2 4\n10 3\n7\n", r#"line 1, column 1: expected "2", found a space"#),
            ("2 4 \n10 3\n7\n", "line 1, column 4: expected a newline, found a space"),
            ("2\t4\n10 3\n7\n", "line 1, column 2: expected a space, found a tab"),
            ("2 4\x0c\n10 3\n7\n", "line 1, column 4: expected a newline, found a form feed (\\f)"),
            (
                "2 4\r\n10 3\r\n7\r\n",
                "line 1, column 4: expected a newline, found a carriage return before the \
                 newline (a Windows line end)",
            ),
            (
                "2 4\r10 3\n7\n",
                "line 1, column 4: expected a newline, found a carriage return (\\r)",
            ),
            ("2 4\n10 3\n7\n\n", "line 4: expected the end of the file, found a blank line"),
            ("\n2 4\n10 3\n7\n", r#"line 1: expected "2", found a blank line"#),
            ("2 4\n\n10 3\n7\n", r#"line 2: expected "10", found a blank line"#),
            ("2 4\n10 3\n7", "line 3: expected a newline at the end of the file"),
            ("2 4\n10 3\n7\n ", "line 4, column 1: expected the end of the file, found a space"),
            ("2 4\n10\n3\n7\n", "line 2, column 3: expected a space, found a newline"),
            ("2 4\n10 3 7\n", "line 2, column 5: expected a newline, found a space"),
            ("2 4\n10 3\n7\n8\n", r#"line 4, column 1: expected the end of the file, found "8""#),
            ("2 4\n10 3\n", r#"line 3, column 1: expected "7", found the end of the file"#),
        ] {
            let error = first_difference(file.as_bytes(), canonical.as_bytes()).unwrap_err();
            assert_eq!(error.to_string(), message, "{file:?}");
        }
        assert_eq!(first_difference(canonical.as_bytes(), canonical.as_bytes()), Ok(()));
        assert_eq!(first_difference(b"", b""), Ok(()));
    }

    /// A line's numbers may come in another order, each in plain decimal; numbers may not
    /// move between lines.
    #[test]
    fn a_line_may_list_its_numbers_in_another_order() {
        let canonical = b"1 4\n3 1 1 2\n0\n";
        assert_eq!(first_difference(b"1 4\n3 2 1 1\n0\n", canonical), Ok(()));
        assert_eq!(first_difference(b"1 4\n3 1 2 1\n0\n", canonical), Ok(()));
        assert_eq!(
            first_difference(b"1 4\n3 02 1 1\n0\n", canonical).unwrap_err().to_string(),
            r#"line 2, column 3: expected "2", found "02""#
        );
        assert_eq!(
            first_difference(b"1 4\n3 1 1 1\n0\n", canonical).unwrap_err().to_string(),
            r#"line 2, column 7: expected "2", found "1""#
        );
        // The rendering is of the file's own values, so a line in another order is one the
        // renderer sorts; which order is the file's to choose.
        assert_eq!(first_difference(b"4 1\n3 1 1 2\n0\n", canonical), Ok(()));
        assert_eq!(
            first_difference(b"1 4\n3 1 1\n2\n0\n", canonical).unwrap_err().to_string(),
            "line 2, column 6: expected a space, found a newline"
        );
    }

    #[test]
    fn leading_zeros_give_the_plain_decimal() {
        assert_eq!(plain_decimal(b"007"), Some(&b"7"[..]));
        assert_eq!(plain_decimal(b"000"), Some(&b"0"[..]));
        assert_eq!(plain_decimal(b"7"), None);
        assert_eq!(plain_decimal(b"0"), None);
        assert_eq!(plain_decimal(b"+7"), None);
        assert!(is_plain_decimal(b"10") && !is_plain_decimal(b"01") && !is_plain_decimal(b""));
    }
}
