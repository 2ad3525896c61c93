//! `PROBLEM interact [FILE] -- COMMAND`: a program against the jury on every game of a file
//! (the statement's sample when absent), in one run under a judge's limits, as the
//! statement's "Interactive version" says ([`Player`]): `ok` with the games played, or the
//! first game lost, bad move, protocol error, crash or exceeded limit, with the games so far
//! as a transcript (its last lines; the whole saved at `--save`).
//!
//! A source COMMAND (`player.cpp`, `player.py`) is built as `stress` builds it.
//!
//! Exit codes as `stress`'s: 0 passed, 1 failed, 2 trouble; stopped by SIGINT, SIGTERM or
//! SIGHUP, 130, 143 or 129.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Instant;

use super::layout::{FailureReport, unused_save_path};
use super::report::{measured, stderr_text, transcript_text};
use super::{EXIT_FOUND, EXIT_PASSED, Ending, LimitArgs, LimitsUsed, read};
use crate::hunt::{Juries, Player, trial};
use crate::package::Packaged;
use crate::rules::Limits;
use crate::sandbox::{Program, Sandbox};
use crate::text::{plural, shell_quote};

/// `PROBLEM interact`: a program against the jury.
#[derive(Clone, Debug, clap::Args)]
pub struct InteractArgs {
    /// The problem's input, whose games are played (the statement's "Interactive version"
    /// says which); the statement's sample when absent.
    pub file: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub limit: LimitArgs,
    /// Chance's seed, for games of chance (card-duel's pings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the transcript of a failed interaction is saved (the next free name when taken:
    /// transcript-2.txt, ...).
    #[arg(long, default_value = "transcript.txt")]
    pub save: PathBuf,
    /// The program and its arguments (after --): it reads the jury's lines on stdin and
    /// writes its moves on stdout.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

/// Runs `interact` and prints its report: see [`InteractArgs::ending`].
pub(super) fn run_interact<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    juries: &Juries,
    args: &InteractArgs,
) -> i32 {
    args.ending(sandbox, problem, juries).print()
}

impl InteractArgs {
    /// `interact`: the file read (under the extended limits, as `check` reads), a source
    /// COMMAND built as `stress` builds it (saying how on stderr), the file's games played in
    /// one run against `juries`, then the report, without printing.
    pub fn ending<P: Packaged>(&self, sandbox: &Sandbox, problem: &P, juries: &Juries) -> Ending {
        let started = Instant::now();
        if let Err(e) = super::catch_signals(sandbox) {
            return Ending::trouble(sandbox.caught(), format!("cannot catch signals: {e}"));
        }
        let limits = LimitsUsed::new(&self.limit, P::RUN_LIMITS);
        let (name, bytes) = match &self.file {
            Some(path) => match read(Some(path)) {
                Ok(bytes) => (path.display().to_string(), bytes),
                Err(e) => return Ending::trouble(sandbox.caught(), e),
            },
            None => ("the sample".to_owned(), juries.sample().to_vec()),
        };
        let input = match problem.parse(&bytes, Limits::Extended) {
            Ok(input) => input,
            Err(e) => return Ending::trouble(sandbox.caught(), format!("{name}: {e}")),
        };
        let built = match super::program::build(sandbox, problem, &self.command) {
            Ok(built) => built,
            Err(code) => return Ending::said(code),
        };
        let program =
            built.as_ref().map_or_else(|| Program::new(&self.command), |b| b.program.clone());
        let player = Player::new(program.clone(), juries.clone(), self.seed);
        let trial = match trial(sandbox, problem, &player, &input, &limits.child_options()) {
            Ok(trial) => trial,
            Err(e) => return Ending::trouble(sandbox.caught(), e),
        };
        let transcript = trial.transcript.as_ref().expect("a player's trial has a transcript");
        let limits_line = format!("limits: {}", limits.describe());
        if trial.verdict.is_ok() {
            let text = format!(
                "ok: {name}: {}\n{limits_line}\n{}\n",
                trial.verdict.message,
                measured(&trial)
            );
            return Ending::report(sandbox.caught(), text, EXIT_PASSED);
        }
        let save = unused_save_path(&self.save, &[]);
        let mut texts = vec![transcript_text(transcript, save)];
        texts.extend(stderr_text(&trial.run));
        let file =
            self.file.as_ref().map(|p| format!(" {}", shell_quote(&p.display().to_string())));
        let seed = if self.seed == 1 { String::new() } else { format!(" --seed {}", self.seed) };
        let again = format!(
            "{} interact{}{seed} {} -- {}",
            problem.name(),
            file.unwrap_or_default(),
            limits.flags(),
            program.display()
        );
        let report = FailureReport {
            found: format!(
                "{name} ({}): {} fails",
                plural(transcript.games as u64, "game"),
                program.display()
            ),
            about: vec![limits_line],
            verdict: trial.verdict.clone(),
            texts,
            commands: vec![("run it again".to_owned(), again)],
            measured: measured(&trial),
            time: format!("time: {:.1} s", started.elapsed().as_secs_f64()),
        };
        Ending::report(sandbox.caught(), report.save().to_string(), EXIT_FOUND)
    }
}
