//! `items`: one row per item stack, wherever it is: containers (block
//! entities' `Items`, and `Item`, `item`, `RecordItem`, `Book`), entities
//! (`Item` of dropped items and item frames, `Items` of minecarts and
//! donkeys, `Inventory` of villagers, `ArmorItems`, `HandItems`,
//! `equipment`, `SaddleItem`, `ArmorItem`, `DecorItem`, `body_armor_item`,
//! riders included), players (`Inventory`, `EnderItems`, `equipment`) in
//! player files and in `level.dat`'s `Data.Player`.
//!
//! Items inside items are rows too (a shulker box's or bundle's contents:
//! `tag.BlockEntityTag.Items`, `tag.Items` before 1.20.5,
//! `components."minecraft:container"`, `components."minecraft:bundle_contents"`
//! after), to [`MAX_NESTING`] levels, with the holding item's id in `inside`.

use arrow_schema::{DataType, Field};
use simdnbt::borrow::NbtCompound;

use super::block_entities::{block_pos, for_each_block_entity};
use super::entities::for_each_entity;
use super::{Doc, dimension_name, field, int_like, snbt_compound, text, uuid, xyz};
use crate::PartitionKind;
use crate::cols::Cols;

const CONTAINER: usize = 3;
const FIELD: usize = 4;
const X: usize = 5;
const Y: usize = 6;
const Z: usize = 7;
const HOLDER_UUID: usize = 8;
const SLOT: usize = 9;
const ID: usize = 10;
const COUNT: usize = 11;
const TAG: usize = 12;
const INSIDE: usize = 13;

/// Items inside items inside items... deeper than this are not rows.
pub(crate) const MAX_NESTING: usize = 8;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("container", DataType::Utf8),
        field("field", DataType::Utf8),
        field("x", DataType::Float64),
        field("y", DataType::Float64),
        field("z", DataType::Float64),
        field("holder_uuid", DataType::Utf8),
        field("slot", DataType::Int32),
        field("id", DataType::Utf8),
        field("count", DataType::Int32),
        field("tag", DataType::Utf8),
        field("inside", DataType::Utf8),
    ]
}

/// Lists of item stacks on block entities, entities and players.
pub(crate) const BLOCK_ENTITY_LISTS: [&str; 1] = ["Items"];
pub(crate) const BLOCK_ENTITY_SINGLES: [&str; 4] = ["Item", "item", "RecordItem", "Book"];
pub(crate) const ENTITY_LISTS: [&str; 4] = ["Items", "Inventory", "ArmorItems", "HandItems"];
pub(crate) const ENTITY_SINGLES: [&str; 5] = [
    "Item",
    "SaddleItem",
    "ArmorItem",
    "DecorItem",
    "body_armor_item",
];
pub(crate) const PLAYER_LISTS: [&str; 2] = ["Inventory", "EnderItems"];

/// Where the items of one holder are.
struct Holder<'d> {
    dimension: Option<String>,
    chunk: Option<(i32, i32)>,
    container: String,
    pos: [Option<f64>; 3],
    uuid: Option<String>,
    doc: &'d Doc<'d>,
}

/// An item stack's id: a string, or a number before 1.8.
fn item_id(item: &NbtCompound<'_, '_>) -> Option<String> {
    let tag = item.get("id")?;
    match tag.string() {
        Some(s) => Some(s.to_str().into_owned()),
        None => int_like(Some(tag)).map(|n| n.to_string()),
    }
}

/// Whether a compound is an item stack (not an empty slot).
fn is_stack(id: &str) -> bool {
    !matches!(id, "minecraft:air" | "air" | "0")
}

/// Calls `f(field, slot, item)` with each item stack held by `item`.
fn contents<'a, 't>(
    item: &NbtCompound<'a, 't>,
    mut f: impl FnMut(&'static str, Option<i32>, NbtCompound<'a, 't>),
) {
    let indexed = |list: Option<simdnbt::borrow::NbtList<'a, 't>>| {
        list.and_then(|l| l.compounds())
            .into_iter()
            .flat_map(|c| c.iter().enumerate())
    };
    if let Some(tag) = item.compound("tag") {
        let block_entity = tag.compound("BlockEntityTag").and_then(|b| b.list("Items"));
        for (i, inner) in indexed(block_entity) {
            f("tag.BlockEntityTag.Items", Some(i as i32), inner);
        }
        for (i, inner) in indexed(tag.list("Items")) {
            f("tag.Items", Some(i as i32), inner);
        }
    }
    if let Some(components) = item.compound("components") {
        for (_, entry) in indexed(components.list("minecraft:container")) {
            let slot = int_like(entry.get("slot")).and_then(|s| i32::try_from(s).ok());
            if let Some(inner) = entry.compound("item") {
                f("components.minecraft:container", slot, inner);
            }
        }
        for (i, inner) in indexed(components.list("minecraft:bundle_contents")) {
            f(
                "components.minecraft:bundle_contents",
                Some(i as i32),
                inner,
            );
        }
    }
}

struct Put<'h, 'c> {
    holder: &'h Holder<'h>,
    cols: &'c mut Cols,
    snbt: Option<usize>,
}

impl Put<'_, '_> {
    /// The row of `item` (if it is a stack) and of the items inside it.
    fn item(
        &mut self,
        field_name: &str,
        slot: Option<i32>,
        item: NbtCompound<'_, '_>,
        inside: Option<&str>,
        depth: usize,
    ) {
        let Some(id) = item_id(&item) else { return };
        if !is_stack(&id) {
            return;
        }
        let (holder, cols) = (self.holder, &mut *self.cols);
        if cols.want(0) {
            let dim = holder
                .dimension
                .as_deref()
                .unwrap_or(&holder.doc.part.dimension);
            cols.str(0, Some(dim));
        }
        cols.i32(1, holder.chunk.map(|c| c.0));
        cols.i32(2, holder.chunk.map(|c| c.1));
        cols.str(CONTAINER, Some(&holder.container));
        cols.str(FIELD, Some(field_name));
        cols.f64(X, holder.pos[0]);
        cols.f64(Y, holder.pos[1]);
        cols.f64(Z, holder.pos[2]);
        cols.str(HOLDER_UUID, holder.uuid.as_deref());
        let slot = int_like(item.get("Slot"))
            .and_then(|s| i32::try_from(s).ok())
            .or(slot);
        cols.i32(SLOT, slot);
        cols.str(ID, Some(&id));
        if cols.want(COUNT) {
            let count = int_like(item.get("count"))
                .or_else(|| int_like(item.get("Count")))
                .unwrap_or(1);
            cols.i32(COUNT, i32::try_from(count).ok());
        }
        if cols.want(TAG) {
            let tag = item.compound("components").or_else(|| item.compound("tag"));
            cols.str(TAG, tag.as_ref().and_then(snbt_compound).as_deref());
        }
        cols.str(INSIDE, inside);
        if let Some(s) = self.snbt.filter(|&s| cols.want(s)) {
            cols.str(s, snbt_compound(&item).as_deref());
        }
        cols.end_row();
        if depth < MAX_NESTING {
            contents(&item, |field, slot, inner| {
                self.item(field, slot, inner, Some(&id), depth + 1);
            });
        }
    }
}

/// The items of one holder's lists, single-item keys and `equipment`.
fn holder_items(
    holder: &Holder<'_>,
    c: NbtCompound<'_, '_>,
    lists: &[&str],
    singles: &[&str],
    cols: &mut Cols,
    snbt: Option<usize>,
) {
    let mut put = Put { holder, cols, snbt };
    for &key in lists {
        if let Some(items) = c.list(key).and_then(|l| l.compounds()) {
            for (i, item) in items.iter().enumerate() {
                put.item(key, Some(i as i32), item, None, 0);
            }
        }
    }
    for &key in singles {
        if let Some(item) = c.compound(key) {
            put.item(key, None, item, None, 0);
        }
    }
    if let Some(equipment) = c.compound("equipment") {
        for (key, value) in equipment.iter() {
            if let Some(item) = value.compound() {
                let name = format!("equipment.{}", key.to_str());
                put.item(&name, None, item, None, 0);
            }
        }
    }
}

fn entity_items(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    let want_where = cols.want_any(&[CONTAINER, X, Y, Z, HOLDER_UUID]);
    for_each_entity(root, |entity| {
        let holder = Holder {
            dimension: None,
            chunk: doc.chunk,
            container: if want_where {
                text(entity.string("id")).map_or_else(String::new, |s| s.into_owned())
            } else {
                String::new()
            },
            pos: if want_where {
                xyz(&entity, "Pos")
            } else {
                [None; 3]
            },
            uuid: if want_where { uuid(&entity) } else { None },
            doc,
        };
        holder_items(&holder, entity, &ENTITY_LISTS, &ENTITY_SINGLES, cols, snbt);
    });
}

fn player_items(
    doc: &Doc<'_>,
    player: NbtCompound<'_, '_>,
    uuid: Option<String>,
    cols: &mut Cols,
    snbt: Option<usize>,
) {
    let [x, y, z] = xyz(&player, "Pos");
    let holder = Holder {
        dimension: dimension_name(player.get("Dimension")),
        chunk: None,
        container: "player".into(),
        pos: [x, y, z],
        uuid,
        doc,
    };
    holder_items(&holder, player, &PLAYER_LISTS, &[], cols, snbt);
}

pub(crate) fn rows(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    match doc.part.kind {
        PartitionKind::Region => {
            for_each_block_entity(root, |be| {
                let [x, y, z] = block_pos(&be);
                let holder = Holder {
                    dimension: None,
                    chunk: doc.chunk,
                    container: text(be.string("id")).map_or_else(String::new, |s| s.into_owned()),
                    pos: [x.map(f64::from), y.map(f64::from), z.map(f64::from)],
                    uuid: None,
                    doc,
                };
                holder_items(
                    &holder,
                    be,
                    &BLOCK_ENTITY_LISTS,
                    &BLOCK_ENTITY_SINGLES,
                    cols,
                    snbt,
                );
            });
            entity_items(doc, root, cols, snbt);
        }
        PartitionKind::Entities => entity_items(doc, root, cols, snbt),
        PartitionKind::Player => {
            let uuid = super::players::uuid_from_file(doc.part).or_else(|| uuid_of(&root));
            player_items(doc, root, uuid, cols, snbt);
        }
        PartitionKind::Level => {
            if let Some(player) = root.compound("Data").and_then(|d| d.compound("Player")) {
                player_items(doc, player, uuid_of(&player), cols, snbt);
            }
        }
        _ => {}
    }
}

fn uuid_of(c: &NbtCompound<'_, '_>) -> Option<String> {
    uuid(c)
}
