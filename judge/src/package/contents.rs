//! What a package holds, as it is built: its tests ([`Tests`]: the samples, the setter's own
//! tests, the extremes, the generated levels and the groups' inputs, each with our answer,
//! drawn from seeds set apart by kind, equal inputs left out, big ones within the budget;
//! for a scoring problem each secret test in every group whose constraints it meets), and
//! our own checks of every test against `validate` and the package's validators before it
//! is written.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use engine::rng::SplitMix64;

use super::interactive::{INTERACTION_LINES, Interactive};
use super::kattis::Format;
use super::{
    About, OutputValidator, PackageError, Packaged, Scoring, TestBudget, TestSize,
    answer_validator_source, compile_cpp, input_validator_source,
};
use crate::hunt::jury::{SEED, Speaker};
use crate::hunt::{Files, GradedTest, PerfectPlay, run_seed};
use crate::rules::canonical::{Strictness, validate_file};
use crate::rules::{Limits, render};
use crate::sandbox::{ChildOptions, Exit, Program, Sandbox};

/// One test of the package being built.
pub(super) struct Test {
    /// Whether it is an official sample (`data/sample`); else it is secret.
    pub(super) sample: bool,
    /// A scoring problem's secret test: the groups that hold it (indices into
    /// [`Scoring::groups`], increasing), every group whose constraints it meets, as IOI's
    /// subtasks hold every test that meets theirs. The first group's folder holds the files,
    /// the others' a link to them. Empty for a sample and for a pass-fail problem.
    pub(super) groups: Vec<usize>,
    /// The file name without its ending: `kills-greedy`.
    pub(super) name: String,
    /// The input's bytes.
    pub(super) input: Vec<u8>,
    /// Our answer's bytes (none in a 2025-09 interactive package: see `Tests`).
    pub(super) answer: Vec<u8>,
    /// Its case count and size.
    pub(super) size: TestSize,
    /// In an interactive package, a perfect player's game against the jury on it.
    pub(super) transcript: Option<Vec<(Speaker, String)>>,
}

impl Test {
    /// The folders below `data/` that hold it, the one with its files first: `sample`,
    /// `secret`, or each of its groups' `secret/groupK`.
    pub(super) fn folders(&self) -> Vec<String> {
        match (self.sample, self.groups.as_slice()) {
            (true, _) => vec!["sample".to_owned()],
            (false, []) => vec!["secret".to_owned()],
            (false, groups) => groups.iter().map(|&g| group_folder(g)).collect(),
        }
    }

    /// Its path below `data/` without `.in`, in the folder that holds its files:
    /// `secret/group2/kills-greedy`.
    pub(super) fn path(&self) -> String {
        format!("{}/{}", self.folders()[0], self.name)
    }
}

/// A package's test is in memory, with our answer.
impl GradedTest for Test {
    fn files(&self) -> Result<Files<'_>, String> {
        Ok(Files { input: Cow::Borrowed(&self.input), answer: Some(Cow::Borrowed(&self.answer)) })
    }
}

/// The folder of group `group` (an index into [`Scoring::groups`]): `secret/group1` for 0.
pub(super) fn group_folder(group: usize) -> String {
    format!("secret/group{}", group + 1)
}

/// The tests made so far, and what the budget left out.
pub(super) struct Tests<'a, P: Packaged> {
    pub(super) problem: &'a P,
    /// The game and its jury, for an interactive package.
    pub(super) interactive: Option<&'a Interactive>,
    pub(super) scoring: Option<Scoring>,
    /// The format the package is written in.
    pub(super) format: Format,
    pub(super) budget: TestBudget,
    pub(super) tests: Vec<Test>,
    pub(super) big: usize,
    pub(super) left_out: usize,
}

/// Where the tests of each kind take their seeds: test `k` of a kind uses
/// `run_seed(seed, FIRST + k)`.
const EXTREME_SEEDS: u64 = 0;

/// See [`EXTREME_SEEDS`]: level `L`'s test `i` uses `LEVEL_SEEDS + 100 L + i`.
const LEVEL_SEEDS: u64 = 1_000;

/// See [`EXTREME_SEEDS`]: group `g`'s inputs use `GROUP_SEEDS + g`.
const GROUP_SEEDS: u64 = 100_000;

/// The size levels of the two inputs each group gets of its own
/// ([`Packaged::group_input`]), given the problem's level count: the middle one and the
/// largest.
fn group_levels(levels: u32) -> [u32; 2] {
    [levels / 2, levels - 1]
}

impl<'a, P: Packaged> Tests<'a, P> {
    /// No tests yet, of a batch package or (`interactive`) an interactive one, which is
    /// pass-fail, in `format`.
    pub(super) fn new(
        problem: &'a P,
        interactive: Option<&'a Interactive>,
        format: Format,
    ) -> Self {
        Self {
            problem,
            interactive,
            scoring: problem.scoring().filter(|_| interactive.is_none()),
            format,
            budget: problem.test_budget(),
            tests: Vec::new(),
            big: 0,
            left_out: 0,
        }
    }

    /// The groups a secret input goes to: none for a pass-fail problem, else every group
    /// whose constraints it meets (at least one).
    fn groups_of(&self, input: &P::Input, name: &str) -> Result<Vec<usize>, PackageError> {
        if self.scoring.is_none() {
            return Ok(Vec::new());
        }
        let groups = self.problem.groups_of(input);
        if groups.is_empty() {
            let message = "no group takes it".to_owned();
            return Err(PackageError::OurTest { test: name.to_owned(), message });
        }
        Ok(groups)
    }

    /// Adds `input` as test `name` (a sample, or a secret test in `groups`) unless an equal
    /// input is in, or the budget leaves it out (never when `keep`: a kill test is kept
    /// whatever its size; in an interactive package, a perfect player's interaction over
    /// [`INTERACTION_LINES`] lines leaves it out too); returns the path of the test that
    /// holds it, if one does. `played` is the perfect play of `input` within the line budget
    /// when it is already known.
    fn add(
        &mut self,
        sample: bool,
        groups: Vec<usize>,
        name: String,
        input: &P::Input,
        keep: bool,
        played: Option<PerfectPlay>,
    ) -> Option<String> {
        let problem = self.problem;
        let bytes = render(problem, input);
        if let Some(same) = self.tests.iter().find(|t| t.input == bytes) {
            return Some(same.path());
        }
        if bytes.len() > self.budget.big_bytes {
            if self.big >= self.budget.big_tests && !keep {
                self.left_out += 1;
                return None;
            }
            self.big += 1;
        }
        let transcript = match self.interactive {
            None => None,
            Some(interactive) => {
                let most = (!keep).then_some(INTERACTION_LINES);
                match played.or_else(|| interactive.juries.perfect_play(input, SEED, most)) {
                    Some(played) => Some(played.lines),
                    None => {
                        self.left_out += 1;
                        return None;
                    }
                }
            }
        };
        let mut answer = Vec::new();
        // A 2025-09 interactive package's answers are empty, as the jury does not read them.
        if self.interactive.is_none() || self.format == Format::Legacy {
            problem.render_answer(input, &problem.solve(input), &mut answer);
        }
        let size = TestSize { cases: problem.cases(input) as u64, bytes: bytes.len() as u64 };
        let test = Test { sample, groups, name, input: bytes, answer, size, transcript };
        let path = test.path();
        self.tests.push(test);
        Some(path)
    }

    /// Adds a secret input (into every group it meets), as [`add`](Self::add) does.
    pub(super) fn add_secret(
        &mut self,
        name: String,
        input: &P::Input,
        keep: bool,
    ) -> Result<Option<String>, PackageError> {
        let groups = self.groups_of(input, &name)?;
        Ok(self.add(false, groups, name, input, keep, None))
    }

    /// The tests in the order problemtools runs them: by their paths' parts.
    pub(super) fn ordered(&self) -> Vec<&Test> {
        let mut ordered: Vec<&Test> = self.tests.iter().collect();
        ordered.sort_by(|a, b| a.path().split('/').cmp(b.path().split('/')));
        ordered
    }

    /// Whether the package holds the problem's answer validator, if it has one: a 2025-09
    /// batch package does (the legacy format has none, and an interactive package's answers
    /// are empty).
    pub(super) fn holds_answer_validator(&self) -> bool {
        self.format == Format::V2025_09 && self.interactive.is_none()
    }

    /// Tests and bytes.
    pub(super) fn totals(&self) -> (usize, u64) {
        let bytes = self.tests.iter().map(|t| (t.input.len() + t.answer.len()) as u64).sum();
        (self.tests.len(), bytes)
    }
}

/// The samples: valid in the canonical format under the original limits, their answers
/// accepted against ours; the package holds ours.
pub(super) fn add_samples<P: Packaged>(
    problem: &P,
    about: &About,
    tests: &mut Tests<'_, P>,
) -> Result<(), PackageError> {
    for sample in about.samples {
        let input =
            validate_file(problem, sample.input, Limits::Original, Strictness::Canonical)
                .map_err(|e| PackageError::Sample { name: sample.name, message: e.to_string() })?;
        let ours = problem.solve(&input);
        let verdict = problem.judge(&input, &ours, sample.answer);
        if !verdict.is_ok() {
            let message = format!("the sample's answer disagrees with ours: {verdict}");
            return Err(PackageError::Sample { name: sample.name, message });
        }
        tests.add(true, Vec::new(), sample.name.to_owned(), &input, true, None);
    }
    Ok(())
}

/// The beginnings of the names of the tests a package makes itself, which the setter's tests
/// may not take.
const OUR_NAMES: [&str; 4] = ["limits-", "level-", "subtask-", "kills-"];

/// The setter's own tests: each `NAME.in` in `dir` (by name), valid in the canonical format
/// under the original limits, its `NAME.ans` (if there is one) accepted against our answer,
/// added as secret test `NAME` (into every group it meets) whatever its size. Returns how
/// many were added, and each left out as the same input as an earlier test: (its name, the
/// test that holds it).
pub(super) fn add_own<P: Packaged>(
    problem: &P,
    dir: &Path,
    tests: &mut Tests<'_, P>,
) -> Result<(usize, Vec<(String, String)>), PackageError> {
    let own =
        |path: &Path, message: String| PackageError::OwnTest { path: path.to_owned(), message };
    let entries = std::fs::read_dir(dir).map_err(|e| own(dir, e.to_string()))?;
    let mut inputs: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| own(dir, e.to_string()))?.path();
        if path.extension().is_some_and(|e| e == "in") && path.is_file() {
            inputs.push(path);
        }
    }
    inputs.sort();
    let (mut added, mut same) = (0, Vec::new());
    if inputs.is_empty() {
        return Err(own(dir, "no NAME.in in it".to_owned()));
    }
    for path in &inputs {
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let name = file.strip_suffix(".in").unwrap_or(&file).to_owned();
        if !super::file_name_ok(&file) || OUR_NAMES.iter().any(|ours| name.starts_with(ours)) {
            let message = format!(
                "a test's name must match [a-zA-Z0-9_][a-zA-Z0-9_.-]* for the package format, and \
                 not begin as the package's own do ({})",
                OUR_NAMES.join(", ")
            );
            return Err(own(path, message));
        }
        let bytes = std::fs::read(path).map_err(|e| own(path, e.to_string()))?;
        let input = validate_file(problem, &bytes, Limits::Original, Strictness::Canonical)
            .map_err(|e| own(path, format!("`{} validate` rejects it: {e}", problem.name())))?;
        let answer = path.with_extension("ans");
        if let Ok(given) = std::fs::read(&answer) {
            let verdict = problem.judge(&input, &problem.solve(&input), &given);
            if !verdict.is_ok() {
                return Err(own(&answer, format!("it disagrees with our answer: {verdict}")));
            }
        }
        let held = tests.add_secret(name.clone(), &input, true)?;
        match held {
            Some(path) if !path.ends_with(&format!("/{name}")) => same.push((name, path)),
            _ => added += 1,
        }
    }
    Ok((added, same))
}

/// Inputs drawn for each generated test of an interactive package, of which it keeps the
/// one that asks a perfect player the most decisions ([`most_decisions`]).
const CANDIDATES: usize = 4;

/// Of [`CANDIDATES`] inputs of `level` drawn from `rng`, the one whose perfect games within
/// [`INTERACTION_LINES`] ask the player the most decisions ([`PerfectPlay::decisions`]: the
/// positions where a move is wrong, where a wrong player can lose), the first of equals; the
/// first drawn when none is within the budget; with its perfect play, if within. A random
/// small railway of toy-train is often won whatever the player does, so a test drawn blind
/// beats few wrong players. `O(CANDIDATES)` perfect plays.
fn most_decisions<P: Packaged>(
    problem: &P,
    interactive: &Interactive,
    rng: &mut SplitMix64,
    level: u32,
) -> (P::Input, Option<PerfectPlay>) {
    let mut kept: Option<(P::Input, Option<PerfectPlay>)> = None;
    for _ in 0..CANDIDATES {
        let input = problem.generate(rng, level, Limits::Original);
        let played = interactive.juries.perfect_play(&input, SEED, Some(INTERACTION_LINES));
        let decisions = |played: &Option<PerfectPlay>| played.as_ref().map(|p| p.decisions);
        if kept.as_ref().is_none_or(|(_, most)| decisions(&played) > decisions(most)) {
            kept = Some((input, played));
        }
    }
    kept.expect("at least one candidate is drawn")
}

/// The extremes of the original limits, the generated tests of every level, and the inputs
/// made for each group; when `most` is given, the first `most` levels alone and no extremes.
pub(super) fn add_generated<P: Packaged>(
    problem: &P,
    seed: u64,
    most: Option<u32>,
    tests: &mut Tests<'_, P>,
) -> Result<(), PackageError> {
    let limits = Limits::Original;
    // An interactive package keeps an extreme when a perfect player's interaction on it is
    // short enough (`add`), as it keeps a level's test: hero-battle's every number 1 or 99,
    // not its games of 99 hit points against damage 1 (some 24,000 lines), card-duel's
    // 351,493 games or toy-train's railway of 5,000 stations sent once a game.
    let extremes = if most.is_some() { 0 } else { problem.extremes(limits) };
    for k in 0..extremes {
        let mut rng = SplitMix64::new(run_seed(seed, EXTREME_SEEDS + u64::from(k)));
        let input = problem.extreme(k, &mut rng, limits);
        tests.add_secret(format!("limits-{:02}", k + 1), &input, false)?;
    }
    // An interactive package's levels are the game's small ones, as `stress --interactive`'s.
    let levels = tests.interactive.map_or(P::LEVELS, |i| i.juries.levels().min(P::LEVELS));
    let levels = most.map_or(levels, |most| levels.min(most));
    for level in 0..levels {
        for i in 0..tests.budget.per_level {
            let number = LEVEL_SEEDS + 100 * u64::from(level) + u64::from(i);
            let mut rng = SplitMix64::new(run_seed(seed, number));
            let name = format!("level-{level}-{:02}", i + 1);
            match tests.interactive {
                None => {
                    let input = problem.generate(&mut rng, level, limits);
                    tests.add_secret(name, &input, false)?;
                }
                Some(interactive) => {
                    let (input, played) = most_decisions(problem, interactive, &mut rng, level);
                    let groups = tests.groups_of(&input, &name)?;
                    tests.add(false, groups, name, &input, false, played);
                }
            }
        }
    }
    let groups = tests.scoring.map_or(0, |s| s.groups.len());
    for group in 0..groups {
        let mut rng = SplitMix64::new(run_seed(seed, GROUP_SEEDS + group as u64));
        for (i, level) in group_levels(P::LEVELS).into_iter().enumerate() {
            let input = problem.group_input(group, level, &mut rng);
            tests.add_secret(format!("subtask-{}-{:02}", group + 1, i + 1), &input, false)?;
        }
    }
    for group in 0..groups {
        if !tests.tests.iter().any(|t| t.groups.contains(&group)) {
            let message = "no test of the package is in this group".to_owned();
            return Err(PackageError::OurTest { test: group_folder(group), message });
        }
    }
    Ok(())
}

/// Our own checks of every test: valid in the canonical format under the original limits,
/// accepted by the package's input validator (with its group's flags), and our answer
/// accepted by a custom output validator and by the answer validator a package holds.
pub(super) fn check_tests<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    tests: &Tests<'_, P>,
    scratch: &Path,
) -> Result<(), PackageError> {
    let our_test =
        |test: &Test, message: String| PackageError::OurTest { test: test.path(), message };
    let validator = compile_source(scratch, "validate", &input_validator_source(problem))?;
    let custom = match problem.output_validator() {
        // An interactive package's output validator is the jury, checked on its own.
        _ if tests.interactive.is_some() => None,
        OutputValidator::Custom { name, source, .. } => {
            Some(compile_source(scratch, name, source)?)
        }
        OutputValidator::Default { .. } => None,
    };
    let answers = match answer_validator_source(problem) {
        Some(source) if tests.holds_answer_validator() => {
            Some(compile_source(scratch, "answer", &source)?)
        }
        _ => None,
    };
    let limits = ChildOptions::new(Duration::from_secs(60), None);
    let run = |program: &Program, test: &Test, stdin: &[u8]| {
        sandbox
            .run(program, stdin, &limits)
            .map_err(|e| PackageError::of_run(e, program.display(), test.path()))
    };
    let feedback = scratch.join("feedback");
    std::fs::create_dir_all(&feedback)
        .map_err(|source| PackageError::Io { path: feedback.clone(), source })?;
    for test in &tests.tests {
        validate_file(problem, &test.input, Limits::Original, Strictness::Canonical)
            .map_err(|e| our_test(test, format!("`validate` rejects it: {e}")))?;
        // Each group's flags, as problemtools validates each folder that holds the test.
        let flags: Vec<&str> = match (tests.scoring, test.groups.as_slice()) {
            (Some(scoring), groups) if !groups.is_empty() => {
                groups.iter().map(|&g| scoring.groups[g].validator_flags).collect()
            }
            _ => vec![""],
        };
        for group_flags in flags {
            let mut command = vec![validator.clone()];
            command.extend(group_flags.split_whitespace().map(PathBuf::from));
            let ran = run(&Program::new(&command), test, &test.input)?;
            if ran.exit != Exit::Code(42) {
                let message = format!(
                    "the package's input validator{} rejects it ({}): {}",
                    if group_flags.is_empty() {
                        String::new()
                    } else {
                        format!(" with {group_flags}")
                    },
                    ran.exit,
                    ran.stderr_excerpt(200)
                );
                return Err(our_test(test, message));
            }
        }
        if let Some(answers) = &answers {
            let input = scratch.join("judge.in");
            std::fs::write(&input, &test.input)
                .map_err(|source| PackageError::Io { path: input.clone(), source })?;
            let ran = run(&Program::new(&[answers, &input]), test, &test.answer)?;
            if ran.exit != Exit::Code(42) {
                let message = format!(
                    "the answer validator rejects our answer ({}): {}",
                    ran.exit,
                    ran.stderr_excerpt(200)
                );
                return Err(our_test(test, message));
            }
        }
        if let Some(custom) = &custom {
            let files = [&test.input, &test.answer];
            let paths = [scratch.join("judge.in"), scratch.join("judge.ans")];
            for (path, bytes) in paths.iter().zip(files) {
                std::fs::write(path, bytes)
                    .map_err(|source| PackageError::Io { path: path.clone(), source })?;
            }
            let command = [custom.clone(), paths[0].clone(), paths[1].clone(), feedback.clone()];
            let ran = run(&Program::new(&command), test, &test.answer)?;
            if ran.exit != Exit::Code(42) {
                let message = format!("the output validator rejects our answer ({})", ran.exit);
                return Err(our_test(test, message));
            }
        }
    }
    Ok(())
}

/// Writes a C++ `source` into `scratch` as `NAME.cpp` and compiles it; returns the binary.
fn compile_source(scratch: &Path, name: &str, source: &str) -> Result<PathBuf, PackageError> {
    let file = scratch.join(format!("{name}.cpp"));
    std::fs::write(&file, source)
        .map_err(|e| PackageError::Io { path: file.clone(), source: e })?;
    let binary = scratch.join(name);
    compile_cpp(&file, &binary)?;
    Ok(binary)
}
