//! Errors of inflating and of reading compressed files.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::Compression;
use crate::error::{Error, WriteError};

/// What went wrong while inflating.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InflateErrorKind {
    /// The compressed data is invalid (bad header, bad block, wrong checksum);
    /// the message is the decompressor's.
    Corrupt(String),
    /// The input ended before the end of the compressed stream.
    Truncated,
    /// The data inflates to more than the cap
    /// ([`crate::ReadOptions::max_inflated_bytes`]); inflating stopped there.
    TooLarge {
        /// The cap in bytes.
        limit: usize,
    },
}

/// An inflation failure: what went wrong, in which format, and about where in
/// the compressed input (how many bytes the decompressor had consumed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InflateError {
    pub(crate) format: Compression,
    pub(crate) kind: InflateErrorKind,
    pub(crate) offset: usize,
}

impl InflateError {
    /// What went wrong.
    pub fn kind(&self) -> &InflateErrorKind {
        &self.kind
    }

    /// The format that was being inflated.
    pub fn format(&self) -> Compression {
        self.format
    }

    /// Bytes of compressed input consumed when the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for InflateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = self.format.name();
        match &self.kind {
            InflateErrorKind::Corrupt(message) => write!(
                f,
                "invalid {format} data near compressed byte {}: {message}",
                self.offset
            ),
            InflateErrorKind::Truncated => {
                write!(f, "{format} data ends early, at byte {}", self.offset)
            }
            InflateErrorKind::TooLarge { limit } => write!(
                f,
                "{format} data inflates to more than the limit of {limit} bytes"
            ),
        }
    }
}

impl std::error::Error for InflateError {}

/// An error from reading or writing a (possibly compressed) NBT file.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },
    /// The file is gzip or zlib but does not inflate.
    Inflate(InflateError),
    /// The inflated bytes are not valid NBT.
    Nbt(Error),
    /// The tree cannot be written as NBT.
    Write(WriteError),
}

impl FileError {
    pub(crate) fn io(path: &Path, error: io::Error) -> Self {
        FileError::Io {
            path: path.to_owned(),
            error,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FileError::Inflate(e) => e.fmt(f),
            FileError::Nbt(e) => write!(f, "invalid NBT: {e}"),
            FileError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { error, .. } => Some(error),
            FileError::Inflate(e) => Some(e),
            FileError::Nbt(e) => Some(e),
            FileError::Write(e) => Some(e),
        }
    }
}

impl From<InflateError> for FileError {
    fn from(e: InflateError) -> Self {
        FileError::Inflate(e)
    }
}

impl From<Error> for FileError {
    fn from(e: Error) -> Self {
        FileError::Nbt(e)
    }
}

impl From<WriteError> for FileError {
    fn from(e: WriteError) -> Self {
        FileError::Write(e)
    }
}
