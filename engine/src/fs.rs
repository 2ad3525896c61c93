//! Files written whole or not at all: [`write_aside`] writes a file beside its place, then
//! renames it into place, so that a reader never sees half of it and a failed write leaves
//! nothing behind; [`WriteError`] names the file that could not be written.
//!
//! The rename is atomic because the file beside its place is in the same folder, hence on the
//! same file system. The name beside it holds the process id and a count of this process's
//! writes, so that processes and threads writing the same file at once never share one; the
//! last rename wins, and every reader sees one whole file.

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A file that could not be written: which file, and the system's reason as its
/// [`source`](std::error::Error::source). It reads `cannot write PATH: REASON`.
#[derive(Clone, Debug)]
pub struct WriteError {
    path: PathBuf,
    // Shared, so that the error can be cloned as the run errors that carry it are.
    source: Arc<io::Error>,
}

impl WriteError {
    /// The file that could not be written, as it was asked for (never the name beside it).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl fmt::Display for WriteError {
    // The reason is part of the message, since a binary prints only the top error's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.source.as_ref())
    }
}

/// Two write errors are equal when they name the same file and the system gave the same
/// reason (an `io::Error` itself cannot be compared).
impl PartialEq for WriteError {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
            && self.source.kind() == other.source.kind()
            && self.source.to_string() == other.source.to_string()
    }
}

impl Eq for WriteError {}

/// Writes `bytes` to `path` whole or not at all (module notes). `O(bytes)`.
///
/// # Errors
/// The file beside `path` cannot be created or written, or cannot be renamed to `path`;
/// nothing is left beside it then.
pub fn write_aside(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_aside_with(path, |out| out.write_all(bytes))
}

/// [`write_aside`] for contents written piece by piece: `write` writes them through a
/// buffer, so that a large file is never held in memory whole. `O(what write writes)`.
///
/// # Errors
/// As [`write_aside`], or `write`'s own error; nothing is left beside `path` then.
pub fn write_aside_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), WriteError> {
    /// Writes of this process so far, to tell its files beside their places apart.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let mut aside = path.as_os_str().to_owned();
    let write_number = WRITES.fetch_add(1, Ordering::Relaxed);
    aside.push(format!(".{}-{write_number}.partial", std::process::id()));
    let aside = PathBuf::from(aside);
    let written = File::create(&aside)
        .and_then(|file| {
            let mut out = BufWriter::new(file);
            write(&mut out)?;
            out.flush()
        })
        .and_then(|()| std::fs::rename(&aside, path));
    written.map_err(|source| {
        let _ = std::fs::remove_file(&aside);
        WriteError { path: path.to_path_buf(), source: Arc::new(source) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_written_whole_and_nothing_is_left_beside_it() {
        let dir = std::env::temp_dir().join(format!("engine-write-aside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file.txt");
        write_aside(&path, b"first").unwrap();
        write_aside(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        write_aside_with(&path, |out| {
            out.write_all(b"in ").and_then(|()| out.write_all(b"pieces"))
        })
        .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"in pieces");
        // A failed write names the file, keeps the system's reason as its source, and leaves
        // the file that was there and nothing beside it.
        let failed = write_aside_with(&path, |out| {
            out.write_all(b"half").and(Err(io::Error::other("full")))
        })
        .unwrap_err();
        assert_eq!(failed.to_string(), format!("cannot write {}: full", path.display()));
        assert_eq!(failed.path(), path);
        let source = std::error::Error::source(&failed).unwrap();
        assert_eq!(source.downcast_ref::<io::Error>().unwrap().kind(), io::ErrorKind::Other);
        assert_eq!(std::fs::read(&path).unwrap(), b"in pieces");
        let nowhere = dir.join("no").join("such.txt");
        let missing = write_aside(&nowhere, b"x").unwrap_err();
        assert_eq!(missing.source.kind(), io::ErrorKind::NotFound);
        assert_eq!(missing, missing.clone());
        assert_ne!(missing, failed);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only the file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
