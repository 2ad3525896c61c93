//! The sandbox layer: running a user's program as a judge runs it, owned by one [`Sandbox`]
//! value that the front-end makes and passes down.
//!
//! A [`Sandbox`] holds what runs share: where run folders are made, whether runs get cgroups
//! (probed once, when it is made), and the interrupt scope (the first signal caught,
//! [`Sandbox::caught`]). Clones share all of it. Making one also ends what a judge killed
//! outright left behind (module `cgroup` and the run folders).
//!
//! - `child`: one run ([`Sandbox::run`]): a CPU-time limit with a wall-clock backstop, a
//!   memory limit (the stack's too), a fresh folder, bounded output; its module notes say how.
//! - `dialogue`: a run whose stdin is another side's lines, answered line by line
//!   ([`Sandbox::interact`], [`Dialogue`]).
//! - `cgroup` (Linux): a cgroup per run where one can be had.
//! - `reaper` (Linux): where runs get no cgroup, the process adopts orphaned descendants
//!   while such a run is in flight, and ends those that come from a run.
//! - `interrupt`: SIGINT, SIGTERM and SIGHUP stop every running program while a sandbox
//!   catches them ([`Sandbox::catch_signals`]); after the last catching sandbox, they do
//!   again what the embedding program had them do.
//! - `sys`: the system calls, the judge's only `unsafe` code.
//!
//! The OS makes three things process-wide, and only those are statics: the children of the
//! process (the one registry of the programs running now, every sandbox's, which a sweep
//! reads: every sweep sees every child of the process, and the mark its runs carry, made of
//! the process's id and limits), the child-subreaper attribute (module `reaper`) and the
//! signal dispositions (module `interrupt`, with the sandboxes that catch them and the
//! second signal).
//!
//! **Not a sandbox for untrusted code.** A run is limited in time, memory and output and
//! ended with everything it starts, but it sees the file system and the network as the user
//! who runs the judge does. Judge programs you would run yourself.

mod cgroup;
mod child;
mod dialogue;
mod interrupt;
mod reaper;
mod sys;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

pub(crate) use child::signal;
pub use child::{ChildError, ChildOptions, ChildReport, Exit, PeakMemory, Program};
pub(crate) use child::{IDLE, wall_backstop};
pub(crate) use dialogue::{Dialogue, Next};
#[cfg(feature = "cli")]
pub(crate) use interrupt::{exit_code, second_signal};
#[cfg(feature = "cli")]
pub(crate) use sys::close_stdout;

#[cfg(test)]
pub(crate) use interrupt::alone;

/// Where runs happen: the run folders, the cgroups, the programs running now and the
/// interrupt scope (see the module notes). Cheap to clone; clones share everything.
#[derive(Clone, Debug)]
pub struct Sandbox {
    shared: Arc<Shared>,
}

/// What the clones of a [`Sandbox`] share.
#[derive(Debug)]
struct Shared {
    /// Where run folders are made (see [`runs_folder`]).
    runs: PathBuf,
    /// The folder of our own cgroup, where run cgroups are made; `None` when runs get none.
    cgroups: Option<PathBuf>,
    /// Numbers run folders and cgroups.
    next: AtomicU64,
    /// The first signal caught, 0 before any.
    caught: AtomicI32,
    /// The last signal caught after the first, 0 before any.
    again: AtomicI32,
    /// Whether this sandbox catches signals (module `interrupt`): dropped with it.
    catching: Mutex<Option<interrupt::Catching>>,
    /// Whether runs with a cgroup adopt their orphans too ([`Sandbox::reap_orphans`]).
    reaps: AtomicBool,
}

/// The programs started and not yet reaped, of every sandbox of the process. The process's
/// children are the process's, not a sandbox's: a sweep must know every sandbox's programs, so
/// that it never takes another sandbox's leader (a zombie shows neither of a run's marks) for
/// an orphan. Held while a program is started and registered, and while a sweep looks for
/// orphans: a program just started (before its `execve`) must not look like an orphan either.
static RUNNING: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The registry of the programs running now, locked (see [`RUNNING`]).
fn running() -> MutexGuard<'static, Vec<Entry>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A program started and not yet reaped.
#[derive(Debug)]
struct Entry {
    /// The sandbox that started it (its shared part's address, while that lives).
    sandbox: usize,
    /// Its process id, also its process group's and its session's.
    pid: u32,
    /// Its cgroup's `cgroup.kill`, when it has a cgroup.
    cgroup_kill: Option<PathBuf>,
    /// Whether its run is ending: the group is being killed, so orphans of its session are a
    /// sweep's to end; the leader itself is its run's to reap, never a sweep's.
    ending: bool,
}

impl Sandbox {
    /// A sandbox: probes where run folders go and whether runs get cgroups, and ends what a
    /// judge killed outright left behind (its run folders and cgroups, with whatever still
    /// runs in them).
    ///
    /// Time: a few system calls, and a listing of the runs folder and of our cgroup.
    #[must_use]
    pub fn new() -> Self {
        let runs = runs_folder();
        let cgroups = cgroup::probe();
        if let Some(base) = &cgroups {
            cgroup::remove_stale(base);
        }
        remove_stale_folders(&runs, "judge-run-");
        remove_stale_folders(&std::env::temp_dir(), "judge-package-");
        Self {
            shared: Arc::new(Shared {
                runs,
                cgroups,
                next: AtomicU64::new(0),
                caught: AtomicI32::new(0),
                again: AtomicI32::new(0),
                catching: Mutex::new(None),
                reaps: AtomicBool::new(false),
            }),
        }
    }

    /// Whether runs get cgroups of their own on this machine.
    #[must_use]
    pub fn has_cgroups(&self) -> bool {
        self.shared.cgroups.is_some()
    }

    /// From now on, runs with a cgroup make the process adopt orphaned descendants while
    /// they are in flight, as runs without one do (module `reaper`), so that the orphans a
    /// run's cgroup ends are reaped here at once instead of staying zombies until init reaps
    /// them (the first process of a container may never do). For a process that is the
    /// judge's own, such as the command line: while a run is in flight, an orphan of an
    /// embedding program's own is adopted too, and left a zombie of ours should it exit
    /// before the last run ends. Idempotent.
    pub fn reap_orphans(&self) {
        self.shared.reaps.store(true, Ordering::Relaxed);
    }

    /// Whether a run adopts and reaps its orphans: always without a cgroup, and with one
    /// after [`reap_orphans`](Self::reap_orphans).
    fn adopts(&self, cgroup: bool) -> bool {
        !cgroup || self.shared.reaps.load(Ordering::Relaxed)
    }

    /// Runs `program` with `input` on stdin under `options`, in a folder of its own (see
    /// module `child`'s notes: time, memory, isolation, what ends with it).
    ///
    /// Time: the program's own plus about one process start; memory: the captured output.
    ///
    /// # Errors
    /// The program cannot be started, or waiting for it fails, or an escaped process keeps
    /// its output open, or a signal stopped the run ([`ChildError::Interrupted`]). A program
    /// that fails (non-zero exit, signal, time limit) is not an error: see
    /// [`ChildReport::exit`].
    pub fn run(
        &self,
        program: &Program,
        input: &[u8],
        options: &ChildOptions,
    ) -> Result<ChildReport, ChildError> {
        child::run(self, program, child::Stdin::File(input), options)
    }

    /// Runs `program` in a dialogue with `dialogue`, under `options` as [`Sandbox::run`]
    /// runs it: stdin is a pipe that the dialogue writes, and each line the program writes
    /// goes to the dialogue as it comes (module `dialogue`: the threads, and why the
    /// dialogue's own time costs the program nothing). The report's stdout holds everything
    /// the program wrote.
    ///
    /// Time: the program's own, plus the dialogue's answers, plus about one process start.
    ///
    /// # Errors
    /// As [`Sandbox::run`].
    pub(crate) fn interact(
        &self,
        program: &Program,
        options: &ChildOptions,
        dialogue: &mut dyn Dialogue,
    ) -> Result<ChildReport, ChildError> {
        child::run(self, program, child::Stdin::Dialogue(dialogue), options)
    }

    /// From now on, and until this sandbox and its clones are dropped, SIGINT, SIGTERM and
    /// SIGHUP stop the programs it runs instead of doing what the process had them do: the
    /// first is remembered ([`caught`](Self::caught)), every running program is killed, and
    /// programs started later kill themselves at once, so the work winds down and reports
    /// what it found. A later signal kills the running programs again and is remembered
    /// ([`caught_again`](Self::caught_again)); nothing here ends the process. When the last
    /// catching sandbox of the process is dropped, the dispositions it found come back
    /// (module `interrupt`). Idempotent.
    ///
    /// # Errors
    /// The signal handlers cannot be installed.
    pub fn catch_signals(&self) -> io::Result<()> {
        let mut catching = self.shared.catching.lock().unwrap_or_else(PoisonError::into_inner);
        if catching.is_none() {
            *catching = Some(interrupt::Catching::start(&self.shared)?);
        }
        Ok(())
    }

    /// The first signal caught since [`catch_signals`](Self::catch_signals), if any.
    #[must_use]
    pub fn caught(&self) -> Option<i32> {
        match self.shared.caught.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }

    /// The last signal caught after the first, if any: a user who will not wait for the
    /// work to wind down (the command line exits at once on it).
    #[must_use]
    pub fn caught_again(&self) -> Option<i32> {
        match self.shared.again.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }

    /// A new empty folder `PREFIX-PID-N` in `parent`, readable by us alone, that no other
    /// folder of this or another judge holds; removed with its contents when dropped, and by
    /// the next judge's [`Sandbox::new`] should this process be killed outright.
    pub(crate) fn fresh_folder(&self, parent: &Path, prefix: &str) -> io::Result<Folder> {
        use std::os::unix::fs::DirBuilderExt;
        loop {
            let n = self.shared.next.fetch_add(1, Ordering::Relaxed);
            let dir = parent.join(format!("{prefix}{}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(Folder(dir)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// A run's own folder (see [`runs_folder`]).
    fn run_folder(&self) -> io::Result<Folder> {
        self.fresh_folder(&self.shared.runs, "judge-run-")
    }

    /// This sandbox's mark on its entries in [`RUNNING`].
    fn id(&self) -> usize {
        Arc::as_ptr(&self.shared) as usize
    }

    /// Registers program `pid`, just started, in `running` (locked since before the start).
    /// When a signal was caught already, its group is killed at once: after the signal,
    /// nothing new runs.
    fn register(&self, running: &mut Vec<Entry>, pid: u32, cgroup_kill: Option<PathBuf>) {
        // Read under the lock: the signal thread sets the flag before it takes the lock to
        // kill, so either it sees `pid` in the registry or this sees the flag.
        if self.caught().is_some() {
            kill_run(pid, cgroup_kill.as_deref());
        }
        running.push(Entry { sandbox: self.id(), pid, cgroup_kill, ending: false });
    }

    /// Marks program `pid`'s run as ending: a sweep may now end the orphans of its session.
    fn ending(&self, pid: u32) {
        let id = self.id();
        if let Some(entry) = running().iter_mut().find(|e| e.pid == pid && e.sandbox == id) {
            entry.ending = true;
        }
    }

    /// Unregisters program `pid`, once reaped (its id may then name another process).
    fn unregister(&self, pid: u32) {
        let id = self.id();
        let mut running = running();
        if let Some(at) = running.iter().position(|e| e.pid == pid && e.sandbox == id) {
            running.swap_remove(at);
        }
    }

    /// Records `signal` (as the first, or as caught again) and kills every running program;
    /// whether it was the first.
    fn interrupt(&self, signal: i32) -> bool {
        let first =
            self.shared.caught.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
        if first.is_err() {
            self.shared.again.store(signal, Ordering::SeqCst);
        }
        let id = self.id();
        for entry in running().iter().filter(|e| e.sandbox == id) {
            kill_run(entry.pid, entry.cgroup_kill.as_deref());
        }
        first.is_ok()
    }
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether `pid` is a program started and not yet reaped, by any sandbox.
fn is_leader(running: &[Entry], pid: u32) -> bool {
    running.iter().any(|e| e.pid == pid)
}

/// Whether `session` is the session of a program, of any sandbox, whose run is not ending.
fn is_running_session(running: &[Entry], session: u32) -> bool {
    running.iter().any(|e| e.pid == session && !e.ending)
}

/// Kills run `pid`'s process group and, when it has one, its cgroup.
fn kill_run(pid: u32, cgroup_kill: Option<&Path>) {
    let _ = sys::kill_group(pid);
    if let Some(file) = cgroup_kill {
        let _ = cgroup::kill_all(file, Vec::new);
    }
}

/// A folder of our own, removed with its contents when dropped.
#[derive(Debug)]
pub(crate) struct Folder(PathBuf);

impl Folder {
    /// Its path.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if std::fs::remove_dir_all(&self.0).is_err() {
            // A program may have left a folder without write or search permission: open
            // every folder to us, then remove again.
            make_removable(&self.0);
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Gives us read, write and search permission on `dir` and every folder below it.
fn make_removable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            make_removable(&entry.path());
        }
    }
}

/// Where run folders are made: `/dev/shm` where it is a folder we can write (a memory file
/// system: making and removing a folder costs microseconds there, against a millisecond or
/// two on a disk file system that discards freed blocks), else the system's temporary folder.
fn runs_folder() -> PathBuf {
    let shm = Path::new("/dev/shm");
    let probe = shm.join(format!("judge-probe-{}", std::process::id()));
    if std::fs::create_dir(&probe).is_ok() && std::fs::remove_dir(&probe).is_ok() {
        shm.to_owned()
    } else {
        std::env::temp_dir()
    }
}

/// Removes the folders `PREFIX-PID-N` in `parent` whose judge (process `PID`) is gone.
fn remove_stale_folders(parent: &Path, prefix: &str) {
    for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(|n| n.strip_prefix(prefix)).and_then(owner_pid);
        if owner.is_some_and(judge_gone) {
            drop(Folder(entry.path()));
        }
    }
}

/// The process id in `PID-N` (or `PID-probe`), the end of a run folder's or cgroup's name.
fn owner_pid(rest: &str) -> Option<u32> {
    let (pid, n) = rest.split_once('-')?;
    if n != "probe" {
        n.parse::<u64>().ok()?;
    }
    pid.parse().ok()
}

/// Whether the judge of process id `pid` is gone: what it left (a run folder, a cgroup) is
/// ours to remove. A live process of that id may be another one; its leftovers wait.
fn judge_gone(pid: u32) -> bool {
    pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
}
