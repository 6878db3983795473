//! Deterministic generated inputs, written with a minimal NBT encoder of our own.
//!
//! Nothing here may depend on the platform: integer PRNG only, floats made
//! from integers with exact arithmetic, no hash-map iteration. The pinned
//! SHA-256s in `tests/corpus.rs` hold us to that.

const MIB: usize = 1 << 20;

// Tag ids (docs/format.md §1).
const END: u8 = 0;
const BYTE: u8 = 1;
const SHORT: u8 = 2;
const INT: u8 = 3;
const LONG: u8 = 4;
const FLOAT: u8 = 5;
const DOUBLE: u8 = 6;
const BYTE_ARRAY: u8 = 7;
const STRING: u8 = 8;
const LIST: u8 = 9;
const COMPOUND: u8 = 10;
const INT_ARRAY: u8 = 11;
const LONG_ARRAY: u8 = 12;

/// Builds the generated file `name` (one of [`crate::GENERATED`]).
pub(crate) fn generate(name: &str) -> Vec<u8> {
    match name {
        "generated_chunks_1m" => chunks(MIB, 0x5EED_C4C1),
        "generated_chunks_12m" => chunks(12 * MIB, 0x5EED_C4C2),
        "generated_inventory_1m" => inventory(MIB, 0x5EED_1E57),
        "generated_unicode_1m" => unicode(MIB, 0x5EED_0DE8),
        _ => unreachable!("not a generated corpus name: {name}"),
    }
}

/// Java's modified UTF-8 (docs/format.md §2): U+0000 as `C0 80`, supplementary
/// characters as two 3-byte surrogate halves.
pub(crate) fn mutf8(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let c = c as u32;
        if c == 0 {
            out.extend_from_slice(&[0xC0, 0x80]);
        } else if c < 0x80 {
            out.push(c as u8);
        } else if c < 0x800 {
            out.push(0xC0 | (c >> 6) as u8);
            out.push(0x80 | (c & 0x3F) as u8);
        } else if c < 0x1_0000 {
            push3(&mut out, c);
        } else {
            let v = c - 0x1_0000;
            push3(&mut out, 0xD800 | (v >> 10));
            push3(&mut out, 0xDC00 | (v & 0x3FF));
        }
    }
    out
}

fn push3(out: &mut Vec<u8>, unit: u32) {
    out.push(0xE0 | (unit >> 12) as u8);
    out.push(0x80 | ((unit >> 6) & 0x3F) as u8);
    out.push(0x80 | (unit & 0x3F) as u8);
}

/// Encoded MUTF-8 length of one char.
fn mutf8_len(c: char) -> usize {
    match c as u32 {
        0 => 2,
        1..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 6,
    }
}

/// SplitMix64: tiny, fast, and the same everywhere.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-ish in `0..n` (n > 0); the tiny modulo bias does not matter here.
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform-ish in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// A double in [0, 1) from 53 random bits: exact, so platform-independent.
    fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Minimal NBT writer for the disk form. Panics on misuse (a generator bug),
/// never writes a corrupt length.
pub(crate) struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// Starts a file whose root is a compound named `name`.
    pub(crate) fn with_root(name: &str, capacity: usize) -> Self {
        let mut w = Writer {
            buf: Vec::with_capacity(capacity),
        };
        w.buf.push(COMPOUND);
        w.name(name);
        w
    }

    /// Closes the root compound and returns the bytes.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        self.buf.push(END);
        self.buf
    }

    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    fn name(&mut self, s: &str) {
        self.str_payload(s);
    }

    /// u16 length + MUTF-8 bytes.
    pub(crate) fn str_payload(&mut self, s: &str) {
        let bytes = mutf8(s);
        let len = u16::try_from(bytes.len()).expect("generated string over 65535 MUTF-8 bytes");
        self.buf.extend_from_slice(&len.to_be_bytes());
        self.buf.extend_from_slice(&bytes);
    }

    fn head(&mut self, id: u8, name: &str) {
        self.buf.push(id);
        self.name(name);
    }

    fn len_i32(&mut self, n: usize) {
        let n = i32::try_from(n).expect("generated length over i32::MAX");
        self.buf.extend_from_slice(&n.to_be_bytes());
    }

    // Named tags inside a compound.

    pub(crate) fn byte(&mut self, name: &str, v: i8) {
        self.head(BYTE, name);
        self.buf.push(v as u8);
    }

    pub(crate) fn short(&mut self, name: &str, v: i16) {
        self.head(SHORT, name);
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn int(&mut self, name: &str, v: i32) {
        self.head(INT, name);
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn long(&mut self, name: &str, v: i64) {
        self.head(LONG, name);
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(crate) fn float(&mut self, name: &str, v: f32) {
        self.head(FLOAT, name);
        self.buf.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    pub(crate) fn double(&mut self, name: &str, v: f64) {
        self.head(DOUBLE, name);
        self.buf.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    pub(crate) fn string(&mut self, name: &str, v: &str) {
        self.head(STRING, name);
        self.str_payload(v);
    }

    pub(crate) fn byte_array(&mut self, name: &str, v: &[u8]) {
        self.head(BYTE_ARRAY, name);
        self.len_i32(v.len());
        self.buf.extend_from_slice(v);
    }

    pub(crate) fn int_array(&mut self, name: &str, v: &[i32]) {
        self.head(INT_ARRAY, name);
        self.len_i32(v.len());
        for x in v {
            self.buf.extend_from_slice(&x.to_be_bytes());
        }
    }

    pub(crate) fn long_array(&mut self, name: &str, v: &[i64]) {
        self.head(LONG_ARRAY, name);
        self.len_i32(v.len());
        for x in v {
            self.buf.extend_from_slice(&x.to_be_bytes());
        }
    }

    /// Opens a named compound; close it with [`Writer::end`].
    pub(crate) fn compound(&mut self, name: &str) {
        self.head(COMPOUND, name);
    }

    /// Closes a compound (named, or a list element).
    pub(crate) fn end(&mut self) {
        self.buf.push(END);
    }

    /// Opens a named list of `len` elements of type `elem`; then write exactly
    /// `len` payloads (e.g. `elem_compound` + fields + `end`).
    pub(crate) fn list(&mut self, name: &str, elem: u8, len: usize) {
        self.head(LIST, name);
        self.buf.push(if len == 0 { END } else { elem });
        self.len_i32(len);
    }

    /// Opens a named list whose length is not known yet; returns a token for
    /// [`Writer::patch_list_len`].
    pub(crate) fn list_open(&mut self, name: &str, elem: u8) -> usize {
        self.head(LIST, name);
        self.buf.push(elem);
        let at = self.buf.len();
        self.buf.extend_from_slice(&[0; 4]);
        at
    }

    pub(crate) fn patch_list_len(&mut self, at: usize, len: usize) {
        let n = i32::try_from(len).expect("generated length over i32::MAX");
        self.buf[at..at + 4].copy_from_slice(&n.to_be_bytes());
    }

    // Unnamed list element payloads.

    pub(crate) fn elem_str(&mut self, v: &str) {
        self.str_payload(v);
    }

    pub(crate) fn elem_double(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    pub(crate) fn elem_float(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    pub(crate) fn elem_int(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    /// Starts a compound element of a list (close it with [`Writer::end`]).
    pub(crate) fn elem_compound(&mut self) {}
}

// ---------------------------------------------------------------- chunks

const STONE_LIKE: &[&str] = &[
    "minecraft:stone",
    "minecraft:deepslate",
    "minecraft:andesite",
    "minecraft:diorite",
    "minecraft:granite",
    "minecraft:tuff",
    "minecraft:dirt",
    "minecraft:gravel",
    "minecraft:coal_ore",
    "minecraft:iron_ore",
    "minecraft:copper_ore",
    "minecraft:gold_ore",
    "minecraft:redstone_ore",
    "minecraft:lapis_ore",
    "minecraft:diamond_ore",
    "minecraft:deepslate_iron_ore",
    "minecraft:cave_air",
];

const BIOMES: &[&str] = &[
    "minecraft:plains",
    "minecraft:forest",
    "minecraft:birch_forest",
    "minecraft:river",
    "minecraft:taiga",
    "minecraft:dripstone_caves",
    "minecraft:lush_caves",
    "minecraft:deep_dark",
    "minecraft:savanna",
];

/// A palette entry with properties, like vanilla writes for stateful blocks.
fn stateful_block(w: &mut Writer, rng: &mut Rng) {
    match rng.below(4) {
        0 => {
            w.string("Name", "minecraft:water");
            w.compound("Properties");
            w.string("level", &rng.below(8).to_string());
            w.end();
        }
        1 => {
            w.string("Name", "minecraft:oak_log");
            w.compound("Properties");
            w.string("axis", rng.pick(&["x", "y", "z"]));
            w.end();
        }
        2 => {
            w.string("Name", "minecraft:grass_block");
            w.compound("Properties");
            w.string("snowy", "false");
            w.end();
        }
        _ => {
            w.string("Name", "minecraft:oak_stairs");
            w.compound("Properties");
            w.string("facing", rng.pick(&["north", "south", "east", "west"]));
            w.string("half", rng.pick(&["top", "bottom"]));
            w.string("shape", "straight");
            w.string("waterlogged", "false");
            w.end();
        }
    }
    w.end();
}

/// Packs `count` indices of `bits` bits each, 1.16+ style (no entry spans two longs).
fn packed(rng: &mut Rng, count: usize, bits: u32, palette_len: u64) -> Vec<i64> {
    let per_long = (64 / bits) as usize;
    let longs = count.div_ceil(per_long);
    let mut out = Vec::with_capacity(longs);
    let mut left = count;
    for _ in 0..longs {
        let mut v: u64 = 0;
        for slot in 0..per_long.min(left) {
            // Skewed towards index 0 like real terrain (mostly stone).
            let idx = if rng.chance(70) {
                0
            } else {
                rng.below(palette_len)
            };
            v |= idx << (slot as u32 * bits);
        }
        left = left.saturating_sub(per_long);
        out.push(v as i64);
    }
    out
}

fn bits_for(palette_len: usize, min: u32) -> u32 {
    let mut bits = 0;
    while (1usize << bits) < palette_len {
        bits += 1;
    }
    bits.max(min)
}

fn light(rng: &mut Rng, full: bool) -> Vec<u8> {
    if full {
        vec![0xFF; 2048]
    } else {
        (0..2048).map(|_| rng.next_u64() as u8).collect()
    }
}

fn section(w: &mut Writer, rng: &mut Rng, y: i8, underground: bool) {
    w.elem_compound();
    w.byte("Y", y);
    w.compound("block_states");
    if underground {
        let extra = rng.range(1, 8) as usize;
        let stateful = rng.range(0, 2) as usize;
        let len = extra + stateful + 1;
        w.list("palette", COMPOUND, len);
        for i in 0..len - stateful {
            w.elem_compound();
            let name = if i == 0 {
                "minecraft:stone"
            } else {
                rng.pick(STONE_LIKE)
            };
            w.string("Name", name);
            w.end();
        }
        for _ in 0..stateful {
            w.elem_compound();
            stateful_block(w, rng);
        }
        let bits = bits_for(len, 4);
        let data = packed(rng, 4096, bits, len as u64);
        w.long_array("data", &data);
    } else {
        w.list("palette", COMPOUND, 1);
        w.elem_compound();
        w.string("Name", "minecraft:air");
        w.end();
    }
    w.end();

    w.compound("biomes");
    let n = rng.range(1, 3) as usize;
    w.list("palette", STRING, n);
    for _ in 0..n {
        w.elem_str(rng.pick(BIOMES));
    }
    if n > 1 {
        let bits = bits_for(n, 1);
        let data = packed(rng, 64, bits, n as u64);
        w.long_array("data", &data);
    }
    w.end();

    if underground {
        w.byte_array("BlockLight", &light(rng, false));
    }
    w.byte_array("SkyLight", &light(rng, !underground));
    w.end();
}

fn chest_items(w: &mut Writer, rng: &mut Rng) {
    let n = rng.range(0, 6) as usize;
    w.list("Items", COMPOUND, n);
    for slot in 0..n {
        w.elem_compound();
        w.byte("Slot", (slot * 3) as i8);
        w.string("id", rng.pick(ITEMS));
        w.byte("Count", rng.range(1, 64) as i8);
        w.end();
    }
}

fn chunk(w: &mut Writer, rng: &mut Rng, x: i32, z: i32) {
    w.elem_compound();
    w.int("DataVersion", 3120);
    w.int("xPos", x);
    w.int("zPos", z);
    w.int("yPos", -4);
    w.string("Status", "minecraft:full");
    w.long("LastUpdate", rng.range(0, 5_000_000));
    w.long("InhabitedTime", rng.range(0, 200_000));
    w.byte("isLightOn", 1);

    // 24 sections from y = -4 to 19; terrain up to about y = 4..8.
    let surface = rng.range(7, 11) as i8;
    w.list("sections", COMPOUND, 24);
    for y in -4i8..20 {
        section(w, rng, y, y < surface - 4);
    }

    w.compound("Heightmaps");
    for name in [
        "MOTION_BLOCKING",
        "MOTION_BLOCKING_NO_LEAVES",
        "OCEAN_FLOOR",
        "WORLD_SURFACE",
    ] {
        let base = (surface as u64 - 4) * 16 + 64;
        let mut longs = Vec::with_capacity(37);
        let mut left = 256usize;
        for _ in 0..37 {
            let mut v = 0u64;
            for slot in 0..7.min(left) {
                v |= (base + rng.below(12)) << (slot * 9);
            }
            left = left.saturating_sub(7);
            longs.push(v as i64);
        }
        w.long_array(name, &longs);
    }
    w.end();

    let n = rng.range(0, 4) as usize;
    w.list("block_entities", COMPOUND, n);
    for _ in 0..n {
        w.elem_compound();
        let kind = rng.below(3);
        w.string(
            "id",
            ["minecraft:chest", "minecraft:sign", "minecraft:furnace"][kind as usize],
        );
        w.int("x", x * 16 + rng.range(0, 15) as i32);
        w.int("y", rng.range(-60, 80) as i32);
        w.int("z", z * 16 + rng.range(0, 15) as i32);
        w.byte("keepPacked", 0);
        match kind {
            0 => {
                chest_items(w, rng);
                if rng.chance(30) {
                    w.string("LootTable", "minecraft:chests/simple_dungeon");
                    w.long("LootTableSeed", rng.next_u64() as i64);
                }
            }
            1 => {
                for key in ["Text1", "Text2", "Text3", "Text4"] {
                    let word = rng.pick(WORDS);
                    w.string(key, &format!("{{\"text\":\"{word}\"}}"));
                }
                w.string("Color", "black");
                w.byte("GlowingText", 0);
            }
            _ => {
                w.short("BurnTime", rng.range(0, 1600) as i16);
                w.short("CookTime", rng.range(0, 200) as i16);
                w.short("CookTimeTotal", 200);
                chest_items(w, rng);
                w.compound("RecipesUsed");
                w.int("minecraft:iron_ingot", rng.range(0, 30) as i32);
                w.end();
            }
        }
        w.end();
    }

    w.compound("structures");
    w.compound("References");
    if rng.chance(20) {
        let refs: Vec<i64> = (0..rng.range(1, 3))
            .map(|_| rng.next_u64() as i64)
            .collect();
        w.long_array("minecraft:mineshaft", &refs);
    }
    w.end();
    w.compound("starts");
    w.end();
    w.end();

    w.list("fluid_ticks", END, 0);
    w.list("block_ticks", END, 0);
    w.list("PostProcessing", LIST, 24);
    for _ in 0..24 {
        // Inner lists of shorts, all empty: element id End, length 0.
        w.buf.push(END);
        w.len_i32(0);
    }
    w.end();
}

fn chunks(target: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut w = Writer::with_root("", target + target / 8);
    w.int("DataVersion", 3120);
    w.string("Kind", "region-like list of 1.18+ chunks");
    let at = w.list_open("chunks", COMPOUND);
    let mut count = 0usize;
    let mut last = 0usize;
    // Stop at whichever chunk count lands nearest to `target` (+2 for the closing bytes).
    while w.len() + last / 2 + 2 < target {
        let before = w.len();
        chunk(&mut w, &mut rng, (count % 32) as i32, (count / 32) as i32);
        last = w.len() - before;
        count += 1;
    }
    w.patch_list_len(at, count);
    w.finish()
}

// ---------------------------------------------------------------- inventory

const ITEMS: &[&str] = &[
    "minecraft:diamond_sword",
    "minecraft:netherite_pickaxe",
    "minecraft:iron_chestplate",
    "minecraft:bow",
    "minecraft:torch",
    "minecraft:cobblestone",
    "minecraft:oak_planks",
    "minecraft:bread",
    "minecraft:golden_apple",
    "minecraft:ender_pearl",
    "minecraft:enchanted_book",
    "minecraft:shield",
    "minecraft:elytra",
    "minecraft:firework_rocket",
    "minecraft:potion",
    "minecraft:written_book",
];

const ENCHANTS: &[&str] = &[
    "minecraft:sharpness",
    "minecraft:unbreaking",
    "minecraft:mending",
    "minecraft:efficiency",
    "minecraft:fortune",
    "minecraft:protection",
    "minecraft:looting",
    "minecraft:power",
    "minecraft:fire_aspect",
];

const WORDS: &[&str] = &[
    "Ancient",
    "Blade",
    "of",
    "the",
    "Nether",
    "Storm",
    "Dragon",
    "Whisper",
    "Iron",
    "Oath",
    "Legendary",
    "Forged",
    "in",
    "Starlight",
    "Keeper",
    "Shadow",
];

const COLORS: &[&str] = &["gold", "aqua", "light_purple", "gray", "red", "green"];

fn phrase(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

fn json_text(rng: &mut Rng, words: usize) -> String {
    format!(
        "{{\"text\":\"{}\",\"color\":\"{}\",\"italic\":false}}",
        phrase(rng, words),
        rng.pick(COLORS)
    )
}

fn uuid(rng: &mut Rng) -> [i32; 4] {
    let a = rng.next_u64();
    let b = rng.next_u64();
    [(a >> 32) as i32, a as i32, (b >> 32) as i32, b as i32]
}

fn item(w: &mut Writer, rng: &mut Rng, slot: i8) {
    w.elem_compound();
    w.byte("Slot", slot);
    w.string("id", rng.pick(ITEMS));
    w.byte("Count", rng.range(1, 64) as i8);
    if rng.chance(75) {
        w.compound("tag");
        w.int("Damage", rng.range(0, 1500) as i32);
        w.int("RepairCost", rng.range(0, 39) as i32);
        if rng.chance(20) {
            w.byte("Unbreakable", 1);
        }
        w.compound("display");
        let words = rng.range(2, 5) as usize;
        w.string("Name", &json_text(rng, words));
        let lore = rng.range(0, 4) as usize;
        w.list("Lore", STRING, lore);
        for _ in 0..lore {
            let s = json_text(rng, 6);
            w.elem_str(&s);
        }
        if rng.chance(30) {
            w.int("color", rng.below(1 << 24) as i32);
        }
        w.end();
        let n = rng.range(0, 5) as usize;
        w.list("Enchantments", COMPOUND, n);
        for _ in 0..n {
            w.elem_compound();
            w.string("id", rng.pick(ENCHANTS));
            w.short("lvl", rng.range(1, 5) as i16);
            w.end();
        }
        if rng.chance(40) {
            let n = rng.range(1, 3) as usize;
            w.list("AttributeModifiers", COMPOUND, n);
            for _ in 0..n {
                w.elem_compound();
                w.string("AttributeName", "generic.attack_damage");
                w.string("Name", "generic.attack_damage");
                w.double("Amount", (rng.range(1, 400) as f64) / 8.0);
                w.int("Operation", rng.range(0, 2) as i32);
                w.int_array("UUID", &uuid(rng));
                w.string("Slot", "mainhand");
                w.end();
            }
        }
        if rng.chance(25) {
            w.float("CustomPotionEffectScale", rng.unit_f64() as f32);
            w.long("Seed", rng.next_u64() as i64);
        }
        w.end();
    }
    w.end();
}

fn player(w: &mut Writer, rng: &mut Rng, index: usize) {
    w.elem_compound();
    w.int_array("UUID", &uuid(rng));
    w.string("LastKnownName", &format!("Player{index:04}"));
    w.list("Pos", DOUBLE, 3);
    for _ in 0..3 {
        w.elem_double((rng.range(-30_000, 30_000) as f64) + rng.unit_f64());
    }
    w.list("Motion", DOUBLE, 3);
    for _ in 0..3 {
        w.elem_double(rng.unit_f64() - 0.5);
    }
    w.list("Rotation", FLOAT, 2);
    w.elem_float((rng.unit_f64() * 360.0) as f32);
    w.elem_float((rng.unit_f64() * 180.0 - 90.0) as f32);
    w.float("Health", rng.range(1, 20) as f32);
    w.int("foodLevel", rng.range(0, 20) as i32);
    w.float("foodSaturationLevel", 5.0);
    w.float("XpP", rng.unit_f64() as f32);
    w.int("XpLevel", rng.range(0, 100) as i32);
    w.short("Fire", -20);
    w.short("Air", 300);
    w.byte("OnGround", 1);
    w.int("playerGameType", 0);
    w.string("Dimension", "minecraft:overworld");
    w.compound("abilities");
    for key in ["invulnerable", "mayfly", "instabuild", "flying"] {
        w.byte(key, 0);
    }
    w.byte("mayBuild", 1);
    w.float("walkSpeed", 0.1);
    w.float("flySpeed", 0.05);
    w.end();
    w.list("Attributes", COMPOUND, 3);
    for (name, base) in [
        ("minecraft:generic.max_health", 20.0),
        ("minecraft:generic.movement_speed", 0.1),
        ("minecraft:generic.attack_damage", 1.0),
    ] {
        w.elem_compound();
        w.string("Name", name);
        w.double("Base", base);
        w.end();
    }
    let n = rng.range(20, 41) as usize;
    w.list("Inventory", COMPOUND, n);
    for slot in 0..n {
        item(w, rng, slot as i8);
    }
    let n = rng.range(0, 27) as usize;
    w.list("EnderItems", COMPOUND, n);
    for slot in 0..n {
        item(w, rng, slot as i8);
    }
    w.end();
}

fn inventory(target: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut w = Writer::with_root("", target + target / 8);
    w.int("DataVersion", 3120);
    let at = w.list_open("players", COMPOUND);
    let mut count = 0usize;
    let mut last = 0usize;
    while w.len() + last / 2 + 2 < target {
        let before = w.len();
        player(&mut w, &mut rng, count);
        last = w.len() - before;
        count += 1;
    }
    w.patch_list_len(at, count);
    w.finish()
}

// ---------------------------------------------------------------- unicode

/// Character pools; each string mixes a few of them.
const POOLS: &[&[char]] = &[
    // Latin-1 accents (2-byte)
    &[
        'é', 'è', 'ê', 'à', 'ç', 'ñ', 'ö', 'ü', 'ß', 'Å', 'Ø', 'æ', '¿', '¡', '°', '£',
    ],
    // Greek and Cyrillic (2-byte)
    &['α', 'β', 'γ', 'Δ', 'Ω', 'λ', 'Ж', 'щ', 'Я', 'ё', 'Ї', 'ф'],
    // CJK, kana, Hangul (3-byte)
    &[
        '世', '界', '中', '文', '日', '本', '語', 'の', 'ア', 'イ', '한', '국', '어', '龍', '剣',
        '石',
    ],
    // Emoji and other supplementary characters (4-byte UTF-8, 6-byte MUTF-8)
    &[
        '😀', '🎉', '🔥', '💎', '⛏', '🗡', '🐉', '🌍', '𝄞', '𠀋', '🧱', '🪓',
    ],
    // ASCII with the odd U+0000 (C0 80) mixed in
    &['a', 'b', 'c', 'x', 'y', 'z', ' ', '_', '1', '2', '\0', 'Q'],
    // 3-byte BMP symbols, including characters near the surrogate range edges
    &[
        '€', '™', '→', '★', '♥', '\u{FFFD}', '\u{D7FF}', '\u{E000}', '\u{FFFF}', '\u{0800}',
    ],
];

const KEYS: &[&str] = &[
    "名前",
    "beschreibung_ä",
    "émoji😀",
    "текст",
    "설명",
    "plain_key",
    "κλειδί",
    "nul\0key",
    "ключ🔑",
    "the_end",
];

/// A string of about `max_bytes` encoded MUTF-8 bytes (never more).
fn mixed_string(rng: &mut Rng, max_bytes: usize) -> String {
    let mut s = String::new();
    let mut len = 0;
    let pool_a = rng.pick(POOLS);
    let pool_b = rng.pick(POOLS);
    loop {
        let pool = if rng.chance(60) { pool_a } else { pool_b };
        let c = rng.pick(pool);
        let n = mutf8_len(c);
        if len + n > max_bytes {
            break;
        }
        s.push(c);
        len += n;
    }
    s
}

fn unicode(target: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut w = Writer::with_root("", target + target / 8);
    w.string("title", "Ünïcödé tëst — 世界 😀 a\0b");
    // Fixed edge cases first, so every reader sees them near the start.
    w.compound("edge_cases");
    w.string("nul", "a\0b");
    w.string("emoji", "😀");
    w.string("only_nul", "\0\0\0");
    w.string("empty", "");
    w.string("bmp_max", "\u{FFFF}");
    w.string("max_scalar", "\u{10FFFF}");
    w.string("latin1", "café crème brûlée");
    // A long string right up to the u16 length limit: 65535 = 3 * 21845.
    w.string("near_limit", &"語".repeat(21_845));
    w.end();

    let at = w.list_open("entries", COMPOUND);
    let mut count = 0usize;
    let mut last = 0usize;
    while w.len() + last / 2 + 2 < target {
        let before = w.len();
        w.elem_compound();
        w.int("index", count as i32);
        let keys = rng.range(2, 6) as usize;
        for k in 0..keys {
            let key = format!("{}_{k}", rng.pick(KEYS));
            let max = rng.range(4, 120) as usize;
            w.string(&key, &mixed_string(&mut rng, max));
        }
        let n = rng.range(0, 8) as usize;
        w.list("lines", STRING, n);
        for _ in 0..n {
            let max = rng.range(0, 60) as usize;
            let s = mixed_string(&mut rng, max);
            w.elem_str(&s);
        }
        if rng.chance(30) {
            w.compound("sign");
            for key in ["Text1", "Text2"] {
                let inner = mixed_string(&mut rng, 30).replace(['"', '\\'], "");
                w.string(key, &format!("{{\"text\":\"{inner}\"}}"));
            }
            w.end();
        }
        if rng.chance(10) {
            w.list("codepoints", INT, 4);
            for _ in 0..4 {
                w.elem_int(rng.range(0x80, 0x10FFFF) as i32);
            }
        }
        w.end();
        last = w.len() - before;
        count += 1;
    }
    w.patch_list_len(at, count);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutf8_cases_from_nbt_md() {
        assert_eq!(mutf8("a\0b"), [0x61, 0xC0, 0x80, 0x62]);
        assert_eq!(mutf8("😀"), [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(mutf8("é"), "é".as_bytes());
        assert_eq!(mutf8("世"), "世".as_bytes());
        assert_eq!(mutf8("\u{10FFFF}"), [0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF]);
        for c in ['\0', 'a', 'é', '世', '😀'] {
            assert_eq!(mutf8(&c.to_string()).len(), mutf8_len(c));
        }
    }

    #[test]
    fn rng_is_splitmix64() {
        // Reference values of SplitMix64 seeded with 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn writer_hello_world_matches_the_shipped_shape() {
        // The same bytes as hello_world.nbt, from our own writer.
        let mut w = Writer::with_root("hello world", 64);
        w.string("name", "Bananrama");
        let bytes = w.finish();
        let mut expected = vec![0x0A, 0x00, 0x0B];
        expected.extend_from_slice(b"hello world");
        expected.extend_from_slice(&[0x08, 0x00, 0x04]);
        expected.extend_from_slice(b"name");
        expected.extend_from_slice(&[0x00, 0x09]);
        expected.extend_from_slice(b"Bananrama");
        expected.push(0x00);
        assert_eq!(bytes, expected);
    }

    #[test]
    #[should_panic(expected = "65535")]
    fn writer_refuses_over_long_string() {
        let mut w = Writer::with_root("", 0);
        w.string("s", &"x".repeat(70_000));
    }
}
