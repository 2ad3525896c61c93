//! Large buffers on transparent huge pages: zeroed `f64` tables aligned to a huge page
//! ([`HugeZeroed`]), and advice for any buffer not yet touched ([`advise_huge_pages`]).
//!
//! A table of many megabytes read at scattered places misses the TLB on nearly every read
//! with 4 KiB pages (a core's second-level TLB covers a few megabytes), and faulting a buffer
//! in costs one kernel entry per 4 KiB, entries that threads faulting in the same process at
//! once partly wait on each other for. Where the kernel offers transparent huge pages only on
//! request (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`, a common default),
//! asking for them makes each 2 MiB one TLB entry and one fault. card-duel's sweep keeps its
//! layers and its value table this way, and the driver its big buffers (the input, the cases,
//! the answers, the output); see card-duel's README for what it saves.
#![allow(unsafe_code, reason = "madvise has no safe std form")]

use std::ops::{Deref, DerefMut};

/// A huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 1 << 21;

/// A zeroed `[f64]` of a fixed length whose whole huge pages are advised to the kernel as
/// huge-page memory (a no-op where that does not exist). It derefs to its slice.
#[derive(Debug, Default)]
pub struct HugeZeroed {
    /// The allocation: the table plus room to align its start to a huge page.
    buffer: Vec<f64>,
    /// Where the table starts in `buffer`.
    start: usize,
    len: usize,
}

impl HugeZeroed {
    /// `len` zeros. Tables of at least one huge page start on a huge-page boundary (the
    /// allocation is up to 2 MiB longer), so every whole huge page of the table can be one.
    /// `O(1)` beyond the allocation: the pages are zeroed by the kernel when first touched.
    #[must_use]
    pub fn new(len: usize) -> HugeZeroed {
        let bytes = len * size_of::<f64>();
        if bytes < HUGE_PAGE {
            return HugeZeroed { buffer: vec![0.0; len], start: 0, len };
        }
        let slack = HUGE_PAGE / size_of::<f64>();
        let buffer = vec![0.0; len + slack];
        let address = buffer.as_ptr() as usize;
        let start = (address.next_multiple_of(HUGE_PAGE) - address) / size_of::<f64>();
        assert!(start <= slack, "an aligned start lies within the slack");
        advise_huge(&buffer[start..start + len]);
        HugeZeroed { buffer, start, len }
    }
}

impl Deref for HugeZeroed {
    type Target = [f64];

    fn deref(&self) -> &[f64] {
        &self.buffer[self.start..self.start + self.len]
    }
}

impl DerefMut for HugeZeroed {
    fn deref_mut(&mut self) -> &mut [f64] {
        &mut self.buffer[self.start..self.start + self.len]
    }
}

/// Asks the kernel to back the whole huge pages of `region` with huge pages; meant for memory
/// not yet touched (a fresh zeroed allocation, a vector's spare capacity), since pages already
/// faulted in stay as they are until the kernel merges them. Regions shorter than two huge
/// pages are left alone: they hold at most one whole huge page. Advice only: a kernel that
/// refuses (or has none) leaves the memory as it was. `O(1)`.
pub fn advise_huge_pages<T>(region: &[T]) {
    if size_of_val(region) < 2 * HUGE_PAGE {
        return;
    }
    advise_huge(region);
}

/// [`advise_huge_pages`] for any length.
fn advise_huge<T>(region: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let start = region.as_ptr() as usize;
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = (start + size_of_val(region)) / HUGE_PAGE * HUGE_PAGE;
        if last > first {
            // SAFETY: the range lies within `region`'s allocation, and MADV_HUGEPAGE changes
            // how the pages are backed, never their contents. Its result is ignored on
            // purpose: refused advice leaves ordinary pages.
            unsafe {
                libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = region;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_of_the_length_asked_and_aligned_when_large() {
        for len in [0, 1, 1000, HUGE_PAGE / 8 - 1, HUGE_PAGE / 8, 3 * HUGE_PAGE / 8 + 5] {
            let mut table = HugeZeroed::new(len);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|&x| x == 0.0));
            if len * 8 >= HUGE_PAGE {
                assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0, "len {len}");
            }
            if let Some(last) = table.last_mut() {
                *last = 1.0;
            }
            assert_eq!(table.iter().sum::<f64>(), if len > 0 { 1.0 } else { 0.0 });
        }
    }
}
