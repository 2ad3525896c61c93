//! The Kattis problem package format as text, in its two versions ([`Format`]): which names
//! it allows, the problem's UUID, the time limit Kattis sets, `problem.yaml`, the statement's
//! LaTeX and the test groups' `testdata.yaml`. Pure functions of their arguments, so a package
//! is the same bytes for the same inputs.

use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::time::Duration;

use super::{About, OutputValidator, Scoring};

/// Kattis's `time_multiplier` (legacy): the time limit is this many times the slowest accepted
/// submission's time.
pub const TIME_MULTIPLIER: u32 = 5;

/// Kattis's `time_safety_margin` (legacy): problemtools also runs submissions with this many
/// times the limit, to warn of verdicts that depend on the limit.
pub const TIME_SAFETY_MARGIN: u32 = 2;

/// Kattis's default output limit, in MiB.
const DEFAULT_OUTPUT_MIB: usize = 8;

/// The version of the problem package format a package is written in.
///
/// | | legacy | 2025-09 |
/// |---|---|---|
/// | read by | problemtools, Kattis, DOMjudge, pc2 | BAPCtools |
/// | the kind | `validation:` | `type: pass-fail` or `interactive` |
/// | the time limit | `.timelimit` | `limits.time_limit` |
/// | the statement | `problem_statement/` | `statement/` |
/// | the output validator | `output_validators/NAME/` | `output_validator/` |
/// | its flags | `validator_flags` | `data/test_group.yaml`'s `output_validator_args` |
///
/// 2025-09 packages are pass-fail or interactive only: BAPCtools, the one tool that reads
/// the version, does not take `type: scoring`, so a scoring package written in it could not
/// be verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The legacy version (`problem_format_version` absent).
    #[default]
    Legacy,
    /// Version 2025-09 (`problem_format_version: 2025-09`).
    V2025_09,
}

impl Format {
    /// The name `--format` takes: `legacy`, `2025-09`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Legacy => "legacy",
            Self::V2025_09 => "2025-09",
        }
    }

    /// The statement's folder.
    #[must_use]
    pub fn statement_folder(self) -> &'static str {
        match self {
            Self::Legacy => "problem_statement",
            Self::V2025_09 => "statement",
        }
    }

    /// The folder of a custom output validator (or an interactive package's jury) named
    /// `name`: `output_validators/NAME` (legacy, which holds many), `output_validator`
    /// (2025-09, which holds one).
    #[must_use]
    pub fn output_validator_folder(self, name: &str) -> String {
        match self {
            Self::Legacy => format!("output_validators/{name}"),
            Self::V2025_09 => "output_validator".to_owned(),
        }
    }

    /// Where the package's time limit is written.
    #[must_use]
    pub fn time_limit_file(self) -> &'static str {
        match self {
            Self::Legacy => ".timelimit",
            Self::V2025_09 => "problem.yaml",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        [Self::Legacy, Self::V2025_09]
            .into_iter()
            .find(|format| format.name() == text.trim())
            .ok_or_else(|| format!("expected legacy or 2025-09, found {text:?}"))
    }
}

/// Whether `name` is a problem's short name as problemtools demands (`[a-z0-9]+`): the
/// package folder's base name is its short name.
#[must_use]
pub(super) fn short_name_ok(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Whether `name` may name a file or a folder of a package (problemtools:
/// `[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}`).
#[must_use]
pub(super) fn file_name_ok(name: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = name.as_bytes();
    (1..=255).contains(&bytes.len())
        && allowed(bytes[0])
        && bytes[1..].iter().all(|&b| allowed(b) || b == b'.' || b == b'-')
}

/// The problem's UUID, derived from its name alone so that every build gives the same: two
/// 64-bit FNV-1a hashes of the name (from two offset bases) laid out as a version-8 UUID
/// (RFC 9562's layout for UUIDs made by a method of one's own). `O(name)`.
#[must_use]
pub(super) fn uuid(name: &str) -> String {
    let fnv = |basis: u64| {
        name.bytes().fold(basis, |hash, b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    };
    let high = fnv(0xcbf2_9ce4_8422_2325);
    let low = fnv(0x6c62_272e_07bb_0142);
    // Version 8 in the 13th hex digit, variant 0b10 in the two top bits of the 17th.
    let high = (high & !0xf000) | 0x8000;
    let low = (low & !(0b11 << 62)) | (0b10 << 62);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// The time limit in whole seconds that Kattis's rule (legacy) sets from the slowest accepted
/// run: [`TIME_MULTIPLIER`] times its CPU time, rounded up to whole seconds, at least 1 s, as
/// problemtools computes it from `submissions/accepted`.
#[must_use]
pub fn time_limit(slowest_accepted: Duration) -> u64 {
    // In whole nanoseconds, so that a run of exactly 0.4 s gives 2 s and not 3.
    let exact = slowest_accepted.as_nanos() * u128::from(TIME_MULTIPLIER);
    u64::try_from(exact.div_ceil(1_000_000_000)).unwrap_or(u64::MAX).max(1)
}

/// `text` as a YAML double-quoted scalar.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` as YAML comment lines, each `# ` and at most about 95 characters.
fn comment(out: &mut String, text: &str) {
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 95 {
            let _ = writeln!(out, "# {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "# {line}");
    }
}

/// `problem.yaml` in `format`: what the problem is, where it is from, its licence (unknown:
/// see the comment it holds), the memory limit, Kattis's time rule, the time limit (2025-09)
/// and the kind of output validation; with comments saying where the time limit comes from
/// and how the output validator differs from the original rule. `original_time` is the
/// original judge's time limit; `time` the package's, in seconds, and whether the setter gave
/// it; an output limit is set when the largest answer (`largest_answer` bytes) needs more
/// than Kattis's default.
///
/// # Panics
/// A scoring package in 2025-09 ([`Format`] says why there is none).
#[must_use]
#[allow(clippy::too_many_arguments, reason = "each is one fact of the file")]
pub(super) fn problem_yaml(
    format: Format,
    about: &About,
    problem_name: &str,
    memory_mib: u64,
    original_time: Duration,
    (time, given): (u64, bool),
    output: &OutputValidator,
    interactive: bool,
    scoring: Option<&Scoring>,
    largest_answer: usize,
) -> String {
    let legacy = format == Format::Legacy;
    assert!(legacy || scoring.is_none(), "2025-09 packages are pass-fail or interactive");
    let mut out = String::new();
    let version = if legacy { "legacy version" } else { "version 2025-09" };
    let readers = if legacy { "which DOMjudge imports" } else { "which BAPCtools reads" };
    comment(
        &mut out,
        &format!(
            "{problem_name}: a problem package in the Kattis problem package format \
             ({version}), {readers}; written by `{problem_name} package`."
        ),
    );
    let time_note = match (format, given) {
        (Format::Legacy, false) => format!(
            "Time limit: .timelimit holds it, in seconds, set by Kattis's rule: the slowest \
             accepted submission's CPU time on these tests times time_multiplier \
             ({TIME_MULTIPLIER}), rounded up to whole seconds, at least 1 s; problemtools \
             computes the same from submissions/accepted, and DOMjudge reads .timelimit."
        ),
        (Format::Legacy, true) => format!(
            "Time limit: .timelimit holds it, {time} s, as the setter gave it (`{problem_name} \
             package --time-limit`); DOMjudge reads .timelimit, and the legacy format has no \
             time limit of its own in problem.yaml, so problemtools computes one from \
             submissions/accepted unless run with -t {time}."
        ),
        (Format::V2025_09, false) => format!(
            "Time limit: limits.time_limit, set by Kattis's rule: the slowest accepted \
             submission's CPU time on these tests times ac_to_time_limit ({TIME_MULTIPLIER}), \
             rounded up to whole seconds, at least 1 s."
        ),
        (Format::V2025_09, true) => format!(
            "Time limit: limits.time_limit, {time} s, as the setter gave it (`{problem_name} \
             package --time-limit`)."
        ),
    };
    comment(
        &mut out,
        &format!(
            "{time_note} The original judge gave {} s and {memory_mib} MB.",
            original_time.as_secs_f64()
        ),
    );
    comment(
        &mut out,
        &format!(
            "License: unknown. The statement's words and the tests are the repository's, the \
             problem is {}'s; no licence of the contest's is recorded, and it is not ours to \
             claim.",
            about.source
        ),
    );
    if interactive {
        let jury = format.output_validator_folder(super::interactive::JURY_FOLDER);
        let answers = if legacy {
            "A test's .ans is the batch problem's answer, which the jury does not read."
        } else {
            "A test's .ans is empty: the jury does not read it."
        };
        comment(
            &mut out,
            &format!(
                "Interactive: the game of the statement's Interactive version, played against \
                 our jury, {jury}/run: {problem_name}'s binary, built static, which runs \
                 `{problem_name} jury` under that name (input answer feedback_dir, exit 42 \
                 accepted, 43 rejected, judgemessage.txt). {answers}"
            ),
        );
    } else {
        comment(&mut out, &format!("Output: {}", output.unlike_check()));
    }
    if let Some(scoring) = scoring {
        comment(&mut out, scoring.note);
    }
    if !legacy {
        out.push_str("problem_format_version: 2025-09\n");
        let kind = if interactive { "interactive" } else { "pass-fail" };
        let _ = writeln!(out, "type: {kind}");
    }
    let _ = writeln!(out, "name: {}", quoted(about.title));
    let _ = writeln!(out, "uuid: {}", uuid(problem_name));
    if scoring.is_some() {
        out.push_str("type: scoring\n");
    }
    match (format, about.source_url) {
        (Format::V2025_09, Some(url)) => {
            let _ =
                writeln!(out, "source:\n  name: {}\n  url: {}", quoted(about.source), quoted(url));
        }
        (_, url) => {
            let _ = writeln!(out, "source: {}", quoted(about.source));
            if let Some(url) = url {
                let _ = writeln!(out, "source_url: {}", quoted(url));
            }
        }
    }
    out.push_str("license: unknown\n");
    let _ = writeln!(out, "limits:\n  memory: {memory_mib}");
    if legacy {
        let _ = writeln!(
            out,
            "  time_multiplier: {TIME_MULTIPLIER}\n  time_safety_margin: {TIME_SAFETY_MARGIN}"
        );
    } else {
        let _ = writeln!(
            out,
            "  time_multipliers:\n    ac_to_time_limit: {TIME_MULTIPLIER}\n    \
             time_limit_to_tle: {TIME_SAFETY_MARGIN}\n  time_limit: {time}.0"
        );
    }
    // problemtools warns of an answer above half the output limit; a program's output may
    // be longer than ours (more digits), so the limit is four times the largest answer.
    let output_mib = (largest_answer * 4).div_ceil(1 << 20);
    if output_mib > DEFAULT_OUTPUT_MIB {
        let _ = writeln!(out, "  output: {output_mib}");
    }
    match output {
        // 2025-09 says it with `type` and the output validator's folder; the flags are in
        // data/test_group.yaml ([`test_group_yaml`]).
        _ if !legacy => {}
        _ if interactive => out.push_str("validation: custom interactive\n"),
        OutputValidator::Default { flags, .. } => {
            out.push_str("validation: default\n");
            if !flags.is_empty() {
                let _ = writeln!(out, "validator_flags: {flags}");
            }
        }
        OutputValidator::Custom { .. } => out.push_str("validation: custom\n"),
    }
    if scoring.is_some() {
        out.push_str("grading:\n  show_test_data_groups: true\n");
    }
    out
}

/// `data/test_group.yaml` of a 2025-09 pass-fail package whose default output validator has
/// flags (`float_absolute_tolerance 1e-6`): its `output_validator_args`, each a quoted
/// string. `None` when there are none.
#[must_use]
pub(super) fn test_group_yaml(output: &OutputValidator) -> Option<String> {
    let OutputValidator::Default { flags, .. } = output else { return None };
    let args: Vec<String> = flags.split_whitespace().map(quoted).collect();
    (!args.is_empty()).then(|| format!("output_validator_args: [{}]\n", args.join(", ")))
}

/// The statement for `problem.en.tex` in the statement's folder: the title as `\problemname`, then
/// the statement's Markdown (`markdown`, from `statement_path`), in a `verbatim` environment
/// (the legacy format takes LaTeX only; the checks run on a package never render it).
#[must_use]
pub(super) fn statement_tex(title: &str, statement_path: &str, markdown: &str) -> String {
    format!(
        "\\problemname{{{title}}}\n\n% The statement from {statement_path}, in Markdown.\n\
         \\begin{{verbatim}}\n{}\\end{{verbatim}}\n",
        markdown.replace("\\end{verbatim}", "\\end {verbatim}")
    )
}

/// `data/testdata.yaml` of a scoring package: the samples count for nothing, every group is
/// judged, the score is out of 100.
pub(super) const ROOT_TESTDATA: &str =
    "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n";

/// `data/sample/testdata.yaml` of a scoring package: the samples judged as they are.
pub(super) const SAMPLE_TESTDATA: &str = "grader_flags: ''\n";

/// `data/secret/testdata.yaml` of a scoring package: every group judged, the score their sum,
/// accepted when any group is (a partial score), else the first group's error.
pub(super) const SECRET_TESTDATA: &str =
    "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted\n";

/// `data/secret/groupK/testdata.yaml`: all or nothing, `points` for a group whose every test
/// passes, judging stopped at its first failure; its tests checked by the input validator
/// with `validator_flags`.
#[must_use]
pub(super) fn group_testdata(points: u32, validator_flags: &str) -> String {
    format!(
        "grader_flags: min\naccept_score: {points}\nrange: 0 {points}\n\
         input_validator_flags: {validator_flags}\non_reject: break\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_problemtools() {
        assert!(short_name_ok("herobattle") && short_name_ok("toytrain2"));
        for bad in ["", "hero-battle", "HeroBattle", "hero battle", "héros"] {
            assert!(!short_name_ok(bad), "{bad:?}");
        }
        assert!(file_name_ok("greedy.cpp") && file_name_ok("_x-1.v2.py"));
        for bad in ["", ".hidden", "-x.cpp", "a b.cpp", "é.cpp"] {
            assert!(!file_name_ok(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_uuid_is_a_version_8_uuid_of_the_name() {
        let id = uuid("hero-battle");
        assert_eq!(id, uuid("hero-battle"));
        assert_ne!(id, uuid("toy-train"));
        let parts: Vec<&str> = id.split('-').collect();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12]);
        assert!(parts[2].starts_with('8'), "{id}");
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'), "{id}");
    }

    #[test]
    fn the_time_limit_is_five_times_the_slowest_run_rounded_up() {
        assert_eq!(time_limit(Duration::ZERO), 1);
        assert_eq!(time_limit(Duration::from_millis(199)), 1);
        assert_eq!(time_limit(Duration::from_millis(201)), 2);
        assert_eq!(time_limit(Duration::from_millis(400)), 2);
        assert_eq!(time_limit(Duration::from_millis(1001)), 6);
    }

    #[test]
    fn formats_are_named_as_the_option_takes_them() {
        for format in [Format::Legacy, Format::V2025_09] {
            assert_eq!(format.name().parse(), Ok(format));
        }
        assert!("2023-07-draft".parse::<Format>().is_err());
        assert_eq!(Format::V2025_09.output_validator_folder("jury"), "output_validator");
        assert_eq!(Format::Legacy.output_validator_folder("jury"), "output_validators/jury");
    }

    #[test]
    fn default_validator_flags_go_to_test_group_yaml_as_strings() {
        let output = |flags| OutputValidator::Default { flags, unlike_check: "" };
        assert_eq!(
            test_group_yaml(&output("float_absolute_tolerance 1e-6")).as_deref(),
            Some("output_validator_args: [\"float_absolute_tolerance\", \"1e-6\"]\n")
        );
        assert_eq!(test_group_yaml(&output("")), None);
    }

    #[test]
    fn yaml_strings_are_quoted() {
        assert_eq!(quoted(r#"a "b" \ c"#), r#""a \"b\" \\ c""#);
        let mut out = String::new();
        comment(&mut out, &"word ".repeat(40));
        assert!(out.lines().all(|l| l.starts_with("# ") && l.len() <= 97), "{out}");
    }
}
