//! The system calls std does not offer, behind safe functions: wait for a child's exit
//! without reaping it (`waitid` with `WNOWAIT`), reap it with its resource usage (`wait4`),
//! kill a process group (`killpg`), our own peak memory (`getrusage`), and on Linux a child
//! that dies with the thread that started it (`prctl(PR_SET_PDEATHSIG)` before `exec`).
//!
//! No crate wraps `wait4` with its `rusage` safely (rustix has `waitid` and `kill_process_group`
//! but no resource usage; nix neither), and the calls are few, so they are made here through
//! libc, already a dependency of the workspace. With `engine::memory`'s `madvise`, this is the
//! engine's only `unsafe` code.

#![allow(unsafe_code, reason = "waitid, wait4, killpg, getrusage and prctl have no safe std form")]

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// What `wait4` tells about a reaped child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Usage {
    /// How it ended.
    pub status: ExitStatus,
    /// User plus system CPU time of the child and the descendants it waited for.
    pub cpu: Duration,
    /// `ru_maxrss`: peak resident memory in KiB (see `run::PeakMemory` for what it includes).
    pub max_rss_kib: u64,
}

fn pid_t(pid: u32) -> libc::pid_t {
    libc::pid_t::try_from(pid).expect("a process id fits pid_t")
}

fn timeval(t: libc::timeval) -> Duration {
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let micros = u32::try_from(t.tv_usec).unwrap_or(0);
    Duration::from_secs(secs) + Duration::from_micros(u64::from(micros))
}

/// Blocks until child `pid` has exited, leaving it unreaped (a zombie), so that its process
/// group id cannot be reused while we may still signal the group.
pub(crate) fn wait_exit(pid: u32) -> io::Result<()> {
    loop {
        // SAFETY: siginfo_t is a plain C struct for which all-zero bytes are a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a live, writable local; waitid only writes into it.
        let got = unsafe {
            libc::waitid(
                libc::P_PID,
                libc::id_t::from(pid),
                &raw mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if got == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Reaps child `pid` (blocking until it exits) and returns its status and resource usage.
pub(crate) fn reap(pid: u32) -> io::Result<Usage> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is a plain C struct for which all-zero bytes are a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are to live, writable locals; wait4 only writes into them.
        let got = unsafe { libc::wait4(pid_t(pid), &raw mut status, 0, &raw mut usage) };
        if got == pid_t(pid) {
            return Ok(Usage {
                status: ExitStatus::from_raw(status),
                cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
                max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
            });
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Sends SIGKILL to every process of group `pgid`. A group with no process left is not an
/// error. Callers keep the group's leader unreaped until they stop signalling, so `pgid`
/// cannot name someone else's group.
pub(crate) fn kill_group(pgid: u32) -> io::Result<()> {
    // SAFETY: killpg takes plain integers and touches no memory of ours.
    if unsafe { libc::killpg(pid_t(pgid), libc::SIGKILL) } == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::ESRCH) { Ok(()) } else { Err(error) }
}

/// Makes the program `command` starts die (SIGKILL) when the thread that starts it dies, so
/// that a judge killed outright leaves no program running (Linux only; elsewhere nothing).
///
/// The request is made in the child between `fork` and `exec`; a parent that died before it
/// was made is noticed there (the child's parent is then another process) and the child
/// exits at once. The cost: std then starts the child by `fork` rather than `posix_spawn`.
pub(crate) fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and makes only
        // async-signal-safe system calls (prctl, getppid, _exit); it touches no memory that
        // another thread of the parent could have held locked at the fork.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// The peak resident memory of process `pid` since it last started a program, in KiB (its
/// `VmHWM`); `None` once it has exited or where `/proc` does not say. Unlike `wait4`'s
/// figure it does not start at the peak of the process that forked it.
pub(crate) fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|line| line.strip_prefix("VmHWM:"))?;
    line.trim().strip_suffix("kB")?.trim().parse().ok()
}

/// Our own peak resident memory in KiB (`getrusage(RUSAGE_SELF)`).
pub(crate) fn own_peak_rss_kib() -> u64 {
    // SAFETY: rusage is a plain C struct for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a live, writable local; getrusage only writes into it.
    let got = unsafe { libc::getrusage(libc::RUSAGE_SELF, &raw mut usage) };
    if got == 0 { u64::try_from(usage.ru_maxrss).unwrap_or(0) } else { 0 }
}

/// The usual name of signal `signal`, e.g. `SIGSEGV`.
pub(crate) fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGHUP => "SIGHUP",
        libc::SIGILL => "SIGILL",
        libc::SIGINT => "SIGINT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTERM => "SIGTERM",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return None,
    })
}
