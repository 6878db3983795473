//! Peak memory of the document read from Bedrock's network form
//! (`bedrock::document::read_network`), which stores the input's Java form:
//! the amplification inputs in the network form, and Longs of one VarInt
//! byte each (eight bytes in Java, the most the form grows by).
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::bedrock;

#[allow(unused_imports)] // rustdoc link only
use crate::DOCUMENT_BOUND;
use crate::{M, SLACK, cases, measure_first_read};

/// The bound on any network input, × its size: a 16-byte node per input
/// byte at worst (an empty string or array in a list is one byte in this
/// form), the Java bytes it is stored as (up to 4× where those nodes are: an
/// empty array takes four in Java; up to 8× only for numbers, which take no
/// node: measured 9.72× on one-byte Longs), and the arena's growth (measured
/// 24.10× at worst, 2.6M empty compounds then 1.2M empty strings; the Java
/// form of the same inputs stays within [`DOCUMENT_BOUND`]).
const NETWORK_DOCUMENT_BOUND: f64 = 25.0;

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
