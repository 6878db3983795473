//! gzip and zlib writers.

use std::io::Write;
use std::path::Path;

use flate2::write::{GzEncoder, ZlibEncoder};

use super::{Compression, FileError};

/// The level Minecraft and zlib use by default.
const DEFAULT_LEVEL: u32 = 6;

/// Compresses NBT bytes as `format` at the default level (6). [`Compression::Raw`]
/// returns a copy.
///
/// ```
/// use simdnbt::compression::{compress, detect, Compression};
/// let gz = compress(&[0x0a, 0x00, 0x00, 0x00], Compression::Gzip);
/// assert_eq!(detect(&gz), Compression::Gzip);
/// ```
pub fn compress(nbt: &[u8], format: Compression) -> Vec<u8> {
    compress_with_level(nbt, format, DEFAULT_LEVEL)
}

/// [`compress`] at a chosen level, 0 (store) to 9 (smallest); larger values
/// are treated as 9.
pub fn compress_with_level(nbt: &[u8], format: Compression, level: u32) -> Vec<u8> {
    let level = flate2::Compression::new(level.min(9));
    // Writing into a Vec cannot fail, so neither can the encoders.
    let out = Vec::with_capacity(nbt.len() / 4 + 64);
    match format {
        Compression::Raw => nbt.to_vec(),
        Compression::Gzip => {
            let mut encoder = GzEncoder::new(out, level);
            encoder.write_all(nbt).expect("writing to a Vec");
            encoder.finish().expect("writing to a Vec")
        }
        Compression::Zlib => {
            let mut encoder = ZlibEncoder::new(out, level);
            encoder.write_all(nbt).expect("writing to a Vec");
            encoder.finish().expect("writing to a Vec")
        }
    }
}

/// Writes NBT bytes to `path`, compressed as `format`.
pub fn write_file(
    path: impl AsRef<Path>,
    nbt: &[u8],
    format: Compression,
) -> Result<(), FileError> {
    let path = path.as_ref();
    std::fs::write(path, compress(nbt, format)).map_err(|error| FileError::io(path, error))
}

/// Writes an owned tree to `path` as a named root compound (the file form),
/// compressed as `format` (Minecraft's `.dat` files are [`Compression::Gzip`]).
/// If the tree cannot be encoded, nothing is written.
pub fn write_owned_file(
    path: impl AsRef<Path>,
    nbt: &crate::owned::Nbt,
    format: Compression,
) -> Result<(), FileError> {
    let mut bytes = Vec::new();
    nbt.write(&mut bytes)?;
    write_file(path, &bytes, format)
}
