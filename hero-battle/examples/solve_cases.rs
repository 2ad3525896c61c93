//! hero-battle from Rust: one case with `solve`, a whole judge input with `run`.
//!
//! `cargo run --release -p hero-battle --example solve_cases`

#![allow(clippy::print_stdout, reason = "an example shows its results")]

use hero_battle::{Case, Options, WhoWins};

fn main() -> Result<(), engine::RunError> {
    // The sample's second case: a1 a2 b1 b2, then a11 a12 a21 a22, then b11 .. b22.
    let case = Case::from_array([5, 5, 30, 30, 7, 2, 2, 7, 1, 1, 1, 1]);
    let outcome = hero_battle::solve(&case);
    println!("Alice moving first wins: {}", outcome.alice_first);
    println!("Alice moving second wins: {}", outcome.bob_first);
    assert_eq!(outcome.who_wins(), WhoWins::BobWins);

    // A whole file in the judge's format, solved on every core, in input order.
    let input = b"2\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n";
    let output = hero_battle::run(input, &Options::default())?;
    assert_eq!(output.stdout, b"It depends\nBob wins\n");
    print!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(())
}
