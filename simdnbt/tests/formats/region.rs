//! Region files: read/write/delete/compaction round trips, every compression
//! (LZ4 and external `.mcc` chunks built here), and every malformed header entry.
#![cfg(feature = "region")]

use std::io::Cursor;
use std::path::PathBuf;

use simdnbt::ReadOptions;
use simdnbt::region::{ChunkCompression, LocalPos, Region, RegionError, RegionErrorKind};

const ALL: [ChunkCompression; 4] = [
    ChunkCompression::Gzip,
    ChunkCompression::Zlib,
    ChunkCompression::Uncompressed,
    ChunkCompression::Lz4,
];

/// A chunk-like document: `{xPos: x, zPos: z, data: [B; len]}` with bytes that
/// compress a little (so sizes vary with `len` under every compression).
fn chunk_nbt(x: i32, z: i32, len: usize) -> Vec<u8> {
    let mut v = vec![0x0a, 0, 0];
    for (name, value) in [("xPos", x), ("zPos", z)] {
        v.extend_from_slice(&[0x03, 0, 4]);
        v.extend_from_slice(name.as_bytes());
        v.extend_from_slice(&value.to_be_bytes());
    }
    v.extend_from_slice(&[0x07, 0, 4]);
    v.extend_from_slice(b"data");
    v.extend_from_slice(&(len as i32).to_be_bytes());
    let mut state = (x as u32).wrapping_mul(2654435761) ^ z as u32 ^ 0x5bd1_e995;
    v.extend((0..len).map(|i| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        if i % 3 == 0 { 0 } else { state as u8 }
    }));
    v.push(0);
    v
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("simdnbt-region-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads every chunk and checks it equals `expected[(x, z)]`.
fn assert_chunks(region: &Region, expected: &[((i32, i32), Vec<u8>)]) {
    assert_eq!(region.len(), expected.len());
    for ((x, z), nbt) in expected {
        let got = region
            .chunk(*x, *z)
            .unwrap()
            .unwrap_or_else(|| panic!("({x}, {z}) missing"));
        assert_eq!(&got, nbt, "chunk ({x}, {z})");
    }
}

fn reopen(region: &Region) -> Region {
    let bytes = region.as_bytes().to_vec();
    assert_eq!(bytes.len() % 4096, 0, "unpadded file");
    Region::from_bytes(bytes).unwrap()
}

#[test]
fn every_compression_round_trips_with_timestamps() {
    let mut region = Region::new();
    let mut expected = Vec::new();
    for (i, compression) in ALL.into_iter().enumerate() {
        let (x, z) = (i as i32 * 5, 31 - i as i32);
        let nbt = chunk_nbt(x, z, 10_000 + i * 3000);
        region
            .write_chunk_at(x, z, &nbt, compression, 1_700_000_000 + i as u32)
            .unwrap();
        expected.push(((x, z), nbt));
    }
    let region = reopen(&region);
    assert_chunks(&region, &expected);
    let infos: Vec<_> = region.chunks().collect();
    assert_eq!(infos.len(), 4);
    for (i, compression) in ALL.into_iter().enumerate() {
        let info = region.info(i as i32 * 5, 31 - i as i32).unwrap();
        assert_eq!(info.compression, Some(compression));
        assert_eq!(info.timestamp, 1_700_000_000 + i as u32);
        assert!(!info.external);
        assert_eq!(
            info.pos,
            LocalPos {
                x: i as u8 * 5,
                z: 31 - i as u8
            }
        );
    }
    // Absolute coordinates pick the same entry (only the low five bits count).
    assert_eq!(
        region.chunk(-32 + 5, 64 + 30).unwrap(),
        Some(expected[1].1.clone())
    );
    assert_eq!(region.chunk(1, 1).unwrap(), None);
}

#[test]
fn replace_delete_and_compact_keep_every_other_chunk() {
    let mut region = Region::new();
    let mut expected: Vec<((i32, i32), Vec<u8>)> = Vec::new();
    for i in 0..40 {
        let (x, z) = (i % 32, i / 32);
        let nbt = chunk_nbt(x, z, 2000 + (i as usize * 997) % 20_000);
        region.write_chunk(x, z, &nbt, ALL[i as usize % 4]).unwrap();
        expected.push(((x, z), nbt));
    }
    assert_chunks(&reopen(&region), &expected);
    let grown = region.as_bytes().len();

    // Grow one chunk (it must move), shrink another (it may stay).
    let bigger = chunk_nbt(3, 0, 60_000);
    region
        .write_chunk(3, 0, &bigger, ChunkCompression::Uncompressed)
        .unwrap();
    expected[3].1 = bigger;
    let smaller = chunk_nbt(10, 0, 10);
    region
        .write_chunk(10, 0, &smaller, ChunkCompression::Zlib)
        .unwrap();
    expected[10].1 = smaller;
    assert_chunks(&reopen(&region), &expected);

    // Delete a few; their sectors are reused by a new chunk.
    for (x, z) in [(0, 0), (7, 0), (5, 1)] {
        assert!(region.remove_chunk(x, z));
        assert!(!region.remove_chunk(x, z));
        expected.retain(|(pos, _)| *pos != (x, z));
    }
    assert_eq!(region.info(0, 0), None);
    let before_reuse = region.as_bytes().len();
    let small = chunk_nbt(20, 20, 100);
    region
        .write_chunk(20, 20, &small, ChunkCompression::Zlib)
        .unwrap();
    assert_eq!(
        region.as_bytes().len(),
        before_reuse,
        "a free sector was not reused"
    );
    expected.push(((20, 20), small));
    assert_chunks(&reopen(&region), &expected);

    region.compact();
    let compacted = reopen(&region);
    assert_chunks(&compacted, &expected);
    assert!(region.as_bytes().len() < grown + 60_000);
    // Packed: sectors run from 2 without gaps, each chunk in as few as it needs.
    let mut infos: Vec<_> = compacted.chunks().collect();
    infos.sort_by_key(|i| i.sector);
    let mut next = 2;
    for info in &infos {
        assert_eq!(info.sector, next, "gap before {}", info.pos);
        next += info.sectors;
    }
    assert_eq!(region.as_bytes().len(), next as usize * 4096);
}

#[test]
fn save_and_open_on_disk() {
    let dir = temp_dir("save");
    let path = dir.join("r.-1.2.mca");
    let mut region = Region::new();
    let nbt = chunk_nbt(-32, 64, 5000);
    region
        .write_chunk(-32, 64, &nbt, ChunkCompression::Zlib)
        .unwrap();
    region.save(&path).unwrap();
    let opened = Region::open(&path).unwrap();
    assert_eq!(opened.chunk(0, 0).unwrap(), Some(nbt));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A document big enough that it does not fit 255 sectors compressed.
fn oversized_nbt() -> Vec<u8> {
    // Pseudo-random bytes with no zeros mixed in: incompressible.
    let mut v = vec![0x0a, 0, 0, 0x07, 0, 1, b'd'];
    let len = 1_200_000usize;
    v.extend_from_slice(&(len as i32).to_be_bytes());
    let mut state = 0x9e37_79b9u32;
    v.extend((0..len).map(|_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 7) as u8
    }));
    v.push(0);
    v
}

#[test]
fn oversized_chunks_go_to_external_files() {
    let dir = temp_dir("mcc");
    let path = dir.join("r.1.-1.mca");
    let big = oversized_nbt();
    let mut region = Region::new();
    // Without a location there is nowhere to put the .mcc file.
    let err = region
        .write_chunk(2, 3, &big, ChunkCompression::Zlib)
        .unwrap_err();
    assert!(
        matches!(err.kind(), RegionErrorKind::NoExternalLocation),
        "{err}"
    );
    assert_eq!(err.pos(), Some(LocalPos { x: 2, z: 3 }));

    let mut region = Region::new().with_external_dir(&dir, 1, -1);
    region
        .write_chunk(2, 3, &big, ChunkCompression::Zlib)
        .unwrap();
    let small = chunk_nbt(0, 0, 100);
    region
        .write_chunk(0, 0, &small, ChunkCompression::Lz4)
        .unwrap();
    // Readable before saving (from memory) and after.
    assert_eq!(region.chunk(2, 3).unwrap().as_ref(), Some(&big));
    region.save(&path).unwrap();
    // c.X.Z.mcc with absolute chunk coordinates: 1 * 32 + 2, -1 * 32 + 3.
    let mcc = dir.join("c.34.-29.mcc");
    assert!(mcc.exists());
    let opened = Region::open(&path).unwrap();
    let info = opened.info(2, 3).unwrap();
    assert!(info.external);
    assert_eq!(
        (info.sectors, info.compression),
        (1, Some(ChunkCompression::Zlib))
    );
    assert_eq!(opened.chunk(2, 3).unwrap(), Some(big.clone()));
    assert_eq!(opened.chunk(0, 0).unwrap(), Some(small));

    // From bytes alone the external chunk cannot be found; the others can.
    let bytes_only = Region::from_bytes(std::fs::read(&path).unwrap()).unwrap();
    let err = bytes_only.chunk(2, 3).unwrap_err();
    assert!(
        matches!(err.kind(), RegionErrorKind::NoExternalLocation),
        "{err}"
    );

    // Saving elsewhere copies the external file; replacing the chunk with a
    // small one deletes it on the next save.
    let other = temp_dir("mcc-moved");
    let mut moved = Region::open(&path).unwrap();
    moved.save(other.join("r.1.-1.mca")).unwrap();
    assert_eq!(
        std::fs::read(other.join("c.34.-29.mcc")).unwrap(),
        std::fs::read(&mcc).unwrap()
    );
    moved
        .write_chunk(2, 3, &chunk_nbt(2, 3, 10), ChunkCompression::Zlib)
        .unwrap();
    moved.save(other.join("r.1.-1.mca")).unwrap();
    assert!(!other.join("c.34.-29.mcc").exists());

    // A missing .mcc file is an error naming the file and the chunk.
    std::fs::remove_file(&mcc).unwrap();
    let err = opened.chunk(2, 3).unwrap_err();
    assert!(
        matches!(err.kind(), RegionErrorKind::ExternalFile { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("c.34.-29.mcc") && err.to_string().contains("(2, 3)"));
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(other).unwrap();
}

/// A region built byte by byte (not by our writer), with an external chunk
/// and an LZ4 chunk stored as one uncompressed ("stored") lz4-java block.
#[test]
fn hand_built_external_and_lz4_chunks() {
    let dir = temp_dir("hand");
    let nbt = chunk_nbt(1, 1, 300);
    let mut file = vec![0u8; 4 * 4096];
    // Chunk (0, 0): sector 2, one sector, external zlib.
    file[0..4].copy_from_slice(&(2u32 << 8 | 1).to_be_bytes());
    file[2 * 4096..2 * 4096 + 5].copy_from_slice(&[0, 0, 0, 1, 0x82]);
    std::fs::write(
        dir.join("c.0.0.mcc"),
        simdnbt::compression::compress(&nbt, simdnbt::compression::Compression::Zlib),
    )
    .unwrap();
    // Chunk (1, 0): sector 3, LZ4 block stream with one stored block.
    let mut lz4 = b"LZ4Block".to_vec();
    lz4.push(0x16);
    lz4.extend_from_slice(&(nbt.len() as u32).to_le_bytes());
    lz4.extend_from_slice(&(nbt.len() as u32).to_le_bytes());
    lz4.extend_from_slice(&(xxh32_lz4_java(&nbt)).to_le_bytes());
    lz4.extend_from_slice(&nbt);
    lz4.extend_from_slice(b"LZ4Block\x16");
    lz4.extend_from_slice(&[0; 12]);
    file[4..8].copy_from_slice(&(3u32 << 8 | 1).to_be_bytes());
    let at = 3 * 4096;
    file[at..at + 4].copy_from_slice(&(1 + lz4.len() as u32).to_be_bytes());
    file[at + 4] = 4;
    file[at + 5..at + 5 + lz4.len()].copy_from_slice(&lz4);
    std::fs::write(dir.join("r.0.0.mca"), &file).unwrap();

    let region = Region::open(dir.join("r.0.0.mca")).unwrap();
    assert_eq!(region.chunk(0, 0).unwrap(), Some(nbt.clone()));
    assert_eq!(region.chunk(1, 0).unwrap(), Some(nbt.clone()));
    assert_eq!(
        region.info(1, 0).unwrap().compression,
        Some(ChunkCompression::Lz4)
    );

    // A wrong checksum is caught.
    let mut bad = file.clone();
    bad[at + 5 + 17] ^= 1;
    let err = Region::from_bytes(bad).unwrap().chunk(1, 0).unwrap_err();
    assert!(matches!(err.kind(), RegionErrorKind::Lz4 { .. }), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// lz4-java's block checksum: XXH32 with seed 0x9747b28c, top four bits cleared.
/// An independent, byte-at-a-time XXH32 (the library's works on 16-byte stripes).
fn xxh32_lz4_java(data: &[u8]) -> u32 {
    const P: [u32; 5] = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1];
    let seed = 0x9747_b28cu32;
    let word = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
    let mut i = 0;
    let mut h = if data.len() >= 16 {
        let mut v = [
            seed.wrapping_add(P[0]).wrapping_add(P[1]),
            seed.wrapping_add(P[1]),
            seed,
            seed.wrapping_sub(P[0]),
        ];
        while i + 16 <= data.len() {
            for (lane, acc) in v.iter_mut().enumerate() {
                let w = word(i + lane * 4);
                *acc = acc
                    .wrapping_add(w.wrapping_mul(P[1]))
                    .rotate_left(13)
                    .wrapping_mul(P[0]);
            }
            i += 16;
        }
        v[0].rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18))
    } else {
        seed.wrapping_add(P[4])
    };
    h = h.wrapping_add(data.len() as u32);
    while i + 4 <= data.len() {
        h = h
            .wrapping_add(word(i).wrapping_mul(P[2]))
            .rotate_left(17)
            .wrapping_mul(P[3]);
        i += 4;
    }
    while i < data.len() {
        h = h
            .wrapping_add(u32::from(data[i]).wrapping_mul(P[4]))
            .rotate_left(11)
            .wrapping_mul(P[0]);
        i += 1;
    }
    h ^= h >> 15;
    h = h.wrapping_mul(P[1]);
    h ^= h >> 13;
    h = h.wrapping_mul(P[2]);
    (h ^ (h >> 16)) & 0x0fff_ffff
}

// ---------------------------------------------------------------- malformed headers

/// A region file with chunk (5, 2) at sector 2 (one sector), and room for tweaks.
fn base_file() -> Vec<u8> {
    let mut region = Region::new();
    region
        .write_chunk_at(5, 2, &chunk_nbt(5, 2, 50), ChunkCompression::Zlib, 7)
        .unwrap();
    region
        .write_chunk_at(6, 2, &chunk_nbt(6, 2, 50), ChunkCompression::Zlib, 7)
        .unwrap();
    region.into_bytes()
}

const ENTRY: usize = 5 + 2 * 32;

fn set_location(file: &mut [u8], index: usize, sector: u32, count: u32) {
    file[index * 4..index * 4 + 4].copy_from_slice(&(sector << 8 | count).to_be_bytes());
}

fn open_err(file: Vec<u8>) -> RegionError {
    match Region::from_bytes(file) {
        Ok(_) => panic!("malformed region accepted"),
        Err(e) => e,
    }
}

fn assert_names_chunk(err: &RegionError, x: u8, z: u8) {
    assert_eq!(err.pos(), Some(LocalPos { x, z }), "{err}");
    assert!(
        err.to_string().starts_with(&format!("chunk ({x}, {z}): ")),
        "{err}"
    );
}

#[test]
fn base_file_is_valid() {
    let region = Region::from_bytes(base_file()).unwrap();
    assert_eq!(region.info(5, 2).unwrap().sector, 2);
    assert_eq!(region.info(6, 2).unwrap().sector, 3);
    assert!(region.chunk(5, 2).unwrap().is_some());
}

#[test]
fn short_and_empty_files() {
    for len in [1, 4095, 4096, 8191] {
        let err = open_err(vec![0; len]);
        assert!(matches!(err.kind(), RegionErrorKind::HeaderTooShort { len: l } if *l == len));
        assert_eq!(err.pos(), None);
    }
    assert!(Region::from_bytes(Vec::new()).unwrap().is_empty());
    assert!(Region::from_bytes(vec![0; 8192]).unwrap().is_empty());
}

#[test]
fn offsets_into_the_header() {
    for sector in [0, 1] {
        let mut file = base_file();
        set_location(&mut file, ENTRY, sector, 1);
        let err = open_err(file);
        assert!(
            matches!(err.kind(), RegionErrorKind::OffsetInHeader { offset } if *offset == sector)
        );
        assert_names_chunk(&err, 5, 2);
    }
}

#[test]
fn zero_sector_count() {
    let mut file = base_file();
    set_location(&mut file, ENTRY, 2, 0);
    let err = open_err(file);
    assert!(
        matches!(err.kind(), RegionErrorKind::NoSectors { offset: 2 }),
        "{err}"
    );
    assert_names_chunk(&err, 5, 2);
}

#[test]
fn sectors_past_the_end() {
    for (sector, count) in [(4, 1), (3, 2), (0xff_ffff, 255), (2, 255)] {
        let mut file = base_file();
        set_location(&mut file, ENTRY, sector, count);
        let err = open_err(file);
        assert!(
            matches!(
                err.kind(),
                RegionErrorKind::SectorsPastEnd { .. } | RegionErrorKind::Overlap { .. }
            ),
            "{err}"
        );
        assert_names_chunk(&err, 5, 2);
    }
    let mut file = base_file();
    set_location(&mut file, ENTRY, 9, 1);
    let err = open_err(file);
    assert!(
        matches!(
            err.kind(),
            RegionErrorKind::SectorsPastEnd {
                offset: 9,
                count: 1,
                file_sectors: 4
            }
        ),
        "{err}"
    );
}

#[test]
fn overlapping_chunks() {
    let mut file = base_file();
    set_location(&mut file, ENTRY, 2, 2); // now covers (6, 2)'s sector 3
    let err = open_err(file);
    assert!(
        matches!(err.kind(), RegionErrorKind::Overlap { .. }),
        "{err}"
    );
    // Entry order decides who is "first": (5, 2) is 69, (6, 2) is 70.
    assert_names_chunk(&err, 6, 2);
    assert!(matches!(
        err.kind(),
        RegionErrorKind::Overlap {
            other: LocalPos { x: 5, z: 2 },
            sector: 3
        }
    ));
    // Two entries at the same place.
    let mut file = base_file();
    set_location(&mut file, 0, 3, 1);
    let err = open_err(file);
    assert_names_chunk(&err, 6, 2);
}

#[test]
fn bad_lengths() {
    let at = 2 * 4096;
    let mut file = base_file();
    file[at..at + 4].copy_from_slice(&0u32.to_be_bytes());
    let err = open_err(file);
    assert!(matches!(err.kind(), RegionErrorKind::ZeroLength), "{err}");
    assert_names_chunk(&err, 5, 2);

    for length in [4093, 4096, u32::MAX] {
        let mut file = base_file();
        file[at..at + 4].copy_from_slice(&length.to_be_bytes());
        let err = open_err(file);
        assert!(
            matches!(
                err.kind(),
                RegionErrorKind::LengthTooLarge { capacity: 4092, .. }
            ),
            "{err}"
        );
        assert_names_chunk(&err, 5, 2);
    }
    // The biggest length that fits one sector is fine.
    let mut file = base_file();
    file[at..at + 4].copy_from_slice(&4092u32.to_be_bytes());
    assert!(Region::from_bytes(file).is_ok());
}

#[test]
fn unpadded_last_sector() {
    let mut file = base_file();
    let end = 3 * 4096;
    // (6, 2)'s sector holds its record; cut the file just after it: still fine.
    let length = u32::from_be_bytes(file[end..end + 4].try_into().unwrap()) as usize;
    file.truncate(end + 4 + length);
    let region = Region::from_bytes(file.clone()).unwrap();
    assert!(region.chunk(6, 2).unwrap().is_some());
    // One byte shorter: the length no longer fits.
    file.pop();
    let err = open_err(file.clone());
    assert!(
        matches!(err.kind(), RegionErrorKind::LengthTooLarge { .. }),
        "{err}"
    );
    assert_names_chunk(&err, 6, 2);
    // Cut inside the 5-byte prefix.
    file.truncate(end + 3);
    let err = open_err(file);
    assert!(
        matches!(err.kind(), RegionErrorKind::ChunkHeaderCut { available: 3 }),
        "{err}"
    );
    // Writing to an unpadded region pads it first.
    let mut region = region;
    region
        .write_chunk(0, 0, &chunk_nbt(0, 0, 1), ChunkCompression::Zlib)
        .unwrap();
    assert_eq!(region.as_bytes().len() % 4096, 0);
    assert!(
        Region::from_bytes(region.into_bytes())
            .unwrap()
            .chunk(6, 2)
            .unwrap()
            .is_some()
    );
}

/// A chunk with a compression this crate cannot decode (127 is a server's
/// custom algorithm) leaves the region readable: it opens, lists the chunk
/// with its compression byte, refuses to read that chunk naming it, and
/// reads the others; compacting keeps the chunk's bytes. (Opening used to
/// refuse the whole file, so every other chunk was lost to the reader.)
#[test]
fn unknown_compression_fails_that_chunk_only() {
    for byte in [0u8, 5, 127, 128, 133, 255] {
        let mut file = base_file();
        file[2 * 4096 + 4] = byte;
        let region = Region::from_bytes(file).unwrap_or_else(|e| panic!("{byte}: {e}"));
        assert_eq!(region.len(), 2);
        let info = region.info(5, 2).unwrap();
        assert_eq!(info.compression, None, "{byte}");
        assert_eq!(info.compression_id, byte & 0x7f);
        assert_eq!(info.external, byte & 0x80 != 0);
        assert_eq!(region.chunks().count(), 2);
        let err = region.chunk(5, 2).unwrap_err();
        assert!(
            matches!(err.kind(), RegionErrorKind::UnknownCompression(b) if *b == byte),
            "{err}"
        );
        assert_names_chunk(&err, 5, 2);
        if byte == 127 {
            assert_eq!(
                err.to_string(),
                "chunk (5, 2): custom compression (127) is not supported"
            );
        }
        assert_eq!(region.chunk(6, 2).unwrap().unwrap(), chunk_nbt(6, 2, 50));
        let mut compacted = region.clone();
        compacted.compact();
        let again = reopen(&compacted);
        assert_eq!(again.info(5, 2).unwrap().compression_id, byte & 0x7f);
        assert_eq!(again.chunk(6, 2).unwrap().unwrap(), chunk_nbt(6, 2, 50));
    }
}

#[test]
fn corrupt_chunk_data_is_an_error_for_that_chunk_only() {
    let mut file = base_file();
    file[2 * 4096 + 5 + 3] ^= 0xff;
    let region = Region::from_bytes(file).unwrap();
    let err = region.chunk(5, 2).unwrap_err();
    assert!(matches!(err.kind(), RegionErrorKind::Inflate(_)), "{err}");
    assert_names_chunk(&err, 5, 2);
    assert!(region.chunk(6, 2).unwrap().is_some());
}

#[test]
fn chunk_bomb_stops_at_the_cap() {
    let zeros = vec![0u8; 8 << 20];
    let bomb = simdnbt::compression::compress(&zeros, simdnbt::compression::Compression::Zlib);
    assert!(bomb.len() < 255 * 4096);
    let mut file = vec![0u8; 8192];
    let sectors = (5 + bomb.len()).div_ceil(4096);
    file[0..4].copy_from_slice(&(2u32 << 8 | sectors as u32).to_be_bytes());
    file.extend_from_slice(&(1 + bomb.len() as u32).to_be_bytes());
    file.push(2);
    file.extend_from_slice(&bomb);
    file.resize((2 + sectors) * 4096, 0);
    let region = Region::from_bytes(file)
        .unwrap()
        .with_options(ReadOptions::default().max_inflated_bytes(1 << 20));
    let err = region.chunk(0, 0).unwrap_err();
    match err.kind() {
        RegionErrorKind::Inflate(e) => assert_eq!(
            e.kind(),
            &simdnbt::compression::InflateErrorKind::TooLarge { limit: 1 << 20 }
        ),
        other => panic!("{other:?}"),
    }
}

/// Every cap works on chunks, however small, in every compression: a chunk of
/// exactly the cap reads, one byte more is an error saying the cap (caps under
/// 4 KiB used to panic in the inflater). `max_bytes`, the network quota, lowers
/// the cap too.
#[test]
fn every_cap_works_on_chunks() {
    // `chunk_nbt(.., len)` is 37 + len bytes.
    let caps = [0, 1, 497, 4095, 4096].map(|c| (c, ReadOptions::default().max_inflated_bytes(c)));
    let quota = (2000, ReadOptions::default().max_bytes(2000));
    for (cap, opts) in caps.into_iter().chain([quota]) {
        // Under 37 bytes no chunk fits: the smallest one is over.
        let sizes = match cap {
            0..37 => vec![(37, false)],
            _ => vec![(cap, true), (cap + 1, false)],
        };
        for (size, fits) in sizes {
            let nbt = chunk_nbt(1, 2, size - 37);
            for compression in ALL {
                let mut region = Region::new();
                region.write_chunk(1, 2, &nbt, compression).unwrap();
                let region = reopen(&region).with_options(opts);
                let what = format!("{compression:?}, cap {cap}, {size} bytes");
                match region.chunk(1, 2) {
                    Ok(Some(got)) if fits => assert_eq!(got, nbt, "{what}"),
                    Err(err) if !fits => {
                        assert_names_chunk(&err, 1, 2);
                        assert!(
                            err.to_string().contains(&format!("limit of {cap} bytes")),
                            "{what}: {err}"
                        );
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn writers_refuse_invalid_nbt() {
    let mut region = Region::new();
    for bad in [&[][..], &[0x0a, 0, 0][..], &[0x00][..], &[0x1f, 0x8b][..]] {
        let err = region
            .write_chunk(1, 2, bad, ChunkCompression::Zlib)
            .unwrap_err();
        assert!(
            matches!(err.kind(), RegionErrorKind::InvalidNbt(_)),
            "{err}"
        );
        assert_names_chunk(&err, 1, 2);
    }
    assert!(region.is_empty());
    assert_eq!(region.as_bytes(), &[0u8; 8192][..]);
}

#[test]
fn chunk_into_reuses_the_buffer() {
    let mut region = Region::new();
    let nbt = chunk_nbt(0, 0, 100);
    region
        .write_chunk(0, 0, &nbt, ChunkCompression::Zlib)
        .unwrap();
    let mut buf = vec![1, 2, 3];
    assert!(region.chunk_into(0, 0, &mut buf).unwrap());
    assert_eq!(buf, nbt);
    assert!(!region.chunk_into(1, 0, &mut buf).unwrap());
    assert!(buf.is_empty());
    let doc = simdnbt::borrow::read(&mut Cursor::new(&nbt[..]))
        .unwrap()
        .unwrap();
    assert_eq!(doc.int("xPos"), Some(0));
}

// ---------------------------------------------------------------- the real region file

type Chunks = Vec<((i32, i32), Vec<u8>)>;

fn real_region() -> (Region, Chunks) {
    let bytes = corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"));
    let region = Region::from_bytes(bytes.to_vec()).unwrap();
    let chunks = region
        .chunks()
        .map(|info| {
            let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
            ((x, z), region.chunk(x, z).unwrap().unwrap())
        })
        .collect();
    (region, chunks)
}

#[test]
fn every_chunk_of_the_real_region_parses_and_round_trips() {
    let (region, chunks) = real_region();
    assert_eq!(chunks.len(), 676);
    for info in region.chunks() {
        assert_eq!(info.compression, Some(ChunkCompression::Zlib));
        assert!(!info.external);
        assert!(
            info.timestamp > 1_600_000_000,
            "{}: {}",
            info.pos,
            info.timestamp
        );
    }
    for ((x, z), nbt) in &chunks {
        let doc = simdnbt::borrow::read(&mut Cursor::new(&nbt[..]))
            .unwrap()
            .unwrap();
        assert_eq!(doc.int("xPos").map(|v| v & 31), Some(*x), "({x}, {z})");
        assert_eq!(doc.int("zPos").map(|v| v & 31), Some(*z), "({x}, {z})");
        let mut out = Vec::new();
        doc.write(&mut out);
        assert!(&out == nbt, "({x}, {z}): borrow write differs");
        let owned = simdnbt::owned::read(&mut Cursor::new(&nbt[..])).unwrap();
        let mut out = Vec::new();
        owned.write(&mut out).unwrap();
        assert!(&out == nbt, "({x}, {z}): owned write differs");
    }
}

#[test]
fn the_real_region_rewritten_in_every_compression_reads_back_equal() {
    let (region, chunks) = real_region();
    for compression in ALL {
        let mut rewritten = Region::new();
        for info in region.chunks() {
            let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
            // gzip costs as much as zlib to check: every 8th chunk is enough.
            if compression == ChunkCompression::Gzip && (x + z) % 8 != 0 {
                continue;
            }
            let nbt = &chunks.iter().find(|(p, _)| *p == (x, z)).unwrap().1;
            rewritten
                .write_chunk_at(x, z, nbt, compression, info.timestamp)
                .unwrap();
        }
        let reread = reopen(&rewritten);
        for info in reread.chunks() {
            assert_eq!(info.compression, Some(compression));
            assert_eq!(
                Some(info.timestamp),
                region
                    .info(info.pos.x.into(), info.pos.z.into())
                    .map(|i| i.timestamp)
            );
        }
        let expected: Chunks = chunks
            .iter()
            .filter(|((x, z), _)| compression != ChunkCompression::Gzip || (x + z) % 8 == 0)
            .cloned()
            .collect();
        assert_chunks(&reread, &expected);
    }
}

#[test]
fn the_real_region_edited_then_compacted_keeps_every_chunk() {
    let (mut region, mut chunks) = real_region();
    let original_len = region.as_bytes().len();
    // Remove every third chunk, grow every seventh (it must move).
    let mut kept: Chunks = Vec::new();
    for (i, ((x, z), nbt)) in chunks.drain(..).enumerate() {
        if i % 3 == 0 {
            assert!(region.remove_chunk(x, z));
        } else if i % 7 == 0 {
            let mut doc = simdnbt::owned::read(&mut Cursor::new(&nbt[..]))
                .unwrap()
                .unwrap();
            doc.insert(
                "padding",
                simdnbt::owned::NbtTag::ByteArray(vec![7; 20_000]),
            );
            let mut grown = Vec::new();
            simdnbt::owned::Nbt::Some(doc).write(&mut grown).unwrap();
            region
                .write_chunk(x, z, &grown, ChunkCompression::Uncompressed)
                .unwrap();
            kept.push(((x, z), grown));
        } else {
            kept.push(((x, z), nbt));
        }
    }
    assert_chunks(&reopen(&region), &kept);
    region.compact();
    let compacted = reopen(&region);
    assert_chunks(&compacted, &kept);
    assert!(region.as_bytes().len() < original_len + 80 * 20_000);
    // Saved and opened from disk, it is the same file.
    let dir = temp_dir("real");
    let path = dir.join("r.0.0.mca");
    region.save(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), region.as_bytes());
    assert_chunks(&Region::open(&path).unwrap(), &kept);
    std::fs::remove_dir_all(dir).unwrap();
}

// ---------------------------------------------------------------- scan

#[cfg(feature = "scan")]
#[test]
fn scan_reads_every_chunk_and_reports_broken_ones() {
    use simdnbt::region::scan::{Scan, ScanErrorKind};
    let dir = temp_dir("scan");
    let file = corpus::load_as_shipped("1.19.4.mca").unwrap();
    std::fs::write(dir.join("r.0.0.mca"), file).unwrap();
    // A region with a corrupt chunk, one with a bad header, and a file that is not a region.
    let mut damaged = base_file();
    damaged[2 * 4096 + 8] ^= 0xff;
    std::fs::write(dir.join("r.1.0.mca"), &damaged).unwrap();
    std::fs::write(dir.join("r.2.0.mca"), vec![1u8; 100]).unwrap();
    std::fs::write(dir.join("notes.txt"), b"not a region").unwrap();
    let scan = Scan::dir(&dir).unwrap();
    assert_eq!(scan.paths().len(), 3);
    let total = scan.total_bytes();
    let seen = std::sync::atomic::AtomicU64::new(0);
    let report = scan
        .on_progress(|n| {
            seen.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        })
        .run(
            || (0usize, 0u64),
            |(n, bytes), chunk, nbt| {
                *n += 1;
                *bytes += nbt.as_bytes().len() as u64;
                assert!(chunk.region.ends_with("r.0.0.mca") || chunk.region.ends_with("r.1.0.mca"));
            },
            |a, b| (a.0 + b.0, a.1 + b.1),
        );
    assert_eq!(report.value.0, 676 + 1);
    assert_eq!(report.chunks, 677);
    assert_eq!(report.value.1, report.inflated_bytes);
    assert_eq!(report.regions, 2);
    assert_eq!(report.errors.len(), 2, "{:?}", report.errors);
    assert!(
        report
            .errors
            .iter()
            .any(|e| matches!(e.kind, ScanErrorKind::Region(_)) && e.path.ends_with("r.2.0.mca"))
    );
    assert!(
        report
            .errors
            .iter()
            .any(|e| e.path.ends_with("r.1.0.mca") && e.to_string().contains("chunk (5, 2)"))
    );
    let seen = seen.into_inner();
    assert!(seen <= total && seen > total / 2, "{seen} of {total}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn io_errors_name_the_file() {
    let missing = std::env::temp_dir().join("simdnbt-no-such-dir/r.0.0.mca");
    let err = Region::open(&missing).unwrap_err();
    assert!(matches!(err.kind(), RegionErrorKind::Io { .. }), "{err}");
    assert!(err.to_string().contains("simdnbt-no-such-dir"), "{err}");
    let err = Region::new().save(&missing).unwrap_err();
    assert!(err.to_string().contains("simdnbt-no-such-dir"), "{err}");
}

/// `from_bytes_lenient`: a bad header entry costs only its own chunk, each
/// kind; what it claims inside the file is never given to a new chunk; an
/// entry past the end is cleared when the file grows into it; `compact`
/// clears bad entries.
#[test]
fn a_bad_entry_costs_only_its_chunk_when_lenient() {
    let good = chunk_nbt(6, 2, 50);
    // (5, 2) is at sector 2, (6, 2) at sector 3; a third chunk (0, 0) at 4.
    let mut base = base_file();
    {
        let mut region = Region::from_bytes(base.clone()).unwrap();
        region
            .write_chunk_at(0, 0, &chunk_nbt(0, 0, 50), ChunkCompression::Zlib, 7)
            .unwrap();
        base = region.into_bytes();
    }
    let sectors = (base.len() / 4096) as u32;
    type Corrupt = Box<dyn Fn(&mut Vec<u8>)>;
    type IsKind = fn(&RegionErrorKind) -> bool;
    let kinds: Vec<(Corrupt, IsKind)> = vec![
        (
            Box::new(move |f| set_location(f, ENTRY, sectors + 3, 2)),
            |k| matches!(k, RegionErrorKind::SectorsPastEnd { .. }),
        ),
        (
            // (0, 0) pointed at (5, 2)'s sector: the first in header order
            // keeps it, so (5, 2) is the one left out.
            Box::new(|f| set_location(f, 0, 2, 1)),
            |k| matches!(k, RegionErrorKind::Overlap { .. }),
        ),
        (
            Box::new(|f| f[2 * 4096..2 * 4096 + 4].copy_from_slice(&0x7fff_ffffu32.to_be_bytes())),
            |k| matches!(k, RegionErrorKind::LengthTooLarge { .. }),
        ),
        (Box::new(|f| set_location(f, ENTRY, 1, 1)), |k| {
            matches!(k, RegionErrorKind::OffsetInHeader { .. })
        }),
    ];
    for (n, (corrupt, is_kind)) in kinds.iter().enumerate() {
        let mut file = base.clone();
        corrupt(&mut file);
        let strict = open_err(file.clone());
        let (mut region, bad) = Region::from_bytes_lenient(file.clone()).unwrap();
        assert_eq!(bad.len(), 1, "kind {n}");
        assert!(is_kind(bad[0].kind()), "kind {n}: {}", bad[0]);
        assert_eq!(bad[0].to_string(), strict.to_string(), "kind {n}");
        let lost = bad[0].pos().unwrap();
        assert_eq!(region.chunks().count(), 2, "kind {n}");
        assert_eq!((lost.x, lost.z), (5, 2), "kind {n}");
        assert!(region.info(5, 2).is_none());
        assert_eq!(region.chunk(6, 2).unwrap().unwrap(), good, "kind {n}");
        // Removing it drops the entry, and nothing else.
        let mut dropped = Region::from_bytes_lenient(file.clone()).unwrap().0;
        assert!(
            dropped.remove_chunk(lost.x.into(), lost.z.into()),
            "kind {n}"
        );
        let (again, bad) = Region::from_bytes_lenient(dropped.as_bytes().to_vec()).unwrap();
        assert!(
            bad.is_empty() && again.chunks().eq(region.chunks()),
            "kind {n}"
        );
        // New chunks never land in what the bad entry claims in the file.
        let location =
            |f: &[u8], i: usize| u32::from_be_bytes(f[i * 4..i * 4 + 4].try_into().unwrap());
        let index = usize::from(lost.x) + 32 * usize::from(lost.z);
        let claimed = location(&file, index);
        let (start, count) = ((claimed >> 8) as usize, (claimed & 0xff) as usize);
        for z in 10..20 {
            region
                .write_chunk_at(1, z, &chunk_nbt(1, z, 50), ChunkCompression::Zlib, 7)
                .unwrap();
        }
        region.remove_chunk(6, 2);
        region
            .write_chunk_at(7, 7, &chunk_nbt(7, 7, 50), ChunkCompression::Zlib, 7)
            .unwrap();
        let now = region.as_bytes();
        let inside = start.max(2)..(start + count).min(file.len() / 4096);
        if n != 0 && !inside.is_empty() {
            let span = inside.start * 4096..inside.end * 4096;
            assert!(
                now[span.clone()] == file[span],
                "kind {n}: claimed sectors overwritten"
            );
        }
        if n == 0 {
            // The file grew into the sectors past its end: the entry went.
            assert_eq!(location(now, index), 0, "kind {n}");
        } else {
            assert_eq!(location(now, index), claimed, "kind {n}: the entry is kept");
        }
        let (back, _) = Region::from_bytes_lenient(now.to_vec()).unwrap();
        assert!(back.info(7, 7).is_some() && back.info(1, 19).is_some());
        // compact drops bad entries (their sectors are not carried over).
        region.compact();
        let (_, bad) = Region::from_bytes_lenient(region.as_bytes().to_vec()).unwrap();
        assert!(bad.is_empty(), "kind {n}: {bad:?}");
        assert_eq!(location(region.as_bytes(), index), 0, "kind {n}");
    }
}
