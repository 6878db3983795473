//! Differential tests of the printer's strings: [`to_string`](super::to_string)
//! of a string value and of a compound key, with the run-based
//! [`write_quoted`](super::string::write_quoted) and the printer's final UTF-8
//! check, against [`reference`], which applies the quoting and escaping
//! rules (see the module docs of [`super`]) one UTF-16 code unit at a time.
//! Any byte string the two print differently, or that one refuses and the
//! other prints, fails here.

use super::PrintError;
use crate::Mutf8String;
use crate::owned::{NbtCompound, NbtTag};
use crate::simd::tests::Rng;

/// One MUTF-8 sequence at `s`: its UTF-16 code unit and length, or a whole
/// 4-byte UTF-8 character as its code point (non-Java writers emit them).
fn unit_at(s: &[u8]) -> Option<(u32, usize)> {
    let cont = |i: usize| {
        s.get(i)
            .copied()
            .filter(|b| b & 0xC0 == 0x80)
            .map(u32::from)
    };
    let b0 = *s.first()? as u32;
    match b0 {
        0xC0..=0xDF => {
            let v = ((b0 & 0x1F) << 6) | (cont(1)? & 0x3F);
            (v >= 0x80 || v == 0).then_some((v, 2))
        }
        0xE0..=0xEF => {
            let v = ((b0 & 0x0F) << 12) | ((cont(1)? & 0x3F) << 6) | (cont(2)? & 0x3F);
            (v >= 0x800).then_some((v, 3))
        }
        _ => {
            let c = std::str::from_utf8(s.get(..4)?).ok()?.chars().next()?;
            Some((c as u32, 4))
        }
    }
}

/// The rules, one code unit at a time: what a quoted string prints as.
fn reference_quoted(s: &[u8]) -> Result<String, PrintError> {
    let quote = if s.contains(&b'"') && !s.contains(&b'\'') {
        '\''
    } else {
        '"'
    };
    let mut out = String::from(quote);
    let mut i = 0;
    while i < s.len() {
        let (mut cp, len) = if s[i] < 0x80 {
            (s[i] as u32, 1)
        } else {
            unit_at(&s[i..]).ok_or(PrintError::InvalidString)?
        };
        i += len;
        if (0xD800..0xDC00).contains(&cp) {
            match unit_at(&s[i..]) {
                Some((low @ 0xDC00..0xE000, 3)) => {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i += 3;
                }
                _ => {
                    out += &format!("\\u{cp:04X}");
                    continue;
                }
            }
        } else if (0xDC00..0xE000).contains(&cp) {
            out += &format!("\\u{cp:04X}");
            continue;
        }
        let c = char::from_u32(cp).expect("surrogates are handled above");
        match c {
            '\n' => out += "\\n",
            '\t' => out += "\\t",
            '\r' => out += "\\r",
            '\u{8}' => out += "\\b",
            '\u{c}' => out += "\\f",
            '\\' => out += "\\\\",
            _ if c == quote => {
                out.push('\\');
                out.push(quote);
            }
            '\0'..'\u{20}' | '\u{7f}'..'\u{a0}' => out += &format!("\\x{cp:02X}"),
            _ => out.push(c),
        }
    }
    out.push(quote);
    Ok(out)
}

/// Whether a key prints bare (the rule of `string::is_plain_key`).
fn plain_key(s: &[u8]) -> bool {
    s.first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && s.iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"_-.+".contains(&b))
        && !s.eq_ignore_ascii_case(b"true")
        && !s.eq_ignore_ascii_case(b"false")
}

/// Checks `s` as a string value and as a compound key.
fn check(s: &[u8]) {
    let value = NbtTag::String(Mutf8String::from_slice(s));
    assert_eq!(
        super::to_string(&value),
        reference_quoted(s),
        "value {s:02X?}"
    );
    let mut compound = NbtCompound::new();
    compound.insert(Mutf8String::from_slice(s), NbtTag::Byte(1));
    let key = if plain_key(s) {
        Ok(String::from_utf8(s.to_vec()).expect("ASCII"))
    } else {
        reference_quoted(s)
    };
    let want = key.map(|k| format!("{{{k}:1b}}"));
    assert_eq!(
        super::to_string(&NbtTag::Compound(compound)),
        want,
        "key {s:02X?}"
    );
}

/// Pieces the strings are made of: each class of byte the printer treats
/// on its own (copied, escaped, transcoded, refused), whole and cut short.
const PIECES: &[&[u8]] = &[
    b"a",
    b"plain text ",
    b"\"",
    b"'",
    b"\\",
    b"\n",
    b"\t",
    b"\r",
    b"\x08",
    b"\x0C",
    b"\x00",
    b"\x01",
    b"\x1F",
    b"\x7F",
    b"\xC0\x80",
    b"\xC0\x81",
    b"\xC0",
    b"\xC1\xBF",
    b"\xC2\x80",
    b"\xC2\x9F",
    b"\xC2\xA0",
    b"\xC2\xBF",
    b"\xC2",
    b"\xC3\xA9",
    b"\xDF\xBF",
    b"\xE0\xA0\x80",
    b"\xE0\x9F\xBF",
    b"\xE4\xB8\x96",
    b"\xE4\xB8",
    b"\xED\x9F\xBF",
    b"\xED\x80\x80",
    b"\xED\xA0\x80",
    b"\xED\xAF\xBF",
    b"\xED\xB0\x80",
    b"\xED\xBF\xBF",
    b"\xED\xA0\xBD\xED\xB8\x80",
    b"\xED\xA0",
    b"\xED",
    b"\xEF\xBF\xBF",
    b"\xF0\x9F\x98\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF0\x9F\x98",
    b"\xF5",
    b"\xFF",
    b"\x80",
    b"\xBF",
];

#[test]
fn every_pair_of_pieces_prints_as_the_rules_say() {
    // Under Miri (slow: this was a fifth of its unit tests' time at a step
    // of 7), every first piece with a spread of second pieces that starts
    // one further along for each first piece, so every piece is a second
    // one somewhere.
    let step = if cfg!(miri) { 16 } else { 1 };
    for (i, a) in PIECES.iter().enumerate() {
        check(a);
        for b in PIECES.iter().skip(i % step).step_by(step) {
            let s = [*a, *b].concat();
            check(&s);
            // Past 16 bytes, so the vector search runs, with the pair at the
            // start, the end and across a block boundary.
            let pad = b"0123456789abcdef";
            check(&[&s, &pad[..]].concat());
            check(&[&pad[..], &s].concat());
            check(&[&pad[..15], &s, &pad[..]].concat());
        }
    }
}

#[test]
fn random_strings_print_as_the_rules_say() {
    let mut rng = Rng::new(0x5EED_517E);
    let rounds = if cfg!(miri) { 200 } else { 20_000 };
    let mut s = Vec::new();
    for _ in 0..rounds {
        s.clear();
        let pieces = rng.next() % 24;
        for _ in 0..pieces {
            // Mostly text that is copied, so runs are long and the searches
            // cross blocks; the odd special piece among them.
            let p = rng.next() as usize;
            if p % 4 == 0 {
                s.extend_from_slice(PIECES[(p >> 8) % PIECES.len()]);
            } else {
                s.extend_from_slice(["é", "世界", "abc", "한", "€"][(p >> 8) % 5].as_bytes());
            }
        }
        check(&s);
    }
}
