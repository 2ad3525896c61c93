//! Stopping cleanly: what SIGINT, SIGTERM and SIGHUP do to a command that runs other people's
//! programs.
//!
//! Each program runs in a process group (and, where one can be had, a cgroup) of its own
//! (module `child`), so the terminal's Ctrl-C reaches our process and not theirs. Once a
//! [`Sandbox`] catches signals ([`Catching`]), a thread of ours takes those signals: the first
//! one is remembered ([`Sandbox::caught`]) and every program the sandbox runs at that moment
//! has its process group and its cgroup killed; programs started later kill themselves at
//! once, so the stress loop and the shrinker wind down, report what they found so far, and
//! the command exits with `128 + signal` (130, 143, 129) as shells expect. A second signal
//! kills the groups again and is remembered too ([`Sandbox::caught_again`]). The library
//! never ends the process: the command line, which is a binary, exits at once on a second
//! signal (module `cli`).
//!
//! **Scoped as the subreaper is.** A signal's disposition is the process's, so catching is
//! counted process-wide, as the subreaper attribute is (`reaper::Adopting`): the first
//! sandbox to catch records the dispositions in place (the embedding program's: the default
//! action, ignoring, or a handler of its own) and starts the signal thread; when the last
//! catching sandbox is dropped, the thread stops and the recorded dispositions come back, so
//! the signals do again what the embedding program had them do. signal-hook never takes its
//! handler down and installs it once per process and signal, so module `sys` swaps the two:
//! the next sandbox to catch puts signal-hook's handler back. A handler someone installed
//! after ours is left in place. While a sandbox catches, signal-hook also calls the handler
//! it found when it first took the signal. An embedding program that starts using
//! signal-hook for these three signals only after a sandbox has stopped catching them would
//! find signal-hook's handler gone (signal-hook believes it installed already): it should
//! register before the first sandbox catches.
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
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use super::sys::{self, Disposition};
use super::{Sandbox, Shared};

/// The signals a sandbox catches.
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The process's catching: the sandboxes that catch now, what catching changed, and the
/// signal caught after a first one, with the condition that wakes those who wait for it.
static SCOPE: Process = Process {
    scope: Mutex::new(Scope { sandboxes: Vec::new(), thread: None, before: None, hook: None }),
    again: Mutex::new(None),
    wake: Condvar::new(),
};

/// The process-wide state of this module, in one static.
struct Process {
    /// The catching sandboxes and what catching changed.
    scope: Mutex<Scope>,
    /// The last signal caught after a first one by any sandbox of the process, if any: the
    /// command line waits for it.
    again: Mutex<Option<i32>>,
    /// Wakes those waiting for `again`.
    wake: Condvar,
}

/// What catching changed in the process (see the module notes).
struct Scope {
    /// The sandboxes that catch. Weak, so that a sandbox dropped is forgotten.
    sandboxes: Vec<Weak<Shared>>,
    /// The signal thread's handle, while some sandbox catches.
    thread: Option<Handle>,
    /// The dispositions the first catching sandbox replaced, in the order of [`SIGNALS`]: the
    /// embedding program's, back when the last one is dropped.
    before: Option<[Disposition; 3]>,
    /// signal-hook's dispositions, once it has installed them.
    hook: Option<[Disposition; 3]>,
}

/// A sandbox catching SIGINT, SIGTERM and SIGHUP (held by its shared part): while any is
/// held, the signals stop the catching sandboxes' programs instead of doing what the process
/// had them do; when the last one is dropped, that comes back.
#[derive(Debug)]
pub(super) struct Catching(());

impl Catching {
    /// Catches the signals for `shared`'s sandbox, starting the signal thread when no
    /// sandbox catches yet.
    ///
    /// # Errors
    /// The dispositions cannot be read or set, or the thread cannot start.
    pub(super) fn start(shared: &Arc<Shared>) -> io::Result<Self> {
        let mut scope = SCOPE.scope.lock().unwrap_or_else(PoisonError::into_inner);
        scope.sandboxes.retain(|s| s.strong_count() > 0);
        if scope.thread.is_none() {
            scope.start()?;
        }
        scope.sandboxes.push(Arc::downgrade(shared));
        Ok(Self(()))
    }
}

impl Drop for Catching {
    fn drop(&mut self) {
        // Dropped with its sandbox's shared part, whose entry no longer upgrades.
        let mut scope = SCOPE.scope.lock().unwrap_or_else(PoisonError::into_inner);
        scope.sandboxes.retain(|s| s.strong_count() > 0);
        if scope.sandboxes.is_empty() {
            scope.stop();
        }
    }
}

impl Scope {
    /// Installs signal-hook's handlers (recording what they replace) and starts the thread.
    fn start(&mut self) -> io::Result<()> {
        // signal-hook installs its handler the first time only: later, it is put back here.
        let before = match &self.hook {
            None => each(|signal, _| sys::disposition(signal))?,
            Some(hook) => each(|signal, at| sys::set_disposition(signal, &hook[at]))?,
        };
        match self.spawn() {
            Ok(thread) => {
                self.thread = Some(thread);
                self.before = Some(before);
                Ok(())
            }
            Err(e) => {
                // Nothing catches: what was there comes back.
                let _ = each(|signal, at| sys::set_disposition(signal, &before[at]));
                Err(e)
            }
        }
    }

    /// Registers with signal-hook, records its handlers and starts the signal thread.
    fn spawn(&mut self) -> io::Result<Handle> {
        let signals = Signals::new(SIGNALS)?;
        self.hook = Some(each(|signal, _| sys::disposition(signal))?);
        let handle = signals.handle();
        std::thread::Builder::new().name("judge-signals".into()).spawn(move || listen(signals))?;
        Ok(handle)
    }

    /// Stops the thread and puts back the dispositions it found, where signal-hook's handler
    /// is still in place.
    fn stop(&mut self) {
        let (Some(thread), Some(before), Some(hook)) = (self.thread.take(), self.before, self.hook)
        else {
            return;
        };
        thread.close();
        for (at, &signal) in SIGNALS.iter().enumerate() {
            if sys::disposition(signal).is_ok_and(|now| now.same_handler(&hook[at])) {
                let _ = sys::set_disposition(signal, &before[at]);
            }
        }
    }
}

/// `f(signal, index)` for each of [`SIGNALS`], in order.
fn each(mut f: impl FnMut(i32, usize) -> io::Result<Disposition>) -> io::Result<[Disposition; 3]> {
    Ok([f(SIGNALS[0], 0)?, f(SIGNALS[1], 1)?, f(SIGNALS[2], 2)?])
}

/// The signal thread: each signal interrupts every catching sandbox, until its scope stops.
fn listen(mut signals: Signals) {
    let handle = signals.handle();
    for signal in signals.forever() {
        let sandboxes: Vec<Sandbox> = {
            let scope = SCOPE.scope.lock().unwrap_or_else(PoisonError::into_inner);
            // Stopped under the lock: a signal handed to a stopped scope's thread may belong
            // to the next scope's, which takes it too.
            if handle.is_closed() {
                break;
            }
            scope
                .sandboxes
                .iter()
                .filter_map(Weak::upgrade)
                .map(|shared| Sandbox { shared })
                .collect()
        };
        let mut again = false;
        for sandbox in &sandboxes {
            again |= !sandbox.interrupt(signal);
        }
        if again {
            note_again(signal);
        }
        // The sandboxes are dropped out of the lock: the last clone of one drops its
        // `Catching`, which takes the lock.
        drop(sandboxes);
    }
}

/// Remembers `signal`, caught after a first one.
fn note_again(signal: i32) {
    *SCOPE.again.lock().unwrap_or_else(PoisonError::into_inner) = Some(signal);
    SCOPE.wake.notify_all();
}

/// Blocks until a signal has been caught after a first one (by any sandbox of the process:
/// the signals are the process's), and returns it: the command line's cue to exit at once.
#[cfg(feature = "cli")]
pub(crate) fn second_signal() -> i32 {
    let mut again = SCOPE.again.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if let Some(signal) = *again {
            return signal;
        }
        again = SCOPE.wake.wait(again).unwrap_or_else(PoisonError::into_inner);
    }
}

/// The exit code shells give a process ended by `signal`: `128 + signal`.
#[cfg(feature = "cli")]
#[must_use]
pub(crate) fn exit_code(signal: i32) -> i32 {
    128 + signal
}

/// Tests of signals run alone in a process of their own: the dispositions are the process's,
/// and the other tests of the binary catch signals and run programs meanwhile.
#[cfg(test)]
pub(crate) mod alone {
    use std::time::{Duration, Instant};

    pub(crate) use super::sys::raise;

    /// The variable that names the test a process runs alone.
    const ALONE: &str = "JUDGE_TEST_ALONE";

    /// In the process that runs test `test` (its `module_path!()` and name) alone, runs `body`
    /// and returns `None`; elsewhere runs the test alone in a new process of this test binary
    /// and returns how it ended, with what it printed.
    pub(crate) fn run(test: &str, body: impl FnOnce()) -> Option<std::process::Output> {
        run_with(test, &[], body)
    }

    /// [`run`], the new process's environment holding `env` besides ours.
    pub(crate) fn run_with(
        test: &str,
        env: &[(&str, &str)],
        body: impl FnOnce(),
    ) -> Option<std::process::Output> {
        let test = test.split_once("::").map_or(test, |(_crate, path)| path);
        if std::env::var_os(ALONE).is_some_and(|alone| alone == test) {
            body();
            return None;
        }
        let binary = std::env::current_exe().expect("the test binary has a path");
        let output = std::process::Command::new(binary)
            .args([test, "--exact", "--nocapture", "--test-threads=1"])
            .env(ALONE, test)
            .envs(env.iter().copied())
            .output()
            .expect("the test binary starts");
        let ran = String::from_utf8_lossy(&output.stdout).contains("running 1 test");
        assert!(ran, "{test} is no test of this binary: {}", printed(&output));
        Some(output)
    }

    /// Whether `done` holds within 5 seconds (a signal is handled on another thread).
    pub(crate) fn soon(done: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        done()
    }

    /// What a process run alone printed, for an assertion's message.
    pub(crate) fn printed(output: &std::process::Output) -> String {
        format!(
            "{:?}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;

    use super::alone::{printed, raise, run, soon};
    use super::*;

    #[test]
    fn after_the_last_catching_sandbox_the_default_action_is_back() {
        let ended = run(
            concat!(module_path!(), "::after_the_last_catching_sandbox_the_default_action_is_back"),
            || {
                // Twice: the second time, signal-hook's handler is put back.
                for _ in 0..2 {
                    let sandbox = Sandbox::new();
                    sandbox.catch_signals().expect("the signals can be caught");
                    let clone = sandbox.clone();
                    drop(sandbox);
                    raise(SIGTERM);
                    assert!(soon(|| clone.caught() == Some(SIGTERM)), "the clone still catches");
                    // A second signal is remembered; nothing here ends the process.
                    raise(SIGINT);
                    assert!(soon(|| clone.caught_again() == Some(SIGINT)));
                    drop(clone);
                    for signal in SIGNALS {
                        let now = sys::disposition(signal).expect("a disposition");
                        assert!(now.is_default(), "signal {signal}: {now:?}");
                    }
                }
                raise(SIGTERM);
                std::thread::sleep(std::time::Duration::from_secs(5));
            },
        );
        if let Some(output) = ended {
            assert_eq!(output.status.signal(), Some(SIGTERM), "{}", printed(&output));
        }
    }

    #[test]
    fn an_embedders_own_handler_is_back_after_the_last_catching_sandbox() {
        let ended = run(
            concat!(
                module_path!(),
                "::an_embedders_own_handler_is_back_after_the_last_catching_sandbox"
            ),
            || {
                sys::count_arrivals(SIGHUP).expect("a handler of our own");
                let theirs = sys::disposition(SIGHUP).expect("a disposition");
                for round in 1..=2 {
                    let sandbox = Sandbox::new();
                    sandbox.catch_signals().expect("the signals can be caught");
                    raise(SIGHUP);
                    assert!(soon(|| sandbox.caught() == Some(SIGHUP)), "round {round}");
                    // signal-hook calls the handler it found as well.
                    assert!(soon(|| sys::arrivals() == 2 * round - 1), "round {round}");
                    drop(sandbox);
                    let now = sys::disposition(SIGHUP).expect("a disposition");
                    assert!(now.same_handler(&theirs), "round {round}: {now:?}, not {theirs:?}");
                    raise(SIGHUP);
                    assert!(soon(|| sys::arrivals() == 2 * round), "round {round}");
                }
            },
        );
        if let Some(output) = ended {
            assert!(output.status.success(), "{}", printed(&output));
        }
    }
}
