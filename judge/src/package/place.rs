//! Where a package is written: the folder asked for, checked before any work, and the
//! folder beside it where the package is written whole before it takes the folder's place.

use std::borrow::Cow;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use engine::fs::write_aside;

use super::contents::Tests;
use super::kattis::Format;
use super::{
    About, Filed, OutputValidator, PackageError, Packaged, Submission, answer_validator_source,
    input_validator_source, kattis, short_name_ok,
};

/// Where the package goes: the folder asked for, checked before any work, and the folder
/// beside it where the package is written before it takes the folder's place (removed if
/// the build fails).
pub(super) struct Place {
    dir: PathBuf,
    aside: PathBuf,
    /// The first folder above `dir` that the build made, if it made one: removed again with
    /// the folder beside the package when the package is not written.
    made: Option<PathBuf>,
}

impl Place {
    /// `dir`'s last part must be a short name; an existing `dir` must be empty or a package;
    /// the folder beside it is made now, so that a place that cannot be written fails the
    /// build before any work.
    pub(super) fn check(dir: &Path, problem_name: &str) -> Result<Self, PackageError> {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !short_name_ok(&name) {
            let short: String = problem_name.chars().filter(char::is_ascii_alphanumeric).collect();
            let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
            let suggestion =
                parent.map_or_else(|| short.clone(), |p| p.join(&short).display().to_string());
            return Err(PackageError::ShortName { name, suggestion });
        }
        if dir.exists() {
            let empty = std::fs::read_dir(dir).map(|mut d| d.next().is_none()).unwrap_or(false);
            if !empty && !dir.join("problem.yaml").is_file() {
                return Err(PackageError::NotAPackage(dir.to_owned()));
            }
        }
        let aside = dir.with_file_name(format!(".{name}-building-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&aside);
        let made = aside
            .ancestors()
            .skip(1)
            .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
            .last()
            .map(Path::to_owned);
        std::fs::create_dir_all(&aside)
            .map_err(|source| PackageError::Io { path: aside.clone(), source })?;
        Ok(Self { dir: dir.to_owned(), aside, made })
    }

    /// Writes the package in its tests' format beside the folder, then puts it in the
    /// folder's place (an earlier package there is replaced); its time limit is `limit`
    /// seconds, `given` by the setter or not. Returns the folder.
    pub(super) fn write<P: Packaged>(
        &self,
        problem: &P,
        about: &About,
        tests: &Tests<'_, P>,
        submissions: &[Submission],
        filed: &[Filed],
        (limit, given): (u64, bool),
    ) -> Result<PathBuf, PackageError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| PackageError::Io { path, source }
        };
        let write = |relative: &str, bytes: &[u8]| -> Result<(), PackageError> {
            let path = self.aside.join(relative);
            let folder = path.parent().expect("a file of the package has a folder");
            std::fs::create_dir_all(folder).map_err(io(folder))?;
            write_aside(&path, bytes).map_err(PackageError::Write)
        };
        let output = problem.output_validator();
        let scoring = tests.scoring;
        let interactive = tests.interactive;
        let memory = P::RUN_LIMITS.memory_mib;
        let largest_answer = tests.tests.iter().map(|t| t.answer.len()).max().unwrap_or(0);
        let format = tests.format;
        let legacy = format == Format::Legacy;
        let yaml = kattis::problem_yaml(
            format,
            about,
            problem.name(),
            memory,
            P::RUN_LIMITS.time,
            (limit, given),
            &output,
            interactive.is_some(),
            scoring.as_ref(),
            largest_answer,
        );
        write("problem.yaml", yaml.as_bytes())?;
        if legacy {
            write(".timelimit", format!("{limit}\n").as_bytes())?;
        } else if let Some(yaml) =
            kattis::test_group_yaml(&output).filter(|_| interactive.is_none())
        {
            write("data/test_group.yaml", yaml.as_bytes())?;
        }
        let statement = match interactive {
            Some(_) => Cow::Owned(super::interactive::statement(about)),
            None => Cow::Borrowed(about.statement),
        };
        let tex = kattis::statement_tex(about.title, about.statement_path, &statement);
        write(&format!("{}/problem.en.tex", format.statement_folder()), tex.as_bytes())?;
        for test in &tests.tests {
            let folders = test.folders();
            // A sample's game as the statement shows it (problemtools renders it).
            if let (true, Some(lines)) = (test.sample, &test.transcript) {
                let text = super::interactive::interaction_text(lines);
                write(&format!("data/sample/{}.interaction", test.name), text.as_bytes())?;
                if !legacy {
                    // What a contestant downloads to play the sample with a local jury, as
                    // BAPCtools' upgrade of a legacy package gives: the input, and no answer.
                    let link = self.aside.join(format!("data/sample/{}.in.download", test.name));
                    let target = format!("{}.in", test.name);
                    std::os::unix::fs::symlink(&target, &link).map_err(io(&link))?;
                    write(&format!("data/sample/{}.ans.download", test.name), b"")?;
                }
            }
            for (ending, bytes) in [("in", &test.input), ("ans", &test.answer)] {
                let file = format!("{}.{ending}", test.name);
                write(&format!("data/{}/{file}", folders[0]), bytes)?;
                // The other groups that hold the test link to its files, as the format
                // allows (symbolic links within the package); problemtools then does not
                // warn of identical inputs, which copies would be.
                for folder in &folders[1..] {
                    let link = self.aside.join(format!("data/{folder}/{file}"));
                    let parent = link.parent().expect("a test's file has a folder");
                    std::fs::create_dir_all(parent).map_err(io(parent))?;
                    let target = relative_to(&folders[0], folder).join(&file);
                    std::os::unix::fs::symlink(&target, &link).map_err(io(&link))?;
                }
            }
        }
        if let Some(scoring) = &scoring {
            write("data/testdata.yaml", kattis::ROOT_TESTDATA.as_bytes())?;
            write("data/sample/testdata.yaml", kattis::SAMPLE_TESTDATA.as_bytes())?;
            write("data/secret/testdata.yaml", kattis::SECRET_TESTDATA.as_bytes())?;
            for (k, group) in scoring.groups.iter().enumerate() {
                let yaml = kattis::group_testdata(group.points, group.validator_flags);
                write(&format!("data/secret/group{}/testdata.yaml", k + 1), yaml.as_bytes())?;
            }
        }
        write("input_validators/validate.cpp", input_validator_source(problem).as_bytes())?;
        if let Some(source) = answer_validator_source(problem)
            && tests.holds_answer_validator()
        {
            write("answer_validators/answer.cpp", source.as_bytes())?;
        }
        // Kattis copies include/cpp/ beside every C++ submission before compiling it.
        if let Some(interface) = problem.interface().filter(|_| interactive.is_none()) {
            for (name, text) in interface.files() {
                write(&format!("include/cpp/{name}"), text.as_bytes())?;
            }
        }
        match (interactive, output) {
            (Some(interactive), _) => {
                let folder = format.output_validator_folder(super::interactive::JURY_FOLDER);
                let jury = std::fs::read(&interactive.jury).map_err(io(&interactive.jury))?;
                for (name, bytes) in
                    [("build", super::interactive::BUILD_SCRIPT.as_bytes()), ("run", &jury)]
                {
                    let file = format!("{folder}/{name}");
                    write(&file, bytes)?;
                    let path = self.aside.join(&file);
                    let executable = std::fs::Permissions::from_mode(0o755);
                    std::fs::set_permissions(&path, executable).map_err(io(&path))?;
                }
            }
            (None, OutputValidator::Custom { name, source, .. }) => {
                let folder = format.output_validator_folder(name);
                write(&format!("{folder}/{name}.cpp"), source.as_bytes())?;
            }
            (None, OutputValidator::Default { .. }) => {}
        }
        for one in filed {
            let submission = (submissions.iter())
                .find(|s| s.file_name == one.file)
                .expect("a filed submission is one given");
            let source = std::fs::read(&submission.source).map_err(io(&submission.source))?;
            write(&format!("submissions/{}/{}", one.folder, one.file), &source)?;
        }
        if self.dir.exists() {
            std::fs::remove_dir_all(&self.dir).map_err(io(&self.dir))?;
        }
        std::fs::rename(&self.aside, &self.dir).map_err(io(&self.dir))?;
        Ok(self.dir.clone())
    }
}

/// The path of folder `target` seen from folder `from`, both relative to one root:
/// `../group2` from `secret/group6` to `secret/group2`.
fn relative_to(target: &str, from: &str) -> PathBuf {
    let (target, from): (Vec<&str>, Vec<&str>) =
        (target.split('/').collect(), from.split('/').collect());
    let common = target.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut path = PathBuf::new();
    for _ in common..from.len() {
        path.push("..");
    }
    for part in &target[common..] {
        path.push(part);
    }
    path
}

impl Drop for Place {
    /// Removes the folder beside the package, unless it was renamed into place, and the
    /// folders made for it when no package was written.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.aside);
        if let Some(made) = self.made.as_ref().filter(|_| !self.dir.exists()) {
            // Empty folders only, from the innermost up: anything else there is not ours.
            let parents = self.aside.ancestors().skip(1);
            for folder in parents.take_while(|f| f.starts_with(made)) {
                if std::fs::remove_dir(folder).is_err() {
                    break;
                }
            }
        }
    }
}
