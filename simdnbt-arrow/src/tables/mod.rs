//! The built-in tables' columns and row extraction, and the custom tables'.
//! Each extractor reads only what the projected columns need from the
//! borrowed document and appends straight into the builders. Values of the
//! wrong type are nulls, never errors: a chunk gives what can be read of it.

pub(crate) mod biomes;
pub(crate) mod block_entities;
pub(crate) mod blocks;
pub(crate) mod chunks;
pub(crate) mod custom;
pub(crate) mod entities;
pub(crate) mod items;
pub(crate) mod nbt;
pub(crate) mod players;

use std::borrow::Cow;

use arrow_schema::{DataType, Field};
use simdnbt::borrow::{NbtCompound, NbtTag};
use simdnbt::region::ChunkInfo;

use crate::Partition;
use crate::cols::Cols;

/// The column every table can add: the row value as SNBT.
pub(crate) const SNBT_COLUMN: &str = "snbt";
/// The columns every custom table starts with.
pub(crate) const CUSTOM_CONTEXT: [&str; 4] = ["dimension", "file", "chunk_x", "chunk_z"];

/// Where a document comes from.
pub(crate) struct Doc<'a> {
    pub(crate) part: &'a Partition,
    /// The partition's path as text (the `file` columns).
    pub(crate) file: &'a str,
    /// Absolute chunk coordinates (region files only).
    pub(crate) chunk: Option<(i32, i32)>,
    /// The region header's entry (region files only).
    pub(crate) info: Option<ChunkInfo>,
    /// Bytes the chunk takes in the region file.
    pub(crate) stored_size: Option<i64>,
}

impl Doc<'_> {
    pub(crate) fn chunk_x(&self) -> Option<i32> {
        self.chunk.map(|c| c.0)
    }

    pub(crate) fn chunk_z(&self) -> Option<i32> {
        self.chunk.map(|c| c.1)
    }

    /// Sets the `dimension`, `chunk_x`, `chunk_z` columns (table columns 0, 1, 2).
    pub(crate) fn put_place(&self, cols: &mut Cols) {
        cols.str(0, Some(&self.part.dimension));
        cols.i32(1, self.chunk_x());
        cols.i32(2, self.chunk_z());
    }
}

pub(crate) fn field(name: &str, data_type: DataType) -> Field {
    // Every column is nullable: a value of the wrong type in a chunk is a null.
    Field::new(name, data_type, true)
}

// Helpers shared by the extractors.

/// A chunk's data compound: `Level` before 1.18, the root after.
pub(crate) fn level<'a, 't>(root: NbtCompound<'a, 't>) -> NbtCompound<'a, 't> {
    root.compound("Level").unwrap_or(root)
}

/// A string's text (invalid MUTF-8 replaced).
pub(crate) fn text(tag: Option<&simdnbt::Mutf8Str>) -> Option<Cow<'_, str>> {
    tag.map(|s| s.to_str())
}

/// SNBT of a borrowed tag; `None` for what SNBT cannot print (a NaN float).
pub(crate) fn snbt_tag(tag: &NbtTag<'_, '_>) -> Option<String> {
    simdnbt::snbt::to_string(tag).ok()
}

/// SNBT of a borrowed compound.
pub(crate) fn snbt_compound(c: &NbtCompound<'_, '_>) -> Option<String> {
    simdnbt::snbt::to_string(c).ok()
}

/// Any integer tag (Byte, Short, Int, Long) as i64.
pub(crate) fn int_like(tag: Option<NbtTag<'_, '_>>) -> Option<i64> {
    let tag = tag?;
    tag.byte()
        .map(i64::from)
        .or_else(|| tag.short().map(i64::from))
        .or_else(|| tag.int().map(i64::from))
        .or_else(|| tag.long())
}

/// A list of three doubles (or floats), such as `Pos`.
pub(crate) fn xyz(c: &NbtCompound<'_, '_>, key: &str) -> [Option<f64>; 3] {
    let Some(list) = c.list(key) else {
        return [None; 3];
    };
    if let Some(d) = list.doubles_raw() {
        return [d.get(0), d.get(1), d.get(2)];
    }
    if let Some(f) = list.floats_raw() {
        let get = |i| f.get(i).map(f64::from);
        return [get(0), get(1), get(2)];
    }
    [None; 3]
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` from the two halves.
pub(crate) fn format_uuid(most: u64, least: u64) -> String {
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        most >> 32,
        (most >> 16) & 0xffff,
        most & 0xffff,
        least >> 48,
        least & 0xffff_ffff_ffff
    )
}

/// An entity's or player's UUID: `UUID` as four ints (1.16+), `UUIDMost`
/// and `UUIDLeast` longs (before), or a `UUID` string as it is.
pub(crate) fn uuid(c: &NbtCompound<'_, '_>) -> Option<String> {
    match c.get("UUID") {
        Some(tag) => {
            if let Some(ints) = tag.int_array_raw() {
                if ints.len() != 4 {
                    return None;
                }
                let v: Vec<u64> = ints.iter().map(|i| u64::from(i as u32)).collect();
                return Some(format_uuid(v[0] << 32 | v[1], v[2] << 32 | v[3]));
            }
            tag.string().map(|s| s.to_str().into_owned())
        }
        None => {
            let most = c.long("UUIDMost")?;
            let least = c.long("UUIDLeast")?;
            Some(format_uuid(most as u64, least as u64))
        }
    }
}

/// A text that may be stored as a string (JSON text before 1.21.5) or as a
/// compound or list (text components, 1.21.5+): the string as it is, any
/// other value as SNBT.
pub(crate) fn text_or_snbt(tag: Option<NbtTag<'_, '_>>) -> Option<String> {
    let tag = tag?;
    match tag.string() {
        Some(s) => Some(s.to_str().into_owned()),
        None => snbt_tag(&tag),
    }
}

/// Vanilla dimensions by their pre-1.16 numbers and full names, as the
/// `dimension` columns name them.
pub(crate) fn dimension_name(tag: Option<NbtTag<'_, '_>>) -> Option<String> {
    let tag = tag?;
    if let Some(s) = tag.string() {
        let s = s.to_str();
        return Some(match s.as_ref() {
            "minecraft:overworld" => "overworld".into(),
            "minecraft:the_nether" => "the_nether".into(),
            "minecraft:the_end" => "the_end".into(),
            other => other.to_owned(),
        });
    }
    Some(
        match int_like(Some(tag))? {
            0 => "overworld",
            -1 => "the_nether",
            1 => "the_end",
            n => return Some(n.to_string()),
        }
        .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_print_canonically() {
        assert_eq!(
            format_uuid(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
            "01234567-89ab-cdef-fedc-ba9876543210"
        );
        assert_eq!(format_uuid(0, 0), "00000000-0000-0000-0000-000000000000");
    }
}
