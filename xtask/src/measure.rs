//! Benchmark plumbing: build release binaries and the seed peers, run commands on an input
//! file while recording wall time and peak memory, and print side-by-side medians.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Options every `cargo xtask bench PROBLEM` takes.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Timed runs of each program on each input (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Folder holding the peers, the published editorials' programs built as
    /// `hero-battle-seed`, `toy-train-seed` (up to 20,000 stations) and `toy-train-seed-big`,
    /// and the public solutions a user builds as `toy-train-timpostuvan` and `card-duel-thupc`
    /// (see docs/notes/toy-train-profile.md and docs/notes/card-duel-profile.md) [default:
    /// target/seed-peers]. Peers that are absent are skipped: ours run alone.
    #[arg(long)]
    pub peers: Option<PathBuf>,
    /// A script that builds the peers: it is run as `SCRIPT DIR` before the bench when the
    /// folder lacks them.
    #[arg(long)]
    pub build_peers: Option<PathBuf>,
    /// Only the smaller inputs (a quick look, not the figures for a closing note).
    #[arg(long)]
    pub quick: bool,
}

/// The workspace root (the parent of xtask's manifest folder).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Where generated inputs and outputs go: `target/bench/`.
pub fn bench_dir() -> Result<PathBuf, String> {
    let dir = workspace_root().join("target").join("bench");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Builds `package` in release mode and returns its binary.
pub fn build_release(package: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "--package", package])
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release -p {package} failed"));
    }
    Ok(workspace_root().join("target").join("release").join(package))
}

/// The peers' folder (built first with `--build-peers` when it lacks them); `None`, with a
/// note saying how to get them, when it holds none.
pub fn peers(args: &BenchArgs) -> Option<PathBuf> {
    let dir =
        args.peers.clone().unwrap_or_else(|| workspace_root().join("target").join("seed-peers"));
    let has_peers = |dir: &Path| PEERS.iter().any(|name| dir.join(name).exists());
    if !has_peers(&dir)
        && let Some(script) = &args.build_peers
    {
        let built = Command::new(script).arg(&dir).status().is_ok_and(|s| s.success());
        if !built {
            eprintln!("note: `{} {}` failed", script.display(), dir.display());
        }
    }
    if has_peers(&dir) {
        Some(dir)
    } else {
        eprintln!(
            "note: no peers in {}; timing our binaries alone. Build the editorials' programs \
             there as {} (or pass --peers DIR, or --build-peers SCRIPT)",
            dir.display(),
            PEERS.join(", ")
        );
        None
    }
}

/// The peer programs a bench looks for.
const PEERS: [&str; 5] = [
    "hero-battle-seed",
    "toy-train-seed",
    "toy-train-seed-big",
    "toy-train-timpostuvan",
    "card-duel-thupc",
];

/// Peer `name` in the peers' folder, when it is there.
pub fn peer(args: &BenchArgs, name: &str) -> Option<PathBuf> {
    peers(args).map(|dir| dir.join(name)).filter(|path| path.exists())
}

/// A program to time: a label and its command line (the input arrives on stdin).
#[derive(Clone, Debug)]
pub struct Contender {
    /// Column label, e.g. `ours (1 thread)`.
    pub label: String,
    /// Program and arguments.
    pub command: Vec<OsString>,
}

impl Contender {
    /// A contender from a program path and arguments.
    pub fn new(label: impl Into<String>, program: &Path, args: &[&str]) -> Self {
        let mut command = vec![program.as_os_str().to_owned()];
        command.extend(args.iter().map(OsString::from));
        Self { label: label.into(), command }
    }
}

/// One timed run.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Wall-clock time from spawn to exit.
    pub wall: Duration,
    /// Peak resident memory of the process, in KiB.
    pub max_rss_kib: u64,
    /// CPU time of the process (user and system): what a loaded machine's waiting for a core
    /// leaves out of the wall time.
    pub cpu: Duration,
}

/// Runs `command` with `input` on stdin and stdout into `output`, recording time and peak
/// memory.
///
/// Linux carries a process's peak memory across `exec` from the address space it was forked
/// from, so a program started straight from this (large) process would inherit our peak. The
/// program is therefore started by a fresh, small copy of xtask (`xtask measure-child`),
/// which reports what [`run_direct`] measured.
pub fn run_once(command: &[OsString], input: &Path, output: &Path) -> Result<Sample, String> {
    let report = Command::new(measuring_copy()?)
        .arg("measure-child")
        .arg(input)
        .arg(output)
        .arg("--")
        .args(command)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start the measuring child: {e}"))?;
    let text = String::from_utf8_lossy(&report.stdout);
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    match (report.status.success(), fields.next(), fields.next(), fields.next()) {
        (true, Some(Ok(nanos)), Some(Ok(max_rss_kib)), Some(Ok(cpu))) => Ok(Sample {
            wall: Duration::from_nanos(nanos),
            max_rss_kib,
            cpu: Duration::from_nanos(cpu),
        }),
        _ => Err(format!("measuring {} failed: {}", command[0].to_string_lossy(), text.trim())),
    }
}

/// A private copy of this xtask binary: a concurrent `cargo build` may replace the original
/// while a long benchmark runs.
fn measuring_copy() -> Result<PathBuf, String> {
    static COPY: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let me = std::env::current_exe().map_err(|e| format!("cannot find xtask itself: {e}"))?;
        let copy = bench_dir()?.join(format!("xtask-measure-{}", std::process::id()));
        std::fs::copy(&me, &copy).map_err(|e| format!("cannot copy {}: {e}", me.display()))?;
        Ok(copy)
    })
    .clone()
}

/// `xtask measure-child`: runs the command and prints `wall-nanoseconds peak-KiB
/// cpu-nanoseconds`.
pub fn measure_child(input: &Path, output: &Path, command: &[OsString]) -> Result<(), String> {
    if command.is_empty() {
        return Err("measure-child needs a command".into());
    }
    let sample = run_direct(command, input, output)?;
    println!("{} {} {}", sample.wall.as_nanos(), sample.max_rss_kib, sample.cpu.as_nanos());
    Ok(())
}

/// Runs `command` as a child of this process, with its time and peak memory (`wait4`).
fn run_direct(command: &[OsString], input: &Path, output: &Path) -> Result<Sample, String> {
    let stdin = File::open(input).map_err(|e| format!("cannot open {}: {e}", input.display()))?;
    let stdout =
        File::create(output).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
    let start = Instant::now();
    let child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", command[0].to_string_lossy()))?;
    let (status, max_rss_kib, cpu) = wait_with_rusage(child)?;
    let wall = start.elapsed();
    if status != 0 {
        return Err(format!("{} exited with status {status}", command[0].to_string_lossy()));
    }
    Ok(Sample { wall, max_rss_kib, cpu })
}

/// Waits for `child` and returns its exit status, peak RSS in KiB and CPU time.
#[cfg(unix)]
#[allow(unsafe_code, reason = "wait4 is the only way to read one child's peak memory")]
fn wait_with_rusage(child: std::process::Child) -> Result<(i32, u64, Duration), String> {
    let pid = child.id();
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own unwaited child; both pointers are to live, writable locals.
    let got = unsafe { libc::wait4(pid as libc::pid_t, &raw mut status, 0, &raw mut usage) };
    if got < 0 {
        return Err(format!("wait4 failed: {}", std::io::Error::last_os_error()));
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 };
    let time = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    Ok((code, u64::try_from(usage.ru_maxrss).unwrap_or(0), cpu))
}

/// Waits for `child` and returns its exit status; no portable call reports one child's peak
/// memory or CPU time, so they read 0.
#[cfg(not(unix))]
fn wait_with_rusage(mut child: std::process::Child) -> Result<(i32, u64, Duration), String> {
    let status = child.wait().map_err(|e| format!("wait failed: {e}"))?;
    Ok((status.code().unwrap_or(128), 0, Duration::ZERO))
}

/// Median of the samples' wall times, of their peak memories and of their CPU times.
pub fn medians(samples: &[Sample]) -> Sample {
    let mut walls: Vec<Duration> = samples.iter().map(|s| s.wall).collect();
    let mut rss: Vec<u64> = samples.iter().map(|s| s.max_rss_kib).collect();
    let mut cpus: Vec<Duration> = samples.iter().map(|s| s.cpu).collect();
    walls.sort();
    rss.sort_unstable();
    cpus.sort();
    Sample {
        wall: walls[walls.len() / 2],
        max_rss_kib: rss[rss.len() / 2],
        cpu: cpus[cpus.len() / 2],
    }
}

/// Times every contender on `input`, interleaving their runs (in a shuffled order each run)
/// so machine noise hits all of them alike, checks that they print the same bytes, and prints a table of medians with
/// ratios against the first contender (the baseline).
pub fn compare(
    title: &str,
    input: &Path,
    contenders: &[Contender],
    runs: usize,
) -> Result<Vec<Sample>, String> {
    let dir = bench_dir()?;
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); contenders.len()];
    let mut outputs: Vec<Vec<u8>> = vec![Vec::new(); contenders.len()];
    let mut rng = engine::rng::SplitMix64::new(1);
    for run in 0..runs.max(1) {
        // Each run takes the contenders in an order of its own (fixed by the seed): a run
        // right after a memory-hungry one pays for the pages the system reclaims (a tenth of
        // a second after a 200 MB peer), and a fixed or turning order would make one
        // contender always pay.
        let mut order: Vec<usize> = (0..contenders.len()).collect();
        for k in (1..order.len()).rev() {
            order.swap(k, rng.below(k + 1));
        }
        for i in order {
            let c = &contenders[i];
            let out = dir.join(format!("out-{}-{i}.txt", std::process::id()));
            samples[i].push(run_once(&c.command, input, &out)?);
            if run == 0 {
                outputs[i] = std::fs::read(&out).map_err(|e| format!("cannot read output: {e}"))?;
            }
        }
    }
    for (i, c) in contenders.iter().enumerate().skip(1) {
        if outputs[i] != outputs[0] {
            return Err(format!(
                "{title}: {} and {} print different answers",
                contenders[0].label, c.label
            ));
        }
    }
    let size = std::fs::metadata(input).map(|m| m.len()).unwrap_or(0);
    println!(
        "\n{title}  ({}, {:.1} MB, median of {} runs)",
        input.display(),
        size as f64 / 1e6,
        runs.max(1)
    );
    let meds: Vec<Sample> = samples.iter().map(|s| medians(s)).collect();
    let base = meds[0];
    for (c, m) in contenders.iter().zip(&meds) {
        let speedup = base.wall.as_secs_f64() / m.wall.as_secs_f64().max(1e-9);
        println!(
            "  {:<28} {:>10.2} ms {:>9.1} MB  {:>7.1}x faster than {}",
            c.label,
            m.wall.as_secs_f64() * 1e3,
            m.max_rss_kib as f64 / 1024.0,
            speedup,
            contenders[0].label,
        );
    }
    Ok(meds)
}

/// The median and the worst over many inputs of each contender's median time: one case a
/// file, every file run `runs` times per contender (the contenders interleaved), its median
/// kept; prints one line per contender and returns `(median, worst)` per contender.
pub fn latency(
    title: &str,
    inputs: &[PathBuf],
    contenders: &[Contender],
    runs: usize,
) -> Result<Vec<(Duration, Duration)>, String> {
    let dir = bench_dir()?;
    let mut per_input: Vec<Vec<Duration>> = vec![Vec::new(); contenders.len()];
    for input in inputs {
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); contenders.len()];
        for _ in 0..runs.max(1) {
            for (i, c) in contenders.iter().enumerate() {
                let out = dir.join(format!("out-{}-{i}.txt", std::process::id()));
                samples[i].push(run_once(&c.command, input, &out)?);
            }
        }
        for (i, s) in samples.iter().enumerate() {
            per_input[i].push(medians(s).wall);
        }
    }
    println!(
        "\n{title}  ({} inputs, median of {} runs each; median and worst over the inputs)",
        inputs.len(),
        runs.max(1)
    );
    let mut summary = Vec::new();
    for (c, times) in contenders.iter().zip(&mut per_input) {
        times.sort();
        let (median, worst) = (times[times.len() / 2], times[times.len() - 1]);
        let within = times.iter().filter(|t| t.as_millis() <= 50).count();
        println!(
            "  {:<28} median {:>8.1} ms   worst {:>8.1} ms   {within} of {} within 50 ms",
            c.label,
            median.as_secs_f64() * 1e3,
            worst.as_secs_f64() * 1e3,
            times.len(),
        );
        summary.push((median, worst));
    }
    Ok(summary)
}

/// Prints how much faster the second sample is than the first: `first / second`.
pub fn print_ratio(label: &str, first: Sample, second: Sample) {
    let ratio = first.wall.as_secs_f64() / second.wall.as_secs_f64().max(1e-9);
    println!("  {label:<28} {ratio:>10.2}x");
}

/// Writes `text` to `target/bench/NAME` and returns the path.
pub fn write_input(name: &str, text: &[u8]) -> Result<PathBuf, String> {
    let path = bench_dir()?.join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// `n` with thousands separators: `20,000`.
pub fn thousands(n: u64) -> String {
    judge::text::count(n)
}

/// The line a figures table stands under: the date, the machine, its load average over the
/// last minute (other work makes every time longer) and the thread counts, e.g.
/// `2026-12-01, Intel Xeon ... (2 cores), linux, load 0.4, -j 1 and -j 2:`.
pub fn machine_line(threads: &[&str]) -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (year, month, day) = civil_date(days);
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|l| l.strip_prefix("model name")).map(|l| {
                l.trim_start_matches([' ', '\t', ':'])
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(|one| format!(", load {one}")))
        .unwrap_or_default();
    format!(
        "{year}-{month:02}-{day:02}, {cpu} ({cores} cores), {}{load}, {}:",
        std::env::consts::OS,
        threads.join(" and ")
    )
}

/// The calendar date of day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(20_788), (2026, 12, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
    }
}
