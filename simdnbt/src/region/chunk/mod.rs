//! Chunk helpers: the block states and biomes of a chunk's sections,
//! decoded from their palettes and packed indices.
//!
//! A section is 16 × 16 × 16 blocks. Its block states are a palette (the
//! distinct states, each a compound with `Name`) and 4096 indices into it,
//! packed into longs with `max(4, ⌈log2(palette length)⌉)` bits each, in
//! YZX order (index `y × 256 + z × 16 + x`). Two packings, chosen by the
//! chunk's `DataVersion`:
//!
//! - **1.16 and later** (DataVersion 2529+): an index never spans two longs;
//!   each long holds `⌊64 / bits⌋` indices and the rest of its bits are unused.
//! - **before 1.16**: the indices are one bit stream across the longs (an
//!   index may start in one long and end in the next).
//!
//! Where the data lives: 1.18+ (DataVersion 2844+) `sections[].block_states
//! .{palette, data}` and `sections[].biomes.{palette, data}` (64 biome cells
//! of 4 × 4 × 4 blocks, `⌈log2(palette length)⌉` bits, no minimum);
//! 1.13–1.17 `Level.Sections[].{Palette, BlockStates}` (biomes are not per
//! section there, and are not decoded). A palette of one entry needs no data:
//! the whole section is that entry.
//!
//! Malformed data is an error naming the section and what is wrong (an index
//! past the palette, a long count that does not fit the palette), never a
//! panic.
//!
//! ```
//! use simdnbt::region::chunk::Chunk;
//!
//! # let bytes = {
//! #     use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
//! #     let mut palette_entry = NbtCompound::new();
//! #     palette_entry.insert("Name", "minecraft:stone");
//! #     let mut states = NbtCompound::new();
//! #     states.insert("palette", NbtTag::List(NbtList::Compound(vec![palette_entry])));
//! #     let mut section = NbtCompound::new();
//! #     section.insert("Y", -4i8);
//! #     section.insert("block_states", states);
//! #     let mut root = NbtCompound::new();
//! #     root.insert("DataVersion", 3700i32);
//! #     root.insert("sections", NbtTag::List(NbtList::Compound(vec![section])));
//! #     let mut out = Vec::new();
//! #     BaseNbt::new("", root).write(&mut out).unwrap();
//! #     out
//! # };
//! // `bytes`: a chunk's NBT, as `Region::chunk` gives it.
//! let nbt = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..]))?.unwrap();
//! let chunk = Chunk::from_nbt(&nbt.as_compound())?;
//! assert_eq!(chunk.block(0, -64, 0), Some("minecraft:stone"));
//! assert_eq!(chunk.block(15, -49, 15), Some("minecraft:stone"));
//! assert_eq!(chunk.block(0, -65, 0), None);
//! for section in chunk.sections() {
//!     assert_eq!(section.y(), -4);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod palette;

pub use error::{ChunkError, ChunkErrorKind};
pub use palette::Paletted;

use crate::borrow::NbtCompound;

/// The first DataVersion (20w17a, 1.16) whose indices never span two longs.
pub const NO_SPANNING_FROM: i32 = 2529;
/// The first DataVersion (21w43a, 1.18) with `sections` at the root.
pub const SECTIONS_AT_ROOT_FROM: i32 = 2844;

/// A chunk's decoded sections.
#[derive(Debug, Clone)]
pub struct Chunk {
    data_version: i32,
    sections: Vec<Section>,
}

/// One 16-block-tall section: its block states and, 1.18+, its biomes.
#[derive(Debug, Clone)]
pub struct Section {
    y: i32,
    blocks: Option<Paletted>,
    biomes: Option<Paletted>,
}

impl Section {
    /// The section's height: blocks `16 × y ..= 16 × y + 15`.
    pub fn y(&self) -> i32 {
        self.y
    }

    /// The block states (`None` for a section stored without them, such as
    /// the light-only sections above and below the world).
    pub fn blocks(&self) -> Option<&Paletted> {
        self.blocks.as_ref()
    }

    /// The biomes (1.18+ chunks; `None` before).
    pub fn biomes(&self) -> Option<&Paletted> {
        self.biomes.as_ref()
    }

    /// The block name at `x, y, z` inside the section (each 0 to 15).
    pub fn block(&self, x: usize, y: usize, z: usize) -> Option<&str> {
        if x >= 16 || y >= 16 || z >= 16 {
            return None;
        }
        self.blocks.as_ref()?.get(y * 256 + z * 16 + x)
    }

    /// The biome at biome cell `x, y, z` (each 0 to 3: 4 × 4 × 4 blocks).
    pub fn biome(&self, x: usize, y: usize, z: usize) -> Option<&str> {
        if x >= 4 || y >= 4 || z >= 4 {
            return None;
        }
        self.biomes.as_ref()?.get(y * 16 + z * 4 + x)
    }
}

impl Chunk {
    /// Decodes the sections of a chunk's root compound.
    pub fn from_nbt(root: &NbtCompound<'_, '_>) -> Result<Chunk, ChunkError> {
        let data_version = root.int("DataVersion").unwrap_or(0);
        let spanning = data_version < NO_SPANNING_FROM;
        let (list, modern) = match root.list("sections") {
            Some(list) => (list, true),
            None => match root.compound("Level").and_then(|l| l.list("Sections")) {
                Some(list) => (list, false),
                None => return Err(ChunkError::new(None, ChunkErrorKind::NoSections)),
            },
        };
        let mut sections = Vec::new();
        let Some(compounds) = list.compounds() else {
            if list.is_empty() {
                return Ok(Chunk {
                    data_version,
                    sections,
                });
            }
            return Err(ChunkError::new(None, ChunkErrorKind::NoSections));
        };
        for (i, s) in compounds.iter().enumerate() {
            let y = i32::from(s.byte("Y").unwrap_or(0));
            let at = |kind| ChunkError::new(Some(i), kind);
            let (blocks, biomes) = if modern {
                let blocks = s
                    .compound("block_states")
                    .map(|b| Paletted::decode(&b, "palette", "data", 4096, 4, spanning))
                    .transpose()
                    .map_err(at)?;
                let biomes = s
                    .compound("biomes")
                    .map(|b| Paletted::decode(&b, "palette", "data", 64, 0, spanning))
                    .transpose()
                    .map_err(at)?;
                (blocks, biomes)
            } else if s.list("Palette").is_some() {
                let blocks = Paletted::decode(&s, "Palette", "BlockStates", 4096, 4, spanning)
                    .map_err(at)?;
                (Some(blocks), None)
            } else {
                (None, None)
            };
            sections.push(Section { y, blocks, biomes });
        }
        Ok(Chunk {
            data_version,
            sections,
        })
    }

    /// The chunk's `DataVersion` (0 when it has none: a pre-1.9 chunk).
    pub fn data_version(&self) -> i32 {
        self.data_version
    }

    /// The sections, in the order the chunk stores them.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The block name at `x, y, z` (x and z 0 to 15 inside the chunk, y the
    /// world height), if a section there has block states.
    pub fn block(&self, x: usize, y: i32, z: usize) -> Option<&str> {
        let section_y = y.div_euclid(16);
        let section = self.sections.iter().find(|s| s.y == section_y)?;
        section.block(x, y.rem_euclid(16) as usize, z)
    }
}
