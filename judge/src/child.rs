//! Running a user's program once: stdin bytes in, bounded stdout and the tail of stderr out,
//! killed at a wall time limit with its whole process group, with exit status or signal,
//! wall time, CPU time and peak memory.
//!
//! The child leads a process group of its own, so a kill reaches everything it started
//! (a shell script's children, backgrounded helpers). After the child exits the group is
//! killed again, so nothing it left behind keeps running or keeps our pipes open. The child
//! is only reaped (`wait4`) after the last signal to the group: until then its id, which is
//! the group's id, cannot be reused by an unrelated process. Between its start and its
//! reaping the child is listed with [`interrupt`], whose signal thread
//! kills every listed group when the user stops the command; on Linux the child also dies
//! with the thread that started it, should our process be killed outright.
//!
//! Pipes never deadlock: stdout and stderr are drained on their own threads while stdin is
//! written (on a thread too when it is larger than a pipe buffer surely holds), and a waiter
//! thread reports the exit. A run costs one process start plus three or four thread starts.
//! A program that exits without reading all its input makes our write fail with `EPIPE`,
//! which is ignored; this relies on SIGPIPE being ignored, as Rust binaries do by default.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::{interrupt, sys};

/// A program to run: the executable and its arguments (no shell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The executable: a path, or a name looked up in `PATH`.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl Program {
    /// A program from its command line: the executable, then its arguments.
    ///
    /// # Panics
    /// If `command` is empty.
    #[must_use]
    pub fn new<S: AsRef<OsStr>>(command: &[S]) -> Self {
        let (program, args) = command.split_first().expect("a command names its program");
        Self {
            program: program.as_ref().to_owned(),
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
        }
    }

    /// The command line, shell-quoted where needed, for messages and reproduction lines.
    #[must_use]
    pub fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|a| shell_quote(&a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `word` as a POSIX shell would need it: bare when made of safe characters, else in single
/// quotes.
#[must_use]
pub fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Limits and capture sizes of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildOptions {
    /// Wall time after which the process group is killed.
    pub time_limit: Duration,
    /// Bytes of stdout kept; a program that writes more is killed.
    pub output_limit: usize,
    /// Bytes kept from the end of stderr.
    pub stderr_tail: usize,
    /// Peak resident memory, in KiB, above which the run fails ([`Exit::MemoryLimit`]);
    /// `None` measures without a limit.
    pub memory_limit_kib: Option<u64>,
}

impl Default for ChildOptions {
    /// 2 s, 64 MiB of output, the last 4 KiB of stderr, no memory limit.
    fn default() -> Self {
        Self {
            time_limit: Duration::from_secs(2),
            output_limit: 64 << 20,
            stderr_tail: 4096,
            memory_limit_kib: None,
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The program exited by itself with this code.
    Code(i32),
    /// The program was killed by this signal (not ours).
    Signal(i32),
    /// We killed it at the time limit.
    TimeLimit,
    /// We killed it when its output passed the output limit.
    OutputLimit,
    /// Its peak resident memory passed the memory limit: we killed it, or it ended above it.
    MemoryLimit,
}

impl Exit {
    /// Whether the program exited with code 0 by itself.
    #[must_use]
    pub fn success(self) -> bool {
        self == Self::Code(0)
    }
}

/// A run's peak resident memory.
///
/// Linux starts a process's peak-memory count, across `exec`, at the peak of the process it
/// was started from, so a child of a large process reports at least that process's peak. A
/// figure above our own peak is the child's; one at or below it is only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeakMemory {
    /// The child's own peak, in KiB.
    Measured(u64),
    /// At most this many KiB (our own peak when the child was reaped).
    AtMost(u64),
}

impl PeakMemory {
    /// What `wait4` reported (`child_kib`) means, given our own peak after reaping.
    #[must_use]
    pub fn from_kib(child_kib: u64, own_kib: u64) -> Self {
        if child_kib > own_kib { Self::Measured(child_kib) } else { Self::AtMost(own_kib) }
    }

    /// The figure in KiB: the child's peak, or the bound on it.
    #[must_use]
    pub fn kib(self) -> u64 {
        match self {
            Self::Measured(kib) | Self::AtMost(kib) => kib,
        }
    }
}

/// Everything observed about one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildReport {
    /// How it ended.
    pub exit: Exit,
    /// Its stdout, at most `output_limit` bytes.
    pub stdout: Vec<u8>,
    /// The last `stderr_tail` bytes of its stderr.
    pub stderr_tail: Vec<u8>,
    /// How many bytes it wrote to stderr in all.
    pub stderr_len: usize,
    /// Wall time from spawn to exit (or to the kill).
    pub wall: Duration,
    /// User plus system CPU time of the program and of the children it waited for.
    pub cpu: Duration,
    /// Peak resident memory.
    pub memory: PeakMemory,
}

impl ChildReport {
    /// The stderr tail as text, trimmed, cut to its last `chars` characters.
    #[must_use]
    pub fn stderr_excerpt(&self, chars: usize) -> String {
        let text = String::from_utf8_lossy(&self.stderr_tail);
        let text = text.trim();
        let count = text.chars().count();
        let cut = self.stderr_len > self.stderr_tail.len() || count > chars;
        let tail: String = text.chars().skip(count.saturating_sub(chars)).collect();
        if cut { format!("...{tail}") } else { tail }
    }
}

/// Why a program could not be run (not a verdict about it: the run itself failed).
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    /// The program could not be started (not found, not executable).
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The command line.
        program: String,
        /// What the system said.
        source: io::Error,
    },
    /// Waiting for the program or signalling it failed.
    #[error("cannot wait for {program}: {source}")]
    Wait {
        /// The command line.
        program: String,
        /// What the system said.
        source: io::Error,
    },
    /// A process that left the program's process group kept its output open after the
    /// program exited.
    #[error(
        "{program} exited, but a process it started outside its process group kept its output open"
    )]
    Escaped {
        /// The command line.
        program: String,
    },
    /// A signal stopped the run (see [`interrupt`]): not a verdict.
    #[error("stopped by {}", interrupt::signal_name(*.0))]
    Interrupted(i32),
}

/// Inputs up to this size are written without a thread: a pipe holds at least one page.
const INLINE_INPUT: usize = 4096;
/// How long the output readers may take after the process group is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(2);
/// How often a run with a memory limit has its peak memory read. Faulting memory in runs at
/// a few GB a second at most, so a program overshoots the limit by at most a few tens of
/// megabytes before it is killed.
const MEMORY_POLL: Duration = Duration::from_millis(5);

/// What the helper threads of one run report.
enum Event {
    Exited(io::Result<()>),
    OutputLimit,
    Stdout(Vec<u8>),
    Stderr(StderrTail),
}

/// The end of a program's stderr, and how many bytes it wrote there in all.
struct StderrTail {
    bytes: Vec<u8>,
    total: usize,
}

/// A started program: its id (also its process group's) while it is unreaped. Dropping it
/// kills the group and reaps the leader, so an early return leaves nothing behind.
struct Started {
    pid: u32,
    reaped: bool,
}

impl Started {
    /// Kills what is left of the group, then reaps the leader: its resource usage.
    fn finish(mut self) -> io::Result<sys::Usage> {
        // Whatever the program left in its group dies now, while the zombie leader still
        // holds the group's id.
        sys::kill_group(self.pid)?;
        interrupt::untrack(self.pid);
        self.reaped = true;
        sys::reap(self.pid)
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if !self.reaped {
            let _ = sys::kill_group(self.pid);
            interrupt::untrack(self.pid);
            let _ = sys::reap(self.pid);
        }
    }
}

/// Runs `program` with `input` on stdin under `options`.
///
/// Time: the program's own plus about one process start; memory: the captured output.
///
/// # Errors
/// The program cannot be started, or waiting for it fails, or an escaped process keeps its
/// output open, or a signal stopped the run ([`ChildError::Interrupted`]). A program that
/// fails (non-zero exit, signal, time limit) is not an error: see [`ChildReport::exit`].
pub fn run_child(
    program: &Program,
    input: &[u8],
    options: &ChildOptions,
) -> Result<ChildReport, ChildError> {
    let name = || program.display();
    let wait_error = |source| ChildError::Wait { program: name(), source };
    let start = Instant::now();
    let child = sys::spawn(&program.program, &program.args)
        .map_err(|source| ChildError::Spawn { program: name(), source })?;
    let started = Started { pid: child.pid, reaped: false };
    interrupt::track(started.pid);

    let (tx, rx) = mpsc::channel();
    feed(child.stdin, input);
    let stdout = child.stdout;
    let limit = options.output_limit;
    let out_tx = tx.clone();
    thread::spawn(move || read_bounded(stdout, limit, &out_tx));
    let stderr = child.stderr;
    let tail = options.stderr_tail;
    let err_tx = tx.clone();
    thread::spawn(move || read_tail(stderr, tail, &err_tx));
    let pid = started.pid;
    thread::spawn(move || {
        let _ = tx.send(Event::Exited(sys::wait_exit(pid)));
    });

    let watched = watch(pid, start + options.time_limit, options.memory_limit_kib, &rx)
        .map_err(wait_error)?;
    let wall = start.elapsed();
    let usage = started.finish().map_err(wait_error)?;
    let own_peak = sys::own_peak_rss_kib();
    let (stdout, stderr_tail) = drain(&rx, watched.stdout, watched.stderr)
        .ok_or(ChildError::Escaped { program: name() })?;
    if let Some(signal) = interrupt::caught() {
        return Err(ChildError::Interrupted(signal));
    }
    let (exit, memory) = classify(&usage, own_peak, watched.polled_kib, watched.killed, options);
    Ok(ChildReport {
        exit,
        stdout,
        stderr_tail: stderr_tail.bytes,
        stderr_len: stderr_tail.total,
        wall,
        cpu: usage.cpu,
        memory,
    })
}

/// Writes `input` to the program's stdin and closes it: at once when a pipe surely holds it,
/// else on a thread of its own. A program that exits without reading closes the pipe: that
/// is its business, and the write's `EPIPE` is ignored.
fn feed(mut stdin: File, input: &[u8]) {
    if input.len() <= INLINE_INPUT {
        let _ = stdin.write_all(input);
    } else {
        let input = input.to_vec();
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
}

/// Reads the program's stdout, keeping at most `limit` bytes; reports the output limit as
/// soon as it is passed, then what was kept.
fn read_bounded(mut stdout: File, limit: usize, tx: &mpsc::Sender<Event>) {
    let mut kept = Vec::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) if kept.len() + n > limit => {
                kept.extend_from_slice(&buf[..limit - kept.len()]);
                let _ = tx.send(Event::OutputLimit);
                break;
            }
            Ok(n) => kept.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = tx.send(Event::Stdout(kept));
}

/// Reads the program's stderr to its end, keeping the last `tail` bytes and the count.
fn read_tail(mut stderr: File, tail: usize, tx: &mpsc::Sender<Event>) {
    let mut kept = Vec::new();
    let mut total = 0;
    let mut buf = vec![0; 1 << 14];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n;
                kept.extend_from_slice(&buf[..n]);
                // Trim only when twice the tail: amortised O(1) a byte.
                if kept.len() > 2 * tail.max(1) {
                    kept.drain(..kept.len() - tail);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if kept.len() > tail {
        kept.drain(..kept.len() - tail);
    }
    let _ = tx.send(Event::Stderr(StderrTail { bytes: kept, total }));
}

/// What [`watch`] saw until the program exited.
struct Watched {
    /// Why we killed it, if we did.
    killed: Option<Exit>,
    /// The largest peak memory the polls read (the program's own; `wait4` may only bound it).
    polled_kib: u64,
    /// Its stdout, if the reader finished first.
    stdout: Option<Vec<u8>>,
    /// Its stderr tail, if the reader finished first.
    stderr: Option<StderrTail>,
}

/// Waits for program `pid` to exit, killing its group at the `deadline`, when its output
/// passes the limit, or when its peak memory, read every [`MEMORY_POLL`], passes
/// `memory_limit_kib`.
fn watch(
    pid: u32,
    deadline: Instant,
    memory_limit_kib: Option<u64>,
    rx: &mpsc::Receiver<Event>,
) -> io::Result<Watched> {
    let mut watched = Watched { killed: None, polled_kib: 0, stdout: None, stderr: None };
    loop {
        let event = if watched.killed.is_some() {
            rx.recv().expect("the waiter thread always reports")
        } else {
            let mut wake = deadline;
            if memory_limit_kib.is_some() {
                wake = wake.min(Instant::now() + MEMORY_POLL);
            }
            match rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                    sys::kill_group(pid)?;
                    watched.killed = Some(Exit::TimeLimit);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let peak = sys::peak_rss_kib(pid).unwrap_or(0);
                    watched.polled_kib = watched.polled_kib.max(peak);
                    if memory_limit_kib.is_some_and(|limit| watched.polled_kib > limit) {
                        sys::kill_group(pid)?;
                        watched.killed = Some(Exit::MemoryLimit);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("the waiter thread holds a sender until it reports")
                }
            }
        };
        match event {
            Event::Exited(result) => {
                result?;
                return Ok(watched);
            }
            Event::OutputLimit => {
                if watched.killed.is_none() {
                    sys::kill_group(pid)?;
                    watched.killed = Some(Exit::OutputLimit);
                }
            }
            Event::Stdout(bytes) => watched.stdout = Some(bytes),
            Event::Stderr(tail) => watched.stderr = Some(tail),
        }
    }
}

/// The outputs the readers have not reported yet, waited for at most [`DRAIN_GRACE`] after
/// the group is gone: `None` when a process that left the group keeps a pipe open.
fn drain(
    rx: &mpsc::Receiver<Event>,
    mut stdout: Option<Vec<u8>>,
    mut stderr: Option<StderrTail>,
) -> Option<(Vec<u8>, StderrTail)> {
    let deadline = Instant::now() + DRAIN_GRACE;
    while stdout.is_none() || stderr.is_none() {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Event::Stdout(bytes)) => stdout = Some(bytes),
            Ok(Event::Stderr(tail)) => stderr = Some(tail),
            Ok(Event::OutputLimit | Event::Exited(_)) => {}
            Err(_) => return None,
        }
    }
    Some((stdout?, stderr?))
}

/// How the run ended and its peak memory, from the reaped status, our own peak, what the
/// polls read and why we killed it.
fn classify(
    usage: &sys::Usage,
    own_peak_kib: u64,
    polled_kib: u64,
    killed: Option<Exit>,
    options: &ChildOptions,
) -> (Exit, PeakMemory) {
    let memory = match PeakMemory::from_kib(usage.max_rss_kib, own_peak_kib) {
        PeakMemory::Measured(kib) => PeakMemory::Measured(kib.max(polled_kib)),
        // A read saw the program's own peak (it may have risen after the last read); `wait4`
        // only bounds it.
        PeakMemory::AtMost(_) if polled_kib > 0 => PeakMemory::Measured(polled_kib),
        bound @ PeakMemory::AtMost(_) => bound,
    };
    // Past the limit between two reads, or in a process the reads do not see (a child the
    // program waited for): the peak `wait4` measured.
    let over_limit = match (options.memory_limit_kib, memory) {
        (Some(limit), PeakMemory::Measured(kib)) => kib > limit,
        _ => false,
    };
    let killed = killed.or(over_limit.then_some(Exit::MemoryLimit));
    let exit = killed.unwrap_or_else(|| match (usage.status.code(), usage.status.signal()) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => unreachable!("an exited process has a code or a signal"),
    });
    (exit, memory)
}

/// How `exit` reads in a message: `exit code 3`, `signal 11 (SIGSEGV)`, `killed at the time
/// limit`, `killed: output limit exceeded`, `memory limit exceeded`.
#[must_use]
pub fn describe_exit(exit: Exit) -> String {
    match exit {
        Exit::Code(code) => format!("exit code {code}"),
        Exit::Signal(signal) => match sys::signal_name(signal) {
            Some(name) => format!("signal {signal} ({name})"),
            None => format!("signal {signal}"),
        },
        Exit::TimeLimit => "killed at the time limit".to_owned(),
        Exit::OutputLimit => "killed: output limit exceeded".to_owned(),
        Exit::MemoryLimit => "memory limit exceeded".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program::new(&["/bin/sh", "-c", script])
    }

    #[test]
    fn captures_output_status_and_stderr_tail() {
        let options = ChildOptions { stderr_tail: 8, ..ChildOptions::default() };
        let report =
            run_child(&sh("cat; echo 0123456789abcdef >&2; exit 3"), b"hello\n", &options).unwrap();
        assert_eq!(report.exit, Exit::Code(3));
        assert_eq!(report.stdout, b"hello\n");
        assert_eq!(report.stderr_tail, b"9abcdef\n");
        assert_eq!(report.stderr_len, 17);
        assert_eq!(report.stderr_excerpt(100), "...9abcdef");
        assert_eq!(describe_exit(report.exit), "exit code 3");
    }

    #[test]
    fn large_input_and_output_do_not_deadlock() {
        let input: Vec<u8> = (0..3_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let report =
            run_child(&sh("cat; cat /dev/null >&2"), &input, &ChildOptions::default()).unwrap();
        assert!(report.exit.success());
        assert_eq!(report.stdout, input);
    }

    #[test]
    fn signals_and_output_limits_are_reported() {
        let report = run_child(&sh("kill -SEGV $$"), b"", &ChildOptions::default()).unwrap();
        assert_eq!(report.exit, Exit::Signal(11));
        assert_eq!(describe_exit(report.exit), "signal 11 (SIGSEGV)");
        let options = ChildOptions { output_limit: 1000, ..ChildOptions::default() };
        let report = run_child(&sh("yes"), b"", &options).unwrap();
        assert_eq!((report.exit, report.stdout.len()), (Exit::OutputLimit, 1000));
    }

    #[test]
    fn cpu_time_and_peak_memory_are_the_childs() {
        // The shell holds 24 MB of command substitution output, then spins a little.
        let script = "x=$(head -c 24000000 /dev/zero | tr '\\0' a); i=0; \
                      while [ $i -lt 5000 ]; do i=$((i+1)); done; echo ${#x}";
        let report = run_child(&sh(script), b"", &ChildOptions::default()).unwrap();
        assert_eq!(report.stdout, b"24000000\n");
        assert!(report.cpu > Duration::from_millis(1), "{:?}", report.cpu);
        // Measured when the test process is smaller than the child, else a bound; other
        // tests running beside this one decide which.
        assert!(report.memory.kib() >= 23_000, "{:?}", report.memory);
    }

    #[test]
    fn a_run_over_the_memory_limit_is_killed_and_one_under_it_measured() {
        // The shell holds 24 MB of command substitution output, then sleeps: killed at 10 MB
        // long before the time limit; under a 1 GB limit it ends, its own peak read by the
        // polls (`wait4` may only bound it: the test process can be larger).
        let script = "x=$(head -c 24000000 /dev/zero | tr '\\0' a); sleep 5; echo ${#x}";
        let limited = |kib| ChildOptions { memory_limit_kib: Some(kib), ..ChildOptions::default() };
        let report = run_child(&sh(script), b"", &limited(10 * 1024)).unwrap();
        assert_eq!(report.exit, Exit::MemoryLimit);
        assert!(report.wall < Duration::from_secs(2), "{:?}", report.wall);
        assert!(matches!(report.memory, PeakMemory::Measured(kib) if kib > 10 * 1024));
        assert_eq!(describe_exit(report.exit), "memory limit exceeded");
        // A pause after the peak, so that a read sees all of it before the shell exits.
        let quick = "x=$(head -c 24000000 /dev/zero | tr '\\0' a); sleep 0.1; echo ${#x}";
        let report = run_child(&sh(quick), b"", &limited(1 << 20)).unwrap();
        assert_eq!((report.exit, report.stdout.as_slice()), (Exit::Code(0), &b"24000000\n"[..]));
        assert!(matches!(report.memory, PeakMemory::Measured(kib) if kib >= 23_000));
    }

    #[test]
    fn a_peak_below_our_own_is_only_a_bound() {
        assert_eq!(PeakMemory::from_kib(5000, 4000), PeakMemory::Measured(5000));
        assert_eq!(PeakMemory::from_kib(4000, 4000), PeakMemory::AtMost(4000));
        assert_eq!(PeakMemory::from_kib(100, 4000), PeakMemory::AtMost(4000));
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_verdict() {
        let err = run_child(&Program::new(&["/no/such/program"]), b"", &ChildOptions::default());
        assert!(matches!(err, Err(ChildError::Spawn { .. })), "{err:?}");
    }

    #[test]
    fn quoting_for_reproduction_lines() {
        let p = Program::new(&["./sol", "a b", "it's", "--x=1"]);
        assert_eq!(p.display(), r"./sol 'a b' 'it'\''s' --x=1");
    }
}
