//! `cargo xtask snapshot [--check]`: regenerate or verify the file-driven insta snapshots.
//!
//! Inputs live in `tests/data/SUITE/NAME.in`, snapshots in `tests/snapshots/SUITE/NAME.snap`;
//! the snapshot tests are the `snapshot_*` functions of the `tests` package.

use std::path::Path;
use std::process::Command;

use crate::TaskResult;
use crate::measure::workspace_root;

/// Regenerates every snapshot (`check == false`) or verifies them, writing nothing.
pub fn run(check: bool) -> TaskResult {
    let root = workspace_root();
    if !check {
        remove_orphans(&root.join("tests"))?;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut test = Command::new(cargo);
    test.args(["test", "--quiet", "--package", "tests", "--", "snapshot_"]).current_dir(&root);
    if check {
        test.env("INSTA_UPDATE", "no").env_remove("INSTA_FORCE_PASS");
    } else {
        test.env("INSTA_UPDATE", "always").env_remove("CI");
    }
    let status = test.status().map_err(|e| format!("cannot run cargo test: {e}"))?;
    match (status.success(), check) {
        (true, true) => {
            println!("snapshots are up to date");
            Ok(())
        }
        (true, false) => {
            println!("snapshots regenerated under tests/snapshots; review them with `git diff`");
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

/// Deletes snapshots whose input file is gone, and insta's leftover `.snap.new` files.
fn remove_orphans(tests: &Path) -> TaskResult {
    let Ok(suites) = std::fs::read_dir(tests.join("snapshots")) else { return Ok(()) };
    for suite in suites.flatten() {
        let data = tests.join("data").join(suite.file_name());
        let Ok(snaps) = std::fs::read_dir(suite.path()) else { continue };
        for snap in snaps.flatten() {
            let path = snap.path();
            let name =
                path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let stale = match name.strip_suffix(".snap") {
                Some(stem) => !data.join(format!("{stem}.in")).exists(),
                None => name.ends_with(".snap.new"),
            };
            if stale {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
                println!("removed {}", path.display());
            }
        }
    }
    Ok(())
}
