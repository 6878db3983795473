//! Typed JSON: the corpus through typed JSON and back byte for byte, every
//! kept fact (types, order, repeated keys, float bits, empty-list types, raw
//! strings, the root name), and hostile JSON (deep nesting, huge numbers,
//! wrong types, repeated keys in the type objects) giving errors that say
//! where.
#![cfg(feature = "json")]

use std::io::Cursor;

use simdnbt::Mutf8String;
use simdnbt::json;
use simdnbt::owned::{self, BaseNbt, NbtCompound, NbtList, NbtTag};

use crate::support::{deep_owned_compound, deep_owned_list, on_small_stack};

fn write(nbt: &BaseNbt) -> Vec<u8> {
    let mut out = Vec::new();
    nbt.write(&mut out).unwrap();
    out
}

/// NBT → typed JSON (compact and pretty) → NBT: the same bytes.
fn round_trips(nbt: &BaseNbt) {
    let bytes = write(nbt);
    let text = json::to_string(nbt).unwrap();
    let back = json::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(write(&back), bytes, "{text}");
    let mut pretty = Vec::new();
    json::to_writer_pretty(&mut pretty, nbt).unwrap();
    assert_eq!(write(&json::from_slice(&pretty).unwrap()), bytes);
}

#[test]
fn every_corpus_file_round_trips_exactly() {
    let mut files = 0;
    for name in corpus::all_names() {
        let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
        let Ok(owned::Nbt::Some(nbt)) = owned::read(&mut Cursor::new(bytes)) else {
            continue;
        };
        // The owned writer's bytes: the file's own for all but files that
        // are not in the writer's form (which the owned tests cover).
        let bytes = write(&nbt);
        let text = json::to_string(&nbt).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            write(&back) == bytes,
            "{name}: bytes differ after typed JSON"
        );
        assert_eq!(back.name(), nbt.name());
        files += 1;
    }
    eprintln!("typed JSON round trip: {files} corpus files");
    assert!(files >= 5, "only {files} corpus files checked");
}

#[test]
fn keeps_types_order_repeats_bits_empty_lists_raw_strings_and_the_name() {
    let mut c = NbtCompound::new();
    c.push("b", 1i8);
    c.push("s", 2i16);
    c.push("i", 3i32);
    c.push("l", i64::MIN);
    c.push("dup", 1i32);
    c.push("dup", NbtTag::String("second".into()));
    c.push("nan", f32::from_bits(0x7fc0_1234));
    c.push("negzero", -0.0f32);
    c.push("inf", f64::NEG_INFINITY);
    c.push("dnan", f64::from_bits(0xfff8_0000_0000_0001));
    c.push("tiny", f32::from_bits(1));
    c.push("third", 0.1f32);
    c.push("max", f32::MAX);
    c.push("empty", NbtTag::List(NbtList::Empty));
    c.push("empty ints", NbtTag::List(NbtList::Int(Vec::new())));
    c.push(
        "raw",
        NbtTag::String(Mutf8String::from_vec(vec![0xff, 0x00, b'a'])),
    );
    c.push(
        "nul",
        NbtTag::String(Mutf8String::from_vec(vec![0xc0, 0x80])),
    );
    c.push(Mutf8String::from_vec(vec![0xed, 0xa0, 0x80]), 1i8);
    c.push("bytes", NbtTag::ByteArray(vec![0, 127, 128, 255]));
    c.push("ints", NbtTag::IntArray(vec![i32::MIN, i32::MAX]));
    c.push("longs", NbtTag::LongArray(vec![i64::MAX]));
    c.push(
        "floats",
        NbtTag::List(NbtList::Float(vec![-0.0, f32::NAN, 1.5])),
    );
    c.push(
        "lists",
        NbtTag::List(NbtList::List(vec![NbtList::Empty, NbtList::Byte(vec![1])])),
    );
    c.push(
        "compounds",
        NbtTag::List(NbtList::Compound(vec![
            NbtCompound::new(),
            deep_owned_compound(3),
        ])),
    );
    c.push(
        "strings",
        NbtTag::List(NbtList::String(vec![
            "é".into(),
            Mutf8String::from_vec(vec![0x80]),
        ])),
    );
    c.push(
        "byte arrays",
        NbtTag::List(NbtList::ByteArray(vec![vec![1, 255]])),
    );
    c.push(
        "int arrays",
        NbtTag::List(NbtList::IntArray(vec![vec![1], vec![]])),
    );
    c.push(
        "long arrays",
        NbtTag::List(NbtList::LongArray(vec![vec![-1]])),
    );
    let nbt = BaseNbt::new(Mutf8String::from_vec(vec![b'r', 0xff]), c);
    round_trips(&nbt);
    let text = json::to_string(&nbt).unwrap();
    for piece in [
        r#"{"name":[114,255],"compound":["#,
        r#"{"name":"b","byte":1}"#,
        r#"{"name":"l","long":-9223372036854775808}"#,
        r#"{"name":"dup","int":1},{"name":"dup","string":"second"}"#,
        r#"{"name":"nan","float":"0x7fc01234"}"#,
        r#"{"name":"negzero","float":"0x80000000"}"#,
        r#"{"name":"third","float":0.1}"#,
        r#"{"name":"empty","list":["end"]}"#,
        r#"{"name":"empty ints","list":["int"]}"#,
        r#"{"name":"raw","string":[255,0,97]}"#,
        r#"{"name":"nul","string":"\u0000"}"#,
        r#"{"name":[237,160,128],"byte":1}"#,
        r#"{"name":"bytes","byte_array":[0,127,-128,-1]}"#,
        r#"{"name":"floats","list":["float","0x80000000","0x7fc00000",1.5]}"#,
    ] {
        assert!(text.contains(piece), "{piece} not in {text}");
    }
}

#[test]
fn deep_documents_write_up_to_the_limit_and_never_overflow() {
    for depth in [json::MAX_DEPTH - 1, json::MAX_DEPTH] {
        round_trips(&BaseNbt::new("", deep_owned_compound(depth)));
        let mut c = NbtCompound::new();
        c.insert("l", NbtTag::List(deep_owned_list(depth - 1)));
        round_trips(&BaseNbt::new("", c));
    }
    let too_deep = BaseNbt::new("", deep_owned_compound(json::MAX_DEPTH + 1));
    let err = json::to_string(&too_deep).unwrap_err();
    assert!(err.to_string().contains("nested deeper than"), "{err}");
    // Hostile nesting: 100 000 levels of arrays or entries, on a small stack.
    let results = on_small_stack(|| {
        let arrays = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let lists = format!(
            r#"{{"name":"","compound":[{{"name":"l","list":{}"end"{}}}]}}"#,
            r#"["list","#.repeat(100_000),
            "]".repeat(100_000)
        );
        let entries = r#"{"name":"","compound":["#.repeat(100_000);
        [arrays, lists, entries].map(|t| json::from_str(&t).map(|_| ()).map_err(|e| e.to_string()))
    });
    let [arrays, lists, entries] = results.map(Result::unwrap_err);
    assert!(arrays.contains("invalid type: sequence"), "{arrays}");
    for e in [lists, entries] {
        assert!(
            e.contains("deeper than") || e.contains("recursion limit"),
            "{e}"
        );
    }
}

#[test]
fn hostile_json_is_an_error_that_says_where() {
    let cases: &[(&str, &str)] = &[
        ("", "EOF"),
        ("[]", "invalid type: sequence"),
        (r#"{"name":""}"#, "without a type key"),
        (r#"{"compound":[]}"#, "without `name`"),
        (r#"{"name":"","name":"","compound":[]}"#, "`name` twice"),
        (
            r#"{"name":"","compound":[],"compound":[]}"#,
            "a second type `compound`",
        ),
        (r#"{"name":"","compound":[],"x":1}"#, "unknown type `x`"),
        (r#"{"name":"","int":1}"#, "the root is a `int`"),
        (
            r#"{"name":"","compound":[{"name":"a","byte":128}]}"#,
            "expected i8",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","long":99999999999999999999}]}"#,
            "expected i64",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","int":1.5}]}"#,
            "expected i32",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","float":1e39}]}"#,
            "out of range for a float",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","float":"0x1"}]}"#,
            "8 hex digits",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","double":"nan"}]}"#,
            "16 hex digits",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","string":[256]}]}"#,
            "expected u8",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","string":5}]}"#,
            "a string, or an array",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","list":[]}]}"#,
            "without its element type",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","list":["end",1]}]}"#,
            "`end` has no elements",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","list":["int","x"]}]}"#,
            "expected i32",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","end":0}]}"#,
            "only a list's element type",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","byte_array":[-129]}]}"#,
            "expected i8",
        ),
        (r#"{"name":"","compound":{}}"#, "invalid type: map"),
        (r#"{"name":"","compound":[]} x"#, "trailing characters"),
    ];
    for &(text, message) in cases {
        let err = json::from_str(text).expect_err(text);
        assert!(err.to_string().contains(message), "{text}: {err}");
        assert!(
            err.line() >= 1 && err.column() >= 1 || text.is_empty(),
            "{text}: {err}"
        );
    }
    let long = format!(
        r#"{{"name":"","compound":[{{"name":"a","string":"{}"}}]}}"#,
        "x".repeat(70_000)
    );
    assert!(
        json::from_str(&long)
            .unwrap_err()
            .to_string()
            .contains("more than NBT's 65535")
    );
}

/// Broken typed JSON names the value it breaks on, as a JSON pointer, and
/// keeps typed JSON's shape (so a tool that also reads plain JSON reports
/// it instead of reading the file as plain JSON).
#[test]
fn broken_typed_json_names_the_value() {
    let cases: &[(&str, &str, &str)] = &[
        (
            r#"{"name":"","compound":[{"name":"a","byte":300}]}"#,
            "/compound/0/byte",
            "expected i8",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","int":1},{"name":"b","bite":1}]}"#,
            "/compound/1/bite",
            "unknown type `bite`",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","int":1.5}]}"#,
            "/compound/0/int",
            "expected i32",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","float":1e39}]}"#,
            "/compound/0/float",
            "out of range for a float",
        ),
        (
            "{\n  \"name\": \"\",\n  \"compound\": [\n    {\"name\": \"l\", \"list\": [\"int\", 1, \"x\"]}\n  ]\n}",
            "/compound/0/list/2",
            "expected i32",
        ),
        (
            r#"{"name":"","compound":[{"name":"a~/b","compound":[{"name":"c","long":1.0}]}]}"#,
            "/compound/0/compound/0/long",
            "expected i64",
        ),
        (
            r#"{"name":"","compound":[{"name":"a","list":[]}]}"#,
            "/compound/0/list",
            "without its element type",
        ),
    ];
    for &(text, pointer, message) in cases {
        let err = json::from_str(text).expect_err(text);
        assert_eq!(err.pointer(), pointer, "{text}: {err}");
        assert!(err.to_string().contains(message), "{text}: {err}");
        assert!(
            err.to_string().contains(&format!(", at {pointer}: ")),
            "{err}"
        );
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        assert!(value.pointer(pointer).is_some(), "{text}: {pointer}");
        assert!(json::has_typed_shape(text.as_bytes()), "{text}");
    }
    for plain in [
        r#"{"name":"Steve","health":20}"#,
        r#"{"compound":[]}"#,
        r#"[1, 2]"#,
        r#"{"a":{"name":"","compound":[]}}"#,
    ] {
        assert!(!json::has_typed_shape(plain.as_bytes()), "{plain}");
    }
}
