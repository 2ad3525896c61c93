//! What hero-battle's judge does that is its own, end to end through the binary: `check`'s
//! exact-lines rule on every verdict and its strict reading of a jury answer, `validate`'s
//! rules with their places, the right program on the exhaustive run and the extended limits'
//! extremes; and, through `judge::testing::binary_conformance`, what every binary must do the
//! same way, run on hero-battle's samples and its own wrong programs (shell and awk wrappers
//! around the binary), among them programs that fail only at the largest `T` or only on a hit
//! point of 99, which the first extreme input finds. Each failure is shrunk to an input this
//! file gives, or proved 1-minimal with its own one-step moves (drop a case, lower one number
//! by one).

#![cfg(unix)]

use std::path::Path;

use hero_battle::Case;
use hero_battle::judge::Judge;
use judge::testing::{BinaryCase, Judged, Sample, WrongProgram, binary_conformance};
use judge::{Limits, Problem, VerdictKind};
use tests::Ran;

const BINARY: &str = env!("CARGO_BIN_EXE_hero-battle");

const SAMPLE: &str = "4\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n\
                      30 30 5 5 1 1 1 1 7 2 2 7\n12 7 9 15 4 2 3 5 2 6 4 1\n";
const SAMPLE_OUT: &str = "It depends\nBob wins\nAlice wins\nBob wins\n";

fn scratch(name: &str) -> tests::TestDir {
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

/// A jury answer is read strictly and compared with ours: the message names the line or case.
#[test]
fn check_reads_the_jury_answer_strictly() {
    let dir = scratch("jury");
    let input = write(&dir, "in", SAMPLE);
    let output = write(&dir, "out", SAMPLE_OUT);
    let fail = |jury: &str, message: &str| {
        let ran = hero(&["check", &input, &output, &write(&dir, "jury", jury)], b"");
        assert_eq!((ran.code, ran.stderr.trim_end()), (3, message));
    };
    fail(
        "It depends\nBob wins\nAlice wins\nBob won\n",
        r#"fail: answer: line 4: expected "Alice wins", "Bob wins" or "It depends", found "Bob won""#,
    );
    fail(
        "It depends\nBob wins\nAlice wins\nAlice wins\n",
        r#"fail: the answer file disagrees with ours: case 4: expected "Bob wins", found "Alice wins""#,
    );
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

#[test]
fn the_right_program_passes_the_exhaustive_run_and_the_extended_limits_extremes() {
    let ran = hero(&["stress", "--exhaustive", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout
            .starts_with("ok: right on every input: 103 runs, 4,096 cases (exhaustive up to 2)\n"),
        "{}",
        ran.stdout
    );
    // The extended limits' extremes (runs 10 to 15), the file of 70,000 cases among them.
    let args = ["stress", "--limits", "extended", "--runs", "20", "-j", "2", "-t", "5s"];
    let ran = hero(&[&args[..], &["--", BINARY]].concat(), b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
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

/// A heuristic: compares how many turns each side needs with its best hits on the total of
/// the enemy's hit points, ignoring who dies when.
const HEURISTIC: &str = r#"awk 'NR > 1 {
    da = ($5 > $6 ? $5 : $6) + ($7 > $8 ? $7 : $8); db = ($9 > $10 ? $9 : $10) + ($11 > $12 ? $11 : $12)
    ta = int(($3 + $4 + da - 1) / da); tb = int(($1 + $2 + db - 1) / db)
    print (ta < tb ? "Alice wins" : ta > tb ? "Bob wins" : "It depends")
}'
"#;

/// Right answers, except a case with a1 = 1 right after a case with a1 > 2 gets another
/// answer: as if something of the previous case were left over.
const STATE: &str = r#"in=$(cat)
printf '%s\n' "$in" | BINARY | IN="$in" awk 'BEGIN {
    n = split(ENVIRON["IN"], lines, "\n")
    for (i = 2; i <= n; i++) { split(lines[i], v, " "); a1[i - 1] = v[1] }
}
{ if (NR > 1 && a1[NR - 1] > 2 && a1[NR] == 1) print ($0 == "It depends" ? "Alice wins" : "It depends"); else print }'
"#;

/// Dies by SIGSEGV on a case with b2 = 5.
const CRASH: &str = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $4 == 5 { bad = 1 } END { exit !bad }'; then
    echo "segmentation fault near b2 = 5" >&2; kill -SEGV $$
fi
printf '%s\n' "$in" | BINARY
"#;

/// Spins for good on a case with a1 = 3, whatever the time limit.
const HANG: &str = r#"in=$(cat)
if printf '%s\n' "$in" | awk 'NR > 1 && $1 == 3 { bad = 1 } END { exit !bad }'; then
    while :; do :; done
fi
printf '%s\n' "$in" | BINARY
"#;

/// An array of 40 answers indexed from 1: the 40th case runs off its end.
const CRASHES_AT_40_CASES: &str = r#"in=$(cat)
if [ "$(printf '%s\n' "$in" | head -n 1)" = 40 ]; then
    echo "answer 40 written past the end of answers[40]" >&2; kill -SEGV $$
fi
printf '%s\n' "$in" | BINARY
"#;

/// Right answers, but the other player wins any case in which some hit point is 99.
const WRONG_ON_99_HIT_POINTS: &str = r#"in=$(cat)
printf '%s\n' "$in" | BINARY | awk '
    NR == FNR { if (FNR > 1) at99[FNR - 1] = $1 == 99 || $2 == 99 || $3 == 99 || $4 == 99; next }
    { print at99[FNR] ? ($0 == "Alice wins" ? "Bob wins" : "Alice wins") : $0 }
' /dev/fd/3 - 3<<EOF
$in
EOF
"#;

/// One case with these twelve numbers.
fn case(values: [u8; 12]) -> Case {
    Case::from_array(values)
}

/// Everything every binary does the same way, on hero-battle's samples and wrong programs:
/// state kept between cases, shrunk to the two cases it needs; a rule bug (the heuristic)
/// shrunk to one case, on generated inputs and on the exhaustive run, whose replay line saves
/// that run's file of the enumeration; a crash, a hang and a misspelt answer, each shrunk to
/// one case; failures only at the largest `T` (a crash: no case can go, and every number goes
/// down to 1) and only on a hit point of 99, each found by run 10, the first extreme input,
/// right after the ten tiny ones.
#[test]
fn the_binary_conforms() {
    let one = |values| vec![case(values)];
    let wrong = vec![
        WrongProgram::new("state", VerdictKind::WrongAnswer, STATE)
            .shrinks_to(vec![case([3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), case([1; 12])]),
        WrongProgram::new("heuristic", VerdictKind::WrongAnswer, HEURISTIC),
        WrongProgram::new("exhaustive", VerdictKind::WrongAnswer, HEURISTIC)
            .stress(&["--exhaustive", "2"]),
        WrongProgram::new("crash", VerdictKind::RuntimeError, CRASH)
            .stress(&["--runs", "200"])
            .shrinks_to(one([1, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1])),
        WrongProgram::new("hang", VerdictKind::TimeLimit, HANG)
            .shrinks_to(one([3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])),
        WrongProgram::new(
            "misspelt",
            VerdictKind::PresentationError,
            "BINARY | sed 's/^It depends$/It Depends/'\n",
        )
        .shrinks_to(one([1; 12])),
        WrongProgram::new("t40", VerdictKind::RuntimeError, CRASHES_AT_40_CASES)
            .found_by(10)
            .shrinks_to(vec![case([1; 12]); 40]),
        WrongProgram::new("hp99", VerdictKind::WrongAnswer, WRONG_ON_99_HIT_POINTS)
            .found_by(10)
            .shrinks_to(one([1, 1, 1, 99, 1, 1, 1, 1, 1, 1, 1, 1])),
    ];
    let conformance = BinaryCase {
        samples: Sample::all_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problem")),
        wrong_output: Judged {
            text: "It depends\nBob wins\nIt depends\nBob wins\n",
            says: r#"wrong answer: case 3: expected "Alice wins", found "It depends""#,
        },
        malformed_output: Judged {
            text: "It depends\nBob wins\nalice wins\nBob wins\n",
            says: r#"presentation error: case 3: expected "Alice wins", found "alice wins", which is not an answer"#,
        },
        broken_input: Judged {
            text: "2\n1 1 1 1 1 1 1 1 1 1 1 1\n",
            says: "line 2, column 24: expected hit points a1 in 1..=99, found end of input",
        },
        right_args: vec![],
        right_runs: (400, "ok: no failure in 400 runs, 12,765 cases (seed 1)"),
        default_limits: "1 s of CPU time (3 s of wall time) and 256 MB of memory, the stack's \
                         too, a run (the original judge's)",
        wrong,
        one_step: |input| one_step_moves(input),
    };
    let found = binary_conformance(&Judge, BINARY, &conformance);
    let heuristic = &found[1];
    assert_eq!(heuristic.input.len(), 1, "{}", heuristic.report);
    let exhaustive = &found[2];
    assert_eq!(exhaustive.input.len(), 1, "{}", exhaustive.report);
    assert!(exhaustive.input[0].to_array().iter().all(|&v| v <= 2), "{:?}", exhaustive.input);
    let file = Judge.exhaustive(2, exhaustive.run, Limits::Original);
    assert_eq!(Some(&exhaustive.unshrunk), file.as_ref(), "run {}'s file", exhaustive.run);
}
