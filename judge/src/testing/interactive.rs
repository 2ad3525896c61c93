//! What the interactive tests share: a player program ([`PLAYER`], Python 3) that plays any
//! problem's game perfectly (the problem's tests tell it how a game opens) but where a planted
//! rule makes it play its worst move, and a
//! server of `PROBLEM query`'s JSON lines ([`QueryServer`]) that answers its queries in the
//! test's own process, so that a player's run builds no table of its own (card-duel's
//! tablebase would cost a quarter of a second a run).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use games::Game;
use games::query::{Answerer, error_line};

/// The player (`player.py PROBLEM ORACLE [BUG]`; its notes say how to use it).
pub const PLAYER: &str = include_str!("player.py");

/// Answers `PROBLEM query`'s JSON lines on a Unix socket with one game of this process, one
/// thread a connection; stops, and removes its socket, when dropped.
pub struct QueryServer {
    path: PathBuf,
    stop: Arc<AtomicBool>,
    listener: Option<JoinHandle<()>>,
}

impl QueryServer {
    /// Serves `game` on the socket `dir/query.sock`.
    ///
    /// # Panics
    /// When the socket cannot be made.
    pub fn start<G: Game + Send + 'static>(game: G, dir: &Path) -> Self {
        let path = dir.join("query.sock");
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path).expect("the socket can be made");
        let stop = Arc::new(AtomicBool::new(false));
        let game = Arc::new(Mutex::new(Answerer::new(game)));
        let stopping = Arc::clone(&stop);
        let listener = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let game = Arc::clone(&game);
                std::thread::spawn(move || serve(&stream, &game));
            }
        });
        Self { path, stop, listener: Some(listener) }
    }

    /// The player's ORACLE argument: `unix:PATH`.
    #[must_use]
    pub fn address(&self) -> String {
        format!("unix:{}", self.path.display())
    }
}

/// Answers the queries of one connection until it closes.
fn serve<G: Game>(stream: &UnixStream, game: &Mutex<Answerer<G>>) {
    let mut out = stream;
    for line in BufReader::new(stream).lines() {
        let Ok(line) = line else { return };
        let mut game = game.lock().unwrap_or_else(PoisonError::into_inner);
        let json = game.respond(&line).unwrap_or_else(|e| error_line(&e));
        drop(game);
        if writeln!(out, "{json}").is_err() {
            return;
        }
    }
}

impl Drop for QueryServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the listener, which sees the flag.
        let _ = UnixStream::connect(&self.path);
        if let Some(listener) = self.listener.take() {
            let _ = listener.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The Python 3 interpreter itself, not a launcher such as pyenv's shim (a shell script
/// that triples a start): a player is started once a run. Run it with `-S`.
///
/// # Panics
/// When there is no `python3`.
#[must_use]
pub fn python() -> String {
    let asked = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&asked.stdout).trim().to_owned()
}

/// What `stress --interactive` found with a planted bug: its report, the shrunk input and
/// the transcript saved beside it.
#[derive(Clone, Debug)]
pub struct Planted {
    /// The report.
    pub report: String,
    /// The shrunk input, as saved.
    pub input: String,
    /// Its transcript, as saved.
    pub transcript: String,
}

/// Writes the player's INTRO file (`intro`, Python source defining `intro(read)`: the
/// problem's game opening, see [`PLAYER`]) into `dir`; returns its path.
fn intro_file(dir: &Path, intro: &str) -> String {
    let path = dir.join("intro.py");
    std::fs::write(&path, intro).expect("the folder is writable");
    path.display().to_string()
}

/// Runs `binary stress --interactive` (seed 1, two jobs, `extra` arguments) on [`PLAYER`]
/// reading each game's opening with `intro` (Python source defining `intro(read)`) and
/// asking `server`, with `bug` (Python source defining `bug(a)`) planted, in `dir`; checks
/// that it reports a confirmed failure shrunk to a 1-minimal input, with its transcript, and
/// that its `run it again` line, run as printed, fails so again.
///
/// # Panics
/// When it does not.
pub fn stress_planted(
    binary: &str,
    intro: &str,
    dir: &Path,
    server: &QueryServer,
    bug: &str,
    extra: &[&str],
) -> Planted {
    let player = dir.join("player.py");
    let rule = dir.join("bug.py");
    std::fs::write(&player, PLAYER).expect("the folder is writable");
    std::fs::write(&rule, bug).expect("the folder is writable");
    let save = dir.join("planted.in");
    let (player, rule, save) =
        (player.display().to_string(), rule.display().to_string(), save.display().to_string());
    let (address, python, intro) = (server.address(), python(), intro_file(dir, intro));
    let mut args = vec!["stress", "--interactive", "--seed", "1", "-j", "2", "--save", &save];
    args.extend(extra);
    args.extend(["--", &python, "-S", &player, &intro, &address, &rule]);
    let ran = std::process::Command::new(binary).args(&args).output().expect("the binary runs");
    let report = String::from_utf8_lossy(&ran.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(1), "{report}{stderr}");
    for expected in ["confirmed", "1-minimal", "the shrunk input failed again in 2 of 2"] {
        assert!(report.contains(expected), "no {expected:?} in the report:\n{report}");
    }
    super::assert_runs_again(binary, dir, &report);
    let read = |path: &str| std::fs::read_to_string(path).expect("the report saved it");
    let input = read(&save);
    let transcript = read(&save.replace(".in", ".transcript"));
    Planted { report, input, transcript }
}

/// Runs `binary interact` on the sample with `command`, in `dir`; its exit code, stdout and
/// what it saved at `--save` (empty when nothing).
fn interact(binary: &str, dir: &Path, flags: &[&str], command: &[&str]) -> (i32, String, String) {
    let save = dir.join(format!("transcript-{}.txt", command.len() + flags.len()));
    let _ = std::fs::remove_file(&save);
    let save_text = save.display().to_string();
    let mut args = vec!["interact", "--save", &save_text];
    args.extend(flags);
    args.push("--");
    args.extend(command);
    let ran = std::process::Command::new(binary).args(&args).output().expect("the binary runs");
    let out = String::from_utf8_lossy(&ran.stdout).into_owned();
    let err = String::from_utf8_lossy(&ran.stderr);
    assert!(err.is_empty(), "{args:?}: stderr {err}");
    let saved = std::fs::read_to_string(&save).unwrap_or_default();
    (ran.status.code().expect("it exits"), out, saved)
}

/// What `binary interact` says of the sample's games: the perfect [`PLAYER`] (reading each
/// game's opening with `intro`, asking `server`) passes; a line that is no move is a presentation error with
/// the transcript; a program that crashes after its first line a runtime error, one that
/// exits at once a protocol error, one that never writes a time limit, each again when its
/// report's `run it again` line is run as printed; nothing is left running.
///
/// # Panics
/// When it says otherwise.
pub fn check_interact(binary: &str, intro: &str, dir: &Path, server: &QueryServer) {
    let player = dir.join("perfect.py");
    std::fs::write(&player, PLAYER).expect("the folder is writable");
    let (player, address, python) = (player.display().to_string(), server.address(), python());
    let intro = intro_file(dir, intro);
    let (code, out, saved) =
        interact(binary, dir, &[], &[&python, "-S", &player, &intro, &address]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ok: the sample: ") && out.contains("played as they must be"), "{out}");
    assert!(saved.is_empty(), "a pass saves nothing: {saved}");
    // A marker in each command line, to find what might be left running.
    let marker = format!("interact-check-{}", std::process::id());
    let sh =
        |script: &str| vec!["/bin/sh".to_owned(), "-c".to_owned(), format!("{script} # {marker}")];
    let cases = [
        (
            sh("while read line; do echo nonsense; done"),
            "presentation error: game 1, move 1: malformed move \"nonsense\"",
        ),
        (sh("read line; exit 3"), "runtime error: exit code 3"),
        (sh("exit 0"), "presentation error: protocol error: the program's output ended in game 1"),
        (sh("sleep 30"), "time limit exceeded: killed at the wall-clock backstop"),
    ];
    for (command, verdict) in cases {
        let command: Vec<&str> = command.iter().map(String::as_str).collect();
        let (code, out, saved) = interact(binary, dir, &["--time-limit", "0.2s"], &command);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(&format!("\n{verdict}")), "expected {verdict:?}:\n{out}");
        assert!(out.contains("transcript (> the jury's lines, < the program's"), "{out}");
        assert!(saved.starts_with("> "), "the transcript is saved whole: {saved:?}");
        super::assert_runs_again(binary, dir, &out);
    }
    assert_eq!(crate::testing::processes_mentioning(&marker), Vec::<u32>::new(), "left running");
}
