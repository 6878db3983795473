//! `bedrock`: the little-endian transcoder under arbitrary bytes.

use std::io::Cursor;

use simdnbt::bedrock::{split_level_header, to_big_endian, to_little_endian};
use simdnbt::{ErrorKind, borrow};

/// Arbitrary bytes as a Java document and as a Bedrock one.
///
/// - As Java bytes, [`to_little_endian`] must answer exactly as
///   [`borrow::read`] does: accept the same inputs, and fail with the same kind
///   at the same offset (it is a second walk over the format, so this is what
///   keeps the two in step). Trailing bytes, which the reader leaves to the
///   caller, are the walk's `LengthExceedsInput` where the reader stopped.
/// - As Bedrock bytes, a successful [`to_big_endian`] gives a document the
///   reader accepts, which goes back to Bedrock and again to Java unchanged.
pub fn bedrock(data: &[u8]) {
    agrees_with_reader(data);
    if let Ok(java) = to_big_endian(data) {
        if matches!(java.first(), Some(0 | 10)) {
            let mut cursor = Cursor::new(&java[..]);
            borrow::read(&mut cursor).expect("the Java form of a Bedrock document reads");
            assert_eq!(cursor.position() as usize, java.len());
        }
        let le = to_little_endian(&java).expect("the Java form goes back to Bedrock");
        assert_eq!(to_big_endian(&le).expect("and to Java again"), java);
    } else if let Err(e) = to_big_endian(data) {
        assert!(e.offset() <= data.len(), "{e:?} past the input");
    }
    if let Some((header, body)) = split_level_header(data) {
        assert_eq!(header.length as usize, body.len());
    }
}

fn agrees_with_reader(data: &[u8]) {
    let mut cursor = Cursor::new(data);
    let reader = borrow::read(&mut cursor).map(|_| cursor.position() as usize);
    let walk = to_little_endian(data);
    match (reader, walk) {
        // Roots the disk reader refuses by type (the walk takes any root), and
        // compressed input it names.
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
