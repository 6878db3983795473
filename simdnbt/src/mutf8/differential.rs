//! Differential tests: the public decoders, with their fast paths
//! (`short_ascii`, the ASCII check, `simd_cesu8`), against the hand-written
//! step-by-step decoder alone ([`decode_slow`] from byte 0), which states the
//! module's rules directly. Any input on which `simd_cesu8` accepts what the
//! rules reject (or decodes it differently), or an error offset or lossy
//! output that the routing changes, fails here.

use std::borrow::Cow;

use super::decode::*;
use super::encode::*;
use super::string::*;
use super::*;
use crate::simd::tests::Rng;

/// The rules alone: checked result and lossy result, no fast path.
fn reference(bytes: &[u8]) -> (Result<String, Mutf8Error>, String) {
    let mut checked = String::new();
    let checked = decode_slow(bytes, 0, &mut checked, false).map(|()| checked);
    let mut lossy = String::new();
    decode_slow(bytes, 0, &mut lossy, true).expect("lossy never fails");
    (checked, lossy)
}

/// Whether the rules say `bytes` decode to themselves (so may be borrowed):
/// valid UTF-8 without 4-byte sequences.
fn identical_in_utf8(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok() && !bytes.iter().any(|&b| b >= 0xF0)
}

/// Checks every public decoding entry point on `bytes` against [`reference`].
fn check(bytes: &[u8]) {
    let (want, want_lossy) = reference(bytes);
    let got = decode(bytes);
    match (&got, &want) {
        (Ok(g), Ok(w)) => assert_eq!(g, w, "{bytes:02X?}"),
        (Err(g), Err(w)) => assert_eq!(g, w, "{bytes:02X?}"),
        _ => panic!("{bytes:02X?}: decode gave {got:?}, the rules {want:?}"),
    }
    let borrowed = identical_in_utf8(bytes);
    if let Ok(g) = &got {
        assert_eq!(matches!(g, Cow::Borrowed(_)), borrowed, "{bytes:02X?}");
    }
    let lossy = decode_lossy(bytes);
    assert_eq!(lossy, want_lossy, "{bytes:02X?}");
    assert_eq!(matches!(lossy, Cow::Borrowed(_)), borrowed, "{bytes:02X?}");
    // The owned forms reuse or copy the buffer through the same decoders.
    let owned = Mutf8String::from_slice(bytes);
    assert_eq!(owned.clone().into_string(), want_lossy, "{bytes:02X?}");
    assert_eq!(owned.try_into_string(), want, "{bytes:02X?}");
    let heap = Mutf8String::heap(bytes.to_vec());
    assert_eq!(heap.clone().into_string(), want_lossy, "{bytes:02X?}");
    assert_eq!(heap.try_into_string(), want, "{bytes:02X?}");
}

/// Sequences around which the rules have edges: `C0 80`, surrogates paired
/// and not, 4-byte UTF-8, overlongs, raw `00`, truncations.
const CORES: &[&[u8]] = &[
    b"",
    b"\xC0\x80",
    b"\xED\xA0\x80",
    b"\xED\xB0\x80",
    b"\xED\xA0\xBD\xED\xB8\x80",
    b"\xED\xAF\xBF\xED\xBF\xBF",
    b"\xED\xA0\xBD\xED\xA0\xBD",
    b"\xED\x9F\xBF",
    b"\xF0\x9F\x98\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xF0\x9F",
    b"\xE0\x80\x80",
    b"\xE0\xA0\x80",
    b"\xC1\x81",
    b"\xC0",
    b"\x00",
    b"\xEF\xBF\xBF",
];

/// Bytes for the prefixes and suffixes around each core: ASCII, NUL, the
/// lead and continuation bytes that can join or break a neighbour.
const EDGE_BYTES: &[u8] = &[
    0x00, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
    0xFF,
];

/// Every byte string of up to `max` bytes over `alphabet`.
fn all_strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        let next: Vec<Vec<u8>> = last
            .iter()
            .flat_map(|s: &Vec<u8>| {
                alphabet.iter().map(move |&b| {
                    let mut t = s.clone();
                    t.push(b);
                    t
                })
            })
            .collect();
        out.extend(next.iter().cloned());
        last = next;
    }
    out
}

/// Every prefix and suffix of up to 1 edge byte each, and every prefix (or
/// suffix) alone of up to 3, around every core, alone and padded with
/// non-ASCII text past the 16-byte inline check and into a 64-byte SIMD
/// block.
#[test]
fn edges_agree_with_the_rules() {
    let (alphabet, short, long) = if cfg!(miri) {
        (&[0x00, 0x80, 0xED, 0xF0][..], 1, 1)
    } else {
        (EDGE_BYTES, 1, 3)
    };
    let shorts = all_strings(alphabet, short);
    let longs = all_strings(alphabet, long);
    let pads: &[&[u8]] = if cfg!(miri) {
        &[b""]
    } else {
        &[
            b"",
            "été 世界 plain text, long enough for a vector".as_bytes(),
        ]
    };
    let mut input = Vec::new();
    for core in CORES {
        for pad in pads {
            let sides = [
                (&shorts, &shorts),
                (&longs, &vec![Vec::new()]),
                (&vec![Vec::new()], &longs),
            ];
            for (prefixes, suffixes) in sides {
                for pre in prefixes.iter() {
                    for suf in suffixes.iter() {
                        input.clear();
                        input.extend_from_slice(pad);
                        input.extend_from_slice(pre);
                        input.extend_from_slice(core);
                        input.extend_from_slice(suf);
                        input.extend_from_slice(pad);
                        check(&input);
                    }
                }
            }
        }
    }
}

/// Random bytes: uniform, and drawn from the edge bytes and cores, in
/// lengths up to a few SIMD blocks.
#[test]
fn random_bytes_agree_with_the_rules() {
    let mut rng = Rng::new(0xC35_0008);
    let iters = if cfg!(miri) { 30 } else { 30_000 };
    for i in 0..iters {
        let len = (rng.next() % if i % 4 == 0 { 300 } else { 24 }) as usize;
        let mut bytes = Vec::with_capacity(len + 6);
        while bytes.len() < len {
            let r = rng.next();
            match r % 5 {
                0 => bytes.push((r >> 8) as u8),
                1 => bytes.extend_from_slice(CORES[(r >> 8) as usize % CORES.len()]),
                2 => bytes.push(EDGE_BYTES[(r >> 8) as usize % EDGE_BYTES.len()]),
                3 => bytes.extend_from_slice("é世".as_bytes()),
                _ => bytes.push(b'a' + (r >> 8) as u8 % 26),
            }
        }
        check(&bytes);
    }
}

/// Valid MUTF-8 of random characters (the path `simd_cesu8` takes) decodes
/// as the rules say, borrowed exactly when it is UTF-8 too.
#[test]
fn random_valid_text_agrees_with_the_rules() {
    let mut rng = Rng::new(0x7E_57);
    let iters = if cfg!(miri) { 20 } else { 5_000 };
    let chars = ['a', '\0', 'é', '世', '\u{FFFF}', '😀', '\u{10FFFF}', ' '];
    for _ in 0..iters {
        let len = (rng.next() % 120) as usize;
        let s: String = (0..len)
            .map(|_| chars[rng.next() as usize % chars.len()])
            .collect();
        let enc = encode(&s);
        check(&enc);
        assert_eq!(decode(&enc).unwrap(), s);
        // As UTF-8 (raw 00 accepted; 4-byte sequences rejected).
        check(s.as_bytes());
    }
}
