//! `simdnbt::region::chunk` against fastanvil: every chunk of the corpus
//! region file gives the same block name at every sampled position.

use std::io::Cursor;

use fastanvil::Chunk as _;
use simdnbt::region::Region;
use simdnbt::region::chunk::Chunk;

#[test]
fn block_names_equal_fastanvils_on_every_chunk() {
    let file = corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"));
    let region = Region::from_bytes(file.to_vec()).unwrap();
    let (mut chunks, mut compared, mut blocks) = (0, 0u64, 0u64);
    for info in region.chunks() {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let bytes = region.chunk(x, z).unwrap().unwrap();
        let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        let ours =
            Chunk::from_nbt(&nbt.as_compound()).unwrap_or_else(|e| panic!("({x}, {z}): {e}"));
        let theirs = fastanvil::JavaChunk::from_bytes(&bytes).unwrap();
        for y in -80..336 {
            for bx in [0, 5, 10, 15] {
                for bz in 0..16 {
                    let a = ours.block(bx, y, bz);
                    let b = theirs.block(bx, y as isize, bz).map(|b| b.name());
                    assert_eq!(a, b, "chunk ({x}, {z}) block ({bx}, {y}, {bz})");
                    compared += 1;
                    blocks += u64::from(a.is_some());
                }
            }
        }
        chunks += 1;
    }
    eprintln!("{chunks} chunks, {compared} positions compared, {blocks} blocks");
    assert_eq!(chunks, 676);
    assert!(blocks > 1_000_000, "{blocks}");
}
