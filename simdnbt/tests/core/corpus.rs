//! Every file of the shared and generated corpus: both readers, both writers,
//! byte-exact round trips, and borrow/owned agreement.

use std::io::Cursor;

use simdnbt::{ErrorKind, borrow, owned};

/// Files whose root is a compound (all but stringtest.nbt, whose root is a List).
fn compound_root_files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names()
        .filter(|name| *name != "stringtest.nbt")
        .map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

#[test]
fn borrow_read_then_write_is_byte_exact() {
    for (name, bytes) in compound_root_files() {
        let mut cursor = Cursor::new(bytes);
        let nbt = borrow::read(&mut cursor).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            cursor.position() as usize,
            bytes.len(),
            "{name}: read to the end"
        );
        let nbt = nbt.unwrap();
        let mut out = Vec::new();
        nbt.write(&mut out);
        assert!(out == bytes, "{name}: borrow write (copy) differs");

        // The tape-walking writer re-encodes every tag; it must agree too.
        let mut payload = Vec::new();
        nbt.as_compound().write(&mut payload);
        let header = 3 + nbt.name().len();
        assert!(
            payload == bytes[header..],
            "{name}: borrow compound write differs"
        );
    }
}

#[test]
fn owned_read_then_write_is_byte_exact() {
    for (name, bytes) in compound_root_files() {
        let mut cursor = Cursor::new(bytes);
        let nbt = owned::read(&mut cursor).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            cursor.position() as usize,
            bytes.len(),
            "{name}: read to the end"
        );
        let mut out = Vec::new();
        nbt.write(&mut out).unwrap();
        assert!(out == bytes, "{name}: owned write differs");
    }
}

#[test]
fn borrow_to_owned_equals_owned_read() {
    for (name, bytes) in compound_root_files() {
        let b = borrow::read(&mut Cursor::new(bytes)).unwrap();
        let o = owned::read(&mut Cursor::new(bytes)).unwrap();
        assert!(b.to_owned() == o, "{name}");
        assert!(b.is_some() && o.is_some());
    }
}

#[test]
fn stringtest_has_a_list_root() {
    // stringtest.nbt is a named List root: `read` wants a compound and says so.
    let bytes = corpus::load("stringtest.nbt").unwrap();
    let err = borrow::read(&mut Cursor::new(bytes)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRootType(9));
    assert_eq!(err.offset(), 0);
    // Its payload reads as an unnamed tag once the name is skipped.
    let name_len = u16::from_be_bytes([bytes[1], bytes[2]]) as usize;
    let mut unnamed = vec![bytes[0]];
    unnamed.extend_from_slice(&bytes[3 + name_len..]);
    let tag = borrow::read_tag(&mut Cursor::new(&unnamed[..])).unwrap();
    let list = tag.as_tag().list().expect("a list");
    assert!(!list.is_empty());
    let mut out = Vec::new();
    tag.as_tag().write(&mut out);
    assert_eq!(out, unnamed);
    let o = owned::read_tag(&mut Cursor::new(&unnamed[..])).unwrap();
    let mut out2 = Vec::new();
    o.write(&mut out2).unwrap();
    assert_eq!(out2, unnamed);
}
