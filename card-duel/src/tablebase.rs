//! Tablebases: the value of every position of one O, computed once and kept in a file, so that
//! a later file of any positions of that O is answered by lookups with no sweep at all.
//!
//! A sweep for one position costs what its reach costs: a few milliseconds for small HP, and
//! up to about 0.2 s for the heaviest ones (both players at 20 HP, full boards and hands),
//! whose reach is most of the state space. The whole table of one O costs little more (about
//! 0.3 s) and is 11.5 MB, so a user who asks many single positions of one O builds it once
//! ([`Tablebase::build`], the binary's `tablebase` subcommand) and reads it back
//! ([`Tablebase::read_from`], `--tablebase FILE`); endgame tablebases serve chess engines the
//! same way.
//!
//! The file is a 64-byte header, then the 1,440,000 values as little-endian `f64` by
//! [`StartKey`] rank:
//!
//! | bytes | field |
//! |---|---|
//! | 0..20 | [`MAGIC`], `card-duel tablebase` and a newline |
//! | 20..24 | [`FORMAT_VERSION`], `u32` |
//! | 24 | O |
//! | 25..32 | zero |
//! | 32..40 | the number of values, `u64` |
//! | 40..48 | the values' checksum ([`checksum`]), `u64` |
//! | 48..64 | the version of card-duel that wrote it, UTF-8, zero-padded |
//!
//! Reading checks every field, the length, the checksum and that every value is a
//! probability; a file written by another version of card-duel is refused, since its values
//! would be that version's. The values are the sweep's own bits, so answers read from a
//! tablebase are byte for byte those of the sweep.

use std::io::{self, Read, Write};

use engine::memory::HugeZeroed;

use crate::rules::{MAX_OPS, Position};
use crate::tables::{Reach, StartKey, Tables};

/// The first bytes of every tablebase.
pub const MAGIC: &[u8; 20] = b"card-duel tablebase\n";

/// The layout of the file and of [`StartKey`] ranks. Raised whenever either changes, so that
/// an old file is refused rather than read wrong.
pub const FORMAT_VERSION: u32 = 1;

/// Bytes before the values.
pub const HEADER_LEN: usize = 64;

/// The version of card-duel writing and reading tablebases.
const BUILT_BY: &str = env!("CARGO_PKG_VERSION");

/// Bytes of the header that hold the writer's version.
const BUILT_BY_LEN: usize = 16;

const _: () = assert!(BUILT_BY.len() <= BUILT_BY_LEN, "the version fits its field");

/// The values a tablebase may hold: probabilities, give or take the rounding of the sums
/// that compute them (a certain win summed over a play's outcomes can come to 1 plus an ulp).
const PROBABILITY: std::ops::RangeInclusive<f64> = -1e-12..=1.0 + 1e-12;

/// Values converted per write or read: a buffer of 512 KiB.
const BLOCK: usize = 1 << 16;

/// Every turn-start value of one O.
#[derive(Debug)]
pub struct Tablebase {
    ops: u8,
    tables: Tables,
}

/// Why a file is not a tablebase this program can use.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// Reading failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file does not start with [`MAGIC`].
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
    /// The header's count of values, or the file's length, is not the table's.
    #[error("{what}: {found}, expected {expected}")]
    Length {
        /// Which length.
        what: &'static str,
        /// What the file has.
        found: u64,
        /// What a tablebase has.
        expected: u64,
    },
    /// The values do not add up to the header's checksum.
    #[error("the values do not match the header's checksum: the file is damaged")]
    Checksum,
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
    /// rayon pool: `O(every slot of the state space)`, about 0.3 s on two cores, and the
    /// sweep's memory for every position (see the crate's README).
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

    /// Writes the file: the header, then every value. `O(1,440,000)`.
    ///
    /// # Errors
    /// When writing fails.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let table = self.tables.every_start().expect("a tablebase keeps every turn start");
        out.write_all(&header(self.ops, checksum(table)))?;
        let mut bytes = Vec::with_capacity(BLOCK * size_of::<f64>());
        for block in table.chunks(BLOCK) {
            bytes.clear();
            bytes.extend(block.iter().flat_map(|v| v.to_le_bytes()));
            out.write_all(&bytes)?;
        }
        out.flush()
    }

    /// Reads a file [`Tablebase::write_to`] wrote, checking it whole (module notes).
    /// `O(1,440,000)`: a few milliseconds once the file is in the system's cache.
    ///
    /// # Errors
    /// When reading fails or the file is not a whole tablebase of this version.
    pub fn read_from(input: &mut impl Read) -> Result<Tablebase, TablebaseError> {
        let mut head = [0u8; HEADER_LEN];
        let got = read_up_to(input, &mut head)?;
        if got < MAGIC.len() || head[..MAGIC.len()] != MAGIC[..] {
            return Err(TablebaseError::NotATablebase);
        }
        let expected_len = (HEADER_LEN + StartKey::CARDINALITY * size_of::<f64>()) as u64;
        if got < HEADER_LEN {
            return Err(length("the file's length in bytes", got as u64, expected_len));
        }
        let field = |range: std::ops::Range<usize>| &head[range];
        let format = u32::from_le_bytes(field(20..24).try_into().expect("four bytes"));
        if format != FORMAT_VERSION {
            return Err(TablebaseError::Format { found: format });
        }
        let built_by = field(48..64);
        let built_by =
            String::from_utf8_lossy(&built_by[..built_by.iter().take_while(|&&b| b != 0).count()]);
        if built_by != BUILT_BY {
            return Err(TablebaseError::Version { found: built_by.into_owned() });
        }
        let ops = head[24];
        if !(1..=MAX_OPS).contains(&ops) {
            return Err(TablebaseError::Ops { found: ops });
        }
        let count = u64::from_le_bytes(field(32..40).try_into().expect("eight bytes"));
        if count != StartKey::CARDINALITY as u64 {
            return Err(length("values in the header", count, StartKey::CARDINALITY as u64));
        }
        let sum = u64::from_le_bytes(field(40..48).try_into().expect("eight bytes"));
        let mut table = HugeZeroed::new(StartKey::CARDINALITY);
        let mut bytes = vec![0u8; BLOCK * size_of::<f64>()];
        let mut read = HEADER_LEN as u64;
        for block in table.chunks_mut(BLOCK) {
            let bytes = &mut bytes[..size_of_val(block)];
            let got = read_up_to(input, bytes)?;
            read += got as u64;
            if got < bytes.len() {
                return Err(length("the file's length in bytes", read, expected_len));
            }
            for (value, le) in block.iter_mut().zip(bytes.chunks_exact(size_of::<f64>())) {
                *value = f64::from_le_bytes(le.try_into().expect("eight bytes"));
            }
        }
        let extra = read_up_to(input, &mut bytes)?;
        if extra > 0 {
            // Count the rest, for the message.
            let rest = io::copy(input, &mut io::sink())?;
            return Err(length(
                "the file's length in bytes",
                read + extra as u64 + rest,
                expected_len,
            ));
        }
        if checksum(&table) != sum {
            return Err(TablebaseError::Checksum);
        }
        if let Some(rank) = table.iter().position(|v| !PROBABILITY.contains(v)) {
            return Err(TablebaseError::Value { rank, value: table[rank] });
        }
        Ok(Tablebase { ops, tables: Tables::from_every_start(table) })
    }
}

/// A [`TablebaseError::Length`].
fn length(what: &'static str, found: u64, expected: u64) -> TablebaseError {
    TablebaseError::Length { what, found, expected }
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

/// The header of a tablebase of O = `ops` whose values have checksum `sum`.
fn header(ops: u8, sum: u64) -> [u8; HEADER_LEN] {
    let mut head = [0u8; HEADER_LEN];
    head[..MAGIC.len()].copy_from_slice(MAGIC);
    head[20..24].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    head[24] = ops;
    head[32..40].copy_from_slice(&(StartKey::CARDINALITY as u64).to_le_bytes());
    head[40..48].copy_from_slice(&sum.to_le_bytes());
    head[48..48 + BUILT_BY.len()].copy_from_slice(BUILT_BY.as_bytes());
    head
}

/// FNV-1a over the values' bit patterns, a word at a time: any one changed value, and any
/// values swapped, change it. It guards against damage, not against forgery. `O(values)`.
#[must_use]
pub fn checksum(values: &[f64]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    values.iter().fold(OFFSET, |h, v| (h ^ v.to_bits()).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
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

    fn read(bytes: &[u8]) -> Result<Tablebase, TablebaseError> {
        Tablebase::read_from(&mut &bytes[..])
    }

    /// `bytes` with value `rank` replaced and the header's checksum made to match.
    fn with_value(bytes: &[u8], rank: usize, value: f64) -> Vec<u8> {
        let mut bytes = bytes.to_vec();
        let at = HEADER_LEN + rank * 8;
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let values: Vec<f64> = (bytes[HEADER_LEN..].chunks_exact(8))
            .map(|le| f64::from_le_bytes(le.try_into().unwrap()))
            .collect();
        bytes[40..48].copy_from_slice(&checksum(&values).to_le_bytes());
        bytes
    }

    #[test]
    fn a_written_tablebase_reads_back_the_same() {
        let tablebase = made_up(7);
        let bytes = bytes_of(&tablebase);
        assert_eq!(bytes.len(), HEADER_LEN + 8 * StartKey::CARDINALITY);
        assert_eq!(&bytes[..20], b"card-duel tablebase\n");
        assert_eq!(bytes[24], 7);
        let back = read(&bytes).unwrap();
        assert_eq!(back.ops(), 7);
        let every: Vec<Position> =
            (0..StartKey::CARDINALITY).map(|r| StartKey::unrank(r).position()).collect();
        let values = back.values(&every);
        assert!(
            values.iter().enumerate().all(|(r, &v)| v == r as f64 / StartKey::CARDINALITY as f64)
        );
        assert_eq!(back.value(&every[12_345]), values[12_345]);
        // A value of 1 plus an ulp, as sums of certain wins can give, is a probability.
        assert!(read(&with_value(&bytes, 9, 1.0 + f64::EPSILON)).is_ok());
    }

    #[test]
    fn damaged_and_foreign_files_are_refused_with_what_is_wrong() {
        let bytes = bytes_of(&made_up(3));
        let message = |bytes: &[u8]| read(bytes).unwrap_err().to_string();
        let patched = |at: usize, new: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + new.len()].copy_from_slice(new);
            b
        };
        let not_one = "not a card-duel tablebase (it does not start with \"card-duel tablebase\")";
        assert_eq!(message(b""), not_one);
        assert_eq!(message(b"0.5\n0.25\n"), not_one);
        assert_eq!(message(&patched(0, b"C")), not_one);
        assert_eq!(message(&bytes[..40]), "the file's length in bytes: 40, expected 11520064");
        assert_eq!(
            message(&patched(20, &2u32.to_le_bytes())),
            "tablebase format 2, this card-duel reads format 1"
        );
        assert_eq!(
            message(&patched(48, b"0.0.9\0")),
            format!("written by card-duel 0.0.9, this is card-duel {BUILT_BY}: build it again")
        );
        assert_eq!(message(&patched(24, &[0])), "O = 0 in the header, expected 1..=20");
        assert_eq!(message(&patched(24, &[21])), "O = 21 in the header, expected 1..=20");
        assert_eq!(
            message(&patched(32, &5u64.to_le_bytes())),
            "values in the header: 5, expected 1440000"
        );
        assert_eq!(
            message(&bytes[..bytes.len() - 1]),
            "the file's length in bytes: 11520063, expected 11520064"
        );
        let mut longer = bytes.clone();
        longer.extend([0; 9]);
        assert_eq!(message(&longer), "the file's length in bytes: 11520073, expected 11520064");
        let damaged = "the values do not match the header's checksum: the file is damaged";
        assert_eq!(message(&patched(HEADER_LEN + 8 * 1000, &[0x55])), damaged);
        assert_eq!(message(&patched(40, &[0])), damaged);
        // Two values swapped.
        let mut swapped = bytes.clone();
        let (a, b) = (HEADER_LEN + 8 * 10, HEADER_LEN + 8 * 11);
        let first: [u8; 8] = swapped[a..a + 8].try_into().unwrap();
        swapped.copy_within(b..b + 8, a);
        swapped[b..b + 8].copy_from_slice(&first);
        assert_eq!(message(&swapped), damaged);
        for value in [1.5, -0.25, f64::NAN, f64::INFINITY] {
            assert_eq!(
                message(&with_value(&bytes, 77, value)),
                format!("value 77 is {value}, not a probability: the file is damaged")
            );
        }
    }

    #[test]
    fn the_checksum_is_fnv_1a_over_the_values_bits() {
        // Pinned: a tablebase written today must read the same in every later build.
        assert_eq!(checksum(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum(&[0.0]), 0xaf63_bd4c_8601_b7df);
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
