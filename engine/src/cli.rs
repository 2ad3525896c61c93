//! What the thin binaries share (feature `cli`): the input file or standard input,
//! `--threads`, printing an [`Output`], and the conventions for reporting errors (one
//! `error: ...` line on stderr, the [`RunError`]'s exit code).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::driver::DriverOptions;
use crate::run::{EXIT_BAD_INPUT, Output, RunError};

/// Arguments every batch binary takes.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct BatchArgs {
    /// Input file in the judge's format; standard input when absent.
    pub file: Option<PathBuf>,
    /// Worker threads [default: the RAYON_NUM_THREADS variable, else all cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Never draw the progress bar (it only appears on a terminal after about a second).
    #[arg(long)]
    pub no_progress: bool,
}

impl BatchArgs {
    /// The driver options these arguments ask for.
    #[must_use]
    pub fn driver_options(&self) -> DriverOptions {
        DriverOptions { threads: self.threads.map(usize::from), progress: !self.no_progress }
    }

    /// Reads the whole input: the file if one was given, else standard input.
    ///
    /// # Errors
    /// The file or stdin cannot be read; the message names the file.
    pub fn read_input(&self) -> Result<Vec<u8>, ReadError> {
        read_input(self.file.as_deref())
    }
}

/// An input that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {name}: {source}")]
pub struct ReadError {
    name: String,
    source: io::Error,
}

/// Reads all of `file`, or of standard input when `None`.
///
/// # Errors
/// The file or stdin cannot be read; the message names the file.
pub fn read_input(file: Option<&Path>) -> Result<Vec<u8>, ReadError> {
    match file {
        Some(path) => std::fs::read(path)
            .map_err(|source| ReadError { name: path.display().to_string(), source }),
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|source| ReadError { name: "standard input".into(), source })?;
            Ok(bytes)
        }
    }
}

/// Writes `bytes` to stdout in one go. A closed pipe (`| head`) is not an error.
///
/// # Errors
/// Any other write failure.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Prints `error: {err}` on stderr and exits with `code`.
#[allow(clippy::print_stderr, reason = "this is the binaries' one way to report an error")]
pub fn exit_with(code: i32, err: &dyn std::fmt::Display) -> ! {
    eprintln!("error: {err}");
    std::process::exit(code)
}

/// Prints `error: {err}` on stderr and exits with [`EXIT_BAD_INPUT`]: for arguments and
/// files the user can fix.
pub fn exit_with_error(err: &dyn std::fmt::Display) -> ! {
    exit_with(EXIT_BAD_INPUT, err)
}

/// Ends a binary: prints a run's output (stdout, then its stderr lines) and exits 0, or
/// prints its error and exits with the error's code.
#[allow(clippy::print_stderr, reason = "--stats lines go to stderr")]
pub fn finish(result: Result<Output, RunError>) -> ! {
    match result {
        Ok(output) => {
            eprint!("{}", output.stderr);
            if let Err(e) = write_stdout(&output.stdout) {
                exit_with_error(&format!("cannot write the output: {e}"));
            }
            std::process::exit(0)
        }
        Err(e) => exit_with(e.exit_code(), &e),
    }
}
