//! `chunks`: one row per chunk of every region file (`region/`), from the
//! region header and the chunk's root.

use arrow_schema::{DataType, Field, TimeUnit};
use simdnbt::borrow::NbtCompound;
use simdnbt::region::ChunkCompression;

use super::{Doc, field, level, text};
use crate::cols::Cols;

const DATA_VERSION: usize = 3;
const STATUS: usize = 4;
const INHABITED_TIME: usize = 5;
const LAST_UPDATE: usize = 6;
const SECTION_COUNT: usize = 7;
const COMPRESSION: usize = 8;
const STORED_SIZE: usize = 9;
const SAVE_TIME: usize = 10;

/// The columns that need the chunk's NBT (the others come from the header).
const FROM_NBT: [usize; 5] = [
    DATA_VERSION,
    STATUS,
    INHABITED_TIME,
    LAST_UPDATE,
    SECTION_COUNT,
];

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("data_version", DataType::Int32),
        field("status", DataType::Utf8),
        field("inhabited_time", DataType::Int64),
        field("last_update", DataType::Int64),
        field("section_count", DataType::Int32),
        field("compression", DataType::Utf8),
        field("stored_size", DataType::Int64),
        field("save_time", DataType::Timestamp(TimeUnit::Second, None)),
    ]
}

pub(crate) fn needs_nbt(cols: &Cols, snbt: Option<usize>) -> bool {
    cols.want_any(&FROM_NBT) || snbt.is_some_and(|s| cols.want(s))
}

/// The name of a chunk's compression, as the `compression` column gives it.
pub(crate) fn compression_name(id: u8) -> String {
    match ChunkCompression::from_id(id) {
        Some(ChunkCompression::Gzip) => "gzip".into(),
        Some(ChunkCompression::Zlib) => "zlib".into(),
        Some(ChunkCompression::Uncompressed) => "none".into(),
        Some(ChunkCompression::Lz4) => "lz4".into(),
        None => format!("unknown({id})"),
    }
}

/// One chunk's row; `root` is `None` when the NBT is not needed or not
/// readable (its columns are then null).
pub(crate) fn row(
    doc: &Doc<'_>,
    root: Option<NbtCompound<'_, '_>>,
    cols: &mut Cols,
    snbt: Option<usize>,
) {
    doc.put_place(cols);
    if let Some(root) = root {
        let data = level(root);
        cols.i32(DATA_VERSION, root.int("DataVersion"));
        if cols.want(STATUS) {
            cols.str(STATUS, text(data.string("Status")).as_deref());
        }
        cols.i64(INHABITED_TIME, data.long("InhabitedTime"));
        cols.i64(LAST_UPDATE, data.long("LastUpdate"));
        if cols.want(SECTION_COUNT) {
            let sections = data.list("sections").or_else(|| data.list("Sections"));
            cols.i32(SECTION_COUNT, sections.map(|l| l.len() as i32));
        }
        if let Some(s) = snbt.filter(|&s| cols.want(s)) {
            cols.str(s, super::snbt_compound(&root).as_deref());
        }
    }
    if let Some(info) = doc.info {
        if cols.want(COMPRESSION) {
            let mut name = compression_name(info.compression_id);
            if info.external {
                name.push_str(" (external)");
            }
            cols.str(COMPRESSION, Some(&name));
        }
        cols.i64(STORED_SIZE, doc.stored_size);
        cols.ts(SAVE_TIME, Some(i64::from(info.timestamp)));
    }
    cols.end_row();
}
