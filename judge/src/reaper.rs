//! Where runs get no cgroup (see [`crate::cgroup`]), the judge ends the processes that left a
//! run's process group (by `setsid`, `setpgid` or a double fork) as a subreaper (Linux): our
//! process adopts every orphaned descendant (`PR_SET_CHILD_SUBREAPER`), so a process whose
//! parent has exited becomes our child instead of init's, and a sweep of our children that are
//! not a running program's leader finds it, kills it and reaps it.
//!
//! A sweep reads `/proc/*/stat` (each process's parent), about a millisecond on a machine
//! with a few hundred processes. It runs when a run ends, so an escaped process dies at the
//! latest when its run, or another run, ends. What a sweep cannot tell is which run an orphan
//! came from: one orphaned while its run goes on (its own parent, not the program, exited) is
//! ended at the next sweep too. Right programs do not leave orphans behind; the cgroup path has
//! no such limit. Elsewhere than Linux, only the process group is killed.

use std::io;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use super::{interrupt, sys};

/// Makes our process a subreaper, once; the error of the first attempt is kept.
pub(crate) fn adopt_orphans() -> io::Result<()> {
    static ADOPTING: OnceLock<Result<(), io::ErrorKind>> = OnceLock::new();
    #[cfg(target_os = "linux")]
    let adopt = || sys::become_subreaper().map_err(|e| e.kind());
    #[cfg(not(target_os = "linux"))]
    let adopt = || Ok(());
    (*ADOPTING.get_or_init(adopt)).map_err(io::Error::from)
}

/// Held while a program is started and listed as running, and while a sweep looks for
/// orphans: a program just started is our child too, and must not look like an orphan.
static STARTING: Mutex<()> = Mutex::new(());

/// The lock a start takes (see [`STARTING`]).
pub(crate) fn starting() -> MutexGuard<'static, ()> {
    STARTING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Our children that are neither a running program's leader nor in our own process group (a
/// child the embedding program started itself, such as a test's helper): orphans we adopted.
fn adopted() -> Vec<u32> {
    let me = std::process::id();
    let Some((_, own_group)) = parent_and_group(me) else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            parent_and_group(pid).is_some_and(|(parent, group)| parent == me && group != own_group)
                && !interrupt::is_running(pid)
        })
        .collect()
}

/// The parent and the process group of process `pid` (fields 4 and 5 of `/proc/PID/stat`).
fn parent_and_group(pid: u32) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces; the fields after it are plain numbers.
    let mut fields = stat.get(stat.rfind(')')? + 2..)?.split(' ').skip(1);
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// Kills and reaps every adopted orphan, and the orphans their deaths leave, until none is
/// left (at most a few rounds: each round ends a generation). Returns how many it ended.
pub(crate) fn sweep() -> usize {
    let _starting = starting();
    let mut ended = 0;
    for _ in 0..16 {
        let orphans = adopted();
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
