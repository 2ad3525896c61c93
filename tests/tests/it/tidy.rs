//! Tidy checks of what ARCHITECTURE.md promises: the dependency directions (read from cargo's
//! resolved graph), no unused dependency, a leading `//!` line in every source file, no
//! test that expects a panic, a snapshot test for every data suite, no link that leaves the
//! repository, references within their sizes, and crates that `cargo package` packages whole (no file included from outside
//! its crate; its README, statement and included files in the package).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The problem crates, from the registry (`cargo metadata`).
fn problems() -> Vec<String> {
    let problems = tests::registry::problem_names();
    assert!(problems.len() >= 3, "the registry lists the problems: {problems:?}");
    problems
}

/// Every workspace member's folder.
fn members() -> Vec<PathBuf> {
    tests::registry::members().into_iter().map(|m| m.dir).collect()
}

fn root() -> PathBuf {
    tests::workspace_root()
}

/// The direct dependencies of `package` (normal, dev and build) as cargo resolves them.
fn dependencies(package: &str) -> BTreeSet<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "--package", package, "--edges"])
        .args(["normal,dev,build", "--depth", "1", "--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The first line is the package itself; `(*)` marks repeats and section headers start
    // with `[`.
    text.lines()
        .skip(1)
        .filter(|line| !line.is_empty() && !line.starts_with('['))
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}

#[test]
fn the_engine_and_the_games_know_no_problem_and_no_judge() {
    for (layer, known) in [("engine", "rayon"), ("games", "engine")] {
        let deps = dependencies(layer);
        assert!(deps.contains(known), "cargo tree listed {layer}'s dependencies: {deps:?}");
        for problem in problems() {
            assert!(!deps.contains(&problem), "{layer} depends on {problem}");
        }
        assert!(!deps.contains("judge"), "{layer} depends on the judge");
    }
}

/// The crates `package` builds on with no features, at any depth (`cargo tree -e normal`).
fn built_without_features(package: &str) -> BTreeSet<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "--package", package, "--edges", "normal"])
        .args(["--no-default-features", "--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines().filter_map(|line| line.split_whitespace().next().map(str::to_owned)).collect()
}

#[test]
fn a_problem_solves_and_plays_without_the_judge() {
    for problem in problems() {
        let deps = built_without_features(&problem);
        assert!(deps.contains("games"), "{problem} builds on the games: {deps:?}");
        assert!(!deps.contains("judge"), "{problem} needs the judge to solve: {deps:?}");
    }
}

#[test]
fn the_judge_knows_no_problem() {
    let deps = dependencies("judge");
    assert!(deps.contains("engine"), "cargo tree listed the judge's dependencies: {deps:?}");
    for problem in problems() {
        assert!(!deps.contains(&problem), "judge depends on {problem}");
    }
}

#[test]
fn problem_crates_never_depend_on_each_other() {
    let problems = problems();
    for problem in &problems {
        let deps = dependencies(problem);
        assert!(deps.contains("engine"), "{problem} builds on the engine: {deps:?}");
        assert!(deps.contains("judge"), "{problem} implements the judge's Problem: {deps:?}");
        assert!(deps.contains("games"), "{problem} implements the games' traits: {deps:?}");
        for other in problems.iter().filter(|&o| o != problem) {
            assert!(!deps.contains(other), "{problem} depends on {other}");
        }
    }
}

/// Every `.rs` file under `dir`, skipping build output and test data.
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

fn workspace_rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for member in members() {
        rust_files(&member, &mut files);
    }
    assert!(files.len() >= 40, "found only {} source files", files.len());
    files
}

#[test]
fn every_dependency_is_used() {
    for member in tests::registry::members() {
        let mut files = Vec::new();
        rust_files(&member.dir, &mut files);
        let sources: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
        let unused: Vec<String> = dependencies(&member.name)
            .into_iter()
            .filter(|dep| {
                let name = dep.replace('-', "_");
                // A crate is used when code names a path in it or a macro of it.
                !sources.contains(&format!("{name}::")) && !sources.contains(&format!("use {name}"))
            })
            .collect();
        assert!(
            unused.is_empty(),
            "{} declares dependencies its code never names: {unused:?}",
            member.name
        );
    }
}

#[test]
fn every_source_file_says_what_it_holds() {
    let missing: Vec<String> = workspace_rust_files()
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap_or_default().starts_with("//!"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a leading `//!` line: {missing:#?}");
}

/// A test that expects a panic passes whatever panics; tests assert the message instead.
#[test]
fn no_test_expects_a_panic() {
    let attribute = ["should", "_panic"].concat();
    let offenders: Vec<String> = workspace_rust_files()
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap_or_default().contains(&attribute))
        .map(|f| f.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "#[{attribute}] in {offenders:?}");
}

/// Unsafe code stays where ARCHITECTURE.md says it is, each spot with its reason.
#[test]
fn unsafe_code_is_confined() {
    let allowed = [
        "judge/src/sandbox/sys.rs",
        "engine/src/memory.rs",
        "card-duel/src/tables/sweep.rs",
        "hero-battle/src/threshold.rs",
        "hero-battle/src/threshold/kernels.rs",
        "xtask/src/measure.rs",
    ];
    let attribute = ["allow(", "unsafe_code"].concat();
    let root = root();
    let mut found = Vec::new();
    for file in workspace_rust_files() {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        // Without white space, so that an attribute rustfmt spread over lines counts too.
        let text: String = text.split_whitespace().collect();
        if text.contains(&attribute) {
            let path = file.strip_prefix(&root).unwrap_or(&file).display().to_string();
            assert!(allowed.contains(&path.as_str()), "{path} allows unsafe code");
            found.push(path);
        }
    }
    found.sort();
    let mut expected = allowed.map(str::to_owned).to_vec();
    expected.sort();
    assert_eq!(found, expected, "the files that allow unsafe code");
}

/// What the registry gives every problem crate, it must hold: a data suite (`tests/data/`,
/// inputs with their snapshots in `tests/snapshots/`) run by a test named `snapshot_*` (which
/// xtask regenerates), and the canonical-format table checked on its official sample.
#[test]
fn every_problem_has_its_suite_and_its_canonical_table() {
    for problem in tests::registry::problems() {
        let tests_dir = problem.dir.join("tests");
        let mut files = Vec::new();
        rust_files(&tests_dir, &mut files);
        let tests: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
        let name = &problem.name;
        let data = tests_dir.join("data");
        let inputs = std::fs::read_dir(&data)
            .map(|d| {
                d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "in")).count()
            })
            .unwrap_or(0);
        assert!(inputs > 0, "{name}: no inputs in {}", data.display());
        assert!(
            tests.contains("fn snapshot_") && tests.contains("tests::snapshot_suite(env!"),
            "{name}: a test `fn snapshot_...` calling tests::snapshot_suite(env!(\"CARGO_MANIFEST_DIR\"), ...)"
        );
        assert!(data.join("validate-canonical.txt").is_file(), "{name}: validate-canonical.txt");
        assert!(tests.contains("tests::canonical::assert_table("), "{name}: the canonical table");
        assert!(problem.statement.is_file(), "{name}: {}", problem.statement.display());
    }
}

/// `cargo xtask snapshot` runs the tests named `snapshot_*` across the workspace, so a test
/// that asserts a snapshot under another name would silently never be regenerated nor
/// checked by `--check`; and it knows the folders snapshots live in.
#[test]
fn every_snapshot_test_is_named_for_xtask() {
    // Spelt in two halves, so that this file does not match itself.
    let (attribute, snapshot) = (["#[", "test]"].concat(), ["assert_", "snapshot!"].concat());
    let mut checked = 0;
    for file in workspace_rust_files() {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for test in text.split(attribute.as_str()).skip(1) {
            let name = test.trim_start().strip_prefix("fn ").and_then(|t| t.split('(').next());
            if test.contains(&snapshot) {
                let name = name.unwrap_or_default();
                assert!(
                    name.starts_with("snapshot_"),
                    "{}: rename {name} snapshot_...",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 1, "found no snapshot test outside the data suites");
    // xtask regenerates each problem's `tests/snapshots/` (from the registry) and the judge's.
    let xtask = std::fs::read_to_string(root().join("xtask/src/snapshot.rs")).unwrap();
    let judge = "judge/tests/end_to_end/snapshots";
    assert!(root().join(judge).is_dir() && xtask.contains(&format!("\"{judge}\"")), "{judge}");
    for problem in tests::registry::problems() {
        assert!(problem.dir.join("tests/snapshots").is_dir(), "{}: tests/snapshots", problem.name);
    }
}

/// The references keep to their sizes: a reference that grows into a notebook is read by
/// nobody (history goes to CHANGELOG.md and docs/notes/).
#[test]
fn the_references_keep_to_their_sizes() {
    let mut limits = vec![(root().join("README.md"), 160), (root().join("ARCHITECTURE.md"), 200)];
    limits.extend(problems().iter().map(|p| (root().join(p).join("README.md"), 300)));
    for (path, most) in limits {
        let text = std::fs::read_to_string(&path).expect("the document is readable");
        let lines = text.lines().count();
        assert!(lines <= most, "{} has {lines} lines, at most {most}", path.display());
    }
}

/// The repository's root holds the manifests, the documents and the licences, and nothing a
/// run leaves behind (a `counterexample.in` saved by a stress run, say).
#[test]
fn the_root_holds_only_what_belongs_there() {
    let output = Command::new("git")
        .args(["ls-files", "--", ":(top)"])
        .current_dir(root())
        .output()
        .expect("git runs");
    if !output.status.success() {
        // Not a git checkout (a source archive): nothing is tracked to check.
        return;
    }
    let tracked = String::from_utf8_lossy(&output.stdout);
    let top: BTreeSet<&str> = tracked.lines().filter(|f| !f.contains('/')).collect();
    let expected: BTreeSet<&str> = [
        ".gitignore",
        "ARCHITECTURE.md",
        "CHANGELOG.md",
        "Cargo.lock",
        "Cargo.toml",
        "LICENSE-APACHE",
        "LICENSE-MIT",
        "README.md",
        "clippy.toml",
        "rustfmt.toml",
    ]
    .into();
    assert_eq!(top, expected, "the files tracked at the repository's root");
}

/// Text files whose links and paths must stay inside the repository.
fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "snapshots" && name != "data" {
                documents(&path, out);
            }
        } else if [".md", ".rs", ".toml"].iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
}

/// The targets of the Markdown links `[text](target)` in `text` that are not web addresses
/// or anchors.
fn relative_links(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')')?];
            let target = target.split('#').next().unwrap_or_default().trim();
            let external = target.contains("://") || target.starts_with("mailto:");
            (!target.is_empty() && !external && !target.contains(' ')).then_some(target)
        })
        .collect()
}

#[test]
fn no_link_leaves_the_repository() {
    let root = root();
    let mut files = Vec::new();
    documents(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "the walk found the READMEs");
    let shared = ["..", "/shared"].concat();
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let name = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        if text.contains(&shared) {
            broken.push(format!("{name}: names {shared}, outside the repository"));
        }
        if !name.ends_with(".md") {
            continue;
        }
        let dir = file.parent().expect("a file has a folder");
        for target in relative_links(&text) {
            let resolved = dir.join(target);
            let inside = resolved.canonicalize().is_ok_and(|p| p.starts_with(&root));
            if !inside {
                broken.push(format!("{name}: link {target} is missing or leaves the repository"));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// The files that `file`'s `include_str!`, `include_bytes!`, `include!` and `#[path]` name, as
/// written and resolved from `file`'s folder, as the compiler resolves them.
fn included_files(file: &Path) -> Vec<(String, PathBuf)> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    // Spelt in pieces, so that this file does not match itself.
    let openers = [["include_str", "!("].concat(), ["include_bytes", "!("].concat()];
    let openers = [openers[0].clone(), openers[1].clone(), ["include", "!("].concat()];
    let path_attribute = ["#[", "path"].concat();
    let mut found = Vec::new();
    for opener in openers.iter().chain([&path_attribute]) {
        for (at, _) in text.match_indices(opener.as_str()) {
            let rest = text[at + opener.len()..].trim_start();
            let rest = if opener == &path_attribute {
                match rest.strip_prefix('=') {
                    Some(rest) => rest.trim_start(),
                    None => continue,
                }
            } else {
                rest
            };
            let literal = rest.strip_prefix('"').and_then(|r| r.split_once('"')).map(|(l, _)| l);
            let Some(literal) = literal else {
                panic!("{}: {opener} of something but a plain string literal", file.display())
            };
            let folder = file.parent().expect("a file has a folder");
            found.push((literal.to_owned(), folder.join(literal)));
        }
    }
    found
}

/// `cargo package` copies a crate's folder only: a file included from outside it would break
/// the published crate's build.
#[test]
fn no_include_leaves_its_crate() {
    let mut checked = 0;
    let mut outside = Vec::new();
    for member in tests::registry::members() {
        let dir = member.dir.canonicalize().expect("a member's folder exists");
        let mut files = Vec::new();
        rust_files(&member.dir, &mut files);
        for file in files {
            for (literal, path) in included_files(&file) {
                checked += 1;
                if !path.canonicalize().is_ok_and(|p| p.starts_with(&dir)) {
                    outside.push(format!("{}: {literal}", file.display()));
                }
            }
        }
    }
    assert!(checked >= 10, "found only {checked} included files");
    assert!(outside.is_empty(), "files included from outside their crate: {outside:#?}");
}

/// Every crate meant to be published packages its README, its statement (a problem crate)
/// and every file its code includes, as `cargo package --list` says (a fraction of a second).
#[test]
fn each_published_crate_packages_its_readme_statement_and_includes() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let members: Vec<_> = tests::registry::members().into_iter().filter(|m| m.publish).collect();
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    for unpublished in ["xtask", "tests"] {
        assert!(!names.contains(&unpublished), "{unpublished} says publish = false");
    }
    for member in &members {
        let output = Command::new(&cargo)
            .args(["package", "--list", "--offline", "--allow-dirty", "--package", &member.name])
            .current_dir(root())
            .output()
            .expect("cargo package runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "cargo package --list -p {}: {stderr}", member.name);
        let listed = String::from_utf8_lossy(&output.stdout);
        let listed: BTreeSet<&str> = listed.lines().collect();
        let mut wanted: Vec<String> =
            member.readme.iter().chain(&member.statement).cloned().collect();
        let mut files = Vec::new();
        rust_files(&member.dir.join("src"), &mut files);
        for file in files {
            for (_, path) in included_files(&file) {
                let path = path.canonicalize().unwrap_or(path);
                let dir = member.dir.canonicalize().expect("a member's folder exists");
                let inside = path.strip_prefix(&dir).unwrap_or(&path);
                wanted.push(inside.display().to_string());
            }
        }
        let missing: Vec<&String> =
            wanted.iter().filter(|w| !listed.contains(w.as_str())).collect();
        assert!(missing.is_empty(), "{}: the package lacks {missing:?}", member.name);
    }
}

/// The judge keeps its shape: at most 3 loose files in `judge/src` (files that are no
/// folder's root), at most 5 public modules, at most 4 statics outside test support (the
/// OS's process-wide things; `judge/src/sandbox.rs` says which).
#[test]
fn the_judge_keeps_its_shape() {
    let src = root().join("judge/src");
    let mut loose = Vec::new();
    for entry in std::fs::read_dir(&src).expect("judge/src is readable").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".rs")
            && !src.join(stem).is_dir()
        {
            loose.push(name);
        }
    }
    loose.sort();
    assert!(loose.len() <= 3, "loose files in judge/src: {loose:?}");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs is readable");
    let public: Vec<&str> =
        lib.lines().filter(|l| l.trim_start().starts_with("pub mod ")).collect();
    assert!(public.len() <= 5, "public modules: {public:?}");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut statics = Vec::new();
    // Test support: the `testing` module and folder.
    let test_support = |f: &&PathBuf| {
        f.strip_prefix(&src).is_ok_and(|r| r.starts_with("testing") || r.starts_with("testing.rs"))
    };
    for file in files.iter().filter(|f| !test_support(f)) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        // A file's unit tests come last, after its `#[cfg(test)]` module.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        let mut for_tests = false;
        for line in code.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "static");
            if !for_tests && at.is_some_and(|i| words[..i].iter().all(|w| w.starts_with("pub"))) {
                statics.push(format!("{}: {}", file.display(), line.trim()));
            }
            // An item under `#[cfg(test)]` is test support.
            for_tests =
                line.trim() == "#[cfg(test)]" || (for_tests && line.trim().starts_with("#["));
        }
    }
    assert!(statics.len() <= 4, "statics: {statics:#?}");
}

/// The backticked code paths of the documents and the manifests' comments: each file path
/// (`judge/src/sandbox/sys.rs`, `hunt/confirm.rs`) names a file of the repository, and each
/// item path of a workspace crate (`judge::jury::Jury`) names an item its crate defines.
#[test]
fn the_code_paths_documents_name_exist() {
    let root = root();
    let listed = Command::new("git").args(["ls-files"]).current_dir(&root).output();
    let Some(tracked) = listed.ok().filter(|o| o.status.success()) else { return };
    let tracked = String::from_utf8_lossy(&tracked.stdout).into_owned();
    let files: Vec<&str> = tracked.lines().collect();
    let crates: Vec<(String, PathBuf)> = tests::registry::members()
        .into_iter()
        .map(|m| (m.name.replace('-', "_"), m.dir.join("src")))
        .collect();
    let mut sources = std::collections::BTreeMap::new();
    for (name, src) in &crates {
        let mut rust = Vec::new();
        rust_files(src, &mut rust);
        let text: String =
            rust.iter().map(|f| std::fs::read_to_string(f).unwrap_or_default()).collect();
        sources.insert(name.clone(), text);
    }
    let mut documents: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.ends_with(".md") || f.ends_with("Cargo.toml"))
        .map(|f| root.join(f))
        .collect();
    documents.retain(|d| !d.starts_with(root.join("docs/notes")) && !d.ends_with("CHANGELOG.md"));
    let mut broken = Vec::new();
    for document in &documents {
        let text = std::fs::read_to_string(document).unwrap_or_default();
        let name = document.strip_prefix(&root).unwrap_or(document).display().to_string();
        // In a document the backticked words; in a manifest every word of the comments.
        let words: Vec<&str> = if name.ends_with(".toml") {
            text.lines()
                .filter_map(|l| l.split_once('#').map(|(_, c)| c))
                .flat_map(|c| c.split(|ch: char| ch.is_whitespace() || "()`".contains(ch)))
                .collect()
        } else {
            text.split('`').skip(1).step_by(2).collect()
        };
        for quoted in words {
            let word = quoted.trim_end_matches(['.', ',', ':', ')']);
            if word.contains(' ') || word.contains('*') || word.contains("://") {
                continue;
            }
            if word.ends_with(".rs") && word.contains('/') {
                let found = files.iter().any(|f| {
                    f.ends_with(word)
                        && (f.len() == word.len() || f.as_bytes()[f.len() - word.len() - 1] == b'/')
                });
                if !found {
                    broken.push(format!("{name}: no file {word}"));
                }
            } else if let Some((krate, path)) = word.split_once("::")
                && let Some(source) = sources.get(krate)
            {
                let item = path.rsplit("::").next().unwrap_or(path);
                let item = item.trim_end_matches("()").trim_end_matches('!');
                let defined = [
                    "fn ",
                    "struct ",
                    "enum ",
                    "trait ",
                    "type ",
                    "mod ",
                    "const ",
                    "static ",
                    "macro_rules! ",
                    "use ",
                ]
                .iter()
                .any(|kind| source.contains(&format!("{kind}{item}")))
                    || source.contains(&format!("{item},"))
                    || source.contains(&format!("{item}}}"))
                    || source.contains(&format!("{item} {{"))
                    || source.contains(&format!("{item}("));
                if !item.is_empty()
                    && item.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !defined
                {
                    broken.push(format!("{name}: {word} names nothing in {krate}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}
