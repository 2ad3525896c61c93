//! The binary's `check`, `validate` and `stress` subcommands end to end: every checker
//! verdict in each protocol, every validator rule with its place and the subtask line, and
//! stress runs against programs written here (a right one, a rule bug, a bug on one
//! structure, a crash, a hang, a garbled token, a crash at the largest `n`), each found with
//! the right kind of verdict and shrunk to a railway, read back from the saved file, that
//! this file proves 1-minimal with one-step moves of its own; and a stress run stopped by a
//! signal leaves nothing running.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use judge::testing;
use judge::{ChildOptions, Exit, Limits, Problem, Program, VerdictKind, trial};
use toy_train::{Railway, judge::Judge};

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

/// The official example: Arezou wins from both stations.
const SAMPLE: &str = "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n";

fn scratch(test: &str) -> PathBuf {
    tests::scratch_dir("toy-train-judge", test)
}

fn file(dir: &Path, name: &str, text: &str) -> String {
    tests::write_file(dir, name, text)
}

fn run(args: &[&str], stdin: &str) -> Output {
    tests::run_binary(BINARY, args, stdin.as_bytes())
}

/// Exit code, stdout and stderr.
fn outcome(out: &Output) -> (i32, String, String) {
    let ran = tests::Ran::of(out);
    (ran.code, ran.stdout, ran.stderr)
}

#[test]
fn check_gives_every_testlib_verdict() {
    let dir = scratch("check");
    let input = file(&dir, "sample.in", SAMPLE);
    let check = |output: &str, answer: Option<&str>| {
        let out = file(&dir, "out", output);
        let mut args = vec!["check", &input, &out];
        let answer = answer.map(|a| file(&dir, "ans", a));
        args.extend(answer.as_deref());
        let (code, stdout, stderr) = outcome(&run(&args, ""));
        assert!(stdout.is_empty(), "testlib says nothing on stdout");
        (code, stderr)
    };
    assert_eq!(check("1 1\n", None), (0, "ok: 2 stations\n".into()));
    assert_eq!(check(" 1\t1\r\n\n", None), (0, "ok: 2 stations\n".into()), "white-diff");
    assert_eq!(check("1 1\n", Some("1  1\n\n")), (0, "ok: 2 stations\n".into()));
    // White-diff compares line by line: the answers split over two lines are too few on
    // line 1, and a blank line before them leaves line 1 empty.
    let later = "white-diff compares line by line, so all the answers must be on line 1";
    assert_eq!(
        check("1\n 1", None),
        (
            2,
            format!(
                "presentation error: station 1: expected 1, found the end of line 1 after 1 of \
                 2 answers (line 2 holds more: {later})\n"
            )
        )
    );
    assert_eq!(
        check("\n1 1\n", None),
        (
            2,
            format!(
                "presentation error: line 1: expected the 2 answers, found a blank line (line 2 \
                 holds more: {later})\n"
            )
        )
    );
    assert_eq!(check("1 0\n", None), (1, "wrong answer: station 1: expected 1, found 0\n".into()));
    assert_eq!(
        check("1 true\n", None),
        (
            2,
            "presentation error: station 1: expected 1, found \"true\" on line 1, which is not \
             0 or 1\n"
                .into()
        )
    );
    assert_eq!(
        check("1\n", None),
        (
            2,
            "presentation error: station 1: expected 1, found the end of line 1 after 1 of 2 \
             answers\n"
                .into()
        )
    );
    assert_eq!(
        check("1 1 1\n", None),
        (2, "presentation error: extra output after the 2 answers: \"1\" on line 1\n".into())
    );
    // The jury's answer is malformed, or wrong: the judge is at fault.
    assert_eq!(
        check("1 1\n", Some("1 x\n")),
        (3, "fail: answer: line 1: station 1: expected 0 or 1, found \"x\"\n".into())
    );
    assert_eq!(
        check("1 1\n", Some("1 0\n")),
        (3, "fail: the answer file disagrees with ours: station 1: expected 1, found 0\n".into())
    );
    // A malformed input.
    let bad = file(&dir, "bad.in", "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 2\n");
    let out = file(&dir, "out", "1 1\n");
    let (code, _, stderr) = outcome(&run(&["check", &bad, &out], ""));
    assert_eq!(
        (code, stderr.as_str()),
        (
            3,
            "fail: input: line 7, column 3: expected station v[3] of track 3 in 0..=1, found \
             \"2\"\n"
        )
    );
    // Usage errors are fails too, never testlib's 2.
    assert_eq!(run(&["check", &input], "").status.code(), Some(3));
    assert_eq!(run(&["check", "--no-such-flag", &input, &out], "").status.code(), Some(3));
    assert_eq!(run(&["check", &input, "/no/such/output"], "").status.code(), Some(3));
    assert_eq!(run(&["check", "--help"], "").status.code(), Some(0));
}

#[test]
fn check_speaks_cms_and_kattis() {
    let dir = scratch("protocols");
    let input = file(&dir, "sample.in", SAMPLE);
    let answer = file(&dir, "sample.ans", "1 1\n");
    let right = file(&dir, "right.out", "1 1\n");
    let wrong = file(&dir, "wrong.out", "0 1\n");
    let cms =
        |output: &str| outcome(&run(&["check", "--protocol", "cms", &input, &answer, output], ""));
    assert_eq!(cms(&right), (0, "1.0\n".into(), "ok: 2 stations\n".into()));
    assert_eq!(
        cms(&wrong),
        (0, "0.0\n".into(), "wrong answer: station 0: expected 1, found 0\n".into())
    );
    let bad = file(&dir, "bad.ans", "1\n");
    let (code, stdout, stderr) =
        outcome(&run(&["check", "--protocol", "cms", &input, &bad, &right], ""));
    assert_eq!((code, stdout.as_str()), (3, ""), "a fail gives no score");
    assert_eq!(
        stderr,
        "fail: answer: 1 answers on line 1 for 2 stations (white-diff compares line by line, \
         so the jury's answers must all be on line 1, as the grader prints them)\n"
    );
    // White-diff's 0.0 for a blank line before the answers, its 1.0 for one after them.
    let blank_before = file(&dir, "before.out", "\n1 1\n");
    let blank_after = file(&dir, "after.out", "1 1\n\n \n");
    assert_eq!(cms(&blank_before).1, "0.0\n");
    assert_eq!(cms(&blank_after).1, "1.0\n");

    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let feedback = feedback.display().to_string();
    let kattis = |output: &str| {
        run(&["check", "--protocol", "kattis", &input, &answer, &feedback], output).status.code()
    };
    assert_eq!(kattis("1 1\n"), Some(42));
    assert_eq!(kattis("1 0\n"), Some(43));
    let message = std::fs::read_to_string(Path::new(&feedback).join("judgemessage.txt")).unwrap();
    assert_eq!(message, "wrong answer: station 1: expected 1, found 0\n");
    assert_eq!(kattis("1 1 0\n"), Some(43), "a presentation error is a rejection");
}

#[test]
fn validate_names_each_rule_and_its_place() {
    let validate =
        |args: &[&str], input: &str| outcome(&run(&[&["validate"], args].concat(), input));
    let invalid = |input: &str| {
        let (code, stdout, stderr) = validate(&[], input);
        assert_eq!((code, stdout.as_str()), (3, ""), "{input:?}");
        stderr
    };
    assert_eq!(
        invalid("2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n0 1\n"),
        "invalid: line 7, column 1: track 3 (0 -> 1) repeats track 1 (original limits)\n"
    );
    assert_eq!(
        invalid("2 2\n0 1\n0 0\n0 1\n1 0\n"),
        "invalid: line 3, column 1: expected at least one charging station (some r[i] = 1), \
         found none (original limits)\n"
    );
    assert_eq!(
        invalid("5001 5001\n"),
        "invalid: line 1, column 1: expected the number of stations n in 1..=5000, found \
         \"5001\" (original limits)\n"
    );
    assert_eq!(
        invalid("0 0\n"),
        "invalid: line 1, column 1: expected the number of stations n in 1..=5000, found \"0\" \
         (original limits)\n"
    );
    assert_eq!(
        invalid("2 20001\n"),
        "invalid: line 1, column 3: expected the number of tracks m (at least one per station) \
         in 2..=20000, found \"20001\" (original limits)\n"
    );
    assert_eq!(
        invalid("3 2\n"),
        "invalid: line 1, column 3: expected the number of tracks m (at least one per station) \
         in 3..=20000, found \"2\" (original limits)\n"
    );
    assert_eq!(
        invalid("3 3\n0 1 1\n1 0 0\n0 1\n1 0\n1 1\n"),
        "invalid: line 2, column 5: expected a track leaving station 2, found none among the 3 \
         tracks (original limits)\n"
    );
    assert_eq!(
        invalid("1 1\n2\n1\n0 0\n"),
        "invalid: line 2, column 1: expected owner flag a[0] in 0..=1, found \"2\" (original \
         limits)\n"
    );

    // The subtask line of valid inputs.
    let (code, stdout, stderr) = validate(&[], SAMPLE);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "ok: 2 stations, 4 tracks, 1 charging; original subtasks: 2 (n <= 15), 5 (exactly one \
         charging station), 6 (no further constraints), within the original limits\n"
    );
    let line = "3 4\n1 1 1\n0 0 1\n0 1\n1 2\n2 2\n1 1\n";
    assert_eq!(
        validate(&[], line).1,
        "ok: 3 stations, 4 tracks, 1 charging; original subtasks: 1 (every track is u -> u or \
         u -> u + 1), 2 (n <= 15), 3 (Arezou owns every station), 5 (exactly one charging \
         station), 6 (no further constraints), within the original limits\n"
    );
    let mut big = format!("16 16\n{}\n{}\n", ["0"; 16].join(" "), ["1"; 16].join(" "));
    for s in 0..16 {
        big += &format!("{s} {}\n", (s + 3) % 16);
    }
    assert_eq!(
        validate(&[], &big).1,
        "ok: 16 stations, 16 tracks, 16 charging; original subtasks: 4 (Borzou owns every \
         station), 6 (no further constraints), within the original limits\n"
    );

    // The extended limits: what the solver reads, duplicates and darkness included.
    let (code, stdout, _) =
        validate(&["--limits", "extended"], "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n0 1\n");
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "ok: 2 stations, 4 tracks, 1 charging; in no original subtask (track 3 (0 -> 1) \
         repeats track 1), within the extended limits\n"
    );
    assert_eq!(validate(&["--limits", "extended"], "2 2\n0 1\n0 0\n0 1\n1 0\n").0, 0);
    assert_eq!(validate(&["--limits", "extended"], "5001 5001\n").0, 3);

    // The canonical format by default, as a setter's validator reads; any white space with
    // --lenient, as the solver reads.
    assert_eq!(
        invalid("2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1 \n"),
        "invalid: line 7, column 4: expected a newline, found a space (canonical format)\n"
    );
    assert_eq!(validate(&["--lenient"], "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1 \n").0, 0);

    // A file argument, and Kattis's codes.
    let dir = scratch("validate");
    let sample = file(&dir, "sample.in", SAMPLE);
    assert_eq!(validate(&[&sample], "").0, 0);
    assert_eq!(validate(&["--protocol", "kattis", &sample], "").0, 42);
    assert_eq!(validate(&["--protocol", "kattis"], "3 2\n").0, 43);
}

#[test]
fn solving_stays_as_it_was_and_subcommands_stay_apart() {
    let (code, stdout, _) = outcome(&run(&[], SAMPLE));
    assert_eq!((code, stdout.as_str()), (0, "1 1\n"));
    let (code, stdout, _) = outcome(&run(&["--verify", "--solver", "reference"], SAMPLE));
    assert_eq!(code, 0);
    assert!(stdout.starts_with("1 1\nverified: "), "{stdout}");
    // A solver flag before a subcommand is a usage error, not a silent mix.
    assert_eq!(run(&["--verify", "validate"], SAMPLE).status.code(), Some(2));
}

// ---- stress ----

/// An awk program for the rule bug: Arezou wins exactly where the train can reach a
/// charging station (which forgets that Borzou may keep it away, or that a charger must be on
/// the final cycle).
const REACH: &str = r#"
{ for (i = 1; i <= NF; i++) tok[++k] = $i }
END {
  n = tok[1]; m = tok[2]; p = 3 + n
  for (i = 0; i < n; i++) w[i] = tok[p++]
  for (j = 0; j < m; j++) { u[j] = tok[p++]; v[j] = tok[p++] }
  do {
    changed = 0
    for (j = 0; j < m; j++) if (w[v[j]] && !w[u[j]]) { w[u[j]] = 1; changed = 1 }
  } while (changed)
  line = ""; for (i = 0; i < n; i++) line = line (i ? " " : "") w[i]; print line
}
"#;

/// A `/bin/sh` wrapper around our own binary: the input goes to a file `$t` (in `dir`, so
/// runs killed at the time limit leave nothing elsewhere), `before` runs first (it may exit,
/// crash or hang), then our answer to `$t` is piped through `after` (`cat` for none).
fn wrapper(dir: &Path, name: &str, before: &str, after: &str) -> Vec<String> {
    let script = format!(
        "t=$(mktemp -p '{}')\ntrap 'rm -f \"$t\"' EXIT\ncat > \"$t\"\n{before}\n'{BINARY}' \"$t\" | {after}\n",
        dir.display()
    );
    vec!["/bin/sh".into(), file(dir, name, &script)]
}

/// What one stress run printed, and the railway it saved.
struct Stressed {
    code: i32,
    report: String,
    saved: Option<Railway>,
}

/// Where [`stress`] saves the failing railway in `dir`.
fn saved_path(dir: &Path) -> PathBuf {
    dir.join("min.in")
}

fn stress(dir: &Path, options: &[&str], command: &[String]) -> Stressed {
    let save = saved_path(dir);
    // A saved failure is never overwritten: clear the last one so this one takes its name.
    for ending in ["in", "ans", "out", "proof", "dot"] {
        let _ = std::fs::remove_file(save.with_extension(ending));
    }
    let save = save.display().to_string();
    let mut args = vec!["stress", "--save", &save];
    args.extend(options);
    args.push("--");
    args.extend(command.iter().map(String::as_str));
    let (code, report, stderr) = outcome(&run(&args, ""));
    assert!(code == 0 || code == 1, "trouble: {stderr}");
    let saved = std::fs::read(&save)
        .ok()
        .map(|bytes| Judge.parse(&bytes, Limits::Original).expect("the saved railway is valid"));
    Stressed { code, report, saved }
}

/// The one-step moves, written here independently of the library's: drop a station
/// (and its tracks, renumbering the rest), drop a track, clear a charging flag.
fn one_step_moves(r: &Railway) -> Vec<Railway> {
    let mut moves = Vec::new();
    for gone in 0..r.n() as u32 {
        let rename = |s: u32| if s > gone { s - 1 } else { s };
        let keep = |s: &usize| *s != gone as usize;
        moves.push(Railway {
            arezou: (0..r.n()).filter(keep).map(|s| r.arezou[s]).collect(),
            charging: (0..r.n()).filter(keep).map(|s| r.charging[s]).collect(),
            tracks: r
                .tracks
                .iter()
                .filter(|&&(u, v)| u != gone && v != gone)
                .map(|&(u, v)| (rename(u), rename(v)))
                .collect(),
        });
    }
    for t in 0..r.m() {
        let mut next = r.clone();
        next.tracks.remove(t);
        moves.push(next);
    }
    for s in 0..r.n() {
        if r.charging[s] {
            let mut next = r.clone();
            next.charging[s] = false;
            moves.push(next);
        }
    }
    moves
}

/// What every stress run that finds a failure of `kind` must give: exit code 1 and a saved
/// railway on which `command` fails that way again (run here under `limit`) and which no
/// one-step move keeps failing that way. Returns the railway.
fn assert_found_minimal(
    found: &Stressed,
    command: &[String],
    kind: VerdictKind,
    limit: Duration,
) -> Railway {
    assert_eq!(found.code, 1, "{}", found.report);
    let railway = found.saved.clone().expect("the failing railway is saved");
    let program = Program::new(command);
    let options = ChildOptions::new(limit, None);
    let again = trial(&Judge, &program, &railway, &options).expect("the program runs");
    assert_eq!(again.verdict.kind, kind, "the saved railway fails: {}", again.verdict);
    let moves = one_step_moves(&railway);
    testing::assert_one_minimal(&Judge, &program, kind, Limits::Original, &options, moves);
    railway
}

/// `(stations, tracks, chargers)`.
fn sizes(r: &Railway) -> (usize, usize, usize) {
    (r.n(), r.m(), r.chargers())
}

const FIVE_SECONDS: Duration = Duration::from_secs(5);

#[test]
fn a_right_program_passes() {
    let found = stress(&scratch("right"), &["--runs", "120", "-j", "2"], &[BINARY.to_owned()]);
    assert_eq!(found.code, 0, "{}", found.report);
    assert!(found.report.starts_with("ok: no failure in 120 runs, 120 cases (seed 1)\n"));
    assert!(found.saved.is_none());
    let every = stress(&scratch("right"), &["--exhaustive", "2", "-j", "2"], &[BINARY.to_owned()]);
    assert_eq!(every.code, 0, "{}", every.report);
    assert!(
        every
            .report
            .starts_with("ok: right on every input: 110 runs, 110 cases (exhaustive up to 2)\n"),
        "{}",
        every.report
    );
    let (code, _, stderr) = outcome(&run(&["stress", "--exhaustive", "5", "--", BINARY], ""));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: no exhaustive run: the bound is the largest number of stations, in 1..=4; \
         found 5\n"
    );
}

#[test]
fn a_rule_bug_is_a_wrong_answer_shrunk_to_two_stations() {
    let dir = scratch("reach");
    let command = vec!["awk".to_owned(), "-f".to_owned(), file(&dir, "reach.awk", REACH)];
    let found = stress(&dir, &["--runs", "200", "-j", "2"], &command);
    let railway = assert_found_minimal(&found, &command, VerdictKind::WrongAnswer, FIVE_SECONDS);
    // A charger that leads off the cycle: the train passes it once and never again.
    assert_eq!(sizes(&railway), (2, 2, 1), "{railway:?}");

    // Every railway of up to two stations, in order: the first that fails is already small.
    let every = stress(&dir, &["--exhaustive", "2", "-j", "2"], &command);
    let railway = assert_found_minimal(&every, &command, VerdictKind::WrongAnswer, FIVE_SECONDS);
    assert_eq!(sizes(&railway), (2, 2, 1), "{railway:?}");

    // From the original's size (runs 305 on are at the top level, up to 5,000 stations and
    // 20,000 tracks), the same two stations come out.
    let big = stress(&dir, &["--from", "305", "--runs", "50", "-j", "2"], &command);
    let railway = assert_found_minimal(&big, &command, VerdictKind::WrongAnswer, FIVE_SECONDS);
    assert_eq!(sizes(&railway), (2, 2, 1), "{railway:?}");
}

#[test]
fn the_report_names_the_saved_files_and_the_limits() {
    let dir = scratch("report");
    let command = vec!["awk".to_owned(), "-f".to_owned(), file(&dir, "reach.awk", REACH)];
    let found = stress(&dir, &["--runs", "200", "-j", "2"], &command);
    assert_eq!(found.code, 1, "{}", found.report);
    let report = &found.report;
    assert!(
        report.contains(
            "\nlimits: 2 s of CPU time (5 s of wall time) and 256 MB of memory, the stack's too, \
             a run (toy-train's default; the original's are not recorded); inputs within the \
             original limits\n"
        ),
        "{report}"
    );
    let input = saved_path(&dir);
    for ending in ["in", "ans", "out", "proof", "dot"] {
        let path = input.with_extension(ending);
        assert!(report.contains(&format!("saved to {}", path.display())), "{ending}: {report}");
        assert!(path.exists(), "{} is saved", path.display());
    }
    let proof = std::fs::read_to_string(input.with_extension("proof")).expect("a proof");
    assert!(proof.starts_with("Arezou wins from "), "{proof}");
    assert!(proof.contains("\nverified: Arezou wins from "), "{proof}");
    let dot = std::fs::read_to_string(input.with_extension("dot")).expect("a picture");
    assert!(dot.starts_with("digraph railway {\n"), "{dot}");
}

#[test]
fn a_bug_on_one_structure_is_found_and_shrunk_the_same_for_any_jobs() {
    // Flips the answer at the first station with three tracks out or more.
    let dir = scratch("structure");
    let flip = r#"awk 'FNR == NR { for (i = 1; i <= NF; i++) tok[++k] = $i; next }
{ n = tok[1]; m = tok[2]; p = 3 + 2 * n
  for (j = 0; j < m; j++) { out[tok[p]]++; p += 2 }
  for (s = 0; s < n; s++) if (out[s] >= 3) { $(s + 1) = 1 - $(s + 1); break }
  print }' "$t" -"#;
    let command = wrapper(&dir, "structure.sh", ":", flip);
    // From run 205 on, railways have 16 to 100 stations: there is something to shrink.
    let one = stress(&dir, &["--from", "205", "--runs", "100", "-j", "1"], &command);
    let railway = assert_found_minimal(&one, &command, VerdictKind::WrongAnswer, FIVE_SECONDS);
    // One station with three tracks, the others one track each, one charger. Where the
    // railway came from decides whether the charger sits on one of the three (3 stations) or
    // off them (4 stations: the charger cannot be moved, only cleared).
    let three = (0..railway.n() as u32)
        .filter(|&s| railway.tracks.iter().filter(|t| t.0 == s).count() == 3)
        .count();
    assert_eq!((three, railway.m(), railway.chargers()), (1, railway.n() + 2, 1), "{railway:?}");
    assert!(railway.n() <= 4, "{railway:?}");

    let two = stress(&dir, &["--from", "205", "--runs", "100", "-j", "2"], &command);
    assert_eq!(two.saved.as_ref(), Some(&railway), "-j 1 and -j 2 shrink to the same railway");
    let body = |report: &str| {
        let varying = |l: &&str| l.starts_with("time: ") || l.starts_with("measured: ");
        report.lines().filter(|l| !varying(l)).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(body(&two.report), body(&one.report), "-j 1 and -j 2 report the same");

    // The replay command finds the same failure again in one run, and shrinks it alike.
    let line = one.report.lines().find(|l| l.contains(" stress --seed ")).expect("a replay");
    let args: Vec<&str> = line.split(' ').skip_while(|&a| a != "stress").skip(1).collect();
    let dash = args.iter().position(|&a| a == "--").expect("the command follows --");
    let again = stress(&dir, &args[..dash], &command);
    assert_eq!(again.code, 1, "{}", again.report);
    assert_eq!(again.saved, Some(railway));
}

#[test]
fn a_crash_is_a_runtime_error_with_its_signal_and_stderr() {
    // Dies by SIGSEGV on a track going back (u > v).
    let dir = scratch("crash");
    let crash = r#"if awk 'NR > 3 && $1 > $2 { back = 1 } END { exit !back }' "$t"; then
  echo "boom: a track goes back" >&2; rm -f "$t"; kill -s SEGV $$
fi"#;
    let command = wrapper(&dir, "crash.sh", crash, "cat");
    let found = stress(&dir, &["--runs", "200", "-j", "2"], &command);
    let railway = assert_found_minimal(&found, &command, VerdictKind::RuntimeError, FIVE_SECONDS);
    assert_eq!(sizes(&railway), (2, 2, 1), "{railway:?}");
    let options = ChildOptions::new(FIVE_SECONDS, None);
    let again = trial(&Judge, &Program::new(&command), &railway, &options).expect("it runs");
    assert_eq!(again.run.exit, Exit::Signal(11));
    assert_eq!(again.run.stderr_tail, b"boom: a track goes back\n");
    assert!(found.report.contains("boom: a track goes back"), "{}", found.report);
}

/// The wrapper's largest CPU time (of five runs) on the largest railways the hang test's
/// stress runs try (15 stations, up to 6 tracks each).
fn slowest_run(command: &[String]) -> Duration {
    let program = Program::new(command);
    let options = ChildOptions::new(Duration::from_secs(20), None);
    let railway = Railway {
        arezou: (0..15).map(|s| s % 2 == 0).collect(),
        charging: (0..15).map(|s| s % 3 == 0).collect(),
        tracks: (0..15u32).flat_map(|s| (1..=6).map(move |d| (s, (s + d) % 15))).collect(),
    };
    (0..5)
        .map(|_| {
            let t = trial(&Judge, &program, &railway, &options).expect("the program runs");
            assert_eq!(t.verdict.kind, VerdictKind::Ok, "{}", t.verdict);
            t.run.cpu
        })
        .max()
        .expect("five runs")
}

#[test]
fn a_hang_is_a_time_limit_exceeded() {
    // Hangs for good when some station's only track is a self-loop and there are two
    // stations or more.
    let dir = scratch("hang");
    let hang = r#"if awk 'NR == 1 { n = $1 } NR > 3 && $1 != $2 { moves[$1] = 1 }
  END { for (s = 0; s < n; s++) if (!(s in moves)) loop = 1; exit !(n >= 2 && loop) }' "$t"; then
  while :; do :; done
fi"#;
    let command = wrapper(&dir, "hang.sh", hang, "cat");
    // Eight times the most CPU time a normal run took (and at least 0.2 s): far above what a
    // normal run takes, however busy the machine, so no run is cut short, and each hanging
    // candidate of the shrinker, which spins, costs little.
    let limit = (slowest_run(&command) * 8).max(Duration::from_millis(200));
    let limit_arg = format!("{}ms", limit.as_millis());
    let found = stress(&dir, &["--runs", "200", "-j", "2", "--time-limit", &limit_arg], &command);
    let railway = assert_found_minimal(&found, &command, VerdictKind::TimeLimit, limit);
    assert_eq!(sizes(&railway), (2, 2, 1), "{railway:?}");
}

#[test]
fn a_garbled_token_is_a_presentation_error() {
    // Writes "yes" for a 1 at the third station.
    let dir = scratch("garbled");
    let command = wrapper(
        &dir,
        "garbled.sh",
        ":",
        r#"awk '{ if (NF >= 3 && $3 == "1") $3 = "yes"; print }'"#,
    );
    let found = stress(&dir, &["--runs", "200", "-j", "2"], &command);
    let railway =
        assert_found_minimal(&found, &command, VerdictKind::PresentationError, FIVE_SECONDS);
    assert_eq!(sizes(&railway), (3, 3, 1), "{railway:?}");
}

/// A program that fails only at the largest `n` (here a shell script standing for a table
/// of 5,000 indexed from 1) is found within the first 100 runs: the extreme railways come
/// right after the first ten tiny ones. Shrinking keeps all 5,000 stations.
#[test]
fn a_crash_at_the_largest_n_is_found_within_100_runs() {
    let dir = scratch("largest");
    let table = r#"read n m < "$t"
if [ "$n" -eq 5000 ]; then
  echo "table[5000]: index out of bounds" >&2; rm -f "$t"; kill -s SEGV $$
fi"#;
    let command = wrapper(&dir, "table.sh", table, "cat");
    let found = stress(&dir, &["--runs", "100", "-j", "2", "--shrink-time", "3s"], &command);
    assert_eq!(found.code, 1, "{}", found.report);
    let railway = found.saved.expect("the failing railway is saved");
    assert_eq!(railway.n(), 5000);
    let options = ChildOptions::new(FIVE_SECONDS, None);
    let again = trial(&Judge, &Program::new(&command), &railway, &options).expect("it runs");
    assert_eq!(again.verdict.kind, VerdictKind::RuntimeError, "{}", again.verdict);
}

#[test]
fn a_program_that_cannot_start_is_trouble() {
    let (code, stdout, stderr) =
        outcome(&run(&["stress", "--runs", "3", "--", "/no/such/program"], ""));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: run 0: cannot start /no/such/program"), "{stderr}");
}

/// SIGINT, SIGTERM and SIGHUP stop `stress` with 128 + the signal after killing the program's
/// whole process group; SIGKILL stops it outright and the program dies with it.
#[test]
fn stopping_stress_leaves_nothing_running() {
    let dir = scratch("stop");
    testing::assert_stress_stops_cleanly(BINARY, &dir);
}
