//! A small world for the documentation's examples.

use std::path::{Path, PathBuf};

use simdnbt::region::{ChunkCompression, Region};

fn nbt(snbt: &str) -> Vec<u8> {
    let compound = simdnbt::snbt::compound_from_str(snbt).expect("the example's SNBT parses");
    let mut out = Vec::new();
    simdnbt::owned::BaseNbt::new("", compound)
        .write(&mut out)
        .expect("the example's NBT writes");
    out
}

fn region(path: &Path, chunk: &str) {
    std::fs::create_dir_all(path.parent().expect("in a folder")).expect("a temporary folder");
    let mut region = Region::new();
    region
        .write_chunk_at(0, 0, &nbt(chunk), ChunkCompression::Zlib, 1_700_000_000)
        .expect("the example chunk is NBT");
    region.save(path).expect("the example region saves");
}

/// Writes, in a new temporary folder named after `name`, a world of one
/// 1.20 chunk (a section of 4095 stone and one oak log, one cell of river
/// and 63 of plains; a section of air and plains; a chest holding 5 diamonds), one entity chunk (a zombie, a dropped
/// apple ×3) and one player (level 7, 16 torches). Returns the folder.
#[doc(hidden)]
pub fn example_world(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "simdnbt-arrow-example-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    // Two palette entries: 4 bits, 16 per long; position 0 is entry 1.
    let longs = std::iter::once("1L")
        .chain(std::iter::repeat_n("0L", 255))
        .collect::<Vec<_>>()
        .join(",");
    let chunk = format!(
        r#"{{DataVersion: 3700, Status: "minecraft:full", InhabitedTime: 1200L, LastUpdate: 500L,
            sections: [
              {{Y: 4b, block_states: {{palette: [{{Name: "minecraft:stone"}},
                  {{Name: "minecraft:oak_log", Properties: {{axis: "y"}}}}], data: [L; {longs}]}},
                biomes: {{palette: ["minecraft:plains", "minecraft:river"], data: [L; 1L]}}}},
              {{Y: 5b, block_states: {{palette: [{{Name: "minecraft:air"}}]}},
                biomes: {{palette: ["minecraft:plains"]}}}}],
            block_entities: [{{id: "minecraft:chest", x: 3, y: 64, z: 5,
              Items: [{{Slot: 0b, id: "minecraft:diamond", count: 5}}]}}]}}"#
    );
    region(&dir.join("region/r.0.0.mca"), &chunk);
    region(
        &dir.join("entities/r.0.0.mca"),
        r#"{DataVersion: 3700, Position: [I; 0, 0], Entities: [
            {id: "minecraft:zombie", Pos: [1.5d, 64.0d, 2.5d], UUID: [I; 1, 2, 3, 4]},
            {id: "minecraft:item", Pos: [4.0d, 64.0d, 4.0d], UUID: [I; 5, 6, 7, 8],
             Item: {id: "minecraft:apple", count: 3}}]}"#,
    );
    std::fs::create_dir_all(dir.join("playerdata")).expect("a temporary folder");
    let player = nbt(
        r#"{Dimension: "minecraft:overworld", Pos: [0.5d, 70.0d, 0.5d], Health: 20.0f,
            XpLevel: 7, playerGameType: 0, Inventory: [{Slot: 0b, id: "minecraft:torch", count: 16}]}"#,
    );
    std::fs::write(
        dir.join("playerdata/01234567-89ab-cdef-0123-456789abcdef.dat"),
        player,
    )
    .expect("a temporary folder");
    dir
}

/// Every value of a text or number column of the batches, as text (`NULL`
/// for nulls), for the examples.
#[doc(hidden)]
pub fn column_text(batches: &[arrow_array::RecordBatch], column: usize) -> Vec<String> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
    use arrow_schema::DataType;
    let mut out = Vec::new();
    for batch in batches {
        let a = batch.column(column);
        for i in 0..a.len() {
            if a.is_null(i) {
                out.push("NULL".to_owned());
                continue;
            }
            out.push(match a.data_type() {
                DataType::Utf8 => a.as_string::<i32>().value(i).to_owned(),
                DataType::Int32 => a.as_primitive::<Int32Type>().value(i).to_string(),
                DataType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
                DataType::Float32 => a.as_primitive::<Float32Type>().value(i).to_string(),
                DataType::Float64 => a.as_primitive::<Float64Type>().value(i).to_string(),
                other => format!("{other}"),
            });
        }
    }
    out
}
