//! Interactive trials: a [`Player`] (a program and the [`Juries`] of the problem's game)
//! plays every game of an input against the jury ([`Jury`]) in one run, a dialogue of the
//! sandbox ([`Sandbox::interact`]). The jury takes the input as the problem parsed it: a
//! trial neither writes it out nor reads it again.
//!
//! **The verdict.** Whoever ends first decides, as DOMjudge and Kattis judge interactive
//! problems. When a line of the program's ends the interaction with a failure (a wrong,
//! malformed or illegal move, a line after the last game), the program is ended at once and
//! the jury's verdict stands, however the run would have ended: a program that then reads
//! the closed input and crashes did not crash first. Otherwise the run is judged by how it
//! ended ([`run_verdict`]: a crash, a time or memory limit), and a run that exits normally by
//! the jury: every game played as it must be, or a protocol error when its output ended
//! while the jury waited for a move. A program that closes its stdout and runs on has
//! ended its output: the protocol error is given at once and the program ended. Bytes after
//! the last `\n` are a line only when the program closed its output or exited by itself
//! with code 0: a move cut short by a kill or a crash keeps the kill's or the crash's
//! verdict (the sandbox's `Dialogue` notes). The jury's verdicts map to the judge's kinds as
//! interactors written with testlib report them: a move that loses a won game or is not
//! optimal, and an illegal move (a move the rules forbid is an answer, a wrong one), are a
//! *wrong answer*; a line that is not a move and a protocol error (the conversation's own
//! format broken) a *presentation error*. Every message names the game and the move; a
//! wrong move's gives both values.
//!
//! **Games per trial.** A game (`Game`) takes `&mut self` and may hold large tables
//! (card-duel's tablebases, hero-battle's memo), so the juries keep a pool of games: a trial
//! takes an idle one (or makes one) and gives it back after, so trials in parallel (the
//! stress loop's `-j`, the shrinker's batches) never share one, and there are never more
//! games than trials ever ran at once. A game keeps its tables between trials; what it
//! shares with the others (card-duel's tablebases, one per O) is the game's own choice.
//!
//! **Chance** (card-duel's pings) is drawn from the player's seed, the same in every trial,
//! so a trial depends only on the input and the program, and reruns and shrinking replay it.

use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use games::{Game, MoveError, Value, best};

use super::jury::{Jury, Reply, Speaker, Verdict as Played, wrong_move};
use super::trial::{Contestant, ReplyTimes, Schedule, Transcript, Trial, run_verdict};
use crate::rules::{Limits, Problem, Verdict, VerdictKind};
use crate::sandbox::{ChildError, ChildOptions, Dialogue, Next, Program, Sandbox};

/// A program that plays the problem's game against the jury: judged by the jury, not by
/// the problem's rule on an output.
#[derive(Clone, Debug)]
pub struct Player {
    program: Program,
    juries: Juries,
    seed: u64,
}

impl Player {
    /// `program` playing against `juries`, chance drawn from `seed` in every trial.
    #[must_use]
    pub fn new(program: Program, juries: Juries, seed: u64) -> Self {
        Self { program, juries, seed }
    }

    /// Chance's seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl Contestant for Player {
    fn program(&self) -> &Program {
        &self.program
    }

    /// Every game of `input` in one run against the jury (the module notes say how it is
    /// judged); `judge_output` is not used: the jury is the other side of the run.
    fn trial<P: Problem>(
        &self,
        sandbox: &Sandbox,
        problem: &P,
        input: &P::Input,
        options: &ChildOptions,
        _judge_output: bool,
    ) -> Result<Trial, ChildError> {
        assert_eq!(problem.name(), self.juries.0.name(), "the juries are the problem's");
        self.juries.0.play(sandbox, &self.program, input, self.seed, options)
    }

    /// The game's small levels ([`Game::stress_levels`]), without the extreme inputs,
    /// which hold far more games than a loop of interactions affords.
    fn schedule<P: Problem>(&self, _problem: &P, _limits: Limits) -> Schedule {
        Schedule {
            first_level: 0,
            levels: self.juries.0.levels().min(P::LEVELS),
            runs_per_level: 50,
            extremes: 0,
            extremes_from: 0,
        }
    }
}

/// The juries of one problem's game: a pool of games, one for each trial in flight (the
/// module notes). Cheap to clone; clones share the pool.
#[derive(Clone)]
pub struct Juries(Arc<dyn Pool>);

impl std::fmt::Debug for Juries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Juries({})", self.0.name())
    }
}

impl Juries {
    /// The input played when none is given ([`Game::sample`]).
    #[must_use]
    pub fn sample(&self) -> &'static [u8] {
        self.0.sample()
    }

    /// The game's levels of small inputs ([`Game::stress_levels`]).
    #[must_use]
    pub fn levels(&self) -> u32 {
        self.0.levels()
    }

    /// Every game of `input` (the problem's input, as parsed) played against the jury by a
    /// perfect player, chance drawn from `seed`: the transcript and the player's decisions,
    /// or `None` once it passes `max_lines` lines. The player takes the best move by the
    /// game's order ([`best`]), so a transcript depends only on the input and the seed.
    ///
    /// Time: the jury's replies and one valuation of each of the player's positions.
    ///
    /// # Panics
    /// When `input` is not the problem's input type, or the jury rejects a best move (a bug
    /// of the game's).
    #[must_use]
    pub fn perfect_play<I: 'static>(
        &self,
        input: &I,
        seed: u64,
        max_lines: Option<usize>,
    ) -> Option<PerfectPlay> {
        self.0.perfect_play(input, seed, max_lines.unwrap_or(usize::MAX))
    }
}

/// A perfect player's games against the jury ([`Juries::perfect_play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectPlay {
    /// Every line, with who said it.
    pub lines: Vec<(Speaker, String)>,
    /// The player's positions where some legal move is one the jury rejects
    /// ([`wrong_move`](super::jury::wrong_move)): the decisions a player can get wrong.
    pub decisions: usize,
}

impl Juries {
    /// The juries of `problem`, whose games `make` makes (one now, more as trials run at
    /// once). The game reads the problem's input type, so a trial hands it the input as
    /// parsed.
    #[must_use]
    pub fn new<P, G>(_problem: &P, make: impl Fn() -> G + Send + Sync + 'static) -> Self
    where
        P: Problem,
        G: Game<Input = P::Input> + Send + 'static,
    {
        let first = make();
        Self(Arc::new(Games {
            name: first.name(),
            levels: first.stress_levels(),
            sample: first.sample(),
            idle: Mutex::new(vec![first]),
            make: Box::new(make),
        }))
    }
}

/// What a trial needs of the pool, whatever its game.
trait Pool: Send + Sync {
    fn name(&self) -> &'static str;
    fn sample(&self) -> &'static [u8];
    fn levels(&self) -> u32;
    /// See [`Juries::perfect_play`].
    fn perfect_play(&self, input: &dyn Any, seed: u64, max_lines: usize) -> Option<PerfectPlay>;
    /// A trial on `input`, the problem's input ([`Juries::new`] ties the two types).
    fn play(
        &self,
        sandbox: &Sandbox,
        program: &Program,
        input: &dyn Any,
        seed: u64,
        options: &ChildOptions,
    ) -> Result<Trial, ChildError>;
}

/// The pool of one game.
struct Games<G> {
    name: &'static str,
    sample: &'static [u8],
    levels: u32,
    idle: Mutex<Vec<G>>,
    make: Box<dyn Fn() -> G + Send + Sync>,
}

impl<G: Game + Send> Pool for Games<G>
where
    G::Input: 'static,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn sample(&self) -> &'static [u8] {
        self.sample
    }

    fn levels(&self) -> u32 {
        self.levels
    }

    fn perfect_play(&self, input: &dyn Any, seed: u64, max_lines: usize) -> Option<PerfectPlay> {
        let input: &G::Input =
            input.downcast_ref().expect("Juries::new ties the game's input to the problem's");
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut game = idle.unwrap_or_else(|| (self.make)());
        let starts = game.starts(input);
        if max_lines < usize::MAX && least_moves(&mut game, &starts) > max_lines {
            self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(game);
            return None;
        }
        let mut jury = Jury::new(game, starts, seed);
        let mut reply = jury.open();
        let mut decisions = 0;
        let played = loop {
            if jury.transcript().len() > max_lines {
                break None;
            }
            match reply {
                Reply::Send(_) => {
                    let position = jury.position().cloned().expect("the jury waits for a move");
                    let game = jury.game_mut();
                    let moves = game.valued_moves(&position);
                    let (mv, top) = best(&moves).expect("a position the jury waits on has a move");
                    decisions += usize::from(moves.iter().any(|&(_, v)| wrong_move(v, top)));
                    let line = game.write_move(&position, &mv);
                    reply = jury.receive(&line);
                }
                Reply::End(_, verdict) => {
                    assert!(verdict.accepted(), "the jury rejects perfect play: {verdict}");
                    break Some(PerfectPlay { lines: jury.transcript().to_vec(), decisions });
                }
            }
        };
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(jury.into_game());
        played.filter(|played| played.lines.len() <= max_lines)
    }

    fn play(
        &self,
        sandbox: &Sandbox,
        program: &Program,
        input: &dyn Any,
        seed: u64,
        options: &ChildOptions,
    ) -> Result<Trial, ChildError> {
        let input: &G::Input =
            input.downcast_ref().expect("Juries::new ties the game's input to the problem's");
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut game = idle.unwrap_or_else(|| (self.make)());
        let starts = game.starts(input);
        let games = starts.len();
        let mut conversation = Conversation::new(Jury::new(game, starts, seed));
        let run = sandbox.interact(program, options, &mut conversation);
        let Conversation { jury, verdict, replies } = conversation;
        let lines = jury.transcript().to_vec();
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(jury.into_game());
        let run = run?;
        let (played, by_line) =
            verdict.expect("the jury has a verdict once the program's output has ended");
        let verdict = match by_line {
            true if !played.accepted() => judged(&played),
            _ => run_verdict(program, &run, options).unwrap_or_else(|| judged(&played)),
        };
        let transcript = Transcript { lines, games, replies: ReplyTimes::of(replies) };
        Ok(Trial { verdict, run, transcript: Some(Box::new(transcript)) })
    }
}

/// The moves the games from `starts` take at least under perfect play, one line each: a
/// start valued with its remoteness is played in exactly that many moves (the winner wins as
/// fast as it can, the loser loses as slowly), so an input whose games will pass a line budget
/// is known before they are played (hero-battle's two long extremes took more than a minute
/// to play up to the budget). Games of chance count nothing. `O(starts)` valuations.
fn least_moves<G: Game>(game: &mut G, starts: &[G::Position]) -> usize {
    starts
        .iter()
        .map(|start| {
            let side = game.program_side(start);
            match game.value_for(start, side) {
                Value::Win { remoteness: Some(moves) }
                | Value::Lose { remoteness: Some(moves) } => moves as usize,
                _ => 0,
            }
        })
        .sum()
}

/// The jury as the sandbox's other side: its lines as bytes, its end as closing the
/// program's input (every game played) or stopping the run (a failure).
struct Conversation<G: Game> {
    jury: Jury<G>,
    /// The jury's verdict, and whether a line of the program's gave it; a failure is kept
    /// over a later verdict, an acceptance gives way to a later failure (a line after the
    /// last game).
    verdict: Option<(Played, bool)>,
    /// How long each of the jury's answers took.
    replies: Vec<Duration>,
}

impl<G: Game> Conversation<G> {
    fn new(jury: Jury<G>) -> Self {
        Self { jury, verdict: None, replies: Vec::new() }
    }

    /// What the sandbox does with the jury's `reply`, which a line gave when `by_line`.
    fn next(&mut self, reply: Reply, by_line: bool) -> Next {
        let (lines, verdict) = match reply {
            Reply::Send(lines) => return Next::Send(bytes(&lines)),
            Reply::End(lines, verdict) => (lines, verdict),
        };
        let failed = !verdict.accepted();
        if self.verdict.as_ref().is_none_or(|(kept, _)| kept.accepted()) {
            self.verdict = Some((verdict, by_line));
        }
        // A failure ends the program at once. The sandbox tells of the output's end while
        // the program runs only when it closed its stdout and ran on (the failure then
        // decides: the run shows as stopped); after an exit or a kill a stop changes
        // nothing, and the run's own end decides first.
        if failed { Next::Stop } else { Next::Close(bytes(&lines)) }
    }
}

impl<G: Game> Dialogue for Conversation<G> {
    fn open(&mut self) -> Next {
        let reply = self.jury.open();
        self.next(reply, false)
    }

    fn line(&mut self, line: &[u8]) -> Next {
        let started = Instant::now();
        let reply = self.jury.receive(&String::from_utf8_lossy(line));
        self.replies.push(started.elapsed());
        self.next(reply, true)
    }

    fn closed(&mut self) -> Next {
        let reply = self.jury.close();
        self.next(reply, false)
    }
}

/// Lines as the bytes the program reads, each ended by `\n`.
fn bytes(lines: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in lines {
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out
}

/// The judge's verdict for the jury's (the module notes say why each kind).
fn judged(played: &Played) -> Verdict {
    match played {
        Played::Accepted { games } => Verdict::ok(format!(
            "{} played as they must be",
            crate::text::plural(*games as u64, "game")
        )),
        Played::WrongMove { game, turn, line, value, best } => Verdict::new(
            VerdictKind::WrongAnswer,
            format!(
                "game {game}, move {turn}: {line:?} is worth {value}, but {:?} is worth {}",
                best.0, best.1
            ),
        ),
        Played::BadMove { game, turn, line, error } => {
            let (kind, what, why) = match error {
                MoveError::Malformed(why) => (VerdictKind::PresentationError, "malformed", why),
                MoveError::Illegal(why) => (VerdictKind::WrongAnswer, "illegal", why),
            };
            Verdict::new(kind, format!("game {game}, move {turn}: {what} move {line:?}: {why}"))
        }
        Played::ProtocolError { message } => {
            Verdict::new(VerdictKind::PresentationError, format!("protocol error: {message}"))
        }
    }
}
