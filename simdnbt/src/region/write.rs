//! Changing a region: writing, replacing and removing chunks with sector
//! allocation, compacting, saving.
//!
//! Invariants every method keeps (so a saved file always opens again): the file
//! is a whole number of 4 KiB sectors, the header's locations and `slots` agree,
//! and no two chunks share a sector.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::codec::ChunkCompression;
use super::encoded::EncodedChunk;
use super::error::{LocalPos, RegionError, RegionErrorKind};
use super::header::{ChunkLocation, EXTERNAL, HEADER_BYTES, HEADER_SECTORS, MAX_SECTORS, SECTOR};
use super::{ExternalDir, Region};

/// Sectors needed for a chunk whose length field is `length`.
fn sectors_for(length: usize) -> usize {
    (4 + length).div_ceil(SECTOR)
}

fn now() -> u32 {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    u32::try_from(secs).unwrap_or(u32::MAX)
}

impl Region {
    /// Stores `nbt` (an uncompressed NBT document with a named root compound,
    /// checked with the borrow reader) as chunk `(x, z)`, compressed as
    /// `compression`, stamped with the current time. A present chunk is replaced.
    ///
    /// The chunk goes into the first run of free sectors that fits it, or at the
    /// end of the file. Data over 255 sectors (about 1 MiB) goes into an external
    /// `c.X.Z.mcc` file, as Minecraft does; that needs a known location (a region
    /// opened from an `r.X.Z.mca` path, or [`Region::with_external_dir`]) and is
    /// written by [`Region::save`].
    ///
    /// ```
    /// use simdnbt::region::{ChunkCompression, Region};
    /// let mut region = Region::new();
    /// region.write_chunk(0, 0, &[0x0a, 0, 0, 0], ChunkCompression::Lz4)?;
    /// assert_eq!(region.chunk(0, 0)?.unwrap(), [0x0a, 0, 0, 0]);
    /// assert_eq!(region.as_bytes().len() % 4096, 0);
    /// # Ok::<(), simdnbt::region::RegionError>(())
    /// ```
    pub fn write_chunk(
        &mut self,
        x: i32,
        z: i32,
        nbt: &[u8],
        compression: ChunkCompression,
    ) -> Result<(), RegionError> {
        self.write_chunk_at(x, z, nbt, compression, now())
    }

    /// [`Region::write_chunk`] with an explicit timestamp (seconds since the epoch).
    pub fn write_chunk_at(
        &mut self,
        x: i32,
        z: i32,
        nbt: &[u8],
        compression: ChunkCompression,
        timestamp: u32,
    ) -> Result<(), RegionError> {
        let pos = LocalPos::from_index(LocalPos::index_of(x, z));
        let chunk = EncodedChunk::new(nbt, compression)
            .map_err(|e| RegionError::chunk(pos, RegionErrorKind::InvalidNbt(e)))?;
        self.write_encoded_at(x, z, &chunk, timestamp)
    }

    /// Stores `chunk` as chunk `(x, z)`, stamped with the current time: as
    /// [`Region::write_chunk`] does, with the checking and compressing done
    /// beforehand ([`EncodedChunk`]).
    pub fn write_encoded(
        &mut self,
        x: i32,
        z: i32,
        chunk: &EncodedChunk,
    ) -> Result<(), RegionError> {
        self.write_encoded_at(x, z, chunk, now())
    }

    /// [`Region::write_encoded`] with an explicit timestamp (seconds since the epoch).
    pub fn write_encoded_at(
        &mut self,
        x: i32,
        z: i32,
        chunk: &EncodedChunk,
        timestamp: u32,
    ) -> Result<(), RegionError> {
        let index = LocalPos::index_of(x, z);
        let pos = LocalPos::from_index(index);
        let (data, compression) = (&chunk.data, chunk.compression);
        let external = sectors_for(1 + data.len()) > MAX_SECTORS as usize;
        if external && self.external.is_none() {
            return Err(RegionError::chunk(pos, RegionErrorKind::NoExternalLocation));
        }
        let mut record = Vec::with_capacity(5 + data.len());
        if external {
            record.extend_from_slice(&1u32.to_be_bytes());
            record.push(compression.id() | EXTERNAL);
            self.pending_external.insert(index, Some(data.clone()));
        } else {
            record.extend_from_slice(&(1 + data.len() as u32).to_be_bytes());
            record.push(compression.id());
            record.extend_from_slice(data);
            if self.is_external(index) {
                self.pending_external.insert(index, None);
            }
        }
        self.pad_to_sectors();
        self.slots[index] = None;
        // A bad entry at this place is replaced by the new chunk.
        self.bad.retain(|(i, _)| *i != index);
        let count = sectors_for(record.len() - 4);
        let sector = self.first_free_run(count);
        self.clear_bad_entries_in(sector as u32..(sector + count) as u32);
        let start = sector * SECTOR;
        let end = start + count * SECTOR;
        if self.file.len() < end {
            self.file.resize(end, 0);
        }
        self.file[start..start + record.len()].copy_from_slice(&record);
        self.file[start + record.len()..end].fill(0);
        let slot = ChunkLocation {
            sector: sector as u32,
            count: count as u32,
            length: (record.len() - 4) as u32,
            compression: record[4],
        };
        self.set_slot(index, Some(slot), timestamp);
        Ok(())
    }

    /// Removes chunk `(x, z)` (and, on [`Region::save`], its external file).
    /// Returns whether it was present. Its sectors become free for later writes;
    /// [`Region::compact`] gives the space back. A bad header entry the
    /// region was opened with ([`Region::from_bytes_lenient`]) is removed
    /// too: the way to drop a chunk that cannot be read.
    pub fn remove_chunk(&mut self, x: i32, z: i32) -> bool {
        let index = LocalPos::index_of(x, z);
        if self.slots[index].is_none() {
            let bad = self.bad.len();
            self.bad.retain(|(i, _)| *i != index);
            if self.bad.len() < bad {
                self.set_slot(index, None, 0);
                return true;
            }
            return false;
        }
        if self.is_external(index) {
            self.pending_external.insert(index, None);
        }
        self.pad_to_sectors();
        self.set_slot(index, None, 0);
        true
    }

    /// Rewrites the file with the chunks packed in their current order from
    /// sector 2, each in as few sectors as it needs, and drops the free space.
    /// Chunk contents and timestamps are unchanged.
    pub fn compact(&mut self) {
        let mut order: Vec<(usize, ChunkLocation)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((i, (*s)?)))
            .collect();
        order.sort_by_key(|(_, slot)| slot.sector);
        let mut packed = self.file[..HEADER_BYTES.min(self.file.len())].to_vec();
        packed.resize(HEADER_BYTES, 0);
        for (index, slot) in order {
            let start = slot.sector as usize * SECTOR;
            let record = &self.file[start..start + 4 + slot.length as usize];
            let sector = packed.len() / SECTOR;
            packed.extend_from_slice(record);
            packed.resize(packed.len().next_multiple_of(SECTOR), 0);
            let moved = ChunkLocation {
                sector: sector as u32,
                count: sectors_for(slot.length as usize) as u32,
                ..slot
            };
            self.slots[index] = Some(moved);
            write_location(&mut packed, index, Some(moved));
        }
        // Bad entries' sectors are not carried over: the entries go.
        for (index, _) in std::mem::take(&mut self.bad) {
            write_location(&mut packed, index, None);
        }
        self.file = packed;
    }

    /// Writes the region to `path`, and its external chunk files beside it. If
    /// `path` is named `r.X.Z.mca`, it becomes the region's location for external
    /// chunks from then on.
    pub fn save(&mut self, path: impl AsRef<Path>) -> Result<(), RegionError> {
        let path = path.as_ref();
        let target = ExternalDir::for_region_file(path);
        let externals: Vec<usize> = (0..self.slots.len())
            .filter(|&i| self.is_external(i))
            .collect();
        if !externals.is_empty() && target.is_none() {
            let pos = LocalPos::from_index(externals[0]);
            return Err(RegionError::chunk(pos, RegionErrorKind::NoExternalLocation));
        }
        self.pad_to_sectors();
        std::fs::write(path, &self.file).map_err(|error| {
            RegionError::file(RegionErrorKind::Io {
                path: path.to_owned(),
                error,
            })
        })?;
        let external_failed = |pos, path, error| {
            RegionError::chunk(pos, RegionErrorKind::ExternalFile { path, error })
        };
        if let Some(target) = target {
            let moved = self.external.as_ref() != Some(&target);
            for index in externals {
                let pos = LocalPos::from_index(index);
                let limit = usize::MAX;
                let data = match self.pending_external.get(&index) {
                    Some(Some(data)) => data.clone(),
                    // Unchanged and staying in the same directory: nothing to do.
                    _ if !moved => continue,
                    _ => self
                        .external_data(pos, limit)
                        .map_err(|k| RegionError::chunk(pos, k))?
                        .into_owned(),
                };
                let file = target.chunk_file(pos);
                if let Err(error) = std::fs::write(&file, data) {
                    return Err(external_failed(pos, file, error));
                }
            }
            for (&index, change) in &self.pending_external {
                if change.is_none() {
                    let pos = LocalPos::from_index(index);
                    let file = target.chunk_file(pos);
                    match std::fs::remove_file(&file) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(external_failed(pos, file, e));
                        }
                        _ => {}
                    }
                }
            }
            self.pending_external.clear();
            self.external = Some(target);
        }
        Ok(())
    }

    fn is_external(&self, index: usize) -> bool {
        self.slots[index].is_some_and(|s| s.compression & EXTERNAL != 0)
    }

    /// Makes the file a whole number of sectors with a full header, as the game
    /// requires, before anything is placed by sector number.
    fn pad_to_sectors(&mut self) {
        let len = self.file.len().max(HEADER_BYTES).next_multiple_of(SECTOR);
        self.file.resize(len, 0);
    }

    /// The first sector of the first run of `count` free sectors, or the end of the file.
    fn first_free_run(&self, count: usize) -> usize {
        let sectors = self.file.len() / SECTOR;
        let mut used = vec![false; sectors];
        used[..HEADER_SECTORS as usize].fill(true);
        for slot in self.slots.iter().flatten() {
            used[slot.sector as usize..(slot.sector + slot.count) as usize].fill(true);
        }
        // What bad entries claim inside the file is kept as it is.
        for (_, claimed) in &self.bad {
            let end = (claimed.end as usize).min(sectors);
            if let Some(run) = used.get_mut(claimed.start as usize..end) {
                run.fill(true);
            }
        }
        let mut run = 0;
        for (sector, &taken) in used.iter().enumerate() {
            run = if taken { 0 } else { run + 1 };
            if run == count {
                return sector + 1 - count;
            }
        }
        // Extend the free run at the end of the file, if there is one.
        sectors - run
    }

    /// Clears the header entries of bad entries claiming any of `sectors`
    /// (only sectors past the file's end can be both free and claimed by
    /// one): once the file holds a chunk there, the entry would point into it.
    fn clear_bad_entries_in(&mut self, sectors: std::ops::Range<u32>) {
        let file = &mut self.file;
        self.bad.retain(|(index, claimed)| {
            let meets = claimed.start < sectors.end && sectors.start < claimed.end;
            if meets {
                write_location(file, *index, None);
            }
            !meets
        });
    }

    fn set_slot(&mut self, index: usize, slot: Option<ChunkLocation>, timestamp: u32) {
        self.slots[index] = slot;
        write_location(&mut self.file, index, slot);
        let at = SECTOR + index * 4;
        self.file[at..at + 4].copy_from_slice(&timestamp.to_be_bytes());
    }
}

fn write_location(file: &mut [u8], index: usize, slot: Option<ChunkLocation>) {
    let location = slot.map_or(0, |s| s.sector << 8 | s.count);
    file[index * 4..index * 4 + 4].copy_from_slice(&location.to_be_bytes());
}
