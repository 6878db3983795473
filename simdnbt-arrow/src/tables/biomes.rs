//! `biomes`: how many biome cells of each biome each section holds, from
//! the 1.18+ sections' `biomes.{palette, data}` (64 cells of 4×4×4 blocks,
//! indices packed as the block states' are, with no minimum width); before
//! 1.18 from the chunk's `Level.Biomes` array (numeric ids).

use arrow_schema::{DataType, Field};
use simdnbt::borrow::{NbtCompound, NbtList};

use super::blocks::count_palette_indices;
use super::{Doc, field, int_like, level};
use crate::cols::Cols;

const SECTION_Y: usize = 3;
const BIOME: usize = 4;
const COUNT: usize = 5;

/// Biome cells in a 1.18+ section (4×4×4).
const CELLS: usize = 64;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("section_y", DataType::Int32),
        field("biome", DataType::Utf8),
        field("count", DataType::Int32),
    ]
}

fn row(
    doc: &Doc<'_>,
    cols: &mut Cols,
    snbt: Option<usize>,
    y: Option<i32>,
    biome: &str,
    count: u32,
    entry: Option<&simdnbt::Mutf8Str>,
) {
    doc.put_place(cols);
    cols.i32(SECTION_Y, y);
    cols.str(BIOME, Some(biome));
    cols.i32(COUNT, i32::try_from(count).ok());
    if let Some(s) = snbt.filter(|&s| cols.want(s)) {
        let text = entry.and_then(|e| {
            simdnbt::snbt::to_string(&simdnbt::owned::NbtTag::String(e.to_owned())).ok()
        });
        cols.str(s, text.as_deref());
    }
    cols.end_row();
}

/// One 1.18+ section's rows.
fn paletted(
    doc: &Doc<'_>,
    cols: &mut Cols,
    snbt: Option<usize>,
    y: Option<i32>,
    biomes: &NbtCompound<'_, '_>,
    counts: &mut Vec<u32>,
) -> Result<(), String> {
    let palette: NbtList<'_, '_> = biomes.list("palette").ok_or("biomes has no palette")?;
    let names = palette
        .strings()
        .ok_or("the biome palette is not a list of strings")?;
    count_palette_indices(
        biomes.long_array_raw("data"),
        names.len(),
        0,
        false,
        CELLS,
        counts,
    )?;
    for (name, &count) in names.iter().zip(counts.iter()) {
        if count > 0 {
            row(doc, cols, snbt, y, &name.to_str(), count, Some(name));
        }
    }
    Ok(())
}

pub(crate) fn rows(
    doc: &Doc<'_>,
    root: NbtCompound<'_, '_>,
    cols: &mut Cols,
    snbt: Option<usize>,
    warn: &mut Vec<String>,
) {
    if let Some(list) = root.list("sections") {
        let Some(sections) = list.compounds() else {
            return;
        };
        let mut counts = Vec::new();
        for (i, section) in sections.iter().enumerate() {
            let Some(biomes) = section.compound("biomes") else {
                continue;
            };
            let y = int_like(section.get("Y")).and_then(|y| i32::try_from(y).ok());
            if let Err(e) = paletted(doc, cols, snbt, y, &biomes, &mut counts) {
                warn.push(format!(
                    "sections[{i}] (y {}): biomes skipped: {e}",
                    y.map_or("?".into(), |y| y.to_string())
                ));
            }
        }
        return;
    }
    // Before 1.18: one array for the chunk, ids as numbers (16×16 columns
    // before 1.15; 4×4×4 cells from 1.15, an Int array).
    let data = level(root);
    let mut ids: Vec<i64> = if let Some(ints) = data.int_array_raw("Biomes") {
        ints.iter().map(i64::from).collect()
    } else if let Some(bytes) = data.byte_array("Biomes") {
        bytes.iter().map(|&b| i64::from(b)).collect()
    } else {
        return;
    };
    ids.sort_unstable();
    for run in ids.chunk_by(|a, b| a == b) {
        let count = u32::try_from(run.len()).unwrap_or(u32::MAX);
        row(doc, cols, snbt, None, &run[0].to_string(), count, None);
    }
}
