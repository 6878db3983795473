//! The four chunk compressions Minecraft writes, decoded with the size cap.

use super::error::RegionErrorKind;
use super::lz4;
use crate::compression::{self, Compression};

/// How a chunk's data is compressed (the region format's compression byte,
/// without the external flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkCompression {
    /// 1: gzip. Minecraft reads it but has never written it by default.
    Gzip,
    /// 2: zlib, Minecraft's default.
    Zlib,
    /// 3: stored uncompressed (Minecraft 1.15.1+, `region-file-compression=none`).
    Uncompressed,
    /// 4: LZ4 in lz4-java's block stream format (Minecraft 1.20.5+,
    /// `region-file-compression=lz4`).
    Lz4,
}

impl ChunkCompression {
    /// The compression byte as stored in the region file (without the +128
    /// external flag).
    ///
    /// ```
    /// use simdnbt::region::ChunkCompression;
    /// assert_eq!(ChunkCompression::Zlib.id(), 2);
    /// assert_eq!(ChunkCompression::from_id(4), Some(ChunkCompression::Lz4));
    /// assert_eq!(ChunkCompression::from_id(127), None);
    /// ```
    pub fn id(self) -> u8 {
        match self {
            ChunkCompression::Gzip => 1,
            ChunkCompression::Zlib => 2,
            ChunkCompression::Uncompressed => 3,
            ChunkCompression::Lz4 => 4,
        }
    }

    /// The compression with this byte (external flag ignored), or `None` if
    /// this crate cannot decode it.
    pub fn from_id(id: u8) -> Option<Self> {
        match id & 0x7f {
            1 => Some(ChunkCompression::Gzip),
            2 => Some(ChunkCompression::Zlib),
            3 => Some(ChunkCompression::Uncompressed),
            4 => Some(ChunkCompression::Lz4),
            _ => None,
        }
    }
}

/// Decodes chunk data into `out` (cleared first), refusing more than `limit` bytes.
pub(crate) fn decode(
    data: &[u8],
    kind: ChunkCompression,
    limit: usize,
    out: &mut Vec<u8>,
) -> Result<(), RegionErrorKind> {
    out.clear();
    let mut deflate = |format| {
        compression::inflate_into(data, format, limit, &mut *out).map_err(RegionErrorKind::Inflate)
    };
    match kind {
        ChunkCompression::Gzip => deflate(Compression::Gzip),
        ChunkCompression::Zlib => deflate(Compression::Zlib),
        ChunkCompression::Uncompressed if data.len() > limit => {
            Err(RegionErrorKind::TooLarge { limit })
        }
        ChunkCompression::Uncompressed => {
            out.extend_from_slice(data);
            Ok(())
        }
        ChunkCompression::Lz4 => lz4::decode(data, limit, out).map_err(|e| RegionErrorKind::Lz4 {
            offset: e.offset,
            message: e.problem.to_string(),
        }),
    }
}

/// Encodes NBT bytes for storage; `level` is zlib's and gzip's (0..=9).
pub(crate) fn encode(nbt: &[u8], kind: ChunkCompression, level: u32) -> Vec<u8> {
    match kind {
        ChunkCompression::Gzip => compression::compress_with_level(nbt, Compression::Gzip, level),
        ChunkCompression::Zlib => compression::compress_with_level(nbt, Compression::Zlib, level),
        ChunkCompression::Uncompressed => nbt.to_vec(),
        ChunkCompression::Lz4 => lz4::encode(nbt),
    }
}
