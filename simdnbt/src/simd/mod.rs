//! Big-endian array kernels, an ASCII check, and a search for the first byte
//! of a small set (`ByteSet`, SSE2 on x86 without dispatch: see its file).
//!
//! NBT stores every number big-endian, while nearly every host is
//! little-endian, so reading an `IntArray` or a `List<Long>` is one long
//! byte-swap per lane. This module does that swap with SIMD where the CPU has
//! it and a portable scalar loop otherwise:
//!
//! | kernel   | where                            | lane swap        | `is_ascii` (>= 128 B) |
//! |----------|----------------------------------|------------------|-----------------------|
//! | `Avx2`   | x86/x86_64, detected at run time | `vpshufb` (32 B) | `vpmovmskb` (128 B/step) |
//! | `Ssse3`  | x86/x86_64, detected at run time | `pshufb` (16 B)  | std                   |
//! | `Neon`   | aarch64                          | `vrev16/32/64`   | `umaxv` (64 B/step)   |
//! | `Scalar` | everywhere                       | `swap_bytes`     | std                   |
//!
//! For `is_ascii`, std's `<[u8]>::is_ascii` (word at a time, inlined) was
//! measured faster than a dispatched call below 128 bytes and as fast as an
//! SSE2 kernel at every size, so it is used there; only AVX2 (faster than
//! std on long inputs, `reports/code-notes.md`) and NEON have their own
//! kernel.
//!
//! The best kernel is detected once and cached in an atomic, like `memchr` does,
//! so every call after the first costs one relaxed load and a predictable
//! branch. Inputs may start at any address; outputs are written straight into
//! the spare capacity of the destination `Vec` (no zero-fill first).
//!
//! On a big-endian host the conversions are plain copies.

use std::sync::atomic::{AtomicU8, Ordering};

mod bmp_utf8;
// Its one user is the SNBT printer.
#[cfg(feature = "snbt")]
mod byte_set;
mod scalar;

pub(crate) use bmp_utf8::is_bmp_utf8;
#[cfg(feature = "snbt")]
pub(crate) use byte_set::ByteSet;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86;

#[cfg(target_arch = "aarch64")]
mod aarch64;

mod sealed {
    pub trait Sealed {}
}

/// A number NBT stores big-endian in arrays and lists: `i16`, `i32`, `i64`,
/// `f32` and `f64`.
///
/// This trait is sealed; it cannot be implemented outside this crate. Every
/// implementor is a plain number whose every bit pattern is a valid value, so
/// the kernels may write its bytes directly.
pub trait BeNumber: Copy + sealed::Sealed + 'static {
    /// Size in bytes.
    const SIZE: usize;
    /// Decodes one value from exactly `Self::SIZE` big-endian bytes.
    ///
    /// # Panics
    /// If `bytes.len() != Self::SIZE`.
    fn from_be_slice(bytes: &[u8]) -> Self;
    /// Appends the big-endian bytes of `self`.
    fn push_be(self, out: &mut Vec<u8>);
}

macro_rules! be_number {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl BeNumber for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn from_be_slice(bytes: &[u8]) -> Self {
                <$t>::from_be_bytes(bytes.try_into().expect("slice length must equal Self::SIZE"))
            }
            #[inline]
            fn push_be(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_be_bytes());
            }
        }
    )*};
}
be_number!(i16, i32, i64, f32, f64);

/// Decodes big-endian `bytes` into native numbers.
///
/// Floats keep their exact bit patterns (NaN payloads, `-0.0`).
///
/// # Panics
/// If `bytes.len()` is not a multiple of `T::SIZE`.
///
/// # Examples
/// ```
/// let v: Vec<i32> = simdnbt::simd::from_be_bytes(&[0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE]);
/// assert_eq!(v, [1, -2]);
/// ```
pub fn from_be_bytes<T: BeNumber>(bytes: &[u8]) -> Vec<T> {
    from_be_bytes_on(best_kernel(), bytes)
}

/// Appends `values` to `out` as big-endian bytes.
///
/// # Examples
/// ```
/// let mut out = vec![7u8];
/// simdnbt::simd::extend_be_bytes(&mut out, &[1i16, -2]);
/// assert_eq!(out, [7, 0, 1, 0xFF, 0xFE]);
/// ```
pub fn extend_be_bytes<T: BeNumber>(out: &mut Vec<u8>, values: &[T]) {
    extend_be_bytes_on(best_kernel(), out, values)
}

/// Whether every byte is below `0x80`.
///
/// Used by the MUTF-8 fast path: ASCII bytes mean the same in MUTF-8 and
/// UTF-8, so such a string can be borrowed as `str` without a copy.
///
/// # Examples
/// ```
/// assert!(simdnbt::simd::is_ascii(b"minecraft:stone"));
/// assert!(!simdnbt::simd::is_ascii("Straße".as_bytes()));
/// ```
#[inline]
pub fn is_ascii(bytes: &[u8]) -> bool {
    // Most NBT strings are short: skip the dispatch for them.
    if bytes.len() < ASCII_KERNEL_MIN {
        return bytes.is_ascii();
    }
    is_ascii_on(best_kernel(), bytes)
}

/// Below this length `is_ascii` uses std's inlined word-at-a-time check.
const ASCII_KERNEL_MIN: usize = 128;

/// Appends `src`, a sequence of `lane`-byte numbers, to `out` with the bytes of
/// every lane reversed, whatever the host's endianness. Used to turn
/// big-endian data into little-endian bytes.
///
/// # Panics
/// If `lane` is not 2, 4 or 8, or `src.len()` is not a multiple of `lane`.
pub(crate) fn extend_swapped(lane: usize, out: &mut Vec<u8>, src: &[u8]) {
    let kernel = best_kernel();
    assert!(
        src.len() % lane == 0,
        "length is not a multiple of the lane size"
    );
    out.reserve(src.len());
    let old = out.len();
    // SAFETY: `reserve` made room for `src.len()` bytes after `old`; the
    // destination is fresh capacity, so it cannot overlap `src`.
    unsafe { swap_lanes(kernel, lane, src, out.as_mut_ptr().add(old)) };
    // SAFETY: the kernel initialised exactly `src.len()` bytes after `old`.
    unsafe { out.set_len(old + src.len()) };
}

// ---------------------------------------------------------------------------
// Dispatch

/// One implementation of the kernels. Only those in [`kernels::available`]
/// may be run.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Portable code, always available.
    Scalar,
    /// x86 SSSE3 (`pshufb`); `is_ascii` uses std's.
    Ssse3,
    /// x86 AVX2.
    Avx2,
    /// aarch64 NEON.
    Neon,
}

const UNKNOWN: u8 = 0;
static BEST: AtomicU8 = AtomicU8::new(UNKNOWN);

fn kernel_from_u8(v: u8) -> Option<Kernel> {
    Some(match v {
        1 => Kernel::Scalar,
        2 => Kernel::Ssse3,
        3 => Kernel::Avx2,
        4 => Kernel::Neon,
        _ => return None,
    })
}

fn kernel_to_u8(p: Kernel) -> u8 {
    match p {
        Kernel::Scalar => 1,
        Kernel::Ssse3 => 2,
        Kernel::Avx2 => 3,
        Kernel::Neon => 4,
    }
}

#[inline]
fn best_kernel() -> Kernel {
    match kernel_from_u8(BEST.load(Ordering::Relaxed)) {
        Some(p) => p,
        None => detect(),
    }
}

#[cold]
fn detect() -> Kernel {
    let p = *kernels::available().last().unwrap_or(&Kernel::Scalar);
    BEST.store(kernel_to_u8(p), Ordering::Relaxed);
    p
}

fn from_be_bytes_on<T: BeNumber>(kernel: Kernel, bytes: &[u8]) -> Vec<T> {
    assert!(
        bytes.len() % T::SIZE == 0,
        "length is not a multiple of the element size"
    );
    let n = bytes.len() / T::SIZE;
    let mut v = Vec::<T>::with_capacity(n);
    let dst = v.as_mut_ptr().cast::<u8>();
    if cfg!(target_endian = "big") {
        // SAFETY: `v` has capacity for `n * T::SIZE == bytes.len()` bytes and
        // is a fresh allocation, so it does not overlap `bytes`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
    } else {
        // SAFETY: as above; `bytes.len()` is a multiple of the lane size.
        unsafe { swap_lanes(kernel, T::SIZE, bytes, dst) };
    }
    // SAFETY: all `n` elements were written byte by byte, and every bit
    // pattern is a valid `T` (sealed trait, implemented only for numbers).
    unsafe { v.set_len(n) };
    v
}

fn extend_be_bytes_on<T: BeNumber>(kernel: Kernel, out: &mut Vec<u8>, values: &[T]) {
    let len = std::mem::size_of_val(values);
    // SAFETY: `T` is a number without padding, so its storage is `len`
    // initialised bytes, valid for as long as `values` is borrowed.
    let src = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), len) };
    out.reserve(len);
    let old = out.len();
    // SAFETY: `reserve` made room for `len` bytes after `old`.
    let dst = unsafe { out.as_mut_ptr().add(old) };
    if cfg!(target_endian = "big") {
        // SAFETY: `dst` is fresh capacity for `len` bytes, disjoint from `src`.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst, len) };
    } else {
        // SAFETY: as above; `len` is a multiple of the lane size.
        unsafe { swap_lanes(kernel, T::SIZE, src, dst) };
    }
    // SAFETY: exactly `len` bytes after `old` were initialised.
    unsafe { out.set_len(old + len) };
}

/// Writes `src` to `dst` with every `lane`-byte group reversed.
///
/// # Safety
/// `dst` must be valid for `src.len()` byte writes and must not overlap `src`;
/// `kernel` must be one of [`kernels::available`].
/// # Panics
/// If `lane` is not 2, 4 or 8 or `src.len() % lane != 0`.
unsafe fn swap_lanes(kernel: Kernel, lane: usize, src: &[u8], dst: *mut u8) {
    assert!(
        src.len() % lane == 0,
        "length is not a multiple of the lane size"
    );
    macro_rules! go {
        ($n:literal) => {
            match kernel {
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the caller guarantees `dst` and that SSSE3 was detected.
                Kernel::Ssse3 => unsafe { x86::swap_ssse3::<$n>(src, dst) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the caller guarantees `dst` and that AVX2 was detected.
                Kernel::Avx2 => unsafe { x86::swap_avx2::<$n>(src, dst) },
                #[cfg(target_arch = "aarch64")]
                // SAFETY: the caller guarantees `dst` and that NEON was detected.
                Kernel::Neon => unsafe { aarch64::swap_neon::<$n>(src, dst) },
                // SAFETY: the caller guarantees `dst`.
                _ => unsafe { scalar::swap::<$n>(src, dst) },
            }
        };
    }
    match lane {
        2 => go!(2),
        4 => go!(4),
        8 => go!(8),
        _ => panic!("unsupported lane size {lane}"),
    }
}

fn is_ascii_on(kernel: Kernel, bytes: &[u8]) -> bool {
    match kernel {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `kernel` is only `Avx2` when AVX2 was detected.
        Kernel::Avx2 if bytes.len() >= ASCII_KERNEL_MIN => unsafe { x86::is_ascii_avx2(bytes) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: `kernel` is only `Neon` when NEON was detected.
        Kernel::Neon if bytes.len() >= ASCII_KERNEL_MIN => unsafe { aarch64::is_ascii_neon(bytes) },
        _ => bytes.is_ascii(),
    }
}

/// Runs a specific kernel implementation, for tests and benchmarks. Not part
/// of the stable API.
#[doc(hidden)]
pub mod kernels {
    pub use super::Kernel;
    use super::{BeNumber, Kernel::*};

    /// Every kernel this CPU can run, slowest first (the last is the one the
    /// public functions use).
    pub fn available() -> Vec<Kernel> {
        [Scalar, Ssse3, Avx2, Neon]
            .into_iter()
            .filter(|&p| is_available(p))
            .collect()
    }

    /// Whether this CPU can run `kernel` (no allocation; std caches detection).
    pub fn is_available(kernel: Kernel) -> bool {
        match kernel {
            Scalar => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Ssse3 => std::arch::is_x86_feature_detected!("ssse3"),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "aarch64")]
            Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The kernel the public functions use.
    pub fn best() -> Kernel {
        super::best_kernel()
    }

    fn check(kernel: Kernel) {
        assert!(
            available().contains(&kernel),
            "{kernel:?} is not available on this CPU"
        );
    }

    /// [`super::from_be_bytes`] on a chosen kernel.
    ///
    /// # Panics
    /// If `kernel` is not available on this CPU.
    pub fn from_be_bytes<T: BeNumber>(kernel: Kernel, bytes: &[u8]) -> Vec<T> {
        check(kernel);
        super::from_be_bytes_on(kernel, bytes)
    }

    /// [`super::extend_be_bytes`] on a chosen kernel.
    ///
    /// # Panics
    /// If `kernel` is not available on this CPU.
    pub fn extend_be_bytes<T: BeNumber>(kernel: Kernel, out: &mut Vec<u8>, values: &[T]) {
        check(kernel);
        super::extend_be_bytes_on(kernel, out, values)
    }

    /// [`super::is_ascii`] on a chosen kernel.
    ///
    /// # Panics
    /// If `kernel` is not available on this CPU.
    pub fn is_ascii(kernel: Kernel, bytes: &[u8]) -> bool {
        check(kernel);
        super::is_ascii_on(kernel, bytes)
    }
}

#[cfg(test)]
pub(crate) mod tests;
