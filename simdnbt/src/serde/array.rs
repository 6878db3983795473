//! The three NBT array types, and `#[serde(with = …)]` modules for plain
//! `Vec`s.
//!
//! serde's data model has no arrays distinct from sequences, so each type
//! tells [`super::Serializer`] what it is by its newtype name (a type-level
//! marker: nothing is added to the data, no key can collide with it). Other
//! serializers see a plain sequence of numbers.
//!
//! Reading needs no marker: a ByteArray, IntArray or LongArray tag reads as a
//! sequence of its element type wherever serde asks (`deserialize_any`
//! included), so these types also work inside `#[serde(untagged)]`,
//! internally tagged enums and `#[serde(flatten)]`, where serde buffers the
//! value and forgets newtype names. Each type also accepts a List of its
//! element type.

use std::fmt;
use std::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::simd::{self, BeNumber};

pub(crate) const BYTE_ARRAY_TOKEN: &str = "\0simdnbt::ByteArray";
pub(crate) const INT_ARRAY_TOKEN: &str = "\0simdnbt::IntArray";
pub(crate) const LONG_ARRAY_TOKEN: &str = "\0simdnbt::LongArray";

/// The bytes of a ByteArray tag, written as one (a `Vec<u8>` is a List of Byte).
///
/// ```
/// use simdnbt::serde::ByteArray;
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Section { data: ByteArray }
///
/// let s = Section { data: ByteArray(vec![1, 2, 255]) };
/// let bytes = simdnbt::serde::to_vec(&s).unwrap();
/// assert_eq!(bytes[3], simdnbt::tag_id::BYTE_ARRAY);
/// assert_eq!(simdnbt::serde::from_slice::<Section>(&bytes).unwrap(), s);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ByteArray(pub Vec<u8>);

/// The values of an IntArray tag, written as one (a `Vec<i32>` is a List of Int).
///
/// ```
/// use simdnbt::serde::IntArray;
/// let bytes = simdnbt::serde::to_vec(&std::collections::BTreeMap::from([
///     ("a", IntArray(vec![1, -1])),
/// ]))
/// .unwrap();
/// assert_eq!(bytes[3], simdnbt::tag_id::INT_ARRAY);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct IntArray(pub Vec<i32>);

/// The values of a LongArray tag, written as one (a `Vec<i64>` is a List of Long).
///
/// ```
/// use simdnbt::serde::LongArray;
/// let bytes = simdnbt::serde::to_vec(&std::collections::BTreeMap::from([
///     ("a", LongArray(vec![1, -1])),
/// ]))
/// .unwrap();
/// assert_eq!(bytes[3], simdnbt::tag_id::LONG_ARRAY);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct LongArray(pub Vec<i64>);

/// A slice serialized as a sequence (the array types' payload).
struct Elements<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Elements<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.0 {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

/// Bytes serialized with `serialize_bytes`.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// Reads an array of `T`: the NBT deserializer's bytes in one piece
/// (big-endian, as in the input), or any format's sequence.
struct ArrayVisitor<T>(PhantomData<T>);

impl<'de, T: BeNumber + Deserialize<'de>> Visitor<'de> for ArrayVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {}", std::any::type_name::<T>())
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_seq(self)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<T>, E> {
        if v.len() % T::SIZE != 0 {
            return Err(E::invalid_length(v.len(), &self));
        }
        Ok(simd::from_be_bytes(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // The NBT deserializer's hint is exact and bounded by the input size.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(out)
    }
}

/// Reads a ByteArray: bytes in one piece, or a sequence of numbers in
/// `-128..=255` (the signed ones taken bit for bit).
struct ByteArrayVisitor;

impl<'de> Visitor<'de> for ByteArrayVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a byte array")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_byte_buf(self)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        while let Some(ByteElement(b)) = seq.next_element()? {
            out.push(b);
        }
        Ok(out)
    }
}

/// One element of a byte array from a sequence.
struct ByteElement(u8);

impl<'de> Deserialize<'de> for ByteElement {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ByteElement;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte (-128..=255)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ByteElement, E> {
                match v {
                    -128..=255 => Ok(ByteElement(v as u8)),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ByteElement, E> {
                match u8::try_from(v) {
                    Ok(b) => Ok(ByteElement(b)),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
                }
            }
        }
        d.deserialize_i8(V)
    }
}

impl Serialize for ByteArray {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        byte_array::serialize(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for ByteArray {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        byte_array::deserialize(d).map(ByteArray)
    }
}

macro_rules! number_array {
    ($ty:ident, $module:ident, $elem:ty, $token:ident, $tag:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $module::serialize(&self.0, s)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $module::deserialize(d).map($ty)
            }
        }

        #[doc = concat!("`#[serde(with = \"simdnbt::serde::", stringify!($module), "\")]`: a `Vec<", stringify!($elem), ">` (or any `AsRef<[", stringify!($elem), "]>` + `From<Vec<", stringify!($elem), ">>`) as a", $tag, " tag.")]
        ///
        /// ```
        #[doc = concat!("#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]\nstruct S {\n    #[serde(with = \"simdnbt::serde::", stringify!($module), "\")]\n    v: Vec<", stringify!($elem), ">,\n}")]
        /// let s = S { v: vec![1, 2, 3] };
        /// let bytes = simdnbt::serde::to_vec(&s).unwrap();
        /// assert_eq!(simdnbt::serde::from_slice::<S>(&bytes).unwrap(), s);
        /// ```
        pub mod $module {
            use super::*;

            #[doc = concat!("Writes `v` as a", $tag, ".")]
            pub fn serialize<T: AsRef<[$elem]>, S: Serializer>(
                v: &T,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                s.serialize_newtype_struct($token, &Elements(v.as_ref()))
            }

            #[doc = concat!("Reads a", $tag, " (or a List of its element type).")]
            pub fn deserialize<'de, T: From<Vec<$elem>>, D: Deserializer<'de>>(
                d: D,
            ) -> Result<T, D::Error> {
                d.deserialize_newtype_struct($token, ArrayVisitor::<$elem>(PhantomData))
                    .map(T::from)
            }
        }
    };
}

number_array!(IntArray, int_array, i32, INT_ARRAY_TOKEN, "n IntArray");
number_array!(LongArray, long_array, i64, LONG_ARRAY_TOKEN, " LongArray");

/// `#[serde(with = "simdnbt::serde::byte_array")]`: a `Vec<u8>` (or any
/// `AsRef<[u8]>` + `From<Vec<u8>>`) as a ByteArray tag.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct S {
///     #[serde(with = "simdnbt::serde::byte_array")]
///     v: Vec<u8>,
/// }
/// let s = S { v: vec![1, 2, 255] };
/// let bytes = simdnbt::serde::to_vec(&s).unwrap();
/// assert_eq!(bytes[3], simdnbt::tag_id::BYTE_ARRAY);
/// assert_eq!(simdnbt::serde::from_slice::<S>(&bytes).unwrap(), s);
/// ```
pub mod byte_array {
    use super::*;

    /// Writes `v` as a ByteArray.
    pub fn serialize<T: AsRef<[u8]>, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(BYTE_ARRAY_TOKEN, &Bytes(v.as_ref()))
    }

    /// Reads a ByteArray (or a List of Byte).
    pub fn deserialize<'de, T: From<Vec<u8>>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_newtype_struct(BYTE_ARRAY_TOKEN, ByteArrayVisitor)
            .map(T::from)
    }
}

/// `#[serde(with = "simdnbt::serde::uuid")]`: a `u128` UUID as an IntArray
/// of 4, most significant first (as Minecraft stores UUIDs since 1.16).
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Entity {
///     #[serde(rename = "UUID", with = "simdnbt::serde::uuid")]
///     uuid: u128,
/// }
/// let e = Entity { uuid: 0x0011_2233_4455_6677_8899_aabb_ccdd_eeff };
/// let bytes = simdnbt::serde::to_vec(&e).unwrap();
/// assert_eq!(bytes[3], simdnbt::tag_id::INT_ARRAY);
/// assert_eq!(simdnbt::serde::from_slice::<Entity>(&bytes).unwrap(), e);
/// ```
pub mod uuid {
    use super::*;

    /// The four ints of `v`, most significant first.
    pub fn to_ints(v: u128) -> [i32; 4] {
        [
            (v >> 96) as i32,
            (v >> 64) as i32,
            (v >> 32) as i32,
            v as i32,
        ]
    }

    /// The UUID of four ints, most significant first.
    pub fn from_ints(ints: [i32; 4]) -> u128 {
        ints.iter()
            .fold(0u128, |acc, &i| (acc << 32) | u128::from(i as u32))
    }

    /// Writes `v` as an IntArray of 4.
    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        int_array::serialize(&to_ints(*v), s)
    }

    /// Reads an IntArray of exactly 4.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let ints: Vec<i32> = int_array::deserialize(d)?;
        match <[i32; 4]>::try_from(ints) {
            Ok(ints) => Ok(from_ints(ints)),
            Err(v) => Err(de::Error::invalid_length(
                v.len(),
                &"an IntArray of 4 (a UUID)",
            )),
        }
    }
}

/// `#[serde(with = "simdnbt::serde::byte_bool")]`: a `bool` that also reads
/// where serde buffers the value (`untagged`, `flatten`, internal tags).
///
/// A `bool` is a Byte, 0 or 1, and reads directly from any Byte (0 is false).
/// Buffered, serde only remembers a number, which a plain `bool` refuses; this
/// module accepts a bool or any integer (0 false, anything else true).
///
/// ```
/// #[derive(serde::Deserialize, serde::Serialize, PartialEq, Debug)]
/// #[serde(untagged)]
/// enum Flag {
///     On { #[serde(with = "simdnbt::serde::byte_bool")] on: bool },
/// }
/// let bytes = simdnbt::serde::to_vec(&Flag::On { on: true }).unwrap();
/// assert_eq!(simdnbt::serde::from_slice::<Flag>(&bytes).unwrap(), Flag::On { on: true });
/// ```
pub mod byte_bool {
    use super::*;

    /// Writes `v` as a Byte 0 or 1.
    pub fn serialize<S: Serializer>(v: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(*v)
    }

    /// Reads a bool or any integer.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a bool or a Byte")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
                Ok(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
                Ok(v != 0)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
                Ok(v != 0)
            }
        }
        d.deserialize_any(V)
    }
}
