//! `Mutf8String`: owned MUTF-8 bytes, short ones stored inline.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use super::str::eq_str;
use super::*;

/// Owned MUTF-8 bytes, kept exactly as read or encoded (they may be invalid).
///
/// Dereferences to [`Mutf8Str`]. Converting from a `str`/`String` encodes
/// exactly (`C0 80` for U+0000, 6 bytes for supplementary characters).
///
/// Strings of up to 15 bytes made by [`from_slice`](Self::from_slice),
/// `From<&str>`, `From<&Mutf8Str>`, `to_owned` or `clone` are stored inline,
/// without a heap allocation (NBT names are nearly all that short).
/// [`from_vec`](Self::from_vec) and [`from_string`](Self::from_string) keep
/// the buffer they are given. The storage form is invisible: equality,
/// ordering and hashing are over the bytes, exactly as for [`Mutf8Str`].
///
/// # Examples
/// ```
/// use simdnbt::Mutf8String;
///
/// let s = Mutf8String::from("a\0b");
/// assert_eq!(s.as_bytes(), b"a\xC0\x80b");
/// assert_eq!(s, "a\0b");
/// assert_eq!(s.into_string(), "a\0b");
/// ```
pub struct Mutf8String {
    pub(super) repr: Repr,
}

/// The most bytes a [`Mutf8String`] stores without allocating.
pub(crate) const INLINE_CAP: usize = 15;

/// The inline block for `bytes` (at most `INLINE_CAP` of them): the length,
/// the bytes, zeros. Copied with at most two overlapping loads and stores of
/// 8 or 4 bytes (a variable-length `copy_from_slice` is a `memcpy` call).
#[inline(always)]
pub(super) fn inline_block(bytes: &[u8]) -> [u8; INLINE_CAP + 1] {
    let n = bytes.len();
    let mut block = [0; INLINE_CAP + 1];
    block[0] = n as u8;
    match n {
        8..=INLINE_CAP => {
            block[1..9].copy_from_slice(&bytes[..8]);
            block[n - 7..n + 1].copy_from_slice(&bytes[n - 8..]);
        }
        4..=7 => {
            block[1..5].copy_from_slice(&bytes[..4]);
            block[n - 3..n + 1].copy_from_slice(&bytes[n - 4..]);
        }
        1..=3 => {
            block[1] = bytes[0];
            block[1 + n / 2] = bytes[n / 2];
            block[n] = bytes[n - 1];
        }
        _ => {}
    }
    block
}

/// `Heap`'s capacity field has a niche (it never exceeds `isize::MAX`), so this
/// enum is as small as a `Vec<u8>`.
pub(super) enum Repr {
    /// `block[0]` is the length `n <= INLINE_CAP` and `block[1..=n]` the bytes
    /// (the rest is zero). The length byte sits right before the bytes, so
    /// `0x00` + the block is a u16 big-endian length prefix and the string:
    /// the writer copies it as one 16-byte move.
    Inline {
        block: [u8; INLINE_CAP + 1],
    },
    Heap(Vec<u8>),
}

// The owned tree stores one of these per tag; keep it as small as a Vec. The
// sizes are those of 64-bit targets; elsewhere the inline block is larger than
// a Vec, which costs space, not correctness.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Mutf8String>() == 24);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Mutf8String>() == std::mem::size_of::<Vec<u8>>());

impl Mutf8String {
    /// An empty string.
    pub const fn new() -> Self {
        Self {
            repr: Repr::Inline {
                block: [0; INLINE_CAP + 1],
            },
        }
    }

    /// Wraps raw bytes without validation, keeping the buffer (no copy, even
    /// when short: freeing it here was measured to cost more than it saves
    /// when the caller allocated it just for this; use
    /// [`from_slice`](Self::from_slice) to copy short bytes inline instead).
    #[inline]
    pub fn from_vec(vec: Vec<u8>) -> Self {
        Self::heap(vec)
    }

    #[inline]
    pub(super) fn heap(vec: Vec<u8>) -> Self {
        Self {
            repr: Repr::Heap(vec),
        }
    }

    /// Copies raw bytes without validation; up to 15 bytes are stored inline
    /// (no allocation).
    ///
    /// ```
    /// use simdnbt::Mutf8String;
    ///
    /// let s = Mutf8String::from_slice(b"id");
    /// assert_eq!(s.as_bytes(), b"id");
    /// assert_eq!(s, "id");
    /// ```
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Self {
        if bytes.len() <= INLINE_CAP {
            Self {
                repr: Repr::Inline {
                    block: inline_block(bytes),
                },
            }
        } else {
            Self::heap(bytes.to_vec())
        }
    }

    /// Copies the u16-length-prefixed string at `data[off..]` (its prefix and
    /// bytes known to be there, as the parser checked). A short string is
    /// made with one 16-byte load of the prefix's low byte and what follows
    /// it, masked: its inline block has exactly that layout.
    #[inline(always)]
    pub(crate) fn from_prefixed(data: &[u8], off: usize) -> Self {
        /// `KEEP[n]`: the length byte and `n` bytes after it.
        const KEEP: [u128; INLINE_CAP + 1] = {
            let mut keep = [0; INLINE_CAP + 1];
            let mut n = 0;
            while n <= INLINE_CAP {
                keep[n] = u128::MAX >> (8 * (INLINE_CAP - n));
                n += 1;
            }
            keep
        };
        if let Some(window) = data.get(off..off + INLINE_CAP + 2) {
            if window[0] == 0 && (window[1] as usize) <= INLINE_CAP {
                let raw = u128::from_le_bytes(window[1..].try_into().unwrap());
                return Self {
                    repr: Repr::Inline {
                        block: (raw & KEEP[window[1] as usize]).to_le_bytes(),
                    },
                };
            }
        }
        Self::from_prefixed_general(data, off)
    }

    /// [`from_prefixed`](Self::from_prefixed) for a long string, or one too
    /// close to the input's end for the 16-byte load.
    #[inline(never)]
    fn from_prefixed_general(data: &[u8], off: usize) -> Self {
        let len = u16::from_be_bytes([data[off], data[off + 1]]) as usize;
        Self::from_slice(&data[off + 2..off + 2 + len])
    }

    /// Encodes `s`, reusing its buffer when no escaping is needed.
    pub fn from_string(s: String) -> Self {
        match encode(&s) {
            Cow::Borrowed(_) => Self::from_vec(s.into_bytes()),
            Cow::Owned(v) => Self::from_vec(v),
        }
    }

    /// Borrows as a [`Mutf8Str`].
    #[inline]
    pub fn as_str(&self) -> &Mutf8Str {
        Mutf8Str::from_slice(self.as_bytes())
    }

    /// The raw bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Inline { block } => {
                let (len, bytes) = block.split_first().expect("block is not empty");
                &bytes[..usize::from(*len)]
            }
            Repr::Heap(vec) => vec,
        }
    }

    /// The inline form: the length byte followed by the 15-byte buffer
    /// (bytes past the length are zero). For writers that copy it whole.
    #[inline]
    pub(crate) fn inline_block(&self) -> Option<&[u8; INLINE_CAP + 1]> {
        match &self.repr {
            Repr::Inline { block } => Some(block),
            Repr::Heap(_) => None,
        }
    }

    /// The raw bytes, by value.
    pub fn into_vec(self) -> Vec<u8> {
        match self.repr {
            Repr::Inline { .. } => self.as_bytes().to_vec(),
            Repr::Heap(vec) => vec,
        }
    }

    /// Decodes lossily (see [`decode_lossy`]), reusing the buffer when the
    /// bytes need no conversion.
    ///
    /// **Deviation from upstream simdnbt 0.10**, which returns an empty string
    /// for invalid data: here invalid sequences become U+FFFD. Use
    /// [`try_into_string`](Self::try_into_string) to detect them.
    pub fn into_string(self) -> String {
        match self.repr {
            Repr::Heap(vec) => match decode_lossy(&vec) {
                // SAFETY: `decode_lossy` borrows only when the whole input is
                // valid UTF-8 (and means the same in MUTF-8).
                Cow::Borrowed(_) => unsafe { String::from_utf8_unchecked(vec) },
                Cow::Owned(s) => s,
            },
            Repr::Inline { .. } => decode_lossy(self.as_bytes()).into_owned(),
        }
    }

    /// Decodes, rejecting invalid data (see [`decode`]), reusing the buffer
    /// when the bytes need no conversion.
    ///
    /// # Errors
    /// [`Mutf8Error`] with the offset of the first invalid sequence. (Upstream
    /// simdnbt 0.10 returns `simd_cesu8`'s error type here instead.)
    pub fn try_into_string(self) -> Result<String, Mutf8Error> {
        match self.repr {
            Repr::Heap(vec) => match decode(&vec)? {
                // SAFETY: `decode` borrows only when the whole input is valid
                // UTF-8 (and means the same in MUTF-8).
                Cow::Borrowed(_) => Ok(unsafe { String::from_utf8_unchecked(vec) }),
                Cow::Owned(s) => Ok(s),
            },
            Repr::Inline { .. } => Ok(decode(self.as_bytes())?.into_owned()),
        }
    }
}

impl Clone for Mutf8String {
    /// Short strings are cloned inline, whatever their source's form.
    #[inline]
    fn clone(&self) -> Self {
        match &self.repr {
            Repr::Inline { block } => Self {
                repr: Repr::Inline { block: *block },
            },
            Repr::Heap(vec) => Self::from_slice(vec),
        }
    }
}

impl Default for Mutf8String {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for Mutf8String {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Mutf8String {}

impl PartialOrd for Mutf8String {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Mutf8String {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Mutf8String {
    /// Hashes like the [`Mutf8Str`] it dereferences to (required by `Borrow`).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl Deref for Mutf8String {
    type Target = Mutf8Str;
    fn deref(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl Borrow<Mutf8Str> for Mutf8String {
    fn borrow(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl AsRef<Mutf8Str> for Mutf8String {
    fn as_ref(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Mutf8String {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl From<&str> for Mutf8String {
    /// Encodes exactly (see [`encode`]).
    fn from(s: &str) -> Self {
        match encode(s) {
            Cow::Borrowed(b) => Self::from_slice(b),
            Cow::Owned(v) => Self::from_vec(v),
        }
    }
}

impl From<String> for Mutf8String {
    /// Encodes exactly (see [`encode`]), reusing the buffer when possible.
    fn from(s: String) -> Self {
        Self::from_string(s)
    }
}

impl From<&Mutf8Str> for Mutf8String {
    fn from(s: &Mutf8Str) -> Self {
        s.to_owned()
    }
}

/// Decodes lossily, as [`Mutf8Str::to_str`].
impl From<&Mutf8Str> for String {
    fn from(s: &Mutf8Str) -> Self {
        s.to_str().into_owned()
    }
}

impl PartialEq<str> for Mutf8String {
    fn eq(&self, other: &str) -> bool {
        eq_str(self.as_bytes(), other)
    }
}

impl PartialEq<&str> for Mutf8String {
    fn eq(&self, other: &&str) -> bool {
        eq_str(self.as_bytes(), other)
    }
}

impl fmt::Display for Mutf8String {
    /// Writes the lossy decoding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Mutf8String {
    /// Writes the lossy decoding, quoted and escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
