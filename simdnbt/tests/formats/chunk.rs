//! Chunk helpers on hand-made sections: both packings (1.16+ and the older
//! spanning one), biomes, single-entry palettes, and every malformed case as
//! an error naming the section. (Against fastanvil on the corpus region file:
//! `compare/tests/chunk.rs`.)
#![cfg(feature = "region")]

use std::io::Cursor;

use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::region::chunk::{Chunk, ChunkErrorKind};

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("minecraft:b{i}")).collect()
}

fn palette(names: &[String]) -> NbtTag {
    NbtTag::List(NbtList::Compound(
        names
            .iter()
            .map(|n| {
                let mut c = NbtCompound::new();
                c.insert("Name", n.as_str());
                c
            })
            .collect(),
    ))
}

/// Packs `indices` with `bits` each, spanning longs or not.
fn pack(indices: &[usize], bits: usize, spanning: bool) -> Vec<i64> {
    let mut out = Vec::new();
    if spanning {
        out.resize((indices.len() * bits).div_ceil(64), 0u64);
        for (i, &v) in indices.iter().enumerate() {
            let bit = i * bits;
            out[bit / 64] |= (v as u64) << (bit % 64);
            if bit % 64 + bits > 64 {
                out[bit / 64 + 1] |= (v as u64) >> (64 - bit % 64);
            }
        }
    } else {
        let per = 64 / bits;
        out.resize(indices.len().div_ceil(per), 0u64);
        for (i, &v) in indices.iter().enumerate() {
            out[i / per] |= (v as u64) << ((i % per) * bits);
        }
    }
    out.into_iter().map(|v| v as i64).collect()
}

fn chunk(root: NbtCompound) -> Result<Chunk, simdnbt::region::chunk::ChunkError> {
    let mut bytes = Vec::new();
    BaseNbt::new("", root).write(&mut bytes).unwrap();
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    Chunk::from_nbt(&nbt.as_compound())
}

/// A 1.18+ chunk with one section at `y` of the given states and biomes.
fn modern(version: i32, states: NbtCompound, biomes: Option<NbtCompound>) -> NbtCompound {
    let mut section = NbtCompound::new();
    section.insert("Y", -1i8);
    section.insert("block_states", states);
    if let Some(b) = biomes {
        section.insert("biomes", b);
    }
    let mut root = NbtCompound::new();
    root.insert("DataVersion", version);
    root.insert("sections", NbtTag::List(NbtList::Compound(vec![section])));
    root
}

fn states(names: &[String], data: Option<Vec<i64>>) -> NbtCompound {
    let mut c = NbtCompound::new();
    c.insert("palette", palette(names));
    if let Some(d) = data {
        c.insert("data", NbtTag::LongArray(d));
    }
    c
}

#[test]
fn both_packings_decode_every_position() {
    // 33 entries: 6 bits, which spans longs in the old packing.
    let names = names(33);
    let indices: Vec<usize> = (0..4096).map(|i| (i * 7 + i / 256) % 33).collect();
    for (version, spanning) in [(3700, false), (2529, false), (2528, true), (1976, true)] {
        let data = pack(&indices, 6, spanning);
        let root = if version >= 2844 {
            modern(version, states(&names, Some(data)), None)
        } else {
            let mut section = states(&names, None);
            section.insert("Y", -1i8);
            let mut s = NbtCompound::new();
            s.insert("Y", -1i8);
            s.insert("Palette", palette(&names));
            s.insert("BlockStates", NbtTag::LongArray(data));
            let mut level = NbtCompound::new();
            level.insert("Sections", NbtTag::List(NbtList::Compound(vec![s])));
            let mut root = NbtCompound::new();
            root.insert("DataVersion", version);
            root.insert("Level", level);
            root
        };
        let c = chunk(root).unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_eq!(c.data_version(), version);
        let s = &c.sections()[0];
        assert_eq!(s.y(), -1);
        for (i, &want) in indices.iter().enumerate() {
            let (x, y, z) = (i % 16, i / 256, (i / 16) % 16);
            assert_eq!(
                s.block(x, y, z),
                Some(names[want].as_str()),
                "{version} {i}"
            );
            assert_eq!(c.block(x, -16 + y as i32, z), Some(names[want].as_str()));
        }
        let counts = s.blocks().unwrap().counts();
        assert_eq!(counts.iter().sum::<u64>(), 4096);
    }
}

#[test]
fn single_entry_palettes_and_biomes() {
    let stone = names(1);
    let mut biomes = NbtCompound::new();
    let biome_names = ["minecraft:plains", "minecraft:river", "minecraft:ocean"];
    biomes.insert(
        "palette",
        NbtTag::List(NbtList::String(
            biome_names.iter().map(|&s| s.into()).collect(),
        )),
    );
    let cells: Vec<usize> = (0..64).map(|i| i % 3).collect();
    biomes.insert("data", NbtTag::LongArray(pack(&cells, 2, false)));
    let c = chunk(modern(3700, states(&stone, None), Some(biomes))).unwrap();
    let s = &c.sections()[0];
    assert_eq!(s.block(15, 15, 15), Some("minecraft:b0"));
    assert_eq!(s.block(16, 0, 0), None);
    assert_eq!(s.blocks().unwrap().counts(), [4096]);
    for (i, &want) in cells.iter().enumerate() {
        assert_eq!(s.biome(i % 4, i / 16, (i / 4) % 4), Some(biome_names[want]));
    }
    assert_eq!(c.block(0, 0, 0), None, "no section at y 0");
}

#[test]
fn malformed_sections_are_errors_naming_the_section() {
    let names = names(5); // 4 bits
    let bad_index: Vec<usize> = (0..4096).map(|i| if i == 100 { 9 } else { 0 }).collect();
    let cases: Vec<(NbtCompound, ChunkErrorKind)> = vec![
        (
            modern(3700, states(&names, Some(pack(&bad_index, 4, false))), None),
            ChunkErrorKind::IndexPastPalette {
                at: 100,
                index: 9,
                palette_len: 5,
            },
        ),
        (
            modern(3700, states(&names, Some(vec![0; 255])), None),
            ChunkErrorKind::WrongLongCount {
                key: "data",
                expected: 256,
                found: 255,
            },
        ),
        (
            modern(3700, states(&names, None), None),
            ChunkErrorKind::WrongLongCount {
                key: "data",
                expected: 256,
                found: 0,
            },
        ),
        (
            modern(3700, states(&[], Some(vec![])), None),
            ChunkErrorKind::BadPalette { key: "palette" },
        ),
        (NbtCompound::new(), ChunkErrorKind::NoSections),
    ];
    for (root, want) in cases {
        let err = chunk(root).unwrap_err();
        assert_eq!(err.kind(), &want, "{err}");
        assert!(!err.to_string().is_empty());
    }
    let err = chunk(modern(3700, states(&names, Some(vec![0; 7])), None)).unwrap_err();
    assert_eq!(err.section(), Some(0));
    assert_eq!(
        err.to_string(),
        "sections[0]: data: 7 longs, the palette needs 256"
    );
}
