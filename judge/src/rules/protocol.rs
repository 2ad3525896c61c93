//! Checker and validator protocols: which argument is which file, and how a verdict leaves
//! the process (exit code, stdout, stderr, a feedback file).
//!
//! | protocol | checker invocation | verdict channel |
//! |---|---|---|
//! | testlib (default) | `check INPUT OUTPUT [ANSWER]` | exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail; message on stderr |
//! | Kattis | `check INPUT ANSWER FEEDBACK_DIR < OUTPUT` | exit 42 accept, 43 reject, 3 fail; message in `FEEDBACK_DIR/judgemessage.txt` |
//! | CMS | `check INPUT ANSWER OUTPUT` (answer before output) | score `1.0`/`0.0` on stdout, message on stderr, exit 0; fail exits 3 |
//!
//! Validators: testlib exits 0 (valid) or 3 (invalid), Kattis 42 or 43; CMS has no validator
//! protocol and uses testlib's codes. A usage error is a `fail` in every protocol (never 2,
//! which testlib reads as a presentation error).

use std::io::{self, Write};
use std::path::Path;
#[cfg(feature = "cli")]
use std::path::PathBuf;

use super::verdict::{Verdict, VerdictKind};

/// testlib's exit code for a judge failure, also used by the other protocols for one.
pub(crate) const EXIT_FAIL: i32 = 3;

/// A checker or validator protocol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Protocol {
    /// testlib (Polygon, Codeforces, most judges): exit codes 0/1/2/3, message on stderr.
    #[default]
    Testlib,
    /// Kattis, ICPC, DOMjudge: exit 42/43, message in `judgemessage.txt` of a feedback folder.
    Kattis,
    /// CMS, IOI: a score of 1.0 or 0.0 on stdout, message on stderr.
    Cms,
}

/// Where the contestant's output is read from.
#[cfg(feature = "cli")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A file.
    File(PathBuf),
    /// Standard input (Kattis).
    Stdin,
}

/// The files a checker reads and writes, by role.
#[cfg(feature = "cli")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CheckFiles {
    /// The test's input.
    pub input: PathBuf,
    /// The contestant's output.
    pub output: Source,
    /// The jury's answer; `None` means "compute our own".
    pub answer: Option<PathBuf>,
    /// Kattis's feedback folder.
    pub feedback_dir: Option<PathBuf>,
}

/// Arguments that do not fit the protocol's invocation.
#[cfg(feature = "cli")]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{protocol:?} checkers take {expected}, got {got} file argument{}", if *got == 1 { "" } else { "s" })]
pub(crate) struct UsageError {
    /// The protocol asked for.
    pub protocol: Protocol,
    /// The invocation it expects, e.g. `INPUT OUTPUT [ANSWER]`.
    pub expected: &'static str,
    /// How many file arguments came.
    pub got: usize,
}

impl Protocol {
    /// The checker's file arguments in this protocol's order.
    #[must_use]
    pub fn check_usage(self) -> &'static str {
        match self {
            Self::Testlib => "INPUT OUTPUT [ANSWER]",
            Self::Kattis => "INPUT ANSWER FEEDBACK_DIR (output on stdin)",
            Self::Cms => "INPUT ANSWER OUTPUT",
        }
    }

    /// Assigns roles to a checker's file arguments. Kattis's extra arguments after the
    /// feedback folder are ignored, as its specification allows.
    ///
    /// # Errors
    /// Too few or too many arguments for the protocol.
    #[cfg(feature = "cli")]
    pub(crate) fn check_files(self, args: &[PathBuf]) -> Result<CheckFiles, UsageError> {
        let error = UsageError { protocol: self, expected: self.check_usage(), got: args.len() };
        match (self, args) {
            (Self::Testlib, [input, output]) => Ok(CheckFiles {
                input: input.clone(),
                output: Source::File(output.clone()),
                answer: None,
                feedback_dir: None,
            }),
            (Self::Testlib, [input, output, answer]) => Ok(CheckFiles {
                input: input.clone(),
                output: Source::File(output.clone()),
                answer: Some(answer.clone()),
                feedback_dir: None,
            }),
            (Self::Kattis, [input, answer, feedback, ..]) => Ok(CheckFiles {
                input: input.clone(),
                output: Source::Stdin,
                answer: Some(answer.clone()),
                feedback_dir: Some(feedback.clone()),
            }),
            (Self::Cms, [input, answer, output]) => Ok(CheckFiles {
                input: input.clone(),
                output: Source::File(output.clone()),
                answer: Some(answer.clone()),
                feedback_dir: None,
            }),
            _ => Err(error),
        }
    }

    /// The checker's exit code for a verdict of `kind`. Runtime errors and time limits never
    /// come out of a checker; they map to a rejection.
    #[must_use]
    pub(crate) fn checker_exit_code(self, kind: VerdictKind) -> i32 {
        match (self, kind) {
            (_, VerdictKind::Fail) => EXIT_FAIL,
            (Self::Testlib, VerdictKind::Ok) => 0,
            (Self::Testlib, VerdictKind::PresentationError) => 2,
            (Self::Testlib, _) => 1,
            (Self::Kattis, VerdictKind::Ok) => 42,
            (Self::Kattis, _) => 43,
            (Self::Cms, _) => 0,
        }
    }

    /// The validator's exit code.
    #[must_use]
    pub fn validator_exit_code(self, valid: bool) -> i32 {
        match (self, valid) {
            (Self::Kattis, true) => 42,
            (Self::Kattis, false) => 43,
            (_, true) => 0,
            (_, false) => EXIT_FAIL,
        }
    }

    /// Delivers a checker's verdict: writes the message where the protocol wants it and
    /// returns the exit code. Kattis needs `feedback_dir` (the message also goes to stderr).
    ///
    /// # Errors
    /// Writing to the streams or the feedback file failed (the caller then exits 3, a judge
    /// failure).
    pub fn deliver(
        self,
        verdict: &Verdict,
        feedback_dir: Option<&Path>,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> io::Result<i32> {
        let line = verdict.to_string();
        match self {
            Self::Testlib => writeln!(stderr, "{line}")?,
            Self::Kattis => {
                writeln!(stderr, "{line}")?;
                if let Some(dir) = feedback_dir {
                    std::fs::write(dir.join("judgemessage.txt"), format!("{line}\n"))?;
                }
            }
            Self::Cms => {
                if verdict.kind != VerdictKind::Fail {
                    let score = if verdict.is_ok() { "1.0" } else { "0.0" };
                    writeln!(stdout, "{score}")?;
                }
                writeln!(stderr, "{line}")?;
            }
        }
        Ok(self.checker_exit_code(verdict.kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn roles_follow_each_protocols_argument_order() {
        let t = Protocol::Testlib.check_files(&paths(&["in", "out", "ans"])).unwrap();
        assert_eq!((t.output, t.answer), (Source::File("out".into()), Some("ans".into())));
        let t = Protocol::Testlib.check_files(&paths(&["in", "out"])).unwrap();
        assert_eq!(t.answer, None);
        let k = Protocol::Kattis.check_files(&paths(&["in", "ans", "fb", "x"])).unwrap();
        assert_eq!((k.output, k.feedback_dir), (Source::Stdin, Some("fb".into())));
        let c = Protocol::Cms.check_files(&paths(&["in", "ans", "out"])).unwrap();
        assert_eq!((c.output, c.answer), (Source::File("out".into()), Some("ans".into())));
        let e = Protocol::Cms.check_files(&paths(&["in", "out"])).unwrap_err();
        assert_eq!(e.to_string(), "Cms checkers take INPUT ANSWER OUTPUT, got 2 file arguments");
        assert!(Protocol::Testlib.check_files(&paths(&["in"])).is_err());
    }

    #[test]
    fn exit_codes_per_protocol() {
        use VerdictKind::*;
        let codes = |p: Protocol| {
            [Ok, WrongAnswer, PresentationError, Fail].map(|k| p.checker_exit_code(k))
        };
        assert_eq!(codes(Protocol::Testlib), [0, 1, 2, 3]);
        assert_eq!(codes(Protocol::Kattis), [42, 43, 43, 3]);
        assert_eq!(codes(Protocol::Cms), [0, 0, 0, 3]);
        assert_eq!(Protocol::Kattis.validator_exit_code(true), 42);
        assert_eq!(Protocol::Testlib.validator_exit_code(false), 3);
    }

    #[test]
    fn each_protocol_delivers_where_it_should() {
        let wa = Verdict::wrong_answer("case 2: expected \"5\", found \"6\"");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = Protocol::Cms.deliver(&wa, None, &mut out, &mut err).unwrap();
        assert_eq!((code, out.as_slice()), (0, b"0.0\n".as_slice()));
        assert_eq!(String::from_utf8(err).unwrap(), format!("{wa}\n"));

        let dir = std::env::temp_dir().join(format!("engine-protocol-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = Protocol::Kattis.deliver(&wa, Some(&dir), &mut out, &mut err).unwrap();
        assert_eq!(code, 43);
        assert!(out.is_empty());
        let message = std::fs::read_to_string(dir.join("judgemessage.txt")).unwrap();
        assert_eq!(message, format!("{wa}\n"));
        std::fs::remove_dir_all(&dir).unwrap();

        let (mut out, mut err) = (Vec::new(), Vec::new());
        let ok = Verdict::ok("2 cases");
        assert_eq!(Protocol::Testlib.deliver(&ok, None, &mut out, &mut err).unwrap(), 0);
        assert_eq!(err, b"ok: 2 cases\n");
    }
}
