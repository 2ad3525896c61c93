//! Building blocks for [`Problem::shrink`](super::Problem::shrink): the moves every
//! multi-case or list-shaped input shares (drop chunks of items, drop one item) and the
//! steps that lower one number. Each is a lazy iterator, so a problem's move list costs only
//! the candidates the driver actually tries.

/// `items` without one chunk, for chunk sizes `n/2, n/4, ...` down to 2 (ddmin's
/// complements, big first): the first candidates keep either half, later ones drop a quarter
/// anywhere, and so on. About `2n` candidates, each `O(n)` to build.
pub fn drop_chunks<T: Clone>(items: &[T]) -> impl Iterator<Item = Vec<T>> + '_ {
    let n = items.len();
    std::iter::successors((n >= 4).then_some(n / 2), |&k| (k >= 4).then_some(k / 2)).flat_map(
        move |k| {
            (0..n.div_ceil(k)).map(move |chunk| {
                let (start, end) = (chunk * k, ((chunk + 1) * k).min(n));
                items[..start].iter().chain(&items[end..]).cloned().collect()
            })
        },
    )
}

/// `items` without item `i`, for each `i` in order: the one-step "drop one" moves.
pub fn drop_each<T: Clone>(items: &[T]) -> impl Iterator<Item = Vec<T>> + '_ {
    (0..items.len()).map(move |i| {
        let mut next = items.to_vec();
        next.remove(i);
        next
    })
}

/// Smaller values for a number `value` whose floor is `low`, biggest step first: `low`,
/// the midpoint, `value - 1`; each below `value`, none repeated. The last, `value - 1`, is
/// the one-step move.
pub fn lower(value: u64, low: u64) -> impl Iterator<Item = u64> {
    let mid = low + (value.saturating_sub(low)) / 2;
    let steps = [low, mid, value.wrapping_sub(1)];
    steps.into_iter().enumerate().filter_map(move |(i, v)| {
        let fresh = steps[..i].iter().all(|&u| u != v);
        (value > low && v < value && v >= low && fresh).then_some(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_go_from_halves_to_pairs() {
        let items: Vec<u32> = (0..8).collect();
        let got: Vec<Vec<u32>> = drop_chunks(&items).collect();
        assert_eq!(got[0], [4, 5, 6, 7]);
        assert_eq!(got[1], [0, 1, 2, 3]);
        assert_eq!(got[2], [2, 3, 4, 5, 6, 7]);
        assert_eq!(got.len(), 2 + 4);
        assert_eq!(drop_chunks(&items[..5]).count(), 3, "chunks of 2: 01, 23, 4");
        assert_eq!(drop_chunks(&items[..3]).count(), 0, "drop_each covers three items");
        let each: Vec<Vec<u32>> = drop_each(&items[..3]).collect();
        assert_eq!(each, [vec![1, 2], vec![0, 2], vec![0, 1]]);
    }

    #[test]
    fn lowering_steps_are_distinct_and_smaller() {
        assert_eq!(lower(99, 1).collect::<Vec<_>>(), [1, 50, 98]);
        assert_eq!(lower(3, 1).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(lower(2, 1).collect::<Vec<_>>(), [1]);
        assert_eq!(lower(1, 1).count(), 0);
        assert_eq!(lower(0, 0).count(), 0);
        assert_eq!(lower(5, 0).collect::<Vec<_>>(), [0, 2, 4]);
    }
}
