//! The document model read from Bedrock's network (VarInt) form
//! (`simdnbt::bedrock::document::read_network`): byte-exact round trips of
//! the whole corpus, the same values and errors as
//! `bedrock::owned::read_network`, edits written back in the network form,
//! and the memory a one-byte-per-Long input costs.
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::Encoding;
use simdnbt::bedrock::{self, document as bdoc, from_network, to_network};
use simdnbt::document::Framing;
use simdnbt::{ErrorKind, ReadOptions, owned};

use crate::bedrock_document::{agree_on, cut_and_flipped};

fn corpus() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names().map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

#[test]
fn every_corpus_file_reads_from_the_network_form_and_writes_back_byte_exact() {
    let mut files = 0;
    for (name, java) in corpus().filter(|(_, java)| java[0] == 10) {
        let net = to_network(java).unwrap();
        let mut cursor = Cursor::new(&net[..]);
        let doc = bdoc::read_network(&mut cursor)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap();
        assert_eq!(cursor.position(), net.len() as u64, "{name}");
        assert_eq!(doc.encoding(), Encoding::Network, "{name}");
        assert!(
            doc.to_bytes() == net,
            "{name}: network -> document -> network"
        );
        // Its Java and little-endian forms are the transcoder's.
        let mut java_out = Vec::new();
        doc.write_in(Framing::Named, Encoding::BigEndian, &mut java_out);
        assert!(java_out == from_network(&net).unwrap(), "{name}: as Java");
        let mut le_out = Vec::new();
        doc.write_in(Framing::Named, Encoding::LittleEndian, &mut le_out);
        assert!(
            le_out == bedrock::to_little_endian(&java_out).unwrap(),
            "{name}: as little-endian"
        );
        // The unnamed network form drops the root name's one VarInt byte.
        let mut unnamed = Vec::new();
        doc.write_in(Framing::Unnamed, Encoding::Network, &mut unnamed);
        assert_eq!(unnamed[0], net[0], "{name}");
        assert!(
            unnamed[1..] == net[1 + 1 + net[1] as usize..],
            "{name}: unnamed"
        );
        let expected = bedrock::owned::read_network(&mut Cursor::new(&net[..])).unwrap();
        assert!(
            doc.to_owned_nbt() == expected,
            "{name}: values differ from bedrock::owned"
        );
        files += 1;
    }
    assert!(files >= 20, "only {files} compound-rooted corpus files");
}

#[test]
fn errors_and_offsets_are_the_owned_network_readers() {
    let java = corpus::load("complex_player.dat").unwrap();
    let net = to_network(java).unwrap();
    let mut cases = cut_and_flipped(&net);
    // Not compound roots, an End root, two documents in a row.
    cases.push((vec![3, 0, 2], ReadOptions::default()));
    cases.push((vec![0], ReadOptions::default()));
    cases.push(([&net[..], &net[..]].concat(), ReadOptions::default()));
    cases.push((net.clone(), ReadOptions::default().max_depth(2)));
    cases.push((net.clone(), ReadOptions::default().max_bytes(100)));
    let (ok, failed) = agree_on(
        &cases,
        bdoc::read_network_with,
        bedrock::owned::read_network_with,
    );
    assert!(ok > 10 && failed > 100, "{ok} read, {failed} refused");
    let deep = ReadOptions::default().max_depth(2);
    let e = bdoc::read_network_with(&mut Cursor::new(&net[..]), &deep).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
}

#[test]
fn every_hostile_case_fails_like_the_owned_network_reader() {
    // The network form's own hostile cases, and the Java-form ones: as
    // network input those are other (mostly broken) documents; both readers
    // must agree on all of them.
    let cases: Vec<_> = testkit::hostile::network_cases()
        .into_iter()
        .chain(testkit::hostile::cases())
        .map(|case| (case.bytes, ReadOptions::default()))
        .collect();
    let (ok, failed) = agree_on(
        &cases,
        bdoc::read_network_with,
        bedrock::owned::read_network_with,
    );
    assert!(ok > 0 && failed > ok, "{ok} read, {failed} refused");
}

#[test]
fn edits_of_a_network_document_write_the_network_form() {
    for name in ["complex_player.dat", "level.dat", "bigtest.nbt"] {
        let net = to_network(corpus::load(name).unwrap()).unwrap();
        let mut doc = bdoc::read_network(&mut Cursor::new(&net[..]))
            .unwrap()
            .unwrap();
        let owned::Nbt::Some(mut expected) =
            bedrock::owned::read_network(&mut Cursor::new(&net[..])).unwrap()
        else {
            panic!("{name}: no root");
        };
        let first = expected.keys().next().unwrap().to_str().into_owned();
        {
            let mut root = doc.as_compound_mut().unwrap();
            root.set("added", -42i64).unwrap();
            root.set("text", "a\0😀").unwrap();
            assert!(root.remove(&first));
        }
        expected.insert("added", -42i64);
        expected.insert("text", "a\0😀");
        expected.remove(&first);
        assert_eq!(doc.encoding(), Encoding::Network);
        let out = doc.to_bytes();
        let back = bedrock::owned::read_network(&mut Cursor::new(&out[..])).unwrap();
        assert!(
            back == owned::Nbt::Some(expected.clone()),
            "{name}: edited values"
        );
        // The owned tree with the same edits writes the same bytes.
        let mut owned_out = Vec::new();
        bedrock::owned::write_network(&owned::Nbt::Some(expected), &mut owned_out).unwrap();
        assert!(
            out == owned_out,
            "{name}: document and owned tree wrote different bytes"
        );
        // Compacted, it still writes the network form, the same bytes.
        doc.compact();
        assert_eq!(doc.encoding(), Encoding::Network);
        assert!(doc.to_bytes() == out, "{name}: after compact");
    }
}

/// The most the network form grows by when the document stores it as
/// Java: a Long of one VarInt byte is eight bytes. A list of 100,000 zero
/// Longs (100,009 bytes) becomes 800,012 Java bytes; what the document
/// keeps is those bytes plus one node.
#[test]
fn a_list_of_one_byte_longs_is_stored_in_eight_times_its_size() {
    let n = 100_000u32;
    let mut net = vec![10, 0, 9, 1, b'l', 4];
    // The list's length as a ZigZag VarInt (a signed Int: n → 2n).
    let mut len = 2 * n;
    while len >= 0x80 {
        net.push((len as u8) | 0x80);
        len >>= 7;
    }
    net.push(len as u8);
    net.extend(std::iter::repeat_n(0u8, n as usize));
    net.push(0);
    let doc = bdoc::read_network(&mut Cursor::new(&net[..]))
        .unwrap()
        .unwrap();
    let list = doc.list("l").unwrap();
    assert_eq!(list.len(), n as usize);
    let mut java = Vec::new();
    doc.write_in(Framing::Named, Encoding::BigEndian, &mut java);
    assert!(
        java.len() <= 8 * net.len(),
        "{} Java bytes for {}",
        java.len(),
        net.len()
    );
    assert_eq!(doc.to_bytes(), net);
}

/// A network input whose Java form passes the 2 GiB a document holds is
/// `InputTooLarge`, not a panic (it was one, in an `expect`): 2^28 + 1
/// Longs of one VarInt byte each (a 256 MiB input, 2 GiB and 8 bytes in
/// Java), refused where the list starts, before its Java form is allocated.
#[test]
#[cfg_attr(miri, ignore = "a 256 MiB input")]
fn a_network_input_past_2_gib_in_java_is_input_too_large() {
    let n = (1u64 << 28) + 1;
    let mut net = vec![10, 0, 9, 1, b'l', 4];
    let mut len = 2 * n;
    while len >= 0x80 {
        net.push((len as u8) | 0x80);
        len >>= 7;
    }
    net.push(len as u8);
    let list = net.len();
    net.resize(list + n as usize, 0);
    net.push(0);
    let e = bdoc::read_network(&mut Cursor::new(&net[..])).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InputTooLarge);
    assert_eq!(e.offset(), list);
}
