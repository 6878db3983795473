//! `region` and `inflate`: the region-file reader and writer, and compressed
//! input, under arbitrary bytes.

use std::io::Cursor;

use simdnbt::ReadOptions;
use simdnbt::compression::{self, Compression, InflateErrorKind, detect};
use simdnbt::region::{ChunkCompression, Region, RegionErrorKind};

/// The inflation cap the targets use: small, so that a bomb is found fast.
const CAP: usize = 1 << 20;

/// A cap far under the inflater's 4 KiB first buffer: the network quota
/// servers set with `max_bytes` (every cap must work, issue 26 item 1).
const SMALL_CAP: usize = 2000;

/// A region file from arbitrary bytes: opening either fails with an error, or
/// every listed chunk reads (or fails naming itself) within the cap; a compacted
/// copy and a rewritten copy read back the same chunks.
pub fn region(data: &[u8]) {
    lenient(data);
    let opened = match Region::from_bytes(data.to_vec()) {
        Ok(region) => region.with_options(ReadOptions::default().max_inflated_bytes(CAP)),
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let file_sectors = data.len().div_ceil(4096) as u32;
    let mut chunks = Vec::new();
    for info in opened.chunks() {
        assert!(
            info.sector >= 2 && info.sector + info.sectors <= file_sectors,
            "{info:?}"
        );
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let result = opened.chunk(x, z);
        match &result {
            Ok(Some(bytes)) => assert!(bytes.len() <= CAP, "chunk over the cap"),
            Ok(None) => panic!("listed chunk {} reads as absent", info.pos),
            Err(e) => {
                assert_eq!(e.pos(), Some(info.pos), "error names another chunk: {e}");
                let _ = e.to_string();
            }
        }
        // The network quota (a cap far under 4 KiB) answers the same, or
        // refuses a chunk over it, naming the chunk.
        let small = opened
            .clone()
            .with_options(ReadOptions::default().max_bytes(SMALL_CAP));
        match (&result, small.chunk(x, z)) {
            (Ok(Some(full)), Ok(Some(capped))) => assert_eq!(&capped, full),
            (Ok(Some(full)), Err(e)) => {
                assert!(full.len() > SMALL_CAP, "refused under the small cap: {e}");
                assert_eq!(e.pos(), Some(info.pos));
            }
            (Err(_), Err(e)) => assert_eq!(e.pos(), Some(info.pos)),
            (full, capped) => panic!("cap {CAP}: {full:?}; cap {SMALL_CAP}: {capped:?}"),
        }
        chunks.push((x, z, result.ok().flatten()));
    }
    assert_eq!(chunks.len(), opened.len());

    // Compaction moves chunks but changes none of them.
    let mut compacted = opened.clone();
    compacted.compact();
    let reopened = Region::from_bytes(compacted.as_bytes().to_vec())
        .expect("a compacted region must open")
        .with_options(ReadOptions::default().max_inflated_bytes(CAP));
    assert_eq!(compacted.as_bytes().len() % 4096, 0);
    for (x, z, bytes) in &chunks {
        let again = reopened.chunk(*x, *z).map_err(|e| e.to_string());
        if let Some(bytes) = bytes {
            assert_eq!(again.as_ref().ok().and_then(Option::as_ref), Some(bytes));
        }
    }

    // Rewriting valid chunks (a few, to keep runs fast) gives them back exactly.
    let mut rewritten = Region::new();
    let kinds = [
        ChunkCompression::Zlib,
        ChunkCompression::Lz4,
        ChunkCompression::Uncompressed,
    ];
    let mut written = Vec::new();
    for (i, (x, z, bytes)) in chunks.iter().enumerate().take(8) {
        let Some(bytes) = bytes else { continue };
        match rewritten.write_chunk_at(*x, *z, bytes, kinds[i % 3], 1) {
            Ok(()) => written.push((*x, *z, bytes)),
            Err(e) => assert!(matches!(e.kind(), RegionErrorKind::InvalidNbt(_)), "{e}"),
        }
    }
    let back = Region::from_bytes(rewritten.into_bytes()).expect("a written region must open");
    assert_eq!(back.len(), written.len());
    for (x, z, bytes) in written {
        assert_eq!(back.chunk(x, z).unwrap().as_ref(), Some(bytes));
    }
}

/// `Region::from_bytes_lenient`: it refuses only what is refused as a whole
/// (a file too short for its header); it gives the strict opening's chunks
/// when that opens, and else reports the entry the strict opening names
/// first; a chunk written into it leaves every other chunk's record and
/// what each bad entry claims inside the file as they were (an entry past
/// the end may be cleared once the file grows into it).
fn lenient(data: &[u8]) {
    let strict = Region::from_bytes(data.to_vec());
    let (mut region, bad) = match Region::from_bytes_lenient(data.to_vec()) {
        Ok(opened) => opened,
        Err(e) => {
            assert!(e.pos().is_none(), "a chunk's error refused the file: {e}");
            assert!(strict.is_err(), "lenient refused what strict opens");
            return;
        }
    };
    match &strict {
        Ok(s) => {
            assert!(bad.is_empty());
            assert!(s.chunks().eq(region.chunks()));
        }
        Err(e) => assert_eq!(bad.first().map(ToString::to_string), Some(e.to_string())),
    }
    // The bytes of sectors `s..s + n` (from sector 2: the header is not
    // a chunk's), as far as the file holds them.
    let sectors = |bytes: &[u8], s: u32, n: u32| {
        let start = s.max(2) as usize * 4096;
        let end = ((s + n) as usize * 4096).min(bytes.len());
        bytes
            .get(start..end)
            .map(<[u8]>::to_vec)
            .unwrap_or_default()
    };
    // Kept: what was there is still there (a written file is padded to
    // whole sectors, so it may go on).
    let kept = |old: &[u8], new: &[u8]| new.len() >= old.len() && &new[..old.len()] == old;
    let location = |bytes: &[u8], index: usize| {
        let at = index * 4;
        u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let before: Vec<_> = region
        .chunks()
        .map(|i| (i, sectors(data, i.sector, i.sectors)))
        .collect();
    let claimed: Vec<(usize, Vec<u8>)> = bad
        .iter()
        .filter_map(|e| e.pos())
        .map(|p| {
            let index = usize::from(p.x) + 32 * usize::from(p.z);
            let l = location(data, index);
            (index, sectors(data, l >> 8, l & 0xff))
        })
        .collect();
    let Some(free) = (0..1024).find(|&i| {
        region.info(i % 32, i / 32).is_none() && claimed.iter().all(|(c, _)| *c != i as usize)
    }) else {
        return;
    };
    let (x, z) = (free % 32, free / 32);
    let nbt = [0x0a, 0, 0, 1, 0, 1, b'v', 7, 0];
    region
        .write_chunk_at(x, z, &nbt, ChunkCompression::Zlib, 1)
        .expect("a chunk is written into a lenient region");
    let now = region.as_bytes();
    let (back, _) = Region::from_bytes_lenient(now.to_vec()).expect("a written region opens");
    assert_eq!(back.chunk(x, z).ok().flatten().as_deref(), Some(&nbt[..]));
    for (info, bytes) in before {
        let again = back.info(info.pos.x.into(), info.pos.z.into());
        assert_eq!(again, Some(info), "chunk {} moved or went", info.pos);
        let now = sectors(now, info.sector, info.sectors);
        assert!(kept(&bytes, &now), "chunk {} changed", info.pos);
    }
    for (index, bytes) in claimed {
        let l = location(now, index);
        if l != 0 {
            let now = sectors(now, l >> 8, l & 0xff);
            assert!(kept(&bytes, &now), "a bad entry's sectors were overwritten");
        }
    }
}

/// Arbitrary bytes as a compressed (or raw) NBT file: inflation stays under the
/// cap or fails cleanly, what inflates parses or fails cleanly, and the bytes
/// themselves survive a gzip and a zlib round trip through our writers.
pub fn inflate(data: &[u8]) {
    let opts = ReadOptions::default().max_inflated_bytes(CAP);
    let format = detect(data);
    match compression::decompress_with(data, &opts) {
        Ok(nbt) => {
            assert!(nbt.len() <= CAP);
            if format == Compression::Raw {
                assert_eq!(&*nbt, data);
            }
            let _ = simdnbt::borrow::read(&mut Cursor::new(&nbt[..]));
        }
        Err(e) => {
            let _ = e.to_string();
            assert_eq!(e.format(), format);
            if format == Compression::Raw {
                assert!(matches!(e.kind(), InflateErrorKind::TooLarge { .. }));
            }
            assert!(e.offset() <= data.len(), "{e}");
        }
    }
    // Every cap answers as the large one does, as far as it reaches: the same
    // bytes when they fit, TooLarge when they do not, an error when the
    // stream is broken.
    let full = compression::decompress_with(data, &opts);
    for cap in [0, 1, 497, SMALL_CAP, 4095] {
        let capped =
            compression::decompress_with(data, &ReadOptions::default().max_inflated_bytes(cap));
        match (&full, capped) {
            (Ok(full), Ok(capped)) => assert_eq!(*capped, **full, "cap {cap}"),
            (Ok(full), Err(e)) => {
                assert!(
                    full.len() > cap,
                    "cap {cap} refused {} bytes: {e}",
                    full.len()
                );
                assert_eq!(e.kind(), &InflateErrorKind::TooLarge { limit: cap });
            }
            (Err(_), Err(_)) => {}
            (Err(e), Ok(capped)) => panic!(
                "cap {cap} read {} bytes the 1 MiB cap refused: {e}",
                capped.len()
            ),
        }
    }
    // What libdeflate inflates (the `libdeflate` feature) is what zlib-rs
    // inflates, whenever zlib-rs reads the stream at all: libdeflate is more
    // lenient in places (a zlib header's window size), never different.
    if let Ok(ours) = &full {
        if format != Compression::Raw {
            if let Some(theirs) = zlib_rs_inflate(data, format, CAP) {
                assert!(
                    theirs == **ours,
                    "libdeflate and zlib-rs inflate differently"
                );
            }
        }
    }
    let unlimited = ReadOptions::default().max_inflated_bytes(usize::MAX);
    for format in [Compression::Gzip, Compression::Zlib] {
        let packed = compression::compress(data, format);
        assert_eq!(detect(&packed), format);
        let back = compression::decompress_with(&packed, &unlimited).unwrap();
        assert_eq!(&*back, data, "{format:?} round trip");
    }
}

/// `data` inflated by zlib-rs through flate2 (at most `cap` bytes), or
/// `None` if it refuses the stream or it inflates past `cap`.
fn zlib_rs_inflate(data: &[u8], format: Compression, cap: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    let read = match format {
        Compression::Gzip => flate2::read::GzDecoder::new(data)
            .take(cap as u64 + 1)
            .read_to_end(&mut out),
        _ => flate2::read::ZlibDecoder::new(data)
            .take(cap as u64 + 1)
            .read_to_end(&mut out),
    };
    (read.is_ok() && out.len() <= cap).then_some(out)
}

/// `{xPos: x, zPos: z, data: [B; len]}`, a small chunk-like document.
fn chunk_doc(x: i32, z: i32, len: usize) -> Vec<u8> {
    let mut root = simdnbt::owned::NbtCompound::new();
    root.insert("xPos", simdnbt::owned::NbtTag::Int(x));
    root.insert("zPos", simdnbt::owned::NbtTag::Int(z));
    let data = (0..len).map(|i| (i % 7) as u8).collect();
    root.insert("data", simdnbt::owned::NbtTag::ByteArray(data));
    let mut bytes = Vec::new();
    simdnbt::owned::Nbt::new("".into(), root)
        .write(&mut bytes)
        .expect("small document");
    bytes
}

/// Seeds for `region`: small region files with a chunk in each compression,
/// an external-chunk entry, and damaged copies (each header check once).
pub fn region_seeds() -> Vec<(String, Vec<u8>)> {
    let mut region = Region::new();
    let kinds = [
        ChunkCompression::Gzip,
        ChunkCompression::Zlib,
        ChunkCompression::Uncompressed,
        ChunkCompression::Lz4,
    ];
    for (i, kind) in kinds.into_iter().enumerate() {
        let i = i as i32;
        region
            .write_chunk_at(i, i, &chunk_doc(i, i, 200), kind, 1_700_000_000)
            .expect("valid chunk");
    }
    let good = region.into_bytes();
    let mut seeds = vec![("region-four-kinds".to_owned(), good.clone())];
    let mut damaged = |name: &str, edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = good.clone();
        edit(&mut bytes);
        seeds.push((format!("region-{name}"), bytes));
    };
    damaged("external", &|b| b[2 * 4096 + 4] |= 0x80);
    damaged("in-header", &|b| {
        b[0..4].copy_from_slice(&(1u32 << 8 | 1).to_be_bytes())
    });
    damaged("past-end", &|b| {
        b[0..4].copy_from_slice(&(90u32 << 8 | 1).to_be_bytes())
    });
    damaged("overlap", &|b| {
        let second = b[33 * 4..33 * 4 + 4].to_vec();
        b[0..4].copy_from_slice(&second);
    });
    damaged("zero-length", &|b| b[2 * 4096..2 * 4096 + 4].fill(0));
    damaged("long-length", &|b| b[2 * 4096..2 * 4096 + 4].fill(0x7f));
    damaged("unknown-compression", &|b| b[2 * 4096 + 4] = 127);
    damaged("unpadded", &|b| b.truncate(b.len() - 100));
    seeds.push(("region-empty".to_owned(), Vec::new()));
    seeds
}

/// Seeds for `inflate`: small documents as gzip and zlib, and a zlib stream
/// that inflates past the cap.
pub fn inflate_seeds() -> Vec<(String, Vec<u8>)> {
    let doc = chunk_doc(1, 2, 3000);
    let mut seeds = vec![
        ("raw".to_owned(), doc.clone()),
        (
            "gzip".to_owned(),
            compression::compress(&doc, Compression::Gzip),
        ),
        (
            "zlib".to_owned(),
            compression::compress(&doc, Compression::Zlib),
        ),
        (
            "zlib-store".to_owned(),
            compression::compress_with_level(&doc, Compression::Zlib, 0),
        ),
    ];
    let zeros = vec![0u8; CAP + 1];
    seeds.push((
        "zlib-over-cap".to_owned(),
        compression::compress(&zeros, Compression::Zlib),
    ));
    seeds
}
