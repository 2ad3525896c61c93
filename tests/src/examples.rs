//! The documents' examples, run: every command a Markdown document of the workspace shows in a
//! block marked `<!-- example -->` must print what the block shows, so that no README's report
//! drifts from what the binary prints.
//!
//! The convention, in a document:
//!
//! ````text
//! <!-- example -->
//! ```text
//! $ hero-battle check hero-battle/problem/sample1.in out.txt
//! wrong answer: case 4: expected "Bob wins", found "It depends"
//! ```
//! ````
//!
//! A `$ ` line is a command for `sh`, and the lines up to the next command are what it prints,
//! stdout and stderr together. A fenced block marked `<!-- file NAME -->` is a file (a script)
//! that the examples of its document use: it is written as `NAME` beside them. Each example
//! runs in a fresh folder of its own, where `CRATE/problem/` is the problem crate's folder of
//! statement and samples, and with the binary under test first on `PATH`.
//!
//! Only what must vary is normalised: on a report's `measured:` and `time:` lines every
//! figure (times, memory, run counts, `-j`'s thread count) matches any figure. Two marks
//! shorten a long output on the page, and say so: a line ending in ` [...]` stands for any
//! line that starts with the text before the mark (a line cut to fit the page), and a line
//! that is only `[...]` (indented or not) for any number of lines left out.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One command of an example and the lines it must print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The command, for `sh`.
    pub command: String,
    /// What it prints, line by line, with the marks of the module notes.
    pub prints: Vec<String>,
}

/// A block marked `<!-- example -->`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The document.
    pub document: PathBuf,
    /// The line of the block's opening fence, from 1.
    pub line: usize,
    /// Its commands in order.
    pub steps: Vec<Step>,
    /// The files its document marks (`<!-- file NAME -->`): name and text.
    pub files: Vec<(String, String)>,
}

impl Example {
    /// Whether a command of the example runs `binary` (a word of a command line).
    #[must_use]
    pub fn runs(&self, binary: &str) -> bool {
        self.steps.iter().any(|s| s.command.split_whitespace().any(|word| word == binary))
    }

    /// Where it is, as `README.md:40`.
    #[must_use]
    pub fn place(&self) -> String {
        let root = super::workspace_root();
        let document = self.document.strip_prefix(&root).unwrap_or(&self.document);
        format!("{}:{}", document.display(), self.line)
    }
}

/// What a marker line announces.
enum Marker {
    Example,
    File(String),
}

/// The marker on `line`, if it is one.
fn marker(line: &str) -> Option<Marker> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    match inner.split_once(' ') {
        None if inner == "example" => Some(Marker::Example),
        Some(("file", name)) => Some(Marker::File(name.trim().to_owned())),
        _ => None,
    }
}

/// The marked examples of one document's text.
///
/// # Panics
/// When a marker is not followed by a fenced block, or an example's block does not start
/// with a command: a malformed example must not be skipped silently.
#[must_use]
pub fn parse(document: &Path, text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Vec::new();
    let mut files = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(marker) = marker(lines[i]) else {
            i += 1;
            continue;
        };
        let place = format!("{}:{}", document.display(), i + 1);
        let fence = lines.get(i + 1).map(|l| l.trim_start()).unwrap_or_default();
        assert!(fence.starts_with("```"), "{place}: a marker must be followed by a fenced block");
        let start = i + 2;
        let end = (start..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .unwrap_or_else(|| panic!("{place}: the block is never closed"));
        let body = &lines[start..end];
        match marker {
            Marker::File(name) => {
                files.push((name, body.iter().map(|l| format!("{l}\n")).collect()));
            }
            Marker::Example => {
                let mut steps: Vec<Step> = Vec::new();
                for line in body {
                    if let Some(command) = line.strip_prefix("$ ") {
                        steps.push(Step { command: command.to_owned(), prints: Vec::new() });
                    } else {
                        let step = steps.last_mut();
                        let step = step.unwrap_or_else(|| panic!("{place}: starts with `$ `"));
                        step.prints.push((*line).to_owned());
                    }
                }
                assert!(!steps.is_empty(), "{place}: an example without a command");
                let document = document.to_path_buf();
                examples.push(Example { document, line: i + 2, steps, files: Vec::new() });
            }
        }
        i = end + 1;
    }
    for example in &mut examples {
        example.files.clone_from(&files);
    }
    examples
}

/// Every Markdown document of the workspace, outside build output and test data.
fn documents(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !["target", "snapshots", "data"].contains(&name.as_str()) {
                documents(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// Every marked example of the workspace's documents, by document and line.
///
/// # Panics
/// As [`parse`], or when a document cannot be read.
#[must_use]
pub fn examples() -> Vec<Example> {
    let mut files = Vec::new();
    documents(&super::workspace_root(), &mut files);
    files.sort();
    files
        .iter()
        .flat_map(|f| parse(f, &std::fs::read_to_string(f).expect("a document is readable")))
        .collect()
}

/// A report line's figures, which differ from run to run, as `#`: every word of a
/// `measured:` or `time:` line that starts with a digit, and the unit after it.
fn normalise(line: &str) -> String {
    if !(line.starts_with("measured: ") || line.starts_with("time: ")) {
        return line.to_owned();
    }
    let units = ["ms", "s", "B", "KB", "MB", "GB"];
    let mut after_figure = false;
    let words = line.split(' ').map(|word| {
        let bare = word.trim_end_matches(',');
        let comma = if bare.len() < word.len() { "," } else { "" };
        let figure = bare.starts_with(|c: char| c.is_ascii_digit());
        let unit = after_figure && units.contains(&bare);
        after_figure = figure;
        if figure || unit { format!("#{comma}") } else { word.to_owned() }
    });
    words.collect::<Vec<_>>().join(" ")
}

/// Whether `actual` is what the page's `expected` line shows (module notes).
fn line_matches(expected: &str, actual: &str) -> bool {
    match expected.strip_suffix(" [...]") {
        Some(start) => actual.starts_with(start),
        None => normalise(expected) == normalise(actual),
    }
}

/// Whether the lines `actual` are what the page's lines `expected` show, `[...]` alone on a
/// line standing for any number of lines.
#[must_use]
pub fn output_matches(expected: &[String], actual: &[String]) -> bool {
    let Some((first, rest)) = expected.split_first() else { return actual.is_empty() };
    if first.trim() == "[...]" {
        return (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]));
    }
    actual
        .split_first()
        .is_some_and(|(line, others)| line_matches(first, line) && output_matches(rest, others))
}

/// Runs `example` in a fresh folder with `binary`'s folder first on `PATH`, and returns a
/// description of every step whose output is not what the page shows.
fn drifts(example: &Example, binary: &Path, scratch: &Path) -> Vec<String> {
    for problem in super::registry::problems() {
        let link = scratch.join(&problem.name);
        std::fs::create_dir_all(&link).expect("the scratch folder is writable");
        std::os::unix::fs::symlink(problem.dir.join("problem"), link.join("problem"))
            .expect("a link in the scratch folder");
    }
    for (name, text) in &example.files {
        let _path = super::write_file(scratch, name, text);
    }
    let folder = binary.parent().expect("a binary sits in a folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(folder.to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .expect("PATH can be joined");
    let mut drifts = Vec::new();
    for step in &example.steps {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1\n{}", step.command))
            .current_dir(scratch)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let printed = String::from_utf8_lossy(&output.stdout);
        let actual: Vec<String> = printed.lines().map(str::to_owned).collect();
        if !output_matches(&step.prints, &actual) {
            drifts.push(format!(
                "{}: `$ {}` printed:\n{printed}\nwhere the page shows:\n{}\n",
                example.place(),
                step.command,
                step.prints.join("\n")
            ));
        }
    }
    drifts
}

/// Runs every marked example that runs `binary` (a problem binary under test, from
/// `env!("CARGO_BIN_EXE_...")`), and returns how many there were.
///
/// # Panics
/// When some example prints other than its page shows (each drift is named, with both
/// outputs), or when an example is malformed.
pub fn assert_examples(binary: &str) -> usize {
    let binary = Path::new(binary);
    let name = binary.file_name().expect("a binary has a name").to_string_lossy().into_owned();
    let examples: Vec<Example> = examples().into_iter().filter(|e| e.runs(&name)).collect();
    let mut drifted = Vec::new();
    for (i, example) in examples.iter().enumerate() {
        let scratch = super::scratch_dir("examples", &format!("{name}-{i}"));
        drifted.extend(drifts(example, binary, &scratch));
        let _ = std::fs::remove_dir_all(&scratch);
    }
    assert!(drifted.is_empty(), "the documents drifted from {name}:\n\n{}", drifted.join("\n"));
    examples.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn only_the_marks_and_the_figures_of_a_report_vary() {
        let page = lines(
            "found by run 0\nlimits: 1 s of CPU [...]\n    [...]\nmeasured: CPU 1 ms, wall 5 ms, peak memory 1.65 MB\ntime: 0.0 s, shrinking 0.1 s in 30 runs, -j 2",
        );
        let printed = lines(
            "found by run 0\nlimits: 1 s of CPU time and more\n    a\n    b\nmeasured: CPU 1.500 s, wall 21 ms, peak memory 980 KB\ntime: 0.1 s, shrinking 0.3 s in 31 runs, -j 1",
        );
        assert!(output_matches(&page, &printed));
        // Anything else must be the same: a word, a line too many or too few, a figure
        // elsewhere than on the report's last lines.
        for changed in [
            "found by run 1\nlimits: 1 s of CPU time\nmeasured: CPU 1 ms, wall 5 ms, peak memory 1.65 MB\ntime: 0.0 s, shrinking 0.1 s in 30 runs, -j 2",
            "found by run 0\nlimits: 2 s of CPU time\nmeasured: CPU 1 ms, wall 5 ms, peak memory 1.65 MB\ntime: 0.0 s, shrinking 0.1 s in 30 runs, -j 2",
            "found by run 0\nlimits: 1 s of CPU time\nmeasured: CPU 1 ms, wall 5 ms, peak memory 1.65 MB",
            "found by run 0\nlimits: 1 s of CPU time\nmeasured: CPU 1 ms, wall 5 ms, peak 1.65 MB\ntime: 0.0 s, shrinking 0.1 s in 30 runs, -j 2",
            "found by run 0\nlimits: 1 s of CPU time\nmeasured: CPU 1 ms, wall 5 ms, peak memory 1.65 MB\ntime: 0.0 s, shrinking 0.1 s in 30 runs, -j 2\nmore",
        ] {
            assert!(!output_matches(&page, &lines(changed)), "{changed}");
        }
        assert!(!output_matches(&lines("a"), &[]) && !output_matches(&[], &lines("a")));
    }

    #[test]
    fn examples_and_files_are_read_from_their_marks() {
        let text = "# Doc\n\n<!-- file script.sh -->\n```sh\necho hi\n```\n\n<!-- example -->\n```text\n$ sh script.sh\nhi\n$ true\n```\n\n```text\n$ unmarked\n```\n";
        let examples = parse(Path::new("doc.md"), text);
        assert_eq!(examples.len(), 1);
        let example = &examples[0];
        assert_eq!(example.line, 9);
        assert_eq!(example.files, vec![("script.sh".to_owned(), "echo hi\n".to_owned())]);
        let steps = [("sh script.sh", vec!["hi"]), ("true", vec![])];
        let steps = steps.map(|(c, p)| Step {
            command: c.to_owned(),
            prints: p.into_iter().map(str::to_owned).collect(),
        });
        assert_eq!(example.steps, steps);
        assert!(example.runs("sh") && !example.runs("hi"));
    }
}
