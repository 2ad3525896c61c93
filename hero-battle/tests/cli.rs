//! The hero-battle binary end to end: output on stdout, errors as one line on stderr with
//! exit code 2 and nothing on stdout, and the same bytes for every thread count.

use std::process::Output;

const BINARY: &str = env!("CARGO_BIN_EXE_hero-battle");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    tests::run_binary(BINARY, args, stdin)
}

const SAMPLE: &str = "4\n10 10 10 10 3 3 3 3 3 3 3 3\n5 5 30 30 7 2 2 7 1 1 1 1\n\
                      30 30 5 5 1 1 1 1 7 2 2 7\n12 7 9 15 4 2 3 5 2 6 4 1\n";

#[test]
fn reads_stdin_and_prints_verdicts() {
    let out = run(&[], SAMPLE.as_bytes());
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "It depends\nBob wins\nAlice wins\nBob wins\n"
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn reads_a_file_argument() {
    let out = tests::run_binary_on_file(BINARY, &[], SAMPLE.as_bytes());
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
}

/// Standard input redirected from a file large enough to be read in pieces, whose first bytes
/// something read before: the answers of the rest, as a pipe and a file argument give them.
#[test]
fn reads_stdin_redirected_from_a_file_from_its_offset() {
    use std::io::{Seek as _, SeekFrom};
    let cases = hero_battle::generate::cases(hero_battle::generate::Family::Random, 200_000, 3);
    let input = hero_battle::generate::to_input(&cases);
    assert!(input.len() > 4 << 20, "large enough to be read in pieces");
    let piped = run(&["-j", "2"], input.as_bytes());
    assert!(piped.status.success());
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), cases.len());
    assert_eq!(
        tests::run_binary_on_file(BINARY, &["-j", "2"], input.as_bytes()).stdout,
        piped.stdout
    );

    let read_before = "already read\n";
    let path = std::env::temp_dir().join(format!("hero-battle-stdin-{}.in", std::process::id()));
    std::fs::write(&path, format!("{read_before}{input}")).unwrap();
    for threads in ["1", "2", "3"] {
        let mut file = std::fs::File::open(&path).unwrap();
        file.seek(SeekFrom::Start(read_before.len() as u64)).unwrap();
        let out = tests::run_binary_with_stdin_file(BINARY, &["-j", threads], file);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout == piped.stdout, "{threads} threads");
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_input_exits_2_with_one_line_and_no_output() {
    for (input, message) in [
        (
            "1\n3 3 3 3 3 3 0 3 3 3 3 3\n",
            "error: line 2, column 13: expected damage a21 in 1..=99, found \"0\"",
        ),
        (
            "2\n3 3 3 3 3 3 3 3 3 3 3 3\n",
            "error: line 2, column 24: expected hit points a1 in 1..=99, found end of input",
        ),
        (
            "x",
            "error: line 1, column 1: expected the number of cases T in 0..=4294967296, found \"x\"",
        ),
    ] {
        tests::assert_rejects(BINARY, &[], input.as_bytes(), message);
    }
}

#[test]
fn missing_file_exits_2() {
    let out = run(&["/nonexistent/hero.in"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: cannot read /nonexistent/hero.in")
    );
}

#[test]
fn thread_counts_print_identical_bytes() {
    let mut input = String::from("600\n");
    for i in 0..600u32 {
        let v: Vec<String> = (0..12).map(|k| ((i * 7 + k * 13) % 99 + 1).to_string()).collect();
        input += &(v.join(" ") + "\n");
    }
    let one = run(&["--threads", "1"], input.as_bytes());
    let two = run(&["--threads", "2"], input.as_bytes());
    let four = run(&["-j", "4", "--explain"], input.as_bytes());
    assert!(one.status.success() && two.status.success() && four.status.success());
    assert_eq!(one.stdout, two.stdout);
    let verdicts: Vec<&str> = std::str::from_utf8(&four.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("  "))
        .collect();
    assert_eq!(verdicts, std::str::from_utf8(&one.stdout).unwrap().lines().collect::<Vec<_>>());
}

#[test]
fn stats_go_to_stderr() {
    let out = run(&["--stats"], SAMPLE.as_bytes());
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(log.lines().filter(|l| l.starts_with("case ")).count(), 4);
    assert!(log.contains("total: "));
    assert!(log.contains("(parse ") && log.contains(" ms, write "), "the driver's steps: {log}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
}

/// Every example the documents show of this binary (blocks marked `<!-- example -->`) is
/// what it prints today (`tests::examples`).
#[test]
fn the_documents_examples_are_what_it_prints() {
    let checked = tests::examples::assert_examples(BINARY);
    assert!(checked >= 2, "only {checked} examples of hero-battle in the documents");
}
