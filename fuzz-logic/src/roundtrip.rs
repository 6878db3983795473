//! `roundtrip`: both readers agree, and write → read → write is exact.

use std::io::Cursor;

use simdnbt::{Error, borrow, owned};

use crate::generate;

/// Inputs whose first byte is at least this run the structured half: the rest
/// of the input drives [`generate`]. (Such a byte is no tag id, so the raw half
/// only sees an immediate rejection there; it still runs.)
pub const STRUCTURED_SELECTOR: u8 = 0xf0;

/// The `roundtrip` target: raw bytes through every root reader, and, when the
/// first byte is [`STRUCTURED_SELECTOR`] or more, a generated document through
/// write and both readers.
pub fn roundtrip(data: &[u8]) {
    raw_named(data);
    raw_unnamed(data);
    raw_tag(data);
    if data.first().is_some_and(|&b| b >= STRUCTURED_SELECTOR) {
        structured(&data[1..]);
    }
}

#[track_caller]
fn same_error(what: &str, b: &Error, o: &Error) {
    assert_eq!(
        (b.kind(), b.offset()),
        (o.kind(), o.offset()),
        "{what}: borrow and owned readers reject with different errors"
    );
}

/// `read` (disk form). Accepted input: the owned reader accepts it too with an
/// equal value, the owned write reproduces exactly the bytes consumed, reading
/// that again gives the same value, and the borrow writer agrees byte for byte.
pub fn raw_named(data: &[u8]) {
    let mut bc = Cursor::new(data);
    let mut oc = Cursor::new(data);
    let b = borrow::read(&mut bc);
    let o = owned::read(&mut oc);
    match (b, o) {
        (Ok(b), Ok(o)) => {
            assert_eq!(
                bc.position(),
                oc.position(),
                "read: cursor positions differ"
            );
            let consumed = &data[..bc.position() as usize];
            assert_eq!(b.to_owned(), o, "read: borrow.to_owned() != owned");
            let mut ow = Vec::new();
            o.write(&mut ow)
                .expect("read: a document the reader accepted must be writable");
            assert_eq!(ow, consumed, "read: write(read(bytes)) != bytes");
            let mut bw = Vec::new();
            b.write(&mut bw);
            assert_eq!(bw, ow, "read: borrow write != owned write");
            // write → read → same value → same bytes again.
            let again = owned::read(&mut Cursor::new(&ow[..])).expect("re-read of written bytes");
            assert_eq!(again, o, "read: value changed through write → read");
            let mut ow2 = Vec::new();
            again.write(&mut ow2).expect("re-write");
            assert_eq!(ow2, ow, "read: re-write is not byte-exact");
            // The network form of the same document.
            let mut un = Vec::new();
            o.write_unnamed(&mut un).expect("write_unnamed");
            let mut bun = Vec::new();
            b.write_unnamed(&mut bun);
            assert_eq!(bun, un, "read: borrow write_unnamed != owned write_unnamed");
            let back = borrow::read_unnamed(&mut Cursor::new(&un[..]))
                .expect("read_unnamed of write_unnamed");
            match (&o, back.to_owned()) {
                (owned::Nbt::Some(a), owned::Nbt::Some(b)) => {
                    assert_eq!(
                        a.clone().as_compound(),
                        b.as_compound(),
                        "unnamed round trip changed the compound"
                    )
                }
                (owned::Nbt::None, owned::Nbt::None) => {}
                (a, b) => panic!("unnamed round trip: {a:?} became {b:?}"),
            }
        }
        (Err(b), Err(o)) => same_error("read", &b, &o),
        (b, o) => panic!(
            "read: readers disagree on acceptance: borrow {:?}, owned {:?}",
            b.map(|_| ()),
            o.map(|_| ())
        ),
    }
}

/// `read_unnamed` (network form): same checks, against `write_unnamed`.
pub fn raw_unnamed(data: &[u8]) {
    let mut bc = Cursor::new(data);
    let mut oc = Cursor::new(data);
    let b = borrow::read_unnamed(&mut bc);
    let o = owned::read_unnamed(&mut oc);
    match (b, o) {
        (Ok(b), Ok(o)) => {
            assert_eq!(
                bc.position(),
                oc.position(),
                "read_unnamed: cursor positions differ"
            );
            let consumed = &data[..bc.position() as usize];
            assert_eq!(b.to_owned(), o, "read_unnamed: borrow.to_owned() != owned");
            let mut ow = Vec::new();
            o.write_unnamed(&mut ow)
                .expect("read_unnamed: accepted document must be writable");
            assert_eq!(
                ow, consumed,
                "read_unnamed: write_unnamed(read_unnamed(bytes)) != bytes"
            );
            let mut bw = Vec::new();
            b.write_unnamed(&mut bw);
            assert_eq!(bw, ow, "read_unnamed: borrow write != owned write");
            let again = owned::read_unnamed(&mut Cursor::new(&ow[..])).expect("re-read");
            assert_eq!(again, o, "read_unnamed: value changed through write → read");
            // The borrow reader's disk-form write of an unnamed document has an empty name.
            let mut disk = Vec::new();
            b.write(&mut disk);
            let d = owned::read(&mut Cursor::new(&disk[..])).expect("read of borrow write");
            if let (owned::Nbt::Some(d), owned::Nbt::Some(o)) = (&d, &o) {
                assert!(d.name().is_empty(), "unnamed document written with a name");
                assert_eq!(d.clone().as_compound(), o.clone().as_compound());
            }
        }
        (Err(b), Err(o)) => same_error("read_unnamed", &b, &o),
        (b, o) => panic!(
            "read_unnamed: readers disagree: borrow {:?}, owned {:?}",
            b.map(|_| ()),
            o.map(|_| ())
        ),
    }
}

/// `read_tag` and `read_optional_tag`: any root type.
pub fn raw_tag(data: &[u8]) {
    // read_optional_tag
    let mut bc = Cursor::new(data);
    let mut oc = Cursor::new(data);
    let b = borrow::read_optional_tag(&mut bc);
    let o = owned::read_optional_tag(&mut oc);
    match (&b, &o) {
        (Ok(Some(b)), Ok(Some(o))) => {
            assert_eq!(
                bc.position(),
                oc.position(),
                "read_optional_tag: cursor positions differ"
            );
            let consumed = &data[..bc.position() as usize];
            let bt = b.as_tag();
            assert_eq!(bt.id(), o.id(), "read_optional_tag: ids differ");
            assert_eq!(
                &bt.to_owned(),
                o,
                "read_optional_tag: borrow.to_owned() != owned"
            );
            let mut ow = Vec::new();
            o.write(&mut ow)
                .expect("read_optional_tag: accepted tag must be writable");
            assert_eq!(
                ow, consumed,
                "read_optional_tag: write(read(bytes)) != bytes"
            );
            let mut bw = Vec::new();
            bt.write(&mut bw);
            assert_eq!(bw, ow, "read_optional_tag: borrow write != owned write");
            let again = owned::read_tag(&mut Cursor::new(&ow[..])).expect("re-read");
            let mut ow2 = Vec::new();
            again.write(&mut ow2).expect("re-write");
            assert_eq!(ow2, ow, "read_optional_tag: re-write not byte-exact");
        }
        (Ok(None), Ok(None)) => {
            assert_eq!(bc.position(), oc.position());
            assert_eq!(
                data.first(),
                Some(&0),
                "Ok(None) from a root that is not End"
            );
        }
        (Err(b), Err(o)) => same_error("read_optional_tag", b, o),
        _ => panic!(
            "read_optional_tag: readers disagree: borrow {:?}, owned {:?}",
            b.as_ref().map(|t| t.is_some()),
            o.as_ref().map(|t| t.is_some())
        ),
    }
    // read_tag: the same, except that End is an error.
    let bt = borrow::read_tag(&mut Cursor::new(data));
    let ot = owned::read_tag(&mut Cursor::new(data));
    match (&bt, &ot, &o) {
        (Ok(_), Ok(_), Ok(Some(_))) => {}
        (Err(b), Err(e), Ok(None)) => {
            same_error("read_tag", b, e);
            assert_eq!(b.kind(), simdnbt::ErrorKind::InvalidRootType(0));
        }
        (Err(b), Err(e), Err(opt)) => {
            same_error("read_tag", b, e);
            same_error("read_tag vs read_optional_tag", b, opt);
        }
        _ => panic!(
            "read_tag disagrees: borrow {:?}, owned {:?}, optional {:?}",
            bt.as_ref().map(|_| ()),
            ot.as_ref().map(|_| ()),
            o.as_ref().map(|t| t.is_some())
        ),
    }
}

/// The structured half: a generated owned document → owned write → both readers
/// → equal to the original bit for bit; the borrow writer agrees byte for byte.
pub fn structured(data: &[u8]) {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(doc) = generate::document(&mut u) else {
        return;
    };
    check_document(&doc.nbt, doc.expect_write_error);
}

/// Writes `nbt` and checks that both readers give it back exactly.
/// `expect_error` is set when the generator made something the writer must refuse.
pub fn check_document(nbt: &owned::Nbt, expect_error: Option<simdnbt::WriteError>) {
    let mut bytes = Vec::new();
    let written = nbt.write(&mut bytes);
    match (written, expect_error) {
        (Ok(()), None) => {}
        (Err(e), Some(want)) => {
            assert_eq!(
                std::mem::discriminant(&e),
                std::mem::discriminant(&want),
                "writer refused with the wrong error"
            );
            return;
        }
        (Ok(()), Some(want)) => panic!("writer accepted a document it must refuse ({want:?})"),
        (Err(e), None) => panic!("writer refused a valid document: {e}"),
    }
    let b = borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap_or_else(|e| panic!("borrow reader rejects our own writer's output: {e}"));
    let o = owned::read(&mut Cursor::new(&bytes[..]))
        .unwrap_or_else(|e| panic!("owned reader rejects our own writer's output: {e}"));
    assert_eq!(&o, nbt, "owned read(write(doc)) != doc");
    assert_eq!(
        &b.to_owned(),
        nbt,
        "borrow read(write(doc)).to_owned() != doc"
    );
    let mut bw = Vec::new();
    b.write(&mut bw);
    assert_eq!(bw, bytes, "borrow write != owned write");
    // Network form.
    let mut un = Vec::new();
    nbt.write_unnamed(&mut un)
        .expect("write_unnamed after write succeeded");
    let back =
        owned::read_unnamed(&mut Cursor::new(&un[..])).expect("read_unnamed of write_unnamed");
    match (nbt, back) {
        (owned::Nbt::Some(a), owned::Nbt::Some(b)) => {
            assert_eq!(
                a.clone().as_compound(),
                b.as_compound(),
                "write_unnamed → read_unnamed changed the value"
            )
        }
        (owned::Nbt::None, owned::Nbt::None) => {}
        (a, b) => panic!("network round trip: {a:?} became {b:?}"),
    }
    // Every root value type through the tag form (1.20.3+ network).
    if let owned::Nbt::Some(doc) = nbt {
        for (_, tag) in doc.iter().take(4) {
            let mut tb = Vec::new();
            tag.write(&mut tb)
                .expect("a tag inside a writable document is writable");
            let t = owned::read_tag(&mut Cursor::new(&tb[..])).expect("read_tag of written tag");
            let mut tb2 = Vec::new();
            t.write(&mut tb2).unwrap();
            assert_eq!(tb2, tb, "tag round trip not byte-exact");
        }
    }
}
