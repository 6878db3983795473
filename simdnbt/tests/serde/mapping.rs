//! simdnbt::serde: every rule of the mapping table, written and read back,
//! with the bytes checked against the owned reader's view of them.
#![cfg(feature = "serde")]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Cursor;

use serde::{Deserialize, Serialize};
use simdnbt::owned::{self, NbtCompound, NbtList, NbtTag};
use simdnbt::serde::{
    ByteArray, Deserializer, IntArray, LongArray, Options, from_reader, from_slice,
    from_slice_with, to_vec, to_vec_with, to_writer,
};
use simdnbt::tag_id::*;

use crate::common::{doc, read};

/// The one field `v` of a serialized `W { v }`.
fn field(bytes: &[u8]) -> NbtTag {
    read(bytes).get("v").cloned().expect("field v")
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct W<T> {
    v: T,
}

fn write_v<T: Serialize>(v: T) -> NbtTag {
    field(&to_vec(&W { v }).unwrap())
}

fn read_v<T: for<'de> Deserialize<'de>>(tag: NbtTag) -> Result<T, simdnbt::serde::Error> {
    from_slice::<W<T>>(&doc(vec![("v", tag)])).map(|w| w.v)
}

/// Writes `v`, reads it back, and checks that the value read is `v` and that
/// writing it again gives the same bytes (the second alone would pass a
/// writer that changes values consistently, such as one clamping `i64::MIN`).
fn roundtrip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(v: T) {
    let written = W { v };
    let bytes = to_vec(&written).unwrap();
    let back: W<T> = from_slice(&bytes).unwrap();
    assert_eq!(
        back, written,
        "the value read back is not the value written"
    );
    assert_eq!(to_vec(&back).unwrap(), bytes);
}

// ---- numbers ----

#[test]
fn bool_is_byte() {
    assert_eq!(write_v(true), NbtTag::Byte(1));
    assert_eq!(write_v(false), NbtTag::Byte(0));
    assert!(read_v::<bool>(NbtTag::Byte(1)).unwrap());
    assert!(!read_v::<bool>(NbtTag::Byte(0)).unwrap());
}

#[test]
fn bool_reads_any_nonzero_byte_as_true() {
    assert!(read_v::<bool>(NbtTag::Byte(2)).unwrap());
    assert!(read_v::<bool>(NbtTag::Byte(-1)).unwrap());
}

#[test]
fn bool_rejects_other_tags() {
    let e = read_v::<bool>(NbtTag::Int(1)).unwrap_err();
    assert!(e.to_string().contains("expected a boolean"), "{e}");
    assert!(read_v::<bool>(NbtTag::String("true".into())).is_err());
}

#[test]
fn signed_integers_have_their_tags() {
    assert_eq!(write_v(-5i8), NbtTag::Byte(-5));
    assert_eq!(write_v(-500i16), NbtTag::Short(-500));
    assert_eq!(write_v(-70000i32), NbtTag::Int(-70000));
    assert_eq!(write_v(-(1i64 << 40)), NbtTag::Long(-(1 << 40)));
}

#[test]
fn signed_integers_round_trip_extremes() {
    // Each width's ends are written as that tag, exactly, and read back.
    assert_eq!(write_v(i8::MIN), NbtTag::Byte(i8::MIN));
    assert_eq!(write_v(i8::MAX), NbtTag::Byte(i8::MAX));
    assert_eq!(write_v(i16::MIN), NbtTag::Short(i16::MIN));
    assert_eq!(write_v(i16::MAX), NbtTag::Short(i16::MAX));
    assert_eq!(write_v(i32::MIN), NbtTag::Int(i32::MIN));
    assert_eq!(write_v(i32::MAX), NbtTag::Int(i32::MAX));
    assert_eq!(write_v(i64::MIN), NbtTag::Long(i64::MIN));
    assert_eq!(write_v(i64::MAX), NbtTag::Long(i64::MAX));
    assert_eq!(read_v::<i8>(NbtTag::Byte(i8::MIN)).unwrap(), i8::MIN);
    assert_eq!(read_v::<i16>(NbtTag::Short(i16::MIN)).unwrap(), i16::MIN);
    assert_eq!(read_v::<i32>(NbtTag::Int(i32::MIN)).unwrap(), i32::MIN);
    assert_eq!(read_v::<i64>(NbtTag::Long(i64::MIN)).unwrap(), i64::MIN);
    assert_eq!(read_v::<i64>(NbtTag::Long(i64::MAX)).unwrap(), i64::MAX);
    roundtrip(i8::MIN);
    roundtrip(i8::MAX);
    roundtrip(i16::MIN);
    roundtrip(i16::MAX);
    roundtrip(i32::MIN);
    roundtrip(i32::MAX);
    roundtrip(i64::MIN);
    roundtrip(i64::MAX);
}

#[test]
fn unsigned_integers_are_same_width_bits() {
    assert_eq!(write_v(255u8), NbtTag::Byte(-1));
    assert_eq!(write_v(65535u16), NbtTag::Short(-1));
    assert_eq!(write_v(u32::MAX), NbtTag::Int(-1));
    assert_eq!(write_v(u64::MAX), NbtTag::Long(-1));
    assert_eq!(read_v::<u8>(NbtTag::Byte(-1)).unwrap(), 255);
    assert_eq!(read_v::<u16>(NbtTag::Short(-2)).unwrap(), 65534);
    assert_eq!(read_v::<u32>(NbtTag::Int(-1)).unwrap(), u32::MAX);
    assert_eq!(read_v::<u64>(NbtTag::Long(-1)).unwrap(), u64::MAX);
}

#[test]
fn unsigned_from_other_width_is_range_checked() {
    assert_eq!(read_v::<u32>(NbtTag::Byte(7)).unwrap(), 7);
    assert!(read_v::<u32>(NbtTag::Byte(-1)).is_err());
    assert!(read_v::<u8>(NbtTag::Int(256)).is_err());
    assert_eq!(read_v::<u8>(NbtTag::Int(200)).unwrap(), 200);
}

#[test]
fn integers_widen_when_the_value_fits() {
    assert_eq!(read_v::<i32>(NbtTag::Byte(-3)).unwrap(), -3);
    assert_eq!(read_v::<i64>(NbtTag::Short(300)).unwrap(), 300);
    assert_eq!(read_v::<i16>(NbtTag::Long(12)).unwrap(), 12);
}

#[test]
fn integers_never_truncate() {
    let e = read_v::<i8>(NbtTag::Int(300)).unwrap_err();
    assert!(
        e.to_string()
            .contains("invalid value: integer `300`, expected i8"),
        "{e}"
    );
    assert_eq!(e.path(), "v");
    assert_eq!(e.offset(), Some(3));
    assert!(read_v::<i32>(NbtTag::Long(1 << 40)).is_err());
}

#[test]
fn integers_reject_strings_and_floats() {
    assert!(read_v::<i32>(NbtTag::String("1".into())).is_err());
    assert!(read_v::<i32>(NbtTag::Float(1.0)).is_err());
}

#[test]
fn i128_has_no_tag() {
    assert!(to_vec(&W { v: 1i128 }).is_err());
    assert!(to_vec(&W { v: 1u128 }).is_err());
    assert!(read_v::<i128>(NbtTag::Long(1)).is_err());
}

#[test]
fn floats_have_their_tags() {
    assert_eq!(write_v(1.5f32), NbtTag::Float(1.5));
    assert_eq!(write_v(-2.25f64), NbtTag::Double(-2.25));
    assert_eq!(read_v::<f64>(NbtTag::Float(0.5)).unwrap(), 0.5);
    assert_eq!(read_v::<f32>(NbtTag::Double(0.25)).unwrap(), 0.25);
    assert_eq!(read_v::<f64>(NbtTag::Int(3)).unwrap(), 3.0);
}

#[test]
fn float_bits_survive() {
    let bytes = to_vec(&W { v: f64::NAN }).unwrap();
    assert!(from_slice::<W<f64>>(&bytes).unwrap().v.is_nan());
    let bytes = to_vec(&W { v: -0.0f32 }).unwrap();
    assert!(from_slice::<W<f32>>(&bytes).unwrap().v.is_sign_negative());
    roundtrip(f32::INFINITY);
    roundtrip(f64::MIN_POSITIVE);
}

// ---- strings ----

#[test]
fn char_is_a_one_char_string() {
    assert_eq!(write_v('x'), NbtTag::String("x".into()));
    assert_eq!(read_v::<char>(NbtTag::String("é".into())).unwrap(), 'é');
    assert!(read_v::<char>(NbtTag::String("ab".into())).is_err());
}

#[test]
fn strings_are_mutf8() {
    assert_eq!(write_v("a\0b😀"), NbtTag::String("a\0b😀".into()));
    let bytes = to_vec(&W { v: "a\0b" }).unwrap();
    // NUL is C0 80 in MUTF-8.
    assert!(bytes.windows(2).any(|w| w == [0xc0, 0x80]));
    assert_eq!(
        read_v::<String>(NbtTag::String("a\0b😀".into())).unwrap(),
        "a\0b😀"
    );
}

#[test]
fn str_borrows_from_the_input() {
    let bytes = doc(vec![("v", NbtTag::String("hello".into()))]);
    let w: W<&str> = from_slice(&bytes).unwrap();
    let range = bytes.as_ptr_range();
    assert!(range.contains(&w.v.as_ptr()));
}

#[test]
fn str_cannot_borrow_what_needs_decoding() {
    let bytes = doc(vec![("v", NbtTag::String("a\0b".into()))]);
    let e = from_slice::<W<&str>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("borrowed string"), "{e}");
    assert_eq!(e.path(), "v");
}

#[test]
fn cow_str_borrows_when_it_can() {
    #[derive(Deserialize)]
    struct C<'a> {
        #[serde(borrow)]
        a: Cow<'a, str>,
        #[serde(borrow)]
        b: Cow<'a, str>,
    }
    let bytes = doc(vec![
        ("a", NbtTag::String("plain".into())),
        ("b", NbtTag::String("nul\0".into())),
    ]);
    let c: C = from_slice(&bytes).unwrap();
    assert!(matches!(c.a, Cow::Borrowed("plain")));
    assert!(matches!(c.b, Cow::Owned(ref s) if s == "nul\0"));
}

/// Short keys and strings are checked for ASCII a word at a time, the word
/// reaching past the string when the input has the bytes: every length up
/// to 40, a non-ASCII byte at each position, the string at the very end of
/// the input and followed by bytes with the high bit set.
#[test]
fn short_strings_and_keys_are_checked_to_their_last_byte() {
    let network = Options::new().network();
    for n in 0..=40usize {
        let ascii: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
        let text = String::from_utf8(ascii.clone()).unwrap();
        // A String root: the string ends the input.
        let root = |bytes: &[u8]| {
            let mut doc = vec![STRING, 0, bytes.len() as u8];
            doc.extend_from_slice(bytes);
            doc
        };
        assert_eq!(
            from_slice_with::<String>(&root(&ascii), &network).unwrap(),
            text
        );
        // {key: Byte -1}: the key is followed by 0xFF and the End.
        let keyed = |key: &[u8]| {
            let mut doc = vec![COMPOUND, 0, 0, BYTE, 0, key.len() as u8];
            doc.extend_from_slice(key);
            doc.extend_from_slice(&[0xff, END]);
            doc
        };
        let map: BTreeMap<String, i8> = from_slice(&keyed(&ascii)).unwrap();
        assert_eq!(map, BTreeMap::from([(text.clone(), -1)]));
        for at in 0..n {
            // A byte that is never valid: an error, never a borrowed str.
            let mut bad = ascii.clone();
            bad[at] = 0xff;
            let e = from_slice_with::<String>(&root(&bad), &network).unwrap_err();
            assert!(e.to_string().contains("MUTF-8"), "{n} {at}: {e}");
            assert!(from_slice::<BTreeMap<String, i8>>(&keyed(&bad)).is_err());
            assert!(from_slice_with::<&str>(&root(&bad), &network).is_err());
            // NUL (C0 80) decodes; a borrowed str cannot hold it.
            let mut nul = ascii.clone();
            nul.splice(at..at + 1, [0xc0, 0x80]);
            let mut want = text.clone();
            want.replace_range(at..at + 1, "\0");
            assert_eq!(
                from_slice_with::<String>(&root(&nul), &network).unwrap(),
                want
            );
            let map: BTreeMap<String, i8> = from_slice(&keyed(&nul)).unwrap();
            assert_eq!(map, BTreeMap::from([(want, -1)]));
            assert!(from_slice_with::<&str>(&root(&nul), &network).is_err());
        }
    }
}

#[test]
fn invalid_mutf8_is_an_error_at_its_byte() {
    // {"v": String [ED A0 80]}: a lone surrogate, valid Java, no Rust str.
    let bytes = [10, 0, 0, 8, 0, 1, b'v', 0, 3, 0xed, 0xa0, 0x80, 0];
    let e = from_slice::<W<String>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("MUTF-8"), "{e}");
    assert_eq!(e.offset(), Some(9));
    assert_eq!(e.path(), "v");
}

#[test]
fn long_strings_are_a_write_error() {
    let e = to_vec(&W {
        v: "x".repeat(70_000),
    })
    .unwrap_err();
    assert!(matches!(
        e.write_error(),
        Some(simdnbt::WriteError::StringTooLong { len: 70_000 })
    ));
    assert_eq!(e.path(), "v");
    assert!(
        to_vec(&W {
            v: "x".repeat(65_535)
        })
        .is_ok()
    );
}

#[test]
fn bytes_are_a_byte_array_and_borrow() {
    #[derive(Serialize, Deserialize)]
    struct B<'a> {
        #[serde(with = "serde_bytes", borrow)]
        v: &'a [u8],
    }
    let bytes = to_vec(&B { v: &[1, 2, 3] }).unwrap();
    assert_eq!(field(&bytes), NbtTag::ByteArray(vec![1, 2, 3]));
    let b: B = from_slice(&bytes).unwrap();
    assert_eq!(b.v, [1, 2, 3]);
    assert!(bytes.as_ptr_range().contains(&b.v.as_ptr()));
}

#[test]
fn serde_bytes_buf_reads_a_byte_array() {
    let w: W<serde_bytes::ByteBuf> =
        from_slice(&doc(vec![("v", NbtTag::ByteArray(vec![9, 8]))])).unwrap();
    assert_eq!(w.v.as_ref(), [9, 8]);
}

// ---- lists ----

#[test]
fn vec_is_a_list() {
    assert_eq!(
        write_v(vec![1i32, 2]),
        NbtTag::List(NbtList::Int(vec![1, 2]))
    );
    assert_eq!(
        write_v(vec!["a", "b"]),
        NbtTag::List(NbtList::String(vec!["a".into(), "b".into()]))
    );
    assert_eq!(
        read_v::<Vec<i64>>(NbtTag::List(NbtList::Long(vec![5]))).unwrap(),
        [5]
    );
}

#[test]
fn every_list_element_type_round_trips() {
    roundtrip(vec![1i8, -1]);
    roundtrip(vec![1i16, -1]);
    roundtrip(vec![1i64, -1]);
    roundtrip(vec![1.5f32]);
    roundtrip(vec![1.5f64]);
    roundtrip(vec![vec![1i32], vec![]]);
    roundtrip(vec![W { v: 1i8 }, W { v: 2 }]);
    roundtrip(vec![ByteArray(vec![1]), ByteArray(vec![])]);
    roundtrip(vec![IntArray(vec![1]), IntArray(vec![2, 3])]);
    roundtrip(vec![LongArray(vec![1])]);
    roundtrip(vec![String::from("x")]);
}

#[test]
fn empty_list_is_a_list_of_end() {
    let bytes = to_vec(&W {
        v: Vec::<i32>::new(),
    })
    .unwrap();
    assert_eq!(field(&bytes), NbtTag::List(NbtList::Empty));
    assert_eq!(&bytes[bytes.len() - 6..], [END, 0, 0, 0, 0, END]);
    assert!(
        read_v::<Vec<String>>(NbtTag::List(NbtList::Empty))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn empty_typed_list_reads_as_empty_vec() {
    assert!(
        read_v::<Vec<String>>(NbtTag::List(NbtList::Int(vec![])))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn list_elements_must_share_a_type() {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum E {
        I(i32),
        S(&'static str),
    }
    let e = to_vec(&W {
        v: vec![E::I(1), E::S("x")],
    })
    .unwrap_err();
    assert!(e.to_string().contains("a list holds one type"), "{e}");
    assert_eq!(e.path(), "v[1]");
}

#[test]
fn none_in_a_list_is_an_error() {
    let e = to_vec(&W {
        v: vec![Some(1), None],
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("None cannot be a list element"),
        "{e}"
    );
    assert_eq!(e.path(), "v[1]");
}

#[test]
fn some_in_a_list_is_its_value() {
    assert_eq!(
        write_v(vec![Some(1i8)]),
        NbtTag::List(NbtList::Byte(vec![1]))
    );
    assert_eq!(
        read_v::<Vec<Option<i8>>>(NbtTag::List(NbtList::Byte(vec![1]))).unwrap(),
        [Some(1)]
    );
}

#[test]
fn vec_i8_and_vec_u8_are_lists_of_byte() {
    assert_eq!(
        write_v(vec![1i8, -2]),
        NbtTag::List(NbtList::Byte(vec![1, -2]))
    );
    assert_eq!(
        write_v(vec![1u8, 254]),
        NbtTag::List(NbtList::Byte(vec![1, -2]))
    );
}

#[test]
fn vec_u8_and_vec_i8_read_a_byte_array() {
    assert_eq!(
        read_v::<Vec<u8>>(NbtTag::ByteArray(vec![1, 255])).unwrap(),
        [1, 255]
    );
    assert_eq!(
        read_v::<Vec<i8>>(NbtTag::ByteArray(vec![1, 255])).unwrap(),
        [1, -1]
    );
    assert_eq!(
        read_v::<Vec<u8>>(NbtTag::List(NbtList::Byte(vec![-1]))).unwrap(),
        [255]
    );
}

#[test]
fn tuples_and_fixed_arrays_are_lists() {
    assert_eq!(
        write_v((1i32, 2i32)),
        NbtTag::List(NbtList::Int(vec![1, 2]))
    );
    assert_eq!(
        write_v([1.0f64, 2.0, 3.0]),
        NbtTag::List(NbtList::Double(vec![1.0, 2.0, 3.0]))
    );
    assert_eq!(
        read_v::<[f64; 3]>(NbtTag::List(NbtList::Double(vec![1.0, 2.0, 3.0]))).unwrap(),
        [1.0, 2.0, 3.0]
    );
    assert!(read_v::<[f64; 3]>(NbtTag::List(NbtList::Double(vec![1.0]))).is_err());
    roundtrip((1i8, 2i8, 3i8));
}

#[test]
fn tuple_of_mixed_types_is_an_error() {
    let e = to_vec(&W { v: (1i32, "x") }).unwrap_err();
    assert_eq!(e.path(), "v[1]");
}

#[test]
fn tuple_struct_is_a_list() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Pos(f64, f64, f64);
    assert_eq!(
        write_v(Pos(1.0, 2.0, 3.0)),
        NbtTag::List(NbtList::Double(vec![1.0, 2.0, 3.0]))
    );
    roundtrip(Pos(1.0, 2.0, 3.0));
}

#[test]
fn sets_are_lists() {
    let s: BTreeSet<i32> = [3, 1, 2].into();
    assert_eq!(write_v(&s), NbtTag::List(NbtList::Int(vec![1, 2, 3])));
    roundtrip(s);
}

#[test]
fn nested_lists() {
    let v = vec![vec![vec![1i16]], vec![]];
    roundtrip(v);
}

#[test]
fn list_where_a_compound_is_expected() {
    let e = read_v::<W<i32>>(NbtTag::List(NbtList::Int(vec![1]))).unwrap_err();
    assert!(
        e.to_string()
            .contains("invalid type: sequence, expected struct W"),
        "{e}"
    );
}

#[test]
fn heterogeneous_list_reads_as_plain_values() {
    // 1.21.5: [1, "a"] is stored as [{"": 1}, {"": "a"}].
    let list: NbtList = vec![NbtTag::Int(1), NbtTag::String("a".into())].into();
    assert!(matches!(list, NbtList::Compound(_)));
    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum V {
        I(i32),
        S(String),
    }
    let v: Vec<V> = read_v(NbtTag::List(list)).unwrap();
    assert_eq!(v, [V::I(1), V::S("a".into())]);
}

#[test]
fn heterogeneous_wrapper_unwraps_for_typed_fields_too() {
    let list = NbtList::Compound(vec![
        NbtCompound::from_values(vec![("".into(), NbtTag::Int(5))]),
        NbtCompound::from_values(vec![("".into(), NbtTag::Int(6))]),
    ]);
    assert_eq!(read_v::<Vec<i32>>(NbtTag::List(list)).unwrap(), [5, 6]);
}

#[test]
fn compound_with_other_keys_is_not_a_wrapper() {
    let list = NbtList::Compound(vec![NbtCompound::from_values(vec![
        ("".into(), NbtTag::Int(5)),
        ("x".into(), NbtTag::Int(6)),
    ])]);
    let v: Vec<HashMap<String, i32>> = read_v(NbtTag::List(list)).unwrap();
    assert_eq!(v[0]["x"], 6);
}

// ---- arrays ----

#[test]
fn array_types_write_array_tags() {
    assert_eq!(
        write_v(ByteArray(vec![1, 255])),
        NbtTag::ByteArray(vec![1, 255])
    );
    assert_eq!(
        write_v(IntArray(vec![1, -1])),
        NbtTag::IntArray(vec![1, -1])
    );
    assert_eq!(
        write_v(LongArray(vec![i64::MIN])),
        NbtTag::LongArray(vec![i64::MIN])
    );
}

#[test]
fn array_types_read_array_tags() {
    assert_eq!(
        read_v::<ByteArray>(NbtTag::ByteArray(vec![7])).unwrap(),
        ByteArray(vec![7])
    );
    assert_eq!(
        read_v::<IntArray>(NbtTag::IntArray(vec![7, 8])).unwrap(),
        IntArray(vec![7, 8])
    );
    assert_eq!(
        read_v::<LongArray>(NbtTag::LongArray(vec![7])).unwrap(),
        LongArray(vec![7])
    );
}

#[test]
fn array_types_read_lists_of_their_element() {
    assert_eq!(
        read_v::<ByteArray>(NbtTag::List(NbtList::Byte(vec![-1]))).unwrap(),
        ByteArray(vec![255])
    );
    assert_eq!(
        read_v::<IntArray>(NbtTag::List(NbtList::Int(vec![3]))).unwrap(),
        IntArray(vec![3])
    );
    assert_eq!(
        read_v::<LongArray>(NbtTag::List(NbtList::Long(vec![3]))).unwrap(),
        LongArray(vec![3])
    );
    assert_eq!(
        read_v::<IntArray>(NbtTag::List(NbtList::Empty)).unwrap(),
        IntArray(vec![])
    );
}

#[test]
fn array_types_reject_other_tags() {
    assert!(read_v::<IntArray>(NbtTag::LongArray(vec![1 << 40])).is_err());
    assert_eq!(
        read_v::<IntArray>(NbtTag::LongArray(vec![1])).unwrap(),
        IntArray(vec![1])
    );
    assert!(read_v::<IntArray>(NbtTag::String("x".into())).is_err());
    assert!(
        read_v::<LongArray>(NbtTag::List(NbtList::Int(vec![1]))).is_ok(),
        "ints widen into longs"
    );
    assert!(read_v::<ByteArray>(NbtTag::List(NbtList::Int(vec![300]))).is_err());
}

#[test]
fn plain_vecs_read_arrays() {
    assert_eq!(
        read_v::<Vec<i32>>(NbtTag::IntArray(vec![1, 2])).unwrap(),
        [1, 2]
    );
    assert_eq!(
        read_v::<Vec<i64>>(NbtTag::LongArray(vec![1, 2])).unwrap(),
        [1, 2]
    );
    assert_eq!(
        read_v::<Vec<u32>>(NbtTag::IntArray(vec![-1])).unwrap(),
        [u32::MAX]
    );
}

#[test]
fn with_modules_write_arrays() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct A {
        #[serde(with = "simdnbt::serde::byte_array")]
        b: Vec<u8>,
        #[serde(with = "simdnbt::serde::int_array")]
        i: Vec<i32>,
        #[serde(with = "simdnbt::serde::long_array")]
        l: Vec<i64>,
    }
    let a = A {
        b: vec![1],
        i: vec![2],
        l: vec![3],
    };
    let bytes = to_vec(&a).unwrap();
    let nbt = read(&bytes);
    assert_eq!(nbt.get("b"), Some(&NbtTag::ByteArray(vec![1])));
    assert_eq!(nbt.get("i"), Some(&NbtTag::IntArray(vec![2])));
    assert_eq!(nbt.get("l"), Some(&NbtTag::LongArray(vec![3])));
    assert_eq!(from_slice::<A>(&bytes).unwrap(), a);
}

#[test]
fn arrays_are_sequences_for_other_formats() {
    let json = serde_json::to_string(&W {
        v: IntArray(vec![1, 2]),
    })
    .unwrap();
    assert_eq!(json, r#"{"v":[1,2]}"#);
    let back: W<IntArray> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.v, IntArray(vec![1, 2]));
    let back: W<ByteArray> = serde_json::from_str(r#"{"v":[255,-1]}"#).unwrap();
    assert_eq!(back.v, ByteArray(vec![255, 255]));
}

#[test]
fn no_marker_keys_in_the_output() {
    let bytes = to_vec(&W {
        v: IntArray(vec![1]),
    })
    .unwrap();
    assert_eq!(
        bytes,
        [10, 0, 0, INT_ARRAY, 0, 1, b'v', 0, 0, 0, 1, 0, 0, 0, 1, 0]
    );
}

#[test]
fn marker_like_keys_are_just_keys() {
    // fastnbt reads a key `__fastnbt_int_array` as an array marker; here it is data.
    let bytes = doc(vec![("__fastnbt_int_array", NbtTag::Int(1))]);
    let m: HashMap<String, i32> = from_slice(&bytes).unwrap();
    assert_eq!(m["__fastnbt_int_array"], 1);
}

#[test]
fn uuid_is_an_int_array_of_four() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct E {
        #[serde(with = "simdnbt::serde::uuid")]
        id: u128,
    }
    let e = E {
        id: 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10,
    };
    let bytes = to_vec(&e).unwrap();
    assert_eq!(
        read(&bytes).get("id"),
        Some(&NbtTag::IntArray(vec![
            0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10
        ]))
    );
    assert_eq!(from_slice::<E>(&bytes).unwrap(), e);
    let neg = E { id: u128::MAX };
    assert_eq!(from_slice::<E>(&to_vec(&neg).unwrap()).unwrap(), neg);
}

#[test]
fn uuid_of_the_wrong_length_is_an_error() {
    #[derive(Deserialize, Debug)]
    struct E {
        #[serde(with = "simdnbt::serde::uuid")]
        #[allow(dead_code)]
        id: u128,
    }
    let bytes = doc(vec![("id", NbtTag::IntArray(vec![1, 2, 3]))]);
    let e = from_slice::<E>(&bytes).unwrap_err();
    assert!(e.to_string().contains("invalid length 3"), "{e}");
    assert_eq!(e.path(), "id");
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn uuid_helpers_are_inverse() {
    use simdnbt::serde::uuid::{from_ints, to_ints};
    for v in [0u128, 1, u128::MAX, 0x8000_0000 << 64] {
        assert_eq!(from_ints(to_ints(v)), v);
    }
    assert_eq!(to_ints(1), [0, 0, 0, 1]);
}

// ---- compounds, maps ----

#[test]
fn struct_is_a_compound_in_field_order() {
    #[derive(Serialize)]
    struct S {
        b: i8,
        a: i8,
    }
    let bytes = to_vec(&S { b: 1, a: 2 }).unwrap();
    assert_eq!(bytes, [10, 0, 0, 1, 0, 1, b'b', 1, 1, 0, 1, b'a', 2, 0]);
}

#[test]
fn unknown_fields_are_skipped() {
    let bytes = doc(vec![
        ("extra", NbtTag::List(NbtList::Int(vec![1]))),
        ("v", NbtTag::Int(3)),
    ]);
    assert_eq!(from_slice::<W<i32>>(&bytes).unwrap().v, 3);
}

/// A field whose `Deserialize` never asks the deserializer for anything:
/// its value, of any type, is skipped (a map hands values over unread).
#[test]
fn values_a_type_never_reads_are_skipped() {
    struct Untouched;
    impl<'de> Deserialize<'de> for Untouched {
        fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
            Ok(Untouched)
        }
    }
    #[derive(Deserialize)]
    #[allow(dead_code)] // `a`, `c` and `e` are there to be skipped
    struct S {
        a: Untouched,
        b: i32,
        c: Untouched,
        d: String,
        e: Untouched,
        f: i8,
    }
    for skipped in [
        NbtTag::Byte(-1),
        NbtTag::Long(7),
        NbtTag::Double(0.5),
        NbtTag::String("xyz".into()),
        NbtTag::IntArray(vec![1, 2]),
        NbtTag::List(NbtList::Int(vec![1])),
        NbtTag::Compound(crate::common::compound(vec![("x", NbtTag::Int(1))])),
    ] {
        let bytes = doc(vec![
            ("a", skipped.clone()),
            ("b", NbtTag::Int(5)),
            ("c", skipped.clone()),
            ("d", NbtTag::String("q".into())),
            ("e", skipped),
            ("f", NbtTag::Byte(3)),
        ]);
        let s: S = from_slice(&bytes).unwrap();
        assert_eq!((s.b, s.d.as_str(), s.f), (5, "q", 3));
    }
}

#[test]
fn deny_unknown_fields_points_at_the_key() {
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct S {
        #[allow(dead_code)]
        v: i32,
    }
    let bytes = doc(vec![("v", NbtTag::Int(3)), ("zz", NbtTag::Int(3))]);
    let e = from_slice::<S>(&bytes).unwrap_err();
    assert!(e.to_string().contains("unknown field `zz`"), "{e}");
    assert_eq!(e.path(), "zz");
    assert_eq!(e.offset(), Some(11));
}

#[test]
fn missing_field_names_the_compound() {
    #[derive(Deserialize, Debug)]
    struct Inner {
        #[allow(dead_code)]
        needed: i32,
    }
    let bytes = doc(vec![("v", NbtTag::Compound(NbtCompound::new()))]);
    let e = from_slice::<W<Inner>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("missing field `needed`"), "{e}");
    assert_eq!(e.path(), "v");
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn maps_are_compounds() {
    let m: BTreeMap<String, i16> = [("a".into(), 1), ("b".into(), 2)].into();
    let bytes = to_vec(&m).unwrap();
    let nbt = read(&bytes);
    assert_eq!(nbt.get("b"), Some(&NbtTag::Short(2)));
    assert_eq!(from_slice::<BTreeMap<String, i16>>(&bytes).unwrap(), m);
    let h: HashMap<String, i16> = from_slice(&bytes).unwrap();
    assert_eq!(h.len(), 2);
}

#[test]
fn map_keys_may_be_numbers_bools_chars() {
    let m: BTreeMap<i32, bool> = [(-1, true), (7, false)].into();
    let bytes = to_vec(&m).unwrap();
    assert_eq!(read(&bytes).get("-1"), Some(&NbtTag::Byte(1)));
    assert_eq!(from_slice::<BTreeMap<i32, bool>>(&bytes).unwrap(), m);
    let c: BTreeMap<char, i8> = [('x', 1)].into();
    assert_eq!(
        from_slice::<BTreeMap<char, i8>>(&to_vec(&c).unwrap()).unwrap(),
        c
    );
    let b: BTreeMap<bool, i8> = [(true, 1)].into();
    assert_eq!(
        from_slice::<BTreeMap<bool, i8>>(&to_vec(&b).unwrap()).unwrap(),
        b
    );
}

#[test]
fn map_key_that_does_not_parse_is_an_error() {
    let bytes = doc(vec![("x", NbtTag::Int(1))]);
    let e = from_slice::<BTreeMap<i32, i32>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("invalid map key \"x\""), "{e}");
    assert_eq!(e.path(), "x");
    assert_eq!(e.offset(), Some(3));
}

#[test]
fn map_keys_that_are_not_strings_are_a_write_error() {
    let m: BTreeMap<Vec<i32>, i32> = [(vec![1], 1)].into();
    let e = to_vec(&m).unwrap_err();
    assert!(e.to_string().contains("compound key must be"), "{e}");
}

#[test]
fn unit_variant_map_keys() {
    #[derive(Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Debug)]
    enum K {
        A,
        B,
    }
    let m: BTreeMap<K, i8> = [(K::A, 1), (K::B, 2)].into();
    let bytes = to_vec(&m).unwrap();
    assert_eq!(read(&bytes).get("B"), Some(&NbtTag::Byte(2)));
    assert_eq!(from_slice::<BTreeMap<K, i8>>(&bytes).unwrap(), m);
}

#[test]
fn duplicate_keys_reach_the_visitor_in_order() {
    let bytes = doc(vec![("v", NbtTag::Int(1)), ("v", NbtTag::Int(2))]);
    let e = from_slice::<W<i32>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("duplicate field `v`"), "{e}");
}

#[test]
fn compound_where_a_number_is_expected() {
    let e = read_v::<i32>(NbtTag::Compound(NbtCompound::new())).unwrap_err();
    assert!(
        e.to_string().contains("invalid type: map, expected i32"),
        "{e}"
    );
}

#[test]
fn keys_with_nul_and_emoji() {
    let m: BTreeMap<String, i8> = [("a\0😀".into(), 1)].into();
    let bytes = to_vec(&m).unwrap();
    assert_eq!(read(&bytes).get("a\0😀"), Some(&NbtTag::Byte(1)));
    assert_eq!(from_slice::<BTreeMap<String, i8>>(&bytes).unwrap(), m);
}

#[test]
fn borrowed_keys() {
    let bytes = doc(vec![("key", NbtTag::Int(1))]);
    let m: BTreeMap<&str, i32> = from_slice(&bytes).unwrap();
    assert_eq!(m["key"], 1);
}

// ---- options, units ----

#[test]
fn none_fields_are_left_out() {
    #[derive(Serialize)]
    struct S {
        a: Option<i32>,
        b: Option<i32>,
    }
    let bytes = to_vec(&S {
        a: None,
        b: Some(2),
    })
    .unwrap();
    let nbt = read(&bytes);
    assert!(!nbt.contains("a"));
    assert_eq!(nbt.get("b"), Some(&NbtTag::Int(2)));
    assert_eq!(bytes, [10, 0, 0, 3, 0, 1, b'b', 0, 0, 0, 2, 0]);
}

#[test]
fn missing_fields_are_none() {
    #[derive(Deserialize)]
    struct S {
        a: Option<i32>,
        b: Option<i32>,
    }
    let s: S = from_slice(&doc(vec![("b", NbtTag::Int(2))])).unwrap();
    assert_eq!((s.a, s.b), (None, Some(2)));
}

#[test]
fn nested_option() {
    roundtrip(Some(Some(3i8)));
    let w: W<Option<Option<i8>>> = from_slice(&doc(vec![("v", NbtTag::Byte(1))])).unwrap();
    assert_eq!(w.v, Some(Some(1)));
}

#[test]
fn none_at_the_root_is_an_end_root() {
    let bytes = to_vec(&None::<W<i32>>).unwrap();
    assert_eq!(bytes, [END]);
    assert_eq!(from_slice::<Option<W<i32>>>(&bytes).unwrap(), None);
    assert_eq!(
        from_slice::<Option<W<i32>>>(&to_vec(&Some(W { v: 1 })).unwrap()).unwrap(),
        Some(W { v: 1 })
    );
}

#[test]
fn end_root_into_a_struct_is_an_error() {
    let e = from_slice::<W<i32>>(&[END]).unwrap_err();
    assert!(e.to_string().contains("empty document"), "{e}");
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn unit_is_an_empty_compound() {
    assert_eq!(write_v(()), NbtTag::Compound(NbtCompound::new()));
    read_v::<()>(NbtTag::Compound(NbtCompound::new())).unwrap();
    assert!(read_v::<()>(NbtTag::Int(0)).is_err());
}

#[test]
fn unit_struct_is_an_empty_compound() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct U;
    assert_eq!(write_v(U), NbtTag::Compound(NbtCompound::new()));
    roundtrip(U);
}

#[test]
fn newtype_struct_is_its_content() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Meters(f32);
    assert_eq!(write_v(Meters(2.0)), NbtTag::Float(2.0));
    roundtrip(Meters(2.0));
}

#[test]
fn skip_and_default() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct S {
        #[serde(skip)]
        cache: i32,
        #[serde(default)]
        n: i32,
    }
    let bytes = to_vec(&S { cache: 9, n: 0 }).unwrap();
    assert!(!read(&bytes).contains("cache"));
    assert_eq!(from_slice::<S>(&doc(vec![])).unwrap(), S { cache: 0, n: 0 });
}

#[test]
fn rename_and_rename_all() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(rename_all = "PascalCase")]
    struct S {
        on_ground: bool,
        #[serde(rename = "UUID")]
        uuid: IntArray,
    }
    let s = S {
        on_ground: true,
        uuid: IntArray(vec![1, 2, 3, 4]),
    };
    let bytes = to_vec(&s).unwrap();
    let nbt = read(&bytes);
    assert_eq!(nbt.get("OnGround"), Some(&NbtTag::Byte(1)));
    assert!(nbt.contains("UUID"));
    assert_eq!(from_slice::<S>(&bytes).unwrap(), s);
}

#[test]
fn ignored_values_of_every_type() {
    let bytes = doc(vec![
        ("a", NbtTag::ByteArray(vec![1])),
        (
            "b",
            NbtTag::List(NbtList::Compound(vec![NbtCompound::new()])),
        ),
        ("c", NbtTag::LongArray(vec![1])),
        ("d", NbtTag::String("x".into())),
        ("v", NbtTag::Byte(1)),
    ]);
    assert_eq!(from_slice::<W<i8>>(&bytes).unwrap().v, 1);
    let _: serde::de::IgnoredAny = from_slice(&bytes).unwrap();
}

// ---- enums ----

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum E {
    Unit,
    New(i32),
    Tuple(i8, i8),
    Struct { a: i16 },
}

#[test]
fn unit_variant_is_a_string() {
    assert_eq!(write_v(E::Unit), NbtTag::String("Unit".into()));
    assert_eq!(read_v::<E>(NbtTag::String("Unit".into())).unwrap(), E::Unit);
}

#[test]
fn newtype_variant_is_a_one_entry_compound() {
    assert_eq!(
        write_v(E::New(5)),
        NbtTag::Compound(NbtCompound::from_values(vec![(
            "New".into(),
            NbtTag::Int(5)
        )]))
    );
    roundtrip(E::New(5));
}

#[test]
fn tuple_variant_is_a_compound_of_a_list() {
    assert_eq!(
        write_v(E::Tuple(1, 2)),
        NbtTag::Compound(NbtCompound::from_values(vec![(
            "Tuple".into(),
            NbtTag::List(NbtList::Byte(vec![1, 2]))
        )]))
    );
    roundtrip(E::Tuple(1, 2));
}

#[test]
fn struct_variant_is_a_compound_of_a_compound() {
    let tag = write_v(E::Struct { a: 3 });
    let inner = tag.compound().unwrap().compound("Struct").unwrap();
    assert_eq!(inner.short("a"), Some(3));
    roundtrip(E::Struct { a: 3 });
}

#[test]
fn enums_in_a_list() {
    roundtrip(vec![E::New(1), E::Struct { a: 1 }]);
    roundtrip(vec![E::Unit, E::Unit]);
    let e = to_vec(&W {
        v: vec![E::Unit, E::New(1)],
    })
    .unwrap_err();
    assert_eq!(e.path(), "v[1]");
}

#[test]
fn unknown_variant_is_an_error_with_path() {
    let e = read_v::<E>(NbtTag::String("Nope".into())).unwrap_err();
    assert!(e.to_string().contains("unknown variant `Nope`"), "{e}");
    assert_eq!(e.path(), "v");
}

#[test]
fn unit_variant_with_content_expected() {
    let e = read_v::<E>(NbtTag::String("New".into())).unwrap_err();
    assert!(e.to_string().contains("invalid type: unit variant"), "{e}");
}

#[test]
fn variant_compound_with_two_entries_is_an_error() {
    let tag = NbtTag::Compound(NbtCompound::from_values(vec![
        ("New".into(), NbtTag::Int(1)),
        ("Unit".into(), NbtTag::Int(1)),
    ]));
    let e = read_v::<E>(tag).unwrap_err();
    assert!(e.to_string().contains("exactly one entry"), "{e}");
}

#[test]
fn variant_content_error_has_the_variant_in_its_path() {
    let tag = NbtTag::Compound(NbtCompound::from_values(vec![(
        "Struct".into(),
        NbtTag::Compound(NbtCompound::from_values(vec![(
            "a".into(),
            NbtTag::String("x".into()),
        )])),
    )]));
    let e = read_v::<E>(tag).unwrap_err();
    assert_eq!(e.path(), "v.Struct.a");
}

#[test]
fn enum_from_a_number_is_an_error() {
    assert!(read_v::<E>(NbtTag::Int(0)).is_err());
}

#[test]
fn unit_variant_read_from_compound_form() {
    let tag = NbtTag::Compound(NbtCompound::from_values(vec![(
        "Unit".into(),
        NbtTag::Byte(0),
    )]));
    assert_eq!(read_v::<E>(tag).unwrap(), E::Unit);
}

#[test]
fn enum_with_rename_all() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(rename_all = "snake_case")]
    enum GameMode {
        Survival,
        Creative,
    }
    assert_eq!(
        write_v(GameMode::Creative),
        NbtTag::String("creative".into())
    );
    roundtrip(GameMode::Survival);
}

// ---- readers, writers, roots ----

#[test]
fn from_reader_and_to_writer() {
    let mut out = Vec::new();
    to_writer(&mut out, &W { v: 7i32 }).unwrap();
    let back: W<i32> = from_reader(&out[..]).unwrap();
    assert_eq!(back.v, 7);
}

#[test]
fn to_writer_writes_nothing_on_error() {
    let mut out = Vec::new();
    assert!(
        to_writer(
            &mut out,
            &W {
                v: vec![Some(1), None]
            }
        )
        .is_err()
    );
    assert!(out.is_empty());
}

#[test]
fn io_errors_are_reported() {
    struct Fail;
    impl std::io::Read for Fail {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("boom"))
        }
    }
    let e = from_reader::<_, W<i32>>(Fail).unwrap_err();
    assert!(e.io_error().is_some());
    assert_eq!(e.offset(), None);
}

#[test]
fn root_name_is_written_and_read() {
    let bytes = to_vec_with(&W { v: 1i8 }, &Options::new().root_name("Level")).unwrap();
    assert_eq!(&bytes[..8], [10, 0, 5, b'L', b'e', b'v', b'e', b'l']);
    assert_eq!(read(&bytes).name(), "Level");
    let de = Deserializer::from_slice(&bytes).unwrap();
    assert_eq!(de.root_name().unwrap(), "Level");
}

#[test]
fn default_root_name_is_empty() {
    let bytes = to_vec(&W { v: 1i8 }).unwrap();
    assert_eq!(&bytes[..3], [10, 0, 0]);
}

#[test]
fn network_form_has_no_name() {
    let net = Options::new().network();
    let bytes = to_vec_with(&W { v: 1i8 }, &net).unwrap();
    assert_eq!(bytes, [10, 1, 0, 1, b'v', 1, 0]);
    let nbt = owned::read_unnamed(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    assert_eq!(nbt.byte("v"), Some(1));
    assert_eq!(from_slice_with::<W<i8>>(&bytes, &net).unwrap().v, 1);
}

#[test]
fn network_form_root_may_be_any_tag() {
    let net = Options::new().network();
    assert_eq!(to_vec_with(&5i32, &net).unwrap(), [3, 0, 0, 0, 5]);
    assert_eq!(from_slice_with::<i32>(&[3, 0, 0, 0, 5], &net).unwrap(), 5);
    assert_eq!(
        to_vec_with(&vec![1i8], &net).unwrap(),
        [9, 1, 0, 0, 0, 1, 1]
    );
    assert_eq!(to_vec_with(&None::<i32>, &net).unwrap(), [0]);
    assert_eq!(from_slice_with::<Option<i32>>(&[0], &net).unwrap(), None);
}

#[test]
fn named_root_must_be_a_compound() {
    let e = to_vec(&5i32).unwrap_err();
    assert!(
        e.to_string()
            .contains("root of a named document must be a compound"),
        "{e}"
    );
    assert!(to_vec(&vec![1]).is_err());
    assert!(to_vec(&"x").is_err());
}

#[test]
fn named_reader_rejects_a_non_compound_root() {
    let e = from_slice::<i32>(&[3, 0, 0, 0, 0, 0, 5]).unwrap_err();
    assert_eq!(
        e.read_error().unwrap().kind(),
        simdnbt::ErrorKind::InvalidRootType(3)
    );
    assert_eq!(e.offset(), Some(0));
}

#[test]
fn trailing_bytes_are_rejected_by_from_slice() {
    let mut bytes = to_vec(&W { v: 1i8 }).unwrap();
    let len = bytes.len();
    bytes.push(0xff);
    let e = from_slice::<W<i8>>(&bytes).unwrap_err();
    assert!(e.to_string().contains("trailing bytes"), "{e}");
    assert_eq!(e.offset(), Some(len));
    // The Deserializer alone reads a prefix; `end` checks.
    let mut de = Deserializer::from_slice(&bytes).unwrap();
    let w: W<i8> = Deserialize::deserialize(&mut de).unwrap();
    assert_eq!(w.v, 1);
    assert!(de.end().is_err());
}

#[test]
fn serializer_appends_to_a_buffer() {
    let mut out = vec![0xaa];
    W { v: 1i8 }
        .serialize(&mut simdnbt::serde::Serializer::new(&mut out))
        .unwrap();
    assert_eq!(out[0], 0xaa);
    assert_eq!(read(&out[1..]).byte("v"), Some(1));
}

#[test]
fn serialized_documents_match_the_owned_writer() {
    #[derive(Serialize)]
    struct S {
        a: i8,
        b: Vec<W<String>>,
        c: IntArray,
    }
    let s = S {
        a: 1,
        b: vec![W { v: "x".into() }],
        c: IntArray(vec![1]),
    };
    let ours = to_vec(&s).unwrap();
    let owned = doc(vec![
        ("a", NbtTag::Byte(1)),
        (
            "b",
            NbtTag::List(NbtList::Compound(vec![NbtCompound::from_values(vec![(
                "v".into(),
                NbtTag::String("x".into()),
            )])])),
        ),
        ("c", NbtTag::IntArray(vec![1])),
    ]);
    assert_eq!(ours, owned);
}

#[test]
fn deep_nesting_past_512_is_a_write_error() {
    #[derive(Serialize)]
    struct N {
        n: Option<Box<N>>,
    }
    let mut v = N { n: None };
    for _ in 0..600 {
        v = N {
            n: Some(Box::new(v)),
        };
    }
    // Serializing 600 levels recurses in serde's derive: give it a stack.
    let e = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || to_vec(&v).map(|_| ()).unwrap_err().to_string())
        .unwrap()
        .join()
        .unwrap();
    assert!(e.contains("deeper than 512"), "{e}");
}
