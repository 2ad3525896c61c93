//! card-duel from Rust: positions built in code and valued together (one sweep over what
//! they reach), and a whole judge input through `run`.
//!
//! `cargo run --release -p card-duel --example solve_positions`

#![allow(clippy::print_stdout, reason = "an example shows its results")]

use card_duel::{Board, Options, Position};

fn main() -> Result<(), engine::RunError> {
    // The official first sample: both at 1 HP, no minions, E holds one card. E must play it,
    // and its first ping hits one of the two players: 1/2.
    let sample = Position {
        e_hp: 1,
        teacher_hp: 1,
        e_board: Board { ones: 0, twos: 0 },
        teacher_board: Board { ones: 0, twos: 0 },
        e_hand: 1,
        teacher_hand: 0,
    };
    // E's 1-HP minion attacks the teacher's face for 3: an immediate win.
    let won = Position { teacher_hp: 3, e_board: Board { ones: 1, twos: 0 }, ..sample };
    let values = card_duel::solve(5, &[sample, won]);
    println!("E wins the sample with probability {:.9}", values[0]);
    assert_eq!(values, [0.5, 1.0]);

    // A whole file in the judge's format: `T O`, then each case (the teacher's board and hand
    // before E's).
    let output = card_duel::run(b"1 5\n1 1\n0\n0\n0 1\n", &Options::default())?;
    assert_eq!(output.stdout, b"0.500000000\n");
    print!("{}", String::from_utf8_lossy(&output.stdout));
    Ok(())
}
