//! Replays of the `region` and `inflate` targets: their seeds, every cut of the
//! region seeds' headers, real region chunks and compressed corpus files.

use simdnbt_fuzz_logic::files::{inflate_seeds, region_seeds};
use simdnbt_fuzz_logic::{inflate, region};

#[test]
fn region_seeds_replay() {
    let seeds = region_seeds();
    assert!(seeds.len() >= 10);
    for (name, bytes) in &seeds {
        eprintln!("region: {name}");
        region(bytes);
    }
    // Truncations of the good seed, every 61st byte: headers and chunks cut anywhere.
    let good = &seeds[0].1;
    for cut in (0..good.len()).step_by(61) {
        region(&good[..cut]);
    }
}

#[test]
fn real_region_replays() {
    let bytes = corpus::load_as_shipped("1.19.4.mca").unwrap();
    region(bytes);
}

#[test]
fn inflate_seeds_replay() {
    for (name, bytes) in inflate_seeds() {
        eprintln!("inflate: {name}");
        inflate(&bytes);
        for cut in (0..bytes.len()).step_by(97) {
            inflate(&bytes[..cut]);
        }
    }
    for file in corpus::SHARED {
        inflate(corpus::load_as_shipped(file.name).unwrap());
    }
}
