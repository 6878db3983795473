//! Why an edit changed nothing.

use std::fmt;

use crate::WriteError;
use crate::tag_id::name;

/// Why an edit changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EditError {
    /// The list (or array) holds elements of another type.
    WrongType {
        /// The element type there (a [`crate::tag_id`]).
        expected: u8,
        /// The value's type.
        found: u8,
    },
    /// The value would nest deeper than the document's depth limit (the one
    /// it was read with, 512 by default).
    MaxDepthExceeded,
    /// A string or key longer than 65535 bytes once MUTF-8 encoded.
    StringTooLong {
        /// The encoded length in bytes.
        len: usize,
    },
    /// A list or array with more than `i32::MAX` elements.
    LengthTooLarge {
        /// The number of elements.
        len: usize,
    },
    /// The document would hold more than 2^31 − 1 bytes or nodes.
    DocumentTooLarge,
    /// An index past the end of a list or array.
    IndexOutOfBounds {
        /// The index asked for.
        index: usize,
        /// The length.
        len: usize,
    },
}

impl From<WriteError> for EditError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::StringTooLong { len } => EditError::StringTooLong { len },
            WriteError::LengthTooLarge { len } => EditError::LengthTooLarge { len },
            _ => EditError::MaxDepthExceeded,
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::WrongType { expected, found } => write!(
                f,
                "the list holds {} elements, not {}",
                name(*expected),
                name(*found)
            ),
            EditError::MaxDepthExceeded => {
                f.write_str("the value would nest deeper than the depth limit")
            }
            EditError::StringTooLong { len } => {
                write!(
                    f,
                    "string of {len} encoded bytes exceeds the NBT limit of 65535"
                )
            }
            EditError::LengthTooLarge { len } => write!(
                f,
                "list or array of {len} elements exceeds the NBT limit of i32::MAX"
            ),
            EditError::DocumentTooLarge => {
                f.write_str("the document would exceed 2^31 - 1 bytes or nodes")
            }
            EditError::IndexOutOfBounds { index, len } => {
                write!(f, "index {index} is out of bounds for length {len}")
            }
        }
    }
}

impl std::error::Error for EditError {}
