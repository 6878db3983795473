//! Whether bytes are UTF-8 whose characters all lie in the Basic Multilingual
//! Plane: valid UTF-8 (`simdutf8`, or for short Latin text a bit-mask check
//! of our own, `two_byte_sse2`) with no 4-byte sequence (a byte scan of our
//! own). Such bytes are also valid MUTF-8 with the same meaning, so the MUTF-8
//! decoder borrows them as `str` after this one check.
//!
//! `simdutf8`'s dispatched entry point hands inputs under 64 bytes to std's
//! scalar validator, and most non-ASCII NBT strings are that short (item
//! names and lore lines of 17-63 bytes); the kernel it dispatches to takes any
//! length (it pads the tail to one 64-byte block), so with AVX2 detected we
//! call that kernel directly.

#[cfg(all(target_arch = "x86", target_feature = "sse2"))]
use std::arch::x86::*;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use std::arch::x86_64::*;

use super::{Kernel, best_kernel};

/// Whether `bytes` is valid UTF-8 without 4-byte sequences.
///
/// One pass over the bytes ([`classify`]) settles ASCII (true) and any
/// byte `F0` or above (false); only the rest is validated.
#[inline]
pub(crate) fn is_bmp_utf8(bytes: &[u8]) -> bool {
    is_bmp_utf8_on(best_kernel(), bytes)
}

/// [`is_bmp_utf8`] on `kernel` (one of `kernels::available`). Inputs of at
/// least 128 bytes get the dispatched ASCII kernel first, faster there than
/// the classifying pass.
#[inline]
pub(super) fn is_bmp_utf8_on(kernel: Kernel, bytes: &[u8]) -> bool {
    if bytes.len() >= super::ASCII_KERNEL_MIN && super::is_ascii_on(kernel, bytes) {
        return true;
    }
    match classify(bytes) {
        Class::Ascii => true,
        Class::FourByteLead => false,
        Class::Other => {
            #[cfg(all(
                any(target_arch = "x86", target_arch = "x86_64"),
                target_feature = "sse2"
            ))]
            if bytes.len() <= BLOCK {
                if let Some(valid) = two_byte_sse2(bytes) {
                    return valid;
                }
            }
            is_utf8_on(kernel, bytes)
        }
    }
}

/// Whether `bytes` (at most [`BLOCK`] long) is valid UTF-8, when every byte
/// is ASCII, a 2-byte lead (`C2`..=`DF`) or a continuation byte
/// (`80`..=`BF`): Latin text, and the `§` formatting codes of item names and
/// lore, most of the non-ASCII strings in real files. For such bytes, valid
/// UTF-8 is exactly "every lead is followed by a continuation byte and every
/// continuation byte follows a lead", checked here on bit masks (one bit per
/// byte) from 16-byte loads, all in registers. `simdutf8` pays the setup of
/// its general algorithm on a 64-byte block that a short input is first
/// copied into (and reads that block back with wide loads right after the
/// narrower stores that filled it, which likely stalls store forwarding): on
/// `hypixel.nbt` this check took its decode_all from 6.1× to 5.1× the
/// floor's time (`reports/perf.md`). `None` when some byte is `C0`, `C1` or
/// `E0` and above (3-byte sequences, MUTF-8's own forms, invalid bytes): the
/// general validation decides those.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
#[inline]
pub(super) fn two_byte_sse2(bytes: &[u8]) -> Option<bool> {
    let n = bytes.len();
    debug_assert!(n <= BLOCK);
    let (mut high, mut lead, mut cont) = (0u64, 0u64, 0u64);
    if n >= 16 {
        let p = bytes.as_ptr();
        let mut at = 0;
        loop {
            // SAFETY: the load reads 16 bytes at `at <= n - 16`, inside
            // `bytes`, unaligned.
            let masks = byte_masks(unsafe { _mm_loadu_si128(p.add(at).cast()) });
            // The bits of bytes that two loads overlap on are equal in
            // both, so OR-ing them in again is harmless.
            high |= u64::from(masks[0]) << at;
            cont |= u64::from(masks[1]) << at;
            lead |= u64::from(masks[2]) << at;
            if at == n - 16 {
                break;
            }
            at = (at + 16).min(n - 16);
        }
    } else if n >= 8 {
        // Bytes 0..8 in the low half, n-8..n in the high half.
        let word = |i: usize| i64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        // SAFETY: SSE2 is enabled at compile time.
        let masks = byte_masks(unsafe { _mm_set_epi64x(word(n - 8), word(0)) });
        let place = |m: u32| u64::from(m & 0xFF) | (u64::from(m >> 8) << (n - 8));
        (high, cont, lead) = (place(masks[0]), place(masks[1]), place(masks[2]));
    } else {
        // The bytes in a zero-extended word, by overlapping loads as in
        // `padded_block` (zeros are ASCII: they set no bit).
        let word = match n {
            4..=7 => {
                let at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
                u64::from(at(0)) | (u64::from(at(n - 4)) << ((n - 4) * 8))
            }
            1..=3 => {
                let at = |i: usize| u64::from(bytes[i]) << (i * 8);
                at(0) | at(n / 2) | at(n - 1)
            }
            _ => 0,
        };
        // SAFETY: SSE2 is enabled at compile time.
        let masks = byte_masks(unsafe { _mm_set_epi64x(0, word as i64) });
        (high, cont, lead) = (masks[0].into(), masks[1].into(), masks[2].into());
    }
    if high & !(lead | cont) != 0 {
        return None;
    }
    // A lead in the last byte (bit `n - 1`, the highest a mask can hold)
    // has no continuation; `lead << 1` would lose it when `n` is 64.
    Some(lead << 1 == cont && (n == 0 || lead >> (n - 1) == 0))
}

/// One bit per byte of `v`: whether it is not ASCII, a continuation byte,
/// a 2-byte lead (`C2`..=`DF`).
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
#[inline(always)]
fn byte_masks(v: __m128i) -> [u32; 3] {
    // SAFETY: SSE2 is enabled at compile time. As i8, continuation bytes
    // are -128..=-65 and 2-byte leads -62..=-33.
    unsafe {
        let cont = _mm_cmplt_epi8(v, _mm_set1_epi8(-64));
        let lead = _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8(-63)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(-32)),
        );
        [
            _mm_movemask_epi8(v) as u32,
            _mm_movemask_epi8(cont) as u32,
            _mm_movemask_epi8(lead) as u32,
        ]
    }
}

/// What one pass over the bytes found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// Every byte is below `80`.
    Ascii,
    /// Some byte is `F0` or above (a 4-byte sequence's lead in valid UTF-8,
    /// or a byte no UTF-8 has).
    FourByteLead,
    /// Neither: some byte is `80`..=`EF`.
    Other,
}

/// Classifies `bytes` by their largest byte, by 16-byte loads where SSE2 is
/// built in and eight bytes at a time otherwise.
#[inline]
pub(super) fn classify(bytes: &[u8]) -> Class {
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse2"
    ))]
    if bytes.len() >= 16 {
        return classify_sse2(bytes);
    }
    classify_swar(bytes)
}

/// Whether `bytes` is valid UTF-8, by `simdutf8` on `kernel`'s instruction set.
#[inline]
fn is_utf8_on(kernel: Kernel, bytes: &[u8]) -> bool {
    match kernel {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `kernel` is one of `kernels::available`, so only `Avx2`
        // when AVX2 was detected.
        Kernel::Avx2 => unsafe { is_utf8_avx2(bytes) },
        _ => simdutf8::basic::from_utf8(bytes).is_ok(),
    }
}

/// The length of `simdutf8`'s block: its kernel validates whole blocks
/// without the copy it makes of a shorter tail.
// Used by the x86 kernel, and on every target by the unit tests.
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
const BLOCK: usize = 64;

/// Whether `bytes` is valid UTF-8, by `simdutf8`'s AVX2 kernel. An input of
/// at most one block is first copied into a zeroed block by a few wide moves
/// (the kernel's own tail copy moves the last bytes one at a time): zeros are
/// ASCII, so the padded block is valid UTF-8 exactly when the input is (a
/// sequence cut short by the end meets a `00` where it needs a continuation
/// byte).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
unsafe fn is_utf8_avx2(bytes: &[u8]) -> bool {
    use simdutf8::basic::imp::x86::avx2::validate_utf8;
    if bytes.len() > BLOCK {
        // SAFETY: the caller guarantees AVX2, the one feature this kernel is
        // compiled for.
        return unsafe { validate_utf8(bytes) }.is_ok();
    }
    // SAFETY: as above.
    unsafe { validate_utf8(&padded_block(bytes)) }.is_ok()
}

/// `bytes` (at most [`BLOCK`] long) at the start of a zeroed block, copied
/// by overlapping moves of 16, 8 or 4 bytes (each writes input bytes to
/// their own offsets, so the overlap is harmless).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
#[inline]
pub(super) fn padded_block(bytes: &[u8]) -> [u8; BLOCK] {
    let n = bytes.len();
    debug_assert!(n <= BLOCK);
    let mut block = [0u8; BLOCK];
    if n >= 16 {
        let mut i = 0;
        while i + 16 < n {
            block[i..i + 16].copy_from_slice(&bytes[i..i + 16]);
            i += 16;
        }
        block[n - 16..n].copy_from_slice(&bytes[n - 16..]);
    } else if n >= 8 {
        block[..8].copy_from_slice(&bytes[..8]);
        block[n - 8..n].copy_from_slice(&bytes[n - 8..]);
    } else if n >= 4 {
        block[..4].copy_from_slice(&bytes[..4]);
        block[n - 4..n].copy_from_slice(&bytes[n - 4..]);
    } else {
        block[..n].copy_from_slice(bytes);
    }
    block
}

/// [`classify`] eight bytes at a time: a byte is `F0` or above when its
/// four high bits are set, and shifting a word left by 1..=3 moves bits
/// 6..=4 of each byte to bit 7 of the same byte (never across bytes).
#[inline]
pub(super) fn classify_swar(bytes: &[u8]) -> Class {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = bytes.len();
    let (high, lead) = if n < 8 {
        let (mut high, mut lead) = (false, false);
        for &b in bytes {
            high |= b >= 0x80;
            lead |= b >= 0xF0;
        }
        (high, lead)
    } else {
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        let lead = |w: u64| w & (w << 1) & (w << 2) & (w << 3);
        let last = word(n - 8);
        let (mut high, mut leads) = (last, lead(last));
        let mut i = 0;
        while i + 8 < n {
            let w = word(i);
            high |= w;
            leads |= lead(w);
            i += 8;
        }
        (high & HIGH != 0, leads & HIGH != 0)
    };
    match (high, lead) {
        (false, _) => Class::Ascii,
        (true, true) => Class::FourByteLead,
        (true, false) => Class::Other,
    }
}

/// [`classify`] by 16-byte loads, the last overlapping the one before it
/// (`bytes.len() >= 16`): the unsigned maximum of all bytes decides. SSE2 is
/// part of every x86_64 CPU and of the x86 targets built with it, so this
/// needs no run-time detection.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
#[inline]
fn classify_sse2(bytes: &[u8]) -> Class {
    let n = bytes.len();
    debug_assert!(n >= 16);
    let p = bytes.as_ptr();
    // SAFETY: every load reads 16 bytes at an offset `i <= n - 16`, inside
    // `bytes`; the loads are unaligned; SSE2 is enabled at compile time.
    unsafe {
        let mut max = _mm_loadu_si128(p.add(n - 16).cast());
        let mut i = 0;
        while i + 16 < n {
            max = _mm_max_epu8(max, _mm_loadu_si128(p.add(i).cast()));
            i += 16;
        }
        if _mm_movemask_epi8(max) == 0 {
            return Class::Ascii;
        }
        // The maximum is at least F0 exactly when max(max, F0) == max.
        let floor = _mm_set1_epi8(0xF0u8 as i8);
        if _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(max, floor), max)) != 0 {
            Class::FourByteLead
        } else {
            Class::Other
        }
    }
}
