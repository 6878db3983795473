//! Reading every chunk of a region file, three ways, for `benches/region.rs`
//! and `tests/region.rs`. Each reader returns the total of inflated NBT bytes
//! it parsed, so the benches and tests can check they all did the same work.
//!
//! | reader | region + inflate | parse |
//! |---|---|---|
//! | `simdnbt_borrow` | `simdnbt::region::Region::from_bytes` (copies the file once), `chunk_into` one reused buffer | `borrow::read`: tape, strings left as MUTF-8 |
//! | `simdnbt_owned` | same | `owned::read`: a full tree |
//! | `fastanvil_fastnbt` | `fastanvil::Region::from_stream(Cursor)`, `read_chunk` (a new `Vec` per chunk, through flate2's `write::ZlibDecoder`) | `fastnbt::from_bytes::<fastnbt::Value>`: a full tree, strings decoded |
//! | `valence` | valence_anvil 0.2's steps, reimplemented (its reader is private and needs bevy): copy the chunk out, flate2 `bufread::ZlibDecoder::read_to_end` into one reused buffer | `valence_nbt::from_binary`: a full tree, strings decoded |
//!
//! All three inflate with the same code in this build: Cargo unifies flate2's
//! features, and simdnbt turns on `zlib-rs`, which flate2 then uses for
//! everyone. On their own, fastanvil and valence_anvil get flate2's default
//! miniz_oxide; [`inflate_miniz_oxide`] measures what that costs.

use std::hint::black_box;
use std::io::{Cursor, Read};

use simdnbt::region::Region;

/// Every present chunk's stored (compressed) data, straight from the header:
/// for the inflate-only benches.
pub fn zlib_chunks(file: &[u8]) -> Vec<&[u8]> {
    let mut chunks = Vec::new();
    for entry in 0..1024 {
        let location = u32::from_be_bytes(file[entry * 4..entry * 4 + 4].try_into().unwrap());
        if location == 0 {
            continue;
        }
        let at = (location >> 8) as usize * 4096;
        let len = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        assert_eq!(file[at + 4], 2, "the benches expect zlib chunks");
        chunks.push(&file[at + 5..at + 4 + len]);
    }
    chunks
}

/// Every chunk, inflated (for the parse-only benches).
pub fn inflated_chunks(file: &[u8]) -> Vec<Vec<u8>> {
    let region = Region::from_bytes(file.to_vec()).expect("a valid region");
    region
        .chunks()
        .map(|i| {
            region
                .chunk(i.pos.x.into(), i.pos.z.into())
                .unwrap()
                .unwrap()
        })
        .collect()
}

fn each_ours(file: &[u8], mut parse: impl FnMut(&[u8])) -> usize {
    let region = Region::from_bytes(file.to_vec()).expect("a valid region");
    let mut buf = Vec::new();
    let mut total = 0;
    for info in region.chunks() {
        region
            .chunk_into(info.pos.x.into(), info.pos.z.into(), &mut buf)
            .expect("chunk inflates");
        parse(&buf);
        total += buf.len();
    }
    total
}

/// simdnbt: inflate each chunk, parse it with the borrow reader.
pub fn simdnbt_borrow(file: &[u8]) -> usize {
    each_ours(file, |nbt| {
        black_box(simdnbt::borrow::read(&mut Cursor::new(nbt)).expect("chunk parses"));
    })
}

/// simdnbt: inflate each chunk, parse it into an owned tree.
pub fn simdnbt_owned(file: &[u8]) -> usize {
    each_ours(file, |nbt| {
        black_box(simdnbt::owned::read(&mut Cursor::new(nbt)).expect("chunk parses"));
    })
}

/// simdnbt: inflate only.
pub fn simdnbt_inflate(file: &[u8]) -> usize {
    each_ours(file, |nbt| {
        black_box(nbt);
    })
}

fn each_fastanvil(file: &[u8], mut parse: impl FnMut(&[u8])) -> usize {
    let mut region = fastanvil::Region::from_stream(Cursor::new(file)).expect("a valid region");
    let mut total = 0;
    for z in 0..32 {
        for x in 0..32 {
            if let Some(nbt) = region.read_chunk(x, z).expect("chunk inflates") {
                parse(&nbt);
                total += nbt.len();
            }
        }
    }
    total
}

/// fastanvil 0.32 `read_chunk` + fastnbt 2.6 into `fastnbt::Value`.
pub fn fastanvil_fastnbt(file: &[u8]) -> usize {
    each_fastanvil(file, |nbt| {
        black_box(fastnbt::from_bytes::<fastnbt::Value>(nbt).expect("chunk parses"));
    })
}

/// fastanvil: inflate only.
pub fn fastanvil_inflate(file: &[u8]) -> usize {
    each_fastanvil(file, |nbt| {
        black_box(nbt);
    })
}

fn each_valence(file: &[u8], mut parse: impl FnMut(&[u8])) -> usize {
    let header = &file[..8192];
    let mut inflated = Vec::new();
    let mut total = 0;
    for index in 0..1024 {
        let location = u32::from_be_bytes(header[index * 4..index * 4 + 4].try_into().unwrap());
        if location == 0 {
            continue;
        }
        let at = (location >> 8) as usize * 4096;
        let len = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        // valence_anvil reads the chunk into a fresh boxed slice, then inflates it.
        let stored: Box<[u8]> = file[at + 4..at + 4 + len].into();
        assert_eq!(stored[0], 2);
        inflated.clear();
        flate2::bufread::ZlibDecoder::new(&stored[1..])
            .read_to_end(&mut inflated)
            .expect("chunk inflates");
        parse(&inflated);
        total += inflated.len();
    }
    total
}

/// valence_anvil's steps + valence_nbt 0.8 `from_binary`.
pub fn valence(file: &[u8]) -> usize {
    each_valence(file, |nbt| {
        black_box(valence_nbt::from_binary::<String>(&mut &nbt[..]).expect("chunk parses"));
    })
}

/// valence_anvil's steps: inflate only.
pub fn valence_inflate(file: &[u8]) -> usize {
    each_valence(file, |nbt| {
        black_box(nbt);
    })
}

/// One-shot zlib inflate of each chunk with miniz_oxide directly (flate2's
/// default backend), into a fresh `Vec` sized by miniz_oxide.
pub fn inflate_miniz_oxide(chunks: &[&[u8]]) -> usize {
    chunks
        .iter()
        .map(|c| {
            let out = miniz_oxide::inflate::decompress_to_vec_zlib(c).expect("chunk inflates");
            black_box(&out);
            out.len()
        })
        .sum()
}

/// One-shot zlib inflate of each chunk with simdnbt (flate2 on zlib-rs).
pub fn inflate_zlib_rs(chunks: &[&[u8]]) -> usize {
    chunks
        .iter()
        .map(|c| {
            let out = simdnbt::compression::decompress(c).expect("chunk inflates");
            black_box(&out);
            out.len()
        })
        .sum()
}
