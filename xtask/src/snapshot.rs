//! `cargo xtask snapshot [--check]`: regenerate or verify every insta snapshot of the
//! workspace.
//!
//! Every test that asserts a snapshot is named `snapshot_*` (the tidy test checks it), so one
//! `cargo test --workspace -- snapshot_` runs them all: each problem crate's file-driven suite
//! (inputs in `CRATE/tests/data/`, snapshots in `CRATE/tests/snapshots/`; the problems come
//! from the registry, `tests::registry`) and the judge's reports
//! (`judge/tests/end_to_end/snapshots/`). Regenerating forces insta to write
//! every snapshot a test asserts, so a snapshot file not written by the run belongs to no test
//! and is removed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::TaskResult;
use crate::measure::workspace_root;

/// The judge's snapshot folder, relative to the workspace root; each problem crate's is its
/// `tests/snapshots/`.
const JUDGE_SNAPSHOTS: &str = "judge/tests/end_to_end/snapshots";

/// Regenerates every snapshot (`check == false`) or verifies them, writing nothing.
pub fn run(check: bool) -> TaskResult {
    let root = workspace_root();
    let started = SystemTime::now();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut test = Command::new(cargo);
    test.args(["test", "--quiet", "--workspace", "--", "snapshot_"]).current_dir(&root);
    if check {
        test.env("INSTA_UPDATE", "no").env_remove("INSTA_FORCE_PASS");
    } else {
        test.env("INSTA_UPDATE", "always").env("INSTA_FORCE_UPDATE", "1").env_remove("CI");
    }
    let status = test.status().map_err(|e| format!("cannot run cargo test: {e}"))?;
    match (status.success(), check) {
        (true, true) => {
            println!("snapshots are up to date");
            Ok(())
        }
        (true, false) => {
            remove_unwritten(&root.join(JUDGE_SNAPSHOTS), started)?;
            for problem in tests::registry::problems() {
                remove_unwritten(&problem.dir.join("tests").join("snapshots"), started)?;
            }
            println!("snapshots regenerated; review them with `git diff`");
            Ok(())
        }
        (false, true) => {
            Err("snapshots differ from the code (see above); run `cargo xtask snapshot` \
             to regenerate them, review with `git diff`, and commit"
                .into())
        }
        (false, false) => {
            Err("the snapshot tests failed for a reason other than a difference".into())
        }
    }
}

/// Deletes the snapshots under `folder` that the forced regeneration did not write (no test
/// asserts them any more), and insta's leftover `.snap.new` files.
fn remove_unwritten(folder: &Path, started: SystemTime) -> TaskResult {
    let mut files = Vec::new();
    snapshot_files(folder, &mut files);
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let written = path.metadata().and_then(|m| m.modified()).is_ok_and(|t| t >= started);
        if name.ends_with(".snap.new") || (name.ends_with(".snap") && !written) {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            println!("removed {}", path.display());
        }
    }
    Ok(())
}

/// Every file under `folder`, recursively.
fn snapshot_files(folder: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() { snapshot_files(&path, out) } else { out.push(path) }
    }
}
