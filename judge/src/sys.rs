//! The system calls std does not offer, behind safe functions: start a program the way we
//! need (below), wait for a child's exit without reaping it (`waitid` with `WNOWAIT`), reap it
//! with its resource usage (`wait4`), kill a process group (`killpg`), and our own peak
//! memory (`getrusage`).
//!
//! No crate wraps `wait4` with its `rusage` safely (rustix has `waitid` and `kill_process_group`
//! but no resource usage; nix neither), and the calls are few, so they are made here through
//! libc, already a dependency of the workspace. With `engine::memory`'s `madvise`, this is
//! the engine's only `unsafe` code.
//!
//! **Starting a program** ([`spawn`]). A program runs in a process group of its own, with
//! pipes for its three standard streams, and on Linux it asks to be killed when the thread
//! that started it dies (`prctl(PR_SET_PDEATHSIG)`), so that a judge killed outright (SIGKILL)
//! leaves it nothing to run for. That request must be made in the child before `exec`. std's
//! `Command::pre_exec` can make it, but then starts the child with `fork`, which copies our
//! page tables: with a judge of a few hundred megabytes (card-duel keeps whole value tables)
//! a start took 17 to 35 ms instead of about 1 ms, and the stress loop's rate halved. So on
//! Linux the child is started as `posix_spawn` starts one: `clone(CLONE_VM | CLONE_VFORK)` on
//! a stack of its own, the child sharing our memory until its `execve`, making only system
//! calls that touch no lock and no allocation, with every signal blocked around the clone.
//! Elsewhere std's `Command` starts it, without the parent-death request.

#![allow(
    unsafe_code,
    reason = "clone, execve, waitid, wait4, killpg and getrusage have no safe std form"
)]

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
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

/// A started program: its id (also its process group's) and our ends of its three pipes.
pub(crate) struct Spawned {
    /// Its process id.
    pub pid: u32,
    /// Its standard input.
    pub stdin: File,
    /// Its standard output.
    pub stdout: File,
    /// Its standard error.
    pub stderr: File,
}

/// Starts `program` (a path, or a name looked up in `PATH`) with `args`, in a process group
/// of its own, its standard streams piped to us, our environment, and (Linux) a request to
/// be killed when the calling thread dies. See the module notes.
#[cfg(not(target_os = "linux"))]
pub(crate) fn spawn(program: &OsStr, args: &[OsString]) -> io::Result<Spawned> {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let file = |fd: std::os::fd::OwnedFd| File::from(fd);
    Ok(Spawned {
        pid: child.id(),
        stdin: file(child.stdin.take().expect("piped").into()),
        stdout: file(child.stdout.take().expect("piped").into()),
        stderr: file(child.stderr.take().expect("piped").into()),
    })
}

/// Starts `program` (a path, or a name looked up in `PATH`) with `args`, in a process group
/// of its own, its standard streams piped to us, our environment, and a request to be killed
/// when the calling thread dies. See the module notes.
#[cfg(target_os = "linux")]
pub(crate) fn spawn(program: &OsStr, args: &[OsString]) -> io::Result<Spawned> {
    use std::ffi::CString;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// What the child needs, prepared by the parent: it allocates nothing.
    struct Plan {
        path: *const libc::c_char,
        argv: *const *const libc::c_char,
        envp: *const *const libc::c_char,
        /// The child's ends of the pipes: stdin's read end, stdout's and stderr's write ends.
        fds: [libc::c_int; 3],
        parent: libc::pid_t,
        /// The child's `errno` when it could not start the program, else 0.
        error: AtomicI32,
    }

    /// The child, on its own stack in our memory until `execve`: system calls only.
    extern "C" fn child(plan: *mut libc::c_void) -> libc::c_int {
        // SAFETY: `plan` points to the parent's `Plan`, alive until the parent resumes, which
        // is after this child has called `execve` or `_exit` (CLONE_VFORK).
        let plan = unsafe { &*(plan as *const Plan) };
        // SAFETY: plain system calls on integers and on pointers the parent prepared.
        unsafe {
            let fail = |plan: &Plan| -> libc::c_int {
                plan.error.store(*libc::__errno_location(), Ordering::SeqCst);
                libc::_exit(127)
            };
            for (target, &fd) in plan.fds.iter().enumerate() {
                let target = target as libc::c_int;
                // dup2 onto itself would keep close-on-exec: clear the flag instead.
                let moved = if fd == target {
                    libc::fcntl(fd, libc::F_SETFD, 0)
                } else {
                    libc::dup2(fd, target)
                };
                if moved < 0 {
                    return fail(plan);
                }
            }
            if libc::setpgid(0, 0) != 0 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return fail(plan);
            }
            // The parent died before the request: nobody is left to judge the run.
            if libc::getppid() != plan.parent {
                libc::_exit(127);
            }
            // The program starts with default dispositions (std ignores SIGPIPE; the judge
            // catches SIGINT, SIGTERM and SIGHUP) and no signal blocked.
            for signal in [libc::SIGPIPE, libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&raw mut none);
            libc::pthread_sigmask(libc::SIG_SETMASK, &raw const none, std::ptr::null_mut());
            libc::execve(plan.path, plan.argv, plan.envp);
            fail(plan)
        }
    }

    let nul = |bytes: &[u8]| {
        CString::new(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte"))
    };
    let path = nul(resolve(program)?.as_os_str().as_bytes())?;
    let argv: Vec<CString> = std::iter::once(program)
        .chain(args.iter().map(OsString::as_os_str))
        .map(|a| nul(a.as_bytes()))
        .collect::<io::Result<_>>()?;
    let envp: Vec<CString> = std::env::vars_os()
        .map(|(k, v)| nul(&[k.as_bytes(), b"=", v.as_bytes()].concat()))
        .collect::<io::Result<_>>()?;
    let pointers = |strings: &[CString]| -> Vec<*const libc::c_char> {
        strings.iter().map(|s| s.as_ptr()).chain(std::iter::once(std::ptr::null())).collect()
    };
    let (argv_p, envp_p) = (pointers(&argv), pointers(&envp));

    let pipe = || -> io::Result<(OwnedFd, OwnedFd)> {
        let mut fds = [0; 2];
        // SAFETY: `fds` is a live array of two ints that pipe2 fills.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: pipe2 succeeded, so both are open descriptors that we now own.
        Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
    };
    let (in_read, in_write) = pipe()?;
    let (out_read, out_write) = pipe()?;
    let (err_read, err_write) = pipe()?;
    use std::os::fd::AsRawFd;
    let plan = Plan {
        path: path.as_ptr(),
        argv: argv_p.as_ptr(),
        envp: envp_p.as_ptr(),
        fds: [in_read.as_raw_fd(), out_write.as_raw_fd(), err_write.as_raw_fd()],
        parent: libc::pid_t::try_from(std::process::id()).expect("a process id fits pid_t"),
        error: AtomicI32::new(0),
    };
    // 64 KiB is far more than the child's few calls need; 16-byte aligned at the top.
    let mut stack = vec![0u128; 4096];
    // SAFETY: one past the end of the stack's allocation, which clone's child grows down from.
    let top = unsafe { stack.as_mut_ptr().add(stack.len()) }.cast::<libc::c_void>();

    // Every signal blocked around the clone, so that no handler of ours runs in the child
    // while it shares our memory; the child unblocks them before `execve`.
    // SAFETY: sigset_t is a plain C struct; the calls fill or read the live locals.
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&raw mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const all, &raw mut old);
        let pid = libc::clone(
            child,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw const plan).cast_mut().cast(),
        );
        let clone_error = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &raw const old, std::ptr::null_mut());
        if pid < 0 {
            return Err(clone_error);
        }
        pid
    };
    drop((in_read, out_write, err_write, stack));
    let pid = u32::try_from(pid).expect("clone returned a process id");
    match plan.error.load(Ordering::SeqCst) {
        0 => Ok(Spawned {
            pid,
            stdin: File::from(in_write),
            stdout: File::from(out_read),
            stderr: File::from(err_read),
        }),
        errno => {
            reap(pid)?;
            Err(io::Error::from_raw_os_error(errno))
        }
    }
}

/// Where `program` is: itself when it names a path (holds a `/`), else the first executable
/// file of that name in a folder of `PATH`, as `execvp` looks.
#[cfg(target_os = "linux")]
fn resolve(program: &OsStr) -> io::Result<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    if program.as_bytes().contains(&b'/') {
        return Ok(program.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|file| {
            file.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not found in PATH"))
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
