//! One Rust type for `complex_player.dat`, deserialized by each library's own
//! derive: simdnbt's `Deserialize` (from the borrowed document) and serde's
//! through fastnbt. Fields are named as the keys (no renames to keep in step);
//! keys the type does not name
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
#[allow(non_snake_case)]
pub struct Player {
    pub Pos: Vec<f64>,
    pub Motion: Vec<f64>,
    pub Rotation: Vec<f32>,
    pub Health: i16,
    pub XpLevel: i32,
    pub Score: i32,
    pub foodLevel: i32,
    pub UUIDMost: i64,
    pub UUIDLeast: i64,
    pub OnGround: i8,
    pub Inventory: Vec<Item>,
    pub EnderItems: Vec<Item>,
    pub SelectedItem: HeldItem,
    pub abilities: Abilities,
    pub ActiveEffects: Vec<Effect>,
    pub Attributes: Vec<Attribute>,
}

/// An inventory slot (the item's `tag` is not read).
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
#[allow(non_snake_case)]
pub struct Item {
    pub id: String,
    pub Damage: i16,
    pub Count: i8,
    pub Slot: i8,
}

/// `SelectedItem`: an item without a slot.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
#[allow(non_snake_case)]
pub struct HeldItem {
    pub id: String,
    pub Damage: i16,
    pub Count: i8,
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
#[allow(non_snake_case)]
pub struct Effect {
    pub Id: i8,
    pub Amplifier: i8,
    pub Duration: i32,
}

/// One of `Attributes`.
#[derive(Debug, Clone, PartialEq, NbtDeserialize, SerdeDeserialize)]
#[allow(non_snake_case)]
pub struct Attribute {
    pub Name: String,
    pub Base: f64,
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
        assert_eq!(ours.Inventory.len(), 25);
        assert_eq!(ours.SelectedItem.id, "minecraft:diamond_sword");
        assert!(ours.EnderItems.is_empty());
    }
}
