//! The document model read from Bedrock's little-endian form directly
//! (`simdnbt::bedrock::document`): byte-exact round trips of the whole
//! corpus in both byte orders, the same values and errors as
//! `bedrock::owned`, the string rules, and edits.
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::Encoding;
use simdnbt::bedrock::{self, document as le_doc, to_big_endian, to_little_endian};
use simdnbt::document::{Document, Framing};
use simdnbt::{ErrorKind, ReadOptions, owned};

fn corpus() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names().map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

/// The document `le` reads into, both ways (copied and kept), and where the
/// copying reader left the cursor.
fn read(le: &[u8]) -> (Result<Option<Document>, simdnbt::Error>, u64) {
    let mut cursor = Cursor::new(le);
    let copied = le_doc::read_le(&mut cursor);
    let kept = le_doc::from_vec_le(le.to_vec());
    match (&copied, &kept) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "read_le and from_vec_le disagree"),
        (Err(a), Err(b)) => assert_eq!((a.kind(), a.offset()), (b.kind(), b.offset())),
        _ => panic!("read_le and from_vec_le disagree: {copied:?} / {kept:?}"),
    }
    (copied, cursor.position())
}

#[test]
fn every_corpus_file_reads_from_little_endian_and_writes_back_byte_exact() {
    let mut files = 0;
    for (name, java) in corpus().filter(|(_, java)| java[0] == 10) {
        let le = to_little_endian(java).unwrap();
        let (doc, end) = read(&le);
        let doc = doc.unwrap_or_else(|e| panic!("{name}: {e}")).unwrap();
        assert_eq!(end, le.len() as u64, "{name}");
        assert_eq!(doc.encoding(), Encoding::LittleEndian, "{name}");
        assert!(
            doc.to_bytes() == le,
            "{name}: LE -> document -> LE changed bytes"
        );
        // The Java form is the Java original (stringtest.nbt holds 4-byte UTF-8
        // in a Java string, which Bedrock keeps and Java re-encodes: there
        // the trip through LE is what the document must give).
        let mut java_out = Vec::new();
        doc.write_in(Framing::Named, Encoding::BigEndian, &mut java_out);
        assert!(
            java_out == to_big_endian(&le).unwrap(),
            "{name}: LE -> document -> Java"
        );
        if name != "stringtest.nbt" {
            assert!(
                java_out == java,
                "{name}: Java -> LE -> document -> Java changed bytes"
            );
        }
        // The same values as the owned model's little-endian read.
        let expected = bedrock::owned::read_le(&mut Cursor::new(&le[..])).unwrap();
        assert!(
            doc.to_owned_nbt() == expected,
            "{name}: values differ from bedrock::owned"
        );
        files += 1;
    }
    assert!(files >= 20, "only {files} compound-rooted corpus files");
}

#[test]
fn accessors_decode_little_endian() {
    let mut c = owned::NbtCompound::new();
    c.insert("b", 1i8);
    c.insert("s", -2i16);
    c.insert("i", 0x0102_0304i32);
    c.insert("l", -5i64);
    c.insert("f", 1.5f32);
    c.insert("d", -2.25f64);
    c.insert("str", "Ünïcode");
    c.insert("ba", owned::NbtTag::ByteArray(vec![1, 2]));
    c.insert("ia", owned::NbtTag::IntArray(vec![1, -2, 3]));
    c.insert("la", owned::NbtTag::LongArray(vec![i64::MIN, 7]));
    c.insert("li", owned::NbtList::Int(vec![5, 6]));
    c.insert("ld", owned::NbtList::Double(vec![0.5]));
    c.insert("lia", owned::NbtList::IntArray(vec![vec![9, 10]]));
    let mut inner = owned::NbtCompound::new();
    inner.insert("x", 3i32);
    c.insert("lc", owned::NbtList::Compound(vec![inner]));
    let nbt = owned::Nbt::Some(owned::BaseNbt::new("root", c));
    let mut le = Vec::new();
    bedrock::owned::write_le(&nbt, &mut le).unwrap();
    let doc = le_doc::read_le(&mut Cursor::new(&le[..])).unwrap().unwrap();
    assert_eq!(doc.name().to_str(), "root");
    assert_eq!(doc.byte("b"), Some(1));
    assert_eq!(doc.short("s"), Some(-2));
    assert_eq!(doc.int("i"), Some(0x0102_0304));
    assert_eq!(doc.long("l"), Some(-5));
    assert_eq!(doc.float("f"), Some(1.5));
    assert_eq!(doc.double("d"), Some(-2.25));
    assert_eq!(doc.string("str").unwrap().to_str(), "Ünïcode");
    assert_eq!(doc.byte_array("ba"), Some(&[1u8, 2][..]));
    assert_eq!(doc.int_array("ia"), Some(vec![1, -2, 3]));
    assert_eq!(doc.long_array("la"), Some(vec![i64::MIN, 7]));
    // Raw views are big-endian: none in a little-endian document.
    assert!(doc.int_array_raw("ia").is_none());
    let li = doc.list("li").unwrap();
    assert_eq!(li.ints(), Some(vec![5, 6]));
    assert!(li.ints_raw().is_none());
    assert_eq!(
        li.get(1).map(|e| format!("{e:?}")),
        Some(format!(
            "{:?}",
            simdnbt::document::ListElement::Number(simdnbt::Number::Int(6))
        ))
    );
    assert_eq!(doc.list("ld").unwrap().doubles(), Some(vec![0.5]));
    assert!(doc.list("lia").unwrap().int_arrays().is_none());
    let lc = doc.list("lc").unwrap().compounds().unwrap();
    assert_eq!(lc.get(0).unwrap().int("x"), Some(3));
    assert_eq!(doc.to_owned_nbt(), nbt);
    // Lookups compare the little-endian name lengths.
    for key in ["b", "str", "ia", "lc", "nope"] {
        assert_eq!(doc.contains(key), key != "nope", "{key}");
    }
    // Paths: into compounds, lists, number lists and arrays.
    let root = doc.as_compound().unwrap();
    for (path, want) in [
        ("lc[0].x", owned::NbtTag::Int(3)),
        ("li[1]", owned::NbtTag::Int(6)),
        ("ia[1]", owned::NbtTag::Int(-2)),
        ("la[0]", owned::NbtTag::Long(i64::MIN)),
        ("lia[0][1]", owned::NbtTag::Int(10)),
        ("s", owned::NbtTag::Short(-2)),
    ] {
        let got: Vec<_> = simdnbt::path::NbtPath::parse(path)
            .unwrap()
            .get_all(root)
            .iter()
            .map(|v| v.to_owned())
            .collect();
        assert_eq!(got, [want], "{path}");
    }
}

/// `{s: <raw>}` in the little-endian form.
fn string_doc(raw: &[u8]) -> Vec<u8> {
    let mut v = vec![10, 0, 0, 8, 1, 0, b's'];
    v.extend_from_slice(&(raw.len() as u16).to_le_bytes());
    v.extend_from_slice(raw);
    v.push(0);
    v
}

#[test]
fn strings_that_differ_in_mutf8_are_converted_and_written_back() {
    for (text, raw) in [
        ("plain", &b"plain"[..]),
        ("a\0b", b"a\0b"),
        ("😀!", "😀!".as_bytes()),
        ("Ünï", "Ünï".as_bytes()),
        // Long enough for the word loop, the odd byte near the end.
        ("0123456789abcdef0123\0", b"0123456789abcdef0123\0"),
    ] {
        let le = string_doc(raw);
        let doc = le_doc::read_le(&mut Cursor::new(&le[..])).unwrap().unwrap();
        assert_eq!(doc.string("s").unwrap().to_str(), text, "{text:?}");
        assert_eq!(doc.encoding(), Encoding::LittleEndian);
        assert_eq!(doc.to_bytes(), le, "{text:?}: written back");
        let owned = bedrock::owned::read_le(&mut Cursor::new(&le[..])).unwrap();
        assert_eq!(doc.to_owned_nbt(), owned, "{text:?}");
    }
    // In a name, in a list of strings, in the root name.
    let mut c = owned::NbtCompound::new();
    c.insert("k\0ey", 1i32);
    c.insert("l", owned::NbtList::String(vec!["x".into(), "😀".into()]));
    let nbt = owned::Nbt::Some(owned::BaseNbt::new("r😀", c));
    let mut le = Vec::new();
    bedrock::owned::write_le(&nbt, &mut le).unwrap();
    let doc = le_doc::read_le(&mut Cursor::new(&le[..])).unwrap().unwrap();
    assert_eq!(doc.to_owned_nbt(), nbt);
    assert_eq!(doc.to_bytes(), le);
    // Not UTF-8: kept as it is.
    let le = string_doc(b"\xff\xfe\0");
    let doc = le_doc::read_le(&mut Cursor::new(&le[..])).unwrap().unwrap();
    assert_eq!(doc.string("s").unwrap().as_bytes(), b"\xff\xfe\0");
    assert_eq!(doc.to_bytes(), le);
}

#[test]
fn errors_and_offsets_are_the_little_endian_readers() {
    let java = corpus::load("complex_player.dat").unwrap();
    let le = to_little_endian(java).unwrap();
    let opts = ReadOptions::default().max_depth(2);
    let mut cases = cut_and_flipped(&le);
    cases.push((le.clone(), opts));
    cases.push((le.clone(), ReadOptions::default().max_bytes(100)));
    let (ok, failed) = agree_on(&cases, le_doc::read_le_with, bedrock::owned::read_le_with);
    assert!(ok > 10 && failed > 100, "{ok} read, {failed} refused");
    let e = le_doc::read_le_with(&mut Cursor::new(&le[..]), &opts).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
}

/// `bytes` cut short every 7 bytes and with one byte flipped every 13, each
/// with the default limits.
pub fn cut_and_flipped(bytes: &[u8]) -> Vec<(Vec<u8>, ReadOptions)> {
    let cuts = (0..bytes.len()).step_by(7).map(|cut| bytes[..cut].to_vec());
    let flips = (0..bytes.len()).step_by(13).map(|at| {
        let mut v = bytes.to_vec();
        v[at] ^= 0xa5;
        v
    });
    cuts.chain(flips)
        .map(|v| (v, ReadOptions::default()))
        .collect()
}

/// A document reader of a Bedrock form.
pub type ReadDocument =
    fn(&mut Cursor<&[u8]>, &ReadOptions) -> Result<Option<Document>, simdnbt::Error>;
/// The owned reader of the same form.
pub type ReadOwned = fn(&mut Cursor<&[u8]>, &ReadOptions) -> Result<owned::Nbt, simdnbt::Error>;

/// Checks that `doc` and `owned` answer every case alike: the same values
/// and cursor, or the same error kind and offset. Returns how many cases
/// read and how many were refused.
pub fn agree_on(
    cases: &[(Vec<u8>, ReadOptions)],
    doc: ReadDocument,
    owned: ReadOwned,
) -> (usize, usize) {
    let (mut ok, mut failed) = (0, 0);
    for (bytes, opts) in cases {
        let mut c1 = Cursor::new(&bytes[..]);
        let mut c2 = Cursor::new(&bytes[..]);
        match (doc(&mut c1, opts), owned(&mut c2, opts)) {
            (Ok(d), Ok(o)) => {
                ok += 1;
                assert_eq!(c1.position(), c2.position());
                let d = d.map(|d| d.to_owned_nbt()).unwrap_or(owned::Nbt::None);
                assert!(d == o, "values differ");
            }
            (Err(a), Err(b)) => {
                failed += 1;
                assert_eq!((a.kind(), a.offset()), (b.kind(), b.offset()));
            }
            (a, b) => panic!("document {:?} vs owned {:?}", a.map(|_| ()), b.map(|_| ())),
        }
    }
    (ok, failed)
}

#[test]
fn every_hostile_case_fails_like_the_owned_le_reader() {
    // The hostile cases are Java-form: as little-endian input they are
    // other (mostly broken) documents; both readers must agree on them.
    let cases: Vec<_> = testkit::hostile::cases()
        .into_iter()
        .map(|case| (case.bytes, ReadOptions::default()))
        .collect();
    let (ok, failed) = agree_on(&cases, le_doc::read_le_with, bedrock::owned::read_le_with);
    assert!(failed > ok, "{ok} read, {failed} refused");
}

#[test]
fn edits_of_a_little_endian_document_write_little_endian() {
    for name in ["complex_player.dat", "level.dat", "bigtest.nbt"] {
        let java = corpus::load(name).unwrap();
        let le = to_little_endian(java).unwrap();
        let mut doc = le_doc::from_vec_le(le.clone()).unwrap().unwrap();
        let owned::Nbt::Some(mut expected) =
            bedrock::owned::read_le(&mut Cursor::new(&le[..])).unwrap()
        else {
            panic!("{name}: no root");
        };
        let first = expected.keys().next().unwrap().to_str().into_owned();
        {
            let mut root = doc.as_compound_mut().unwrap();
            root.set("added", 42i32).unwrap();
            root.set("text", "a\0😀").unwrap();
            assert!(root.remove(&first));
        }
        expected.insert("added", 42i32);
        expected.insert("text", "a\0😀");
        expected.remove(&first);
        assert_eq!(doc.encoding(), Encoding::LittleEndian);
        let out = doc.to_bytes();
        let back = bedrock::owned::read_le(&mut Cursor::new(&out[..])).unwrap();
        assert!(back == owned::Nbt::Some(expected), "{name}: edited values");
        // Read again from what it wrote: exact.
        let again = le_doc::from_vec_le(out.clone()).unwrap().unwrap();
        assert_eq!(again.to_bytes(), out, "{name}");
    }
}

/// Code written against the document's old names (`ByteOrder`,
/// `byte_order`) still builds and means the same.
#[test]
#[allow(deprecated)]
fn byte_order_is_the_old_name_of_encoding() {
    use simdnbt::document::ByteOrder;
    let doc = Document::from_vec(vec![10, 0, 0, 0]).unwrap().unwrap();
    assert_eq!(doc.byte_order(), ByteOrder::BigEndian);
    assert_eq!(doc.encoding(), Encoding::BigEndian);
    let read = simdnbt::bedrock::document::read_le(&mut std::io::Cursor::new(&[10, 0, 0, 0][..]));
    let order = match read.unwrap().unwrap().byte_order() {
        ByteOrder::BigEndian => "java",
        ByteOrder::LittleEndian => "le",
        ByteOrder::Network => "network",
    };
    assert_eq!(order, "le");
}
