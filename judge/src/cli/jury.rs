//! `PROBLEM jury INPUT ANSWER FEEDBACK_DIR [FLAGS...] < program_output > program_input`: the
//! jury of the problem's game ([`Jury`]) as a Kattis output validator of an interactive
//! problem, which is how an interactive package runs it on the setter's judge
//! (`output_validators/jury/run` is the problem's binary itself: a binary started under the
//! name `run` runs this subcommand, see [`parse_args`](super::parse_args)).
//!
//! It plays every game of INPUT (read under the extended limits, as `interact` reads it) with
//! chance drawn from [`SEED`], writing the jury's lines on stdout and reading the
//! program's on stdin, line by line. After the last game it closes its stdout, so that the
//! program reads the end of its input, and reads on until the program's output ends: a line
//! then is a protocol error, as `interact` judges it. ANSWER and FLAGS are not read (the
//! jury needs nothing but the input). Exit 42 (accepted) or 43 (rejected), with the verdict's
//! message in `FEEDBACK_DIR/judgemessage.txt`; exit 1 when INPUT cannot be read, a judge
//! error.
//!
//! What the judge gives the program's verdict when the program ends first (a crash, a time
//! limit) is the judge's own rule; a failure the jury finds on a line ends the jury at once
//! with 43, so the judge takes its verdict (Kattis, DOMjudge and problemtools follow a
//! validator that rejects first).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use games::Game;

use super::read;
use crate::hunt::jury::{Jury, Reply, SEED, Verdict};
use crate::rules::{Limits, Problem};
use crate::sandbox::close_stdout;

/// The exit code of an accepted interaction (Kattis's output validators).
const EXIT_ACCEPTED: i32 = 42;
/// The exit code of a rejected interaction.
const EXIT_REJECTED: i32 = 43;
/// The exit code when the jury cannot judge: a judge error to the judge.
const EXIT_JUDGE_ERROR: i32 = 1;

/// `PROBLEM jury`: the jury as a Kattis output validator.
#[derive(Clone, Debug, clap::Args)]
pub struct JuryArgs {
    /// The test's input: its games are played.
    pub input: PathBuf,
    /// The test's answer file: not read (the jury needs nothing but the input).
    pub answer: PathBuf,
    /// The folder where the verdict's message goes (judgemessage.txt).
    pub feedback_dir: PathBuf,
    /// The validator flags a judge passes: none is used.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "FLAGS")]
    pub flags: Vec<String>,
}

/// Runs the jury (the module notes); returns the exit code.
pub(super) fn run_jury<P: Problem, G: Game<Input = P::Input>>(
    problem: &P,
    game: G,
    args: &JuryArgs,
) -> i32 {
    let feedback = args.feedback_dir.join("judgemessage.txt");
    let input = read(Some(&args.input)).and_then(|bytes| {
        problem
            .parse(&bytes, Limits::Extended)
            .map_err(|e| format!("{}: {e}", args.input.display()))
    });
    let input = match input {
        Ok(input) => input,
        Err(e) => {
            eprintln!("error: {e}");
            let _ = std::fs::write(&feedback, format!("judge error: {e}\n"));
            return EXIT_JUDGE_ERROR;
        }
    };
    let mut game = game;
    let starts = game.starts(&input);
    let jury = Jury::new(game, starts, SEED);
    let mut stdout = std::io::stdout().lock();
    let verdict = serve(jury, &mut std::io::stdin().lock(), &mut stdout, || {
        let _ = close_stdout();
    });
    let _ = write_message(&feedback, &verdict);
    if verdict.accepted() { EXIT_ACCEPTED } else { EXIT_REJECTED }
}

/// Plays `jury` over the program's output (`from`) and input (`to`) to its verdict: its lines
/// written and flushed as they come, the program's read a line at a time; after the last game
/// the program's input is closed (`close`) and its output read to its end (a line there is a protocol
/// error). A program that stops reading does not stop the jury: what it no longer reads is
/// dropped, and its output decides.
fn serve<G: Game>(
    mut jury: Jury<G>,
    from: &mut impl BufRead,
    to: &mut impl Write,
    close: impl FnOnce(),
) -> Verdict {
    let mut reply = jury.open();
    let mut line = Vec::new();
    loop {
        let (lines, end) = match reply {
            Reply::Send(lines) => (lines, None),
            Reply::End(lines, verdict) => (lines, Some(verdict)),
        };
        for sent in &lines {
            let _ = writeln!(to, "{sent}");
        }
        let _ = to.flush();
        match end {
            Some(verdict) if !verdict.accepted() => return verdict,
            Some(_) => {
                // Every game is played: the program's input ends, and its output must too.
                close();
                let last = match next_line(from, &mut line) {
                    Some(text) => jury.receive(&text),
                    None => jury.close(),
                };
                return match last {
                    Reply::End(_, verdict) => verdict,
                    Reply::Send(_) => unreachable!("a jury that has ended sends nothing more"),
                };
            }
            None => {}
        }
        reply = match next_line(from, &mut line) {
            Some(text) => jury.receive(&text),
            None => jury.close(),
        };
    }
}

/// The program's next line without its line end, `None` at the end of its output (or an
/// error reading it); bytes that are not UTF-8 are replaced, as the jury in process reads them.
fn next_line(from: &mut impl BufRead, buffer: &mut Vec<u8>) -> Option<String> {
    buffer.clear();
    match from.read_until(b'\n', buffer) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            if buffer.last() == Some(&b'\n') {
                buffer.pop();
            }
            Some(String::from_utf8_lossy(buffer).into_owned())
        }
    }
}

/// Writes the verdict's message into the feedback folder's `judgemessage.txt`.
fn write_message(path: &Path, verdict: &Verdict) -> std::io::Result<()> {
    std::fs::write(path, format!("{verdict}\n"))
}
