//! toy-train from Rust: a railway built in code, solved, and its answer checked by the
//! independent verifier.
//!
//! `cargo run --release -p toy-train --example solve_railway`

#![allow(clippy::print_stdout, reason = "an example shows its results")]

use toy_train::{Railway, Solver};

fn main() {
    // The official sample: station 0 is Borzou's and charges, station 1 is Arezou's; tracks
    // 0 -> 0, 0 -> 1, 1 -> 0 and 1 -> 1.
    let railway = Railway {
        arezou: vec![false, true],
        charging: vec![true, false],
        tracks: vec![(0, 0), (0, 1), (1, 0), (1, 1)],
    };
    let game = railway.to_game().expect("every station has a track");
    let solution = toy_train::solve(&game, Solver::Fast);
    println!("Arezou wins from: {:?}", solution.arezou_wins);
    println!("switches: {:?}", solution.strategy);
    // The verifier trusts nothing the solver did: it checks both regions and strategies.
    let verified = toy_train::verify(&game, &solution).expect("the solver is right");
    println!("{verified}");
    assert_eq!(solution.arezou_wins, [true, true]);

    // The same through the judge's input format.
    let output = toy_train::run(&railway.to_text(), &toy_train::Options::default())
        .expect("a valid railway");
    assert_eq!(output.stdout, b"1 1\n");
}
