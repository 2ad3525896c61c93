//! `PROBLEM play` and `PROBLEM query`: a person's game against perfect play, and one
//! position's JSON query, for any problem with a [`Game`], through one implementation (the
//! session and the query are the `games` crate's; this is their command line;
//! `JudgeCommand::run_with_game` dispatches to them).

use std::io::{self, BufRead as _, Write};
use std::path::PathBuf;

use super::args::EXIT_TROUBLE;
use super::read;
use games::Game;
use games::session::{SessionOptions, play};

/// `PROBLEM play`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayArgs {
    /// The problem's input; when absent, a sample of the statement (card-duel's second).
    pub file: Option<PathBuf>,
    /// Which game of the input (1-based; the statement's "Interactive version" lists them).
    #[arg(long, short = 'c', default_value_t = 1, value_name = "K")]
    pub case: usize,
    /// Chance's seed, for games of chance.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The side you play, by its name (hero-battle's Alice or Bob, toy-train's Arezou or
    /// Borzou, card-duel's E or teacher); by default the side that wins from the start
    /// (card-duel: E). Naming the losing side practises it against perfect play.
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
    /// Write the picture of the play so far (Graphviz DOT) to FILE after each move, for
    /// games that draw one (toy-train); nothing is written without it.
    #[arg(long, value_name = "FILE")]
    pub picture: Option<PathBuf>,
}

/// `PROBLEM query`.
#[derive(Clone, Debug, clap::Args)]
pub struct QueryArgs {
    /// The JSON queries, one after another (one a line, or any JSON layout); standard input
    /// when absent.
    pub file: Option<PathBuf>,
}

/// What `play` and `query` say for a problem without a game.
pub(super) fn without_game() -> i32 {
    eprintln!("error: this problem has no game to play");
    EXIT_TROUBLE
}

/// Runs `play` on standard input and output; returns the exit code.
pub(super) fn run_play<G: Game>(mut game: G, args: &PlayArgs) -> i32 {
    let result = (|| -> Result<(), String> {
        // The side is checked first: a misspelt name should not wait for an input's read.
        let side = args.side.as_deref().map(|name| games::player_named(&game, name));
        let side = side.transpose().map_err(|e| format!("--side: {e}"))?;
        let input = match &args.file {
            Some(path) => read(Some(path))?,
            None => game.sample().to_vec(),
        };
        let input = game.read(&input)?;
        let starts = game.starts(&input);
        let index = args.case.checked_sub(1).filter(|&i| i < starts.len());
        let index = index.ok_or_else(|| {
            format!("--case {} is out of range: the input holds {} games", args.case, starts.len())
        })?;
        let options = SessionOptions { seed: args.seed, picture: args.picture.clone(), side };
        let start = starts[index].clone();
        play(&mut game, start, &options, &mut io::stdin().lock(), &mut io::stdout().lock())
            .map_err(|e| format!("cannot play: {e}"))
    })();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_TROUBLE
        }
    }
}

/// Runs `query`: answers each JSON query of standard input (or FILE) in turn, as it comes, on
/// a line of its own (so one process serves a page, or a player, query after query); a query
/// that cannot be answered gets an `{"error": ...}` line and the next one is read. A query is
/// one line, or one JSON object over several. Returns the exit code: 0, or 2 when the input
/// cannot be read or holds no query.
pub(super) fn run_query<G: Game>(game: G, args: &QueryArgs) -> i32 {
    let mut answerer = games::query::Answerer::new(game);
    let mut stdout = io::stdout().lock();
    let result = (|| -> Result<(), String> {
        let reader: Box<dyn io::BufRead> = match &args.file {
            Some(path) => Box::new(io::BufReader::new(
                std::fs::File::open(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            )),
            None => Box::new(io::stdin().lock()),
        };
        let mut pending = String::new();
        let mut answered = 0;
        let mut reply = |query: &str| -> bool {
            let line = answerer.respond(query).unwrap_or_else(|e| games::query::error_line(&e));
            answered += 1;
            // A reader that went away wants no more answers.
            writeln!(stdout, "{line}").and_then(|()| stdout.flush()).is_ok()
        };
        let complete = |text: &str| serde_json::from_str::<serde_json::Value>(text).is_ok();
        let partial =
            |text: &str| serde_json::from_str::<serde_json::Value>(text).is_err_and(|e| e.is_eof());
        for line in reader.lines() {
            let line = line.map_err(|e| format!("cannot read: {e}"))?;
            if line.trim().is_empty() && pending.trim().is_empty() {
                continue;
            }
            // A whole query on a line after an unfinished one: the unfinished one was cut.
            if !pending.is_empty() && complete(&line) {
                if !reply(pending.trim_end()) {
                    return Ok(());
                }
                pending.clear();
            }
            pending.push_str(&line);
            pending.push('\n');
            if !partial(&pending) {
                if !reply(pending.trim_end()) {
                    return Ok(());
                }
                pending.clear();
            }
        }
        if !pending.trim().is_empty() {
            reply(pending.trim_end());
        }
        if answered == 0 {
            return Err("no query: expected a JSON object".to_owned());
        }
        Ok(())
    })();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_TROUBLE
        }
    }
}
