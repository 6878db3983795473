//! gzip/zlib/raw detection and inflation on every corpus file, file helpers,
//! and decompression bombs.
#![cfg(feature = "compression")]

use crate::support;

use std::io::Cursor;

use simdnbt::ReadOptions;
use simdnbt::compression::{self, Compression, Decompressed, InflateErrorKind, detect};
use support::zlib_bomb;

fn expected(file: &corpus::CorpusFile) -> Compression {
    match file.compressed {
        corpus::Compression::Gzip => Compression::Gzip,
        corpus::Compression::Zlib => Compression::Zlib,
        corpus::Compression::None => Compression::Raw,
    }
}

#[test]
fn detection_and_inflation_on_every_corpus_file() {
    let nbt_files = corpus::SHARED.iter().chain(corpus::REAL_WORLD);
    for file in nbt_files {
        let shipped = corpus::load_as_shipped(file.name).unwrap_or_else(|e| panic!("{e}"));
        let nbt = corpus::load(file.name).unwrap();
        assert_eq!(detect(shipped), expected(file), "{}", file.name);
        assert_eq!(detect(nbt), Compression::Raw, "{} inflated", file.name);
        assert_eq!(
            &*compression::decompress(shipped).unwrap(),
            nbt,
            "{}",
            file.name
        );
        // Our own writers, both formats, read back the same.
        for format in [Compression::Gzip, Compression::Zlib] {
            let packed = compression::compress(nbt, format);
            assert_eq!(detect(&packed), format, "{} as {format:?}", file.name);
            let file2 = Decompressed::from_bytes(&packed).unwrap();
            assert_eq!(file2.compression(), format);
            assert_eq!(file2.as_bytes(), nbt, "{} as {format:?}", file.name);
        }
    }
    for name in corpus::GENERATED {
        assert_eq!(
            detect(corpus::load(name).unwrap()),
            Compression::Raw,
            "{name}"
        );
    }
}

/// Every chunk of the real region file is zlib, detected from its first bytes.
#[test]
fn every_chunk_of_the_region_file_is_detected_as_zlib() {
    let region = corpus::load_as_shipped("1.19.4.mca").unwrap();
    let mut chunks = 0;
    for entry in 0..1024 {
        let location = u32::from_be_bytes(region[entry * 4..entry * 4 + 4].try_into().unwrap());
        if location == 0 {
            continue;
        }
        let at = (location >> 8) as usize * 4096;
        let len = u32::from_be_bytes(region[at..at + 4].try_into().unwrap()) as usize;
        assert_eq!(region[at + 4], 2, "entry {entry}: compression byte");
        let data = &region[at + 5..at + 4 + len];
        assert_eq!(detect(data), Compression::Zlib, "entry {entry}");
        let nbt = compression::decompress(data).unwrap();
        assert_eq!(detect(&nbt), Compression::Raw);
        chunks += 1;
    }
    assert_eq!(chunks, 676);
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("simdnbt-compression-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn file_helpers_round_trip_every_format() {
    let nbt = corpus::load("complex_player.dat").unwrap();
    let owned = simdnbt::owned::read(&mut Cursor::new(nbt)).unwrap();
    for format in [Compression::Gzip, Compression::Zlib, Compression::Raw] {
        let path = temp_path(&format!("player.{}", format.name()));
        compression::write_owned_file(&path, &owned, format).unwrap();
        let file = compression::read_file(&path).unwrap();
        assert_eq!(file.compression(), format);
        assert_eq!(&*file, nbt);
        assert_eq!(file.borrow().unwrap().to_owned(), owned);
        assert_eq!(compression::read_owned_file(&path).unwrap(), owned);
        compression::write_file(&path, nbt, format).unwrap();
        assert_eq!(compression::read_file(&path).unwrap().into_bytes(), nbt);
        std::fs::remove_file(&path).unwrap();
    }
    let err = compression::read_file(temp_path("does-not-exist.dat")).unwrap_err();
    assert!(matches!(err, compression::FileError::Io { .. }));
    assert!(err.to_string().contains("does-not-exist.dat"), "{err}");
}

#[test]
fn bad_files_give_clear_errors() {
    let path = temp_path("truncated.dat");
    let gz = compression::compress(corpus::load("bigtest.nbt").unwrap(), Compression::Gzip);
    std::fs::write(&path, &gz[..gz.len() / 2]).unwrap();
    let err = compression::read_file(&path).unwrap_err();
    assert!(
        matches!(&err, compression::FileError::Inflate(e) if *e.kind() == InflateErrorKind::Truncated),
        "{err}"
    );
    assert!(err.to_string().contains("gzip"), "{err}");
    // Inflates fine but is not NBT.
    std::fs::write(
        &path,
        compression::compress(b"\x0a\x00\x05ab", Compression::Zlib),
    )
    .unwrap();
    let err = compression::read_owned_file(&path).unwrap_err();
    assert!(matches!(err, compression::FileError::Nbt(_)), "{err}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn decompression_bomb_is_an_error() {
    let bomb = zlib_bomb(1024); // 1 GiB claimed
    assert!(bomb.len() < 4 << 20, "{}", bomb.len());
    assert_eq!(detect(&bomb), Compression::Zlib);
    let opts = ReadOptions::default().max_inflated_bytes(32 << 20);
    let err = compression::decompress_with(&bomb, &opts).unwrap_err();
    assert_eq!(err.kind(), &InflateErrorKind::TooLarge { limit: 32 << 20 });
    assert!(err.to_string().contains("limit"), "{err}");
    // max_bytes lowers the cap too.
    let opts = ReadOptions::default().max_bytes(2 << 20);
    let err = Decompressed::from_bytes_with(&bomb, &opts).unwrap_err();
    assert_eq!(err.kind(), &InflateErrorKind::TooLarge { limit: 2 << 20 });
    // Without the cap it would inflate to the end of its input: a smaller bomb
    // shows the stream really is that big.
    let small = zlib_bomb(3);
    let opts = ReadOptions::default().max_inflated_bytes(usize::MAX);
    let err = compression::decompress_with(&small, &opts).unwrap_err();
    assert_eq!(err.kind(), &InflateErrorKind::Truncated);
}
