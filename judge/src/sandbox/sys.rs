//! The system calls std does not offer, behind safe functions. This is the judge's only
//! `unsafe` code, and the one place that lists it:
//!
//! - starting a program (`spawn`): `pipe2`, `rt_sigprocmask` and `clone(CLONE_VM |
//!   CLONE_VFORK)`, and in the child `write` (joining a cgroup), `dup2`/`fcntl`, `setsid`,
//!   `prctl(PR_SET_PDEATHSIG)`, `getppid`, `chdir`, `setrlimit`, `rt_sigaction`,
//!   `rt_sigprocmask` and `execve`;
//! - waiting: `waitid(WNOWAIT)` (a child's exit without reaping it), `wait4` (reaping with the
//!   resource usage);
//! - signalling: `killpg`, `kill`;
//! - signal dispositions (`sigaction`), read, set and put back (module `interrupt`);
//! - `prctl(PR_SET_CHILD_SUBREAPER)`, `getrusage(RUSAGE_SELF)` for our own peak memory,
//!   `getrlimit` and `sysconf(_SC_CLK_TCK)`;
//! - `dup2` of `/dev/null` onto descriptor 1: the jury's end of an interaction
//!   (`close_stdout`), the one way its program sees the end of its input while the jury
//!   still reads the program's output.
//!
//! No crate offers these safely together (rustix has `waitid` and `kill_process_group` but no
//! resource usage; nix has no `wait4`), and they are few, so they are made through libc.
//!
//! **Why not std's `Command`.** A program must start in a session (and process group) of its
//! own, in its own folder, with its stack, CPU-time and file-size limits set, its signal dispositions at their
//! defaults, inside the run's cgroup, and (Linux) with a request to be killed when the thread
//! that started it dies (`PR_SET_PDEATHSIG`), so that a judge killed outright leaves it nothing
//! to run for. std's `Command` starts a child with `posix_spawn` (no page-table copy) only when
//! none of this is asked beyond the process group; `pre_exec`, which could make the rest of
//! the requests, makes std start the child with `fork`, which copies our page tables: with a
//! judge of a few hundred megabytes (card-duel keeps whole value tables) a start took 17 to
//! 35 ms instead of about 1 ms, and the stress loop's rate halved. A trampoline (a small
//! helper program started by `posix_spawn` that sets everything and then `exec`s the program)
//! would cost one more `exec` a run and a binary to find and ship beside every library user's
//! program. So on Linux the child is started as glibc's and musl's `posix_spawn` start one:
//! `clone(CLONE_VM | CLONE_VFORK)` on a stack of its own, every signal blocked around the
//! clone (glibc's two internal ones too, by the raw system call), the child sharing our
//! memory until its `execve` and making only system calls that touch no lock and no
//! allocation ([`child`]). Elsewhere std's `Command` starts it with a `pre_exec` (there is no
//! page-table cost to avoid on those systems' `fork` either way).

#![allow(
    unsafe_code,
    reason = "starting, waiting for and signalling processes have no safe std form; the list is \
              in the module notes"
)]

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

/// What `wait4` tells about a reaped child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Usage {
    /// How it ended.
    pub status: ExitStatus,
    /// User plus system CPU time of the child and the descendants it waited for.
    pub cpu: Duration,
    /// `ru_maxrss`: peak resident memory in KiB (see `child::PeakMemory` for what it includes).
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

/// A C string of `bytes`; a NUL byte inside is an `InvalidInput` error.
pub(crate) fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte"))
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

/// Closes our standard output's pipe, so that the program at its other end reads the end of
/// its input: the jury of an interactive problem, run by a judge as a separate process, ends
/// the interaction that way and then reads what the program still writes. Descriptor 1 is
/// pointed at `/dev/null` rather than closed, so that no file opened later takes its number
/// and receives what is written to stdout. Whatever std buffered for stdout must be flushed
/// first.
#[cfg(feature = "cli")]
pub(crate) fn close_stdout() -> io::Result<()> {
    use std::os::fd::AsRawFd as _;
    let null = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
    // SAFETY: dup2 takes two plain integers, a descriptor we own open for the call and 1; it
    // touches no memory of ours.
    if unsafe { libc::dup2(null.as_raw_fd(), 1) } == 1 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sends SIGKILL to process `pid`; one already gone is not an error. Callers make sure `pid`
/// cannot have been reused (it is our unreaped child, or in a cgroup of ours).
pub(crate) fn kill(pid: u32) -> io::Result<()> {
    // SAFETY: kill takes plain integers and touches no memory of ours.
    if unsafe { libc::kill(pid_t(pid), libc::SIGKILL) } == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::ESRCH) { Ok(()) } else { Err(error) }
}

/// Makes our process the reaper of its orphaned descendants (Linux), or no longer: while it
/// is one, a process whose parent exits becomes our child instead of init's, so that the
/// judge can still find and end it.
#[cfg(target_os = "linux")]
pub(crate) fn set_subreaper(on: bool) -> io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, libc::c_ulong::from(on), 0, 0, 0) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The peak resident memory of process `pid` since it last started a program, in KiB (its
/// `VmHWM`), and its resident memory now (`VmRSS`); `None` once it has exited or where
/// `/proc` does not say. Unlike `wait4`'s figure the peak does not start at the peak of the
/// process that started it.
pub(crate) fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find_map(|line| line.strip_prefix(name))?;
        line.trim().strip_suffix("kB")?.trim().parse().ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

/// The CPU time of process `pid` and of the children it has waited for (`utime + stime +
/// cutime + cstime` of `/proc/PID/stat`, in clock ticks of 10 ms); `None` once it is gone.
pub(crate) fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces; the fields after it are plain numbers.
    let fields = stat.get(stat.rfind(')')? + 2..)?;
    let ticks: u64 = fields.split(' ').skip(11).take(4).filter_map(|f| f.parse::<u64>().ok()).sum();
    // SAFETY: sysconf takes an integer and touches no memory of ours.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100);
    Some(Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / per_second.max(1)))
}

/// The time a task (a thread: `/proc/TID/schedstat`, which a thread's id opens though
/// `/proc` lists only processes) or one of our threads (`/proc/self/task/TID/schedstat`) has
/// spent runnable but waiting for a core: the second field, in nanoseconds. `None` where the
/// kernel keeps no such count (or the task is gone).
pub(crate) fn run_delay(task: Task) -> Option<Duration> {
    let path = match task {
        Task::Program(tid) => format!("/proc/{tid}/schedstat"),
        Task::OurThread(tid) => format!("/proc/self/task/{tid}/schedstat"),
    };
    let stat = std::fs::read_to_string(path).ok()?;
    let nanos = stat.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// A task whose waits for a core are counted ([`run_delay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Task {
    /// A thread of a program's, by its id (a process's first thread has the process's id).
    Program(u32),
    /// One of our own threads, by its kernel id ([`thread_id`]).
    OurThread(i64),
}

/// The ids of the processes alive or unreaped now (the numbered entries of `/proc`); empty
/// where there is no `/proc`.
pub(crate) fn processes() -> Vec<u32> {
    numbered_entries(Path::new("/proc"))
}

/// The ids of the threads of process `pid` (`/proc/PID/task`); empty once it is gone.
pub(crate) fn threads(pid: u32) -> Vec<u32> {
    numbered_entries(Path::new(&format!("/proc/{pid}/task")))
}

/// The entries of `folder` named by a number.
fn numbered_entries(folder: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    entries.flatten().filter_map(|entry| entry.file_name().to_str()?.parse().ok()).collect()
}

/// The parent and the session of process `pid` (fields 4 and 6 of `/proc/PID/stat`); `None`
/// once it is reaped.
pub(crate) fn parent_and_session(pid: u32) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces; the fields after it are plain numbers.
    let mut fields = stat.get(stat.rfind(')')? + 2..)?.split(' ').skip(1);
    let parent = fields.next()?.parse().ok()?;
    let session = fields.nth(1)?.parse().ok()?;
    Some((parent, session))
}

/// The calling thread's kernel id, for [`Task::OurThread`].
pub(crate) fn thread_id() -> i64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid takes no argument and touches no memory.
        i64::from(unsafe { libc::syscall(libc::SYS_gettid) } as i32)
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

/// Our own peak resident memory in KiB (`getrusage(RUSAGE_SELF)`).
pub(crate) fn own_peak_rss_kib() -> u64 {
    // SAFETY: rusage is a plain C struct for which all-zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a live, writable local; getrusage only writes into it.
    let got = unsafe { libc::getrusage(libc::RUSAGE_SELF, &raw mut usage) };
    if got == 0 { u64::try_from(usage.ru_maxrss).unwrap_or(0) } else { 0 }
}

/// The type of `setrlimit`'s first argument, which glibc names.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
/// The type of `setrlimit`'s first argument.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

/// The hard limit of `resource` (`RLIMIT_STACK`, `RLIMIT_CPU`), which a soft limit we set may
/// not pass.
fn hard_limit(resource: Resource) -> libc::rlim_t {
    // SAFETY: rlimit is a plain C struct; getrlimit only writes into the live local.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::getrlimit(resource, &raw mut limit) } == 0 {
        limit.rlim_max
    } else {
        libc::RLIM_INFINITY
    }
}

/// The mark every process of a run carries (module `reaper`): its soft and hard
/// `RLIMIT_LOCKS`, a limit Linux has not enforced since 2.4.25, set before `exec` to our own
/// hard limit less one less our process id. It is below our own, so the embedding program's
/// children (which inherit ours) never carry it; only a process that sets the limit sheds it
/// (an unprivileged one can only lower it); a judge run by another judge marks its runs below
/// its own mark. `None` when our hard limit is too low to hold it. Read anew at each call (a
/// system call and a cached process id), so an embedding program that lowers its own limit
/// later marks its later runs by the new one.
#[cfg(target_os = "linux")]
pub(crate) fn run_mark() -> Option<u64> {
    hard_limit(libc::RLIMIT_LOCKS).checked_sub(1 + u64::from(std::process::id()))
}

/// Elsewhere than Linux no run is swept (module `reaper`), so none is marked.
#[cfg(not(target_os = "linux"))]
pub(crate) fn run_mark() -> Option<u64> {
    None
}

/// What a signal does when it arrives (`struct sigaction`): its default action, nothing, or a
/// handler, with the handler's flags and mask.
#[derive(Clone, Copy)]
pub(crate) struct Disposition(libc::sigaction);

impl Disposition {
    /// Whether `other` runs the same handler (or is the same default action or ignoring).
    pub(crate) fn same_handler(&self, other: &Self) -> bool {
        self.0.sa_sigaction == other.0.sa_sigaction
    }

    /// Whether it is the default action.
    #[cfg(test)]
    pub(crate) fn is_default(&self) -> bool {
        self.0.sa_sigaction == libc::SIG_DFL
    }
}

impl std::fmt::Debug for Disposition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.sa_sigaction {
            libc::SIG_DFL => f.write_str("SIG_DFL"),
            libc::SIG_IGN => f.write_str("SIG_IGN"),
            handler => write!(f, "handler {handler:#x}"),
        }
    }
}

/// The disposition of `signal` now.
pub(crate) fn disposition(signal: i32) -> io::Result<Disposition> {
    // SAFETY: sigaction is a plain C struct for which all-zero bytes are a valid value.
    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: a null new action only reads the old one into the live local.
    if unsafe { libc::sigaction(signal, std::ptr::null(), &raw mut old) } == 0 {
        Ok(Disposition(old))
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Gives `signal` the disposition `to`, read earlier by [`disposition`] or returned here;
/// returns the one it replaces.
pub(crate) fn set_disposition(signal: i32, to: &Disposition) -> io::Result<Disposition> {
    // SAFETY: sigaction is a plain C struct for which all-zero bytes are a valid value.
    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: a `Disposition` is made only here, from what the system gave us (or, in tests,
    // a handler that only adds to an atomic), so its handler, if any, may run as one; the old
    // one is written into the live local.
    if unsafe { libc::sigaction(signal, &raw const to.0, &raw mut old) } == 0 {
        Ok(Disposition(old))
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sends `signal` to our own process, as a user or a terminal would (tests).
#[cfg(test)]
pub(crate) fn raise(signal: i32) {
    // SAFETY: getpid and kill take and return plain integers and touch no memory of ours.
    let sent = unsafe { libc::kill(libc::getpid(), signal) };
    assert_eq!(sent, 0, "{}", io::Error::last_os_error());
}

/// How many signals the handler of [`count_arrivals`] has seen.
#[cfg(test)]
static ARRIVALS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Gives `signal` a handler that counts its arrivals ([`arrivals`]), as an embedding program
/// installs a handler of its own (tests).
#[cfg(test)]
pub(crate) fn count_arrivals(signal: i32) -> io::Result<()> {
    extern "C" fn count(_signal: libc::c_int) {
        // An atomic add is async-signal-safe.
        ARRIVALS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    // SAFETY: sigaction is a plain C struct for which all-zero bytes are a valid value.
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = count as extern "C" fn(libc::c_int) as libc::sighandler_t;
    action.sa_flags = libc::SA_RESTART;
    set_disposition(signal, &Disposition(action)).map(drop)
}

/// How many signals the handler of [`count_arrivals`] has seen (tests).
#[cfg(test)]
pub(crate) fn arrivals() -> usize {
    ARRIVALS.load(std::sync::atomic::Ordering::SeqCst)
}

/// A program prepared once and started many times: its resolved path, its arguments and the
/// environment it gets (but for `TMPDIR`, which each run sets), as C strings.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    path: CString,
    argv: Vec<CString>,
    env: Vec<CString>,
}

impl Prepared {
    /// The resolved executable's path.
    pub(crate) fn path(&self) -> &Path {
        Path::new(OsStr::from_bytes(self.path.as_bytes()))
    }

    /// Prepares `path` (absolute, already resolved) with `argv` (its first word included) and
    /// the environment `env` (`NAME=VALUE` each, without `TMPDIR`).
    pub(crate) fn new(path: &Path, argv: &[&OsStr], env: &[OsString]) -> io::Result<Self> {
        let env = env.iter().map(|kv| c_string(kv.as_bytes())).collect::<io::Result<_>>()?;
        Ok(Self {
            path: c_string(path.as_os_str().as_bytes())?,
            argv: argv.iter().map(|a| c_string(a.as_bytes())).collect::<io::Result<_>>()?,
            env,
        })
    }
}

/// How one start of a program differs from the others: its input, its folder, its cgroup,
/// its limits.
#[derive(Debug)]
pub(crate) struct Launch<'a> {
    /// Its standard input: a regular file open for reading, as judges give the input, or the
    /// read end of a dialogue's pipe.
    pub stdin: &'a File,
    /// The folder it starts in; `TMPDIR` names it too.
    pub dir: &'a Path,
    /// The run's cgroup's `cgroup.procs`, which the child joins before `exec` (Linux).
    pub cgroup_procs: Option<&'a File>,
    /// The soft stack limit in bytes; `None` for as much as the hard limit allows.
    pub stack_bytes: Option<u64>,
    /// The soft CPU-time limit in whole seconds (`SIGXCPU` there, `SIGKILL` a second later).
    pub cpu_seconds: u64,
    /// The largest file the program may write, in bytes; `None` for as large as allowed.
    pub file_bytes: Option<u64>,
}

/// A started program: its id (also its process group's) and our ends of its output pipes.
pub(crate) struct Spawned {
    /// Its process id.
    pub pid: u32,
    /// Its standard output.
    pub stdout: File,
    /// Its standard error.
    pub stderr: File,
}

/// The soft and hard limits a run gets for `resource`: `soft` (`None`: unlimited) capped by
/// today's hard limit, the hard limit `soft + slack` where that is lower than today's.
fn limits_for(resource: Resource, soft: Option<u64>, slack: u64) -> libc::rlimit {
    let hard = hard_limit(resource);
    let cap = |value: Option<u64>| match value {
        Some(v) => libc::rlim_t::try_from(v).unwrap_or(libc::RLIM_INFINITY).min(hard),
        None => hard,
    };
    libc::rlimit { rlim_cur: cap(soft), rlim_max: cap(soft.map(|s| s.saturating_add(slack))) }
}

#[cfg(target_os = "linux")]
pub(crate) use linux::spawn;

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CString, c_char, c_int, c_void};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::sync::atomic::{AtomicI32, Ordering};

    use super::{Launch, Prepared, Spawned, c_string, limits_for, reap};

    /// Everything the child needs, prepared by the parent: the child allocates nothing.
    struct Plan {
        path: *const c_char,
        argv: *const *const c_char,
        envp: *const *const c_char,
        dir: *const c_char,
        /// The child's standard streams: the input file, stdout's and stderr's pipe ends.
        fds: [c_int; 3],
        /// `cgroup.procs` of the run's cgroup, or -1.
        cgroup_procs: c_int,
        stack: libc::rlimit,
        cpu: libc::rlimit,
        file: libc::rlimit,
        /// The run's mark (`RLIMIT_LOCKS`, see [`run_mark`](super::run_mark)), when it has one.
        mark: Option<libc::rlimit>,
        /// Our process id, to notice a parent that died before the death-signal request.
        parent: libc::pid_t,
        /// The highest signal number (`SIGRTMAX`).
        max_signal: c_int,
        /// The size of the kernel's signal set in bytes, which its signal calls check.
        sigset_bytes: usize,
        /// The child's `errno` when it could not start the program, else 0.
        error: AtomicI32,
    }

    /// The started child, on its own stack in our memory until `execve`.
    ///
    /// Contract: it makes system calls only (through libc's thin wrappers); it allocates
    /// nothing, takes no lock, and writes no memory but `plan.error` and `errno`. Without
    /// `CLONE_SETTLS` the child runs on our thread's TLS, so `errno` is the suspended parent
    /// thread's; the parent reads `plan.error` instead. Before it unblocks signals, every
    /// disposition that is not the default is reset (handlers of ours must never run here, in
    /// our memory; ignored signals would stay ignored across `exec`), as glibc's and musl's
    /// `posix_spawn` do for handled signals; ignored ones are reset too, as a judge wants.
    extern "C" fn child(plan: *mut c_void) -> c_int {
        // SAFETY: `plan` points to the parent's `Plan`, alive until the parent resumes, which
        // is after this child has called `execve` or `_exit` (CLONE_VFORK).
        let plan = unsafe { &*(plan as *const Plan) };
        // SAFETY: system calls on integers and on memory the parent prepared; see the contract.
        unsafe {
            let fail_with = |plan: &Plan, errno: c_int| -> c_int {
                plan.error.store(errno, Ordering::SeqCst);
                libc::_exit(127)
            };
            let fail = |plan: &Plan| -> c_int { fail_with(plan, *libc::__errno_location()) };
            // Join the run's cgroup first, so that everything the program does counts there.
            if plan.cgroup_procs >= 0
                && libc::write(plan.cgroup_procs, c"0".as_ptr().cast(), 1) != 1
            {
                return fail(plan);
            }
            for (target, &fd) in plan.fds.iter().enumerate() {
                let target = target as c_int;
                // dup2 onto itself would keep close-on-exec: clear the flag instead. No end
                // can sit on a target still needed: std opens /dev/null onto a closed 0, 1 or
                // 2 when a Rust program starts, so our descriptors are all above 2.
                let moved = if fd == target {
                    libc::fcntl(fd, libc::F_SETFD, 0)
                } else {
                    libc::dup2(fd, target)
                };
                if moved < 0 {
                    return fail(plan);
                }
            }
            if libc::setsid() < 0 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return fail(plan);
            }
            // The parent died before the request: nobody is left to judge the run.
            if libc::getppid() != plan.parent {
                libc::_exit(127);
            }
            if libc::chdir(plan.dir) != 0
                || libc::setrlimit(libc::RLIMIT_STACK, &raw const plan.stack) != 0
                || libc::setrlimit(libc::RLIMIT_CPU, &raw const plan.cpu) != 0
                || libc::setrlimit(libc::RLIMIT_FSIZE, &raw const plan.file) != 0
            {
                return fail(plan);
            }
            if let Some(mark) = &plan.mark
                && libc::setrlimit(libc::RLIMIT_LOCKS, mark) != 0
            {
                return fail(plan);
            }
            // Every signal back to its default disposition, with the raw system call: glibc's
            // wrapper refuses its two internal signals, which may be ignored and would stay so.
            // An all-zero kernel `sigaction` is SIG_DFL with no flags and an empty mask on
            // every architecture's layout.
            let default = [0u64; 4];
            for signal in 1..=plan.max_signal {
                if signal != libc::SIGKILL
                    && signal != libc::SIGSTOP
                    && libc::syscall(
                        libc::SYS_rt_sigaction,
                        signal,
                        &raw const default,
                        0usize,
                        plan.sigset_bytes,
                    ) != 0
                {
                    return fail(plan);
                }
            }
            // Nothing blocked, glibc's internal signals neither (its wrapper would keep them
            // as they are).
            let error = set_mask(&KernelSigset::EMPTY, None, plan.sigset_bytes);
            if error != 0 {
                return fail_with(plan, error);
            }
            libc::execve(plan.path, plan.argv, plan.envp);
            fail(plan)
        }
    }

    /// Two pipes for the child's stdout and stderr, close-on-exec: (its end, ours).
    fn pipes() -> io::Result<[(OwnedFd, OwnedFd); 2]> {
        let pipe = || -> io::Result<(OwnedFd, OwnedFd)> {
            let mut fds = [0; 2];
            // SAFETY: `fds` is a live array of two ints that pipe2 fills.
            if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: pipe2 succeeded, so both are open descriptors that we now own.
            Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
        };
        let (out_read, out_write) = pipe()?;
        let (err_read, err_write) = pipe()?;
        Ok([(out_write, out_read), (err_write, err_read)])
    }

    /// A signal set as the kernel reads it: 128 bytes, as large as glibc's `sigset_t`, of
    /// which the calls read the first `sigset_bytes`.
    #[repr(C)]
    struct KernelSigset([u64; 16]);

    impl KernelSigset {
        const EMPTY: Self = Self([0; 16]);
        const FULL: Self = Self([u64::MAX; 16]);
    }

    /// Sets our thread's signal mask to `mask` with the raw system call (glibc's wrappers keep
    /// its two internal signals as they are), the one it replaces into `old`; 0, or the error
    /// number. The kernel never blocks SIGKILL and SIGSTOP, whatever the mask says.
    fn set_mask(mask: &KernelSigset, old: Option<&mut KernelSigset>, sigset_bytes: usize) -> c_int {
        let old = old.map_or(std::ptr::null_mut(), std::ptr::from_mut);
        // SAFETY: both sets are live and 128 bytes, more than the `sigset_bytes` the kernel
        // reads or writes; a null old set is not written.
        let got = unsafe {
            libc::syscall(
                libc::SYS_rt_sigprocmask,
                libc::SIG_SETMASK,
                &raw const *mask,
                old,
                sigset_bytes,
            )
        };
        // SAFETY: errno is our thread's (in the child, the suspended parent thread's, which
        // the child alone runs on meanwhile).
        if got == 0 { 0 } else { unsafe { *libc::__errno_location() } }
    }

    /// Clones the child on a stack of its own, sharing our memory, with every signal blocked
    /// around the clone (glibc's two internal ones too, as its `posix_spawn` blocks them), so
    /// that no handler of ours runs in it; returns when the child has called `execve` or
    /// `_exit`.
    fn clone_vfork(plan: &Plan) -> io::Result<libc::pid_t> {
        // 64 KiB is far more than the child's few calls need; u128 keeps its top 16-byte
        // aligned, as the x86-64 and AArch64 ABIs want.
        let mut stack = vec![0u128; 4096];
        // SAFETY: one past the end of the stack's allocation, which the child grows down from.
        let top = unsafe { stack.as_mut_ptr().add(stack.len()) }.cast::<c_void>();
        let mut old = KernelSigset::EMPTY;
        let error = set_mask(&KernelSigset::FULL, Some(&mut old), plan.sigset_bytes);
        if error != 0 {
            return Err(io::Error::from_raw_os_error(error));
        }
        // SAFETY: the child's contract is on `child`, and `plan` outlives it (CLONE_VFORK).
        let pid = unsafe {
            libc::clone(
                child,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                std::ptr::from_ref(plan).cast_mut().cast(),
            )
        };
        let clone_error = io::Error::last_os_error();
        // The mask that was ours comes back whatever happened: the kernel accepted it before.
        set_mask(&old, None, plan.sigset_bytes);
        if pid < 0 { Err(clone_error) } else { Ok(pid) }
    }

    /// Starts `program` as `launch` says: in a session and process group of its own, in
    /// `launch.dir` with `TMPDIR` naming it, inside the run's cgroup when there is one, its
    /// stack and CPU-time limits set, every signal at its default disposition and none
    /// blocked, `launch.stdin` as its standard input, its output piped to us, and a request to
    /// be killed when the calling thread dies.
    pub(crate) fn spawn(program: &Prepared, launch: &Launch<'_>) -> io::Result<Spawned> {
        let pointers = |strings: &[&CString]| -> Vec<*const c_char> {
            strings.iter().map(|s| s.as_ptr()).chain(std::iter::once(std::ptr::null())).collect()
        };
        let dir = c_string(launch.dir.as_os_str().as_bytes())?;
        let tmpdir = c_string(&[b"TMPDIR=", launch.dir.as_os_str().as_bytes()].concat())?;
        let argv = pointers(&program.argv.iter().collect::<Vec<_>>());
        let envp =
            pointers(&program.env.iter().chain(std::iter::once(&tmpdir)).collect::<Vec<_>>());
        let [stdout, stderr] = pipes()?;
        let max_signal = libc::SIGRTMAX();
        // The kernel's set holds a bit for every signal in whole words, as glibc sizes it.
        let word = size_of::<libc::c_ulong>();
        let sigset_bytes =
            usize::try_from(max_signal).expect("SIGRTMAX is positive").div_ceil(word * 8) * word;
        let plan = Plan {
            path: program.path.as_ptr(),
            argv: argv.as_ptr(),
            envp: envp.as_ptr(),
            dir: dir.as_ptr(),
            fds: [launch.stdin.as_raw_fd(), stdout.0.as_raw_fd(), stderr.0.as_raw_fd()],
            cgroup_procs: launch.cgroup_procs.map_or(-1, AsRawFd::as_raw_fd),
            stack: limits_for(libc::RLIMIT_STACK, launch.stack_bytes, 0),
            cpu: limits_for(libc::RLIMIT_CPU, Some(launch.cpu_seconds), 1),
            file: limits_for(libc::RLIMIT_FSIZE, launch.file_bytes, 0),
            mark: super::run_mark().map(|mark| libc::rlimit { rlim_cur: mark, rlim_max: mark }),
            parent: libc::pid_t::try_from(std::process::id()).expect("a process id fits pid_t"),
            max_signal,
            sigset_bytes,
            error: AtomicI32::new(0),
        };
        let pid = clone_vfork(&plan)?;
        drop((stdout.0, stderr.0));
        let pid = u32::try_from(pid).expect("clone returned a process id");
        match plan.error.load(Ordering::SeqCst) {
            0 => Ok(Spawned { pid, stdout: File::from(stdout.1), stderr: File::from(stderr.1) }),
            errno => {
                reap(pid)?;
                Err(io::Error::from_raw_os_error(errno))
            }
        }
    }
}

/// Starts `program` as `launch` says (see the Linux version), with std's `Command`: no cgroup
/// and no parent-death request on these systems.
#[cfg(not(target_os = "linux"))]
pub(crate) fn spawn(program: &Prepared, launch: &Launch<'_>) -> io::Result<Spawned> {
    use std::os::unix::ffi::OsStringExt;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let os = |c: &CString| std::ffi::OsString::from_vec(c.as_bytes().to_vec());
    let stack = limits_for(libc::RLIMIT_STACK, launch.stack_bytes, 0);
    let cpu = limits_for(libc::RLIMIT_CPU, Some(launch.cpu_seconds), 1);
    let file = limits_for(libc::RLIMIT_FSIZE, launch.file_bytes, 0);
    let mut command = Command::new(os(&program.path));
    command
        .arg0(os(&program.argv[0]))
        .args(program.argv[1..].iter().map(os))
        .env_clear()
        .envs(program.env.iter().filter_map(|kv| {
            let kv = os(kv);
            let (k, v) = kv.as_bytes().split_at(kv.as_bytes().iter().position(|&b| b == b'=')?);
            Some((OsStr::from_bytes(k).to_owned(), OsStr::from_bytes(&v[1..]).to_owned()))
        }))
        .env("TMPDIR", launch.dir)
        .current_dir(launch.dir)
        .stdin(Stdio::from(launch.stdin.try_clone()?))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setsid and setrlimit are plain system calls that take no lock, allocate nothing
    // and touch only the copied locals.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0
                || libc::setrlimit(libc::RLIMIT_STACK, &stack) != 0
                || libc::setrlimit(libc::RLIMIT_CPU, &cpu) != 0
                || libc::setrlimit(libc::RLIMIT_FSIZE, &file) != 0
            {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn()?;
    let file = |fd: std::os::fd::OwnedFd| File::from(fd);
    Ok(Spawned {
        pid: child.id(),
        stdout: file(child.stdout.take().expect("piped").into()),
        stderr: file(child.stderr.take().expect("piped").into()),
    })
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
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGALRM => "SIGALRM",
        libc::SIGVTALRM => "SIGVTALRM",
        libc::SIGPROF => "SIGPROF",
        libc::SIGCHLD => "SIGCHLD",
        libc::SIGCONT => "SIGCONT",
        libc::SIGSTOP => "SIGSTOP",
        libc::SIGTSTP => "SIGTSTP",
        libc::SIGTTIN => "SIGTTIN",
        libc::SIGTTOU => "SIGTTOU",
        libc::SIGURG => "SIGURG",
        libc::SIGWINCH => "SIGWINCH",
        libc::SIGIO => "SIGIO",
        _ => return None,
    })
}
