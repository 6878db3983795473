//! The region readers of `benches/region.rs` agree chunk by chunk, and our LZ4
//! chunks agree with lz4-java-wrc (fastanvil's codec for lz4-java's format) in
//! both directions.

use std::io::{Cursor, Read, Write};

use compare::region::*;
use simdnbt::region::{ChunkCompression, Region};

fn region_file() -> &'static [u8] {
    corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_reader_reads_the_same_bytes() {
    let file = region_file();
    let total = simdnbt_inflate(file);
    assert!(total > 10_000_000, "{total}");
    assert_eq!(fastanvil_inflate(file), total);
    assert_eq!(valence_inflate(file), total);
    let chunks = zlib_chunks(file);
    assert_eq!(chunks.len(), 676);
    assert_eq!(inflate_zlib_rs(&chunks), total);
    assert_eq!(inflate_miniz_oxide(&chunks), total);
}

#[test]
fn every_chunk_equals_fastanvils() {
    let file = region_file();
    let ours = Region::from_bytes(file.to_vec()).unwrap();
    let mut theirs = fastanvil::Region::from_stream(Cursor::new(file)).unwrap();
    let mut n = 0;
    for z in 0..32 {
        for x in 0..32 {
            let a = ours.chunk(x as i32, z as i32).unwrap();
            let b = theirs.read_chunk(x, z).unwrap();
            assert_eq!(a, b, "chunk ({x}, {z})");
            n += usize::from(a.is_some());
        }
    }
    assert_eq!(n, 676);
}

/// The stored bytes of chunk (0, 0) of a region we wrote.
fn stored_data(region: &Region) -> Vec<u8> {
    let file = region.as_bytes();
    let location = u32::from_be_bytes(file[0..4].try_into().unwrap());
    let at = (location >> 8) as usize * 4096;
    let len = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    file[at + 5..at + 4 + len].to_vec()
}

#[test]
fn lz4_chunks_agree_with_lz4_java_wrc() {
    // Real chunks of several sizes, so blocks of 64 KiB and the tail both occur.
    let chunks = inflated_chunks(region_file());
    let mut sizes: Vec<&Vec<u8>> = chunks.iter().collect();
    sizes.sort_by_key(|c| c.len());
    for nbt in [sizes[0], sizes[sizes.len() / 2], sizes[sizes.len() - 1]] {
        // Ours → theirs.
        let mut region = Region::new();
        region
            .write_chunk(0, 0, nbt, ChunkCompression::Lz4)
            .unwrap();
        let ours = stored_data(&region);
        let mut decoded = Vec::new();
        lz4_java_wrc::Lz4BlockInput::new(&ours[..])
            .read_to_end(&mut decoded)
            .unwrap();
        assert!(
            &decoded == nbt,
            "lz4-java-wrc decodes our stream differently"
        );

        // Theirs → ours: a region file holding their stream as compression 4.
        let mut theirs = Vec::new();
        {
            let mut w = lz4_java_wrc::Lz4BlockOutput::new(&mut theirs);
            w.write_all(nbt).unwrap();
            w.flush().unwrap();
        }
        let mut file = vec![0u8; 8192];
        let sectors = (5 + theirs.len()).div_ceil(4096);
        file[0..4].copy_from_slice(&(2u32 << 8 | sectors as u32).to_be_bytes());
        file.extend_from_slice(&(1 + theirs.len() as u32).to_be_bytes());
        file.push(4);
        file.extend_from_slice(&theirs);
        file.resize((2 + sectors) * 4096, 0);
        let region = Region::from_bytes(file).unwrap();
        assert!(
            region.chunk(0, 0).unwrap().as_ref() == Some(nbt),
            "we decode lz4-java-wrc's stream differently"
        );
    }
}
