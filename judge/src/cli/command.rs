//! The judge's subcommands as one clap enum, [`JudgeCommand`], and their dispatch: each
//! subcommand to its runner, with the process's [`Sandbox`] made here for those that run
//! programs.

use super::args::{HuntArgs, ShrinkArgs, StressArgs};
use super::{
    CheckArgs, GenerateArgs, ValidateArgs, held, hunt_ending, interact, jury, package, play,
    program, run, run_check, run_generate, run_validate, serve,
};
use games::Game;

use crate::hunt::Juries;
use crate::package::Packaged;
use crate::sandbox::Sandbox;

/// The judge's subcommands, for a problem binary to flatten into its own
/// (`#[command(flatten)] Judge(JudgeCommand)`) and hand to [`JudgeCommand::run`].
#[derive(Clone, Debug, clap::Subcommand)]
pub enum JudgeCommand {
    /// Judge a contestant's OUTPUT for INPUT as the original judge does.
    Check(CheckArgs),
    /// Is FILE a valid input?
    Validate(ValidateArgs),
    /// Run COMMAND on generated inputs until it fails, then shrink the failure.
    ///
    /// Runs COMMAND on generated inputs (or every input up to a bound) until it fails, then
    /// shrinks the failure to a 1-minimal input. Exit 0 no failure, 1 failure, 2 trouble;
    /// stopped by SIGINT, SIGTERM or SIGHUP, it reports what it found and exits 130, 143, 129.
    Stress(StressArgs),
    /// Shrink INPUT, on which COMMAND fails, to a 1-minimal input.
    ///
    /// Shrinks INPUT (a failure saved by `stress`, or any input) to a 1-minimal input that
    /// fails the same way. Exit 0 it does not fail, 1 shrunk, 2 trouble; stopped by a signal,
    /// it reports how far it got and exits 130, 143, 129.
    Shrink(ShrinkArgs),
    /// Print an input as `stress` generates them.
    ///
    /// Prints size level LEVEL, or extreme input K, from SEED; the same arguments give the
    /// same bytes.
    Generate(GenerateArgs),
    /// Judge COMMAND on a folder of tests.
    ///
    /// Judges COMMAND on a folder of tests (NAME.in with NAME.ans, else NAME.out, else our
    /// answer; a package's data/): each test's verdict, CPU time and peak memory, then a
    /// summary, and a scoring package's score. Exit 0 all passed, 1 some failed, 2 trouble.
    Run(run::RunTestsArgs),
    /// Write a problem package in the Kattis format.
    ///
    /// Writes a problem package in the Kattis format (legacy, which problemtools and DOMjudge
    /// read, or with --format 2025-09, which BAPCtools reads): the
    /// samples, the extremes and generated tests with our answers, a test that kills each
    /// --wrong and --slow submission (found by stress and shrunk), the validators, the
    /// submissions filed by verdict. Exit 0 all filed, 1 some submission killed by no test
    /// (not filed), 2 trouble.
    Package(package::PackageArgs),
    /// Write the problem's function interface (header and grader) into DIR.
    ///
    /// Writes the problem's function interface into DIR, when its contest had contestants
    /// write a function (IOI's tasks): the header and a grader.cpp that reads the input and
    /// prints the answer, so that `g++ -O2 grader.cpp SOURCE` gives a program stress and run
    /// take. Exit 0 written, 2 trouble (a problem whose programs read stdin has none).
    Interface(program::InterfaceArgs),
    /// Play a game of FILE against perfect play.
    ///
    /// Plays a game of FILE (a sample when absent) against
    /// perfect play, on the winning side or the one --side names: the position drawn, every
    /// legal move with its value under a letter, hint, undo (chance as it was). Type a move as
    /// listed, as the protocol writes it, or its letter. Works over a pipe too.
    Play(play::PlayArgs),
    /// Answer positions' queries in JSON.
    ///
    /// Answers each position's query, a JSON object on standard input (or FILE), as it
    /// comes, with the position's moves and their values as one line of JSON: one process
    /// serves query after query.
    Query(play::QueryArgs),
    /// Play COMMAND against the jury on every game of FILE.
    ///
    /// Runs COMMAND against the jury on every game of FILE (the sample when absent), as the
    /// statement's "Interactive version" says, and reports the first game lost, bad move,
    /// protocol error, crash or limit, with the game so far. Exit 0 passed, 1 failed, 2
    /// trouble.
    Interact(interact::InteractArgs),
    /// Be the jury of the interactive version as a Kattis output validator.
    ///
    /// Plays every game of INPUT against the program whose output is on stdin and whose
    /// input is stdout, as a judge runs an interactive problem's output validator (an
    /// interactive package's output_validators/jury/run is this binary, which a judge starts
    /// as `run INPUT ANSWER FEEDBACK_DIR`). Exit 42 accepted, 43 rejected, with the message
    /// in FEEDBACK_DIR/judgemessage.txt; 1 when INPUT cannot be read.
    Jury(jury::JuryArgs),
    /// Serve the game as a web page against perfect play.
    ///
    /// Serves a page on this machine (127.0.0.1, a port the system picks unless --port):
    /// the position drawn, every legal move with its value in colour, play either side
    /// against perfect play or watch, undo, hint, the value so far; and POST /api/query,
    /// which answers `query`'s JSON. Prints the address; runs until Ctrl-C.
    Serve(serve::ServeArgs),
}

impl JudgeCommand {
    /// Runs the subcommand on `problem` and returns the process's exit code. The
    /// subcommands that run programs make the process's [`Sandbox`] here, build a source
    /// file given for COMMAND, and hold the problem to a subtask when asked.
    pub fn run<P: Packaged>(&self, problem: &P) -> i32 {
        match self {
            Self::Check(args) => run_check(problem, args),
            Self::Validate(args) => run_validate(problem, args),
            Self::Stress(_) | Self::Shrink(_) => hunt_command(&sandbox(), problem, self, None),
            Self::Generate(args) => match args.subtask {
                None => run_generate(problem, args),
                Some(k) => match held(problem, k, args.limits) {
                    Ok(held) => run_generate(&held, args),
                    Err(ending) => ending.print(),
                },
            },
            Self::Run(args) => run::run_tests(&sandbox(), problem, args),
            Self::Package(args) => package::run_package(&sandbox(), problem, args, None),
            Self::Interface(args) => program::run_interface(problem, args),
            Self::Play(_) | Self::Query(_) | Self::Interact(_) | Self::Serve(_) | Self::Jury(_) => {
                play::without_game()
            }
        }
    }

    /// `stress`'s or `shrink`'s arguments; `None` for the other subcommands.
    #[must_use]
    pub(crate) fn hunt_args(&self) -> Option<HuntArgs<'_>> {
        match self {
            Self::Stress(args) => Some(HuntArgs::Stress(args)),
            Self::Shrink(args) => Some(HuntArgs::Shrink(args)),
            _ => None,
        }
    }

    /// [`JudgeCommand::run`] for a problem with a game: `games` makes the games that serve
    /// `play`, `query`, `serve`, `interact` and `stress --interactive` (one for each interaction in
    /// flight).
    pub fn run_with_game<P, G>(
        &self,
        problem: &P,
        games: impl Fn() -> G + Send + Sync + 'static,
    ) -> i32
    where
        P: Packaged,
        G: Game<Input = P::Input> + Send + 'static,
    {
        match self {
            Self::Play(args) => play::run_play(games(), args),
            Self::Query(args) => play::run_query(games(), args),
            Self::Serve(args) => serve::run_serve(games(), args),
            Self::Jury(args) => jury::run_jury(problem, games(), args),
            Self::Package(args) if args.interactive => {
                let juries = Some(Juries::new(problem, games));
                package::run_package(&sandbox(), problem, args, juries)
            }
            Self::Interact(args) => {
                let juries = Juries::new(problem, games);
                interact::run_interact(&sandbox(), problem, &juries, args)
            }
            Self::Stress(StressArgs { run, .. }) | Self::Shrink(ShrinkArgs { run, .. })
                if run.interactive =>
            {
                hunt_command(&sandbox(), problem, self, Some(&Juries::new(problem, games)))
            }
            _ => self.run(problem),
        }
    }
}

/// The sandbox of a subcommand that runs programs. The process is the judge's own, with no
/// embedding program's children to leave alone, so its runs reap their orphans whatever ends
/// them ([`Sandbox::reap_orphans`]).
fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.reap_orphans();
    sandbox
}

/// `stress` or `shrink` (`command`), against `juries` when they play, its report printed
/// ([`hunt_ending`]); any other command runs as [`JudgeCommand::run`] runs it.
pub(super) fn hunt_command<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    command: &JudgeCommand,
    juries: Option<&Juries>,
) -> i32 {
    match command.hunt_args() {
        Some(args) => hunt_ending(sandbox, problem, args, juries).print(),
        None => command.run(problem),
    }
}
