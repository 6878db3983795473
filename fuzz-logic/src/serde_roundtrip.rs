//! `serde_roundtrip`: simdnbt::serde on arbitrary bytes and on generated
//! typed values.
//!
//! Pull half: the pull reader serde reads through agrees with the borrow
//! reader on every input ([`pull_agrees`]).
//! Raw half: any input into a typed struct (and into the owned tree) either
//! fails cleanly or gives a value that writes and reads back to the same
//! bytes; the owned tree read through serde equals the owned reader's, and
//! serde rejects exactly what the reader rejects, at the same offset.
//! Structured half (first byte [`STRUCTURED_SELECTOR`] or more): a typed value
//! built by `arbitrary` from the rest of the input writes, reads back equal,
//! and writes the same bytes again.

use std::collections::BTreeMap;
use std::io::Cursor;

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use simdnbt::owned::{self, Nbt, NbtCompound};
use simdnbt::serde::{Options, from_slice, from_slice_with, to_vec, to_vec_with};

pub use crate::roundtrip::STRUCTURED_SELECTOR;

/// A typed document touching most of the mapping: numbers of every width,
/// bools, strings (borrowed too), options, arrays, UUIDs, lists of
/// compounds, maps, enums of every kind, untagged and flatten.
#[derive(Serialize, Deserialize, Arbitrary, PartialEq, Debug)]
pub struct Typed {
    #[serde(rename = "Byte", default)]
    byte: i8,
    #[serde(default)]
    short: i16,
    #[serde(default)]
    int: i32,
    #[serde(default)]
    long: u64,
    #[serde(default)]
    float: f32,
    #[serde(default)]
    double: f64,
    #[serde(default)]
    flag: bool,
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    maybe: Option<i16>,
    #[serde(default, with = "simdnbt::serde::byte_array")]
    bytes: Vec<u8>,
    #[serde(default, with = "simdnbt::serde::int_array")]
    ints: Vec<i32>,
    #[serde(default, with = "simdnbt::serde::long_array")]
    longs: Vec<i64>,
    #[serde(default, with = "simdnbt::serde::uuid")]
    uuid: u128,
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    pos: Vec<f64>,
    #[serde(default)]
    map: BTreeMap<String, i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<Kind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shape: Option<Shape>,
    #[serde(flatten)]
    mob: Option<Mob>,
}

/// A list element.
#[derive(Serialize, Deserialize, Arbitrary, PartialEq, Debug)]
pub struct Item {
    id: String,
    #[serde(rename = "Count")]
    count: i8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tag: Option<Box<Item>>,
}

/// Externally tagged, every variant kind.
#[derive(Serialize, Deserialize, Arbitrary, PartialEq, Debug)]
pub enum Kind {
    /// A String.
    Unit,
    /// `{New: i32}`.
    New(i32),
    /// `{Tuple: [i16, i16]}`.
    Tuple(i16, i16),
    /// `{Struct: {..}}`.
    Struct {
        /// An array inside a variant.
        #[serde(with = "simdnbt::serde::int_array")]
        a: Vec<i32>,
    },
}

/// Untagged, told apart by their keys and array widths.
#[derive(Serialize, Deserialize, Arbitrary, PartialEq, Debug)]
#[serde(untagged)]
pub enum Shape {
    /// A LongArray under `packed`.
    Packed {
        /// The values.
        #[serde(with = "simdnbt::serde::long_array")]
        packed: Vec<i64>,
    },
    /// A String under `label`.
    Label {
        /// The label.
        label: String,
    },
}

/// Internally tagged by `type`, flattened into [`Typed`].
#[derive(Serialize, Deserialize, Arbitrary, PartialEq, Debug)]
#[serde(tag = "type")]
pub enum Mob {
    /// With an array, which survives serde's buffering.
    Zombie {
        /// An IntArray.
        #[serde(with = "simdnbt::serde::int_array")]
        ids: Vec<i32>,
    },
    /// With a bool, through `byte_bool` (a plain bool cannot be buffered).
    Pig {
        /// A Byte.
        #[serde(with = "simdnbt::serde::byte_bool")]
        saddle: bool,
    },
}

/// The `serde_roundtrip` target.
pub fn serde_roundtrip(data: &[u8]) {
    pull_agrees(data);
    raw_typed(data);
    raw_owned(data);
    if data.first().is_some_and(|&b| b >= STRUCTURED_SELECTOR) {
        structured(&data[1..]);
    }
}

/// Writes `v`, reads it back, writes again: equal bytes (floats compare by
/// bits that way, NaN included).
#[track_caller]
fn stable<T: Serialize + for<'de> Deserialize<'de>>(v: &T, options: &Options) -> Vec<u8> {
    let first = to_vec_with(v, options).expect("a value read from NBT writes back");
    let back: T = from_slice_with(&first, options).expect("written bytes read back");
    let second = to_vec_with(&back, options).expect("writes again");
    // (assert!, not assert_eq!: the bytes are long)
    assert!(
        first == second,
        "serde write → read → write changed the bytes"
    );
    first
}

/// The pull reader serde reads through agrees with the push reader (the
/// borrow reader): the same end, or the same error kind at the same offset,
/// in both root forms; and serde, reading into any type, fails with that
/// error on every invalid input.
pub fn pull_agrees(data: &[u8]) {
    for network in [false, true] {
        let options = if network {
            Options::new().network()
        } else {
            Options::new()
        };
        let pulled = simdnbt::serde::__pull_walk(data, &options);
        let mut c = Cursor::new(data);
        let pushed = if network {
            simdnbt::borrow::read_optional_tag(&mut c).map(|_| c.position() as usize)
        } else {
            simdnbt::borrow::read(&mut c).map(|_| c.position() as usize)
        };
        match (&pulled, &pushed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "pull and push end apart"),
            (Err(a), Err(b)) => assert_eq!(
                (a.kind(), a.offset()),
                (b.kind(), b.offset()),
                "pull and push fail apart"
            ),
            _ => panic!("pull {pulled:?}, push {pushed:?}"),
        }
        if let Err(b) = pushed {
            let e = from_slice_with::<Typed>(data, &options)
                .expect_err("serde accepted an invalid document");
            let r = e.read_error().expect("serde's error is the reader's");
            assert_eq!((r.kind(), r.offset()), (b.kind(), b.offset()));
        }
    }
}

/// Arbitrary bytes into the typed struct, in both root forms.
pub fn raw_typed(data: &[u8]) {
    for options in [Options::new(), Options::new().network()] {
        // A failure must be an error, never a panic; success must round-trip.
        if let Ok(v) = from_slice_with::<Typed>(data, &options) {
            stable(&v, &options);
        }
    }
}

/// Arbitrary bytes into the owned tree through serde: serde accepts what
/// the owned reader accepts (with nothing after it), giving the same tree,
/// and rejects the rest at the same offset.
pub fn raw_owned(data: &[u8]) {
    let mut cursor = Cursor::new(data);
    let read = owned::read(&mut cursor);
    let whole = cursor.position() as usize == data.len();
    let ours = from_slice::<Nbt>(data);
    match (read, ours) {
        (Ok(expected), Ok(got)) => {
            assert!(whole, "serde accepted trailing bytes");
            match (&expected, &got) {
                (Nbt::Some(e), Nbt::Some(g)) => {
                    let (e, g): (&NbtCompound, &NbtCompound) = (e, g);
                    assert_eq!(e, g, "serde's owned tree differs from the owned reader's");
                }
                (Nbt::None, Nbt::None) => {}
                _ => panic!("serde and the owned reader disagree on an End root"),
            }
            if let Nbt::Some(tree) = &got {
                // Writing through serde canonicalizes MUTF-8 (a raw NUL
                // becomes C0 80), so check it is valid and stable instead of
                // byte-equal to the input.
                if let Ok(written) = to_vec(tree) {
                    let again: Nbt = from_slice(&written).expect("serde reads its own output");
                    let mut reference = Vec::new();
                    again.write(&mut reference).unwrap();
                    assert!(
                        to_vec(&again).unwrap() == written,
                        "serde output is not stable"
                    );
                    assert!(reference == written, "serde and the owned writer differ");
                }
            }
        }
        (Ok(_), Err(e)) => {
            // Allowed: trailing bytes, or a string no Rust str can hold being
            // refused on the way out (reading keeps raw bytes, so not here).
            assert!(!whole, "serde rejected what the owned reader accepts: {e}");
        }
        (Err(r), Err(e)) => {
            let got = e.read_error().expect("a reader error");
            assert_eq!((got.kind(), got.offset()), (r.kind(), r.offset()));
        }
        (Err(r), Ok(_)) => panic!("serde accepted what the owned reader rejects: {r}"),
    }
}

/// A generated typed value through write and read.
pub fn structured(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(v) = Typed::arbitrary(&mut u) else {
        return;
    };
    if v.name.len() > 30_000 {
        return; // MUTF-8 could pass 65535 bytes: that is a write error by design
    }
    // A generated value can nest deeper than NBT allows (512 levels): the
    // serializer must refuse it with that error, and nothing else.
    if let Err(e) = to_vec(&v) {
        assert_eq!(
            e.write_error(),
            Some(&simdnbt::WriteError::MaxDepthExceeded),
            "a generated value failed to write: {e}"
        );
        return;
    }
    let bytes = stable(&v, &Options::new());
    let back: Typed = from_slice(&bytes).unwrap();
    // Equal as values, except floats' NaN: compare again through bytes.
    assert!(to_vec(&back).unwrap() == bytes);
}
