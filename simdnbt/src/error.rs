//! Errors, each knowing where in the input it happened.

use std::fmt;

/// What went wrong while reading NBT.
///
/// This enum is `#[non_exhaustive]`: new kinds may be added in minor releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a tag.
    UnexpectedEof,
    /// A tag id outside `0..=12` where a tag id was expected.
    UnknownTagId(u8),
    /// The root tag has a type the called function does not accept
    /// (for example [`crate::borrow::read`] only accepts a compound or End).
    InvalidRootType(u8),
    /// More nested compounds/lists than the depth limit allows (512 by default,
    /// counting the root, as vanilla Minecraft does).
    MaxDepthExceeded,
    /// An array or list length prefix is negative.
    NegativeLength(i32),
    /// A length prefix promises more elements than the remaining input can hold.
    LengthExceedsInput,
    /// A list whose element type is End but whose length is not zero
    /// (vanilla: "Missing type on ListTag").
    ListOfEndNotEmpty,
    /// The input is gzip-compressed (starts with `1f 8b`); inflate it first.
    GzipCompressed,
    /// The input looks zlib-compressed (starts with `78 01`, `78 5e`, `78 9c` or `78 da`); inflate it first.
    ZlibCompressed,
    /// The input needs more bytes of bookkeeping than the configured budget allows
    /// (see [`crate::ReadOptions::max_bytes`]).
    BudgetExceeded,
    /// The input is too large to be indexed (more than 2^32 tape entries).
    InputTooLarge,
    /// A VarInt of Bedrock's network form is longer than its type allows (5
    /// bytes for an Int or a length, 10 for a Long) or carries bits past its
    /// width. The offset is its first byte.
    InvalidVarInt,
    /// A string longer than the output form can hold (a network-form string
    /// of more than 65535 bytes, turned into a form with 16-bit lengths).
    /// The offset is its length prefix.
    StringTooLong,
}

/// An error from reading NBT: what went wrong ([`ErrorKind`]) and the byte offset
/// in the input where it was found.
///
/// The offset is counted from the start of the slice given to the reader (not from
/// the cursor's starting position), so it can be used directly to index the input.
///
/// # Upstream simdnbt's variants
///
/// Upstream simdnbt 0.10's `Error` is an enum without offsets. Code written for it
/// keeps compiling: `Error::UnexpectedEof` and `Error::MaxDepthExceeded` are
/// constants, `Error::UnknownTagId(id)` and `Error::InvalidRootType(id)` functions,
/// and `==` compares only the [`kind`](Self::kind), so
/// `assert_eq!(err, Error::UnexpectedEof)` holds wherever the input ended. Only
/// `match err { Error::UnexpectedEof => .. }` needs rewriting, as
/// `match err.kind() { ErrorKind::UnexpectedEof => .. }`.
///
/// ```
/// use std::io::Cursor;
/// use simdnbt::{Error, ErrorKind};
///
/// let err = simdnbt::borrow::read(&mut Cursor::new(&[0x0a, 0, 0, 0x01][..])).unwrap_err();
/// assert_eq!(err, Error::UnexpectedEof);
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
/// assert_eq!(err.offset(), 4);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

impl Error {
    /// Makes an error of `kind` found at byte `offset` of the input.
    #[cold]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the input where the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

/// Upstream simdnbt's variant names, so code written against its enum compiles.
/// Each is at offset 0; compare with `==` (which ignores the offset).
#[allow(non_upper_case_globals, non_snake_case)]
impl Error {
    /// The input ended in the middle of a tag (upstream's `Error::UnexpectedEof`).
    pub const UnexpectedEof: Error = Error {
        kind: ErrorKind::UnexpectedEof,
        offset: 0,
    };

    /// Nesting deeper than the limit (upstream's `Error::MaxDepthExceeded`).
    pub const MaxDepthExceeded: Error = Error {
        kind: ErrorKind::MaxDepthExceeded,
        offset: 0,
    };

    /// A tag id outside `0..=12` (upstream's `Error::UnknownTagId(id)`).
    pub fn UnknownTagId(id: u8) -> Error {
        Error::new(ErrorKind::UnknownTagId(id), 0)
    }

    /// A root tag of a type the reader does not accept (upstream's
    /// `Error::InvalidRootType(id)`).
    pub fn InvalidRootType(id: u8) -> Error {
        Error::new(ErrorKind::InvalidRootType(id), 0)
    }
}

/// Equal when the [`kind`](Error::kind)s are equal: the offset says where, not
/// what, and upstream code compares errors with its offset-less variants.
impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

impl Eq for Error {}

impl std::hash::Hash for Error {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
    }
}

/// The error of the readers of a bare payload ([`crate::owned::read_tag`],
/// [`crate::owned::read_compound`], [`crate::owned::read_optional_tag`]), under
/// upstream simdnbt's name. It is an [`Error`] (with its offset) in a wrapper:
/// `?` and `Error::from` turn it into one, and it derefs to one, so
/// `err.kind()` and `err.offset()` work directly.
///
/// ```
/// use std::io::Cursor;
/// use simdnbt::{Error, ErrorKind};
///
/// let err = simdnbt::owned::read_tag(&mut Cursor::new(&[0x03, 0, 0][..])).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
/// assert_eq!(Error::from(err), Error::UnexpectedEof);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NonRootError(Error);

impl NonRootError {
    /// The input ended in the middle of a tag (at offset 0).
    pub fn unexpected_eof() -> Self {
        NonRootError(Error::UnexpectedEof)
    }

    /// Nesting deeper than the limit (at offset 0).
    pub fn max_depth_exceeded() -> Self {
        NonRootError(Error::MaxDepthExceeded)
    }

    /// A tag id outside `0..=12` (at offset 0).
    pub fn unknown_tag_id(id: u8) -> Self {
        NonRootError(Error::UnknownTagId(id))
    }
}

impl From<Error> for NonRootError {
    fn from(e: Error) -> Self {
        NonRootError(e)
    }
}

impl From<NonRootError> for Error {
    fn from(e: NonRootError) -> Self {
        e.0
    }
}

impl std::ops::Deref for NonRootError {
    type Target = Error;
    fn deref(&self) -> &Error {
        &self.0
    }
}

impl fmt::Display for NonRootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for NonRootError {}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof => f.write_str("unexpected end of input"),
            ErrorKind::UnknownTagId(id) => write!(f, "unknown tag id {id}"),
            ErrorKind::InvalidRootType(id) => write!(f, "invalid root tag type {id}"),
            ErrorKind::MaxDepthExceeded => f.write_str("nesting depth limit exceeded"),
            ErrorKind::NegativeLength(len) => write!(f, "negative length {len}"),
            ErrorKind::LengthExceedsInput => {
                f.write_str("length prefix is larger than the remaining input")
            }
            ErrorKind::ListOfEndNotEmpty => {
                f.write_str("list of element type End has a non-zero length")
            }
            ErrorKind::GzipCompressed => {
                f.write_str("input is gzip-compressed; decompress it before reading")
            }
            ErrorKind::ZlibCompressed => {
                f.write_str("input looks zlib-compressed; decompress it before reading")
            }
            ErrorKind::BudgetExceeded => f.write_str("read budget exceeded"),
            ErrorKind::InputTooLarge => f.write_str("input too large to index"),
            ErrorKind::InvalidVarInt => f.write_str("VarInt too long for its type"),
            ErrorKind::StringTooLong => {
                f.write_str("string longer than the output form's 65535 bytes")
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl std::error::Error for Error {}

/// What went wrong while writing NBT. Writers check before they write, so on an
/// error nothing invalid has been produced (the output buffer may hold a prefix
/// of the document, which the caller should discard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WriteError {
    /// A string or compound key longer than 65535 bytes once MUTF-8 encoded.
    StringTooLong {
        /// The encoded length in bytes.
        len: usize,
    },
    /// A list or array with more than `i32::MAX` elements.
    LengthTooLarge {
        /// The number of elements.
        len: usize,
    },
    /// A document nested deeper than 512 compound/list levels, which no
    /// conforming reader (ours included) would accept.
    MaxDepthExceeded,
    /// A value that writes to more than 2^31 − 1 bytes, more than a
    /// [`crate::document::Document`] holds (`Document::from_owned`).
    DocumentTooLarge {
        /// The written length in bytes.
        len: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::StringTooLong { len } => {
                write!(
                    f,
                    "string of {len} encoded bytes exceeds the NBT limit of 65535"
                )
            }
            WriteError::LengthTooLarge { len } => {
                write!(
                    f,
                    "list or array of {len} elements exceeds the NBT limit of i32::MAX"
                )
            }
            WriteError::MaxDepthExceeded => {
                f.write_str("document is nested deeper than 512 levels")
            }
            WriteError::DocumentTooLarge { len } => {
                write!(
                    f,
                    "value of {len} bytes exceeds the 2^31 - 1 bytes a document holds"
                )
            }
        }
    }
}

impl std::error::Error for WriteError {}
