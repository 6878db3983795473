//! The expansion builds exactly the value the run-time parser reads from the
//! same text: every tag type, nesting, extremes, float bits and MUTF-8.

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt_macros::{snbt, snbt_compound};

/// Checks a literal's expansion against `simdnbt::snbt::from_str` on its text.
macro_rules! same {
    ($text:literal) => {
        assert_eq!(
            snbt!($text),
            simdnbt::snbt::from_str($text).unwrap(),
            "{}",
            $text
        );
    };
}

#[test]
fn every_tag_type_matches_the_run_time_parser() {
    same!("1b");
    same!("-128b");
    same!("-32768s");
    same!("-2147483648");
    same!("-9223372036854775808L");
    same!("9223372036854775807L");
    same!("0.1f");
    same!("-0.0d");
    same!("1e308d");
    same!("\"text\"");
    same!("'quoted \\'single\\''");
    same!("[B; 1b, -1b, 127b]");
    same!("[I; -2147483648, 0, 7]");
    same!("[L; -9223372036854775808L, 5L]");
    same!("[]");
    same!("[1b, 2b]");
    same!("[1s, 2s]");
    same!("[1, 2]");
    same!("[1L]");
    same!("[1.5f, -0.0f]");
    same!("[2.5d]");
    same!("[\"a\", \"b\"]");
    same!("[[B; 1b], [B;]]");
    same!("[[I; 1], [I;]]");
    same!("[[L; 1L]]");
    same!("[[], [1], [\"x\"], [[{}]]]");
    same!("[{}, {a: 1}, {b: [{c: [I; 3]}]}]");
    same!("{}");
    same!(
        r#"{id: "minecraft:stone", Count: 64b, tag: {display: {Name: '{"text":"x"}'}, list: [{a: [[1b]]}]}}"#
    );
}

#[test]
fn strings_keep_their_mutf8_bytes() {
    // U+0000 is C0 80 in MUTF-8, and a supplementary character two 3-byte halves.
    let tag = snbt!(r#""\u0000é😀""#);
    let NbtTag::String(s) = &tag else {
        panic!("{tag:?}")
    };
    assert_eq!(
        s.as_bytes(),
        [0xC0, 0x80, 0xC3, 0xA9, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]
    );
    assert_eq!(tag, simdnbt::snbt::from_str(r#""\u0000é😀""#).unwrap());
}

#[test]
fn float_bits_are_exact() {
    assert_eq!(snbt!("-0.0f"), NbtTag::Float(-0.0));
    let NbtTag::Float(f) = snbt!("-0.0f") else {
        unreachable!()
    };
    assert_eq!(f.to_bits(), (-0.0f32).to_bits());
    let NbtTag::Double(d) = snbt!("0.1d") else {
        unreachable!()
    };
    assert_eq!(d, 0.1);
}

#[test]
fn compounds_keep_order_and_the_last_of_a_repeated_key() {
    let c: NbtCompound = snbt_compound!("{z: 1, a: 2, z: 3}");
    let keys: Vec<String> = c.keys().map(|k| k.to_string()).collect();
    assert_eq!(keys, ["z", "a"]);
    assert_eq!(c.int("z"), Some(3));
    assert_eq!(
        c,
        simdnbt::snbt::compound_from_str("{z: 1, a: 2, z: 3}").unwrap()
    );
}

#[test]
fn deep_nesting_expands_without_nested_code() {
    // 200 levels of lists in lists (the parser allows 512); the expansion is
    // a flat sequence of `let`s, so this compiles without raising limits.
    let text = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let mut expected = NbtList::Empty;
    for _ in 1..200 {
        expected = NbtList::List(vec![expected]);
    }
    assert_eq!(
        simdnbt::snbt::from_str(&text).unwrap(),
        NbtTag::List(expected.clone())
    );
    let deep = snbt!(
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
    );
    assert_eq!(deep, NbtTag::List(expected));
}

#[test]
fn trybuild_bad_literals_are_compile_errors_at_the_literal() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
