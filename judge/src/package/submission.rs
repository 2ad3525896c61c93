//! Submissions as judges compile them: C++ (`.cpp`, `.cc`) with `g++ -O2 -std=gnu++17`, as
//! DOMjudge's and Kattis's C++ (whose standard is newer: gnu++17 is the oldest a setter's
//! program is likely to need), and Python 3 (`.py`) run after a syntax check by `pypy3`, as
//! problemtools and Kattis run it, when it is on `PATH`, else by `python3`;
//! any other language is refused with the list of those supported. A problem with a
//! function [`Interface`] has its header and grader copied beside each C++ submission and
//! compiled with it, as Kattis copies a package's `include/cpp/` (problemtools'
//! `run/source.py`): the grader's weak `main` serves a function-style submission and gives
//! way to a submission's own.
//!
//! A setter's files go into the package under their own names, so a name must be one the
//! package format allows ([`file_name_ok`](super::kattis::file_name_ok)); the stem names the
//! test that kills the submission (`kills-greedy`).
//!
//! [`build_command`] is the same compilation for the command line: `stress`, `shrink` and
//! `run` take a source file for COMMAND (`-- train.cpp`).

#[cfg(feature = "cli")]
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::kattis::file_name_ok;
use super::{Interface, PackageError};
#[cfg(feature = "cli")]
use crate::sandbox::Folder;
use crate::sandbox::{Program, Sandbox};
#[cfg(feature = "cli")]
use crate::text::shell_quote;

/// The languages a submission may be written in, in words, for messages and help.
pub(crate) const SUPPORTED: &str =
    "C++ (.cpp, .cc: g++ -O2 -std=gnu++17) and Python 3 (.py: python3)";

/// A submission's language, from its file name's ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    /// `.cpp` or `.cc`, compiled with `g++ -O2 -std=gnu++17`.
    Cpp,
    /// `.py`, run with `pypy3` or `python3` ([`python_interpreter`]).
    Python,
}

impl Language {
    /// The language of `source`, by its ending; `None` for a language not supported.
    #[must_use]
    pub(crate) fn of(source: &Path) -> Option<Self> {
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
pub(crate) struct Submission {
    /// The copy of the source that was compiled and runs, alone in a folder of its own: the
    /// package holds its bytes.
    pub source: PathBuf,
    /// Its file name, kept in the package: `greedy.cpp`.
    pub file_name: String,
    /// The file name without its ending: `greedy`.
    pub stem: String,
    /// What the setter says it is.
    pub role: Role,
    /// How to run it.
    pub program: Program,
}

/// Compiles `source` (a `role` submission) into `build_dir`: C++ with g++ (with
/// `interface`'s header and grader beside it), Python checked for syntax by the interpreter
/// that runs it ([`python_interpreter`]).
/// `O(the compiler's time)`.
///
/// # Errors
/// The file name does not fit the package format, the language is not supported, the
/// compiler cannot be started, or the source does not compile.
pub(crate) fn compile(
    sandbox: &Sandbox,
    source: &Path,
    role: Role,
    build_dir: &Path,
    interface: Option<&Interface>,
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
            let mut sources = vec![source.clone()];
            if let Some(interface) = interface {
                sources.extend(write_interface(interface, &folder)?);
            }
            let binary = folder.join("program");
            compile_cpp_as(Some(sandbox), &sources, &given, &binary)?;
            Program::new(&[binary])
        }
        Language::Python => {
            let python = python_interpreter();
            check_python(sandbox, python, &source, &given)?;
            Program::new(&[Path::new(python), &source])
        }
    };
    Ok(Submission { source, file_name, stem, role, program })
}

/// Writes `interface`'s files into `folder`; returns the grader's path.
fn write_interface(interface: &Interface, folder: &Path) -> Result<Option<PathBuf>, PackageError> {
    let mut grader = None;
    for (name, text) in interface.files() {
        let path = folder.join(name);
        std::fs::write(&path, text)
            .map_err(|e| PackageError::Io { path: path.clone(), source: e })?;
        if Language::of(&path) == Some(Language::Cpp) {
            grader = Some(path);
        }
    }
    Ok(grader)
}

/// The interpreter a package runs a `.py` submission with: `pypy3` when it is on `PATH`, as
/// problemtools and Kattis run Python 3 (problemtools' `languages.yaml`: `pypy3
/// "{mainfile}"`), so that the time limit and the verdicts follow the times the judge will
/// measure; else `python3` (CPython), which the build's summary says. `O(PATH's folders)`.
pub(crate) fn python_interpreter() -> &'static str {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(PYPY).is_file()));
    if on_path { PYPY } else { "python3" }
}

/// The Python 3 interpreter problemtools and Kattis run a `.py` submission with.
pub const PYPY: &str = "pypy3";

/// Checks the Python file `source` (a copy of `given`) for syntax with `python`: parsing
/// without running, and without writing `__pycache__` beside it.
fn check_python(
    sandbox: &Sandbox,
    python: &'static str,
    source: &Path,
    given: &Path,
) -> Result<(), PackageError> {
    let check = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')";
    let args = [Path::new("-c").as_os_str(), check.as_ref(), source.as_os_str()];
    run_compiler(Some(sandbox), source, given, python, &args)
}

/// A program built from a source file for the command line, and the folder its binary is
/// in, removed when this is dropped.
#[cfg(feature = "cli")]
#[derive(Debug)]
pub(crate) struct BuiltProgram {
    /// The program: the binary (or `python3 SOURCE`) and the arguments given after the
    /// source, named in messages by the command as given.
    pub program: Program,
    /// How it was built, for a line of the output: `g++ -O2 -std=gnu++17 -o train
    /// train.cpp grader.cpp`, or `python3 sol.py (syntax checked)`.
    pub how: String,
    /// The scratch folder of a compiled binary.
    _folder: Option<Folder>,
}

/// When `command`'s first word is a source file (a name ending in `.cpp`, `.cc` or `.py`),
/// builds it as `package` builds a submission, the rest of `command` its arguments: C++
/// compiled alone in a scratch folder of `sandbox`'s (removed when the result is dropped),
/// and linked with `interface`'s grader when it has no `main` of its own (a function-style
/// program: the grader's `main` calls its function); Python run by `python3` after a syntax
/// check. `Ok(None)` when `command` is a program. Its shell line for reports names
/// `problem`'s binary, whose `interface .` writes the grader. `O(the compiler's time)`.
///
/// # Errors
/// The source cannot be read, the compiler cannot be started, or the source does not
/// compile (or has no `main` and the problem no grader).
#[cfg(feature = "cli")]
pub(crate) fn build_command(
    sandbox: &Sandbox,
    command: &[OsString],
    problem: &str,
    interface: Option<&Interface>,
) -> Result<Option<BuiltProgram>, PackageError> {
    let Some((first, args)) = command.split_first() else { return Ok(None) };
    let given = Path::new(first);
    let Some(language) = Language::of(given) else { return Ok(None) };
    let absolute = std::path::absolute(given)
        .map_err(|e| PackageError::Io { path: given.to_owned(), source: e })?;
    if !absolute.is_file() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such source file");
        return Err(PackageError::Io { path: given.to_owned(), source });
    }
    let quote = |word: &OsString| shell_quote(&word.to_string_lossy());
    let shown = quote(first);
    let arguments: String = args.iter().map(|a| format!(" {}", quote(a))).collect();
    let display = format!("{shown}{arguments}");
    match language {
        Language::Python => {
            check_python(sandbox, "python3", &absolute, given)?;
            let mut words = vec![OsString::from("python3"), absolute.into_os_string()];
            words.extend(args.iter().cloned());
            let how = format!("python3 {shown} (its syntax checked)");
            let program = Program::new(&words)
                .shown_as(format!("python3 {display}"), format!("python3 {display}"));
            Ok(Some(BuiltProgram { program, how, _folder: None }))
        }
        Language::Cpp => {
            // A package's scratch folder: the next judge removes it should this one be
            // killed outright.
            let temp = std::env::temp_dir();
            let folder = sandbox
                .fresh_folder(&temp, "judge-package-")
                .map_err(|source| PackageError::Io { path: temp.clone(), source })?;
            let stem = (given.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "program".to_owned());
            let source = folder.path().join(format!("{stem}.cpp"));
            std::fs::copy(&absolute, &source)
                .map_err(|e| PackageError::Io { path: given.to_owned(), source: e })?;
            let binary = folder.path().join(&stem);
            let grader = match interface {
                Some(interface) => write_interface(interface, folder.path())?,
                None => None,
            };
            // Its own `main` first; without one, the grader's.
            let alone =
                compile_cpp_as(Some(sandbox), std::slice::from_ref(&source), given, &binary);
            let with = match (alone, &grader) {
                (Ok(()), _) => None,
                (Err(PackageError::Compile { messages, .. }), Some(grader))
                    if messages.contains("undefined reference to `main'") =>
                {
                    compile_cpp_as(Some(sandbox), &[source, grader.clone()], given, &binary)?;
                    grader.file_name().map(|g| g.to_string_lossy().into_owned())
                }
                (Err(e), _) => return Err(e),
            };
            let stem = shell_quote(&stem);
            let how = match &with {
                None => format!("g++ -O2 -std=gnu++17 -o {stem} {shown}"),
                // The header beside the source comes first; else the one in this folder.
                Some(grader) if given.parent().is_some_and(|p| !p.as_os_str().is_empty()) => {
                    format!("g++ -O2 -std=gnu++17 -I . -o {stem} {shown} {grader}")
                }
                Some(grader) => format!("g++ -O2 -std=gnu++17 -o {stem} {shown} {grader}"),
            };
            // The grader and its header come from `PROBLEM interface .`.
            let interface =
                if with.is_some() { format!("{problem} interface . && ") } else { String::new() };
            let run_line = format!("{interface}{how} && ./{stem}{arguments}");
            let mut words = vec![binary.into_os_string()];
            words.extend(args.iter().cloned());
            let program = Program::new(&words).shown_as(display, run_line);
            Ok(Some(BuiltProgram { program, how, _folder: Some(folder) }))
        }
    }
}

/// Compiles the C++ file `source` into `binary` with `g++ -O2 -std=gnu++17`, as judges do.
///
/// # Errors
/// g++ cannot be started, or the source does not compile (its messages' end in the error).
pub fn compile_cpp(source: &Path, binary: &Path) -> Result<(), PackageError> {
    compile_cpp_as(None, &[source.to_owned()], source, binary)
}

/// [`compile_cpp`] of `sources` (a copy of `given`, which errors name, and files beside
/// it); a signal `sandbox` caught is what stopped a compiler that fails.
fn compile_cpp_as(
    sandbox: Option<&Sandbox>,
    sources: &[PathBuf],
    given: &Path,
    binary: &Path,
) -> Result<(), PackageError> {
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["-O2".as_ref(), "-std=gnu++17".as_ref(), "-o".as_ref(), binary.as_os_str()];
    args.extend(sources.iter().map(|s| s.as_os_str()));
    run_compiler(sandbox, &sources[0], given, "g++", &args)
}

/// Runs `compiler` with `args` on `copy`, a copy of `given`; its messages' end is the error
/// when it fails.
fn run_compiler(
    sandbox: Option<&Sandbox>,
    copy: &Path,
    given: &Path,
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
    // The messages name the file as given, not the copy compiled.
    let messages = String::from_utf8_lossy(&output.stderr)
        .replace(&copy.display().to_string(), &given.display().to_string());
    let lines: Vec<&str> = messages.lines().collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    Err(PackageError::Compile { file: given.to_owned(), compiler, messages: tail })
}
