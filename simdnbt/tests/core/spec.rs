//! The format, tag by tag: every tag type, empty containers, network forms,
//! strings, and the two hand-checked corpus files from the format's spec.

use std::io::Cursor;

use simdnbt::owned::{self, BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
use simdnbt::{ErrorKind, Mutf8Str, Mutf8String, borrow};

use testkit::bytes::{named, r as root};

/// Reads with both readers, checks they agree and that both writers give the input back.
fn both(bytes: &[u8]) -> owned::BaseNbt {
    let b = borrow::read(&mut Cursor::new(bytes))
        .expect("borrow reads")
        .unwrap();
    let o = owned::read(&mut Cursor::new(bytes))
        .expect("owned reads")
        .unwrap();
    assert_eq!(b.to_owned(), o, "borrow and owned agree");
    let mut bw = Vec::new();
    b.as_compound().write(&mut bw);
    assert_eq!(bw, bytes[3 + b.name().len()..], "borrow tape writer");
    let mut ow = Vec::new();
    o.write(&mut ow).unwrap();
    assert_eq!(ow, bytes, "owned writer");
    o
}

#[test]
fn every_scalar_type() {
    let mut body = Vec::new();
    body.extend(named(1, "b", &[0x80]));
    body.extend(named(2, "s", &[0x80, 0x01]));
    body.extend(named(3, "i", &(-5i32).to_be_bytes()));
    body.extend(named(4, "l", &i64::MIN.to_be_bytes()));
    body.extend(named(5, "f", &f32::from_bits(0x7fc0_1234).to_be_bytes()));
    body.extend(named(6, "d", &(-0.0f64).to_be_bytes()));
    let bytes = root(&body);
    let o = both(&bytes);
    assert_eq!(o.byte("b"), Some(-128));
    assert_eq!(o.short("s"), Some(-32767));
    assert_eq!(o.int("i"), Some(-5));
    assert_eq!(o.long("l"), Some(i64::MIN));
    assert_eq!(
        o.float("f").unwrap().to_bits(),
        0x7fc0_1234,
        "NaN payload kept"
    );
    assert_eq!(
        o.double("d").unwrap().to_bits(),
        (-0.0f64).to_bits(),
        "-0.0 kept"
    );

    let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(b.byte("b"), Some(-128));
    assert_eq!(b.short("s"), Some(-32767));
    assert_eq!(b.int("i"), Some(-5));
    assert_eq!(b.long("l"), Some(i64::MIN));
    assert_eq!(b.float("f").unwrap().to_bits(), 0x7fc0_1234);
    assert_eq!(b.double("d").unwrap().to_bits(), (-0.0f64).to_bits());
    // Wrong type is None, not a conversion.
    assert_eq!(b.int("b"), None);
    assert_eq!(b.get("missing").map(|t| t.id()), None);
    let ids: Vec<u8> = b.as_compound().iter().map(|(_, t)| t.id()).collect();
    assert_eq!(ids, [1, 2, 3, 4, 5, 6]);
}

#[test]
fn arrays_and_strings() {
    let mut body = Vec::new();
    body.extend(named(7, "ba", &[0, 0, 0, 3, 1, 0xff, 3]));
    let mut ia = vec![0, 0, 0, 2];
    ia.extend(1i32.to_be_bytes());
    ia.extend((-2i32).to_be_bytes());
    body.extend(named(11, "ia", &ia));
    let mut la = vec![0, 0, 0, 1];
    la.extend(i64::MAX.to_be_bytes());
    body.extend(named(12, "la", &la));
    body.extend(named(8, "s", &[0, 4, b'a', 0xc0, 0x80, b'b']));
    body.extend(named(8, "e", &[0, 0]));
    let bytes = root(&body);
    let o = both(&bytes);
    assert_eq!(o.byte_array("ba"), Some(&[1u8, 0xff, 3][..]));
    assert_eq!(o.int_array("ia"), Some(&[1, -2][..]));
    assert_eq!(o.long_array("la"), Some(&[i64::MAX][..]));
    assert_eq!(o.string("s").unwrap().to_str(), "a\0b");
    assert_eq!(o.string("e").unwrap().to_str(), "");

    let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(b.byte_array("ba"), Some(&[1u8, 0xff, 3][..]));
    assert_eq!(b.int_array("ia"), Some(vec![1, -2]));
    assert_eq!(b.int_array_raw("ia").unwrap().to_vec(), vec![1, -2]);
    assert_eq!(b.int_array_raw("ia").unwrap().as_big_endian(), &ia[4..]);
    assert_eq!(b.long_array("la"), Some(vec![i64::MAX]));
    assert_eq!(b.string("s").unwrap().as_bytes(), [b'a', 0xc0, 0x80, b'b']);
    assert_eq!(b.string("s").unwrap().to_str(), "a\0b");
}

#[test]
fn lists_of_every_type_including_empty_ones() {
    let mut body = Vec::new();
    for id in 0u8..=12 {
        // An empty list of each element type keeps its type.
        body.extend(named(9, format!("empty{id}"), &[id, 0, 0, 0, 0]));
    }
    body.extend(named(9, "bytes", &[1, 0, 0, 0, 2, 5, 0xfb]));
    body.extend(named(9, "shorts", &[2, 0, 0, 0, 1, 0x12, 0x34]));
    body.extend(named(9, "strings", &[8, 0, 0, 0, 2, 0, 1, b'x', 0, 0]));
    body.extend(named(9, "ints", &[3, 0, 0, 0, 1, 0, 0, 1, 0]));
    body.extend(named(
        9,
        "iarrs",
        &[11, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 0],
    ));
    // A list of two lists: [[1b], []] and a list of compounds [{}, {"a": 1b}].
    body.extend(named(
        9,
        "lists",
        &[9, 0, 0, 0, 2, 1, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0],
    ));
    body.extend(named(10, "c", &[0]));
    let mut comps = vec![10, 0, 0, 0, 2, 0];
    comps.extend(named(1, "a", &[1]));
    comps.push(0);
    body.extend(named(9, "comps", &comps));
    let bytes = root(&body);
    let o = both(&bytes);
    assert_eq!(o.list("empty0"), Some(&NbtList::Empty));
    assert_eq!(o.list("empty3"), Some(&NbtList::Int(vec![])));
    assert_ne!(
        o.list("empty3"),
        Some(&NbtList::Empty),
        "element type counts"
    );
    assert_eq!(o.list("empty10"), Some(&NbtList::Compound(vec![])));
    assert_eq!(o.list("bytes").unwrap().bytes(), Some(&[5i8, -5][..]));
    assert_eq!(o.list("shorts").unwrap().shorts(), Some(vec![0x1234]));
    assert_eq!(o.list("ints").unwrap().ints(), Some(vec![256]));
    assert_eq!(
        o.list("iarrs").unwrap().int_arrays().unwrap(),
        &[vec![9], vec![]]
    );

    let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    for id in 0u8..=12 {
        let l = b.list(&format!("empty{id}")).unwrap();
        assert_eq!((l.id(), l.len(), l.empty()), (id, 0, id == 0));
    }
    assert_eq!(b.list("bytes").unwrap().bytes(), Some(&[5i8, -5][..]));
    assert_eq!(
        b.list("bytes").unwrap().ints(),
        None,
        "typed views check the type"
    );
    let strings = b.list("strings").unwrap();
    let strings = strings.strings().unwrap();
    assert_eq!(strings.len(), 2);
    assert_eq!(strings[0].to_str(), "x");
    assert!(strings[1].is_empty());
    let iarrs = b.list("iarrs").unwrap();
    let iarrs = iarrs.int_arrays().unwrap();
    assert_eq!(iarrs[0].to_vec(), vec![9]);
    assert!(iarrs[1].is_empty());
    let lists = b.list("lists").unwrap().lists().unwrap();
    assert_eq!(lists.len(), 2);
    assert_eq!(lists.get(0).unwrap().bytes(), Some(&[7i8][..]));
    assert!(lists.last().unwrap().empty());
    let comps = b.list("comps").unwrap().compounds().unwrap();
    assert_eq!(comps.len(), 2);
    assert!(comps.first().unwrap().is_empty());
    assert_eq!(comps.get(1).unwrap().byte("a"), Some(1));
    assert_eq!(comps.iter().len(), 2);
    assert!(b.compound("c").unwrap().is_empty());
}

/// A repeated key (crafted input only): every entry is kept and written back,
/// the last one counts (as in the game, whose compound is a map) for every
/// lookup of both models, the derive and paths; `insert` replaces it in place,
/// `remove` takes every entry of the key, `push` makes a duplicate on purpose.
#[test]
fn duplicate_keys_are_kept_and_the_last_one_counts() {
    let mut body = named(3, "k", &1i32.to_be_bytes());
    body.extend(named(1, "other", &[9]));
    body.extend(named(3, "k", &2i32.to_be_bytes()));
    let bytes = root(&body);
    let o = both(&bytes); // both readers agree and both writers give the bytes back
    assert_eq!(o.len(), 3);
    assert_eq!(o.int("k"), Some(2));
    assert_eq!(o.get("k"), Some(&NbtTag::Int(2)));
    let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(b.int("k"), Some(2));
    assert_eq!(b.get("k").and_then(|t| t.int()), Some(2));
    assert_eq!(b.as_compound().int("k"), Some(2));
    assert_eq!(b.as_compound().len(), 3);

    // The derive reads the same value as `get`.
    #[derive(simdnbt::Deserialize, Debug, PartialEq)]
    struct K {
        k: i32,
    }
    assert_eq!(simdnbt::Deserialize::from_nbt(&b), Ok(K { k: 2 }));
    // So does a path, in either model.
    let path: simdnbt::path::NbtPath = "k".parse().unwrap();
    assert_eq!(path.get(&o).map(|v| v.to_tag().int()), Some(Some(2)));
    let borrowed = path.get_all(b.as_compound());
    assert_eq!(borrowed.len(), 1);
    assert_eq!(borrowed[0].to_owned().int(), Some(2));

    // `insert` replaces the value lookups see, in place; the shadowed entry
    // stays where it was.
    let mut c = o.clone().as_compound();
    c.insert("k", 3);
    let entries: Vec<(String, NbtTag)> =
        c.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    assert_eq!(
        entries,
        [
            ("k".to_string(), NbtTag::Int(1)),
            ("other".to_string(), NbtTag::Byte(9)),
            ("k".to_string(), NbtTag::Int(3)),
        ]
    );
    *c.int_mut("k").unwrap() += 1;
    assert_eq!(c.int("k"), Some(4));
    let mut written = Vec::new();
    BaseNbt::new("", c.clone()).write(&mut written).unwrap();
    let reread = borrow::read(&mut Cursor::new(&written[..]))
        .unwrap()
        .unwrap();
    assert_eq!((reread.int("k"), reread.as_compound().len()), (Some(4), 3));

    // `remove` takes every entry of the key and returns the one `get` saw.
    assert_eq!(c.remove("k"), Some(NbtTag::Int(4)));
    assert!(!c.contains("k"));
    assert_eq!(c.len(), 1);

    // `push` appends without a lookup: the new entry is the one that counts.
    c.push("other", 10i8);
    assert_eq!((c.len(), c.byte("other")), (2, Some(10)));
    c.insert("other", 11i8);
    assert_eq!((c.len(), c.byte("other")), (2, Some(11)));
}

/// `extend` replaces the values of keys the compound had and appends the
/// rest without lookups; `from_values` and `collect` append everything.
#[test]
fn extend_and_collect_build_without_lookups() {
    let mut c = NbtCompound::new();
    c.insert("a", 1);
    c.extend([("a", 2), ("b", 3), ("b", 4)]);
    let keys: Vec<String> = c.keys().map(|k| k.to_string()).collect();
    assert_eq!(keys, ["a", "b", "b"]);
    assert_eq!((c.int("a"), c.int("b")), (Some(2), Some(4)));

    let collected: NbtCompound = [("x", 1), ("x", 2)].into_iter().collect();
    assert_eq!((collected.len(), collected.int("x")), (2, Some(2)));
    let from = NbtCompound::from_values(vec![("y".into(), 1.into()), ("y".into(), 2.into())]);
    assert_eq!((from.len(), from.int("y")), (2, Some(2)));
}

#[test]
fn network_forms() {
    // read_unnamed: 0a + payload (1.20.2+).
    let mut bytes = vec![0x0a];
    bytes.extend(named(1, "x", &[3]));
    bytes.push(0);
    let b = borrow::read_unnamed(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    assert_eq!(b.byte("x"), Some(3));
    assert!(b.name().is_empty());
    let mut out = Vec::new();
    b.write_unnamed(&mut out);
    assert_eq!(out, bytes);
    let o = owned::read_unnamed(&mut Cursor::new(&bytes[..])).unwrap();
    let mut out = Vec::new();
    o.write_unnamed(&mut out).unwrap();
    assert_eq!(out, bytes);

    // read_tag: any root type (1.20.3+ text components are Strings).
    let s = [8, 0, 2, b'h', b'i'];
    let t = borrow::read_tag(&mut Cursor::new(&s[..])).unwrap();
    assert_eq!(t.as_tag().string().unwrap().to_str(), "hi");
    assert_eq!(
        owned::read_tag(&mut Cursor::new(&s[..])).unwrap(),
        NbtTag::String("hi".into())
    );
    let i = [3, 0, 0, 0, 42];
    assert_eq!(
        borrow::read_tag(&mut Cursor::new(&i[..]))
            .unwrap()
            .as_tag()
            .int(),
        Some(42)
    );
    let l = [9, 1, 0, 0, 0, 2, 1, 2];
    let t = borrow::read_tag(&mut Cursor::new(&l[..])).unwrap();
    assert_eq!(t.as_tag().list().unwrap().bytes(), Some(&[1i8, 2][..]));

    // End root: no value.
    assert!(
        borrow::read_optional_tag(&mut Cursor::new(&[0u8][..]))
            .unwrap()
            .is_none()
    );
    assert!(
        owned::read_optional_tag(&mut Cursor::new(&[0u8][..]))
            .unwrap()
            .is_none()
    );
    let err = borrow::read_tag(&mut Cursor::new(&[0u8][..])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRootType(0));
    assert!(
        borrow::read(&mut Cursor::new(&[0u8][..]))
            .unwrap()
            .is_none()
    );
    assert_eq!(
        owned::read(&mut Cursor::new(&[0u8][..])).unwrap(),
        Nbt::None
    );

    // read_compound: payload only.
    let p = [1, 0, 1, b'z', 9, 0];
    let c = borrow::read_compound(&mut Cursor::new(&p[..])).unwrap();
    assert_eq!(c.as_compound().byte("z"), Some(9));
    assert_eq!(
        owned::read_compound(&mut Cursor::new(&p[..]))
            .unwrap()
            .byte("z"),
        Some(9)
    );
}

#[test]
fn trailing_bytes_are_not_an_error_and_the_cursor_says_where_the_document_ended() {
    let mut bytes = root(&named(1, "a", &[1]));
    let len = bytes.len();
    bytes.extend_from_slice(b"junk");
    let mut c = Cursor::new(&bytes[..]);
    borrow::read(&mut c).unwrap();
    assert_eq!(c.position() as usize, len);
    let mut c = Cursor::new(&bytes[..]);
    owned::read(&mut c).unwrap();
    assert_eq!(c.position() as usize, len);
}

#[test]
fn reading_starts_at_the_cursor_position_and_offsets_count_from_the_slice_start() {
    let mut bytes = vec![0xee, 0xee];
    bytes.extend(root(&named(3, "a", &[0, 0])));
    let mut c = Cursor::new(&bytes[..]);
    c.set_position(2);
    let err = borrow::read(&mut c).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert_eq!(err.offset(), bytes.len());
    let mut bytes = vec![0xee, 0xee];
    bytes.extend(root(&named(3, "a", &[0, 0, 0, 9])));
    let mut c = Cursor::new(&bytes[..]);
    c.set_position(2);
    assert_eq!(borrow::read(&mut c).unwrap().unwrap().int("a"), Some(9));
}

#[test]
fn mutf8_strings_through_the_readers() {
    // NUL as C0 80, emoji as a surrogate pair, and invalid sequences kept raw:
    // the kit's pinned cases.
    for case in testkit::mutf8::CASES {
        let raw = case.raw;
        let bytes = testkit::bytes::string_doc(raw);
        let o = both(&bytes);
        let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
        let s = b.string("s").unwrap();
        assert_eq!(s.as_bytes(), raw, "raw bytes kept");
        assert_eq!(o.string("s").unwrap().as_bytes(), raw);
        assert_eq!(s.to_str(), case.lossy, "{raw:x?}");
        match case.text {
            Some(text) => assert_eq!(s.try_to_str().unwrap(), text),
            None => {
                assert!(s.try_to_str().is_err(), "{raw:x?} is invalid");
                assert!(s.to_str().contains('\u{fffd}'), "lossy marks it");
                assert!(!s.to_str().is_empty(), "never silently empty");
            }
        }
    }
}

#[test]
fn strings_are_encoded_as_mutf8_when_written() {
    let mut c = NbtCompound::new();
    c.insert("nul", "a\0b");
    c.insert("emoji", "😀");
    c.insert("ascii", "plain");
    let mut out = Vec::new();
    BaseNbt::new("", c).write(&mut out).unwrap();
    let b = borrow::read(&mut Cursor::new(&out[..])).unwrap().unwrap();
    assert_eq!(
        b.string("nul").unwrap().as_bytes(),
        [0x61, 0xc0, 0x80, 0x62]
    );
    assert_eq!(
        b.string("emoji").unwrap().as_bytes(),
        [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]
    );
    assert_eq!(b.string("ascii").unwrap(), &*Mutf8String::from("plain"));
    assert_eq!(
        Mutf8Str::from_str("😀").as_bytes(),
        [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]
    );
}

#[test]
fn over_long_values_are_write_errors_not_corrupt_files() {
    let mut c = NbtCompound::new();
    c.insert("s", "x".repeat(70_000));
    let mut out = Vec::new();
    let err = BaseNbt::new("", c).write(&mut out).unwrap_err();
    assert_eq!(err, simdnbt::WriteError::StringTooLong { len: 70_000 });
    let mut c = NbtCompound::new();
    c.insert("x".repeat(65_536), 1i8);
    assert!(
        BaseNbt::new("", c).write(&mut Vec::new()).is_err(),
        "keys too"
    );
    // The longest legal string round-trips.
    let mut c = NbtCompound::new();
    c.insert("s", "y".repeat(65_535));
    let mut out = Vec::new();
    BaseNbt::new("", c).write(&mut out).unwrap();
    let b = borrow::read(&mut Cursor::new(&out[..])).unwrap().unwrap();
    assert_eq!(b.string("s").unwrap().len(), 65_535);
}

#[test]
fn hello_world_matches_the_spec() {
    let bytes = corpus::load("hello_world.nbt").unwrap();
    let b = borrow::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    assert_eq!(b.name().to_str(), "hello world");
    assert_eq!(b.as_compound().len(), 1);
    assert_eq!(b.string("name").unwrap().to_str(), "Bananrama");
    both(bytes);
}

#[test]
fn bigtest_matches_the_spec() {
    let bytes = corpus::load("bigtest.nbt").unwrap();
    let b = borrow::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    assert_eq!(b.name().to_str(), "Level");
    let keys: Vec<String> = b
        .as_compound()
        .keys()
        .map(|k| k.to_str().into_owned())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))",
            "byteTest",
            "doubleTest",
            "floatTest",
            "intTest",
            "listTest (compound)",
            "listTest (long)",
            "longTest",
            "nested compound test",
            "shortTest",
            "stringTest",
        ]
    );
    assert_eq!(b.byte("byteTest"), Some(127));
    assert_eq!(b.short("shortTest"), Some(32767));
    assert_eq!(b.int("intTest"), Some(2147483647));
    assert_eq!(b.long("longTest"), Some(9223372036854775807));
    assert_eq!(b.float("floatTest"), Some(0.498_231_47));
    assert_eq!(b.double("doubleTest"), Some(0.493_128_713_218_231_5));
    assert_eq!(
        b.string("stringTest").unwrap().to_str(),
        "HELLO WORLD THIS IS A TEST STRING ÅÄÖ!"
    );
    let nested = b.compound("nested compound test").unwrap();
    let egg = nested.compound("egg").unwrap();
    assert_eq!(egg.string("name").unwrap().to_str(), "Eggbert");
    assert_eq!(egg.float("value"), Some(0.5));
    let ham = nested.compound("ham").unwrap();
    assert_eq!(ham.string("name").unwrap().to_str(), "Hampus");
    assert_eq!(ham.float("value"), Some(0.75));
    assert_eq!(
        b.list("listTest (long)").unwrap().longs(),
        Some(vec![11, 12, 13, 14, 15])
    );
    let comps = b.list("listTest (compound)").unwrap().compounds().unwrap();
    assert_eq!(comps.len(), 2);
    for (i, c) in comps.iter().enumerate() {
        assert_eq!(
            c.string("name").unwrap().to_str(),
            format!("Compound tag #{i}")
        );
        assert_eq!(c.long("created-on"), Some(1264099775885));
    }
    let key = "byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))";
    let arr = b.byte_array(key).unwrap();
    assert_eq!(arr.len(), 1000);
    for (n, &v) in arr.iter().enumerate() {
        assert_eq!(v as usize, (n * n * 255 + n * 7) % 100, "byte {n}");
    }
    both(bytes);
}

#[test]
fn owned_building_api() {
    let mut c = NbtCompound::new();
    c.insert("a", 1i32);
    c.insert("b", NbtList::from(vec![1i64, 2]));
    c.insert("c", NbtCompound::from([("x", NbtTag::Byte(1))]));
    assert!(c.contains("a"));
    *c.int_mut("a").unwrap() = 5;
    assert_eq!(c.int("a"), Some(5));
    assert_eq!(c.remove("a"), Some(NbtTag::Int(5)));
    assert_eq!(
        c.keys()
            .map(|k| k.to_str().into_owned())
            .collect::<Vec<_>>(),
        ["b", "c"]
    );
    // Mixed tags become a 1.21.5 heterogeneous list of {"": value} compounds.
    let mixed = NbtList::from(vec![NbtTag::Int(1), NbtTag::String("s".into())]);
    let comps = mixed.compounds().unwrap();
    assert_eq!(comps[0].int(""), Some(1));
    assert_eq!(comps[1].string("").unwrap().to_str(), "s");
    // NaN equals itself bit for bit.
    assert_eq!(NbtTag::Float(f32::NAN), NbtTag::Float(f32::NAN));
    assert_ne!(NbtTag::Double(0.0), NbtTag::Double(-0.0));
}

#[test]
fn compressed_input_to_read_compound_says_so() {
    let gz = [0x1f, 0x8b, 8, 0, 0, 0];
    let Err(err) = borrow::read_compound(&mut Cursor::new(&gz[..])) else {
        panic!("gzip bytes parsed as a compound");
    };
    assert_eq!(err.kind(), ErrorKind::GzipCompressed);
    let zlib = [0x78, 0x9c, 1, 2];
    let err = owned::read_compound(&mut Cursor::new(&zlib[..])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ZlibCompressed);
}

/// A key holding a raw `00` byte (crafted input) is found by the name it
/// decodes to, as is one holding `C0 80`; its bytes are written back as read.
#[test]
fn raw_nul_keys_are_found_by_their_decoded_name() {
    let mut body = vec![3, 0, 3, b'a', 0x00, b'b', 0, 0, 0, 1];
    body.extend_from_slice(&[3, 0, 4, b'c', 0xC0, 0x80, b'd', 0, 0, 0, 2]);
    body.extend_from_slice(&[3, 0, 1, 0x00, 0, 0, 0, 3]);
    let bytes = root(&body);

    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(doc.int("a\0b"), Some(1));
    assert_eq!(doc.int("c\0d"), Some(2));
    assert_eq!(doc.int("\0"), Some(3));
    assert_eq!(doc.int("ab"), None);
    assert_eq!(doc.int("a\0"), None);
    assert_eq!(doc.int("a\0b\0"), None);
    let (key, _) = doc.as_compound().iter().next().unwrap();
    assert_eq!(key.as_bytes(), b"a\x00b");
    assert_eq!(key.to_str(), "a\0b");
    assert!(*key == *"a\0b", "a string equals its own decoding");

    let mut owned = owned::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(owned.int("a\0b"), Some(1));
    assert_eq!(owned.int("\0"), Some(3));
    let mut out = Vec::new();
    owned.write(&mut out).unwrap();
    assert_eq!(out, bytes, "raw bytes kept");
    assert!(owned.remove("\0").is_some());
    assert_eq!(owned.int("\0"), None);
}
