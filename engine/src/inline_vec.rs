//! A vector of at most `N` small `Copy` items kept inline: move lists and minion rows that
//! solvers copy by value millions of times without touching the heap.

use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// Up to `N` items in an array with a length, read as a slice.
///
/// Equality, hashing and `Debug` look at the live items only, so two vectors holding the same
/// items are equal whatever their spare slots once held. Every operation is `O(1)` except
/// [`InlineVec::remove`], `O(len)`. Space: `N` items and one byte.
///
/// ```
/// use engine::InlineVec;
/// let mut v: InlineVec<u8, 4> = [3, 1, 4].into_iter().collect();
/// v.push(1);
/// assert_eq!(v.remove(1), 1);
/// assert_eq!(&v[..], &[3, 4, 1]);
/// assert!(v.is_full() == false && v.len() == 3);
/// ```
#[derive(Clone, Copy)]
pub struct InlineVec<T, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> InlineVec<T, N> {
    /// Capacity checked at compile time: the length is stored in one byte.
    const CAPACITY: usize = {
        assert!(N <= u8::MAX as usize, "an InlineVec holds at most 255 items");
        N
    };

    /// An empty vector.
    #[must_use]
    pub fn new() -> Self {
        Self { len: 0, items: [T::default(); N] }
    }

    /// Whether it holds `N` items.
    #[must_use]
    pub fn is_full(&self) -> bool {
        usize::from(self.len) == Self::CAPACITY
    }

    /// Appends `item`.
    ///
    /// # Panics
    /// When the vector is full: a caller's bound on its item count is wrong.
    #[inline]
    pub fn push(&mut self, item: T) {
        assert!(!self.is_full(), "InlineVec of capacity {N} is full");
        self.items[usize::from(self.len)] = item;
        self.len += 1;
    }

    /// Removes and returns item `i`, shifting the later items down. `O(len)`.
    ///
    /// # Panics
    /// When `i` is not below the length.
    pub fn remove(&mut self, i: usize) -> T {
        let len = usize::from(self.len);
        assert!(i < len, "index {i} is not below the length {len}");
        let item = self.items[i];
        self.items.copy_within(i + 1..len, i);
        self.len -= 1;
        // The spare slot goes back to the default so the array never holds stale items.
        self.items[len - 1] = T::default();
        item
    }
}

impl<T: Copy + Default, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<T, const N: usize> DerefMut for InlineVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for InlineVec<T, N> {
    /// Collects at most `N` items.
    ///
    /// # Panics
    /// When the iterator yields more than `N` items.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        for item in iter {
            v.push(item);
        }
        v
    }
}

impl<T: Copy, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Hash, const N: usize> Hash for InlineVec<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: std::fmt::Debug, const N: usize> std::fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn behaves_like_a_vec(ops in proptest::collection::vec((any::<bool>(), 0u8..10), 0..40)) {
            let mut v: InlineVec<u8, 6> = InlineVec::new();
            let mut model: Vec<u8> = Vec::new();
            for (push, x) in ops {
                if push && model.len() < 6 {
                    v.push(x);
                    model.push(x);
                } else if !model.is_empty() {
                    let i = usize::from(x) % model.len();
                    prop_assert_eq!(v.remove(i), model.remove(i));
                }
                prop_assert_eq!(&v[..], &model[..]);
                prop_assert_eq!(v.is_full(), model.len() == 6);
                let rebuilt: InlineVec<u8, 6> = model.iter().copied().collect();
                prop_assert_eq!(rebuilt, v);
                prop_assert_eq!(v.into_iter().collect::<Vec<_>>(), model.clone());
            }
        }
    }

    #[test]
    fn equal_items_hash_alike_whatever_was_removed() {
        use std::hash::BuildHasher;
        let hasher = std::collections::hash_map::RandomState::new();
        let mut a: InlineVec<u8, 4> = [1, 2, 9].into_iter().collect();
        a.remove(2);
        let b: InlineVec<u8, 4> = [1, 2].into_iter().collect();
        assert_eq!(a, b);
        assert_eq!(hasher.hash_one(a), hasher.hash_one(b));
        assert_eq!(format!("{a:?}"), "[1, 2]");
    }
}
