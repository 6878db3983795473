//! Peak memory of the document read from Bedrock's little-endian form
//! (`bedrock::document::read_le`): the amplification inputs in that form,
//! and the densest of them with one U+0000 string, which makes the read
//! convert the document to the Java form (UTF-8 `00` is `C0 80` in MUTF-8).
#![cfg(feature = "bedrock")]

use std::io::Cursor;

use simdnbt::bedrock;

use crate::{M, SLACK, cases, list_doc, measure_first_read, two_lists};

/// The bound on any little-endian input, × its size (plus `SLACK`): the
/// Java bound (a node per input byte, the stored copy and its headroom: the
/// forms have the same sizes). A document converted while it is read lets
/// go of the little-endian one first (its bytes are moved out, or copied
/// when they share the arena's allocation, which then had room for them),
/// so the peak stays one document's (it was two, 35× the input).
const LE_DOCUMENT_BOUND: f64 = 18.0;

/// `java` (a root compound) with one more entry, `nul: "\0"`.
fn with_nul(java: Vec<u8>) -> Vec<u8> {
    let mut v = java;
    v.pop();
    v.extend_from_slice(&[8, 0, 3, b'n', b'u', b'l', 0, 2, 0xc0, 0x80, 0]);
    v
}

#[test]
#[cfg_attr(miri, ignore)]
fn le_document_peak_memory_is_bounded() {
    let mut inputs: Vec<(String, Vec<u8>, bool)> = cases()
        .into_iter()
        .map(|case| {
            let le = bedrock::to_little_endian(&(case.make)()).unwrap();
            (case.name, le, false)
        })
        .collect();
    let nul = |name: &str, java: Vec<u8>| {
        let le = bedrock::to_little_endian(&with_nul(java)).unwrap();
        (format!("{name}, and U+0000"), le, true)
    };
    inputs.push(nul("4M empty compounds", list_doc(10, 4 * M, &[0])));
    inputs.push(nul(
        "4M empty compounds, then 20 empty strings",
        two_lists(list_doc(10, 4 * M, &[0]), &list_doc(8, 20, &[0, 0])),
    ));
    // Strings of one U+0000: 3 bytes each here, 4 in Java.
    inputs.push(nul(
        "1M strings of U+0000",
        list_doc(8, M, &[0, 2, 0xc0, 0x80]),
    ));
    let mut over = Vec::new();
    println!("| little-endian input | size | document peak | ratio |");
    println!("|---|---:|---:|---:|");
    for (name, le, has_nul) in &inputs {
        let peak = measure_first_read(|| {
            let doc = bedrock::document::read_le(&mut Cursor::new(&le[..])).unwrap();
            let doc = doc.unwrap_or_else(|| panic!("{name}"));
            if *has_nul {
                assert_eq!(doc.string("nul").unwrap().to_str(), "\0", "{name}");
            }
            doc
        });
        let ratio = peak.in_place as f64 / le.len() as f64;
        println!(
            "| {name} | {} | {} | {ratio:.2}× |",
            le.len(),
            peak.in_place
        );
        if peak.in_place as f64 > LE_DOCUMENT_BOUND * le.len() as f64 + SLACK as f64 {
            over.push(format!("{name}: {ratio:.2}×"));
        }
    }
    assert!(
        over.is_empty(),
        "little-endian document over its bound: {over:?}"
    );
}
