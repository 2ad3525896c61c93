//! A person's game against perfect play, over any `BufRead` and `Write` (a terminal, a pipe,
//! a test's script).
//!
//! The person plays the side [`SessionOptions::side`] names, by default the one
//! [`Game::program_side`] names (the winner from the start where a game has one, so perfect
//! play wins); naming the other side practises the losing one. The solver plays the other
//! side perfectly (the best [`crate::Value::rank`], as the jury plays), and draws chance's
//! moves from a seed. Before each of the person's moves the position is drawn and every legal
//! move listed under a letter (`a`, `b`, ..., `z`, `aa`, ...) with its value for the person,
//! as the board writes it, with the protocol's line beside it where the two differ. The
//! person answers with a move in either form ([`Notation::parse_typed`]) or its letter, a
//! move's text first (so a station's number is that station, never a list's item), or
//! `hint` (the best move), `undo` (back to the person's previous move, with chance's draws
//! as they were), `help` or `quit`.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use engine::rng::SplitMix64;

use crate::{Game, Notation, Turn, best, draw_chance};

/// What a session needs besides the game and the streams.
#[derive(Clone, Debug)]
pub struct SessionOptions<P> {
    /// Chance's seed.
    pub seed: u64,
    /// Where to write the picture of the play so far after every move, for games that draw
    /// one; nothing is written without it.
    pub picture: Option<PathBuf>,
    /// The person's side; [`Game::program_side`]'s when `None`.
    pub side: Option<P>,
}

impl<P> Default for SessionOptions<P> {
    fn default() -> Self {
        Self { seed: 1, picture: None, side: None }
    }
}

/// Plays one game from `start` with a person reading `output` and writing `input`; returns
/// when the game ends, the person quits or `input` ends. `O(moves)` queries of the game.
///
/// # Errors
/// Reading or writing fails, or the picture cannot be written.
pub fn play<G: Game>(
    game: &mut G,
    start: G::Position,
    options: &SessionOptions<G::Player>,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let side = match options.side {
        Some(side) => side,
        None => game.program_side(&start),
    };
    let mut rng = SplitMix64::new(options.seed);
    // The positions where the person moved, each with chance's generator as it stood there,
    // for `undo`: chance then draws again what it drew before.
    let mut history: Vec<(G::Position, SplitMix64)> = Vec::new();
    let mut position = start;
    writeln!(
        output,
        "{}: you play {side}; the solver plays the other side perfectly.",
        game.name()
    )?;
    writeln!(output, "Type a move (as listed, or its letter), hint, undo, help or quit.")?;
    if let Some(path) = &options.picture {
        if game.picture(&position).is_some() {
            let path = path.display();
            writeln!(
                output,
                "The picture of the play so far is written to {path} after each move."
            )?;
        } else {
            writeln!(
                output,
                "{} draws no picture: nothing is written to {}.",
                game.name(),
                path.display()
            )?;
        }
    }
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
                writeln!(output, "chance: {}", named(game, &position, &mv))?;
                position = game.after(&position, &mv);
            }
            Turn::Player(p) if p != side => {
                let moves = game.valued_moves(&position);
                let (mv, value) = best(&moves).expect("the solver has a move");
                writeln!(output, "{p} plays {} ({value} for {p})", named(game, &position, &mv))?;
                position = game.after(&position, &mv);
            }
            Turn::Player(_) => {
                writeln!(output, "{}", game.draw(&position))?;
                let moves = game.valued_moves(&position);
                for (i, (mv, value)) in moves.iter().enumerate() {
                    writeln!(output, "  {}. {}: {value}", label(i), named(game, &position, mv))?;
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
                        "quit" => return Ok(()),
                        "help" | "?" => {
                            writeln!(
                                output,
                                "a move as listed (or as the protocol writes it), or its \
                                 letter; hint; undo; quit"
                            )?;
                            continue;
                        }
                        "hint" => {
                            let (mv, value) = best(&moves).expect("a move exists");
                            writeln!(output, "hint: {} ({value})", named(game, &position, &mv))?;
                            continue;
                        }
                        "undo" => match history.pop() {
                            Some((previous, generator)) => {
                                position = previous;
                                rng = generator;
                                writeln!(output, "undone")?;
                                break;
                            }
                            None => {
                                writeln!(output, "nothing to undo")?;
                                continue;
                            }
                        },
                        _ => match game.parse_typed(&position, line) {
                            Ok(mv) => mv,
                            Err(e) => match index(line).and_then(|k| moves.get(k)) {
                                Some((mv, _)) => mv.clone(),
                                None => {
                                    writeln!(output, "{e}")?;
                                    continue;
                                }
                            },
                        },
                    };
                    history.push((position.clone(), rng.clone()));
                    position = game.after(&position, &chosen);
                    break;
                }
            }
        }
    }
}

/// A move as the person reads it: as the board writes it, with the protocol's line beside
/// it where the two differ (`A1->B1, A2->B1 [1 1]`).
fn named<G: Notation>(game: &G, position: &G::Position, mv: &G::Move) -> String {
    let (shown, written) = (game.show_move(position, mv), game.write_move(position, mv));
    if shown == written { shown } else { format!("{shown} [{written}]") }
}

/// The letters of the `i`-th listed move (0-based): `a` to `z`, then `aa`, `ab`, ...
fn label(i: usize) -> String {
    let mut letters = Vec::new();
    let mut rest = i + 1;
    while rest > 0 {
        rest -= 1;
        letters.push(b'a' + (rest % 26) as u8);
        rest /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).expect("letters are ASCII")
}

/// The 0-based index that [`label`] gives `text`, if it is letters.
fn index(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let mut k: usize = 0;
    for b in text.bytes() {
        k = k.checked_mul(26)?.checked_add(usize::from(b - b'a') + 1)?;
    }
    Some(k - 1)
}

/// Writes `dot` to `path` beside it and renames it into place, so a viewer never reads half.
fn write_picture(path: &Path, dot: &str) -> io::Result<()> {
    engine::fs::write_aside(path, dot.as_bytes()).map_err(|e| io::Error::other(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_label_the_list_and_read_back() {
        let labels: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702].map(label).to_vec();
        assert_eq!(labels, ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
        for i in 0..2000 {
            assert_eq!(index(&label(i)), Some(i));
        }
        assert_eq!(index("2"), None);
        assert_eq!(index(""), None);
        assert_eq!(index("A"), None);
    }
}
