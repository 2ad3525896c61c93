//! The parallel multi-testcase driver: parse a header and every case, do the file's shared
//! work once, solve the cases on a rayon pool, and return the answers in input order,
//! optionally written out as bytes. Every step runs on the pool: the file is parsed in
//! chunks cut at case boundaries ([`Format::lines_per_case`], module `split`), the cases are
//! solved in chunks, and the answers are written in chunks: straight into their places while
//! they have one width, else into one buffer per chunk, joined in order.
//!
//! Guarantees, for any thread count: a malformed file gives nothing but its first error, the
//! one [`parse_all`] (the sequential parser) reports; a [`FileSolver`] that fails gives
//! nothing but its error, after every case is parsed; answers come in input order; and the
//! written bytes are the same, since each answer depends only on its case (and the shared
//! work) and is written by itself.
//!
//! Scratch: each pool thread owns one `Scratch` (memo stores and the like), created on its
//! first case and reused for every later case that thread solves; solvers reset it per case.
//!
//! Memory: the input bytes, the parsed cases and the answers are held at once, so a batch
//! needs about `input size + cases * (size_of Case + size_of Answer)` plus one scratch per
//! thread and the shared work; while writing, also the written bytes: once when the answers
//! have one width, else from the first of another width on twice (the chunks' buffers, then
//! the joined output).

mod split;

use std::fmt;
use std::io::IsTerminal;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::input::{Input, InputError};
use crate::run::RunError;

/// A batch input format: a header that announces the case count, then the cases.
///
/// Kept apart from [`BatchSolver`] so that several solvers of one format share its parser,
/// and so that a validator can read a file without solving it.
pub trait Format: Sync {
    /// What the first line says besides the case count (e.g. a rule parameter).
    type Header: Send + Sync;
    /// One parsed case. `Clone`, so that a large file's cases can be parsed in parallel
    /// straight into their places in one vector, filled first with copies of the first case.
    type Case: Clone + Send + Sync;

    /// Reads the header, returning it and the number of cases that follow.
    ///
    /// # Errors
    /// A malformed header.
    fn parse_header(&self, input: &mut Input<'_>) -> Result<(Self::Header, usize), InputError>;

    /// Reads case `index` (0-based).
    ///
    /// # Errors
    /// A malformed case.
    fn parse_case(
        &self,
        header: &Self::Header,
        index: usize,
        input: &mut Input<'_>,
    ) -> Result<Self::Case, InputError>;

    /// How many lines a case takes in files laid out the usual way, if it is fixed: a hint
    /// that lets the driver cut a large file for parallel parsing. Every cut is checked, and
    /// a file laid out otherwise is read sequentially from the first wrong cut on, so the
    /// hint never changes a result. `None` (the default) parses sequentially.
    fn lines_per_case(&self, _header: &Self::Header) -> Option<usize> {
        None
    }
}

/// The header type of solver `S`'s format.
pub type HeaderOf<S> = <<S as BatchSolver>::Format as Format>::Header;
/// The case type of solver `S`'s format.
pub type CaseOf<S> = <<S as BatchSolver>::Format as Format>::Case;

/// A problem with many independent test cases, as the driver sees it.
///
/// `solve` must not itself run work on the rayon pool: the driver holds the thread's scratch
/// while a case is solved. `prepare` may use rayon freely; it runs on the driver's pool.
pub trait BatchSolver: Sync {
    /// The input format.
    type Format: Format;
    /// Work shared by every case of a file, done once after parsing.
    type Shared: Sync;
    /// Per-thread reusable memory.
    type Scratch: Send;
    /// One case's answer.
    type Answer: Send + Sync;

    /// The format this solver reads.
    fn format(&self) -> &Self::Format;

    /// The file's shared work, given every case.
    fn prepare(&self, header: &HeaderOf<Self>, cases: &[CaseOf<Self>]) -> Self::Shared;

    /// A fresh scratch for one thread.
    fn new_scratch(&self, header: &HeaderOf<Self>, shared: &Self::Shared) -> Self::Scratch;

    /// Solves case `index` (0-based, in input order).
    fn solve(
        &self,
        header: &HeaderOf<Self>,
        shared: &Self::Shared,
        index: usize,
        case: &CaseOf<Self>,
        scratch: &mut Self::Scratch,
    ) -> Self::Answer;
}

/// A solver that answers a whole file at once rather than case by case (card-duel values
/// every position a file reaches in one sweep, then reads each case off it). The driver
/// parses and writes as for a [`BatchSolver`]; the answers and what else the file's work
/// leaves (its size, for `--stats`) come from one call, which may fail (card-duel reads a
/// table from a file that may be damaged).
pub trait FileSolver: Sync {
    /// The input format.
    type Format: Format;
    /// One case's answer.
    type Answer: Send + Sync;
    /// What the file's work leaves besides the answers.
    type Extra: Send;

    /// The format this solver reads.
    fn format(&self) -> &Self::Format;

    /// Every case's answer, in input order, and the extra. It may use rayon freely: it runs
    /// on the driver's pool. It is called once every case is parsed, so a malformed file
    /// never reaches it.
    ///
    /// # Errors
    /// What keeps the solver from answering the file; the driver writes nothing then.
    fn solve_file(
        &self,
        header: &<Self::Format as Format>::Header,
        cases: &[<Self::Format as Format>::Case],
    ) -> Result<(Vec<Self::Answer>, Self::Extra), RunError>;
}

/// How to run a batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DriverOptions {
    /// Worker threads; `None` means the `RAYON_NUM_THREADS` variable, else all cores.
    pub threads: Option<usize>,
    /// Draw a progress bar on stderr when the batch runs longer than about a second and
    /// stderr is a terminal (with the `cli` feature, which brings indicatif).
    pub progress: bool,
}

/// A solved batch.
#[derive(Debug)]
pub struct Batch<H, C, A> {
    /// The parsed header.
    pub header: H,
    /// The parsed cases, in input order.
    pub cases: Vec<C>,
    /// One answer per case, in input order.
    pub answers: Vec<A>,
}

/// A solved batch of solver `S`.
pub type BatchOf<S> = Batch<HeaderOf<S>, CaseOf<S>, <S as BatchSolver>::Answer>;

/// A solved batch of format `F` with answers `A`.
pub type FormatBatch<F, A> = Batch<<F as Format>::Header, <F as Format>::Case, A>;

/// A solved batch of file solver `S`.
pub type FileBatchOf<S> = FormatBatch<<S as FileSolver>::Format, <S as FileSolver>::Answer>;

/// Parses every case of `bytes`, then nothing else may follow.
///
/// # Errors
/// The first malformed token, or trailing tokens after the last case.
pub fn parse_all<F: Format>(
    format: &F,
    bytes: &[u8],
) -> Result<(F::Header, Vec<F::Case>), InputError> {
    let mut input = Input::new(bytes);
    let (header, count) = format.parse_header(&mut input)?;
    // A case takes at least two bytes, so a huge announced count cannot reserve more than the
    // input could hold; it fails at the end of the input instead.
    let mut cases = Vec::with_capacity(count.min(bytes.len() / 2 + 1));
    for index in 0..count {
        cases.push(format.parse_case(&header, index, &mut input)?);
    }
    let after = if count == 0 { "the header".to_owned() } else { format!("case {count}") };
    input.finish(&after)?;
    Ok((header, cases))
}

/// Parses `bytes` and solves every case in parallel; answers come back in input order.
///
/// # Errors
/// Malformed input (nothing is solved then; the error is the first, as [`parse_all`] finds
/// it), or a thread pool that cannot start.
pub fn solve_input<S: BatchSolver>(
    solver: &S,
    bytes: &[u8],
    options: &DriverOptions,
) -> Result<BatchOf<S>, RunError> {
    Ok(solve_and_write(solver, bytes, options, |_, _, _| {})?.batch)
}

/// A batch solved and written by [`solve_and_write`], with the time each step took.
#[derive(Debug)]
pub struct Written<B> {
    /// The parsed cases and their answers.
    pub batch: B,
    /// The answers' bytes, in input order.
    pub bytes: Vec<u8>,
    /// Wall time of each step.
    pub steps: Steps,
}

/// Wall time of each step of [`solve_and_write`], for `--stats`: where a run spends its time
/// and which steps the threads share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Steps {
    /// Parsing the header and every case.
    pub parse: Duration,
    /// The solver's per-file work ([`BatchSolver::prepare`]); zero for a [`FileSolver`].
    pub prepare: Duration,
    /// Solving the cases.
    pub solve: Duration,
    /// Writing the answers.
    pub write: Duration,
}

impl fmt::Display for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "parse {:.3} ms, prepare {:.3} ms, solve {:.3} ms, write {:.3} ms",
            ms(self.parse),
            ms(self.prepare),
            ms(self.solve),
            ms(self.write)
        )
    }
}

/// The worker threads `options` asks for: `threads`, or rayon's default (the
/// `RAYON_NUM_THREADS` variable, else all cores).
///
/// # Errors
/// When the pool cannot start.
pub fn thread_pool(options: &DriverOptions) -> Result<rayon::ThreadPool, RunError> {
    let threads = options.threads.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Threads { threads, reason: e.to_string() })
}

/// [`solve_input`], then each answer written by `write(batch, index, out)` (which appends
/// answer `index`'s bytes to `out`), in parallel chunks put in input order
/// ([`write_ordered`]): the bytes are the same for any thread count. `O(input size)` to parse
/// and write, in parallel, plus the solver's work.
///
/// # Errors
/// As [`solve_input`]; nothing is written then.
pub fn solve_and_write<S: BatchSolver>(
    solver: &S,
    bytes: &[u8],
    options: &DriverOptions,
    write: impl Fn(&BatchOf<S>, usize, &mut Vec<u8>) + Sync,
) -> Result<Written<BatchOf<S>>, RunError> {
    let answer = |header: &HeaderOf<S>, cases: &[CaseOf<S>], steps: &mut Steps| {
        let started = Instant::now();
        let shared = solver.prepare(header, cases);
        steps.prepare = started.elapsed();
        let progress = Progress::new(cases.len(), options.progress);
        let answers = std::thread::scope(|scope| {
            if progress.enabled {
                scope.spawn(|| progress.draw());
            }
            let answers = solve_cases(solver, header, &shared, cases, &progress.done);
            progress.finished.store(true, Ordering::Release);
            answers
        });
        Ok((answers, ()))
    };
    Ok(run_batch(solver.format(), bytes, options, answer, write)?.0)
}

/// [`solve_and_write`] for a [`FileSolver`]: the file's answers come from one
/// [`FileSolver::solve_file`] (timed as the `solve` step), and its extra is returned beside
/// the written batch.
///
/// # Errors
/// As [`solve_input`] (nothing is solved or written then), or the error of
/// [`FileSolver::solve_file`] (nothing is written then).
pub fn solve_file_and_write<S: FileSolver>(
    solver: &S,
    bytes: &[u8],
    options: &DriverOptions,
    write: impl Fn(&FileBatchOf<S>, usize, &mut Vec<u8>) + Sync,
) -> Result<(Written<FileBatchOf<S>>, S::Extra), RunError> {
    let answer = |header: &_, cases: &[_], _: &mut Steps| solver.solve_file(header, cases);
    run_batch(solver.format(), bytes, options, answer, write)
}

/// The driver's steps on the pool `options` asks for: parse `bytes` with `format`, answer the
/// cases with `answer` (which may record a `prepare` time, the rest of its time being
/// `solve`, and may fail), check that every case has one answer, and write them in order.
fn run_batch<F: Format, A: Send + Sync, X: Send>(
    format: &F,
    bytes: &[u8],
    options: &DriverOptions,
    answer: impl FnOnce(&F::Header, &[F::Case], &mut Steps) -> Result<(Vec<A>, X), RunError> + Send,
    write: impl Fn(&FormatBatch<F, A>, usize, &mut Vec<u8>) + Sync,
) -> Result<(Written<FormatBatch<F, A>>, X), RunError> {
    thread_pool(options)?.install(|| {
        let started = Instant::now();
        let (header, cases) = split::parse(format, bytes)?;
        let parsed = Instant::now();
        let mut steps = Steps { parse: parsed - started, ..Steps::default() };
        let (answers, extra) = answer(&header, &cases, &mut steps)?;
        assert_eq!(answers.len(), cases.len(), "a solver gives one answer a case");
        steps.solve = parsed.elapsed() - steps.prepare;
        let solved = Instant::now();
        let batch = Batch { header, cases, answers };
        let bytes = write_ordered(batch.answers.len(), |i, out| write(&batch, i, out));
        steps.write = solved.elapsed();
        Ok((Written { batch, bytes, steps }, extra))
    })
}

/// The bytes `write(i, out)` appends for every `i` in `0..len`, in order, written in parallel
/// on the current rayon pool: the same bytes for any thread count. Answers are often all of
/// one width (card-duel's probabilities are 12 bytes each), so they are written straight into
/// their places in the result, each checked, as long as they have the first one's width; from
/// the first that does not on, they are written into one buffer a chunk, and the buffers
/// joined after the answers already in place. `O(len)` calls, plus, from an answer of another
/// width on, one copy of the result.
pub fn write_ordered(len: usize, write: impl Fn(usize, &mut Vec<u8>) + Sync) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    let mut first = Vec::new();
    write(0, &mut first);
    let (in_place, other) =
        if first.is_empty() { (Vec::new(), 0) } else { write_in_place(len, first.len(), &write) };
    if other == len {
        return in_place;
    }
    write_joined(in_place, other..len, &write)
}

/// Answers a chunk of [`write_ordered`]'s: enough to share the work between the threads, and
/// long pieces, which huge pages back with few page faults (a big file's output is megabytes
/// a chunk).
fn answers_per_chunk(len: usize) -> usize {
    (len / (rayon::current_num_threads() * 2)).max(1024)
}

/// Writes the answers of [`write_ordered`] in place, in parallel chunks, while they are
/// `width` bytes long; returns the bytes of the answers before the first that is not, and its
/// index (`len` when there is none). One buffer for the result, whose pages are first touched
/// by the thread that writes them; each chunk writes a block of answers into a small buffer
/// that stays in the core's cache, checking each answer's width, and copies the block to its
/// place. A chunk stops at the first answer of another width it meets, and at its next block
/// when another chunk has met one earlier in the output: little is written that is not kept.
fn write_in_place(
    len: usize,
    width: usize,
    write: &(impl Fn(usize, &mut Vec<u8>) + Sync),
) -> (Vec<u8>, usize) {
    /// Answers a block: a few dozen kilobytes.
    const BLOCK: usize = 2048;
    let chunk = answers_per_chunk(len);
    // Zeroed by the kernel as it is first touched: the pages past an answer of another width
    // may never be.
    let mut bytes = vec![0; len * width];
    crate::memory::advise_huge_pages(&bytes);
    // The first answer of another width found so far. Every answer before the first one in
    // the output is written: a block is skipped only when it starts after one found.
    let other = AtomicUsize::new(len);
    bytes.par_chunks_mut(chunk * width).enumerate().for_each(|(c, places)| {
        let mut block = Vec::with_capacity(BLOCK * width);
        for (b, place) in places.chunks_mut(BLOCK * width).enumerate() {
            let first = c * chunk + b * BLOCK;
            if first >= other.load(Ordering::Relaxed) {
                return;
            }
            block.clear();
            for i in first..first + place.len() / width {
                let before = block.len();
                write(i, &mut block);
                if block.len() - before != width {
                    other.fetch_min(i, Ordering::Relaxed);
                    place[..before].copy_from_slice(&block[..before]);
                    return;
                }
            }
            place.copy_from_slice(&block);
        }
    });
    let other = other.into_inner();
    bytes.truncate(other * width);
    (bytes, other)
}

/// `head`, then the bytes of [`write_ordered`]'s answers `items`, written into one buffer a
/// chunk; then the head and the buffers are copied to their places in the result, in parallel
/// too.
fn write_joined(
    head: Vec<u8>,
    items: Range<usize>,
    write: &(impl Fn(usize, &mut Vec<u8>) + Sync),
) -> Vec<u8> {
    let chunk = answers_per_chunk(items.len());
    let pieces: Vec<Vec<u8>> = (0..items.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let from = items.start + c * chunk;
            let chunk_items = from..(from + chunk).min(items.end);
            let mut out = Vec::new();
            // Room for the chunk at its first answer's width, so that the buffer is not
            // copied as it grows.
            write(from, &mut out);
            out.reserve(out.len() * (chunk_items.len() - 1));
            crate::memory::advise_huge_pages(out.spare_capacity_mut());
            for i in chunk_items.skip(1) {
                write(i, &mut out);
            }
            out
        })
        .collect();
    let pieces: Vec<&[u8]> =
        std::iter::once(head.as_slice()).chain(pieces.iter().map(Vec::as_slice)).collect();
    let mut joined = vec![0; pieces.iter().map(|piece| piece.len()).sum()];
    crate::memory::advise_huge_pages(&joined);
    let mut places = Vec::with_capacity(pieces.len());
    let mut rest = joined.as_mut_slice();
    for piece in &pieces {
        let (place, tail) = std::mem::take(&mut rest).split_at_mut(piece.len());
        places.push(place);
        rest = tail;
    }
    places.into_par_iter().zip(&pieces).for_each(|(place, piece)| place.copy_from_slice(piece));
    joined
}

/// Solves `cases` on the current rayon pool with one scratch per pool thread, the answers
/// collected in place (no sequential join at the end).
fn solve_cases<S: BatchSolver>(
    solver: &S,
    header: &HeaderOf<S>,
    shared: &S::Shared,
    cases: &[CaseOf<S>],
    done: &AtomicUsize,
) -> Vec<S::Answer> {
    let threads = rayon::current_num_threads();
    let slots: Vec<Mutex<Option<S::Scratch>>> = (0..threads).map(|_| Mutex::new(None)).collect();
    // Pieces of at least a few cases, so that taking the scratch costs little a case; the
    // pool splits further where cases differ in cost.
    let min_len = (cases.len() / (threads * 64)).clamp(1, 64);
    let mut answers = Vec::with_capacity(cases.len());
    crate::memory::advise_huge_pages(answers.spare_capacity_mut());
    cases
        .par_iter()
        .enumerate()
        .with_min_len(min_len)
        .map_init(
            || {
                let slot = &slots[rayon::current_thread_index().unwrap_or(0) % threads];
                let slot = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                (slot, Counted { done, cases: 0 })
            },
            |(slot, counted), (index, case)| {
                let scratch = slot.get_or_insert_with(|| solver.new_scratch(header, shared));
                counted.cases += 1;
                solver.solve(header, shared, index, case, scratch)
            },
        )
        .collect_into_vec(&mut answers);
    answers
}

/// Cases solved by one piece of work, added to the progress count when the piece ends (one
/// shared update a piece, not a case).
struct Counted<'a> {
    done: &'a AtomicUsize,
    cases: usize,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.done.fetch_add(self.cases, Ordering::Relaxed);
    }
}

/// Shared progress counters and, when enabled, a bar drawn by a side thread.
struct Progress {
    total: usize,
    enabled: bool,
    done: AtomicUsize,
    finished: AtomicBool,
}

impl Progress {
    /// Wait this long before drawing: short batches never show a bar.
    #[cfg(feature = "cli")]
    const DELAY: Duration = Duration::from_secs(1);
    #[cfg(feature = "cli")]
    const TICK: Duration = Duration::from_millis(50);

    fn new(total: usize, wanted: bool) -> Self {
        // The bar needs indicatif, which only the binaries' `cli` feature brings.
        let enabled =
            cfg!(feature = "cli") && wanted && total > 1 && std::io::stderr().is_terminal();
        Self { total, enabled, done: AtomicUsize::new(0), finished: AtomicBool::new(false) }
    }

    #[cfg(not(feature = "cli"))]
    fn draw(&self) {
        unreachable!("progress is never enabled without the cli feature ({} cases)", self.total)
    }

    #[cfg(feature = "cli")]
    fn draw(&self) {
        let start = Instant::now();
        let mut bar: Option<indicatif::ProgressBar> = None;
        while !self.finished.load(Ordering::Acquire) {
            std::thread::sleep(Self::TICK);
            if bar.is_none() && start.elapsed() >= Self::DELAY {
                let b = indicatif::ProgressBar::new(self.total as u64);
                if let Ok(style) = indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} cases, eta {eta}",
                ) {
                    b.set_style(style.progress_chars("=> "));
                }
                bar = Some(b);
            }
            if let Some(b) = &bar {
                b.set_position(self.done.load(Ordering::Relaxed) as u64);
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums each case's numbers; the scratch counts cases to prove it is reused.
    struct Sum;

    impl Format for Sum {
        type Header = u64;
        type Case = Vec<u64>;

        fn parse_header(&self, input: &mut Input<'_>) -> Result<(u64, usize), InputError> {
            let t = input.uint("T", 0..=1_000_000)?;
            let k = input.uint("k", 1..=10)?;
            Ok((k, t))
        }

        fn parse_case(
            &self,
            k: &u64,
            _index: usize,
            input: &mut Input<'_>,
        ) -> Result<Vec<u64>, InputError> {
            (0..*k).map(|_| input.uint("x", 0..=1000)).collect()
        }
    }

    impl BatchSolver for Sum {
        type Format = Sum;
        type Shared = u64;
        type Scratch = u64;
        type Answer = (u64, u64);

        fn format(&self) -> &Sum {
            self
        }

        fn prepare(&self, _k: &u64, cases: &[Vec<u64>]) -> u64 {
            cases.len() as u64
        }

        fn new_scratch(&self, _k: &u64, _shared: &u64) -> u64 {
            0
        }

        fn solve(
            &self,
            _k: &u64,
            shared: &u64,
            index: usize,
            case: &Vec<u64>,
            seen: &mut u64,
        ) -> (u64, u64) {
            *seen += 1;
            assert_eq!(case[0], index as u64 % 7, "solve is told the case's place");
            (case.iter().sum::<u64>() + shared, *seen)
        }
    }

    fn input(t: usize) -> String {
        let mut s = format!("{t} 3\n");
        for i in 0..t {
            s += &format!("{} {} {}\n", i % 7, i % 11, i % 13);
        }
        s
    }

    #[test]
    fn answers_are_in_input_order_for_any_thread_count() {
        let text = input(5000);
        let sums = |threads| {
            let batch =
                solve_input(&Sum, text.as_bytes(), &DriverOptions { threads, progress: false })
                    .unwrap();
            batch.answers.iter().map(|a| a.0).collect::<Vec<_>>()
        };
        let expected: Vec<u64> = (0..5000u64).map(|i| i % 7 + i % 11 + i % 13 + 5000).collect();
        for threads in [Some(1), Some(2), Some(3), Some(8), None] {
            assert_eq!(sums(threads), expected, "threads {threads:?}");
        }
    }

    #[test]
    fn scratch_is_reused_across_cases() {
        let text = input(1000);
        let batch = solve_input(
            &Sum,
            text.as_bytes(),
            &DriverOptions { threads: Some(2), progress: false },
        )
        .unwrap();
        let max_seen = batch.answers.iter().map(|a| a.1).max().unwrap();
        assert!(max_seen >= 500, "one scratch per thread solves many cases, saw {max_seen}");
    }

    #[test]
    fn malformed_input_is_reported_with_its_place() {
        let err = parse_all(&Sum, b"2 2\n1 2\n3").unwrap_err();
        assert_eq!(err.to_string(), "line 3, column 2: expected x in 0..=1000, found end of input");
        let err = parse_all(&Sum, b"1 1\n1 2\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 3: expected end of input after case 1, found \"2\""
        );
        let err = parse_all(&Sum, b"99999999999 1\n").unwrap_err();
        assert!(err.message.starts_with("expected T in 0..=1000000"));
    }

    /// Appends answer `i`'s bytes.
    type Writer = dyn Fn(usize, &mut Vec<u8>) + Sync;

    #[test]
    fn written_bytes_are_in_order_and_the_same_for_any_thread_count() {
        // Answers of different lengths, so that a misplaced chunk shows; answers of one width
        // (written in place); and answers of one width but one, first or last or in between
        // (written in place until that one, then joined).
        let varied = |i: usize, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("{i}:{}\n", "x".repeat(i % 5)).as_bytes());
        };
        let fixed = |i: usize, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("{i:07}\n").as_bytes());
        };
        let one_longer = |longer: usize| {
            move |i: usize, out: &mut Vec<u8>| {
                out.extend_from_slice(format!("{i:07}\n").as_bytes());
                if i == longer {
                    out.push(b'+');
                }
            }
        };
        for len in [0usize, 1, 1023, 1024, 1025, 20_000] {
            let last = len.saturating_sub(1);
            let writes: [&Writer; 6] = [
                &varied,
                &fixed,
                &one_longer(0),
                &one_longer(last),
                &one_longer(len / 2),
                &one_longer(len / 3 + 7),
            ];
            for (w, write) in writes.iter().enumerate() {
                let mut expected = Vec::new();
                (0..len).for_each(|i| write(i, &mut expected));
                for threads in 1..=8 {
                    let pool =
                        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                    let written = pool.install(|| write_ordered(len, write));
                    assert!(written == expected, "writer {w}, {len} answers, {threads} threads");
                }
            }
        }
        // Answers of width 0 (nothing written) give nothing.
        assert!(write_ordered(5000, |_, _| {}).is_empty());
        let text = input(5000);
        let written = |threads| {
            let options = DriverOptions { threads: Some(threads), progress: false };
            let write = |batch: &Batch<u64, Vec<u64>, (u64, u64)>, i: usize, out: &mut Vec<u8>| {
                out.extend_from_slice(format!("{}\n", batch.answers[i].0).as_bytes());
            };
            solve_and_write(&Sum, text.as_bytes(), &options, write).unwrap().bytes
        };
        let one = written(1);
        assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 5000);
        for threads in 2..=8 {
            assert_eq!(written(threads), one);
        }
    }

    /// [`Sum`] answered as a whole file; the extra is the count of cases.
    struct WholeFile;

    impl FileSolver for WholeFile {
        type Format = Sum;
        type Answer = (u64, u64);
        type Extra = usize;

        fn format(&self) -> &Sum {
            &Sum
        }

        fn solve_file(
            &self,
            _k: &u64,
            cases: &[Vec<u64>],
        ) -> Result<(Vec<(u64, u64)>, usize), RunError> {
            if cases.first().is_some_and(|case| case[0] == 6) {
                return Err(RunError::Unsupported("a first case of 6".into()));
            }
            let sums = cases.iter().map(|case| (case.iter().sum::<u64>() + cases.len() as u64, 0));
            Ok((sums.collect(), cases.len()))
        }
    }

    #[test]
    fn a_file_solver_answers_as_case_by_case_solving_does() {
        let text = input(3000);
        let write = |b: &Batch<u64, Vec<u64>, (u64, u64)>, i: usize, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("{}\n", b.answers[i].0).as_bytes());
        };
        for threads in [1, 2, 8] {
            let options = DriverOptions { threads: Some(threads), progress: false };
            let (file, cases) =
                solve_file_and_write(&WholeFile, text.as_bytes(), &options, write).unwrap();
            let solved = solve_and_write(&Sum, text.as_bytes(), &options, write).unwrap();
            assert_eq!((file.bytes, cases), (solved.bytes, 3000), "{threads} threads");
        }
        // A malformed file is the parser's error, whatever the solver would say; a well-formed
        // one the solver fails on is the solver's.
        let options = DriverOptions { threads: Some(2), progress: false };
        let failing = "2 1\n6\n1\n";
        let malformed = &failing[..failing.len() - 2];
        let error = |text: &str| {
            solve_file_and_write(&WholeFile, text.as_bytes(), &options, write).unwrap_err()
        };
        assert_eq!(error(failing), RunError::Unsupported("a first case of 6".into()));
        assert!(matches!(error(malformed), RunError::Input(_)), "{}", error(malformed));
    }

    #[test]
    fn empty_batches_are_fine() {
        let batch = solve_input(&Sum, b"0 1", &DriverOptions::default()).unwrap();
        assert!(batch.answers.is_empty());
    }
}
