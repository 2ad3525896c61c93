//! The judge's command-line runners on the toy problem: arguments as a problem binary parses
//! them, exit codes of the protocols, and `stress` saving a shrunk counterexample.

#![cfg(all(unix, feature = "cli", feature = "testing"))]

use std::path::{Path, PathBuf};

use clap::Parser;
use engine::judge::cli::{
    CheckArgs, EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, StressArgs, ValidateArgs, run_check,
    run_stress, run_validate,
};
use engine::judge::testing::toy::Sum;

/// The subcommands as a problem binary would declare them.
#[derive(Debug, clap::Parser)]
enum Command {
    Check(CheckArgs),
    Validate(ValidateArgs),
    Stress(StressArgs),
}

fn parse(args: &[&str]) -> Command {
    Command::try_parse_from(std::iter::once("sum").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("engine-judge-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

fn file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the scratch folder is writable");
    path.display().to_string()
}

fn exit(args: &[&str]) -> i32 {
    match parse(args) {
        Command::Check(a) => run_check(&Sum, &a),
        Command::Validate(a) => run_validate(&Sum, &a),
        Command::Stress(a) => run_stress(&Sum, &a),
    }
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
    let saved = std::fs::read_to_string(&save).expect("saved");
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
