//! `block_entities`: one row per block entity (chests, signs, spawners...):
//! `Level.TileEntities` before 1.18, `block_entities` after.

use arrow_schema::{DataType, Field};
use simdnbt::borrow::NbtCompound;

use super::{Doc, field, int_like, level, text};
use crate::cols::Cols;

const ID: usize = 3;
const X: usize = 4;
const Y: usize = 5;
const Z: usize = 6;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("id", DataType::Utf8),
        field("x", DataType::Int32),
        field("y", DataType::Int32),
        field("z", DataType::Int32),
    ]
}

/// Calls `f` with every block entity of a chunk.
pub(crate) fn for_each_block_entity<'a, 't>(
    root: NbtCompound<'a, 't>,
    mut f: impl FnMut(NbtCompound<'a, 't>),
) {
    let data = level(root);
    let list = data
        .list("block_entities")
        .or_else(|| data.list("TileEntities"));
    if let Some(list) = list.and_then(|l| l.compounds()) {
        list.iter().for_each(&mut f);
    }
}

/// A block entity's `x`, `y`, `z` (ints; any integer type taken).
pub(crate) fn block_pos(c: &NbtCompound<'_, '_>) -> [Option<i32>; 3] {
    let get = |k| int_like(c.get(k)).and_then(|v| i32::try_from(v).ok());
    [get("x"), get("y"), get("z")]
}

pub(crate) fn rows(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    for_each_block_entity(root, |be| {
        doc.put_place(cols);
        if cols.want(ID) {
            cols.str(ID, text(be.string("id")).as_deref());
        }
        let [x, y, z] = block_pos(&be);
        cols.i32(X, x);
        cols.i32(Y, y);
        cols.i32(Z, z);
        if let Some(s) = snbt.filter(|&s| cols.want(s)) {
            cols.str(s, super::snbt_compound(&be).as_deref());
        }
        cols.end_row();
    });
}
