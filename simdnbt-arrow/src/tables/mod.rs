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
use simdnbt::borrow::{BaseNbt, NbtCompound, NbtTag};
use simdnbt::region::ChunkInfo;

use crate::cols::Cols;
use crate::table::Kind;
use crate::{Partition, PartitionKind, Table};

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

/// The table's columns, `snbt` last when asked for.
pub(crate) fn fields(table: &Table) -> Vec<Field> {
    let mut fields = match &table.kind {
        Kind::Chunks => chunks::fields(),
        Kind::Entities => entities::fields(),
        Kind::BlockEntities => block_entities::fields(),
        Kind::Items => items::fields(),
        Kind::Players => players::fields(),
        Kind::Blocks => blocks::fields(),
        Kind::Biomes => biomes::fields(),
        Kind::Nbt => nbt::fields(),
        Kind::Custom(_) => {
            let mut f = vec![
                field("dimension", DataType::Utf8),
                field("file", DataType::Utf8),
                field("chunk_x", DataType::Int32),
                field("chunk_z", DataType::Int32),
            ];
            f.extend(table.custom_fields());
            f
        }
    };
    if table.has_snbt_column() {
        fields.push(field(SNBT_COLUMN, DataType::Utf8));
    }
    fields
}

/// The index of the `snbt` column, if the table has it.
fn snbt_index(table: &Table) -> Option<usize> {
    table
        .has_snbt_column()
        .then(|| table.schema().fields().len() - 1)
}

/// Whether the table takes rows from partitions of this kind.
pub(crate) fn reads(table: &Table, kind: PartitionKind) -> bool {
    use PartitionKind as P;
    match &table.kind {
        Kind::Chunks | Kind::BlockEntities | Kind::Blocks | Kind::Biomes => kind == P::Region,
        Kind::Entities => matches!(kind, P::Region | P::Entities),
        Kind::Items => matches!(kind, P::Region | P::Entities | P::Player | P::Level),
        Kind::Players => matches!(kind, P::Player | P::Level),
        Kind::Nbt | Kind::Custom(_) => true,
    }
}

/// Whether the projected columns need the chunk's NBT (else only its header).
pub(crate) fn needs_nbt(table: &Table, cols: &Cols) -> bool {
    match &table.kind {
        Kind::Chunks => chunks::needs_nbt(cols, snbt_index(table)),
        _ => true,
    }
}

/// Appends the rows of one document (`None`: an End root, or a chunk whose
/// NBT the projection does not need). Problems go to `warn`.
pub(crate) fn extract(
    table: &Table,
    doc: &Doc<'_>,
    nbt: Option<&BaseNbt<'_>>,
    cols: &mut Cols,
    warn: &mut Vec<String>,
) {
    let snbt = snbt_index(table);
    let Some(nbt) = nbt else {
        if let Kind::Chunks = table.kind {
            chunks::row(doc, None, cols, snbt);
        }
        return;
    };
    let root = nbt.as_compound();
    match &table.kind {
        Kind::Chunks => chunks::row(doc, Some(root), cols, snbt),
        Kind::Entities => entities::rows(doc, root, cols, snbt),
        Kind::BlockEntities => block_entities::rows(doc, root, cols, snbt),
        Kind::Items => items::rows(doc, root, cols, snbt),
        Kind::Players => players::rows(doc, root, cols, snbt),
        Kind::Blocks => blocks::rows(doc, root, cols, snbt, warn),
        Kind::Biomes => biomes::rows(doc, root, cols, snbt, warn),
        Kind::Nbt => nbt::rows(doc, root, cols, snbt),
        Kind::Custom(c) => custom::rows(c, doc, root, cols, snbt, warn),
    }
}

/// The rows of a chunk that does not inflate or parse: a `chunks` row from
/// its header (its NBT columns null), nothing for the other tables.
pub(crate) fn extract_unreadable(table: &Table, doc: &Doc<'_>, cols: &mut Cols) {
    if let Kind::Chunks = table.kind {
        chunks::row(doc, None, cols, None);
    }
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

/// The `blocks` rows of a chunk, as plain values, and the warnings.
pub(crate) fn block_rows(nbt: &[u8]) -> (Vec<crate::BlockRow>, Vec<String>) {
    use arrow_array::{Array, Int32Array, StringArray};
    let mut warn = Vec::new();
    let Ok(doc) = simdnbt::borrow::read(&mut std::io::Cursor::new(nbt)) else {
        return (Vec::new(), warn);
    };
    let table = crate::Table::builtin("blocks").expect("a built-in table");
    let schema = table.schema();
    let width = schema.fields().len();
    let all: Vec<usize> = (0..width).collect();
    let mut cols = Cols::new(schema, &all, width);
    let part = Partition {
        dimension: String::new(),
        kind: PartitionKind::Region,
        path: "r.0.0.mca".into(),
        region: Some((0, 0)),
    };
    let d = Doc {
        part: &part,
        file: "",
        chunk: Some((0, 0)),
        info: None,
        stored_size: None,
    };
    extract(&table, &d, doc.as_option(), &mut cols, &mut warn);
    let batch = cols.finish().expect("columns stay aligned");
    let ys = batch
        .column(3)
        .as_any()
        .downcast_ref::<Int32Array>()
        .expect("Int32");
    let states = batch
        .column(4)
        .as_any()
        .downcast_ref::<StringArray>()
        .expect("Utf8");
    let counts = batch
        .column(5)
        .as_any()
        .downcast_ref::<Int32Array>()
        .expect("Int32");
    let rows = (0..batch.num_rows())
        .map(|i| {
            let y = ys.is_valid(i).then(|| ys.value(i));
            (y, states.value(i).to_owned(), counts.value(i) as u32)
        })
        .collect();
    (rows, warn)
}

/// Every built-in table (all columns, with `snbt`) on `nbt` read as each
/// kind of document it reads (region chunk, entity chunk, player file,
/// `level.dat`); the rows made.
pub(crate) fn extract_all(nbt: &[u8]) -> usize {
    let Ok(doc) = simdnbt::borrow::read(&mut std::io::Cursor::new(nbt)) else {
        return 0;
    };
    let mut rows = 0;
    let names = crate::Table::builtin_names();
    let custom = crate::Table::custom(
        "..Items[]",
        &[
            ("id".into(), "id".into()),
            ("n:int".into(), "count".into()),
            ("c:byte".into(), "Count".into()),
            ("x:double".into(), "x".into()),
        ],
    );
    let tables = names
        .iter()
        .filter_map(|n| crate::Table::builtin(n))
        .chain(custom.ok())
        // The `nbt` table's `snbt` column prints every subtree once per level
        // above it (depth × size): on the fuzzer's 1 MB chunks that made the
        // target run about 2 inputs a second. Its rows are still extracted.
        .map(|t| match t.kind {
            Kind::Nbt => t,
            _ => t.with_snbt_column(),
        });
    for table in tables {
        // Each table on the kinds it reads (the `nbt` and custom tables read
        // every kind alike: once).
        let kinds = [
            PartitionKind::Region,
            PartitionKind::Entities,
            PartitionKind::Player,
            PartitionKind::Level,
        ];
        let every = matches!(table.kind, Kind::Nbt | Kind::Custom(_));
        let kinds = kinds
            .into_iter()
            .filter(|&k| reads(&table, k))
            .take(if every { 1 } else { 4 });
        for kind in kinds {
            let part = Partition {
                dimension: "overworld".into(),
                kind,
                path: "fuzz/r.0.0.mca".into(),
                region: Some((0, 0)),
            };
            let schema = table.schema();
            let width = schema.fields().len();
            let all: Vec<usize> = (0..width).collect();
            let mut cols = Cols::new(schema, &all, width);
            let d = Doc {
                part: &part,
                file: "fuzz",
                chunk: Some((1, 2)),
                info: None,
                stored_size: None,
            };
            let mut warn = Vec::new();
            extract(&table, &d, doc.as_option(), &mut cols, &mut warn);
            rows += cols.rows();
            // The batch must be well formed: every column as long as the rows.
            let batch = cols.finish().expect("columns stay aligned");
            assert_eq!(batch.num_columns(), width);
        }
    }
    rows
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
