//! Tidy checks of the architecture's invariants: the engine knows no problem, problem crates
//! never depend on each other, and every source file opens with a `//!` line.

use std::path::{Path, PathBuf};

const PROBLEMS: [&str; 3] = ["hero-battle", "toy-train", "card-duel"];

fn root() -> PathBuf {
    tests::tests_dir().parent().expect("tests/ sits in the workspace").to_path_buf()
}

/// The names in a manifest's `[dependencies]`, `[dev-dependencies]` and
/// `[build-dependencies]` tables.
fn dependencies(crate_dir: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join(crate_dir).join("Cargo.toml"))
        .unwrap_or_else(|e| panic!("{crate_dir}/Cargo.toml: {e}"));
    let mut in_deps = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line.ends_with("dependencies]");
        } else if in_deps
            && !line.starts_with('#')
            && let Some((name, _)) = line.split_once('=')
        {
            names.push(name.trim().trim_end_matches(".workspace").to_owned());
        }
    }
    names
}

#[test]
fn the_engine_knows_no_problem() {
    let deps = dependencies("engine");
    assert!(deps.iter().any(|d| d == "rayon"), "the manifest parser found the engine's deps");
    for problem in PROBLEMS {
        assert!(!deps.iter().any(|d| d == problem), "engine depends on {problem}");
    }
}

#[test]
fn problem_crates_never_depend_on_each_other() {
    for problem in PROBLEMS {
        let deps = dependencies(problem);
        assert!(deps.iter().any(|d| d == "engine"), "{problem} builds on the engine");
        for other in PROBLEMS.iter().filter(|&&o| o != problem) {
            assert!(!deps.iter().any(|d| d == other), "{problem} depends on {other}");
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            let name = path.file_name().unwrap_or_default();
            if name != "target" && name != "snapshots" && name != "data" {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_source_file_says_what_it_holds() {
    let mut files = Vec::new();
    for dir in ["engine", "xtask", "tests"].iter().chain(PROBLEMS.iter()) {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() >= 20, "found only {} source files", files.len());
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap_or_default().starts_with("//!"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a leading `//!` line: {missing:#?}");
}
