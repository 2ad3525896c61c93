//! What the problem crates' tests share (feature `testing`, not part of the API): the
//! contracts of [`Problem`] checked on any problem, a judge that accepts everything for
//! measuring the loop, the proof that a shrunk input is 1-minimal, corrupted inputs for the
//! parsers' property tests, programs written on the fly, the check that stopping a judging
//! command leaves nothing running, a toy problem to test the judge itself with a game on it
//! ([`subtraction`], a game in one file), the one
//! end-to-end conformance run of a problem's binary ([`binary_conformance`]), the
//! package tests' validator agreement and end-to-end build ([`package`]), a player of
//! the interactive games with the server it asks its moves of ([`interactive`]), the web
//! page and its server checked over a socket and in a real browser ([`page`]), scratch
//! folders that leave nothing behind ([`TestDir`]), and the AVX2 token for the tests that
//! compare a vector kernel with its portable twin (`avx2`).

mod conformance;
pub mod corrupt;
pub mod interactive;
pub mod package;
pub mod page;
mod scratch;
pub mod subtraction;
pub mod toy;

pub use conformance::{
    BinaryCase, Found, Judged, Sample, WrongProgram, assert_runs_again, binary_conformance,
};
pub use scratch::TestDir;

use std::path::Path;
use std::time::{Duration, Instant};

use crate::hunt::trial;
use crate::rules::{Limits, Problem, VerdictKind, render};
use crate::sandbox::{ChildOptions, Program, Sandbox};
use engine::rng::SplitMix64;

/// The AVX2 token for `test`, which compares a vector kernel with its portable twin. Where
/// the CPU has no AVX2 there is nothing to compare: `None`, saying on stderr that `test` is
/// skipped (written to the stream itself, which the test harness does not capture, so that a
/// passing run shows it too); but on CI (`CI` set, as `.ci/run` sets it), whose machine is to
/// run the kernels that users' machines run, that is a failure.
///
/// # Panics
/// On CI, when the CPU has no AVX2.
#[cfg(target_arch = "x86_64")]
#[must_use]
pub fn avx2(test: &str) -> Option<engine::simd::Avx2> {
    use std::io::Write;
    let avx2 = engine::simd::Avx2::detect();
    if avx2.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: CI must compare the AVX2 kernels with the portable ones, and this CPU has \
             no AVX2"
        );
        let skipped = format!("skipped: {test}: this CPU has no AVX2, nothing to compare");
        writeln!(std::io::stderr(), "{skipped}").expect("stderr takes a line");
    }
    avx2
}

/// The sandbox the tests share: one per test process, as a binary has one.
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: std::sync::OnceLock<Sandbox> = std::sync::OnceLock::new();
    SANDBOX.get_or_init(Sandbox::new)
}

/// How `stress` or `shrink` (`command`) ends on `problem` in the tests' sandbox, as a
/// problem's binary runs it (signals caught, a source COMMAND built, `--subtask` held), but
/// without printing; `None` for another subcommand.
#[cfg(feature = "cli")]
#[must_use]
pub fn hunt_ending<P: crate::package::Packaged>(
    command: &crate::cli::JudgeCommand,
    problem: &P,
) -> Option<crate::cli::Ending> {
    Some(crate::cli::hunt_ending(sandbox(), problem, command.hunt_args()?, None))
}

/// Checks the contracts of [`Problem`] on `problem` with `draws` generated inputs per level
/// and limits: generated and extreme inputs are valid and round-trip through `render` and
/// `parse`; every shrink move of them (the first `moves` of each) lowers the size; the
/// exhaustive enumeration up to `exhaustive` (when given) has valid first and last inputs.
///
/// # Panics
/// At the first broken contract, naming the input.
pub fn check_contracts<P: Problem>(problem: &P, draws: u32, moves: usize, exhaustive: Option<u64>)
where
    P::Input: PartialEq,
{
    let mut rng = SplitMix64::new(0x00c0_ffee);
    for limits in [Limits::Original, Limits::Extended] {
        let generated = (0..P::LEVELS).flat_map(|level| (0..draws).map(move |_| level));
        let mut inputs: Vec<(String, P::Input)> = Vec::new();
        for level in generated {
            inputs.push((format!("level {level}"), problem.generate(&mut rng, level, limits)));
        }
        for k in 0..problem.extremes(limits) {
            inputs.push((format!("extreme {k}"), problem.extreme(k, &mut rng, limits)));
        }
        for (what, input) in &inputs {
            assert_round_trip(problem, input, limits, what);
            let size = problem.size(input);
            for (i, candidate) in problem.shrink(input).take(moves).enumerate() {
                let smaller = problem.size(&candidate);
                assert!(
                    smaller < size,
                    "{limits} {what}: move {i} goes from size {size} to {smaller}"
                );
            }
        }
        if let Some(bound) = exhaustive {
            let len = problem.exhaustive_len(bound, limits).expect("the bound has an enumeration");
            assert!(len > 0, "an enumeration up to {bound} is not empty");
            for index in [0, len - 1] {
                let input = problem.exhaustive(bound, index, limits).expect("below the length");
                assert_round_trip(problem, &input, limits, &format!("exhaustive input {index}"));
            }
            assert!(problem.exhaustive(bound, len, limits).is_none(), "past the end: None");
        }
    }
}

/// Asserts that `input` is valid under `limits` and that rendering and parsing it gives it
/// back.
///
/// # Panics
/// When it is not.
pub fn assert_round_trip<P: Problem>(problem: &P, input: &P::Input, limits: Limits, what: &str)
where
    P::Input: PartialEq,
{
    if let Err(e) = problem.validate(input, limits) {
        panic!("{limits} {what} is invalid: {e}");
    }
    let bytes = render(problem, input);
    match problem.parse(&bytes, limits) {
        Ok(again) => assert!(again == *input, "{limits} {what} does not round-trip"),
        Err(e) => panic!("{limits} {what} does not parse back: {e}"),
    }
}

/// The parser's property on any bytes: under both limits, whatever parses is valid and
/// renders back to an equal input. Parsing must not panic, which the caller's property test
/// (with [`corrupt::corrupt`]ed inputs and noise) checks by calling this.
///
/// # Panics
/// When a parsed input is invalid or does not round-trip.
pub fn assert_parses_soundly<P: Problem>(problem: &P, bytes: &[u8])
where
    P::Input: PartialEq,
{
    for limits in [Limits::Original, Limits::Extended] {
        if let Ok(input) = problem.parse(bytes, limits) {
            assert_round_trip(problem, &input, limits, "a parsed input");
        }
    }
}

/// Asserts that an input is 1-minimal for `program` under its moves `one_step`: each is
/// invalid under `limits` or does not fail with `kind`. `one_step` is the test's own list of
/// single moves (drop one case, lower one number by one, ...), written independently of the
/// problem's [`Problem::shrink`], so the proof does not trust the code it checks.
///
/// # Panics
/// When a move is valid and fails the same way, or a run cannot be carried out.
pub fn assert_one_minimal<P: Problem>(
    problem: &P,
    program: &Program,
    kind: VerdictKind,
    limits: Limits,
    options: &ChildOptions,
    one_step: impl IntoIterator<Item = P::Input>,
) {
    for candidate in one_step {
        if problem.validate(&candidate, limits).is_err() {
            continue;
        }
        let t = trial(sandbox(), problem, program, &candidate, options).expect("the move runs");
        assert_ne!(
            t.verdict.kind, kind,
            "{candidate:?} is one move smaller and fails: {}",
            t.verdict
        );
    }
}

/// A shell script a test runs as the user's program.
#[derive(Clone, Debug)]
pub struct ShellScript {
    /// Where it is.
    pub path: String,
    /// `/bin/sh PATH`.
    pub program: Program,
}

/// Writes `text` as `dir/name` (aside, then renamed, so no run reads half of it) and returns
/// it as the program `/bin/sh dir/name`.
///
/// # Panics
/// When the folder is not writable.
#[must_use]
pub fn shell_script(dir: &Path, name: &str, text: &str) -> ShellScript {
    let path = dir.join(name);
    let aside = dir.join(format!(".{name}.{:?}", std::thread::current().id()));
    std::fs::write(&aside, text).expect("the scratch folder is writable");
    std::fs::rename(&aside, &path).expect("the scratch folder is writable");
    let path = path.display().to_string();
    ShellScript { program: Program::new(&["/bin/sh", path.as_str()]), path }
}

/// The processes whose command line mentions `marker` (Linux: read from `/proc`), other than
/// zombies.
#[must_use]
pub fn processes_mentioning(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let zombie = stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z');
            !zombie && String::from_utf8_lossy(&cmdline).contains(marker)
        })
        .collect()
}

/// [`assert_stops_cleanly`] for `binary stress` with each of SIGINT, SIGTERM, SIGHUP and
/// SIGKILL, and SIGINT's report saying so.
///
/// # Panics
/// As [`assert_stops_cleanly`], or when the report does not start with `interrupted by SIGINT`.
pub fn assert_stress_stops_cleanly(binary: &str, dir: &Path) {
    let args = ["stress", "--time-limit", "60", "-j", "2", "--"];
    for signal in [2, 15, 1, 9] {
        let printed = assert_stops_cleanly(binary, &args, dir, signal);
        if signal == 2 {
            assert!(printed.starts_with("interrupted by SIGINT"), "{printed}");
        }
    }
}

/// Starts `binary stress` (or any judging subcommand given by `args`, which must end with `--`)
/// on a program that never ends, waits until it runs, sends `signal`, and asserts that the
/// command exits with `128 + signal` (or is killed, for SIGKILL) and that no process of the
/// program is left. Returns what the command printed on stdout.
///
/// # Panics
/// When the program does not start within 20 s, the command does not end within 20 s of the
/// signal, its exit is not the one shells expect, or a process of the program is left.
#[must_use]
pub fn assert_stops_cleanly(binary: &str, args: &[&str], dir: &Path, signal: i32) -> String {
    let marker = format!("forever-{}-{signal}-{}", std::process::id(), args.join("-"));
    let marker = marker.replace(['/', ' '], "_");
    let script = dir.join(format!("{marker}.sh"));
    // A loop in a child of the program, and one in the program itself: both must go.
    let text = format!("sh -c 'while :; do sleep 1; done' {marker}-child &\nwhile :; do :; done\n");
    std::fs::write(&script, text).expect("the scratch folder is writable");
    let mut command = std::process::Command::new(binary);
    command.args(args).args(["/bin/sh", &script.display().to_string()]);
    command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null());
    let mut child = command.spawn().expect("the binary starts");
    let started = Instant::now();
    // The binary's own command line names the script too: wait for another process, the
    // program, so that the signal comes after the binary has set up its handlers.
    while processes_mentioning(&marker).iter().all(|&pid| pid == child.id()) {
        assert!(started.elapsed() < Duration::from_secs(20), "{marker} never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = i32::try_from(child.id()).expect("a pid fits");
    let sent = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid}");
    let waited = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        assert!(waited.elapsed() < Duration::from_secs(20), "not stopped by signal {signal}");
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut out, &mut stdout);
    }
    if signal == 9 {
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
    } else {
        assert_eq!(status.code(), Some(128 + signal), "{args:?}: {stdout}");
    }
    // The kernel finishes killing a group asynchronously: give it a moment.
    let mut left = processes_mentioning(&marker);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        left = processes_mentioning(&marker);
    }
    if signal == 9 {
        // Only the program itself dies with us (PR_SET_PDEATHSIG); what it started is adopted
        // by init. The next judge to run ends what a killed judge left in its cgroups and
        // removes its run folders; without cgroups, the test kills the rest itself.
        let _ = std::process::Command::new(binary)
            .args(["stress", "--runs", "1", "--no-shrink", "--save"])
            .arg(dir.join(format!("{marker}-after.in")))
            .args(["--", "/bin/true"])
            .current_dir(dir)
            .output()
            .expect("the binary runs again");
        let leftovers = |folder: &str, prefix: &str| -> Vec<String> {
            std::fs::read_dir(folder)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with(&format!("{prefix}{pid}-")))
                .collect()
        };
        assert!(leftovers("/dev/shm", "judge-run-").is_empty(), "run folders left");
        assert!(std::env::temp_dir().join(format!("judge-run-{pid}-0")).metadata().is_err());
        if sandbox().has_cgroups() {
            for _ in 0..100 {
                left = processes_mentioning(&marker);
                if left.is_empty() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            assert!(left.is_empty(), "left running after the next judge: {left:?}");
        }
        let program = format!("{marker}.sh");
        let programs: Vec<u32> = left
            .iter()
            .copied()
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&program))
            })
            .collect();
        for pid in &left {
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        assert!(programs.is_empty(), "the program outlived a SIGKILLed judge: {programs:?}");
    } else {
        assert!(left.is_empty(), "left running after signal {signal}: {left:?}");
    }
    stdout
}

/// The bytes of `text` written with C escapes (`\n`, `\t`, `\r`, `\v`, `\f`, `\\`, `\"`,
/// `\xHH`), as data files quote outputs that hold control characters.
///
/// # Panics
/// On an escape other than these.
#[must_use]
pub fn unescape_c(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        out.push(match bytes.next() {
            Some(b'n') => b'\n',
            Some(b't') => b'\t',
            Some(b'r') => b'\r',
            Some(b'v') => 0x0b,
            Some(b'f') => 0x0c,
            Some(b'\\') => b'\\',
            Some(b'"') => b'"',
            Some(b'x') => {
                let digits: String = bytes.by_ref().take(2).map(char::from).collect();
                u8::from_str_radix(&digits, 16)
                    .unwrap_or_else(|_| panic!("\\x{digits} in {text:?} is no hex byte"))
            }
            other => panic!("no escape {other:?} in {text:?}"),
        });
    }
    out
}
