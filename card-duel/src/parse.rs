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
    let cases = input.uint("the number of cases T", 0..=MAX_CASES)?;
    let ops = input.uint("O", 1..=u64::from(MAX_OPS))?;
    Ok((ops as u8, cases as usize))
}

/// Reads one case. `O(1)`.
///
/// # Errors
/// A missing or out-of-range number: HP outside `1..=20`, more than four minions, a minion
/// with HP other than 1 or 2, a hand outside `0..=3`.
pub fn position(input: &mut Input<'_>) -> Result<Position, InputError> {
    let hp = 1..=u64::from(MAX_HP);
    let e_hp = input.uint("E's HP", hp.clone())? as u8;
    let teacher_hp = input.uint("the teacher's HP", hp)? as u8;
    let teacher_board = board(input, "the teacher's minion count")?;
    let e_board = board(input, "E's minion count")?;
    let teacher_hand = input.uint("the teacher's hand size", 0..=u64::from(MAX_HAND))? as u8;
    let e_hand = input.uint("E's hand size", 0..=u64::from(MAX_HAND))? as u8;
    Ok(Position { e_hp, teacher_hp, e_board, teacher_board, e_hand, teacher_hand })
}

fn board(input: &mut Input<'_>, what: &str) -> Result<Board, InputError> {
    let count = input.uint(what, 0..=u64::from(MAX_MINIONS))?;
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
