//! An adversarial search for the slowest single case of the fast solver: random restarts and
//! hill climbing over the twelve numbers, each case timed in-process as the quickest of a few
//! solves (the quickest is what noise on a shared machine leaves alone). Prints the slowest
//! cases found next to the extremes everyone tries first.
//!
//! `cargo run --release -p hero-battle --example slowest_case [ROUNDS] [SEED]`

#![allow(clippy::print_stdout, reason = "an example shows its results")]

use std::time::{Duration, Instant};

use engine::rng::SplitMix64;
use hero_battle::Case;
use hero_battle::threshold::ThresholdSolver;

/// The quickest of `tries` solves of `case`.
fn time(solver: &mut ThresholdSolver, case: &Case, tries: usize) -> Duration {
    (0..tries)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(solver.solve(std::hint::black_box(case)));
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = SplitMix64::new(seed);
    let mut solver = ThresholdSolver::new();
    let pick = |rng: &mut SplitMix64, lo: u64, hi: u64| rng.range(lo, hi) as u8;
    let mut found: Vec<(Duration, Case)> = Vec::new();
    for _ in 0..rounds {
        // A start among the hard cases (hit points 90..=99, damage 1..=3), of small damage, or
        // anywhere.
        let (hp_lo, dmg_hi) = [(90, 3), (1, 4), (1, 99)][rng.range(0, 2) as usize];
        let mut v = [0u8; 12];
        for (i, x) in v.iter_mut().enumerate() {
            *x = if i < 4 { pick(&mut rng, hp_lo, 99) } else { pick(&mut rng, 1, dmg_hi) };
        }
        let mut best = Case::from_array(v);
        let mut best_time = time(&mut solver, &best, 5);
        // Climb: change one number at a time, keep what is slower.
        for _ in 0..150 {
            let mut w = best.to_array();
            let i = rng.range(0, 11) as usize;
            let step = pick(&mut rng, 1, 10);
            w[i] = if rng.range(0, 1) == 0 {
                w[i].saturating_add(step)
            } else {
                w[i].saturating_sub(step)
            };
            w[i] = w[i].clamp(1, 99);
            let case = Case::from_array(w);
            let t = time(&mut solver, &case, 5);
            if t > best_time {
                (best, best_time) = (case, t);
            }
        }
        // Time the climb's end again, more carefully.
        found.push((time(&mut solver, &best, 25), best));
    }
    found.sort_by_key(|found| std::cmp::Reverse(found.0));
    let show = |label: &str, t: Duration, case: &Case| {
        let numbers: Vec<String> = case.to_array().iter().map(u8::to_string).collect();
        println!("{:>9.1} us  {label:<22} {}", t.as_secs_f64() * 1e6, numbers.join(" "));
    };
    println!("slowest of {rounds} climbs (quickest of 25 solves each):");
    for (t, case) in found.iter().take(5) {
        show("found", *t, case);
    }
    println!("extremes:");
    for (label, v) in [
        ("all 99, damage 1", [99, 99, 99, 99, 1, 1, 1, 1, 1, 1, 1, 1]),
        ("all 99", [99; 12]),
        ("hard: 99 vs 1 or 2", [99, 99, 99, 99, 1, 2, 2, 1, 1, 2, 2, 1]),
        ("all 1", [1; 12]),
    ] {
        let case = Case::from_array(v);
        show(label, time(&mut solver, &case, 25), &case);
    }
}
