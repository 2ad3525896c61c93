//! Scratch folders for tests that leave nothing behind: each test's folder goes when the test
//! ends (a failing test's stays for a look), and the first scratch folder a test process
//! makes removes those of test processes that have ended (failed or killed).

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// What every scratch folder's name starts with, before the process id.
const PREFIX: &str = "judge-test-";

/// A fresh, empty folder for one test, `$TMPDIR/judge-test-PID-NAME`, removed with its
/// contents when dropped, unless the thread is panicking (a failing test's files stay for a
/// look, until a later test process removes them).
#[derive(Debug)]
pub struct TestDir(PathBuf);

impl TestDir {
    /// Makes the folder for `name` (unique among the process's live folders), emptied if it
    /// was left by an earlier test of this process.
    ///
    /// # Panics
    /// When the temporary folder is not writable.
    #[must_use]
    pub fn new(name: &str) -> Self {
        static SWEEP: Once = Once::new();
        SWEEP.call_once(remove_ended);
        let dir = std::env::temp_dir().join(format!("{PREFIX}{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
        Self(dir)
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Deref for TestDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Removes the scratch folders of test processes that no longer run (Linux: `/proc/PID`;
/// elsewhere nothing is removed, as a live process cannot be told from an ended one).
fn remove_ended() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_dir_is_fresh_and_goes_when_dropped() {
        let dir = TestDir::new("scratch-self-test");
        std::fs::write(dir.join("f"), "x").unwrap();
        let path = dir.path().to_owned();
        drop(dir);
        assert!(!path.exists());
        let again = TestDir::new("scratch-self-test");
        assert_eq!(std::fs::read_dir(again.path()).unwrap().count(), 0);
    }

    #[test]
    fn folders_of_ended_processes_are_removed() {
        // Process ids are below 2^22 on Linux: this one never runs.
        let ended = std::env::temp_dir().join(format!("{PREFIX}4194304999-old"));
        std::fs::create_dir_all(&ended).unwrap();
        remove_ended();
        assert!(!ended.exists());
    }
}
