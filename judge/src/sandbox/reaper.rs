//! Where runs get no cgroup (module `cgroup`), the judge ends the processes that left a run's
//! process group (by `setsid`, `setpgid` or a double fork) as a child subreaper (Linux):
//! while such a run is in flight the process adopts every orphaned descendant
//! (`PR_SET_CHILD_SUBREAPER`), so a process whose parent has exited becomes our child instead
//! of init's, and a sweep of our children finds the ones that came from a run and ends them.
//! Runs with a cgroup need none of this to end their processes, but the orphans their
//! cgroup's kill leaves are init's zombies until init reaps them, which the first process of
//! a container may never do: after [`Sandbox::reap_orphans`] (the command line's sandboxes)
//! they adopt too, and the sweep at their end reaps those zombies.
//!
//! **Which adopted children are a run's.** A run's processes carry two marks they cannot shed
//! by accident: `TMPDIR` names the run's folder (the environment, read while they live), and
//! their `RLIMIT_LOCKS` is the run mark (`sys::run_mark`): our own hard limit less one less
//! our process id, below our own, so the embedding program's children, which inherit our
//! limit, never carry it. Linux has not enforced that limit since 2.4.25, so the mark changes
//! nothing for the program; every process a run starts inherits it, only a process that sets
//! that limit itself sheds it, and `/proc/PID/limits` shows it for zombies too. A sweep ends
//! an adopted child when its `TMPDIR` names a run folder of ours that is gone (its run has
//! ended), or, when it has no such `TMPDIR` (a zombie, or it cleared its environment), when
//! it carries the run mark and its session is no running program's. Children of the
//! embedding program carry neither mark and are left alone, whatever their session and their
//! other limits (a judging service's workers under a CPU limit of their own too). A run's
//! orphan whose run goes on keeps running until that run ends. The programs every sandbox of
//! the process started are in one registry (`RUNNING`), so a sweep never takes another
//! sandbox's leader or its running session's processes for orphans, even as zombies with no
//! environment left.
//!
//! The subreaper attribute is the process's, so it is counted process-wide: set when the
//! first adopting run starts, cleared when the last one has ended and been swept. While
//! it is set, an orphan of the embedding program's own may be adopted too; the sweep leaves
//! it, and if it exits before the attribute is cleared it stays a zombie of ours (the one
//! trace the fallback can leave in an embedding program; a cgroup leaves none).
//!
//! A sweep reads `/proc/*/stat` (each process's parent and session), about a millisecond on a
//! machine with a few hundred processes. It runs when a run ends, so an escaped process dies
//! at the latest when its run ends. Elsewhere than Linux, only the process group is killed.

use std::io;
use std::sync::{Mutex, PoisonError};

use super::{Entry, Sandbox, is_leader, is_running_session, running, sys};

/// The adopting runs in flight in this process (the subreaper attribute is the process's).
static IN_FLIGHT: Mutex<usize> = Mutex::new(0);

/// An adopting run in flight: the process adopts orphans until the last one is dropped.
pub(super) struct Adopting(());

impl Adopting {
    /// Makes the process a subreaper if no adopting run is in flight yet.
    pub(super) fn start() -> io::Result<Self> {
        let mut in_flight = IN_FLIGHT.lock().unwrap_or_else(PoisonError::into_inner);
        if *in_flight == 0 {
            #[cfg(target_os = "linux")]
            sys::set_subreaper(true)?;
        }
        *in_flight += 1;
        Ok(Self(()))
    }
}

impl Drop for Adopting {
    fn drop(&mut self) {
        let mut in_flight = IN_FLIGHT.lock().unwrap_or_else(PoisonError::into_inner);
        *in_flight -= 1;
        if *in_flight == 0 {
            #[cfg(target_os = "linux")]
            let _ = sys::set_subreaper(false);
        }
    }
}

/// Our children that came from a run and are to be ended now (see the module notes); those
/// of the run whose folder is `ending` too, as that run ends.
fn adopted(sandbox: &Sandbox, running: &[Entry], ending: &std::path::Path) -> Vec<u32> {
    let me = std::process::id();
    let runs_marker = format!("{}/judge-run-{me}-", sandbox.shared.runs.display());
    let mark = sys::run_mark();
    sys::processes()
        .into_iter()
        .filter(|&pid| {
            let Some((parent, session)) = sys::parent_and_session(pid) else { return false };
            if parent != me || is_leader(running, pid) {
                return false;
            }
            match run_folder_of(pid, &runs_marker) {
                Some(folder) => {
                    let folder = std::path::Path::new(&folder);
                    folder == ending || !folder.exists()
                }
                None => {
                    mark.is_some_and(|mark| locks_hard_limit_of(pid) == Some(mark))
                        && !is_running_session(running, session)
                }
            }
        })
        .collect()
}

/// The run folder process `pid`'s `TMPDIR` names, when it names one of ours.
fn run_folder_of(pid: u32, runs_marker: &str) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let tmpdir = environ.split(|&b| b == 0).find_map(|kv| kv.strip_prefix(b"TMPDIR="))?;
    let tmpdir = std::str::from_utf8(tmpdir).ok()?;
    tmpdir.starts_with(runs_marker).then(|| tmpdir.to_owned())
}

/// The hard `RLIMIT_LOCKS` of process `pid` (`None` when unlimited or unreadable), from
/// `/proc/PID/limits`, which zombies keep.
fn locks_hard_limit_of(pid: u32) -> Option<u64> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find_map(|l| l.strip_prefix("Max file locks"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Kills and reaps every adopted child that came from a run and is to be ended, and the
/// orphans their deaths leave, until none is left (at most a few rounds: each round ends a
/// generation); leaders are their runs' to reap. `ending` is the folder of the run that is
/// ending. Returns how many it ended.
pub(super) fn sweep(sandbox: &Sandbox, ending: &std::path::Path) -> usize {
    let running = running();
    let mut ended = 0;
    for _ in 0..16 {
        let orphans = adopted(sandbox, &running, ending);
        if orphans.is_empty() {
            break;
        }
        for &pid in &orphans {
            // Our unreaped child: its pid cannot have been reused.
            let _ = sys::kill(pid);
        }
        for &pid in &orphans {
            let _ = sys::reap(pid);
        }
        ended += orphans.len();
    }
    ended
}
