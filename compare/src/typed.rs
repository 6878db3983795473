//! Typed serde structs for two corpus files, the same definitions for every
//! library in the `serde` bench (`benches/serde.rs`): `complex_player.dat`
//! ([`Player`]) and `level.dat` ([`Level`]).
//!
//! Plain serde derives only, so every peer's (de)serializer can use them:
//! flags stay `i8` (not every peer maps `bool` to Byte), strings are owned
//! `String`s (quartz_nbt and hematite need `DeserializeOwned`), and fields are
//! declared in file order, so writing a value read from the file reproduces
//! the file's bytes (checked in `tests/serde_typed.rs`).

use serde::{Deserialize, Serialize};

/// A player (`complex_player.dat`, also `Data.Player` in `level.dat`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Player {
    #[serde(rename = "SelectedItemSlot")]
    pub selected_item_slot: i32,
    #[serde(rename = "UUIDLeast")]
    pub uuid_least: i64,
    #[serde(rename = "Attributes")]
    pub attributes: Vec<Attribute>,
    #[serde(rename = "Motion")]
    pub motion: Vec<f64>,
    #[serde(rename = "foodExhaustionLevel")]
    pub food_exhaustion_level: f32,
    #[serde(rename = "foodTickTimer")]
    pub food_tick_timer: i32,
    #[serde(rename = "XpLevel")]
    pub xp_level: i32,
    #[serde(rename = "Health")]
    pub health: i16,
    #[serde(rename = "XpSeed")]
    pub xp_seed: i32,
    #[serde(rename = "HealF")]
    pub heal_f: f32,
    #[serde(rename = "SelectedItem")]
    pub selected_item: Item,
    #[serde(rename = "SpawnForced")]
    pub spawn_forced: i8,
    #[serde(rename = "Inventory")]
    pub inventory: Vec<Item>,
    #[serde(rename = "ActiveEffects")]
    pub active_effects: Vec<Effect>,
    #[serde(rename = "Sleeping")]
    pub sleeping: i8,
    #[serde(rename = "SpawnX")]
    pub spawn_x: i32,
    #[serde(rename = "SpawnY")]
    pub spawn_y: i32,
    #[serde(rename = "Fire")]
    pub fire: i16,
    #[serde(rename = "SpawnZ")]
    pub spawn_z: i32,
    #[serde(rename = "playerGameType")]
    pub player_game_type: i32,
    #[serde(rename = "foodLevel")]
    pub food_level: i32,
    #[serde(rename = "Score")]
    pub score: i32,
    #[serde(rename = "Invulnerable")]
    pub invulnerable: i8,
    #[serde(rename = "DeathTime")]
    pub death_time: i16,
    #[serde(rename = "EnderItems")]
    pub ender_items: Vec<Item>,
    #[serde(rename = "XpP")]
    pub xp_p: f32,
    #[serde(rename = "AbsorptionAmount")]
    pub absorption_amount: f32,
    #[serde(rename = "SleepTimer")]
    pub sleep_timer: i16,
    #[serde(rename = "OnGround")]
    pub on_ground: i8,
    #[serde(rename = "HurtTime")]
    pub hurt_time: i16,
    #[serde(rename = "UUIDMost")]
    pub uuid_most: i64,
    #[serde(rename = "HurtByTimestamp")]
    pub hurt_by_timestamp: i32,
    #[serde(rename = "Dimension")]
    pub dimension: i32,
    #[serde(rename = "Air")]
    pub air: i16,
    #[serde(rename = "Pos")]
    pub pos: Vec<f64>,
    #[serde(rename = "foodSaturationLevel")]
    pub food_saturation_level: f32,
    #[serde(rename = "PortalCooldown")]
    pub portal_cooldown: i32,
    pub abilities: Abilities,
    #[serde(rename = "FallDistance")]
    pub fall_distance: f32,
    #[serde(rename = "XpTotal")]
    pub xp_total: i32,
    #[serde(rename = "Rotation")]
    pub rotation: Vec<f32>,
}

/// An entry of `Attributes`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Attribute {
    #[serde(rename = "Name")]
    pub name: String,
    #[serde(rename = "Base")]
    pub base: f64,
    #[serde(rename = "Modifiers", default, skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<Vec<Modifier>>,
}

/// An attribute modifier.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Modifier {
    #[serde(rename = "Name")]
    pub name: String,
    #[serde(rename = "UUIDLeast")]
    pub uuid_least: i64,
    #[serde(rename = "Operation")]
    pub operation: i32,
    #[serde(rename = "Amount")]
    pub amount: f64,
    #[serde(rename = "UUIDMost")]
    pub uuid_most: i64,
}

/// An item stack (pre-1.13 form: numeric `Damage`, `Count` Byte).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    #[serde(rename = "Damage")]
    pub damage: i16,
    #[serde(rename = "Count")]
    pub count: i8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<ItemTag>,
    #[serde(rename = "Slot", default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<i8>,
}

/// An item's `tag`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ItemTag {
    #[serde(
        rename = "RepairCost",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub repair_cost: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ench: Option<Vec<Enchantment>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<Display>,
}

/// An enchantment (numeric id).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Enchantment {
    pub id: i16,
    pub lvl: i16,
}

/// An item's `display`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Display {
    #[serde(rename = "Name")]
    pub name: String,
}

/// A potion effect.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Effect {
    #[serde(rename = "Amplifier")]
    pub amplifier: i8,
    #[serde(rename = "Ambient")]
    pub ambient: i8,
    #[serde(rename = "Duration")]
    pub duration: i32,
    #[serde(rename = "Id")]
    pub id: i8,
    #[serde(rename = "ShowParticles")]
    pub show_particles: i8,
}

/// The player's `abilities`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Abilities {
    pub flying: i8,
    pub instabuild: i8,
    pub mayfly: i8,
    pub invulnerable: i8,
    pub may_build: i8,
    pub fly_speed: f32,
    pub walk_speed: f32,
}

/// `level.dat`: its root holds `Data`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Level {
    #[serde(rename = "Data")]
    pub data: LevelData,
}

/// `level.dat`'s `Data` (a 1.8-era world).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LevelData {
    pub thundering: i8,
    #[serde(rename = "DifficultyLocked")]
    pub difficulty_locked: i8,
    #[serde(rename = "LastPlayed")]
    pub last_played: i64,
    #[serde(rename = "DayTime")]
    pub day_time: i64,
    #[serde(rename = "Player")]
    pub player: Player,
    #[serde(rename = "clearWeatherTime")]
    pub clear_weather_time: i32,
    #[serde(rename = "BorderCenterZ")]
    pub border_center_z: f64,
    pub initialized: i8,
    #[serde(rename = "BorderCenterX")]
    pub border_center_x: f64,
    #[serde(rename = "RandomSeed")]
    pub random_seed: i64,
    #[serde(rename = "BorderSize")]
    pub border_size: f64,
    pub version: i32,
    #[serde(rename = "BorderSizeLerpTarget")]
    pub border_size_lerp_target: f64,
    #[serde(rename = "Time")]
    pub time: i64,
    #[serde(rename = "allowCommands")]
    pub allow_commands: i8,
    #[serde(rename = "SpawnX")]
    pub spawn_x: i32,
    #[serde(rename = "SpawnY")]
    pub spawn_y: i32,
    pub hardcore: i8,
    #[serde(rename = "SpawnZ")]
    pub spawn_z: i32,
    #[serde(rename = "LevelName")]
    pub level_name: String,
    #[serde(rename = "SizeOnDisk")]
    pub size_on_disk: i64,
    #[serde(rename = "generatorName")]
    pub generator_name: String,
    #[serde(rename = "BorderWarningBlocks")]
    pub border_warning_blocks: f64,
    #[serde(rename = "rainTime")]
    pub rain_time: i32,
    #[serde(rename = "BorderWarningTime")]
    pub border_warning_time: f64,
    #[serde(rename = "BorderSizeLerpTime")]
    pub border_size_lerp_time: i64,
    #[serde(rename = "GameType")]
    pub game_type: i32,
    #[serde(rename = "BorderDamagePerBlock")]
    pub border_damage_per_block: f64,
    #[serde(rename = "MapFeatures")]
    pub map_features: i8,
    #[serde(rename = "BorderSafeZone")]
    pub border_safe_zone: f64,
    pub raining: i8,
    #[serde(rename = "thunderTime")]
    pub thunder_time: i32,
    #[serde(rename = "Difficulty")]
    pub difficulty: i8,
    #[serde(rename = "generatorOptions")]
    pub generator_options: String,
    #[serde(rename = "GameRules")]
    pub game_rules: GameRules,
    #[serde(rename = "generatorVersion")]
    pub generator_version: i32,
}

/// Game rules, stored as strings in this era.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GameRules {
    pub do_mob_loot: String,
    pub show_death_messages: String,
    pub do_mob_spawning: String,
    pub do_tile_drops: String,
    pub natural_regeneration: String,
    pub command_block_output: String,
    pub do_daylight_cycle: String,
    pub log_admin_commands: String,
    pub do_entity_drops: String,
    pub send_command_feedback: String,
    pub do_fire_tick: String,
    pub mob_griefing: String,
    pub random_tick_speed: String,
    pub reduced_debug_info: String,
    pub keep_inventory: String,
}

/// `complex_player.dat` with its containers kept as simdnbt's owned tree
/// (`Deserialize` for `simdnbt::owned`): the case of a struct with owned
/// fields, which simdnbt's deserializer builds from its document directly.
/// Read by simdnbt only (`icount serde simdnbt read_owned`); other fields
/// are skipped.
#[derive(Deserialize, Debug, Clone, PartialEq)]
pub struct PlayerOwned {
    #[serde(rename = "Attributes")]
    pub attributes: simdnbt::owned::NbtList,
    #[serde(rename = "SelectedItem")]
    pub selected_item: simdnbt::owned::NbtCompound,
    #[serde(rename = "Inventory")]
    pub inventory: simdnbt::owned::NbtList,
    #[serde(rename = "EnderItems")]
    pub ender_items: simdnbt::owned::NbtTag,
    #[serde(rename = "Pos")]
    pub pos: simdnbt::owned::NbtList,
    pub abilities: simdnbt::owned::NbtCompound,
    #[serde(rename = "XpTotal")]
    pub xp_total: i32,
}

/// `level.dat` with `Data` kept as simdnbt's owned tree (see [`PlayerOwned`]).
#[derive(Deserialize, Debug, Clone, PartialEq)]
pub struct LevelOwned {
    #[serde(rename = "Data")]
    pub data: simdnbt::owned::NbtCompound,
}
