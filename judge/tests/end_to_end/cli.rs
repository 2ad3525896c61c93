//! The judge's command-line runners on the toy problem: arguments as a problem binary parses
//! them, exit codes of the protocols, `stress` and `shrink` saving a shrunk counterexample,
//! and the failure reports themselves as snapshots (`tests/snapshots/`).

use std::path::Path;

use clap::Parser;
use judge::cli::{EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, Ending, JudgeCommand};
use judge::testing::toy::Sum;
use judge::testing::{TestDir, hunt_ending};

/// The subcommands as a problem binary declares them: the judge's flattened into its own.
#[derive(Debug, clap::Parser)]
enum Command {
    #[command(flatten)]
    Judge(JudgeCommand),
}

fn parse(args: &[&str]) -> Command {
    Command::try_parse_from(std::iter::once("sum").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn scratch(name: &str) -> TestDir {
    TestDir::new(&format!("cli-{name}"))
}

fn file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the scratch folder is writable");
    path.display().to_string()
}

fn exit(args: &[&str]) -> i32 {
    let Command::Judge(judge) = parse(args);
    judge.run(&Sum)
}

/// How `stress` or `shrink` with `args` ends, without printing.
fn ending(args: &[&str]) -> Ending {
    let Command::Judge(judge) = parse(args);
    hunt_ending(&judge, &Sum).unwrap_or_else(|| panic!("not stress or shrink: {judge:?}"))
}

/// A report with what varies from run to run masked: the scratch folder, the measured figures
/// and the time line.
fn masked(ending: &Ending, dir: &Path) -> String {
    let text = ending.stdout.replace(&dir.display().to_string(), "[dir]");
    let lines: Vec<String> = text
        .lines()
        .map(|l| match l.split_once(": ") {
            Some((head @ ("time" | "measured"), _)) => format!("{head}: [masked]"),
            _ => l.to_owned(),
        })
        .collect();
    format!("[exit code {}]\n{}\n{}", ending.code, ending.stderr, lines.join("\n"))
}

#[test]
fn check_speaks_every_protocol() {
    let dir = scratch("check");
    let input = file(&dir, "in", "2\n1 2\n3 4\n");
    let right = file(&dir, "right", "3\n7\n");
    let wrong = file(&dir, "wrong", "3\n8\n");
    let words = file(&dir, "words", "3\nseven\n");
    let bad_input = file(&dir, "bad", "2\n1 2\n");

    assert_eq!(exit(&["check", &input, &right]), 0);
    assert_eq!(exit(&["check", &input, &wrong]), 1);
    assert_eq!(exit(&["check", &input, &words]), 2);
    assert_eq!(exit(&["check", &input, &right, &right]), 0);
    assert_eq!(exit(&["check", &input, &right, &wrong]), 3, "a wrong jury answer is a fail");
    assert_eq!(exit(&["check", &bad_input, &right]), 3);
    assert_eq!(exit(&["check", &input]), 3, "a usage error is a fail, never 2");

    assert_eq!(exit(&["check", "--protocol", "cms", &input, &right, &wrong]), 0);
    assert_eq!(exit(&["check", "--protocol", "cms", &bad_input, &right, &right]), 3);

    // Kattis reads the output on stdin, which a test does not own; its roles and feedback
    // file are covered by the protocol's unit tests.
}

#[test]
fn validate_names_the_rule_and_follows_the_protocol() {
    let dir = scratch("validate");
    let good = file(&dir, "good", "1\n9 9\n");
    let big = file(&dir, "big", "1\n10 9\n");
    assert_eq!(exit(&["validate", &good]), 0);
    assert_eq!(exit(&["validate", &big]), 3);
    assert_eq!(exit(&["validate", "--limits", "extended", &big]), 0);
    assert_eq!(exit(&["validate", "--protocol", "kattis", &good]), 42);
    assert_eq!(exit(&["validate", "--protocol", "kattis", &big]), 43);
    // The canonical format by default; any white space with --lenient.
    let spaced = file(&dir, "spaced", "1\n9  9\n");
    assert_eq!(exit(&["validate", &spaced]), 3);
    assert_eq!(exit(&["validate", "--protocol", "kattis", &spaced]), 43);
    assert_eq!(exit(&["validate", "--lenient", &spaced]), 0);
}

#[test]
fn stress_saves_a_shrunk_counterexample() {
    let dir = scratch("stress");
    let script =
        file(&dir, "carry.sh", "read t\nwhile read a b; do echo $(( (a + b) % 10 )); done\n");
    let right = file(&dir, "right.sh", "read t\nwhile read a b; do echo $((a + b)); done\n");
    let save = dir.join("min.in").display().to_string();
    let code = exit(&["stress", "--runs", "300", "-j", "2", "--save", &save, "--", "sh", &script]);
    assert_eq!(code, EXIT_FOUND);
    let saved = std::fs::read_to_string(&save).expect("saved");
    let (a, b) = saved.lines().nth(1).and_then(|l| l.split_once(' ')).expect("one case");
    assert_eq!(saved.lines().count(), 2, "{saved}");
    assert_eq!(a.parse::<u32>().unwrap() + b.parse::<u32>().unwrap(), 10, "{saved}");

    assert_eq!(exit(&["stress", "--runs", "20", "--", "sh", &right]), EXIT_PASSED);
    assert_eq!(exit(&["stress", "--exhaustive", "4", "--", "sh", &right]), EXIT_PASSED);
    let code = exit(&["stress", "--exhaustive", "9", "--save", &save, "--", "sh", &script]);
    assert_eq!(code, EXIT_FOUND);
    // A second failure never overwrites the first.
    let saved = std::fs::read_to_string(dir.join("min-2.in")).expect("saved beside the first");
    let (a, b) = saved.lines().nth(1).and_then(|l| l.split_once(' ')).expect("one case");
    assert_eq!(saved.lines().count(), 2, "{saved}");
    assert_eq!(a.parse::<u32>().unwrap() + b.parse::<u32>().unwrap(), 10, "{saved}");
    assert_eq!(exit(&["stress", "--exhaustive", "10", "--", "sh", &right]), EXIT_TROUBLE);
    assert_eq!(exit(&["stress", "--runs", "5", "--", "/no/such/program"]), EXIT_TROUBLE);
    assert!(
        Command::try_parse_from(["sum", "stress", "--runs", "5"]).is_err(),
        "COMMAND is required"
    );
}

/// A source file for COMMAND is built as `package` builds a submission (C++ alone in a
/// scratch folder, removed afterwards; Python checked and run by python3), and a source that
/// does not build is trouble; `run` takes `NAME.ans`, else `NAME.out`, else our own answer;
/// a problem without a function interface has no `interface`.
#[test]
fn sources_are_built_and_run_takes_any_answer() {
    let dir = scratch("sources");
    let right = file(
        &dir,
        "right.cpp",
        "#include <cstdio>\nint main() { int t, a, b; if (scanf(\"%d\", &t) != 1) return 1;\n\
         while (t-- && scanf(\"%d %d\", &a, &b) == 2) printf(\"%d\\n\", a + b); }\n",
    );
    let wrong = file(
        &dir,
        "wrong.py",
        "import sys\nt, *xs = map(int, sys.stdin.read().split())\n\
         for k in range(t):\n    print(xs[2 * k] * xs[2 * k + 1])\n",
    );
    let broken = file(&dir, "broken.cpp", "int main( {\n");
    assert_eq!(exit(&["stress", "--runs", "20", "--", &right]), EXIT_PASSED);
    assert_eq!(exit(&["stress", "--runs", "20", "--", &wrong]), EXIT_FOUND);
    assert_eq!(exit(&["stress", "--runs", "20", "--", &broken]), EXIT_TROUBLE);
    assert_eq!(exit(&["stress", "--runs", "20", "--", "no-such.cpp"]), EXIT_TROUBLE);
    // The package tests of this binary make scratch folders too: a build's holds its source.
    let temp = std::fs::read_dir(std::env::temp_dir()).expect("the temporary folder");
    let ours = format!("judge-package-{}-", std::process::id());
    let left = (temp.flatten())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&ours))
        .any(|e| e.path().join("right.cpp").exists());
    assert!(!left, "a build's folder is removed");

    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).expect("the scratch folder is writable");
    file(&tests, "a.in", "1\n1 2\n");
    file(&tests, "a.ans", "3\n");
    file(&tests, "b.in", "1\n2 2\n");
    file(&tests, "b.out", "4\n");
    file(&tests, "c.in", "1\n3 4\n");
    let folder = tests.display().to_string();
    assert_eq!(exit(&["run", &folder, "--", &right]), EXIT_PASSED);
    // 2 * 2 = 2 + 2: only a and c fail.
    assert_eq!(exit(&["run", &folder, "--", &wrong]), EXIT_FOUND);
    file(&tests, "b.out", "5\n");
    assert_eq!(exit(&["run", &folder, "--", &right]), EXIT_FOUND, "b.out is the answer");

    assert_eq!(exit(&["interface", &dir.join("interface").display().to_string()]), EXIT_TROUBLE);
    assert!(!dir.join("interface").exists());
}

#[test]
fn snapshot_reports_fit_a_screen_and_name_their_files() {
    let dir = scratch("reports");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = |name: &str| dir.join(format!("{name}.in")).display().to_string();
    let sh = |name: &str, text: &str| file(&dir, name, text);
    let run = |args: &[&str]| masked(&ending(args), &dir);

    // A small wrong answer, shrunk to one case, printed whole.
    let carry = sh("carry.sh", "read t\nwhile read a b; do echo $(( (a + b) % 10 )); done\n");
    let small = run(&["stress", "-j", "2", "--save", &save("small"), "--", "sh", &carry]);
    insta::assert_snapshot!("small_wrong_answer", small);
    assert_eq!(std::fs::read_to_string(dir.join("small.ans")).unwrap(), "10\n");
    assert_eq!(std::fs::read_to_string(dir.join("small.out")).unwrap(), "0\n");

    // A crash with stderr, found by the extreme input (T = 10), shrunk as far as it needs T.
    let crash = sh(
        "crash.sh",
        "read t\nif [ $t -ge 10 ]; then echo \"index $t out of range\" >&2; exit 3; fi\n\
         while read a b; do echo $((a + b)); done\n",
    );
    let extreme = run(&["stress", "-j", "2", "--save", &save("crash"), "--", "sh", &crash]);
    insta::assert_snapshot!("crash_at_the_largest_t", extreme);

    // A large input, unshrunk: every text summarised, the first difference shown.
    let late = sh(
        "late.sh",
        "read t\ni=0\nwhile read a b; do i=$((i+1)); \
         if [ $i -eq 50 ]; then echo 0; else echo $((a + b)); fi; done\n",
    );
    let large = run(&[
        "stress",
        "--limits",
        "extended",
        "--no-shrink",
        "--save",
        &save("large"),
        "--",
        "sh",
        &late,
    ]);
    insta::assert_snapshot!("large_and_unshrunk", large);

    // `shrink` on a saved input, with no time to shrink: the report says how to go on.
    let given = file(&dir, "given.in", "3\n1 2\n9 9\n5 5\n");
    let stopped = run(&[
        "shrink",
        &given,
        "--shrink-time",
        "0",
        "--save",
        &save("stopped"),
        "--",
        "sh",
        &carry,
    ]);
    insta::assert_snapshot!("shrink_out_of_time", stopped);
    let right = sh("right.sh", "read t\nwhile read a b; do echo $((a + b)); done\n");
    let passes = run(&["shrink", &given, "--save", &save("passes"), "--", "sh", &right]);
    insta::assert_snapshot!("shrink_passes", passes);
}

#[test]
fn a_time_limit_that_comes_back_in_some_reruns_is_near_the_limit_not_nondeterministic() {
    let dir = scratch("near");
    // Every other run spins: the first one, then half of the reruns alone.
    let count = dir.join("runs.count").display().to_string();
    let flaky = file(
        &dir,
        "flaky.sh",
        &format!(
            "n=$(cat {count} 2>/dev/null || echo 0); echo $((n + 1)) > {count}\n\
             if [ $((n % 2)) -eq 0 ]; then while :; do :; done; fi\n\
             read t; while read a b; do echo $((a + b)); done\n"
        ),
    );
    let stressed = ending(&["stress", "--time-limit", "0.2s", "-j", "1", "--", "sh", &flaky]);
    assert_eq!(stressed.code, EXIT_FOUND, "{}", stressed.stdout);
    assert!(
        stressed.stdout.contains("near the limit: it failed 4 of 7 runs"),
        "{}",
        stressed.stdout
    );
    assert!(!stressed.stdout.contains("nondeterministic"), "{}", stressed.stdout);
}

#[test]
fn stress_reports_a_time_limit_as_found_and_shrink_shrinks_it_under_a_margin() {
    let dir = scratch("slow");
    // Busy for each case with a >= 5: slow on every input that has such a case.
    let slow = file(
        &dir,
        "slow.sh",
        "read t\nwhile read a b; do if [ $a -ge 5 ]; then while :; do :; done; fi; \
         echo $((a + b)); done\n",
    );
    let save = dir.join("slow.in").display().to_string();
    let stressed =
        ending(&["stress", "--time-limit", "0.2s", "-j", "2", "--save", &save, "--", "sh", &slow]);
    assert_eq!(stressed.code, EXIT_FOUND, "{}", stressed.stdout);
    assert!(
        stressed.stdout.contains("a time limit: reported as found, not shrunk"),
        "{}",
        stressed.stdout
    );
    assert!(!stressed.stdout.contains("nondeterministic"), "{}", stressed.stdout);
    assert!(!stressed.stdout.contains(", shrinking "), "{}", stressed.stdout);
    // `shrink` shrinks it under one and a half times the limit, to a case with a = 5.
    let shrunk_save = dir.join("shrunk.in").display().to_string();
    let shrunk = ending(&[
        "shrink",
        &save,
        "--time-limit",
        "0.2s",
        "-j",
        "2",
        "--save",
        &shrunk_save,
        "--",
        "sh",
        &slow,
    ]);
    assert_eq!(shrunk.code, EXIT_FOUND, "{}", shrunk.stdout);
    assert!(
        shrunk.stdout.contains("a time limit, shrunk under 1.5 times the limit"),
        "{}",
        shrunk.stdout
    );
    let saved = std::fs::read_to_string(&shrunk_save).expect("saved");
    assert_eq!(saved.lines().count(), 2, "{saved}");
    assert!(saved.lines().nth(1).is_some_and(|l| l.starts_with("5 ")), "{saved}");
}

#[test]
fn a_shrink_stopped_by_its_time_names_the_flag_that_set_it() {
    let dir = scratch("shrink-stop");
    // Wrong on every input, and slow at it: 0.3 s a run.
    let slow = file(&dir, "slow-wrong.sh", "sleep 0.3; read t; echo 0\n");
    let stopped = |time: &str, shrink_time: &str| {
        let save = dir.join(format!("{time}-{shrink_time}.in")).display().to_string();
        let args = ["stress", "-j", "1", "--time", time, "--shrink-time", shrink_time];
        let ended = ending(&[&args[..], &["--save", &save, "--", "sh", &slow]].concat());
        assert_eq!(ended.code, EXIT_FOUND, "{}", ended.stdout);
        ended.stdout
    };
    // Stress's --time leaves less than --shrink-time: --time stopped the shrink.
    let by_total = stopped("1s", "60s");
    assert!(by_total.contains(", then stopped by --time 1 s: not known"), "{by_total}");
    // --shrink-time is the smaller: it did.
    let by_own = stopped("60s", "0.5s");
    assert!(by_own.contains(", then stopped by --shrink-time 0.5 s: not known"), "{by_own}");
}
