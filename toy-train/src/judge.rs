//! toy-train as the judge sees it: [`Judge`] implements [`judge::Problem`] (and, in
//! `judge/package.rs`, `Packaged`), which give the binary its judging subcommands (listed in
//! `docs/judging.md`). This module holds the limits, the subtasks and the checker (the rule an
//! output is judged by); `judge/generate.rs` the stress loop's levels, the extreme railways and the
//! exhaustive enumeration, and `judge/moves.rs` the shrink moves.
//!
//! - **Limits.** `original`: IOI 2017's, `1 <= n <= 5,000`, `n <= m <= 20,000`, no
//!   duplicate track, at least one charging station, a track out of every station.
//!   `extended`: exactly what [`parse`](crate::parse()) accepts (`n` up to 10^8, `m` up to
//!   10^9, duplicates and railways without chargers allowed). Messages name the rule and its
//!   line and column, e.g. `line 6, column 1: track 3 (1 -> 0) repeats track 1`. Numbers
//!   are read across any white space, as the sample grader's `scanf` reads them; `validate`
//!   then holds the file to the canonical format ([`judge::canonical`]), the grader's layout
//!   as [`Railway::render`] writes it.
//! - **Subtasks.** A valid input's summary names the original subtasks it belongs to
//!   ([`Judge::summary`]): 1 line, 2 `n <= 15`, 3 Arezou's only, 4 Borzou's only, 5 one charger,
//!   6 no further constraints.
//! - **Checker.** CMS's white-diff as IOI ran it, to the verdict: the output and the answer
//!   are compared line by line (lines split at `\n` only), each line with its white space
//!   (space, `\t`, `\v`, `\f`, `\r`) trimmed and its runs collapsed, and once one ends
//!   the other's remaining lines must be blank. Our answer is one line, so line 1 must hold
//!   the `n` answers and every later line must be blank: a blank line before the answers is
//!   rejected, one after them or a missing final newline is not. CMS scores 1.0 or 0.0;
//!   our verdicts tell its 0.0 apart: line 1 not `n` tokens `0`/`1` is a presentation
//!   error, `n` such tokens that differ a wrong answer naming the first station that
//!   differs (`station 3: expected 1, found 0`), a later line not blank a presentation
//!   error. `check --protocol cms` prints white-diff's 1.0 or 0.0. White-diff overlooks
//!   nothing it does not mean to, so `--strict` changes nothing here. `O(output + n)`.
//! - **Generation** ([`Judge::generate`]): tiny railways first (1 to 6 stations, the shapes
//!   where wrong ideas fail), then up to 15 stations, then the generator's families at up to
//!   100, 1,000 and 5,000 stations. The stress loop's first runs after ten tiny ones are the
//!   five extreme railways ([`Judge::extreme`]): one station; 5,000 stations with 5,000
//!   tracks (one path through every station into a cycle, or a random head for each) and
//!   with 20,000 (random distinct tracks), each with a single charger and with every
//!   station charging, owners mixed. So a program that fails only at the largest `n` (a
//!   table of 5,000 indexed from 1) is found at run 11.
//! - **Shrinking** ([`Judge::shrink`]), by granularity across the kinds, as ddmin does:
//!   drop either half of the stations, of the droppable tracks (those of stations with
//!   another track) and of the charging flags, then quarters of each, and so on to a 256th
//!   or chunks of two; then the single moves: drop one track, clear one charging flag, drop
//!   one station, bypass one station (its only track leads elsewhere; its predecessors lead
//!   there instead). A chunk of stations gives a self-loop to each station it leaves
//!   without a track; a single station is dropped plainly (with its tracks, the others
//!   renumbered) when that leaves every station a track, else bypassed, else with
//!   self-loops. Every candidate keeps a track out of every station, and each one-step move
//!   (drop a station, drop a track, clear a charging flag) that gives a valid
//!   railway is in the list, so the driver's result is 1-minimal under them, and under
//!   bypasses too. A railway whose failure needs all its 5,000 stations sheds its extra
//!   tracks and chargers in the first level; proving it 1-minimal then takes about 5,500
//!   runs (510 chunks and 5,000 single stations).
//! - **Exhaustive** ([`Judge::exhaustive`]): every railway of up to `bound` stations
//!   (`1..=4`) without duplicate tracks, smallest first: 19,318 railways up to 3 stations.
//! - **Proof** ([`Judge::explain`]): our strategies station by station, the verifier's line
//!   and a Graphviz DOT picture of the railway.
//! - **Package** (`judge/package.rs`, [`judge::package::Packaged`]): the title, origin,
//!   statement and sample a Kattis package holds, its input validator
//!   (`judge/validator.cpp`, as strict as `validate`, and each subtask's constraint), CMS's
//!   white-diff as its output validator (`judge/whitediff.cpp`) and the subtasks as scoring
//!   groups.

mod generate;
mod moves;
mod package;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use engine::input::InputError;
use engine::rng::SplitMix64;
use judge::Invalid;
use judge::compare::quote;
use judge::scanf::is_c_space;
use judge::{Exhibit, Limits, Problem, RunLimits, Verdict};

use crate::railway::{Railway, bounds};

use crate::{Solution, Solver, dot, output, solve, verify};

/// toy-train for the judge (see the module notes). Its input is a [`Railway`], its answer
/// whether Arezou wins from each station.
#[derive(Clone, Copy, Debug, Default)]
pub struct Judge;

/// The original subtasks: number and what it asks of the input.
const SUBTASKS: [(u8, &str); 6] = [
    (1, "every track is u -> u or u -> u + 1"),
    (2, "n <= 15"),
    (3, "Arezou owns every station"),
    (4, "Borzou owns every station"),
    (5, "exactly one charging station"),
    (6, "no further constraints"),
];

/// The original subtasks `railway` belongs to, in increasing order (6 always among them).
///
/// # Errors
/// The railway breaks the original limits, so it belongs to none.
fn subtasks(railway: &Railway) -> Result<Vec<u8>, Invalid> {
    validate(railway, Limits::Original)?;
    let line = railway.tracks.iter().all(|&(u, v)| v == u || v == u + 1);
    let holds = [
        line,
        railway.n() <= 15,
        railway.arezou.iter().all(|&a| a),
        railway.arezou.iter().all(|&a| !a),
        railway.chargers() == 1,
        true,
    ];
    Ok(SUBTASKS.iter().zip(holds).filter(|(_, holds)| *holds).map(|((k, _), _)| *k).collect())
}

/// Checks a railway against `limits`; the message names the first rule broken and where.
/// `O(n + m)`, plus `O(m)` expected for the duplicate check under the original limits.
///
/// # Errors
/// The first rule broken.
fn validate(railway: &Railway, limits: Limits) -> Result<(), Invalid> {
    let (max_n, max_m) = bounds(limits);
    let (n, m) = (railway.n(), railway.m());
    if !(1..=max_n).contains(&(n as u64)) {
        return Err(Invalid(format!("n = {n} is outside 1..={max_n}")));
    }
    if !(n as u64..=max_m).contains(&(m as u64)) {
        return Err(Invalid(format!("m = {m} is outside {n}..={max_m}")));
    }
    if railway.charging.len() != n {
        return Err(Invalid(format!(
            "{n} owner flags but {} charger flags",
            railway.charging.len()
        )));
    }
    if limits == Limits::Original && railway.chargers() == 0 {
        return Err(Invalid("no charging station".to_owned()));
    }
    let mut has_track = vec![false; n];
    let mut seen = (limits == Limits::Original).then(|| HashMap::with_capacity(m));
    for (i, &(u, v)) in railway.tracks.iter().enumerate() {
        if u as usize >= n || v as usize >= n {
            return Err(Invalid(format!("track {i} ({u} -> {v}) leaves the stations 0..{n}")));
        }
        if let Some(earlier) = seen.as_mut().and_then(|seen| seen.insert((u, v), i)) {
            return Err(Invalid(format!("track {i} ({u} -> {v}) repeats track {earlier}")));
        }
        has_track[u as usize] = true;
    }
    match has_track.iter().position(|&t| !t) {
        Some(s) => Err(Invalid(format!("station {s} has no outgoing track"))),
        None => Ok(()),
    }
}

/// `1` or `0`.
fn bit(b: bool) -> char {
    if b { '1' } else { '0' }
}

/// `1 station`, `n stations`.
fn stations_text(n: usize) -> String {
    if n == 1 { "1 station".to_owned() } else { format!("{n} stations") }
}

/// An output (or a jury's answer) as white-diff reads it: lines split at `\n` only, white
/// space being C's (space, `\t`, `\n`, `\v`, `\f`, `\r`, CMS's list).
struct WhiteLines<'a> {
    /// Line 1, without its `\n` (empty for an empty text).
    first: &'a [u8],
    /// The lines after it.
    later: Later<'a>,
}

/// The lines after line 1.
struct Later<'a>(&'a [u8]);

impl<'a> WhiteLines<'a> {
    fn new(text: &'a [u8]) -> Self {
        match text.iter().position(|&b| b == b'\n') {
            Some(end) => Self { first: &text[..end], later: Later(&text[end + 1..]) },
            None => Self { first: text, later: Later(&[]) },
        }
    }
}

impl<'a> Later<'a> {
    /// The first line that is not blank (white space only), with its 1-based number in the
    /// whole text. `O(text)`.
    fn first_not_blank(&self) -> Option<(usize, &'a [u8])> {
        (self.0.split(|&b| b == b'\n').enumerate())
            .find(|(_, line)| !line.iter().all(|&b| is_c_space(b)))
            .map(|(i, line)| (i + 2, line))
    }
}

/// The words of a line: its runs of bytes other than white space.
fn words(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_c_space(b)).filter(|word| !word.is_empty())
}

/// The first word of a line that is not blank.
fn first_word(line: &[u8]) -> &[u8] {
    words(line).next().unwrap_or_default()
}

impl Judge {
    /// The verified solution of `railway` by the default solver: a failed verification is a
    /// bug of ours, never the input's fault, so it panics with the verifier's reason.
    fn solution(railway: &Railway) -> (Solution, verify::Verified) {
        let game = railway.to_game().expect("a valid railway is a game");
        let solution = solve(&game, Solver::Fast);
        let verified = verify(&game, &solution)
            .unwrap_or_else(|e| panic!("our solution fails its certificate check: {e}"));
        (solution, verified)
    }
}

impl Problem for Judge {
    type Input = Railway;
    /// Whether Arezou wins from each station.
    type Answer = Vec<bool>;
    const LEVELS: u32 = generate::LEVELS;
    /// The statement's sources do not record IOI 2017's limits for this task, so the default
    /// is ours: 2 s, a hundred times what a quadratic solution needs at the largest original
    /// size, and 256 MB, fifty times the memory that size needs.
    const RUN_LIMITS: RunLimits = RunLimits {
        time: Duration::from_secs(2),
        memory_mib: 256,
        origin: "toy-train's default; the original's are not recorded",
    };

    fn name(&self) -> &'static str {
        "toy-train"
    }

    /// Reads the sample grader's format with the solver's tokenizer and messages, checking
    /// `limits` as it goes. Under the extended limits it accepts exactly what
    /// [`parse`](crate::parse()) accepts, with the same messages. `O(input + n + m)`; it
    /// allocates no more than the input's length could describe.
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<Railway, InputError> {
        Railway::parse(bytes, limits)
    }

    fn validate(&self, input: &Railway, limits: Limits) -> Result<(), Invalid> {
        validate(input, limits)
    }

    fn render(&self, input: &Railway, out: &mut Vec<u8>) {
        input.render(out);
    }

    fn cases(&self, _input: &Railway) -> usize {
        1
    }

    /// Stations plus tracks plus charging stations: every shrink move lowers one of them and
    /// raises none.
    fn size(&self, input: &Railway) -> u64 {
        (input.n() + input.m() + input.chargers()) as u64
    }

    /// Level 0: 1 to 3 stations; 1: up to 6; 2: 4 to 10 (tiny shapes: cycles, self-loops,
    /// lines, dense and sparse graphs, one owner or both, one charger, all or some); 3: up to
    /// 15 stations, tiny shapes or families; 4 to 6: the families at up to 100, 1,000 and the
    /// limit (5,000 stations and 20,000 tracks, or 20,000 stations under the extended
    /// limits); 7: any of those.
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> Railway {
        generate::railway(rng, level, limits)
    }

    /// Five: one station; 5,000 stations with 5,000 tracks, then with 20,000, each with a
    /// single charger and with every station charging (the same under both limits).
    fn extremes(&self, limits: Limits) -> u32 {
        generate::extremes(limits)
    }

    /// Owners mixed, structure from `rng`: with `m = n` one path through every station into
    /// a cycle (single charger) or a random head for each station (all charging), with
    /// 20,000 tracks random distinct ones. `O(n + m)`.
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> Railway {
        generate::extreme(k, rng, limits)
    }

    /// The default solver's answer, its certificate checked by [`verify()`]. `O(n + m)` for
    /// the check, plus the solver's time.
    fn solve(&self, input: &Railway) -> Vec<bool> {
        Self::solution(input).0.arezou_wins
    }

    fn render_answer(&self, _input: &Railway, answer: &Vec<bool>, out: &mut Vec<u8>) {
        output::push_answer_line(out, answer);
    }

    /// A jury's answer, laid out as the sample grader prints it and as white-diff compares
    /// it: the `n` answers, each `0` or `1`, on line 1 (white space between them free), then
    /// nothing but blank lines.
    fn parse_answer(&self, input: &Railway, bytes: &[u8]) -> Result<Vec<bool>, String> {
        let n = input.n();
        let WhiteLines { first, later } = WhiteLines::new(bytes);
        let mut answer = Vec::with_capacity(n);
        for token in words(first) {
            if answer.len() == n {
                return Err(format!("line 1: {} after the last of {n} answers", quote(token)));
            }
            answer.push(match token {
                b"0" => false,
                b"1" => true,
                _ => {
                    return Err(format!(
                        "line 1: station {}: expected 0 or 1, found {}",
                        answer.len(),
                        quote(token)
                    ));
                }
            });
        }
        if answer.len() < n {
            return Err(format!(
                "{} answers on line 1 for {} (white-diff compares line by line, so the jury's \
                 answers must all be on line 1, as the grader prints them)",
                answer.len(),
                stations_text(n)
            ));
        }
        if let Some((line, text)) = later.first_not_blank() {
            return Err(format!("line {line}: {} after the answer line", quote(first_word(text))));
        }
        Ok(answer)
    }

    /// CMS's white-diff, IOI 2017's rule, against our answer line: line 1 of the output must
    /// hold the `n` answers (white space between and around them free), and every later line
    /// must be blank. Its one verdict, 0.0 or 1.0, is told apart as judges do: line 1 not
    /// read as `n` answers `0`/`1` (too few, too many, another token, a blank line) is a
    /// presentation error; `n` answers that differ, a wrong answer naming the first station
    /// that differs and how many do; a later line not blank, a presentation error. The
    /// messages follow the lines: line 1 first, as white-diff reports its first differing
    /// line. `O(output + n)`.
    fn judge(&self, input: &Railway, answer: &Vec<bool>, output: &[u8]) -> Verdict {
        let n = input.n();
        assert_eq!(answer.len(), n, "an answer holds one bit per station");
        let WhiteLines { first, later } = WhiteLines::new(output);
        // Where the answers went when line 1 has too few: white-diff never looks there.
        let too_late = |verdict: String| match later.first_not_blank() {
            Some((line, _)) => format!(
                "{verdict} (line {line} holds more: white-diff compares line by line, so all \
                 the answers must be on line 1)"
            ),
            None => verdict,
        };
        let mut tokens = words(first);
        // The first station that differs: (station, expected, found).
        let mut first_wrong = None;
        let mut wrong = 0usize;
        for (s, &want) in answer.iter().enumerate() {
            let Some(token) = tokens.next() else {
                let missing = match (s, output.is_empty()) {
                    (0, true) => format!("line 1: expected the {n} answers, found an empty output"),
                    (0, false) => format!("line 1: expected the {n} answers, found a blank line"),
                    _ => format!(
                        "station {s}: expected {}, found the end of line 1 after {s} of {n} answers",
                        bit(want)
                    ),
                };
                return Verdict::presentation_error(too_late(missing));
            };
            let got = match token {
                b"0" => false,
                b"1" => true,
                _ => {
                    return Verdict::presentation_error(format!(
                        "station {s}: expected {}, found {} on line 1, which is not 0 or 1",
                        bit(want),
                        quote(token)
                    ));
                }
            };
            if got != want {
                wrong += 1;
                first_wrong.get_or_insert((s, want, got));
            }
        }
        if let Some(extra) = tokens.next() {
            return Verdict::presentation_error(format!(
                "extra output after the {n} answers: {} on line 1",
                quote(extra)
            ));
        }
        if let Some((s, want, got)) = first_wrong {
            let more =
                if wrong > 1 { format!(" ({wrong} stations differ)") } else { String::new() };
            return Verdict::wrong_answer(format!(
                "station {s}: expected {}, found {}{more}",
                bit(want),
                bit(got)
            ));
        }
        if let Some((line, text)) = later.first_not_blank() {
            return Verdict::presentation_error(format!(
                "extra output after the answer line: {} on line {line}, which white-diff \
                 requires to be blank",
                quote(first_word(text))
            ));
        }
        Verdict::ok(stations_text(n))
    }

    /// See the module notes: chunks of stations, droppable tracks and chargers, halves first,
    /// then the single moves. The plan costs `O(n + m)`, each candidate `O(n + m)` when the
    /// driver asks for it, and skipping builds nothing.
    fn shrink(&self, input: &Railway) -> impl Iterator<Item = Railway> {
        moves::Moves::new(input)
    }

    /// `bound` is the largest number of stations, `1..=4`: every railway of up to `bound`
    /// stations without duplicate tracks, with at least one charger under the original
    /// limits (2, 108, 19,208 and 12,150,000 railways of 1, 2, 3 and 4 stations; any number
    /// of chargers under the extended limits).
    fn exhaustive_len(&self, bound: u64, limits: Limits) -> Result<u64, Invalid> {
        generate::exhaustive_len(bound, limits)
    }

    /// Railway `index` of the enumeration: by number of stations, then in mixed radix over
    /// each station's set of tracks (the most significant digits), the charger set and the
    /// owners. `O(n²)`.
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<Railway> {
        generate::exhaustive(bound, index, limits)
    }

    /// Who wins where, our strategy at each station and the verifier's line; and a Graphviz
    /// DOT picture (printed for small railways, saved as `.dot` for large ones).
    fn explain(&self, input: &Railway) -> Vec<Exhibit> {
        let (solution, verified) = Self::solution(input);
        let game = input.to_game().expect("a valid railway is a game");
        let mut text = String::new();
        let list = |wins: bool| {
            let s: Vec<String> = (0..input.n())
                .filter(|&s| solution.arezou_wins[s] == wins)
                .map(|s| s.to_string())
                .collect();
            if s.is_empty() { "none".to_owned() } else { s.join(" ") }
        };
        let _ = writeln!(text, "Arezou wins from {}; Borzou from {}", list(true), list(false));
        for s in game.stations() {
            let i = s as usize;
            let owner = if input.arezou[i] { "Arezou's" } else { "Borzou's" };
            let charging = if input.charging[i] { ", charging" } else { "" };
            let winner = if solution.arezou_wins[i] { "Arezou" } else { "Borzou" };
            let how = if input.arezou[i] == solution.arezou_wins[i] {
                format!("switch set along {s} -> {}", solution.strategy[i])
            } else {
                format!("every track stays in {winner}'s region")
            };
            let _ = writeln!(text, "station {s} ({owner}{charging}): {winner} wins; {how}");
        }
        let _ = writeln!(text, "{verified}");
        vec![
            Exhibit { title: "why our answer is right", extension: "proof", text },
            Exhibit {
                title: "the railway in Graphviz DOT (render with `dot -Tsvg`)",
                extension: "dot",
                text: dot::render(&game, &solution),
            },
        ]
    }

    /// Stations, tracks, chargers, and the original subtasks the railway belongs to (or the
    /// original limit it breaks).
    fn summary(&self, input: &Railway) -> String {
        let sizes = format!(
            "{}, {} tracks, {} charging",
            stations_text(input.n()),
            input.m(),
            input.chargers()
        );
        match subtasks(input) {
            Ok(list) => {
                let named: Vec<String> = list
                    .iter()
                    .map(|&k| format!("{k} ({})", SUBTASKS[usize::from(k) - 1].1))
                    .collect();
                format!("{sizes}; original subtasks: {}", named.join(", "))
            }
            Err(e) => format!("{sizes}; in no original subtask ({e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use judge::render;
    use judge::{VerdictKind, check};

    use super::*;

    const SAMPLE: &[u8] = b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n";

    fn error(text: &str, limits: Limits) -> String {
        Judge.parse(text.as_bytes(), limits).unwrap_err().to_string()
    }

    /// The engine's contracts: generated and extreme railways are valid and round-trip under
    /// both limits, shrink moves lower the size, the enumeration's ends are valid.
    #[test]
    fn the_problem_keeps_the_engines_contracts() {
        judge::testing::check_contracts(&Judge, 12, 60, Some(3));
    }

    #[test]
    fn the_original_limits_name_each_rule_with_its_place() {
        let original = Limits::Original;
        assert_eq!(
            error("2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n0 1\n", original),
            "line 7, column 1: track 3 (0 -> 1) repeats track 1"
        );
        assert!(Judge.parse(b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n0 1\n", Limits::Extended).is_ok());
        assert_eq!(
            error("2 2\n0 1\n0  0\n0 0\n1 1\n", original),
            "line 3, column 1: expected at least one charging station (some r[i] = 1), found none"
        );
        assert_eq!(
            error("5001 5001\n", original),
            r#"line 1, column 1: expected the number of stations n in 1..=5000, found "5001""#
        );
        assert_eq!(
            error("3 20001\n", original),
            "line 1, column 3: expected the number of tracks m (at least one per station) in \
             3..=20000, found \"20001\""
        );
        assert_eq!(
            error("3 2\n", original),
            "line 1, column 3: expected the number of tracks m (at least one per station) in \
             3..=20000, found \"2\""
        );
        assert_eq!(
            error("2 2\n0 1\n1 0\n0 0\n0 1\n", original),
            "line 2, column 3: expected a track leaving station 1, found none among the 2 tracks"
        );
        assert_eq!(
            error("1 1\n0\n1\n0 0\n0 0\n", original),
            r#"line 5, column 1: expected end of input after the m tracks, found "0""#
        );
    }

    #[test]
    fn validate_names_the_rule_broken() {
        let sample = Judge.parse(SAMPLE, Limits::Original).unwrap();
        assert_eq!(validate(&sample, Limits::Original), Ok(()));
        let mut twice = sample.clone();
        twice.tracks.push((1, 0));
        assert_eq!(
            validate(&twice, Limits::Original).unwrap_err().0,
            "track 4 (1 -> 0) repeats track 2"
        );
        assert_eq!(validate(&twice, Limits::Extended), Ok(()));
        let dark = sample.without_chargers(&[0]);
        assert_eq!(validate(&dark, Limits::Original).unwrap_err().0, "no charging station");
        assert_eq!(validate(&dark, Limits::Extended), Ok(()));
        let few = Railway { tracks: vec![(0, 0)], ..sample.clone() };
        assert_eq!(
            validate(&few, Limits::Extended).unwrap_err().0,
            "m = 1 is outside 2..=1000000000"
        );
        let stranded = Railway { tracks: vec![(0, 0), (0, 1), (0, 1)], ..sample.clone() };
        assert_eq!(
            validate(&stranded, Limits::Extended).unwrap_err().0,
            "station 1 has no outgoing track"
        );
        let outside = Railway { tracks: vec![(0, 0), (1, 2)], ..sample.clone() };
        assert_eq!(
            validate(&outside, Limits::Extended).unwrap_err().0,
            "track 1 (1 -> 2) leaves the stations 0..2"
        );
        let empty = Railway { arezou: vec![], charging: vec![], tracks: vec![] };
        assert_eq!(
            validate(&empty, Limits::Extended).unwrap_err().0,
            "n = 0 is outside 1..=100000000"
        );
        let big = Railway {
            arezou: vec![true; 5001],
            charging: vec![true; 5001],
            tracks: (0..5001).map(|s| (s, s)).collect(),
        };
        assert_eq!(validate(&big, Limits::Original).unwrap_err().0, "n = 5001 is outside 1..=5000");
        assert_eq!(validate(&big, Limits::Extended), Ok(()));
    }

    /// Under the extended limits the judge reads exactly what the solver reads, with the same
    /// messages: every data file of the test suite, errors included.
    #[test]
    fn extended_parsing_is_the_solvers() {
        let mut compared = 0;
        for file in ::tests::suite(env!("CARGO_MANIFEST_DIR")) {
            let ours = Judge.parse(&file.input, Limits::Extended);
            match crate::parse(&file.input) {
                Ok(game) => {
                    let railway = ours.unwrap_or_else(|e| panic!("{}: {e}", file.name));
                    assert_eq!(railway.to_game().unwrap(), game, "{}", file.name);
                }
                Err(e) => assert_eq!(ours, Err(e), "{}", file.name),
            }
            compared += 1;
        }
        assert!(compared >= 20);
    }

    #[test]
    fn subtasks_follow_the_statement() {
        let suite = ::tests::suite(env!("CARGO_MANIFEST_DIR"));
        for file in &suite {
            let Some(k) = file.name.strip_prefix("subtask").and_then(|n| n[..1].parse::<u8>().ok())
            else {
                continue;
            };
            let railway = Judge.parse(&file.input, Limits::Original).unwrap();
            assert!(subtasks(&railway).unwrap().contains(&k), "{}", file.name);
        }
        let sample = Judge.parse(SAMPLE, Limits::Original).unwrap();
        assert_eq!(subtasks(&sample), Ok(vec![2, 5, 6]));
        assert_eq!(
            Judge.summary(&sample),
            "2 stations, 4 tracks, 1 charging; original subtasks: 2 (n <= 15), 5 (exactly one \
             charging station), 6 (no further constraints)"
        );
        let line = Railway {
            arezou: vec![true; 2],
            charging: vec![true; 2],
            tracks: vec![(0, 1), (1, 1)],
        };
        assert_eq!(subtasks(&line), Ok(vec![1, 2, 3, 6]));
        let borzou = Railway { arezou: vec![false; 2], ..line.clone() };
        assert_eq!(subtasks(&borzou), Ok(vec![1, 2, 4, 6]));
        let back = Railway { tracks: vec![(0, 1), (1, 0)], ..borzou };
        assert_eq!(subtasks(&back), Ok(vec![2, 4, 6]));
        let dark = line.without_chargers(&[0, 1]);
        assert_eq!(
            Judge.summary(&dark),
            "2 stations, 2 tracks, 0 charging; in no original subtask (no charging station)"
        );
    }

    #[test]
    fn the_checker_is_white_diff_line_by_line() {
        let judge = |output: &str| {
            check(&Judge, SAMPLE, output.as_bytes(), None, Limits::Original, true, false)
        };
        for output in ["1 1\n", "1 1", " 1\t1 \r\n\n  \n", "1\x0b1\x0c\n\n", "1  1\r\n"] {
            assert_eq!(judge(output).to_string(), "ok: 2 stations", "{output:?}");
            assert_eq!(judge(output).lenient, None, "white-diff overlooks nothing");
        }
        assert_eq!(judge("1 0\n").to_string(), "wrong answer: station 1: expected 1, found 0");
        assert_eq!(
            judge("0 0\n\nx\n").to_string(),
            "wrong answer: station 0: expected 1, found 0 (2 stations differ)",
            "line 1 is reported first, as white-diff reports its first differing line"
        );
        let later = "white-diff compares line by line, so all the answers must be on line 1";
        for (output, message) in [
            ("1\n", "station 1: expected 1, found the end of line 1 after 1 of 2 answers"),
            ("", "line 1: expected the 2 answers, found an empty output"),
            (" \t\n", "line 1: expected the 2 answers, found a blank line"),
            (
                "\n1 1\n",
                &format!(
                    "line 1: expected the 2 answers, found a blank line (line 2 holds more: \
                     {later})"
                ),
            ),
            (
                "  1\n\n1",
                &format!(
                    "station 1: expected 1, found the end of line 1 after 1 of 2 answers (line \
                     3 holds more: {later})"
                ),
            ),
            ("1 1 0\n", r#"extra output after the 2 answers: "0" on line 1"#),
            (
                "1 1\n\n x y\n",
                r#"extra output after the answer line: "x" on line 3, which white-diff requires to be blank"#,
            ),
            ("1 yes\n", r#"station 1: expected 1, found "yes" on line 1, which is not 0 or 1"#),
            ("0 2\n", r#"station 1: expected 1, found "2" on line 1, which is not 0 or 1"#),
            ("01 1\n", r#"station 0: expected 1, found "01" on line 1, which is not 0 or 1"#),
            ("1,1\n", r#"station 0: expected 1, found "1,1" on line 1, which is not 0 or 1"#),
        ] {
            let verdict = judge(output);
            assert_eq!(verdict.kind, VerdictKind::PresentationError, "{output:?}: {verdict}");
            assert_eq!(verdict.message, message);
        }
    }

    #[test]
    fn jury_answers_are_read_as_the_grader_prints_them() {
        let sample = Judge.parse(SAMPLE, Limits::Original).unwrap();
        assert_eq!(Judge.parse_answer(&sample, b"1 1\n"), Ok(vec![true, true]));
        assert_eq!(Judge.parse_answer(&sample, b"1\t1\r\n\n"), Ok(vec![true, true]));
        assert_eq!(
            Judge.parse_answer(&sample, b"1 one\n").unwrap_err(),
            r#"line 1: station 1: expected 0 or 1, found "one""#
        );
        let one_line = "(white-diff compares line by line, so the jury's answers must all be on \
                        line 1, as the grader prints them)";
        assert_eq!(
            Judge.parse_answer(&sample, b"1\n1\n").unwrap_err(),
            format!("1 answers on line 1 for 2 stations {one_line}")
        );
        assert_eq!(
            Judge.parse_answer(&sample, b"1 1 1\n").unwrap_err(),
            r#"line 1: "1" after the last of 2 answers"#
        );
        assert_eq!(
            Judge.parse_answer(&sample, b"1 1\n\n1\n").unwrap_err(),
            r#"line 3: "1" after the answer line"#
        );
        let verdict = check(&Judge, SAMPLE, b"1 1", Some(b"1 0"), Limits::Original, true, false);
        assert_eq!(
            verdict.to_string(),
            "fail: the answer file disagrees with ours: station 1: expected 1, found 0"
        );
        let verdict = check(&Judge, b"2 4\n", b"1 1", None, Limits::Original, true, false);
        assert_eq!(
            verdict.to_string(),
            "fail: input: line 1, column 4: expected owner flag a[0] in 0..=1, found end of input"
        );
    }

    /// CMS's white-diff written from its rule, apart from the checker: the two texts are cut
    /// into lines at `\n` (a final `\n` ends the last line, it does not start one); two lines
    /// are equal when their words (split at space, `\t`, `\n`, `\v`, `\f`, `\r`) are; where
    /// one text has run out of lines, the other's lines must have no words.
    fn white_diff(output: &[u8], answer: &[u8]) -> bool {
        fn lines(text: &[u8]) -> Vec<&[u8]> {
            let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
            if text.is_empty() || text.ends_with(b"\n") {
                lines.pop();
            }
            lines
        }
        fn words(line: &[u8]) -> Vec<&[u8]> {
            line.split(|b| b" \t\n\x0b\x0c\r".contains(b)).filter(|w| !w.is_empty()).collect()
        }
        let (ours, theirs) = (lines(output), lines(answer));
        (0..ours.len().max(theirs.len())).all(|i| match (ours.get(i), theirs.get(i)) {
            (Some(a), Some(b)) => words(a) == words(b),
            (Some(rest), None) | (None, Some(rest)) => words(rest).is_empty(),
            (None, None) => unreachable!("i is below one of the lengths"),
        })
    }

    /// An output for `answer` as a program might print it: the right bits or a few flipped,
    /// a token misspelt, dropped or added; separated by one space or other white space, now
    /// and then a line break; with white space, blank lines or text before and after.
    fn some_output(rng: &mut SplitMix64, answer: &[bool]) -> Vec<u8> {
        let mut tokens: Vec<Vec<u8>> =
            answer.iter().map(|&w| vec![if w { b'1' } else { b'0' }]).collect();
        if rng.chance(1, 4) {
            let s = rng.below(tokens.len());
            tokens[s] = vec![if answer[s] { b'0' } else { b'1' }];
        }
        match rng.below(12) {
            0 => {
                let s = rng.below(tokens.len());
                tokens[s] = [&b"2"[..], b"01", b"x", b"1.0", b"-1"][rng.below(5)].to_vec();
            }
            1 => {
                tokens.remove(rng.below(tokens.len()));
            }
            2 => tokens.push(vec![b'0' + rng.below(2) as u8]),
            _ => {}
        }
        let separators: [&[u8]; 9] =
            [b"  ", b"\t", b"\x0b", b"\x0c", b"\r", b" \r ", b"\n", b"\n\n", b" \n "];
        let edges: [&[u8]; 10] =
            [b"", b" ", b"\t", b"\r", b"\n", b"\r\n", b"\n\n", b" \n", b"x\n", b"\n1\n"];
        let mut out = Vec::new();
        if rng.chance(1, 3) {
            out.extend_from_slice(edges[rng.below(edges.len())]);
        }
        let odd = rng.chance(1, 2);
        for (i, token) in tokens.iter().enumerate() {
            if i > 0 {
                let odd_here = odd && rng.chance(1, 3);
                out.extend_from_slice(if odd_here { separators[rng.below(9)] } else { b" " });
            }
            out.extend_from_slice(token);
        }
        match rng.below(4) {
            0 => out.extend_from_slice(edges[rng.below(edges.len())]),
            1 => {}
            _ => out.push(b'\n'),
        }
        out
    }

    /// The checker's verdict is white-diff's, on thousands of outputs of small railways; and
    /// the CMS protocol prints white-diff's score for it.
    #[test]
    fn the_checker_agrees_with_white_diff_written_from_its_rule() {
        let mut rng = SplitMix64::new(0x0077_11e5);
        let (mut accepted, mut rejected, mut tokens_alike) = (0, 0, 0);
        let mut kinds = std::collections::HashSet::new();
        for round in 0..150 {
            let railway = Judge.generate(&mut rng, round % 4, Limits::Original);
            let input = render(&Judge, &railway);
            let answer = Judge.solve(&railway);
            let mut answer_text = Vec::new();
            Judge.render_answer(&railway, &answer, &mut answer_text);
            for k in 0..30 {
                let output = some_output(&mut rng, &answer);
                let jury = (k % 5 == 0).then_some(&answer_text[..]);
                let verdict = check(&Judge, &input, &output, jury, Limits::Original, true, false);
                let want = white_diff(&output, &answer_text);
                assert_eq!(verdict.is_ok(), want, "{output:?} for {answer_text:?}: {verdict}");
                let (mut score, mut message) = (Vec::new(), Vec::new());
                judge::Protocol::Cms.deliver(&verdict, None, &mut score, &mut message).unwrap();
                assert_eq!(score, if want { &b"1.0\n"[..] } else { b"0.0\n" }, "{output:?}");
                kinds.insert(verdict.kind);
                if want {
                    accepted += 1;
                } else {
                    rejected += 1;
                    // Rejected though a comparison of tokens would accept it: the lines count.
                    let words: Vec<&[u8]> = output
                        .split(|b| b" \t\n\x0b\x0c\r".contains(b))
                        .filter(|w| !w.is_empty())
                        .collect();
                    let bits: Vec<&[u8]> =
                        answer.iter().map(|&w| if w { &b"1"[..] } else { b"0" }).collect();
                    tokens_alike += usize::from(words == bits);
                }
            }
        }
        assert!(accepted >= 1000 && rejected >= 1000, "{accepted} accepted, {rejected} rejected");
        assert!(tokens_alike >= 200, "{tokens_alike} rejected outputs whose tokens are right");
        let all = [VerdictKind::Ok, VerdictKind::WrongAnswer, VerdictKind::PresentationError];
        assert_eq!(kinds, all.into_iter().collect());
    }

    #[test]
    fn the_proof_shows_strategies_the_verifier_and_a_picture() {
        let sample = Judge.parse(SAMPLE, Limits::Original).unwrap();
        let exhibits = Judge.explain(&sample);
        let (proof, dot) = (&exhibits[0].text, &exhibits[1].text);
        let lines: Vec<&str> = proof.lines().collect();
        assert_eq!(lines[0], "Arezou wins from 0 1; Borzou from none");
        assert_eq!(
            lines[1],
            "station 0 (Borzou's, charging): Arezou wins; every track stays in Arezou's region"
        );
        assert_eq!(lines[2], "station 1 (Arezou's): Arezou wins; switch set along 1 -> 0");
        assert!(lines[3].starts_with("verified: Arezou wins from 2 stations"), "{proof}");
        assert_eq!(lines.len(), 4);
        assert!(dot.starts_with("digraph railway {\n") && dot.ends_with("}\n"), "{dot}");
    }

    proptest::proptest! {
        /// Mutated valid inputs and random bytes: parsing and validating under both limits
        /// never panic, whatever parses is valid and renders back to an equal railway
        /// ([`assert_parses_soundly`](judge::testing::assert_parses_soundly)), and
        /// under the extended limits the judge and the solver's streaming parser agree.
        #[test]
        fn parse_and_validate_never_panic(
            seed: u64,
            level in 0..4u32,
            edits in proptest::collection::vec((0..4096usize, 0..8u8, proptest::num::u8::ANY), 0..6),
            noise in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        ) {
            let mut rng = SplitMix64::new(seed);
            let valid = render(&Judge, &Judge.generate(&mut rng, level, Limits::Original));
            let bytes = judge::testing::corrupt::corrupt(valid, &edits, b" 1");
            for bytes in [bytes, noise] {
                judge::testing::assert_parses_soundly(&Judge, &bytes);
                if let Ok(railway) = Judge.parse(&bytes, Limits::Original) {
                    let _ = Judge.summary(&railway);
                }
                let ours = Judge.parse(&bytes, Limits::Extended);
                let solver = crate::parse(&bytes);
                match (&ours, &solver) {
                    (Ok(railway), Ok(game)) => {
                        proptest::prop_assert_eq!(&railway.to_game().expect("a game"), game);
                    }
                    _ => proptest::prop_assert_eq!(ours.map(|_| ()), solver.map(|_| ())),
                }
            }
        }
    }
}
