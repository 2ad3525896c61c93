//! `cargo xtask bench play`: how long one position's move list takes, the jury's reply and
//! `play`'s list, at the original limits: median and worst over positions along random games
//! from generated starts, each game's own oracle queried one position at a time. Each
//! problem's module gives its rows ([`PlayRows`]); this one times and prints them, then asks
//! the same positions of the release binary's `serve` through HTTP (`POST /api/query`, one
//! connection a query, as a page asks), the second table.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
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

/// One problem's rows of the table, and notes printed under the table.
#[derive(Debug, Default)]
pub(crate) struct PlayRows {
    pub(crate) rows: Vec<PlayRow>,
    pub(crate) notes: Vec<String>,
}

/// One row: the positions' times in this process, and the same positions as queries.
#[derive(Debug)]
pub(crate) struct PlayRow {
    pub(crate) name: String,
    pub(crate) times: Vec<Duration>,
    /// The package whose binary serves the queries.
    pub(crate) package: &'static str,
    /// Each position's query (JSON).
    pub(crate) queries: Vec<String>,
}

/// The query of game `game` (1-based) of `input` after `moves`.
pub(crate) fn query(input: &str, game: usize, moves: &[String]) -> String {
    serde_json::json!({ "input": input, "game": game, "moves": moves }).to_string()
}

/// A problem's rows for `positions` positions a row from `seed`.
pub(crate) type RowMaker = fn(positions: usize, seed: u64) -> Result<PlayRows, String>;

/// Times `valued_moves` at positions along random games from `starts` (the games of
/// `input`) until `count` are timed; the row `name` of `package`, with each position's query.
pub(crate) fn walk<G: Game>(
    name: &str,
    package: &'static str,
    (game, input): (&mut G, &str),
    starts: &[G::Position],
    count: usize,
    rng: &mut SplitMix64,
) -> PlayRow {
    let (mut times, mut queries) = (Vec::new(), Vec::new());
    while times.len() < count {
        let index = rng.below(starts.len());
        let mut position = starts[index].clone();
        let mut moves = Vec::new();
        loop {
            let started = Instant::now();
            let valued = game.valued_moves(&position);
            times.push(started.elapsed());
            queries.push(query(input, index + 1, &moves));
            let chances = game.chances(&position);
            if times.len() >= count || (valued.is_empty() && chances.is_empty()) {
                break;
            }
            let mv = if chances.is_empty() {
                valued[rng.below(valued.len())].0.clone()
            } else {
                chances[rng.below(chances.len())].0.clone()
            };
            moves.push(game.write_move(&position, &mv));
            position = game.after(&position, &mv);
        }
    }
    PlayRow { name: name.to_owned(), times, package, queries }
}

/// Asks each of `queries` of `binary serve` through HTTP, one connection a query; the round
/// trips' times.
fn over_http(binary: &std::path::Path, queries: &[String]) -> Result<Vec<Duration>, String> {
    let mut server = Command::new(binary)
        .arg("serve")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = server.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).map_err(|e| e.to_string())?;
    let address = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .map(|a| a.trim_end_matches('/').to_owned())
        .ok_or_else(|| format!("serve said {line:?}"))?;
    let mut times = Vec::new();
    for query in queries {
        let started = Instant::now();
        let mut stream = TcpStream::connect(&address).map_err(|e| e.to_string())?;
        let head = format!(
            "POST /api/query HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\n\r\n",
            query.len()
        );
        stream.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
        stream.write_all(query.as_bytes()).map_err(|e| e.to_string())?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).map_err(|e| e.to_string())?;
        times.push(started.elapsed());
        if !reply.starts_with(b"HTTP/1.1 200") {
            let _ = server.kill();
            return Err(format!("serve refused {query}: {}", String::from_utf8_lossy(&reply)));
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    Ok(times)
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
        let status = Command::new(cargo)
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
    let mut made = Vec::new();
    for rows in problems {
        let mut problem = rows(args.positions, args.seed)?;
        for row in &mut problem.rows {
            println!("{}", line(&row.name, std::mem::take(&mut row.times)));
        }
        notes.extend(problem.notes);
        made.extend(problem.rows);
    }
    for note in notes {
        println!("\n{note}");
    }
    println!("\nThe same positions through HTTP (`PROBLEM serve`, one connection a query):\n");
    println!("| positions | timed | median | worst | within 50 ms |");
    println!("|---|---|---|---|---|");
    for row in made {
        let binary = crate::measure::build_release(row.package)?;
        println!("{}", line(&row.name, over_http(&binary, &row.queries)?));
    }
    Ok(())
}
