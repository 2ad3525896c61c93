//! `cargo xtask bench play`: how long one position's move list takes, the jury's reply and
//! `play`'s list, at the original limits: median and worst over positions along random games
//! from generated starts, each game's own oracle queried one position at a time. Each
//! problem's module gives its rows ([`PlayRows`]); this one times and prints them.

use std::time::{Duration, Instant};

use engine::rng::SplitMix64;
use games::Game;

/// `cargo xtask bench play` arguments.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayBenchArgs {
    /// Positions timed per game.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// One problem's rows of the table: each a name and the times of its positions, and notes
/// printed under the table.
#[derive(Debug, Default)]
pub(crate) struct PlayRows {
    pub(crate) rows: Vec<(String, Vec<Duration>)>,
    pub(crate) notes: Vec<String>,
}

/// A problem's rows for `positions` positions a row from `seed`.
pub(crate) type RowMaker = fn(positions: usize, seed: u64) -> Result<PlayRows, String>;

/// Times `valued_moves` at positions along random games from `starts` until `count` are
/// timed.
pub(crate) fn walk<G: Game>(
    game: &mut G,
    starts: &[G::Position],
    count: usize,
    rng: &mut SplitMix64,
) -> Vec<Duration> {
    let mut times = Vec::new();
    while times.len() < count {
        let mut position = starts[rng.below(starts.len())].clone();
        loop {
            let started = Instant::now();
            let moves = game.valued_moves(&position);
            times.push(started.elapsed());
            let chances = game.chances(&position);
            if times.len() >= count || (moves.is_empty() && chances.is_empty()) {
                break;
            }
            position = if chances.is_empty() {
                game.after(&position, &moves[rng.below(moves.len())].0)
            } else {
                game.after(&position, &chances[rng.below(chances.len())].0)
            };
        }
    }
    times
}

fn line(name: &str, mut times: Vec<Duration>) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let within = times.iter().filter(|t| ms(**t) <= 50.0).count();
    format!(
        "| {name} | {} | {:.2} ms | {:.2} ms | {within} |",
        times.len(),
        ms(times[times.len() / 2]),
        ms(*times.last().expect("positions were timed"))
    )
}

/// Runs the bench and prints its table, from an optimized build: the games run inside this
/// process, and `cargo xtask` builds it without optimizations.
#[allow(clippy::print_stdout, reason = "the bench's report")]
pub fn bench(args: &PlayBenchArgs, problems: &[RowMaker]) -> Result<(), String> {
    if cfg!(debug_assertions) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = std::process::Command::new(cargo)
            .args(["run", "--quiet", "--locked", "--release", "--package", "xtask", "--"])
            .args(["bench", "play", "--positions", &args.positions.to_string()])
            .args(["--seed", &args.seed.to_string()])
            .current_dir(crate::measure::workspace_root())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        return if status.success() { Ok(()) } else { Err("the optimized bench failed".into()) };
    }
    println!("| positions | timed | median | worst | within 50 ms |");
    println!("|---|---|---|---|---|");
    let mut notes = Vec::new();
    for rows in problems {
        let made = rows(args.positions, args.seed)?;
        for (name, times) in made.rows {
            println!("{}", line(&name, times));
        }
        notes.extend(made.notes);
    }
    for note in notes {
        println!("\n{note}");
    }
    Ok(())
}
