//! The list of problems, named once: every workspace member whose manifest has a
//! `[package.metadata.problem]` table is a problem crate. The tidy test, xtask (snapshots,
//! benchmarks, examples) and CI read the list from here, through `cargo metadata`, so adding a
//! problem touches no list but the workspace's members.

use std::path::PathBuf;
use std::process::Command;

/// A problem crate, as `cargo metadata` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemCrate {
    /// The package's name, which is also its binary's: `hero-battle`.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its statement (`statement` in its problem table, from the crate's folder).
    pub statement: PathBuf,
    /// Its examples' names.
    pub examples: Vec<String>,
}

/// A workspace member, as `cargo metadata` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The package's name.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its examples' names.
    pub examples: Vec<String>,
    /// Its problem table's `statement` (from its folder), when it is a problem crate.
    pub statement: Option<String>,
    /// Whether `cargo publish` may publish it (not `publish = false`).
    pub publish: bool,
    /// Its manifest's `readme`, from its folder.
    pub readme: Option<String>,
}

/// Every workspace member, in the order of the workspace's `members`.
///
/// # Panics
/// When `cargo metadata` cannot run or says something unexpected.
#[must_use]
pub fn members() -> Vec<Member> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline"])
        .current_dir(super::workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let packages = metadata["packages"].as_array().expect("cargo metadata lists packages");
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    packages
        .iter()
        .map(|package| {
            let manifest = PathBuf::from(text(&package["manifest_path"]).expect("a manifest"));
            let targets = package["targets"].as_array().cloned().unwrap_or_default();
            let examples = targets
                .iter()
                .filter(|t| t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "example")))
                .filter_map(|t| text(&t["name"]))
                .collect();
            Member {
                name: text(&package["name"]).expect("a package has a name"),
                dir: manifest.parent().expect("a manifest sits in a folder").to_path_buf(),
                examples,
                statement: text(&package["metadata"]["problem"]["statement"]),
                // `null` for any registry, a list of registries otherwise (`[]`: none).
                publish: package["publish"].as_array().is_none_or(|r| !r.is_empty()),
                readme: text(&package["readme"]),
            }
        })
        .collect()
}

/// The problem crates, in the order of the workspace's `members`.
///
/// # Panics
/// As [`members`].
#[must_use]
pub fn problems() -> Vec<ProblemCrate> {
    members()
        .into_iter()
        .filter_map(|m| {
            let statement = m.dir.join(m.statement?);
            Some(ProblemCrate { name: m.name, dir: m.dir, statement, examples: m.examples })
        })
        .collect()
}

/// The problem crates' names, in the order of [`problems`].
///
/// # Panics
/// As [`members`].
#[must_use]
pub fn problem_names() -> Vec<String> {
    problems().into_iter().map(|p| p.name).collect()
}
