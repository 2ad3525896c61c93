//! The judge's words: how counts, durations, sizes and commands read in every report, line
//! and message, in one place so that they read the same everywhere. It imports nothing of the
//! crate, so that every layer may use it; the words of a type (an exit, a signal) are beside
//! their type.

use std::time::Duration;

/// `n` with thousands separators: `34,871`.
#[must_use]
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `1 run`, `2 runs`, `34,871 runs`.
#[must_use]
pub(crate) fn plural(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{} {noun}s", count(n)) }
}

/// A size in bytes for people: `812 bytes`, `61.2 KB`, `3.4 MB`.
#[must_use]
pub(crate) fn bytes(n: u64) -> String {
    match n {
        1 => "1 byte".to_owned(),
        _ if n < 1000 => format!("{n} bytes"),
        _ if n < 1_000_000 => format!("{:.1} KB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}

/// A measured duration: whole milliseconds below a second (`7 ms`), else seconds to the
/// millisecond (`1.004 s`), so that a time just over a limit reads as over it.
#[must_use]
pub(crate) fn seconds(time: Duration) -> String {
    if time.as_secs() == 0 {
        format!("{} ms", time.as_millis())
    } else {
        format!("{:.3} s", time.as_secs_f64())
    }
}

/// A short measured duration to the hundredth of a millisecond: `0.04 ms`, `12.31 ms`.
#[cfg(feature = "cli")]
#[must_use]
pub(crate) fn milliseconds(time: Duration) -> String {
    format!("{:.2} ms", time.as_secs_f64() * 1e3)
}

/// A duration as given (a limit, a budget): `1.5 s`, `20 s`.
#[cfg(feature = "cli")]
#[must_use]
pub(crate) fn seconds_given(time: Duration) -> String {
    format!("{} s", time.as_secs_f64())
}

/// `kib` in megabytes (MiB), as judges state memory limits: `256 MB`, `31.25 MB`.
#[must_use]
pub(crate) fn megabytes(kib: u64) -> String {
    let mb = kib as f64 / 1024.0;
    if kib.is_multiple_of(1024) { format!("{mb:.0} MB") } else { format!("{mb:.2} MB") }
}

/// `word` as a POSIX shell would need it: bare when made of safe characters, else in single
/// quotes.
#[must_use]
pub(crate) fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes_read_as_people_write_them() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(34_871), "34,871");
        assert_eq!(count(1_440_000), "1,440,000");
        assert_eq!(plural(1, "run"), "1 run");
        assert_eq!(plural(2000, "case"), "2,000 cases");
        assert_eq!(bytes(812), "812 bytes");
        assert_eq!(bytes(61_234), "61.2 KB");
        assert_eq!(bytes(3_400_000), "3.4 MB");
    }

    #[test]
    fn durations_and_memory_read_as_judges_state_them() {
        assert_eq!(seconds(Duration::from_millis(7)), "7 ms");
        assert_eq!(seconds(Duration::from_millis(1004)), "1.004 s");
        assert_eq!(seconds_given(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(megabytes(256 * 1024), "256 MB");
        assert_eq!(megabytes(32_000), "31.25 MB");
    }

    #[test]
    fn commands_read_as_a_shell_shows_them() {
        assert_eq!(shell_quote("./sol"), "./sol");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
