//! What toy-train's judge does that is its own, end to end through the binary: `check`'s
//! token rule (white-diff, line by line) on every verdict and in CMS's scores, `validate`'s
//! rules with their places and the subtask line, the right program on the exhaustive run, a
//! crash at the largest `n` found by the first extreme railways; and, through
//! `judge::testing::binary_conformance`, what every binary must do the same way, run on the
//! official sample and toy-train's own wrong programs (a bug on one structure, a rule bug, a
//! crash, a hang, a garbled token), each shrunk to a railway whose shape this file checks and
//! which it proves 1-minimal with one-step moves of its own.

#![cfg(unix)]

use std::path::Path;
use std::process::Output;

use judge::testing::{BinaryCase, Judged, Sample, WrongProgram, binary_conformance};
use judge::{ChildOptions, Limits, Problem, VerdictKind, testing, trial};
use toy_train::{Railway, judge::Judge};

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

/// The official example: Arezou wins from both stations.
const SAMPLE: &str = "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n";

fn scratch(test: &str) -> tests::TestDir {
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
}

/// CMS's scores follow white-diff: a blank line before the answers is a 0.0, one after them
/// a 1.0; a jury answer split over lines is a fail, with no score.
#[test]
fn check_scores_white_diff_in_cms() {
    let dir = scratch("cms");
    let input = file(&dir, "sample.in", SAMPLE);
    let answer = file(&dir, "sample.ans", "1 1\n");
    let right = file(&dir, "right.out", "1 1\n");
    let cms = |jury: &str, output: &str| {
        outcome(&run(&["check", "--protocol", "cms", &input, jury, output], ""))
    };
    let wrong = file(&dir, "wrong.out", "0 1\n");
    assert_eq!(
        cms(&answer, &wrong),
        (0, "0.0\n".into(), "wrong answer: station 0: expected 1, found 0\n".into())
    );
    let bad = file(&dir, "bad.ans", "1\n");
    let (code, stdout, stderr) = cms(&bad, &right);
    assert_eq!((code, stdout.as_str()), (3, ""), "a fail gives no score");
    assert_eq!(
        stderr,
        "fail: answer: 1 answers on line 1 for 2 stations (white-diff compares line by line, \
         so the jury's answers must all be on line 1, as the grader prints them)\n"
    );
    let blank_before = file(&dir, "before.out", "\n1 1\n");
    let blank_after = file(&dir, "after.out", "1 1\n\n \n");
    assert_eq!(cms(&answer, &blank_before).1, "0.0\n");
    assert_eq!(cms(&answer, &blank_after).1, "1.0\n");
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
const REACH: &str = r#"awk '
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
}'
"#;

/// A `/bin/sh` wrapper around our own binary: the input goes to the file `in` (in the run's
/// own folder), `before` runs first (it may exit, crash or hang), then our answer to it is
/// piped through `after` (`cat` for none).
fn wrapper(before: &str, after: &str) -> String {
    format!("cat > in\n{before}\nBINARY in | {after}\n")
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

/// `(stations, tracks, chargers)`.
fn sizes(r: &Railway) -> (usize, usize, usize) {
    (r.n(), r.m(), r.chargers())
}

#[test]
fn the_right_program_passes_every_railway_of_two_stations() {
    let every = outcome(&run(&["stress", "--exhaustive", "2", "-j", "2", "--", BINARY], ""));
    assert_eq!(every.0, 0, "{}", every.2);
    assert!(
        every.1.starts_with("ok: right on every input: 110 runs, 110 cases (exhaustive up to 2)\n"),
        "{}",
        every.1
    );
    let (code, _, stderr) = outcome(&run(&["stress", "--exhaustive", "5", "--", BINARY], ""));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: no exhaustive run: the bound is the largest number of stations, in 1..=4; \
         found 5\n"
    );
}

/// A program that fails only at the largest `n` (here a shell script standing for a table
/// of 5,000 indexed from 1) is found within the first 100 runs: the extreme railways come
/// right after the first ten tiny ones. Shrinking keeps all 5,000 stations.
#[test]
fn a_crash_at_the_largest_n_is_found_within_100_runs() {
    let dir = scratch("largest");
    let table = r#"read n m < in
if [ "$n" -eq 5000 ]; then
  echo "table[5000]: index out of bounds" >&2; kill -s SEGV $$
fi"#;
    let script =
        testing::shell_script(&dir, "table.sh", &wrapper(table, "cat").replace("BINARY", BINARY));
    let save = dir.join("min.in").display().to_string();
    let args = ["stress", "--runs", "100", "-j", "2", "--shrink-time", "3s", "--save", &save, "--"];
    let (code, report, _) = outcome(&run(&[&args[..], &["/bin/sh", &script.path]].concat(), ""));
    assert_eq!(code, 1, "{report}");
    let bytes = std::fs::read(&save).expect("the failing railway is saved");
    let railway = Judge.parse(&bytes, Limits::Original).expect("the saved railway is valid");
    assert_eq!(railway.n(), 5000);
    let options = ChildOptions::new(Judge::RUN_LIMITS.time, None);
    let again =
        trial(testing::sandbox(), &Judge, &script.program, &railway, &options).expect("it runs");
    assert_eq!(again.verdict.kind, VerdictKind::RuntimeError, "{}", again.verdict);
}

/// Everything every binary does the same way, on the official sample and toy-train's wrong
/// programs: a bug on one structure, found among railways of 16 to 100 stations (runs 205
/// on) and shrunk to the same railway and report for any `-j`; the rule bug (reach), shrunk
/// to the two stations of a charger off the cycle from generated railways, from every railway
/// of up to two stations, and from the original's size (runs 305 on: up to 5,000 stations and
/// 20,000 tracks); a crash with its signal and stderr, a hang and a garbled token.
#[test]
fn the_binary_conforms() {
    // Flips the answer at the first station with three tracks out or more.
    let flip = r#"awk 'FNR == NR { for (i = 1; i <= NF; i++) tok[++k] = $i; next }
{ n = tok[1]; m = tok[2]; p = 3 + 2 * n
  for (j = 0; j < m; j++) { out[tok[p]]++; p += 2 }
  for (s = 0; s < n; s++) if (out[s] >= 3) { $(s + 1) = 1 - $(s + 1); break }
  print }' in -"#;
    // Dies by SIGSEGV on a track going back (u > v).
    let crash = r#"if awk 'NR > 3 && $1 > $2 { back = 1 } END { exit !back }' in; then
  echo "boom: a track goes back" >&2; kill -s SEGV $$
fi"#;
    // Hangs for good when some station's only track is a self-loop and there are two
    // stations or more.
    let hang = r#"if awk 'NR == 1 { n = $1 } NR > 3 && $1 != $2 { moves[$1] = 1 }
  END { for (s = 0; s < n; s++) if (!(s in moves)) loop = 1; exit !(n >= 2 && loop) }' in; then
  while :; do :; done
fi"#;
    // Writes "yes" for a 1 at the third station.
    let garbled = r#"awk '{ if (NF >= 3 && $3 == "1") $3 = "yes"; print }'"#;
    let wrong = vec![
        WrongProgram::new("structure", VerdictKind::WrongAnswer, wrapper(":", flip))
            .stress(&["--from", "205", "--runs", "100"]),
        WrongProgram::new("reach", VerdictKind::WrongAnswer, REACH).stress(&["--runs", "200"]),
        WrongProgram::new("reach-every", VerdictKind::WrongAnswer, REACH)
            .stress(&["--exhaustive", "2"]),
        WrongProgram::new("reach-big", VerdictKind::WrongAnswer, REACH)
            .stress(&["--from", "305", "--runs", "50"]),
        WrongProgram::new("crash", VerdictKind::RuntimeError, wrapper(crash, "cat"))
            .stress(&["--runs", "200"]),
        WrongProgram::new("hang", VerdictKind::TimeLimit, wrapper(hang, "cat"))
            .stress(&["--runs", "200"]),
        WrongProgram::new("garbled", VerdictKind::PresentationError, wrapper(":", garbled))
            .stress(&["--runs", "200"]),
    ];
    let conformance = BinaryCase {
        samples: Sample::all_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problem")),
        wrong_output: Judged {
            text: "1 0\n",
            says: "wrong answer: station 1: expected 1, found 0",
        },
        malformed_output: Judged {
            text: "1 true\n",
            says: "presentation error: station 1: expected 1, found \"true\" on line 1, which is \
                   not 0 or 1",
        },
        broken_input: Judged {
            text: "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 2\n",
            says: "line 7, column 3: expected station v[3] of track 3 in 0..=1, found \"2\"",
        },
        right_args: vec![],
        right_runs: (120, "ok: no failure in 120 runs, 120 cases (seed 1)"),
        default_limits: "2 s of CPU time (5 s of wall time) and 256 MB of memory, the stack's \
                         too, a run (toy-train's default; the original's are not recorded)",
        wrong,
        one_step: one_step_moves,
    };
    let found = binary_conformance(&Judge, BINARY, &conformance);

    // One station with three tracks, the others one track each, one charger. Where the
    // railway came from decides whether the charger sits on one of the three (3 stations) or
    // off them (4 stations: the charger cannot be moved, only cleared).
    let structure = &found[0].input;
    let three = (0..structure.n() as u32)
        .filter(|&s| structure.tracks.iter().filter(|t| t.0 == s).count() == 3)
        .count();
    let shape = (three, structure.m(), structure.chargers());
    assert_eq!(shape, (1, structure.n() + 2, 1), "{structure:?}");
    assert!(structure.n() <= 4, "{structure:?}");
    // A charger that leads off the cycle: the train passes it once and never again.
    for f in &found[1..6] {
        assert_eq!(sizes(&f.input), (2, 2, 1), "{}: {:?}", f.name, f.input);
    }
    assert_eq!(sizes(&found[6].input), (3, 3, 1), "{:?}", found[6].input);
    // The proofs: the strategies with the verifier's line, and a picture.
    let exhibits = Judge.explain(&found[1].input);
    let proof = &exhibits[0].text;
    assert!(proof.starts_with("Arezou wins from "), "{proof}");
    assert!(proof.contains("\nverified: Arezou wins from "), "{proof}");
    assert!(exhibits[1].text.starts_with("digraph railway {\n"), "{}", exhibits[1].text);
    let crash = &found[4].report;
    let verdict = r#"runtime error: signal 11 (SIGSEGV), stderr: "boom: a track goes back"#;
    assert!(crash.contains(verdict), "{crash}");
}

/// `--subtask K`: each subtask's railways (every level, drawn as `stress` and `generate`
/// draw them) are valid, in the subtask and keep the contracts; `stress --subtask 3` keeps to
/// Arezou's railways
/// (a program wrong on any other passes), a failure under `--subtask 4` is shrunk within the
/// subtask and its replay line repeats it; a subtask that is not one, or the extended limits,
/// is trouble.
#[test]
fn subtasks_keep_stress_and_generate_to_their_railways() {
    // Held to each subtask, toy-train keeps the contracts: every input drawn is valid (in
    // the subtask), round-trips, and shrinks by moves that lower its size.
    for subtask in 1..=6 {
        let held = judge::package::InGroup::new(&Judge, subtask).expect("a subtask");
        testing::check_contracts(&held, 3, 20, None);
    }
    let (code, input, _) = outcome(&run(&["generate", "--subtask", "3", "--level", "5"], ""));
    assert_eq!(code, 0);
    let railway = Judge.parse(input.as_bytes(), Limits::Original).expect("a valid railway");
    assert!(railway.arezou.iter().all(|&a| a) && railway.n() > 100, "{input}");

    let dir = scratch("subtask");
    // Right on railways all Arezou's (line 2 holds no 0), garbled on any other.
    let only_arezou = wrapper("if sed -n 2p in | grep -q 0; then echo x; exit 0; fi", "cat");
    let script = file(&dir, "arezou.sh", &only_arezou.replace("BINARY", BINARY));
    let stress = |subtask: &str| {
        let save = dir.join(format!("subtask-{subtask}.in")).display().to_string();
        let args = ["stress", "--subtask", subtask, "--runs", "60", "-j", "2", "--save", &save];
        outcome(&run(&[&args[..], &["--", "/bin/sh", &script]].concat(), ""))
    };
    let (code, report, stderr) = stress("3");
    assert_eq!(code, 0, "{report}{stderr}");
    assert!(report.contains("inputs within the original limits, in subtask 3"), "{report}");
    let (code, report, _) = stress("4");
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("--subtask 4 --limits original -- /bin/sh"), "{report}");
    let saved = std::fs::read(dir.join("subtask-4.in")).expect("the failure is saved");
    let railway = Judge.parse(&saved, Limits::Original).expect("a valid railway");
    assert!(railway.arezou.iter().all(|&a| !a), "shrunk within subtask 4: {railway:?}");

    for (args, message) in [
        (
            &["generate", "--subtask", "7"][..],
            "error: toy-train has no subtask 7: its subtasks are 1 to 6\n",
        ),
        (
            &["stress", "--subtask", "1", "--limits", "extended", "--", "true"][..],
            "error: --subtask is a subtask of the original limits: leave out --limits extended\n",
        ),
    ] {
        let (code, _, stderr) = outcome(&run(args, ""));
        assert_eq!((code, stderr.as_str()), (2, message), "{args:?}");
    }
}

/// IOI's function interface: `interface DIR` writes `train.h` and the grader (and refuses to
/// overwrite a file of other contents); a function-style `train.cpp` built with the grader
/// by hand, as the grader's notes say, is a program `stress` takes; and handed over as a
/// source, a function-style and a stdin-style program are each built (the first with the
/// grader, the second with its own `main`) and pass.
#[test]
fn the_function_interface_builds_both_kinds_of_program() {
    let dir = scratch("interface");
    let (code, said, stderr) = outcome(&run(&["interface", &dir.display().to_string()], ""));
    assert_eq!(code, 0, "{stderr}");
    assert!(said.contains("g++ -O2 -std=gnu++17 -I "), "{said}");
    for name in ["train.h", "grader.cpp"] {
        assert!(dir.join(name).is_file(), "no {name}");
    }
    // Arezou wins everywhere on the sample, and on every railway of one station with a
    // charger: right on those, and wrong elsewhere, which the runs below never meet.
    let function = "#include \"train.h\"\nstd::vector<int> who_wins(std::vector<int> a, \
                    std::vector<int> r, std::vector<int> u, std::vector<int> v) {\n  (void)r; \
                    (void)u; (void)v;\n  return std::vector<int>(a.size(), 1);\n}\n";
    let train = file(&dir, "train.cpp", function);
    let stdin = file(
        &dir,
        "own_main.cpp",
        "#include <cstdio>\nint main() { int n; if (scanf(\"%d\", &n) != 1) return 1; \
         for (int s = 0; s < n; ++s) printf(s ? \" 1\" : \"1\"); printf(\"\\n\"); }\n",
    );
    let binary = dir.join("train");
    let built = std::process::Command::new("g++")
        .args(["-O2", "-std=gnu++17", "-o"])
        .arg(&binary)
        .arg(dir.join("grader.cpp"))
        .arg(&train)
        .status()
        .expect("g++ runs");
    assert!(built.success());
    let sample = file(&dir, "sample.in", SAMPLE);
    for program in [binary.display().to_string(), train, stdin] {
        let (code, report, stderr) = outcome(&run(&["shrink", &sample, "--", &program], ""));
        assert_eq!(code, 0, "{program}: {report}{stderr}");
        assert!(report.starts_with("ok: "), "{report}");
        if program.ends_with("train.cpp") {
            assert!(stderr.contains("train.cpp grader.cpp"), "built with the grader: {stderr}");
        }
        if program.ends_with("own_main.cpp") {
            assert!(!stderr.contains("grader"), "built alone: {stderr}");
        }
    }
    std::fs::write(dir.join("grader.cpp"), "// mine\n").expect("the scratch folder is writable");
    let (code, _, stderr) = outcome(&run(&["interface", &dir.display().to_string()], ""));
    assert_eq!(code, 2);
    assert!(stderr.contains("grader.cpp exists and differs"), "{stderr}");
}
