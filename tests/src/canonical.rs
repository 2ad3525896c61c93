//! `validate`'s canonical format, as data: a problem crate's
//! `tests/data/validate-canonical.txt` lists nine kinds of flaw a setter's validator rejects (a
//! leading zero, a plus sign, two spaces, a leading or a trailing space, a tab, CRLF line ends,
//! a blank line at the end, no final newline), each made here from the problem's official
//! sample by one edit, with the line `validate` prints for it and the line `validate
//! --lenient` prints; where the table says, also what the original validator does.

use judge::canonical::{Strictness, validate_file};
use judge::{Limits, Problem};

use super::{crate_name, data_dir, workspace_root};

/// The nine kinds of flaw, each an edit of a canonical file.
pub const KINDS: [&str; 9] = [
    "leading-zero",
    "plus-sign",
    "two-spaces",
    "leading-space",
    "trailing-space",
    "tab",
    "crlf",
    "blank-line-at-end",
    "no-final-newline",
];

/// `file` with the flaw `kind`: a `0` or a `+` before the first number of line 2; the first
/// space doubled, or a tab instead; a space before the whole file or at the end of line 1;
/// every `\n` as `\r\n`; one more `\n` at the end; the final `\n` dropped.
fn edit(file: &[u8], kind: &str) -> Vec<u8> {
    let mut out = file.to_vec();
    let line_2 = file.iter().position(|&b| b == b'\n').expect("two lines or more") + 1;
    let space = file.iter().position(|&b| b == b' ').expect("a space");
    match kind {
        "leading-zero" => out.insert(line_2, b'0'),
        "plus-sign" => out.insert(line_2, b'+'),
        "two-spaces" => out.insert(space, b' '),
        "leading-space" => out.insert(0, b' '),
        "trailing-space" => out.insert(line_2 - 1, b' '),
        "tab" => out[space] = b'\t',
        "crlf" => {
            return file
                .iter()
                .flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] })
                .collect();
        }
        "blank-line-at-end" => out.push(b'\n'),
        "no-final-newline" => assert_eq!(out.pop(), Some(b'\n'), "a final newline"),
        other => panic!("no kind of flaw {other:?}"),
    }
    out
}

/// The nine canonical-format variants of `sample`, one a kind of flaw ([`KINDS`]), each
/// with its kind: what a problem's package validator must reject as `validate` does.
#[must_use]
pub fn variants(sample: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    KINDS.iter().map(|&kind| (kind, edit(sample, kind))).collect()
}

/// The line `validate` prints for `bytes` (`ok: ...` or `invalid: ...`) under the original
/// limits.
pub fn validate_line<P: Problem>(problem: &P, bytes: &[u8], strictness: Strictness) -> String {
    let limits = Limits::Original;
    match validate_file(problem, bytes, limits, strictness) {
        Ok(input) => format!("ok: {}, within the {limits} limits", problem.summary(&input)),
        Err(e) => format!("invalid: {e}"),
    }
}

/// One entry of a table: the file (the sample or a kind of flaw) and its lines.
struct Entry {
    /// `sample` or the kind of flaw.
    kind: String,
    strict: String,
    lenient: String,
    /// What the official validator does (`accepts`, `rejects`), where the table says.
    official: Option<String>,
}

/// The table `CRATE/tests/data/validate-canonical.txt`: the sample's path and the entries,
/// the sample's first.
fn table(crate_dir: &str) -> (String, Vec<Entry>) {
    let suite = crate_name(crate_dir);
    let path = data_dir(crate_dir).join("validate-canonical.txt");
    let text = std::fs::read_to_string(&path).expect("the table is there");
    let mut sample = None;
    let mut entries: Vec<Entry> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim_start().to_owned();
        let open = |kind: String| Entry {
            kind,
            strict: String::new(),
            lenient: String::new(),
            official: None,
        };
        match key {
            "sample" => {
                sample = Some(value);
                entries.push(open("sample".to_owned()));
            }
            "kind" => entries.push(open(value)),
            _ => {
                let entry = entries.last_mut().expect("an entry opens with sample or kind");
                match key {
                    "strict" => entry.strict = value,
                    "lenient" => entry.lenient = value,
                    "val.cpp" => entry.official = Some(value),
                    other => panic!("{suite}: no field {other:?}"),
                }
            }
        }
    }
    (sample.expect("the table names its sample"), entries)
}

/// Checks the table of the problem crate in `crate_dir` (its `tests/data/validate-canonical.txt`)
/// on `problem`: the sample, and each kind of flaw made from it, get the lines the table
/// gives; returns how many files were read.
///
/// # Panics
/// At the first line that differs from the table, or a table not in its form.
pub fn assert_table<P: Problem>(problem: &P, crate_dir: &str) -> usize {
    let suite = crate_name(crate_dir);
    let (sample_path, entries) = table(crate_dir);
    let sample = std::fs::read(workspace_root().join(&sample_path)).expect("the sample");
    let kinds: Vec<&str> = entries[1..].iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(entries[0].kind, "sample", "{suite}: the sample comes first");
    assert_eq!(kinds, KINDS, "{suite}: every kind once, in order");
    for entry in &entries {
        let bytes =
            if entry.kind == "sample" { sample.clone() } else { edit(&sample, &entry.kind) };
        let strict = validate_line(problem, &bytes, Strictness::Canonical);
        let lenient = validate_line(problem, &bytes, Strictness::Lenient);
        assert_eq!(strict, entry.strict, "{suite}, {}: {bytes:?}", entry.kind);
        assert_eq!(lenient, entry.lenient, "{suite}, {}, lenient: {bytes:?}", entry.kind);
        assert_eq!(strict.starts_with("ok"), entry.kind == "sample", "{suite}, {}", entry.kind);
        // The official validator: what it rejects, validate rejects; what it accepts,
        // validate --lenient accepts.
        match entry.official.as_deref() {
            Some("rejects") => assert!(!strict.starts_with("ok"), "{suite}, {}", entry.kind),
            Some("accepts") => assert!(lenient.starts_with("ok"), "{suite}, {}", entry.kind),
            Some(other) => panic!("{suite}: val.cpp {other:?}"),
            None => {}
        }
    }
    entries.len()
}
