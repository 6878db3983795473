//! `bedrock`: both Bedrock forms (little-endian and network VarInt) under
//! arbitrary bytes, on the one validating core.

use std::io::Cursor;

use simdnbt::bedrock::{
    self, from_network, split_level_header, to_big_endian, to_little_endian, to_network,
};
use simdnbt::document::Document;
use simdnbt::{Error, ErrorKind, borrow, owned};

/// Arbitrary bytes as a Java document, a little-endian one and a network one.
///
/// - As Java bytes, [`to_little_endian`] must answer exactly as
///   [`borrow::read`] does: accept the same inputs, and fail with the same kind
///   at the same offset. Trailing bytes, which the reader leaves to the
///   caller, are the transcoder's `LengthExceedsInput` where the reader
///   stopped.
/// - As little-endian or network bytes, the owned builder reading that form
///   directly and the transcoder to Java answer alike (same document, or
///   same error kind and offset); a document that transcodes reads as Java,
///   goes back to its form and again to Java unchanged (every accepted input
///   exact on its second trip).
/// - As little-endian bytes, the document ([`bedrock::document::read_le`])
///   answers as the owned reader does (same values, cursor, or error kind
///   and offset), writes back what it read (the input itself, or its trip
///   through Java when a string had to be converted), is exact on its
///   second trip, and after an edit writes what the owned tree with the
///   same edit holds.
/// - As network bytes, the document ([`bedrock::document::read_network`])
///   answers as the owned network reader does, writes the network form of
///   what it read (the owned tree's bytes), is exact on its second trip, and
///   after an edit writes the owned tree's bytes with the same edit.
pub fn bedrock(data: &[u8]) {
    agrees_with_reader(data);
    document_le(data);
    document_network(data);
    bedrock_form(
        data,
        to_big_endian,
        to_little_endian,
        bedrock::owned::read_le,
    );
    bedrock_form(data, from_network, to_network, bedrock::owned::read_network);
    if let Some((header, body)) = split_level_header(data) {
        assert_eq!(header.length as usize, body.len());
    }
    // Detection never panics, and names a form only when it reads whole.
    let form = bedrock::detect(data);
    if form == bedrock::DetectedForm::Network {
        assert!(from_network(data).is_ok());
    }
}

fn document_le(data: &[u8]) {
    let (mut c1, mut c2) = (Cursor::new(data), Cursor::new(data));
    let read = bedrock::document::read_le(&mut c1);
    let kept = bedrock::document::from_vec_le(data.to_vec());
    match (&read, &kept) {
        (Ok(a), Ok(b)) => assert!(a == b, "read_le and from_vec_le disagree"),
        (Err(a), Err(b)) => assert_eq!((a.kind(), a.offset()), (b.kind(), b.offset())),
        _ => panic!("read_le and from_vec_le disagree"),
    }
    let owned = bedrock::owned::read_le(&mut c2);
    let Some((mut doc, nbt)) = same_answer(read, owned, &c1, &c2, "LE") else {
        return;
    };
    let input = &data[..c1.position() as usize];
    let first = doc.to_bytes();
    if first != input {
        // Converted as a whole: what the trip through Java gives.
        let java = to_big_endian(input).expect("read above");
        assert_eq!(
            first,
            to_little_endian(&java).expect("and back"),
            "converted write"
        );
    }
    let again = bedrock::document::read_le(&mut Cursor::new(&first[..]))
        .expect("a written document reads")
        .expect("a compound");
    assert_eq!(again.to_bytes(), first, "second trip");
    // One edit on each side.
    let owned::Nbt::Some(mut expected) = nbt else {
        return;
    };
    if doc.as_compound_mut().unwrap().set("fuzz", 1i32).is_err() {
        return;
    }
    expected.insert("fuzz", 1i32);
    let edited = doc.to_bytes();
    let back = bedrock::owned::read_le(&mut Cursor::new(&edited[..])).expect("an edit writes");
    assert!(
        back == owned::Nbt::Some(expected),
        "the edit differs from the owned tree's"
    );
}

fn document_network(data: &[u8]) {
    let (mut c1, mut c2) = (Cursor::new(data), Cursor::new(data));
    let read = bedrock::document::read_network(&mut c1);
    let owned = bedrock::owned::read_network(&mut c2);
    let Some((mut doc, nbt)) = same_answer(read, owned, &c1, &c2, "network") else {
        return;
    };
    let first = doc.to_bytes();
    let mut want = Vec::new();
    bedrock::owned::write_network(&nbt, &mut want).expect("a read tree writes");
    assert_eq!(
        first, want,
        "the document and the owned tree write different bytes"
    );
    let again = bedrock::document::read_network(&mut Cursor::new(&first[..]))
        .expect("a written document reads")
        .expect("a compound");
    assert_eq!(again.to_bytes(), first, "second trip");
    let owned::Nbt::Some(mut expected) = nbt else {
        return;
    };
    if doc.as_compound_mut().unwrap().set("fuzz", -1i64).is_err() {
        return;
    }
    expected.insert("fuzz", -1i64);
    let mut want = Vec::new();
    bedrock::owned::write_network(&owned::Nbt::Some(expected), &mut want).expect("writes");
    assert_eq!(
        doc.to_bytes(),
        want,
        "the edit differs from the owned tree's"
    );
}

/// Checks that a document reader and the owned reader of the same form
/// answered alike (the same values and cursor, or the same error kind and
/// offset); the document and the tree when there is one.
fn same_answer(
    doc: Result<Option<Document>, Error>,
    nbt: Result<owned::Nbt, Error>,
    doc_cursor: &Cursor<&[u8]>,
    owned_cursor: &Cursor<&[u8]>,
    form: &str,
) -> Option<(Document, owned::Nbt)> {
    match (doc, nbt) {
        (Ok(doc), Ok(nbt)) => {
            assert_eq!(doc_cursor.position(), owned_cursor.position(), "{form}");
            let values = doc
                .as_ref()
                .map(|d| d.to_owned_nbt())
                .unwrap_or(owned::Nbt::None);
            assert!(
                values == nbt,
                "the document and the owned {form} read disagree"
            );
            doc.map(|doc| (doc, nbt))
        }
        (Err(d), Err(o)) => {
            assert_eq!(
                (d.kind(), d.offset()),
                (o.kind(), o.offset()),
                "{form} document vs owned"
            );
            None
        }
        (d, o) => panic!(
            "{form} document {:?} vs owned {:?}",
            d.map(|_| ()).map_err(|e| e.kind()),
            o.map(|_| ()).map_err(|e| e.kind())
        ),
    }
}

type Transcode = fn(&[u8]) -> Result<Vec<u8>, Error>;
type ReadOwned = fn(&mut Cursor<&[u8]>) -> Result<owned::Nbt, Error>;

fn bedrock_form(data: &[u8], to_java: Transcode, from_java: Transcode, read: ReadOwned) {
    let transcoded = to_java(data);
    if let Ok(java) = &transcoded {
        if matches!(java.first(), Some(0 | 10)) {
            let mut cursor = Cursor::new(&java[..]);
            borrow::read(&mut cursor).expect("the Java form of a Bedrock document reads");
            assert_eq!(cursor.position() as usize, java.len());
        }
        let again = from_java(java).expect("the Java form goes back to Bedrock");
        assert_eq!(&to_java(&again).expect("and to Java again"), java);
    } else if let Err(e) = &transcoded {
        assert!(e.offset() <= data.len(), "{e:?} past the input");
    }
    // The owned reader takes a compound or End root, and leaves what follows.
    if !matches!(data.first(), Some(0 | 10)) {
        return;
    }
    let mut cursor = Cursor::new(data);
    match (read(&mut cursor), &transcoded) {
        (Ok(nbt), Ok(java)) => {
            assert_eq!(cursor.position() as usize, data.len());
            let want = owned::read(&mut Cursor::new(&java[..])).expect("read above");
            assert!(nbt == want, "the owned read and the transcoder disagree");
        }
        (Ok(_), Err(t)) => assert_eq!(
            (t.kind(), t.offset()),
            (ErrorKind::LengthExceedsInput, cursor.position() as usize),
            "the owned reader accepted what the transcoder refused"
        ),
        (Err(o), Err(t)) => assert_eq!(
            (o.kind(), o.offset()),
            (t.kind(), t.offset()),
            "owned reader and transcoder disagree"
        ),
        (Err(o), Ok(_)) => panic!("the owned reader said {o}, the transcoder accepted"),
    }
}

fn agrees_with_reader(data: &[u8]) {
    let mut cursor = Cursor::new(data);
    let reader = borrow::read(&mut cursor).map(|_| cursor.position() as usize);
    let walk = to_little_endian(data);
    match (reader, walk) {
        // Roots the disk reader refuses by type (the transcoder takes any
        // root), and compressed input it names.
        (Err(r), _)
            if matches!(
                r.kind(),
                ErrorKind::InvalidRootType(_)
                    | ErrorKind::GzipCompressed
                    | ErrorKind::ZlibCompressed
            ) => {}
        (Ok(end), Ok(_)) => assert_eq!(end, data.len(), "the walk took trailing bytes"),
        (Ok(end), Err(w)) => assert_eq!(
            (w.kind(), w.offset()),
            (ErrorKind::LengthExceedsInput, end),
            "the reader accepted a document the walk refused"
        ),
        (Err(r), Err(w)) => assert_eq!(
            (w.kind(), w.offset()),
            (r.kind(), r.offset()),
            "walk and reader disagree"
        ),
        (Err(r), Ok(_)) => panic!("the reader said {r}, the walk accepted"),
    }
}
