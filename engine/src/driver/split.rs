//! Reading a batch on every thread: the file is cut at guessed case boundaries, the pieces
//! are parsed in parallel, and every cut is checked, so that the result is exactly what the
//! sequential parser ([`parse_all`](super::parse_all)) gives, first error included.
//!
//! A [`Format`] may say how many lines a case takes in files laid out the usual way
//! ([`Format::lines_per_case`]). The file after the header is cut into pieces of about equal
//! size; the newlines of each piece are counted in parallel, which gives the line number of
//! every piece's start; each piece's chunk then begins at the first line at or after the
//! piece's start that should open a case (the first case's line plus a multiple of the
//! lines per case), and holds the cases up to the next chunk's. The chunks are parsed in
//! parallel, each from its own start. A chunk is *sound* when it parses its cases and only
//! white space lies between its last token and the next chunk: then the sequential parser,
//! arriving at the chunk's start, would read exactly the same cases and arrive at the next
//! chunk's start, so by induction the sound prefix of the chunks is what the sequential
//! parser reads. At the first chunk that is not sound (a malformed case, or a file laid out
//! otherwise) the parser goes on sequentially from that chunk's start, which gives the first
//! error, or the remaining cases, exactly as [`parse_all`](super::parse_all) would.
//!
//! The chunks write their cases straight into their places in one vector, filled first with
//! copies of the first case: nothing is copied after the parse, and the cases are held once.
//!
//! Time: two passes over the bytes (counting newlines, parsing), both split over the pool's
//! threads, plus `O(pieces * lines per case)` to place the cuts and one parallel pass to fill
//! the vector. Space: the cases.

use rayon::prelude::*;

use super::Format;
use crate::input::{Input, InputError};

/// When to cut: the tests cut small inputs, which real files would read sequentially.
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// Fewer cases than this are parsed sequentially: cutting would cost more than it saves.
    min_cases: usize,
    /// The smallest piece, in bytes.
    min_piece: usize,
    /// Pieces per pool thread: a few, so that a thread that finishes early takes over work.
    pieces_per_thread: usize,
}

/// The tuning of real files.
const TUNING: Tuning = Tuning { min_cases: 4096, min_piece: 1 << 16, pieces_per_thread: 4 };

/// Where one chunk starts: its byte offset, its line number (0-based) and its first case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cut {
    offset: usize,
    line: usize,
    first_case: usize,
}

/// Parses `bytes` on the current rayon pool: the same header, cases and first error as
/// [`parse_all`](super::parse_all).
pub(super) fn parse<F: Format>(
    format: &F,
    bytes: &[u8],
) -> Result<(F::Header, Vec<F::Case>), InputError> {
    parse_tuned(format, bytes, TUNING).0
}

/// A chunk's cases and the offset after its last one.
type Chunk<F> = (Vec<<F as Format>::Case>, usize);

/// The result of a parse, and how many chunks parsed in parallel were kept.
type Parsed<F> = (Result<(<F as Format>::Header, Vec<<F as Format>::Case>), InputError>, usize);

/// [`parse`] with the thresholds of `tuning`; also says how many chunks parsed in parallel
/// were kept (so the tests know the cuts were used).
fn parse_tuned<F: Format>(format: &F, bytes: &[u8], tuning: Tuning) -> Parsed<F> {
    let mut input = Input::new(bytes);
    let (header, count) = match format.parse_header(&mut input) {
        Ok(header) => header,
        Err(e) => return (Err(e), 0),
    };
    let (cases, kept) = parse_cases(format, &header, bytes, input.offset(), count, tuning);
    (cases.map(|cases| (header, cases)), kept)
}

/// The cases after the header (which ends at `start`), and how many chunks parsed in
/// parallel were kept.
fn parse_cases<F: Format>(
    format: &F,
    header: &F::Header,
    bytes: &[u8],
    start: usize,
    count: usize,
    tuning: Tuning,
) -> (Result<Vec<F::Case>, InputError>, usize) {
    let file = File { format, header, bytes, count };
    let lines = format.lines_per_case(header).filter(|&lines| lines > 0);
    let cuts = match lines {
        Some(lines) if count >= tuning.min_cases && rayon::current_num_threads() > 1 => {
            let cuts = plan(bytes, start, count, lines, tuning);
            // The last chunk holds the cases the count announces after the last cut. A line
            // takes at least two bytes (a token and a line break) but the last, so a count the
            // file cannot hold is read sequentially, failing at the end of the input, before a
            // vector of that many cases is filled.
            let last = cuts.last().map_or(0, |cut| {
                (count - cut.first_case).saturating_sub((bytes.len() - cut.offset) / (2 * lines))
            });
            if last <= 1 { cuts } else { Vec::new() }
        }
        _ => Vec::new(),
    };
    if cuts.len() < 2 {
        let first = Cut { offset: 0, line: 0, first_case: 0 };
        return (file.parse_from(first, count).map(|(cases, _)| cases), 0);
    }
    // Every case is parsed straight into its place in one vector, which is first filled with
    // copies of the first case (read here, as the sequential parser reads it first) so that
    // each chunk can overwrite its own piece: no vector a chunk, and no copy after.
    let first = match file.parse_from(cuts[0], 1) {
        Ok((mut one, _)) => one.pop().expect("one case was read"),
        Err(e) => return (Err(e), 0),
    };
    let mut cases = Vec::with_capacity(count);
    crate::memory::advise_huge_pages(cases.spare_capacity_mut());
    cases.par_extend(rayon::iter::repeat_n(first, count));
    let ends: Vec<usize> =
        cuts.iter().skip(1).map(|cut| cut.first_case).chain(std::iter::once(count)).collect();
    let mut pieces = Vec::with_capacity(cuts.len());
    let mut rest = cases.as_mut_slice();
    for (cut, &end) in cuts.iter().zip(&ends) {
        let (piece, tail) = std::mem::take(&mut rest).split_at_mut(end - cut.first_case);
        pieces.push(piece);
        rest = tail;
    }
    let read: Vec<Result<usize, InputError>> = cuts
        .par_iter()
        .zip(pieces)
        .map(|(&cut, piece)| {
            let mut places = piece.iter_mut();
            file.read_cases(cut, cut.first_case + places.len(), |case| {
                *places.next().expect("a place for every case of the chunk") = case;
            })
        })
        .collect();
    for (i, (cut, read)) in cuts.iter().zip(read).enumerate() {
        let next = cuts.get(i + 1).map_or(bytes.len(), |next| next.offset);
        let sound = read.is_ok_and(|end| {
            bytes.get(end..next).is_some_and(|gap| gap.iter().all(u8::is_ascii_whitespace))
        });
        // Not sound: from here on, as the sequential parser would.
        if !sound {
            cases.truncate(cut.first_case);
            let rest = file.parse_from(*cut, count);
            let cases = rest.map(|(rest, _)| {
                cases.extend(rest);
                cases
            });
            return (cases, i);
        }
    }
    (Ok(cases), cuts.len())
}

/// A file being parsed: its format, header, bytes and announced number of cases.
struct File<'a, F: Format> {
    format: &'a F,
    header: &'a F::Header,
    bytes: &'a [u8],
    count: usize,
}

impl<F: Format> File<'_, F> {
    /// Parses cases `cut.first_case..end` from `cut` on, and after the last case of the file
    /// checks that nothing follows; returns them and the offset after the last one read.
    /// Errors are located in the whole input.
    fn parse_from(&self, cut: Cut, end: usize) -> Result<Chunk<F>, InputError> {
        // A case takes at least two bytes, so a huge announced count cannot reserve more than
        // the input could hold; it fails at the end of the input instead.
        let mut cases = Vec::with_capacity((end - cut.first_case).min(self.bytes.len() / 2 + 1));
        crate::memory::advise_huge_pages(cases.spare_capacity_mut());
        let offset = self.read_cases(cut, end, |case| cases.push(case))?;
        Ok((cases, offset))
    }

    /// [`File::parse_from`], handing each case to `emit` in order; returns the offset after
    /// the last one read.
    fn read_cases(
        &self,
        cut: Cut,
        end: usize,
        mut emit: impl FnMut(F::Case),
    ) -> Result<usize, InputError> {
        // The first chunk goes on after the header. The others start at a line start, so
        // that a slice from there numbers columns as the whole input does, and lines from 1.
        let (mut input, base) = if cut.first_case == 0 {
            let mut input = Input::new(self.bytes);
            self.format.parse_header(&mut input)?;
            (input, 0)
        } else {
            (Input::new(&self.bytes[cut.offset..]), cut.offset)
        };
        let relocate = |mut error: InputError| {
            if cut.first_case > 0 {
                error.line += cut.line;
            }
            error
        };
        for index in cut.first_case..end {
            emit(self.format.parse_case(self.header, index, &mut input).map_err(relocate)?);
        }
        let offset = base + input.offset();
        if end == self.count {
            let count = self.count;
            let after = if count == 0 { "the header".to_owned() } else { format!("case {count}") };
            input.finish(&after).map_err(relocate)?;
        }
        Ok(offset)
    }
}

/// The cuts for `count` cases of `lines` lines each after the header, which ends at `start`:
/// the first chunk at `start`, then at most one a piece. `O(bytes / threads + pieces *
/// lines)` on the pool.
fn plan(bytes: &[u8], start: usize, count: usize, lines: usize, tuning: Tuning) -> Vec<Cut> {
    // The first case's line: that of the first token after the header.
    let first_token = bytes[start..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(bytes.len(), |i| start + i);
    let first_line = newlines(&bytes[..first_token]);
    let pieces = (rayon::current_num_threads() * tuning.pieces_per_thread)
        .min((bytes.len() - start) / tuning.min_piece)
        .max(1);
    let size = (bytes.len() - start).div_ceil(pieces);
    let starts: Vec<usize> = (0..pieces).map(|p| start + p * size).collect();
    let counts: Vec<usize> = starts
        .par_iter()
        .map(|&at| newlines(&bytes[at.min(bytes.len())..(at + size).min(bytes.len())]))
        .collect();
    let mut cuts = vec![Cut { offset: start, line: newlines(&bytes[..start]), first_case: 0 }];
    let mut before = cuts[0].line;
    for (&at, &in_piece) in starts.iter().zip(&counts) {
        if at > start
            && at < bytes.len()
            && let Some(cut) = cut_in_piece(bytes, at, before, first_line, lines, count)
            && cut.first_case > cuts.last().map_or(0, |last| last.first_case)
        {
            cuts.push(cut);
        }
        before += in_piece;
    }
    cuts
}

/// The newlines in `bytes`. Counted in a byte per lane over blocks of 255 bytes (so that no
/// lane overflows), which vectorizes to about 20 GB/s; a plain filter-and-count does 3.
fn newlines(bytes: &[u8]) -> usize {
    let (blocks, rest) = bytes.as_chunks::<255>();
    let in_blocks: usize = blocks
        .iter()
        .map(|block| usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum();
    in_blocks + rest.iter().filter(|&&b| b == b'\n').count()
}

/// The first line at or after byte `at` (with `before` newlines before `at`) that should
/// open a case, as a cut; `None` when no such line holds one of the `count` cases.
fn cut_in_piece(
    bytes: &[u8],
    at: usize,
    before: usize,
    first_line: usize,
    lines: usize,
    count: usize,
) -> Option<Cut> {
    let next_line =
        |from: usize| bytes.get(from..)?.iter().position(|&b| b == b'\n').map(|i| from + i + 1);
    // The first line start at or after `at`.
    let (mut offset, mut line) =
        if bytes[at - 1] == b'\n' { (at, before) } else { (next_line(at)?, before + 1) };
    if line < first_line {
        return None;
    }
    // On to the next line that opens a case.
    for _ in 0..(lines - (line - first_line) % lines) % lines {
        offset = next_line(offset)?;
        line += 1;
    }
    let first_case = (line - first_line) / lines;
    (offset < bytes.len() && first_case < count).then_some(Cut { offset, line, first_case })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::parse_all;
    use crate::rng::SplitMix64;

    /// `T`, then per case `lines` lines, line `j` holding `j + 1` numbers below 1000; a case
    /// keeps the index it was read with, so that an index passed wrongly shows.
    struct Lines {
        lines: usize,
    }

    impl Format for Lines {
        type Header = ();
        type Case = (usize, Vec<u32>);

        fn parse_header(&self, input: &mut Input<'_>) -> Result<((), usize), InputError> {
            Ok(((), input.uint("T", 0..=1_000_000)?))
        }

        fn parse_case(
            &self,
            _: &(),
            index: usize,
            input: &mut Input<'_>,
        ) -> Result<(usize, Vec<u32>), InputError> {
            let numbers = self.lines * (self.lines + 1) / 2;
            let case = (0..numbers).map(|_| input.uint("x", 0..=999)).collect::<Result<_, _>>()?;
            Ok((index, case))
        }

        fn lines_per_case(&self, _: &()) -> Option<usize> {
            Some(self.lines)
        }
    }

    /// A file of `count` cases; with `tidy`, laid out as `lines_per_case` says, else with
    /// random white space (line breaks included) between the numbers.
    fn file(rng: &mut SplitMix64, lines: usize, count: usize, tidy: bool) -> Vec<u8> {
        let mut text = format!("{count}\n");
        let gap = |rng: &mut SplitMix64, text: &mut String, end_of_line: bool| {
            if tidy {
                text.push(if end_of_line { '\n' } else { ' ' });
            } else {
                text.push_str([" ", "  ", "\n", "\t", " \n ", "\r\n"][rng.below(6)]);
            }
        };
        for i in 0..count {
            text += &(i % 1000).to_string();
            for line in 0..lines {
                for j in 0..=line {
                    if line > 0 || j > 0 {
                        text += &rng.below(1000).to_string();
                    }
                    gap(rng, &mut text, j == line);
                }
            }
        }
        text.into_bytes()
    }

    /// Cuts small files into many pieces.
    const SMALL: Tuning = Tuning { min_cases: 1, min_piece: 16, pieces_per_thread: 8 };

    /// Parses `bytes` on a pool of `threads` threads, cutting small files too; also says how
    /// many chunks parsed in parallel were kept.
    fn parse_on(threads: usize, format: &Lines, bytes: &[u8]) -> Parsed<Lines> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| parse_tuned(format, bytes, SMALL))
    }

    #[test]
    fn cut_files_read_as_the_sequential_parser_reads_them() {
        let mut rng = SplitMix64::new(5);
        for lines in 1..=4 {
            let format = Lines { lines };
            for tidy in [true, false] {
                let bytes = file(&mut rng, lines, 700, tidy);
                let expected = parse_all(&format, &bytes).unwrap();
                for threads in 1..=8 {
                    let (parsed, kept) = parse_on(threads, &format, &bytes);
                    assert_eq!(parsed.unwrap(), expected);
                    // A tidy file is read in many chunks, none of them read again.
                    if tidy && threads > 1 {
                        assert!(kept >= threads * SMALL.pieces_per_thread / 2, "{kept} chunks");
                    }
                }
            }
        }
    }

    #[test]
    fn a_corrupt_file_gives_the_sequential_parsers_first_error() {
        let mut rng = SplitMix64::new(9);
        let mut errors = std::collections::BTreeSet::new();
        let mut parallel = 0;
        for round in 0..300 {
            let lines = 1 + round % 3;
            let format = Lines { lines };
            let count = 60 + rng.below(200);
            let mut bytes = file(&mut rng, lines, count, round % 4 != 0);
            // One to three corruptions: a byte replaced, removed or added; a count too large.
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len());
                match rng.below(5) {
                    0 => bytes[at] = b"x-9 \n"[rng.below(5)],
                    1 => drop(bytes.remove(at)),
                    2 => bytes.insert(at, b"7 \nq"[rng.below(4)]),
                    3 => bytes.truncate(at),
                    _ => bytes.extend_from_slice(b" 12"),
                }
            }
            let expected = parse_all(&format, &bytes);
            for threads in [1, 2, 3, 8] {
                let (parsed, kept) = parse_on(threads, &format, &bytes);
                assert_eq!(parsed, expected, "round {round}");
                parallel += usize::from(kept > 0);
            }
            if let Err(e) = expected {
                errors.insert(e.message.split(',').next().unwrap_or_default().to_owned());
            }
        }
        // The corruptions reach several kinds of error, not one, and most files keep some
        // chunks read in parallel before the one the sequential parser takes over.
        assert!(errors.len() >= 4, "{errors:?}");
        assert!(parallel >= 300, "{parallel} of 1200 parses kept a chunk read in parallel");
    }
}
