//! One end-to-end conformance run of a problem's real binary: what every binary must do the
//! same way, run once for each, so that the problem crates' own suites hold only what is
//! their own (their checker rule's verdict tables, their validator's rules, their extremes,
//! their exhaustive enumerations, their one-step moves).
//!
//! [`binary_conformance`] runs, each against the binary itself:
//!
//! - `check` in the three protocols on the first sample: testlib's exit codes and one line
//!   on stderr, Kattis's 42 and 43 with the same line in `judgemessage.txt` (the output on
//!   stdin), CMS's `1.0` and `0.0` on stdout with the same line on stderr; a malformed input,
//!   a jury answer that disagrees with ours or is no answer, and bad usage are fails (3),
//!   never testlib's 2; `--trust-answer` takes the jury's answer as it is;
//! - `validate` accepts every sample (from stdin and from a file, Kattis's 42), rejects the
//!   broken input with the parser's message and its place (Kattis's 43), holds a file to the
//!   canonical format unless `--lenient`;
//! - `stress` passes the right program, and a program that cannot start is trouble (exit 2);
//! - `stress` on each wrong program finds the failure (at its run, when the problem says
//!   which), confirms it, shrinks it, says it is 1-minimal under the default limits (a hang
//!   under a CPU-time limit of half a second), and saves exactly the files the report names,
//!   each holding what the report says; the saved input fails again with its kind and is
//!   1-minimal under the problem's own one-step moves; `shrink` on it says it is 1-minimal;
//!   its replay line, run with `--no-shrink`, finds the same failure at the same run; and
//!   for the first wrong program the report reads the same for `-j 1` as for `-j 2` but for
//!   its `measured:` and `time:` lines, and the replay line as printed shrinks it alike; its
//!   `run it again` line, run by a shell as printed, fails so again ([`assert_runs_again`]);
//! - stopping `stress` by SIGINT, SIGTERM, SIGHUP or SIGKILL, and `shrink` by SIGINT, leaves
//!   nothing running ([`assert_stress_stops_cleanly`]).
//!
//! The parts run on three threads at once; every run they make is limited by CPU time, so a
//! busy machine slows them and changes no verdict.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::sandbox;
use super::{assert_one_minimal, assert_stops_cleanly, assert_stress_stops_cleanly};
use crate::hunt::trial;
use crate::rules::{Limits, Problem, VerdictKind, render};
use crate::sandbox::ChildOptions;

/// The CPU-time limit under which a wrong program that hangs must be a time limit exceeded:
/// it spins, so it meets the limit in CPU time however busy the machine is, and a normal run
/// of a wrapper around a binary on a small input takes a few tens of milliseconds of it.
const HANG_TIME_LIMIT: Duration = Duration::from_millis(500);

/// How many parts of a conformance run go on at once.
const WORKERS: usize = 3;

/// What a problem supplies to [`binary_conformance`]: what is its own.
#[derive(Clone, Debug)]
pub struct BinaryCase<I> {
    /// The samples with their answers; the first is the one `check` speaks every
    /// protocol on.
    pub samples: Vec<Sample>,
    /// An output for the first sample with a wrong answer, and the line `check` says to it.
    pub wrong_output: Judged,
    /// An output for the first sample that is a presentation error (and, given as the jury's
    /// answer, no answer at all), and the line `check` says to it.
    pub malformed_output: Judged,
    /// An input that breaks a rule, and the parser's message for it with its place
    /// (`line 2, column 24: expected ...`), the same under both limits.
    pub broken_input: Judged,
    /// Arguments after the binary for the right program, the binary itself (`--threads 1`).
    pub right_args: Vec<&'static str>,
    /// How many runs of `stress` the right program must pass, and the report's first line:
    /// `ok: no failure in 120 runs, 120 cases (seed 1)`.
    pub right_runs: (u64, &'static str),
    /// The problem's default run limits as a report states them: `1 s of CPU time (3 s of
    /// wall time) and 256 MB of memory, the stack's too, a run (the original judge's)`.
    pub default_limits: &'static str,
    /// Programs that go wrong, among them at least one of each kind `stress` reports (wrong
    /// answer, presentation error, runtime error, time limit exceeded).
    pub wrong: Vec<WrongProgram<I>>,
    /// The test's own one-step moves of an input (drop one case, lower one number by one, ...),
    /// written apart from the problem's [`Problem::shrink`]: the proof of 1-minimality.
    pub one_step: fn(&I) -> Vec<I>,
}

/// One sample: an input and its answer.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The input.
    pub input: Vec<u8>,
    /// Its answer.
    pub answer: Vec<u8>,
}

impl Sample {
    /// The samples of folder `dir`: each `sampleN.in` with its answer `sampleN.out`, by name.
    ///
    /// # Panics
    /// When the folder holds no sample, or a sample has no answer.
    #[must_use]
    pub fn all_in(dir: &Path) -> Vec<Sample> {
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|entry| entry.path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("sample")))
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "no sample in {}", dir.display());
        let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        inputs
            .iter()
            .map(|p| Sample { input: read(p), answer: read(&p.with_extension("out")) })
            .collect()
    }
}

/// A text and the one line the judge says to it.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The text (an output or an input).
    pub text: &'static str,
    /// The line, without its newline.
    pub says: &'static str,
}

/// A program that goes wrong: a `/bin/sh` script, usually a wrapper around the problem's own
/// binary.
#[derive(Clone, Debug)]
pub struct WrongProgram<I> {
    /// Its name: its script's and its folder's.
    pub name: &'static str,
    /// The script; `BINARY` in it stands for the binary under test. Each run starts in a
    /// fresh folder of its own, so the script may write files there.
    pub script: String,
    /// The kind of verdict it must get.
    pub kind: VerdictKind,
    /// The `stress` options that find it (`--runs 100`, `--exhaustive 2`); `-j` and, for a
    /// time limit, `--time-limit` are the conformance run's.
    pub stress: Vec<String>,
    /// The run that must find it, the runs before it passing: a failure that an extreme input
    /// finds.
    pub found_by: Option<u64>,
    /// The input it must shrink to, where the problem's oracle says which.
    pub shrinks_to: Option<I>,
}

impl<I> WrongProgram<I> {
    /// A wrong program `name` running `script`, which must get `kind`, found within 100 runs.
    #[must_use]
    pub fn new(name: &'static str, kind: VerdictKind, script: impl Into<String>) -> Self {
        Self {
            name,
            script: script.into(),
            kind,
            stress: vec!["--runs".into(), "100".into()],
            found_by: None,
            shrinks_to: None,
        }
    }

    /// Found by `stress` with `options` instead.
    #[must_use]
    pub fn stress(self, options: &[&str]) -> Self {
        Self { stress: options.iter().map(|&o| o.to_owned()).collect(), ..self }
    }

    /// Found by run `run` and no run before it: `stress --runs run` passes and `stress --runs
    /// run+1` reports `found by run run`.
    #[must_use]
    pub fn found_by(self, run: u64) -> Self {
        Self { stress: vec!["--runs".into(), (run + 1).to_string()], found_by: Some(run), ..self }
    }

    /// Shrunk to `input`.
    #[must_use]
    pub fn shrinks_to(self, input: I) -> Self {
        Self { shrinks_to: Some(input), ..self }
    }
}

/// What a conformance run found with one wrong program, for the problem's own assertions.
#[derive(Clone, Debug)]
pub struct Found<I> {
    /// The wrong program's name.
    pub name: &'static str,
    /// The shrunk input, as saved.
    pub input: I,
    /// The `stress` report (`-j 2`).
    pub report: String,
    /// The run that found it.
    pub run: u64,
    /// That run's input, unshrunk: what its replay line saved with `--no-shrink`.
    pub unshrunk: I,
}

/// Runs `binary` (the problem's, from `env!("CARGO_BIN_EXE_...")`) end to end for everything
/// every binary must do the same way (see the module notes), in scratch folders of its own,
/// and returns what `stress` found with each wrong program, in their order.
///
/// # Panics
/// At the first thing the binary does otherwise, or when the wrong programs miss a kind.
pub fn binary_conformance<P: Problem>(
    problem: &P,
    binary: &str,
    case: &BinaryCase<P::Input>,
) -> Vec<Found<P::Input>>
where
    P::Input: PartialEq,
{
    assert!(!case.samples.is_empty(), "a conformance run needs a sample");
    for kind in [
        VerdictKind::WrongAnswer,
        VerdictKind::PresentationError,
        VerdictKind::RuntimeError,
        VerdictKind::TimeLimit,
    ] {
        assert!(case.wrong.iter().any(|w| w.kind == kind), "no wrong program gets a {kind}");
    }
    let name = Path::new(binary).file_name().map_or("binary".into(), |n| n.to_string_lossy());
    let scratch = super::TestDir::new(&format!("conformance-{name}"));
    let run = Conformance { problem, binary, case, root: scratch.to_path_buf() };

    // The slowest parts first: the hangs (each spins to its limit), the stops, the rest.
    let mut order: Vec<Part> = Vec::new();
    let hangs = |w: &&WrongProgram<P::Input>| w.kind == VerdictKind::TimeLimit;
    order.extend(
        case.wrong.iter().enumerate().filter(|(_, w)| hangs(w)).map(|(i, _)| Part::Wrong(i)),
    );
    order.push(Part::Stops);
    order.extend(
        case.wrong.iter().enumerate().filter(|(_, w)| !hangs(w)).map(|(i, _)| Part::Wrong(i)),
    );
    order.extend([Part::Right, Part::Check, Part::Validate]);
    let next = AtomicUsize::new(0);
    let mut found: Vec<Option<Found<P::Input>>> = case.wrong.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(&part) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                        match part {
                            Part::Check => run.check(),
                            Part::Validate => run.validate(),
                            Part::Right => run.right(),
                            Part::Stops => run.stops(),
                            Part::Wrong(i) => done.push((i, run.wrong(i))),
                        }
                    }
                    done
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(done) => {
                    for (i, f) in done {
                        found[i] = Some(f);
                    }
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    found.into_iter().map(|f| f.expect("every wrong program ran")).collect()
}

/// One part of a conformance run.
#[derive(Clone, Copy, Debug)]
enum Part {
    Check,
    Validate,
    Right,
    Stops,
    Wrong(usize),
}

/// A conformance run's fixed facts.
struct Conformance<'a, P: Problem> {
    problem: &'a P,
    binary: &'a str,
    case: &'a BinaryCase<P::Input>,
    root: PathBuf,
}

/// Exit code, stdout and stderr of one run of the binary, as text.
#[derive(Debug)]
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// Asserts the exit code, stdout and stderr.
    #[track_caller]
    fn is(&self, code: i32, stdout: &str, stderr: &str, what: &str) {
        assert_eq!(
            (self.code, self.stdout.as_str(), self.stderr.as_str()),
            (code, stdout, stderr),
            "{what}"
        );
    }

    /// Asserts the exit code, an empty stdout and a stderr that starts with `stderr`.
    #[track_caller]
    fn fails(&self, code: i32, stderr: &str, what: &str) {
        assert_eq!((self.code, self.stdout.as_str()), (code, ""), "{what}: {}", self.stderr);
        assert!(self.stderr.starts_with(stderr), "{what}: {}", self.stderr);
    }
}

/// Runs the `run it again:` line of `report`, a failure report of `binary`'s, as a shell
/// command exactly as printed, in `dir` (where the report was made) with `binary`'s folder
/// first on `PATH` (as a user has it), and asserts that it gives the report's verdict again:
///
/// - an `interact` line: exit code 1 and the report's verdict line (for a time limit, its
///   kind: the figures in it vary);
/// - a batch line (`COMMAND < INPUT`): a time limit still runs after 3 s (the programs the
///   tests plant spin forever), and is then ended with its process group; a runtime error
///   ends with its exit code or signal; for a wrong answer or a presentation error, `binary
///   check INPUT OUTPUT` on what it wrote says the report's verdict line.
///
/// # Panics
/// When the report has no such line, or the line does not give the verdict again.
pub fn assert_runs_again(binary: &str, dir: &Path, report: &str) {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let line = report.lines().find_map(|l| l.strip_prefix("run it again: "));
    let line = line.unwrap_or_else(|| panic!("no `run it again` line:\n{report}"));
    let verdict = report.lines().skip_while(|l| !l.is_empty()).nth(1).expect("a verdict line");
    let kind = verdict.split(':').next().expect("a verdict names its kind");
    let folder = Path::new(binary).parent().expect("the binary is in a folder");
    let path = std::env::join_paths(
        std::iter::once(folder.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH can hold the binary's folder");
    let out_dir = fresh(&dir.join("run-it-again")).to_path_buf();
    let out_path = out_dir.join("stdout");
    let stdout = std::fs::File::create(&out_path).expect("the scratch folder is writable");
    let mut child = Command::new("/bin/sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let interactive = line.contains(" interact ") || line.ends_with(" interact");
    let bound = Duration::from_secs(if interactive { 120 } else { 3 });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("sh can be waited for") {
            break Some(status);
        }
        if started.elapsed() >= bound {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-s", "KILL", "--", &group]).status();
            child.wait().expect("sh can be waited for");
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = std::fs::read_to_string(&out_path).unwrap_or_default();
    let what = format!("`{line}` in {}, for `{verdict}`", dir.display());
    if interactive {
        let status = status.unwrap_or_else(|| panic!("{what}: still running after {bound:?}"));
        assert_eq!(status.code(), Some(1), "{what}: {output}");
        let again = output.lines().skip_while(|l| !l.is_empty()).nth(1).unwrap_or_default();
        if kind == VerdictKind::TimeLimit.words() {
            assert!(again.starts_with(&format!("{kind}: ")), "{what}: {output}");
        } else {
            assert_eq!(again, verdict, "{what}: {output}");
        }
        return;
    }
    if kind == VerdictKind::TimeLimit.words() {
        assert!(status.is_none(), "{what}: it ended, {status:?}: {output}");
        return;
    }
    let status = status.unwrap_or_else(|| panic!("{what}: still running after {bound:?}"));
    if kind == VerdictKind::RuntimeError.words() {
        let how = verdict.strip_prefix("runtime error: ").expect("a runtime error's line");
        let ended = match (status.code(), status.signal()) {
            // A shell that did not hand itself over to the program reports its signal so.
            (Some(code), _) if code > 128 => format!("signal {}", code - 128),
            (Some(code), _) => format!("exit code {code}"),
            (None, Some(signal)) => format!("signal {signal}"),
            (None, None) => unreachable!("an exited process has a code or a signal"),
        };
        // `exit code 3, stderr: ...`, `signal 11 (SIGSEGV)`.
        let rest = how.strip_prefix(ended.as_str());
        assert!(
            rest.is_some_and(|r| r.is_empty() || r.starts_with([',', ' '])),
            "{what}: {status}"
        );
        return;
    }
    let input = line.rsplit_once(" < ").expect("a batch line reads its input with <").1;
    let input = dir.join(input);
    let checked = Command::new(binary)
        .arg("check")
        .args([input.as_os_str(), out_path.as_os_str()])
        .output()
        .expect("the binary runs");
    let said = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(said.lines().next(), Some(verdict), "{what}: {status}, {output}");
}

/// A fresh, empty folder.
fn fresh(dir: &Path) -> &Path {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("the temporary folder is writable");
    dir
}

/// Writes `bytes` to `dir/name` and returns the path as text.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("the scratch folder is writable");
    path.display().to_string()
}

/// The lines of a report but its `measured:` and `time:` lines, which vary from run to run.
fn steady(report: &str) -> Vec<&str> {
    let varying = |l: &&str| l.starts_with("time: ") || l.starts_with("measured: ");
    report.lines().filter(|l| !varying(l)).collect()
}

/// The files a report says it saved, as it names them.
fn saved_files(report: &str) -> Vec<String> {
    report
        .lines()
        .filter_map(|l| l.split_once(", saved to ").map(|(_, rest)| rest))
        .map(|rest| {
            let rest = rest.strip_suffix(", first lines:").unwrap_or(rest);
            rest.strip_suffix(':').unwrap_or(rest).to_owned()
        })
        .collect()
}

impl<P: Problem> Conformance<'_, P>
where
    P::Input: PartialEq,
{
    /// `binary ARGS` in `dir`, fed `stdin`.
    fn run(&self, dir: &Path, args: &[&str], stdin: &[u8]) -> Ran {
        let mut child = Command::new(self.binary)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", self.binary));
        // A binary that exits before reading its input closes the pipe: not a failure here.
        let written = child.stdin.take().map(|mut pipe| pipe.write_all(stdin));
        if let Some(Err(e)) = written {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing to {args:?}: {e}");
        }
        let out = child.wait_with_output().expect("the binary can be waited for");
        Ran {
            code: out.status.code().unwrap_or_else(|| panic!("{args:?} killed: {}", out.status)),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// `check` in every protocol on the first sample, and its fails.
    fn check(&self) {
        let dir = fresh(&self.root.join("check")).to_path_buf();
        let case = self.case;
        let sample = &case.samples[0];
        let input = write(&dir, "sample.in", &sample.input);
        let answer = write(&dir, "sample.ans", &sample.answer);
        let wrong = write(&dir, "wrong.out", case.wrong_output.text.as_bytes());
        let malformed = write(&dir, "malformed.out", case.malformed_output.text.as_bytes());
        let broken = write(&dir, "broken.in", case.broken_input.text.as_bytes());
        let wrong_line = format!("{}\n", case.wrong_output.says);
        let malformed_line = format!("{}\n", case.malformed_output.says);
        let broken_line = format!("fail: input: {}\n", case.broken_input.says);
        assert!(wrong_line.starts_with("wrong answer: "), "{wrong_line}");
        assert!(malformed_line.starts_with("presentation error: "), "{malformed_line}");
        let check = |args: &[&str]| self.run(&dir, &[&["check"], args].concat(), b"");

        // testlib: the exit code and one line on stderr, with our answer or the jury's.
        for (i, sample) in case.samples.iter().enumerate() {
            let input = write(&dir, &format!("sample{i}.in"), &sample.input);
            let answer = write(&dir, &format!("sample{i}.ans"), &sample.answer);
            let ours = check(&[&input, &answer]);
            assert_eq!((ours.code, ours.stdout.as_str()), (0, ""), "sample {i}: {}", ours.stderr);
            assert!(ours.stderr.starts_with("ok: ") && ours.stderr.lines().count() == 1);
            check(&[&input, &answer, &answer]).is(0, "", &ours.stderr, "with the jury's answer");
        }
        let ok = check(&[&input, &answer]).stderr;
        for jury in [None, Some(answer.as_str())] {
            for (output, code, line) in [(&wrong, 1, &wrong_line), (&malformed, 2, &malformed_line)]
            {
                let args: Vec<&str> = [input.as_str(), output].into_iter().chain(jury).collect();
                check(&args).is(code, "", line, "a wrong answer or a presentation error");
            }
        }
        // The judge's own faults and bad usage are fails, never testlib's 2.
        check(&[&broken, &answer]).is(3, "", &broken_line, "a malformed input");
        let disagrees = "fail: the answer file disagrees with ours: ";
        check(&[&input, &answer, &wrong]).fails(3, disagrees, "a wrong jury answer");
        check(&[&input, &answer, &malformed]).fails(3, "fail: answer: ", "no jury answer");
        let trusted = check(&["--trust-answer", &input, &answer, &wrong]);
        trusted.fails(1, "wrong answer: ", "a trusted jury answer is taken as it is");
        let usage = "fail: Testlib checkers take INPUT OUTPUT [ANSWER], got 1";
        check(&[&input]).fails(3, usage, "one file");
        check(&["--no-such-flag", &input, &answer]).fails(3, "error: unexpected argument", "flag");
        check(&[&input, "/no/such/output"]).fails(3, "", "a missing output");
        let help = check(&["--help"]);
        assert!(help.code == 0 && help.stdout.contains("--protocol"), "{help:?}");

        // Kattis: the output on stdin, 42 or 43, the line in the feedback folder.
        let feedback = dir.join("feedback");
        std::fs::create_dir_all(&feedback).expect("the scratch folder is writable");
        let feedback_dir = feedback.display().to_string();
        let kattis = |input: &str, output: &[u8], code: i32, line: &str| {
            let _ = std::fs::remove_file(feedback.join("judgemessage.txt"));
            let args = ["check", "--protocol", "kattis", input, &answer, &feedback_dir];
            let ran = self.run(&dir, &args, output);
            assert_eq!((ran.code, ran.stdout.as_str()), (code, ""), "Kattis: {}", ran.stderr);
            if code == 3 {
                assert_eq!(ran.stderr, line, "Kattis's fail");
            } else {
                let message = std::fs::read_to_string(feedback.join("judgemessage.txt"));
                assert_eq!(message.expect("Kattis's judge message").as_str(), line);
            }
        };
        kattis(&input, &sample.answer, 42, &ok);
        kattis(&input, case.wrong_output.text.as_bytes(), 43, &wrong_line);
        kattis(&input, case.malformed_output.text.as_bytes(), 43, &malformed_line);
        kattis(&broken, &sample.answer, 3, &broken_line);

        // CMS: the answer before the output, the score on stdout, the line on stderr, exit 0.
        let cms = |input: &str, jury: &str, output: &str| {
            check(&["--protocol", "cms", input, jury, output])
        };
        cms(&input, &answer, &answer).is(0, "1.0\n", &ok, "CMS accepts");
        cms(&input, &answer, &wrong).is(0, "0.0\n", &wrong_line, "CMS, a wrong answer");
        cms(&input, &answer, &malformed).is(0, "0.0\n", &malformed_line, "CMS, a bad output");
        cms(&broken, &answer, &answer).is(3, "", &broken_line, "a fail gives no score");
        cms(&input, &malformed, &answer).fails(3, "fail: answer: ", "CMS, no jury answer");
    }

    /// `validate` on every sample, the broken input and a flaw of the format.
    fn validate(&self) {
        let dir = fresh(&self.root.join("validate")).to_path_buf();
        let validate =
            |args: &[&str], stdin: &[u8]| self.run(&dir, &[&["validate"], args].concat(), stdin);
        for (i, sample) in self.case.samples.iter().enumerate() {
            let ran = validate(&[], &sample.input);
            assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "sample {i}");
            assert!(ran.stdout.starts_with("ok: "), "{}", ran.stdout);
            assert!(ran.stdout.ends_with(", within the original limits\n"), "{}", ran.stdout);
            let file = write(&dir, &format!("sample{i}.in"), &sample.input);
            validate(&[&file], b"").is(0, &ran.stdout, "", "a file argument");
            assert_eq!(validate(&["--protocol", "kattis", &file], b"").code, 42);
            let extended = validate(&["--limits", "extended", &file], b"");
            assert_eq!(extended.code, 0, "{}", extended.stderr);
            assert!(extended.stdout.ends_with(", within the extended limits\n"));
        }
        let broken = self.case.broken_input.text.as_bytes();
        let invalid = format!("invalid: {} (original limits)\n", self.case.broken_input.says);
        validate(&[], broken).is(3, "", &invalid, "the broken input");
        let extended = format!("invalid: {} (extended limits)\n", self.case.broken_input.says);
        validate(&["--limits", "extended"], broken).is(3, "", &extended, "under any limits");
        assert_eq!(validate(&["--protocol", "kattis"], broken).code, 43);

        // The canonical format by default, as a setter's validator reads; any white space with
        // --lenient, as the solvers read.
        let sample = &self.case.samples[0].input;
        let first = sample.iter().position(|&b| b == b'\n').expect("a sample has lines");
        let spaced = [&sample[..first], b" ", &sample[first..]].concat();
        let flaw = format!(
            "invalid: line 1, column {}: expected a newline, found a space (canonical format)\n",
            first + 1
        );
        validate(&[], &spaced).is(3, "", &flaw, "a space before a line's end");
        assert_eq!(validate(&["--protocol", "kattis"], &spaced).code, 43);
        let plain = validate(&[], sample).stdout;
        validate(&["--lenient"], &spaced).is(0, &plain, "", "--lenient");
    }

    /// `stress` passes the right program; a program that cannot start is trouble.
    fn right(&self) {
        let dir = fresh(&self.root.join("right")).to_path_buf();
        let (runs, says) = self.case.right_runs;
        let runs = runs.to_string();
        let mut args = vec!["stress", "--runs", &runs, "-j", "2", "--", self.binary];
        args.extend(&self.case.right_args);
        let ran = self.run(&dir, &args, b"");
        assert_eq!(ran.code, 0, "the right program: {}{}", ran.stdout, ran.stderr);
        assert!(says.starts_with(&format!("ok: no failure in {runs} runs, ")), "{says}");
        assert_eq!(ran.stdout.lines().next(), Some(says), "{}", ran.stdout);
        let left = std::fs::read_dir(&dir).expect("the folder is there").count();
        assert_eq!(left, 0, "a pass saves nothing");
        let missing = self.run(&dir, &["stress", "--runs", "3", "--", "/no/such/program"], b"");
        missing.fails(2, "error: run 0: cannot start /no/such/program", "no program");
    }

    /// Stopping `stress` by any signal and `shrink` by SIGINT leaves nothing running.
    fn stops(&self) {
        let dir = fresh(&self.root.join("stop")).to_path_buf();
        assert_stress_stops_cleanly(self.binary, &dir);
        let failing = write(&dir, "failing.in", &self.case.samples[0].input);
        let args = ["shrink", failing.as_str(), "--time-limit", "60", "--"];
        let _ = assert_stops_cleanly(self.binary, &args, &dir, 2);
    }

    /// The saved input of a report in `dir`, parsed.
    fn saved(&self, dir: &Path) -> (Vec<u8>, P::Input) {
        let bytes = std::fs::read(dir.join("counterexample.in")).expect("the input is saved");
        let input = self.problem.parse(&bytes, Limits::Original).unwrap_or_else(|e| {
            panic!("the saved input {} is invalid: {e}", dir.display());
        });
        (bytes, input)
    }

    /// `stress` finds, confirms, shrinks and saves wrong program `i`'s failure, and every
    /// claim of its report holds.
    fn wrong(&self, i: usize) -> Found<P::Input> {
        let w = &self.case.wrong[i];
        let problem = self.problem;
        let dir = fresh(&self.root.join(w.name)).to_path_buf();
        let text = w.script.replace("BINARY", self.binary);
        let script = super::shell_script(&dir, &format!("{}.sh", w.name), &text);
        let hangs = w.kind == VerdictKind::TimeLimit;
        let limit = if hangs { HANG_TIME_LIMIT } else { P::RUN_LIMITS.time };
        let limit_flag = format!("{}ms", limit.as_millis());
        let limit_args: Vec<&str> = if hangs { vec!["--time-limit", &limit_flag] } else { vec![] };
        let stress = |jobs: &str, options: &[&str]| {
            let program = ["--", "/bin/sh", script.path.as_str()];
            let args = [&["stress", "-j", jobs][..], options, &limit_args, &program].concat();
            self.run(&dir, &args, b"")
        };
        let name = w.name;

        if let Some(run) = w.found_by {
            let before = stress("2", &["--runs", &run.to_string()]);
            assert_eq!(before.code, 0, "{name} passes runs 0..{run}: {}", before.stdout);
        }
        let options: Vec<&str> = w.stress.iter().map(String::as_str).collect();
        // A time limit is reported as found by `stress` (in a folder of its own), then shrunk
        // by `shrink` under its margin into `dir`; every other failure is shrunk by `stress`.
        let found_dir = if hangs { fresh(&dir.join("found")).to_path_buf() } else { dir.clone() };
        let ran = {
            let program = ["--", "/bin/sh", script.path.as_str()];
            let args = [&["stress", "-j", "2"][..], &options, &limit_args, &program].concat();
            self.run(&found_dir, &args, b"")
        };
        assert_eq!(ran.code, 1, "{name}: {}{}", ran.stdout, ran.stderr);
        let found_report = ran.stdout;
        let headline = found_report.lines().next().expect("a report").to_owned();
        let run: u64 = headline
            .strip_prefix("found by run ")
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {found_report}"));
        if let Some(expected) = w.found_by {
            assert_eq!(run, expected, "{name}: {found_report}");
        }
        let report = if hangs {
            assert!(
                found_report.contains("\na time limit: reported as found, not shrunk"),
                "{name}: {found_report}"
            );
            let found = found_dir.join("counterexample.in").display().to_string();
            let program = ["--", "/bin/sh", script.path.as_str()];
            let args = [&["shrink", &found][..], &limit_args, &program].concat();
            let shrunk = self.run(&dir, &args, b"");
            assert_eq!(shrunk.code, 1, "{name}: {}{}", shrunk.stdout, shrunk.stderr);
            shrunk.stdout
        } else {
            found_report.clone()
        };
        let limits = if hangs {
            "\nlimits: 0.5 s of CPU time (2 s of wall time) and ".to_owned()
        } else {
            format!("\nlimits: {}; inputs within the original limits\n", self.case.default_limits)
        };
        assert!(report.contains(&limits), "{name}, {limits:?}: {report}");
        let claims = [
            "\nconfirmed: it failed the same way in 2 reruns alone\n".to_owned(),
            ": 1-minimal (no single move gives a valid input that fails the same way)\n".into(),
            "\nthe shrunk input failed again in 2 of 2 reruns alone\n".into(),
            format!("\n\n{}: ", w.kind.words()),
        ];
        for claim in &claims {
            assert!(report.contains(claim.as_str()), "{name}, {claim:?}: {report}");
        }

        // The saved files are the ones the report names, each holding what it says.
        let (bytes, input) = self.saved(&dir);
        let exhibits = problem.explain(&input);
        let mut endings = vec!["in", "ans", "out"];
        endings.extend(exhibits.iter().map(|e| e.extension));
        let named: Vec<String> = endings.iter().map(|e| format!("counterexample.{e}")).collect();
        assert_eq!(saved_files(&report), named, "{name}: {report}");
        let file = |ending: &str| {
            std::fs::read(dir.join(format!("counterexample.{ending}"))).expect("saved as named")
        };
        assert_eq!(bytes, render(problem, &input), "{name}: the input as we render it");
        let mut answer = Vec::new();
        problem.render_answer(&input, &problem.solve(&input), &mut answer);
        assert_eq!(file("ans"), answer, "{name}: our answer");
        for exhibit in exhibits {
            assert_eq!(file(exhibit.extension), exhibit.text.into_bytes(), "{name}: proof");
        }
        if let Some(expected) = &w.shrinks_to {
            assert!(input == *expected, "{name} shrinks to {input:?}, not {expected:?}");
        }

        // It fails again so, with that output, and no one-step move of it does.
        let child = ChildOptions::new(limit, None);
        let again =
            trial(sandbox(), problem, &script.program, &input, &child).expect("the program runs");
        assert_eq!(again.verdict.kind, w.kind, "{name} on {input:?}: {}", again.verdict);
        assert_eq!(file("out"), again.run.stdout, "{name}: its output");
        let moves = (self.case.one_step)(&input);
        assert_one_minimal(problem, &script.program, w.kind, Limits::Original, &child, moves);

        // `shrink` on the saved input finds nothing to do.
        let again_dir = fresh(&dir.join("again")).to_path_buf();
        let save = again_dir.join("counterexample.in").display().to_string();
        let program = ["--", "/bin/sh", script.path.as_str()];
        let shrink = [&["shrink", "counterexample.in", "--save", &save][..], &limit_args, &program];
        let shrunk = self.run(&dir, &shrink.concat(), b"");
        assert_eq!(shrunk.code, 1, "{name}: {}{}", shrunk.stdout, shrunk.stderr);
        assert!(
            shrunk.stdout.starts_with(&format!("counterexample.in fails: {}: ", w.kind.words()))
                && shrunk.stdout.contains("\nshrunk by 0 moves: 1-minimal ("),
            "{name}: {}",
            shrunk.stdout
        );

        // The replay line, run as printed (unshrunk), finds the same failure at the same run.
        let prefix = format!("replay the run: {} ", problem.name());
        let replay = found_report.lines().find_map(|l| l.strip_prefix(prefix.as_str()));
        let printed: Vec<&str> = replay.expect("a replay line").split(' ').collect();
        let dashes = printed.iter().position(|&a| a == "--").expect("the command follows --");
        let mut args = printed.clone();
        args.insert(dashes, "--no-shrink");
        let replay_dir = fresh(&dir.join("replay")).to_path_buf();
        let replayed = self.run(&replay_dir, &args, b"");
        assert_eq!(replayed.code, 1, "{name}'s replay: {}{}", replayed.stdout, replayed.stderr);
        // A time limit's line holds the run's measured times; every other line is the same.
        let same =
            if hangs { format!("found by run {run}: time limit exceeded: ") } else { headline };
        assert!(replayed.stdout.starts_with(&same), "{name}'s replay: {}", replayed.stdout);
        let (_, unshrunk) = self.saved(&replay_dir);

        if i == 0 && !hangs {
            // The same report for one job, but for its measured figures and its time line.
            for file in saved_files(&report) {
                std::fs::remove_file(dir.join(file)).expect("saved as named");
            }
            let one = stress("1", &options);
            assert_eq!(one.code, 1, "{name}, -j 1: {}", one.stdout);
            assert_eq!(steady(&one.stdout), steady(&report), "{name}: -j 1 and -j 2 differ");
            assert!(self.saved(&dir).1 == input, "{name}: -j 1 saves the same input");
            // The replay line as printed finds it again and shrinks it alike.
            let replay_dir = fresh(&dir.join("replay-shrunk")).to_path_buf();
            let replayed = self.run(&replay_dir, &printed, b"");
            assert_eq!(replayed.code, 1, "{name}'s replay: {}", replayed.stdout);
            assert!(self.saved(&replay_dir).1 == input, "{name}: the replay shrinks alike");
        }
        // Its `run it again` line, run as printed, fails so again.
        assert_runs_again(self.binary, &dir, &report);
        Found { name, input, report, run, unshrunk }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_names_its_saved_files_whole_or_summarised() {
        let report = "found by run 3: x\n\nwrong answer: y\n\ninput (1 case), saved to a.in:\n    \
                      1\nour answer (3 lines, 6 bytes), saved to a.ans, first lines:\n    2\n\
                      your stderr:\n    boom\nrun it again: sh x < a.in\n";
        assert_eq!(saved_files(report), ["a.in", "a.ans"]);
        let lines = "found\nmeasured: CPU 1 ms\nlimits: x\ntime: 1.0 s, -j 2\n";
        assert_eq!(steady(lines), ["found", "limits: x"]);
    }
}
