//! Where runs get no cgroup (see [`crate::cgroup`]), the judge ends the processes that left a
//! run's process group (by `setsid`, `setpgid` or a double fork) as a subreaper (Linux): our
//! process adopts every orphaned descendant (`PR_SET_CHILD_SUBREAPER`), so a process whose
//! parent has exited becomes our child instead of init's, and a sweep of our children that are
//! in no running program's session finds it, kills it and reaps it. Each program leads a
//! session of its own, which its descendants keep unless they call `setsid`, so an orphan
//! whose run goes on (a worker its own parent left running) is spared until that run ends.
//!
//! A sweep reads `/proc/*/stat` (each process's parent and session), about a millisecond on a
//! machine with a few hundred processes. It runs when a run ends, so an escaped process dies
//! at the latest when its run, or another run, ends. What a sweep cannot tell is where a
//! process that left its session came from: one orphaned while its run goes on is ended at
//! the next sweep. The cgroup path has no such limit. Elsewhere than Linux, only the process
//! group is killed.

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

/// The leaders of the programs started and not yet reaped. Each is its run's to reap, never a
/// sweep's: a run untracks its leader before it kills the group and reaps the leader, and a
/// sweep another run makes in between must not take that leader for an orphan (the run's
/// own `wait4` would then find no child).
static LEADERS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Lists `pid`, a program just started (under [`starting`]), as a leader its run reaps.
pub(crate) fn lead(pid: u32) {
    LEADERS.lock().unwrap_or_else(PoisonError::into_inner).push(pid);
}

/// Reaps leader `pid` (see [`sys::reap`]), then lists it no more.
pub(crate) fn reap_leader(pid: u32) -> io::Result<sys::Usage> {
    let usage = sys::reap(pid);
    let mut leaders = LEADERS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(at) = leaders.iter().position(|&p| p == pid) {
        leaders.swap_remove(at);
    }
    usage
}

/// Whether `pid` is a leader its run has not reaped yet.
fn is_leader(pid: u32) -> bool {
    LEADERS.lock().unwrap_or_else(PoisonError::into_inner).contains(&pid)
}

/// Our children that belong to no running program (each program leads a session of its own,
/// which its descendants keep unless they call `setsid`) and not to our own session (a child
/// the embedding program started itself, such as a test's helper): orphans we adopted, whose
/// run has ended or which left their run's session.
fn adopted() -> Vec<u32> {
    let me = std::process::id();
    let Some((_, own_session)) = parent_and_session(me) else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            parent_and_session(pid).is_some_and(|(parent, session)| {
                parent == me && session != own_session && !interrupt::is_running(session)
            }) && !interrupt::is_running(pid)
                && !is_leader(pid)
        })
        .collect()
}

/// The parent and the session of process `pid` (fields 4 and 6 of `/proc/PID/stat`).
fn parent_and_session(pid: u32) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces; the fields after it are plain numbers.
    let mut fields = stat.get(stat.rfind(')')? + 2..)?.split(' ').skip(1);
    let parent = fields.next()?.parse().ok()?;
    let session = fields.nth(1)?.parse().ok()?;
    Some((parent, session))
}

/// Kills and reaps every adopted orphan, and the orphans their deaths leave, until none is
/// left (at most a few rounds: each round ends a generation); leaders are their runs' to reap.
/// Returns how many it ended.
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
