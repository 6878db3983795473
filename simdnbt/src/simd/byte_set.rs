//! Finding the first byte of a small set (every byte below a bound, and up
//! to a few more values): 16 bytes per step with SSE2, which every x86_64
//! CPU has, so no dispatch; a table lookup per byte elsewhere and below
//! 16 bytes.
//!
//! The SNBT printer uses it to find the next byte of a string that it cannot
//! copy as it is (`snbt::string`), so that the runs between are copied in one
//! piece.

/// Every byte below `below`, and the bytes in `needles`.
// `max_low` and `needles` are read by the SSE2 search only.
#[cfg_attr(
    not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    )),
    allow(dead_code)
)]
pub(crate) struct ByteSet<const N: usize> {
    /// `below - 1`: a byte `b` is below the bound when `min(b, max_low) == b`.
    max_low: u8,
    needles: [u8; N],
    /// The same set as a table, for the scalar loop.
    table: [bool; 256],
}

impl<const N: usize> ByteSet<N> {
    /// The set of every byte below `below` (at least 1) and every byte of
    /// `needles`.
    pub(crate) const fn new(below: u8, needles: [u8; N]) -> ByteSet<N> {
        assert!(below >= 1, "the bound must be at least 1");
        let mut table = [false; 256];
        let mut b = 0;
        while b < below as usize {
            table[b] = true;
            b += 1;
        }
        let mut k = 0;
        while k < N {
            table[needles[k] as usize] = true;
            k += 1;
        }
        ByteSet {
            max_low: below - 1,
            needles,
            table,
        }
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.table[b as usize]
    }

    /// The index of the first byte of the set in `bytes[from..]`, or
    /// `bytes.len()` if there is none. `from` is at most `bytes.len()`.
    #[inline(always)]
    pub(crate) fn find(&self, bytes: &[u8], from: usize) -> usize {
        debug_assert!(from <= bytes.len());
        #[cfg(all(
            any(target_arch = "x86", target_arch = "x86_64"),
            target_feature = "sse2"
        ))]
        if bytes.len() >= 16 {
            return self.find_sse2(bytes, from);
        }
        self.find_scalar(bytes, from)
    }

    #[inline(always)]
    fn find_scalar(&self, bytes: &[u8], from: usize) -> usize {
        let mut i = from;
        while i < bytes.len() && !self.contains(bytes[i]) {
            i += 1;
        }
        i
    }

    /// [`find`](Self::find) for `bytes.len() >= 16`: whole blocks from
    /// `from`, then one last block that ends at the end of `bytes` and
    /// overlaps what was scanned (its bits before `from` are shifted out).
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    #[inline(always)]
    fn find_sse2(&self, bytes: &[u8], from: usize) -> usize {
        let len = bytes.len();
        debug_assert!(len >= 16);
        let mut i = from;
        while i + 16 <= len {
            // SAFETY: `i + 16 <= len`: the block is inside `bytes`.
            let m = unsafe { self.block_sse2(bytes.as_ptr().add(i)) };
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i == len {
            return len;
        }
        let start = len - 16;
        // SAFETY: `start + 16 == len`, and `len >= 16` (the caller's check).
        let m = unsafe { self.block_sse2(bytes.as_ptr().add(start)) } >> (i - start);
        if m != 0 {
            i + m.trailing_zeros() as usize
        } else {
            len
        }
    }

    /// Bit `k` set when byte `k` of the 16 at `p` is in the set.
    ///
    /// # Safety
    /// `p` must be valid for reading 16 bytes.
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    #[inline(always)]
    unsafe fn block_sse2(&self, p: *const u8) -> u32 {
        #[cfg(target_arch = "x86")]
        use std::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees 16 readable bytes at `p` (the load is
        // unaligned); SSE2 is enabled at compile time (the `cfg` above).
        unsafe {
            let v = _mm_loadu_si128(p.cast());
            let low = _mm_set1_epi8(self.max_low as i8);
            let mut hit = _mm_cmpeq_epi8(_mm_min_epu8(v, low), v);
            for &n in &self.needles {
                hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(n as i8)));
            }
            _mm_movemask_epi8(hit) as u32
        }
    }
}
