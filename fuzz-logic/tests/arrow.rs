//! The `arrow_scan` target's logic on stable: the chunk target's seeds
//! (built chunks of every shape) and chunks of the corpus region.

use simdnbt::region::Region;
use simdnbt_fuzz_logic::arrow_scan;
use simdnbt_fuzz_logic::chunk::seeds;

#[test]
fn seeds_and_corpus_chunks() {
    for (name, bytes) in seeds().into_iter().step_by(9) {
        eprintln!("{name}");
        arrow_scan(&bytes);
    }
    let region =
        Region::from_bytes(corpus::load_as_shipped("1.19.4.mca").unwrap().to_vec()).unwrap();
    for info in region.chunks().step_by(97) {
        let bytes = region
            .chunk(i32::from(info.pos.x), i32::from(info.pos.z))
            .unwrap()
            .unwrap();
        arrow_scan(&bytes);
    }
    for name in [
        "1.12.chunk",
        "chunk1.14.nbt",
        "21w44a-test1.nbt",
        "complex_player.dat",
    ] {
        arrow_scan(corpus::load(name).unwrap());
    }
    // Every prefix of a small chunk: cut anywhere, no panic.
    let chunk = corpus::load("chunk1.14.nbt").unwrap();
    for cut in (0..chunk.len()).step_by(997) {
        arrow_scan(&chunk[..cut]);
    }
}
