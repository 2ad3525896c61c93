//! The toy-train binary end to end: the answer line on stdout (from a file or stdin), the
//! `--strategy`, `--verify`, `--explain`, `--dot` and `--solver` options, and bad input as
//! exit code 2 with one `error: line L, column C: ...` line on stderr and nothing on stdout.

use std::process::Output;

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    tests::run_binary(BINARY, args, stdin)
}

/// The official example: `who_wins([0, 1], [1, 0], [0, 0, 1, 1], [0, 1, 0, 1])`.
const SAMPLE: &str = "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn reads_stdin_and_prints_the_answer_line() {
    for solver in
        [&[][..], &["--solver", "fast"], &["--solver", "reference"], &["--solver", "classic"]]
    {
        let out = run(solver, SAMPLE.as_bytes());
        assert!(out.status.success(), "{solver:?}");
        assert_eq!(stdout(&out), "1 1\n");
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn reads_a_file_argument() {
    let out = tests::run_binary_on_file(BINARY, &[], SAMPLE.as_bytes());
    assert!(out.status.success());
    assert_eq!(stdout(&out), "1 1\n");
}

#[test]
fn strategy_and_verify_add_their_lines() {
    let out = run(&["--strategy", "--verify"], SAMPLE.as_bytes());
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "1 1\n0 0\n1 0\nverified: Arezou wins from 2 stations, Borzou from 0 stations; \
         both regions are closed and both strategies win\n"
    );
    let out = run(&["--verify", "--solver", "classic"], SAMPLE.as_bytes());
    assert_eq!(stdout(&out).lines().count(), 2);
}

#[test]
fn bad_input_exits_2_with_one_line_and_no_output() {
    for (input, message) in [
        (
            "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 2\n",
            "error: line 7, column 3: expected station v[3] of track 3 in 0..=1, found \"2\"\n",
        ),
        (
            "3 4\n0 1 1\n1 0 0\n0 0\n0 1\n1 0\n0 2\n",
            "error: line 2, column 5: expected a track leaving station 2, found none among the \
             4 tracks\n",
        ),
        (
            "2 4\n0 1\n1 2\n0 0\n0 1\n1 0\n1 1\n",
            "error: line 3, column 3: expected charger flag r[1] in 0..=1, found \"2\"\n",
        ),
        (
            "2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n",
            "error: line 6, column 4: expected station u[3] of track 3 in 0..=1, found end of \
             input\n",
        ),
        (
            "99999999999 1\n",
            "error: line 1, column 1: expected the number of stations n in 1..=100000000, found \
             \"99999999999\"\n",
        ),
        (
            "100000000 4000000000\n",
            "error: line 1, column 11: expected the number of tracks m (at least one per \
             station) in 100000000..=1000000000, found \"4000000000\"\n",
        ),
        (
            "",
            "error: line 1, column 1: expected the number of stations n in 1..=100000000, found end of input\n",
        ),
    ] {
        for args in [&[][..], &["--strategy", "--verify"]] {
            tests::assert_rejects(BINARY, args, input.as_bytes(), message.trim_end());
        }
    }
}

#[test]
fn a_missing_file_or_a_bad_option_exits_2() {
    let out = run(&["/nonexistent/toy-train.in"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: cannot read /nonexistent/toy-train.in"), "{err}");
    assert_eq!(err.lines().count(), 1);
    let out = run(&["--solver", "magic"], SAMPLE.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_large_absurd_header_in_a_short_file_fails_fast() {
    // Nothing may be allocated for 100 million stations before the input runs out.
    let out = run(&[], b"100000000 100000000\n0 1 0\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: line 2, column 6: expected owner flag a[3]"), "{err}");
}

#[test]
fn explain_is_strategy_and_verify_and_dot_takes_neither() {
    let explained = run(&["--explain"], SAMPLE.as_bytes());
    let spelt_out = run(&["--strategy", "--verify"], SAMPLE.as_bytes());
    assert!(explained.status.success());
    assert_eq!(stdout(&explained), stdout(&spelt_out));
    for flag in ["--strategy", "--explain"] {
        let out = run(&["--dot", flag], SAMPLE.as_bytes());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stdout(&out).is_empty());
        let first = format!(
            "error: --dot draws both strategies in place of the answer line, and {flag} prints \
             them as lines after it: give one of them\n\nUsage: toy-train [OPTIONS] [FILE]\n"
        );
        assert!(stderr.starts_with(&first), "{stderr}");
    }
}

/// Every example the documents show of this binary (blocks marked `<!-- example -->`) is
/// what it prints today (`tests::examples`).
#[test]
fn the_documents_examples_are_what_it_prints() {
    let checked = tests::examples::assert_examples(BINARY);
    assert!(checked >= 2, "only {checked} examples of toy-train in the documents");
}
