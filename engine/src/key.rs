//! Packed state keys: small integer fields packed into one `u64` with checked widths, and a
//! mixed-radix rank that maps the same fields onto `0..cardinality` for dense tables.
//!
//! A solver declares its fields once, either as a [`Layout`] of value ranges or with the
//! [`packed_key!`](crate::packed_key) macro, which also generates a named struct. Two encodings
//! come out of one declaration:
//!
//! - [`Layout::pack`] puts field `i` in its own bit range (`bits(i) = ceil(log2(len_i))`), so
//!   single fields can be read and replaced with a shift and a mask. Use it for hash keys.
//! - [`Layout::rank`] is the mixed-radix number `((f0 * len1 + f1) * len2 + f2) ...`, dense in
//!   `0..cardinality()`. Use it to index tables with no holes.
//!
//! Field values are checked against their ranges in debug builds (and always by the `try_`
//! forms), so an out-of-range field never silently aliases another key.

use std::ops::Range;

/// Why a field value could not be packed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field {field} = {value} is outside {start}..{end}")]
pub struct KeyError {
    /// Index of the offending field.
    pub field: usize,
    /// The value that was given.
    pub value: i64,
    /// First valid value.
    pub start: i64,
    /// One past the last valid value.
    pub end: i64,
}

/// The shape of a key with `N` fields; field `i` takes values in `ranges[i]`.
///
/// Built in a `const` context, so an impossible layout (an empty range, more than 64 bits, a
/// cardinality beyond `u64`) is a compile-time error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout<const N: usize> {
    starts: [i64; N],
    lens: [u64; N],
    shifts: [u32; N],
    masks: [u64; N],
    strides: [u64; N],
    bits: u32,
    cardinality: u64,
}

impl<const N: usize> Layout<N> {
    /// Declares the fields' value ranges, first field most significant.
    ///
    /// # Panics
    /// When a range is empty, the packed key needs more than 64 bits, or the number of keys
    /// does not fit in a `u64`. In a `const` item these are compile errors.
    #[must_use]
    pub const fn new(ranges: [Range<i64>; N]) -> Self {
        let mut starts = [0i64; N];
        let mut lens = [0u64; N];
        let mut widths = [0u32; N];
        let mut i = 0;
        while i < N {
            assert!(ranges[i].start < ranges[i].end, "a key field has an empty range");
            starts[i] = ranges[i].start;
            lens[i] = ranges[i].end.abs_diff(ranges[i].start);
            // Width of the largest stored value, len - 1 (zero bits for a one-value field).
            widths[i] = u64::BITS - (lens[i] - 1).leading_zeros();
            i += 1;
        }
        let mut shifts = [0u32; N];
        let mut masks = [0u64; N];
        let mut strides = [0u64; N];
        let mut bits = 0u32;
        let mut cardinality = 1u64;
        let mut i = N;
        while i > 0 {
            i -= 1;
            shifts[i] = bits;
            masks[i] = if widths[i] == 64 { u64::MAX } else { (1u64 << widths[i]) - 1 };
            bits += widths[i];
            assert!(bits <= 64, "a packed key needs more than 64 bits");
            strides[i] = cardinality;
            cardinality = match cardinality.checked_mul(lens[i]) {
                Some(c) => c,
                None => panic!("the number of keys does not fit in a u64"),
            };
        }
        Self { starts, lens, shifts, masks, strides, bits, cardinality }
    }

    /// Bits a packed key occupies.
    #[must_use]
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// Number of distinct keys, the length of a dense table indexed by [`Layout::rank`].
    #[must_use]
    pub const fn cardinality(&self) -> u64 {
        self.cardinality
    }

    /// The value range of field `i`.
    #[must_use]
    pub const fn range(&self, i: usize) -> Range<i64> {
        self.starts[i]..self.starts[i] + self.lens[i] as i64
    }

    #[inline]
    fn offset(&self, i: usize, value: i64) -> u64 {
        debug_assert!(
            self.range(i).contains(&value),
            "key field {i} = {value} is outside {:?}",
            self.range(i)
        );
        value.wrapping_sub(self.starts[i]) as u64
    }

    /// Checks every field against its range.
    ///
    /// # Errors
    /// The first field outside its range.
    pub fn check(&self, fields: &[i64; N]) -> Result<(), KeyError> {
        for (i, &value) in fields.iter().enumerate() {
            let range = self.range(i);
            if !range.contains(&value) {
                return Err(KeyError { field: i, value, start: range.start, end: range.end });
            }
        }
        Ok(())
    }

    /// Packs the fields into one integer, each in its own bit range. `O(N)`.
    #[inline]
    #[must_use]
    pub fn pack(&self, fields: [i64; N]) -> u64 {
        let mut key = 0;
        for (i, &value) in fields.iter().enumerate() {
            key |= self.offset(i, value) << self.shifts[i];
        }
        key
    }

    /// [`Layout::pack`] with the range check in every build.
    ///
    /// # Errors
    /// The first field outside its range.
    pub fn try_pack(&self, fields: [i64; N]) -> Result<u64, KeyError> {
        self.check(&fields)?;
        Ok(self.pack(fields))
    }

    /// Inverse of [`Layout::pack`]. `O(N)`.
    #[inline]
    #[must_use]
    pub fn unpack(&self, key: u64) -> [i64; N] {
        std::array::from_fn(|i| self.get(key, i))
    }

    /// Field `i` of a packed key. `O(1)`.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u64, i: usize) -> i64 {
        ((key >> self.shifts[i]) & self.masks[i]) as i64 + self.starts[i]
    }

    /// A packed key with field `i` replaced. `O(1)`.
    #[inline]
    #[must_use]
    pub fn with(&self, key: u64, i: usize, value: i64) -> u64 {
        (key & !(self.masks[i] << self.shifts[i])) | (self.offset(i, value) << self.shifts[i])
    }

    /// The mixed-radix rank of the fields, dense in `0..cardinality()`. `O(N)`.
    #[inline]
    #[must_use]
    pub fn rank(&self, fields: [i64; N]) -> u64 {
        let mut rank = 0;
        for (i, &value) in fields.iter().enumerate() {
            rank += self.offset(i, value) * self.strides[i];
        }
        rank
    }

    /// Inverse of [`Layout::rank`]. `O(N)`.
    #[must_use]
    pub fn unrank(&self, rank: u64) -> [i64; N] {
        debug_assert!(rank < self.cardinality, "rank {rank} is not below {}", self.cardinality);
        std::array::from_fn(|i| ((rank / self.strides[i]) % self.lens[i]) as i64 + self.starts[i])
    }

    /// The rank of a packed key. `O(N)`.
    #[inline]
    #[must_use]
    pub fn rank_of_key(&self, key: u64) -> u64 {
        self.rank(self.unpack(key))
    }
}

/// Declares a named state struct together with its [`Layout`].
///
/// ```
/// engine::packed_key! {
///     /// A position of a two-pile game.
///     pub struct Piles {
///         left: 0..100,
///         right: 0..100,
///         mover: 0..2,
///     }
/// }
/// let p = Piles { left: 12, right: 99, mover: 1 };
/// assert_eq!(Piles::unpack(p.pack()), p);
/// assert_eq!(Piles::unrank(p.rank()), p);
/// assert_eq!(Piles::LAYOUT.bits(), 7 + 7 + 1);
/// assert_eq!(Piles::CARDINALITY, 100 * 100 * 2);
/// ```
///
/// Fields are `i64` in the struct. `pack`/`rank` check ranges in debug builds;
/// `try_pack` checks them always.
#[macro_export]
macro_rules! packed_key {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $start:literal .. $end:expr ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name {
            $(
                $(#[$fmeta])*
                #[doc = concat!("Field `", stringify!($field), "`, in `", stringify!($start..$end), "`.")]
                pub $field: i64,
            )+
        }

        #[allow(dead_code)]
        impl $name {
            /// The layout: one field per struct field, in declaration order.
            pub const LAYOUT: $crate::key::Layout<{ [$(stringify!($field)),+].len() }> =
                $crate::key::Layout::new([$( $start..$end ),+]);
            /// Number of distinct values, the length of a dense table indexed by `rank`.
            pub const CARDINALITY: usize = Self::LAYOUT.cardinality() as usize;

            #[inline]
            fn fields(self) -> [i64; { [$(stringify!($field)),+].len() }] {
                [$( self.$field ),+]
            }

            /// Packs into one integer, each field in its own bits.
            #[inline]
            #[must_use]
            pub fn pack(self) -> u64 {
                Self::LAYOUT.pack(self.fields())
            }

            /// `pack` with the range check in every build.
            pub fn try_pack(self) -> Result<u64, $crate::key::KeyError> {
                Self::LAYOUT.try_pack(self.fields())
            }

            /// Inverse of `pack`.
            #[inline]
            #[must_use]
            pub fn unpack(key: u64) -> Self {
                let [$( $field ),+] = Self::LAYOUT.unpack(key);
                Self { $( $field ),+ }
            }

            /// Dense mixed-radix index in `0..CARDINALITY`.
            #[inline]
            #[must_use]
            pub fn rank(self) -> usize {
                Self::LAYOUT.rank(self.fields()) as usize
            }

            /// Inverse of `rank`.
            #[inline]
            #[must_use]
            pub fn unrank(rank: usize) -> Self {
                let [$( $field ),+] = Self::LAYOUT.unrank(rank as u64);
                Self { $( $field ),+ }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIXED: Layout<4> = Layout::new([0..100, -3..4, 1..21, 0..1]);

    crate::packed_key! {
        /// Test key.
        struct Hero { a1: 0..100, a2: 0..100, b1: 0..100, b2: 0..100, bob: 0..2 }
    }

    #[test]
    fn widths_and_cardinality() {
        assert_eq!(MIXED.bits(), 7 + 3 + 5);
        assert_eq!(MIXED.cardinality(), 100 * 7 * 20);
        assert_eq!(Hero::LAYOUT.bits(), 29);
        assert_eq!(Hero::CARDINALITY, 200_000_000);
        assert_eq!(Layout::new([0..1 << 32, 0..(1 << 32) - 1]).bits(), 64);
    }

    #[test]
    fn try_pack_rejects_out_of_range() {
        assert_eq!(
            MIXED.try_pack([5, 4, 3, 0]),
            Err(KeyError { field: 1, value: 4, start: -3, end: 4 })
        );
        assert!(Hero { a1: 100, a2: 0, b1: 0, b2: 0, bob: 0 }.try_pack().is_err());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "outside")]
    fn pack_checks_ranges_in_debug_builds() {
        let _ = MIXED.pack([100, 0, 1, 0]);
    }

    fn mixed_fields() -> impl Strategy<Value = [i64; 4]> {
        (0i64..100, -3i64..4, 1i64..21, 0i64..1).prop_map(|(a, b, c, d)| [a, b, c, d])
    }

    proptest! {
        #[test]
        fn pack_round_trips(f in mixed_fields()) {
            prop_assert_eq!(MIXED.unpack(MIXED.pack(f)), f);
            prop_assert!(MIXED.pack(f) < 1 << MIXED.bits());
        }

        #[test]
        fn rank_round_trips_and_is_dense(f in mixed_fields()) {
            let r = MIXED.rank(f);
            prop_assert!(r < MIXED.cardinality());
            prop_assert_eq!(MIXED.unrank(r), f);
            prop_assert_eq!(MIXED.rank_of_key(MIXED.pack(f)), r);
        }

        #[test]
        fn with_replaces_one_field(f in mixed_fields(), v in 1i64..21) {
            let key = MIXED.with(MIXED.pack(f), 2, v);
            let mut g = f;
            g[2] = v;
            prop_assert_eq!(MIXED.unpack(key), g);
        }

        #[test]
        fn macro_struct_round_trips(a1 in 0i64..100, a2 in 0i64..100, b1 in 0i64..100,
                                     b2 in 0i64..100, bob in 0i64..2) {
            let h = Hero { a1, a2, b1, b2, bob };
            prop_assert_eq!(Hero::unpack(h.pack()), h);
            prop_assert_eq!(Hero::unrank(h.rank()), h);
        }
    }

    #[test]
    fn rank_order_is_lexicographic() {
        let mut last = None;
        for r in 0..MIXED.cardinality() {
            let f = MIXED.unrank(r);
            if let Some(prev) = last {
                assert!(prev < f);
            }
            last = Some(f);
        }
    }
}
