//! Portable kernels, used when no SIMD kernel is available and for the tails
//! of the SIMD loops.

/// Writes `src` to `dst` with the bytes of every `N`-byte lane reversed.
///
/// # Safety
/// `dst` must be valid for `src.len()` byte writes and must not overlap `src`;
/// `src.len()` must be a multiple of `N` (`N` is 2, 4 or 8).
#[inline]
pub(super) unsafe fn swap<const N: usize>(src: &[u8], dst: *mut u8) {
    debug_assert!(src.len() % N == 0);
    for (i, lane) in src.chunks_exact(N).enumerate() {
        // SAFETY: lane `i` ends at `(i + 1) * N <= src.len()`, which the caller
        // guarantees `dst` can hold; unaligned writes are allowed.
        unsafe {
            let d = dst.add(i * N);
            match N {
                2 => d
                    .cast::<u16>()
                    .write_unaligned(u16::from_ne_bytes([lane[1], lane[0]])),
                4 => d.cast::<u32>().write_unaligned(
                    u32::from_ne_bytes([lane[0], lane[1], lane[2], lane[3]]).swap_bytes(),
                ),
                8 => d.cast::<u64>().write_unaligned(
                    u64::from_ne_bytes([
                        lane[0], lane[1], lane[2], lane[3], lane[4], lane[5], lane[6], lane[7],
                    ])
                    .swap_bytes(),
                ),
                _ => unreachable!("unsupported lane size"),
            }
        }
    }
}
