//! toy-train (IOI 2017, Toy Train): for every start station, whether Arezou can force the
//! train onto a cycle through a charging station. The rules and formats are in
//! `../shared/problems/toy-train.md`.
//!
//! The game is a Büchi game: Arezou wins where she can force infinitely many visits to
//! charging stations, and both players have positional winning strategies. The crate holds:
//!
//! - [`game`]: the graph in compressed sparse row form (forward and reverse, `u32`);
//! - [`parse`]: the sample grader's input read straight into a [`Game`];
//! - [`classic`]: the reference solver, repeated attractors, `O(n · m)`;
//! - [`decremental`]: the default solver, the same rounds with the attractor maintained
//!   decrementally under a work budget (`O(n · m)` worst case, at most `1 + 1/16` times the
//!   classic solver's work plus `O(n + m)`; linear on staircases, cascades, random graphs and
//!   the adversarial families found so far);
//! - [`brute`]: a brute force straight from the rules for tiny railways;
//! - [`verify`]: an independent `O(n + m)` check of an answer with both strategies;
//! - [`output`]: the answer line and the strategy lines;
//! - [`generator`]: reproducible generators for tests and benchmarks, with [`gadget`] for the
//!   families built by repeating a small gadget;
//! - [`work`]: deterministic work counters, to compare solvers without timing them.
//!
//! [`run`] is the whole program: input bytes in, output bytes out.

pub mod brute;
pub mod classic;
pub mod decremental;
pub mod gadget;
pub mod game;
pub mod generator;
pub mod output;
pub mod parse;
pub mod verify;
pub mod work;

pub use game::{Game, GameError};
pub use parse::parse;
pub use verify::{Verified, VerifyError, verify};

use engine::input::InputError;

/// Who wins where, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `arezou_wins[s]`: Arezou wins when the train starts at `s`.
    pub arezou_wins: Vec<bool>,
    /// `strategy[s] = t`: the switch at `s` is set along track `s → t`. At the winner's
    /// stations this is a positional winning strategy (Arezou's on her region, Borzou's on
    /// his); at the loser's stations it is the station's first track, since every track
    /// there stays in the region anyway.
    pub strategy: Vec<u32>,
}

/// Which solver to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Solver {
    /// The decremental solver ([`decremental::solve`]), the default.
    #[default]
    #[value(alias = "decremental")]
    Fast,
    /// Repeated attractors ([`classic::solve`]), the reference the tests trust.
    #[value(alias = "classic")]
    Reference,
}

/// Solves `game` with `solver`.
#[must_use]
pub fn solve(game: &Game, solver: Solver) -> Solution {
    match solver {
        Solver::Fast => decremental::solve(game),
        Solver::Reference => classic::solve(game),
    }
}

/// What [`run`] prints besides the answer line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// The solver.
    pub solver: Solver,
    /// Print the strategy lines after the answer line.
    pub strategy: bool,
    /// Check the answer and strategies with [`verify()`] and print a last line saying so.
    pub verify: bool,
}

/// Why [`run`] produced no output.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The input is malformed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The solver's answer did not pass the check: a bug, never the input's fault.
    #[error("verification failed: {0}")]
    Verify(#[from] VerifyError),
}

/// The whole program: parses `input`, solves, and renders the answer line, then (if asked)
/// one strategy line per station and the verification line. `O(size of input)` plus the
/// solver's time.
///
/// # Errors
/// A malformed input (located by line and column) or, with `verify`, a failed check.
pub fn run(input: &[u8], options: RunOptions) -> Result<Vec<u8>, RunError> {
    let game = parse(input)?;
    let solution = solve(&game, options.solver);
    let mut out = Vec::new();
    output::push_answer_line(&mut out, &solution.arezou_wins);
    if options.strategy {
        output::push_strategy_lines(&mut out, &solution.strategy);
    }
    if options.verify {
        let verified = verify(&game, &solution)?;
        out.extend_from_slice(format!("{verified}\n").as_bytes());
    }
    Ok(out)
}
