//! The harness for the workspace's integration tests: one loop that turns a folder of input
//! files into insta snapshots.
//!
//! A suite is a folder `tests/data/SUITE/` of `NAME.in` files; each input's rendered result
//! (output text, or the error a binary would print) is compared with
//! `tests/snapshots/SUITE/NAME.snap`. A snapshot without an input fails the suite.
//! `cargo xtask snapshot` regenerates them; `cargo xtask snapshot --check` and plain
//! `cargo test` fail on any difference.
//!
//! It also runs a problem's binary for the crates' own CLI tests ([`run_binary`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `tests` package folder.
#[must_use]
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sorted `.in` files of `tests/data/SUITE`.
///
/// # Panics
/// When the folder is missing or holds no inputs: a suite that tests nothing must not pass.
#[must_use]
pub fn suite_inputs(suite: &str) -> Vec<PathBuf> {
    let dir = tests_dir().join("data").join(suite);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "in"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "suite {suite} has no .in files in {}", dir.display());
    inputs
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Snapshots `render(input bytes)` for every input of `suite`.
///
/// # Panics
/// On the first snapshot that differs (insta reports the diff), or on a snapshot whose input
/// file is gone.
pub fn snapshot_suite(suite: &str, render: impl Fn(&[u8]) -> String) {
    let inputs = suite_inputs(suite);
    let snapshots = tests_dir().join("snapshots").join(suite);
    for input in &inputs {
        let bytes =
            std::fs::read(input).unwrap_or_else(|e| panic!("cannot read {}: {e}", input.display()));
        let text = render(&bytes);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(&snapshots);
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_input_file(input);
        settings.set_description(format!("tests/data/{suite}/{}.in", stem(input)));
        settings.bind(|| insta::assert_snapshot!(stem(input), text));
    }
    if let Ok(entries) = std::fs::read_dir(&snapshots) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|ext| ext == "snap") {
                let name = stem(&path);
                assert!(
                    inputs.iter().any(|i| stem(i) == name),
                    "snapshot {} has no input tests/data/{suite}/{name}.in; \
                     run `cargo xtask snapshot` to remove it",
                    path.display()
                );
            }
        }
    }
}

/// Reads the expected-output file beside an input (`NAME.out`), if any.
#[must_use]
pub fn expected_output(input: &Path) -> Option<String> {
    std::fs::read_to_string(input.with_extension("out")).ok()
}

/// Runs `program` (a binary under test, from `env!("CARGO_BIN_EXE_...")`) with `args`,
/// feeding `stdin`, and returns its exit status and both outputs.
///
/// # Panics
/// When the binary cannot start or be waited for. A binary that exits before reading its
/// stdin (a missing file, a bad option) closes the pipe; that is not a failure here, the exit
/// status tells the rest.
#[must_use]
pub fn run_binary(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    let written = child.stdin.take().map(|mut pipe| pipe.write_all(stdin));
    if let Some(Err(e)) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing stdin of {program}: {e}");
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{program} finishes: {e}"))
}
