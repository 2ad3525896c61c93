//! `PROBLEM run TESTS -- COMMAND`: a program judged on a folder of tests, as `oj test` and
//! `bt run` do: each test's verdict, CPU time and peak memory as it ends, then a summary (how
//! many passed, the slowest test, the peak memory) and, on a scoring package, each group's
//! score and the total as the package's grading gives them ([`Score`]). Runs are isolated
//! and limited as `stress`'s are ([`judge_test`]); a package's time limit (`.timelimit`, or
//! 2025-09's `limits.time_limit`) is the default when TESTS is a package or its `data/`. Each answer is `NAME.ans`, else
//! `NAME.out`, else our own; a test whose files are an earlier test's (a package's link from
//! one group to another) is judged once. COMMAND may be a source file, built as `package`
//! builds a submission ([`build_command`]).
//!
//! Exit codes: 0 every test passed, 1 some failed, 2 trouble (no test, a test that cannot be
//! read, a program that cannot run, a `fail` verdict: a malformed input or answer); stopped
//! by SIGINT, SIGTERM or SIGHUP, the summary so far and 130, 143 or 129.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, LimitArgs, LimitsUsed};
use crate::hunt::{Coverage, Grading, Outcome, find_tests, grade, groups_on_disk};
use crate::package::{Packaged, Score};
use crate::rules::{RunLimits, VerdictKind};
use crate::sandbox::{Program, Sandbox, exit_code};
use crate::text::{megabytes, plural, seconds};

/// `PROBLEM run`: a program judged on a folder of tests.
#[derive(Clone, Debug, clap::Args)]
pub struct RunTestsArgs {
    /// The tests: a folder of NAME.in files, searched below too (a package's data/, or the
    /// package itself), run in the order Kattis's tools run them; each judged against
    /// NAME.ans beside it, else NAME.out, else our own answer.
    pub(crate) tests: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs, reason = "flattened: its fields are documented")]
    pub(crate) limit: LimitArgs,
    /// The program and its arguments (after --); it reads each input on stdin. A source
    /// file (.cpp, .cc, .py) is built as `package` builds a submission.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub(crate) command: Vec<OsString>,
}

/// The folder of tests and the default limits: a package's `data/` and its time limit
/// ([`package_time_limit`]) when `tests` is a package or its `data/`, else `tests` and the
/// problem's.
///
/// # Errors
/// A 2025-09 interactive package (`type: interactive`), whose tests hold no answers: they
/// are played against the jury.
fn tests_and_defaults(tests: &Path, problem: RunLimits) -> Result<(PathBuf, RunLimits), String> {
    let (folder, package) = if tests.join("problem.yaml").is_file() {
        (tests.join("data"), Some(tests.to_owned()))
    } else {
        let parent = tests.parent().filter(|p| p.join("problem.yaml").is_file());
        (tests.to_owned(), parent.map(Path::to_owned))
    };
    let yaml = package.as_ref().map(|p| std::fs::read_to_string(p.join("problem.yaml")));
    let yaml = yaml.and_then(Result::ok).unwrap_or_default();
    if let Some(package) = &package
        && yaml.lines().any(|line| line.trim_end() == "type: interactive")
    {
        return Err(format!(
            "{} is an interactive package (type: interactive): its tests hold no answers, they \
             are games against the jury; play a player on one with `interact TEST.in -- \
             PLAYER`, or on all with `bt run --problem {}`",
            package.display(),
            package.display()
        ));
    }
    Ok(match package.as_deref().and_then(|package| package_time_limit(package, &yaml)) {
        Some((time, origin)) => (folder, RunLimits { time, origin, ..problem }),
        None => (folder, problem),
    })
}

/// A package's time limit and where it was read: its `.timelimit` (legacy), else the
/// `time_limit:` line of the `limits:` block of its `problem.yaml` (2025-09), whose text is
/// `yaml`. `None` when it gives none, or one that is not a positive number of seconds.
fn package_time_limit(package: &Path, yaml: &str) -> Option<(Duration, &'static str)> {
    let seconds = |text: &str| {
        let secs = text.trim().parse::<f64>().ok().filter(|s| *s > 0.0)?;
        Duration::try_from_secs_f64(secs).ok()
    };
    if let Ok(text) = std::fs::read_to_string(package.join(".timelimit")) {
        return Some((seconds(&text)?, "the package's .timelimit, the original memory"));
    }
    let mut in_limits = false;
    for line in yaml.lines().filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty()) {
        if !line.starts_with(' ') {
            in_limits = line.trim_end() == "limits:";
        } else if let Some(value) = line.trim().strip_prefix("time_limit:").filter(|_| in_limits) {
            let value = value.split('#').next().unwrap_or_default();
            let origin = "the package's limits.time_limit, the original memory";
            return Some((seconds(value)?, origin));
        }
    }
    None
}

/// Runs `run`: every test in order, a line each as it ends, then the summary; returns the
/// exit code.
pub(super) fn run_tests<P: Packaged>(sandbox: &Sandbox, problem: &P, args: &RunTestsArgs) -> i32 {
    let (folder, defaults) = match tests_and_defaults(&args.tests, P::RUN_LIMITS) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    };
    let limits = LimitsUsed::new(&args.limit, defaults);
    let tests = match find_tests(&folder) {
        Ok(tests) => tests,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    };
    if let Err(e) = super::catch_signals(sandbox) {
        eprintln!("error: cannot catch signals: {e}");
        return EXIT_TROUBLE;
    }
    let built = match super::program::build(sandbox, problem, &args.command) {
        Ok(built) => built,
        Err(code) => return code,
    };
    let program = built.as_ref().map_or_else(|| Program::new(&args.command), |b| b.program.clone());
    let options = limits.child_options();
    let width = tests.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let groups = groups_on_disk(&folder, &tests);
    let grading = Grading {
        run: &options,
        groups: (!groups.is_empty()).then_some(groups.as_slice()),
        coverage: Coverage::Every,
    };
    let mut stdout = std::io::stdout().lock();
    // Each test's line as it ends.
    let line = |k: usize, outcome: &Outcome| match outcome {
        Outcome::Judged { verdict, cpu, memory_kib } => {
            let _ = writeln!(
                stdout,
                "{:<width$}  {:<21} CPU {:>9}  memory {:>9}  {}",
                tests[k].name,
                verdict.kind.words(),
                seconds(*cpu),
                megabytes(*memory_kib),
                verdict.message
            );
            let _ = stdout.flush();
        }
        Outcome::Unreadable(e) => eprintln!("error: {e}"),
        Outcome::NotJudged | Outcome::Same(_) => {}
    };
    let graded = match grade(sandbox, problem, &program, &tests, &grading, line) {
        Ok(graded) => graded,
        Err(e) => {
            eprintln!("error: {}: {}", tests[e.test].name, e.source);
            return EXIT_TROUBLE;
        }
    };
    let (mut passed, mut failed, mut trouble, mut links) = (0_u64, Vec::new(), false, 0_u64);
    for (test, outcome) in tests.iter().zip(&graded.outcomes) {
        match outcome {
            Outcome::Judged { verdict, .. } => match verdict.kind {
                VerdictKind::Ok => passed += 1,
                VerdictKind::Fail => {
                    trouble = true;
                    failed.push(test.name.clone());
                }
                _ => failed.push(test.name.clone()),
            },
            Outcome::Unreadable(_) => trouble = true,
            // A link to an earlier test's files (or a copy by another name): judged once, its
            // verdict counted in every group that holds it, its line not repeated.
            Outcome::Same(_) => links += 1,
            Outcome::NotJudged => {}
        }
    }
    let ran = passed + failed.len() as u64;
    let distinct = tests.len() as u64 - links;
    let mut summary = format!("passed {passed} of {}", plural(distinct, "test"));
    if links > 0 {
        summary += &format!(" (and {} to them, judged once)", plural(links, "link"));
    }
    if ran + links < tests.len() as u64 {
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
    if let (Some((cpu, slow)), Some((kib, big))) = (graded.slowest, graded.peak) {
        let _ = writeln!(
            stdout,
            "slowest: {}, CPU {}; peak memory: {}, {}",
            tests[slow].name,
            seconds(cpu),
            tests[big].name,
            megabytes(kib)
        );
    }
    if graded.ours > 0 {
        let _ = writeln!(
            stdout,
            "answers: ours ({}'s solver) for {} without NAME.ans or NAME.out",
            problem.name(),
            plural(graded.ours as u64, "test")
        );
    }
    if let Some(score) = &graded.score {
        let _ = write!(stdout, "{}", score_lines(score));
    }
    let _ = writeln!(stdout, "limits: {}", limits.describe());
    if let Some(signal) = sandbox.caught() {
        let _ = writeln!(stdout, "interrupted by {}", crate::sandbox::signal(signal));
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

/// The score as lines: the total, then each group's points and its first failure.
fn score_lines(score: &Score) -> String {
    let mut out = format!(
        "score: {} of {} (each group all or nothing; a test counts in every group that holds \
         it)\n",
        score.total(),
        score.out_of()
    );
    let width = score.groups.iter().map(|g| g.name.len()).max().unwrap_or(0);
    for group in &score.groups {
        let points = format!("{} of {}", group.scored(), group.points);
        out += &format!("  {:<width$}  {points:<9}", group.name);
        if let Some((verdict, test)) = &group.failure {
            out += &format!("  {} on {test}", verdict.kind.words());
        }
        out = out.trim_end().to_owned() + "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TestDir;

    #[test]
    fn a_package_time_limit_is_its_timelimit_or_its_limits_time_limit() {
        let dir = TestDir::new("run-package-time-limit");
        let yaml = "# time_limit: 9 in a comment\nname: \"x\"\nlimits:\n  memory: 256\n  \
                    time_multipliers:\n    ac_to_time_limit: 5\n    time_limit_to_tle: 2\n  \
                    time_limit: 3.0\nother:\n  time_limit: 7\n";
        std::fs::write(dir.join("problem.yaml"), yaml).expect("a scratch file");
        let (time, origin) = package_time_limit(&dir, yaml).expect("a time limit");
        assert_eq!(time, Duration::from_secs(3));
        assert!(origin.contains("limits.time_limit"), "{origin}");
        std::fs::write(dir.join(".timelimit"), "2\n").expect("a scratch file");
        assert_eq!(package_time_limit(&dir, yaml).map(|(t, _)| t), Some(Duration::from_secs(2)));
        let yaml = "limits:\n  memory: 256\n";
        std::fs::write(dir.join("problem.yaml"), yaml).expect("a scratch file");
        std::fs::remove_file(dir.join(".timelimit")).expect("a scratch file");
        assert_eq!(package_time_limit(&dir, yaml), None);
        let limits =
            RunLimits { time: Duration::from_secs(1), memory_mib: 256, origin: "the problem's" };
        assert!(tests_and_defaults(&dir, limits).is_ok());
        std::fs::write(dir.join("problem.yaml"), "type: interactive\n").expect("a scratch file");
        let refused = tests_and_defaults(&dir, limits).expect_err("no answers to judge against");
        assert!(refused.contains("interact TEST.in"), "{refused}");
    }
}
