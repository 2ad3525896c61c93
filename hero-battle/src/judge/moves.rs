//! hero-battle's shrink moves, in the order the driver tries them: drop half the cases, a
//! quarter, ... (ddmin's chunks), drop each case; set every number to 1, in the whole file
//! (when two cases or more have a number above 1), then in each case; then lower each
//! number in input order: to 1, then by half the distance, a quarter, ..., one.
//!
//! The ones-moves make a failure that needs many cases but no particular numbers (a full
//! file of 40 that crashes) cost a run or a run a case instead of a run a number. Every move
//! lowers the cases plus the sum of all numbers, and the list holds the one-step moves (drop
//! a case, lower a number by one), so the driver's result is 1-minimal under them.

use judge::moves::{drop_chunks, drop_each, lower};

use crate::rules::Case;

/// The shrink moves of `input`, lazily (see the module notes).
pub(super) fn shrink(input: &[Case]) -> impl Iterator<Item = Vec<Case>> + '_ {
    let ones = Case::from_array([1; 12]);
    let above_one: Vec<usize> = (0..input.len()).filter(|&i| input[i] != ones).collect();
    let whole_file = (above_one.len() > 1).then(|| vec![ones; input.len()]);
    let each_case = above_one.into_iter().map(move |i| {
        let mut next = input.to_vec();
        next[i] = ones;
        next
    });
    let numbers = (0..12 * input.len()).flat_map(move |k| {
        let (case, field) = (k / 12, k % 12);
        let values = input[case].to_array();
        lower(u64::from(values[field]), 1).map(move |lowered| {
            let mut next = input.to_vec();
            let mut changed = values;
            changed[field] = u8::try_from(lowered).expect("lowered below a u8");
            next[case] = Case::from_array(changed);
            next
        })
    });
    drop_chunks(input).chain(drop_each(input)).chain(whole_file).chain(each_case).chain(numbers)
}

#[cfg(test)]
mod tests {
    use judge::Problem;

    use super::*;
    use crate::judge::Judge;

    fn case(v: [u8; 12]) -> Case {
        Case::from_array(v)
    }

    #[test]
    fn the_moves_set_numbers_to_one_then_hold_every_single_step() {
        let input =
            vec![case([3, 1, 99, 2, 1, 1, 1, 1, 1, 1, 1, 50]), case([1; 12]), case([2; 12])];
        let moves: Vec<Vec<Case>> = Judge.shrink(&input).collect();
        // Each single-step move is among them: drop one case, lower one number by one.
        for i in 0..input.len() {
            let mut dropped = input.clone();
            dropped.remove(i);
            assert!(moves.contains(&dropped));
        }
        for (i, c) in input.iter().enumerate() {
            for k in 0..12 {
                let mut v = c.to_array();
                if v[k] > 1 {
                    v[k] -= 1;
                    let mut lowered = input.clone();
                    lowered[i] = case(v);
                    assert!(moves.contains(&lowered), "case {i} number {k}");
                }
            }
        }
        // 99 is lowered to 1 first, then by halves: 50, 75, ...
        let firsts: Vec<u8> = moves
            .iter()
            .filter(|m| {
                m.len() == 3
                    && m[0].bob_hp[1] == 2
                    && m[0].alice_hp == [3, 1]
                    && m[0].bob_damage[1][1] == 50
                    && m[1..] == input[1..]
            })
            .map(|m| m[0].bob_hp[0])
            .collect();
        assert_eq!(firsts, [1, 50, 75, 87, 93, 96, 98]);
        // After the three drops: every number to 1 in the file, then in each case not all 1.
        let ones = case([1; 12]);
        assert_eq!(moves[3], [ones; 3]);
        assert_eq!(moves[4], [ones, ones, input[2]]);
        assert_eq!(moves[5], [input[0], ones, ones]);
        assert_eq!(moves[6][0].alice_hp[0], 1, "then the numbers");
        // One case: no file-wide move, which would be the same candidate.
        let single = Judge.shrink(&input[..1].to_vec()).take(2).collect::<Vec<_>>();
        assert_eq!(single[..2], [vec![], vec![ones]]);
    }
}
