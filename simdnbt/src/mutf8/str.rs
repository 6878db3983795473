//! `Mutf8Str`: borrowed MUTF-8 bytes, and comparing them with `str` keys.

use std::borrow::Cow;
use std::fmt;

use super::*;
use crate::simd;

/// Borrowed MUTF-8 bytes, kept exactly as read (they may be invalid).
///
/// This is a `#[repr(transparent)]` wrapper around `[u8]`: a `&[u8]` and a
/// `&Mutf8Str` have the same layout. Equality, ordering and hashing are over
/// the raw bytes. Comparing with a `str` encodes the `str` first (free when it
/// needs no escaping), so `"a\0b"` equals the bytes `61 C0 80 62`.
///
/// # Examples
/// ```
/// use simdnbt::Mutf8Str;
///
/// let s = Mutf8Str::from_slice(b"a\xC0\x80b");
/// assert_eq!(s, "a\0b");
/// assert_eq!(s.to_str(), "a\0b");
/// let bad = Mutf8Str::from_slice(b"\xFF");
/// assert!(bad.try_to_str().is_err());
/// assert_eq!(bad.to_str(), "\u{FFFD}");
/// assert_eq!(bad.as_bytes(), b"\xFF");
/// ```
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Mutf8Str {
    bytes: [u8],
}

// The readers cast `&[u8]` to `&Mutf8Str`; keep the layouts identical.
const _: () = assert!(std::mem::size_of::<&Mutf8Str>() == std::mem::size_of::<&[u8]>());
const _: () = assert!(std::mem::align_of::<&Mutf8Str>() == std::mem::align_of::<&[u8]>());

impl Mutf8Str {
    /// Wraps raw bytes without validation (no copy).
    pub fn from_slice(bytes: &[u8]) -> &Mutf8Str {
        // SAFETY: Mutf8Str is repr(transparent) over [u8], so the fat pointer
        // keeps its length and the lifetime is carried over.
        unsafe { &*(bytes as *const [u8] as *const Mutf8Str) }
    }

    /// Encodes `s` (see [`encode`]); borrows when no escaping is needed.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use simdnbt::Mutf8Str;
    ///
    /// assert!(matches!(Mutf8Str::from_str("abc"), Cow::Borrowed(_)));
    /// assert_eq!(Mutf8Str::from_str("😀").as_bytes().len(), 6);
    /// ```
    #[allow(clippy::should_implement_trait)] // returns a Cow, not Result<Self>
    pub fn from_str(s: &str) -> Cow<'_, Mutf8Str> {
        match encode(s) {
            Cow::Borrowed(b) => Cow::Borrowed(Mutf8Str::from_slice(b)),
            Cow::Owned(vec) => Cow::Owned(Mutf8String::from_vec(vec)),
        }
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Whether every byte is ASCII (then the bytes are also a valid `str`).
    pub fn is_ascii(&self) -> bool {
        simd::is_ascii(&self.bytes)
    }

    /// Decodes lossily: each invalid sequence becomes U+FFFD (see
    /// [`decode_lossy`]). Borrows when the bytes need no conversion.
    ///
    /// **Deviation from upstream simdnbt 0.10**, whose `to_str` returns `""`
    /// for invalid data: this never drops data silently. Use
    /// [`try_to_str`](Self::try_to_str) to detect invalid data.
    #[inline]
    pub fn to_str(&self) -> Cow<'_, str> {
        decode_lossy(&self.bytes)
    }

    /// Decodes lossily; the same as [`to_str`](Self::to_str).
    #[inline]
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        decode_lossy(&self.bytes)
    }

    /// Decodes, rejecting invalid data (see [`decode`]).
    ///
    /// # Errors
    /// [`Mutf8Error`] with the offset of the first invalid sequence.
    #[inline]
    pub fn try_to_str(&self) -> Result<Cow<'_, str>, Mutf8Error> {
        decode(&self.bytes)
    }
}

impl fmt::Display for Mutf8Str {
    /// Writes the lossy decoding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.to_string_lossy())
    }
}

impl fmt::Debug for Mutf8Str {
    /// Writes the lossy decoding, quoted and escaped like `str`'s `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.to_string_lossy(), f)
    }
}

impl ToOwned for Mutf8Str {
    type Owned = Mutf8String;
    fn to_owned(&self) -> Mutf8String {
        Mutf8String::from_slice(&self.bytes)
    }
}

impl Default for &Mutf8Str {
    fn default() -> Self {
        Mutf8Str::from_slice(&[])
    }
}

impl AsRef<[u8]> for Mutf8Str {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl AsRef<Mutf8Str> for Mutf8Str {
    fn as_ref(&self) -> &Mutf8Str {
        self
    }
}

/// Whether `bytes` is the MUTF-8 encoding of `s`, a raw `00` standing for
/// U+0000 as well as `C0 80` (see the module docs).
#[inline]
pub(super) fn eq_str(bytes: &[u8], s: &str) -> bool {
    key_matches(bytes, encode(s).as_ref())
}

/// Whether a stored string `stored` equals `query`, the MUTF-8 encoding of a
/// `str` (so U+0000 in it is `C0 80`), counting a raw `00` in `stored` as U+0000.
///
/// Equal bytes decide at once; the byte walk runs only when the query holds a
/// U+0000 and the stored string is shorter, which real lookups never meet.
#[inline]
pub(crate) fn key_matches(stored: &[u8], query: &[u8]) -> bool {
    if stored.len() == query.len() {
        return stored == query;
    }
    stored.len() < query.len() && eq_raw_nul(stored, query)
}

#[cold]
pub(super) fn eq_raw_nul(stored: &[u8], query: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < stored.len() && j < query.len() {
        if stored[i] == query[j] {
            j += 1;
        } else if stored[i] == 0 && query[j..].starts_with(&[0xC0, 0x80]) {
            j += 2;
        } else {
            return false;
        }
        i += 1;
    }
    i == stored.len() && j == query.len()
}

impl PartialEq<str> for Mutf8Str {
    fn eq(&self, other: &str) -> bool {
        eq_str(&self.bytes, other)
    }
}

impl PartialEq<&str> for Mutf8Str {
    fn eq(&self, other: &&str) -> bool {
        eq_str(&self.bytes, other)
    }
}
