//! `nbt convert --region-compression`: chunks stored again in another
//! compression, their NBT bytes unchanged, on copies of the corpus region.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use simdnbt::region::{ChunkCompression, Region};
use tempfile::TempDir;

fn nbt() -> Command {
    Command::cargo_bin("nbt").expect("the nbt binary is built")
}

/// Every chunk's position, timestamp, compression and NBT bytes.
type Chunks = BTreeMap<(u8, u8), (u32, Option<ChunkCompression>, Vec<u8>)>;

fn chunks(path: &Path) -> Chunks {
    let region = Region::open(path).unwrap();
    region
        .chunks()
        .map(|i| {
            let nbt = region
                .chunk(i32::from(i.pos.x), i32::from(i.pos.z))
                .unwrap()
                .unwrap();
            ((i.pos.x, i.pos.z), (i.timestamp, i.compression, nbt))
        })
        .collect()
}

/// A world holding two copies of the corpus region; returns the folder.
fn world(dir: &TempDir) -> PathBuf {
    let w = dir.path().join("world");
    std::fs::create_dir_all(w.join("region")).unwrap();
    let region = corpus::load_as_shipped("1.19.4.mca").unwrap();
    for name in ["r.0.0.mca", "r.1.0.mca"] {
        std::fs::write(w.join("region").join(name), region).unwrap();
    }
    w
}

/// `before` with every chunk in `kind`: the same timestamps and NBT bytes.
fn all_in(before: &Chunks, kind: ChunkCompression) -> Chunks {
    before
        .iter()
        .map(|(&pos, (time, _, nbt))| (pos, (*time, Some(kind), nbt.clone())))
        .collect()
}

#[test]
fn lz4_and_back_keeps_every_chunks_nbt() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let file = w.join("region/r.0.0.mca");
    let before = chunks(&file);
    assert_eq!(before.len(), 676);
    assert!(before.values().all(|c| c.1 == Some(ChunkCompression::Zlib)));
    let original = std::fs::read(&file).unwrap();

    nbt()
        .args(["convert", "--region-compression", "lz4"])
        .arg(&w)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "2 region files, 1352 chunks: converted 1352 to lz4 in 2 files; 0 failed",
        ));
    for name in ["r.0.0.mca", "r.1.0.mca"] {
        let now = chunks(&w.join("region").join(name));
        assert!(now == all_in(&before, ChunkCompression::Lz4), "{name}");
    }

    nbt()
        .args(["convert", "--region-compression", "zlib"])
        .arg(&file)
        .assert()
        .success();
    assert!(chunks(&file) == before);
    // Packed: not larger than the original (libdeflate's level 6 is a
    // little smaller than the zlib that wrote it).
    assert!(std::fs::metadata(&file).unwrap().len() <= original.len() as u64);
    // Timestamps table kept byte for byte.
    assert_eq!(
        std::fs::read(&file).unwrap()[4096..8192],
        original[4096..8192]
    );

    // Already zlib: nothing to do, the file untouched.
    let bytes = std::fs::read(&file).unwrap();
    nbt()
        .args(["convert", "--region-compression", "zlib"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[test]
fn one_chunk_others_byte_for_byte() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let file = w.join("region/r.0.0.mca");
    let before = chunks(&file);
    let old = Region::open(&file).unwrap();
    let &(x, z) = before.keys().nth(100).unwrap();

    // --dry-run: checked, nothing written.
    let bytes = std::fs::read(&file).unwrap();
    nbt()
        .args([
            "convert",
            "--region-compression",
            "none",
            "--dry-run",
            "--chunk",
        ])
        .arg(format!("{x},{z}"))
        .arg(&file)
        .assert()
        .success();
    assert_eq!(std::fs::read(&file).unwrap(), bytes);

    nbt()
        .args([
            "convert",
            "--region-compression",
            "none",
            "--backup",
            "--chunk",
        ])
        .arg(format!("{x},{z}"))
        .arg(&file)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(w.join("region/r.0.0.mca.bak")).unwrap(),
        bytes
    );
    let now = chunks(&file);
    let new = Region::open(&file).unwrap();
    for (pos, (time, kind, nbt)) in &before {
        let (t, k, n) = &now[pos];
        assert_eq!((t, n), (time, nbt), "{pos:?}");
        let (ix, iz) = (i32::from(pos.0), i32::from(pos.1));
        if *pos == (x, z) {
            assert_eq!(*k, Some(ChunkCompression::Uncompressed));
        } else {
            assert_eq!(k, kind);
            let (a, b) = (old.info(ix, iz).unwrap(), new.info(ix, iz).unwrap());
            assert_eq!(a, b, "{pos:?} header entry");
            let record = |r: &Region, i: simdnbt::region::ChunkInfo| {
                let start = i.sector as usize * 4096;
                r.as_bytes()[start..start + i.sectors as usize * 4096].to_vec()
            };
            assert_eq!(record(&old, a), record(&new, b), "{pos:?} sectors");
        }
    }
}

/// A chunk document of about `len` bytes of zeros in a byte array: over 1
/// MiB uncompressed, a few KiB as zlib.
fn big_chunk(len: usize) -> Vec<u8> {
    let mut nbt = vec![0x0a, 0, 0, 0x07, 0, 1, b'a'];
    nbt.extend_from_slice(&(len as u32).to_be_bytes());
    nbt.resize(nbt.len() + len, 0);
    nbt.extend_from_slice(&[0x03, 0, 4, b'x', b'P', b'o', b's', 0, 0, 0, 5, 0]);
    nbt
}

#[test]
fn external_chunks_come_inline_and_are_not_written() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("r.0.0.mca");
    let nbt_big = big_chunk(1_500_000);
    let mut region = Region::new().with_external_dir(dir.path(), 0, 0);
    region
        .write_chunk_at(
            5,
            6,
            &nbt_big,
            ChunkCompression::Uncompressed,
            1_700_000_000,
        )
        .unwrap();
    region
        .write_chunk_at(1, 1, &big_chunk(10), ChunkCompression::Zlib, 1_700_000_001)
        .unwrap();
    region.save(&path).unwrap();
    let mcc = dir.path().join("c.5.6.mcc");
    assert!(mcc.exists());
    assert!(Region::open(&path).unwrap().info(5, 6).unwrap().external);
    let before = chunks(&path);

    // As zlib the big chunk fits in the region: stored there, its .mcc
    // file removed once the region is replaced.
    nbt()
        .args(["convert", "--region-compression", "zlib"])
        .arg(&path)
        .assert()
        .success();
    assert!(!mcc.exists());
    let now = chunks(&path);
    assert!(now == all_in(&before, ChunkCompression::Zlib));
    assert!(!Region::open(&path).unwrap().info(5, 6).unwrap().external);

    // Back to none it would need an external file: refused, unchanged.
    let bytes = std::fs::read(&path).unwrap();
    nbt()
        .args(["convert", "--region-compression", "none"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("needs an external .mcc file"));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(!mcc.exists());
}

/// Nothing lost: a world-wide convert ended part way, by a failed write and
/// by an abort (as a kill would), leaves every region file old or new: the
/// one named is the original, byte for byte. The failure is injected with
/// `NBT_TEST_FAIL_BEFORE_RENAME` (see `cli/src/store.rs`), as for `set` in
/// `world.rs`.
#[test]
fn an_interrupted_convert_loses_nothing() {
    let done = TempDir::new().unwrap();
    let w = world(&done);
    let old = std::fs::read(w.join("region/r.0.0.mca")).unwrap();
    nbt()
        .args(["convert", "--region-compression", "lz4"])
        .arg(&w)
        .assert()
        .success();
    let new = std::fs::read(w.join("region/r.0.0.mca")).unwrap();
    assert_ne!(old, new);

    for (rule, code) in [("error:r.1.0.mca", Some(2)), ("abort:r.1.0.mca", None)] {
        let dir = TempDir::new().unwrap();
        let w = world(&dir);
        let out = nbt()
            .args(["convert", "--region-compression", "lz4"])
            .arg(&w)
            .env("NBT_TEST_FAIL_BEFORE_RENAME", rule)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), code, "{rule}");
        if code.is_some() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("failure injected"), "{stderr}");
        }
        assert_eq!(
            std::fs::read(w.join("region/r.1.0.mca")).unwrap(),
            old,
            "{rule}"
        );
        let other = std::fs::read(w.join("region/r.0.0.mca")).unwrap();
        assert!(other == old || other == new, "{rule}: r.0.0.mca is neither");
        for entry in std::fs::read_dir(w.join("region")).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                // The abort's temporary file: a whole, valid new region.
                assert!(rule.starts_with("abort"), "{name}");
                let tmp = std::fs::read(w.join("region").join(&name)).unwrap();
                assert_eq!(tmp, new, "{name}");
            }
        }
    }
}
