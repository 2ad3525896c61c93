//! Proof that the CPU has a vector extension, for the kernels that enter code compiled for it
//! (hero-battle's threshold fill, card-duel's sweep).
//!
//! Calling a function compiled with `#[target_feature(enable = "avx2")]` on a CPU without
//! AVX2 is undefined behaviour, so such a call is `unsafe`. A kernel that holds an [`Avx2`]
//! knows the CPU has AVX2, and its one `unsafe` call says so: the token's field is private, so
//! nothing but [`Avx2::detect`] makes one, and it makes one only after asking the CPU. The
//! token is here, in safe code, so that the crates whose kernels trust it share one proof.

/// AVX2 is there: made only by [`Avx2::detect`], where the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, where the CPU has AVX2. `O(1)`: the standard library asks the CPU once and
    /// keeps the answer.
    #[must_use]
    pub fn detect() -> Option<Avx2> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2 { _detected: () })
    }
}
