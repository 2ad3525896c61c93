//! What `stress` and `shrink` print about a failure, as a value: [`FailureReport`] holds the
//! facts (how the failure was found, the limits, how far shrinking got, the verdict, the
//! texts, the commands that go on from it) and its `Display` lays them out so that the
//! report fits a screen whatever the input's size.
//!
//! A text (the input, our answer, the program's output, a proof) of at most [`SHOWN_LINES`]
//! lines is printed whole, each line cut at [`SHOWN_WIDTH`] characters. A longer one is
//! summarised: its size, its first lines, and for an output that differs from our answer the
//! first line that differs with the lines just before it; a long transcript of a game
//! against the jury, its last lines, where the game ended. Every text is saved whole beside
//! the failing input (`counterexample.in`, `.ans`, `.out`, `.transcript`, and each proof's own ending), under
//! a name no earlier failure holds ([`unused_save_path`]), and the report names each file.

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::rules::{Verdict, VerdictKind};
use crate::text::{bytes, count, plural};

/// Texts of at most this many lines are printed whole.
pub(crate) const SHOWN_LINES: usize = 40;
/// Lines longer than this many characters are cut in a report.
pub(crate) const SHOWN_WIDTH: usize = 160;
/// Lines a summary shows from the head of a long text.
const HEAD_LINES: usize = 8;
/// Lines shown before the first difference.
const CONTEXT_LINES: usize = 2;
/// Lines a long transcript shows from its end.
const TAIL_LINES: usize = 20;

/// What a text of a report is, which decides how much of it a report shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The failing input: up to [`SHOWN_LINES`] lines.
    Input,
    /// Our answer: compared with the output line by line when the verdict is about it.
    Answer,
    /// The program's output.
    Output,
    /// The program's stderr.
    Stderr,
    /// A proof of our answer.
    Exhibit,
    /// What a player and the jury said: its last lines when long, where the game ended.
    Transcript,
}

/// One text of a report and where it was saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Text {
    /// What it is to the report.
    pub role: Role,
    /// What it is: `input`, `our answer`, `your output`, `why our answer is right`.
    pub title: String,
    /// A short description after the title: `1 case, hit points 1..=3`.
    pub about: Option<String>,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where they were saved, or why they were not.
    pub saved: Saved,
}

/// Where a text goes, and whether it got there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Saved {
    /// To be saved whole in this file ([`FailureReport::save`]).
    ToSave(PathBuf),
    /// Saved whole in this file.
    To(PathBuf),
    /// Not saved: what went wrong.
    Failed(String),
    /// Not meant to be saved (a stderr tail).
    No,
}

impl Text {
    /// A text to be saved whole at `path` when the report is saved.
    #[must_use]
    pub(crate) fn saved(
        role: Role,
        title: &str,
        about: Option<String>,
        bytes: Vec<u8>,
        path: PathBuf,
    ) -> Self {
        Self { role, title: title.to_owned(), about, bytes, saved: Saved::ToSave(path) }
    }

    /// A text that is shown and not saved (stderr).
    #[must_use]
    pub(crate) fn shown(role: Role, title: &str, about: Option<String>, bytes: Vec<u8>) -> Self {
        Self { role, title: title.to_owned(), about, bytes, saved: Saved::No }
    }
}

/// A failure, from how it was found to the commands that go on from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FailureReport {
    /// How it was found, one line: `found by run 14: runtime error: signal 11 (SIGSEGV)`.
    pub found: String,
    /// Lines about the search: runs tried, the limits, how far shrinking got.
    pub about: Vec<String>,
    /// The verdict of the reported (shrunk) input.
    pub verdict: Verdict,
    /// The input, our answer, the program's output, its stderr, our proofs, in that order.
    pub texts: Vec<Text>,
    /// Commands that go on from here, with what each does: `run it again`, `replay`.
    pub commands: Vec<(String, String)>,
    /// The reported run's CPU time, wall time and peak memory, and how it was measured.
    pub measured: String,
    /// The last line: times, run counts and `-j` (the one line that varies with `-j`).
    pub time: String,
}

/// The files beside `input` (the failing input's path) that hold its other texts: `x.in`
/// gives `x.ans`, `x.out`, `x.proof`; a name without the `.in` ending gets the ending added.
#[must_use]
pub(crate) fn beside(input: &Path, extension: &str) -> PathBuf {
    if input.extension().is_some_and(|e| e == "in") {
        input.with_extension(extension)
    } else {
        let mut name = input.as_os_str().to_owned();
        name.push(".");
        name.push(extension);
        PathBuf::from(name)
    }
}

/// The first of `input`, `input-2`, `input-3`, ... (the number before the `.in` ending) for
/// which neither the input nor any of its texts beside it (`extensions`) exists yet, claimed
/// by creating the input empty, so that a saved failure never overwrites an earlier one, nor
/// one another judge saves at the same moment in the same folder.
#[must_use]
pub(crate) fn unused_save_path(input: &Path, extensions: &[&str]) -> PathBuf {
    let numbered = |n: u32| -> PathBuf {
        if n == 1 {
            return input.to_owned();
        }
        // The number goes before the extension (`transcript-2.txt`, `counterexample-2.in`),
        // so the name keeps the extension that says what it holds.
        match (input.extension(), input.file_stem()) {
            (Some(extension), Some(stem)) => {
                let mut name = stem.to_owned();
                name.push(format!("-{n}."));
                name.push(extension);
                input.with_file_name(name)
            }
            _ => {
                let mut name = input.as_os_str().to_owned();
                name.push(format!("-{n}"));
                PathBuf::from(name)
            }
        }
    };
    (1..)
        .map(numbered)
        .find(|path| {
            let texts_free = extensions.iter().all(|&extension| !beside(path, extension).exists());
            // A folder that cannot be written gives up the claim: the save reports why.
            texts_free
                && match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
                    Ok(_) => true,
                    Err(e) => e.kind() != std::io::ErrorKind::AlreadyExists,
                }
        })
        .expect("some numbered name is free")
}

/// The lines of `bytes` (split at `\n`, a final newline ending the last line).
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if bytes.ends_with(b"\n") || bytes.is_empty() {
        lines.pop();
    }
    lines
}

/// One line as a report shows it, cut to [`SHOWN_WIDTH`] characters.
fn shown_line(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches('\r');
    let width = text.chars().count();
    if width <= SHOWN_WIDTH {
        return text.to_owned();
    }
    let head: String = text.chars().take(SHOWN_WIDTH).collect();
    format!("{head} ... ({} more characters)", count((width - SHOWN_WIDTH) as u64))
}

/// Whether `bytes` is printed whole (its long lines cut) in at most `shown` lines.
fn fits(bytes: &[u8], shown: usize) -> bool {
    lines(bytes).len() <= shown
}

fn write_lines(f: &mut fmt::Formatter<'_>, lines: &[&[u8]]) -> fmt::Result {
    for line in lines {
        writeln!(f, "    {}", shown_line(line))?;
    }
    Ok(())
}

impl Text {
    /// The heading: title, description, size when summarised, and the file.
    fn heading(&self, whole: bool) -> String {
        let mut heading = self.title.clone();
        let mut details = Vec::new();
        if let Some(about) = &self.about {
            details.push(about.clone());
        }
        if self.bytes.is_empty() {
            details.push("empty".to_owned());
        } else if !whole {
            let n = lines(&self.bytes).len() as u64;
            details.push(format!("{}, {}", plural(n, "line"), bytes(self.bytes.len() as u64)));
        }
        if !details.is_empty() {
            let _ = write!(heading, " ({})", details.join("; "));
        }
        match &self.saved {
            Saved::To(path) | Saved::ToSave(path) => {
                let _ = write!(heading, ", saved to {}", path.display());
            }
            Saved::Failed(why) => {
                let _ = write!(heading, ", not saved: {why}");
            }
            Saved::No => {}
        }
        heading
    }
}

impl FailureReport {
    /// Writes every text that is to be saved, each whole or not at all
    /// ([`engine::fs::write_aside`]), so an interrupted write never leaves a partial file
    /// where a whole one was promised; a text that cannot be written says why.
    #[must_use]
    pub(crate) fn save(mut self) -> Self {
        for text in &mut self.texts {
            if let Saved::ToSave(path) = &text.saved {
                text.saved = match engine::fs::write_aside(path, &text.bytes) {
                    Ok(()) => Saved::To(path.clone()),
                    Err(e) => Saved::Failed(e.to_string()),
                };
            }
        }
        self
    }

    /// Whether the verdict judges what the output says (a wrong answer or a presentation
    /// error), rather than how the run ended.
    fn verdict_is_about_output(&self) -> bool {
        matches!(self.verdict.kind, VerdictKind::WrongAnswer | VerdictKind::PresentationError)
    }

    /// How many lines of a text of `role` are printed whole: [`SHOWN_LINES`], but for our
    /// answer, the output and stderr when the verdict is about how the run ended (a crash, a
    /// limit), which need no comparing: their first [`HEAD_LINES`], so that every report fits
    /// a screen.
    fn shown_lines(&self, role: Role) -> usize {
        match role {
            Role::Answer | Role::Output | Role::Stderr if !self.verdict_is_about_output() => {
                HEAD_LINES
            }
            _ => SHOWN_LINES,
        }
    }
}

impl fmt::Display for FailureReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.found)?;
        for line in &self.about {
            writeln!(f, "{line}")?;
        }
        writeln!(f, "\n{}\n", self.verdict)?;
        let answer = self.texts.iter().find(|t| t.role == Role::Answer);
        for text in &self.texts {
            let whole = fits(&text.bytes, self.shown_lines(text.role));
            if text.bytes.is_empty() {
                writeln!(f, "{}", text.heading(true))?;
            } else if whole {
                writeln!(f, "{}:", text.heading(true))?;
                write_lines(f, &lines(&text.bytes))?;
            } else if text.role == Role::Transcript {
                let all = lines(&text.bytes);
                let from = all.len().saturating_sub(TAIL_LINES);
                writeln!(f, "{}, last lines:", text.heading(false))?;
                let earlier = from as u64;
                let noun = if earlier == 1 { "line" } else { "lines" };
                writeln!(f, "    ... {} earlier {noun}", count(earlier))?;
                write_lines(f, &all[from..])?;
            } else {
                let all = lines(&text.bytes);
                let head = HEAD_LINES.min(all.len());
                writeln!(f, "{}, first lines:", text.heading(false))?;
                write_lines(f, &all[..head])?;
                if all.len() > head {
                    let more = (all.len() - head) as u64;
                    let noun = if more == 1 { "line" } else { "lines" };
                    writeln!(f, "    ... {} more {noun}", count(more))?;
                }
            }
            // Right after the output, where it differs from our answer, when either is too
            // long to compare by eye and the verdict is about what it says.
            if let Some(answer) = answer
                && text.role == Role::Output
                && self.verdict_is_about_output()
                && !(fits(&answer.bytes, SHOWN_LINES) && whole)
            {
                write_difference(f, &answer.bytes, &text.bytes)?;
            }
        }
        writeln!(f)?;
        for (what, command) in &self.commands {
            writeln!(f, "{what}: {command}")?;
        }
        writeln!(f, "{}", self.measured)?;
        writeln!(f, "{}", self.time)
    }
}

/// The first line where `output` differs from `answer`, with the lines before it.
fn write_difference(f: &mut fmt::Formatter<'_>, answer: &[u8], output: &[u8]) -> fmt::Result {
    let (ours, yours) = (lines(answer), lines(output));
    let Some(at) = (0..ours.len().max(yours.len())).find(|&i| ours.get(i) != yours.get(i)) else {
        return writeln!(f, "your output and our answer are the same bytes line by line");
    };
    writeln!(f, "first line that differs from ours: line {}", count(at as u64 + 1))?;
    let from = at.saturating_sub(CONTEXT_LINES);
    for (name, side) in [("ours", &ours), ("yours", &yours)] {
        writeln!(f, "  {name}:")?;
        write_lines(f, &side[from.min(side.len())..(at + 1).min(side.len())])?;
        if at >= side.len() {
            writeln!(f, "    (end of output)")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_beside_the_input_take_its_stem() {
        assert_eq!(beside(Path::new("dir/ce.in"), "ans"), Path::new("dir/ce.ans"));
        assert_eq!(beside(Path::new("dir/ce.txt"), "ans"), Path::new("dir/ce.txt.ans"));
        assert_eq!(beside(Path::new("ce"), "out"), Path::new("ce.out"));
    }

    #[test]
    fn a_saved_failure_never_overwrites_an_earlier_one() {
        let dir = std::env::temp_dir().join(format!("judge-report-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("ce.in");
        // Each call claims its name by creating the input.
        assert_eq!(unused_save_path(&input, &["ans", "out"]), input);
        assert!(input.exists());
        assert_eq!(unused_save_path(&input, &["ans"]), dir.join("ce-2.in"));
        // A text beside a free input name takes the name too.
        std::fs::write(dir.join("ce-3.out"), "").unwrap();
        assert_eq!(unused_save_path(&input, &["ans", "out"]), dir.join("ce-4.in"));
        assert_eq!(unused_save_path(&input, &["ans"]), dir.join("ce-3.in"));
        let bare = dir.join("failure");
        std::fs::write(&bare, "").unwrap();
        assert_eq!(unused_save_path(&bare, &["ans"]), dir.join("failure-2"));
        // A transcript's next name keeps its extension, as `interact --help` says.
        let transcript = dir.join("transcript.txt");
        std::fs::write(&transcript, "").unwrap();
        assert_eq!(unused_save_path(&transcript, &[]), dir.join("transcript-2.txt"));
        // Judges saving at once in one folder each get a name of their own.
        let racing = dir.join("race.in");
        let names: std::collections::BTreeSet<PathBuf> = std::thread::scope(|scope| {
            let claims: Vec<_> =
                (0..8).map(|_| scope.spawn(|| unused_save_path(&racing, &["ans"]))).collect();
            claims.into_iter().map(|c| c.join().unwrap()).collect()
        });
        assert_eq!(names.len(), 8, "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn long_lines_are_cut() {
        let line = "1 ".repeat(100);
        assert_eq!(
            shown_line(line.as_bytes()),
            format!("{} ... (40 more characters)", &line[..160])
        );
        assert_eq!(lines(b"a\nb\n"), [&b"a"[..], b"b"]);
        assert_eq!(lines(b"a\nb"), [&b"a"[..], b"b"]);
        assert!(lines(b"").is_empty());
    }
}
