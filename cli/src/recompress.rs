//! `nbt convert WORLD|FILE.mca --region-compression zlib|gzip|lz4|none`:
//! every chunk of region files stored again in another compression, its NBT
//! bytes unchanged.
//!
//! Each chunk is decoded (from the region, or from its external `c.X.Z.mcc`
//! file), encoded in the new compression ([`EncodedChunk`] reads the NBT
//! with the borrow reader first), and the new data must decode to exactly the
//! original NBT bytes before it is stored. The file is written through
//! [`crate::store::replace_verified`]: a temporary file, read back and
//! checked (each converted chunk's record holds exactly its checked data,
//! every other chunk's record is byte-identical to the original, the
//! timestamps table is unchanged), then renamed over the original. A whole
//! file converted is packed (its records in order from sector 2, no free
//! space); with `--chunk` every other chunk keeps its sectors too. A chunk already in the
//! target compression keeps its bytes. A chunk that cannot be read is left
//! as it is and reported.
//!
//! External chunks (over 1 MiB compressed) are read from their `.mcc` file;
//! stored inline in the new compression, their `.mcc` file is removed after
//! the region is replaced (until then the old region still uses it). A chunk
//! that would need an external file in the new compression is refused, the
//! region left as it is, as `set` does: the old region would point at the
//! new `.mcc` data with the old compression byte until the rename.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::ValueEnum;
use rayon::prelude::*;
use simdnbt::region::{ChunkCompression, ChunkInfo, EncodedChunk, Region};

use crate::failure::{Failure, Result};
use crate::input::{ChunkPos, Place};
use crate::store::WriteOpts;

/// The compressions `--region-compression` stores chunks in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RegionCompression {
    /// zlib (2): Minecraft's default, `--level` 0-9.
    Zlib,
    /// gzip (1): read by Minecraft, never written by it by default.
    Gzip,
    /// LZ4 (4, lz4-java's block stream): Minecraft 1.20.5+ with
    /// `region-file-compression=lz4`.
    Lz4,
    /// Uncompressed (3): Minecraft 1.15.1+, `region-file-compression=none`.
    None,
}

impl RegionCompression {
    fn chunk(self) -> ChunkCompression {
        match self {
            RegionCompression::Zlib => ChunkCompression::Zlib,
            RegionCompression::Gzip => ChunkCompression::Gzip,
            RegionCompression::Lz4 => ChunkCompression::Lz4,
            RegionCompression::None => ChunkCompression::Uncompressed,
        }
    }

    fn name(self) -> &'static str {
        match self {
            RegionCompression::Zlib => "zlib",
            RegionCompression::Gzip => "gzip",
            RegionCompression::Lz4 => "lz4",
            RegionCompression::None => "none",
        }
    }
}

/// What converting one region file did.
#[derive(Debug, Default, Clone, Copy)]
struct Outcome {
    chunks: usize,
    converted: usize,
    failed: usize,
}

/// Converts every region file of `file` (a region file, or a folder walked
/// for them; with `chunk`, that chunk of one region file). Prints a line
/// per failure and a summary on stderr; returns the exit status (0; 2
/// something failed or was refused).
pub fn run(
    file: &Place,
    to: RegionCompression,
    chunk: Option<ChunkPos>,
    w: WriteOpts,
) -> Result<u8> {
    let start = Instant::now();
    let Place::File(path) = file else {
        return Err(Failure::new(
            "--region-compression converts region files in place: give a region file or a folder",
        ));
    };
    let inputs = crate::walk::Inputs::collect(std::slice::from_ref(path));
    if let Some(pos) = chunk {
        if inputs.regions.len() != 1 || path.is_dir() {
            return Err(Failure::new("--chunk needs one region file"));
        }
        crate::input::check_in_region(file, pos)?;
    }
    let mut status = 0;
    for message in &inputs.unreadable {
        eprintln!("nbt: {message}");
        status = crate::failure::TROUBLE;
    }
    let only = chunk.map(|p| (p.x.rem_euclid(32) as u8, p.z.rem_euclid(32) as u8));
    let results: Vec<(&PathBuf, Result<Outcome>)> = inputs
        .regions
        .par_iter()
        .map(|region| (region, convert_region(region, to, only, w)))
        .collect();
    let mut total = Outcome::default();
    let mut files = 0;
    for (region, result) in results {
        match result {
            Ok(o) => {
                total.chunks += o.chunks;
                total.converted += o.converted;
                total.failed += o.failed;
                files += usize::from(o.converted > 0);
            }
            Err(f) => {
                eprintln!("nbt: {}", f.message);
                let _ = region;
                status = crate::failure::TROUBLE;
            }
        }
    }
    if total.failed > 0 {
        status = crate::failure::TROUBLE;
    }
    let would = if w.dry_run { "would have " } else { "" };
    eprintln!(
        "nbt: {} region {}, {} chunks: {would}converted {} to {} in {} {}; {} failed ({:.2} s)",
        inputs.regions.len(),
        if inputs.regions.len() == 1 {
            "file"
        } else {
            "files"
        },
        total.chunks,
        total.converted,
        to.name(),
        files,
        if files == 1 { "file" } else { "files" },
        total.failed,
        start.elapsed().as_secs_f64()
    );
    Ok(status)
}

/// A chunk in its new compression, checked.
struct Converted {
    info: ChunkInfo,
    chunk: EncodedChunk,
}

/// One region file: its chunks (or the one `only` names) converted in
/// parallel, stored, and the file replaced when anything changed.
fn convert_region(
    path: &Path,
    to: RegionCompression,
    only: Option<(u8, u8)>,
    w: WriteOpts,
) -> Result<Outcome> {
    // Held from before the read until the file is replaced, as `set` does.
    let _lock = w.lock(path)?;
    let place = Place::File(path.to_owned());
    let original = place.read_all()?;
    let mut region = crate::input::open_region(&place, original.clone())?;
    let all: Vec<ChunkInfo> = region.chunks().collect();
    let infos: Vec<ChunkInfo> = all
        .iter()
        .filter(|i| only.is_none_or(|(x, z)| (i.pos.x, i.pos.z) == (x, z)))
        .copied()
        .collect();
    if let (Some((x, z)), true) = (only, infos.is_empty()) {
        return Err(Failure::new(format!("{place}: no chunk ({x}, {z})")));
    }
    let kind = to.chunk();
    let results: Vec<(ChunkInfo, std::result::Result<Option<EncodedChunk>, String>)> = infos
        .par_iter()
        .map(|&info| (info, convert_chunk(&region, info, kind, w.level)))
        .collect();
    let mut outcome = Outcome {
        chunks: infos.len(),
        ..Outcome::default()
    };
    let mut converted = Vec::new();
    for (info, result) in results {
        match result {
            Ok(Some(chunk)) => converted.push(Converted { info, chunk }),
            Ok(None) => {}
            Err(message) => {
                eprintln!("nbt: {place} chunk {}: {message}; left as it is", info.pos);
                outcome.failed += 1;
            }
        }
    }
    if converted.is_empty() {
        return Ok(outcome);
    }
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    for c in &converted {
        let (x, z) = (i32::from(c.info.pos.x), i32::from(c.info.pos.z));
        region
            .write_encoded_at(x, z, &c.chunk, c.info.timestamp)
            .map_err(|e| refuse(format!("cannot store chunk {}: {e}", c.info.pos)))?;
        if region.info(x, z).is_some_and(|i| i.external) {
            return Err(refuse(format!(
                "chunk {} is over 1 MiB as {} and needs an external .mcc file, which `nbt` does \
                 not write",
                c.info.pos,
                to.name()
            )));
        }
    }
    outcome.converted = converted.len();
    if only.is_none() {
        // Every chunk moved: without packing, the file would keep the old
        // records' sectors as free space (a world converted to LZ4 and
        // back ended 28 % larger than it started).
        region.compact();
    }
    let built = region.as_bytes();
    let verify = |written: &[u8]| {
        verify(&place, &original, &all, &converted, built, written).map_err(&refuse)
    };
    crate::store::replace_verified(path, built, &verify, w)?;
    if !w.dry_run {
        // Chunks that were external are inline now: their files are unused.
        for c in converted.iter().filter(|c| c.info.external) {
            if let Some(file) = mcc_file(path, c.info)
                && let Err(e) = std::fs::remove_file(&file)
            {
                eprintln!("nbt: cannot remove the unused {}: {e}", file.display());
            }
        }
    }
    Ok(outcome)
}

/// The external file of chunk `info` of the region at `path` (`c.X.Z.mcc`
/// beside it, absolute chunk coordinates), when its name says which region
/// it is.
fn mcc_file(path: &Path, info: ChunkInfo) -> Option<PathBuf> {
    let (rx, rz) = simdnbt::region::region_position(path)?;
    let x = rx * 32 + i32::from(info.pos.x);
    let z = rz * 32 + i32::from(info.pos.z);
    Some(path.with_file_name(format!("c.{x}.{z}.mcc")))
}

/// One chunk in compression `kind`, checked; `None` when it is in that
/// compression already (it keeps its bytes).
fn convert_chunk(
    region: &Region,
    info: ChunkInfo,
    kind: ChunkCompression,
    level: u32,
) -> std::result::Result<Option<EncodedChunk>, String> {
    let from = info
        .compression
        .ok_or_else(|| format!("compression {} cannot be read", info.compression_id))?;
    if from == kind {
        return Ok(None);
    }
    let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
    let nbt = region
        .chunk(x, z)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    let chunk =
        EncodedChunk::with_level(&nbt, kind, level).map_err(|e| format!("not valid NBT: {e}"))?;
    if !chunk.reads_back_as(&nbt) {
        return Err("the converted chunk would not decode to the same NBT bytes".into());
    }
    Ok(Some(chunk))
}

/// Checks a converted region file about to replace `original`: the bytes
/// `built` on disk, the same chunks, each converted one stored as its
/// checked data, every other one's record byte-identical to the original
/// (and its timestamp and compression byte), the timestamps table unchanged.
fn verify(
    place: &Place,
    original: &[u8],
    infos: &[ChunkInfo],
    converted: &[Converted],
    built: &[u8],
    written: &[u8],
) -> std::result::Result<(), String> {
    if written != built {
        return Err("the file read back differs from what was written".into());
    }
    if written.get(4096..8192) != original.get(4096..8192) {
        return Err("the timestamps table would change".into());
    }
    let back = crate::input::open_region(place, written.to_vec()).map_err(|f| f.message)?;
    if back.chunks().count() != infos.len() {
        return Err("the result would hold another set of chunks".into());
    }
    let mut by_pos: Vec<(_, &Converted)> = converted.iter().map(|c| (c.info.pos, c)).collect();
    by_pos.sort_by_key(|(p, _)| *p);
    // A chunk's record: its length, compression byte and data (packing
    // moves records and drops the padding after them).
    let record = |bytes: &'_ [u8], i: &ChunkInfo| -> Option<Vec<u8>> {
        let start = i.sector as usize * 4096;
        let length = bytes.get(start..start + 4)?;
        let length = u32::from_be_bytes(length.try_into().ok()?) as usize;
        bytes.get(start..start + 4 + length).map(<[u8]>::to_vec)
    };
    for info in infos {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let now = back
            .info(x, z)
            .ok_or_else(|| format!("chunk {} would be lost", info.pos))?;
        match by_pos.binary_search_by_key(&info.pos, |(p, _)| *p) {
            Ok(i) => {
                let c = &by_pos[i].1.chunk;
                let data = c.data();
                let start = now.sector as usize * 4096;
                let mut head = u32::try_from(1 + data.len())
                    .unwrap_or(u32::MAX)
                    .to_be_bytes()
                    .to_vec();
                head.push(c.compression().id());
                let stored = |at: usize, len: usize| written.get(start + at..start + at + len);
                if now.external
                    || stored(0, 5) != Some(&head[..])
                    || stored(5, data.len()) != Some(data)
                {
                    return Err(format!(
                        "chunk {} would not read back as converted",
                        info.pos
                    ));
                }
            }
            Err(_) => {
                let entry = |i: &ChunkInfo| (i.pos, i.timestamp, i.compression_id, i.external);
                if entry(&now) != entry(info) || record(original, info) != record(written, &now) {
                    return Err(format!(
                        "unchanged chunk {} would not be kept byte for byte",
                        info.pos
                    ));
                }
            }
        }
    }
    Ok(())
}
