//! Minecraft worlds as [Apache Arrow](https://arrow.apache.org) tables.
//!
//! A [`Source`] is a world folder (every dimension), a folder of region
//! files, one region file or one NBT file, cut into [`Partition`]s (one per
//! file). A [`Table`] says which rows each document gives: one of the
//! built-in tables below, or a custom one from NBT paths. [`scan`] reads
//! every partition in parallel and streams `RecordBatch`es through a bounded
//! channel, so memory stays bounded whatever the size of the world;
//! [`scan_partition`] reads one partition. Only the projected columns are
//! decoded ([`ScanOptions::projection`]), from the library's borrowed reader
//! (`simdnbt::borrow`): each chunk is inflated once into a reused buffer,
//! parsed once, and only the paths the projected columns need are visited.
//!
//! A chunk that does not inflate or parse, or a section whose palette and
//! data disagree, is a [`Warning`] and gives no rows (the `chunks` table
//! keeps the chunk's header row); the scan goes on. A file that cannot be
//! opened at all is a warning of [`scan`] and the error of
//! [`scan_partition`].
//!
//! ```
//! use arrow_array::{Array, Int32Array};
//! use simdnbt_arrow::{scan, ScanOptions, Source, Table};
//!
//! # let dir = std::env::temp_dir().join(format!("simdnbt-arrow-doc-lib-{}", std::process::id()));
//! # std::fs::create_dir_all(dir.join("region")).unwrap();
//! # let mut region = simdnbt::region::Region::new();
//! # let chunk = simdnbt::snbt::compound_from_str("{DataVersion: 3465, Status: 'minecraft:full'}").unwrap();
//! # let mut nbt = Vec::new();
//! # simdnbt::owned::BaseNbt::new("", chunk).write(&mut nbt).unwrap();
//! # for x in 0..4 { region.write_chunk(x, 0, &nbt, simdnbt::region::ChunkCompression::Zlib).unwrap(); }
//! # region.save(dir.join("region/r.0.0.mca")).unwrap();
//! // `dir`: a world folder.
//! let source = Source::open(&dir)?;
//! let chunks = Table::builtin("chunks").unwrap();
//! // data_version only (column 3 of `chunks`).
//! let opts = ScanOptions::default().with_projection(vec![3]);
//! for batch in scan(&source, &chunks, &opts) {
//!     let batch = batch?;
//!     let versions = batch.column(0).as_any().downcast_ref::<Int32Array>().unwrap();
//!     assert!(versions.iter().all(|v| v == Some(3465)));
//! }
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # What a world folder holds
//!
//! | partition kind | files | tables that read it |
//! |---|---|---|
//! | `region` | `region/`, `DIM-1/region/`, `DIM1/region/`, `dimensions/NS/PATH/region/` `r.X.Z.mca` | `chunks`, `entities` (before 1.17), `block_entities`, `items`, `blocks`, `biomes`, `nbt`, custom |
//! | `entities` | the same dimensions' `entities/r.X.Z.mca` (1.17+) | `entities`, `items`, `nbt`, custom |
//! | `poi` | the same dimensions' `poi/r.X.Z.mca` | `nbt`, custom |
//! | `player` | `playerdata/*.dat` | `players`, `items`, `nbt`, custom |
//! | `level` | `level.dat` | `players` and `items` (its `Data.Player`), `nbt`, custom |
//! | `file` | any other NBT file opened by itself | `nbt`, custom |
//!
//! Dimensions are named `overworld`, `the_nether`, `the_end`, or
//! `namespace:path` for `dimensions/namespace/path/` (the three vanilla ones
//! shortened there too). Chunk coordinates are absolute (`32 × region + local`).
//! Every column is nullable: a value missing or of the wrong type in a
//! chunk is a null, not an error.
//!
//! # `chunks`: one row per chunk of `region/` files
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0 | `dimension` | Utf8 | the folder |
//! | 1 | `chunk_x` | Int32 | the region header's position |
//! | 2 | `chunk_z` | Int32 | the region header's position |
//! | 3 | `data_version` | Int32 | `DataVersion` |
//! | 4 | `status` | Utf8 | `Status` (1.18+), `Level.Status` (1.14–1.17), as stored (`minecraft:full`, `full`, …) |
//! | 5 | `inhabited_time` | Int64 | `InhabitedTime` / `Level.InhabitedTime` (ticks) |
//! | 6 | `last_update` | Int64 | `LastUpdate` / `Level.LastUpdate` (game tick) |
//! | 7 | `section_count` | Int32 | length of `sections` / `Level.Sections` |
//! | 8 | `compression` | Utf8 | header: `zlib`, `gzip`, `none`, `lz4`, `unknown(N)`; ` (external)` for `.mcc` chunks |
//! | 9 | `stored_size` | Int64 | header: bytes of compressed data (null for `.mcc` chunks) |
//! | 10 | `save_time` | Timestamp(s) | header: when the chunk was saved (UTC) |
//!
//! A chunk whose data does not inflate or parse still has its row, with
//! columns 3–7 null (and a warning when they are asked for), so that a
//! `count(*)` is the same whatever the projection. Asking for columns 0–2
//! and 8–10 only reads the header, not the chunks.
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("chunks");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("chunks").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![5, 8]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // inhabited_time, compression
//! assert_eq!(column_text(&batches, 0), ["1200"]);
//! assert_eq!(column_text(&batches, 1), ["zlib"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `entities`: one row per entity
//!
//! From `Level.Entities` of chunks before 1.17 (`entities` of 1.18+
//! proto-chunks) and `Entities` of `entities/` region files (1.17+); the
//! riders of an entity (`Passengers`) are rows too.
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0–2 | `dimension`, `chunk_x`, `chunk_z` | Utf8, Int32, Int32 | as `chunks` |
//! | 3 | `id` | Utf8 | `id` |
//! | 4–6 | `x`, `y`, `z` | Float64 | `Pos` |
//! | 7 | `uuid` | Utf8 | `UUID` (four ints) or `UUIDMost`/`UUIDLeast`, as `01234567-89ab-cdef-0123-456789abcdef` |
//! | 8 | `custom_name` | Utf8 | `CustomName`: the string (JSON text before 1.21.5), or SNBT of a text component |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("entities");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("entities").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![3, 7]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // id, uuid
//! assert_eq!(column_text(&batches, 0), ["minecraft:zombie", "minecraft:item"]);
//! assert_eq!(column_text(&batches, 1)[0], "00000001-0000-0002-0000-000300000004");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `block_entities`: one row per block entity
//!
//! `Level.TileEntities` before 1.18, `block_entities` after.
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0–2 | `dimension`, `chunk_x`, `chunk_z` | Utf8, Int32, Int32 | as `chunks` |
//! | 3 | `id` | Utf8 | `id` |
//! | 4–6 | `x`, `y`, `z` | Int32 | `x`, `y`, `z` |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("block_entities");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("block_entities").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![3, 4, 5, 6]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! assert_eq!(column_text(&batches, 0), ["minecraft:chest"]);
//! assert_eq!(column_text(&batches, 2), ["64"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `items`: one row per item stack
//!
//! Containers' `Items` (and the single items `Item`, `item`, `RecordItem`,
//! `Book` of item frames' blocks, pots, jukeboxes, lecterns), entities' `Item`
//! (dropped items, item frames), `Items`, `Inventory`, `ArmorItems`,
//! `HandItems`, `equipment.*`, `SaddleItem`, `ArmorItem`, `DecorItem`,
//! `body_armor_item`; players' `Inventory`, `EnderItems` and `equipment.*`.
//! Empty slots (no `id`, or air) are not rows. Items inside items are rows
//! too, to 8 levels: a shulker box's or bundle's contents
//! (`tag.BlockEntityTag.Items`, `tag.Items` before 1.20.5;
//! `components."minecraft:container"[].item`,
//! `components."minecraft:bundle_contents"` after), with the same holder.
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0 | `dimension` | Utf8 | the folder; a player's `Dimension` |
//! | 1–2 | `chunk_x`, `chunk_z` | Int32 | as `chunks`; null for players |
//! | 3 | `container` | Utf8 | the holder: a block entity's or entity's `id` (`minecraft:chest`, `minecraft:item_frame`, `minecraft:item`, `minecraft:zombie`), or `player` |
//! | 4 | `field` | Utf8 | the key holding the item: `Items`, `Item`, `Inventory`, `EnderItems`, `ArmorItems`, `equipment.head`, …; in an item, the path inside it (`tag.BlockEntityTag.Items`, `components.minecraft:container`) |
//! | 5–7 | `x`, `y`, `z` | Float64 | the holder's position (a block entity's `x`/`y`/`z`, an entity's or player's `Pos`) |
//! | 8 | `holder_uuid` | Utf8 | the entity's `UUID`, or the player's (from the file name); null for blocks |
//! | 9 | `slot` | Int32 | `Slot` (`slot` of a 1.20.5+ container entry), else the index in the list; null for single items |
//! | 10 | `id` | Utf8 | `id` (a number, as text, before 1.8) |
//! | 11 | `count` | Int32 | `count` (1.20.5+), `Count` (before); 1 when neither is there |
//! | 12 | `tag` | Utf8 | SNBT of `components` (1.20.5+) or `tag` (before) |
//! | 13 | `inside` | Utf8 | the `id` of the item holding this one (a shulker box, a bundle); null for items not in an item |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("items");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("items").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![10, 11, 3]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // id, count, container: in a chest, on the ground, with a player
//! let mut rows: Vec<_> = column_text(&batches, 0).into_iter()
//!     .zip(column_text(&batches, 1))
//!     .zip(column_text(&batches, 2))
//!     .map(|((id, n), c)| format!("{id} x{n} in {c}"))
//!     .collect();
//! rows.sort();
//! assert_eq!(rows, [
//!     "minecraft:apple x3 in minecraft:item",
//!     "minecraft:diamond x5 in minecraft:chest",
//!     "minecraft:torch x16 in player",
//! ]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `players`: one row per player file, and `level.dat`'s `Data.Player`
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0 | `uuid` | Utf8 | the file name without `.dat`; `UUID` for `level.dat` |
//! | 1 | `dimension` | Utf8 | `Dimension` (a name since 1.16, a number before), shortened as above |
//! | 2–4 | `x`, `y`, `z` | Float64 | `Pos` |
//! | 5 | `health` | Float32 | `Health` (a short before 1.9: `HealF`, or the short) |
//! | 6 | `xp_level` | Int32 | `XpLevel` |
//! | 7 | `game_mode` | Int32 | `playerGameType` (0 survival, 1 creative, 2 adventure, 3 spectator) |
//! | 8 | `inventory_size` | Int32 | length of `Inventory` |
//! | 9 | `file` | Utf8 | the file |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("players");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("players").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![0, 1, 6]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // uuid (from the file name), dimension, xp_level
//! assert_eq!(column_text(&batches, 0), ["01234567-89ab-cdef-0123-456789abcdef"]);
//! assert_eq!(column_text(&batches, 1), ["overworld"]);
//! assert_eq!(column_text(&batches, 2), ["7"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `blocks`: blocks per state per section
//!
//! From the palettes and packed indices (both packings: before 1.16 an
//! index may span two longs, from 1.16 on it never does); before 1.13 from
//! the numeric `Blocks`, `Add` and `Data` arrays. One row per palette entry
//! present in a section (a palette that repeats a state gives two rows).
//! A section whose data does not fit its palette is skipped with a warning.
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0–2 | `dimension`, `chunk_x`, `chunk_z` | Utf8, Int32, Int32 | as `chunks` |
//! | 3 | `section_y` | Int32 | the section's `Y` |
//! | 4 | `block_state` | Utf8 | `Name[key=value,...]`, properties sorted by key (`minecraft:oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]`); before 1.13 `legacy:ID:META` |
//! | 5 | `count` | Int32 | blocks of that state in the section (1 to 4096) |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("blocks");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("blocks").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![3, 4, 5]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // section_y, block_state, count
//! let rows: Vec<_> = (0..3).map(|c| column_text(&batches, c)).collect();
//! assert_eq!(rows[1], ["minecraft:stone", "minecraft:oak_log[axis=y]", "minecraft:air"]);
//! assert_eq!(rows[2], ["4095", "1", "4096"]);
//! assert_eq!(rows[0], ["4", "4", "5"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `biomes`: biome cells per biome per section
//!
//! From 1.18 on, from each section's `biomes` palette and packed indices
//! (64 cells of 4×4×4 blocks; one row per palette entry present). Before
//! 1.18, from the chunk's `Level.Biomes` array: one row per biome id in it,
//! the id as a number (`1`, `24`), `section_y` null, `count` the array's
//! entries of that id (16×16 columns before 1.15, 4×4×4 cells from 1.15).
//! A section whose data does not fit its palette is skipped with a warning.
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0–2 | `dimension`, `chunk_x`, `chunk_z` | Utf8, Int32, Int32 | as `chunks` |
//! | 3 | `section_y` | Int32 | the section's `Y`; null before 1.18 |
//! | 4 | `biome` | Utf8 | the palette entry (`minecraft:plains`); before 1.18 the numeric id |
//! | 5 | `count` | Int32 | cells of that biome in the section (1 to 64; each 64 blocks) |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("biomes");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("biomes").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![3, 4, 5]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // section_y, biome, count
//! let rows: Vec<_> = (0..3).map(|c| column_text(&batches, c)).collect();
//! assert_eq!(rows[0], ["4", "4", "5"]);
//! assert_eq!(rows[1], ["minecraft:plains", "minecraft:river", "minecraft:plains"]);
//! assert_eq!(rows[2], ["63", "1", "64"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # `nbt`: one row per tag of every document
//!
//! | # | column | type | from |
//! |---|---|---|---|
//! | 0 | `dimension` | Utf8 | the folder |
//! | 1 | `file` | Utf8 | the file |
//! | 2–3 | `chunk_x`, `chunk_z` | Int32 | the chunk (null for files) |
//! | 4 | `path` | Utf8 | the tag's concrete NBT path (`Level.Sections[3].Y`) |
//! | 5 | `type` | Utf8 | `Byte`, `Short`, `Int`, `Long`, `Float`, `Double`, `ByteArray`, `String`, `List`, `Compound`, `IntArray`, `LongArray` |
//! | 6 | `value` | Utf8 | SNBT of the value; null for compounds and lists (their elements are rows) |
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("nbt");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! let table = Table::builtin("nbt").unwrap();
//! let opts = ScanOptions::default().with_projection(vec![4, 5, 6]);
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &opts).collect::<Result<_, _>>()?;
//! // path, type, value: a row for every tag of every document
//! let paths = column_text(&batches, 0);
//! let at = paths.iter().position(|p| p == "block_entities[0].Items[0].count").unwrap();
//! assert_eq!(column_text(&batches, 1)[at], "Int");
//! assert_eq!(column_text(&batches, 2)[at], "5");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # Custom tables
//!
//! [`Table::custom`]: rows from an NBT path evaluated on each document
//! (`Inventory[]`, `..Items[]`, `Level.Entities[{id:"minecraft:cow"}]`),
//! columns from paths below each row (the first value selected), after
//! `dimension`, `file`, `chunk_x`, `chunk_z`. Types:
//!
//! - declared with a suffix on the column's name, `count:int` (see
//!   [`ColumnType`]); a value of another type is a null and a warning (an
//!   integer of a narrower type fits: a Byte in an `int` column);
//! - or typed from the data by [`Table::with_types_from`]: the type of the
//!   first value seen in the first documents of a source; when values of
//!   two different types are seen, the column is `snbt` (text);
//! - otherwise `string`: a String's text, any other value as SNBT.
//!
//!
//! ```
//! # let dir = simdnbt_arrow::example_world("custom");
//! use simdnbt_arrow::{column_text, scan, ScanOptions, Source, Table};
//!
//! // The items of every `Items` list, at any depth (the chest's).
//! let table = Table::custom("..Items[]", &[("id".into(), "id".into()), ("n:int".into(), "count".into())])?;
//! let batches: Vec<_> = scan(&Source::open(&dir)?, &table, &ScanOptions::default())
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(column_text(&batches, 4), ["minecraft:diamond"]);
//! assert_eq!(column_text(&batches, 5), ["5"]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), simdnbt_arrow::Error>(())
//! ```
//!
//! # The `snbt` column
//!
//! [`Table::with_snbt_column`] adds `snbt`, the row's whole value as SNBT,
//! as the last column: the chunk, the entity, the block entity, the item
//! stack, the player, the palette entry (`blocks`; null before 1.13;
//! `biomes`: the biome's name as SNBT, null before 1.18), the tag
//! (`nbt`), the row value (custom).
#![deny(missing_docs)]

mod cols;
mod error;
mod example;
mod probe;
mod scan;
mod source;
#[cfg(feature = "sql")]
pub mod sql;
mod table;
mod tables;

pub use error::{Error, Warning};
pub use scan::{PartitionScan, Progress, Scan, ScanOptions, scan, scan_partition};
pub use source::{Partition, PartitionKind, Source};
pub use table::Table;
pub use tables::blocks::count_palette_indices;
pub use tables::custom::ColumnType;

#[doc(hidden)]
pub use example::{column_text, example_world};
#[doc(hidden)]
pub use scan::collect_partition;

/// A `blocks` row: section y, block state, count.
#[doc(hidden)]
pub type BlockRow = (Option<i32>, String, u32);

/// The `blocks` rows of one chunk's NBT as `(section_y, block_state, count)`,
/// and the warnings: for the fuzz target's comparison with the library's
/// chunk helpers.
#[doc(hidden)]
pub fn block_rows(nbt: &[u8]) -> (Vec<BlockRow>, Vec<String>) {
    probe::block_rows(nbt)
}

/// Row extraction on one chunk's (or file's) bytes, for the fuzz target:
/// every built-in table is run on `nbt` as a region chunk, an entity chunk
/// and a player file. Returns the number of rows. Never panics.
#[doc(hidden)]
pub fn extract_all(nbt: &[u8]) -> usize {
    probe::extract_all(nbt)
}
