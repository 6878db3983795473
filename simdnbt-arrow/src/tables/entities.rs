//! `entities`: one row per entity, from chunks before 1.17 (`Level.Entities`;
//! `entities` of 1.18+ proto-chunks) and from `entities/` region files
//! (1.17+, `Entities`); riders (`Passengers`) are rows too.

use arrow_schema::{DataType, Field};
use simdnbt::borrow::{NbtCompound, NbtList};

use super::{Doc, field, level, text, text_or_snbt, uuid, xyz};
use crate::cols::Cols;

const ID: usize = 3;
const X: usize = 4;
const Y: usize = 5;
const Z: usize = 6;
const UUID: usize = 7;
const CUSTOM_NAME: usize = 8;

/// Riders deeper than this are not followed (the game allows far less).
pub(crate) const MAX_PASSENGER_DEPTH: usize = 64;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("id", DataType::Utf8),
        field("x", DataType::Float64),
        field("y", DataType::Float64),
        field("z", DataType::Float64),
        field("uuid", DataType::Utf8),
        field("custom_name", DataType::Utf8),
    ]
}

/// The entity lists of a chunk or entity chunk.
pub(crate) fn entity_lists<'a, 't>(root: NbtCompound<'a, 't>) -> Vec<NbtList<'a, 't>> {
    let data = level(root);
    let mut lists = Vec::new();
    if let Some(l) = data.list("Entities") {
        lists.push(l);
    }
    // 1.18+ proto-chunks keep their entities under `entities`.
    if let Some(l) = root.list("entities") {
        lists.push(l);
    }
    lists
}

/// Calls `f` with every entity of the chunk, riders included, depth first.
pub(crate) fn for_each_entity<'a, 't>(
    root: NbtCompound<'a, 't>,
    mut f: impl FnMut(NbtCompound<'a, 't>),
) {
    for list in entity_lists(root) {
        let Some(entities) = list.compounds() else {
            continue;
        };
        // Riders, depth first: one iterator per level of riding.
        let mut stack = vec![entities.iter()];
        while let Some(iter) = stack.last_mut() {
            let Some(entity) = iter.next() else {
                stack.pop();
                continue;
            };
            f(entity);
            if stack.len() <= MAX_PASSENGER_DEPTH {
                if let Some(riders) = entity.list("Passengers").and_then(|l| l.compounds()) {
                    stack.push(riders.iter());
                }
            }
        }
    }
}

pub(crate) fn rows(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    let want_pos = cols.want_any(&[X, Y, Z]);
    for_each_entity(root, |entity| {
        doc.put_place(cols);
        if cols.want(ID) {
            cols.str(ID, text(entity.string("id")).as_deref());
        }
        if want_pos {
            let [x, y, z] = xyz(&entity, "Pos");
            cols.f64(X, x);
            cols.f64(Y, y);
            cols.f64(Z, z);
        }
        if cols.want(UUID) {
            cols.str(UUID, uuid(&entity).as_deref());
        }
        if cols.want(CUSTOM_NAME) {
            cols.str(
                CUSTOM_NAME,
                text_or_snbt(entity.get("CustomName")).as_deref(),
            );
        }
        if let Some(s) = snbt.filter(|&s| cols.want(s)) {
            cols.str(s, super::snbt_compound(&entity).as_deref());
        }
        cols.end_row();
    });
}
