//! A cgroup (Linux, cgroup v2) for each run, where one can be had: what real judges (isolate,
//! DOMjudge's runguard) use to account and end a program with everything it starts.
//!
//! The program joins the run's cgroup before `exec` (it writes `0` to `cgroup.procs`), and
//! whatever it starts is born inside it, including processes that call `setsid`, change their
//! process group or double-fork: none can leave (moving out needs write access to another
//! cgroup, which only a privileged program has). So `cpu.stat`'s `usage_usec` is the CPU time
//! of the whole tree, the dead processes' included, and writing `1` to `cgroup.kill` (Linux
//! 5.14 and later; before that, a loop over `cgroup.procs`) ends all of it at once.
//!
//! Availability is probed when a [`Sandbox`](super::Sandbox) is made: the judge needs a cgroup
//! v2 hierarchy mounted (`/proc/self/mountinfo`) and the right to create a cgroup below its
//! own (root, or a systemd-delegated subtree, as in a user's session scope). Without one,
//! runs fall back to process groups and the subreaper (module `reaper`);
//! `ChildOptions::cgroup` asks for that fallback, for tests of it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{judge_gone, owner_pid, sys};

/// How long [`RunCgroup::end`] waits for the killed processes to leave the cgroup. SIGKILL
/// ends a process within microseconds unless it sits in an uninterruptible wait (a disk or a
/// network file system), which can take a while.
const EMPTY_WAIT: Duration = Duration::from_secs(10);

/// The folder of our own cgroup, where run cgroups can be made; `None` when we cannot make
/// them. A probe cgroup is made and removed, with the files a run reads.
pub(super) fn probe() -> Option<PathBuf> {
    let base = own_cgroup_dir()?;
    let probe = base.join(format!("judge-{}-probe", std::process::id()));
    fs::create_dir(&probe).ok()?;
    let usable = probe.join("cpu.stat").is_file() && probe.join("cgroup.procs").is_file();
    let _ = fs::remove_dir(&probe);
    usable.then_some(base)
}

/// Our cgroup's folder: the cgroup2 mount point (from `/proc/self/mountinfo`) joined with our
/// path in it (the `0::` line of `/proc/self/cgroup`).
fn own_cgroup_dir() -> Option<PathBuf> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
    // "36 35 0:30 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw": the mount point is field 5,
    // the file system type the first field after " - ".
    let mount = mountinfo.lines().find_map(|line| {
        let (fields, fs_type) = line.split_once(" - ")?;
        fs_type.starts_with("cgroup2 ").then(|| fields.split(' ').nth(4))?
    })?;
    let cgroups = fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = cgroups.lines().find_map(|line| line.strip_prefix("0::"))?;
    Some(Path::new(mount).join(own.trim_start_matches('/')))
}

/// One run's cgroup: made before the program starts, removed after it and everything it
/// started have ended.
#[derive(Debug)]
pub(super) struct RunCgroup {
    dir: PathBuf,
    /// Its `cgroup.procs`, open for the child to join.
    procs: File,
}

impl RunCgroup {
    /// A new empty cgroup for one run below `base`, numbered by `next`.
    pub(super) fn create(base: &Path, mut next: impl FnMut() -> u64) -> io::Result<Self> {
        loop {
            let dir = base.join(format!("judge-{}-{}", std::process::id(), next()));
            match fs::create_dir(&dir) {
                Ok(()) => {
                    let procs = OpenOptions::new().write(true).open(dir.join("cgroup.procs"));
                    return match procs {
                        Ok(procs) => Ok(Self { dir, procs }),
                        Err(e) => {
                            let _ = fs::remove_dir(&dir);
                            Err(e)
                        }
                    };
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Its `cgroup.procs`, for the child to write itself into.
    pub(super) fn procs(&self) -> &File {
        &self.procs
    }

    /// Its `cgroup.kill`, which a signal to the judge writes (module `interrupt`).
    pub(super) fn kill_file(&self) -> PathBuf {
        self.dir.join("cgroup.kill")
    }

    /// CPU time used in the cgroup so far, by every process that ever ran in it.
    pub(super) fn cpu(&self) -> Option<Duration> {
        let stat = fs::read_to_string(self.dir.join("cpu.stat")).ok()?;
        let usec = stat.lines().find_map(|line| line.strip_prefix("usage_usec "))?;
        usec.trim().parse().ok().map(Duration::from_micros)
    }

    /// The processes in it now.
    pub(super) fn pids(&self) -> Vec<u32> {
        let text = fs::read_to_string(self.dir.join("cgroup.procs")).unwrap_or_default();
        text.lines().filter_map(|line| line.trim().parse().ok()).collect()
    }

    /// The threads of every process in it now (`cgroup.threads`).
    pub(super) fn threads(&self) -> Vec<u32> {
        let text = fs::read_to_string(self.dir.join("cgroup.threads")).unwrap_or_default();
        text.lines().filter_map(|line| line.trim().parse().ok()).collect()
    }

    /// Whether no process is left in it.
    fn empty(&self) -> bool {
        match fs::read_to_string(self.dir.join("cgroup.events")) {
            Ok(events) => events.lines().any(|line| line.trim() == "populated 0"),
            Err(_) => self.pids().is_empty(),
        }
    }

    /// Kills every process in it.
    pub(super) fn kill(&self) -> io::Result<()> {
        kill_all(&self.kill_file(), || self.pids())
    }

    /// Kills everything in it and waits until it is empty (at most [`EMPTY_WAIT`]); `false`
    /// when a process is still there then.
    pub(super) fn end(&self) -> io::Result<bool> {
        let deadline = Instant::now() + EMPTY_WAIT;
        let mut pause = Duration::from_micros(50);
        loop {
            self.kill()?;
            if self.empty() {
                return Ok(true);
            }
            if Instant::now() >= deadline {
                return Ok(false);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }
}

/// Ends and removes the run cgroups a judge that was killed outright (SIGKILL) left behind,
/// with whatever still runs in them: `judge-PID-N` (and probes) below `base` whose PID is
/// gone.
pub(super) fn remove_stale(base: &Path) {
    for entry in fs::read_dir(base).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(|n| n.strip_prefix("judge-")).and_then(owner_pid);
        if owner.is_some_and(judge_gone) {
            let dir = entry.path();
            let pids = || {
                let text = fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
                text.lines().filter_map(|l| l.trim().parse().ok()).collect()
            };
            for _ in 0..100 {
                let _ = kill_all(&dir.join("cgroup.kill"), pids);
                if fs::remove_dir(&dir).is_ok() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Kills every process of a cgroup: by writing `1` to its `cgroup.kill`, or where the kernel
/// has no such file, each of `pids()` in turn (they cannot leave the cgroup, and a pid there
/// is not reused while the cgroup lists it).
pub(super) fn kill_all(kill_file: &Path, pids: impl Fn() -> Vec<u32>) -> io::Result<()> {
    match OpenOptions::new().write(true).open(kill_file).and_then(|mut f| f.write_all(b"1")) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            for pid in pids() {
                sys::kill(pid)?;
            }
            Ok(())
        }
        Err(e) => Err(e),
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        // A cgroup can be removed once empty; a process that was just killed may take a
        // moment to leave it.
        for _ in 0..100 {
            match fs::remove_dir(&self.dir) {
                Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                    let _ = self.kill();
                    std::thread::sleep(Duration::from_millis(1));
                }
                _ => return,
            }
        }
    }
}
