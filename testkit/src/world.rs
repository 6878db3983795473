//! A world folder assembled from the corpus, for tests of whole-world tools
//! (`simdnbt-arrow`'s tables, `nbt sql`, `nbt export`, `nbt prune`).
//!
//! [`assemble`] writes, under a folder:
//!
//! | file | what |
//! |---|---|
//! | `level.dat` | the corpus `level.dat` (gzip) |
//! | `playerdata/UUID.dat` | `complex_player.dat` and `simple_player.dat` (gzip), named by [`PLAYERS`] |
//! | `region/r.0.0.mca` | the corpus region `1.19.4.mca` as shipped (676 zlib chunks) |
//! | `region/r.-1.0.mca` | every corpus chunk file (1.12 to 1.20, Forge, `Level` wrapper and flat, both index packings) at local `(i % 32, i / 32)`, compressed zlib, gzip, none, LZ4 in turn, plus [`BROKEN_CHUNK`], whose data does not inflate |
//! | `DIM-1/region/r.0.0.mca` | two corpus chunks (the nether) |
//! | `DIM1/region/r.-6.-1.mca` | the corpus End chunk at local (7, 25), where it came from |
//! | `dimensions/mymod/sky/region/r.0.0.mca` | one corpus chunk (dimension `mymod:sky`) |
//! | `entities/r.0.0.mca` | two entity chunks (1.17+ layout) made here: [`ENTITIES`] |
//! | `DIM-1/entities/r.0.0.mca` | one entity chunk: a piglin |
//!
//! Every region chunk's timestamp is [`TIMESTAMP`] plus its index in the
//! region, so the files are the same on every run.

use std::io;
use std::path::{Path, PathBuf};

use simdnbt::compression::{Compression, compress};
use simdnbt::region::{ChunkCompression, Region};

/// Where the header says each chunk was saved: this plus its header index.
pub const TIMESTAMP: u32 = 1_700_000_000;

/// The player files: (UUID, corpus file).
pub const PLAYERS: [(&str, &str); 2] = [
    ("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "complex_player.dat"),
    ("11111111-2222-3333-4444-555555555555", "simple_player.dat"),
];

/// The corpus chunk files in `region/r.-1.0.mca`, in order (chunk `i` at
/// local `(i % 32, i / 32)`).
pub const CHUNK_FILES: [&str; 15] = [
    "1.12.chunk",
    "chunk1.14.nbt",
    "1.17.0.chunk",
    "1.17.1-custom-heights.chunk",
    "1.17.1.chunk",
    "21w44a-test1.nbt",
    "chunk.nbt",
    "etho-empty.chunk",
    "etho-max-heights.chunk",
    "etho-old-heightmaps.chunk",
    "etho-old-in-new.chunk",
    "etho-old-in-new2.chunk",
    "etho.chunk",
    "issue99-chunk.nbt",
    "unicode.chunk",
];

/// The chunk of `region/r.-1.0.mca` whose data is not zlib: absolute chunk
/// coordinates (local (31, 31) of region (-1, 0)).
pub const BROKEN_CHUNK: (i32, i32) = (-1, 31);

/// The entities of `entities/r.0.0.mca`, as SNBT: chunk (0, 0) and chunk (1, 0);
/// items inside items in both forms (a shulker box in a minecart before
/// 1.20.5, a dropped shulker box holding a bundle after).
pub const ENTITIES: [&str; 2] = [
    r#"{DataVersion: 3465, Position: [I; 0, 0], Entities: [
        {id: "minecraft:item", Pos: [1.5d, 64.0d, 2.5d], UUID: [I; 1, 2, 3, 4],
         Item: {id: "minecraft:diamond", count: 3}},
        {id: "minecraft:zombie", Pos: [3.0d, 65.0d, 4.0d], UUIDMost: 81985529216486895L, UUIDLeast: -81985529216486896L,
         CustomName: '{"text":"Bob"}',
         ArmorItems: [{}, {}, {}, {id: "minecraft:iron_helmet", Count: 1b, tag: {Damage: 5}}],
         HandItems: [{id: "minecraft:iron_sword", Count: 1b}, {}],
         Passengers: [{id: "minecraft:chicken", Pos: [3.0d, 66.0d, 4.0d], UUID: [I; 5, 6, 7, 8]}]},
        {id: "minecraft:item_frame", Pos: [5.5d, 70.5d, 6.0d], UUID: [I; 9, 10, 11, 12],
         Item: {id: "minecraft:filled_map", Count: 1b, tag: {map: 7}}},
        {id: "minecraft:chest_minecart", Pos: [7.5d, 63.0d, 8.5d], UUID: [I; 13, 14, 15, 16],
         Items: [{Slot: 0b, id: "minecraft:torch", Count: 64b}, {Slot: 5b, id: "minecraft:coal", Count: 12b},
                 {Slot: 7b, id: "minecraft:shulker_box", Count: 1b,
                  tag: {BlockEntityTag: {Items: [{Slot: 1b, id: "minecraft:gold_ingot", Count: 9b}]}}}]}
    ]}"#,
    r#"{DataVersion: 4325, Position: [I; 1, 0], Entities: [
        {id: "minecraft:villager", Pos: [20.5d, 64.0d, 3.5d], UUID: [I; -1, -2, -3, -4],
         CustomName: {text: "Vil"},
         Inventory: [{id: "minecraft:wheat", count: 4}],
         equipment: {head: {id: "minecraft:leather_helmet", count: 1, components: {"minecraft:damage": 2}}}},
        {id: "minecraft:item", Pos: [21.0d, 64.0d, 2.0d], UUID: [I; 17, 18, 19, 20],
         Item: {id: "minecraft:diamond", count: 2}},
        {id: "minecraft:item", Pos: [22.0d, 64.0d, 2.0d], UUID: [I; 25, 26, 27, 28],
         Item: {id: "minecraft:shulker_box", count: 1, components: {"minecraft:container": [
             {slot: 0, item: {id: "minecraft:diamond", count: 64}},
             {slot: 3, item: {id: "minecraft:bundle", components: {"minecraft:bundle_contents": [
                 {id: "minecraft:emerald", count: 5}]}}}]}}}
    ]}"#,
];

/// The nether's entity chunk (`DIM-1/entities/r.0.0.mca`, chunk (0, 0)).
pub const NETHER_ENTITIES: &str = r#"{DataVersion: 3465, Position: [I; 0, 0], Entities: [
    {id: "minecraft:piglin", Pos: [1.0d, 40.0d, 1.0d], UUID: [I; 21, 22, 23, 24],
     HandItems: [{id: "minecraft:golden_sword", Count: 1b}, {}]}
]}"#;

/// What [`assemble`] wrote.
#[derive(Debug, Clone)]
pub struct WorldInfo {
    /// The world folder.
    pub dir: PathBuf,
    /// Chunks in the `region/` folders of every dimension, the broken one included.
    pub region_chunks: usize,
    /// Chunks in the `entities/` folders.
    pub entity_chunks: usize,
    /// The chunk that does not inflate: its region file and absolute chunk coordinates.
    pub broken: (PathBuf, (i32, i32)),
    /// The dimensions that have region files.
    pub dimensions: Vec<&'static str>,
}

fn nbt_of(snbt: &str) -> Vec<u8> {
    let compound = simdnbt::snbt::compound_from_str(snbt).expect("the kit's SNBT parses");
    let mut out = Vec::new();
    simdnbt::owned::BaseNbt::new("", compound)
        .write(&mut out)
        .expect("the kit's NBT writes");
    out
}

fn corpus(name: &str) -> io::Result<&'static [u8]> {
    corpus::load(name).map_err(|e| io::Error::other(e.to_string()))
}

fn region_error(e: simdnbt::region::RegionError) -> io::Error {
    io::Error::other(e.to_string())
}

/// Writes `chunks` (local position, NBT, compression) as a region file.
fn write_region(path: &Path, chunks: &[((i32, i32), Vec<u8>, ChunkCompression)]) -> io::Result<()> {
    std::fs::create_dir_all(path.parent().expect("a region file is in a folder"))?;
    let mut region = Region::new();
    for ((x, z), nbt, compression) in chunks {
        let timestamp = TIMESTAMP + (x + 32 * z) as u32;
        region
            .write_chunk_at(*x, *z, nbt, *compression, timestamp)
            .map_err(region_error)?;
    }
    region.save(path).map_err(region_error)
}

const COMPRESSIONS: [ChunkCompression; 4] = [
    ChunkCompression::Zlib,
    ChunkCompression::Gzip,
    ChunkCompression::Uncompressed,
    ChunkCompression::Lz4,
];

/// Writes the world described in the [module docs](self) under `dir`
/// (created if needed; files already there are overwritten).
pub fn assemble(dir: &Path) -> io::Result<WorldInfo> {
    std::fs::create_dir_all(dir.join("playerdata"))?;
    std::fs::write(
        dir.join("level.dat"),
        compress(corpus("level.dat")?, Compression::Gzip),
    )?;
    for (uuid, file) in PLAYERS {
        let path = dir.join("playerdata").join(format!("{uuid}.dat"));
        std::fs::write(path, compress(corpus(file)?, Compression::Gzip))?;
    }

    std::fs::create_dir_all(dir.join("region"))?;
    let shipped = corpus("1.19.4.mca")?;
    std::fs::write(dir.join("region/r.0.0.mca"), shipped)?;
    let mut region_chunks = Region::from_bytes(shipped.to_vec())
        .map_err(region_error)?
        .len();

    let mut chunks = Vec::new();
    for (i, name) in CHUNK_FILES.iter().enumerate() {
        let pos = ((i % 32) as i32, (i / 32) as i32);
        chunks.push((pos, corpus(name)?.to_vec(), COMPRESSIONS[i % 4]));
    }
    let broken_local = (BROKEN_CHUNK.0.rem_euclid(32), BROKEN_CHUNK.1.rem_euclid(32));
    chunks.push((
        broken_local,
        corpus("chunk.nbt")?.to_vec(),
        ChunkCompression::Zlib,
    ));
    let broken_path = dir.join("region/r.-1.0.mca");
    write_region(&broken_path, &chunks)?;
    region_chunks += chunks.len();
    // Overwrite the broken chunk's zlib data (not its length): the header
    // stays valid, the chunk does not inflate.
    let mut file = std::fs::read(&broken_path)?;
    let index = (broken_local.0 + 32 * broken_local.1) as usize * 4;
    let location = u32::from_be_bytes(file[index..index + 4].try_into().expect("4 bytes"));
    let start = (location >> 8) as usize * 4096;
    let length = u32::from_be_bytes(file[start..start + 4].try_into().expect("4 bytes")) as usize;
    file[start + 5..start + 4 + length].fill(0xff);
    std::fs::write(&broken_path, file)?;

    let nether = [
        (
            (0, 0),
            corpus("etho-old-in-new.chunk")?.to_vec(),
            ChunkCompression::Zlib,
        ),
        (
            (1, 0),
            corpus("1.17.1.chunk")?.to_vec(),
            ChunkCompression::Zlib,
        ),
    ];
    write_region(&dir.join("DIM-1/region/r.0.0.mca"), &nether)?;
    region_chunks += nether.len();
    let end = [(
        (7, 25),
        corpus("etho-end-r.-6.-1.c.7.25.nbt")?.to_vec(),
        ChunkCompression::Zlib,
    )];
    write_region(&dir.join("DIM1/region/r.-6.-1.mca"), &end)?;
    region_chunks += end.len();
    let sky = [(
        (3, 4),
        corpus("forge-1.20.1.nbt")?.to_vec(),
        ChunkCompression::Zlib,
    )];
    write_region(&dir.join("dimensions/mymod/sky/region/r.0.0.mca"), &sky)?;
    region_chunks += sky.len();

    let entities: Vec<_> = ENTITIES
        .iter()
        .enumerate()
        .map(|(i, snbt)| ((i as i32, 0), nbt_of(snbt), ChunkCompression::Zlib))
        .collect();
    write_region(&dir.join("entities/r.0.0.mca"), &entities)?;
    let nether_entities = [((0, 0), nbt_of(NETHER_ENTITIES), ChunkCompression::Zlib)];
    write_region(&dir.join("DIM-1/entities/r.0.0.mca"), &nether_entities)?;

    Ok(WorldInfo {
        dir: dir.to_owned(),
        region_chunks,
        entity_chunks: entities.len() + nether_entities.len(),
        broken: (broken_path, BROKEN_CHUNK),
        dimensions: vec!["overworld", "the_nether", "the_end", "mymod:sky"],
    })
}
