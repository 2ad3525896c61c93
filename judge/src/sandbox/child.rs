//! Running a user's program once, as a judge runs it: the input as a regular file on stdin,
//! bounded stdout and the tail of stderr out, under a CPU-time limit with a wall-clock backstop and a memory limit,
//! in a fresh folder of its own, with its exit status or signal, CPU and wall time and peak
//! memory.
//!
//! **Time.** The limit is on CPU time (user plus system) of the program and everything it
//! starts, as isolate and DOMjudge judge: a busy machine slows a program's wall clock, not its
//! CPU time, so the verdict does not depend on what else runs. CPU time is read every
//! [`POLL`] (the run's cgroup's `cpu.stat`, else the program's `/proc/PID/stat` with the
//! children it waited for) and the run is killed once it passes the limit; a run that ends
//! above it is a time limit too. Each process also gets `RLIMIT_CPU` a second above the limit,
//! a backstop should the polls be late. A program that sleeps or waits uses no CPU: the wall
//! clock ends it at [`wall_backstop`] of the limit, twice the limit plus a second, as CMS sets
//! its wall-clock limit. The backstop leaves out the time the program waited for a core, every
//! process and thread of it (and in a dialogue, the time the other side took and our threads
//! that carry its lines waited: `Waits`), so a busy machine does not bring it closer: it ends
//! programs that sleep or wait, not slow ones. In a dialogue where both sides were waiting it
//! is called idleness ([`Exit::Idle`]).
//!
//! **Memory.** The peak resident memory of the program is read every [`POLL`] (its `VmHWM`,
//! and the resident memory of every process of its cgroup together) and the run is killed
//! once it passes the limit; `wait4`'s figure, when it is the program's own, counts too. The
//! stack may grow to the memory limit (`RLIMIT_STACK`), as CMS and IOI give it. A file the
//! program writes may not grow past the memory limit either (`RLIMIT_FSIZE`: its folder may
//! be in memory).
//!
//! **Isolation.** Each run starts in a new empty folder (under `/dev/shm` where it can, else
//! the system's temporary folder), with `TMPDIR` naming it, removed with everything in it
//! after the run; so runs in parallel never share a folder, and the user's folder is never
//! written. The program and any argument that names an existing file of the current folder
//! (`./sol`, `sol.py`) are given to it as absolute paths, so they still name it; a folder the
//! program needs (`java -cp DIR`) must be given as an absolute path.
//!
//! **Environment.** The program gets a clean one (`ENVIRONMENT`), not the judge's: `PATH`
//! and `HOME` as the judge has them (where programs and the user's files are), `LANG=C.UTF-8`
//! and `TMPDIR`, and nothing else. A variable of the judge's that changes how a program
//! behaves would otherwise change its verdict between the user's machine and a contest's
//! judge (`PYTHONUNBUFFERED` hides a Python program's missing flush, `LD_PRELOAD`,
//! `MALLOC_*`, `OMP_NUM_THREADS` and the locale change what it does). A program that needs one
//! is run through `env` (`env ASAN_OPTIONS=detect_leaks=0 ./sol`), which its command line,
//! and so every reproduction line, then shows.
//!
//! **Nothing escapes.** The program leads a session and a process group of its own, and on
//! Linux, where a cgroup can be had (module `cgroup`), a cgroup of its own, which nothing it
//! starts can leave, even by `setsid` or a double fork. When the program exits (or is
//! killed) the group and the cgroup are killed, so nothing it left behind keeps running or
//! keeps our pipes open; without a cgroup, the judge adopts orphaned descendants as a
//! subreaper and ends those of the run (module `reaper`). The program is reaped (`wait4`)
//! only after the last signal to its group: until then its id, which is the group's id,
//! cannot be reused by an unrelated process. Between its start and its reaping the program is
//! in the registry of running programs, whose signal thread kills its sandbox's groups and
//! cgroups when the user stops the command (module `interrupt`); on Linux the program also
//! dies with the thread that started it, should our process be killed outright.
//!
//! **Input.** The input is a regular file open for reading on the program's stdin, as every
//! contest judge gives it (isolate and CMS, DOMjudge, Kattis, Codeforces): `fstat` gives its
//! size, and reading it whole by its size, `mmap` and `lseek` work. It is written in the
//! run's folder and unlinked before the program starts, so nothing of it is left behind.
//! In a dialogue ([`Sandbox::interact`]) stdin is a pipe instead, written by the other side
//! line by line, and stdout is handed to it line by line (module `dialogue`); everything
//! else about the run is the same.
//!
//! Pipes never deadlock: stdout and stderr are drained on their own threads (in a dialogue a
//! writer thread feeds stdin), and a waiter thread reports the exit. A run costs one process
//! start, a folder and an input file made and removed, and three thread starts (four in a
//! dialogue).

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use super::cgroup::RunCgroup;
use super::dialogue::{Dialogue, Talk};
use super::{Sandbox, reaper, sys};

/// A program to run: the command line as given, and the executable and arguments prepared to
/// start from any folder. Clones share what was resolved when it was made.
#[derive(Clone, Debug)]
pub struct Program {
    /// The command line as given: the executable, then its arguments.
    command: Vec<OsString>,
    /// The resolved executable and arguments, or why the executable cannot be found.
    prepared: Result<sys::Prepared, String>,
    /// Whether the executable is an AddressSanitizer build, once asked.
    address_sanitized: Arc<OnceLock<bool>>,
    /// What messages call it when not its command line: a source file the judge built
    /// (`train.cpp`), and the shell line that builds and runs it (see [`Program::shown_as`]).
    shown: Option<(String, String)>,
}

impl PartialEq for Program {
    fn eq(&self, other: &Self) -> bool {
        self.command == other.command
    }
}

impl Eq for Program {}

impl Program {
    /// A program from its command line: the executable (a path, or a name looked up in
    /// `PATH`), then its arguments. The executable, and every argument that names an existing
    /// file relative to the current folder, are resolved to absolute paths now, since the
    /// program runs in a folder of its own.
    ///
    /// # Panics
    /// If `command` is empty.
    #[must_use]
    pub fn new<S: AsRef<OsStr>>(command: &[S]) -> Self {
        let command: Vec<OsString> = command.iter().map(|a| a.as_ref().to_owned()).collect();
        let (program, args) = command.split_first().expect("a command names its program");
        let prepared = resolve(program).and_then(|path| {
            let args: Vec<OsString> = args.iter().map(|a| absolute_if_file(a)).collect();
            let argv: Vec<&OsStr> = std::iter::once(path.as_os_str())
                .chain(args.iter().map(OsString::as_os_str))
                .collect();
            sys::Prepared::new(&path, &argv, &environment()).map_err(|e| e.to_string())
        });
        Self { command, prepared, address_sanitized: Arc::default(), shown: None }
    }

    /// The same program, called `display` in messages (a source file the judge built into
    /// it: `train.cpp`), and run again from a shell by `run_line` (`g++ -O2 -o train
    /// train.cpp && ./train`), to which a report appends its `< INPUT`.
    #[must_use]
    pub fn shown_as(self, display: String, run_line: String) -> Self {
        Self { shown: Some((display, run_line)), ..self }
    }

    /// The shell line that runs it again: its [`display`](Self::display), or for a source
    /// the judge built, the line that builds it and runs the result.
    #[must_use]
    pub fn run_line(&self) -> String {
        self.shown.as_ref().map_or_else(|| self.display(), |(_, line)| line.clone())
    }

    /// Whether the executable is built with AddressSanitizer (it holds the runtime's entry
    /// point, `__asan_init`, or links its library), whose quarantine alone may hold 256 MB:
    /// a memory limit for such a build is no limit for the program. Read once.
    #[must_use]
    pub(crate) fn address_sanitized(&self) -> bool {
        *self.address_sanitized.get_or_init(|| {
            let Ok(prepared) = &self.prepared else { return false };
            let Ok(bytes) = std::fs::read(prepared.path()) else { return false };
            [&b"__asan_init"[..], b"libasan.so"]
                .iter()
                .any(|mark| bytes.windows(mark.len()).any(|w| w == *mark))
        })
    }

    /// The command line as given.
    #[must_use]
    pub fn command(&self) -> &[OsString] {
        &self.command
    }

    /// The command line, shell-quoted where needed, for messages and reproduction lines (or
    /// the source file it was built from, see [`shown_as`](Self::shown_as)).
    #[must_use]
    pub fn display(&self) -> String {
        if let Some((display, _)) = &self.shown {
            return display.clone();
        }
        let words: Vec<String> =
            self.command.iter().map(|a| crate::text::shell_quote(&a.to_string_lossy())).collect();
        words.join(" ")
    }
}

/// The variables of the judge's environment that a program gets as they are (module notes:
/// Environment).
const PASSED: [&str; 2] = ["PATH", "HOME"];

/// The variables a program gets whatever the judge's environment holds (`TMPDIR` aside,
/// which each run sets to its folder).
const ENVIRONMENT: [(&str, &str); 1] = [("LANG", "C.UTF-8")];

/// A program's environment but for `TMPDIR` (module notes: Environment), as `NAME=VALUE`.
fn environment() -> Vec<OsString> {
    let passed = PASSED.iter().filter_map(|&name| {
        let value = std::env::var_os(name)?;
        Some([OsStr::new(name), OsStr::new("="), &value].into_iter().collect())
    });
    let set = ENVIRONMENT.iter().map(|(name, value)| OsString::from(format!("{name}={value}")));
    passed.chain(set).collect()
}

/// Where `program` is, as an absolute path: itself (joined to the current folder) when it
/// holds a `/`, else the first executable file of that name in a folder of `PATH`, as
/// `execvp` looks (glibc's default `PATH` when none is set).
fn resolve(program: &OsStr) -> Result<PathBuf, String> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    if program.as_bytes().contains(&b'/') {
        return std::path::absolute(program).map_err(|e| e.to_string());
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|file| {
            file.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .and_then(|file| std::path::absolute(file).ok())
        .ok_or_else(|| "not found in PATH".to_owned())
}

/// `arg` as an absolute path when it names an existing file (not a folder: a word such as
/// `hero-battle` may also be a folder's name) relative to the current folder; else `arg`.
fn absolute_if_file(arg: &OsStr) -> OsString {
    let path = Path::new(arg);
    match path.is_relative().then(|| std::path::absolute(path)) {
        Some(Ok(absolute)) if path.is_file() => absolute.into_os_string(),
        _ => arg.to_owned(),
    }
}

/// The wall-clock backstop of a run whose CPU-time limit is `cpu`: twice the limit plus one
/// second, as CMS sets it, not counting the time the run waited for a core (module notes).
/// It ends a program that sleeps or waits, and leaves a CPU-bound one on a busy machine the
/// time to reach its CPU limit first.
#[must_use]
pub(crate) fn wall_backstop(cpu: Duration) -> Duration {
    cpu.saturating_mul(2).saturating_add(Duration::from_secs(1))
}

/// Limits and capture sizes of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildOptions {
    /// CPU time (user plus system) of the program and everything it starts, above which the
    /// run is a time limit (the module notes say how it is measured).
    pub time_limit: Duration,
    /// Wall time after which the run is killed whatever its CPU time (by default twice the
    /// time limit plus a second, see the module notes).
    pub wall_limit: Duration,
    /// Bytes of stdout kept; a program that writes more is killed.
    pub output_limit: usize,
    /// Bytes kept from the start of stderr, and as many from its end.
    pub stderr_tail: usize,
    /// Peak resident memory, in KiB, above which the run fails ([`Exit::MemoryLimit`]), and
    /// the stack limit; `None` measures without a limit and leaves the stack unlimited.
    pub memory_limit_kib: Option<u64>,
    /// Whether the run gets a cgroup of its own where one can be had (the default); without,
    /// it runs as on a machine that has none: its process group, and the subreaper on Linux.
    pub cgroup: bool,
}

impl ChildOptions {
    /// A CPU-time limit with its wall-clock backstop, and a memory limit (also the stack's);
    /// 64 MiB of output and the last 4 KiB of stderr kept.
    #[must_use]
    pub fn new(time_limit: Duration, memory_limit_kib: Option<u64>) -> Self {
        Self {
            time_limit,
            wall_limit: wall_backstop(time_limit),
            output_limit: 64 << 20,
            stderr_tail: 4096,
            memory_limit_kib,
            cgroup: true,
        }
    }
}

impl Default for ChildOptions {
    /// 2 s of CPU time (5 s of wall time), no memory limit.
    fn default() -> Self {
        Self::new(Duration::from_secs(2), None)
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The program exited by itself with this code.
    Code(i32),
    /// The program was killed by this signal (not ours, and not its CPU-time limit's).
    Signal(i32),
    /// Its CPU time passed the time limit: we killed it, or it ended above it.
    TimeLimit,
    /// We killed it at the wall-clock backstop, its CPU time still under the limit: it slept
    /// or waited (the backstop leaves out the time it waited for a core).
    WallTimeLimit,
    /// We killed it at the wall-clock backstop of a dialogue in which both sides waited: the
    /// other side for its line, the program, using no CPU for a second (`IDLE`) or more, for
    /// input (an answer it never flushed, say). Codeforces calls this the idleness limit.
    Idle,
    /// We killed it when its output passed the output limit.
    OutputLimit,
    /// Its peak resident memory passed the memory limit: we killed it, or it ended above it.
    MemoryLimit,
    /// We ended it because its dialogue stopped the run with a verdict of its own; how it
    /// would have ended is not known.
    Stopped,
}

/// How an exit reads in a message: `exit code 3`, `signal 11 (SIGSEGV)`, `CPU time limit
/// exceeded`, `killed at the wall-clock backstop`, `killed: output limit exceeded`, `memory
/// limit exceeded`.
impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Code(code) => write!(f, "exit code {code}"),
            Self::Signal(signal) => match sys::signal_name(signal) {
                Some(name) => write!(f, "signal {signal} ({name})"),
                None => write!(f, "signal {signal}"),
            },
            Self::TimeLimit => f.write_str("CPU time limit exceeded"),
            Self::WallTimeLimit => f.write_str("killed at the wall-clock backstop"),
            Self::Idle => f.write_str("killed idle: both sides of the dialogue were waiting"),
            Self::OutputLimit => f.write_str("killed: output limit exceeded"),
            Self::MemoryLimit => f.write_str("memory limit exceeded"),
            Self::Stopped => f.write_str("ended by the judge when the dialogue ended"),
        }
    }
}

/// A signal's usual name (`SIGINT`), or `signal N`: how a caught signal reads in a message.
#[must_use]
pub(crate) fn signal(signal: i32) -> String {
    sys::signal_name(signal).map_or_else(|| format!("signal {signal}"), str::to_owned)
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
    pub(crate) fn from_kib(child_kib: u64, own_kib: u64) -> Self {
        if child_kib > own_kib { Self::Measured(child_kib) } else { Self::AtMost(own_kib) }
    }

    /// The figure in KiB: the child's peak, or the bound on it.
    #[must_use]
    pub(crate) fn kib(self) -> u64 {
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
    /// The first `stderr_tail` bytes of its stderr (where a sanitizer's report starts).
    pub stderr_head: Vec<u8>,
    /// The last `stderr_tail` bytes of its stderr.
    pub stderr_tail: Vec<u8>,
    /// How many bytes it wrote to stderr in all.
    pub stderr_len: usize,
    /// Wall time from spawn to exit (or to the kill); in a dialogue, less the time the other
    /// side took to answer.
    pub wall: Duration,
    /// CPU time (user plus system) of the program and everything it started (with a cgroup),
    /// or of the program and the children it waited for (without one).
    pub cpu: Duration,
    /// Peak resident memory.
    pub memory: PeakMemory,
}

impl ChildReport {
    /// What stderr says in a line, cut to `chars` characters: a sanitizer's own headline
    /// (`==7==ERROR: AddressSanitizer: heap-buffer-overflow on ...`, UBSan's `runtime error:`)
    /// wherever it stands, else the end of stderr, trimmed.
    #[must_use]
    pub(crate) fn stderr_excerpt(&self, chars: usize) -> String {
        if let Some(line) = self.sanitizer_headline() {
            let count = line.chars().count();
            return if count > chars {
                format!("{}...", line.chars().take(chars).collect::<String>())
            } else {
                line
            };
        }
        let text = String::from_utf8_lossy(&self.stderr_tail);
        let text = text.trim();
        let count = text.chars().count();
        let cut = self.stderr_len > self.stderr_tail.len() || count > chars;
        let tail: String = text.chars().skip(count.saturating_sub(chars)).collect();
        if cut { format!("...{tail}") } else { tail }
    }
}

impl ChildReport {
    /// The first line of stderr in which a sanitizer reports (AddressSanitizer, LeakSanitizer,
    /// ThreadSanitizer, MemorySanitizer, UndefinedBehaviorSanitizer), trimmed.
    #[must_use]
    pub(crate) fn sanitizer_headline(&self) -> Option<String> {
        const MARKS: [&str; 6] = [
            "ERROR: AddressSanitizer",
            "ERROR: LeakSanitizer",
            "WARNING: ThreadSanitizer",
            "ERROR: ThreadSanitizer",
            "WARNING: MemorySanitizer",
            ": runtime error: ",
        ];
        [&self.stderr_head, &self.stderr_tail].into_iter().find_map(|bytes| {
            String::from_utf8_lossy(bytes)
                .lines()
                .find(|line| MARKS.iter().any(|mark| line.contains(mark)))
                .map(|line| line.trim().to_owned())
        })
    }

    /// All of stderr that was kept: the whole when it was short, else its start, a line
    /// saying how much was not kept, and its end.
    #[must_use]
    pub fn stderr_kept(&self) -> Vec<u8> {
        let (head, tail) = (&self.stderr_head, &self.stderr_tail);
        let overlap = (head.len() + tail.len()).saturating_sub(self.stderr_len);
        if overlap > 0 || head.is_empty() {
            return [&head[..], &tail[overlap.min(tail.len())..]].concat();
        }
        let dropped = self.stderr_len - head.len() - tail.len();
        let mut kept = head.clone();
        if !kept.ends_with(b"\n") {
            kept.push(b'\n');
        }
        kept.extend_from_slice(format!("[... {dropped} bytes not kept ...]\n").as_bytes());
        kept.extend_from_slice(tail);
        kept
    }
}

/// Why a program could not be run (not a verdict about it: the run itself failed).
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    /// The program could not be started (not found, not executable), or its folder or cgroup
    /// could not be made.
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
    /// A process the program started kept its output open after the program exited and
    /// could not be ended (possible only without a cgroup).
    #[error(
        "{program} exited, but a process it started kept its output open and escaped the judge"
    )]
    Escaped {
        /// The command line.
        program: String,
    },
    /// A signal stopped the run ([`Sandbox::catch_signals`]): not a verdict.
    #[error("stopped by {}", signal(*.0))]
    Interrupted(i32),
}

/// How long the output readers may take after the process group is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(2);
/// How often a running program's CPU time and peak memory are read. Faulting memory in runs
/// at a few GB a second at most, so a program overshoots the memory limit by at most a few
/// tens of megabytes, and the time limit by a few milliseconds, before it is killed.
pub(crate) const POLL: Duration = Duration::from_millis(5);

/// What the helper threads of one run report.
enum Event {
    Exited(io::Result<()>),
    OutputLimit,
    /// A line of stdout, in a dialogue.
    Line(Vec<u8>),
    /// The end of stdout, in a dialogue: after its last whole line, before
    /// [`Event::Stdout`], with the bytes written after that line's `\n` (a last line
    /// without one; empty when there are none, or the output limit cut them).
    Closed(Vec<u8>),
    Stdout(Vec<u8>),
    Stderr(StderrTail),
}

/// What the program reads on stdin.
pub(super) enum Stdin<'a> {
    /// This input, as a regular file.
    File(&'a [u8]),
    /// The lines of a dialogue, on a pipe (module `dialogue`).
    Dialogue(&'a mut dyn Dialogue),
}

/// The end of a program's stderr, and how many bytes it wrote there in all.
struct StderrTail {
    head: Vec<u8>,
    bytes: Vec<u8>,
    total: usize,
}

/// A started program: its id (also its process group's) while it is unreaped, its cgroup or
/// (without one) its folder, which marks its orphans for the sweep. Dropping it kills the
/// group and the cgroup and reaps the leader, so an early return leaves nothing behind.
struct Started<'a> {
    sandbox: &'a Sandbox,
    pid: u32,
    cgroup: Option<RunCgroup>,
    /// Whether the process adopts the run's orphans, to end and reap them (module `reaper`).
    adopts: bool,
    /// The run's folder, for the sweep (module `reaper`).
    folder: &'a Path,
    reaped: bool,
}

impl Started<'_> {
    /// Kills what is left of the group and the cgroup (without a cgroup, adopted orphans too),
    /// then reaps the leader: its resource usage, and the CPU time of the run (with a cgroup,
    /// of everything that ran in it; else the leader's with the children it waited for).
    fn finish(mut self) -> io::Result<(sys::Usage, Duration)> {
        self.end_all()?;
        let cgroup_cpu = self.cgroup.as_ref().and_then(RunCgroup::cpu);
        self.reaped = true;
        let usage = self.reap()?;
        Ok((usage, cgroup_cpu.unwrap_or(usage.cpu).max(usage.cpu)))
    }

    /// Reaps the leader, then unregisters it.
    fn reap(&self) -> io::Result<sys::Usage> {
        let usage = sys::reap(self.pid);
        self.sandbox.unregister(self.pid);
        usage
    }

    /// Whatever the program left in its group or cgroup dies now, while the zombie leader
    /// still holds the group's id. Marked as ending first, so that a sweep ends the orphans of
    /// its session; with a cgroup, the sweep after it only reaps them.
    fn end_all(&self) -> io::Result<()> {
        sys::kill_group(self.pid)?;
        self.sandbox.ending(self.pid);
        if let Some(cgroup) = &self.cgroup {
            cgroup.end()?;
        }
        if self.adopts {
            reaper::sweep(self.sandbox, self.folder);
        }
        Ok(())
    }

    /// The CPU time of the run so far: its cgroup's, else the leader's with the children it
    /// waited for.
    fn cpu(&self) -> Duration {
        let cpu = match &self.cgroup {
            Some(cgroup) => cgroup.cpu(),
            None => sys::process_cpu(self.pid),
        };
        cpu.unwrap_or_default()
    }

    /// The threads of every process of the run now: those in its cgroup, else those of its
    /// session (a process that left the session by `setsid` is not counted; a sweep ends it
    /// with the run). Without a cgroup this reads `/proc/*/stat`, about a millisecond.
    fn tasks(&self) -> Vec<u32> {
        match &self.cgroup {
            Some(cgroup) => cgroup.threads(),
            None => sys::processes()
                .into_iter()
                .filter(|&pid| sys::parent_and_session(pid).is_some_and(|(_, s)| s == self.pid))
                .flat_map(sys::threads)
                .collect(),
        }
    }

    /// The program's peak resident memory so far in KiB: its own `VmHWM`, or the resident
    /// memory of every process of its cgroup together, whichever is larger.
    fn memory_kib(&self) -> u64 {
        let own = sys::rss_kib(self.pid).map_or(0, |(peak, _)| peak);
        let tree = self.cgroup.as_ref().map_or(0, |cgroup| {
            let pids = cgroup.pids();
            if pids.len() > 1 {
                pids.iter().filter_map(|&p| sys::rss_kib(p)).map(|m| m.1).sum()
            } else {
                0
            }
        });
        own.max(tree)
    }
}

impl Drop for Started<'_> {
    fn drop(&mut self) {
        if !self.reaped {
            let _ = self.end_all();
            let _ = self.reap();
        }
    }
}

/// Runs `program` with `input` on stdin under `options`, in a folder of its own: see
/// [`Sandbox::run`].
pub(super) fn run(
    sandbox: &Sandbox,
    program: &Program,
    input: Stdin<'_>,
    options: &ChildOptions,
) -> Result<ChildReport, ChildError> {
    let name = || program.display();
    let spawn_error = |source| ChildError::Spawn { program: name(), source };
    let wait_error = |source| ChildError::Wait { program: name(), source };
    let prepared = program
        .prepared
        .as_ref()
        .map_err(|reason| spawn_error(io::Error::new(io::ErrorKind::NotFound, reason.clone())))?;
    let dir = sandbox.run_folder().map_err(spawn_error)?;
    let cgroup = match (&sandbox.shared.cgroups, options.cgroup) {
        (Some(base), true) => Some(
            RunCgroup::create(base, || sandbox.shared.next.fetch_add(1, Ordering::Relaxed))
                .map_err(spawn_error)?,
        ),
        _ => None,
    };
    // Declared before `started`, so that it is dropped after the run's end and sweep.
    let adopting = sandbox
        .adopts(cgroup.is_some())
        .then(reaper::Adopting::start)
        .transpose()
        .map_err(spawn_error)?;
    // The dialogue opens before the program starts, so its first answer costs the program
    // no wall time.
    let (stdin, mut talk, stop_at_once) = match input {
        Stdin::File(input) => (input_file(dir.path(), input).map_err(spawn_error)?, None, false),
        Stdin::Dialogue(dialogue) => {
            let (reading, writing) = io::pipe().map_err(spawn_error)?;
            let (talk, stop) = Talk::open(dialogue, File::from(OwnedFd::from(writing)));
            (File::from(OwnedFd::from(reading)), Some(talk), stop)
        }
    };
    let lines = talk.is_some();
    let launch = sys::Launch {
        stdin: &stdin,
        dir: dir.path(),
        cgroup_procs: cgroup.as_ref().map(RunCgroup::procs),
        stack_bytes: options.memory_limit_kib.map(|kib| kib.saturating_mul(1024)),
        cpu_seconds: options.time_limit.as_secs() + 1,
        file_bytes: options.memory_limit_kib.map(|kib| kib.saturating_mul(1024)),
    };
    let start = Instant::now();
    let (child, started) = {
        // A sweep must not take a program just started for an orphan (see `RUNNING`).
        let mut running = super::running();
        let child = sys::spawn(prepared, &launch).map_err(spawn_error)?;
        sandbox.register(&mut running, child.pid, cgroup.as_ref().map(RunCgroup::kill_file));
        let pid = child.pid;
        let adopts = adopting.is_some();
        (child, Started { sandbox, pid, cgroup, adopts, folder: dir.path(), reaped: false })
    };

    drop(stdin);
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout;
    let limit = options.output_limit;
    let out_tx = tx.clone();
    let reader_id = Arc::new(AtomicI64::new(0));
    let id = Arc::clone(&reader_id);
    thread::spawn(move || {
        id.store(sys::thread_id(), Ordering::Relaxed);
        read_bounded(stdout, limit, lines, &out_tx);
    });
    let stderr = child.stderr;
    let tail = options.stderr_tail;
    let err_tx = tx.clone();
    thread::spawn(move || read_tail(stderr, tail, &err_tx));
    let pid = started.pid;
    thread::spawn(move || {
        let _ = tx.send(Event::Exited(sys::wait_exit(pid)));
    });

    let mut waits = Waits::new();
    if let Some(talk) = &talk {
        waits.ours(vec![reader_id, Arc::clone(&talk.writer_id)]);
    }
    let mut watched = watch(&started, start, options, &rx, talk.as_mut(), stop_at_once, &mut waits)
        .map_err(wait_error)?;
    let thinking = talk.as_ref().map_or(Duration::ZERO, |talk| talk.thinking);
    let wall = start.elapsed().saturating_sub(thinking);
    let (usage, run_cpu) = started.finish().map_err(wait_error)?;
    let own_peak = sys::own_peak_rss_kib();
    let cpu = run_cpu.max(watched.cpu);
    let (exit, memory) =
        classify(&usage, cpu, own_peak, watched.polled_kib, watched.killed, options);
    let ended = Ended { closed: watched.closed.take(), by_itself: exit.success() };
    let (stdout, stderr_tail) = drain(sandbox, dir.path(), &rx, watched, ended, talk.as_mut())
        .ok_or(ChildError::Escaped { program: name() })?;
    drop(dir);
    if let Some(signal) = sandbox.caught() {
        return Err(ChildError::Interrupted(signal));
    }
    Ok(ChildReport {
        exit,
        stdout,
        stderr_head: stderr_tail.head,
        stderr_tail: stderr_tail.bytes,
        stderr_len: stderr_tail.total,
        wall,
        cpu,
        memory,
    })
}

/// The program's standard input as judges give it: a regular file holding `input`, open for
/// reading only, so that `fstat` gives its size and `mmap` and `lseek` work. It is written in
/// the run's folder and unlinked before the program starts: the program sees no file in its
/// folder, and the input's bytes go when the last descriptor of it closes.
fn input_file(folder: &Path, input: &[u8]) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = folder.join(".input");
    let mut writing =
        std::fs::OpenOptions::new().write(true).create_new(true).mode(0o400).open(&path)?;
    writing.write_all(input)?;
    drop(writing);
    let reading = File::open(&path);
    std::fs::remove_file(&path)?;
    reading
}

/// Reads the program's stdout, keeping at most `limit` bytes; reports the output limit as
/// soon as it is passed, then what was kept. With `lines` (a dialogue), each line is
/// reported as it comes (a last one without its `\n` at the end of stdout, not at the output
/// limit), then the end of stdout with the bytes after the last `\n`: whether they are a
/// line depends on how the program ended ([`watch`]).
fn read_bounded(mut stdout: File, limit: usize, lines: bool, tx: &mpsc::Sender<Event>) {
    let mut kept = Vec::new();
    let mut buf = vec![0; 1 << 16];
    // Where the line being read starts in `kept`.
    let mut line_start = 0;
    let mut whole = true;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) if kept.len() + n > limit => {
                kept.extend_from_slice(&buf[..limit - kept.len()]);
                let _ = tx.send(Event::OutputLimit);
                whole = false;
                break;
            }
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let from = kept.len();
        kept.extend_from_slice(&buf[..n]);
        if lines {
            // Only the new bytes are searched: a long line costs O(its length).
            for at in (from..kept.len()).filter(|&i| kept[i] == b'\n') {
                let _ = tx.send(Event::Line(kept[line_start..at].to_vec()));
                line_start = at + 1;
            }
        }
    }
    if lines {
        let rest = if whole { kept[line_start..].to_vec() } else { Vec::new() };
        let _ = tx.send(Event::Closed(rest));
    }
    let _ = tx.send(Event::Stdout(kept));
}

/// Reads the program's stderr to its end, keeping the first and the last `tail` bytes and the
/// count.
fn read_tail(mut stderr: File, tail: usize, tx: &mpsc::Sender<Event>) {
    let mut head = Vec::new();
    let mut kept = Vec::new();
    let mut total = 0;
    let mut buf = vec![0; 1 << 14];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n;
                let room = tail.saturating_sub(head.len()).min(n);
                head.extend_from_slice(&buf[..room]);
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
    let _ = tx.send(Event::Stderr(StderrTail { head, bytes: kept, total }));
}

/// How long a program in a dialogue must have used no CPU, while the other side waited for
/// its line, for the backstop's kill to be called idleness ([`Exit::Idle`]).
pub(crate) const IDLE: Duration = Duration::from_secs(1);

/// The time a run's tasks waited for a core, which the wall-clock backstop leaves out: every
/// thread of every process of the program's (its cgroup's, else its session's: a helper
/// process, a forked worker, a Python player's child) and, in a dialogue, that of our
/// threads that carry its lines (the one that watches and asks the dialogue, the stdout
/// reader, the stdin writer). While one of them waits for a core the program may wait for it
/// in turn, and none of that is the program's doing. Waits that overlap count twice; the
/// backstop only grows by it, and a program that sleeps waits for no core.
///
/// The kernel keeps a task's count only while the task lives, so the program's tasks are read
/// every [`WAITS_EVERY`] and at the backstop, and a task that has ended keeps its last
/// reading: what a short-lived worker waited in its last moments is lost, which only brings
/// the backstop closer by that much.
struct Waits {
    /// What each task of the program's has waited, by its id: the last reading, and the
    /// readings of earlier tasks of the same id (ids are reused, and a reading below the last
    /// one is a new task's).
    program: HashMap<u32, (Duration, Duration)>,
    /// When the program's tasks were last read.
    read_at: Instant,
    /// The watching thread (this one) and what it had waited before the run.
    watcher: Option<(i64, Duration)>,
    /// Our other threads' ids, each set once the thread runs (0 before).
    ours: Vec<Arc<AtomicI64>>,
}

/// How often the waits of the program's tasks are read ([`Waits`]): a few files with a cgroup,
/// a millisecond's reading of `/proc` without one, ten times a second.
const WAITS_EVERY: Duration = Duration::from_millis(100);

impl Waits {
    fn new() -> Self {
        Self { program: HashMap::new(), read_at: Instant::now(), watcher: None, ours: Vec::new() }
    }

    /// Counts this thread's waits from now on, and those of the threads `ours` names.
    fn ours(&mut self, ours: Vec<Arc<AtomicI64>>) {
        let id = sys::thread_id();
        self.watcher = Some((id, sys::run_delay(sys::Task::OurThread(id)).unwrap_or_default()));
        self.ours = ours;
    }

    /// Reads what every task of the run has waited so far.
    fn read(&mut self, started: &Started<'_>) {
        for tid in started.tasks() {
            let Some(now) = sys::run_delay(sys::Task::Program(tid)) else { continue };
            let (last, earlier) = self.program.entry(tid).or_default();
            if now < *last {
                *earlier += *last;
            }
            *last = now;
        }
        self.read_at = Instant::now();
    }

    /// The time waited until the last [`read`](Self::read), and by our threads until now.
    fn total(&self) -> Duration {
        let mut total: Duration =
            self.program.values().map(|&(last, earlier)| last + earlier).sum();
        if let Some((id, before)) = self.watcher {
            let now = sys::run_delay(sys::Task::OurThread(id)).unwrap_or_default();
            total += now.saturating_sub(before);
        }
        for id in &self.ours {
            let id = id.load(Ordering::Relaxed);
            if id != 0 {
                total += sys::run_delay(sys::Task::OurThread(id)).unwrap_or_default();
            }
        }
        total
    }
}

/// What [`watch`] saw until the program exited.
struct Watched {
    /// Why we killed it, if we did.
    killed: Option<Exit>,
    /// The largest peak memory the polls read (the program's own; `wait4` may only bound it).
    polled_kib: u64,
    /// The CPU time the last poll read.
    cpu: Duration,
    /// Its stdout, if the reader finished first.
    stdout: Option<Vec<u8>>,
    /// Its stderr tail, if the reader finished first.
    stderr: Option<StderrTail>,
    /// In a dialogue, the end of its output with the bytes after its last line, when it came
    /// before the exit and was not handed to the dialogue: the exit decides what they are.
    closed: Option<Vec<u8>>,
}

/// How long the end of a program's output waits for the program's exit before it is taken
/// for a program that closed its output and runs on. A program that exits closes its output
/// a moment before it becomes a zombie; the two are one end, and its exit status says what
/// the bytes after its last line are (a kill or a crash mid-line is no move).
const CLOSE_GRACE: Duration = Duration::from_millis(100);

/// How a dialogue's run ended, for the end of its output not handed over yet.
struct Ended {
    /// The end of the output heard before the exit, with the bytes after the last line.
    closed: Option<Vec<u8>>,
    /// Whether the program exited by itself with code 0: only then do the bytes after its
    /// last `\n` count as a line.
    by_itself: bool,
}

/// Hands the end of the program's output to `talk`: `rest`, the bytes after the last line,
/// as a line when `counts` and there are any, then the end itself. Whether the dialogue
/// stops the run.
fn hand_over_end(talk: &mut Talk<'_>, rest: &[u8], counts: bool) -> bool {
    if counts && !rest.is_empty() && talk.line(rest).1 {
        return true;
    }
    talk.closed()
}

/// Waits for the program to exit, reading its CPU time and peak memory every [`POLL`], and
/// kills its group and cgroup when its CPU time passes the time limit, its wall time the
/// backstop, its output the output limit or its peak memory the memory limit. In a dialogue
/// (`talk`), hands each line to it, pushes the backstop back by the time it takes to answer,
/// and kills the program when it stops the run (`stop_at_once`: before the first line).
fn watch(
    started: &Started<'_>,
    start: Instant,
    options: &ChildOptions,
    rx: &mpsc::Receiver<Event>,
    mut talk: Option<&mut Talk<'_>>,
    stop_at_once: bool,
    waits: &mut Waits,
) -> io::Result<Watched> {
    let mut watched = Watched {
        killed: None,
        polled_kib: 0,
        cpu: Duration::ZERO,
        stdout: None,
        stderr: None,
        closed: None,
    };
    let mut deadline = start + options.wall_limit;
    // The last change of the program's CPU time, for idleness.
    let mut busy_at = Instant::now();
    // The end of the program's output, when it was heard, and the bytes after its last line:
    // handed over once [`CLOSE_GRACE`] has passed without the program's exit.
    let mut closing: Option<(Instant, Vec<u8>)> = None;
    let kill = |watched: &mut Watched, why: Exit| -> io::Result<()> {
        if watched.killed.is_none() {
            sys::kill_group(started.pid)?;
            if let Some(cgroup) = &started.cgroup {
                cgroup.kill()?;
            }
            watched.killed = Some(why);
        }
        Ok(())
    };
    if stop_at_once {
        kill(&mut watched, Exit::Stopped)?;
    }
    loop {
        let event = if watched.killed.is_some() {
            rx.recv().expect("the waiter thread always reports")
        } else {
            let wake = deadline.min(Instant::now() + POLL);
            match rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let cpu = started.cpu();
                    if cpu > watched.cpu {
                        busy_at = Instant::now();
                    }
                    watched.cpu = watched.cpu.max(cpu);
                    watched.polled_kib = watched.polled_kib.max(started.memory_kib());
                    let at_backstop = Instant::now() >= deadline;
                    if at_backstop || waits.read_at.elapsed() >= WAITS_EVERY {
                        waits.read(started);
                    }
                    if at_backstop {
                        let thinking = talk.as_ref().map_or(Duration::ZERO, |t| t.thinking);
                        deadline = start + options.wall_limit + thinking + waits.total();
                    }
                    if watched.cpu > options.time_limit {
                        kill(&mut watched, Exit::TimeLimit)?;
                    } else if Instant::now() >= deadline {
                        let idle =
                            talk.as_ref().is_some_and(|t| t.waiting()) && busy_at.elapsed() >= IDLE;
                        kill(&mut watched, if idle { Exit::Idle } else { Exit::WallTimeLimit })?;
                    } else if options.memory_limit_kib.is_some_and(|l| watched.polled_kib > l) {
                        kill(&mut watched, Exit::MemoryLimit)?;
                    } else if closing.as_ref().is_some_and(|(at, _)| at.elapsed() >= CLOSE_GRACE) {
                        // The program closed its output and runs on: it has said all it
                        // will, its last bytes included, and the dialogue judges that now.
                        let (_, rest) = closing.take().expect("checked just above");
                        let talk = talk.as_deref_mut().expect("only a dialogue's output ends");
                        if hand_over_end(talk, &rest, true) {
                            kill(&mut watched, Exit::Stopped)?;
                        }
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
                watched.closed = closing.map(|(_, rest)| rest);
                return Ok(watched);
            }
            Event::OutputLimit => kill(&mut watched, Exit::OutputLimit)?,
            Event::Line(line) => {
                let talk = talk.as_deref_mut().expect("lines come only in a dialogue");
                let (took, stop) = talk.line(&line);
                deadline += took;
                if stop {
                    kill(&mut watched, Exit::Stopped)?;
                }
            }
            Event::Closed(rest) => closing = Some((Instant::now(), rest)),
            Event::Stdout(bytes) => watched.stdout = Some(bytes),
            Event::Stderr(tail) => watched.stderr = Some(tail),
        }
    }
}

/// The outputs the readers have not reported yet, waited for at most [`DRAIN_GRACE`] after
/// the group is gone: `None` when a process that escaped the judge keeps a pipe open.
/// In a dialogue, the lines not handed over yet go to `talk`, and the end of the output
/// as `ended` says (the program is gone: a stop changes nothing).
fn drain(
    sandbox: &Sandbox,
    folder: &Path,
    rx: &mpsc::Receiver<Event>,
    watched: Watched,
    ended: Ended,
    mut talk: Option<&mut Talk<'_>>,
) -> Option<(Vec<u8>, StderrTail)> {
    let (mut stdout, mut stderr) = (watched.stdout, watched.stderr);
    if let Some(rest) = &ended.closed {
        hand_over_end(
            talk.as_deref_mut().expect("only a dialogue's output ends"),
            rest,
            ended.by_itself,
        );
    }
    let deadline = Instant::now() + DRAIN_GRACE;
    while stdout.is_none() || stderr.is_none() {
        let wait = deadline.saturating_duration_since(Instant::now()).min(POLL * 20);
        match rx.recv_timeout(wait) {
            Ok(Event::Stdout(bytes)) => stdout = Some(bytes),
            Ok(Event::Stderr(tail)) => stderr = Some(tail),
            Ok(Event::Line(line)) => {
                talk.as_deref_mut().expect("lines come only in a dialogue").line(&line);
            }
            Ok(Event::Closed(rest)) => {
                let talk = talk.as_deref_mut().expect("only a dialogue's output ends");
                hand_over_end(talk, &rest, ended.by_itself);
            }
            Ok(Event::OutputLimit | Event::Exited(_)) => {}
            Err(_) if Instant::now() < deadline => {
                // Without a cgroup, a process orphaned as the group died may hold a pipe:
                // it has been adopted by now.
                reaper::sweep(sandbox, folder);
            }
            Err(_) => return None,
        }
    }
    Some((stdout?, stderr?))
}

/// How the run ended and its peak memory, from the reaped status, the run's CPU time, our own
/// peak, what the polls read and why we killed it. A CPU time over the limit is a time limit
/// however the run ended; the CPU-time backstop's signals say the same.
fn classify(
    usage: &sys::Usage,
    cpu: Duration,
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
    let over_memory = match (options.memory_limit_kib, memory) {
        (Some(limit), PeakMemory::Measured(kib)) => kib > limit,
        _ => false,
    };
    let over_time = cpu > options.time_limit || usage.status.signal() == Some(libc::SIGXCPU);
    let exit = match killed {
        Some(Exit::WallTimeLimit | Exit::Idle) if over_time => Exit::TimeLimit,
        Some(exit) => exit,
        None if over_time => Exit::TimeLimit,
        None if over_memory => Exit::MemoryLimit,
        None => match (usage.status.code(), usage.status.signal()) {
            (Some(code), _) => Exit::Code(code),
            (None, Some(signal)) => Exit::Signal(signal),
            (None, None) => unreachable!("an exited process has a code or a signal"),
        },
    };
    (exit, memory)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sandbox() -> &'static Sandbox {
        static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
        SANDBOX.get_or_init(Sandbox::new)
    }

    fn run_child(
        program: &Program,
        input: &[u8],
        options: &ChildOptions,
    ) -> Result<ChildReport, ChildError> {
        sandbox().run(program, input, options)
    }

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
        assert_eq!(report.exit.to_string(), "exit code 3");
    }

    #[test]
    fn a_program_gets_a_clean_environment_not_the_judges() {
        // Run alone in a judge whose environment holds what a user's shell may: a variable
        // that changes how a program behaves (PYTHONUNBUFFERED hides a missing flush) and one
        // that names nothing the program needs.
        let judge_env = [("PYTHONUNBUFFERED", "1"), ("LC_ALL", "fr_FR.UTF-8"), ("JUDGE_X", "y")];
        let test = concat!(module_path!(), "::a_program_gets_a_clean_environment_not_the_judges");
        let ended = crate::sandbox::alone::run_with(test, &judge_env, || {
            assert_eq!(std::env::var("PYTHONUNBUFFERED").as_deref(), Ok("1"));
            // `env` itself, not a shell, which would add `PWD` of its own.
            let report = run_child(&Program::new(&["env"]), b"", &ChildOptions::default());
            let report = report.unwrap();
            let env = String::from_utf8(report.stdout).unwrap();
            let mut names: Vec<&str> =
                env.lines().filter_map(|line| Some(line.split_once('=')?.0)).collect();
            names.sort_unstable();
            let expected: Vec<&str> = ["HOME", "LANG", "PATH", "TMPDIR"]
                .into_iter()
                .filter(|&name| {
                    name == "LANG" || name == "TMPDIR" || std::env::var_os(name).is_some()
                })
                .collect();
            assert_eq!(names, expected, "{env}");
            assert!(env.lines().any(|line| line == "LANG=C.UTF-8"), "{env}");
            let path = std::env::var("PATH").unwrap_or_default();
            assert!(path.is_empty() || env.lines().any(|line| line == format!("PATH={path}")));
        });
        if let Some(output) = ended {
            let printed = crate::sandbox::alone::printed(&output);
            assert!(output.status.success(), "{printed}");
        }
    }

    #[test]
    fn the_input_is_a_regular_read_only_file_that_leaves_no_trace() {
        // A regular file of the input's size; `tail -c` seeks in it; the run's folder shows
        // nothing of it; it cannot be written.
        let script = "test -f /dev/stdin && stat -L -c %s /dev/stdin; tail -c 4 <&0; \
                      ls -A | wc -l; echo x >&0 2>/dev/null || echo read-only";
        let report = run_child(&sh(script), b"0123456789\n", &ChildOptions::default()).unwrap();
        assert_eq!(String::from_utf8(report.stdout).unwrap(), "11\n789\n0\nread-only\n");
        let empty = run_child(&sh("stat -L -c %s /dev/stdin; cat"), b"", &ChildOptions::default());
        assert_eq!(empty.unwrap().stdout, b"0\n");
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
        assert_eq!(report.exit.to_string(), "signal 11 (SIGSEGV)");
        assert_eq!(signal(2), "SIGINT");
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
        let limited = |kib| ChildOptions::new(Duration::from_secs(2), Some(kib));
        let report = run_child(&sh(script), b"", &limited(10 * 1024)).unwrap();
        assert_eq!(report.exit, Exit::MemoryLimit);
        assert!(report.wall < Duration::from_secs(2), "{:?}", report.wall);
        assert!(matches!(report.memory, PeakMemory::Measured(kib) if kib > 10 * 1024));
        assert_eq!(report.exit.to_string(), "memory limit exceeded");
        // A pause after the peak, so that a read sees all of it before the shell exits.
        let quick = "x=$(head -c 24000000 /dev/zero | tr '\\0' a); sleep 0.1; echo ${#x}";
        let report = run_child(&sh(quick), b"", &limited(1 << 20)).unwrap();
        assert_eq!((report.exit, report.stdout.as_slice()), (Exit::Code(0), &b"24000000\n"[..]));
        assert!(matches!(report.memory, PeakMemory::Measured(kib) if kib >= 23_000));
    }

    /// Both ways a run can be contained: its own cgroup (where one can be had) and the
    /// process group with the subreaper.
    fn both_containments(options: ChildOptions) -> [ChildOptions; 2] {
        [options.clone(), ChildOptions { cgroup: false, ..options }]
    }

    #[test]
    fn cpu_time_is_limited_not_wall_time() {
        for options in both_containments(ChildOptions::new(Duration::from_millis(300), None)) {
            // Sleeping past the CPU limit uses no CPU: the run passes.
            let report = run_child(&sh("sleep 0.6; echo done"), b"", &options).unwrap();
            assert_eq!((report.exit, report.stdout.as_slice()), (Exit::Code(0), &b"done\n"[..]));
            assert!(report.wall >= Duration::from_millis(600), "{:?}", report.wall);
            // A busy loop is killed once its CPU time passes the limit, long before the
            // wall-clock backstop (1.6 s).
            let report = run_child(&sh("while :; do :; done"), b"", &options).unwrap();
            assert_eq!(report.exit, Exit::TimeLimit, "{options:?}");
            assert!(report.cpu >= Duration::from_millis(300), "{:?}", report.cpu);
            assert!(report.wall < options.wall_limit, "{:?}", report.wall);
        }
    }

    #[test]
    fn a_sleeper_meets_the_wall_clock_backstop() {
        let options = ChildOptions::new(Duration::from_millis(100), None);
        assert_eq!(options.wall_limit, Duration::from_millis(1200));
        let report = run_child(&sh("sleep 30"), b"", &options).unwrap();
        assert_eq!(report.exit, Exit::WallTimeLimit);
        assert!(report.wall < Duration::from_secs(3), "{:?}", report.wall);
    }

    #[test]
    fn the_cpu_time_of_children_counts() {
        // Two busy children in the background, the program itself idle in `wait`.
        let script = "(while :; do :; done) & (while :; do :; done) & wait";
        let options = ChildOptions::new(Duration::from_millis(400), None);
        let report = run_child(&sh(script), b"", &options).unwrap();
        if sandbox().has_cgroups() {
            // The children's CPU time, not the idle program's: killed at the CPU-time limit
            // (how soon in wall time depends on the machine's load).
            assert_eq!(report.exit, Exit::TimeLimit, "{report:?}");
            assert!(report.cpu >= options.time_limit, "{:?}", report.cpu);
        } else {
            // Without a cgroup each child meets its own CPU-time backstop, or the wall clock.
            assert!(matches!(report.exit, Exit::TimeLimit | Exit::WallTimeLimit), "{report:?}");
        }
    }

    #[test]
    fn each_run_has_a_folder_of_its_own_removed_afterwards() {
        let script =
            "pwd; echo \"$TMPDIR\"; echo kept > scratch; mkdir -p a/b; chmod 0 a; cat scratch";
        let first = run_child(&sh(script), b"", &ChildOptions::default()).unwrap();
        let second = run_child(&sh(script), b"", &ChildOptions::default()).unwrap();
        let text = String::from_utf8(first.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], lines[1], "TMPDIR names the run's folder");
        assert_eq!(lines[2], "kept");
        assert_ne!(Path::new(lines[0]), std::env::current_dir().unwrap());
        assert!(!Path::new(lines[0]).exists(), "{} was left behind", lines[0]);
        assert_ne!(String::from_utf8(second.stdout).unwrap().lines().next(), Some(lines[0]));
    }

    #[test]
    fn relative_paths_in_the_command_still_name_their_files() {
        let dir = std::env::current_dir().unwrap();
        let script = "relative-script-for-a-test.sh";
        std::fs::write(dir.join(script), "echo from the script\n").unwrap();
        let report = run_child(&Program::new(&["sh", script]), b"", &ChildOptions::default());
        std::fs::remove_file(dir.join(script)).unwrap();
        assert_eq!(report.unwrap().stdout, b"from the script\n");
    }

    #[test]
    fn the_stack_gets_the_memory_limit() {
        let limited = ChildOptions::new(Duration::from_secs(2), Some(64 * 1024));
        let report = run_child(&sh("ulimit -s"), b"", &limited).unwrap();
        assert_eq!(report.stdout, b"65536\n");
        let report = run_child(&sh("ulimit -s"), b"", &ChildOptions::default()).unwrap();
        assert_eq!(report.stdout, b"unlimited\n");
    }

    #[test]
    fn the_program_starts_with_default_signals_none_blocked_in_its_own_group() {
        let script = "exec grep -E '^(Pid|NSpgid|SigBlk|SigIgn):' /proc/self/status";
        let report = run_child(&Program::new(&["sh", "-c", script]), b"", &ChildOptions::default());
        let text = String::from_utf8(report.unwrap().stdout).unwrap();
        let field = |name: &str| {
            text.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or("?").to_owned()
        };
        assert_eq!(field("SigBlk:"), "0000000000000000", "{text}");
        // Ignored dispositions would survive `exec` (std ignores SIGPIPE); caught ones cannot.
        assert_eq!(field("SigIgn:"), "0000000000000000", "{text}");
        assert_eq!(field("Pid:"), field("NSpgid:"), "{text}");
    }

    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
    }

    #[test]
    fn nothing_the_program_starts_outlives_its_run() {
        // A daemon that leaves the session and keeps stdout open, and a double fork that
        // leaves the process group: each prints its pid, then sleeps.
        let escapes = [
            "setsid sh -c 'echo $$; exec sleep 30' & sleep 0.2",
            "(sh -c 'echo $$; exec sleep 30' &) ; sleep 0.2",
            "(set -m; sh -c 'echo $$; exec sleep 30' &) ; sleep 0.2",
        ];
        for options in both_containments(ChildOptions::default()) {
            for script in escapes {
                let started = Instant::now();
                let report = run_child(&sh(script), b"", &options).unwrap();
                assert_eq!(report.exit, Exit::Code(0), "{script}: {report:?}");
                assert!(started.elapsed() < Duration::from_secs(3), "{script}: {:?}", options);
                let text = String::from_utf8(report.stdout).unwrap();
                let pid: u32 = text.trim().parse().unwrap();
                let gone = (0..200).any(|_| {
                    thread::sleep(Duration::from_millis(5));
                    !alive(pid)
                });
                assert!(gone, "{script} (cgroup: {}): process {pid} survived", options.cgroup);
            }
        }
    }

    #[test]
    fn without_a_cgroup_the_sweep_takes_escapees_with_no_environment_and_zombies() {
        // Neither shows a `TMPDIR`: the run mark tells them from the test process's children.
        let options = ChildOptions { cgroup: false, ..ChildOptions::default() };
        let escaped = |script| {
            let report = run_child(&sh(script), b"", &options).unwrap();
            assert_eq!(report.exit, Exit::Code(0), "{script}: {report:?}");
            String::from_utf8(report.stdout).unwrap().trim().parse::<u32>().unwrap()
        };
        // It left the session and cleared its environment.
        let cleared = escaped("setsid env -i /bin/sh -c 'echo $$; exec /bin/sleep 30' & sleep 0.2");
        let gone = (0..200).any(|_| {
            thread::sleep(Duration::from_millis(5));
            !alive(cleared)
        });
        assert!(gone, "process {cleared}, with no environment, survived");
        // It exits once adopted: a zombie of ours, which the sweep reaps as its run ends.
        let exited = escaped("(sh -c 'echo $$' &) ; sleep 0.2");
        let stat = std::fs::read_to_string(format!("/proc/{exited}/stat")).unwrap_or_default();
        let parent = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().nth(1));
        assert_ne!(parent, Some(std::process::id().to_string().as_str()), "{stat}");
    }

    #[test]
    fn without_a_cgroup_a_detached_worker_lives_as_long_as_its_run() {
        // The worker's parent exits at once, so the judge adopts it while the run goes on;
        // the sweeps of other runs ending meanwhile must spare it (it is in the run's session).
        let options = ChildOptions { cgroup: false, ..ChildOptions::default() };
        let detached = "mkfifo f; (sh -c 'sleep 0.4; echo done' > f &); cat f";
        let report = thread::scope(|scope| {
            let worker = scope.spawn(|| run_child(&sh(detached), b"", &options));
            for _ in 0..40 {
                run_child(&sh("true"), b"", &options).unwrap();
            }
            worker.join().unwrap().unwrap()
        });
        assert_eq!((report.exit, report.stdout.as_slice()), (Exit::Code(0), &b"done\n"[..]));
    }

    #[test]
    fn two_sandboxes_without_cgroups_never_reap_each_others_programs() {
        // A leader that has exited is a zombie with no environment left to mark it as a run's;
        // a sweep of another sandbox of the process must still leave it to its own run.
        let options = ChildOptions { cgroup: false, ..ChildOptions::default() };
        let runs = |sandbox: Sandbox| {
            for _ in 0..150 {
                let report = sandbox.run(&sh("exit 3"), b"", &options).unwrap();
                assert_eq!(report.exit, Exit::Code(3));
            }
        };
        thread::scope(|scope| {
            let other = scope.spawn(|| runs(Sandbox::new()));
            runs(Sandbox::new());
            other.join().unwrap();
        });
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
