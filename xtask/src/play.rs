//! `cargo xtask bench play`: how long one position's move list takes, the jury's reply and
//! `play`'s list, at the original limits: median and worst over positions along random games
//! from generated starts, each game's own oracle queried one position at a time.

use std::sync::Arc;
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

/// Times `moves` at positions along random games from `starts` until `count` are timed.
fn walk<G: Game>(
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
pub fn bench(args: &PlayBenchArgs) -> Result<(), String> {
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
    let mut rng = SplitMix64::new(args.seed);
    println!("| positions | timed | median | worst | within 50 ms |");
    println!("|---|---|---|---|---|");
    // hero-battle: random cases (every number in 1..=99) and hard ones (hit points 90..=99,
    // damage 1..=3), along random games.
    for (name, hp, damage) in [
        ("hero-battle, random cases", (1, 99), (1, 99)),
        ("hero-battle, hard cases", (90, 99), (1, 3)),
    ] {
        let mut text = String::from("40\n");
        for _ in 0..40 {
            let numbers: Vec<String> = (0..12)
                .map(|i| {
                    let (lo, hi) = if i < 4 { hp } else { damage };
                    rng.range(lo, hi).to_string()
                })
                .collect();
            text.push_str(&(numbers.join(" ") + "\n"));
        }
        let mut game = hero_battle::position::HeroGame::new();
        let starts = game.starts(&game.read(text.as_bytes())?);
        println!("{}", line(name, walk(&mut game, &starts, args.positions, &mut rng)));
    }
    // hero-battle's longest games, the slowest start the adversarial searches know: every
    // hit point 99, every damage 1 (remoteness 295). Its own generator, so that the rows
    // below time the same positions with it or without it.
    let mut game = hero_battle::position::HeroGame::new();
    let starts = game.starts(&game.read(b"1\n99 99 99 99 1 1 1 1 1 1 1 1\n")?);
    let mut longest = SplitMix64::new(args.seed ^ 0x99);
    let name = "hero-battle, the longest games (every number 99, damage 1)";
    println!("{}", line(name, walk(&mut game, &starts, args.positions, &mut longest)));
    // toy-train: random railways of 5,000 stations and 20,000 tracks.
    let params = toy_train::generator::GenParams {
        m: Some(20_000),
        ..toy_train::generator::GenParams::new(
            toy_train::generator::Family::Random,
            5_000,
            args.seed,
        )
    };
    let railway = toy_train::generator::generate(&params).map_err(|e| e.to_string())?;
    let mut game = toy_train::position::TrainGame::new();
    let starts = game.starts(&railway);
    let name = "toy-train, random railway (n = 5,000, m = 20,000)";
    println!("{}", line(name, walk(&mut game, &starts, args.positions, &mut rng)));
    // card-duel: O = 5, uniform and heavy positions, each along random games, the memo
    // cleared before every position.
    let started = Instant::now();
    let tablebase = Arc::new(card_duel::Tablebase::build(5));
    let built = started.elapsed();
    for heavy in [false, true] {
        let mut times = Vec::new();
        while times.len() < args.positions {
            let board = |rng: &mut SplitMix64| {
                if heavy {
                    card_duel::Board::new(0, 4)
                } else {
                    card_duel::Board::all().nth(rng.below(15))
                }
            };
            let position = card_duel::Position {
                e_hp: if heavy { 20 } else { rng.range(1, 20) as u8 },
                teacher_hp: if heavy { 20 } else { rng.range(1, 20) as u8 },
                e_board: board(&mut rng).expect("a board"),
                teacher_board: board(&mut rng).expect("a board"),
                e_hand: if heavy { 3 } else { rng.range(0, 3) as u8 },
                teacher_hand: if heavy { 3 } else { rng.range(0, 3) as u8 },
            };
            let mut state = card_duel::position::State::start(5, &position);
            while times.len() < args.positions {
                let mut oracle = card_duel::position::Oracle::new(Arc::clone(&tablebase));
                let started = Instant::now();
                let actions = oracle.actions(&state);
                times.push(started.elapsed());
                let outcomes = state.outcomes();
                if !outcomes.is_empty() {
                    state = outcomes[rng.below(outcomes.len())].2;
                } else if actions.is_empty() {
                    break;
                } else {
                    state = state.after(actions[rng.below(actions.len())].0);
                }
            }
        }
        let name = if heavy {
            "card-duel, O = 5, heavy starts"
        } else {
            "card-duel, O = 5, uniform starts"
        };
        println!("{}", line(name, times));
    }
    println!("\ncard-duel's tablebase of O = 5, built once: {:.0} ms", built.as_secs_f64() * 1e3);
    Ok(())
}
