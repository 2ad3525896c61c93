//! The harness for the problem crates' integration tests: one loop that turns a folder of input
//! files into insta snapshots, and the table of `validate`'s canonical format.
//!
//! A problem crate's suite is its folder `tests/data/` of `NAME.in` files. An input may open
//! with lines `# args: FLAGS`, one per run (say `# args:` for a plain run and `# args:
//! --explain` for an explained one); the judge input follows them. Each run's result, the
//! output a binary prints or the error line with its exit code, goes into the crate's
//! `tests/snapshots/NAME.snap`,
//! whose header carries the input itself, so a reviewer reads a changed snapshot without
//! opening the input. Every input is checked before the suite fails, and a snapshot without
//! an input fails it too. `cargo xtask snapshot` regenerates them; plain `cargo test` fails
//! on any difference.
//!
//! It runs the documents' examples ([`examples`]): every command a Markdown document shows in a
//! block marked `<!-- example -->` must print what the block shows.
//!
//! It also serves the crates' own CLI tests: running a binary ([`run_binary`], [`Ran`]),
//! scratch folders for the files and scripts they write ([`scratch_dir`], [`write_file`]) and
//! outputs quoted with C escapes in data files (`judge::testing::unescape_c`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use engine::{Output, RunError};
pub use judge::testing::TestDir;

pub mod canonical;
pub mod examples;
pub mod registry;

/// The workspace root.
#[must_use]
pub fn workspace_root() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().expect("tests/ sits in the workspace").to_path_buf()
}

/// A problem crate's test data folder, `CRATE/tests/data/`, from the crate's folder (its
/// `env!("CARGO_MANIFEST_DIR")`).
#[must_use]
pub fn data_dir(crate_dir: &str) -> PathBuf {
    Path::new(crate_dir).join("tests").join("data")
}

/// The crate's name: the last part of its folder.
fn crate_name(crate_dir: &str) -> String {
    let name = Path::new(crate_dir).file_name().expect("a crate folder has a name");
    name.to_string_lossy().into_owned()
}

/// One input file of a suite.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its name without `.in`: the snapshot's name.
    pub name: String,
    /// One entry per `# args:` line, each the flags of one run; one empty run when the file
    /// has no such line.
    pub runs: Vec<Vec<String>>,
    /// The judge input after the `# args:` lines.
    pub input: Vec<u8>,
}

impl DataFile {
    /// Reads `path`, splitting off its `# args:` lines.
    ///
    /// # Panics
    /// When the file cannot be read.
    #[must_use]
    pub fn read(path: &Path) -> Self {
        let bytes =
            std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let mut runs = Vec::new();
        let mut rest = &bytes[..];
        while let Some(line) = rest.strip_prefix(b"# args:") {
            let end = line.iter().position(|&b| b == b'\n').map_or(line.len(), |i| i + 1);
            let flags = String::from_utf8_lossy(&line[..end]);
            runs.push(flags.split_whitespace().map(str::to_owned).collect());
            rest = &line[end..];
        }
        if runs.is_empty() {
            runs.push(Vec::new());
        }
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        Self { path: path.to_path_buf(), name, runs, input: rest.to_vec() }
    }

    /// The expected-output file beside the input (`NAME.out`), if any; it holds the output of
    /// a plain run.
    #[must_use]
    pub fn expected_output(&self) -> Option<String> {
        std::fs::read_to_string(self.path.with_extension("out")).ok()
    }
}

/// The data files of a problem crate's `tests/data/` (`crate_dir` is its folder), sorted by
/// name.
///
/// # Panics
/// When the folder is missing or holds no inputs: a suite that tests nothing must not pass.
#[must_use]
pub fn suite(crate_dir: &str) -> Vec<DataFile> {
    let suite = crate_name(crate_dir);
    let dir = data_dir(crate_dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "in"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "suite {suite} has no .in files in {}", dir.display());
    paths.iter().map(|p| DataFile::read(p)).collect()
}

/// Checks every input of a problem crate's suite that has an expected output (`NAME.out`)
/// against `solve(input, label)` for each label of `solvers` (the solvers to try); returns
/// how many inputs had one.
///
/// # Panics
/// At the first output that differs, or when no input has an expected output.
pub fn assert_expected_outputs<S: std::fmt::Debug + Copy>(
    crate_dir: &str,
    solvers: &[S],
    solve: impl Fn(&[u8], S) -> String,
) -> usize {
    let mut checked = 0;
    for file in suite(crate_dir) {
        let Some(expected) = file.expected_output() else { continue };
        for &solver in solvers {
            assert_eq!(solve(&file.input, solver), expected, "{} with {solver:?}", file.name);
        }
        checked += 1;
    }
    assert!(checked >= 1, "no input has an expected output (NAME.out)");
    checked
}

/// What a binary prints for a run's result: its stdout, or the `error:` line it prints on
/// stderr with the exit code the error gives (stdout stays empty then).
#[must_use]
pub fn render(result: Result<Output, RunError>) -> String {
    match result {
        Ok(output) => String::from_utf8_lossy(&output.stdout).into_owned(),
        Err(e) => format!("error: {e}\n[exit code {}, nothing on stdout]\n", e.exit_code()),
    }
}

/// Inputs longer than this are named in their snapshot's header rather than copied into it.
const EMBED_LIMIT: usize = 2000;

/// Snapshots every input of a problem crate's suite (`crate_dir` is its folder):
/// `run(input, flags)` for each of its runs, into the crate's `tests/snapshots/`.
///
/// # Panics
/// After checking every input, when some snapshot differs (insta prints each difference as
/// it goes) or a snapshot's input file is gone.
pub fn snapshot_suite(crate_dir: &str, run: impl Fn(&[u8], &[String]) -> Result<Output, RunError>) {
    let files = suite(crate_dir);
    let suite = crate_name(crate_dir);
    let suite = suite.as_str();
    let snapshots = Path::new(crate_dir).join("tests").join("snapshots");
    let mut differences = Vec::new();
    for file in &files {
        let mut text = describe(&file.input);
        for flags in &file.runs {
            let command = [suite].into_iter().chain(flags.iter().map(String::as_str));
            text.push_str(&format!("---- {} ----\n", command.collect::<Vec<_>>().join(" ")));
            text.push_str(&render(run(&file.input, flags)));
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(&snapshots);
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_input_file(&file.path);
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            settings.bind(|| insta::assert_snapshot!(file.name.clone(), text));
        }));
        if checked.is_err() {
            differences.push(file.name.clone());
        }
    }
    let orphans = orphan_snapshots(&snapshots, &files);
    assert!(
        differences.is_empty() && orphans.is_empty(),
        "suite {suite}: snapshots differ for {differences:?}; snapshots without an input: \
         {orphans:?}; review the differences above, then run `cargo xtask snapshot`"
    );
}

/// The input as a snapshot shows it above the outputs: the text itself when it is short and
/// readable, else its size.
fn describe(input: &[u8]) -> String {
    match std::str::from_utf8(input) {
        Ok(text) if text.len() <= EMBED_LIMIT => {
            let text = text.trim_end();
            format!("---- input ----\n{text}{}", if text.is_empty() { "" } else { "\n" })
        }
        _ => format!("---- input: {} bytes, see input_file ----\n", input.len()),
    }
}

/// Snapshot files of the folder whose input is gone.
fn orphan_snapshots(snapshots: &Path, files: &[DataFile]) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(snapshots) else { return Vec::new() };
    let mut orphans: Vec<String> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "snap"))
        .filter_map(|path| {
            let name = path.file_stem()?.to_string_lossy().into_owned();
            (!files.iter().any(|f| f.name == name)).then_some(name)
        })
        .collect();
    orphans.sort();
    orphans
}

/// Runs `program` (a binary under test, from `env!("CARGO_BIN_EXE_...")`) with `args`,
/// feeding `stdin`, and returns its exit status and both outputs.
///
/// # Panics
/// When the binary cannot start or be waited for. A binary that exits before reading its
/// stdin (a missing file, a bad option) closes the pipe; that is not a failure here, the exit
/// status tells the rest.
#[must_use]
pub fn run_binary(program: &str, args: &[&str], stdin: &[u8]) -> std::process::Output {
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

/// Runs `program` on `input` written to a temporary file passed as its last argument: the
/// file form of every binary.
///
/// # Panics
/// When the temporary file cannot be written or the binary cannot run.
#[must_use]
pub fn run_binary_on_file(program: &str, args: &[&str], input: &[u8]) -> std::process::Output {
    let name = Path::new(program).file_name().map_or("input".into(), |n| n.to_string_lossy());
    let path = std::env::temp_dir().join(format!("{name}-{}.in", std::process::id()));
    std::fs::write(&path, input).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    let path_text = path.to_string_lossy().into_owned();
    let mut all: Vec<&str> = args.to_vec();
    all.push(&path_text);
    let output = run_binary(program, &all, b"");
    let _ = std::fs::remove_file(&path);
    output
}

/// Runs `program` with standard input redirected from `stdin`, an open file, from its offset
/// on (`program < file`, as judges run programs).
///
/// # Panics
/// When the binary cannot run.
#[must_use]
pub fn run_binary_with_stdin_file(
    program: &str,
    args: &[&str],
    stdin: std::fs::File,
) -> std::process::Output {
    Command::new(program)
        .args(args)
        .stdin(stdin)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

/// Asserts that `program` rejects `input` the way every binary must: exit code 2, nothing on
/// stdout, and exactly `message` (one `error: ...` line) on stderr.
///
/// # Panics
/// When the binary does anything else.
pub fn assert_rejects(program: &str, args: &[&str], input: &[u8], message: &str) {
    let output = run_binary(program, args, input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{program} {args:?} on {input:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{program} printed on stdout for a bad input");
    assert_eq!(stderr, format!("{message}\n"), "{program} {args:?} on {input:?}");
}

/// Exit code, stdout and stderr of one run of a binary, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Ran {
    /// The text form of a finished process.
    ///
    /// # Panics
    /// When the process was killed by a signal: the binaries under test exit by themselves.
    #[must_use]
    pub fn of(output: &std::process::Output) -> Self {
        Self {
            code: output.status.code().expect("the binary exits by itself"),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// A fresh, empty folder for one test in the system's temporary folder, named after the
/// process and `PREFIX-NAME` so that concurrent tests and test runs never share one, and
/// removed when the test ends ([`TestDir`]).
///
/// # Panics
/// When the temporary folder is not writable.
#[must_use]
pub fn scratch_dir(prefix: &str, name: &str) -> TestDir {
    TestDir::new(&format!("{prefix}-{name}"))
}

/// Writes `text` to `dir/name` and returns the path as text. The file is written aside and
/// renamed into place ([`engine::fs::write_aside`]), so a program another test runs never
/// reads half of it.
///
/// # Panics
/// When the folder is not writable.
#[must_use]
pub fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    engine::fs::write_aside(&path, text.as_bytes()).expect("the scratch folder is writable");
    path.display().to_string()
}

/// Runs `program check INPUT OUTPUT`, then the same with `ANSWER` (the file `answer`), for
/// each `(output, code, message)` of `cases` (the output written to `dir/out`), and asserts
/// the exit code, the one line on stderr and an empty stdout: a checker judges alike with
/// our answer and with the jury's.
///
/// # Panics
/// When a run differs.
pub fn assert_check_verdicts(
    program: &str,
    dir: &Path,
    input: &str,
    answer: &str,
    cases: &[(&str, i32, &str)],
) {
    for &(output, code, message) in cases {
        let output = write_file(dir, "out", output);
        for with_answer in [false, true] {
            let mut args = vec!["check", input, &output];
            if with_answer {
                args.push(answer);
            }
            let ran = Ran::of(&run_binary(program, &args, b""));
            assert_eq!((ran.code, ran.stderr.trim_end()), (code, message), "{args:?}");
            assert!(ran.stdout.is_empty(), "testlib says nothing on stdout");
        }
    }
}
