//! One Rust type for `complex_player.dat`, deserialized by each library's own
//! derive: simdnbt's `Deserialize` (from the borrowed document) and serde's
//! through fastnbt. Same fields, same renames; keys the type does not name
//! (item `tag`s, `SpawnX`, …) are skipped by both.
//!
//! na_nbt 0.2.1's serde is not compared: it reads every List as its own
//! heterogeneous form (each element wrapped as `{"": value}`, also for
//! `Option`), so it rejects the file's plain lists (`Pos`, `Inventory`, …);
//! the test below checks that this is still so.

use serde::Deserialize as SerdeDeserialize;
use simdnbt::Deserialize as NbtDeserialize;

/// The player, as a server would read the parts it uses.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
pub struct Player {
    #[simdnbt(rename = "Pos")]
    #[serde(rename = "Pos")]
    pub pos: Vec<f64>,
    #[simdnbt(rename = "Motion")]
    #[serde(rename = "Motion")]
    pub motion: Vec<f64>,
    #[simdnbt(rename = "Rotation")]
    #[serde(rename = "Rotation")]
    pub rotation: Vec<f32>,
    #[simdnbt(rename = "Health")]
    #[serde(rename = "Health")]
    pub health: i16,
    #[simdnbt(rename = "XpLevel")]
    #[serde(rename = "XpLevel")]
    pub xp_level: i32,
    #[simdnbt(rename = "Score")]
    #[serde(rename = "Score")]
    pub score: i32,
    #[simdnbt(rename = "foodLevel")]
    #[serde(rename = "foodLevel")]
    pub food_level: i32,
    #[simdnbt(rename = "UUIDMost")]
    #[serde(rename = "UUIDMost")]
    pub uuid_most: i64,
    #[simdnbt(rename = "UUIDLeast")]
    #[serde(rename = "UUIDLeast")]
    pub uuid_least: i64,
    #[simdnbt(rename = "OnGround")]
    #[serde(rename = "OnGround")]
    pub on_ground: i8,
    #[simdnbt(rename = "Inventory")]
    #[serde(rename = "Inventory")]
    pub inventory: Vec<Item>,
    #[simdnbt(rename = "EnderItems")]
    #[serde(rename = "EnderItems")]
    pub ender_items: Vec<Item>,
    #[simdnbt(rename = "SelectedItem")]
    #[serde(rename = "SelectedItem")]
    pub selected_item: HeldItem,
    pub abilities: Abilities,
    #[simdnbt(rename = "ActiveEffects")]
    #[serde(rename = "ActiveEffects")]
    pub active_effects: Vec<Effect>,
    #[simdnbt(rename = "Attributes")]
    #[serde(rename = "Attributes")]
    pub attributes: Vec<Attribute>,
}

/// An inventory slot (the item's `tag` is not read).
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
pub struct Item {
    pub id: String,
    #[simdnbt(rename = "Damage")]
    #[serde(rename = "Damage")]
    pub damage: i16,
    #[simdnbt(rename = "Count")]
    #[serde(rename = "Count")]
    pub count: i8,
    #[simdnbt(rename = "Slot")]
    #[serde(rename = "Slot")]
    pub slot: i8,
}

/// `SelectedItem`: an item without a slot.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
pub struct HeldItem {
    pub id: String,
    #[simdnbt(rename = "Damage")]
    #[serde(rename = "Damage")]
    pub damage: i16,
    #[simdnbt(rename = "Count")]
    #[serde(rename = "Count")]
    pub count: i8,
}

/// `abilities`.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
#[allow(non_snake_case)]
pub struct Abilities {
    pub flying: i8,
    pub mayfly: i8,
    pub instabuild: i8,
    pub walkSpeed: f32,
    pub flySpeed: f32,
}

/// One of `ActiveEffects`.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
pub struct Effect {
    #[simdnbt(rename = "Id")]
    #[serde(rename = "Id")]
    pub id: i8,
    #[simdnbt(rename = "Amplifier")]
    #[serde(rename = "Amplifier")]
    pub amplifier: i8,
    #[simdnbt(rename = "Duration")]
    #[serde(rename = "Duration")]
    pub duration: i32,
}

/// One of `Attributes`.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
pub struct Attribute {
    #[simdnbt(rename = "Name")]
    #[serde(rename = "Name")]
    pub name: String,
    #[simdnbt(rename = "Base")]
    #[serde(rename = "Base")]
    pub base: f64,
}

/// One library's way from file bytes to a [`Player`].
pub type Reader = fn(&[u8]) -> Result<Player, String>;

/// simdnbt: the borrow reader's pass, then the derived `from_nbt`.
pub fn simdnbt(bytes: &[u8]) -> Result<Player, String> {
    let nbt = simdnbt::borrow::read(&mut std::io::Cursor::new(bytes))
        .map_err(|e| e.to_string())?
        .unwrap();
    Player::from_nbt(&nbt).map_err(|e| e.to_string())
}

/// fastnbt's serde deserializer.
pub fn fastnbt(bytes: &[u8]) -> Result<Player, String> {
    fastnbt::from_bytes(bytes).map_err(|e| e.to_string())
}

/// na_nbt's serde deserializer (big-endian); see the module docs.
pub fn na_nbt(bytes: &[u8]) -> Result<Player, String> {
    na_nbt::from_slice_be(bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn simdnbt_and_fastnbt_read_the_same_player() {
        let bytes = corpus::load("complex_player.dat").unwrap();
        let ours = super::simdnbt(bytes).unwrap();
        assert_eq!(super::fastnbt(bytes).unwrap(), ours);
        let na = super::na_nbt(bytes).unwrap_err();
        assert!(na.contains("wrapped item"), "{na}");
        assert_eq!(ours.inventory.len(), 25);
        assert_eq!(ours.selected_item.id, "minecraft:diamond_sword");
        assert!(ours.ender_items.is_empty());
    }
}
