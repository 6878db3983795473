//! x86 / x86_64 kernels: SSSE3 (`pshufb`) and AVX2 (`vpshufb`) lane swaps,
//! and an AVX2 ASCII check. Callers must have detected the feature.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::scalar;

/// The `pshufb` control that reverses every `n`-byte lane of 16 bytes,
/// repeated twice so AVX2 (which shuffles each 16-byte half) can load it too.
const fn shuffle_mask(n: usize) -> [u8; 32] {
    let mut m = [0u8; 32];
    let mut k = 0;
    while k < 32 {
        let k16 = k % 16;
        m[k] = ((k16 / n) * n + (n - 1 - k16 % n)) as u8;
        k += 1;
    }
    m
}

/// [`shuffle_mask`] evaluated at compile time: building it at run time cost
/// more than swapping a short list (`reports/code-notes.md`).
struct Mask<const N: usize>;
impl<const N: usize> Mask<N> {
    const BYTES: [u8; 32] = shuffle_mask(N);
}

/// SSSE3 lane swap.
///
/// # Safety
/// The CPU must support SSSE3; `dst` must be valid for `src.len()` byte writes
/// and not overlap `src`; `src.len() % N == 0` with `N` in {2, 4, 8}.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn swap_ssse3<const N: usize>(src: &[u8], dst: *mut u8) {
    let mask_bytes = &Mask::<N>::BYTES;
    let len = src.len();
    let s = src.as_ptr();
    // SAFETY: `mask_bytes` has 32 readable bytes; unaligned loads are allowed.
    let mask = unsafe { _mm_loadu_si128(mask_bytes.as_ptr().cast()) };
    let mut i = 0;
    // Bounds (both loops): `i + 64` (resp. `i + 16`) `<= len`, so every load is
    // inside `src` and every store inside the `len` bytes the caller gave us.
    while i + 64 <= len {
        // SAFETY: `i + 64 <= len`, see above.
        unsafe {
            let a = _mm_loadu_si128(s.add(i).cast());
            let b = _mm_loadu_si128(s.add(i + 16).cast());
            let c = _mm_loadu_si128(s.add(i + 32).cast());
            let d = _mm_loadu_si128(s.add(i + 48).cast());
            _mm_storeu_si128(dst.add(i).cast(), _mm_shuffle_epi8(a, mask));
            _mm_storeu_si128(dst.add(i + 16).cast(), _mm_shuffle_epi8(b, mask));
            _mm_storeu_si128(dst.add(i + 32).cast(), _mm_shuffle_epi8(c, mask));
            _mm_storeu_si128(dst.add(i + 48).cast(), _mm_shuffle_epi8(d, mask));
        }
        i += 64;
    }
    while i + 16 <= len {
        // SAFETY: `i + 16 <= len`, see above.
        unsafe {
            let a = _mm_loadu_si128(s.add(i).cast());
            _mm_storeu_si128(dst.add(i).cast(), _mm_shuffle_epi8(a, mask));
        }
        i += 16;
    }
    // SAFETY: `i` is a multiple of 16, hence of `N`, so the tail is whole lanes
    // and `dst + i` has room for them.
    unsafe { scalar::swap::<N>(&src[i..], dst.add(i)) }
}

/// AVX2 lane swap.
///
/// # Safety
/// The CPU must support AVX2; otherwise as [`swap_ssse3`].
#[target_feature(enable = "avx2")]
pub(super) unsafe fn swap_avx2<const N: usize>(src: &[u8], dst: *mut u8) {
    let mask_bytes = &Mask::<N>::BYTES;
    let len = src.len();
    let s = src.as_ptr();
    // SAFETY: `mask_bytes` has 32 readable bytes; unaligned loads are allowed.
    let mask = unsafe { _mm256_loadu_si256(mask_bytes.as_ptr().cast()) };
    let mut i = 0;
    // Bounds (both loops): `i + 128` (resp. `i + 32`) `<= len`, so every load
    // is inside `src` and every store inside the caller's `len` bytes.
    while i + 128 <= len {
        // SAFETY: `i + 128 <= len`, see above.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + 32).cast());
            let c = _mm256_loadu_si256(s.add(i + 64).cast());
            let d = _mm256_loadu_si256(s.add(i + 96).cast());
            _mm256_storeu_si256(dst.add(i).cast(), _mm256_shuffle_epi8(a, mask));
            _mm256_storeu_si256(dst.add(i + 32).cast(), _mm256_shuffle_epi8(b, mask));
            _mm256_storeu_si256(dst.add(i + 64).cast(), _mm256_shuffle_epi8(c, mask));
            _mm256_storeu_si256(dst.add(i + 96).cast(), _mm256_shuffle_epi8(d, mask));
        }
        i += 128;
    }
    while i + 32 <= len {
        // SAFETY: `i + 32 <= len`, see above.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            _mm256_storeu_si256(dst.add(i).cast(), _mm256_shuffle_epi8(a, mask));
        }
        i += 32;
    }
    // SAFETY: `i` is a multiple of 32, hence of `N`, so the tail is whole lanes
    // and `dst + i` has room for them.
    unsafe { scalar::swap::<N>(&src[i..], dst.add(i)) }
}

/// AVX2 ASCII check, 128 bytes per step.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn is_ascii_avx2(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(128);
    for block in &mut blocks {
        let p = block.as_ptr();
        // SAFETY: `block` has exactly 128 readable bytes; loads are unaligned.
        let m = unsafe {
            let a = _mm256_loadu_si256(p.cast());
            let b = _mm256_loadu_si256(p.add(32).cast());
            let c = _mm256_loadu_si256(p.add(64).cast());
            let d = _mm256_loadu_si256(p.add(96).cast());
            _mm256_movemask_epi8(_mm256_or_si256(
                _mm256_or_si256(a, b),
                _mm256_or_si256(c, d),
            ))
        };
        if m != 0 {
            return false;
        }
    }
    let rest = blocks.remainder();
    let mut chunks = rest.chunks_exact(32);
    for c in &mut chunks {
        // SAFETY: `c` has exactly 32 readable bytes.
        if unsafe { _mm256_movemask_epi8(_mm256_loadu_si256(c.as_ptr().cast())) } != 0 {
            return false;
        }
    }
    chunks.remainder().is_ascii()
}
