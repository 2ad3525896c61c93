//! card-duel's shrink moves, in the order the driver tries them: lower O (to 1, then by half
//! the distance, ..., by one); in a file of [`KEEP_QUARTERS_FROM`] cases or more, keep one
//! quarter of the cases; keep either half; every case to the simplest position (both at 1
//! HP, empty boards and hands), when two cases or more are not; drop a quarter of the
//! cases, an eighth and so on; drop one case; then, case by case, lower E's or the teacher's
//! HP (to 1, then by half the distance, a quarter, ..., by one), remove one minion (a 1-HP or
//! a 2-HP one), lower a 2-HP minion to 1, lower a hand (to 0, then by one). Every move lowers
//! O plus, for each case, one and every HP and hand size on the table, and the list holds
//! the one-step moves, so the driver's result is 1-minimal under them.
//!
//! O goes first because a smaller O makes every later run of a program that sweeps a table
//! per file cheaper, and under the original limits it costs one run (O = 3 is their
//! smallest). Keeping a quarter takes a large file down faster than halves when runs go two
//! at a time ([`KEEP_QUARTERS_FROM`]). The whole-file move comes right after the halves,
//! where it costs a run only when neither half fails alone (a failure that needs cases from
//! both, or that depends on their count, as a program failing only at the largest `T`,
//! which it then turns into a file of simplest cases at once) or when at most three cases
//! are left.

use judge::moves::{drop_chunks, drop_each, lower};

use crate::TestFile;
use crate::rules::{Board, Position};

/// Files of at least this many cases try keeping one quarter of their cases before keeping
/// one half. With `-j 2`, whose first run after an accepted move runs alone and the others
/// two at a time, a failure on one case takes about one batch of runs to get 4 times
/// smaller this way, and 1.5 batches to get 2 times smaller by halves. Smaller files keep the
/// halves alone: at most six halvings take them to one case, and their runs cost little.
const KEEP_QUARTERS_FROM: usize = 64;

/// The simplest position: both players at 1 HP, empty boards, empty hands. Every shrink move
/// of it is invalid.
const SIMPLEST: Position = Position {
    e_hp: 1,
    teacher_hp: 1,
    e_board: Board::EMPTY,
    teacher_board: Board::EMPTY,
    e_hand: 0,
    teacher_hand: 0,
};

/// The shrink moves of `input`, lazily (see the module notes).
pub(super) fn shrink(input: &TestFile) -> impl Iterator<Item = TestFile> + '_ {
    let with = move |positions: Vec<Position>| TestFile { ops: input.ops, positions };
    let n = input.positions.len();
    // Chunks of n / 2: two of them, or three when n is odd.
    let halves = if n >= 4 { n.div_ceil(n / 2) } else { 0 };
    let quarter = n.div_ceil(4);
    let quarters = (n >= KEEP_QUARTERS_FROM)
        .then_some(0..4)
        .into_iter()
        .flatten()
        .map(move |q| with(input.positions[q * quarter..((q + 1) * quarter).min(n)].to_vec()));
    let not_simplest = input.positions.iter().filter(|&&p| p != SIMPLEST).count();
    let simplest =
        (not_simplest > 1).then(|| TestFile { ops: input.ops, positions: vec![SIMPLEST; n] });
    let ops = lower(u64::from(input.ops), 1).map(move |ops| TestFile {
        ops: u8::try_from(ops).expect("lowered from a u8"),
        positions: input.positions.clone(),
    });
    let cases = (0..input.positions.len()).flat_map(move |i| {
        let p = input.positions[i];
        let changed = move |q: Position| {
            let mut next = input.clone();
            next.positions[i] = q;
            next
        };
        let lower_hp = |hp: u8| lower(u64::from(hp), 1).map(|v| v as u8);
        let e_hp = lower_hp(p.e_hp).map(move |e_hp| Position { e_hp, ..p });
        let teacher_hp = lower_hp(p.teacher_hp).map(move |teacher_hp| Position { teacher_hp, ..p });
        let boards = [true, false].into_iter().flat_map(move |teacher| {
            let board = if teacher { p.teacher_board } else { p.e_board };
            let smaller = [
                (board.ones > 0).then(|| Board { ones: board.ones - 1, ..board }),
                (board.twos > 0).then(|| Board { twos: board.twos - 1, ..board }),
                (board.twos > 0).then(|| Board { ones: board.ones + 1, twos: board.twos - 1 }),
            ];
            smaller.into_iter().flatten().map(move |b| {
                if teacher {
                    Position { teacher_board: b, ..p }
                } else {
                    Position { e_board: b, ..p }
                }
            })
        });
        let lower_hand = |hand: u8| lower(u64::from(hand), 0).map(|v| v as u8);
        let teacher_hand =
            lower_hand(p.teacher_hand).map(move |teacher_hand| Position { teacher_hand, ..p });
        let e_hand = lower_hand(p.e_hand).map(move |e_hand| Position { e_hand, ..p });
        e_hp.chain(teacher_hp).chain(boards).chain(teacher_hand).chain(e_hand).map(changed)
    });
    ops.chain(quarters)
        .chain(drop_chunks(&input.positions).take(halves).map(with))
        .chain(simplest)
        .chain(drop_chunks(&input.positions).skip(halves).map(with))
        .chain(drop_each(&input.positions).map(with))
        .chain(cases)
}

#[cfg(test)]
mod tests {
    use judge::Problem;

    use super::*;
    use crate::judge::Judge;
    use crate::judge::tests::position;

    #[test]
    fn the_shrink_moves_hold_the_one_step_moves() {
        let judge = Judge::new();
        let input = TestFile {
            ops: 5,
            positions: vec![
                position(20, 3, (1, 2), (0, 4), (3, 1)),
                position(1, 1, (0, 0), (0, 0), (0, 0)),
                position(2, 9, (4, 0), (1, 1), (0, 3)),
            ],
        };
        let size = judge.size(&input);
        let moves: Vec<TestFile> = judge.shrink(&input).collect();
        assert!(moves.iter().all(|m| judge.size(m) < size));
        // The one-step moves, and lowering O by one.
        let mut expected = Vec::new();
        for i in 0..input.positions.len() {
            let mut dropped = input.clone();
            dropped.positions.remove(i);
            expected.push(dropped);
        }
        expected.push(TestFile { ops: 4, ..input.clone() });
        for (i, &p) in input.positions.iter().enumerate() {
            let mut changes = Vec::new();
            if p.e_hp > 1 {
                changes.push(Position { e_hp: p.e_hp - 1, ..p });
            }
            if p.teacher_hp > 1 {
                changes.push(Position { teacher_hp: p.teacher_hp - 1, ..p });
            }
            for teacher in [true, false] {
                let b = if teacher { p.teacher_board } else { p.e_board };
                let mut boards = Vec::new();
                if b.ones > 0 {
                    boards.push(Board { ones: b.ones - 1, ..b });
                }
                if b.twos > 0 {
                    boards.push(Board { twos: b.twos - 1, ..b });
                    boards.push(Board { ones: b.ones + 1, twos: b.twos - 1 });
                }
                for b in boards {
                    changes.push(if teacher {
                        Position { teacher_board: b, ..p }
                    } else {
                        Position { e_board: b, ..p }
                    });
                }
            }
            if p.teacher_hand > 0 {
                changes.push(Position { teacher_hand: p.teacher_hand - 1, ..p });
            }
            if p.e_hand > 0 {
                changes.push(Position { e_hand: p.e_hand - 1, ..p });
            }
            for q in changes {
                let mut changed = input.clone();
                changed.positions[i] = q;
                expected.push(changed);
            }
        }
        for m in &expected {
            assert!(moves.contains(m), "{m:?}");
        }
        // A file of 100 cases keeps one quarter, then one half, after lowering O.
        let hundred = TestFile { ops: 3, positions: vec![input.positions[0]; 100] };
        let first: Vec<usize> = judge.shrink(&hundred).take(7).map(|m| m.positions.len()).collect();
        assert_eq!(first, [100, 100, 25, 25, 25, 25, 50]);
        // Bigger steps come first: O goes to 1 first, and the first move of case 1 alone
        // lowers E's 20 HP to 1.
        assert_eq!(moves[0], TestFile { ops: 1, ..input.clone() });
        let only_case_1 = |m: &TestFile| {
            m.ops == 5 && m.positions.len() == 3 && m.positions[1..] == input.positions[1..]
        };
        let first = moves.iter().position(only_case_1).unwrap();
        assert_eq!(moves[first].positions[0], Position { e_hp: 1, ..input.positions[0] });
        // Beside them, only the bigger steps: every case to the simplest position; O 5 to 1
        // and 3; HP 20 to 1, 11, 16 and 18; 3 to 1; 9 to 1, 5 and 7; hands of 3 to 0.
        assert_eq!(moves.len(), expected.len() + 13);
        assert!(moves.contains(&TestFile { ops: 5, positions: vec![SIMPLEST; 3] }));
    }
}
