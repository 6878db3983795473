//! simdnbt::serde errors: the byte offset and NBT path of every kind of
//! failure, hostile input, limits, and `serde_path_to_error`.
#![cfg(feature = "serde")]

use serde::Deserialize;
use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::serde::{Deserializer, Options, from_slice, from_slice_with};
use simdnbt::{ErrorKind, ReadOptions};

use crate::common::compound;

fn write(c: NbtCompound) -> Vec<u8> {
    let mut out = Vec::new();
    BaseNbt::new("", c).write(&mut out).unwrap();
    out
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle")
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Player {
    #[serde(rename = "Inventory")]
    inventory: Vec<Item>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Item {
    id: String,
    tag: Option<ItemTag>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct ItemTag {
    display: Display,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Display {
    #[serde(rename = "Name")]
    name: String,
}

/// An inventory of 5 items whose item 3 has an Int `Name`.
fn inventory() -> Vec<u8> {
    let item = |name: NbtTag| {
        compound(vec![
            ("id", NbtTag::String("minecraft:stone".into())),
            (
                "tag",
                NbtTag::Compound(compound(vec![(
                    "display",
                    NbtTag::Compound(compound(vec![("Name", name)])),
                )])),
            ),
        ])
    };
    let items = (0..5)
        .map(|i| {
            if i == 3 {
                item(NbtTag::Int(42))
            } else {
                item(NbtTag::String("ok".into()))
            }
        })
        .collect();
    write(compound(vec![(
        "Inventory",
        NbtTag::List(NbtList::Compound(items)),
    )]))
}

#[test]
fn deep_path_and_offset() {
    let bytes = inventory();
    let e = from_slice::<Player>(&bytes).unwrap_err();
    assert_eq!(e.path(), "Inventory[3].tag.display.Name");
    assert_eq!(
        e.offset(),
        Some(find(&bytes, &[3, 0, 4, b'N', b'a', b'm', b'e']))
    );
    assert_eq!(
        e.to_string(),
        format!(
            "invalid type: integer `42`, expected a string at Inventory[3].tag.display.Name (byte {})",
            e.offset().unwrap()
        )
    );
}

#[test]
fn serde_path_to_error_agrees() {
    let bytes = inventory();
    let mut de = Deserializer::from_slice(&bytes).unwrap();
    let e = serde_path_to_error::deserialize::<_, Player>(&mut de).unwrap_err();
    assert_eq!(e.path().to_string(), "Inventory[3].tag.display.Name");
    assert_eq!(e.inner().path(), "Inventory[3].tag.display.Name");
    assert!(e.inner().offset().is_some());
}

#[test]
fn serde_path_to_error_success_and_borrowing() {
    #[derive(Deserialize)]
    struct B<'a> {
        s: &'a str,
    }
    let bytes = write(compound(vec![("s", NbtTag::String("abc".into()))]));
    let mut de = Deserializer::from_slice(&bytes).unwrap();
    let b: B = serde_path_to_error::deserialize(&mut de).unwrap();
    assert_eq!(b.s, "abc");
}

#[test]
fn serde_path_to_error_on_serialize() {
    #[derive(serde::Serialize)]
    struct S {
        list: Vec<Option<i32>>,
    }
    let mut out = Vec::new();
    let mut ser = simdnbt::serde::Serializer::new(&mut out);
    let e = serde_path_to_error::serialize(
        &S {
            list: vec![Some(1), None],
        },
        &mut ser,
    )
    .unwrap_err();
    assert_eq!(e.path().to_string(), "list[1]");
}

#[test]
fn missing_field_in_a_list_element() {
    let item = compound(vec![("nope", NbtTag::Byte(1))]);
    let bytes = write(compound(vec![(
        "Inventory",
        NbtTag::List(NbtList::Compound(vec![item])),
    )]));
    let e = from_slice::<Player>(&bytes).unwrap_err();
    assert!(e.to_string().contains("missing field `id`"), "{e}");
    assert_eq!(e.path(), "Inventory[0]");
    // The element's offset: its first entry's tag id.
    assert_eq!(
        e.offset(),
        Some(find(&bytes, &[1, 0, 4, b'n', b'o', b'p', b'e']))
    );
}

#[test]
fn missing_field_in_an_empty_list_element() {
    let bytes = write(compound(vec![(
        "Inventory",
        NbtTag::List(NbtList::Compound(vec![NbtCompound::new()])),
    )]));
    let e = from_slice::<Player>(&bytes).unwrap_err();
    assert_eq!(e.path(), "Inventory[0]");
    // An empty compound in a list has no bytes of its own but its End: the list is named instead.
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn missing_field_at_the_root() {
    let e = from_slice::<Player>(&write(NbtCompound::new())).unwrap_err();
    assert!(e.to_string().contains("missing field `Inventory`"), "{e}");
    assert_eq!(e.path(), "");
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn number_list_element_offsets() {
    let bytes = write(compound(vec![(
        "Pos",
        NbtTag::List(NbtList::Double(vec![1.0, 2.0, 1e300])),
    )]));
    #[derive(Deserialize, Debug)]
    struct P {
        #[serde(rename = "Pos")]
        #[allow(dead_code)]
        pos: Vec<i32>,
    }
    let e = from_slice::<P>(&bytes).unwrap_err();
    assert_eq!(e.path(), "Pos[0]");
    let first = find(&bytes, b"Pos") + 3 + 5;
    assert_eq!(e.offset(), Some(first));

    #[derive(Deserialize, Debug)]
    struct F {
        #[serde(rename = "Pos")]
        #[allow(dead_code)]
        pos: (f64, f64, u8),
    }
    let e = from_slice::<F>(&bytes).unwrap_err();
    assert_eq!(e.path(), "Pos[2]");
    assert_eq!(e.offset(), Some(first + 16));
}

#[test]
fn string_list_element_offsets() {
    let bytes = write(compound(vec![(
        "l",
        NbtTag::List(NbtList::String(vec!["a".into(), "bb".into()])),
    )]));
    let e = from_slice::<std::collections::BTreeMap<String, (String, i32)>>(&bytes).unwrap_err();
    assert_eq!(e.path(), "l[1]");
    assert_eq!(e.offset(), Some(find(&bytes, &[0, 2, b'b', b'b'])));
}

#[test]
fn array_element_offsets() {
    let bytes = write(compound(vec![("a", NbtTag::IntArray(vec![1, 2, 300]))]));
    let e = from_slice::<std::collections::BTreeMap<String, Vec<u8>>>(&bytes).unwrap_err();
    assert_eq!(e.path(), "a[2]");
    assert_eq!(e.offset(), Some(3 + 4 + 4 + 8));
    let bytes = write(compound(vec![("a", NbtTag::ByteArray(vec![1, 2, 3]))]));
    let e =
        from_slice::<std::collections::BTreeMap<String, (i8, i8, bool, i8)>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("invalid length 3"), "{e}");
    assert_eq!(e.path(), "a");
}

#[test]
fn nested_list_paths() {
    let inner = NbtList::List(vec![
        NbtList::Int(vec![1]),
        NbtList::String(vec!["x".into()]),
    ]);
    let bytes = write(compound(vec![("m", NbtTag::List(inner))]));
    let e = from_slice::<std::collections::BTreeMap<String, Vec<Vec<i32>>>>(&bytes).unwrap_err();
    assert_eq!(e.path(), "m[1][0]");
    assert_eq!(e.offset(), Some(find(&bytes, &[0, 1, b'x'])));
}

#[test]
fn odd_keys_are_quoted_in_paths() {
    let bytes = write(compound(vec![(
        "a.b",
        NbtTag::Compound(compound(vec![("", NbtTag::Int(1))])),
    )]));
    let e = from_slice::<
        std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    >(&bytes)
    .unwrap_err();
    assert_eq!(e.path(), r#""a.b".."#.replace("..", ".\"\""));
}

#[test]
fn truncated_input_is_a_read_error() {
    let bytes = inventory();
    for cut in [1, 2, 5, bytes.len() / 2, bytes.len() - 1] {
        let e = from_slice::<Player>(&bytes[..cut]).unwrap_err();
        let r = e.read_error().expect("read error");
        assert!(
            matches!(
                r.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
            ),
            "{e}"
        );
        assert_eq!(e.offset(), Some(r.offset()));
        assert!(r.offset() <= cut);
    }
}

#[test]
fn empty_input_is_a_read_error() {
    let e = from_slice::<Player>(&[]).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn compressed_input_says_so() {
    let e = from_slice::<Player>(&[0x1f, 0x8b, 8, 0]).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::GzipCompressed);
    assert!(e.to_string().contains("gzip"), "{e}");
}

#[test]
fn unknown_tag_id_in_the_middle() {
    let mut bytes = write(compound(vec![("a", NbtTag::Int(1)), ("b", NbtTag::Int(2))]));
    let at = find(&bytes, &[3, 0, 1, b'b']);
    bytes[at] = 42;
    let e = from_slice::<Player>(&bytes).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::UnknownTagId(42));
    assert_eq!(e.offset(), Some(at));
}

#[test]
fn huge_list_length_is_rejected_before_allocation() {
    // {"l": List of Int, length 2^31-1, no elements}
    let bytes = [10, 0, 0, 9, 0, 1, b'l', 3, 0x7f, 0xff, 0xff, 0xff, 0];
    let e = from_slice::<std::collections::BTreeMap<String, Vec<i32>>>(&bytes).unwrap_err();
    assert_eq!(
        e.read_error().unwrap().kind(),
        ErrorKind::LengthExceedsInput
    );
}

#[test]
fn negative_array_length_is_rejected() {
    let bytes = [10, 0, 0, 11, 0, 1, b'a', 0xff, 0xff, 0xff, 0xff, 0];
    let e = from_slice::<std::collections::BTreeMap<String, Vec<i32>>>(&bytes).unwrap_err();
    assert_eq!(
        e.read_error().unwrap().kind(),
        ErrorKind::NegativeLength(-1)
    );
}

/// `depth` nested compounds `{"a": {"a": ...}}`, as bytes.
fn nested(depth: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0];
    for _ in 1..depth {
        out.extend_from_slice(&[10, 0, 1, b'a']);
    }
    out.extend(std::iter::repeat_n(0, depth));
    out
}

#[derive(Deserialize, Debug)]
struct Deep {
    #[allow(dead_code)]
    a: Option<Box<Deep>>,
}

#[test]
fn depth_limit_is_the_readers() {
    let e = from_slice::<Deep>(&nested(513)).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::MaxDepthExceeded);
    let opts = Options::new().read_options(ReadOptions::default().max_depth(8));
    let e = from_slice_with::<Deep>(&nested(9), &opts).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::MaxDepthExceeded);
    assert!(from_slice_with::<Deep>(&nested(8), &opts).is_ok());
}

#[test]
fn the_deepest_accepted_document_reads_on_a_test_thread() {
    // 512 levels: the reader's limit. serde recurses once per level; this
    // runs on the test harness's default 2 MiB thread.
    let bytes = nested(512);
    assert!(from_slice::<Deep>(&bytes).is_ok());
    assert!(from_slice::<serde::de::IgnoredAny>(&bytes).is_ok());
    assert!(from_slice::<BaseNbt>(&bytes).is_ok());
}

#[test]
fn byte_budget_is_the_readers() {
    let bytes = inventory();
    let opts = Options::new().read_options(ReadOptions::default().max_bytes(20));
    let e = from_slice_with::<Player>(&bytes, &opts).unwrap_err();
    assert_eq!(e.read_error().unwrap().kind(), ErrorKind::BudgetExceeded);
}

#[test]
fn garbage_never_panics() {
    // A cheap deterministic sweep; the fuzz target `serde_roundtrip` goes further.
    let base = inventory();
    let mut seed = 0x2545_f491_u32;
    for _ in 0..3000 {
        let mut bytes = base.clone();
        for _ in 0..3 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let i = seed as usize % bytes.len();
            bytes[i] = (seed >> 24) as u8;
        }
        let _ = from_slice::<Player>(&bytes);
        let _ = from_slice::<BaseNbt>(&bytes);
        let _ = from_slice::<serde::de::IgnoredAny>(&bytes);
    }
}

#[test]
fn error_source_is_the_readers_error() {
    use std::error::Error as _;
    let e = from_slice::<Player>(&[]).unwrap_err();
    assert!(e.source().is_some());
    let e = from_slice::<Player>(&write(NbtCompound::new())).unwrap_err();
    assert!(e.source().is_none());
    assert!(format!("{e:?}").contains("missing field"));
}
