//! `chunk_sections`: the chunk helpers (`simdnbt::region::chunk`) decode any
//! chunk to `Ok` or an `Err` naming the section, never a panic, and agree
//! with [`reference()`], a decoder written plainly (bit by bit, over the owned
//! model) on every section: the palette, every position's index, and the
//! error when there is one.
//!
//! Input: a byte other than `0x0a` first, then bytes for [`build`], which
//! makes a chunk of either layout (1.18+ `sections`, 1.13–1.17
//! `Level.Sections`), either packing (spanning before DataVersion 2529),
//! palettes of any length from 0 to 65,537 (so every bits-per-entry from 1 to
//! 16, and one past the limit on each side), long arrays of the right length or one off,
//! and indices either packed from chosen values (decoding must give them
//! back) or arbitrary longs. Any other input is a chunk's NBT (the seeds are
//! chunks of the corpus region).

use std::io::Cursor;

use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::region::chunk::{Chunk, ChunkErrorKind, Paletted};

/// The `chunk_sections` target.
pub fn chunk_sections(data: &[u8]) {
    let bytes = match data.first() {
        None => return,
        Some(0x0a) => data.to_vec(),
        Some(_) => {
            let (root, packed) = build(&data[1..]);
            let bytes = nbt_bytes(root);
            // Indices packed from chosen values decode to those values.
            if let Some(chunk) = check(&bytes) {
                for (section, blocks, biomes) in packed {
                    let s = &chunk.sections()[section];
                    for (paletted, want) in [(s.blocks(), blocks), (s.biomes(), biomes)] {
                        if let (Some(p), Some(want)) = (paletted, want) {
                            let got: Vec<usize> =
                                (0..p.len()).map(|i| p.index(i).unwrap()).collect();
                            assert_eq!(got, want, "section {section}: packed indices");
                        }
                    }
                }
            }
            return;
        }
    };
    let _ = check(&bytes);
}

/// Decodes `bytes` (a chunk's NBT) with the helpers and the reference, and
/// asserts they agree; the chunk, when it is NBT and decodes.
fn check(bytes: &[u8]) -> Option<Chunk> {
    let Ok(simdnbt::borrow::Nbt::Some(nbt)) = simdnbt::borrow::read(&mut Cursor::new(bytes)) else {
        return None;
    };
    let decoded = Chunk::from_nbt(&nbt.as_compound());
    let expected = reference(&nbt.as_compound().to_owned());
    match (&decoded, &expected) {
        (Ok(chunk), Ok(sections)) => {
            assert_eq!(chunk.sections().len(), sections.len(), "section count");
            for (i, (s, r)) in chunk.sections().iter().zip(sections).enumerate() {
                assert_eq!(s.y(), r.y, "section {i}: y");
                same(s.blocks(), &r.blocks, 4096, &format!("section {i} blocks"));
                same(s.biomes(), &r.biomes, 64, &format!("section {i} biomes"));
                for p in 0..4096 {
                    let (x, y, z) = (p % 16, p / 256, (p / 16) % 16);
                    let want = r.blocks.as_ref().map(|b| b.0[b.1[p]].as_str());
                    assert_eq!(s.block(x, y, z), want, "section {i} block {x},{y},{z}");
                }
                for p in 0..64 {
                    let (x, y, z) = (p % 4, p / 16, (p / 4) % 4);
                    let want = r.biomes.as_ref().map(|b| b.0[b.1[p]].as_str());
                    assert_eq!(s.biome(x, y, z), want, "section {i} biome {x},{y},{z}");
                }
            }
        }
        (Err(e), Err((section, kind))) => {
            assert_eq!((e.section(), e.kind()), (*section, kind), "{e}");
            let _ = e.to_string();
        }
        (got, want) => panic!("helpers: {got:?}\nreference: {want:?}"),
    }
    decoded.ok()
}

/// Asserts a decoded container holds the reference's palette and indices.
fn same(got: Option<&Paletted>, want: &Option<(Vec<String>, Vec<usize>)>, len: usize, what: &str) {
    match (got, want) {
        (None, None) => {}
        (Some(p), Some((palette, indices))) => {
            assert_eq!(p.palette(), &palette[..], "{what}: palette");
            assert_eq!(p.len(), len, "{what}: len");
            for (i, &want) in indices.iter().enumerate() {
                assert_eq!(p.index(i), Some(want), "{what}: index {i}");
                assert_eq!(p.get(i), Some(palette[want].as_str()), "{what}: name {i}");
            }
            assert_eq!(p.index(len), None, "{what}: past the end");
            let mut counts = vec![0u64; palette.len()];
            for &i in indices {
                counts[i] += 1;
            }
            assert_eq!(p.counts(), counts, "{what}: counts");
        }
        (got, want) => panic!("{what}: helpers {got:?}, reference {want:?}"),
    }
}

/// A section as the reference decodes it: `y`, and each container as its
/// palette and one palette index per position.
#[derive(Debug)]
pub struct RefSection {
    /// The section's `Y`.
    pub y: i32,
    /// Block states: palette, 4096 indices.
    pub blocks: Option<(Vec<String>, Vec<usize>)>,
    /// Biomes (1.18+): palette, 64 indices.
    pub biomes: Option<(Vec<String>, Vec<usize>)>,
}

/// The reference: a chunk's sections decoded plainly from the owned tree,
/// reading each index bit by bit. The format facts are those of the module
/// docs of `simdnbt::region::chunk` (docs/format.md cites them).
pub fn reference(root: &NbtCompound) -> Result<Vec<RefSection>, (Option<usize>, ChunkErrorKind)> {
    let data_version = match root.get("DataVersion") {
        Some(NbtTag::Int(v)) => *v,
        _ => 0,
    };
    let spanning = data_version < 2529;
    let (list, modern) = match root.get("sections") {
        Some(NbtTag::List(l)) => (l, true),
        _ => match root.get("Level") {
            Some(NbtTag::Compound(level)) => match level.get("Sections") {
                Some(NbtTag::List(l)) => (l, false),
                _ => return Err((None, ChunkErrorKind::NoSections)),
            },
            _ => return Err((None, ChunkErrorKind::NoSections)),
        },
    };
    let compounds: &[NbtCompound] = match list {
        NbtList::Compound(c) => c,
        other if other.is_empty() => &[],
        _ => return Err((None, ChunkErrorKind::NoSections)),
    };
    let mut sections = Vec::new();
    for (i, s) in compounds.iter().enumerate() {
        let y = match s.get("Y") {
            Some(NbtTag::Byte(b)) => i32::from(*b),
            _ => 0,
        };
        let err = |kind| (Some(i), kind);
        let container = |key: &str| match s.get(key) {
            Some(NbtTag::Compound(c)) => Some(c),
            _ => None,
        };
        let (blocks, biomes) = if modern {
            let blocks = match container("block_states") {
                Some(c) => {
                    Some(ref_paletted(c, "palette", "data", 4096, 4, spanning).map_err(err)?)
                }
                None => None,
            };
            let biomes = match container("biomes") {
                Some(c) => Some(ref_paletted(c, "palette", "data", 64, 0, spanning).map_err(err)?),
                None => None,
            };
            (blocks, biomes)
        } else if matches!(s.get("Palette"), Some(NbtTag::List(_))) {
            let blocks =
                ref_paletted(s, "Palette", "BlockStates", 4096, 4, spanning).map_err(err)?;
            (Some(blocks), None)
        } else {
            (None, None)
        };
        sections.push(RefSection { y, blocks, biomes });
    }
    Ok(sections)
}

/// One paletted container, plainly: `len` positions of
/// `max(min_bits, bits for the palette length)` bits each.
fn ref_paletted(
    c: &NbtCompound,
    palette_key: &'static str,
    data_key: &'static str,
    len: usize,
    min_bits: usize,
    spanning: bool,
) -> Result<(Vec<String>, Vec<usize>), ChunkErrorKind> {
    let bad = ChunkErrorKind::BadPalette { key: palette_key };
    let mut palette = Vec::new();
    match c.get(palette_key) {
        Some(NbtTag::List(NbtList::Compound(entries))) => {
            for entry in entries {
                match entry.get("Name") {
                    Some(NbtTag::String(name)) => palette.push(name.to_str().into_owned()),
                    _ => return Err(bad),
                }
            }
        }
        Some(NbtTag::List(NbtList::String(names))) => {
            palette.extend(names.iter().map(|n| n.to_str().into_owned()));
        }
        _ => return Err(bad),
    }
    if palette.is_empty() || palette.len() > 65536 {
        return Err(bad);
    }
    if palette.len() == 1 {
        return Ok((palette, vec![0; len]));
    }
    // The smallest width that can count to palette.len() - 1.
    let mut bits = 0;
    while (1usize << bits) < palette.len() {
        bits += 1;
    }
    let bits = bits.max(min_bits);
    let longs = match c.get(data_key) {
        Some(NbtTag::LongArray(l)) => l.clone(),
        _ => Vec::new(),
    };
    let per_long = 64 / bits;
    let expected = if spanning {
        (len * bits).div_ceil(64)
    } else {
        len.div_ceil(per_long)
    };
    if longs.len() != expected {
        return Err(ChunkErrorKind::WrongLongCount {
            key: data_key,
            expected,
            found: longs.len(),
        });
    }
    let bit_of = |n: usize| (longs[n / 64] as u64 >> (n % 64)) & 1 == 1;
    let mut indices = Vec::new();
    for at in 0..len {
        let first = if spanning {
            at * bits
        } else {
            (at / per_long) * 64 + (at % per_long) * bits
        };
        let mut index = 0usize;
        for b in 0..bits {
            if bit_of(first + b) {
                index |= 1 << b;
            }
        }
        if index >= palette.len() {
            return Err(ChunkErrorKind::IndexPastPalette {
                at,
                index,
                palette_len: palette.len(),
            });
        }
        indices.push(index);
    }
    Ok((palette, indices))
}

/// Packs `indices` of `bits` bits into longs, bit by bit, the way the
/// reference reads them.
fn pack(indices: &[usize], bits: usize, spanning: bool) -> Vec<i64> {
    let per_long = 64 / bits;
    let longs = if spanning {
        (indices.len() * bits).div_ceil(64)
    } else {
        indices.len().div_ceil(per_long)
    };
    let mut out = vec![0u64; longs];
    for (at, &index) in indices.iter().enumerate() {
        let first = if spanning {
            at * bits
        } else {
            (at / per_long) * 64 + (at % per_long) * bits
        };
        for b in 0..bits {
            if index >> b & 1 == 1 {
                let n = first + b;
                out[n / 64] |= 1 << (n % 64);
            }
        }
    }
    out.into_iter().map(|v| v as i64).collect()
}

/// Reads the fuzz input a byte at a time; zeros once it runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
}

/// Packed containers of a built chunk: (section, block indices, biome indices).
type Packed = Vec<(usize, Option<Vec<usize>>, Option<Vec<usize>>)>;

/// A chunk built from fuzz bytes (see the module docs), and the indices of
/// the containers whose data was packed from chosen values.
pub fn build(data: &[u8]) -> (NbtCompound, Packed) {
    let mut b = Bytes(data);
    let flags = b.u8();
    let modern = flags & 1 == 0;
    let data_version = match flags >> 1 & 7 {
        0 => 3700,
        1 => 2529,
        2 => 2528,
        3 => 1976,
        4 => 2844,
        5 => 2843,
        _ => i32::from_le_bytes([b.u8(), b.u8(), b.u8(), b.u8()]),
    };
    let spanning = data_version < 2529;
    let count = usize::from(b.u8() % 5);
    // A seed for arbitrary longs, so that short inputs still fill sections.
    let mut state = u64::from(b.u16()) << 16 | 0x9e37;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut sections = Vec::new();
    let mut packed = Packed::new();
    for i in 0..count {
        let mut section = NbtCompound::new();
        section.insert("Y", b.u8() as i8);
        let what = b.u8();
        let mut built = [None, None];
        for (slot, (key, len, min_bits, names)) in
            [("block_states", 4096, 4, true), ("biomes", 64, 0, false)]
                .into_iter()
                .enumerate()
        {
            if what >> slot & 1 == 0 || (!modern && slot == 1) {
                continue;
            }
            let shape = b.u8();
            // Palettes past 4096 entries (13 to 16 bits, and the limit) are
            // rare: each costs thousands of compounds to build and read.
            let palette_len = match shape & 3 {
                0 => 1 + usize::from(b.u8() % 16),
                1 => 1 + usize::from(b.u16() % 4500),
                2 => 1 << (b.u8() % 13),
                _ => match b.u8() {
                    0 => 65536,
                    1 => 65537,
                    2 => 1 + usize::from(b.u16()),
                    3 => 0,
                    n => 2 + usize::from(n),
                },
            };
            let mut bits = 0;
            while (1usize << bits) < palette_len {
                bits += 1;
            }
            let bits = bits.max(min_bits).max(1);
            // The palette: compounds with Name for block states, strings for
            // biomes; now and then the other kind, or entries without Name.
            let as_names = names != (shape >> 2 & 7 == 0);
            let palette = if as_names {
                let entries = (0..palette_len)
                    .map(|n| {
                        let mut e = NbtCompound::new();
                        if shape >> 5 != 7 || n + 1 < palette_len {
                            e.insert("Name", format!("b{n}"));
                        }
                        e
                    })
                    .collect();
                NbtList::Compound(entries)
            } else {
                NbtList::String((0..palette_len).map(|n| format!("b{n}").into()).collect())
            };
            let mut container = NbtCompound::new();
            let (palette_key, data_key) = if modern {
                ("palette", "data")
            } else {
                ("Palette", "BlockStates")
            };
            container.insert(palette_key, NbtTag::List(palette));
            let chosen = shape & 0x10 == 0 && palette_len > 0;
            let mut longs = if chosen {
                let indices: Vec<usize> = (0..len)
                    .map(|_| (next() % palette_len as u64) as usize)
                    .collect();
                let longs = pack(&indices, bits, spanning);
                if palette_len > 1 {
                    built[slot] = Some(indices);
                }
                longs
            } else {
                let longs = if spanning {
                    (len * bits).div_ceil(64)
                } else {
                    len.div_ceil(64 / bits)
                };
                (0..longs).map(|_| next() as i64).collect()
            };
            match b.u8() % 8 {
                0 => {
                    longs.pop();
                }
                1 => longs.push(next() as i64),
                _ => {}
            }
            if b.u8() % 8 != 0 {
                container.insert(data_key, NbtTag::LongArray(longs));
            }
            if modern {
                section.insert(key, NbtTag::Compound(container));
            } else {
                for (k, v) in container.iter() {
                    section.insert(k.to_str().into_owned(), v.clone());
                }
            }
        }
        let [blocks, biomes] = built;
        if blocks.is_some() || biomes.is_some() {
            packed.push((i, blocks, biomes));
        }
        sections.push(section);
    }
    let mut root = NbtCompound::new();
    root.insert("DataVersion", data_version);
    let list = NbtTag::List(NbtList::Compound(sections));
    if modern {
        root.insert("sections", list);
    } else {
        let mut level = NbtCompound::new();
        level.insert("Sections", list);
        root.insert("Level", level);
    }
    (root, packed)
}

fn nbt_bytes(root: NbtCompound) -> Vec<u8> {
    let mut out = Vec::new();
    simdnbt::owned::Nbt::Some(BaseNbt::new("", root))
        .write(&mut out)
        .expect("a built chunk is writable");
    out
}

/// Seeds: structured inputs of each shape.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for flags in 0u8..16 {
        for shape in [0u8, 1, 2, 3, 0x10, 0x11, 0x04, 0xe1] {
            let s = vec![
                1, flags, 3, 0x12, 0x34, 0, 3, shape, 7, 9, 2, 2, shape, 1, 1, 2, 2,
            ];
            seeds.push((format!("built-{flags:02}-{shape:02x}"), s));
        }
    }
    seeds
}
