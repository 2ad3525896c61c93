//! The user's program: COMMAND as given, or a source file built as `package` builds a
//! submission ([`build_command`]: `stress -- train.cpp`), linked with the problem's grader
//! when it is a function-style program; and `PROBLEM interface DIR`, which writes a function
//! task's header and grader for the user's own builds.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{EXIT_PASSED, EXIT_TROUBLE};
use crate::package::{BuiltProgram, PackageError, Packaged, build_command};
use crate::sandbox::{Sandbox, exit_code};
use crate::text::shell_quote;

/// Builds `command` when it is a source file (see [`build_command`]), saying how on stderr;
/// `Ok(None)` for a program. The error is the exit code, the trouble said on stderr.
pub(super) fn build<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    command: &[OsString],
) -> Result<Option<BuiltProgram>, i32> {
    match build_command(sandbox, command, problem.name(), problem.interface().as_ref()) {
        Ok(built) => {
            if let Some(built) = &built {
                eprintln!("built: {}", built.how);
            }
            Ok(built)
        }
        Err(PackageError::Interrupted(signal)) => {
            eprintln!("interrupted by {} while building", crate::sandbox::signal(signal));
            Err(exit_code(signal))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(EXIT_TROUBLE)
        }
    }
}

/// `PROBLEM interface`: a function task's header and grader.
#[derive(Clone, Debug, clap::Args)]
pub struct InterfaceArgs {
    /// The folder to write them into (made if absent); a file there of the same name and
    /// other contents is refused, never overwritten.
    pub(crate) dir: PathBuf,
}

/// Runs `interface`: writes the problem's header and grader into the folder and says how to
/// build with them; a problem without a function interface is trouble (exit 2).
pub(super) fn run_interface<P: Packaged>(problem: &P, args: &InterfaceArgs) -> i32 {
    let Some(interface) = problem.interface() else {
        eprintln!(
            "error: {} has no function interface: as at its contest, a program reads the input \
             on stdin and writes its answer on stdout",
            problem.name()
        );
        return EXIT_TROUBLE;
    };
    let files: Vec<(PathBuf, &str)> =
        interface.files().iter().map(|&(name, text)| (args.dir.join(name), text)).collect();
    // Every file is checked before any is written: the folder gets both or neither.
    for (path, text) in &files {
        if let Ok(there) = std::fs::read(path)
            && there != text.as_bytes()
        {
            eprintln!(
                "error: {} exists and differs from {}'s: remove it, or name another folder",
                path.display(),
                problem.name()
            );
            return EXIT_TROUBLE;
        }
    }
    if let Err(e) = std::fs::create_dir_all(&args.dir) {
        eprintln!("error: {}: {e}", args.dir.display());
        return EXIT_TROUBLE;
    }
    for (path, text) in &files {
        if let Err(e) = engine::fs::write_aside(path, text.as_bytes()) {
            eprintln!("error: {e}");
            return EXIT_TROUBLE;
        }
    }
    println!("{}", interface_text(problem.name(), &interface, &args.dir));
    EXIT_PASSED
}

/// What `interface` says after writing the files into `dir`.
fn interface_text(problem: &str, interface: &crate::package::Interface, dir: &Path) -> String {
    let (header, grader) = (interface.header.0, interface.grader.0);
    let submission = interface.submission;
    let binary = submission.rsplit_once('.').map_or(submission, |(stem, _)| stem);
    let here = dir.as_os_str().is_empty() || dir == Path::new(".");
    let shown = |name: &str| {
        if here { name.to_owned() } else { shell_quote(&dir.join(name).display().to_string()) }
    };
    let include = if here {
        String::new()
    } else {
        format!(" -I {}", shell_quote(&dir.display().to_string()))
    };
    format!(
        "wrote {} and {} ({problem}'s function interface: {})\n\
         build a {submission} that includes \"{header}\" with the grader, which reads the input \
         and prints the answer:\n  g++ -O2 -std=gnu++17{include} -o {binary} {} {submission}\n\
         or hand {submission} to stress, shrink or run, which build it so: {problem} stress -- \
         {submission}",
        shown(header),
        shown(grader),
        interface.function,
        shown(grader),
    )
}
