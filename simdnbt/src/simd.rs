//! PLACEHOLDER (scalar) — replaced by the SIMD kernels branch. The signatures are the contract.

mod sealed {
    pub trait Sealed {}
}

/// A number NBT stores big-endian in arrays and lists.
pub trait BeNumber: Copy + sealed::Sealed + 'static {
    /// Size in bytes.
    const SIZE: usize;
    /// Decodes one value from exactly `Self::SIZE` big-endian bytes.
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
                <$t>::from_be_bytes(bytes.try_into().unwrap())
            }
            #[inline]
            fn push_be(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_be_bytes());
            }
        }
    )*};
}
be_number!(i16, i32, i64, f32, f64);

/// Decodes big-endian `bytes` into native numbers. `bytes.len()` must be a
/// multiple of `T::SIZE` (panics otherwise).
pub fn from_be_bytes<T: BeNumber>(bytes: &[u8]) -> Vec<T> {
    assert!(bytes.len() % T::SIZE == 0);
    bytes.chunks_exact(T::SIZE).map(T::from_be_slice).collect()
}

/// Appends `values` to `out` as big-endian bytes.
pub fn extend_be_bytes<T: BeNumber>(out: &mut Vec<u8>, values: &[T]) {
    for v in values {
        v.push_be(out);
    }
}
