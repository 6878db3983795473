//! Minecraft region files (`r.X.Z.mca`): the 32 × 32 chunks of a world area.
//!
//! A [`Region`] holds the file in memory. Opening it checks every one of the
//! 1024 header entries against the file — offsets inside the header, sectors past
//! the end, chunks sharing sectors, zero or oversized lengths — and refuses the
//! file with an error naming the chunk, so that reading a chunk afterwards cannot
//! go out of bounds ([`Region::from_bytes_lenient`] and [`Region::open_lenient`]
//! instead leave out only the chunks of bad entries, and say which). A chunk
//! stored with a compression this crate cannot decode
//! (a server's custom algorithm, 127, or an unknown byte) does not stop the
//! file from opening: reading that chunk is the error, and the others read.
//!
//! [`Region::chunk`] gives a chunk's uncompressed NBT bytes, whatever Minecraft
//! stored them as: gzip, zlib, uncompressed, LZ4 (lz4-java's block format), each
//! possibly in an external `c.X.Z.mcc` file beside the region (for chunks over
//! 1 MiB compressed). Inflated chunks are capped at
//! [`ReadOptions::max_inflated_bytes`].
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::region::{ChunkCompression, Region};
//!
//! // A region with one chunk (`{xPos: 3}`), written and read back.
//! let chunk = [0x0a, 0, 0, 3, 0, 4, b'x', b'P', b'o', b's', 0, 0, 0, 3, 0];
//! let mut region = Region::new();
//! region.write_chunk(3, 7, &chunk, ChunkCompression::Zlib)?;
//! let region = Region::from_bytes(region.into_bytes())?;
//!
//! for info in region.chunks() {
//!     println!("{} written at {}", info.pos, info.timestamp);
//!     assert_eq!(info.compression, Some(ChunkCompression::Zlib));
//! }
//! let bytes = region.chunk(3, 7)?.expect("chunk (3, 7) is present");
//! let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))?.unwrap();
//! assert_eq!(nbt.int("xPos"), Some(3));
//! assert!(region.chunk(0, 0)?.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing chunks ([`Region::write_chunk`], [`Region::remove_chunk`],
//! [`Region::compact`]) edits the in-memory file the way Minecraft edits it on
//! disk (first free run of sectors, last sector padded to 4 KiB); [`Region::save`]
//! writes it and any external chunk files.

mod codec;
mod encoded;
mod error;
mod header;
mod lz4;
mod write;

pub mod chunk;

#[cfg(feature = "scan")]
#[cfg_attr(docsrs, doc(cfg(feature = "scan")))]
pub mod scan;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use codec::ChunkCompression;
pub use encoded::{DEFAULT_LEVEL, EncodedChunk};
pub use error::{LocalPos, RegionError, RegionErrorKind};

use crate::compression;
use crate::options::ReadOptions;
use header::{ChunkLocation, EXTERNAL, HEADER_BYTES, SECTOR};

/// Where a region's external `.mcc` chunk files live: its directory, and its
/// position (the `X`, `Z` of `r.X.Z.mca`), which names them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ExternalDir {
    dir: PathBuf,
    region_x: i32,
    region_z: i32,
}

impl ExternalDir {
    /// The location for a region file path named `r.X.Z.mca`, if it is so named.
    fn for_region_file(path: &Path) -> Option<Self> {
        let (region_x, region_z) = region_position(path)?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        Some(Self {
            dir,
            region_x,
            region_z,
        })
    }

    /// `c.X.Z.mcc`, with the chunk's absolute coordinates.
    fn chunk_file(&self, pos: LocalPos) -> PathBuf {
        let x = i64::from(self.region_x) * 32 + i64::from(pos.x);
        let z = i64::from(self.region_z) * 32 + i64::from(pos.z);
        self.dir.join(format!("c.{x}.{z}.mcc"))
    }
}

/// The region position `(X, Z)` of a file named `r.X.Z.mca`.
///
/// ```
/// use simdnbt::region::region_position;
/// assert_eq!(region_position("world/region/r.-1.2.mca".as_ref()), Some((-1, 2)));
/// assert_eq!(region_position("level.dat".as_ref()), None);
/// ```
pub fn region_position(path: &Path) -> Option<(i32, i32)> {
    let name = path.file_name()?.to_str()?;
    let mut parts = name.strip_prefix("r.")?.strip_suffix(".mca")?.split('.');
    let x = parts.next()?.parse().ok()?;
    let z = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((x, z))
}

/// What the header says about one present chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Position in the region.
    pub pos: LocalPos,
    /// When the chunk was last saved, in seconds since the Unix epoch.
    pub timestamp: u32,
    /// First sector (4 KiB units from the start of the file).
    pub sector: u32,
    /// Number of sectors.
    pub sectors: u32,
    /// How the data is compressed; `None` for a compression this crate cannot
    /// decode (reading the chunk is then [`RegionErrorKind::UnknownCompression`]).
    pub compression: Option<ChunkCompression>,
    /// The compression byte as stored, without the external flag (`2` for zlib,
    /// `127` for a server's custom compression).
    pub compression_id: u8,
    /// Whether the data is in an external `c.X.Z.mcc` file.
    pub external: bool,
}

/// A region file in memory. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Region {
    /// The file as it is (or will be) on disk.
    file: Vec<u8>,
    /// Checked header entries, by index `x + 32 z`.
    slots: Vec<Option<ChunkLocation>>,
    external: Option<ExternalDir>,
    /// External chunk files changed since opening: new data, or `None` to delete.
    pending_external: BTreeMap<usize, Option<Vec<u8>>>,
    opts: ReadOptions,
    /// Header entries that failed their checks (lenient opening only): the
    /// entry and the sectors it claims, which new chunks are kept out of.
    bad: Vec<(usize, std::ops::Range<u32>)>,
}

impl Default for Region {
    fn default() -> Self {
        Self::new()
    }
}

impl Region {
    /// An empty region (no chunks; no external-file location until [`Region::save`]).
    pub fn new() -> Self {
        Self {
            file: vec![0; HEADER_BYTES],
            slots: vec![None; header::ENTRIES],
            external: None,
            pending_external: BTreeMap::new(),
            opts: ReadOptions::default(),
            bad: Vec::new(),
        }
    }

    /// Reads and checks the region file at `path`. If it is named `r.X.Z.mca`,
    /// external chunks are looked up beside it as `c.X.Z.mcc`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, RegionError> {
        let path = path.as_ref();
        let file = std::fs::read(path).map_err(|error| {
            RegionError::file(RegionErrorKind::Io {
                path: path.to_owned(),
                error,
            })
        })?;
        let mut region = Self::from_bytes(file)?;
        region.external = ExternalDir::for_region_file(path);
        Ok(region)
    }

    /// Checks a region file given as bytes. External chunks cannot be read from
    /// such a region unless [`Region::with_external_dir`] says where they are.
    pub fn from_bytes(file: Vec<u8>) -> Result<Self, RegionError> {
        let slots = header::read_slots(&file)?;
        Ok(Self {
            file,
            slots,
            ..Self::new()
        })
    }

    /// [`Region::open`], except that a bad header entry (sectors in the
    /// header or past the end of the file, sectors another chunk uses, a bad
    /// length) costs only its own chunk: see [`Region::from_bytes_lenient`].
    pub fn open_lenient(path: impl AsRef<Path>) -> Result<(Self, Vec<RegionError>), RegionError> {
        let path = path.as_ref();
        let file = std::fs::read(path).map_err(|error| {
            RegionError::file(RegionErrorKind::Io {
                path: path.to_owned(),
                error,
            })
        })?;
        let (mut region, bad) = Self::from_bytes_lenient(file)?;
        region.external = ExternalDir::for_region_file(path);
        Ok((region, bad))
    }

    /// [`Region::from_bytes`], except that a bad header entry costs only its
    /// own chunk: the region opens without it (as if absent: [`Region::info`]
    /// says `None`), and the error for each such entry, naming its chunk, is
    /// returned beside it. Only a file too short for its header is refused.
    ///
    /// Bad entries stay in the header as they are, and the sectors they claim
    /// inside the file are never given to a chunk written later, so that
    /// nothing a repair tool could still read is overwritten; an entry whose
    /// sectors the file grows into (they lay past its end) is cleared then,
    /// and [`Region::compact`] clears them all. Of two entries claiming a
    /// sector, the first sound one in header order keeps it.
    ///
    /// ```
    /// use simdnbt::region::{ChunkCompression, Region, RegionErrorKind};
    ///
    /// let mut region = Region::new();
    /// region.write_chunk(0, 0, &[0x0a, 0, 0, 0], ChunkCompression::Zlib)?;
    /// region.write_chunk(1, 0, &[0x0a, 0, 0, 0], ChunkCompression::Zlib)?;
    /// let mut file = region.into_bytes();
    /// file[4..8].copy_from_slice(&(99u32 << 8 | 1).to_be_bytes()); // (1, 0): past the end
    /// assert!(Region::from_bytes(file.clone()).is_err());
    ///
    /// let (region, bad) = Region::from_bytes_lenient(file)?;
    /// assert!(region.chunk(0, 0)?.is_some());
    /// assert!(region.info(1, 0).is_none());
    /// assert_eq!(bad.len(), 1);
    /// assert_eq!(bad[0].pos().map(|p| (p.x, p.z)), Some((1, 0)));
    /// assert!(matches!(bad[0].kind(), RegionErrorKind::SectorsPastEnd { .. }));
    /// # Ok::<(), simdnbt::region::RegionError>(())
    /// ```
    pub fn from_bytes_lenient(file: Vec<u8>) -> Result<(Self, Vec<RegionError>), RegionError> {
        let (slots, bad) = header::check_slots(&file, false)?;
        let mut errors = Vec::with_capacity(bad.len());
        let mut region = Self {
            file,
            slots,
            ..Self::new()
        };
        for b in bad {
            region.bad.push((b.index, b.sectors));
            errors.push(b.error);
        }
        Ok((region, errors))
    }

    /// Says where external `.mcc` chunk files are: directory `dir`, for the
    /// region at region position `(region_x, region_z)`.
    pub fn with_external_dir(
        mut self,
        dir: impl Into<PathBuf>,
        region_x: i32,
        region_z: i32,
    ) -> Self {
        self.external = Some(ExternalDir {
            dir: dir.into(),
            region_x,
            region_z,
        });
        self
    }

    /// Sets the limits for reading chunks (the inflation cap is
    /// [`ReadOptions::inflate_limit`]).
    pub fn with_options(mut self, opts: ReadOptions) -> Self {
        self.opts = opts;
        self
    }

    /// The file's bytes as they would be saved.
    pub fn as_bytes(&self) -> &[u8] {
        &self.file
    }

    /// Gives the file's bytes back (external chunks written since opening are not
    /// in them; use [`Region::save`] for those).
    pub fn into_bytes(self) -> Vec<u8> {
        self.file
    }

    /// The number of chunks present.
    pub fn len(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// Whether no chunk is present.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every present chunk, in header order (`x` fastest).
    pub fn chunks(&self) -> impl Iterator<Item = ChunkInfo> + '_ {
        (0..header::ENTRIES).filter_map(|index| self.info_at(index))
    }

    /// What the header says about chunk `(x, z)`, or `None` if it is absent.
    /// Only the low five bits of `x` and `z` count, so absolute chunk coordinates
    /// work as well as local ones.
    pub fn info(&self, x: i32, z: i32) -> Option<ChunkInfo> {
        self.info_at(LocalPos::index_of(x, z))
    }

    fn info_at(&self, index: usize) -> Option<ChunkInfo> {
        let slot = self.slots[index]?;
        Some(ChunkInfo {
            pos: LocalPos::from_index(index),
            timestamp: self.timestamp_at(index),
            sector: slot.sector,
            sectors: slot.count,
            compression: ChunkCompression::from_id(slot.compression),
            compression_id: slot.compression & !EXTERNAL,
            external: slot.compression & EXTERNAL != 0,
        })
    }

    fn timestamp_at(&self, index: usize) -> u32 {
        if self.file.len() < HEADER_BYTES {
            return 0;
        }
        header::be32(&self.file, SECTOR + index * 4)
    }

    /// The uncompressed NBT bytes of chunk `(x, z)`, or `None` if it is absent.
    /// Only the low five bits of `x` and `z` count.
    pub fn chunk(&self, x: i32, z: i32) -> Result<Option<Vec<u8>>, RegionError> {
        let mut out = Vec::new();
        Ok(self.chunk_into(x, z, &mut out)?.then_some(out))
    }

    /// [`Region::chunk`] into a buffer you reuse: `out` is cleared, then filled
    /// with the chunk's NBT bytes. Returns whether the chunk is present.
    pub fn chunk_into(&self, x: i32, z: i32, out: &mut Vec<u8>) -> Result<bool, RegionError> {
        let index = LocalPos::index_of(x, z);
        out.clear();
        let Some(slot) = self.slots[index] else {
            return Ok(false);
        };
        let pos = LocalPos::from_index(index);
        let kind = ChunkCompression::from_id(slot.compression)
            .ok_or(RegionErrorKind::UnknownCompression(slot.compression))
            .map_err(|k| RegionError::chunk(pos, k))?;
        let limit = self.opts.inflate_limit();
        let data = if slot.compression & EXTERNAL != 0 {
            self.external_data(pos, limit)
                .map_err(|k| RegionError::chunk(pos, k))?
        } else {
            Cow::Borrowed(&self.file[slot.data_range()])
        };
        codec::decode(&data, kind, limit, out).map_err(|k| RegionError::chunk(pos, k))?;
        Ok(true)
    }

    /// The stored (compressed) bytes of an external chunk.
    fn external_data(&self, pos: LocalPos, limit: usize) -> Result<Cow<'_, [u8]>, RegionErrorKind> {
        let index = usize::from(pos.x) + usize::from(pos.z) * 32;
        if let Some(Some(data)) = self.pending_external.get(&index) {
            return Ok(Cow::Borrowed(data));
        }
        let location = self
            .external
            .as_ref()
            .ok_or(RegionErrorKind::NoExternalLocation)?;
        let path = location.chunk_file(pos);
        let mut file =
            std::fs::File::open(&path).map_err(|error| RegionErrorKind::ExternalFile {
                path: path.clone(),
                error,
            })?;
        // Valid compressed data under the cap is at most slightly larger than it
        // (deflate's stored blocks, LZ4's headers): read no more than that.
        let most = compression::stored_bound(limit);
        let hint = compression::len_hint(&file);
        let mut data = Vec::new();
        compression::fill(&mut file, &mut data, most.saturating_add(1), hint)
            .map_err(|error| RegionErrorKind::ExternalFile { path, error })?;
        if data.len() > most {
            return Err(RegionErrorKind::TooLarge { limit });
        }
        Ok(Cow::Owned(data))
    }
}
