//! The judge's subcommands of the hero-battle binary end to end: `check` on every verdict
//! and protocol, `validate` on every rule with its place, and `stress` against small shell
//! and awk programs this file writes: a right one (the binary itself) and wrong ones of each
//! kind. Each failure is found, named, and shrunk to an input that the test proves 1-minimal
//! by making every move itself (drop a case, lower one number by one).

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use engine::judge::{ChildOptions, Limits, Problem, Program, VerdictKind, trial};
use hero_battle::judge::Judge;
use hero_battle::rules::Case;
use tests::Ran;

const BINARY: &str = env!("CARGO_BIN_EXE_hero-battle");

const SAMPLE: &str = "4\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n\
                      30 30 5 5 1 1 1 1 7 2 2 7\n12 7 9 15 4 2 3 5 2 6 4 1\n";
const SAMPLE_OUT: &str = "It depends\nBob wins\nAlice wins\nBob wins\n";

fn scratch(name: &str) -> PathBuf {
    tests::scratch_dir("hero-battle-judge", name)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    tests::write_file(dir, name, text)
}

fn hero(args: &[&str], stdin: &[u8]) -> Ran {
    Ran::of(&tests::run_binary(BINARY, args, stdin))
}

#[test]
fn check_gives_every_testlib_verdict_and_names_the_case() {
    let dir = scratch("check");
    let input = write(&dir, "in", SAMPLE);
    let answer = write(&dir, "ans", SAMPLE_OUT);
    let cases = [
        (SAMPLE_OUT, 0, "ok: 4 cases"),
        (
            "It depends\nBob wins\nAlice wins\nIt depends\n",
            1,
            r#"wrong answer: case 4: expected "Bob wins", found "It depends""#,
        ),
        (
            "It depends\nBob wins\nalice wins\nBob wins\n",
            2,
            r#"presentation error: case 3: expected "Alice wins", found "alice wins", which is not an answer"#,
        ),
        (
            "It depends\nBob wins\nAlice wins\n",
            2,
            r#"presentation error: case 4: expected "Bob wins", found end of output"#,
        ),
        (
            "It depends\nBob wins\nAlice wins\nBob wins\nBob wins\n",
            2,
            r#"presentation error: extra output after 4 lines: "Bob wins" on line 5"#,
        ),
    ];
    tests::assert_check_verdicts(BINARY, &dir, &input, &answer, &cases);
}

#[test]
fn check_fails_on_a_malformed_input_a_bad_jury_answer_or_bad_usage() {
    let dir = scratch("fail");
    let input = write(&dir, "in", SAMPLE);
    let output = write(&dir, "out", SAMPLE_OUT);
    let fail = |args: &[&str], message: &str| {
        let ran = hero(args, b"");
        assert_eq!(ran.code, 3, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.starts_with(message), "{args:?}: {}", ran.stderr);
    };
    let truncated = write(&dir, "truncated", "2\n1 1 1 1 1 1 1 1 1 1 1 1\n");
    fail(
        &["check", &truncated, &output],
        "fail: input: line 2, column 24: expected hit points a1 in 1..=99, found end of input",
    );
    let misspelt = write(&dir, "misspelt", "It depends\nBob wins\nAlice wins\nBob won\n");
    fail(
        &["check", &input, &output, &misspelt],
        r#"fail: answer: line 4: expected "Alice wins", "Bob wins" or "It depends", found "Bob won""#,
    );
    let wrong = write(&dir, "wrong", "It depends\nBob wins\nAlice wins\nAlice wins\n");
    fail(
        &["check", &input, &output, &wrong],
        r#"fail: the answer file disagrees with ours: case 4: expected "Bob wins", found "Alice wins""#,
    );
    // A trusted jury answer is taken as it is: the right output is then a wrong answer.
    let ran = hero(&["check", "--trust-answer", &input, &output, &wrong], b"");
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    fail(&["check", &input], "fail: Testlib checkers take INPUT OUTPUT [ANSWER], got 1");
    fail(&["check", "--no-such-flag", &input, &output], "error: unexpected argument");
}

#[test]
fn check_speaks_kattis_and_cms() {
    let dir = scratch("protocols");
    let input = write(&dir, "in", SAMPLE);
    let answer = write(&dir, "ans", SAMPLE_OUT);
    let wrong = "It depends\nBob wins\nIt depends\nBob wins\n";
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let feedback = feedback.display().to_string();

    let kattis = |output: &str| {
        hero(&["check", "--protocol", "kattis", &input, &answer, &feedback], output.as_bytes())
    };
    assert_eq!(kattis(SAMPLE_OUT).code, 42);
    assert_eq!(kattis(wrong).code, 43);
    let message = std::fs::read_to_string(Path::new(&feedback).join("judgemessage.txt")).unwrap();
    assert_eq!(message, "wrong answer: case 3: expected \"Alice wins\", found \"It depends\"\n");
    assert_eq!(kattis("It depends\n").code, 43, "a presentation error is a rejection");

    // CMS: answer before output, the score on stdout, exit 0 unless the judge fails.
    let output = write(&dir, "out", wrong);
    let cms = hero(&["check", "--protocol", "cms", &input, &answer, &output], b"");
    assert_eq!((cms.code, cms.stdout.as_str()), (0, "0.0\n"));
    assert!(cms.stderr.starts_with("wrong answer: case 3: "), "{}", cms.stderr);
    let cms = hero(&["check", "--protocol", "cms", &input, &answer, &answer], b"");
    assert_eq!((cms.code, cms.stdout.as_str()), (0, "1.0\n"));
    let bad = write(&dir, "bad", "1\n0 1 1 1 1 1 1 1 1 1 1 1\n");
    assert_eq!(hero(&["check", "--protocol", "cms", &bad, &answer, &answer], b"").code, 3);
}

#[test]
fn validate_names_each_rule_with_its_place() {
    let ones = "1 1 1 1 1 1 1 1 1 1 1 1\n";
    let forty_one = format!("41\n{}", ones.repeat(41));
    let invalid = [
        (
            forty_one.as_str(),
            "original",
            r#"line 1, column 1: expected the number of cases T in 1..=40, found "41""#,
        ),
        (
            "0\n",
            "original",
            r#"line 1, column 1: expected the number of cases T in 1..=40, found "0""#,
        ),
        (
            "",
            "extended",
            "line 1, column 1: expected the number of cases T in 0..=4294967296, found end of input",
        ),
        (
            "-1\n",
            "extended",
            r#"line 1, column 1: expected the number of cases T in 0..=4294967296, found "-1""#,
        ),
        (
            "1\n1 1 100 1 1 1 1 1 1 1 1 1\n",
            "original",
            r#"line 2, column 5: expected hit points b1 in 1..=99, found "100""#,
        ),
        (
            "1\n1 1 1 1 1 1 1 1 1 1 1 0\n",
            "extended",
            r#"line 2, column 23: expected damage b22 in 1..=99, found "0""#,
        ),
        (
            "1\n1 1 1 1 1 x 1 1 1 1 1 1\n",
            "original",
            r#"line 2, column 11: expected damage a12 in 1..=99, found "x""#,
        ),
        (
            "2\n1 1 1 1 1 1 1 1 1 1 1 1\n",
            "original",
            "line 2, column 24: expected hit points a1 in 1..=99, found end of input",
        ),
        (
            "1\n1 1 1 1 1 1 1 1 1 1 1 1 7\n",
            "original",
            r#"line 2, column 25: expected end of input after case 1, found "7""#,
        ),
    ];
    for (input, limits, message) in invalid {
        let ran = hero(&["validate", "--limits", limits], input.as_bytes());
        assert_eq!(ran.code, 3, "{input:?}");
        assert_eq!(ran.stderr, format!("invalid: {message} ({limits} limits)\n"));
        assert!(ran.stdout.is_empty());
    }
    let ran = hero(&["validate"], SAMPLE.as_bytes());
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "ok: 4 cases, hit points 5..=30, damage 1..=7, within the original limits\n")
    );
    let ran = hero(&["validate", "--limits", "extended"], forty_one.as_bytes());
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // White space is free, as the statement says.
    assert_eq!(hero(&["validate"], b" 1\t1 1 1 1\n1 1 1 1 1 1 1 1").code, 0);
    assert_eq!(hero(&["validate", "--protocol", "kattis"], forty_one.as_bytes()).code, 43);
    assert_eq!(hero(&["validate", "--protocol", "kattis"], SAMPLE.as_bytes()).code, 42);
    let dir = scratch("validate");
    assert_eq!(hero(&["validate", &write(&dir, "in", SAMPLE)], b"").code, 0);
}

#[test]
fn solving_keeps_its_command_line() {
    let dir = scratch("solve");
    let input = write(&dir, "in", SAMPLE);
    for args in [
        vec![input.as_str()],
        vec!["--threads", "2", &input],
        vec![&input, "--solver", "reference"],
    ] {
        let ran = hero(&args, b"");
        assert_eq!((ran.code, ran.stdout.as_str()), (0, SAMPLE_OUT), "{args:?}");
    }
    let explained = hero(&[&input, "--explain"], b"");
    assert_eq!(explained.stdout.lines().count(), 12);
    // Solving flags do not mix with a subcommand.
    assert_eq!(hero(&["--explain", "validate", &input], b"").code, 2);
}

/// A `/bin/sh` script in `dir`, run as `sh PATH`; `HERO` in `body` is replaced by the path
/// of the binary under test (the right answers the wrong programs start from).
fn script(dir: &Path, name: &str, body: &str) -> String {
    write(dir, &format!("{name}.sh"), &body.replace("HERO", BINARY))
}

/// `hero-battle stress ARGS -j JOBS --save DIR/min.in -- sh SCRIPT`, in `dir`.
fn stress(dir: &Path, script: &str, jobs: &str, args: &[&str]) -> Ran {
    let save = dir.join("min.in").display().to_string();
    let mut all = vec!["stress", "-j", jobs, "--save", &save];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "sh", script]);
    let out = Command::new(BINARY).args(&all).current_dir(dir).output().expect("the binary runs");
    Ran {
        code: out.status.code().expect("the binary exits by itself"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The per-run time limit of the stress runs below, but the hang's.
const TIME_LIMIT: Duration = Duration::from_secs(2);

/// Runs a wrong program under stress (with `args` and `time_limit`), checks that it is found
/// and named `kind`, and proves the saved input 1-minimal: no case can be dropped and no
/// number lowered by one while the program still fails with `kind`. Returns the minimal
/// input and the report.
fn find_and_prove(
    name: &str,
    body: &str,
    kind: VerdictKind,
    args: &[&str],
    time_limit: Duration,
) -> (Vec<Case>, String) {
    let dir = scratch(name);
    let script = script(&dir, name, body);
    let limit = format!("{}ms", time_limit.as_millis());
    let args = [args, &["--time-limit", &limit]].concat();
    let ran = stress(&dir, &script, "2", &args);
    assert_eq!(ran.code, 1, "{name}: {}{}", ran.stdout, ran.stderr);
    let report = ran.stdout;
    assert!(report.starts_with("found by run "), "{report}");
    assert!(report.contains(&format!("\n\n{}: ", kind.words())), "{name} is a {kind}: {report}");
    assert!(report.contains("shrunk by ") && report.contains(": 1-minimal"), "{report}");
    let saved = std::fs::read(dir.join("min.in")).expect("the input is saved");
    let input = Judge.parse(&saved, Limits::Original).expect("the saved input is valid");

    let run = ChildOptions { time_limit, ..ChildOptions::default() };
    let program = Program::new(&["sh", &script]);
    let fails = |candidate: &Vec<Case>| {
        trial(&Judge, &program, candidate, &run).expect("the program runs").verdict.kind == kind
    };
    assert!(fails(&input), "{name}: the saved input fails");
    let mut tried = 0;
    for i in 0..input.len() {
        let mut dropped = input.clone();
        dropped.remove(i);
        if Judge.validate(&dropped, Limits::Original).is_ok() {
            assert!(!fails(&dropped), "{name}: dropping case {} still fails: {dropped:?}", i + 1);
            tried += 1;
        }
    }
    for (i, case) in input.iter().enumerate() {
        for k in 0..12 {
            let mut values = case.to_array();
            if values[k] > 1 {
                values[k] -= 1;
                let mut lowered = input.clone();
                lowered[i] = Case::from_array(values);
                assert!(
                    !fails(&lowered),
                    "{name}: lowering number {} of case {} still fails",
                    k + 1,
                    i + 1
                );
                tried += 1;
            }
        }
    }
    assert!(
        tried > 0 || input == [Case::from_array([1; 12])],
        "{name}: no move to try on {input:?}"
    );
    (input, report)
}

/// A heuristic: compares how many turns each side needs with its best hits on the total of
/// the enemy's hit points, ignoring who dies when.
const HEURISTIC: &str = r#"awk 'NR > 1 {
    da = ($5 > $6 ? $5 : $6) + ($7 > $8 ? $7 : $8); db = ($9 > $10 ? $9 : $10) + ($11 > $12 ? $11 : $12)
    ta = int(($3 + $4 + da - 1) / da); tb = int(($1 + $2 + db - 1) / db)
    print (ta < tb ? "Alice wins" : ta > tb ? "Bob wins" : "It depends")
}'
"#;

#[test]
fn a_right_program_passes_every_level_and_every_small_case() {
    let dir = scratch("right");
    let ran = hero(&["stress", "--runs", "400", "-j", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.starts_with("ok: no failure in 400 runs, "), "{}", ran.stdout);
    let ran = hero(&["stress", "--exhaustive", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout
            .starts_with("ok: right on every input: 103 runs, 4096 cases (exhaustive up to 2)\n"),
        "{}",
        ran.stdout
    );
    assert!(!dir.join("min.in").exists());
}

#[test]
fn a_rule_bug_is_a_wrong_answer_shrunk_to_one_case_with_our_proof() {
    let (input, report) = find_and_prove(
        "heuristic",
        HEURISTIC,
        VerdictKind::WrongAnswer,
        &["--runs", "100"],
        TIME_LIMIT,
    );
    assert_eq!(input.len(), 1, "{report}");
    assert!(report.contains("\nwrong answer: case 1: expected \""), "{report}");
    for part in [
        "\ninput (saved to ",
        "\nour answer:\n    ",
        "\nyour output:\n    ",
        "\nwhy our answer is right:\n    ",
        "\n      Alice first: ",
        "\nreproduce: hero-battle stress --seed 1 --from 0 --runs 1 --time-limit 2s --limits original -- sh ",
        "\ntime: ",
    ] {
        assert!(report.contains(part), "{part:?} in {report}");
    }
}

#[test]
fn state_kept_between_cases_keeps_both_cases_and_the_report_ignores_jobs() {
    // Right answers, except a case with a1 = 1 right after a case with a1 > 2 gets another
    // verdict: as if something of the previous case were left over.
    let body = r#"in=$(cat)
printf '%s\n' "$in" | HERO | IN="$in" awk 'BEGIN {
    n = split(ENVIRON["IN"], lines, "\n")
    for (i = 2; i <= n; i++) { split(lines[i], v, " "); a1[i - 1] = v[1] }
}
{ if (NR > 1 && a1[NR - 1] > 2 && a1[NR] == 1) print ($0 == "It depends" ? "Alice wins" : "It depends"); else print }'
"#;
    let (input, report) =
        find_and_prove("state", body, VerdictKind::WrongAnswer, &["--runs", "100"], TIME_LIMIT);
    let mut first = [1; 12];
    first[0] = 3;
    assert_eq!(input, [Case::from_array(first), Case::from_array([1; 12])], "{report}");
    assert!(report.contains("\nwrong answer: case 2: "), "{report}");

    // The same seed gives the same report with one job, but for its time line.
    let dir = scratch("state");
    let script = script(&dir, "state", body);
    let strip = |ran: Ran| {
        assert_eq!(ran.code, 1);
        let lines: Vec<&str> = ran.stdout.lines().filter(|l| !l.starts_with("time: ")).collect();
        lines.join("\n")
    };
    let one = strip(stress(&dir, &script, "1", &["--runs", "100"]));
    let two = strip(stress(&dir, &script, "2", &["--runs", "100"]));
    assert_eq!(one, two);
}

#[test]
fn a_crash_is_a_runtime_error_with_its_stderr() {
    let body = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $4 == 5 { bad = 1 } END { exit !bad }'; then
    echo "segmentation fault near b2 = 5" >&2; kill -SEGV $$
fi
printf '%s\n' "$in" | HERO
"#;
    let (input, report) =
        find_and_prove("crash", body, VerdictKind::RuntimeError, &["--runs", "200"], TIME_LIMIT);
    assert_eq!(input, [Case::from_array([1, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1])], "{report}");
    assert!(
        report.contains(
            "\nruntime error: signal 11 (SIGSEGV), stderr: \"segmentation fault near b2 = 5\"\n"
        ),
        "{report}"
    );
}

#[test]
fn a_hang_is_a_time_limit_exceeded() {
    let body = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $1 == 3 && $3 == 2 { bad = 1 } END { exit !bad }'; then sleep 30; fi
printf '%s\n' "$in" | HERO
"#;
    let limit = Duration::from_millis(400);
    let (input, report) =
        find_and_prove("hang", body, VerdictKind::TimeLimit, &["--runs", "100"], limit);
    assert_eq!(input, [Case::from_array([3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])], "{report}");
    assert!(report.contains("\ntime limit exceeded: killed after 0.4"), "{report}");
    assert!(report.contains(" --time-limit 0.4s "), "{report}");
}

#[test]
fn a_misspelt_verdict_is_a_presentation_error() {
    let body = "HERO | sed 's/^It depends$/It Depends/'\n";
    let (input, report) = find_and_prove(
        "misspelt",
        body,
        VerdictKind::PresentationError,
        &["--runs", "100"],
        TIME_LIMIT,
    );
    assert_eq!(input, [Case::from_array([1; 12])], "{report}");
    assert!(report.contains("\npresentation error: case 1: expected \"It depends\", found \"It Depends\", which is not an answer\n"), "{report}");
}

#[test]
fn the_exhaustive_run_finds_a_failure_and_its_line_reproduces_it() {
    let (input, report) = find_and_prove(
        "exhaustive",
        HEURISTIC,
        VerdictKind::WrongAnswer,
        &["--exhaustive", "2"],
        TIME_LIMIT,
    );
    assert_eq!(input.len(), 1);
    assert!(input[0].to_array().iter().all(|&v| v <= 2), "{input:?}");
    assert!(report.contains("cases (exhaustive up to 2)\n"), "{report}");

    // The reproduction line, run as printed, finds the same failure from that run alone.
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: hero-battle "))
        .expect("a reproduction line");
    assert!(line.starts_with("stress --exhaustive 2 --from "), "{line}");
    let dir = scratch("exhaustive-again");
    let out = Command::new(BINARY).args(line.split(' ')).current_dir(&dir).output().unwrap();
    let again = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    let first = |text: &str| text.lines().nth(1).map(str::to_owned);
    assert_eq!(first(&again).map(|l| l.starts_with("tried 1 run, ")), Some(true), "{again}");
    let verdict =
        |text: &str| text.lines().find(|l| l.starts_with("wrong answer: case ")).map(str::to_owned);
    assert_eq!(verdict(&again), verdict(&report));
    assert!(dir.join("counterexample.in").exists());
}
