//! Tests on disk: a folder of `NAME.in` files, each with its answer beside it (`NAME.ans`, a
//! problem package's `data/`; else `NAME.out`, online-judge-tools' `test/` and our own
//! samples; else none, and our solver answers, as `check` without ANSWER does), found in the
//! order Kattis's tools run them; and one test judged from its bytes, as
//! [`trial`](crate::trial()) judges a generated input: the program run under a judge's
//! limits ([`Sandbox::run`]), a run that did not end normally judged by how it ended
//! ([`run_verdict`]), else its output judged by the problem's rule against the test's answer
//! ([`check`]).
//!
//! `PROBLEM run TESTS -- COMMAND` is these two steps over a folder; `PROBLEM package` judges
//! every submission on its package's tests with [`judge_test`] too, so a verdict filed in a
//! package is the verdict `run` gives on the package's `data/`.

use std::io;
use std::path::{Path, PathBuf};

use super::trial::{Trial, run_verdict};
use crate::rules::{Limits, Problem, check};
use crate::sandbox::{ChildError, ChildOptions, Program, Sandbox};

/// One test on disk: its input and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFile {
    /// The input's path below the folder searched, without `.in`, with `/` between folders:
    /// `secret/group2/kills-greedy`.
    pub name: String,
    /// The input file.
    pub input: PathBuf,
    /// The answer file beside it (`NAME.ans`, else `NAME.out`); `None` when there is none,
    /// and our own answer is the answer.
    pub answer: Option<PathBuf>,
}

/// Why a folder of tests cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TestSetError {
    /// A folder cannot be listed.
    #[error("cannot read the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The folder holds no test.
    #[error("no test in {0}: no NAME.in in it or below it")]
    Empty(PathBuf),
}

/// Every test in `dir` and the folders below it, in the order Kattis's problemtools runs
/// them: the entries of each folder sorted by name, a folder's tests at its place in that
/// order (so `sample/` before `secret/`, and `secret/kills-x` before `secret/level-0-01`).
/// Hidden entries (a leading `.`) are skipped. `O(entries · log entries)`.
///
/// # Errors
/// A folder cannot be read, or there is no test at all.
pub fn find_tests(dir: &Path) -> Result<Vec<TestFile>, TestSetError> {
    let mut tests = Vec::new();
    collect(dir, "", &mut tests)?;
    if tests.is_empty() {
        return Err(TestSetError::Empty(dir.to_owned()));
    }
    Ok(tests)
}

/// Adds the tests of `dir` (whose names start with `prefix`) to `tests`, in order.
fn collect(dir: &Path, prefix: &str, tests: &mut Vec<TestFile>) -> Result<(), TestSetError> {
    let folder_error = |source| TestSetError::Folder { path: dir.to_owned(), source };
    let mut entries: Vec<(String, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(folder_error)? {
        let entry = entry.map_err(folder_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            entries.push((name, entry.path()));
        }
    }
    entries.sort();
    for (name, path) in entries {
        if path.is_dir() {
            collect(&path, &format!("{prefix}{name}/"), tests)?;
        } else if let Some(stem) = name.strip_suffix(".in") {
            let answer =
                ["ans", "out"].into_iter().map(|e| path.with_extension(e)).find(|a| a.is_file());
            tests.push(TestFile { name: format!("{prefix}{stem}"), input: path, answer });
        }
    }
    Ok(())
}

/// Runs `program` on `input` under `options` and judges the run: a run that did not exit
/// normally by how it ended (as [`trial`](crate::trial()) does), else its output by
/// `problem`'s rule against `answer`, the jury's answer, taken as it is (read strictly,
/// not solved again), or without one against our own. The input is read under the extended
/// limits, as `check` reads it. A malformed input or answer is a `fail` verdict.
///
/// Time: the program's run, plus parsing the input and the answer (or solving it) and one
/// judging pass.
///
/// # Errors
/// The program cannot be run, or a signal stopped the run (see [`ChildError`]).
pub(crate) fn judge_test<P: Problem>(
    sandbox: &Sandbox,
    problem: &P,
    program: &Program,
    input: &[u8],
    answer: Option<&[u8]>,
    options: &ChildOptions,
) -> Result<Trial, ChildError> {
    let run = sandbox.run(program, input, options)?;
    let verdict = run_verdict(program, &run, options).unwrap_or_else(|| {
        check(problem, input, &run.stdout, answer, Limits::Extended, false, false)
    });
    Ok(Trial { verdict, run, transcript: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_come_in_problemtools_order_and_need_their_answers() {
        let dir = std::env::temp_dir().join(format!("judge-testset-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for file in [
            "secret/level-0-01.in",
            "secret/level-0-01.ans",
            "secret/kills-x.in",
            "secret/kills-x.ans",
            "sample/1.in",
            "sample/1.out",
            "secret/group1/a.in",
            "secret/group1/a.ans",
            "secret/group1/a.out",
            "secret/group1/testdata.yaml",
            "secret/lone.in",
            "orphan.ans",
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a scratch folder");
            std::fs::write(&path, "1\n").expect("a scratch file");
        }
        let found = find_tests(&dir).expect("tests");
        let names: Vec<&str> = found.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["sample/1", "secret/group1/a", "secret/kills-x", "secret/level-0-01", "secret/lone"]
        );
        // NAME.ans, else NAME.out, else none (our own answer).
        let answers: Vec<Option<&str>> = (found.iter())
            .map(|t| t.answer.as_ref().and_then(|a| a.extension()).and_then(|e| e.to_str()))
            .collect();
        assert_eq!(answers, [Some("out"), Some("ans"), Some("ans"), Some("ans"), None]);
        let empty = dir.join("sample/empty");
        std::fs::create_dir_all(&empty).expect("a scratch folder");
        assert!(matches!(find_tests(&empty), Err(TestSetError::Empty(_))));
        std::fs::remove_dir_all(&dir).expect("the scratch folder is removed");
    }
}
