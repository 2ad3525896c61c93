//! Verdicts: what happened to one output (or one run), in the words judges use, with a
//! message that says what and where, e.g.
//! `wrong answer: case 17: expected "Bob wins", found "It depends"`.

use std::fmt;

/// The kind of a verdict. The first four come from a checker; the last three from running the
/// program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VerdictKind {
    /// The output is right.
    Ok,
    /// The output reads as an answer and the answer is wrong.
    WrongAnswer,
    /// The output cannot be read as an answer: a word that is not a verdict, a token that is
    /// not a number, too few or too many items.
    PresentationError,
    /// The judge itself is at fault: the input or the jury's answer is malformed.
    Fail,
    /// The program exited with a non-zero code or was killed by a signal (or wrote more
    /// output than allowed and was stopped).
    RuntimeError,
    /// The program's CPU time passed the time limit, or its wall time the backstop.
    TimeLimit,
    /// The program's peak resident memory passed the memory limit.
    MemoryLimit,
}

impl VerdictKind {
    /// Every kind, in declaration order.
    pub const ALL: [Self; 7] = [
        Self::Ok,
        Self::WrongAnswer,
        Self::PresentationError,
        Self::Fail,
        Self::RuntimeError,
        Self::TimeLimit,
        Self::MemoryLimit,
    ];

    /// Whether telling a run of this kind needs its output judged: a runtime error or an
    /// exceeded limit shows in how the run ended, and a run that exits normally is none of
    /// them whatever it prints, so its output need not be judged (nor our answer computed).
    #[must_use]
    pub(crate) fn judges_output(self) -> bool {
        !matches!(self, Self::RuntimeError | Self::TimeLimit | Self::MemoryLimit)
    }

    /// The kind in words, as reports print it: `ok`, `wrong answer`, `presentation error`,
    /// `fail`, `runtime error`, `time limit exceeded`, `memory limit exceeded`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::WrongAnswer => "wrong answer",
            Self::PresentationError => "presentation error",
            Self::Fail => "fail",
            Self::RuntimeError => "runtime error",
            Self::TimeLimit => "time limit exceeded",
            Self::MemoryLimit => "memory limit exceeded",
        }
    }

    /// Whether this is a failure of the judged program (anything but `Ok` and `Fail`).
    #[must_use]
    pub(crate) fn is_failure(self) -> bool {
        !matches!(self, Self::Ok | Self::Fail)
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A verdict: its kind and a one-line message naming what and where, and for an output the
/// original checker accepts in spite of a flaw it overlooks, that flaw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The kind.
    pub kind: VerdictKind,
    /// What and where, without the kind: `case 17: expected "Bob wins", found "It depends"`.
    pub message: String,
    /// What the original checker overlooked in an output it accepts, in words: `text after
    /// the last answer ("abc" on line 4), which the official checker ignores`. `None` for a
    /// clean output and for every verdict but `ok`; `check --strict` turns an `ok` with it
    /// into a presentation error ([`Verdict::strict`]).
    pub lenient: Option<String>,
}

impl Verdict {
    /// A verdict of `kind` with `message`, nothing overlooked.
    #[must_use]
    pub fn new(kind: VerdictKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into(), lenient: None }
    }

    /// The verdict with `what` as what the original checker overlooked ([`Verdict::lenient`]).
    #[must_use]
    pub fn overlooking(self, what: impl Into<String>) -> Self {
        Self { lenient: Some(what.into()), ..self }
    }

    /// The verdict under a strict reading: an `ok` that the original checker gave only by
    /// overlooking something becomes a presentation error whose message says what; any other
    /// verdict stays as it is.
    #[must_use]
    pub fn strict(self) -> Self {
        match self.lenient {
            Some(what) if self.kind == VerdictKind::Ok => Self::presentation_error(what),
            _ => self,
        }
    }

    /// `ok` with a message such as `40 cases`.
    #[must_use]
    pub fn ok(message: impl Into<String>) -> Self {
        Self::new(VerdictKind::Ok, message)
    }

    /// `wrong answer` with a message.
    #[must_use]
    pub fn wrong_answer(message: impl Into<String>) -> Self {
        Self::new(VerdictKind::WrongAnswer, message)
    }

    /// `presentation error` with a message.
    #[must_use]
    pub fn presentation_error(message: impl Into<String>) -> Self {
        Self::new(VerdictKind::PresentationError, message)
    }

    /// `fail` (the judge's input or answer is at fault) with a message.
    #[must_use]
    pub fn fail(message: impl Into<String>) -> Self {
        Self::new(VerdictKind::Fail, message)
    }

    /// Whether the kind is `Ok`.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.kind == VerdictKind::Ok
    }
}

impl fmt::Display for Verdict {
    /// `kind: message`, or the kind alone when the message is empty; then `; lenient: ` and
    /// what was overlooked, if anything was.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.words())?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        if let Some(what) = &self.lenient {
            write!(f, "; lenient: {what}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_read_as_one_line() {
        let v = Verdict::wrong_answer(r#"case 17: expected "Bob wins", found "It depends""#);
        assert_eq!(
            v.to_string(),
            r#"wrong answer: case 17: expected "Bob wins", found "It depends""#
        );
        assert_eq!(Verdict::ok("").to_string(), "ok");
        assert_eq!(
            Verdict::new(VerdictKind::TimeLimit, "killed after 2.00 s").to_string(),
            "time limit exceeded: killed after 2.00 s"
        );
    }

    #[test]
    fn what_was_overlooked_follows_the_message_and_strict_rejects_it() {
        let overlooked = "text after the last answer (\"abc\" on line 4)";
        let v = Verdict::ok("4 cases").overlooking(overlooked);
        assert_eq!(v.to_string(), format!("ok: 4 cases; lenient: {overlooked}"));
        assert_eq!(v.clone().strict(), Verdict::presentation_error(overlooked));
        assert_eq!(Verdict::ok("4 cases").strict(), Verdict::ok("4 cases"));
        let wrong = Verdict::wrong_answer("case 1: expected 1, found 2");
        assert_eq!(wrong.clone().strict(), wrong);
        assert_eq!(Verdict::ok("").overlooking("x").to_string(), "ok; lenient: x");
    }

    #[test]
    fn only_program_faults_are_failures() {
        let failures: Vec<_> = VerdictKind::ALL.into_iter().filter(|k| k.is_failure()).collect();
        assert_eq!(
            failures,
            [
                VerdictKind::WrongAnswer,
                VerdictKind::PresentationError,
                VerdictKind::RuntimeError,
                VerdictKind::TimeLimit,
                VerdictKind::MemoryLimit
            ]
        );
    }
}
