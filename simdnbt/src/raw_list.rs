//! [`RawList`]: a zero-copy view of a big-endian number array inside the
//! input.
use std::fmt;
use std::iter::FusedIterator;
use std::marker::PhantomData;
use std::slice::ChunksExact;

use crate::simd::{self, BeNumber};

/// A zero-copy view of a big-endian array of `T` (`i16`, `i32`, `i64`, `f32`
/// or `f64`) inside the input, as found in `IntArray`, `LongArray` and
/// numeric lists.
///
/// Nothing is decoded until asked: [`get`](Self::get) and
/// [`iter`](Self::iter) decode one element at a time, [`to_vec`](Self::to_vec)
/// converts the whole array with the SIMD kernels of [`crate::simd`].
///
/// `RawList` is `#[repr(transparent)]` over `&[u8]`: the two have the same
/// size, alignment and layout, so a `&[&[u8]]` of checked slices can be
/// viewed as `&[RawList<T>]`.
///
/// Equality compares the raw bytes, so float arrays compare by bit pattern
/// (a NaN equals the same NaN; `0.0` and `-0.0` differ).
///
/// # Examples
/// ```
/// use simdnbt::raw_list::RawList;
///
/// let list = RawList::<i32>::new(&[0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE]);
/// assert_eq!(list.len(), 2);
/// assert_eq!(list.get(1), Some(-2));
/// assert_eq!(list.to_vec(), [1, -2]);
/// assert_eq!(list.iter().sum::<i32>(), -1);
/// assert_eq!(format!("{list:?}"), "[1, -2]");
/// ```
#[repr(transparent)]
pub struct RawList<'a, T> {
    data: &'a [u8],
    _marker: PhantomData<T>,
}

// The borrow reader casts `&[&[u8]]` to `&[RawList<T>]`: the layouts must match.
macro_rules! assert_layout {
    ($($t:ty),*) => {$(
        const _: () = assert!(
            std::mem::size_of::<RawList<'static, $t>>() == std::mem::size_of::<&[u8]>()
        );
        const _: () = assert!(
            std::mem::align_of::<RawList<'static, $t>>() == std::mem::align_of::<&[u8]>()
        );
    )*};
}
assert_layout!(i16, i32, i64, f32, f64);

impl<'a, T: BeNumber> RawList<'a, T> {
    /// Wraps big-endian bytes.
    ///
    /// # Panics
    /// If `data.len()` is not a multiple of `T::SIZE`.
    pub fn new(data: &'a [u8]) -> Self {
        assert!(
            data.len() % T::SIZE == 0,
            "RawList length is not a multiple of the element size"
        );
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

    /// The big-endian bytes, borrowed from the input.
    pub fn as_big_endian(&self) -> &'a [u8] {
        self.data
    }

    /// The big-endian bytes, by value.
    pub fn into_inner(self) -> &'a [u8] {
        self.data
    }

    /// Decodes element `index`, or `None` if it is out of bounds.
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::SIZE)?;
        let bytes = self.data.get(start..start.checked_add(T::SIZE)?)?;
        Some(T::from_be_slice(bytes))
    }

    /// Iterates over the elements, decoding each on the fly.
    pub fn iter(&self) -> Iter<'a, T> {
        Iter {
            chunks: self.data.chunks_exact(T::SIZE),
            _marker: PhantomData,
        }
    }

    /// Converts all elements to native numbers (SIMD byte swap).
    pub fn to_vec(&self) -> Vec<T> {
        simd::from_be_bytes(self.data)
    }

    /// The elements as little-endian bytes (SIMD byte swap), whatever the
    /// host's endianness.
    ///
    /// ```
    /// use simdnbt::raw_list::RawList;
    ///
    /// let list = RawList::<i16>::new(&[0x12, 0x34]);
    /// assert_eq!(list.to_little_endian(), [0x34, 0x12]);
    /// ```
    pub fn to_little_endian(&self) -> Vec<u8> {
        let mut out = Vec::new();
        simd::extend_swapped(T::SIZE, &mut out, self.data);
        out
    }
}

impl<T> Clone for RawList<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for RawList<'_, T> {}

impl<T> PartialEq for RawList<'_, T> {
    /// Compares the raw bytes (bit patterns for floats).
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}
impl<T> Eq for RawList<'_, T> {}

impl<T> Default for RawList<'_, T> {
    /// An empty list.
    fn default() -> Self {
        Self {
            data: &[],
            _marker: PhantomData,
        }
    }
}

impl<T: BeNumber + fmt::Debug> fmt::Debug for RawList<'_, T> {
    /// Shows the decoded values, like a `Vec<T>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: BeNumber> IntoIterator for RawList<'a, T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: BeNumber> IntoIterator for &RawList<'a, T> {
    type Item = T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// Iterator over the elements of a [`RawList`], decoding each on the fly.
#[derive(Clone)]
pub struct Iter<'a, T> {
    chunks: ChunksExact<'a, u8>,
    _marker: PhantomData<T>,
}

impl<T: BeNumber> Iterator for Iter<'_, T> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        self.chunks.next().map(T::from_be_slice)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
    #[inline]
    fn nth(&mut self, n: usize) -> Option<T> {
        self.chunks.nth(n).map(T::from_be_slice)
    }
    fn count(self) -> usize {
        self.chunks.len()
    }
    fn last(mut self) -> Option<T> {
        self.next_back()
    }
}

impl<T: BeNumber> DoubleEndedIterator for Iter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        self.chunks.next_back().map(T::from_be_slice)
    }
}

impl<T: BeNumber> ExactSizeIterator for Iter<'_, T> {}
impl<T: BeNumber> FusedIterator for Iter<'_, T> {}

impl<T: BeNumber + fmt::Debug> fmt::Debug for Iter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BYTES: [u8; 16] = [
        0x7F, 0xF8, 0, 0, 0, 0, 0, 1, // f64 NaN with payload 1
        0x80, 0, 0, 0, 0, 0, 0, 0, // -0.0
    ];

    #[test]
    fn basics() {
        let l = RawList::<i32>::new(&BYTES);
        assert_eq!(l.len(), 4);
        assert!(!l.is_empty());
        assert_eq!(l.get(0), Some(0x7FF8_0000));
        assert_eq!(l.get(2), Some(i32::MIN));
        assert_eq!(l.get(4), None);
        assert_eq!(l.get(usize::MAX), None);
        assert_eq!(l.to_vec(), [0x7FF8_0000, 1, i32::MIN, 0]);
        assert_eq!(l.iter().collect::<Vec<_>>(), l.to_vec());
        assert_eq!(
            l.iter().rev().collect::<Vec<_>>(),
            [0, i32::MIN, 1, 0x7FF8_0000]
        );
        assert_eq!(l.iter().len(), 4);
        assert_eq!(l.iter().nth(1), Some(1));
        assert_eq!(l.iter().last(), Some(0));
        assert_eq!(l.iter().count(), 4);
        assert_eq!(l.as_big_endian(), &BYTES);
        assert_eq!(l.into_inner(), &BYTES);
        let le = l.to_little_endian();
        assert_eq!(&le[..4], [0, 0, 0xF8, 0x7F]);
        let by_value: Vec<i32> = l.into_iter().collect();
        let by_ref: Vec<i32> = (&l).into_iter().collect();
        assert_eq!(by_value, by_ref);
        for (n, x) in l.into_iter().enumerate() {
            assert_eq!(Some(x), l.get(n));
        }
        assert_eq!(format!("{l:?}"), "[2146959360, 1, -2147483648, 0]");
        assert_eq!(format!("{:?}", l.iter()), format!("{l:?}"));
        let empty = RawList::<i64>::default();
        assert!(empty.is_empty());
        assert_eq!(empty.to_vec(), Vec::<i64>::new());
        assert_eq!(empty.to_little_endian(), Vec::<u8>::new());
    }

    #[test]
    fn floats_keep_bits() {
        let l = RawList::<f64>::new(&BYTES);
        let v = l.to_vec();
        assert_eq!(v[0].to_bits(), 0x7FF8_0000_0000_0001);
        assert_eq!(v[1].to_bits(), 0x8000_0000_0000_0000);
        assert_eq!(l.get(0).unwrap().to_bits(), 0x7FF8_0000_0000_0001);
        // Bytewise equality: the NaN list equals itself.
        assert_eq!(l, RawList::<f64>::new(&BYTES));
        assert_ne!(l, RawList::<f64>::new(&BYTES[..8]));
        let f = RawList::<f32>::new(&BYTES[8..12]);
        assert_eq!(f.get(0).unwrap().to_bits(), 0x8000_0000);
        let s = RawList::<i16>::new(&BYTES[..4]);
        assert_eq!(s.to_vec(), [0x7FF8, 0]);
        assert_eq!(s.to_little_endian(), [0xF8, 0x7F, 0, 0]);
    }

    #[test]
    #[should_panic(expected = "RawList length is not a multiple of the element size")]
    fn new_rejects_partial_element() {
        let _ = RawList::<i64>::new(&BYTES[..7]);
    }

    #[test]
    fn layout_matches_byte_slices() {
        use std::mem::{align_of, size_of};
        assert_eq!(size_of::<RawList<'_, i64>>(), size_of::<&[u8]>());
        assert_eq!(align_of::<RawList<'_, f32>>(), align_of::<&[u8]>());
        let parts: [&[u8]; 2] = [&BYTES[..8], &BYTES[8..]];
        // SAFETY: RawList is repr(transparent) over &[u8], and every part's
        // length is a multiple of 8.
        let lists: &[RawList<'_, i64>] =
            unsafe { &*(&parts[..] as *const [&[u8]] as *const [RawList<'_, i64>]) };
        assert_eq!(lists[0].get(0), Some(0x7FF8_0000_0000_0001));
        assert_eq!(lists[1].to_vec(), [i64::MIN]);
    }
}
