//! PLACEHOLDER — replaced by the SIMD kernels branch. The signatures are the contract.
use std::marker::PhantomData;

use crate::simd::{self, BeNumber};

/// A zero-copy view of a big-endian array of `T` inside the input.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub struct RawList<'a, T> {
    data: &'a [u8],
    _marker: PhantomData<T>,
}

impl<'a, T: BeNumber> RawList<'a, T> {
    /// Wraps big-endian bytes; `data.len()` must be a multiple of `T::SIZE`.
    pub fn new(data: &'a [u8]) -> Self {
        assert!(data.len() % T::SIZE == 0);
        Self {
            data,
            _marker: PhantomData,
        }
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len() / T::SIZE
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The big-endian bytes.
    pub fn as_big_endian(&self) -> &'a [u8] {
        self.data
    }
    /// Converts to native numbers.
    pub fn to_vec(&self) -> Vec<T> {
        simd::from_be_bytes(self.data)
    }
}
