//! The `chunk_sections` target's logic on stable: its seeds, chunks of the
//! corpus region, and checks that the reference decoder it trusts is right
//! on sections worked out by hand.

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::region::Region;
use simdnbt::region::chunk::ChunkErrorKind;
use simdnbt_fuzz_logic::chunk::{build, chunk_sections, reference, seeds};

#[test]
fn seeds_and_corpus_chunks() {
    // One seed of each shape (the fuzzer starts from them all; debug builds
    // are slow enough here to keep to a few).
    for (name, bytes) in seeds().into_iter().step_by(9) {
        eprintln!("{name}");
        chunk_sections(&bytes);
    }
    let region =
        Region::from_bytes(corpus::load_as_shipped("1.19.4.mca").unwrap().to_vec()).unwrap();
    // A few chunks: the whole region against fastanvil is simdnbt's own test.
    for info in region.chunks().step_by(97) {
        let bytes = region
            .chunk(i32::from(info.pos.x), i32::from(info.pos.z))
            .unwrap()
            .unwrap();
        chunk_sections(&bytes);
    }
}

/// A section whose block states are `palette` and `longs`, in a chunk of
/// `data_version` (1.18+ layout).
fn chunk(data_version: i32, palette: usize, longs: Vec<i64>) -> NbtCompound {
    let entries = (0..palette)
        .map(|n| {
            let mut e = NbtCompound::new();
            e.insert("Name", format!("b{n}"));
            e
        })
        .collect();
    let mut states = NbtCompound::new();
    states.insert("palette", NbtTag::List(NbtList::Compound(entries)));
    states.insert("data", NbtTag::LongArray(longs));
    let mut section = NbtCompound::new();
    section.insert("Y", 1i8);
    section.insert("block_states", states);
    let mut root = NbtCompound::new();
    root.insert("DataVersion", data_version);
    root.insert("sections", NbtTag::List(NbtList::Compound(vec![section])));
    root
}

#[test]
fn the_reference_reads_hand_packed_sections() {
    // 17 entries: 5 bits. 1.16+: 12 per long (60 bits used), 342 longs.
    // Position 0 = 1, position 1 = 16, position 12 (second long) = 3.
    let mut longs = vec![0i64; 342];
    longs[0] = 1 | 16 << 5;
    longs[1] = 3;
    let sections = reference(&chunk(3700, 17, longs.clone())).unwrap();
    let (_, indices) = sections[0].blocks.as_ref().unwrap();
    assert_eq!(sections[0].y, 1);
    assert_eq!(&indices[..3], &[1, 16, 0]);
    assert_eq!(indices[12], 3);
    // Before 1.16 the longs are one bit stream (320 longs for 32 entries, 5
    // bits): position 12 is bits 60..65, the top 4 bits of long 0 and bit 0
    // of long 1.
    let mut spanning = vec![0i64; 320];
    spanning[0] = 1 | 16 << 5 | 0b1010 << 60;
    spanning[1] = 1;
    let sections = reference(&chunk(2500, 32, spanning)).unwrap();
    let (_, indices) = sections[0].blocks.as_ref().unwrap();
    assert_eq!(&indices[..2], &[1, 16]);
    assert_eq!(indices[12], 0b11010);
    // The wrong count for the packing, and an index past the palette.
    assert_eq!(
        reference(&chunk(2500, 17, longs)).unwrap_err(),
        (
            Some(0),
            ChunkErrorKind::WrongLongCount {
                key: "data",
                expected: 320,
                found: 342
            }
        )
    );
    let mut past = vec![0i64; 342];
    past[2] = 17;
    assert_eq!(
        reference(&chunk(3700, 17, past)).unwrap_err(),
        (
            Some(0),
            ChunkErrorKind::IndexPastPalette {
                at: 24,
                index: 17,
                palette_len: 17
            }
        )
    );
}

#[test]
fn built_chunks_cover_every_width() {
    // Palettes of 2^k entries for k = 1..=16: every bits-per-entry (shape 2
    // up to 4096 entries, then shape 3 with a two-byte length).
    for k in 1u32..=16 {
        let shape: Vec<u8> = if k <= 12 {
            vec![2, k as u8]
        } else {
            let n = ((1u32 << k) - 1) as u16;
            vec![3, 2, n as u8, (n >> 8) as u8]
        };
        let input = [&[0, 1, 0, 0, 0, 1][..], &shape, &[2, 1]].concat();
        let (root, packed) = build(&input);
        let sections = reference(&root).unwrap();
        let (palette, indices) = sections[0].blocks.as_ref().unwrap();
        assert_eq!(palette.len(), 1 << k);
        assert_eq!(Some(indices), packed[0].1.as_ref(), "k = {k}");
        chunk_sections(&[&[1][..], &input].concat());
    }
}
