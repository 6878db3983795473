//! aarch64 NEON kernels (`vrev16q/32q/64q_u8`, `vmaxvq_u8`).

use std::arch::aarch64::*;

use super::scalar;

/// NEON lane swap.
///
/// # Safety
/// The CPU must support NEON; `dst` must be valid for `src.len()` byte writes
/// and not overlap `src`; `src.len() % N == 0` with `N` in {2, 4, 8}.
#[target_feature(enable = "neon")]
pub(super) unsafe fn swap_neon<const N: usize>(src: &[u8], dst: *mut u8) {
    let len = src.len();
    let s = src.as_ptr();
    let mut i = 0;
    while i + 16 <= len {
        // SAFETY: `i + 16 <= len`: the load is inside `src`, the store inside
        // the caller's `len` bytes; NEON loads/stores need no alignment.
        unsafe {
            let v = vld1q_u8(s.add(i));
            let r = match N {
                2 => vrev16q_u8(v),
                4 => vrev32q_u8(v),
                _ => vrev64q_u8(v),
            };
            vst1q_u8(dst.add(i), r);
        }
        i += 16;
    }
    // SAFETY: `i` is a multiple of 16, hence of `N`: the tail is whole lanes.
    unsafe { scalar::swap::<N>(&src[i..], dst.add(i)) }
}

/// NEON ASCII check, 64 bytes per step.
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(super) unsafe fn is_ascii_neon(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        let p = block.as_ptr();
        // SAFETY: `block` has exactly 64 readable bytes.
        let max = unsafe {
            let a = vld1q_u8(p);
            let b = vld1q_u8(p.add(16));
            let c = vld1q_u8(p.add(32));
            let d = vld1q_u8(p.add(48));
            vmaxvq_u8(vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d)))
        };
        if max >= 0x80 {
            return false;
        }
    }
    blocks.remainder().is_ascii()
}
