//! Tablebases: the value of every position of one O, computed once and kept in a file, so that
//! a later file of any positions of that O is answered by lookups with no sweep at all.
//!
//! A sweep for one position costs what its reach costs: little for small HP, and for the
//! heaviest ones (both players at 20 HP, full boards and hands) nearly what the whole state
//! space costs, since their reach is most of it. The whole table of one O, one sweep of every
//! position, costs little more and is 11.5 MB, so a user who asks many positions of one O
//! builds it once ([`Tablebase::build`], the binary's `tablebase` subcommand) and reads it
//! back ([`TablebaseFile`], `--tablebase FILE`), as chess engines read endgame tablebases.
//!
//! The file is a 64-byte header, a checksum for every block of [`BLOCK_VALUES`] values, then
//! the 1,440,000 values as little-endian `f64` by [`StartKey`] rank:
//!
//! | bytes | field |
//! |---|---|
//! | 0..20 | [`MAGIC`], `card-duel tablebase` and a newline |
//! | 20..24 | [`FORMAT_VERSION`], `u32` |
//! | 24 | O |
//! | 25..32 | zero |
//! | 32..40 | the number of values, `u64` |
//! | 40..48 | the [`checksum`] of the block checksums, `u64` |
//! | 48..64 | the version of card-duel that wrote it, UTF-8, zero-padded |
//! | 64..22,568 | the [`checksum`] of each block of values, 2,813 `u64` |
//! | 22,568.. | the values |
//!
//! Opening checks the header and the block checksums; every block of values read is checked
//! against its checksum, and every value must be a probability. A few positions read only
//! their blocks (4 KiB each), so a single position costs about as much as starting the
//! program; a large file reads and checks every block. A file written by another version of
//! card-duel is refused, since its values would be that version's. The values are the sweep's
//! own bits, so answers read from a tablebase are byte for byte those of the sweep.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use engine::fs::{WriteError, write_aside_with};
use engine::memory::HugeZeroed;

use crate::rules::{MAX_OPS, Position};
use crate::tables::{Reach, StartKey, Tables};

/// The first bytes of every tablebase.
pub(crate) const MAGIC: &[u8; 20] = b"card-duel tablebase\n";

/// The layout of the file and of [`StartKey`] ranks. Raised whenever either changes, so that
/// an old file is refused rather than read wrong.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// Bytes before the block checksums.
pub(crate) const HEADER_LEN: usize = 64;

/// Where the header's fields sit (module notes): the format, O, the number of values, the
/// checksum of the block checksums and the writer's version.
const FORMAT_AT: Range<usize> = 20..24;
const OPS_AT: usize = 24;
const COUNT_AT: Range<usize> = 32..40;
const SUM_AT: Range<usize> = 40..48;
const BUILT_BY_AT: Range<usize> = 48..HEADER_LEN;

/// Values a block checksum covers: 4 KiB, what one read of a few positions costs.
pub const BLOCK_VALUES: usize = 512;

/// Blocks of values, the last one shorter.
const BLOCKS: usize = StartKey::CARDINALITY.div_ceil(BLOCK_VALUES);

/// Where the values start.
const VALUES_AT: usize = HEADER_LEN + BLOCKS * size_of::<u64>();

/// The length of a tablebase in bytes.
pub const FILE_LEN: u64 = (VALUES_AT + StartKey::CARDINALITY * size_of::<f64>()) as u64;

/// The version of card-duel writing and reading tablebases.
const BUILT_BY: &str = env!("CARGO_PKG_VERSION");

const _: () =
    assert!(BUILT_BY.len() <= BUILT_BY_AT.end - BUILT_BY_AT.start, "the version fits its field");

/// The values a tablebase may hold: probabilities, give or take the rounding of the sums
/// that compute them (a certain win summed over a play's outcomes can come to 1 plus an ulp).
const PROBABILITY: std::ops::RangeInclusive<f64> = -1e-12..=1.0 + 1e-12;

/// Every turn-start value of one O, in memory.
#[derive(Debug)]
pub struct Tablebase {
    ops: u8,
    tables: Tables,
}

/// An opened tablebase whose header and block checksums are checked; its values are read
/// when asked for ([`TablebaseFile::values`], [`TablebaseFile::read_all`]).
#[derive(Debug)]
pub struct TablebaseFile<R> {
    ops: u8,
    sums: Vec<u64>,
    input: R,
}

/// Why a file is not a tablebase this program can use.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file does not start with the magic bytes, `card-duel tablebase` and a newline.
    #[error("not a card-duel tablebase (it does not start with \"card-duel tablebase\")")]
    NotATablebase,
    /// Another layout of the file.
    #[error("tablebase format {found}, this card-duel reads format {FORMAT_VERSION}")]
    Format {
        /// The file's format.
        found: u32,
    },
    /// Written by another version of card-duel.
    #[error("written by card-duel {found}, this is card-duel {BUILT_BY}: build it again")]
    Version {
        /// The writer's version.
        found: String,
    },
    /// O outside `1..=MAX_OPS`.
    #[error("O = {found} in the header, expected 1..={MAX_OPS}")]
    Ops {
        /// The header's O.
        found: u8,
    },
    /// The header's count of values, or the file's length, is not a tablebase's.
    #[error("{what}: {found}, expected {expected}")]
    Length {
        /// Which length.
        what: &'static str,
        /// What the file has.
        found: u64,
        /// What a tablebase has.
        expected: u64,
    },
    /// The block checksums do not add up to the header's checksum.
    #[error("the block checksums do not match the header's checksum: the file is damaged")]
    Checksums,
    /// A block of values does not add up to its checksum.
    #[error("block {block} of the values does not match its checksum: the file is damaged")]
    Block {
        /// The block, from 0.
        block: usize,
    },
    /// A value that is no probability (up to rounding).
    #[error("value {rank} is {value}, not a probability: the file is damaged")]
    Value {
        /// Its [`StartKey`] rank.
        rank: usize,
        /// The value.
        value: f64,
    },
}

impl Tablebase {
    /// Values every position of O = `ops` with one sweep over every cell, on the current
    /// rayon pool: `O(every slot of the state space)` time, and the sweep's memory for every
    /// position (see the crate's README).
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    #[must_use]
    pub fn build(ops: u8) -> Tablebase {
        Tablebase { ops, tables: Tables::build(ops, Reach::all()) }
    }

    /// Its O.
    #[must_use]
    pub fn ops(&self) -> u8 {
        self.ops
    }

    /// E's winning probability in `position`, in `O(1)`.
    #[must_use]
    pub fn value(&self, position: &Position) -> f64 {
        self.tables.value(position).expect("a tablebase holds every position")
    }

    /// [`Tablebase::value`] of every position, in order, read in groups
    /// ([`Tables::values`]): `O(positions)`.
    #[must_use]
    pub fn values(&self, positions: &[Position]) -> Vec<f64> {
        self.tables.values(positions).expect("a tablebase holds every position")
    }

    /// Writes the file (module notes). `O(1,440,000)`.
    ///
    /// # Errors
    /// When writing fails.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let table = self.tables.every_start().expect("a tablebase keeps every turn start");
        let sums: Vec<u64> = table.chunks(BLOCK_VALUES).map(checksum).collect();
        out.write_all(&header(self.ops, checksum_words(&sums)))?;
        let sums: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
        out.write_all(&sums)?;
        let mut bytes = Vec::with_capacity(BLOCK_VALUES * 64 * size_of::<f64>());
        for piece in table.chunks(BLOCK_VALUES * 64) {
            bytes.clear();
            bytes.extend(piece.iter().flat_map(|v| v.to_le_bytes()));
            out.write_all(&bytes)?;
        }
        out.flush()
    }

    /// Writes the file at `path` whole or not at all ([`engine::fs::write_aside`]: beside it
    /// first, then renamed into place), so that no reader ever sees half a tablebase, and a
    /// failed write leaves nothing behind. `O(1,440,000)`.
    ///
    /// # Errors
    /// When writing or renaming fails (`cannot write FILE: ...`).
    pub fn save(&self, path: &Path) -> Result<(), WriteError> {
        write_aside_with(path, |out| self.write_to(out))
    }

    /// Reads a whole file [`Tablebase::write_to`] wrote from a stream, checking all of it.
    /// `O(1,440,000)`.
    ///
    /// # Errors
    /// When reading fails or the input is not a whole, sound tablebase of this version.
    pub fn read_from(input: impl Read) -> Result<Tablebase, TablebaseError> {
        TablebaseFile::open(input)?.read_all()
    }
}

impl<R: Read> TablebaseFile<R> {
    /// Reads and checks the header and the block checksums (22.5 KB), leaving the values
    /// for later.
    ///
    /// # Errors
    /// When reading fails, or the header or the checksums are not a tablebase's of this
    /// version.
    pub fn open(mut input: R) -> Result<TablebaseFile<R>, TablebaseError> {
        let mut head = vec![0u8; VALUES_AT];
        let got = read_up_to(&mut input, &mut head)?;
        if got < MAGIC.len() || head[..MAGIC.len()] != MAGIC[..] {
            return Err(TablebaseError::NotATablebase);
        }
        if got < VALUES_AT {
            return Err(length(got as u64));
        }
        let format = u32::from_le_bytes(head[FORMAT_AT].try_into().expect("four bytes"));
        if format != FORMAT_VERSION {
            return Err(TablebaseError::Format { found: format });
        }
        let built_by = &head[BUILT_BY_AT];
        let built_by = &built_by[..built_by.iter().take_while(|&&b| b != 0).count()];
        let built_by = String::from_utf8_lossy(built_by);
        if built_by != BUILT_BY {
            return Err(TablebaseError::Version { found: built_by.into_owned() });
        }
        let ops = head[OPS_AT];
        if !(1..=MAX_OPS).contains(&ops) {
            return Err(TablebaseError::Ops { found: ops });
        }
        let count = u64::from_le_bytes(head[COUNT_AT].try_into().expect("eight bytes"));
        if count != StartKey::CARDINALITY as u64 {
            return Err(TablebaseError::Length {
                what: "values in the header",
                found: count,
                expected: StartKey::CARDINALITY as u64,
            });
        }
        let sums: Vec<u64> = (head[HEADER_LEN..].chunks_exact(size_of::<u64>()))
            .map(|le| u64::from_le_bytes(le.try_into().expect("eight bytes")))
            .collect();
        let sum = u64::from_le_bytes(head[SUM_AT].try_into().expect("eight bytes"));
        if checksum_words(&sums) != sum {
            return Err(TablebaseError::Checksums);
        }
        Ok(TablebaseFile { ops, sums, input })
    }

    /// Its O.
    #[must_use]
    pub fn ops(&self) -> u8 {
        self.ops
    }

    /// Reads every value, on from where [`TablebaseFile::open`] stopped, checking each block
    /// and the file's length. `O(1,440,000)`.
    ///
    /// # Errors
    /// When reading fails, the file is shorter or longer than a tablebase, or a block is
    /// damaged.
    pub fn read_all(mut self) -> Result<Tablebase, TablebaseError> {
        let mut table = HugeZeroed::new(StartKey::CARDINALITY);
        let mut bytes = vec![0u8; BLOCK_VALUES * size_of::<f64>()];
        let mut read = VALUES_AT as u64;
        for (block, values) in table.chunks_mut(BLOCK_VALUES).enumerate() {
            let bytes = &mut bytes[..size_of_val(values)];
            let got = read_up_to(&mut self.input, bytes)?;
            read += got as u64;
            if got < bytes.len() {
                return Err(length(read));
            }
            decode(block, bytes, values, self.sums[block])?;
        }
        let extra = read_up_to(&mut self.input, &mut bytes)?;
        if extra > 0 {
            let rest = io::copy(&mut self.input, &mut io::sink())?;
            return Err(length(read + extra as u64 + rest));
        }
        Ok(Tablebase { ops: self.ops, tables: Tables::from_every_start(table) })
    }
}

impl<R: Read + Seek> TablebaseFile<R> {
    /// E's winning probability in each of `positions`, in order, reading and checking only
    /// the blocks that hold them: `O(positions log positions)` and one 4 KiB read a distinct
    /// block.
    ///
    /// # Errors
    /// When reading fails, the file's length is not a tablebase's, or a block read is
    /// damaged.
    pub fn values(&mut self, positions: &[Position]) -> Result<Vec<f64>, TablebaseError> {
        let len = self.input.seek(SeekFrom::End(0))?;
        if len != FILE_LEN {
            return Err(length(len));
        }
        let ranks: Vec<usize> = positions.iter().map(|p| StartKey::of(p).rank()).collect();
        let mut blocks: Vec<usize> = ranks.iter().map(|r| r / BLOCK_VALUES).collect();
        blocks.sort_unstable();
        blocks.dedup();
        let mut bytes = vec![0u8; BLOCK_VALUES * size_of::<f64>()];
        let mut values = vec![0.0; blocks.len() * BLOCK_VALUES];
        for (i, &block) in blocks.iter().enumerate() {
            let first = block * BLOCK_VALUES;
            let count = BLOCK_VALUES.min(StartKey::CARDINALITY - first);
            let bytes = &mut bytes[..count * size_of::<f64>()];
            let at = VALUES_AT + first * size_of::<f64>();
            self.input.seek(SeekFrom::Start(at as u64))?;
            self.input.read_exact(bytes)?;
            let values = &mut values[i * BLOCK_VALUES..i * BLOCK_VALUES + count];
            decode(block, bytes, values, self.sums[block])?;
        }
        Ok(ranks
            .iter()
            .map(|&rank| {
                let i = blocks.binary_search(&(rank / BLOCK_VALUES)).expect("its block is read");
                values[i * BLOCK_VALUES + rank % BLOCK_VALUES]
            })
            .collect())
    }
}

/// Decodes block `block` of the values from `bytes` into `values`, checking it against `sum`
/// and that every value is a probability.
fn decode(block: usize, bytes: &[u8], values: &mut [f64], sum: u64) -> Result<(), TablebaseError> {
    for (value, le) in values.iter_mut().zip(bytes.chunks_exact(size_of::<f64>())) {
        *value = f64::from_le_bytes(le.try_into().expect("eight bytes"));
    }
    if checksum(values) != sum {
        return Err(TablebaseError::Block { block });
    }
    match values.iter().position(|v| !PROBABILITY.contains(v)) {
        Some(i) => Err(TablebaseError::Value { rank: block * BLOCK_VALUES + i, value: values[i] }),
        None => Ok(()),
    }
}

/// A [`TablebaseError::Length`] of the file.
fn length(found: u64) -> TablebaseError {
    TablebaseError::Length { what: "the file's length in bytes", found, expected: FILE_LEN }
}

/// Reads until `buffer` is full or the input ends; the bytes read.
fn read_up_to(input: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match input.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The header of a tablebase of O = `ops` whose block checksums have checksum `sum`.
fn header(ops: u8, sum: u64) -> [u8; HEADER_LEN] {
    let mut head = [0u8; HEADER_LEN];
    head[..MAGIC.len()].copy_from_slice(MAGIC);
    head[FORMAT_AT].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    head[OPS_AT] = ops;
    head[COUNT_AT].copy_from_slice(&(StartKey::CARDINALITY as u64).to_le_bytes());
    head[SUM_AT].copy_from_slice(&sum.to_le_bytes());
    head[BUILT_BY_AT][..BUILT_BY.len()].copy_from_slice(BUILT_BY.as_bytes());
    head
}

/// The tablebase of O = `ops` in a folder of tablebases, one a file named by its O
/// (`o5.tb`), as `card-duel tablebase O FOLDER` writes them and `--tablebase FOLDER` reads
/// the one of its input's O.
#[must_use]
pub(crate) fn in_folder(folder: &Path, ops: u8) -> PathBuf {
    folder.join(format!("o{ops}.tb"))
}

/// Where a [`Cache`] reads and saves tablebases, besides keeping them in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Store {
    /// Memory only: a tablebase is built when first asked for.
    Memory,
    /// A folder of tablebases, one a file named by its O (`o5.tb` for O = 5).
    Folder(PathBuf),
    /// One file, the tablebase of whichever O it holds.
    File(PathBuf),
}

/// What [`Cache::get_or_build`] does for a tablebase it does not hold in memory yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Read it from the store; one that is not there is an error (`--tablebase`).
    Read,
    /// Read it from the store; one that is not there is built and saved there
    /// (`--tablebase --build-missing`).
    BuildMissing,
    /// Build it, whatever the store holds, and save it there when the store is a file or a
    /// folder (the `tablebase` subcommand; the judge, in memory).
    Build,
}

/// Why a [`Cache`] cannot give the tablebase, or the values, asked for. It reads `cannot use
/// NAME: REASON`, naming the file or the store, or `cannot write FILE: REASON`.
#[derive(Debug)]
pub enum CacheError {
    /// A tablebase file that cannot be opened or read, is damaged, or is no tablebase.
    Unusable {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        source: TablebaseError,
    },
    /// A tablebase file that holds the tablebase of another O.
    OtherOps {
        /// The file.
        file: PathBuf,
        /// The O it holds.
        found: u8,
        /// The O asked for.
        wanted: u8,
    },
    /// A folder without the tablebase of O = `ops`, under [`Policy::Read`].
    NotInFolder {
        /// The folder.
        folder: PathBuf,
        /// The O asked for.
        ops: u8,
    },
    /// A cache in memory only, without the tablebase of O = `ops`, under [`Policy::Read`].
    NotInMemory {
        /// The O asked for.
        ops: u8,
    },
    /// A tablebase built for the store that could not be saved there.
    Write(WriteError),
}

impl CacheError {
    /// The file or the store that cannot be used, as the user knows it (`the tablebase
    /// o5.tb`), and why: the two halves of `cannot use NAME: REASON`; `None` for a tablebase
    /// that could not be saved.
    #[must_use]
    pub(crate) fn name_and_reason(&self) -> Option<(String, String)> {
        let tablebase = |file: &Path| format!("the tablebase {}", file.display());
        Some(match self {
            CacheError::Unusable { file, source } => (tablebase(file), source.to_string()),
            CacheError::OtherOps { file, found, wanted } => {
                (tablebase(file), format!("it holds O = {found}, not O = {wanted}"))
            }
            CacheError::NotInFolder { folder, ops } => {
                let folder = folder.display();
                (
                    format!("the tablebases in {folder}"),
                    format!(
                        "none for the input's O = {ops}: build it with `card-duel tablebase \
                         {ops} {folder}`, or add --build-missing"
                    ),
                )
            }
            CacheError::NotInMemory { ops } => (
                format!("the tablebase of O = {ops}"),
                "none in memory, and none to read".to_owned(),
            ),
            CacheError::Write(_) => return None,
        })
    }
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.name_and_reason()) {
            (CacheError::Write(write), _) => write.fmt(f),
            (_, Some((name, reason))) => write!(f, "cannot use {name}: {reason}"),
            (_, None) => unreachable!("only a write has no name and reason"),
        }
    }
}

impl std::error::Error for CacheError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CacheError::Unusable { source, .. } => Some(source),
            // The message is the write error's own, so its cause is the cause.
            CacheError::Write(write) => std::error::Error::source(write),
            CacheError::OtherOps { .. }
            | CacheError::NotInFolder { .. }
            | CacheError::NotInMemory { .. } => None,
        }
    }
}

impl From<WriteError> for CacheError {
    fn from(write: WriteError) -> Self {
        CacheError::Write(write)
    }
}

/// Runs of at most this many positions read only their values' blocks off a tablebase file
/// ([`TablebaseFile::values`], at most 1,024 blocks of 4 KiB); larger ones read it whole.
const FEW_POSITIONS: usize = 1024;

/// The tablebases of every O a program has needed, each built or read once and kept in
/// memory (11.5 MB each), optionally backed by a folder or a file: the one per-O table cache
/// of the crate. The judge keeps one in memory for a whole stress run; `--tablebase PATH
/// [--build-missing]` reads (or builds and saves) the one of its input's O.
pub struct Cache {
    store: Store,
    kept: [OnceLock<Arc<Tablebase>>; MAX_OPS as usize + 1],
}

impl fmt::Debug for Cache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache").field("store", &self.store).field("kept", &self.kept_ops()).finish()
    }
}

impl Cache {
    /// A cache in `store`, holding nothing yet.
    #[must_use]
    pub fn new(store: Store) -> Cache {
        Cache { store, kept: std::array::from_fn(|_| OnceLock::new()) }
    }

    /// A cache in memory only.
    #[must_use]
    pub fn in_memory() -> Cache {
        Cache::new(Store::Memory)
    }

    /// A cache backed by `path`: a folder of tablebases when it is one, else one file (which
    /// need not exist yet).
    #[must_use]
    pub fn at(path: &Path) -> Cache {
        let path = path.to_path_buf();
        Cache::new(if path.is_dir() { Store::Folder(path) } else { Store::File(path) })
    }

    /// Where it reads and saves.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The file of the tablebase of O = `ops` in the store: in a folder its `oO.tb`, else the
    /// file itself; `None` in memory.
    #[must_use]
    pub fn file(&self, ops: u8) -> Option<PathBuf> {
        match &self.store {
            Store::Memory => None,
            Store::Folder(folder) => Some(in_folder(folder, ops)),
            Store::File(file) => Some(file.clone()),
        }
    }

    /// The tablebase of O = `ops` when it is in memory already.
    #[must_use]
    pub fn kept(&self, ops: u8) -> Option<&Arc<Tablebase>> {
        self.kept.get(usize::from(ops))?.get()
    }

    /// The values of O whose tablebases are in memory, in increasing order.
    #[must_use]
    pub fn kept_ops(&self) -> Vec<u8> {
        (0..=MAX_OPS).filter(|&ops| self.kept(ops).is_some()).collect()
    }

    /// E's winning probability in each of `positions` of O = `ops`, in order, off the
    /// tablebase of O: the one in memory; else, when `policy` reads the store's file and
    /// there is one (a single file is read even when it is not there, for the system's own
    /// error), off that file: at most 1,024 positions read only the 4 KiB blocks that hold
    /// them (`O(positions log positions)`), more read and check the whole file
    /// (`O(1,440,000)`) and keep it; else the tablebase [`Cache::get_or_build`] gives.
    /// The values are the sweep's own bits.
    ///
    /// # Errors
    /// A file that cannot be read or is damaged ([`CacheError::Unusable`]), or holds another
    /// O ([`CacheError::OtherOps`], which the caller reports against the input's O); what
    /// [`Cache::get_or_build`] says.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    pub fn values(
        &self,
        ops: u8,
        positions: &[Position],
        policy: Policy,
    ) -> Result<Vec<f64>, CacheError> {
        if let Some(kept) = self.kept(ops) {
            return Ok(kept.values(positions));
        }
        let Some(file) = self.file_to_read(ops, policy) else {
            return Ok(self.get_or_build(ops, policy)?.values(positions));
        };
        let opened = File::open(&file).map_err(TablebaseError::from).and_then(TablebaseFile::open);
        let unusable = |source| CacheError::Unusable { file: file.clone(), source };
        let mut opened = opened.map_err(unusable)?;
        if opened.ops() != ops {
            return Err(CacheError::OtherOps {
                file: file.clone(),
                found: opened.ops(),
                wanted: ops,
            });
        }
        if positions.len() <= FEW_POSITIONS {
            return opened.values(positions).map_err(unusable);
        }
        let whole = opened.read_all().map_err(unusable)?;
        Ok(self.kept[usize::from(ops)].get_or_init(|| Arc::new(whole)).values(positions))
    }

    /// The store's file [`Cache::values`] reads the tablebase of O = `ops` from under
    /// `policy`, if any: a single file whenever the policy reads (even one that is not there,
    /// for the system's own error), a folder's file when it is there; `None` when the
    /// tablebase is to be built, or the store cannot have it.
    fn file_to_read(&self, ops: u8, policy: Policy) -> Option<PathBuf> {
        let file = self.file(ops)?;
        let read = match policy {
            Policy::Read => matches!(self.store, Store::File(_)) || file.exists(),
            Policy::BuildMissing => file.exists(),
            Policy::Build => false,
        };
        read.then_some(file)
    }

    /// The tablebase of O = `ops`: the one in memory, else read from the store or built (on
    /// the current rayon pool, one sweep of every position) as `policy` says, then kept.
    /// Reading checks the whole file (`O(1,440,000)`). Two threads asking for the same
    /// missing tablebase build it once: the second waits.
    ///
    /// # Errors
    /// A tablebase file that cannot be read, is damaged or holds another O, or, under
    /// [`Policy::Read`], one the store does not hold (for a folder: "none for the input's O",
    /// naming the command that builds it); a built one that cannot be saved
    /// ([`CacheError::Write`]). In memory, only reading can fail.
    ///
    /// # Panics
    /// When `ops` is outside `1..=MAX_OPS`.
    pub fn get_or_build(&self, ops: u8, policy: Policy) -> Result<&Arc<Tablebase>, CacheError> {
        assert!((1..=MAX_OPS).contains(&ops), "O = {ops} is outside 1..={MAX_OPS}");
        let slot = &self.kept[usize::from(ops)];
        if let Some(kept) = slot.get() {
            return Ok(kept);
        }
        let file = self.file(ops);
        let present = file.as_ref().is_some_and(|f| f.exists());
        let read = match policy {
            Policy::Read => true,
            Policy::BuildMissing => present,
            Policy::Build => false,
        };
        if read {
            // A single file that is not there is read anyway, for the system's own error.
            let single = matches!(self.store, Store::File(_));
            let Some(file) = file.filter(|_| present || single) else {
                return Err(self.missing(ops));
            };
            let tablebase = read_whole(&file, ops)?;
            return Ok(slot.get_or_init(|| Arc::new(tablebase)));
        }
        let built = slot.get_or_init(|| Arc::new(Tablebase::build(ops)));
        if let Some(file) = file {
            built.save(&file)?;
        }
        Ok(built)
    }

    /// The error for a tablebase of O = `ops` that the store does not hold (a folder without
    /// its file, or memory).
    fn missing(&self, ops: u8) -> CacheError {
        match &self.store {
            Store::Folder(folder) => CacheError::NotInFolder { folder: folder.clone(), ops },
            Store::File(_) | Store::Memory => CacheError::NotInMemory { ops },
        }
    }
}

/// Reads the whole tablebase `file`, which must be of O = `ops`.
fn read_whole(file: &Path, ops: u8) -> Result<Tablebase, CacheError> {
    let tablebase = File::open(file)
        .map_err(TablebaseError::from)
        .and_then(|f| Tablebase::read_from(io::BufReader::new(f)))
        .map_err(|source| CacheError::Unusable { file: file.to_path_buf(), source })?;
    if tablebase.ops() != ops {
        let found = tablebase.ops();
        return Err(CacheError::OtherOps { file: file.to_path_buf(), found, wanted: ops });
    }
    Ok(tablebase)
}

/// FNV-1a over the values' bit patterns, a word at a time: any one changed value, and any
/// values swapped, change it. It guards against damage, not against forgery. `O(values)`.
#[must_use]
pub(crate) fn checksum(values: &[f64]) -> u64 {
    fnv(values.iter().map(|v| v.to_bits()))
}

/// [`checksum`] of words.
fn checksum_words(words: &[u64]) -> u64 {
    fnv(words.iter().copied())
}

/// FNV-1a, a 64-bit word at a time.
fn fnv(words: impl Iterator<Item = u64>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    words.fold(OFFSET, |h, w| (h ^ w).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A tablebase of made-up probabilities (no sweep): value `rank / CARDINALITY`.
    fn made_up(ops: u8) -> Tablebase {
        let mut table = HugeZeroed::new(StartKey::CARDINALITY);
        for (rank, value) in table.iter_mut().enumerate() {
            *value = rank as f64 / StartKey::CARDINALITY as f64;
        }
        Tablebase { ops, tables: Tables::from_every_start(table) }
    }

    fn bytes_of(tablebase: &Tablebase) -> Vec<u8> {
        let mut bytes = Vec::new();
        tablebase.write_to(&mut bytes).unwrap();
        bytes
    }

    fn every_position() -> Vec<Position> {
        (0..StartKey::CARDINALITY).map(|r| StartKey::unrank(r).position()).collect()
    }

    /// What reading `bytes` whole says, and what reading the values of `positions` off it
    /// says: both must agree on errors.
    fn read(bytes: &[u8], positions: &[Position]) -> Result<Vec<f64>, String> {
        let whole = Tablebase::read_from(bytes).map(|t| t.values(positions));
        let some = TablebaseFile::open(Cursor::new(bytes)).and_then(|mut f| f.values(positions));
        match (whole, some) {
            (Ok(whole), Ok(some)) => {
                assert_eq!(whole, some);
                Ok(whole)
            }
            (whole, some) => Err(format!(
                "{} | {}",
                whole.map_or_else(|e| e.to_string(), |_| "ok".into()),
                some.map_or_else(|e| e.to_string(), |_| "ok".into())
            )),
        }
    }

    /// `bytes` with value `rank` replaced, its block's checksum and the header's made to
    /// match.
    fn with_value(bytes: &[u8], rank: usize, value: f64) -> Vec<u8> {
        let mut bytes = bytes.to_vec();
        let at = VALUES_AT + rank * 8;
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let values: Vec<f64> = (bytes[VALUES_AT..].chunks_exact(8))
            .map(|le| f64::from_le_bytes(le.try_into().unwrap()))
            .collect();
        let sums: Vec<u64> = values.chunks(BLOCK_VALUES).map(checksum).collect();
        for (i, sum) in sums.iter().enumerate() {
            bytes[HEADER_LEN + 8 * i..HEADER_LEN + 8 * i + 8].copy_from_slice(&sum.to_le_bytes());
        }
        bytes[40..48].copy_from_slice(&checksum_words(&sums).to_le_bytes());
        bytes
    }

    #[test]
    fn a_written_tablebase_reads_back_the_same_whole_or_block_by_block() {
        let tablebase = made_up(7);
        let bytes = bytes_of(&tablebase);
        assert_eq!(bytes.len() as u64, FILE_LEN);
        assert_eq!(FILE_LEN, 22_568 + 8 * 1_440_000);
        assert_eq!(&bytes[..20], b"card-duel tablebase\n");
        assert_eq!(bytes[24], 7);
        let every = every_position();
        let expected: Vec<f64> =
            (0..StartKey::CARDINALITY).map(|r| r as f64 / StartKey::CARDINALITY as f64).collect();
        assert_eq!(Tablebase::read_from(&bytes[..]).unwrap().values(&every), expected);
        // A few positions, repeated, out of order, in the last (short) block and the first.
        let some: Vec<Position> =
            [1_439_999, 17, 700_000, 17, 0, 1_439_488].map(|r| every[r]).to_vec();
        let mut file = TablebaseFile::open(Cursor::new(&bytes)).unwrap();
        assert_eq!(file.ops(), 7);
        let values = file.values(&some).unwrap();
        assert_eq!(
            values,
            some.iter().map(|p| expected[StartKey::of(p).rank()]).collect::<Vec<_>>()
        );
        assert_eq!(file.values(&[]).unwrap(), Vec::<f64>::new());
        // A value of 1 plus an ulp, as sums of certain wins can give, is a probability.
        assert!(read(&with_value(&bytes, 9, 1.0 + f64::EPSILON), &every[..20]).is_ok());
    }

    #[test]
    fn damaged_and_foreign_files_are_refused_with_what_is_wrong() {
        let bytes = bytes_of(&made_up(3));
        let every = every_position();
        // Positions in blocks 0 and 1000: what the block-by-block reads see.
        let some = [every[5], every[512_000]];
        let message = |bytes: &[u8]| read(bytes, &some).unwrap_err();
        let patched = |at: usize, new: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + new.len()].copy_from_slice(new);
            b
        };
        let both = |m: &str| format!("{m} | {m}");
        let not_one =
            both("not a card-duel tablebase (it does not start with \"card-duel tablebase\")");
        assert_eq!(message(b""), not_one);
        assert_eq!(message(b"0.5\n0.25\n"), not_one);
        assert_eq!(message(&patched(0, b"C")), not_one);
        assert_eq!(
            message(&bytes[..40]),
            both("the file's length in bytes: 40, expected 11542568")
        );
        assert_eq!(
            message(&patched(20, &2u32.to_le_bytes())),
            both("tablebase format 2, this card-duel reads format 1")
        );
        assert_eq!(
            message(&patched(48, b"0.0.9\0")),
            both(&format!(
                "written by card-duel 0.0.9, this is card-duel {BUILT_BY}: build it again"
            ))
        );
        assert_eq!(message(&patched(24, &[0])), both("O = 0 in the header, expected 1..=20"));
        assert_eq!(message(&patched(24, &[21])), both("O = 21 in the header, expected 1..=20"));
        assert_eq!(
            message(&patched(32, &5u64.to_le_bytes())),
            both("values in the header: 5, expected 1440000")
        );
        let checksums =
            both("the block checksums do not match the header's checksum: the file is damaged");
        assert_eq!(message(&patched(40, &[0])), checksums);
        assert_eq!(message(&patched(HEADER_LEN + 8 * 2000, &[0x55])), checksums);
        assert_eq!(
            message(&bytes[..bytes.len() - 1]),
            both("the file's length in bytes: 11542567, expected 11542568")
        );
        let mut longer = bytes.clone();
        longer.extend([0; 9]);
        assert_eq!(
            message(&longer),
            both("the file's length in bytes: 11542577, expected 11542568")
        );
        // A damaged block: reading it whole finds it; reading a few positions finds it when
        // they are in it, and not otherwise.
        let block = |b: usize| {
            format!("block {b} of the values does not match its checksum: the file is damaged")
        };
        let damaged = patched(VALUES_AT + 8 * (1000 * BLOCK_VALUES + 3), &[0x55]);
        assert_eq!(message(&damaged), both(&block(1000)));
        let elsewhere = patched(VALUES_AT + 8 * (7 * BLOCK_VALUES), &[0x55]);
        assert_eq!(read(&elsewhere, &some).unwrap_err(), format!("{} | ok", block(7)));
        // Two values swapped within a block.
        let mut swapped = bytes.clone();
        let (a, b) = (VALUES_AT + 8 * 10, VALUES_AT + 8 * 11);
        let first: [u8; 8] = swapped[a..a + 8].try_into().unwrap();
        swapped.copy_within(b..b + 8, a);
        swapped[b..b + 8].copy_from_slice(&first);
        assert_eq!(message(&swapped), both(&block(0)));
        for value in [1.5, -0.25, f64::NAN, f64::INFINITY] {
            assert_eq!(
                message(&with_value(&bytes, 77, value)),
                both(&format!("value 77 is {value}, not a probability: the file is damaged"))
            );
        }
    }

    /// A cache keeps what it built or read; in a folder it reads what is there, builds and
    /// saves what is missing when allowed, and names what it cannot do.
    #[test]
    fn a_cache_builds_or_reads_each_o_once() {
        let dir = std::env::temp_dir().join(format!("card-duel-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let error = |e: CacheError| e.to_string();
        let folder = dir.display();

        let memory = Cache::in_memory();
        assert_eq!(memory.file(2), None);
        assert_eq!(
            error(memory.get_or_build(2, Policy::Read).unwrap_err()),
            "cannot use the tablebase of O = 2: none in memory, and none to read"
        );
        let built = memory.get_or_build(2, Policy::Build).unwrap();
        assert!(std::ptr::eq(built, memory.get_or_build(2, Policy::Read).unwrap()), "kept");
        assert_eq!(memory.kept_ops(), [2]);

        let cache = Cache::at(&dir);
        assert_eq!(cache.store(), &Store::Folder(dir.clone()));
        assert_eq!(
            error(cache.get_or_build(2, Policy::Read).unwrap_err()),
            format!(
                "cannot use the tablebases in {folder}: none for the input's O = 2: build it with \
                 `card-duel tablebase 2 {folder}`, or add --build-missing"
            )
        );
        let saved = cache.get_or_build(2, Policy::BuildMissing).unwrap();
        let file = in_folder(&dir, 2);
        assert_eq!(std::fs::metadata(&file).unwrap().len(), FILE_LEN);
        let positions: Vec<Position> =
            (0..2000).map(|r| StartKey::unrank(r * 719).position()).collect();
        assert_eq!(saved.values(&positions), built.values(&positions));
        // Another cache at the folder reads it, whichever policy allows reading.
        for policy in [Policy::Read, Policy::BuildMissing] {
            let read = Cache::at(&dir).get_or_build(2, policy).unwrap().values(&positions);
            assert_eq!(read, built.values(&positions));
        }
        // A single file answers for its own O only; one that is missing says so.
        let single = Cache::at(&file);
        assert_eq!(single.store(), &Store::File(file.clone()));
        assert_eq!(single.file(7), Some(file.clone()));
        assert_eq!(
            error(single.get_or_build(3, Policy::Read).unwrap_err()),
            format!("cannot use the tablebase {}: it holds O = 2, not O = 3", file.display())
        );
        let missing = dir.join("missing.tb");
        assert!(
            error(Cache::at(&missing).get_or_build(2, Policy::Read).unwrap_err())
                .starts_with(&format!("cannot use the tablebase {}: ", missing.display()))
        );
        let nowhere = dir.join("no").join("such.tb");
        assert!(
            error(Cache::at(&nowhere).get_or_build(2, Policy::Build).unwrap_err())
                .starts_with(&format!("cannot write {}: ", nowhere.display()))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_checksum_is_fnv_1a_over_the_values_bits() {
        // Pinned: a tablebase written today must read the same in every later build.
        assert_eq!(checksum(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum(&[0.0]), 0xaf63_bd4c_8601_b7df);
        assert_eq!(checksum_words(&[0]), checksum(&[0.0]));
        assert_ne!(checksum(&[0.25, 0.5]), checksum(&[0.5, 0.25]));
    }

    #[test]
    fn the_rank_layout_is_the_one_format_1_stores() {
        // The file stores values by StartKey rank: a change to the key's fields or their order
        // must raise FORMAT_VERSION, and fails here first.
        assert_eq!(FORMAT_VERSION, 1);
        let sample_2 = Position {
            e_hp: 5,
            teacher_hp: 14,
            e_board: crate::Board { ones: 1, twos: 0 },
            teacher_board: crate::Board { ones: 1, twos: 0 },
            e_hand: 0,
            teacher_hand: 1,
        };
        assert_eq!(StartKey::of(&sample_2).rank(), 336_081);
        let last = StartKey::unrank(StartKey::CARDINALITY - 1).position();
        assert_eq!((last.e_hp, last.teacher_hp, last.e_hand, last.teacher_hand), (20, 20, 3, 3));
    }
}
