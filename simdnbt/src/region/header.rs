//! The 8 KiB region header, and the checks every entry must pass before any
//! chunk is read.
//!
//! Layout: 1024 big-endian `u32` locations (sector offset << 8 | sector count),
//! then 1024 big-endian `u32` timestamps (seconds since the Unix epoch). Entry
//! `x + 32 z` is chunk `(x, z)`. A location of 0 is an absent chunk. A chunk's
//! sectors begin with a big-endian `u32` length (the bytes that follow, the
//! compression byte included) and the compression byte.

use super::error::{LocalPos, RegionError, RegionErrorKind};

pub(crate) const SECTOR: usize = 4096;
pub(crate) const HEADER_SECTORS: u32 = 2;
pub(crate) const HEADER_BYTES: usize = SECTOR * HEADER_SECTORS as usize;
pub(crate) const ENTRIES: usize = 1024;
/// The largest sector count a location can hold (one byte).
pub(crate) const MAX_SECTORS: u32 = 255;
/// Flag on the compression byte: the data is in an external `.mcc` file.
pub(crate) const EXTERNAL: u8 = 0x80;

/// A present chunk's place in the file, checked against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChunkLocation {
    pub(crate) sector: u32,
    pub(crate) count: u32,
    /// The length field: compression byte + data.
    pub(crate) length: u32,
    /// The compression byte as stored, external flag included.
    pub(crate) compression: u8,
}

impl ChunkLocation {
    /// Byte range of the chunk's data (after the length and compression bytes)
    /// in the region file.
    pub(crate) fn data_range(&self) -> std::ops::Range<usize> {
        let start = self.sector as usize * SECTOR + 5;
        start..start + self.length as usize - 1
    }
}

pub(crate) fn be32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks every header entry of `file` and returns the present chunks' slots,
/// indexed by entry. An empty file is an empty region (Minecraft creates region
/// files that way); anything else shorter than the header is an error.
pub(crate) fn read_slots(file: &[u8]) -> Result<Vec<Option<ChunkLocation>>, RegionError> {
    let (slots, mut bad) = check_slots(file, true)?;
    match bad.pop() {
        Some(bad) => Err(bad.error),
        None => Ok(slots),
    }
}

/// A header entry that failed its checks: its chunk cannot be read, and the
/// sectors it claims inside the file are kept out of reach of new chunks.
#[derive(Debug)]
pub(crate) struct BadEntry {
    pub(crate) index: usize,
    /// What is wrong, naming the chunk.
    pub(crate) error: RegionError,
    /// The sectors it claims (`offset..offset + count`).
    pub(crate) sectors: std::ops::Range<u32>,
}

/// Checks every header entry; a bad one is left out of the slots and listed
/// (with `first_only`, checking stops at the first). Entries are checked in
/// order, and a sector belongs to the first sound entry claiming it: a later
/// entry claiming it too is the bad one. A bad entry claims nothing.
pub(crate) fn check_slots(
    file: &[u8],
    first_only: bool,
) -> Result<(Vec<Option<ChunkLocation>>, Vec<BadEntry>), RegionError> {
    let mut slots = vec![None; ENTRIES];
    let mut bad = Vec::new();
    if file.is_empty() {
        return Ok((slots, bad));
    }
    if file.len() < HEADER_BYTES {
        return Err(RegionError::file(RegionErrorKind::HeaderTooShort {
            len: file.len(),
        }));
    }
    let file_sectors = file.len().div_ceil(SECTOR);
    // Which entry owns each sector, to find overlaps in one pass.
    let mut owner = vec![u16::MAX; file_sectors];
    for (index, slot) in slots.iter_mut().enumerate() {
        let location = be32(file, index * 4);
        if location == 0 {
            continue;
        }
        let (offset, count) = (location >> 8, location & 0xff);
        match check_entry(file, &owner, offset, count) {
            Ok(found) => {
                let end = (offset + count) as usize;
                owner[offset as usize..end].fill(index as u16);
                *slot = Some(found);
            }
            Err(kind) => {
                bad.push(BadEntry {
                    index,
                    error: RegionError::chunk(LocalPos::from_index(index), kind),
                    sectors: offset..offset + count,
                });
                if first_only {
                    break;
                }
            }
        }
    }
    Ok((slots, bad))
}

/// One entry's checks, in the order errors are reported.
fn check_entry(
    file: &[u8],
    owner: &[u16],
    offset: u32,
    count: u32,
) -> Result<ChunkLocation, RegionErrorKind> {
    let file_sectors = owner.len();
    if count == 0 {
        return Err(RegionErrorKind::NoSectors { offset });
    }
    if offset < HEADER_SECTORS {
        return Err(RegionErrorKind::OffsetInHeader { offset });
    }
    let end = offset as usize + count as usize;
    if end > file_sectors {
        return Err(RegionErrorKind::SectorsPastEnd {
            offset,
            count,
            file_sectors: file_sectors as u32,
        });
    }
    for (sector, claimed) in owner[offset as usize..end].iter().enumerate() {
        if *claimed != u16::MAX {
            return Err(RegionErrorKind::Overlap {
                other: LocalPos::from_index(usize::from(*claimed)),
                sector: offset + sector as u32,
            });
        }
    }
    let at = offset as usize * SECTOR;
    // The last sector may be partial: what the file really holds counts.
    let held = (count as usize * SECTOR).min(file.len() - at);
    if held < 5 {
        return Err(RegionErrorKind::ChunkHeaderCut { available: held });
    }
    let length = be32(file, at);
    let capacity = held - 4;
    if length == 0 {
        return Err(RegionErrorKind::ZeroLength);
    }
    if length as usize > capacity {
        return Err(RegionErrorKind::LengthTooLarge { length, capacity });
    }
    // Any compression byte is accepted here: a chunk this crate cannot
    // decode (a server's custom algorithm, 127) fails when it is read, and
    // the region's other chunks stay readable.
    Ok(ChunkLocation {
        sector: offset,
        count,
        length,
        compression: file[at + 4],
    })
}
