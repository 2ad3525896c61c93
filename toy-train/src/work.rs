//! Deterministic work counters: what a solver did, in units that do not depend on the machine,
//! so that solvers can be compared (and searched for bad inputs) without timing them.
//!
//! One unit is one station visited or one entry of an adjacency list read; an operation on a
//! binary heap of `k` entries counts `⌈log₂(k + 1)⌉` units, about the entries it moves. The
//! counts track wall time within a small factor (the units are all one or two memory
//! accesses), which is what makes them useful for budgets and adversarial searches.

/// Something that counts work units. The reference solver takes one as a type parameter, so
/// that its ordinary build (with [`NoMeter`]) carries no counting at all.
pub(crate) trait Meter {
    /// Adds `units` of work.
    fn add(&mut self, units: usize);
}

/// The meter that counts nothing: compiles away.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoMeter;

impl Meter for NoMeter {
    #[inline(always)]
    fn add(&mut self, _units: usize) {}
}

/// A meter that adds everything up (the classic solver's, for xtask's adversary search and
/// the tests).
#[cfg(feature = "internals")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Work(pub u64);

#[cfg(feature = "internals")]
impl Meter for Work {
    #[inline(always)]
    fn add(&mut self, units: usize) {
        self.0 += units as u64;
    }
}

/// The units charged for one push or pop on a binary heap holding `len` entries.
#[inline]
#[must_use]
pub(crate) fn heap_op(len: usize) -> usize {
    (usize::BITS - len.leading_zeros()) as usize
}
