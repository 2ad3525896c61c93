//! Packed state keys: small integer fields packed into one `u64` with checked widths, and a
//! mixed-radix rank that maps the same fields onto `0..cardinality` for dense tables.
//!
//! A solver declares its fields once with the [`packed_key!`](crate::packed_key) macro, which
//! generates a named struct with typed fields and its [`Layout`] of value ranges. Two
//! encodings come out of one declaration:
//!
//! - `pack` puts field `i` in its own bit range (`bits(i) = ceil(log2(len_i))`): the smallest
//!   integer key for a hash memo (hero-battle's reference packs a five-field position into a
//!   `u32`).
//! - `rank` is the mixed-radix number `((f0 * len1 + f1) * len2 + f2) ...`, dense in
//!   `0..CARDINALITY`: the index of a table with no holes (card-duel's 1,440,000 start values
//!   and its board-pair tables).
//!
//! Field values are checked against their ranges in debug builds, so an out-of-range field
//! never silently aliases another key; the solvers check them at parse time.

use std::ops::Range;

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

    /// Inverse of [`Layout::pack`]. `O(N)`.
    #[inline]
    #[must_use]
    pub fn unpack(&self, key: u64) -> [i64; N] {
        std::array::from_fn(|i| ((key >> self.shifts[i]) & self.masks[i]) as i64 + self.starts[i])
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
}

/// An integer type a [`packed_key!`](crate::packed_key) field may have: every value in the
/// field's range converts to `i64` and back unchanged.
pub trait KeyField: Copy {
    /// The value as a signed 64-bit integer.
    fn to_key(self) -> i64;
    /// The value back from [`KeyField::to_key`]; only called on values in the field's range.
    fn from_key(value: i64) -> Self;
}

// Field ranges are checked against the layout, so the casts below never wrap for a value that
// `pack` or `rank` accepted (u64 and usize values above i64::MAX cannot be in a range).
macro_rules! key_field_as {
    ($($t:ty),+) => {$(
        #[allow(clippy::cast_lossless, reason = "one impl for every integer type")]
        impl KeyField for $t {
            #[inline]
            fn to_key(self) -> i64 {
                self as i64
            }

            #[inline]
            fn from_key(value: i64) -> Self {
                value as $t
            }
        }
    )+};
}

key_field_as!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

impl KeyField for bool {
    #[inline]
    fn to_key(self) -> i64 {
        i64::from(self)
    }

    #[inline]
    fn from_key(value: i64) -> Self {
        value != 0
    }
}

/// Declares a named state struct with typed fields, together with its [`Layout`].
///
/// ```
/// engine::packed_key! {
///     /// A position of a two-pile game.
///     pub struct Piles {
///         left: u8 in 0..100,
///         right: u8 in 0..100,
///         first_player_moves: bool in 0..2,
///     }
/// }
/// let p = Piles { left: 12, right: 99, first_player_moves: true };
/// assert_eq!(Piles::unpack(p.pack()), p);
/// assert_eq!(Piles::unrank(p.rank()), p);
/// assert_eq!(Piles::LAYOUT.bits(), 7 + 7 + 1);
/// assert_eq!(Piles::CARDINALITY, 100 * 100 * 2);
/// ```
///
/// Each field has its own integer type (any [`KeyField`]: the primitive integers and `bool`)
/// and range. The fields, constants and methods take the struct's visibility. `pack` and
/// `rank` check the ranges in debug builds.
#[macro_export]
macro_rules! packed_key {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ident in $start:literal .. $end:expr ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name {
            $(
                $(#[$fmeta])*
                #[doc = concat!("Field `", stringify!($field), "`, in `", stringify!($start..$end), "`.")]
                $vis $field: $ty,
            )+
        }

        #[allow(dead_code)]
        impl $name {
            /// The layout: one field per struct field, in declaration order.
            $vis const LAYOUT: $crate::key::Layout<{ [$(stringify!($field)),+].len() }> =
                $crate::key::Layout::new([$( $start..$end ),+]);
            /// Number of distinct values, the length of a dense table indexed by `rank`.
            $vis const CARDINALITY: usize = Self::LAYOUT.cardinality() as usize;

            #[inline]
            fn fields(self) -> [i64; { [$(stringify!($field)),+].len() }] {
                [$( $crate::key::KeyField::to_key(self.$field) ),+]
            }

            #[inline]
            fn from_fields(fields: [i64; { [$(stringify!($field)),+].len() }]) -> Self {
                let [$( $field ),+] = fields;
                Self { $( $field: $crate::key::KeyField::from_key($field) ),+ }
            }

            /// Packs into one integer, each field in its own bits.
            #[inline]
            #[must_use]
            $vis fn pack(self) -> u64 {
                Self::LAYOUT.pack(self.fields())
            }

            /// Inverse of `pack`.
            #[inline]
            #[must_use]
            $vis fn unpack(key: u64) -> Self {
                Self::from_fields(Self::LAYOUT.unpack(key))
            }

            /// Dense mixed-radix index in `0..CARDINALITY`.
            #[inline]
            #[must_use]
            $vis fn rank(self) -> usize {
                Self::LAYOUT.rank(self.fields()) as usize
            }

            /// Inverse of `rank`.
            #[inline]
            #[must_use]
            $vis fn unrank(rank: usize) -> Self {
                Self::from_fields(Self::LAYOUT.unrank(rank as u64))
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
        struct Hero { a1: u8 in 0..100, a2: u8 in 0..100, b1: u8 in 0..100, b2: u8 in 0..100, bob: bool in 0..2 }
    }

    crate::packed_key! {
        /// Test key with a signed field.
        struct Offset { delta: i32 in -3..4, index: usize in 1..21 }
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
    #[cfg(debug_assertions)]
    fn pack_checks_ranges_in_debug_builds() {
        let caught = std::panic::catch_unwind(|| MIXED.pack([100, 0, 1, 0]));
        let message = caught.expect_err("an out-of-range field must panic");
        let message = message.downcast_ref::<String>().expect("a formatted message");
        assert_eq!(message, "key field 0 = 100 is outside 0..100");
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
        }

        #[test]
        fn macro_struct_round_trips(a1 in 0u8..100, a2 in 0u8..100, b1 in 0u8..100,
                                     b2 in 0u8..100, bob: bool) {
            let h = Hero { a1, a2, b1, b2, bob };
            prop_assert_eq!(Hero::unpack(h.pack()), h);
            prop_assert_eq!(Hero::unrank(h.rank()), h);
        }

        #[test]
        fn signed_fields_round_trip(delta in -3i32..4, index in 1usize..21) {
            let o = Offset { delta, index };
            prop_assert_eq!(Offset::unpack(o.pack()), o);
            prop_assert_eq!(Offset::unrank(o.rank()), o);
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
