//! The vector loops of a fill, one row at a time: Bob's row from the rows his turns lead to,
//! and Alice's from his shifted. Two implementations of the same byte operations: portable
//! loops the compiler vectorizes for any x86-64 (or other) CPU, and AVX2 intrinsics, one
//! instruction a vector, used where the CPU has AVX2 ([`Avx2::detect`]). The tests compare
//! the two on random rows.

#[cfg(target_arch = "x86_64")]
use engine::simd::Avx2;

use super::{BIAS, LANES, Lanes};

/// The row kernels of a fill.
pub(super) trait Kernels: Copy {
    /// Bob to move, the cells `b1 >= 1` of one row, biased (see [`biased`]), from the same
    /// cells of the rows of Alice to move his two-hero turns (`both`) and B1's lone turns
    /// (`lone_b1`) lead to. See [`bob_cells`].
    fn bob_row<const N: usize>(
        self,
        both: [&[Lanes; N]; 4],
        lone_b1: [&[Lanes; N]; 2],
    ) -> [Lanes; N];

    /// Alice to move, the cells `b1 >= 1` of one row: the maximum over her four turns of
    /// Bob's biased row shifted by the turn's damage to B1 (`shifted[t]`, `N` vectors each)
    /// plus its damage to B2 (`to_b2[t - 1]` for the last three; the first deals none),
    /// unbiased.
    fn alice_row<const N: usize>(self, shifted: [&[u8]; 4], to_b2: &[Lanes; 3]) -> [Lanes; N];
}

/// The kernels in plain loops over lanes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

impl Kernels for Portable {
    #[inline(always)]
    fn bob_row<const N: usize>(
        self,
        both: [&[Lanes; N]; 4],
        lone_b1: [&[Lanes; N]; 2],
    ) -> [Lanes; N] {
        std::array::from_fn(|k| {
            biased(bob_cells(both.map(|row| row[k]), lone_b1.map(|row| row[k])))
        })
    }

    #[inline(always)]
    fn alice_row<const N: usize>(self, shifted: [&[u8]; 4], to_b2: &[Lanes; 3]) -> [Lanes; N] {
        std::array::from_fn(|k| {
            let lanes = |t: usize| -> Lanes {
                shifted[t][k * LANES..][..LANES].try_into().expect("one vector")
            };
            let best = max(lanes(0), add(lanes(1), to_b2[0]));
            unbiased(max(best, max(add(lanes(2), to_b2[1]), add(lanes(3), to_b2[2]))))
        })
    }
}

/// Bob to move, cells `b1 >= 1`, from the same cells of the rows of Alice to move his
/// two-hero turns (`both`) and B1's lone turns (`lone_b1`) lead to. With both his heroes
/// alive (b1, b2 >= 1) every turn must leave her a win; at b2 = 0 only B1 attacks.
/// Monotonicity makes max(cell b2 = 0 wins, min over two-hero turns) exactly the prefix
/// length.
#[inline(always)]
pub(super) fn bob_cells(both: [Lanes; 4], lone_b1: [Lanes; 2]) -> Lanes {
    let all_attacks = min(min(both[0], both[1]), min(both[2], both[3]));
    max(all_attacks, min(min(lone_b1[0], lone_b1[1]), [1; LANES]))
}

// The lane helpers are loops over one vector, which the compiler turns into vector
// instructions once they are inlined.

#[inline(always)]
fn min(a: Lanes, b: Lanes) -> Lanes {
    std::array::from_fn(|i| a[i].min(b[i]))
}

#[inline(always)]
fn max(a: Lanes, b: Lanes) -> Lanes {
    std::array::from_fn(|i| a[i].max(b[i]))
}

/// `v` with positive cells biased (cells at most `CAP`).
#[inline(always)]
fn biased(v: Lanes) -> Lanes {
    v.map(|x| if x > 0 { x | BIAS } else { 0 })
}

/// A maximum of biased cells, unbiased: cells below the bias (no win) are 0.
#[inline(always)]
fn unbiased(v: Lanes) -> Lanes {
    v.map(|x| x.saturating_sub(BIAS))
}

/// Saturating addition, lane by lane.
#[inline(always)]
fn add(v: Lanes, d: Lanes) -> Lanes {
    std::array::from_fn(|i| v[i].saturating_add(d[i]))
}

/// The kernels in AVX2 intrinsics, for a CPU that has AVX2: an [`Avx2`] is made only there.
#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    #[inline(always)]
    fn bob_row<const N: usize>(
        self,
        both: [&[Lanes; N]; 4],
        lone_b1: [&[Lanes; N]; 2],
    ) -> [Lanes; N] {
        // SAFETY: an `Avx2` is made only where the CPU has AVX2.
        unsafe { avx2::bob_row(both, lone_b1) }
    }

    #[allow(unsafe_code, reason = "calling AVX2 code once the CPU is known to have AVX2")]
    #[inline(always)]
    fn alice_row<const N: usize>(self, shifted: [&[u8]; 4], to_b2: &[Lanes; 3]) -> [Lanes; N] {
        // SAFETY: an `Avx2` is made only where the CPU has AVX2.
        unsafe { avx2::alice_row(shifted, to_b2) }
    }
}

/// The AVX2 bodies: each lane the same operations as [`Portable`]'s. They are not compiled
/// for AVX2 themselves (a function that is cannot be inlined), so they are inlined into the
/// AVX2 copy of the fill (`Rows::fill_avx2`), where their intrinsics then are too.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code, reason = "AVX2 intrinsics, called only where the CPU has AVX2")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_adds_epu8, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256,
        _mm256_max_epu8, _mm256_min_epu8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_storeu_si256, _mm256_subs_epu8,
    };

    use super::{BIAS, LANES, Lanes};

    /// See [`super::Kernels::bob_row`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    pub(super) unsafe fn bob_row<const N: usize>(
        both: [&[Lanes; N]; 4],
        lone_b1: [&[Lanes; N]; 2],
    ) -> [Lanes; N] {
        let load = |lanes: &Lanes| -> __m256i {
            // SAFETY: `lanes` is 32 readable bytes, the load takes any alignment, and the CPU
            // has AVX2 (the caller's promise).
            unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
        };
        let mut out = [[0; LANES]; N];
        // SAFETY: the CPU has AVX2 (the caller's promise); the stores write 32 bytes into a
        // `Lanes` of `out`.
        unsafe {
            let (one, bias, zero) =
                (_mm256_set1_epi8(1), _mm256_set1_epi8(BIAS as i8), _mm256_setzero_si256());
            for (k, out) in out.iter_mut().enumerate() {
                let [c0, c1, c2, c3] = both.map(|row| load(&row[k]));
                let all = _mm256_min_epu8(_mm256_min_epu8(c0, c1), _mm256_min_epu8(c2, c3));
                let lone = _mm256_min_epu8(load(&lone_b1[0][k]), load(&lone_b1[1][k]));
                let lone_wins = _mm256_andnot_si256(_mm256_cmpeq_epi8(lone, zero), one);
                let cell = _mm256_max_epu8(all, lone_wins);
                let biased =
                    _mm256_andnot_si256(_mm256_cmpeq_epi8(cell, zero), _mm256_or_si256(cell, bias));
                _mm256_storeu_si256(out.as_mut_ptr().cast(), biased);
            }
        }
        out
    }

    /// See [`super::Kernels::alice_row`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    pub(super) unsafe fn alice_row<const N: usize>(
        shifted: [&[u8]; 4],
        to_b2: &[Lanes; 3],
    ) -> [Lanes; N] {
        let load = |lanes: &Lanes| -> __m256i {
            // SAFETY: as in `bob_row`.
            unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
        };
        let rows = shifted.map(|row| -> &[Lanes; N] {
            row[..N * LANES].as_chunks::<LANES>().0.try_into().expect("N vectors")
        });
        let mut out = [[0; LANES]; N];
        // SAFETY: as in `bob_row`.
        unsafe {
            let bias = _mm256_set1_epi8(BIAS as i8);
            let [d1, d2, d3] = to_b2.each_ref().map(load);
            for (k, out) in out.iter_mut().enumerate() {
                let [s0, s1, s2, s3] = rows.map(|row| load(&row[k]));
                let best = _mm256_max_epu8(s0, _mm256_adds_epu8(s1, d1));
                let other = _mm256_max_epu8(_mm256_adds_epu8(s2, d2), _mm256_adds_epu8(s3, d3));
                let cells = _mm256_subs_epu8(_mm256_max_epu8(best, other), bias);
                _mm256_storeu_si256(out.as_mut_ptr().cast(), cells);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX2 kernels give the portable ones' bytes on random rows (boundaries up to the
    /// cap, biased rows as Bob's are).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_kernels_agree_with_the_portable_ones() {
        let Some(avx2) = judge::testing::avx2("avx2_kernels_agree_with_the_portable_ones") else {
            return;
        };
        let mut rng = engine::rng::SplitMix64::new(7);
        let mut lanes = |top: u64| -> Lanes { std::array::from_fn(|_| rng.range(0, top) as u8) };
        for _ in 0..2_000 {
            let rows: [[Lanes; 3]; 6] = std::array::from_fn(|_| [lanes(4), lanes(127), lanes(2)]);
            let both = [&rows[0], &rows[1], &rows[2], &rows[3]];
            let lone = [&rows[4], &rows[5]];
            assert_eq!(avx2.bob_row(both, lone), Portable.bob_row(both, lone));
            let shifted: [Vec<u8>; 4] =
                std::array::from_fn(|_| (0..3).flat_map(|_| biased(lanes(128))).collect());
            let shifted = shifted.each_ref().map(Vec::as_slice);
            let to_b2 = [lanes(128), lanes(4), lanes(128)];
            let (a, p): ([Lanes; 3], [Lanes; 3]) =
                (avx2.alice_row(shifted, &to_b2), Portable.alice_row(shifted, &to_b2));
            assert_eq!(a, p);
        }
    }
}
