//! The error of a checked MUTF-8 decode.

use std::fmt;

/// Error from a checked MUTF-8 decode: the input holds a sequence that is
/// not valid MUTF-8 or that no `str` can represent (an unpaired surrogate).
///
/// Unlike upstream simdnbt 0.10 (whose checked conversions return
/// `simd_cesu8`'s error), this type reports where the invalid data starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mutf8Error {
    pub(super) valid_up_to: usize,
}
impl Mutf8Error {
    /// The number of bytes before the first invalid sequence; those bytes
    /// decode without error.
    ///
    /// ```
    /// let err = simdnbt::mutf8::decode(b"ok\xE2\x82").unwrap_err();
    /// assert_eq!(err.valid_up_to(), 2);
    /// ```
    pub fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }
}
impl fmt::Display for Mutf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid MUTF-8 at byte {}", self.valid_up_to)
    }
}
impl std::error::Error for Mutf8Error {}
