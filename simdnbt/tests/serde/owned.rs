//! simdnbt::serde and the owned tree: exact round trips through NBT bytes,
//! conversion to and from JSON, and every corpus file.
#![cfg(feature = "serde")]

use std::io::Cursor;

use serde::{Deserialize, Serialize};
use simdnbt::Mutf8String;
use simdnbt::owned::{self, BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
use simdnbt::serde::{Deserializer, Options, from_slice, from_slice_with, to_vec, to_vec_with};

fn every_type() -> NbtCompound {
    NbtCompound::from_values(vec![
        ("b".into(), NbtTag::Byte(-1)),
        ("s".into(), NbtTag::Short(-2)),
        ("i".into(), NbtTag::Int(-3)),
        ("l".into(), NbtTag::Long(-4)),
        ("f".into(), NbtTag::Float(0.5)),
        ("d".into(), NbtTag::Double(0.25)),
        ("ba".into(), NbtTag::ByteArray(vec![1, 255])),
        ("str".into(), NbtTag::String("a\0😀".into())),
        ("list".into(), NbtTag::List(NbtList::Short(vec![1, 2]))),
        ("empty".into(), NbtTag::List(NbtList::Empty)),
        ("empty_ints".into(), NbtTag::List(NbtList::Int(vec![]))),
        ("ia".into(), NbtTag::IntArray(vec![1, -1])),
        ("la".into(), NbtTag::LongArray(vec![i64::MAX])),
        (
            "lists".into(),
            NbtTag::List(NbtList::List(vec![
                NbtList::Byte(vec![1]),
                NbtList::String(vec!["x".into()]),
            ])),
        ),
        (
            "bas".into(),
            NbtTag::List(NbtList::ByteArray(vec![vec![1], vec![]])),
        ),
        (
            "ias".into(),
            NbtTag::List(NbtList::IntArray(vec![vec![1, 2]])),
        ),
        (
            "las".into(),
            NbtTag::List(NbtList::LongArray(vec![vec![3]])),
        ),
        (
            "hetero".into(),
            NbtTag::List(vec![NbtTag::Int(1), NbtTag::String("x".into())].into()),
        ),
        (
            "c".into(),
            NbtTag::Compound(NbtCompound::from_values(vec![("".into(), NbtTag::Int(5))])),
        ),
    ])
}

fn bytes_of(nbt: &BaseNbt) -> Vec<u8> {
    let mut out = Vec::new();
    nbt.write(&mut out).unwrap();
    out
}

#[test]
fn owned_tree_round_trips_exactly_through_serde() {
    let nbt = BaseNbt::new("", every_type());
    let bytes = to_vec(&nbt).unwrap();
    assert_eq!(bytes, bytes_of(&nbt));
    let back: BaseNbt = from_slice(&bytes).unwrap();
    assert_eq!(back, nbt);
}

#[test]
fn owned_tag_reads_exact_types_one_by_one() {
    for (k, v) in every_type().iter() {
        let net = Options::new().network();
        let bytes = to_vec_with(v, &net).unwrap();
        let back: NbtTag = from_slice_with(&bytes, &net).unwrap();
        assert_eq!(&back, v, "{k}");
    }
}

#[test]
fn owned_list_and_compound_alone() {
    let net = Options::new().network();
    let list = NbtList::Compound(vec![NbtCompound::from_values(vec![(
        "".into(),
        NbtTag::Int(5),
    )])]);
    let back: NbtList = from_slice_with(&to_vec_with(&list, &net).unwrap(), &net).unwrap();
    assert_eq!(
        back, list,
        "a {{\"\": v}} compound stays a compound in the owned tree"
    );
    let c = every_type();
    let back: NbtCompound = from_slice(&to_vec(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

#[test]
fn owned_tree_inside_a_typed_struct() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        id: String,
        tag: NbtCompound,
        extra: Vec<NbtTag>,
    }
    let s = S {
        id: "x".into(),
        tag: every_type(),
        extra: vec![NbtTag::IntArray(vec![1]), NbtTag::IntArray(vec![])],
    };
    let bytes = to_vec(&s).unwrap();
    assert_eq!(from_slice::<S>(&bytes).unwrap(), s);
}

#[test]
fn nbt_none_is_an_end_root() {
    assert_eq!(to_vec(&Nbt::None).unwrap(), [0]);
    assert!(from_slice::<Nbt>(&[0]).unwrap().is_none());
    let nbt = Nbt::Some(BaseNbt::new("", every_type()));
    let back: Nbt = from_slice(&to_vec(&nbt).unwrap()).unwrap();
    assert_eq!(back.unwrap(), BaseNbt::new("", every_type()));
}

#[test]
fn mutf8_string_keeps_raw_bytes() {
    // A lone surrogate: valid MUTF-8 for Java, no Rust str. The owned tree
    // reads it raw through serde (and refuses to write it as a str).
    let bytes = [10, 0, 0, 8, 0, 1, b'v', 0, 3, 0xed, 0xa0, 0x80, 0];
    let nbt: BaseNbt = from_slice(&bytes).unwrap();
    assert_eq!(nbt.string("v").unwrap().as_bytes(), [0xed, 0xa0, 0x80]);
    assert!(to_vec(&nbt).is_err());
    let key = [10, 0, 0, 1, 0, 3, 0xed, 0xa0, 0x80, 1, 0];
    let nbt: BaseNbt = from_slice(&key).unwrap();
    assert_eq!(nbt.keys().next().unwrap().as_bytes(), [0xed, 0xa0, 0x80]);
}

#[test]
fn mutf8_string_as_a_field() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        name: Mutf8String,
    }
    let s = S {
        name: "héllo\0".into(),
    };
    assert_eq!(from_slice::<S>(&to_vec(&s).unwrap()).unwrap(), s);
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        r#"{"name":"héllo\u0000"}"#
    );
}

#[test]
fn to_json() {
    let nbt = BaseNbt::new("", every_type());
    let json: serde_json::Value = serde_json::to_value(&nbt).unwrap();
    assert_eq!(json["b"], -1);
    assert_eq!(json["str"], "a\0😀");
    assert_eq!(json["ia"], serde_json::json!([1, -1]));
    assert_eq!(json["ba"], serde_json::json!([1, 255]));
    assert_eq!(json["lists"], serde_json::json!([[1], ["x"]]));
    // 1.21.5 wrappers are their values outside NBT (upstream's rule), so JSON reads back.
    assert_eq!(json["hetero"], serde_json::json!([1, "x"]));
    assert_eq!(json["empty"], serde_json::json!([]));
}

#[test]
fn from_json() {
    let json = r#"{"n": 1, "big": 5000000000, "f": 1.5, "s": "x", "t": true,
                   "l": [1, 2], "mixed": [1, "a"], "c": {"k": []}, "u": null}"#;
    let e = serde_json::from_str::<BaseNbt>(json).unwrap_err();
    assert!(e.to_string().contains("NBT has no null"), "{e}");
    let json = json.replace(r#", "u": null"#, "");
    let nbt: BaseNbt = serde_json::from_str(&json).unwrap();
    assert_eq!(nbt.long("n"), Some(1));
    assert_eq!(nbt.long("big"), Some(5_000_000_000));
    assert_eq!(nbt.double("f"), Some(1.5));
    assert_eq!(nbt.string("s").unwrap(), "x");
    assert_eq!(nbt.byte("t"), Some(1));
    assert_eq!(nbt.list("l"), Some(&NbtList::Long(vec![1, 2])));
    let mixed = nbt.list("mixed").unwrap().compounds().unwrap();
    assert_eq!(mixed[1].string("").unwrap(), "a");
    assert_eq!(nbt.compound("c").unwrap().list("k"), Some(&NbtList::Empty));
    // and the result writes as valid NBT
    let bytes = to_vec(&nbt).unwrap();
    assert_eq!(
        owned::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap(),
        nbt
    );
}

#[test]
fn json_round_trip_of_json_shaped_data_is_stable() {
    let nbt = BaseNbt::new(
        "",
        NbtCompound::from_values(vec![
            ("a".into(), NbtTag::Long(1)),
            ("b".into(), NbtTag::List(NbtList::Double(vec![0.5]))),
        ]),
    );
    let json = serde_json::to_string(&nbt).unwrap();
    assert_eq!(serde_json::from_str::<BaseNbt>(&json).unwrap(), nbt);
}

#[test]
fn root_name_is_available_from_the_deserializer() {
    let nbt = BaseNbt::new("Level", every_type());
    let bytes = bytes_of(&nbt);
    let mut de = Deserializer::from_slice(&bytes).unwrap();
    let back = BaseNbt::new(
        de.root_name().unwrap().to_owned(),
        NbtCompound::deserialize(&mut de).unwrap(),
    );
    assert_eq!(back, nbt);
    let again = to_vec_with(&back, &Options::new().root_name("Level")).unwrap();
    assert_eq!(again, bytes);
}

/// Every corpus file: bytes → owned tree through serde → bytes again, equal
/// to the input (the files are canonical NBT), and the same tree as the
/// owned reader's. A file that does not load fails the test; the one file
/// that is not a document (stringtest.nbt, whose root is a List) is named.
#[test]
fn corpus_files_round_trip_through_serde() {
    let names: Vec<&str> = corpus::all_names().collect();
    let mut n = 0;
    for &name in &names {
        let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "stringtest.nbt" {
            assert!(owned::read(&mut Cursor::new(bytes)).is_err(), "a List root");
            continue;
        }
        let expected = match owned::read(&mut Cursor::new(bytes)) {
            Ok(Nbt::Some(expected)) => expected,
            other => panic!("{name}: not a document: {other:?}"),
        };
        let opts = Options::new().root_name(expected.name().to_str().into_owned());
        let mut de = Deserializer::from_slice(bytes).unwrap();
        let tree: BaseNbt = Deserialize::deserialize(&mut de).unwrap();
        assert_eq!(*tree, *expected, "{name}");
        let written = to_vec_with(&tree, &opts).unwrap();
        assert_eq!(written, bytes_of(&expected), "{name}");
        n += 1;
    }
    assert_eq!(n, names.len() - 1, "every corpus file but stringtest.nbt");
}

/// A typed view of `complex_player.dat`, fields in file order so the written
/// bytes equal the input's.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "PascalCase")]
struct Player<'a> {
    selected_item_slot: i32,
    #[serde(rename = "UUIDLeast")]
    uuid_least: i64,
    attributes: Vec<Attribute>,
    motion: [f64; 3],
    #[serde(rename = "foodExhaustionLevel")]
    food_exhaustion_level: f32,
    #[serde(rename = "foodTickTimer")]
    food_tick_timer: i32,
    xp_level: i32,
    health: i16,
    xp_seed: i32,
    heal_f: f32,
    #[serde(borrow)]
    selected_item: Item<'a>,
    spawn_forced: bool,
    #[serde(borrow)]
    inventory: Vec<Item<'a>>,
    active_effects: Vec<Effect>,
    sleeping: bool,
    #[serde(flatten)]
    rest: NbtCompound,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "PascalCase")]
struct Attribute {
    name: String,
    base: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modifiers: Option<Vec<Modifier>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "PascalCase")]
struct Modifier {
    name: String,
    #[serde(rename = "UUIDLeast")]
    uuid_least: i64,
    operation: i32,
    amount: f64,
    #[serde(rename = "UUIDMost")]
    uuid_most: i64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Item<'a> {
    id: &'a str,
    #[serde(rename = "Damage")]
    damage: i16,
    #[serde(rename = "Count")]
    count: i8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tag: Option<NbtCompound>,
    #[serde(rename = "Slot", default, skip_serializing_if = "Option::is_none")]
    slot: Option<i8>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "PascalCase")]
struct Effect {
    amplifier: i8,
    ambient: bool,
    duration: i32,
    id: i8,
    show_particles: bool,
}

#[test]
fn complex_player_through_a_typed_struct() {
    let bytes = corpus::load("complex_player.dat").unwrap();
    let player: Player = from_slice(bytes).unwrap();
    assert_eq!(player.inventory.len(), 25);
    assert_eq!(player.selected_item.id, "minecraft:diamond_sword");
    assert!(
        bytes
            .as_ptr_range()
            .contains(&player.selected_item.id.as_ptr()),
        "ids borrow"
    );
    assert_eq!(player.xp_level, 51);
    assert_eq!(player.rest.int("XpTotal"), Some(10836));
    let written = to_vec(&player).unwrap();
    // `flatten` puts the rest after the typed fields, so compare as trees.
    let a = owned::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    let b = owned::read(&mut Cursor::new(&written[..]))
        .unwrap()
        .unwrap();
    assert_eq!(a.len(), b.len());
    for (k, v) in a.iter() {
        assert_eq!(b.get(&k.to_str()), Some(v), "{k}");
    }
}

/// A compound that is exactly `{"": value}` (a 1.21.5 heterogeneous-list
/// element) serializes as `value` in other formats, as upstream does (crates
/// that checksum serde output depend on it), and stays a compound in NBT.
#[test]
fn wrapper_compounds_are_their_value_elsewhere_and_compounds_in_nbt() {
    let wrapped = |tag: NbtTag| NbtCompound::from_values(vec![("".into(), tag)]);
    let list = NbtList::Compound(vec![
        wrapped(NbtTag::Int(1)),
        wrapped(NbtTag::String("x".into())),
        NbtCompound::new(),
        NbtCompound::from_values(vec![("data".into(), NbtTag::Byte(1))]),
        // Two entries, or a non-empty key: an ordinary compound.
        NbtCompound::from_values(vec![
            ("".into(), NbtTag::Int(2)),
            ("".into(), NbtTag::Int(3)),
        ]),
        NbtCompound::from_values(vec![("k".into(), NbtTag::Int(4))]),
    ]);
    let doc = BaseNbt::new(
        "",
        NbtCompound::from_values(vec![("l".into(), NbtTag::List(list))]),
    );
    assert_eq!(
        serde_json::to_string(&doc).unwrap(),
        r#"{"l":[1,"x",{},{"data":1},{"":2,"":3},{"k":4}]}"#
    );
    // Through NBT the wrappers are written back as the compounds they are.
    let bytes = to_vec(&doc).unwrap();
    assert_eq!(bytes, bytes_of(&doc));
}

/// A document `{"v": value}`.
fn field_doc(value: &NbtTag) -> Vec<u8> {
    let c = NbtCompound::from_values(vec![("v".into(), value.clone())]);
    bytes_of(&BaseNbt::new("", c))
}

#[derive(Deserialize, Debug)]
struct Field<T> {
    v: T,
}

/// Every entry of every corpus file as an owned field of a typed struct
/// (`NbtTag`, and `NbtList` / `NbtCompound` for containers): the value the
/// deserializer builds from its document equals the owned reader's.
#[test]
fn corpus_entries_as_owned_fields_equal_the_owned_readers_values() {
    let mut containers = 0;
    for name in corpus::all_names().filter(|&n| n != "stringtest.nbt") {
        let bytes = corpus::load(name).unwrap();
        let Nbt::Some(doc) = owned::read(&mut Cursor::new(bytes)).unwrap() else {
            panic!("{name}: not a document");
        };
        for (k, v) in doc.iter() {
            let bytes = field_doc(v);
            let tag: Field<NbtTag> = from_slice(&bytes).unwrap();
            assert_eq!(&tag.v, v, "{name}: {k} as NbtTag");
            match v {
                NbtTag::List(list) => {
                    let got: Field<NbtList> = from_slice(&bytes).unwrap();
                    assert_eq!(&got.v, list, "{name}: {k} as NbtList");
                    containers += 1;
                }
                NbtTag::Compound(c) => {
                    let got: Field<NbtCompound> = from_slice(&bytes).unwrap();
                    assert_eq!(&got.v, c, "{name}: {k} as NbtCompound");
                    containers += 1;
                }
                _ => {}
            }
        }
    }
    assert!(containers > 50, "{containers} containers checked");
}

/// `{"v": {"a": {"a": ...}}}`, `depth` compounds deep counting the root.
fn deep_compounds(depth: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0, 10, 0, 1, b'v'];
    for _ in 2..depth {
        out.extend_from_slice(&[10, 0, 1, b'a']);
    }
    out.extend(std::iter::repeat_n(0, depth));
    out
}

/// `{"v": [[[...]]]}`: lists of lists, `depth` deep counting the root.
fn deep_lists(depth: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0, 9, 0, 1, b'v'];
    for _ in 2..depth {
        out.extend_from_slice(&[9, 0, 0, 0, 1]); // a List of List, one element
    }
    out.extend_from_slice(&[1, 0, 0, 0, 1, 7]); // the innermost: a List of Byte [7]
    out.push(0);
    out
}

/// The deepest document the reader accepts (512 levels), as an owned field,
/// on a 256 KiB thread: the owned value is built without recursion, and it
/// equals the owned reader's.
#[test]
fn a_512_deep_owned_field_reads_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            for bytes in [deep_compounds(512), deep_lists(512)] {
                let expected = owned::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
                let expected = expected.get("v").unwrap();
                let tag: Field<NbtTag> = from_slice(&bytes).unwrap();
                assert_eq!(&tag.v, expected);
                let root: BaseNbt = from_slice(&bytes).unwrap();
                assert_eq!(root.get("v"), Some(expected));
                match expected {
                    NbtTag::Compound(c) => {
                        assert_eq!(&from_slice::<Field<NbtCompound>>(&bytes).unwrap().v, c)
                    }
                    NbtTag::List(l) => {
                        assert_eq!(&from_slice::<Field<NbtList>>(&bytes).unwrap().v, l)
                    }
                    _ => unreachable!(),
                }
            }
            // One level more is the reader's depth error.
            let e = from_slice::<Field<NbtCompound>>(&deep_compounds(513)).unwrap_err();
            let read = e.read_error().expect("the reader's error");
            assert_eq!(read.kind(), simdnbt::ErrorKind::MaxDepthExceeded);
            let e = from_slice::<Field<NbtList>>(&deep_lists(513)).unwrap_err();
            let read = e.read_error().expect("the reader's error");
            assert_eq!(read.kind(), simdnbt::ErrorKind::MaxDepthExceeded);
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Bytes from another format are not an owned container: only the NBT
/// deserializer hands one over, and what it hands over is taken once.
#[test]
fn owned_containers_from_other_formats_bytes_are_type_errors() {
    use serde::de::value::{BytesDeserializer, Error};
    let e = NbtCompound::deserialize(BytesDeserializer::<Error>::new(b"\x01\0\x01a\x05\0"))
        .unwrap_err();
    assert!(e.to_string().contains("expected an NBT compound"), "{e}");
    let e = NbtList::deserialize(BytesDeserializer::<Error>::new(b"")).unwrap_err();
    assert!(e.to_string().contains("expected an NBT list"), "{e}");
    // After an NBT read handed a compound over, nothing is left behind.
    let _: Field<NbtCompound> = from_slice(&field_doc(&NbtTag::Compound(every_type()))).unwrap();
    assert!(NbtCompound::deserialize(BytesDeserializer::<Error>::new(b"")).is_err());
}
