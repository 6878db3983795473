//! The document reader (`simdnbt::document`) against the borrow reader: in
//! every cursor form they must give the same document (compared by what each
//! writes back), or the same error kind at the same offset, and leave the
//! cursor at the same place.

use std::io::Cursor;

use simdnbt::document::{self, Document};
use simdnbt::{Error, ErrorKind, ReadOptions, borrow};

/// What a read answered: the bytes it writes back (`None` for an End root),
/// or the error's kind and offset; and where the cursor was left.
pub type Answer = (Result<Option<Vec<u8>>, (ErrorKind, usize)>, u64);

fn answer<T>(r: Result<Option<T>, Error>, bytes: impl Fn(T) -> Vec<u8>, pos: u64) -> Answer {
    (
        r.map(|t| t.map(bytes)).map_err(|e| (e.kind(), e.offset())),
        pos,
    )
}

fn doc_bytes(d: Document) -> Vec<u8> {
    d.to_bytes()
}

/// Reads `input` with `document::read_with`, `read_unnamed_with` and
/// `read_optional_tag_with` and with their borrow counterparts under `opts`,
/// and asserts that each pair answers alike; `what` names the input in the
/// message.
#[track_caller]
pub fn agree(input: &[u8], opts: &ReadOptions, what: &str) {
    let (mut dc, mut bc) = (Cursor::new(input), Cursor::new(input));
    let d = answer(document::read_with(&mut dc, opts), doc_bytes, dc.position());
    let b = borrow::read_with(&mut bc, opts).map(|n| match n {
        borrow::Nbt::Some(n) => {
            let mut out = Vec::new();
            n.write(&mut out);
            Some(out)
        }
        borrow::Nbt::None => None,
    });
    let b = answer(b, |v| v, bc.position());
    assert_eq!(d, b, "{what}: read");

    let (mut dc, mut bc) = (Cursor::new(input), Cursor::new(input));
    let d = answer(
        document::read_unnamed_with(&mut dc, opts),
        doc_bytes,
        dc.position(),
    );
    let b = borrow::read_unnamed_with(&mut bc, opts).map(|n| match n {
        borrow::Nbt::Some(n) => {
            let mut out = Vec::new();
            n.write_unnamed(&mut out);
            Some(out)
        }
        borrow::Nbt::None => None,
    });
    let b = answer(b, |v| v, bc.position());
    assert_eq!(d, b, "{what}: read_unnamed");

    let (mut dc, mut bc) = (Cursor::new(input), Cursor::new(input));
    let d = answer(
        document::read_optional_tag_with(&mut dc, opts),
        doc_bytes,
        dc.position(),
    );
    let b = borrow::read_optional_tag_with(&mut bc, opts).map(|t| {
        t.map(|t| {
            let mut out = Vec::new();
            t.as_tag().write(&mut out);
            out
        })
    });
    let b = answer(b, |v| v, bc.position());
    assert_eq!(d, b, "{what}: read_optional_tag");
}
