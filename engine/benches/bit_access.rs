//! Measures why the bit tables use raw words: bitvec's per-bit `get`/`set` against a shift
//! and a mask on the same `u64` words. Run `cargo bench -p engine --bench bit_access`.

#![allow(clippy::print_stdout, reason = "a benchmark reports its measurement")]

use std::hint::black_box;
use std::time::Instant;

use bitvec::prelude::{BitVec, Lsb0};
use engine::rng::SplitMix64;

fn main() {
    const BITS: usize = 1 << 20;
    const ROUNDS: usize = 20;
    let mut rng = SplitMix64::new(1);
    let indices: Vec<usize> = (0..BITS).map(|_| rng.below(BITS)).collect();

    let mut bits: BitVec<u64, Lsb0> = BitVec::repeat(false, BITS);
    let start = Instant::now();
    let mut hits = 0usize;
    for _ in 0..ROUNDS {
        for &i in &indices {
            let was = bits[i];
            bits.set(i, !was);
            hits += usize::from(was);
        }
    }
    let per_bit = start.elapsed();
    black_box(hits);

    let mut words = vec![0u64; BITS / 64];
    let start = Instant::now();
    let mut hits = 0usize;
    for _ in 0..ROUNDS {
        for &i in &indices {
            let (w, mask) = (i / 64, 1u64 << (i % 64));
            let was = words[w] & mask != 0;
            words[w] ^= mask;
            hits += usize::from(was);
        }
    }
    let raw = start.elapsed();
    black_box(hits);

    let n = (BITS * ROUNDS) as f64;
    println!("bitvec get+set:   {:.2} ns per bit", per_bit.as_secs_f64() * 1e9 / n);
    println!("raw word get+set: {:.2} ns per bit", raw.as_secs_f64() * 1e9 / n);
    println!("ratio: {:.1}x", per_bit.as_secs_f64() / raw.as_secs_f64());
}
