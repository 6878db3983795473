//! The floor of a world-wide `nbt set` that changes every chunk: what no
//! edit can avoid, and nothing else. Every region file of `WORLD/region` is
//! read, every zlib chunk inflated once and its NBT deflated once, at the
//! same level and with the same codec as `nbt set` (libdeflate in the CLI).
//! No parse, no edit, no check, no write. Run it under `/usr/bin/time -v`
//! beside `nbt set WORLD DataVersion 3700 [--level N]` and compare CPU
//! seconds (user + sys).
//!
//! ```text
//! cargo build --release -p compare-codecs --bin set-floor
//! /usr/bin/time -v target/release/set-floor WORLD [LEVEL] [CODEC] [--inflate-only]
//! ```
//!
//! `LEVEL` defaults to 6 (Minecraft's), `CODEC` to `libdeflate` (or
//! `zlib-rs`, `zlib-ng`). `--inflate-only`: every chunk inflated, nothing
//! deflated (the floor of `check`). With a second codec for the output
//! (`CODEC,OUT`, e.g. `libdeflate,lz4`), each chunk's NBT is encoded with
//! OUT instead: `lz4` (lz4-java's block stream, the library's encoder) or
//! `none` — the floor of `nbt convert --region-compression` (that encoder
//! also reads the NBT once with the borrow reader, as convert does). Chunks
//! not in zlib (a converted world) are decoded by the library.

use compare_codecs::{Codec, Codecs};
use simdnbt::region::{ChunkCompression, EncodedChunk, Region};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inflate_only = args.iter().any(|a| a == "--inflate-only");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let world = std::path::Path::new(
        args.first()
            .expect("usage: set-floor WORLD [LEVEL] [CODEC[,OUT]]"),
    );
    let level: u32 = args.get(1).map_or(6, |l| l.parse().expect("LEVEL"));
    let (name, out) = args
        .get(2)
        .map_or(("libdeflate", None), |c| match c.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (c.as_str(), None),
        });
    let codec = Codec::from_name(name).expect("CODEC: libdeflate, zlib-rs or zlib-ng");
    let out = out.map(|o| match o {
        "lz4" => ChunkCompression::Lz4,
        "none" => ChunkCompression::Uncompressed,
        "zlib" => ChunkCompression::Zlib,
        _ => panic!("OUT: lz4, none or zlib"),
    });

    let mut codecs = Codecs::new();
    let mut nbt = Vec::new();
    let mut packed = Vec::new();
    let (mut chunks, mut nbt_bytes, mut packed_bytes) = (0usize, 0usize, 0usize);
    let mut files: Vec<_> = std::fs::read_dir(world.join("region"))
        .expect("WORLD/region")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mca"))
        .collect();
    files.sort();
    for file in &files {
        let bytes = std::fs::read(file).expect("region file");
        let zlib = compare_codecs::zlib_chunks(&bytes);
        // Chunks in another compression (after `nbt convert`): decoded by
        // the library (LZ4, uncompressed), then encoded as asked. An
        // all-zlib file is not opened as a `Region` (nothing but the codec).
        let listed = bytes[..4096.min(bytes.len())]
            .chunks_exact(4)
            .filter(|e| e != &[0; 4])
            .count();
        let region =
            (listed != zlib.len()).then(|| Region::from_bytes(bytes.clone()).expect("region file"));
        let others: Vec<_> = region
            .iter()
            .flat_map(|r| r.chunks())
            .filter(|i| i.compression != Some(ChunkCompression::Zlib))
            .collect();
        let decoded = zlib.into_iter().map(Ok).chain(others.into_iter().map(Err));
        for chunk in decoded {
            let n = match chunk {
                Ok(data) => codecs.inflate_unknown(codec, data, &mut nbt),
                Err(info) => {
                    let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
                    let region = region.as_ref().expect("opened for its non-zlib chunks");
                    region.chunk_into(x, z, &mut nbt).expect("chunk");
                    nbt.len()
                }
            };
            chunks += 1;
            nbt_bytes += n;
            if inflate_only {
                continue;
            }
            match out {
                None | Some(ChunkCompression::Zlib) => {
                    codecs.deflate(codec, level, &nbt[..n], &mut packed);
                    packed_bytes += packed.len();
                }
                Some(kind) => {
                    // The library's encoder; `EncodedChunk` also reads the
                    // NBT once with the borrow reader, which a real convert
                    // does too (it checks what it stores).
                    let chunk = EncodedChunk::new(&nbt[..n], kind).expect("valid chunk");
                    packed_bytes += chunk.data().len();
                }
            }
        }
    }
    eprintln!(
        "{} files, {chunks} chunks, {nbt_bytes} bytes of NBT -> {packed_bytes} bytes ({}, level {level})",
        files.len(),
        codec.name()
    );
}
