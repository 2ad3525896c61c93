//! A person's game against perfect play, over any `BufRead` and `Write` (a terminal, a pipe,
//! a test's script).
//!
//! The person plays the side [`Game::program_side`] names (the winner from the start, so
//! perfect play wins); the solver plays the other side perfectly, losing as slowly as it can,
//! and draws chance's moves from a seed. Before each of the person's moves the position is
//! drawn and every legal move listed with its value for the person. The person answers with
//! a move's number or its text, `hint` (the best move), `undo` (back to the person's previous
//! move), `help` or `quit`.

use std::io::{self, BufRead, Write};
use std::path::Path;

use engine::rng::SplitMix64;

use crate::{Game, Turn, best, draw_chance};

/// What a session needs besides the game and the streams.
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// Chance's seed.
    pub seed: u64,
    /// Where to write the picture of the play so far after every move, for games that draw
    /// one.
    pub picture: Option<std::path::PathBuf>,
}

/// Plays one game from `start` with a person reading `output` and writing `input`; returns
/// when the game ends, the person quits or `input` ends. `O(moves)` queries of the game.
///
/// # Errors
/// Reading or writing fails, or the picture cannot be written.
pub fn play<G: Game>(
    game: &mut G,
    start: G::Position,
    options: &SessionOptions,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let side = game.program_side(&start);
    let mut rng = SplitMix64::new(options.seed);
    // The positions where the person moved, for `undo`.
    let mut history: Vec<G::Position> = Vec::new();
    let mut position = start;
    writeln!(
        output,
        "{}: you play {side}; the solver plays the other side perfectly.",
        game.name()
    )?;
    writeln!(output, "Type a move's number or its text, hint, undo, help or quit.")?;
    loop {
        if let Some(path) = &options.picture
            && let Some(dot) = game.picture(&position)
        {
            write_picture(path, &dot)?;
        }
        match game.turn(&position) {
            Turn::Over(winner) => {
                writeln!(output, "{}", game.draw(&position))?;
                let result = if winner == side { "you win" } else { "you lose" };
                writeln!(output, "Game over: {winner} wins; {result}.")?;
                return Ok(());
            }
            Turn::Chance => {
                let chances = game.chances(&position);
                let mv = draw_chance(&mut rng, &chances);
                writeln!(output, "chance: {}", game.write_move(&position, &mv))?;
                position = game.after(&position, &mv);
            }
            Turn::Player(p) if p != side => {
                let moves = game.valued_moves(&position);
                let (mv, value) = best(&moves).expect("the solver has a move");
                let text = game.write_move(&position, &mv);
                writeln!(output, "{p} plays {text} ({value} for {p})")?;
                position = game.after(&position, &mv);
            }
            Turn::Player(_) => {
                writeln!(output, "{}", game.draw(&position))?;
                let moves = game.valued_moves(&position);
                for (i, (mv, value)) in moves.iter().enumerate() {
                    writeln!(output, "  {}. {}: {value}", i + 1, game.write_move(&position, mv))?;
                }
                loop {
                    write!(output, "your move> ")?;
                    output.flush()?;
                    let mut line = String::new();
                    if input.read_line(&mut line)? == 0 {
                        writeln!(output)?;
                        return Ok(());
                    }
                    let line = line.trim();
                    let chosen = match line {
                        "quit" | "q" => return Ok(()),
                        "help" | "?" => {
                            writeln!(output, "a move's number or text; hint; undo; quit")?;
                            continue;
                        }
                        "hint" | "h" => {
                            let (mv, value) = best(&moves).expect("a move exists");
                            writeln!(
                                output,
                                "hint: {} ({value})",
                                game.write_move(&position, &mv)
                            )?;
                            continue;
                        }
                        "undo" | "u" => match history.pop() {
                            Some(previous) => {
                                position = previous;
                                writeln!(output, "undone")?;
                                break;
                            }
                            None => {
                                writeln!(output, "nothing to undo")?;
                                continue;
                            }
                        },
                        _ => match line
                            .parse::<usize>()
                            .ok()
                            .filter(|&k| (1..=moves.len()).contains(&k))
                        {
                            Some(k) => moves[k - 1].0.clone(),
                            None => match game.parse_move(&position, line) {
                                Ok(mv) => mv,
                                Err(e) => {
                                    writeln!(output, "{e}")?;
                                    continue;
                                }
                            },
                        },
                    };
                    history.push(position.clone());
                    position = game.after(&position, &chosen);
                    break;
                }
            }
        }
    }
}

/// Writes `dot` to `path` beside it and renames it into place, so a viewer never reads half.
fn write_picture(path: &Path, dot: &str) -> io::Result<()> {
    engine::fs::write_aside(path, dot.as_bytes()).map_err(|e| io::Error::other(e.to_string()))
}
