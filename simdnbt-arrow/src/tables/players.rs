//! `players`: one row per player file (`playerdata/UUID.dat`), and one for
//! the single-player `Data.Player` of `level.dat`.

use arrow_schema::{DataType, Field};
use simdnbt::borrow::NbtCompound;

use super::{Doc, dimension_name, field, int_like, uuid, xyz};
use crate::cols::Cols;
use crate::{Partition, PartitionKind};

const UUID: usize = 0;
const DIMENSION: usize = 1;
const X: usize = 2;
const Y: usize = 3;
const Z: usize = 4;
const HEALTH: usize = 5;
const XP_LEVEL: usize = 6;
const GAME_MODE: usize = 7;
const INVENTORY_SIZE: usize = 8;
const SOURCE: usize = 9;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("uuid", DataType::Utf8),
        field("dimension", DataType::Utf8),
        field("x", DataType::Float64),
        field("y", DataType::Float64),
        field("z", DataType::Float64),
        field("health", DataType::Float32),
        field("xp_level", DataType::Int32),
        field("game_mode", DataType::Int32),
        field("inventory_size", DataType::Int32),
        field("file", DataType::Utf8),
    ]
}

/// A player file's UUID: its name without `.dat`.
pub(crate) fn uuid_from_file(part: &Partition) -> Option<String> {
    let stem = part.path.file_stem()?.to_str()?;
    Some(stem.to_owned())
}

fn row(
    doc: &Doc<'_>,
    player: NbtCompound<'_, '_>,
    id: Option<String>,
    cols: &mut Cols,
    snbt: Option<usize>,
) {
    cols.str(UUID, id.as_deref());
    if cols.want(DIMENSION) {
        cols.str(
            DIMENSION,
            dimension_name(player.get("Dimension")).as_deref(),
        );
    }
    let [x, y, z] = xyz(&player, "Pos");
    cols.f64(X, x);
    cols.f64(Y, y);
    cols.f64(Z, z);
    // A float since 1.9; a short before (with the float in `HealF`).
    let health = player.get("Health");
    let health = health
        .and_then(|h| h.float())
        .or_else(|| player.float("HealF"))
        .or_else(|| int_like(health).map(|h| h as f32));
    cols.f32(HEALTH, health);
    cols.i32(
        XP_LEVEL,
        int_like(player.get("XpLevel")).and_then(|v| i32::try_from(v).ok()),
    );
    cols.i32(
        GAME_MODE,
        int_like(player.get("playerGameType")).and_then(|v| i32::try_from(v).ok()),
    );
    cols.i32(
        INVENTORY_SIZE,
        player.list("Inventory").map(|l| l.len() as i32),
    );
    cols.str(SOURCE, Some(doc.file));
    if let Some(s) = snbt.filter(|&s| cols.want(s)) {
        cols.str(s, super::snbt_compound(&player).as_deref());
    }
    cols.end_row();
}

pub(crate) fn rows(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    match doc.part.kind {
        PartitionKind::Player => {
            let id = uuid_from_file(doc.part).or_else(|| uuid(&root));
            row(doc, root, id, cols, snbt);
        }
        PartitionKind::Level => {
            if let Some(player) = root.compound("Data").and_then(|d| d.compound("Player")) {
                row(doc, player, uuid(&player), cols, snbt);
            }
        }
        _ => {}
    }
}
