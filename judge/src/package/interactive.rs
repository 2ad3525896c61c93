//! What an interactive package adds to a batch one (`package --interactive`): the problem's
//! game played against our jury, in the Kattis format's `validation: custom interactive`.
//!
//! - **The jury** is `output_validators/jury/run`, the problem's binary itself, which runs
//!   the `jury` subcommand when started under the name `run` (`judge::cli::parse_args`). A
//!   judge host has neither Rust nor our libraries, so the binary must be static: it is
//!   checked to be an ELF file with no program interpreter (`PT_INTERP`), as a musl build
//!   (`--target x86_64-unknown-linux-musl`) or glibc's `+crt-static` gives. Beside it,
//!   `build` is a script that only sets `run`'s execute bit, since problemtools wants a
//!   `build` in a validator's folder and DOMjudge keeps the execute bit only on files named
//!   `build` and `run`.
//! - **The statement** is the statement's *Interactive version* section, then the rest of
//!   the statement, which it refers to for the rules and the input format.
//! - **The tests**: each sample with its `.interaction` (a perfect player's game against the
//!   jury: the jury's lines marked `<`, the program's `>`); the limits' extremes and the
//!   game's small levels, as `stress --interactive` plays them (each level's test the one of
//!   a few drawn whose perfect games ask the most decisions), each kept when its
//!   interaction with a perfect player is at most [`INTERACTION_LINES`] lines (docs/packages.md
//!   says which extremes that leaves out). A kill test, a sample and a setter's own test are
//!   kept whatever their length. A test's `.ans` is our batch answer (empty in 2025-09),
//!   which the jury does not read.
//! - **Our own check of the jury**: the binary, copied as `run`, is run on every test as the
//!   judge runs it, with a perfect player's lines as its input; it must write the jury's
//!   lines of that game, byte for byte, and accept (exit 42).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::contents::Test;
use super::{About, PackageError};
use crate::hunt::Juries;
use crate::hunt::jury::Speaker;
use crate::sandbox::{ChildOptions, Exit, Program, Sandbox};

/// What makes a package interactive: the juries of the problem's game, and the jury's static
/// binary that goes into the package.
#[derive(Clone, Debug)]
pub struct Interactive {
    /// The juries of the problem's game, which the package's trials play against.
    pub juries: Juries,
    /// The problem's binary, statically linked: `output_validators/jury/run`.
    pub jury: PathBuf,
}

/// The longest interaction of a generated test, in lines (a perfect player's game).
pub const INTERACTION_LINES: usize = 10_000;

/// The validator's folder below `output_validators/`.
pub(super) const JURY_FOLDER: &str = "jury";

/// `output_validators/jury/build`: nothing to build, as `run` is the static binary.
pub(super) const BUILD_SCRIPT: &str = "#!/bin/sh\n# run is the problem's binary, linked \
    statically (PROBLEM package --interactive): nothing to build.\nchmod +x run\n";

/// The statement of the interactive version: its section, then the rest of the statement (the
/// rules and formats it refers to), in Markdown.
///
/// # Panics
/// When the statement has no `## Interactive version` section: a problem with a game has one.
#[must_use]
pub(super) fn statement(about: &About) -> String {
    let text = about.statement;
    let heading = "\n## Interactive version\n";
    let start = text.find(heading).expect("the statement has an Interactive version section") + 1;
    let end = text[start + 1..].find("\n## ").map_or(text.len(), |k| start + 1 + k + 1);
    let section = &text[start..end];
    let rest = format!("{}{}", &text[..start], &text[end..]);
    format!(
        "{section}\n# The problem this game is played on\n\nThe rules and the input format \
         of the batch problem, as {} states it:\n\n{rest}",
        about.statement_path
    )
}

/// A transcript as a `.interaction` file: the jury's lines marked `<`, the program's `>`.
#[must_use]
pub(super) fn interaction_text(lines: &[(Speaker, String)]) -> String {
    let mut out = String::new();
    for (speaker, line) in lines {
        out.push(if *speaker == Speaker::Jury { '<' } else { '>' });
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The jury's binary: an ELF file with no program interpreter, which runs with no shared
/// library; returns its size.
pub(super) fn check_static(path: &Path) -> Result<u64, PackageError> {
    let bytes =
        std::fs::read(path).map_err(|source| PackageError::Io { path: path.to_owned(), source })?;
    let not =
        |why: &str| PackageError::JuryNotStatic { path: path.to_owned(), why: why.to_owned() };
    if !elf_without_interpreter(&bytes).map_err(not)? {
        return Err(not("it is linked dynamically (it names a program interpreter)"));
    }
    Ok(bytes.len() as u64)
}

/// Whether `bytes`, a 64-bit little-endian ELF file, has no `PT_INTERP` program header;
/// an error says why it is not such a file.
fn elf_without_interpreter(bytes: &[u8]) -> Result<bool, &'static str> {
    const PT_INTERP: u32 = 3;
    if bytes.len() < 64 || &bytes[..4] != b"\x7fELF" {
        return Err("it is not an ELF binary");
    }
    if bytes[4] != 2 || bytes[5] != 1 {
        return Err("it is not a 64-bit little-endian ELF binary");
    }
    let u16_at = |k: usize| u16::from_le_bytes([bytes[k], bytes[k + 1]]) as usize;
    let u64_at = |k: usize| {
        bytes.get(k..k + 8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
    };
    let offset = u64_at(0x20).and_then(|o| usize::try_from(o).ok()).ok_or("a bad ELF header")?;
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    for k in 0..count {
        let at = offset + k * size;
        let kind = bytes.get(at..at + 4).ok_or("a bad ELF program header")?;
        if u32::from_le_bytes(kind.try_into().expect("four bytes")) == PT_INTERP {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Runs the jury's binary (`run`, as the package holds it) on each test as a judge runs it,
/// with a perfect player's lines on its input: it must write the jury's lines of that game
/// and accept. `scratch` holds the test's files and the feedback folder.
pub(super) fn check_jury(
    sandbox: &Sandbox,
    run: &Path,
    tests: &[Test],
    scratch: &Path,
) -> Result<(), PackageError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| PackageError::Io { path, source }
    };
    let feedback = scratch.join("jury-feedback");
    std::fs::create_dir_all(&feedback).map_err(io(&feedback))?;
    let (input, answer) = (scratch.join("jury.in"), scratch.join("jury.ans"));
    // The jury builds what it needs once a run (card-duel's tablebase): a generous limit.
    let limits = ChildOptions::new(Duration::from_secs(120), None);
    for test in tests {
        let transcript = test.transcript.as_ref().expect("an interactive test has its transcript");
        std::fs::write(&input, &test.input).map_err(io(&input))?;
        std::fs::write(&answer, &test.answer).map_err(io(&answer))?;
        let said = |who: Speaker| -> Vec<u8> {
            let lines = transcript.iter().filter(|(s, _)| *s == who);
            lines.flat_map(|(_, line)| format!("{line}\n").into_bytes()).collect()
        };
        let command = [run.to_owned(), input.clone(), answer.clone(), feedback.join("")];
        let program = Program::new(&command);
        let ran = sandbox
            .run(&program, &said(Speaker::Program), &limits)
            .map_err(|e| PackageError::of_run(e, "the jury".to_owned(), test.path()))?;
        let message =
            std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default();
        let wrong = if ran.exit != Exit::Code(42) {
            Some(format!(
                "it ends with {} ({}) {}",
                ran.exit,
                message.trim(),
                ran.stderr_excerpt(200)
            ))
        } else if ran.stdout != said(Speaker::Jury) {
            Some("its lines differ from the jury's in process".to_owned())
        } else {
            None
        };
        if let Some(why) = wrong {
            return Err(PackageError::OurTest {
                test: test.path(),
                message: format!("the jury's binary against a perfect player: {why}"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_binary_has_no_interpreter() {
        let mut elf = vec![0u8; 64 + 56];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[0x20] = 64;
        elf[0x36] = 56;
        elf[0x38] = 1;
        elf[64] = 1; // PT_LOAD
        assert_eq!(elf_without_interpreter(&elf), Ok(true));
        elf[64] = 3; // PT_INTERP
        assert_eq!(elf_without_interpreter(&elf), Ok(false));
        assert!(elf_without_interpreter(b"#!/bin/sh\n").is_err());
    }

    #[test]
    fn interaction_files_mark_the_jury_with_less_than() {
        let lines = [(Speaker::Jury, "2".to_owned()), (Speaker::Program, "1 1".to_owned())];
        assert_eq!(interaction_text(&lines), "<2\n>1 1\n");
    }
}
