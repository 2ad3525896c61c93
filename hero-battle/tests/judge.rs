//! The judge's subcommands of the hero-battle binary end to end: `check` on every verdict
//! and protocol, `validate` on every rule with its place, and `stress` against small shell
//! and awk programs this file writes: a right one (the binary itself) and wrong ones of each
//! kind, among them programs that fail only at the largest `T` or only on a hit point of 99,
//! which the extreme inputs find right after the first tiny ones. Each failure is found, its
//! saved input fails with the expected kind, and the test proves that input 1-minimal with
//! its own one-step moves (drop a case, lower one number by one). Stopping `stress` or
//! `shrink` with a signal leaves nothing running.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use hero_battle::Case;
use hero_battle::judge::Judge;
use judge::testing::ShellScript;
use judge::{ChildOptions, Limits, Problem, VerdictKind, testing, trial};
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
    // A missing final newline is accepted, marked as overlooked; --strict rejects it, and
    // changes nothing else.
    let unfinished = write(&dir, "unfinished", SAMPLE_OUT.trim_end());
    let overlooked = "no newline at the end of line 4, the last, which the assumed rule (exact \
                      lines) overlooks";
    let ran = hero(&["check", &input, &unfinished], b"");
    let ok = format!("ok: 4 cases; lenient: {overlooked}");
    assert_eq!((ran.code, ran.stderr.trim_end()), (0, ok.as_str()));
    let ran = hero(&["check", "--strict", &input, &unfinished], b"");
    let rejected = format!("presentation error: {overlooked}");
    assert_eq!((ran.code, ran.stderr.trim_end()), (2, rejected.as_str()));
    let right = write(&dir, "right", SAMPLE_OUT);
    assert_eq!(hero(&["check", "--strict", &input, &right], b"").code, 0);
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
    // The canonical format by default, as a setter's validator reads; any white space with
    // --lenient, as the solver reads.
    let spaced = b" 1\t1 1 1 1\n1 1 1 1 1 1 1 1";
    let ran = hero(&["validate"], spaced);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (3, "invalid: line 1, column 1: expected \"1\", found a space (canonical format)\n")
    );
    assert_eq!(hero(&["validate", "--lenient"], spaced).code, 0);
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

/// A program under test: a `/bin/sh` script whose `HERO` is replaced by the binary under
/// test (the right answers the wrong programs start from).
fn shell(dir: &Path, name: &str, body: &str) -> ShellScript {
    testing::shell_script(dir, &format!("{name}.sh"), &body.replace("HERO", BINARY))
}

/// `hero-battle stress -j JOBS ARGS -- /bin/sh SCRIPT` in `dir`, which saves a failure as
/// `dir/counterexample.in`.
fn stress(dir: &Path, script: &ShellScript, jobs: &str, args: &[&str]) -> Ran {
    let mut all = vec!["stress", "-j", jobs];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "/bin/sh", &script.path]);
    let out = Command::new(BINARY).args(&all).current_dir(dir).output().expect("the binary runs");
    Ran::of(&out)
}

/// Each run's time limit in the tests below but the hang's: far above any normal run, so
/// only a planted failure fails.
const TIME_LIMIT: Duration = Duration::from_secs(5);

/// `--time-limit` for `limit`.
fn limit_arg(limit: Duration) -> String {
    format!("{}ms", limit.as_millis())
}

/// The test's own one-step moves of `input`, written apart from `Judge::shrink`: drop one
/// case; lower one number by one.
fn one_step_moves(input: &[Case]) -> Vec<Vec<Case>> {
    let mut moves = Vec::new();
    for i in 0..input.len() {
        let mut dropped = input.to_vec();
        dropped.remove(i);
        moves.push(dropped);
    }
    for (i, case) in input.iter().enumerate() {
        for k in 0..12 {
            let mut values = case.to_array();
            if values[k] > 1 {
                values[k] -= 1;
                let mut lowered = input.to_vec();
                lowered[i] = Case::from_array(values);
                moves.push(lowered);
            }
        }
    }
    moves
}

/// Asserts that `script` fails on `input` with `kind` (each run limited to `time_limit`,
/// inputs within the original limits) and on no valid input one move smaller.
fn assert_fails_minimally(
    script: &ShellScript,
    input: &[Case],
    kind: VerdictKind,
    time_limit: Duration,
) {
    let run = ChildOptions::new(time_limit, None);
    let input = input.to_vec();
    let t = trial(&Judge, &script.program, &input, &run).expect("the program runs");
    assert_eq!(t.verdict.kind, kind, "{input:?}: {}", t.verdict);
    let moves = one_step_moves(&input);
    testing::assert_one_minimal(&Judge, &script.program, kind, Limits::Original, &run, moves);
}

/// The failing input `stress` saved in `dir`.
fn saved(dir: &Path) -> Vec<Case> {
    let bytes = std::fs::read(dir.join("counterexample.in")).expect("the input is saved");
    Judge.parse(&bytes, Limits::Original).expect("the saved input is valid")
}

/// Runs a wrong program under `stress ARGS` (each run limited to `time_limit`), checks that a
/// failure is found, that the saved input fails with `kind`, and that it is 1-minimal.
/// Returns that input and the report.
fn find_and_prove(
    name: &str,
    body: &str,
    kind: VerdictKind,
    args: &[&str],
    time_limit: Duration,
) -> (Vec<Case>, String) {
    let dir = scratch(name);
    let script = shell(&dir, name, body);
    let limit = limit_arg(time_limit);
    let args = [args, &["--time-limit", &limit]].concat();
    let ran = stress(&dir, &script, "2", &args);
    assert_eq!(ran.code, 1, "{name}: {}{}", ran.stdout, ran.stderr);
    let input = saved(&dir);
    assert_fails_minimally(&script, &input, kind, time_limit);
    (input, ran.stdout)
}

/// Runs a wrong program under `stress --runs 10` (the tiny inputs: it must pass them), then
/// `--runs 11` (run 10 is the first extreme input: it must fail there), and proves the saved
/// input 1-minimal. Returns that input.
fn found_by_the_first_extreme(name: &str, body: &str, kind: VerdictKind) -> Vec<Case> {
    let dir = scratch(name);
    let script = shell(&dir, name, body);
    let limit = limit_arg(TIME_LIMIT);
    let tiny = stress(&dir, &script, "2", &["--runs", "10", "--time-limit", &limit]);
    assert_eq!(tiny.code, 0, "{name} passes the tiny inputs: {}{}", tiny.stdout, tiny.stderr);
    let ran = stress(&dir, &script, "2", &["--runs", "11", "--time-limit", &limit]);
    assert_eq!(ran.code, 1, "{name} fails on run 10: {}{}", ran.stdout, ran.stderr);
    let input = saved(&dir);
    assert_fails_minimally(&script, &input, kind, TIME_LIMIT);
    input
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
fn a_right_program_passes_every_level_the_extremes_and_every_small_case() {
    let dir = scratch("right");
    let ran = hero(&["stress", "--runs", "400", "-j", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    let ran = hero(&["stress", "--exhaustive", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout
            .starts_with("ok: right on every input: 103 runs, 4,096 cases (exhaustive up to 2)\n"),
        "{}",
        ran.stdout
    );
    // The extended limits' extremes (runs 10 to 15), the file of 70,000 cases among them.
    let limit = limit_arg(TIME_LIMIT);
    let args = ["stress", "--limits", "extended", "--runs", "20", "-j", "2", "-t", &limit];
    let ran = hero(&[&args[..], &["--", BINARY]].concat(), b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(!dir.join("counterexample.in").exists());
}

/// An array of 40 answers indexed from 1: the 40th case runs off its end.
const CRASHES_AT_40_CASES: &str = r#"in=$(cat)
if [ "$(printf '%s\n' "$in" | head -n 1)" = 40 ]; then
    echo "answer 40 written past the end of answers[40]" >&2; kill -SEGV $$
fi
printf '%s\n' "$in" | HERO
"#;

/// Right answers, but the other player wins any case in which some hit point is 99.
const WRONG_ON_99_HIT_POINTS: &str = r#"in=$(cat)
printf '%s\n' "$in" | HERO | awk '
    NR == FNR { if (FNR > 1) at99[FNR - 1] = $1 == 99 || $2 == 99 || $3 == 99 || $4 == 99; next }
    { print at99[FNR] ? ($0 == "Alice wins" ? "Bob wins" : "Alice wins") : $0 }
' /dev/fd/3 - 3<<EOF
$in
EOF
"#;

#[test]
fn a_program_failing_only_at_the_largest_t_is_found_by_the_first_extreme() {
    let input = found_by_the_first_extreme("t40", CRASHES_AT_40_CASES, VerdictKind::RuntimeError);
    // No case can go, and every number goes down to 1.
    assert_eq!(input, vec![Case::from_array([1; 12]); 40]);
}

#[test]
fn a_program_failing_only_on_a_hit_point_of_99_is_found_by_the_first_extreme() {
    let input =
        found_by_the_first_extreme("hp99", WRONG_ON_99_HIT_POINTS, VerdictKind::WrongAnswer);
    assert_eq!(input, [Case::from_array([1, 1, 1, 99, 1, 1, 1, 1, 1, 1, 1, 1])]);
}

#[test]
fn a_rule_bug_is_a_wrong_answer_shrunk_to_one_case() {
    let (input, report) = find_and_prove(
        "heuristic",
        HEURISTIC,
        VerdictKind::WrongAnswer,
        &["--runs", "100"],
        TIME_LIMIT,
    );
    assert_eq!(input.len(), 1, "{report}");
}

/// The report of a failure found under the default limits names the original judge's limits
/// and every file it saved beside the input, each holding what the report says.
#[test]
fn the_report_names_the_saved_files_and_the_original_judges_limits() {
    let dir = scratch("report");
    let script = shell(&dir, "heuristic", HEURISTIC);
    let ran = stress(&dir, &script, "2", &["--runs", "100"]);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    let report = ran.stdout;
    let limits = "\nlimits: 1 s of CPU time (3 s of wall time) and 256 MB of memory, the stack's too, \
                  a run (the original judge's); ";
    assert!(report.contains(limits), "{report}");
    let input = saved(&dir);
    let file = |ending: &str| {
        let path = dir.join(format!("counterexample.{ending}"));
        let named = format!(", saved to counterexample.{ending}");
        assert!(report.contains(&named), "{ending}: {report}");
        std::fs::read(&path).expect("saved where the report says")
    };
    assert_eq!(file("in"), judge::problem::render(&Judge, &input));
    let mut answer = Vec::new();
    Judge.render_answer(&input, &Judge.solve(&input), &mut answer);
    assert_eq!(file("ans"), answer);
    let rerun = Command::new("/bin/sh")
        .arg(&script.path)
        .stdin(std::fs::File::open(dir.join("counterexample.in")).expect("saved"))
        .output()
        .expect("the script runs");
    assert_eq!(file("out"), rerun.stdout);
    assert_eq!(file("proof"), Judge.explain(&input).remove(0).text.into_bytes());
}

#[test]
fn state_kept_between_cases_keeps_both_cases_and_the_report_ignores_jobs() {
    // Right answers, except a case with a1 = 1 right after a case with a1 > 2 gets another
    // answer: as if something of the previous case were left over.
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

    // The same seed gives the same report with one job, but for its time line.
    let dir = scratch("state-jobs");
    let script = shell(&dir, "state", body);
    let strip = |ran: Ran| {
        assert_eq!(ran.code, 1);
        let varying = |l: &&str| l.starts_with("time: ") || l.starts_with("measured: ");
        let lines: Vec<&str> = ran.stdout.lines().filter(|l| !varying(l)).collect();
        lines.join("\n")
    };
    let ran = |jobs: &str| {
        // A saved failure is never overwritten: clear the first one so the second takes its
        // name.
        for ending in ["in", "ans", "out", "proof"] {
            let _ = std::fs::remove_file(dir.join(format!("counterexample.{ending}")));
        }
        strip(stress(&dir, &script, jobs, &["--runs", "100"]))
    };
    assert_eq!(ran("1"), ran("2"));
}

#[test]
fn a_crash_is_a_runtime_error() {
    let body = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $4 == 5 { bad = 1 } END { exit !bad }'; then
    echo "segmentation fault near b2 = 5" >&2; kill -SEGV $$
fi
printf '%s\n' "$in" | HERO
"#;
    let (input, report) =
        find_and_prove("crash", body, VerdictKind::RuntimeError, &["--runs", "200"], TIME_LIMIT);
    assert_eq!(input, [Case::from_array([1, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1])], "{report}");
}

/// The hang test's CPU-time limit. A normal run of its program (a shell, awk and the binary on
/// a tiny file) takes about 10 ms of CPU time however busy the machine is (its wall time
/// reached 0.4 s on a busy one); fifty times that. The hang spins, so it meets the limit in
/// CPU time, and each hanging candidate of the shrinker costs half a second.
const HANG_TIME_LIMIT: Duration = Duration::from_millis(500);

#[test]
fn a_hang_is_a_time_limit_exceeded() {
    // Spins for good on a case with a1 = 3, whatever the time limit.
    let body = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $1 == 3 { bad = 1 } END { exit !bad }'; then
    while :; do :; done
fi
printf '%s\n' "$in" | HERO
"#;
    let (input, report) =
        find_and_prove("hang", body, VerdictKind::TimeLimit, &["--runs", "100"], HANG_TIME_LIMIT);
    assert_eq!(input, [Case::from_array([3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])], "{report}");
}

#[test]
fn a_misspelt_answer_is_a_presentation_error() {
    let body = "HERO | sed 's/^It depends$/It Depends/'\n";
    let (input, report) = find_and_prove(
        "misspelt",
        body,
        VerdictKind::PresentationError,
        &["--runs", "100"],
        TIME_LIMIT,
    );
    assert_eq!(input, [Case::from_array([1; 12])], "{report}");
}

#[test]
fn the_exhaustive_run_finds_a_failure_and_its_replay_line_reproduces_it() {
    let (input, report) = find_and_prove(
        "exhaustive",
        HEURISTIC,
        VerdictKind::WrongAnswer,
        &["--exhaustive", "2"],
        TIME_LIMIT,
    );
    assert_eq!(input.len(), 1);
    assert!(input[0].to_array().iter().all(|&v| v <= 2), "{input:?}");

    // The replay line, run as printed (unshrunk), fails on that run's whole file alone.
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("replay the run: hero-battle "))
        .expect("a replay line");
    assert!(line.starts_with("stress --exhaustive 2 --from "), "{line}");
    let dir = scratch("exhaustive-again");
    let mut args: Vec<&str> = line.split(' ').collect();
    let dashes = args.iter().position(|&a| a == "--").expect("the command follows --");
    args.insert(dashes, "--no-shrink");
    let out = Command::new(BINARY).args(&args).current_dir(&dir).output().expect("replays");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let from: u64 = args[args.iter().position(|&a| a == "--from").unwrap() + 1].parse().unwrap();
    assert_eq!(Some(saved(&dir)), Judge.exhaustive(2, from, Limits::Original));
}

/// Stopping `stress` with SIGINT, SIGTERM or SIGHUP ends it with 128 + the signal after
/// killing every process of the programs it was running; with SIGKILL the programs die with
/// it.
#[test]
fn stopping_stress_leaves_nothing_running() {
    let dir = scratch("stop-stress");
    testing::assert_stress_stops_cleanly(BINARY, &dir);
}

/// The same for `shrink` with SIGINT, in its first run of the program (which never ends).
#[test]
fn stopping_shrink_leaves_nothing_running() {
    let dir = scratch("stop-shrink");
    let failing =
        write(&dir, "failing.in", "2\n3 1 1 1 1 1 1 1 1 1 1 1\n1 1 1 1 1 1 1 1 1 1 1 1\n");
    let args = ["shrink", failing.as_str(), "--time-limit", "60", "--"];
    let _ = testing::assert_stops_cleanly(BINARY, &args, &dir, 2);
}
