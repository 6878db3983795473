//! Peak memory of the document read from Bedrock's network form
//! (`bedrock::document::read_network`), which stores the input's Java form:
//! the amplification inputs in the network form, and Longs of one VarInt
//! byte each (eight bytes in Java, the most the form grows by).
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::bedrock;

#[allow(unused_imports)] // rustdoc link only
use crate::DOCUMENT_BOUND;
use crate::{M, SLACK, cases, list_doc, measure_first_read};

/// The bound on any network input, × its size (plus `SLACK`): a 16-byte node
/// per input byte at worst (an empty compound, string or array in a list is
/// one byte in this form; the arena grows no further than that), and the
/// Java bytes it is stored as, with at most an eighth of slack (up to 4×
/// where those nodes are: an empty array takes four bytes in Java; up to 8×
/// only for numbers, which take no node). Measured 20.00× at worst, 4M
/// empty byte arrays (it was 27.3× on the Java bound's worst cases, the
/// arena and the transcoder's output each doubling past their need).
const NETWORK_DOCUMENT_BOUND: f64 = 21.0;

#[test]
#[cfg_attr(miri, ignore)]
fn network_document_peak_memory_is_bounded() {
    let mut inputs: Vec<(String, Vec<u8>)> = cases()
        .into_iter()
        .map(|case| {
            let net = bedrock::to_network(&(case.make)()).unwrap();
            (case.name, net)
        })
        .collect();
    // {l: [0L, 0L, ...]}: the list's length a ZigZag VarInt, each Long 1 byte.
    let n = 4 * M;
    let mut longs = vec![10, 0, 9, 1, b'l', 4];
    let mut len = 2 * n;
    while len >= 0x80 {
        longs.push(len as u8 | 0x80);
        len >>= 7;
    }
    longs.push(len as u8);
    longs.resize(longs.len() + n, 0);
    longs.push(0);
    inputs.push(("4M one-byte Longs in a list".into(), longs));
    // A node and four Java bytes per input byte: the densest input here.
    for (name, elem) in [("byte", 7u8), ("int", 11), ("long", 12)] {
        let java = list_doc(elem, 4 * M, &[0, 0, 0, 0]);
        inputs.push((
            format!("4M empty {name} arrays in a list"),
            bedrock::to_network(&java).unwrap(),
        ));
    }
    let mut over = Vec::new();
    println!("| network input | size | document peak | ratio |");
    println!("|---|---:|---:|---:|");
    for (name, net) in &inputs {
        let peak = measure_first_read(|| {
            let doc = bedrock::document::read_network(&mut Cursor::new(&net[..])).unwrap();
            assert!(doc.is_some(), "{name}");
            doc
        });
        let ratio = peak.in_place as f64 / net.len() as f64;
        println!(
            "| {name} | {} | {} | {ratio:.2}× |",
            net.len(),
            peak.in_place
        );
        if peak.in_place as f64 > NETWORK_DOCUMENT_BOUND * net.len() as f64 + SLACK as f64 {
            over.push(format!("{name}: {ratio:.2}×"));
        }
    }
    assert!(over.is_empty(), "network document over its bound: {over:?}");
}
