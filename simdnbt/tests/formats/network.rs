//! Bedrock's network (VarInt) form and the owned model on both Bedrock forms:
//! byte-exact round trips of the whole corpus, the hostile table in the
//! network form, errors that agree between forms and readers, detection.
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::bedrock::{
    self, DetectedForm, detect, from_network, from_network_prefix, from_network_with,
    split_level_header, to_big_endian, to_little_endian, to_network, write_level_header,
};
use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
use simdnbt::{ErrorKind, ReadOptions, owned};

fn corpus() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names().map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

#[test]
fn every_corpus_file_goes_to_the_network_form_and_back_byte_exact() {
    let mut files = 0;
    for (name, java) in corpus() {
        let net = to_network(java).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = from_network(&net).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "stringtest.nbt" {
            // 4-byte UTF-8 in a Java string: as for the little-endian form,
            // exact from the second trip on.
            assert_eq!(from_network(&to_network(&back).unwrap()).unwrap(), back);
        } else {
            assert!(
                back == java,
                "{name}: Java -> network -> Java changed bytes"
            );
        }
        // The same document as the little-endian form, VarInts aside.
        let le = to_little_endian(java).unwrap();
        assert_eq!(to_big_endian(&le).unwrap(), back, "{name}");
        files += 1;
    }
    assert!(files >= 20, "only {files} corpus files");
}

#[test]
fn the_owned_model_reads_and_writes_both_bedrock_forms_directly() {
    let mut files = 0;
    for (name, java) in corpus().filter(|(_, java)| java[0] == 10) {
        let expected = owned::read(&mut Cursor::new(java)).unwrap();
        let le = to_little_endian(java).unwrap();
        let net = to_network(java).unwrap();
        let mut c = Cursor::new(&le[..]);
        let from_le = bedrock::owned::read_le(&mut c).unwrap();
        assert_eq!(c.position() as usize, le.len(), "{name}");
        let mut c = Cursor::new(&net[..]);
        let from_net = bedrock::owned::read_network(&mut c).unwrap();
        assert_eq!(c.position() as usize, net.len(), "{name}");
        if name != "stringtest.nbt" {
            assert!(from_le == expected, "{name}: little-endian");
            assert!(from_net == expected, "{name}: network");
            let mut out = Vec::new();
            bedrock::owned::write_le(&expected, &mut out).unwrap();
            assert!(out == le, "{name}: written little-endian");
            out.clear();
            bedrock::owned::write_network(&expected, &mut out).unwrap();
            assert!(out == net, "{name}: written network");
        }
        files += 1;
    }
    assert!(files >= 20, "only {files} compound-rooted corpus files");
}

#[test]
fn zigzag_boundaries_read_as_their_values() {
    let mut root = NbtCompound::new();
    for (key, v) in [
        ("0", 0),
        ("m1", -1),
        ("1", 1),
        ("min", i32::MIN),
        ("max", i32::MAX),
    ] {
        root.insert(key, v);
    }
    root.insert("lmin", i64::MIN);
    root.insert("lmax", i64::MAX);
    root.insert("ints", NbtList::Int(vec![i32::MIN, -1, 0, 1, i32::MAX]));
    root.insert("longs", NbtTag::LongArray(vec![i64::MIN, -1, 0, i64::MAX]));
    root.insert("text", "Ünï\0😀");
    let nbt = Nbt::Some(BaseNbt::new("root", root));
    let mut net = Vec::new();
    bedrock::owned::write_network(&nbt, &mut net).unwrap();
    // The root and its name: `0a`, VarInt 4, "root"; then Int "0" = 0:
    // `03 01 '0' 00`.
    assert_eq!(&net[..10], &[10, 4, b'r', b'o', b'o', b't', 3, 1, b'0', 0]);
    // i32::MIN and i64::MAX at their widest, 5 and 10 bytes.
    let min = [3, 3, b'm', b'i', b'n', 0xff, 0xff, 0xff, 0xff, 0x0f];
    assert!(net.windows(min.len()).any(|w| w == min));
    let lmax = [
        4, 4, b'l', b'm', b'a', b'x', 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1,
    ];
    assert!(net.windows(lmax.len()).any(|w| w == lmax));
    assert_eq!(
        bedrock::owned::read_network(&mut Cursor::new(&net[..])).unwrap(),
        nbt
    );
    let mut java = Vec::new();
    nbt.write(&mut java).unwrap();
    assert_eq!(from_network(&net).unwrap(), java);
}

#[test]
fn the_network_hostile_table() {
    for case in testkit::hostile::network_cases() {
        let got = from_network(&case.bytes).map(|j| j != [0]);
        case.expect
            .check(got, &format!("{} (transcoder)", case.name));
        let got = bedrock::owned::read_network(&mut Cursor::new(&case.bytes[..]))
            .map(|nbt| nbt.is_some());
        case.expect.check(got, &format!("{} (owned)", case.name));
    }
}

/// Every truncation and many corruptions of every corpus file: the
/// little-endian form fails exactly where the Java form does (the same
/// layout, the same loop); the transcoder and the owned builder agree on
/// each form, the network form included.
#[test]
fn errors_agree_between_forms_and_readers() {
    let mut checked = 0;
    for (name, java) in corpus().filter(|(_, java)| java[0] == 10) {
        let java = &java[..java.len().min(16 * 1024)];
        let Ok(le) = to_little_endian(java) else {
            continue;
        };
        let net = to_network(java).unwrap();
        let step = (java.len() / 300).max(1);
        for cut in (0..java.len()).step_by(step) {
            let j = owned::read(&mut Cursor::new(&java[..cut])).unwrap_err();
            let l = bedrock::owned::read_le(&mut Cursor::new(&le[..cut])).unwrap_err();
            let t = to_big_endian(&le[..cut]).unwrap_err();
            let what = format!("{name} cut at {cut}");
            assert_eq!((j.kind(), j.offset()), (l.kind(), l.offset()), "{what}");
            assert_eq!((t.kind(), t.offset()), (l.kind(), l.offset()), "{what}");
            checked += 1;
        }
        let step = (net.len() / 300).max(1);
        for cut in (0..net.len()).step_by(step) {
            let o = bedrock::owned::read_network(&mut Cursor::new(&net[..cut])).unwrap_err();
            let t = from_network(&net[..cut]).unwrap_err();
            assert_eq!(
                (o.kind(), o.offset()),
                (t.kind(), t.offset()),
                "{name} cut {cut}"
            );
            assert!(o.offset() <= cut);
        }
    }
    assert!(checked > 1000, "only {checked} cuts");
}

#[test]
fn every_limit_applies_to_every_form() {
    let java = corpus::load("bigtest.nbt").unwrap();
    let net = to_network(java).unwrap();
    let le = to_little_endian(java).unwrap();
    let budget = ReadOptions::default().max_bytes(100);
    let e = from_network_with(&net, &budget).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::BudgetExceeded, 100));
    let e = bedrock::to_big_endian_with(&le, &budget).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::BudgetExceeded, 100));
    // The owned readers count the budget from the root's payload, as
    // `owned::read_with` does (the root "Level": 7 bytes before it in the
    // network form, 8 in the little-endian).
    let e = bedrock::owned::read_network_with(&mut Cursor::new(&net[..]), &budget).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::BudgetExceeded, 107));
    let e = bedrock::owned::read_le_with(&mut Cursor::new(&le[..]), &budget).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::BudgetExceeded, 108));
    let e = owned::read_with(&mut Cursor::new(java), &budget).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::BudgetExceeded, 108));
    let shallow = ReadOptions::default().max_depth(1);
    for e in [
        from_network_with(&net, &shallow).unwrap_err(),
        bedrock::to_big_endian_with(&le, &shallow).unwrap_err(),
        bedrock::owned::read_network_with(&mut Cursor::new(&net[..]), &shallow).unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
    }
}

#[test]
fn network_strings_too_long_for_java_are_an_error() {
    // {s: 70 000 × 'a'}: a VarInt length (3 bytes) Java's u16 cannot hold.
    let mut net = vec![10, 0, 8, 1, b's', 0xf0, 0xa2, 0x04];
    net.extend(std::iter::repeat_n(b'a', 70_000));
    net.push(0);
    let e = from_network(&net).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::StringTooLong, 8));
    // The owned model holds it; its Java writer refuses it, saying so.
    let nbt = bedrock::owned::read_network(&mut Cursor::new(&net[..])).unwrap();
    assert!(nbt.write(&mut Vec::new()).is_err());
}

#[test]
fn records_in_a_row() {
    let one = to_network(corpus::load("hello_world.nbt").unwrap()).unwrap();
    let two = to_network(corpus::load("bigtest.nbt").unwrap()).unwrap();
    let both = [&one[..], &two[..]].concat();
    let (first, used) = from_network_prefix(&both).unwrap();
    assert_eq!(
        (first.as_slice(), used),
        (corpus::load("hello_world.nbt").unwrap(), one.len())
    );
    let (second, _) = from_network_prefix(&both[used..]).unwrap();
    assert_eq!(second, corpus::load("bigtest.nbt").unwrap());
}

#[test]
fn detect_names_every_corpus_file_in_each_form() {
    let mut files = 0;
    for (name, java) in corpus() {
        let le = to_little_endian(java).unwrap();
        let net = to_network(java).unwrap();
        let mut dat = Vec::new();
        write_level_header(10, &le, &mut dat);
        assert_eq!(detect(java), DetectedForm::Java, "{name}");
        assert_eq!(detect(&le), DetectedForm::LittleEndian, "{name}");
        assert_eq!(detect(&net), DetectedForm::Network, "{name}");
        assert_eq!(detect(&dat), DetectedForm::LevelDat, "{name}");
        assert!(split_level_header(&dat).is_some());
        files += 1;
    }
    assert!(files >= 20);
    // Conservative: what no form reads, or several do, is unknown.
    for bytes in [
        &[][..],
        &[0],
        &[10, 0, 0, 0],
        &[0x1f, 0x8b, 8, 0, 0],
        &[10, 0, 0, 1, 0, 1, b'b'],
    ] {
        assert_eq!(detect(bytes), DetectedForm::Unknown, "{bytes:?}");
    }
}
