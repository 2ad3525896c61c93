//! Memo stores for solver values, each with a `reset` whose cost follows what the last case
//! touched rather than the store's capacity.
//!
//! | store | indexed by | value | reset |
//! |---|---|---|---|
//! | [`HashMemo`] | any hashable key (ahash) | any | clears, then shrinks if the case used little of it |
//! | [`DenseTable`] | rank `0..len` | `Copy` | `O(1)`: bumps an epoch stamp |
//! | [`BitTable`] | rank `0..len` | 1 bit | clears only the words the case set |
//!
//! Who uses what: the reference solvers of hero-battle and card-duel memoize in a
//! [`HashMemo`]. [`DenseTable`] and [`BitTable`] are for solvers whose states rank densely
//! and are reset between many cases; none of the three fast solvers needs one today
//! (hero-battle's indexes its rows by each hero's reachable hit points instead).
//!
//! bitvec is the bit table's container: it allocates and sizes the bits and counts them. The
//! hot `get` and `insert` read and write its raw `u64` words instead of going through its
//! per-bit proxies, which took 1.3x to 1.6x the time of a shift and a mask on random access
//! (`cargo bench -p engine --bench bit_access`); raw words also let a scan visit
//! only the set bits with `trailing_zeros`.

use std::hash::Hash;

use ahash::RandomState;
use bitvec::prelude::{BitVec, Lsb0};

/// Fixed hasher seeds: the same run hashes the same way every time, so timings and any
/// (unsupported) iteration order are reproducible.
const SEEDS: [u64; 4] =
    [0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0, 0x082e_fa98_ec4e_6c89];

/// A hash memo on ahash for sparse reachable sets.
#[derive(Clone, Debug)]
pub struct HashMemo<K, V> {
    map: std::collections::HashMap<K, V, RandomState>,
}

impl<K: Hash + Eq, V> Default for HashMemo<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Hash + Eq, V> HashMemo<K, V> {
    /// Smallest capacity kept across resets; clearing this much is cheaper than reallocating.
    const KEEP: usize = 1024;

    /// An empty memo.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty memo with room for `capacity` entries.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        let hasher = RandomState::with_seeds(SEEDS[0], SEEDS[1], SEEDS[2], SEEDS[3]);
        Self { map: std::collections::HashMap::with_capacity_and_hasher(capacity, hasher) }
    }

    /// The value stored for `key`. Expected `O(1)`.
    #[inline]
    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key)
    }

    /// Stores `value` for `key`, returning the previous value. Expected amortised `O(1)`.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.map.insert(key, value)
    }

    /// Number of stored entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Entries that fit before the memo reallocates.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.map.capacity()
    }

    /// Forgets every entry. Clearing costs `O(capacity)`, so when this case used less than a
    /// quarter of the capacity the table is shrunk to twice what it used: across a batch the
    /// cost is amortised `O(entries stored)`.
    pub fn reset(&mut self) {
        let used = self.map.len();
        self.map.clear();
        if self.map.capacity() > Self::KEEP.max(4 * used) {
            self.map.shrink_to(Self::KEEP.max(2 * used));
        }
    }
}

/// A dense table of `len` optional values indexed by rank, reset in `O(1)`.
///
/// Each cell carries the epoch it was written in; a cell from an older epoch reads as empty.
/// Space: `len * (size_of::<V>() + 4)` bytes, rounded up for alignment.
#[derive(Clone, Debug)]
pub struct DenseTable<V> {
    cells: Vec<Stamped<V>>,
    epoch: u32,
}

#[derive(Clone, Copy, Debug)]
struct Stamped<V> {
    epoch: u32,
    value: V,
}

impl<V: Copy + Default> DenseTable<V> {
    /// An empty table for ranks `0..len`.
    #[must_use]
    pub fn new(len: usize) -> Self {
        Self { cells: vec![Stamped { epoch: 0, value: V::default() }; len], epoch: 1 }
    }

    /// Number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the table has no cells.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The value at `rank`, if written since the last reset. `O(1)`.
    #[inline]
    #[must_use]
    pub fn get(&self, rank: usize) -> Option<V> {
        let cell = &self.cells[rank];
        (cell.epoch == self.epoch).then_some(cell.value)
    }

    /// Writes the value at `rank`. `O(1)`.
    #[inline]
    pub fn set(&mut self, rank: usize, value: V) {
        self.cells[rank] = Stamped { epoch: self.epoch, value };
    }

    /// Empties every cell in `O(1)` (a full sweep once every 2^32 - 1 resets).
    pub fn reset(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.cells.iter_mut().for_each(|c| c.epoch = 0);
            self.epoch = 1;
        }
    }
}

/// Records which raw words have become non-zero, so a reset clears only those.
#[derive(Clone, Debug, Default)]
struct TouchedWords(Vec<u32>);

impl TouchedWords {
    fn clear_in(&mut self, words: &mut [u64]) {
        for w in self.0.drain(..) {
            words[w as usize] = 0;
        }
    }
}

/// One bit per rank, on a bitvec, reset in `O(words touched)`.
#[derive(Clone, Debug)]
pub struct BitTable {
    bits: BitVec<u64, Lsb0>,
    touched: TouchedWords,
}

impl BitTable {
    /// All-zero bits for ranks `0..len`.
    #[must_use]
    pub fn new(len: usize) -> Self {
        Self { bits: BitVec::repeat(false, len), touched: TouchedWords::default() }
    }

    /// Number of bits.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the table has no bits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Bit `rank`. `O(1)`.
    #[inline]
    #[must_use]
    pub fn get(&self, rank: usize) -> bool {
        debug_assert!(rank < self.len());
        self.bits.as_raw_slice()[rank / 64] >> (rank % 64) & 1 == 1
    }

    /// Sets bit `rank`, returning whether it was already set. `O(1)`.
    #[inline]
    pub fn insert(&mut self, rank: usize) -> bool {
        debug_assert!(rank < self.len());
        let word = &mut self.bits.as_raw_mut_slice()[rank / 64];
        let mask = 1u64 << (rank % 64);
        let was = *word & mask != 0;
        if *word == 0 {
            self.touched.0.push((rank / 64) as u32);
        }
        *word |= mask;
        was
    }

    /// The raw words, bit `r` at bit `r % 64` of word `r / 64`: for scans that visit only
    /// the set bits (`trailing_zeros` on each word).
    #[must_use]
    pub fn words(&self) -> &[u64] {
        self.bits.as_raw_slice()
    }

    /// Number of set bits. `O(len / 64)`.
    #[must_use]
    pub fn count_ones(&self) -> usize {
        self.bits.count_ones()
    }

    /// Clears every bit the case set, in `O(words touched)`.
    pub fn reset(&mut self) {
        self.touched.clear_in(self.bits.as_raw_mut_slice());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hash_memo_reset_forgets_and_shrinks() {
        let mut memo = HashMemo::new();
        for k in 0..100_000u32 {
            memo.insert(k, k * 2);
        }
        assert_eq!(memo.get(&7), Some(&14));
        memo.reset();
        assert!(memo.is_empty());
        memo.insert(1, 1);
        memo.reset();
        assert!(memo.capacity() < 10_000, "a small case after a big one shrinks the memo");
        assert_eq!(memo.get(&7), None);
    }

    #[test]
    fn dense_table_reset_empties_every_cell() {
        let mut t = DenseTable::<u16>::new(10);
        t.set(3, 7);
        assert_eq!(t.get(3), Some(7));
        assert_eq!(t.get(4), None);
        t.reset();
        assert_eq!(t.get(3), None);
        t.set(4, 1);
        assert_eq!(t.get(4), Some(1));
    }

    #[test]
    fn dense_table_survives_epoch_wrap() {
        let mut t = DenseTable::<u8>::new(4);
        t.set(0, 5);
        t.epoch = u32::MAX;
        t.set(1, 6);
        t.reset();
        assert_eq!((t.get(0), t.get(1)), (None, None));
    }

    proptest! {
        #[test]
        fn bit_table_matches_a_model(ops in proptest::collection::vec(0usize..300, 0..200),
                                    again in proptest::collection::vec(0usize..300, 0..50)) {
            let mut table = BitTable::new(300);
            for round in [&ops, &again] {
                let mut model = vec![false; 300];
                for &i in round.iter() {
                    prop_assert_eq!(table.insert(i), model[i]);
                    model[i] = true;
                }
                for (i, &bit) in model.iter().enumerate() {
                    prop_assert_eq!(table.get(i), bit);
                }
                prop_assert_eq!(table.count_ones(), model.iter().filter(|&&b| b).count());
                table.reset();
                prop_assert_eq!(table.count_ones(), 0);
            }
        }
    }
}
