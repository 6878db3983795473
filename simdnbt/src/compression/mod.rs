//! Compressed NBT: telling gzip, zlib and raw input apart, inflating it with a
//! size cap, and writing it back compressed.
//!
//! Player and level files (`.dat`) are gzip; region-file chunks are zlib; network
//! NBT and some tools' files are raw. [`detect`] tells them apart from the first
//! bytes, and [`decompress`] / [`read_file`] inflate whatever they are given.
//!
//! A borrow document ([`crate::borrow::Nbt`]) points into the bytes it was read
//! from, so reading a compressed file is two steps: inflate into a buffer you keep
//! (a [`Decompressed`]), then parse it. An owned tree needs no buffer, so
//! [`read_owned_file`] does both at once.
//!
//! ```
//! use simdnbt::compression::{self, Compression};
//! use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtTag};
//!
//! let nbt = Nbt::Some(BaseNbt::new(
//!     "",
//!     NbtCompound::from_values(vec![("Health".into(), NbtTag::Float(20.0))]),
//! ));
//! let dir = std::env::temp_dir().join(format!("simdnbt-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("player.dat");
//! compression::write_owned_file(&path, &nbt, Compression::Gzip)?;
//!
//! // Borrow model: keep the inflated bytes, parse views over them.
//! let file = compression::read_file(&path)?;
//! assert_eq!(file.compression(), Compression::Gzip);
//! let doc = file.borrow()?.unwrap();
//! assert_eq!(doc.float("Health"), Some(20.0));
//!
//! // Owned model: one call.
//! let owned = compression::read_owned_file(&path)?;
//! assert_eq!(owned, nbt);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Inflation stops at [`crate::ReadOptions::max_inflated_bytes`] (256 MiB unless
//! you set it), so a decompression bomb is an [`InflateErrorKind::TooLarge`]
//! error after bounded memory, not an out-of-memory abort.

mod bounded;
mod error;
mod inflate;
#[cfg(feature = "libdeflate")]
mod libdeflate;
mod write;

use std::borrow::Cow;
use std::io::Cursor;
use std::path::Path;

pub use error::{FileError, InflateError, InflateErrorKind};
pub use write::{compress, compress_with_level, write_file, write_owned_file};

#[cfg(feature = "region")]
pub(crate) use bounded::{fill, len_hint, stored_bound};
pub(crate) use inflate::inflate_into;

use crate::error::Error;
use crate::options::ReadOptions;

/// How an NBT input is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// A gzip stream (starts `1f 8b`): player and level `.dat` files.
    Gzip,
    /// A zlib stream (a valid two-byte zlib header, usually `78 9c`): region chunks.
    Zlib,
    /// Uncompressed NBT.
    Raw,
}

impl Compression {
    /// A short lower-case name, as used in error messages: `"gzip"`, `"zlib"`, `"raw"`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zlib => "zlib",
            Compression::Raw => "raw",
        }
    }
}

/// Tells from the first bytes how `bytes` is stored.
///
/// gzip is `1f 8b`. zlib is a two-byte header with method 8 (deflate), a window of
/// 512 B to 32 KiB, no preset dictionary and a valid check value (for example
/// `78 9c`, `78 da`, `78 01`, `58 85`); none of its first bytes (`18`, `28`, ...,
/// `78`) is an NBT tag id, so raw NBT is never mistaken for zlib. Everything else is
/// [`Compression::Raw`].
///
/// ```
/// use simdnbt::compression::{detect, Compression};
/// assert_eq!(detect(&[0x1f, 0x8b, 0x08]), Compression::Gzip);
/// assert_eq!(detect(&[0x78, 0x9c]), Compression::Zlib);
/// assert_eq!(detect(&[0x78, 0x9d]), Compression::Raw); // bad check value
/// assert_eq!(detect(&[0x0a, 0x00, 0x00, 0x00]), Compression::Raw);
/// ```
pub fn detect(bytes: &[u8]) -> Compression {
    match *bytes {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [cmf, flg, ..] if is_zlib_header(cmf, flg) => Compression::Zlib,
        _ => Compression::Raw,
    }
}

fn is_zlib_header(cmf: u8, flg: u8) -> bool {
    let deflate = cmf & 0x0f == 8;
    // CINFO 1..=7: windows of 512 B..32 KiB. CINFO 0 would make `08`, the String tag id.
    let window = (1..=7).contains(&(cmf >> 4));
    let no_dictionary = flg & 0x20 == 0;
    let check = (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0;
    deflate && window && no_dictionary && check
}

/// Inflates `bytes` if it is gzip or zlib ([`detect`]); raw input is returned
/// borrowed, without a copy. Uses the default [`ReadOptions`] (256 MiB cap).
///
/// ```
/// use simdnbt::compression::{compress, decompress, Compression};
/// let nbt = [0x0a, 0x00, 0x00, 0x00];
/// let gz = compress(&nbt, Compression::Gzip);
/// assert_eq!(&*decompress(&gz).unwrap(), &nbt);
/// assert_eq!(&*decompress(&nbt).unwrap(), &nbt);
/// ```
pub fn decompress(bytes: &[u8]) -> Result<Cow<'_, [u8]>, InflateError> {
    decompress_with(bytes, &ReadOptions::default())
}

/// [`decompress`] with the inflation cap of `opts` ([`ReadOptions::inflate_limit`]).
/// Raw input longer than the cap is also refused, so the cap bounds what the
/// caller goes on to parse either way.
pub fn decompress_with<'a>(
    bytes: &'a [u8],
    opts: &ReadOptions,
) -> Result<Cow<'a, [u8]>, InflateError> {
    let format = detect(bytes);
    let limit = opts.inflate_limit();
    if format == Compression::Raw {
        if bytes.len() > limit {
            return Err(InflateError {
                format,
                kind: InflateErrorKind::TooLarge { limit },
                offset: 0,
            });
        }
        return Ok(Cow::Borrowed(bytes));
    }
    let mut out = Vec::new();
    inflate_into(bytes, format, limit, &mut out)?;
    Ok(Cow::Owned(out))
}

/// The inflated bytes of an NBT file, kept so that borrow documents can point
/// into them. Made by [`read_file`] or [`Decompressed::from_bytes`]; dereferences
/// to the NBT bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decompressed {
    bytes: Vec<u8>,
    compression: Compression,
    opts: ReadOptions,
}

impl Decompressed {
    /// Inflates (or copies, if raw) `bytes` with the default options.
    ///
    /// ```
    /// use simdnbt::compression::{compress, Compression, Decompressed};
    /// let gz = compress(&[0x0a, 0x00, 0x00, 0x00], Compression::Gzip);
    /// let file = Decompressed::from_bytes(&gz).unwrap();
    /// assert_eq!(file.compression(), Compression::Gzip);
    /// assert!(file.borrow().unwrap().is_some());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, InflateError> {
        Self::from_bytes_with(bytes, &ReadOptions::default())
    }

    /// [`Decompressed::from_bytes`] with explicit limits; they also apply to
    /// [`Decompressed::borrow`] and [`Decompressed::to_owned_nbt`].
    pub fn from_bytes_with(bytes: &[u8], opts: &ReadOptions) -> Result<Self, InflateError> {
        let compression = detect(bytes);
        let bytes = decompress_with(bytes, opts)?.into_owned();
        Ok(Self {
            bytes,
            compression,
            opts: *opts,
        })
    }

    /// How the input was stored.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The inflated NBT bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Gives the inflated bytes back.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The inflated bytes, how they were stored and the read limits.
    pub(crate) fn into_parts(self) -> (Vec<u8>, Compression, ReadOptions) {
        (self.bytes, self.compression, self.opts)
    }

    /// Reads the bytes as a named root compound (the file form) with the borrow
    /// reader; the document borrows from `self`.
    pub fn borrow(&self) -> Result<crate::borrow::Nbt<'_>, Error> {
        crate::borrow::read_with(&mut Cursor::new(&self.bytes[..]), &self.opts)
    }

    /// Reads the bytes as a named root compound into an owned tree.
    pub fn to_owned_nbt(&self) -> Result<crate::owned::Nbt, Error> {
        crate::owned::read_with(&mut Cursor::new(&self.bytes[..]), &self.opts)
    }
}

impl std::ops::Deref for Decompressed {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// Reads the file at `path` and inflates it if it is gzip or zlib, with the
/// default options. Parse the result with [`Decompressed::borrow`] or
/// [`Decompressed::to_owned_nbt`]. See the [module docs](self) for an example.
pub fn read_file(path: impl AsRef<Path>) -> Result<Decompressed, FileError> {
    read_file_with(path, &ReadOptions::default())
}

/// [`read_file`] with explicit limits.
///
/// The file is read no further than its contents can matter: a raw file up to
/// the cap ([`ReadOptions::inflate_limit`]) plus one byte, which tells that it is
/// too large; a gzip or zlib file up to the largest stream that can inflate to
/// the cap (about 1.6% and 4 KiB more). So a symlink to `/dev/zero` or a huge
/// sparse file fails after reading about the cap, whatever its length says.
pub fn read_file_with(
    path: impl AsRef<Path>,
    opts: &ReadOptions,
) -> Result<Decompressed, FileError> {
    let path = path.as_ref();
    let io = |error| FileError::io(path, error);
    let limit = opts.inflate_limit();
    let mut file = std::fs::File::open(path).map_err(io)?;
    let hint = bounded::len_hint(&file);
    let mut bytes = Vec::new();
    bounded::fill(&mut file, &mut bytes, 2, hint).map_err(io)?;
    let compression = detect(&bytes);
    let most = match compression {
        Compression::Raw => limit,
        Compression::Gzip | Compression::Zlib => bounded::stored_bound(limit),
    };
    bounded::fill(&mut file, &mut bytes, most.saturating_add(1), hint).map_err(io)?;
    let cut = bytes.len() > most;
    let too_large = || InflateError {
        format: compression,
        kind: InflateErrorKind::TooLarge { limit },
        offset: most,
    };
    let bytes = match decompress_with(&bytes, opts) {
        // Raw: keep the buffer we already own instead of copying it.
        Ok(Cow::Borrowed(_)) => bytes,
        Ok(Cow::Owned(inflated)) => inflated,
        // A stream that does not end within `most` bytes inflates past the cap.
        Err(e) if cut && e.kind() == &InflateErrorKind::Truncated => return Err(too_large().into()),
        Err(e) => return Err(e.into()),
    };
    Ok(Decompressed {
        bytes,
        compression,
        opts: *opts,
    })
}

/// Reads the file at `path`, inflating it if needed, into an owned tree (named
/// root compound, the file form).
pub fn read_owned_file(path: impl AsRef<Path>) -> Result<crate::owned::Nbt, FileError> {
    read_owned_file_with(path, &ReadOptions::default())
}

/// [`read_owned_file`] with explicit limits.
pub fn read_owned_file_with(
    path: impl AsRef<Path>,
    opts: &ReadOptions,
) -> Result<crate::owned::Nbt, FileError> {
    Ok(read_file_with(path, opts)?.to_owned_nbt()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn every_zlib_header_zlib_writes_is_detected() {
        // Level 0..=9 headers from zlib itself, and the 512 B-window one.
        for header in [
            [0x78, 0x01],
            [0x78, 0x5e],
            [0x78, 0x9c],
            [0x78, 0xda],
            [0x18, 0x95],
        ] {
            assert_eq!(detect(&header), Compression::Zlib, "{header:02x?}");
        }
        for level in 0..=9 {
            let packed = compress_with_level(b"abc", Compression::Zlib, level);
            assert_eq!(detect(&packed), Compression::Zlib, "level {level}");
        }
    }

    #[test]
    fn no_tag_id_starts_a_zlib_header() {
        for id in 0u8..=12 {
            for second in 0..=255u8 {
                assert_eq!(detect(&[id, second]), Compression::Raw, "{id} {second}");
            }
        }
    }

    #[test]
    fn short_inputs_are_raw() {
        assert_eq!(detect(&[]), Compression::Raw);
        assert_eq!(detect(&[0x1f]), Compression::Raw);
        assert_eq!(detect(&[0x78]), Compression::Raw);
    }

    #[test]
    fn raw_input_over_the_cap_is_refused() {
        let opts = ReadOptions::default().max_inflated_bytes(3);
        let err = decompress_with(&[0x0a, 0, 0, 0], &opts).unwrap_err();
        assert_eq!(err.kind(), &InflateErrorKind::TooLarge { limit: 3 });
        assert!(decompress_with(&[0x0a, 0, 0], &opts).is_ok());
    }

    #[test]
    fn max_bytes_lowers_the_cap() {
        let opts = ReadOptions::default().max_bytes(10).max_inflated_bytes(100);
        assert_eq!(opts.inflate_limit(), 10);
        let opts = ReadOptions::default()
            .max_bytes(1000)
            .max_inflated_bytes(100);
        assert_eq!(opts.inflate_limit(), 100);
        assert_eq!(
            ReadOptions::default().inflate_limit(),
            crate::DEFAULT_MAX_INFLATED
        );
    }
}
