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
        let threads = self.threads.map(usize::from).unwrap_or_else(default_threads);
        read_input(self.file.as_deref(), threads)
    }
}

/// An input that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {name}: {source}")]
pub struct ReadError {
    name: String,
    source: io::Error,
}

/// Reads all of `file`, or of standard input when `None`: a large regular file (standard
/// input redirected from one too) in `threads` pieces at once, onto huge pages; a pipe as it
/// comes. `O(bytes)`.
///
/// # Errors
/// The file or stdin cannot be read; the message names the file.
pub fn read_input(file: Option<&Path>, threads: usize) -> Result<Vec<u8>, ReadError> {
    match file {
        Some(path) => read_file(path, threads)
            .map_err(|source| ReadError { name: path.display().to_string(), source }),
        None => read_stdin(threads)
            .map_err(|source| ReadError { name: "standard input".into(), source }),
    }
}

/// The worker threads rayon starts by default: `RAYON_NUM_THREADS` when it is a positive
/// number, else the machine's parallelism.
fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Files smaller than this are read as they come: they hold at most one huge page.
const LARGE_FROM: u64 = 1 << 22;

/// Reads all of the file at `path` ([`read_open_file`]).
///
/// # Errors
/// The file cannot be opened or read.
fn read_file(path: &Path, threads: usize) -> io::Result<Vec<u8>> {
    read_open_file(&std::fs::File::open(path)?, threads)
}

/// Reads the rest of standard input. When it is a regular file (`solver < input`, as judges
/// run programs) it is read as [`read_open_file`] reads one, in `threads` pieces at once:
/// reading 34 MB through one thread into a growing buffer took 40 ms more than the pieces
/// did. A pipe is read as it comes.
///
/// # Errors
/// Standard input cannot be read.
fn read_stdin(threads: usize) -> io::Result<Vec<u8>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        // A second descriptor of the same open file shares its offset, so reading through it
        // is reading standard input.
        let stdin = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned()?);
        if stdin.metadata()?.is_file() {
            return read_open_file(&stdin, threads);
        }
    }
    let _ = threads;
    let mut bytes = Vec::new();
    io::stdin().lock().read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads `file` from its offset to its end, and leaves its offset at the end. A large regular
/// file lands in a buffer on huge pages, in `threads` pieces at once: copying tens of
/// megabytes out of the page cache, and faulting in the buffer they land in, is work the
/// batch's threads can share, and a 4 KiB page a fault would take three times as long (34 MB
/// with one thread: 22 to 38 ms before the advice). A file that changes size while it is
/// read is read again from the offset, sequentially.
///
/// # Errors
/// The file cannot be read.
fn read_open_file(mut file: &std::fs::File, threads: usize) -> io::Result<Vec<u8>> {
    use std::io::{Seek as _, SeekFrom};
    let metadata = file.metadata()?;
    // Standard input may have been read partly before; what is left starts at its offset.
    // Something that cannot seek is read as it comes.
    let offset = if metadata.is_file() { file.stream_position().ok() } else { None };
    #[cfg(unix)]
    if let Some(offset) = offset.filter(|&at| metadata.len().saturating_sub(at) >= LARGE_FROM) {
        use std::os::unix::fs::FileExt as _;
        let len = usize::try_from(metadata.len() - offset).map_err(io::Error::other)?;
        let mut bytes = vec![0; len];
        crate::memory::advise_huge_pages(&bytes);
        // At least a megabyte a piece: a thread costs more than copying less.
        let pieces = threads.min(len >> 20).max(1);
        let piece = len.div_ceil(pieces);
        let read_all = if pieces == 1 {
            file.read_exact_at(&mut bytes, offset).is_ok()
        } else {
            std::thread::scope(|scope| {
                let readers: Vec<_> = (bytes.chunks_mut(piece).enumerate())
                    .map(|(i, chunk)| {
                        scope.spawn(move || file.read_exact_at(chunk, offset + (i * piece) as u64))
                    })
                    .collect();
                readers.into_iter().all(|reader| reader.join().is_ok_and(|read| read.is_ok()))
            })
        };
        // Nothing may follow what the metadata promised; a file that shrank or grew meanwhile
        // is read again, as a whole.
        let mut probe = [0];
        if read_all && file.read_at(&mut probe, metadata.len())? == 0 {
            file.seek(SeekFrom::Start(metadata.len()))?;
            return Ok(bytes);
        }
        file.seek(SeekFrom::Start(offset))?;
    }
    let _ = (threads, offset);
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Writes `bytes` to stdout in one go. A closed pipe (`| head`) is not an error.
///
/// # Errors
/// Any other write failure.
fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Prints `error: {err}` on stderr and exits with `code`.
#[allow(clippy::print_stderr, reason = "this is the binaries' one way to report an error")]
fn exit_with(code: i32, err: &dyn std::fmt::Display) -> ! {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_read_in_pieces_is_the_file() {
        let dir = std::env::temp_dir().join(format!("engine-read-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for len in [0, 1, 1000, (1 << 22) - 1, 1 << 22, (1 << 22) + 12_345] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            let path = dir.join(format!("{len}.in"));
            std::fs::write(&path, &bytes).unwrap();
            for threads in [1, 2, 3, 8] {
                assert!(
                    read_file(&path, threads).unwrap() == bytes,
                    "{len} bytes, {threads} threads"
                );
                // Standard input redirected from a file that something read partly before:
                // the rest, and the offset left at the end.
                use std::io::{Seek as _, SeekFrom};
                let mut file = std::fs::File::open(&path).unwrap();
                let offset = len / 3;
                file.seek(SeekFrom::Start(offset as u64)).unwrap();
                assert!(
                    read_open_file(&file, threads).unwrap() == bytes[offset..],
                    "{len} bytes from {offset}, {threads} threads"
                );
                assert_eq!(file.stream_position().unwrap(), len as u64);
            }
        }
        let missing = dir.join("missing.in");
        assert!(read_file(&missing, 2).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
