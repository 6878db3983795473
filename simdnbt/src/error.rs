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
}

/// An error from reading NBT: what went wrong ([`ErrorKind`]) and the byte offset
/// in the input where it was found.
///
/// The offset is counted from the start of the slice given to the reader (not from
/// the cursor's starting position), so it can be used directly to index the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
        }
    }
}

impl std::error::Error for WriteError {}
