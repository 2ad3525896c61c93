//! `PROBLEM run TESTS -- COMMAND`: a program judged on a folder of tests, as `oj test` and
//! `bt run` do: each test's verdict, CPU time and peak memory as it ends, then a summary (how
//! many passed, the slowest test, the peak memory). Runs are isolated and limited as
//! `stress`'s are ([`judge_test`]); a package's `.timelimit` is the default time limit when
//! TESTS is a package or its `data/`.
//!
//! Exit codes: 0 every test passed, 1 some failed, 2 trouble (no test, a test that cannot be
//! read, a program that cannot run, a `fail` verdict: a malformed input or answer); stopped
//! by SIGINT, SIGTERM or SIGHUP, the summary so far and 130, 143 or 129.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, LimitArgs, LimitsUsed, Problem};
use crate::hunt::{find_tests, judge_test};
use crate::rules::{RunLimits, VerdictKind};
use crate::sandbox::{ChildError, Program, Sandbox, exit_code};
use crate::text::{self, megabytes, plural, seconds};

/// `PROBLEM run`: a program judged on a folder of tests.
#[derive(Clone, Debug, clap::Args)]
pub struct RunTestsArgs {
    /// The tests: a folder of NAME.in files with NAME.ans beside each, searched below too
    /// (a package's data/, or the package itself), run in the order Kattis's tools run them.
    pub tests: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub limit: LimitArgs,
    /// The program and its arguments (after --); it reads each input on stdin.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}

/// The folder of tests and the default limits: a package's `data/` and its `.timelimit`
/// when `tests` is a package or its `data/`, else `tests` and the problem's.
fn tests_and_defaults(tests: &Path, problem: RunLimits) -> (PathBuf, RunLimits) {
    let (folder, package) = if tests.join("problem.yaml").is_file() {
        (tests.join("data"), Some(tests.to_owned()))
    } else {
        let parent = tests.parent().filter(|p| p.join("problem.yaml").is_file());
        (tests.to_owned(), parent.map(Path::to_owned))
    };
    let time = package
        .and_then(|p| std::fs::read_to_string(p.join(".timelimit")).ok())
        .and_then(|text| text.trim().parse::<f64>().ok())
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok());
    match time {
        Some(time) => (
            folder,
            RunLimits { time, origin: "the package's .timelimit, the original memory", ..problem },
        ),
        None => (folder, problem),
    }
}

/// Runs `run`: every test in order, a line each as it ends, then the summary; returns the
/// exit code.
pub(super) fn run_tests<P: Problem>(sandbox: &Sandbox, problem: &P, args: &RunTestsArgs) -> i32 {
    if let Err(e) = sandbox.catch_signals() {
        eprintln!("error: cannot catch signals: {e}");
        return EXIT_TROUBLE;
    }
    let (folder, defaults) = tests_and_defaults(&args.tests, P::RUN_LIMITS);
    let limits = LimitsUsed::new(&args.limit, defaults);
    let tests = match find_tests(&folder) {
        Ok(tests) => tests,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    };
    let program = Program::new(&args.command);
    let options = limits.child_options();
    let width = tests.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let (mut passed, mut failed, mut trouble) = (0_u64, Vec::new(), false);
    let mut slowest: Option<(Duration, String)> = None;
    let mut peak: Option<(u64, String)> = None;
    let mut stdout = std::io::stdout().lock();
    for test in &tests {
        let read = |path: &Path| {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        let files = read(&test.input).and_then(|input| Ok((input, read(&test.answer)?)));
        let (input, answer) = match files {
            Ok(files) => files,
            Err(e) => {
                eprintln!("error: {e}");
                trouble = true;
                continue;
            }
        };
        let trial = match judge_test(sandbox, problem, &program, &input, &answer, &options) {
            Ok(trial) => trial,
            Err(ChildError::Interrupted(_)) => break,
            Err(e) => {
                eprintln!("error: {}: {e}", test.name);
                return EXIT_TROUBLE;
            }
        };
        let (cpu, kib) = (trial.run.cpu, trial.run.memory.kib());
        let _ = writeln!(
            stdout,
            "{:<width$}  {:<21} CPU {:>9}  memory {:>9}  {}",
            test.name,
            trial.verdict.kind.words(),
            seconds(cpu),
            megabytes(kib),
            trial.verdict.message
        );
        let _ = stdout.flush();
        if slowest.as_ref().is_none_or(|(time, _)| cpu > *time) {
            slowest = Some((cpu, test.name.clone()));
        }
        if peak.as_ref().is_none_or(|(most, _)| kib > *most) {
            peak = Some((kib, test.name.clone()));
        }
        match trial.verdict.kind {
            VerdictKind::Ok => passed += 1,
            VerdictKind::Fail => {
                trouble = true;
                failed.push(test.name.clone());
            }
            _ => failed.push(test.name.clone()),
        }
    }
    let ran = passed + failed.len() as u64;
    let mut summary = format!("passed {passed} of {}", plural(tests.len() as u64, "test"));
    if ran < tests.len() as u64 {
        summary += &format!(" ({} run)", plural(ran, "test"));
    }
    // The failed tests are named, up to a line's worth; each has its own line above.
    const NAMED: usize = 5;
    if !failed.is_empty() {
        summary += &format!("; failed: {}", failed[..failed.len().min(NAMED)].join(", "));
        if failed.len() > NAMED {
            summary += &format!(" and {} more", failed.len() - NAMED);
        }
    }
    let _ = writeln!(stdout, "{summary}");
    if let (Some((cpu, slow)), Some((kib, big))) = (&slowest, &peak) {
        let _ = writeln!(
            stdout,
            "slowest: {slow}, CPU {}; peak memory: {big}, {}",
            seconds(*cpu),
            megabytes(*kib)
        );
    }
    let _ = writeln!(stdout, "limits: {}", limits.describe());
    if let Some(signal) = sandbox.caught() {
        let _ = writeln!(stdout, "interrupted by {}", text::signal(signal));
        return exit_code(signal);
    }
    if trouble {
        EXIT_TROUBLE
    } else if failed.is_empty() {
        EXIT_PASSED
    } else {
        EXIT_FOUND
    }
}
