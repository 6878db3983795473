//! Big-endian number arrays to native ones, under upstream simdnbt 0.10's names.
//!
//! NBT stores the elements of number lists and arrays big-endian. These turn
//! such bytes into native-endian numbers (or bytes) with the same SIMD kernels
//! the readers use ([`crate::simd`]); on a big-endian host they only copy.
//!
//! ```
//! use simdnbt::swap_endianness::{swap_endianness, swap_endianness_as_u8};
//!
//! let be = [0x00, 0x00, 0x01, 0x02, 0xff, 0xff, 0xff, 0xfe];
//! assert_eq!(swap_endianness::<i32>(&be), [0x0102, -2]);
//! assert_eq!(swap_endianness::<u32>(&be), [0x0102, 0xffff_fffe]);
//! assert_eq!(
//!     swap_endianness_as_u8::<u32>(&be),
//!     [0x0102u32, 0xffff_fffe].iter().flat_map(|v| v.to_ne_bytes()).collect::<Vec<u8>>()
//! );
//! ```

use crate::simd;

mod sealed {
    pub trait Sealed: Copy {
        /// Decodes whole big-endian elements (the length is a multiple of the size).
        fn from_be(data: &[u8]) -> Vec<Self>;
    }
}

/// The element types these functions handle: `u16`, `u32`, `u64`, `i16`,
/// `i32`, `i64`, `f32` and `f64`. Sealed: implemented for exactly those.
pub trait SwappableNumber: sealed::Sealed {}

impl<T: sealed::Sealed> SwappableNumber for T {}

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {
            fn from_be(data: &[u8]) -> Vec<Self> {
                simd::from_be_bytes(data)
            }
        }
    )*};
}
signed!(i16, i32, i64, f32, f64);

macro_rules! unsigned {
    ($($t:ty => $signed:ty),*) => {$(
        impl sealed::Sealed for $t {
            fn from_be(data: &[u8]) -> Vec<Self> {
                // Same width: the cast keeps the bits, and collecting reuses
                // the allocation.
                simd::from_be_bytes::<$signed>(data).into_iter().map(|v| v as $t).collect()
            }
        }
    )*};
}
unsigned!(u16 => i16, u32 => i32, u64 => i64);

/// The native-endian bytes of `data`'s big-endian `T`s. Trailing bytes that do
/// not make a whole element are copied unchanged.
pub fn swap_endianness_as_u8<T: SwappableNumber>(data: &[u8]) -> Vec<u8> {
    let size = std::mem::size_of::<T>();
    let whole = data.len() - data.len() % size;
    let mut out = Vec::with_capacity(data.len());
    if cfg!(target_endian = "little") {
        simd::extend_swapped(size, &mut out, &data[..whole]);
    } else {
        out.extend_from_slice(&data[..whole]);
    }
    out.extend_from_slice(&data[whole..]);
    out
}

/// `data`'s big-endian `T`s as native numbers.
///
/// # Panics
///
/// If `data.len()` is not a multiple of `T`'s size (as upstream simdnbt).
pub fn swap_endianness<T: SwappableNumber>(data: &[u8]) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    assert!(
        data.len() % size == 0,
        "swap_endianness: {} bytes is not a whole number of {size}-byte elements",
        data.len()
    );
    T::from_be(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_and_a_ragged_tail() {
        let be: Vec<u8> = (1..=17).collect();
        assert_eq!(swap_endianness::<u16>(&be[..4]), [0x0102, 0x0304]);
        assert_eq!(swap_endianness::<i64>(&be[..8]), [0x0102_0304_0506_0708]);
        assert_eq!(
            swap_endianness::<f32>(&be[..4]),
            [f32::from_bits(0x0102_0304)]
        );
        let bytes = swap_endianness_as_u8::<u64>(&be);
        assert_eq!(&bytes[..8], 0x0102_0304_0506_0708u64.to_ne_bytes());
        assert_eq!(&bytes[16..], [17]);
        assert_eq!(bytes.len(), 17);
    }

    #[test]
    #[should_panic(expected = "not a whole number")]
    fn ragged_input_panics_for_typed_output() {
        swap_endianness::<u32>(&[1, 2, 3]);
    }
}
