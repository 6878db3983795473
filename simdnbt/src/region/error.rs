//! Region-file errors, each naming the chunk it is about.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::compression::InflateError;
use crate::error::Error;

/// A chunk's position inside its region: `x` and `z` in `0..32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalPos {
    /// Column, `0..32`.
    pub x: u8,
    /// Row, `0..32`.
    pub z: u8,
}

impl LocalPos {
    /// The position of header entry `index` (`x + 32 z`).
    pub(crate) fn from_index(index: usize) -> Self {
        Self {
            x: (index % 32) as u8,
            z: (index / 32) as u8,
        }
    }

    /// The header entry of chunk `(x, z)`; any chunk coordinates work, since
    /// only the low five bits pick the entry (so absolute coordinates are fine).
    pub(crate) fn index_of(x: i32, z: i32) -> usize {
        (x & 31) as usize + (z & 31) as usize * 32
    }
}

impl fmt::Display for LocalPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.z)
    }
}

/// What is wrong with a region file or one of its chunks.
#[derive(Debug)]
#[non_exhaustive]
pub enum RegionErrorKind {
    /// Reading or writing a region file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },
    /// The file is shorter than the 8 KiB header (and not empty).
    HeaderTooShort {
        /// File length in bytes.
        len: usize,
    },
    /// A location entry has a sector offset but a sector count of 0.
    NoSectors {
        /// The sector offset.
        offset: u32,
    },
    /// A chunk's first sector lies inside the header (sectors 0 and 1).
    OffsetInHeader {
        /// The sector offset.
        offset: u32,
    },
    /// A chunk's sectors run past the end of the file.
    SectorsPastEnd {
        /// First sector.
        offset: u32,
        /// Sector count.
        count: u32,
        /// Sectors in the file (the last one may be partial).
        file_sectors: u32,
    },
    /// Two chunks claim the same sector.
    Overlap {
        /// The chunk that claimed it first.
        other: LocalPos,
        /// The sector both claim.
        sector: u32,
    },
    /// The file ends inside a chunk's 5-byte length and compression prefix
    /// (its last sector is partial and too short).
    ChunkHeaderCut {
        /// Bytes of the chunk present in the file.
        available: usize,
    },
    /// A chunk's length field is 0 (it must count at least the compression byte).
    ZeroLength,
    /// A chunk's length field is larger than its sectors (or the rest of the file) hold.
    LengthTooLarge {
        /// The length field.
        length: u32,
        /// Bytes available after the length field.
        capacity: usize,
    },
    /// A compression byte other than 1 (gzip), 2 (zlib), 3 (none), 4 (LZ4), each
    /// optionally + 128 (external). 127 is a server's custom algorithm, which
    /// this crate cannot decode.
    UnknownCompression(u8),
    /// A gzip or zlib chunk does not inflate (or inflates past the cap).
    Inflate(InflateError),
    /// An LZ4 chunk does not decode (or decodes past the cap).
    Lz4 {
        /// Byte of the LZ4 stream where the bad block starts.
        offset: usize,
        /// What is wrong.
        message: String,
    },
    /// An uncompressed chunk is larger than the cap
    /// ([`crate::ReadOptions::max_inflated_bytes`]).
    TooLarge {
        /// The cap in bytes.
        limit: usize,
    },
    /// The chunk is stored in an external `.mcc` file, but this region was read
    /// from bytes (or from a file not named `r.X.Z.mca`), so there is no
    /// directory and region position to find it with.
    NoExternalLocation,
    /// The chunk's external `.mcc` file cannot be read.
    ExternalFile {
        /// The `.mcc` file.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },
    /// The bytes given to a writer are not a valid NBT document (named root compound).
    InvalidNbt(Error),
}

/// An error from reading or writing a region file: what went wrong and, when it
/// is about one chunk, which.
#[derive(Debug)]
pub struct RegionError {
    pub(crate) chunk: Option<LocalPos>,
    pub(crate) kind: RegionErrorKind,
}

impl RegionError {
    pub(crate) fn chunk(pos: LocalPos, kind: RegionErrorKind) -> Self {
        Self {
            chunk: Some(pos),
            kind,
        }
    }

    pub(crate) fn file(kind: RegionErrorKind) -> Self {
        Self { chunk: None, kind }
    }

    /// The chunk the error is about, if it is about one.
    pub fn pos(&self) -> Option<LocalPos> {
        self.chunk
    }

    /// What went wrong.
    pub fn kind(&self) -> &RegionErrorKind {
        &self.kind
    }
}

impl fmt::Display for RegionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RegionErrorKind::*;
        match self {
            Io { path, error } => write!(f, "{}: {error}", path.display()),
            HeaderTooShort { len } => write!(
                f,
                "file is {len} bytes, shorter than the 8192-byte region header"
            ),
            NoSectors { offset } => write!(f, "location has offset {offset} but 0 sectors"),
            OffsetInHeader { offset } => {
                write!(f, "location points at sector {offset}, inside the header")
            }
            SectorsPastEnd {
                offset,
                count,
                file_sectors,
            } => write!(
                f,
                "sectors {offset}..{} run past the end of the file ({file_sectors} sectors)",
                u64::from(*offset) + u64::from(*count)
            ),
            Overlap { other, sector } => {
                write!(f, "sector {sector} is also used by chunk {other}")
            }
            ChunkHeaderCut { available } => write!(
                f,
                "the file ends {available} bytes into the chunk, inside its 5-byte prefix"
            ),
            ZeroLength => f.write_str("length field is 0"),
            LengthTooLarge { length, capacity } => write!(
                f,
                "length field {length} is larger than the {capacity} bytes its sectors hold"
            ),
            UnknownCompression(127) => f.write_str("custom compression (127) is not supported"),
            UnknownCompression(c) => write!(f, "unknown compression type {c}"),
            Inflate(e) => e.fmt(f),
            Lz4 { offset, message } => write!(f, "invalid LZ4 data at byte {offset}: {message}"),
            TooLarge { limit } => write!(f, "chunk is larger than the limit of {limit} bytes"),
            NoExternalLocation => f.write_str(
                "chunk is in an external .mcc file, but the region's directory and position \
                 are unknown (open it with Region::open on an r.X.Z.mca path)",
            ),
            ExternalFile { path, error } => write!(f, "{}: {error}", path.display()),
            InvalidNbt(e) => write!(f, "not a valid NBT document: {e}"),
        }
    }
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chunk {
            Some(pos) => write!(f, "chunk {pos}: {}", self.kind),
            None => self.kind.fmt(f),
        }
    }
}

impl std::error::Error for RegionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            RegionErrorKind::Io { error: e, .. }
            | RegionErrorKind::ExternalFile { error: e, .. } => Some(e),
            RegionErrorKind::Inflate(e) => Some(e),
            RegionErrorKind::InvalidNbt(e) => Some(e),
            _ => None,
        }
    }
}
