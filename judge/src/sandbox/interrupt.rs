//! Stopping cleanly: what SIGINT, SIGTERM and SIGHUP do to a command that runs other people's
//! programs.
//!
//! Each program runs in a process group (and, where one can be had, a cgroup) of its own
//! (module `child`), so the terminal's Ctrl-C reaches our process and not theirs. Once
//! [`catch`] has been called for a [`Sandbox`], a thread of ours takes those signals: the
//! first one is remembered ([`Sandbox::caught`]) and every program the sandbox runs at that
//! moment has its process group and its cgroup killed; programs started later kill
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
use std::sync::{Arc, Mutex, PoisonError, Weak};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::{Sandbox, Shared};

/// The signals [`catch`] takes.
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The sandboxes whose signals are caught: a signal's disposition is the process's, so the
/// one signal thread serves them all. Weak, so that a sandbox dropped is forgotten.
static CATCHING: Mutex<Option<Vec<Weak<Shared>>>> = Mutex::new(None);

/// From now on, SIGINT, SIGTERM and SIGHUP stop the programs `sandbox` runs instead of
/// ending our process (see the module notes). Idempotent.
///
/// # Errors
/// The signal handlers cannot be installed.
pub(super) fn catch(sandbox: &Sandbox) -> io::Result<()> {
    let mut catching = CATCHING.lock().unwrap_or_else(PoisonError::into_inner);
    let sandboxes = match catching.as_mut() {
        Some(sandboxes) => sandboxes,
        None => {
            let mut signals = Signals::new(SIGNALS)?;
            std::thread::Builder::new().name("judge-signals".into()).spawn(move || {
                for signal in signals.forever() {
                    let catching = CATCHING.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut first = true;
                    for shared in catching.iter().flatten().filter_map(Weak::upgrade) {
                        first &= Sandbox { shared }.interrupt(signal);
                    }
                    if !first {
                        std::process::exit(exit_code(signal));
                    }
                }
            })?;
            catching.insert(Vec::new())
        }
    };
    sandboxes.retain(|s| s.strong_count() > 0);
    if !sandboxes.iter().any(|s| std::ptr::eq(s.as_ptr(), Arc::as_ptr(&sandbox.shared))) {
        sandboxes.push(Arc::downgrade(&sandbox.shared));
    }
    Ok(())
}

/// The exit code shells give a process ended by `signal`: `128 + signal`.
#[must_use]
pub(crate) fn exit_code(signal: i32) -> i32 {
    128 + signal
}
