//! Bedrock (little-endian) NBT: byte-exact round trips of the whole corpus, the
//! string re-encoding rules, the level.dat header, and — the walk being a
//! second pass over the format — the same answers as the readers on every
//! hostile case. (Thousands of corrupted corpus files go through the same
//! comparison in `fuzz-logic/tests/bedrock.rs`.)
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::bedrock::{
    split_level_header, to_big_endian, to_big_endian_prefix, to_big_endian_with, to_little_endian,
    write_level_header,
};
use simdnbt::{ErrorKind, ReadOptions, borrow, owned};

fn corpus() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names().map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

#[test]
fn every_corpus_file_goes_to_bedrock_and_back_byte_exact() {
    let mut files = 0;
    for (name, java) in corpus() {
        let le = to_little_endian(java).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = to_big_endian(&le).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "stringtest.nbt" {
            // Holds 4-byte UTF-8 in a Java string (not MUTF-8): Bedrock keeps
            // those bytes, and the way back re-encodes them as the surrogate
            // pairs Java means. From there on the trip is exact.
            assert_ne!(back, java);
            assert_eq!(
                to_big_endian(&to_little_endian(&back).unwrap()).unwrap(),
                back
            );
        } else {
            assert!(
                back == java,
                "{name}: Java -> Bedrock -> Java changed bytes"
            );
        }
        // The little-endian form really differs wherever a number is stored.
        assert_ne!(le, java, "{name}");
        files += 1;
    }
    assert!(files >= 20, "only {files} corpus files");
}

#[test]
fn the_bedrock_form_reads_as_the_same_document() {
    let mut files = 0;
    for (name, java) in corpus().filter(|(_, java)| java[0] == 10) {
        files += 1;
        let expected = owned::read(&mut Cursor::new(java)).unwrap();
        let le = to_little_endian(java).unwrap();
        let read = owned::read(&mut Cursor::new(&to_big_endian(&le).unwrap()[..])).unwrap();
        assert!(read == expected, "{name}");
    }
    assert!(files >= 20, "only {files} compound-rooted corpus files");
}

/// A document `{s: <raw string bytes>}` in the given byte order.
fn string_doc(raw: &[u8], little: bool) -> Vec<u8> {
    let len = raw.len() as u16;
    let mut v = vec![10, 0, 0, 8];
    v.extend_from_slice(&if little {
        1u16.to_le_bytes()
    } else {
        1u16.to_be_bytes()
    });
    v.push(b's');
    v.extend_from_slice(&if little {
        len.to_le_bytes()
    } else {
        len.to_be_bytes()
    });
    v.extend_from_slice(raw);
    v.push(0);
    v
}

#[test]
fn utf8_strings_become_mutf8_and_back() {
    for (text, mutf8) in [
        ("plain", &b"plain"[..]),
        ("a\0b", b"a\xC0\x80b"),
        ("😀!", b"\xED\xA0\xBD\xED\xB8\x80!"),
        ("Ünï", "Ünï".as_bytes()),
    ] {
        let le = string_doc(text.as_bytes(), true);
        let java = to_big_endian(&le).unwrap();
        assert_eq!(java, string_doc(mutf8, false), "{text:?}");
        let doc = borrow::read(&mut Cursor::new(&java[..])).unwrap().unwrap();
        assert_eq!(doc.string("s").unwrap().to_str(), text);
        assert_eq!(to_little_endian(&java).unwrap(), le, "{text:?} back");
    }
}

#[test]
fn strings_that_cannot_be_reencoded_keep_their_bytes() {
    // Not UTF-8: kept, and the way back restores it.
    let le = string_doc(b"\xFF\xFE", true);
    let java = to_big_endian(&le).unwrap();
    assert_eq!(java, string_doc(b"\xFF\xFE", false));
    assert_eq!(to_little_endian(&java).unwrap(), le);
    // An unpaired surrogate (valid for Java, not UTF-8): kept on the way to Bedrock.
    let java = string_doc(b"\xED\xA0\x80", false);
    let le = to_little_endian(&java).unwrap();
    assert_eq!(le, string_doc(b"\xED\xA0\x80", true));
    assert_eq!(to_big_endian(&le).unwrap(), java);
    // 16 384 emoji are 65 536 UTF-8 bytes... too long for the prefix; 16 383
    // (65 532 bytes) fit as UTF-8 but would need 98 298 as MUTF-8: kept as UTF-8.
    let text = "😀".repeat(16_383);
    let le = string_doc(text.as_bytes(), true);
    let java = to_big_endian(&le).unwrap();
    assert_eq!(java, string_doc(text.as_bytes(), false));
    assert_eq!(to_little_endian(&java).unwrap(), le);
}

#[test]
fn level_dat_header() {
    let java = corpus::load("level.dat").unwrap();
    let body = to_little_endian(java).unwrap();
    let mut file = Vec::new();
    write_level_header(10, &body, &mut file);
    let (header, rest) = split_level_header(&file).unwrap();
    assert_eq!((header.version, header.length as usize), (10, body.len()));
    assert_eq!(to_big_endian(rest).unwrap(), java);
    // A plain document is not a level.dat, nor is a header with the wrong length.
    assert!(split_level_header(java).is_none());
    assert!(split_level_header(&file[..file.len() - 1]).is_none());
    assert!(split_level_header(&file[..7]).is_none());
}

#[test]
fn several_roots_in_a_row() {
    let one = to_little_endian(corpus::load("hello_world.nbt").unwrap()).unwrap();
    let two = to_little_endian(corpus::load("bigtest.nbt").unwrap()).unwrap();
    let both = [&one[..], &two[..]].concat();
    let (first, used) = to_big_endian_prefix(&both).unwrap();
    assert_eq!(
        (first.as_slice(), used),
        (corpus::load("hello_world.nbt").unwrap(), one.len())
    );
    let (second, used) = to_big_endian_prefix(&both[used..]).unwrap();
    assert_eq!(
        (second.as_slice(), used),
        (corpus::load("bigtest.nbt").unwrap(), two.len())
    );
    // The whole-input functions refuse what follows the first root, saying where.
    let e = to_big_endian(&both).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::LengthExceedsInput, one.len())
    );
}

#[test]
fn every_hostile_case_fails_like_the_readers() {
    for case in testkit::hostile::cases() {
        let got = to_little_endian(&case.bytes).map(|le| le != [0]);
        case.expect.check(got, case.name);
    }
}

#[test]
fn little_endian_hostile_lengths_and_depth() {
    use ErrorKind::*;
    // {l: [Byte; -1]} and {l: [Compound; i32::MAX]} with little-endian counts.
    let negative = [10, 0, 0, 9, 1, 0, b'l', 1, 0xff, 0xff, 0xff, 0xff, 0];
    let e = to_big_endian(&negative).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (NegativeLength(-1), 8));
    let huge = [10, 0, 0, 9, 1, 0, b'l', 10, 0xff, 0xff, 0xff, 0x7f];
    let e = to_big_endian(&huge).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (LengthExceedsInput, 8));
    // 100 000 nested lists: refused at the limit, no recursion.
    let java = testkit::bytes::deep_lists(100_000);
    let le = {
        let mut v = java.clone();
        v[4..6].reverse(); // the length of the name "l"
        // The nested lists' counts (1) are the only multi-byte numbers: swap them.
        for level in 0..100_000 {
            let at = 7 + 5 * level + 1;
            if at + 4 <= v.len() {
                v[at..at + 4].reverse();
            }
        }
        v
    };
    let e = to_big_endian(&le).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (MaxDepthExceeded, 7 + 5 * 511));
    // A lower limit is honoured.
    let e = to_big_endian_with(&le, &ReadOptions::default().max_depth(3)).unwrap_err();
    assert_eq!(e.kind(), MaxDepthExceeded);
}

#[test]
fn many_roots_in_one_buffer() {
    // 50 000 little-endian Byte roots named "b": 5 bytes each.
    let one = [1u8, 1, 0, b'b', 7];
    let buffer: Vec<u8> = one.iter().copied().cycle().take(5 * 50_000).collect();
    let (mut at, mut roots) = (0, 0);
    while at < buffer.len() {
        let (java, used) = to_big_endian_prefix(&buffer[at..]).unwrap();
        assert_eq!((java.as_slice(), used), (&[1u8, 0, 1, b'b', 7][..], 5));
        at += used;
        roots += 1;
    }
    assert_eq!(roots, 50_000);
}
