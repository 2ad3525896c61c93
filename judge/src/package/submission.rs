//! Submissions as judges compile them: C++ (`.cpp`, `.cc`) with `g++ -O2 -std=gnu++17`, as
//! DOMjudge's and Kattis's C++ (whose standard is newer: gnu++17 is the oldest a setter's
//! program is likely to need), and Python 3 (`.py`) run by `python3` after a syntax check;
//! any other language is refused with the list of those supported.
//!
//! A setter's files go into the package under their own names, so a name must be one the
//! package format allows ([`file_name_ok`](super::kattis::file_name_ok)); the stem names the
//! test that kills the submission (`kills-greedy`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::PackageError;
use super::kattis::file_name_ok;
use crate::sandbox::{Program, Sandbox};

/// The languages a submission may be written in, in words, for messages and help.
pub const SUPPORTED: &str = "C++ (.cpp, .cc: g++ -O2 -std=gnu++17) and Python 3 (.py: python3)";

/// A submission's language, from its file name's ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// `.cpp` or `.cc`, compiled with `g++ -O2 -std=gnu++17`.
    Cpp,
    /// `.py`, run with `python3`.
    Python,
}

impl Language {
    /// The language of `source`, by its ending; `None` for a language not supported.
    #[must_use]
    pub fn of(source: &Path) -> Option<Self> {
        match source.extension().and_then(|e| e.to_str()) {
            Some("cpp" | "cc") => Some(Self::Cpp),
            Some("py") => Some(Self::Python),
            _ => None,
        }
    }
}

/// What a setter says a submission is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `--accepted`: right and fast enough; sets the time limit.
    Accepted,
    /// `--wrong`: gives a wrong answer (or crashes) on some input.
    Wrong,
    /// `--slow`: too slow on some input.
    Slow,
}

impl Role {
    /// `--accepted`, `--wrong`, `--slow`: the option that named it.
    #[must_use]
    pub fn option(self) -> &'static str {
        match self {
            Self::Accepted => "--accepted",
            Self::Wrong => "--wrong",
            Self::Slow => "--slow",
        }
    }
}

/// A submission, compiled and ready to run.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The copy of the source that was compiled and runs, alone in a folder of its own: the
    /// package holds its bytes.
    pub source: PathBuf,
    /// Its file name, kept in the package: `greedy.cpp`.
    pub file_name: String,
    /// The file name without its ending: `greedy`.
    pub stem: String,
    /// What the setter says it is.
    pub role: Role,
    /// Its language.
    pub language: Language,
    /// How to run it.
    pub program: Program,
}

/// Compiles `source` (a `role` submission) into `build_dir`: C++ with g++, Python checked
/// for syntax by `python3`. `O(the compiler's time)`.
///
/// # Errors
/// The file name does not fit the package format, the language is not supported, the
/// compiler cannot be started, or the source does not compile.
pub(crate) fn compile(
    sandbox: &Sandbox,
    source: &Path,
    role: Role,
    build_dir: &Path,
) -> Result<Submission, PackageError> {
    let file_name = source.file_name().map(|n| n.to_string_lossy().into_owned());
    let file_name = file_name
        .filter(|name| file_name_ok(name))
        .ok_or_else(|| PackageError::FileName { file: source.to_owned() })?;
    let language =
        Language::of(source).ok_or_else(|| PackageError::Language { file: source.to_owned() })?;
    let stem = file_name.rsplit_once('.').map_or(file_name.as_str(), |(stem, _)| stem).to_owned();
    let given = std::path::absolute(source)
        .map_err(|e| PackageError::Io { path: source.to_owned(), source: e })?;
    // Compiled and run from a copy in a folder of its own, as the package holds it alone: a
    // file it includes or imports from beside it is missing there too, and it says so now.
    let folder = build_dir.join(format!("{}-{stem}", role.option().trim_start_matches('-')));
    std::fs::create_dir_all(&folder)
        .map_err(|e| PackageError::Io { path: folder.clone(), source: e })?;
    let source = folder.join(&file_name);
    std::fs::copy(&given, &source)
        .map_err(|e| PackageError::Io { path: given.clone(), source: e })?;
    let program = match language {
        Language::Cpp => {
            let binary = folder.join("program");
            compile_cpp_as(Some(sandbox), &source, &given, &binary)?;
            Program::new(&[binary])
        }
        Language::Python => {
            // Parsing without running, and without writing `__pycache__` beside the source.
            let check = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')";
            let args = [Path::new("-c").as_os_str(), check.as_ref(), source.as_os_str()];
            run_compiler(Some(sandbox), &given, "python3", &args)?;
            Program::new(&[Path::new("python3"), &source])
        }
    };
    Ok(Submission { source, file_name, stem, role, language, program })
}

/// Compiles the C++ file `source` into `binary` with `g++ -O2 -std=gnu++17`, as judges do.
///
/// # Errors
/// g++ cannot be started, or the source does not compile (its messages' end in the error).
pub fn compile_cpp(source: &Path, binary: &Path) -> Result<(), PackageError> {
    compile_cpp_as(None, source, source, binary)
}

/// [`compile_cpp`] of `source`, a copy of `given`, which errors name; a signal `sandbox` caught
/// is what stopped a compiler that fails.
fn compile_cpp_as(
    sandbox: Option<&Sandbox>,
    source: &Path,
    given: &Path,
    binary: &Path,
) -> Result<(), PackageError> {
    let args = [
        "-O2".as_ref(),
        "-std=gnu++17".as_ref(),
        "-o".as_ref(),
        binary.as_os_str(),
        source.as_os_str(),
    ];
    run_compiler(sandbox, given, "g++", &args)
}

/// Runs `compiler` with `args` on `source`; its messages' end is the error when it fails.
fn run_compiler(
    sandbox: Option<&Sandbox>,
    source: &Path,
    compiler: &'static str,
    args: &[&std::ffi::OsStr],
) -> Result<(), PackageError> {
    let output = Command::new(compiler)
        .args(args)
        .output()
        .map_err(|e| PackageError::Compiler { compiler, source: e })?;
    if output.status.success() {
        return Ok(());
    }
    // Ctrl-C reaches the compiler too (it is in our process group): it ended for that, not
    // for the source.
    if let Some(signal) = sandbox.and_then(Sandbox::caught) {
        return Err(PackageError::Interrupted(signal));
    }
    let messages = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = messages.lines().collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    Err(PackageError::Compile { file: source.to_owned(), compiler, messages: tail })
}
