//! Stopping cleanly: what SIGINT, SIGTERM and SIGHUP do to a command that runs other people's
//! programs.
//!
//! Each program runs in a process group (and, where one can be had, a cgroup) of its own (see
//! [`child`](super::child)), so the terminal's Ctrl-C reaches our process and not theirs. Once [`catch`] has been called, a
//! thread of ours takes those signals: the first one is remembered ([`caught`]) and every
//! program running at that moment has its process group and its cgroup killed; programs started later kill
//! themselves at once, so the stress loop and the shrinker wind down, report what they found
//! so far, and the command exits with `128 + signal` (130, 143, 129) as shells expect. A
//! second signal kills the groups again and exits at once.
//!
//! The running programs are the group leaders between their start and their reaping: a
//! group's id cannot be reused while its leader is an unreaped zombie, so a kill from here
//! never reaches a stranger's group.
//!
//! If our process is killed outright (SIGKILL, which nothing can catch), Linux still kills
//! each program: it asks before `exec` for SIGKILL when the thread that started it dies
//! (`PR_SET_PDEATHSIG`). That signal reaches the program itself, not processes it started; on
//! other systems a program outlives a SIGKILLed judge.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::sys;

/// The signals [`catch`] takes.
pub const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The first signal caught, 0 before any.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// The programs running now: each one's process id (and so its group's id) and, where the run
/// has a cgroup, that cgroup's `cgroup.kill`.
static RUNNING: Mutex<Vec<(u32, Option<PathBuf>)>> = Mutex::new(Vec::new());

fn running() -> MutexGuard<'static, Vec<(u32, Option<PathBuf>)>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// From now on, SIGINT, SIGTERM and SIGHUP stop the programs we run instead of ending our
/// process (see the module notes). Idempotent.
///
/// # Errors
/// The signal handlers cannot be installed.
pub fn catch() -> io::Result<()> {
    static INSTALLED: Mutex<bool> = Mutex::new(false);
    let mut installed = INSTALLED.lock().unwrap_or_else(PoisonError::into_inner);
    if *installed {
        return Ok(());
    }
    let mut signals = Signals::new(SIGNALS)?;
    std::thread::Builder::new().name("judge-signals".into()).spawn(move || {
        for signal in signals.forever() {
            let first = CAUGHT.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
            kill_running();
            if first.is_err() {
                std::process::exit(exit_code(signal));
            }
        }
    })?;
    *installed = true;
    Ok(())
}

/// The first signal caught since [`catch`], if any.
#[must_use]
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit code shells give a process ended by `signal`: `128 + signal`.
#[must_use]
pub fn exit_code(signal: i32) -> i32 {
    128 + signal
}

/// The signal's usual name (`SIGINT`), or its number.
#[must_use]
pub fn signal_name(signal: i32) -> String {
    sys::signal_name(signal).map_or_else(|| format!("signal {signal}"), str::to_owned)
}

fn kill_running() {
    for (pid, cgroup_kill) in running().iter() {
        kill_run(*pid, cgroup_kill.as_deref());
    }
}

/// Kills run `pid`'s process group and, when it has one, its cgroup.
fn kill_run(pid: u32, cgroup_kill: Option<&Path>) {
    let _ = sys::kill_group(pid);
    if let Some(file) = cgroup_kill {
        let _ = crate::cgroup::kill_all(file, Vec::new);
    }
}

/// Whether `pid` is a program running now (a group leader not yet reaped).
pub(crate) fn is_running(pid: u32) -> bool {
    running().iter().any(|(p, _)| *p == pid)
}

/// Registers program `pid` (a group leader, not yet reaped) as running. When a signal was
/// caught already, its group is killed at once: after the signal, nothing new runs.
pub(crate) fn track(pid: u32, cgroup_kill: Option<PathBuf>) {
    let mut running = running();
    // Read under the lock: the signal thread sets the flag before it takes the lock to kill,
    // so either it sees `pid` in the list or this sees the flag.
    if caught().is_some() {
        kill_run(pid, cgroup_kill.as_deref());
    }
    running.push((pid, cgroup_kill));
}

/// Unregisters program `pid`; called before it is reaped, after which its id may name
/// another process.
pub(crate) fn untrack(pid: u32) {
    let mut running = running();
    if let Some(at) = running.iter().position(|(p, _)| *p == pid) {
        running.swap_remove(at);
    }
}
