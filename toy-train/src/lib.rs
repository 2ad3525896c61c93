//! toy-train (IOI 2017, Toy Train): for every start station, whether Arezou can force the
//! train onto a cycle through a charging station. The rules and formats are in
//! `problem/statement.md`.
//!
//! The game is a Büchi game: Arezou wins where she can force infinitely many visits to
//! charging stations, and both players have positional winning strategies.
//!
//! The API: [`run`], the whole program (input bytes in, output bytes out), with [`Options`]
//! and [`Solver`]; [`parse()`], the sample grader's input read straight into a [`Game`] (the
//! graph in compressed sparse row form, forward and reverse, `u32`); [`solve`], who wins
//! where and how ([`Solution`]); [`verify()`], an independent `O(n + m)` check of an answer
//! with both strategies; [`Railway`], a railway as its input file lists it, which the
//! generators build and the judge reads, renders and edits; [`generator`], reproducible
//! generators for tests and benchmarks; and [`judge`](mod@judge), the problem as the judge
//! sees it (limits, subtasks, checker, generation, shrink moves), behind the binary's
//! judging subcommands.
//!
//! Inside, not part of the API (the workspace's tests and xtask reach the first five under
//! the hidden `internals` feature):
//!
//! - `classic`: the reference solver, repeated attractors, `O(n · m)`;
//! - `decremental`: the default solver, the same rounds with the attractor maintained
//!   decrementally under a work budget (`O(n · m)` worst case, at most `1 + 1/16` times the
//!   classic solver's work plus `O(n + m)`; linear on staircases, cascades, random graphs and
//!   the adversarial families found so far);
//! - `brute`: a brute force straight from the rules for tiny railways;
//! - `gadget`: the families built by repeating a small gadget;
//! - `work`: deterministic work counters, to compare solvers without timing them;
//! - `game`, `parse`, `railway`, `verify`: the homes of the API's types and functions;
//!   `output`: the answer line and the strategy lines; `dot`: a Graphviz picture.
//!
//! ```
//! let input = b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n";
//! let output = toy_train::run(input, &toy_train::Options::default())?;
//! assert_eq!(output.stdout, b"1 1\n");
//! # Ok::<(), engine::RunError>(())
//! ```

mod dot;
mod game;
pub mod generator;
#[cfg(feature = "judge")]
pub mod judge;
mod output;
mod parse;
pub mod position;
mod railway;
mod verify;
engine::internal_modules!(
    classic,
    decremental,
    gadget,
    work,
    #[cfg(any(test, feature = "internals"))]
    brute,
);

pub use game::{Game, GameError, MAX_STATIONS, MAX_TRACKS, Player, Solution};
pub use parse::parse;
pub use railway::Railway;
pub use verify::{Verified, VerifyError, verify};

use std::fmt::Write as _;
use std::time::Instant;

use engine::{Output, RunError};

/// Which solver to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Solver {
    /// The decremental solver (module `decremental`), the default.
    #[default]
    #[cfg_attr(feature = "cli", value(alias = "decremental"))]
    Fast,
    /// Repeated attractors (module `classic`), the reference the tests trust.
    #[cfg_attr(feature = "cli", value(alias = "classic"))]
    Reference,
}

/// Solves `game` with `solver`: the fast solver in `O(n · m)` worst case, at most `1 + 1/16`
/// times the reference's work plus `O(n + m)` (linear on every family found so far); the
/// reference, repeated attractors, in `O(n · m)`. Space `O(n)` besides the game.
#[must_use]
pub fn solve(game: &Game, solver: Solver) -> Solution {
    match solver {
        Solver::Fast => decremental::solve(game),
        Solver::Reference => classic::solve(game),
    }
}

/// What [`run`] computes and prints besides the answer line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The solver.
    pub solver: Solver,
    /// Print the strategy lines after the answer line.
    pub strategy: bool,
    /// Check the answer and strategies with [`verify()`] and print a last line saying so.
    pub verify: bool,
    /// Sizes and times on stderr.
    pub stats: bool,
    /// Print a Graphviz DOT picture of the solved railway instead of the answer.
    pub dot: bool,
}

/// The whole program: parses `input`, solves, and renders the answer line, then (if asked)
/// one strategy line per station and the verification line. `O(size of input)` plus the
/// solver's time.
///
/// # Errors
/// A malformed input (located by line and column) or, with `verify`, a failed check
/// ([`RunError::SelfCheck`]: a bug, never the input's fault).
pub fn run(input: &[u8], options: &Options) -> Result<Output, RunError> {
    let started = Instant::now();
    let game = parse(input)?;
    let parsed = started.elapsed();
    let solution = solve(&game, options.solver);
    let solved = started.elapsed();
    let mut out = Vec::new();
    if options.dot {
        out.extend_from_slice(dot::render(&game, &solution).as_bytes());
    } else {
        output::push_answer_line(&mut out, &solution.arezou_wins);
    }
    if options.strategy {
        output::push_strategy_lines(&mut out, &solution.strategy);
    }
    if options.verify {
        let verified = verify(&game, &solution).map_err(|e| RunError::SelfCheck(e.to_string()))?;
        out.extend_from_slice(format!("{verified}\n").as_bytes());
    }
    let mut stderr = String::new();
    if options.stats {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        let _ = writeln!(
            stderr,
            "{} stations, {} tracks: parsed in {:.3} ms, solved in {:.3} ms",
            game.n(),
            game.m(),
            ms(parsed),
            ms(solved - parsed)
        );
    }
    Ok(Output { stdout: out, stderr })
}
