//! serde impls for the owned tree ([`crate::owned`]) and [`Mutf8String`];
//! what they do is told in the parent module's docs ("The owned tree").

use std::fmt;

use ::serde::de::{
    self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use ::serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::array::{byte_array, int_array, long_array};
use super::handoff;
use crate::mutf8::{self, Mutf8String};
use crate::owned::{BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};

/// Newtype names by which the owned types ask [`super::Deserializer`] for
/// their exact tag types.
pub(crate) const TAG_TOKEN: &str = "\0simdnbt::owned::NbtTag";
pub(crate) const LIST_TOKEN: &str = "\0simdnbt::owned::NbtList";
pub(crate) const MUTF8_TOKEN: &str = "\0simdnbt::Mutf8String";
/// Names by which an *empty* list tells [`super::Serializer`] its element
/// type (by tag id), so `List of Int []` is not written as `List of End []`.
pub(crate) const EMPTY_LIST_TOKENS: [&str; 13] = [
    "\0simdnbt::EmptyList::End",
    "\0simdnbt::EmptyList::Byte",
    "\0simdnbt::EmptyList::Short",
    "\0simdnbt::EmptyList::Int",
    "\0simdnbt::EmptyList::Long",
    "\0simdnbt::EmptyList::Float",
    "\0simdnbt::EmptyList::Double",
    "\0simdnbt::EmptyList::ByteArray",
    "\0simdnbt::EmptyList::String",
    "\0simdnbt::EmptyList::List",
    "\0simdnbt::EmptyList::Compound",
    "\0simdnbt::EmptyList::IntArray",
    "\0simdnbt::EmptyList::LongArray",
];
pub(crate) const COMPOUND_TOKEN: &str = "\0simdnbt::owned::NbtCompound";
/// Newtype name of a compound that is exactly `{"": value}` (a 1.21.5
/// heterogeneous-list element). Other formats see the newtype as `value`
/// itself, as upstream serializes it; [`super::Serializer`] writes the
/// compound back, so NBT keeps its exact shape.
pub(crate) const WRAPPER_TOKEN: &str = "\0simdnbt::owned::Wrapper";

/// The variant names of [`TAG_TOKEN`]'s enum protocol, by tag id (End is
/// the element type of an empty list only).
pub(crate) const TYPE_NAMES: [&str; 13] = crate::tag_id::names(false);

impl Serialize for Mutf8String {
    /// The decoded string; invalid MUTF-8 (a lone surrogate) is an error.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match mutf8::decode(self.as_bytes()) {
            Ok(str) => s.serialize_str(&str),
            Err(e) => Err(::serde::ser::Error::custom(format_args!(
                "string is not valid MUTF-8: {e}"
            ))),
        }
    }
}

struct Mutf8Visitor;

impl<'de> Visitor<'de> for Mutf8Visitor {
    type Value = Mutf8String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Mutf8String, D::Error> {
        d.deserialize_str(self)
    }
    /// Raw MUTF-8, from the NBT deserializer.
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Mutf8String, E> {
        Ok(Mutf8String::from_slice(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Mutf8String, E> {
        Ok(Mutf8String::from(v))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Mutf8String, E> {
        Ok(Mutf8String::from_string(v))
    }
}

impl<'de> Deserialize<'de> for Mutf8String {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(MUTF8_TOKEN, Mutf8Visitor)
    }
}

impl Serialize for NbtTag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            NbtTag::Byte(v) => s.serialize_i8(*v),
            NbtTag::Short(v) => s.serialize_i16(*v),
            NbtTag::Int(v) => s.serialize_i32(*v),
            NbtTag::Long(v) => s.serialize_i64(*v),
            NbtTag::Float(v) => s.serialize_f32(*v),
            NbtTag::Double(v) => s.serialize_f64(*v),
            NbtTag::ByteArray(v) => byte_array::serialize(v, s),
            NbtTag::String(v) => v.serialize(s),
            NbtTag::List(v) => v.serialize(s),
            NbtTag::Compound(v) => v.serialize(s),
            NbtTag::IntArray(v) => int_array::serialize(v, s),
            NbtTag::LongArray(v) => long_array::serialize(v, s),
        }
    }
}

fn seq<S: Serializer, T: Serialize>(s: S, items: &[T]) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(items.len()))?;
    for item in items {
        seq.serialize_element(item)?;
    }
    seq.end()
}

/// Array elements of a list, each written as its array tag.
macro_rules! as_array {
    ($($name:ident, $t:ty, $module:ident;)*) => {$(
        struct $name<'a>(&'a Vec<$t>);
        impl Serialize for $name<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $module::serialize(self.0, s)
            }
        }
    )*};
}

as_array! {
    AsByteArray, u8, byte_array;
    AsIntArray, i32, int_array;
    AsLongArray, i64, long_array;
}

impl Serialize for NbtList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_empty() && self.id() != crate::tag_id::END {
            // An empty sequence, whose element type only NBT remembers.
            let token = EMPTY_LIST_TOKENS[self.id() as usize];
            return s.serialize_newtype_struct(token, &[(); 0]);
        }
        match self {
            NbtList::Empty => s.serialize_seq(Some(0))?.end(),
            NbtList::Byte(v) => seq(s, v),
            NbtList::Short(v) => seq(s, v),
            NbtList::Int(v) => seq(s, v),
            NbtList::Long(v) => seq(s, v),
            NbtList::Float(v) => seq(s, v),
            NbtList::Double(v) => seq(s, v),
            NbtList::ByteArray(v) => s.collect_seq(v.iter().map(AsByteArray)),
            NbtList::String(v) => seq(s, v),
            NbtList::List(v) => seq(s, v),
            NbtList::Compound(v) => seq(s, v),
            NbtList::IntArray(v) => s.collect_seq(v.iter().map(AsIntArray)),
            NbtList::LongArray(v) => s.collect_seq(v.iter().map(AsLongArray)),
        }
    }
}

/// A compound key, decoded (invalid MUTF-8 is an error).
struct Key<'a>(&'a crate::Mutf8Str);

impl Serialize for Key<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match mutf8::decode(self.0.as_bytes()) {
            Ok(str) => s.serialize_str(&str),
            Err(e) => Err(::serde::ser::Error::custom(format_args!(
                "key is not valid MUTF-8: {e}"
            ))),
        }
    }
}

impl Serialize for NbtCompound {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let [(key, value)] = self.values.as_slice() {
            if key.as_bytes().is_empty() {
                return s.serialize_newtype_struct(WRAPPER_TOKEN, value);
            }
        }
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(&Key(k), v)?;
        }
        map.end()
    }
}

impl Serialize for BaseNbt {
    /// The root compound (the name is not part of the serde form).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl Serialize for Nbt {
    /// `None` for an End root, else the root compound.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Nbt::Some(nbt) => s.serialize_some(nbt),
            Nbt::None => s.serialize_none(),
        }
    }
}

// ---- Deserialize ----

/// Reads any tag: through the NBT deserializer by the enum protocol (exact
/// types), through other formats from the kind of value they report.
struct TagVisitor;

impl<'de> Visitor<'de> for TagVisitor {
    type Value = NbtTag;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an NBT value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<NbtTag, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<NbtTag, A::Error> {
        let (id, v) = data.variant::<TypeId>()?;
        Ok(match id.0 {
            1 => NbtTag::Byte(v.newtype_variant()?),
            2 => NbtTag::Short(v.newtype_variant()?),
            3 => NbtTag::Int(v.newtype_variant()?),
            4 => NbtTag::Long(v.newtype_variant()?),
            5 => NbtTag::Float(v.newtype_variant()?),
            6 => NbtTag::Double(v.newtype_variant()?),
            7 => NbtTag::ByteArray(v.newtype_variant::<super::ByteArray>()?.0),
            8 => NbtTag::String(v.newtype_variant()?),
            9 => NbtTag::List(v.newtype_variant()?),
            10 => NbtTag::Compound(v.newtype_variant()?),
            11 => NbtTag::IntArray(v.newtype_variant::<super::IntArray>()?.0),
            12 => NbtTag::LongArray(v.newtype_variant::<super::LongArray>()?.0),
            _ => return Err(de::Error::custom("End is not a tag value")),
        })
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<NbtTag, E> {
        Ok(NbtTag::Byte(v as i8))
    }
    fn visit_i8<E: de::Error>(self, v: i8) -> Result<NbtTag, E> {
        Ok(NbtTag::Byte(v))
    }
    fn visit_i16<E: de::Error>(self, v: i16) -> Result<NbtTag, E> {
        Ok(NbtTag::Short(v))
    }
    fn visit_i32<E: de::Error>(self, v: i32) -> Result<NbtTag, E> {
        Ok(NbtTag::Int(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<NbtTag, E> {
        Ok(NbtTag::Long(v))
    }
    fn visit_u8<E: de::Error>(self, v: u8) -> Result<NbtTag, E> {
        Ok(NbtTag::Byte(v as i8))
    }
    fn visit_u16<E: de::Error>(self, v: u16) -> Result<NbtTag, E> {
        Ok(NbtTag::Short(v as i16))
    }
    fn visit_u32<E: de::Error>(self, v: u32) -> Result<NbtTag, E> {
        Ok(NbtTag::Int(v as i32))
    }
    /// Bit for bit, as the mapping does for `u64`.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<NbtTag, E> {
        Ok(NbtTag::Long(v as i64))
    }
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<NbtTag, E> {
        Ok(NbtTag::Float(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<NbtTag, E> {
        Ok(NbtTag::Double(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<NbtTag, E> {
        Ok(NbtTag::String(v.into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<NbtTag, E> {
        Ok(NbtTag::String(Mutf8String::from_string(v)))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<NbtTag, E> {
        Ok(NbtTag::ByteArray(v.to_vec()))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<NbtTag, E> {
        Ok(NbtTag::ByteArray(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<NbtTag, E> {
        Err(E::custom("NBT has no null"))
    }
    fn visit_none<E: de::Error>(self) -> Result<NbtTag, E> {
        Err(E::custom("NBT has no null"))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<NbtTag, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<NbtTag, A::Error> {
        ListVisitor.visit_seq(seq).map(NbtTag::List)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NbtTag, A::Error> {
        CompoundVisitor.visit_map(map).map(NbtTag::Compound)
    }
}

/// A tag id, read from its type name (the enum protocol's variant).
struct TypeId(u8);

impl<'de> Deserialize<'de> for TypeId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = TypeId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an NBT type name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TypeId, E> {
                match TYPE_NAMES.iter().position(|&n| n == v) {
                    Some(id) => Ok(TypeId(id as u8)),
                    None => Err(E::unknown_variant(v, &TYPE_NAMES)),
                }
            }
        }
        d.deserialize_identifier(V)
    }
}

impl<'de> Deserialize<'de> for NbtTag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(TAG_TOKEN, TagVisitor)
    }
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = NbtList;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an NBT list")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<NbtList, D::Error> {
        d.deserialize_seq(self)
    }

    /// The NBT deserializer's form: the list it built ([`super::handoff`]).
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<NbtList, E> {
        match handoff::take() {
            Some(NbtTag::List(list)) => Ok(list),
            _ => Err(E::invalid_type(de::Unexpected::Bytes(v), &self)),
        }
    }

    /// Any format's sequence: one element type makes that list; mixed types
    /// make a 1.21.5 heterogeneous list (each element a `{"": value}`).
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NbtList, A::Error> {
        let mut tags = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 12));
        while let Some(tag) = seq.next_element::<NbtTag>()? {
            tags.push(tag);
        }
        Ok(NbtList::from(tags))
    }
}

impl<'de> Deserialize<'de> for NbtList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(LIST_TOKEN, ListVisitor)
    }
}

struct CompoundVisitor;

impl<'de> Visitor<'de> for CompoundVisitor {
    type Value = NbtCompound;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an NBT compound")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<NbtCompound, D::Error> {
        d.deserialize_map(self)
    }

    /// The NBT deserializer's form: the compound it built ([`super::handoff`]).
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<NbtCompound, E> {
        match handoff::take() {
            Some(NbtTag::Compound(c)) => Ok(c),
            _ => Err(E::invalid_type(de::Unexpected::Bytes(v), &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NbtCompound, A::Error> {
        let mut values = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1 << 12));
        while let Some((k, v)) = map.next_entry::<Mutf8String, NbtTag>()? {
            values.push((k, v));
        }
        Ok(NbtCompound::from_values(values))
    }

    fn visit_unit<E: de::Error>(self) -> Result<NbtCompound, E> {
        Ok(NbtCompound::new())
    }
}

impl<'de> Deserialize<'de> for NbtCompound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(COMPOUND_TOKEN, CompoundVisitor)
    }
}

impl<'de> Deserialize<'de> for BaseNbt {
    /// A root compound, named `""`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        NbtCompound::deserialize(d).map(|c| BaseNbt::new("", c))
    }
}

impl<'de> Deserialize<'de> for Nbt {
    /// An End root (or a missing/`null` value) is `None`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<BaseNbt>::deserialize(d)? {
            Some(nbt) => Nbt::Some(nbt),
            None => Nbt::None,
        })
    }
}
