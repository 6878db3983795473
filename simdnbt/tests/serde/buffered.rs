//! simdnbt::serde where serde buffers values (`untagged`, internally and
//! adjacently tagged enums, `flatten`): arrays, bools and numbers there.
#![cfg(feature = "serde")]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::serde::{ByteArray, IntArray, LongArray, from_slice, to_vec};

use crate::common::{doc, read};

fn both_ways<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(
    v: &T,
) -> BaseNbt {
    let bytes = to_vec(v).unwrap();
    assert_eq!(&from_slice::<T>(&bytes).unwrap(), v);
    read(&bytes)
}

// ---- untagged ----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Heights {
    Packed { heights: LongArray },
    Ints { ints: IntArray },
    Bytes { bytes: ByteArray },
}

#[test]
fn untagged_long_array() {
    let nbt = both_ways(&Heights::Packed {
        heights: LongArray(vec![1, i64::MIN]),
    });
    assert_eq!(
        nbt.get("heights"),
        Some(&NbtTag::LongArray(vec![1, i64::MIN]))
    );
}

#[test]
fn untagged_int_array() {
    let nbt = both_ways(&Heights::Ints {
        ints: IntArray(vec![-1, 2]),
    });
    assert_eq!(nbt.get("ints"), Some(&NbtTag::IntArray(vec![-1, 2])));
}

#[test]
fn untagged_byte_array() {
    let nbt = both_ways(&Heights::Bytes {
        bytes: ByteArray(vec![0, 200, 255]),
    });
    assert_eq!(
        nbt.get("bytes"),
        Some(&NbtTag::ByteArray(vec![0, 200, 255]))
    );
}

#[test]
fn untagged_picks_by_array_width() {
    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Either {
        Small(Vec<i8>),
        Big(Vec<i64>),
    }
    let w: BTreeMap<String, Either> =
        from_slice(&doc(vec![("a", NbtTag::ByteArray(vec![1, 2]))])).unwrap();
    assert_eq!(w["a"], Either::Small(vec![1, 2]));
    let w: BTreeMap<String, Either> =
        from_slice(&doc(vec![("a", NbtTag::LongArray(vec![1 << 40]))])).unwrap();
    assert_eq!(w["a"], Either::Big(vec![1 << 40]));
}

#[test]
fn untagged_with_modules() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum U {
        A {
            #[serde(with = "simdnbt::serde::int_array")]
            a: Vec<i32>,
        },
    }
    let nbt = both_ways(&U::A { a: vec![4, 5] });
    assert_eq!(nbt.get("a"), Some(&NbtTag::IntArray(vec![4, 5])));
}

#[test]
fn untagged_uuid() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum U {
        E {
            #[serde(with = "simdnbt::serde::uuid")]
            id: u128,
        },
    }
    both_ways(&U::E { id: u128::MAX - 5 });
}

#[test]
fn untagged_scalars_keep_their_types() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Num {
        B(i8),
        S(i16),
        I(i32),
        L(i64),
        // (no f32 variant: serde's f32 accepts any float, so it would win)
        D(f64),
        Str(String),
    }
    for (v, id) in [
        (Num::B(-1), 1u8),
        (Num::I(70000), 3),
        (Num::L(1 << 40), 4),
        (Num::D(0.5), 6),
        (Num::Str("x".into()), 8),
    ] {
        let bytes = to_vec(&BTreeMap::from([("v", &v)])).unwrap();
        assert_eq!(read(&bytes).get("v").unwrap().id(), id);
        let back: BTreeMap<String, Num> = from_slice(&bytes).unwrap();
        assert_eq!(back["v"], v);
    }
}

#[test]
fn untagged_plain_bool_does_not_survive_buffering() {
    // serde's buffer holds an i8; a bool refuses it. This is the documented
    // limit; `byte_bool` is the way out (next test).
    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    enum U {
        #[allow(dead_code)]
        A { on: bool },
    }
    assert!(from_slice::<U>(&doc(vec![("on", NbtTag::Byte(1))])).is_err());
}

#[test]
fn untagged_byte_bool_survives_buffering() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum U {
        A {
            #[serde(with = "simdnbt::serde::byte_bool")]
            on: bool,
        },
    }
    let nbt = both_ways(&U::A { on: true });
    assert_eq!(nbt.get("on"), Some(&NbtTag::Byte(1)));
    assert_eq!(
        from_slice::<U>(&doc(vec![("on", NbtTag::Byte(0))])).unwrap(),
        U::A { on: false }
    );
}

#[test]
fn byte_bool_reads_directly_too() {
    #[derive(Deserialize)]
    struct S {
        #[serde(with = "simdnbt::serde::byte_bool")]
        on: bool,
    }
    assert!(
        from_slice::<S>(&doc(vec![("on", NbtTag::Byte(5))]))
            .unwrap()
            .on
    );
    assert!(from_slice::<S>(&doc(vec![("on", NbtTag::String("x".into()))])).is_err());
}

#[test]
fn untagged_with_no_match_is_an_error_with_path() {
    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    enum U {
        #[allow(dead_code)]
        A(i32),
    }
    let e = from_slice::<BTreeMap<String, U>>(&doc(vec![("k", NbtTag::String("x".into()))]))
        .unwrap_err();
    assert!(e.to_string().contains("did not match any variant"), "{e}");
    assert_eq!(e.path(), "k");
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn untagged_list_of_heterogeneous_wrappers() {
    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum V {
        A(IntArray),
        S(String),
    }
    let list: NbtList = vec![NbtTag::IntArray(vec![1, 2]), NbtTag::String("s".into())].into();
    let w: BTreeMap<String, Vec<V>> = from_slice(&doc(vec![("l", NbtTag::List(list))])).unwrap();
    assert_eq!(w["l"], [V::A(IntArray(vec![1, 2])), V::S("s".into())]);
}

// ---- internally tagged ----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "type")]
enum Entity {
    Zombie {
        #[serde(rename = "UUID")]
        uuid: IntArray,
        #[serde(with = "simdnbt::serde::byte_array")]
        data: Vec<u8>,
        heights: LongArray,
    },
    Pig {
        saddle: i8,
    },
}

#[test]
fn internally_tagged_with_arrays() {
    let z = Entity::Zombie {
        uuid: IntArray(vec![1, 2, 3, 4]),
        data: vec![9, 255],
        heights: LongArray(vec![-1]),
    };
    let nbt = both_ways(&z);
    assert_eq!(nbt.string("type").unwrap(), "Zombie");
    assert_eq!(nbt.get("UUID"), Some(&NbtTag::IntArray(vec![1, 2, 3, 4])));
    assert_eq!(nbt.get("data"), Some(&NbtTag::ByteArray(vec![9, 255])));
    assert_eq!(nbt.get("heights"), Some(&NbtTag::LongArray(vec![-1])));
}

#[test]
fn internally_tagged_tag_after_the_fields() {
    let bytes = doc(vec![
        ("saddle", NbtTag::Byte(1)),
        ("type", NbtTag::String("Pig".into())),
    ]);
    assert_eq!(
        from_slice::<Entity>(&bytes).unwrap(),
        Entity::Pig { saddle: 1 }
    );
}

#[test]
fn internally_tagged_unknown_tag() {
    let bytes = doc(vec![("type", NbtTag::String("Cow".into()))]);
    let e = from_slice::<Entity>(&bytes).unwrap_err();
    assert!(e.to_string().contains("unknown variant `Cow`"), "{e}");
}

#[test]
fn internally_tagged_missing_tag() {
    let e = from_slice::<Entity>(&doc(vec![("saddle", NbtTag::Byte(1))])).unwrap_err();
    assert!(e.to_string().contains("missing field `type`"), "{e}");
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn internally_tagged_in_a_list() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Chunk {
        entities: Vec<Entity>,
    }
    both_ways(&Chunk {
        entities: vec![
            Entity::Pig { saddle: 0 },
            Entity::Zombie {
                uuid: IntArray(vec![0; 4]),
                data: vec![],
                heights: LongArray(vec![]),
            },
        ],
    });
}

// ---- adjacently tagged ----

#[test]
fn adjacently_tagged_with_arrays() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(tag = "t", content = "c")]
    enum A {
        Ints(IntArray),
        Name(String),
        Nothing,
    }
    let nbt = both_ways(&A::Ints(IntArray(vec![7])));
    assert_eq!(nbt.get("c"), Some(&NbtTag::IntArray(vec![7])));
    both_ways(&A::Name("n".into()));
    both_ways(&A::Nothing);
}

// ---- flatten ----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Section {
    #[serde(rename = "Y")]
    y: i8,
    #[serde(flatten)]
    data: SectionData,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct SectionData {
    #[serde(rename = "BlockStates")]
    block_states: LongArray,
    #[serde(rename = "Blocks", with = "simdnbt::serde::byte_array")]
    blocks: Vec<u8>,
    #[serde(rename = "Biomes")]
    biomes: IntArray,
}

#[test]
fn flatten_with_arrays() {
    let s = Section {
        y: 3,
        data: SectionData {
            block_states: LongArray(vec![1, 2]),
            blocks: vec![1, 128],
            biomes: IntArray(vec![-3]),
        },
    };
    let nbt = both_ways(&s);
    assert_eq!(nbt.get("BlockStates"), Some(&NbtTag::LongArray(vec![1, 2])));
    assert_eq!(nbt.get("Blocks"), Some(&NbtTag::ByteArray(vec![1, 128])));
    assert_eq!(nbt.get("Biomes"), Some(&NbtTag::IntArray(vec![-3])));
}

#[test]
fn flatten_rest_into_a_map() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        id: String,
        #[serde(flatten)]
        rest: BTreeMap<String, i32>,
    }
    let s = S {
        id: "x".into(),
        rest: [("a".to_string(), 1), ("b".to_string(), 2)].into(),
    };
    let nbt = both_ways(&s);
    assert_eq!(nbt.get("b"), Some(&NbtTag::Int(2)));
}

#[test]
fn flatten_rest_into_owned_compound() {
    #[derive(Serialize, Deserialize, Debug)]
    struct S {
        id: String,
        #[serde(flatten)]
        rest: NbtCompound,
    }
    let bytes = doc(vec![
        ("id", NbtTag::String("x".into())),
        ("n", NbtTag::Short(5)),
        ("s", NbtTag::String("y".into())),
    ]);
    let s: S = from_slice(&bytes).unwrap();
    assert_eq!(s.rest.short("n"), Some(5));
    assert_eq!(to_vec(&s).unwrap(), bytes);
}

#[test]
fn flatten_option_field() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Outer {
        a: i8,
        #[serde(flatten)]
        inner: Inner,
    }
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Inner {
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<i8>,
    }
    let nbt = both_ways(&Outer {
        a: 1,
        inner: Inner { b: None },
    });
    assert!(!nbt.contains("b"));
    both_ways(&Outer {
        a: 1,
        inner: Inner { b: Some(2) },
    });
}

#[test]
fn flatten_error_has_a_path() {
    let bytes = doc(vec![
        ("Y", NbtTag::Byte(0)),
        ("BlockStates", NbtTag::String("oops".into())),
        ("Blocks", NbtTag::ByteArray(vec![])),
        ("Biomes", NbtTag::IntArray(vec![])),
    ]);
    let e = from_slice::<Section>(&bytes).unwrap_err();
    assert!(e.to_string().contains("an array of i64"), "{e}");
}

#[test]
fn flattened_enum() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        #[serde(flatten)]
        kind: Kind,
    }
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum Kind {
        Ints(IntArray),
    }
    let nbt = both_ways(&S {
        kind: Kind::Ints(IntArray(vec![1])),
    });
    assert_eq!(nbt.get("Ints"), Some(&NbtTag::IntArray(vec![1])));
}
