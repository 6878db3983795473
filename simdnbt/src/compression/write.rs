//! gzip and zlib writers.

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

use flate2::write::GzEncoder;
use flate2::{Compress, FlushCompress, Status};

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
///
/// With the `libdeflate` feature, libdeflate compresses (one compressor per
/// thread): the same format at the same levels, faster and a little smaller
/// (`reports/files.md`). Without it, zlib-rs does.
///
/// zlib-rs's zlib streams are made with one compressor per thread, kept between calls
/// and reset for each stream: setting up a new one allocates and clears its
/// tables again, a reset clears only the hash heads. On the 676 chunks of
/// the corpus 1.19.4 region at level 6 that is 1.25 G instructions of
/// compressing down to 1.07 G (callgrind); in CPU time over a whole world
/// the difference is within the noise of `perf` (`reports/cli.md`).
pub fn compress_with_level(nbt: &[u8], format: Compression, level: u32) -> Vec<u8> {
    let level = level.min(9);
    #[cfg(feature = "libdeflate")]
    if let Some(packed) = super::libdeflate::compress(nbt, format, level) {
        return packed;
    }
    match format {
        Compression::Raw => nbt.to_vec(),
        Compression::Gzip => {
            // Writing into a Vec cannot fail, so neither can the encoder.
            let out = Vec::with_capacity(nbt.len() / 4 + 64);
            let mut encoder = GzEncoder::new(out, flate2::Compression::new(level));
            encoder.write_all(nbt).expect("writing to a Vec");
            encoder.finish().expect("writing to a Vec")
        }
        Compression::Zlib => ZLIB.with_borrow_mut(|kept| {
            let stream = match kept {
                Some((at, stream)) if *at == level => {
                    stream.reset();
                    stream
                }
                _ => {
                    let stream = Compress::new(flate2::Compression::new(level), true);
                    &mut kept.insert((level, stream)).1
                }
            };
            zlib_stream(stream, nbt)
        }),
    }
}

thread_local! {
    /// This thread's zlib compressor and its level.
    static ZLIB: RefCell<Option<(u32, Compress)>> = const { RefCell::new(None) };
}

/// One whole zlib stream of `input` from a fresh (or reset) `stream`.
fn zlib_stream(stream: &mut Compress, input: &[u8]) -> Vec<u8> {
    // NBT compresses 3-10x: half the input holds nearly every stream at
    // once; the loop grows it otherwise.
    let mut out = Vec::with_capacity(input.len() / 2 + 64);
    loop {
        let read = stream.total_in() as usize;
        // A Vec output and a whole input: only a full output stops early.
        let status = stream
            .compress_vec(&input[read..], &mut out, FlushCompress::Finish)
            .expect("deflate into a Vec cannot fail");
        if status == Status::StreamEnd {
            return out;
        }
        out.reserve(out.capacity().max(4096));
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
