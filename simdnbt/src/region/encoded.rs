//! A chunk checked and compressed for a region, made apart from the region
//! (on another thread, at a chosen level) and stored with
//! [`Region::write_encoded`](super::Region::write_encoded).

use std::cell::RefCell;
use std::io::Cursor;

use super::codec::{self, ChunkCompression};

/// The zlib and gzip level Minecraft writes chunks at (zlib's default).
pub const DEFAULT_LEVEL: u32 = 6;

/// A chunk's NBT, checked with the borrow reader (a named root compound) and
/// compressed: what a region stores. Making one costs the compression; it
/// needs no region, so the chunks of a region can be encoded in parallel and
/// stored one after the other.
///
/// ```
/// use simdnbt::region::{ChunkCompression, EncodedChunk, Region};
/// let nbt = [0x0a, 0, 0, 3, 0, 4, b'x', b'P', b'o', b's', 0, 0, 0, 3, 0];
/// // Level 1: the fastest zlib level, which Minecraft reads like any other.
/// let chunk = EncodedChunk::with_level(&nbt, ChunkCompression::Zlib, 1)?;
/// let mut region = Region::new();
/// region.write_encoded(3, 7, &chunk)?;
/// assert_eq!(region.chunk(3, 7)?.unwrap(), nbt);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedChunk {
    pub(super) compression: ChunkCompression,
    pub(super) data: Vec<u8>,
}

impl EncodedChunk {
    /// `nbt` (an uncompressed NBT document with a named root compound)
    /// compressed as `compression`, at [`DEFAULT_LEVEL`] for zlib and gzip.
    /// An invalid document, or an End root, is the reader's error.
    pub fn new(nbt: &[u8], compression: ChunkCompression) -> Result<Self, crate::Error> {
        Self::with_level(nbt, compression, DEFAULT_LEVEL)
    }

    /// [`EncodedChunk::new`] at zlib/gzip level `level`, 0 (stored) to 9
    /// (smallest; larger values are 9). LZ4 and uncompressed chunks have no
    /// level. Minecraft reads every level. Level 1 makes a world-wide edit
    /// much cheaper in CPU than level 6 for somewhat larger region files
    /// (measured in `reports/cli.md`).
    pub fn with_level(
        nbt: &[u8],
        compression: ChunkCompression,
        level: u32,
    ) -> Result<Self, crate::Error> {
        match crate::borrow::read(&mut Cursor::new(nbt))? {
            crate::borrow::Nbt::Some(_) => {}
            // An End root: valid NBT, but no chunk.
            crate::borrow::Nbt::None => {
                return Err(crate::Error::new(crate::ErrorKind::InvalidRootType(0), 0));
            }
        }
        Ok(Self {
            compression,
            data: codec::encode(nbt, compression, level),
        })
    }

    /// How the data is compressed.
    pub fn compression(&self) -> ChunkCompression {
        self.compression
    }

    /// The compressed data, as the region stores it after the length and
    /// compression byte.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Whether the data decompresses to exactly `nbt`: the check a writer
    /// makes before storing, so that a compressor fault cannot reach the
    /// file. Decompressing stops past `nbt.len()` bytes.
    ///
    /// ```
    /// use simdnbt::region::{ChunkCompression, EncodedChunk};
    /// let nbt = [0x0a, 0, 0, 0];
    /// let chunk = EncodedChunk::new(&nbt, ChunkCompression::Zlib)?;
    /// assert!(chunk.reads_back_as(&nbt));
    /// assert!(!chunk.reads_back_as(&[0x0a, 0, 1, b'x', 0]));
    /// # Ok::<(), simdnbt::Error>(())
    /// ```
    pub fn reads_back_as(&self, nbt: &[u8]) -> bool {
        // Into a buffer this thread keeps: a writer checks every chunk it
        // stores, and a fresh buffer each time (grown to the chunk, then
        // copied out of the inflater's) cost page faults and a copy.
        READ_BACK.with_borrow_mut(|out| {
            // Room for `nbt`: straight into it, not through a scratch copy.
            out.clear();
            out.reserve(nbt.len());
            let same = codec::decode(&self.data, self.compression, nbt.len(), out).is_ok()
                && out[..] == *nbt;
            if out.capacity() > KEEP {
                *out = Vec::new();
            }
            same
        })
    }
}

thread_local! {
    /// What [`EncodedChunk::reads_back_as`] decompresses into.
    static READ_BACK: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The largest read-back buffer kept between calls (a chunk of up to 8 MiB
/// of NBT); a larger one is freed after use.
const KEEP: usize = 8 << 20;
