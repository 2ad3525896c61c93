//! The judge's subcommands of the card-duel binary end to end: `check` on the verdict table
//! (`tests/data/check-verdicts.txt`: the official checker's verdict and the strict
//! one for each output, the 1e-6 boundary both ways) and every protocol, `validate` on every
//! rule with its place, and `stress` against programs this file writes: a right one (the
//! binary itself) and wrappers around it that go wrong in one way each (a rule bug, state
//! kept between cases, a crash, a hang, a misspelt number), among them programs that fail
//! only at HP 20, only with a full board or only at the largest `T`, which the extreme inputs
//! find right after the first tiny ones. Each failure is found, its saved input fails with
//! the expected kind, and the test proves that input 1-minimal with its own one-step moves
//! (drop a case, lower O, an HP or a hand by one, remove a minion, lower one to 1 HP).
//! Stopping `stress`, `shrink` or an exhaustive run with a signal leaves nothing running.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use card_duel::judge::{Judge, TestFile};
use card_duel::{Board, Position};
use engine::rng::SplitMix64;
use judge::problem::render;
use judge::stress::run_seed;
use judge::testing::ShellScript;
use judge::{
    ChildOptions, Limits, Problem, ShrinkEnd, ShrinkOptions, VerdictKind, check, shrink, testing,
    trial,
};
use tests::Ran;

const BINARY: &str = env!("CARGO_BIN_EXE_card-duel");

/// Four cases worth 0.5 (sample 1's position), 0.047132701 (sample 2's, with O = 3), exactly
/// 0 (E at 1 HP must act, and the teacher's minions survive the pings to hit him) and exactly
/// 1 (E's minion kills the teacher at once).
const FOUR: &str =
    "4 3\n1 1\n0\n0\n0 1\n5 14\n1 1\n1 1\n1 0\n1 4\n2 2 2\n0\n0 0\n3 3\n0\n1 1\n0 0\n";
const FOUR_OUT: &str = "0.500000000\n0.047132701\n0.000000000\n1.000000000\n";

fn scratch(name: &str) -> PathBuf {
    tests::scratch_dir("card-duel-judge", name)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    tests::write_file(dir, name, text)
}

fn duel(args: &[&str], stdin: &[u8]) -> Ran {
    Ran::of(&tests::run_binary(BINARY, args, stdin))
}

/// One entry of the verdict table `tests/data/check-verdicts.txt`: an output,
/// what the official checker says to it, and our lines without and with `--strict`.
struct VerdictRow {
    output: Vec<u8>,
    official: String,
    check: String,
    strict: String,
}

/// The verdict table: its input, its jury answer and its entries.
fn verdict_table() -> (Vec<u8>, Vec<u8>, Vec<VerdictRow>) {
    let path = tests::data_dir(env!("CARGO_MANIFEST_DIR")).join("check-verdicts.txt");
    let text = std::fs::read_to_string(&path).expect("the verdict table is there");
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        fields.push((key, value.trim_start()));
    }
    let quoted = |value: &str| {
        let inner = value.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
        testing::unescape_c(inner.unwrap_or_else(|| panic!("{value} is not quoted")))
    };
    let [("input", input), ("answer", answer), entries @ ..] = &fields[..] else {
        panic!("the table opens with its input and its answer");
    };
    let rows = entries
        .chunks(4)
        .map(|entry| match entry {
            [("output", output), ("chk.cpp", official), ("check", check), ("strict", strict)] => {
                VerdictRow {
                    output: quoted(output),
                    official: (*official).to_owned(),
                    check: (*check).to_owned(),
                    strict: (*strict).to_owned(),
                }
            }
            _ => panic!("an entry is output, chk.cpp, check and strict: {entry:?}"),
        })
        .collect();
    (quoted(input), quoted(answer), rows)
}

#[test]
fn check_gives_the_official_checkers_verdicts_and_strict_rejects_what_it_overlooks() {
    let (input, answer, rows) = verdict_table();
    let judge = Judge::new();
    let mut lenient = 0;
    for row in &rows {
        let kind = match row.official.as_str() {
            "Accepted." => VerdictKind::Ok,
            "Wrong Answer." => VerdictKind::WrongAnswer,
            "Output too short." | "Output too long." => VerdictKind::PresentationError,
            other => panic!("chk.cpp has no message {other:?}"),
        };
        for jury in [None, Some(&answer[..])] {
            let run =
                |strict| check(&judge, &input, &row.output, jury, Limits::Original, true, strict);
            let (official, strict) = (run(false), run(true));
            let with = if jury.is_some() { "with the jury's answer" } else { "with ours" };
            assert_eq!(official.to_string(), row.check, "{:?} {with}", row.output);
            assert_eq!(strict.to_string(), row.strict, "{:?} {with}, strict", row.output);
            assert_eq!(official.kind, kind, "{:?}: chk.cpp says {}", row.output, row.official);
            // Strict differs only where chk.cpp overlooked something.
            assert_eq!(official.clone().strict(), strict);
            lenient += usize::from(official.lenient.is_some());
        }
    }
    assert!(rows.len() >= 30 && lenient >= 2 * 8, "{} rows, {lenient} lenient", rows.len());
    for message in ["Accepted.", "Wrong Answer.", "Output too short.", "Output too long."] {
        assert!(rows.iter().any(|r| r.official == message), "no row gets {message}");
    }

    // The binary says the same lines, with testlib's exit codes.
    let dir = scratch("verdicts");
    let in_path = dir.join("in");
    let answer_path = dir.join("ans");
    std::fs::write(&in_path, &input).unwrap();
    std::fs::write(&answer_path, &answer).unwrap();
    let (in_path, answer_path) = (in_path.display().to_string(), answer_path.display().to_string());
    for (i, row) in rows.iter().enumerate() {
        let out_path = dir.join(format!("out{i}"));
        std::fs::write(&out_path, &row.output).unwrap();
        let out_path = out_path.display().to_string();
        for (flags, line) in [(&[][..], &row.check), (&["--strict"][..], &row.strict)] {
            for jury in [None, Some(answer_path.as_str())] {
                let mut args = vec!["check"];
                args.extend_from_slice(flags);
                args.extend([in_path.as_str(), out_path.as_str()]);
                args.extend(jury);
                let ran = duel(&args, b"");
                let code = match line.split(':').next() {
                    Some("ok") => 0,
                    Some("wrong answer") => 1,
                    _ => 2,
                };
                assert_eq!((ran.code, ran.stderr.trim_end()), (code, line.as_str()), "{args:?}");
                assert!(ran.stdout.is_empty(), "testlib says nothing on stdout");
            }
        }
    }
}

#[test]
fn check_fails_on_a_malformed_input_a_bad_jury_answer_or_bad_usage() {
    let dir = scratch("fail");
    let input = write(&dir, "in", FOUR);
    let output = write(&dir, "out", FOUR_OUT);
    let fail = |args: &[&str], message: &str| {
        let ran = duel(args, b"");
        assert_eq!(ran.code, 3, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.starts_with(message), "{args:?}: {}", ran.stderr);
    };
    let truncated = write(&dir, "truncated", "2 3\n1 1\n0\n0\n0 1\n");
    fail(
        &["check", &truncated, &output],
        "fail: input: line 5, column 4: expected E's HP in 1..=20, found end of input",
    );
    // The checker reads inputs under the extended limits: O = 7 is no contest file, but ours.
    let seven = write(&dir, "seven", "1 7\n1 1\n0\n0\n0 1\n");
    assert_eq!(duel(&["check", &seven, &write(&dir, "half", "0.5\n")], b"").code, 0);
    let garbled = write(&dir, "garbled", "0.5\n0.047132701\nO.0\n1\n");
    fail(&["check", &input, &output, &garbled], r#"fail: answer: line 3: "O.0" is not a number"#);
    let short = write(&dir, "short", "0.5\n0.047132701\n0\n");
    fail(&["check", &input, &output, &short], "fail: answer: 3 numbers for 4 cases");
    let wrong = write(&dir, "wrong", "0.5\n0.047132701\n0.01\n1\n");
    fail(
        &["check", &input, &output, &wrong],
        "fail: the answer file disagrees with ours: case 3: expected 0.000000000, found 0.01",
    );
    // A trusted jury answer is taken as it is: the right output is then a wrong answer.
    let ran = duel(&["check", "--trust-answer", &input, &output, &wrong], b"");
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    fail(&["check", &input], "fail: Testlib checkers take INPUT OUTPUT [ANSWER], got 1");
    fail(&["check", "--no-such-flag", &input, &output], "error: unexpected argument");
}

#[test]
fn check_speaks_kattis_and_cms() {
    let dir = scratch("protocols");
    let input = write(&dir, "in", FOUR);
    let answer = write(&dir, "ans", FOUR_OUT);
    let wrong = "0.5\n0.047132701\n0\n0.75\n";
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let feedback = feedback.display().to_string();

    let kattis = |output: &str| {
        duel(&["check", "--protocol", "kattis", &input, &answer, &feedback], output.as_bytes())
    };
    assert_eq!(kattis(FOUR_OUT).code, 42);
    assert_eq!(kattis(wrong).code, 43);
    let message = std::fs::read_to_string(Path::new(&feedback).join("judgemessage.txt")).unwrap();
    assert_eq!(
        message,
        "wrong answer: case 4: expected 1.000000000, found 0.75 (line 4), absolute error \
         2.50e-1 > 1e-6\n"
    );
    assert_eq!(kattis("0.5\n").code, 43, "a presentation error is a rejection");

    // CMS: answer before output, the score on stdout, exit 0 unless the judge fails.
    let output = write(&dir, "out", wrong);
    let cms = duel(&["check", "--protocol", "cms", &input, &answer, &output], b"");
    assert_eq!((cms.code, cms.stdout.as_str()), (0, "0.0\n"));
    assert!(cms.stderr.starts_with("wrong answer: case 4: "), "{}", cms.stderr);
    let cms = duel(&["check", "--protocol", "cms", &input, &answer, &answer], b"");
    assert_eq!((cms.code, cms.stdout.as_str()), (0, "1.0\n"));
    let bad = write(&dir, "bad", "1 3\n0 1\n0\n0\n0 0\n");
    assert_eq!(duel(&["check", "--protocol", "cms", &bad, &answer, &answer], b"").code, 3);
}

#[test]
fn validate_names_each_rule_with_its_place() {
    let case = "1 1\n0\n0\n0 0\n";
    let too_many = format!("351494 3\n{}", case.repeat(351_494));
    let invalid = [
        (
            too_many.as_str(),
            "original",
            r#"line 1, column 1: expected the number of cases T in 1..=351493, found "351494""#,
        ),
        (
            "0 3\n",
            "original",
            r#"line 1, column 1: expected the number of cases T in 1..=351493, found "0""#,
        ),
        (
            "",
            "extended",
            "line 1, column 1: expected the number of cases T in 0..=10000000, found end of input",
        ),
        (
            "1 2\n1 1\n0\n0\n0 0\n",
            "original",
            r#"line 1, column 3: expected O in 3..=5, found "2""#,
        ),
        (
            "1 6\n1 1\n0\n0\n0 0\n",
            "original",
            r#"line 1, column 3: expected O in 3..=5, found "6""#,
        ),
        (
            "1 21\n1 1\n0\n0\n0 0\n",
            "extended",
            r#"line 1, column 3: expected O in 1..=20, found "21""#,
        ),
        (
            "1 0\n1 1\n0\n0\n0 0\n",
            "extended",
            r#"line 1, column 3: expected O in 1..=20, found "0""#,
        ),
        (
            "1 3\n0 1\n0\n0\n0 0\n",
            "original",
            r#"line 2, column 1: expected E's HP in 1..=20, found "0""#,
        ),
        (
            "1 3\n1 21\n0\n0\n0 0\n",
            "extended",
            r#"line 2, column 3: expected the teacher's HP in 1..=20, found "21""#,
        ),
        (
            "1 3\n1 1\n5 1 1 1 1 1\n0\n0 0\n",
            "original",
            r#"line 3, column 1: expected the teacher's minion count in 0..=4, found "5""#,
        ),
        (
            "1 3\n1 1\n0\n2 1 3\n0 0\n",
            "original",
            r#"line 4, column 5: expected a minion's HP in 1..=2, found "3""#,
        ),
        (
            "1 3\n1 1\n1 0\n0\n0 0\n",
            "original",
            r#"line 3, column 3: expected a minion's HP in 1..=2, found "0""#,
        ),
        (
            "1 3\n1 1\n0\n0\n4 0\n",
            "original",
            r#"line 5, column 1: expected the teacher's hand size in 0..=3, found "4""#,
        ),
        (
            "1 3\n1 1\n0\n0\n0 -1\n",
            "extended",
            r#"line 5, column 3: expected E's hand size in 0..=3, found "-1""#,
        ),
        (
            "1 3\n1 x\n0\n0\n0 0\n",
            "original",
            r#"line 2, column 3: expected the teacher's HP in 1..=20, found "x""#,
        ),
        (
            "2 3\n1 1\n0\n0\n0 0\n",
            "original",
            "line 5, column 4: expected E's HP in 1..=20, found end of input",
        ),
        (
            "1 3\n1 1\n0\n0\n0 0 7\n",
            "original",
            r#"line 5, column 5: expected end of input after case 1, found "7""#,
        ),
    ];
    for (input, limits, message) in invalid {
        let ran = duel(&["validate", "--limits", limits], input.as_bytes());
        assert_eq!(ran.code, 3, "{input:.40}");
        assert_eq!(ran.stderr, format!("invalid: {message} ({limits} limits)\n"));
        assert!(ran.stdout.is_empty());
    }
    let ran = duel(&["validate"], FOUR.as_bytes());
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "ok: 4 cases, O = 3, HP 1..=14, within the original limits\n")
    );
    let ran = duel(&["validate", "--limits", "extended"], too_many.as_bytes());
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let ran = duel(&["validate", "--limits", "extended"], b"0 20\n");
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "ok: 0 cases, O = 20, within the extended limits\n")
    );
    // The canonical format by default, as a setter's validator reads (a board's minions in
    // any order, as the official files list them); any white space with --lenient, as the
    // solver reads.
    let spaced = b"1  5\r\n1\t1\r\n0\r\n0\r\n0 1";
    let ran = duel(&["validate"], spaced);
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (3, "invalid: line 1, column 3: expected \"5\", found a space (canonical format)\n")
    );
    assert_eq!(duel(&["validate", "--lenient"], spaced).code, 0);
    assert_eq!(duel(&["validate"], b"1 3\n1 1\n3 2 1 2\n0\n0 0\n").code, 0);
    assert_eq!(duel(&["validate", "--protocol", "kattis"], b"1 6\n1 1\n0\n0\n0 0\n").code, 43);
    assert_eq!(duel(&["validate", "--protocol", "kattis"], FOUR.as_bytes()).code, 42);
    let dir = scratch("validate");
    assert_eq!(duel(&["validate", &write(&dir, "in", FOUR)], b"").code, 0);
}

#[test]
fn solving_keeps_its_command_line() {
    let dir = scratch("solve");
    let input = write(&dir, "in", FOUR);
    for args in [
        vec![input.as_str()],
        vec!["--threads", "2", &input],
        vec![&input, "--solver", "reference"],
    ] {
        let ran = duel(&args, b"");
        assert_eq!((ran.code, ran.stdout.as_str()), (0, FOUR_OUT), "{args:?}");
    }
    assert_eq!(duel(&[], FOUR.as_bytes()).stdout, FOUR_OUT);
    let explained = duel(&[&input, "--explain"], b"");
    assert!(explained.stdout.starts_with("case 1: 0.500000000\n  best: play a card\n"));
    // Solving flags do not mix with a subcommand.
    assert_eq!(duel(&["--explain", "validate", &input], b"").code, 2);
}

/// The awk filter of the wrong programs. With one file (the input, in the judge's layout of
/// four lines a case) it exits 0 when some case is bad; with two (the input, then our
/// answers) it prints our answers but for the bad cases, where `MODE` decides: `wrong` moves
/// the answer by 0.25, `letter` misspells it with a letter O for its first digit, `crash`
/// exits 3 with a message. A case is bad when `COND` holds; in `COND`, `T` is the file's case
/// count, `E` and `S` the case's HPs (E's, the teacher's), `t1`, `t2` the teacher's 1-HP and
/// 2-HP minions, `e1`, `e2` E's, `th`, `eh` the hands, and `prevE` E's HP in the case before
/// (0 for the first). It reads a case a line at a time, so an official-size file takes well
/// under a second.
const FILTER_AWK: &str = r#"NR == FNR {
    if (FNR == 1) { T = $1; next }
    r = (FNR - 2) % 4; c = (FNR - 2 - r) / 4 + 1
    if (r == 0) { prevE = E; E = $1; S = $2 }
    else if (r == 1) { t1 = 0; t2 = 0; for (j = 2; j <= NF; j++) if ($j == 1) t1++; else t2++ }
    else if (r == 2) { e1 = 0; e2 = 0; for (j = 2; j <= NF; j++) if ($j == 1) e1++; else e2++ }
    else { th = $1; eh = $2; if (COND) { bad[c] = 1; any = 1 } }
    next
}
bad[FNR] {
    if (MODE == "wrong") { printf "%.9f\n", ($1 < 0.5) ? $1 + 0.25 : $1 - 0.25; next }
    if (MODE == "letter") { sub(/^[0-9]/, "O"); print; next }
    if (MODE == "crash") { print "index 4 out of range" > "/dev/stderr"; exit 3 }
}
{ print }
END { if (ARGC == 2) exit !any }
"#;

/// A program under test: a `/bin/sh` script in a scratch folder, `DUEL` replaced by the
/// binary under test and `DIR` by the folder.
fn shell(dir: &Path, name: &str, body: &str) -> ShellScript {
    let body = body.replace("DUEL", BINARY).replace("DIR", &dir.display().to_string());
    testing::shell_script(dir, &format!("{name}.sh"), &body)
}

/// A wrong program: our binary's answers through [`FILTER_AWK`] with `mode` (`wrong`,
/// `letter`, `crash`) where `condition` holds; with `hang`, it never ends on an input
/// where it holds, and answers right otherwise.
fn wrapper(dir: &Path, name: &str, mode: &str, condition: &str) -> ShellScript {
    let awk = write(dir, &format!("{name}.awk"), &FILTER_AWK.replace("COND", condition));
    let body = format!(
        "in=$(mktemp 'DIR/in.XXXXXX')\ncat > \"$in\"\n\
         if [ {mode} = hang ] && awk -f '{awk}' \"$in\"; then\n    \
         rm -f \"$in\"\n    while :; do :; done\nfi\n\
         'DUEL' --threads 1 \"$in\" | awk -v MODE={mode} -f '{awk}' \"$in\" -\n\
         status=$?\nrm -f \"$in\"\nexit $status\n"
    );
    shell(dir, name, &body)
}

/// `card-duel stress -j JOBS ARGS -- /bin/sh SCRIPT` in `dir`, which saves a failure as
/// `dir/counterexample.in` (and `.ans`, `.out`, `.proof` beside it).
fn stress(dir: &Path, script: &ShellScript, jobs: &str, args: &[&str]) -> Ran {
    let mut all = vec!["stress", "-j", jobs];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", "/bin/sh", &script.path]);
    Ran::of(&Command::new(BINARY).args(&all).current_dir(dir).output().expect("the binary runs"))
}

/// The failing input `stress` saved in `dir`.
fn saved(dir: &Path) -> TestFile {
    let bytes = std::fs::read(dir.join("counterexample.in")).expect("the input is saved");
    Judge::new().parse(&bytes, Limits::Original).expect("the saved input is valid")
}

/// The test's own one-step moves of `input`, written apart from `Judge::shrink`: drop one
/// case; lower O by one; lower E's or the teacher's HP by one; remove a 1-HP or a 2-HP
/// minion of either board; lower a 2-HP minion to 1; lower a hand by one. Moves that leave
/// the limits are kept: the proof skips the invalid ones.
fn one_step_moves(input: &TestFile) -> Vec<TestFile> {
    let mut moves = Vec::new();
    for i in 0..input.positions.len() {
        let mut dropped = input.clone();
        dropped.positions.remove(i);
        moves.push(dropped);
    }
    moves.push(TestFile { ops: input.ops - 1, ..input.clone() });
    for (i, p) in input.positions.iter().enumerate() {
        let mut changed = vec![
            Position { e_hp: p.e_hp - 1, ..*p },
            Position { teacher_hp: p.teacher_hp - 1, ..*p },
            Position { teacher_hand: p.teacher_hand.wrapping_sub(1), ..*p },
            Position { e_hand: p.e_hand.wrapping_sub(1), ..*p },
        ];
        for teacher in [true, false] {
            let board = if teacher { p.teacher_board } else { p.e_board };
            let smaller = [
                (board.ones > 0).then(|| Board { ones: board.ones - 1, ..board }),
                (board.twos > 0).then(|| Board { twos: board.twos - 1, ..board }),
                (board.twos > 0).then(|| Board { ones: board.ones + 1, twos: board.twos - 1 }),
            ];
            for b in smaller.into_iter().flatten() {
                changed.push(if teacher {
                    Position { teacher_board: b, ..*p }
                } else {
                    Position { e_board: b, ..*p }
                });
            }
        }
        for q in changed {
            let mut next = input.clone();
            next.positions[i] = q;
            moves.push(next);
        }
    }
    moves
}

/// Asserts that `script` fails on `input` with `kind` (each run limited to `time_limit`,
/// inputs within the original limits) and on no valid input one move smaller.
fn assert_fails_minimally(
    script: &ShellScript,
    input: &TestFile,
    kind: VerdictKind,
    time_limit: Duration,
) {
    let run = ChildOptions::new(time_limit, None);
    let judge = Judge::new();
    let t = trial(&judge, &script.program, input, &run).expect("the program runs");
    assert_eq!(t.verdict.kind, kind, "{input:?}: {}", t.verdict);
    let moves = one_step_moves(input);
    testing::assert_one_minimal(&judge, &script.program, kind, Limits::Original, &run, moves);
}

/// The original judge's time limit, each run's limit in the tests below but the hang's: an
/// official-size file through a wrapper takes about a second of a test build on a busy
/// machine.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Runs a wrong program under `stress ARGS` (each run limited to `time_limit`), checks that a
/// failure is found, that the saved input fails with `kind`, and that it is 1-minimal.
/// Returns that input and the report.
fn find_and_prove(
    name: &str,
    (mode, condition): (&str, &str),
    kind: VerdictKind,
    args: &[&str],
    time_limit: Duration,
) -> (TestFile, String) {
    let dir = scratch(name);
    let script = wrapper(&dir, name, mode, condition);
    let limit = format!("{}ms", time_limit.as_millis());
    let args = [args, &["--time-limit", &limit]].concat();
    let ran = stress(&dir, &script, "2", &args);
    assert_eq!(ran.code, 1, "{name}: {}{}", ran.stdout, ran.stderr);
    let input = saved(&dir);
    assert_fails_minimally(&script, &input, kind, time_limit);
    (input, ran.stdout)
}

/// Runs `script` under `stress --runs RUN` (the runs before `run`: it must pass them), then
/// `--runs RUN+1` with `args` (it must fail at run `run`). Returns the folder holding the
/// saved input.
fn found_by_run(
    name: &str,
    script: impl Fn(&Path) -> ShellScript,
    run: u64,
    args: &[&str],
) -> PathBuf {
    let dir = scratch(name);
    let script = script(&dir);
    let before = run.to_string();
    let passes = stress(&dir, &script, "2", &["--runs", &before]);
    assert_eq!(passes.code, 0, "{name} passes runs 0..{run}: {}{}", passes.stdout, passes.stderr);
    let through = (run + 1).to_string();
    let ran = stress(&dir, &script, "2", &[&["--runs", &through][..], args].concat());
    assert_eq!(ran.code, 1, "{name} fails on run {run}: {}{}", ran.stdout, ran.stderr);
    dir
}

/// E's HP, the teacher's, the teacher's board and E's as `(ones, twos)`, the teacher's hand
/// and E's: the input's order.
fn position(e_hp: u8, teacher_hp: u8, teacher: (u8, u8), e: (u8, u8), hands: (u8, u8)) -> Position {
    Position {
        e_hp,
        teacher_hp,
        teacher_board: Board { ones: teacher.0, twos: teacher.1 },
        e_board: Board { ones: e.0, twos: e.1 },
        teacher_hand: hands.0,
        e_hand: hands.1,
    }
}

/// A one-case file.
fn one(ops: u8, p: Position) -> TestFile {
    TestFile { ops, positions: vec![p] }
}

#[test]
fn a_right_program_passes_every_level_and_the_extremes() {
    let ran = duel(&["stress", "--runs", "100", "-j", "2", "--", BINARY, "--threads", "1"], b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.starts_with("ok: no failure in 100 runs, "), "{}", ran.stdout);
    // The extended limits' extremes (runs 10 to 15), every position at O = 20 among them.
    let args = ["stress", "--limits", "extended", "--runs", "16", "-j", "2", "--", BINARY];
    let ran = duel(&args, b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
}

#[test]
fn a_program_failing_only_at_hp_20_is_found_by_the_first_extreme() {
    let wrapper = |dir: &Path| wrapper(dir, "hp20", "wrong", "E == 20 || S == 20");
    let dir = found_by_run("hp20", wrapper, 10, &[]);
    let input = saved(&dir);
    assert_fails_minimally(&wrapper(&dir), &input, VerdictKind::WrongAnswer, TIME_LIMIT);
    assert_eq!(input, one(3, position(1, 20, (0, 0), (0, 0), (0, 0))));
}

#[test]
fn a_program_failing_only_with_a_full_board_is_found_by_the_first_extreme() {
    let full = "t1 + t2 == 4 || e1 + e2 == 4";
    let wrapper = |dir: &Path| wrapper(dir, "full", "crash", full);
    let dir = found_by_run("full", wrapper, 10, &[]);
    let input = saved(&dir);
    assert_fails_minimally(&wrapper(&dir), &input, VerdictKind::RuntimeError, TIME_LIMIT);
    assert_eq!(input, one(3, position(1, 1, (0, 0), (4, 0), (0, 0))));
}

/// An array of answers one too short for the official `T`.
const CRASHES_AT_THE_LARGEST_T: &str = r#"in=$(mktemp 'DIR/in.XXXXXX')
cat > "$in"
read -r cases rest < "$in"
if [ "$cases" = 351493 ]; then
    rm -f "$in"
    echo "answer 351493 written past the end of answers[351492]" >&2; kill -SEGV $$
fi
'DUEL' --threads 1 "$in"
status=$?
rm -f "$in"
exit $status
"#;

#[test]
fn a_program_failing_only_at_the_largest_t_is_found_by_the_first_official_size_extreme() {
    // Runs 10 and 11 (the heavy and the end positions) pass; run 12 is the first file of
    // 351,493 cases.
    let script = |dir: &Path| shell(dir, "t", CRASHES_AT_THE_LARGEST_T);
    let dir = found_by_run("t", script, 12, &["--no-shrink"]);
    let found = saved(&dir);
    let mut rng = SplitMix64::new(run_seed(1, 12));
    assert!(found == Judge::new().extreme(2, &mut rng, Limits::Original), "run 12's file");
    let script = script(&dir);
    let run = ChildOptions::new(TIME_LIMIT, None);
    let failing = trial(&Judge::new(), &script.program, &found, &run).expect("the program runs");
    assert_eq!(failing.verdict.kind, VerdictKind::RuntimeError, "{}", failing.verdict);

    // Shrinking: O goes down to 3 (one run); no quarter and no half fails (seven runs:
    // 351,493 is odd, so the last "half" is one case), so every case becomes the simplest
    // (one run, beside a quarter drop); the budget of ten runs ends there. No case can go:
    // proving it takes a run a case, so the test drops the first and the last only (and O =
    // 2 is invalid).
    let options = ShrinkOptions { jobs: 2, run: run.clone(), runs: Some(10), ..Default::default() };
    let shrunk = shrink(&Judge::new(), &script.program, found, failing, &options).unwrap();
    assert_eq!((shrunk.steps, shrunk.runs, shrunk.end), (2, 10, ShrinkEnd::Runs));
    let simplest = position(1, 1, (0, 0), (0, 0), (0, 0));
    assert!(
        shrunk.input == TestFile { ops: 3, positions: vec![simplest; 351_493] },
        "O = {}, {} cases, the first {:?}",
        shrunk.input.ops,
        shrunk.input.positions.len(),
        shrunk.input.positions.first()
    );
    let mut moves = vec![TestFile { ops: 2, ..shrunk.input.clone() }];
    for at in [0, 351_492] {
        let mut dropped = shrunk.input.clone();
        dropped.positions.remove(at);
        moves.push(dropped);
    }
    let kind = VerdictKind::RuntimeError;
    testing::assert_one_minimal(
        &Judge::new(),
        &script.program,
        kind,
        Limits::Original,
        &run,
        moves,
    );
}

#[test]
fn a_rule_bug_is_a_wrong_answer_shrunk_to_one_case() {
    // Wrong whenever the teacher has a 2-HP minion and E at least 3 HP.
    let bug = ("wrong", "t2 > 0 && E >= 3");
    let (input, report) =
        find_and_prove("rule", bug, VerdictKind::WrongAnswer, &["--runs", "100"], TIME_LIMIT);
    assert_eq!(input, one(3, position(3, 1, (0, 1), (0, 0), (0, 0))), "{report}");
}

/// The report of a failure found under the default limits names the original judge's limits
/// and every file it saved beside the input, each holding what the report says.
#[test]
fn the_report_names_the_saved_files_and_the_original_judges_limits() {
    let dir = scratch("report");
    let script = wrapper(&dir, "rule", "wrong", "t2 > 0 && E >= 3");
    let ran = stress(&dir, &script, "2", &["--runs", "100"]);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    let report = ran.stdout;
    assert!(
        report.contains(
            "\nlimits: 20 s of CPU time (41 s of wall time) and 2048 MB of memory, the stack's \
             too, a run (the original judge's); "
        ),
        "{report}"
    );
    let input = saved(&dir);
    let judge = Judge::new();
    let file = |ending: &str| {
        let named = format!(", saved to counterexample.{ending}");
        assert!(report.contains(&named), "{ending}: {report}");
        std::fs::read(dir.join(format!("counterexample.{ending}"))).expect("saved as reported")
    };
    assert_eq!(file("in"), render(&judge, &input));
    let mut answer = Vec::new();
    judge.render_answer(&input, &judge.solve(&input), &mut answer);
    assert_eq!(file("ans"), answer);
    let rerun = Command::new("/bin/sh")
        .arg(&script.path)
        .stdin(std::fs::File::open(dir.join("counterexample.in")).expect("saved"))
        .output()
        .expect("the script runs");
    assert_eq!(file("out"), rerun.stdout);
    assert_eq!(file("proof"), judge.explain(&input).remove(0).text.into_bytes());
}

#[test]
fn state_kept_between_cases_keeps_both_cases_and_the_report_ignores_jobs() {
    // Wrong on a case right after one where E had 3 HP: as if something were left over.
    let state = ("wrong", "prevE == 3");
    let (input, report) =
        find_and_prove("state", state, VerdictKind::WrongAnswer, &["--runs", "100"], TIME_LIMIT);
    let simplest = position(1, 1, (0, 0), (0, 0), (0, 0));
    let first = position(3, 1, (0, 0), (0, 0), (0, 0));
    assert_eq!(input, TestFile { ops: 3, positions: vec![first, simplest] }, "{report}");

    // The same seed gives the same report with one job, but for its time line.
    let strip = |ran: Ran| {
        assert_eq!(ran.code, 1);
        let varying = |l: &&str| l.starts_with("time: ") || l.starts_with("measured: ");
        let lines: Vec<&str> = ran.stdout.lines().filter(|l| !varying(l)).collect();
        lines.join("\n")
    };
    let dir = scratch("state-jobs");
    let script = wrapper(&dir, "state", state.0, state.1);
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
    let crash = ("crash", "e1 >= 2");
    let (input, report) =
        find_and_prove("crash", crash, VerdictKind::RuntimeError, &["--runs", "100"], TIME_LIMIT);
    assert_eq!(input, one(3, position(1, 1, (0, 0), (2, 0), (0, 0))), "{report}");
}

/// The hang test's CPU-time limit. A normal run of its program (a shell, awk and the test build
/// of the binary on a file of at most 40 small positions, fewer while shrinking) took 17 ms of
/// wall time one at a time and at most 118 ms six at a time at load 3 on two cores, less in
/// CPU time, which a busy machine does not stretch; fifty times the usual run. The hang spins,
/// so it meets the limit in CPU time.
const HANG_TIME_LIMIT: Duration = Duration::from_secs(1);

#[test]
fn a_hang_is_a_time_limit_exceeded() {
    // Never ends on a file holding a case with both hands full, whatever the time limit.
    let hang = ("hang", "th == 3 && eh == 3");
    let (input, report) =
        find_and_prove("hang", hang, VerdictKind::TimeLimit, &["--runs", "100"], HANG_TIME_LIMIT);
    assert_eq!(input, one(3, position(1, 1, (0, 0), (0, 0), (3, 3))), "{report}");
}

#[test]
fn a_misspelt_number_is_a_presentation_error() {
    // `O.250000000` is no number to C's %lf: chk.cpp's "Output too short.".
    let letter = ("letter", "S == 2 && t1 == 1");
    let (input, report) = find_and_prove(
        "letter",
        letter,
        VerdictKind::PresentationError,
        &["--runs", "100"],
        TIME_LIMIT,
    );
    assert_eq!(input, one(3, position(1, 2, (1, 0), (0, 0), (0, 0))), "{report}");
}

#[test]
fn the_exhaustive_run_takes_official_files_and_its_replay_line_reproduces_the_run() {
    // The last of the five files of O = 3 (34,028 positions: E at 20 HP, the teacher at 11 or
    // more): wrong when the teacher has 17 HP and a full hand, and E's board is full of 2-HP
    // minions. Our answers to so many cases come off the tablebase of O = 3, the program's
    // from our binary's tables of the file's reach: they agree on every case but the wrong
    // ones.
    let dir = scratch("exhaustive");
    let script = wrapper(&dir, "exhaustive", "wrong", "S == 17 && th == 3 && e2 == 4");
    let ran = stress(&dir, &script, "2", &["--exhaustive", "3", "--from", "4", "--no-shrink"]);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    let judge = Judge::new();
    let last = judge.exhaustive(3, 4, Limits::Original).expect("five files");
    assert_eq!(last.positions.len(), 34_028);
    assert!(saved(&dir) == last, "the saved input is the run's whole file");
    let run = ChildOptions::new(TIME_LIMIT, None);
    let t = trial(&judge, &script.program, &last, &run).expect("the program runs");
    assert_eq!(t.verdict.kind, VerdictKind::WrongAnswer, "{}", t.verdict);

    // The replay line, run as printed (unshrunk), fails on that run's whole file alone.
    let line = ran
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay the run: card-duel "))
        .expect("a replay line");
    assert!(line.starts_with("stress --exhaustive 3 --from 4 --runs 1 "), "{line}");
    let again = scratch("exhaustive-again");
    let mut args: Vec<&str> = line.split(' ').collect();
    let dashes = args.iter().position(|&a| a == "--").expect("the command follows --");
    args.insert(dashes, "--no-shrink");
    let out = Command::new(BINARY).args(&args).current_dir(&again).output().expect("replays");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(saved(&again) == last, "the replay saves the same file");

    let ran = duel(&["stress", "--exhaustive", "2", "--", BINARY], b"");
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr,
        "error: no exhaustive run: the bound is O, in 3..=5 under the original limits; found 2\n"
    );
}

/// Stopping `stress` with SIGINT, SIGTERM or SIGHUP ends it with 128 + the signal after
/// killing every process of the programs it was running; with SIGKILL the programs die with
/// it.
#[test]
fn stopping_stress_leaves_nothing_running() {
    let dir = scratch("stop-stress");
    testing::assert_stress_stops_cleanly(BINARY, &dir);
}

/// The same for `shrink`, in its first run of the program (which never ends).
#[test]
fn stopping_shrink_leaves_nothing_running() {
    let dir = scratch("stop-shrink");
    let failing = write(&dir, "failing.in", FOUR);
    let args = ["shrink", failing.as_str(), "--time-limit", "60", "--"];
    let _ = testing::assert_stops_cleanly(BINARY, &args, &dir, 2);
}

/// The same for an exhaustive run, whose first file holds 351,493 cases.
#[test]
fn stopping_an_exhaustive_run_leaves_nothing_running() {
    let dir = scratch("stop-exhaustive");
    let args = ["stress", "--exhaustive", "3", "--time-limit", "60", "-j", "2", "--"];
    let stdout = testing::assert_stops_cleanly(BINARY, &args, &dir, 2);
    assert!(stdout.starts_with("interrupted by SIGINT"), "{stdout}");
}
