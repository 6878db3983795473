//! The pull reader that serde reads through (`simdnbt/src/read/pull.rs`)
//! against the push readers: on the whole corpus, the hostile table, every
//! truncation and many byte flips of complex_player.dat, in both root forms
//! and under tight limits, a walk that pulls every event ends where the
//! borrow reader ends or fails with its error kind at its offset; and serde
//! itself reports the reader's error for every invalid input, whatever the
//! type it reads into.

use std::io::Cursor;

use simdnbt::ReadOptions;
use simdnbt::serde::{__pull_walk, Options, from_slice_with};

/// The borrow reader (one push parse of the core): where the document ends.
fn push(bytes: &[u8], options: &Options, read: &ReadOptions) -> Result<usize, simdnbt::Error> {
    let mut c = Cursor::new(bytes);
    if is_network(options) {
        simdnbt::borrow::read_optional_tag_with(&mut c, read).map(|_| c.position() as usize)
    } else {
        simdnbt::borrow::read_with(&mut c, read).map(|_| c.position() as usize)
    }
}

fn is_network(options: &Options) -> bool {
    format!("{options:?}").contains("network: true")
}

/// The walk and the push reader agree on `bytes`; so does serde's error.
#[track_caller]
fn agree(bytes: &[u8], read: ReadOptions, what: &str) {
    for options in [Options::new(), Options::new().network()] {
        let options = options.read_options(read);
        let pulled = __pull_walk(bytes, &options);
        let pushed = push(bytes, &options, &read);
        match (&pulled, &pushed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{what} ({options:?}): end"),
            (Err(a), Err(b)) => assert_eq!(
                (a.kind(), a.offset()),
                (b.kind(), b.offset()),
                "{what} ({options:?}): error"
            ),
            _ => panic!("{what} ({options:?}): pull {pulled:?}, push {pushed:?}"),
        }
        // serde pulls what the type asks for; an invalid document is the
        // reader's error whatever the type.
        if let Err(b) = pushed {
            for e in [
                from_slice_with::<serde::de::IgnoredAny>(bytes, &options).err(),
                from_slice_with::<serde_json::Value>(bytes, &options).err(),
                from_slice_with::<simdnbt::owned::NbtTag>(bytes, &options).err(),
            ] {
                let e = e.unwrap_or_else(|| panic!("{what}: serde accepted an invalid document"));
                let r = e
                    .read_error()
                    .unwrap_or_else(|| panic!("{what}: {e} is not the reader's error"));
                assert_eq!(
                    (r.kind(), r.offset()),
                    (b.kind(), b.offset()),
                    "{what}: serde"
                );
            }
        }
    }
}

fn limits(len: usize) -> [ReadOptions; 4] {
    [
        ReadOptions::default(),
        ReadOptions::default().max_depth(2),
        ReadOptions::default().max_depth(0),
        ReadOptions::default().max_bytes(len / 2),
    ]
}

#[test]
fn the_whole_corpus() {
    let mut n = 0;
    for name in corpus::all_names() {
        let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for read in limits(bytes.len()) {
            agree(bytes, read, name);
        }
        n += 1;
    }
    assert!(n > 10, "the corpus has {n} files");
}

#[test]
fn the_hostile_table() {
    // `serde_json::Value` recurses once per level, up to the depth limit (512
    // by default), before a too-deep document fails: a big stack for it.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            for case in testkit::hostile::cases() {
                for read in limits(case.bytes.len()) {
                    agree(&case.bytes, read, case.name);
                }
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn truncations_and_byte_flips_of_complex_player() {
    let bytes = corpus::load("complex_player.dat").unwrap();
    let read = ReadOptions::default();
    for cut in 0..bytes.len() {
        agree(&bytes[..cut], read, &format!("cut at {cut}"));
    }
    // Every byte replaced by values that break ids, lengths and counts.
    let mut flipped = bytes.to_vec();
    for i in 0..bytes.len() {
        for v in [0x00, 0x0c, 0x0d, 0x7f, 0x80, 0xff, bytes[i] ^ 1] {
            flipped[i] = v;
            agree(&flipped, read, &format!("byte {i} = {v:#04x}"));
        }
        flipped[i] = bytes[i];
    }
}
