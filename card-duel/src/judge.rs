//! card-duel as the judge sees it: [`Judge`] implements [`judge::Problem`] (and, in
//! `judge/package.rs`, `Packaged`), which give the binary its judging subcommands (listed in
//! `docs/judging.md`). This module holds the limits, the checker (the rule an output is judged by)
//! and our answers with their table cache; `judge/generate.rs` the stress loop's levels, the
//! extreme inputs and the exhaustive enumeration, and `judge/moves.rs` the shrink moves.
//!
//! - **Limits.** `original`: the contest's, as its statement and validator state them:
//!   `1 <= T <= 351,493`, `3 <= O <= 5`, HP `1..=20`, at most 4 minions a board, each of HP 1
//!   or 2, hands `0..=3`; positions may repeat. `extended`: what the solver accepts,
//!   `0 <= T <= MAX_CASES` and `1 <= O <= MAX_OPS`, the other fields alike. The solver's
//!   parser ([`InputFormat`]) reads under either limits, numbers separated by any white
//!   space, so the validator's messages are the solver's: the rule and its line and column,
//!   e.g. `line 1, column 3: expected O in 3..=5, found "6"`. `validate` then holds the file
//!   to the canonical format ([`judge::canonical`]), the official data's layout as its
//!   generator writes it and [`render_input`] does, a board's minions in any order (the
//!   generator shuffles them). The official validator checks the same ranges but takes any
//!   run of spaces, `\r` and `\n` between numbers and leading zeros, and rejects a tab: it
//!   accepts every canonical file, and `validate --lenient` every file it accepts. Each run
//!   of a program gets the original judge's 20 s and 2048 MiB unless told otherwise.
//! - **Checker.** The official checker's rule (THUPC 2021's `chk.cpp`), to the verdict: it
//!   reads the jury's answers one by one with C's `fscanf(f, "%lf", &x)` and for each reads
//!   one number of the output the same way; a read that does not return 1 (end of output, or
//!   text that is not a number) is "Output too short.", a number with `fabs(out - ans) <=
//!   1e-6` false is "Wrong Answer." (so `nan`, for which the comparison is false, and `inf`
//!   are wrong answers). After the last answer it tries one more read: "Output too long."
//!   only if that read returns a number, so text there that is not a number is ignored and so
//!   is all that follows it. We read as glibc does ([`judge::scanf`]): any of C's
//!   white space between numbers, whatever the lines; `1.`, `.5`, `+1`, hex floats, `inf`
//!   and `nan`; `0.5e` and `100ergs` read as 0.5 and 100 with the `e` gone; two numbers with
//!   nothing between (`0.50.047`) read apart. Too short and too long are presentation
//!   errors, a value off by more than 1e-6 is a wrong answer, with no slack: the boundary is
//!   where doubles put it (`0.000001` for 0 is accepted, `0.500001` for 0.5 is not). The
//!   jury's answer file holds the official solution's rendering with 9 decimals, and that
//!   rendering, not the exact value, is what the official checker compares with; so our own
//!   answer is our value printed with 9 decimals and read back. A given jury answer must be
//!   one strict decimal (below) a case, nothing after.
//! - **Lenient and strict.** An output the official checker accepts although the strict
//!   reading would not is `ok` with [`Verdict::lenient`] saying the first such thing: a
//!   case's number that is not in the strict decimal grammar `[-+]?D+(.D+)?([eE][-+]?D+)?`
//!   (hex, `.5`, `1.`, `0.5e`), one that runs into the next with no white space between, or
//!   text after the last answer. The strict reading (`check --strict`) is: exactly one token
//!   a case, tokens separated by C's white space, each in that grammar and within 1e-6,
//!   nothing else. An output the official checker rejects keeps its verdict under `--strict`;
//!   one it accepts leniently is a presentation error there, with that text.
//! - **Generation** ([`Judge::generate`]), by level, 40 cases a file at first: tiny positions
//!   (HP up to 3, boards of at most two minions, hands often full), HP up to 4 (each of HP
//!   1, 2, 3 and 4 is a threshold of the rules), both kept won at once by face attacks one
//!   time in four only; then the families of [`generate`](crate::generate) (SmallHp, Edge,
//!   Uniform, Heavy), a mix of them in files of 1,000 cases, and last files of 10,000 mixed
//!   cases or of 351,493 distinct positions (the official data's shape). O is drawn from
//!   `3..=5` under the original limits; under the extended ones mostly from the edges 1, 2,
//!   3, 5 and 20.
//! - **Extremes** ([`Judge::extreme`]), tried right after the first ten tiny files (runs 10
//!   to 14): the 25 heavy positions (both players at 20 HP, both boards full, both hands
//!   full) once each at O = 5; the 576 positions whose every field is at an end of its range
//!   (HP 1 or 20, boards empty or full, hands 0 or 3) at O = 3; 351,493 distinct positions
//!   at O = 5; 351,493 heavy positions (so each of the 25 many times) at O = 3, then at O =
//!   5; under the extended limits also every one of the 1,440,000 positions at O = 20 (run
//!   15). A program that fails only at HP 20 or only with a full board fails at run 10, one
//!   that fails only at the largest `T` at run 12.
//! - **Shrinking** ([`Judge::shrink`]): lower O (to 1, then by half the distance, ..., by
//!   one); in a file of 64 cases or more, keep one quarter of the cases; keep either half;
//!   every case to the simplest position (both at 1 HP, empty boards and hands, when two
//!   cases or more are not); drop a quarter of the cases, an eighth and so on; drop one
//!   case; then, case by case, lower E's or the teacher's HP (to 1, then by half the
//!   distance, a quarter, ..., by one), remove one minion (a 1-HP or a 2-HP one), lower a
//!   2-HP minion to 1, lower a hand (to 0, then by one). The driver's result is 1-minimal
//!   under all of these, the one-step moves among them. An official-size failure of a
//!   program as fast as ours, wrong on one kind of position (4,400, 294 or 8 of the 351,493
//!   cases), shrinks to one case, 1-minimal, in about 50 runs, most of whose time is the
//!   program's own: even one case at HP 20 sweeps most of the state space.
//! - **Exhaustive** ([`Judge::exhaustive`]): the bound is O; every one of the 1,440,000
//!   positions of that O in [`StartKey`](crate::StartKey) rank order (E's HP, the teacher's
//!   HP, E's board, the teacher's board, E's hand, the teacher's hand), in files of the
//!   official 351,493 cases, the last one shorter: 5 files.
//! - **Proof** ([`Judge::explain`]): `--explain`'s text for the (small) failing input, its
//!   first 64 cases when it has more.
//! - **Package** (`judge/package.rs`, [`judge::package::Packaged`]): the title, origin,
//!   statement and samples a Kattis package holds, its input validator
//!   (`judge/validator.cpp`, as strict as `validate`), its output validation (Kattis's
//!   default within 1e-6) and its size (at most two official-size files).
//!
//! Our answers come from the fast solver, with tables restricted to the file's reach: little
//! work for small HP, as much as the whole table of its O for a file that reaches nearly
//! every position. A stress run or a shrink asks for many files, so the judge keeps the
//! tablebase of an O (its whole table, [`Tablebase`], 11.5 MB) in a [`Cache`] in memory,
//! built once (one sweep of every position) when it pays: for the second file of that O with
//! an HP above 8, at once for a file of more than 1,000 cases with such an HP, and for any
//! file from the 16th of that O on; every later file of that O is read off it in groups. A
//! `check`, which solves one file, never pays for the whole table, and a bug that shows in a
//! stress run's first small files is reported without waiting for it. The same [`Cache`],
//! backed by a folder, serves `--tablebase DIR --build-missing`.

mod generate;
mod moves;
mod package;

use std::fmt;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use engine::driver::parse_all;
use engine::input::InputError;
use engine::rng::SplitMix64;
use judge::Invalid;
use judge::compare::{Tokens, absolute_close, decimal, is_decimal, quote};
use judge::scanf::{Outcome, is_c_space, scan_f64};
use judge::{Exhibit, Limits, Problem, RunLimits, Verdict};

use crate::TestFile;
use crate::explain;
use crate::parse::{InputFormat, render_input, write_probability};
use crate::rules::{Board, MAX_HAND, MAX_HP, MAX_MINIONS, MAX_OPS, Position};
use crate::tablebase::{Cache, Policy, Tablebase};

/// The official checker's tolerance: an answer is accepted within this absolute error.
const TOLERANCE: f64 = 1e-6;

/// Files whose HPs are all at most this reach a small part of the state space, so tables
/// restricted to their reach cost little; a larger HP may reach nearly all of it and cost as
/// much as the whole table of its O (see the module notes).
const SMALL_FILE_HP: u8 = 8;

/// A file of more cases than this with an HP above [`SMALL_FILE_HP`] reaches nearly every
/// position, so it gets the whole table of its O at once.
const WHOLE_TABLE_CASES: usize = 1000;

/// From this many files of one O on, whatever their HP, the whole table of that O is built
/// and kept: by then the files to come are likely to cost more than it.
const WHOLE_TABLE_FILES: u32 = 16;

/// Most cases whose `--explain` text a report shows.
const EXPLAINED_CASES: usize = 64;

/// card-duel for the judge (see the module notes). Its input is a [`TestFile`], its answer
/// one probability per case as the jury's file holds it (9 decimals, read back).
///
/// It keeps the tablebase (the whole value table) of each O it has needed for large files in
/// a [`Cache`] in memory, so that a stress run builds each once; a `Judge` is meant to live
/// as long as the command.
pub struct Judge {
    /// The tablebase of each O, once files have needed it.
    tablebases: Cache,
    /// Files solved so far of each O.
    files: [AtomicU32; MAX_OPS as usize + 1],
    /// Files solved so far of each O with an HP above [`SMALL_FILE_HP`].
    large_files: [AtomicU32; MAX_OPS as usize + 1],
}

impl Default for Judge {
    fn default() -> Judge {
        Judge {
            tablebases: Cache::in_memory(),
            files: Default::default(),
            large_files: Default::default(),
        }
    }
}

impl fmt::Debug for Judge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = self.tablebases.kept_ops();
        f.debug_struct("Judge").field("whole_tables_of_o", &kept).finish()
    }
}

/// `n cases` (or `1 case`).
fn cases_text(n: usize) -> String {
    if n == 1 { "1 case".to_owned() } else { format!("{n} cases") }
}

/// `p` as the jury's answer file holds it: printed with 9 decimals and read back, as the
/// official checker reads it. `O(1)`.
fn printed(p: f64) -> f64 {
    let mut text = Vec::with_capacity(16);
    write_probability(&mut text, p);
    // `D.DDDDDDDDD\n` is the integer n of its ten digits over 10^9, and `n / 1e9` in doubles
    // is the exact quotient correctly rounded, as reading the text is: the same double,
    // without a float parse (an official-size file has 351,493 of them).
    if let [whole, b'.', fraction @ .., b'\n'] = text.as_slice()
        && fraction.len() == 9
        && whole.is_ascii_digit()
        && fraction.iter().all(u8::is_ascii_digit)
    {
        let n =
            std::iter::once(whole).chain(fraction).fold(0_u64, |n, d| n * 10 + u64::from(d - b'0'));
        return n as f64 / 1e9;
    }
    let text = std::str::from_utf8(&text).expect("a printed probability is ASCII");
    text.trim_end().parse().expect("a printed probability reads back")
}

/// A token for a message: as it is when short, else cut to its first 40 characters.
fn shown(token: &[u8]) -> String {
    match std::str::from_utf8(token) {
        Ok(text) if text.len() <= 40 => text.to_owned(),
        _ => quote(token),
    }
}

/// An absolute error for a message: three significant digits (`2.69e-6`), or as many as it
/// takes not to read as the tolerance when it is not the tolerance (`1.00000000003e-6`, not
/// `1.00e-6`, for an error just above it; `9.9999999997e-7` just below); `0` and `1e-6`
/// themselves plainly.
fn error_text(error: f64) -> String {
    if error == 0.0 {
        return "0".to_owned();
    }
    if error == TOLERANCE || !error.is_finite() {
        return format!("{error:e}");
    }
    (2..=16)
        .map(|decimals| format!("{error:.decimals$e}"))
        .find(|text| text.parse::<f64>() != Ok(TOLERANCE))
        .unwrap_or_else(|| format!("{error:e}"))
}

/// The white-space-separated word of `output` that starts at `start` (C's white space), for
/// a message.
fn word_at(output: &[u8], start: usize) -> &[u8] {
    let rest = &output[start..];
    &rest[..rest.iter().position(|&b| is_c_space(b)).unwrap_or(rest.len())]
}

/// Line numbers of positions in an output read from its start on: each position asked for
/// is at or after the one before, so counting the newlines costs one pass in all.
struct LineCounter<'a> {
    output: &'a [u8],
    counted: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(output: &'a [u8]) -> Self {
        Self { output, counted: 0, line: 1 }
    }

    /// The 1-based line of byte `pos`.
    fn line_of(&mut self, pos: usize) -> usize {
        debug_assert!(pos >= self.counted, "lines are asked for in order");
        self.line += self.output[self.counted..pos].iter().filter(|&&b| b == b'\n').count();
        self.counted = pos;
        self.line
    }
}

/// One case's number as the official checker read it (`%lf`), with what a message about it
/// needs.
struct Read<'a> {
    /// The whole output.
    output: &'a [u8],
    /// Where the number's text starts and ends in it.
    start: usize,
    end: usize,
    /// The case, 1-based, and the line the number is on.
    case: usize,
    line: usize,
    /// The value read.
    found: f64,
}

impl Read<'_> {
    /// The number's text, as `%lf` took it.
    fn text(&self) -> &[u8] {
        &self.output[self.start..self.end]
    }

    /// Whether the text is a decimal of the strict grammar.
    fn plain(&self) -> bool {
        is_decimal(self.text())
    }

    /// Whether the number runs into what follows it, with no white space between.
    fn glued(&self) -> bool {
        self.output.get(self.end).is_some_and(|&b| !is_c_space(b))
    }

    /// chk.cpp's "Wrong Answer." for this number against `expected`: where it was (and the
    /// word it was read from, when it runs into more), how it was read when not a plain
    /// decimal, and the absolute error.
    fn wrong_answer(&self, expected: f64) -> Verdict {
        let (case, line, found) = (self.case, self.line, self.found);
        let place = if self.glued() {
            format!("line {line}, read from {}", quote(word_at(self.output, self.start)))
        } else {
            format!("line {line}")
        };
        let read = if self.plain() { String::new() } else { format!(", read as {found:?}") };
        let error = (found - expected).abs();
        let error = if error.is_nan() {
            format!("NaN, never within {TOLERANCE:e}")
        } else {
            format!("{} > {TOLERANCE:e}", error_text(error))
        };
        Verdict::wrong_answer(format!(
            "case {case}: expected {expected:.9}, found {} ({place}){read}, absolute error \
             {error}",
            shown(self.text())
        ))
    }

    /// What the strict reading would reject in this accepted number, if anything: text
    /// outside the strict decimal grammar, or (when `more` answers follow) a number that
    /// runs into the next.
    fn not_strict(&self, more: bool) -> Option<String> {
        let (case, line, found) = (self.case, self.line, self.found);
        if !self.plain() {
            return Some(format!(
                "case {case}: {} (line {line}) is not a decimal of the form \
                 [-+]?D+(.D+)?([eE][-+]?D+)?; the official checker reads it as C's %lf does, as \
                 {found:?}",
                quote(self.text())
            ));
        }
        (self.glued() && more).then(|| {
            format!(
                "case {case}: {} (line {line}) runs into the next answer with no white space \
                 between ({}), which the official checker reads apart",
                quote(self.text()),
                quote(word_at(self.output, self.start))
            )
        })
    }
}

/// Why `board` is not a board, if it is not: more than [`MAX_MINIONS`] minions.
fn check_board(board: Board, whose: &str, case: usize) -> Result<(), Invalid> {
    let count = u16::from(board.ones) + u16::from(board.twos);
    if count > u16::from(MAX_MINIONS) {
        return Err(Invalid(format!(
            "case {case}: {whose} board holds {count} minions, more than {MAX_MINIONS}"
        )));
    }
    Ok(())
}

/// Why `p` (case `case`, 1-based) breaks the rules every limits share, if it does.
fn check_position(p: &Position, case: usize) -> Result<(), Invalid> {
    for (hp, whose) in [(p.e_hp, "E's HP"), (p.teacher_hp, "the teacher's HP")] {
        if !(1..=MAX_HP).contains(&hp) {
            return Err(Invalid(format!("case {case}: {whose} {hp} is outside 1..={MAX_HP}")));
        }
    }
    check_board(p.teacher_board, "the teacher's", case)?;
    check_board(p.e_board, "E's", case)?;
    for (hand, whose) in [(p.teacher_hand, "the teacher's"), (p.e_hand, "E's")] {
        if hand > MAX_HAND {
            return Err(Invalid(format!(
                "case {case}: {whose} hand of {hand} cards is outside 0..={MAX_HAND}"
            )));
        }
    }
    Ok(())
}

impl Judge {
    /// A judge with no table built yet.
    #[must_use]
    pub fn new() -> Judge {
        Judge::default()
    }

    /// The tablebase of `input`'s O when it is kept or worth building now (see the module
    /// notes); `None` for a file that gets tables of its own reach.
    fn tablebase(&self, input: &TestFile) -> Option<&Tablebase> {
        if let Some(tablebase) = self.tablebases.kept(input.ops) {
            return Some(tablebase);
        }
        let o = usize::from(input.ops);
        let files = self.files[o].fetch_add(1, Ordering::Relaxed) + 1;
        let large = input.positions.iter().any(|p| p.e_hp.max(p.teacher_hp) > SMALL_FILE_HP);
        let large_files = self.large_files[o].fetch_add(u32::from(large), Ordering::Relaxed);
        let worth = files >= WHOLE_TABLE_FILES
            || (large && (large_files > 0 || input.positions.len() > WHOLE_TABLE_CASES));
        worth.then(|| {
            let built = self.tablebases.get_or_build(input.ops, Policy::Build);
            &**built.expect("a cache in memory builds, and building cannot fail")
        })
    }
}

impl Problem for Judge {
    type Input = TestFile;
    type Answer = Vec<f64>;
    const LEVELS: u32 = generate::LEVELS;
    /// The original judge's: 20 s and 2048 MiB for a file (the statement's Origin).
    const RUN_LIMITS: RunLimits = RunLimits {
        time: Duration::from_secs(20),
        memory_mib: 2048,
        origin: "the original judge's",
    };

    fn name(&self) -> &'static str {
        "card-duel"
    }

    /// Reads `T O` and the positions with the solver's parser ([`InputFormat`]), `T` and `O`
    /// within `limits`. `O(input)`.
    fn parse(&self, bytes: &[u8], limits: Limits) -> Result<TestFile, InputError> {
        let (ops, positions) = parse_all(&InputFormat { limits }, bytes)?;
        Ok(TestFile { ops, positions })
    }

    fn validate(&self, input: &TestFile, limits: Limits) -> Result<(), Invalid> {
        let format = InputFormat { limits };
        let counts = format.case_counts();
        if !counts.contains(&input.positions.len()) {
            return Err(Invalid(format!(
                "T = {} is outside {}..={}",
                input.positions.len(),
                counts.start(),
                counts.end()
            )));
        }
        let ops = format.ops();
        if !ops.contains(&input.ops) {
            return Err(Invalid(format!(
                "O = {} is outside {}..={}",
                input.ops,
                ops.start(),
                ops.end()
            )));
        }
        for (i, p) in input.positions.iter().enumerate() {
            check_position(p, i + 1)?;
        }
        Ok(())
    }

    /// The solver's writer, [`render_input`]. `O(cases)`.
    fn render(&self, input: &TestFile, out: &mut Vec<u8>) {
        render_input(input.ops, &input.positions, out);
    }

    fn cases(&self, input: &TestFile) -> usize {
        input.positions.len()
    }

    fn extremes(&self, limits: Limits) -> u32 {
        generate::extremes(limits)
    }

    /// Extreme `k`: the 25 heavy positions (O = 5); the 576 positions of fields at their ends
    /// (O = 3); 351,493 distinct positions (O = 5); 351,493 heavy positions at O = 3, then at
    /// O = 5; under the extended limits also every position at O = 20.
    fn extreme(&self, k: u32, rng: &mut SplitMix64, limits: Limits) -> TestFile {
        generate::extreme(k, rng, limits)
    }

    /// O plus, for each case, one and every HP and hand size on the table: each move lowers
    /// it.
    fn size(&self, input: &TestFile) -> u64 {
        let case = |p: &Position| {
            1 + u64::from(p.total_hp()) + u64::from(p.e_hand) + u64::from(p.teacher_hand)
        };
        u64::from(input.ops) + input.positions.iter().map(case).sum::<u64>()
    }

    /// Level 0: HP up to 3, boards of at most two minions, hands full half the time; 1: HP
    /// up to 4, any boards; 2 to 5: the SmallHp, Edge, Uniform and Heavy families, 40 cases a
    /// file; 6: 1,000 cases, each from any of those; 7: 10,000 such cases, or (one file in
    /// two) 351,493 distinct positions drawn uniformly, as the official files are.
    fn generate(&self, rng: &mut SplitMix64, level: u32, limits: Limits) -> TestFile {
        generate::file(rng, level, limits)
    }

    /// The fast solver's values, printed with 9 decimals and read back (see the module
    /// notes): read in groups off the tablebase of the file's O once the judge keeps it
    /// ([`Tablebase::values`]), else one [`Tables::build`](crate::Tables::build) over the
    /// file's reach.
    fn solve(&self, input: &TestFile) -> Vec<f64> {
        if input.positions.is_empty() {
            return Vec::new();
        }
        let values = match self.tablebase(input) {
            Some(tablebase) => tablebase.values(&input.positions),
            None => crate::solve(input.ops, &input.positions),
        };
        values.into_iter().map(printed).collect()
    }

    fn render_answer(&self, _input: &TestFile, answer: &Vec<f64>, out: &mut Vec<u8>) {
        for &p in answer {
            write_probability(out, p);
        }
    }

    /// A jury's answer: one probability (a number in 0..=1) a case in the strict decimal
    /// grammar, any white space between them.
    fn parse_answer(&self, input: &TestFile, bytes: &[u8]) -> Result<Vec<f64>, String> {
        let cases = input.positions.len();
        let mut answers = Vec::with_capacity(cases);
        for (token, line) in Tokens::new(bytes) {
            if answers.len() == cases {
                return Err(format!(
                    "line {line}: {} after the last of {}",
                    quote(token),
                    cases_text(cases)
                ));
            }
            let value = decimal(token)
                .ok_or_else(|| format!("line {line}: {} is not a number", quote(token)))?;
            if !(0.0..=1.0).contains(&value) {
                return Err(format!("line {line}: {} is not a probability", quote(token)));
            }
            answers.push(value);
        }
        if answers.len() < cases {
            return Err(format!("{} numbers for {}", answers.len(), cases_text(cases)));
        }
        Ok(answers)
    }

    /// The official checker's rule (module notes): each case's number read as C's
    /// `fscanf("%lf")` reads it ([`scan_f64`]), then one more read that must not find a
    /// number. The message of an accepted output gives the largest error seen, and
    /// [`Verdict::lenient`] the first thing the strict reading would reject: a number not in
    /// the strict decimal grammar, one run into the next, text after the last answer.
    /// `O(output)`.
    fn judge(&self, input: &TestFile, answer: &Vec<f64>, output: &[u8]) -> Verdict {
        assert_eq!(answer.len(), input.positions.len(), "an answer holds one number a case");
        let mut lines = LineCounter::new(output);
        let mut pos = 0;
        let mut largest = 0.0_f64;
        let mut lenient: Option<String> = None;
        for (i, &expected) in answer.iter().enumerate() {
            let case = i + 1;
            let scan = scan_f64(output, pos);
            let line = lines.line_of(scan.start);
            let found = match scan.outcome {
                // chk.cpp: "Output too short." for both.
                Outcome::End => {
                    return Verdict::presentation_error(format!(
                        "case {case}: expected {expected:.9}, found end of output"
                    ));
                }
                Outcome::Mismatch => {
                    return Verdict::presentation_error(format!(
                        "case {case}: expected {expected:.9}, found {} (line {line}), which is \
                         not a number",
                        quote(word_at(output, scan.start))
                    ));
                }
                Outcome::Number(found) => found,
            };
            let read = Read { output, start: scan.start, end: scan.end, case, line, found };
            if !absolute_close(expected, found, TOLERANCE) {
                // chk.cpp: "Wrong Answer."
                return read.wrong_answer(expected);
            }
            largest = largest.max((found - expected).abs());
            if lenient.is_none() {
                lenient = read.not_strict(case < answer.len());
            }
            pos = scan.end;
        }
        let after = scan_f64(output, pos);
        match after.outcome {
            Outcome::Number(_) => {
                // chk.cpp: "Output too long."
                return Verdict::presentation_error(format!(
                    "extra output after {} answers: {} on line {}",
                    answer.len(),
                    quote(&output[after.start..after.end]),
                    lines.line_of(after.start)
                ));
            }
            Outcome::Mismatch if lenient.is_none() => {
                lenient = Some(format!(
                    "text after the last answer ({} on line {}), which the official checker \
                     ignores",
                    quote(word_at(output, after.start)),
                    lines.line_of(after.start)
                ));
            }
            Outcome::Mismatch | Outcome::End => {}
        }
        let verdict = Verdict::ok(format!(
            "{}, largest absolute error {}",
            cases_text(answer.len()),
            error_text(largest)
        ));
        match lenient {
            Some(what) => verdict.overlooking(what),
            None => verdict,
        }
    }

    /// Lower O (to 1, then by half the distance, ..., by one); in a file of at least 64
    /// cases, keep one quarter of the cases; keep either half; every case to the simplest
    /// position (both at 1 HP, empty boards and hands), when two or more are not; drop a
    /// quarter of the cases, an eighth, ... (the rest of ddmin's chunks); drop each case;
    /// then for each case in order: lower E's HP, then the teacher's (to 1, then by half the
    /// distance, ..., by one); for the teacher's board, then E's: remove a 1-HP minion,
    /// remove a 2-HP minion, lower a 2-HP minion to 1; lower the teacher's hand, then E's (to
    /// 0, then by one).
    fn shrink(&self, input: &TestFile) -> impl Iterator<Item = TestFile> {
        moves::shrink(input)
    }

    /// `--explain`'s text for the first 64 cases: E's best first action and the value of
    /// each legal one.
    fn explain(&self, input: &TestFile) -> Vec<Exhibit> {
        let shown = &input.positions[..input.positions.len().min(EXPLAINED_CASES)];
        if shown.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        explain::render(&explain::explain(input.ops, shown), &mut out);
        let mut text = String::from_utf8(out).expect("explanations are ASCII");
        if shown.len() < input.positions.len() {
            let _ =
                writeln!(text, "(the first {} of {} cases)", shown.len(), input.positions.len());
        }
        vec![Exhibit { title: "why our answer is right (--explain)", extension: "proof", text }]
    }

    /// `bound` is O: every position of that O, in files of the official size.
    fn exhaustive_len(&self, bound: u64, limits: Limits) -> Result<u64, Invalid> {
        generate::files(bound, limits)
    }

    /// File `index`: the positions of ranks `351,493 * index ..` in
    /// [`StartKey`](crate::StartKey) order. `O(351,493)`.
    fn exhaustive(&self, bound: u64, index: u64, limits: Limits) -> Option<TestFile> {
        let files = self.exhaustive_len(bound, limits).ok()?;
        if index >= files {
            return None;
        }
        let index = usize::try_from(index).ok()?;
        let ops = u8::try_from(bound).expect("exhaustive_len checked the bound");
        Some(generate::exhaustive_file(ops, index))
    }

    /// The case count, O and the range of the players' HP.
    fn summary(&self, input: &TestFile) -> String {
        let hps = input.positions.iter().flat_map(|p| [p.e_hp, p.teacher_hp]);
        let (low, high) = hps.fold((u8::MAX, 0), |(lo, hi), hp| (lo.min(hp), hi.max(hp)));
        let mut text = format!("{}, O = {}", cases_text(input.positions.len()), input.ops);
        if !input.positions.is_empty() {
            let _ = write!(text, ", HP {low}..={high}");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use judge::render;
    use judge::{VerdictKind, check, testing};

    use super::*;

    /// E's HP, the teacher's, the teacher's board and E's as `(ones, twos)`, the teacher's
    /// hand and E's: the input's order. The tests of generation and of the shrink moves use
    /// it too.
    pub(super) fn position(
        e_hp: u8,
        teacher_hp: u8,
        teacher_board: (u8, u8),
        e_board: (u8, u8),
        hands: (u8, u8),
    ) -> Position {
        let board = |(ones, twos)| Board { ones, twos };
        Position {
            e_hp,
            teacher_hp,
            e_board: board(e_board),
            teacher_board: board(teacher_board),
            e_hand: hands.1,
            teacher_hand: hands.0,
        }
    }

    /// Four cases worth 0.5 (sample 1's position), 0.047132701 (sample 2's, O = 3), exactly
    /// 0 (E at 1 HP must act and the teacher's minions survive the pings) and exactly 1 (a
    /// face attack kills).
    const FOUR: &str = "4 3\n1 1\n0\n0\n0 1\n5 14\n1 1\n1 1\n1 0\n1 4\n2 2 2\n0\n0 0\n\
                        3 3\n0\n1 1\n0 0\n";

    /// Generated, extreme and exhaustive inputs are valid and round-trip; the first shrink
    /// moves of each lower the size. Levels 6 and 7 and the extremes hold up to 1,440,000
    /// cases, so a few draws a level and the first moves of each (the chunk drops, the
    /// whole-file move, the first single drops) keep this to seconds; every move of a small
    /// input is in `moves::tests::the_shrink_moves_hold_the_one_step_moves`.
    #[test]
    fn the_judge_keeps_the_problem_contracts() {
        testing::check_contracts(&Judge::new(), 6, 64, Some(3));
    }

    #[test]
    fn printed_values_read_back_as_the_text_does() {
        let mut rng = SplitMix64::new(9);
        let mut values: Vec<f64> =
            (0..100_000).map(|_| rng.next_u64() as f64 / 2f64.powi(64)).collect();
        values.extend([0.0, 1.0, 0.5, 0.041_879_441, 0.000_000_000_5, 0.999_999_999_5]);
        values.extend((0..1000).map(|i| (f64::from(i) + 0.5) / 1e9));
        for p in values {
            let text = format!("{p:.9}");
            assert_eq!(printed(p).to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
        }
    }

    #[test]
    fn our_answers_are_the_jury_files_nine_decimals() {
        let judge = Judge::new();
        let input = judge.parse(FOUR.as_bytes(), Limits::Original).unwrap();
        let answer = judge.solve(&input);
        assert_eq!(answer, [0.5, 0.047_132_701, 0.0, 1.0]);
        let mut output = Vec::new();
        judge.render_answer(&input, &answer, &mut output);
        assert_eq!(output, b"0.500000000\n0.047132701\n0.000000000\n1.000000000\n");
        assert_eq!(judge.summary(&input), "4 cases, O = 3, HP 1..=14");
    }

    #[test]
    fn one_file_gets_tables_of_its_reach_and_a_second_large_one_the_whole_table() {
        let judge = Judge::new();
        let input = judge.parse(FOUR.as_bytes(), Limits::Original).unwrap();
        let of_reach = judge.solve(&input);
        assert_eq!(format!("{judge:?}"), "Judge { whole_tables_of_o: [] }");
        let whole = judge.solve(&input);
        assert_eq!(format!("{judge:?}"), "Judge { whole_tables_of_o: [3] }");
        assert_eq!(whole, of_reach);
        // Small files of another O only count until the sixteenth.
        let small = TestFile { ops: 4, positions: input.positions[..1].to_vec() };
        for _ in 1..WHOLE_TABLE_FILES {
            assert_eq!(judge.solve(&small), [0.5]);
        }
        assert_eq!(format!("{judge:?}"), "Judge { whole_tables_of_o: [3] }");
    }

    #[test]
    fn the_checker_is_the_official_rule() {
        let judge = Judge::new();
        let input = judge.parse(FOUR.as_bytes(), Limits::Original).unwrap();
        let answer = judge.solve(&input);
        let verdict = |output: &str| judge.judge(&input, &answer, output.as_bytes()).to_string();
        assert_eq!(verdict("0.5\n0.047132701\n0\n1\n"), "ok: 4 cases, largest absolute error 0");
        // Numbers, whatever the lines; 1e-6 exactly is accepted (0.000001 - 0 is the double
        // 1e-6), and so is -0.000001 on an exact 0.
        assert_eq!(verdict("0.5 0.047132 0.000001 1"), "ok: 4 cases, largest absolute error 1e-6");
        assert_eq!(
            verdict("0.5 0.0471327 -0.000001 +1.000000e0"),
            "ok: 4 cases, largest absolute error 1e-6"
        );
        // In doubles, 0.499999 is 9.9999999997e-7 from 0.5 but 0.500001 is
        // 1.0000000000288e-6 from it: the first is accepted, the second is not, as chk.cpp's
        // fabs(out - ans) <= 1e-6 decides; neither error reads as 1e-6.
        assert_eq!(
            verdict("0.499999 0.047132701 0 1"),
            "ok: 4 cases, largest absolute error 9.9999999997e-7"
        );
        assert_eq!(
            verdict("0.500001 0.047132701 0 1"),
            "wrong answer: case 1: expected 0.500000000, found 0.500001 (line 1), absolute error \
             1.00000000003e-6 > 1e-6"
        );
        // The next double above 1e-6 is just above the tolerance.
        assert_eq!(
            verdict("0.5 0.047132701 0.0000010000000000000002 1"),
            "wrong answer: case 3: expected 0.000000000, found 0.0000010000000000000002 (line \
             1), absolute error 1.0000000000000002e-6 > 1e-6"
        );
        assert_eq!(
            verdict("0.5\n0.047132701\n0\n0.99\n"),
            "wrong answer: case 4: expected 1.000000000, found 0.99 (line 4), absolute error \
             1.00e-2 > 1e-6"
        );
        // What C's %lf reads, read alike: nan and inf are numbers, and wrong.
        assert_eq!(
            verdict("0.5\n0.047132701\nnan\n1\n"),
            "wrong answer: case 3: expected 0.000000000, found nan (line 3), read as NaN, \
             absolute error NaN, never within 1e-6"
        );
        assert_eq!(
            verdict("0.5 -inf 0 1"),
            "wrong answer: case 2: expected 0.047132701, found -inf (line 1), read as -inf, \
             absolute error inf > 1e-6"
        );
        assert_eq!(
            verdict("0x1p-2 0 0 1"),
            "wrong answer: case 1: expected 0.500000000, found 0x1p-2 (line 1), read as 0.25, \
             absolute error 2.50e-1 > 1e-6"
        );
        assert_eq!(
            verdict("0,5 0 0 1"),
            r#"wrong answer: case 1: expected 0.500000000, found 0 (line 1, read from "0,5"), absolute error 5.00e-1 > 1e-6"#
        );
        // Accepted, but not as the strict reading would: the first such thing is said.
        assert_eq!(
            verdict("0x1p-1 .047132701 0 1"),
            r#"ok: 4 cases, largest absolute error 0; lenient: case 1: "0x1p-1" (line 1) is not a decimal of the form [-+]?D+(.D+)?([eE][-+]?D+)?; the official checker reads it as C's %lf does, as 0.5"#
        );
        assert_eq!(
            verdict("0.50.047132701 0 1e"),
            r#"ok: 4 cases, largest absolute error 0; lenient: case 1: "0.50" (line 1) runs into the next answer with no white space between ("0.50.047132701"), which the official checker reads apart"#
        );
        assert_eq!(
            verdict("0.5\n0.047132701\n0\n1\n\nthe end: 1\n"),
            r#"ok: 4 cases, largest absolute error 0; lenient: text after the last answer ("the" on line 6), which the official checker ignores"#
        );
        // Too short, not a number, too long: presentation errors.
        for (output, message) in [
            ("0.5\n0.047132701\n0\n", "case 4: expected 1.000000000, found end of output"),
            ("", "case 1: expected 0.500000000, found end of output"),
            (
                "0.5\n0.047132701\nzero\n1\n",
                r#"case 3: expected 0.000000000, found "zero" (line 3), which is not a number"#,
            ),
            (
                "0.5x 0.047132701 0 1",
                r#"case 2: expected 0.047132701, found "x" (line 1), which is not a number"#,
            ),
            ("0.5\n0.047132701\n0\n1\n1\n", r#"extra output after 4 answers: "1" on line 5"#),
            ("0.5\n0.047132701\n0\n1.0.5\n", r#"extra output after 4 answers: ".5" on line 4"#),
        ] {
            let v = judge.judge(&input, &answer, output.as_bytes());
            assert_eq!(v.kind, VerdictKind::PresentationError, "{output:?}: {v}");
            assert_eq!((v.message.as_str(), v.lenient), (message, None));
        }
    }

    #[test]
    fn errors_read_with_three_digits_or_as_many_as_it_takes_to_differ_from_the_tolerance() {
        assert_eq!(error_text(0.0), "0");
        assert_eq!(error_text(TOLERANCE), "1e-6");
        assert_eq!(error_text(2.69e-6), "2.69e-6");
        assert_eq!(error_text(0.25), "2.50e-1");
        assert_eq!(error_text(1.000_000_000_028_755_7e-6), "1.00000000003e-6");
        assert_eq!(error_text(1.000_000_000_000_000_2e-6), "1.0000000000000002e-6");
        assert_eq!(error_text(9.999_999_999_732_445e-7), "9.9999999997e-7");
        assert_eq!(error_text(1.004e-6), "1.004e-6");
        assert_eq!(error_text(f64::INFINITY), "inf");
    }

    #[test]
    fn check_reads_the_jury_answer_and_checks_it_against_ours() {
        let run = |output: &str, answer: Option<&str>| {
            check(
                // A judge a check, as the binary runs them: none builds a whole table.
                &Judge::new(),
                FOUR.as_bytes(),
                output.as_bytes(),
                answer.map(str::as_bytes),
                Limits::Original,
                true,
                false,
            )
            .to_string()
        };
        let right = "0.500000000\n0.047132701\n0.000000000\n1.000000000\n";
        assert_eq!(run(right, Some(right)), "ok: 4 cases, largest absolute error 0");
        // The jury's rendering is what is compared with, within 1e-6 of ours.
        assert_eq!(
            run("0.5000015 0.047132701 0 1", Some("0.5000006 0.047132701 0 1")),
            "ok: 4 cases, largest absolute error 9.00e-7"
        );
        assert_eq!(run(right, Some("0.5 0.047132701 0")), "fail: answer: 3 numbers for 4 cases");
        assert_eq!(
            run(right, Some("0.5 0.047132701 0 1 0")),
            r#"fail: answer: line 1: "0" after the last of 4 cases"#
        );
        assert_eq!(
            run(right, Some("0.5 0.047132701 zero 1")),
            r#"fail: answer: line 1: "zero" is not a number"#
        );
        assert_eq!(
            run(right, Some("0.5 0.05 0 1")),
            "fail: the answer file disagrees with ours: case 2: expected 0.047132701, found \
             0.05 (line 1), absolute error 2.87e-3 > 1e-6"
        );
    }

    #[test]
    fn validate_names_the_case_and_the_rule() {
        let judge = Judge::new();
        let mut input = judge.parse(FOUR.as_bytes(), Limits::Original).unwrap();
        assert_eq!(judge.validate(&input, Limits::Original), Ok(()));
        let invalid = |input: &TestFile, limits| judge.validate(input, limits).unwrap_err().0;
        input.ops = 6;
        assert_eq!(invalid(&input, Limits::Original), "O = 6 is outside 3..=5");
        assert_eq!(judge.validate(&input, Limits::Extended), Ok(()));
        input.ops = 21;
        assert_eq!(invalid(&input, Limits::Extended), "O = 21 is outside 1..=20");
        input.ops = 3;
        input.positions[2].teacher_hp = 21;
        assert_eq!(
            invalid(&input, Limits::Extended),
            "case 3: the teacher's HP 21 is outside 1..=20"
        );
        input.positions[2].teacher_hp = 4;
        input.positions[1].e_board = Board { ones: 3, twos: 2 };
        assert_eq!(
            invalid(&input, Limits::Original),
            "case 2: E's board holds 5 minions, more than 4"
        );
        input.positions[1].e_board = Board::EMPTY;
        input.positions[3].teacher_hand = 4;
        assert_eq!(
            invalid(&input, Limits::Original),
            "case 4: the teacher's hand of 4 cards is outside 0..=3"
        );
        let empty = TestFile { ops: 3, positions: Vec::new() };
        assert_eq!(invalid(&empty, Limits::Original), "T = 0 is outside 1..=351493");
        assert_eq!(judge.validate(&empty, Limits::Extended), Ok(()));
    }

    #[test]
    fn the_proof_is_the_explained_output() {
        let judge = Judge::new();
        let input = judge.parse(b"1 5\n1 1\n0\n0\n0 1\n", Limits::Original).unwrap();
        assert_eq!(
            judge.explain(&input).remove(0).text,
            "case 1: 0.500000000\n  best: play a card\n  hero power: 0.000000000\n  play a \
             card: 0.500000000\n"
        );
        let many = TestFile { ops: 3, positions: vec![input.positions[0]; 65] };
        let proof = judge.explain(&many).remove(0).text;
        assert!(proof.ends_with("\n(the first 64 of 65 cases)\n"), "{proof}");
        assert_eq!(judge.explain(&TestFile { ops: 3, positions: Vec::new() }), Vec::new());
    }

    proptest::proptest! {
        /// Mutated valid inputs and random bytes: parsing under both limits never panics, and
        /// whatever parses is valid and renders back to an equal input.
        #[test]
        fn parse_and_validate_never_panic(
            seed: u64,
            level in 0..6u32,
            edits in proptest::collection::vec(
                (0..4096usize, 0..8u8, proptest::num::u8::ANY),
                0..6,
            ),
            noise in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        ) {
            let judge = Judge::new();
            let mut rng = SplitMix64::new(seed);
            let valid = render(&judge, &judge.generate(&mut rng, level, Limits::Original));
            let corrupted = testing::corrupt::corrupt(valid, &edits, b" 2");
            testing::assert_parses_soundly(&judge, &corrupted);
            testing::assert_parses_soundly(&judge, &noise);
        }
    }
}
