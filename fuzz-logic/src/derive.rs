//! `derive_read`: documents read into derived types (simdnbt's
//! `#[derive(Deserialize, Serialize)]` and the std impls), which must never
//! panic, and whose values must write, read back and write again to the same
//! bytes.

use std::io::Cursor;

use simdnbt::{Deserialize, FromNbtTag, Serialize, ToNbtTag, borrow, owned};

#[derive(Debug, Deserialize, Serialize)]
struct Item {
    id: String,
    #[simdnbt(rename = "Count")]
    count: u8,
    #[simdnbt(rename = "Damage", default)]
    damage: i16,
    tag: Option<owned::NbtCompound>,
    #[simdnbt(rename = "Slot")]
    slot: Option<i8>,
}

/// Flattened into `Player`: its keys sit beside the player's.
#[derive(Debug, Deserialize, Serialize)]
struct Pos {
    x: Option<f64>,
    y: Option<f64>,
    #[simdnbt(default)]
    z: f32,
}

#[derive(Debug, Clone, Copy, FromNbtTag, ToNbtTag)]
enum Mode {
    #[simdnbt(rename = "survival")]
    Survival,
    #[simdnbt(rename = "creative")]
    Creative,
}

#[derive(Debug, Deserialize, Serialize)]
struct Player {
    #[simdnbt(rename = "Inventory", default)]
    inventory: Vec<Item>,
    #[simdnbt(rename = "Pos")]
    pos: Option<Vec<f64>>,
    #[simdnbt(rename = "Rotation", default)]
    rotation: Vec<f32>,
    #[simdnbt(rename = "UUID", default)]
    uuid: Vec<i32>,
    mode: Option<Mode>,
    names: Option<Vec<String>>,
    slots: Option<Vec<Option<Item>>>,
    #[simdnbt(flatten)]
    at: Pos,
    on_ground: Option<bool>,
    big: Option<u64>,
}

#[derive(Debug, Deserialize, Serialize)]
#[simdnbt(deny_unknown_fields)]
struct Strict {
    a: i32,
    b: Option<String>,
}

/// Reads `doc` as `T`; on success the value's writes must be stable
/// (write → read → write gives the same bytes). An error must say something.
fn check<T: Deserialize + Serialize>(doc: &borrow::BaseNbt<'_>) {
    let value = match T::from_nbt(doc) {
        Ok(v) => v,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let mut first = Vec::new();
    value
        .to_nbt()
        .write(&mut first)
        .expect("a value read from a valid document writes");
    let again = borrow::read(&mut Cursor::new(&first[..]))
        .expect("written bytes read back")
        .unwrap();
    let value = T::from_nbt(&again).expect("a written value reads back");
    let mut second = Vec::new();
    value.to_nbt().write(&mut second).unwrap();
    assert!(first == second, "derived value not stable through a write");
}

/// `derive_read`: any input; documents go through the derived types above and
/// through `HashMap<String, NbtTag>`.
pub fn derive_read(data: &[u8]) {
    let Ok(simdnbt::borrow::Nbt::Some(doc)) = borrow::read(&mut Cursor::new(data)) else {
        return;
    };
    check::<Player>(&doc);
    check::<Strict>(&doc);
    check::<owned::NbtCompound>(&doc);
    let map = std::collections::HashMap::<String, owned::NbtTag>::from_nbt(&doc)
        .expect("any compound reads as a map of tags");
    assert!(map.len() <= doc.as_compound().len());
}
