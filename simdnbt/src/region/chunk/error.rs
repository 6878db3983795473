//! Chunk decoding errors, naming the section and what is wrong.

use std::fmt;

/// Why a chunk's sections did not decode, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkError {
    section: Option<usize>,
    kind: ChunkErrorKind,
}

/// What went wrong in [`ChunkError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChunkErrorKind {
    /// Neither `sections` (1.18+) nor `Level.Sections` is a list of compounds.
    NoSections,
    /// The palette is missing, empty or not a list of compounds with `Name`
    /// (block states) or of strings (biomes).
    BadPalette {
        /// The palette's key.
        key: &'static str,
    },
    /// The data is not the number of longs the palette's bits need.
    WrongLongCount {
        /// The data's key.
        key: &'static str,
        /// What the palette's length needs.
        expected: usize,
        /// What is there.
        found: usize,
    },
    /// A packed index points past the end of the palette.
    IndexPastPalette {
        /// The position in the section (0 to 4095, or 63 for biomes).
        at: usize,
        /// The index found.
        index: usize,
        /// The palette's length.
        palette_len: usize,
    },
}

impl ChunkError {
    pub(super) fn new(section: Option<usize>, kind: ChunkErrorKind) -> Self {
        ChunkError { section, kind }
    }

    /// The section's position in the sections list, if the error is in one.
    pub fn section(&self) -> Option<usize> {
        self.section
    }

    /// What went wrong.
    pub fn kind(&self) -> &ChunkErrorKind {
        &self.kind
    }
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.section {
            write!(f, "sections[{i}]: ")?;
        }
        match &self.kind {
            ChunkErrorKind::NoSections => f.write_str("no list of sections"),
            ChunkErrorKind::BadPalette { key } => {
                write!(f, "{key}: missing, empty or not a palette")
            }
            ChunkErrorKind::WrongLongCount {
                key,
                expected,
                found,
            } => write!(f, "{key}: {found} longs, the palette needs {expected}"),
            ChunkErrorKind::IndexPastPalette {
                at,
                index,
                palette_len,
            } => write!(
                f,
                "entry {at}: index {index} past the palette of {palette_len}"
            ),
        }
    }
}

impl std::error::Error for ChunkError {}
