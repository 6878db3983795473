//! PLACEHOLDER — replaced by the MUTF-8 branch. The signatures are the contract.
use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

/// Error from a checked MUTF-8 decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mutf8Error {
    valid_up_to: usize,
}
impl Mutf8Error {
    /// Bytes before the first invalid sequence.
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

/// Borrowed MUTF-8 bytes.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Mutf8Str {
    bytes: [u8],
}
impl Mutf8Str {
    /// Wraps raw bytes without validation.
    pub fn from_slice(bytes: &[u8]) -> &Mutf8Str {
        // SAFETY: Mutf8Str is repr(transparent) over [u8].
        unsafe { &*(bytes as *const [u8] as *const Mutf8Str) }
    }
    /// Encodes.
    pub fn from_str(s: &str) -> Cow<'_, Mutf8Str> {
        Cow::Owned(Mutf8String::from(s))
    }
    /// Raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// Byte length.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    /// Empty?
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
    /// Lossy decode.
    pub fn to_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }
    /// Lossy decode.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }
    /// Checked decode.
    pub fn try_to_str(&self) -> Result<Cow<'_, str>, Mutf8Error> {
        std::str::from_utf8(&self.bytes)
            .map(Cow::Borrowed)
            .map_err(|e| Mutf8Error {
                valid_up_to: e.valid_up_to(),
            })
    }
}
impl fmt::Debug for Mutf8Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}
impl ToOwned for Mutf8Str {
    type Owned = Mutf8String;
    fn to_owned(&self) -> Mutf8String {
        Mutf8String {
            vec: self.bytes.to_vec(),
        }
    }
}

/// Owned MUTF-8 bytes.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mutf8String {
    vec: Vec<u8>,
}
impl Mutf8String {
    /// Wraps raw bytes without validation.
    pub fn from_vec(vec: Vec<u8>) -> Self {
        Self { vec }
    }
    /// Borrow.
    pub fn as_str(&self) -> &Mutf8Str {
        Mutf8Str::from_slice(&self.vec)
    }
}
impl fmt::Debug for Mutf8String {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
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
impl From<&str> for Mutf8String {
    fn from(s: &str) -> Self {
        Self {
            vec: s.as_bytes().to_vec(),
        }
    }
}
impl From<String> for Mutf8String {
    fn from(s: String) -> Self {
        Self {
            vec: s.into_bytes(),
        }
    }
}
impl From<&Mutf8Str> for Mutf8String {
    fn from(s: &Mutf8Str) -> Self {
        s.to_owned()
    }
}
