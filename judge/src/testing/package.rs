//! What the problem crates' package tests share: the package's C++ input validator held to
//! `validate` on any files and on random corruptions of them ([`assert_validator_agrees`]),
//! and one end-to-end build of a package by a problem's binary, checked against what each
//! submission must get, built again to the same files (in the other format's layout, when
//! asked), judged by `PROBLEM run` and verified by the tool that reads its format: Kattis's
//! `verifyproblem` a legacy package, BAPCtools' `bt` a 2025-09 one ([`package_end_to_end`]);
//! and the same for a problem's interactive package, with a right and a wrong player in C++
//! and in Python, in both formats ([`interactive_package_end_to_end`]), the jury its static
//! build ([`static_binary`]).
//!
//! Both need g++, as a judge importing the package does ([`require_gpp`]). Without a
//! verifier (on `PATH`, or named by the environment variables `JUDGE_VERIFYPROBLEM` and
//! `JUDGE_BAPCTOOLS`) the verification is skipped, saying so, but on CI ([`verifier`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::interactive::QueryServer;
use super::{TestDir, sandbox};
use crate::package::{
    Format, Packaged, answer_is_canonical, answer_validator_source, compile_cpp,
    input_validator_source,
};
use crate::rules::Limits;
use crate::rules::canonical::{Strictness, validate_file};
use crate::sandbox::{ChildOptions, Exit, Program};
use engine::rng::SplitMix64;
use games::Game;

/// Panics, saying what to install, unless `g++` can be run: a package's validators are C++,
/// as a judge importing it needs them, so its tests need g++ as much as the judge does.
///
/// # Panics
/// When `g++ --version` cannot be run.
pub fn require_gpp() {
    let found = Command::new("g++").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(found, "the package tests need g++ on PATH (on Debian: apt-get install g++)");
}

/// A tool that verifies packages: the program, the environment variable naming it when it
/// is not on `PATH`, and how to install it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verifier {
    /// The program's name on `PATH`: `verifyproblem`.
    pub program: &'static str,
    /// The variable naming it: `JUDGE_VERIFYPROBLEM`.
    pub variable: &'static str,
    /// How to install it, in words.
    pub install: &'static str,
}

/// Kattis's `verifyproblem` (problemtools), which verifies legacy packages.
pub const VERIFYPROBLEM: Verifier = Verifier {
    program: "verifyproblem",
    variable: "JUDGE_VERIFYPROBLEM",
    install: "python3 -m venv V && V/bin/pip install -r .ci/problemtools.txt, then \
              JUDGE_VERIFYPROBLEM=V/bin/verifyproblem",
};

/// BAPCtools' `bt`, which verifies 2025-09 packages.
pub const BAPCTOOLS: Verifier = Verifier {
    program: "bt",
    variable: "JUDGE_BAPCTOOLS",
    install: "python3 -m venv V && V/bin/pip install -r .ci/bapctools.txt, then \
              JUDGE_BAPCTOOLS=V/bin/bt",
};

/// `tool`'s program: the one its variable names, else the one on `PATH`. Without either it
/// is `None`, saying on stderr that the verification is skipped; but on CI (`CI` set, as
/// `.ci/run` sets it), which installs both tools, that is a failure.
///
/// # Panics
/// On CI, when neither names one.
#[must_use]
#[allow(clippy::print_stderr, reason = "a skipped check says so where cargo test shows it")]
pub fn verifier(tool: Verifier) -> Option<PathBuf> {
    let Verifier { program, variable, install } = tool;
    if let Some(named) = std::env::var_os(variable) {
        return Some(PathBuf::from(named));
    }
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path).map(|dir| dir.join(program)).find(|f| f.is_file())
    });
    if on_path.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must verify packages: {program} is not on PATH and {variable} is not set \
             ({install})"
        );
        eprintln!("skipped: {program}: not on PATH and {variable} is not set ({install})");
    }
    on_path
}

/// A C++ submission with a planted bug behind a right program, our `binary`: it reads the
/// whole input into `in`, aborts when `crash_if` (an expression of `in`) holds, else runs
/// `binary -j 1` on it and copies its output a line a case. For each case, `per_case` (C++
/// statements) may read the case's numbers with `next()` and change `line`, the case's
/// answer line; `header` numbers after `T` are read first.
#[must_use]
pub fn behind_binary(
    what: &str,
    binary: &str,
    crash_if: &str,
    header: usize,
    per_case: &str,
) -> String {
    format!(
        r#"// {what}
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
int main() {{
    std::string in;
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, stdin)) > 0) in.append(buffer, n);
    if ({crash_if}) abort();
    char path[] = "/tmp/judge-behind-binary-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, in.data(), in.size()) != (ssize_t)in.size()) return 1;
    close(fd);
    std::string command = std::string("{binary} -j 1 < ") + path;
    FILE *solver = popen(command.c_str(), "r");
    char *p = (char *)in.c_str();
    auto next = [&p]() {{ return strtol(p, &p, 10); }};
    long t = next();
    for (int k = 0; k < {header}; ++k) next();
    char line[64];
    for (long k = 0; k < t && fgets(line, sizeof line, solver); ++k) {{
        {per_case}
        fputs(line, stdout);
    }}
    int status = pclose(solver);
    unlink(path);
    return status == 0 ? 0 : 1;
}}
"#
    )
}

/// Runs `program` (a validator with its flags) on `input`; whether it accepted (exit 42).
fn accepts(program: &Program, input: &[u8]) -> bool {
    let options = ChildOptions::new(Duration::from_secs(20), None);
    let ran = sandbox().run(program, input, &options).expect("the validator runs");
    match ran.exit {
        Exit::Code(42) => true,
        Exit::Code(43) => false,
        other => panic!("the validator ends with {other:?}: {}", ran.stderr_excerpt(300)),
    }
}

/// Compiles `problem`'s input validator into `dir` and holds it to `validate` (the canonical
/// format, the original limits) on every file of `files` and on `corruptions` random
/// corruptions of each ([`corrupt`](super::corrupt::corrupt), from a fixed seed): it must
/// accept exactly the files `validate` accepts. For a scoring problem, also with each
/// group's flags: it must accept exactly the valid files in that group's subtask
/// ([`Packaged::groups_of`]). Returns how many files were checked.
///
/// # Panics
/// At the first file on which they disagree, naming it.
pub fn assert_validator_agrees<P: Packaged>(
    problem: &P,
    files: &[(String, Vec<u8>)],
    corruptions: usize,
    dir: &Path,
) -> usize {
    std::fs::create_dir_all(dir).expect("the scratch folder is writable");
    let source = dir.join("validate.cpp");
    std::fs::write(&source, input_validator_source(problem))
        .expect("the scratch folder is writable");
    let binary = dir.join("validate");
    compile_cpp(&source, &binary).unwrap_or_else(|e| panic!("the input validator: {e}"));
    let groups: Vec<(usize, Program)> = problem.scoring().map_or_else(Vec::new, |scoring| {
        (scoring.groups.iter().enumerate())
            .map(|(k, group)| {
                let mut command = vec![binary.display().to_string()];
                command.extend(group.validator_flags.split_whitespace().map(str::to_owned));
                (k, Program::new(&command))
            })
            .collect()
    });
    let plain = Program::new(&[&binary]);
    let mut rng = SplitMix64::new(0x0051_ea7e);
    let mut checked = 0;
    for (name, bytes) in files {
        for (what, bytes) in corrupted(name, bytes, corruptions, &mut rng) {
            let valid = validate_file(problem, &bytes, Limits::Original, Strictness::Canonical);
            assert_eq!(
                accepts(&plain, &bytes),
                valid.is_ok(),
                "{what}: validate says {valid:?}, the package's validator the opposite"
            );
            for (k, program) in &groups {
                let in_group =
                    valid.as_ref().is_ok_and(|input| problem.groups_of(input).contains(k));
                assert_eq!(
                    accepts(program, &bytes),
                    in_group,
                    "{what}: group {}: in it by our reading: {in_group}",
                    k + 1
                );
            }
            checked += 1;
        }
    }
    checked
}

/// `bytes` (a file named `name`), then `corruptions` random corruptions of it
/// ([`corrupt`](super::corrupt::corrupt), one to three edits each), each with a name that
/// says what was done.
fn corrupted(
    name: &str,
    bytes: &[u8],
    corruptions: usize,
    rng: &mut SplitMix64,
) -> Vec<(String, Vec<u8>)> {
    let mut variants = vec![(name.to_owned(), bytes.to_vec())];
    for k in 0..corruptions {
        let edits: Vec<(usize, u8, u8)> = (0..1 + rng.below(3))
            .map(|_| (rng.below(bytes.len() + 1), rng.below(7) as u8, rng.next_u64() as u8))
            .collect();
        let corrupted = super::corrupt::corrupt(bytes.to_vec(), &edits, b" 1");
        variants.push((format!("{name}, corruption {k} {edits:?}"), corrupted));
    }
    variants
}

/// Compiles `problem`'s answer validator ([`Packaged::answer_validator`]) into `dir` and
/// holds it to [`answer_is_canonical`] on the answer of every test of `package` (a package
/// folder) and on `corruptions` random corruptions of each (from a fixed seed), each read
/// against its test's input: it must accept exactly the answers our solver could have
/// written. Returns how many answers were checked.
///
/// # Panics
/// When the problem has no answer validator, and at the first answer on which they disagree,
/// naming it.
pub fn assert_answer_validator_agrees<P: Packaged>(
    problem: &P,
    package: &Path,
    corruptions: usize,
    dir: &Path,
) -> usize {
    std::fs::create_dir_all(dir).expect("the scratch folder is writable");
    let source = dir.join("answer.cpp");
    let text = answer_validator_source(problem).expect("the problem has an answer validator");
    std::fs::write(&source, text).expect("the scratch folder is writable");
    let binary = dir.join("answer");
    compile_cpp(&source, &binary).unwrap_or_else(|e| panic!("the answer validator: {e}"));
    let mut rng = SplitMix64::new(0x00a5_5e55);
    let mut checked = 0;
    for test in crate::hunt::find_tests(&package.join("data")).expect("the package's tests") {
        let bytes = std::fs::read(&test.input).expect("a test's input");
        let input = problem.parse(&bytes, Limits::Original).expect("the package's input is valid");
        let answer = std::fs::read(test.answer.as_ref().expect("an answer")).expect("an answer");
        let validator = Program::new(&[&binary, &test.input]);
        for (what, bytes) in corrupted(&test.name, &answer, corruptions, &mut rng) {
            let canonical = answer_is_canonical(problem, &input, &bytes);
            assert_eq!(
                accepts(&validator, &bytes),
                canonical,
                "{what}: canonical by our reading: {canonical}; the answer validator the opposite"
            );
            checked += 1;
        }
    }
    checked
}

/// A package the end-to-end test builds: the problem's binary, the folder, the submissions
/// (C++ sources the test writes), and the folder each must be filed in.
#[derive(Clone, Debug)]
pub struct PackageCase {
    /// The problem's binary.
    pub binary: String,
    /// The scratch folder; the package goes to `dir/a/SHORT` and its rebuild to `dir/b/SHORT`.
    pub dir: PathBuf,
    /// The short name: `herobattle`.
    pub short_name: &'static str,
    /// Submissions: (file name, option, source, the folder it must be filed in).
    pub submissions: Vec<(&'static str, &'static str, String, &'static str)>,
    /// Extra options for `package` (`--stress-time 30s`).
    pub options: Vec<&'static str>,
    /// Whether to build it a second time, and in which format, and compare: every file but
    /// `.timelimit`, which follows measured times; in the other format, every file under its
    /// name there but `problem.yaml` (see [`same_file`]). A batch package's only: an
    /// interactive one's answers differ between the formats.
    pub rebuild: Option<Format>,
    /// Whether it is the interactive version (`options` then hold `--interactive`): the
    /// samples must have their `.interaction` and the jury its `run`, and `PROBLEM run`, which
    /// judges outputs, is not tried on it.
    pub interactive: bool,
}

/// Every problem's binary built static for `x86_64-unknown-linux-musl` (the workspace's
/// `jury` profile: release's optimizations, built in a fraction of its time), as an
/// interactive package's jury must be: one `cargo build -p CRATE ...` of all `crates` for
/// that target into the target folder of `binary` (the test's own build of the problem's
/// binary), so that the first crate's test builds every jury and the others find theirs
/// fresh. Returns the path of `binary`'s static build; `None`, saying so, when the target is
/// not installed (`rustup target add x86_64-unknown-linux-musl`), but on CI, which
/// installs it.
///
/// # Panics
/// On CI without the target, or when the build fails.
#[must_use]
#[allow(clippy::print_stderr, reason = "a skipped check says so where cargo test shows it")]
pub fn static_binary(crates: &[String], binary: &str) -> Option<PathBuf> {
    const TARGET: &str = "x86_64-unknown-linux-musl";
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == TARGET));
    if !installed {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must verify interactive packages: rustup target add {TARGET}"
        );
        eprintln!(
            "skipped: the interactive package: no {TARGET} target (rustup target add {TARGET})"
        );
        return None;
    }
    // The test's binary is TARGET_DIR/PROFILE/NAME.
    let target_dir = Path::new(binary).parent().and_then(Path::parent).expect("a target folder");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["build", "--profile", "jury", "--locked", "--target", TARGET]);
    for name in crates {
        command.args(["-p", name]);
    }
    let built = command.arg("--target-dir").arg(target_dir).output().expect("cargo runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let name = Path::new(binary).file_name().expect("a binary's name");
    Some(target_dir.join(TARGET).join("jury").join(name))
}

/// What a problem's interactive package test gives ([`interactive_package_end_to_end`]):
/// its binary, its players' pieces and two C++ players of its own.
#[derive(Clone, Debug)]
pub struct InteractiveCase {
    /// The problem's binary (the test's build), beside which its static build goes.
    pub binary: &'static str,
    /// Every problem crate's name, built static together ([`static_binary`]).
    pub crates: Vec<String>,
    /// The package's short name: `herobattle`.
    pub short_name: &'static str,
    /// How a game opens, for the test player ([`PLAYER`](super::interactive::PLAYER)'s
    /// INTRO: Python source defining `intro(read)`).
    pub intro: &'static str,
    /// The test player's planted bug (Python source defining `bug(a)`), true at a rare
    /// position.
    pub bug: &'static str,
    /// A right player in C++, which must be accepted.
    pub perfect_cpp: &'static str,
    /// A wrong player in C++ (its file name, its source), which a kill test must beat.
    pub wrong_cpp: (&'static str, &'static str),
    /// More options for `package` (`--levels 3`).
    pub options: &'static [&'static str],
}

/// The interactive package of `case`'s problem, built and checked as
/// [`package_end_to_end`] checks a package, with four players: `perfect.cpp` (the case's
/// right C++ player) and `perfect.py` (the test [`PLAYER`](super::interactive::PLAYER),
/// asking `game` in this process through a [`QueryServer`], whose time is thus not the
/// player's, as it would not be on the judge) accepted; the case's wrong C++ player and
/// `rare.py` (the test player with the case's bug) filed under `wrong_answer`, each beaten by
/// its own kill test. The jury is the problem's static build ([`static_binary`]). Then the
/// package in 2025-09, of the first size level only, with the first three players. Returns
/// what the first `package` printed, or `None` when the musl target is missing (off CI).
///
/// # Panics
/// At the first check that fails.
pub fn interactive_package_end_to_end<G: Game + Send + 'static>(
    case: &InteractiveCase,
    game: G,
) -> Option<String> {
    require_gpp();
    let jury = static_binary(&case.crates, case.binary)?;
    let name = Path::new(case.binary).file_name().expect("a binary's name");
    let dir = TestDir::new(&format!("{}-interactive-package", name.to_string_lossy()));
    let files = dir.join("player");
    std::fs::create_dir_all(&files).expect("the scratch folder is writable");
    let server = QueryServer::start(game, &files);
    let write = |file: &str, text: &str| {
        let path = files.join(file);
        std::fs::write(&path, text).expect("the scratch folder is writable");
        path.display().to_string()
    };
    let (player, intro, bug) = (
        write("player.py", super::interactive::PLAYER),
        write("intro.py", case.intro),
        write("bug.py", case.bug),
    );
    // A submission is one file: it sets the player's arguments and runs it.
    let python = |what: &str, rule: Option<&str>| {
        let mut argv = format!("[\"player\", {intro:?}, {:?}", server.address());
        if let Some(rule) = rule {
            argv += &format!(", {rule:?}");
        }
        format!(
            "# {what}: the judge's test player, asking the test's query server.\nimport sys\n\
             sys.argv = {argv}]\nexec(open({player:?}).read())\n"
        )
    };
    let (wrong_file, wrong_source) = case.wrong_cpp;
    let common = vec![
        "--interactive".to_owned(),
        "--jury".to_owned(),
        jury.display().to_string(),
        "--stress-time".to_owned(),
        "120s".to_owned(),
    ];
    let mut options = common.clone();
    options.extend(case.options.iter().map(|&o| o.to_owned()));
    // The static build writes the package too: its juries play the extremes' games at
    // release speed, where the test's own build takes minutes.
    let package = PackageCase {
        binary: jury.display().to_string(),
        dir: dir.to_path_buf(),
        short_name: case.short_name,
        submissions: vec![
            ("perfect.cpp", "--accepted", case.perfect_cpp.to_owned(), "accepted"),
            ("perfect.py", "--accepted", python("A perfect player", None), "accepted"),
            (wrong_file, "--wrong", wrong_source.to_owned(), "wrong_answer"),
            (
                "rare.py",
                "--wrong",
                python("A player that misplays one rare position", Some(&bug)),
                "wrong_answer",
            ),
        ],
        options: options.iter().map(|o| &*o.clone().leak()).collect(),
        rebuild: None,
        interactive: true,
    };
    let (_, printed) = package_end_to_end(&package);
    // The same game in 2025-09, smaller (the first size level, no extremes: the format
    // changes the files, not the tests), verified by BAPCtools; the wrong C++ player is
    // filed under `rejected` there (see `package::build`).
    let mut small = common;
    small.extend(["--levels", "1", "--format", "2025-09"].map(str::to_owned));
    let mut submissions = package.submissions[..3].to_vec();
    submissions[2].3 = "rejected";
    let package = PackageCase {
        dir: dir.join("2025-09"),
        submissions,
        options: small.into_iter().map(|o| &*o.leak()).collect(),
        ..package
    };
    package_end_to_end(&package);
    let stem = wrong_file.split('.').next().unwrap_or(wrong_file);
    for kill in [format!("kills-{stem} kills {wrong_file}"), "kills-rare kills rare.py".to_owned()]
    {
        assert!(printed.contains(&kill), "{printed}");
    }
    drop(server);
    Some(printed)
}

impl PackageCase {
    /// The format its options name (`--format VERSION`), else legacy.
    ///
    /// # Panics
    /// When they name one that is not a format.
    #[must_use]
    pub fn format(&self) -> Format {
        let named = self.options.windows(2).find(|pair| pair[0] == "--format");
        named.map_or(Format::Legacy, |pair| pair[1].parse().expect("a format's name"))
    }
}

/// Every file below `dir` with its bytes, by path.
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("a package folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).expect("a package file");
                out.insert(path.strip_prefix(root).expect("below the root").to_owned(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Builds `case`'s package with its binary, in the format its options name (`--format`),
/// and checks it: the command exits 0; each submission is filed where `case` says; the
/// package holds `problem.yaml`, its time limit, the statement, the validators and every
/// test with its answer; a rebuild (when asked) is the same files ([`PackageCase::rebuild`]);
/// `PROBLEM run` on its `data/` (and the rebuild's) with each source passes the first
/// submission (an accepted one), fails the second and gives each partially accepted one the
/// package's score; and each package is verified ([`verify`]). Returns the package's folder
/// and what `package` printed.
///
/// # Panics
/// At the first check that fails.
pub fn package_end_to_end(case: &PackageCase) -> (PathBuf, String) {
    let sources = case.dir.join("src");
    std::fs::create_dir_all(&sources).expect("the scratch folder is writable");
    let format = case.format();
    let build = |side: &str, format: Format| {
        let package = case.dir.join(side).join(case.short_name);
        let mut command = Command::new(&case.binary);
        command.arg("package").arg(&package).args(&case.options);
        if format != case.format() {
            command.args(["--format", format.name()]);
        }
        for (file, option, source, _) in &case.submissions {
            let path = sources.join(file);
            std::fs::write(&path, source).expect("the scratch folder is writable");
            command.arg(option).arg(&path);
        }
        let output = command.output().expect("the binary runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "package:\n{stdout}\n{stderr}");
        (package, stdout)
    };
    let (package, printed) = build("a", format);
    let files = tree(&package);
    for (file, _, _, folder) in &case.submissions {
        let filed = PathBuf::from(format!("submissions/{folder}/{file}"));
        assert!(files.contains_key(&filed), "{file} is not in {folder}:\n{printed}");
    }
    let statement = format!("{}/problem.en.tex", format.statement_folder());
    for needed in ["problem.yaml", format.time_limit_file(), &statement] {
        assert!(files.contains_key(Path::new(needed)), "no {needed}");
    }
    let yaml = String::from_utf8_lossy(&files[Path::new("problem.yaml")]).into_owned();
    if format == Format::V2025_09 {
        assert!(yaml.contains("\nproblem_format_version: 2025-09\n"), "{yaml}");
        assert!(!yaml.contains("\nvalidation:"), "{yaml}");
    }
    if case.interactive {
        let kind = match format {
            Format::Legacy => "validation: custom interactive",
            Format::V2025_09 => "type: interactive",
        };
        assert!(yaml.contains(kind), "{yaml}");
        let samples = files.keys().filter(|f| f.starts_with("data/sample"));
        for input in samples.filter(|f| f.extension().is_some_and(|e| e == "in")) {
            let interaction = input.with_extension("interaction");
            let text = String::from_utf8_lossy(&files[&interaction]).into_owned();
            assert!(text.lines().all(|l| l.starts_with('<') || l.starts_with('>')), "{text}");
        }
        for script in ["run", "build"] {
            use std::os::unix::fs::PermissionsExt as _;
            let script = Path::new(&format.output_validator_folder("jury")).join(script);
            let mode = std::fs::metadata(package.join(&script)).expect("the jury").permissions();
            assert!(mode.mode() & 0o111 != 0, "{} is not executable", script.display());
        }
    }
    assert!(files.contains_key(Path::new("input_validators/validate.cpp")));
    let inputs = files.keys().filter(|f| f.extension().is_some_and(|e| e == "in"));
    for input in inputs {
        assert!(
            files.contains_key(&input.with_extension("ans")),
            "{} has no answer",
            input.display()
        );
    }
    let mut packages = vec![(package.clone(), format)];
    if let Some(again_in) = case.rebuild {
        assert!(!case.interactive, "a rebuild is a batch package's");
        let (again, _) = build("b", again_in);
        let second = tree(&again);
        let kept: Vec<(&PathBuf, PathBuf)> =
            files.keys().filter_map(|f| Some((f, same_file(f, format, again_in)?))).collect();
        let differ: Vec<&PathBuf> =
            kept.iter().filter(|(f, g)| second.get(g) != files.get(*f)).map(|(f, _)| *f).collect();
        assert!(differ.is_empty(), "a rebuild differs in {differ:?}");
        // Every other file of the rebuild is one the formats write differently.
        let apart = |g: &Path| {
            [".timelimit", "problem.yaml"].iter().any(|f| g == Path::new(f))
                || (again_in != format && only_in_2025_09(g))
        };
        let extra: Vec<&PathBuf> =
            (second.keys()).filter(|g| kept.iter().all(|(_, k)| k != *g) && !apart(g)).collect();
        assert!(extra.is_empty(), "only the rebuild has {extra:?}");
        packages.push((again, again_in));
    }
    for (package, format) in packages {
        if !case.interactive {
            run_on_package(case, &package, &printed);
        }
        verify(case, &package, format);
    }
    (package, printed)
}

/// The name in a package of format `to` of file `file` of a package of format `from` (both
/// batch packages of one build, `from` legacy when they differ), or `None` when the formats
/// write it differently: `problem.yaml` between formats, and `.timelimit` (which follows
/// measured times) always.
///
/// # Panics
/// When `from` is 2025-09 and `to` legacy.
#[must_use]
pub fn same_file(file: &Path, from: Format, to: Format) -> Option<PathBuf> {
    assert!(from == to || from == Format::Legacy, "a legacy package's files are mapped");
    if file == Path::new(".timelimit") || (from != to && file == Path::new("problem.yaml")) {
        return None;
    }
    let text = file.to_string_lossy();
    let renamed = match (from == to, text.split_once('/')) {
        (false, Some(("problem_statement", rest))) => format!("statement/{rest}"),
        (false, Some(("output_validators", rest))) => {
            let (_, file) = rest.split_once('/').expect("a validator's file is in its folder");
            format!("output_validator/{file}")
        }
        _ => return Some(file.to_owned()),
    };
    Some(PathBuf::from(renamed))
}

/// Whether a 2025-09 package's `file` has no legacy counterpart: `data/test_group.yaml`, the
/// answer validator, a sample's `.in.download` and `.ans.download`.
fn only_in_2025_09(file: &Path) -> bool {
    let name = file.to_string_lossy();
    ["data/test_group.yaml", "answer_validators/answer.cpp"].contains(&&*name)
        || name.ends_with(".in.download")
        || name.ends_with(".ans.download")
}

/// Verifies `package`, written in `format`, with the tool that reads it, when it can be
/// found ([`verifier`]): a legacy one with `verifyproblem -p config data validators
/// submissions` (`-t T` for a time limit given, which the format cannot hold), which must
/// report 0 errors; a 2025-09 one with `bt validate` and `bt run`, which must exit 0 (every
/// test valid, every answer accepted by the answer validator, every submission judged as
/// filed, no warning), with BAPCtools' files (its builds, its record of problem UUIDs) in a
/// scratch folder of `case`'s.
///
/// # Panics
/// When the verifier says otherwise.
#[allow(clippy::print_stderr, reason = "the verifier's verdict, shown by --nocapture")]
pub fn verify(case: &PackageCase, package: &Path, format: Format) {
    let text = |output: &std::process::Output| {
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr)
    };
    match format {
        Format::Legacy => {
            let Some(verify) = verifier(VERIFYPROBLEM) else { return };
            // The legacy format has no time limit of its own: a given one is passed on.
            let given = case.options.iter().position(|o| *o == "--time-limit");
            let limit = given.map(|k| vec!["-t", case.options[k + 1]]).unwrap_or_default();
            let output = Command::new(&verify)
                .arg(package)
                .args(limit)
                .args(["-p", "config", "data", "validators", "submissions"])
                .output()
                .expect("verifyproblem runs");
            let text = text(&output);
            let summary = text.lines().rfind(|l| l.contains(" tested: ")).unwrap_or_default();
            eprintln!("{summary}");
            assert!(summary.contains("tested: 0 errors"), "verifyproblem:\n{text}");
        }
        Format::V2025_09 => {
            let Some(bt) = verifier(BAPCTOOLS) else { return };
            let own = case.dir.join("bapctools");
            let (config, temp) = (own.join("config"), own.join("tmp"));
            for folder in [&config, &temp] {
                std::fs::create_dir_all(folder).expect("the scratch folder is writable");
            }
            for step in ["validate", "run"] {
                let started = std::time::Instant::now();
                let output = Command::new(&bt)
                    .args([step, "--no-bar", "--problem"])
                    .arg(package)
                    .env("XDG_CONFIG_HOME", &config)
                    .env("TMPDIR", &temp)
                    .output()
                    .expect("bt runs");
                let text = text(&output);
                let took = started.elapsed().as_secs_f64();
                eprintln!("bt {step} {}: {} ({took:.1} s)", package.display(), output.status);
                assert!(output.status.success(), "bt {step}:\n{text}");
            }
        }
    }
}

/// `PROBLEM run` on the package's `data/`, each submission handed over as its source (built
/// as the package builds it): the first (an accepted one) passes every test (exit 0), the
/// second fails some (exit 1), and each one filed under `partially_accepted` fails some and
/// gets the score the package gave it (`printed`, what `package` printed).
fn run_on_package(case: &PackageCase, package: &Path, printed: &str) {
    let judged = |index: usize, code: i32| {
        let (file, _, _, _) = &case.submissions[index];
        let output = Command::new(&case.binary)
            .arg("run")
            .arg(package.join("data"))
            .arg("--")
            .arg(case.dir.join("src").join(file))
            .output()
            .expect("the binary runs");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(output.status.code(), Some(code), "run with {file}:\n{stdout}");
        assert!(stdout.contains("slowest: ") && stdout.contains("peak memory: "), "{stdout}");
        stdout
    };
    judged(0, 0);
    judged(1, 1);
    for (index, (file, _, _, folder)) in case.submissions.iter().enumerate() {
        if *folder != "partially_accepted" {
            continue;
        }
        let ran = judged(index, 1);
        let filed = format!("partially_accepted/{file}");
        let line = printed.lines().find(|l| l.contains(&filed)).expect("the package files it");
        let score = line.split("score ").nth(1).and_then(|s| s.split(':').next());
        let score = score.expect("a partial score");
        assert!(
            ran.contains(&format!("score: {score} ")),
            "run says otherwise than the package ({line}):\n{ran}"
        );
    }
}
