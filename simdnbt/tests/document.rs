//! The document model: every corpus file read → write byte-exact, and agreement
//! with the owned tree.

use std::io::Cursor;

use simdnbt::{document, owned};

#[test]
fn corpus_read_write_is_byte_exact() {
    for name in corpus::all_names() {
        let bytes = corpus::load(name).unwrap();
        let form = document::Form::Named;
        let doc = document::read_root(&mut Cursor::new(bytes), form, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap();
        let out = doc.to_bytes();
        assert!(out == bytes, "{name}: write differs");
        let mut payload = Vec::new();
        doc.root().write_payload(&mut payload);
        let header = 3 + doc.name().len();
        assert!(payload == bytes[header..], "{name}: payload write differs");
        if name != "stringtest.nbt" {
            let o = owned::read(&mut Cursor::new(bytes)).unwrap().unwrap();
            assert!(
                doc.as_compound().unwrap().to_owned() == *o,
                "{name}: to_owned"
            );
        }
    }
}

/// `n` bytes from a xorshift generator seeded with `seed`.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The unnamed form (id, payload) of a named document.
fn unnamed(named: &[u8]) -> Vec<u8> {
    let name_len = u16::from_be_bytes([named[1], named[2]]) as usize;
    let mut v = vec![named[0]];
    v.extend_from_slice(&named[3 + name_len..]);
    v
}

#[test]
fn random_edits_agree_with_the_owned_tree_on_every_corpus_file() {
    let mut total = 0;
    for name in corpus::all_names() {
        let bytes = unnamed(corpus::load(name).unwrap());
        // Each edit compares whole documents: a few scripts on the
        // megabyte files.
        let scripts = if bytes.len() > 100_000 { 1 } else { 12 };
        let edits = if bytes.len() > 100_000 { 8 } else { 60 };
        for seed in 0..scripts {
            let data = noise(seed + 1, 4096);
            let mut src = testkit::edit::Source::new(&data);
            let compact = (seed % 3) as usize * 7;
            total += testkit::edit::check_random_edits(&bytes, &mut src, edits, compact);
        }
    }
    assert!(total > 1000, "only {total} edits ran");
}
