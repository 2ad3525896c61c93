//! What card-duel's judge does that is its own, end to end through the binary: `check` on
//! the verdict table (`tests/data/check-verdicts.txt`: the official checker's
//! verdict and the strict one for each output, the 1e-6 boundary both ways) and its reading
//! of inputs and jury answers, `validate`'s rules with their places, the extended limits'
//! extremes, a failure only at the official `T` with the shrinker's first steps on it, the
//! exhaustive run over official files and stopping it; and, through
//! `judge::testing::binary_conformance`, what every binary must do the same way, run on the
//! official samples and wrappers around the binary that go wrong in one way each (state kept
//! between cases, a rule bug, a crash, a hang, a misspelt number, and failures only at HP 20 or
//! only with a full board, which the first extreme input finds), each shrunk to an input this
//! file gives and proves 1-minimal with its own one-step moves (drop a case, lower O, an HP
//! or a hand by one, remove a minion, lower one to 1 HP).

#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use card_duel::TestFile;
use card_duel::judge::Judge;
use card_duel::{Board, Position};
use engine::rng::SplitMix64;
use judge::run_seed;
use judge::testing::{BinaryCase, Judged, Sample, ShellScript, WrongProgram, binary_conformance};
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

fn scratch(name: &str) -> tests::TestDir {
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

/// `check` reads an input as the solvers do, under the extended limits, and a jury answer
/// strictly, naming the line or the case.
#[test]
fn check_reads_inputs_under_the_extended_limits_and_jury_answers_strictly() {
    let dir = scratch("fail");
    let input = write(&dir, "in", FOUR);
    let output = write(&dir, "out", FOUR_OUT);
    // O = 7 is no contest file, but ours.
    let seven = write(&dir, "seven", "1 7\n1 1\n0\n0\n0 1\n");
    assert_eq!(duel(&["check", &seven, &write(&dir, "half", "0.5\n")], b"").code, 0);
    let fail = |jury: &str, message: &str| {
        let ran = duel(&["check", &input, &output, &write(&dir, "jury", jury)], b"");
        assert_eq!((ran.code, ran.stderr.trim_end()), (3, message));
    };
    fail("0.5\n0.047132701\nO.0\n1\n", r#"fail: answer: line 3: "O.0" is not a number"#);
    fail("0.5\n0.047132701\n0\n", "fail: answer: 3 numbers for 4 cases");
    fail(
        "0.5\n0.047132701\n0.01\n1\n",
        "fail: the answer file disagrees with ours: case 3: expected 0.000000000, found 0.01 \
         (line 3), absolute error 1.00e-2 > 1e-6",
    );
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
    // A board's minions in any order, as the official files list them.
    assert_eq!(duel(&["validate"], b"1 3\n1 1\n3 2 1 2\n0\n0 0\n").code, 0);
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

/// A wrong program: our binary's answers through [`FILTER_AWK`] with `mode` (`wrong`,
/// `letter`, `crash`) where `condition` holds; with `hang`, it never ends on an input
/// where it holds, and answers right otherwise. `BINARY` stands for the binary.
fn wrapper(mode: &str, condition: &str) -> String {
    let awk = FILTER_AWK.replace("COND", condition);
    format!(
        "cat > in\nif [ {mode} = hang ] && awk '{awk}' in; then\n    while :; do :; done\nfi\n\
         BINARY --threads 1 in | awk -v MODE={mode} '{awk}' in -\n"
    )
}

/// `script` (its `BINARY` the binary under test) written as `dir/NAME.sh`.
fn shell(dir: &Path, name: &str, script: &str) -> ShellScript {
    testing::shell_script(dir, &format!("{name}.sh"), &script.replace("BINARY", BINARY))
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

/// The original judge's time limit: an official-size file through a wrapper takes about a
/// second of a test build on a busy machine.
const TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

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
fn the_right_program_passes_the_extended_limits_extremes() {
    // The extended limits' extremes (runs 10 to 15), every position at O = 20 among them.
    let args = ["stress", "--limits", "extended", "--runs", "16", "-j", "2", "--", BINARY];
    let ran = duel(&args, b"");
    assert_eq!(ran.code, 0, "{}{}", ran.stdout, ran.stderr);
}

/// An array of answers one too short for the official `T`.
const CRASHES_AT_THE_LARGEST_T: &str = r#"cat > in
read -r cases rest < in
if [ "$cases" = 351493 ]; then
    echo "answer 351493 written past the end of answers[351492]" >&2; kill -SEGV $$
fi
exec BINARY --threads 1 in
"#;

#[test]
fn a_program_failing_only_at_the_largest_t_is_found_by_the_first_official_size_extreme() {
    // Runs 10 and 11 (the heavy and the end positions) pass; run 12 is the first file of
    // 351,493 cases.
    let dir = scratch("t");
    let script = shell(&dir, "t", CRASHES_AT_THE_LARGEST_T);
    let passes = stress(&dir, &script, "2", &["--runs", "12"]);
    assert_eq!(passes.code, 0, "runs 0..12 pass: {}{}", passes.stdout, passes.stderr);
    let ran = stress(&dir, &script, "2", &["--runs", "13", "--no-shrink"]);
    assert_eq!(ran.code, 1, "run 12 fails: {}{}", ran.stdout, ran.stderr);
    let found = saved(&dir);
    let mut rng = SplitMix64::new(run_seed(1, 12));
    assert!(found == Judge::new().extreme(2, &mut rng, Limits::Original), "run 12's file");
    let run = ChildOptions::new(TIME_LIMIT, None);
    let failing = trial(testing::sandbox(), &Judge::new(), &script.program, &found, &run)
        .expect("the program runs");
    assert_eq!(failing.verdict.kind, VerdictKind::RuntimeError, "{}", failing.verdict);

    // Shrinking: O goes down to 3 (one run); no quarter and no half fails (seven runs:
    // 351,493 is odd, so the last "half" is one case), so every case becomes the simplest
    // (one run, beside a quarter drop); the budget of ten runs ends there. No case can go:
    // proving it takes a run a case, so the test drops the first and the last only (and O =
    // 2 is invalid).
    let options = ShrinkOptions { jobs: 2, run: run.clone(), runs: Some(10), ..Default::default() };
    let shrunk =
        shrink(testing::sandbox(), &Judge::new(), &script.program, found, failing, &options)
            .unwrap();
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
fn the_exhaustive_run_takes_official_files_and_its_replay_line_reproduces_the_run() {
    // The last of the five files of O = 3 (34,028 positions: E at 20 HP, the teacher at 11 or
    // more): wrong when the teacher has 17 HP and a full hand, and E's board is full of 2-HP
    // minions. Our answers to so many cases come off the tablebase of O = 3, the program's
    // from our binary's tables of the file's reach: they agree on every case but the wrong
    // ones.
    let dir = scratch("exhaustive");
    let script = shell(&dir, "exhaustive", &wrapper("wrong", "S == 17 && th == 3 && e2 == 4"));
    let ran = stress(&dir, &script, "2", &["--exhaustive", "3", "--from", "4", "--no-shrink"]);
    assert_eq!(ran.code, 1, "{}{}", ran.stdout, ran.stderr);
    let judge = Judge::new();
    let last = judge.exhaustive(3, 4, Limits::Original).expect("five files");
    assert_eq!(last.positions.len(), 34_028);
    assert!(saved(&dir) == last, "the saved input is the run's whole file");
    let run = ChildOptions::new(TIME_LIMIT, None);
    let t =
        trial(testing::sandbox(), &judge, &script.program, &last, &run).expect("the program runs");
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

/// Stopping an exhaustive run, whose first file holds 351,493 cases, leaves nothing running.
#[test]
fn stopping_an_exhaustive_run_leaves_nothing_running() {
    let dir = scratch("stop-exhaustive");
    let args = ["stress", "--exhaustive", "3", "--time-limit", "60", "-j", "2", "--"];
    let stdout = testing::assert_stops_cleanly(BINARY, &args, &dir, 2);
    assert!(stdout.starts_with("interrupted by SIGINT"), "{stdout}");
}

/// Everything every binary does the same way, on the official samples and card-duel's wrong
/// programs: state kept between cases, shrunk to the two cases it needs; a rule bug, a crash,
/// a hang and a misspelt number (`O.250000000` is no number to C's %lf: chk.cpp's "Output too
/// short."), each shrunk to one case; failures only at HP 20 and only with a full board, each
/// found by run 10, the first extreme input, right after the ten tiny ones.
#[test]
fn the_binary_conforms() {
    let simplest = position(1, 1, (0, 0), (0, 0), (0, 0));
    let program =
        |name, kind, mode, condition| WrongProgram::new(name, kind, wrapper(mode, condition));
    let wrong = vec![
        // Wrong on a case right after one where E had 3 HP: as if something were left over.
        program("state", VerdictKind::WrongAnswer, "wrong", "prevE == 3").shrinks_to(TestFile {
            ops: 3,
            positions: vec![position(3, 1, (0, 0), (0, 0), (0, 0)), simplest],
        }),
        // Wrong whenever the teacher has a 2-HP minion and E at least 3 HP.
        program("rule", VerdictKind::WrongAnswer, "wrong", "t2 > 0 && E >= 3")
            .shrinks_to(one(3, position(3, 1, (0, 1), (0, 0), (0, 0)))),
        program("crash", VerdictKind::RuntimeError, "crash", "e1 >= 2")
            .shrinks_to(one(3, position(1, 1, (0, 0), (2, 0), (0, 0)))),
        // Never ends on a file holding a case with both hands full, whatever the time limit.
        program("hang", VerdictKind::TimeLimit, "hang", "th == 3 && eh == 3")
            .shrinks_to(one(3, position(1, 1, (0, 0), (0, 0), (3, 3)))),
        program("letter", VerdictKind::PresentationError, "letter", "S == 2 && t1 == 1")
            .shrinks_to(one(3, position(1, 2, (1, 0), (0, 0), (0, 0)))),
        program("hp20", VerdictKind::WrongAnswer, "wrong", "E == 20 || S == 20")
            .found_by(10)
            .shrinks_to(one(3, position(1, 20, (0, 0), (0, 0), (0, 0)))),
        program("full", VerdictKind::RuntimeError, "crash", "t1 + t2 == 4 || e1 + e2 == 4")
            .found_by(10)
            .shrinks_to(one(3, position(1, 1, (0, 0), (4, 0), (0, 0)))),
    ];
    let conformance = BinaryCase {
        samples: Sample::all_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problem")),
        wrong_output: Judged {
            text: "0.75\n",
            says: "wrong answer: case 1: expected 0.500000000, found 0.75 (line 1), absolute \
                   error 2.50e-1 > 1e-6",
        },
        malformed_output: Judged {
            text: "O.5\n",
            says: r#"presentation error: case 1: expected 0.500000000, found "O.5" (line 1), which is not a number"#,
        },
        broken_input: Judged {
            text: "2 3\n1 1\n0\n0\n0 1\n",
            says: "line 5, column 4: expected E's HP in 1..=20, found end of input",
        },
        right_args: vec!["--threads", "1"],
        right_runs: (100, "ok: no failure in 100 runs, 1,058,324 cases (seed 1)"),
        default_limits: "20 s of CPU time (41 s of wall time) and 2048 MB of memory, the stack's \
                         too, a run (the original judge's)",
        wrong,
        one_step: one_step_moves,
    };
    let _ = binary_conformance(&Judge::new(), BINARY, &conformance);
}
