//! The judge's format, read and written in one place: [`InputFormat`] reads `T O`, then per
//! case `E S`, the teacher's board, E's board and the two hands (teacher's first), with errors
//! that name line and column, under the limits it is given; [`write_input`] writes positions
//! in that format, and [`write_probability`] one answer of the output.

use std::ops::RangeInclusive;

use engine::driver::Format;
use engine::input::{Input, InputError};
use engine::input::Limits;

use crate::rules::{
    Board, MAX_HAND, MAX_HP, MAX_MINIONS, MAX_OPS, OFFICIAL_CASES, ORIGINAL_OPS, Position,
};

/// One input file: O and the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFile {
    /// Hero powers plus plays allowed a turn, for every case of the file.
    pub ops: u8,
    /// The cases.
    pub positions: Vec<Position>,
}

/// Most cases a file may announce: the 1,440,000 distinct positions of one O, with room to
/// spare. A larger count is almost surely a typo, and would fail at the end of input anyway.
pub const MAX_CASES: u64 = 10_000_000;

/// The judge's format: `T O`, then `T` positions, the teacher's board and hand before E's,
/// with `T` and `O` in the ranges `limits` allow. The one parser of the input: the solvers
/// read with [`InputFormat::SOLVER`], the judge ([`Judge`](crate::judge::Judge)) under the
/// limits it is asked for, so the validator's messages are the solver's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputFormat {
    /// Which case counts `T` and which O are accepted.
    pub limits: Limits,
}

impl InputFormat {
    /// What the solvers read: `0 <= T <= MAX_CASES` and `1 <= O <= MAX_OPS` (the extended
    /// limits).
    pub const SOLVER: Self = Self { limits: Limits::Extended };

    /// The case counts `T` the limits allow: `1..=351,493` under the original limits,
    /// `0..=MAX_CASES` under the extended ones.
    #[must_use]
    pub fn case_counts(&self) -> RangeInclusive<usize> {
        match self.limits {
            Limits::Original => 1..=OFFICIAL_CASES,
            Limits::Extended => 0..=MAX_CASES as usize,
        }
    }

    /// The values of O the limits allow: `3..=5` under the original limits, `1..=MAX_OPS`
    /// under the extended ones.
    #[must_use]
    pub fn ops(&self) -> RangeInclusive<u8> {
        match self.limits {
            Limits::Original => ORIGINAL_OPS,
            Limits::Extended => 1..=MAX_OPS,
        }
    }
}

impl Format for InputFormat {
    /// O.
    type Header = u8;
    type Case = Position;

    /// Reads `T O` and returns `(O, T)`.
    fn parse_header(&self, input: &mut Input<'_>) -> Result<(u8, usize), InputError> {
        let cases = input.uint("the number of cases T", self.case_counts())?;
        let ops = input.uint("O", self.ops())?;
        Ok((ops, cases))
    }

    fn parse_case(
        &self,
        _ops: &u8,
        _index: usize,
        input: &mut Input<'_>,
    ) -> Result<Position, InputError> {
        position(input)
    }

    /// The judge's files (and [`write_input`]'s) give a case four lines: the HP, the two
    /// boards, the two hands.
    fn lines_per_case(&self, _ops: &u8) -> Option<usize> {
        Some(4)
    }
}

/// O as the file solvers read it: its value, and where it stands in the input, so that a run
/// off the tablebase of another O can point at it once the file is parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlacedOps {
    /// O.
    pub(crate) ops: u8,
    /// Where O stands: the line and column an error about it names.
    line: usize,
    column: usize,
}

impl PlacedOps {
    /// An error of the input saying `message`, pointing at O.
    pub(crate) fn error(&self, message: String) -> InputError {
        InputError { line: self.line, column: self.column, message }
    }
}

/// [`InputFormat::SOLVER`] with O's place kept in the header ([`PlacedOps`]): what the file
/// solvers read. It reads, and rejects, exactly what `InputFormat::SOLVER` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SolverFormat;

impl Format for SolverFormat {
    type Header = PlacedOps;
    type Case = Position;

    /// Reads `T O` as [`InputFormat::SOLVER`] does, then finds where O starts: after the
    /// token of `T` and the white space that follows it. `O(header)`.
    fn parse_header(&self, input: &mut Input<'_>) -> Result<(PlacedOps, usize), InputError> {
        let mut place = input.clone();
        let (ops, cases) = InputFormat::SOLVER.parse_header(input)?;
        place.next_token();
        place.at_end();
        let at = place.error_at(place.offset(), "");
        Ok((PlacedOps { ops, line: at.line, column: at.column }, cases))
    }

    fn parse_case(
        &self,
        _ops: &PlacedOps,
        _index: usize,
        input: &mut Input<'_>,
    ) -> Result<Position, InputError> {
        position(input)
    }

    fn lines_per_case(&self, ops: &PlacedOps) -> Option<usize> {
        InputFormat::SOLVER.lines_per_case(&ops.ops)
    }
}

/// Reads one case. `O(1)`.
///
/// # Errors
/// A missing or out-of-range number: HP outside `1..=20`, more than four minions, a minion
/// with HP other than 1 or 2, a hand outside `0..=3`.
pub fn position(input: &mut Input<'_>) -> Result<Position, InputError> {
    if let Some((position, len)) = tidy_position(input.rest()) {
        input.advance(len);
        return Ok(position);
    }
    any_position(input)
}

/// [`position`] through the tokenizer, for any white space and any error.
fn any_position(input: &mut Input<'_>) -> Result<Position, InputError> {
    let e_hp = input.uint("E's HP", 1..=MAX_HP)?;
    let teacher_hp = input.uint("the teacher's HP", 1..=MAX_HP)?;
    let teacher_board = board(input, "the teacher's minion count")?;
    let e_board = board(input, "E's minion count")?;
    let teacher_hand = input.uint("the teacher's hand size", 0..=MAX_HAND)?;
    let e_hand = input.uint("E's hand size", 0..=MAX_HAND)?;
    Ok(Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand })
}

/// The common case of [`position`], without the tokenizer (a file of every position parses
/// 1.5 times faster): a valid case laid out as
/// the judge's files (and [`write_input`]) lay it out, after at most one
/// line break: `E S`, each board as its count and its minions' HP, the hands, on four lines
/// with one space between numbers, every number without a leading zero. Returns the position
/// and the bytes read (up to the end of its last number, as the tokenizer stops); anything
/// else gives `None`, and the tokenizer reads it, so the two always agree.
fn tidy_position(bytes: &[u8]) -> Option<(Position, usize)> {
    let mut at = usize::from(bytes.first() == Some(&b'\n'));
    let e_hp = tidy_hp(bytes, &mut at, b' ')?;
    let teacher_hp = tidy_hp(bytes, &mut at, b'\n')?;
    let teacher_board = tidy_board(bytes, &mut at)?;
    let e_board = tidy_board(bytes, &mut at)?;
    let teacher_hand = tidy_digit(bytes, at, MAX_HAND)?;
    let e_hand = tidy_digit(bytes, at + 2, MAX_HAND)?;
    let end = at + 3;
    // One space between the hands, and the last number ends its token.
    if bytes[at + 1] != b' ' || bytes.get(end).is_some_and(|b| !b.is_ascii_whitespace()) {
        return None;
    }
    Some((Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand }, end))
}

/// The digit at `at`, if it is one in `0..=max`.
#[inline]
fn tidy_digit(bytes: &[u8], at: usize, max: u8) -> Option<u8> {
    bytes.get(at).map(|b| b.wrapping_sub(b'0')).filter(|&d| d <= max)
}

/// HP of one or two digits in `1..=MAX_HP` without a leading zero, followed by `end`; moves
/// `at` past `end`. Both lengths are computed and one picked, without a branch: HP of one
/// and of two digits come in no order a branch could predict.
#[inline]
fn tidy_hp(bytes: &[u8], at: &mut usize, end: u8) -> Option<u8> {
    let first = tidy_digit(bytes, *at, 9).filter(|&d| d > 0)?;
    let second = bytes.get(*at + 1)?.wrapping_sub(b'0');
    let two = second <= 9;
    let hp = if two { first * 10 + second } else { first };
    let len = 1 + usize::from(two);
    (hp <= MAX_HP && bytes.get(*at + len) == Some(&end)).then(|| {
        *at += len + 1;
        hp
    })
}

/// A board's line: its count `c` in `0..=MAX_MINIONS`, then `c` times a space and a minion's
/// HP, `1` or `2`, then a line break; moves `at` past it. The minions are checked and counted
/// without a branch each (their HP come in no predictable order).
#[inline]
fn tidy_board(bytes: &[u8], at: &mut usize) -> Option<Board> {
    let count = tidy_digit(bytes, *at, MAX_MINIONS)?;
    let minions = usize::from(count);
    let line = bytes.get(*at + 1..*at + 2 + 2 * minions)?;
    let (mut valid, mut twos) = (line[2 * minions] == b'\n', 0);
    for minion in line[..2 * minions].chunks_exact(2) {
        valid &= minion[0] == b' ' && minion[1].wrapping_sub(b'1') <= 1;
        twos += u8::from(minion[1] == b'2');
    }
    valid.then(|| {
        *at += 2 + 2 * minions;
        Board { ones: count - twos, twos }
    })
}

fn board(input: &mut Input<'_>, what: &str) -> Result<Board, InputError> {
    let count = input.uint(what, 0..=MAX_MINIONS)?;
    let mut board = Board::EMPTY;
    for _ in 0..count {
        match input.uint("a minion's HP", 1u8..=2)? {
            1 => board.ones += 1,
            _ => board.twos += 1,
        }
    }
    Ok(board)
}

/// Appends positions in the judge's format with `T` and `O` on the first line, each case on
/// four lines as the official files lay it out; minions are listed 1-HP first. Built without
/// the formatter: an official-size file is 351,493 cases of small numbers. `O(cases)`.
pub fn render_input(ops: u8, positions: &[Position], out: &mut Vec<u8>) {
    out.reserve(16 + 24 * positions.len());
    out.extend_from_slice(positions.len().to_string().as_bytes());
    out.push(b' ');
    push_small(out, ops);
    out.push(b'\n');
    for p in positions {
        push_small(out, p.e_hp);
        out.push(b' ');
        push_small(out, p.teacher_hp);
        out.push(b'\n');
        push_board(out, p.teacher_board);
        push_board(out, p.e_board);
        push_small(out, p.teacher_hand);
        out.push(b' ');
        push_small(out, p.e_hand);
        out.push(b'\n');
    }
}

/// [`render_input`] as a string.
#[must_use]
pub fn write_input(ops: u8, positions: &[Position]) -> String {
    let mut out = Vec::new();
    render_input(ops, positions, &mut out);
    String::from_utf8(out).expect("the judge's format is ASCII")
}

/// Appends `value` in decimal.
fn push_small(out: &mut Vec<u8>, value: u8) {
    if value >= 100 {
        out.push(b'0' + value / 100);
    }
    if value >= 10 {
        out.push(b'0' + value / 10 % 10);
    }
    out.push(b'0' + value % 10);
}

/// Appends a board line: the count, then each minion's HP, 1-HP ones first.
fn push_board(out: &mut Vec<u8>, board: Board) {
    push_small(out, board.len());
    for _ in 0..board.ones {
        out.extend_from_slice(b" 1");
    }
    for _ in 0..board.twos {
        out.extend_from_slice(b" 2");
    }
    out.push(b'\n');
}

/// `THREE_DIGITS[n]`: the three decimal digits of `n < 1000`, zero-padded.
const THREE_DIGITS: [[u8; 3]; 1000] = {
    let mut table = [[0; 3]; 1000];
    let mut n = 0;
    while n < 1000 {
        table[n] = [b'0' + (n / 100) as u8, b'0' + (n / 10 % 10) as u8, b'0' + (n % 10) as u8];
        n += 1;
    }
    table
};

/// Appends `p` with 9 digits after the point and a newline, as `format!("{p:.9}")` would: one
/// line of the output. `O(1)`.
pub fn write_probability(out: &mut Vec<u8>, p: f64) {
    let scaled = p * 1e9;
    // The product is within 1e-7 of the exact decimal, so it rounds like the exact value
    // unless it lies near a half; those rare values, and anything outside 0..=1, go to the
    // formatter, which rounds the exact binary value. Truncating a number in 0..=1e9 is its
    // floor, without the call to `floor` that x86-64's baseline (no SSE4.1) compiles to.
    if (0.0..=1e9).contains(&scaled) {
        let whole = scaled as u32;
        let fraction = scaled - f64::from(whole);
        if (fraction - 0.5).abs() > 1e-6 {
            let n = whole + u32::from(fraction > 0.5);
            let mut digits = [b'0'; 12];
            digits[0] = b'0' + (n / 1_000_000_000) as u8;
            digits[1] = b'.';
            // The nine decimals in three groups of three, each group's digits read off a
            // table, so that no division waits on another.
            let rest = n % 1_000_000_000;
            let groups = [rest / 1_000_000, rest / 1000 % 1000, rest % 1000];
            for (place, &group) in groups.iter().enumerate() {
                let at = 2 + 3 * place;
                digits[at..at + 3].copy_from_slice(&THREE_DIGITS[group as usize]);
            }
            digits[11] = b'\n';
            out.extend_from_slice(&digits);
            return;
        }
    }
    out.extend_from_slice(format!("{p:.9}\n").as_bytes());
}

#[cfg(test)]
mod tests {
    use engine::driver::parse_all;

    use super::*;
    use crate::tables::StartKey;

    #[test]
    fn probabilities_print_like_the_formatter() {
        let mut rng = engine::rng::SplitMix64::new(3);
        let mut values: Vec<f64> =
            (0..100_000).map(|_| rng.next_u64() as f64 / 2f64.powi(64)).collect();
        values.extend([
            0.0,
            1.0,
            0.5,
            0.041_879_441,
            0.000_000_000_5,
            0.999_999_999_5,
            1.0 + 1e-15,
        ]);
        values.extend((0..1000).map(|i| (f64::from(i) + 0.5) / 1e9));
        for p in values {
            let mut out = Vec::new();
            write_probability(&mut out, p);
            assert_eq!(String::from_utf8(out).unwrap(), format!("{p:.9}\n"));
        }
    }

    /// The byte renderer writes what the formatter wrote before it (the judge's layout, 1-HP
    /// minions first), and what it writes parses back.
    #[test]
    fn written_inputs_are_the_formatters_bytes_and_parse_back() {
        let formatted = |ops: u8, positions: &[Position]| {
            use std::fmt::Write as _;
            let mut text = format!("{} {ops}\n", positions.len());
            let board = |text: &mut String, b: Board| {
                let hps = std::iter::repeat_n(" 1", b.ones.into())
                    .chain(std::iter::repeat_n(" 2", b.twos.into()));
                let _ = writeln!(text, "{}{}", b.len(), hps.collect::<String>());
            };
            for p in positions {
                let _ = writeln!(text, "{} {}", p.e_hp, p.teacher_hp);
                board(&mut text, p.teacher_board);
                board(&mut text, p.e_board);
                let _ = writeln!(text, "{} {}", p.teacher_hand, p.e_hand);
            }
            text
        };
        let positions: Vec<Position> =
            (0..500).map(|r| StartKey::unrank(r * 2879).position()).collect();
        for (ops, positions) in [(4, &positions[..]), (20, &positions[..1]), (1, &[][..])] {
            let text = write_input(ops, positions);
            assert_eq!(text, formatted(ops, positions));
            let (read, parsed) = parse_all(&InputFormat::SOLVER, text.as_bytes()).unwrap();
            assert_eq!((read, parsed.as_slice()), (ops, positions));
        }
        let mut out = b"kept".to_vec();
        render_input(3, &positions[..2], &mut out);
        assert_eq!(out, [&b"kept"[..], formatted(3, &positions[..2]).as_bytes()].concat());
    }

    /// The header's ranges are the limits'; the rest of the format is the same under both.
    #[test]
    fn the_header_is_read_under_the_limits() {
        let error = |text: &str, limits| {
            parse_all(&InputFormat { limits }, text.as_bytes()).unwrap_err().to_string()
        };
        let case = "1 1\n0\n0\n0 0\n";
        assert_eq!(
            error(&format!("0 3\n{case}"), Limits::Original),
            r#"line 1, column 1: expected the number of cases T in 1..=351493, found "0""#
        );
        assert_eq!(
            error(&format!("1 6\n{case}"), Limits::Original),
            r#"line 1, column 3: expected O in 3..=5, found "6""#
        );
        assert_eq!(
            error(&format!("1 21\n{case}"), Limits::Extended),
            r#"line 1, column 3: expected O in 1..=20, found "21""#
        );
        assert_eq!(
            error("", Limits::Extended),
            "line 1, column 1: expected the number of cases T in 0..=10000000, found end of input"
        );
        assert_eq!(
            error(&format!("1 3\n{case}7\n"), Limits::Original),
            r#"line 6, column 1: expected end of input after case 1, found "7""#
        );
        let ok = parse_all(&InputFormat { limits: Limits::Extended }, b"1 20\n1 1\n0\n0\n0 0\n");
        assert_eq!(ok.unwrap().0, 20);
        assert_eq!(InputFormat::SOLVER.case_counts(), 0..=10_000_000);
        assert_eq!(InputFormat { limits: Limits::Original }.ops(), 3..=5);
    }

    #[test]
    fn reads_the_teacher_first() {
        let mut input = Input::new(b"5 14\n1 1\n2 2 1\n1 0\n");
        let p = position(&mut input).unwrap();
        assert_eq!(p.e_hp, 5);
        assert_eq!(p.teacher_hp, 14);
        assert_eq!(p.teacher_board, Board { ones: 1, twos: 0 });
        assert_eq!(p.e_board, Board { ones: 1, twos: 1 });
        assert_eq!((p.teacher_hand, p.e_hand), (1, 0));
    }

    /// Files of many positions laid out as the judge's files are, then damaged (a byte
    /// replaced, removed or inserted, or the file cut short):
    /// reading case after case with the tidy path first gives the same positions, the same
    /// first error and the same offsets as the tokenizer alone.
    #[test]
    fn the_tidy_path_reads_as_the_tokenizer() {
        let mut rng = engine::rng::SplitMix64::new(77);
        let read_all = |bytes: &[u8], read: fn(&mut Input<'_>) -> Result<Position, InputError>| {
            let mut input = Input::new(bytes);
            let mut read_so_far = Vec::new();
            loop {
                let result = read(&mut input);
                read_so_far.push((result.clone(), input.offset()));
                if result.is_err() || input.at_end() {
                    return read_so_far;
                }
            }
        };
        let mut tidy_cases = 0;
        for round in 0..2000 {
            let positions: Vec<Position> = (0..1 + rng.below(6))
                .map(|_| StartKey::unrank(rng.below(StartKey::CARDINALITY)).position())
                .collect();
            let text = write_input(3, &positions);
            // Without the header's line: the cursor sits where a case starts.
            let header = text.find('\n').unwrap();
            let mut bytes = text.as_bytes()[header..].to_vec();
            if round % 4 == 0 {
                // Undamaged: every case takes the tidy path.
                let mut rest = bytes.as_slice();
                for p in &positions {
                    let (read, len) = tidy_position(rest).expect("a tidy case");
                    assert_eq!(read, *p);
                    rest = &rest[len..];
                    tidy_cases += 1;
                }
            } else {
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(bytes.len());
                    let byte = b"0123459 \n\r\tx"[rng.below(12)];
                    match rng.below(4) {
                        0 => bytes[at] = byte,
                        1 => drop(bytes.remove(at)),
                        2 => bytes.insert(at, byte),
                        _ => bytes.truncate(at.max(1)),
                    }
                }
            }
            assert_eq!(read_all(&bytes, position), read_all(&bytes, any_position), "{bytes:?}");
        }
        assert!(tidy_cases > 1000, "{tidy_cases} cases read on the tidy path");
    }

    #[test]
    fn rejects_bad_fields_with_their_place() {
        for (text, message) in [
            ("0 3", "line 1, column 1: expected E's HP in 1..=20, found \"0\""),
            ("3 21", "line 1, column 3: expected the teacher's HP in 1..=20, found \"21\""),
            (
                "3 3\n5",
                "line 2, column 1: expected the teacher's minion count in 0..=4, found \"5\"",
            ),
            ("3 3\n1 3", "line 2, column 3: expected a minion's HP in 1..=2, found \"3\""),
            (
                "3 3\n0\n0\n4 0",
                "line 4, column 1: expected the teacher's hand size in 0..=3, found \"4\"",
            ),
            (
                "3 3\n0\n0\n0",
                "line 4, column 2: expected E's hand size in 0..=3, found end of input",
            ),
        ] {
            let err = position(&mut Input::new(text.as_bytes())).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
    }
}
