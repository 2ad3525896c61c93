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
/// then `value - d` for `d` = half the distance, a quarter, ... down to 1. Accepting the
/// first that still fails approaches the smallest failing value like a binary search
/// (`O(log² distance)` accepted steps at worst) without the moves keeping state. The last,
/// `value - 1`, is the one-step move. `O(log distance)` candidates.
pub fn lower(value: u64, low: u64) -> impl Iterator<Item = u64> {
    let distance = value.saturating_sub(low);
    let first = (distance > 0).then_some(low);
    let halving = std::iter::successors((distance > 1).then_some(distance / 2), |&d| {
        (d > 1).then_some(d / 2)
    })
    .map(move |d| value - d)
    .filter(move |&v| v != low);
    first.into_iter().chain(halving)
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
        assert_eq!(lower(99, 1).collect::<Vec<_>>(), [1, 50, 75, 87, 93, 96, 98]);
        assert_eq!(lower(3, 1).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(lower(2, 1).collect::<Vec<_>>(), [1]);
        assert_eq!(lower(1, 1).count(), 0);
        assert_eq!(lower(0, 0).count(), 0);
        assert_eq!(lower(5, 0).collect::<Vec<_>>(), [0, 3, 4]);
        for (value, low) in [(1000, 1), (64, 0), (7, 3)] {
            let steps: Vec<u64> = lower(value, low).collect();
            assert_eq!(steps.last(), Some(&(value - 1)), "the one-step move is last");
            assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
        }
    }
}
