//! Reading the judge's format: `T O`, then per case `E S`, the teacher's board, E's board and
//! the two hands (teacher's first), with errors that name line and column.

use engine::input::{Input, InputError};

use crate::rules::{Board, MAX_HAND, MAX_HP, MAX_MINIONS, MAX_OPS, Position};

/// Most cases a file may announce: the 1,440,000 distinct positions of one O, with room to
/// spare. A larger count is almost surely a typo, and would fail at the end of input anyway.
pub const MAX_CASES: u64 = 10_000_000;

/// Reads `T O` and returns `(O, T)`.
///
/// # Errors
/// A missing or out-of-range number.
pub fn header(input: &mut Input<'_>) -> Result<(u8, usize), InputError> {
    let cases = input.uint("the number of cases T", 0..=MAX_CASES as usize)?;
    let ops = input.uint("O", 1..=MAX_OPS)?;
    Ok((ops, cases))
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
/// the judge's files (and [`write_input`](crate::write_input)) lay it out, after at most one
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::StartKey;

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
            let text = crate::write_input(3, &positions);
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
