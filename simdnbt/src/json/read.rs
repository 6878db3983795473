//! The reader: typed JSON into the owned tree, through `serde`
//! `DeserializeSeed`s that `serde_json` drives. Every object is checked for
//! its exact keys (a repeated or unknown key is an error, not a silent
//! overwrite); numbers must fit their type; nesting is limited to
//! [`MAX_DEPTH`] levels (and `serde_json` stops at 128 JSON levels before
//! the stack could run out).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

use super::MAX_DEPTH;
use crate::mutf8::Mutf8String;
use crate::owned::{NbtCompound, NbtList, NbtTag};
use crate::tag_id;

/// The tag id of a type name.
fn type_id<E: de::Error>(name: &str, end_allowed: bool) -> Result<u8, E> {
    match super::TYPES.iter().position(|&t| t == name) {
        Some(0) if !end_allowed => Err(E::custom("`end` is only a list's element type")),
        Some(id) => Ok(id as u8),
        None => Err(E::custom(format_args!(
            "unknown type `{name}` (expected one of {})",
            super::TYPES[1..].join(", ")
        ))),
    }
}

fn too_deep<E: de::Error>() -> E {
    E::custom(format_args!("nested deeper than {MAX_DEPTH} levels"))
}

/// A string or key: JSON text (stored as its MUTF-8), or an array of the
/// raw MUTF-8 bytes.
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Mutf8String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Mutf8String, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Mutf8String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, or an array of its MUTF-8 bytes")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Mutf8String, E> {
        checked_len(Mutf8String::from_string(v.to_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Mutf8String, A::Error> {
        let mut bytes = Vec::new();
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        checked_len(Mutf8String::from_vec(bytes))
    }
}

/// NBT stores a string's length in 16 bits.
fn checked_len<E: de::Error>(s: Mutf8String) -> Result<Mutf8String, E> {
    if s.as_bytes().len() > usize::from(u16::MAX) {
        return Err(E::custom(format_args!(
            "a string of {} bytes, more than NBT's 65535",
            s.as_bytes().len()
        )));
    }
    Ok(s)
}

/// A float or double: a JSON number, or `"0x…"` with the IEEE bits.
struct FloatBits {
    double: bool,
}

impl<'de> Visitor<'de> for FloatBits {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, or a string `0x…` of its bits")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        if self.double {
            return Ok(v.to_bits());
        }
        let f = v as f32;
        if f.is_infinite() {
            return Err(E::custom(format_args!("{v} is out of range for a float")));
        }
        Ok(u64::from(f.to_bits()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        self.visit_f64(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        self.visit_f64(v as f64)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
        let digits = if self.double { 16 } else { 8 };
        match v.strip_prefix("0x") {
            Some(hex) if hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u64::from_str_radix(hex, 16).map_err(E::custom)
            }
            _ => Err(E::custom(format_args!(
                "expected the bits as `0x` and {digits} hex digits, found {v:?}"
            ))),
        }
    }
}

fn float<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    let bits = d.deserialize_any(FloatBits { double: false })?;
    Ok(f32::from_bits(bits as u32))
}

fn double<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(f64::from_bits(
        d.deserialize_any(FloatBits { double: true })?,
    ))
}

/// The payload of type `id` at nesting `depth`.
struct Payload {
    id: u8,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Payload {
    type Value = NbtTag;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<NbtTag, D::Error> {
        use serde::Deserialize;
        Ok(match self.id {
            tag_id::BYTE => NbtTag::Byte(i8::deserialize(d)?),
            tag_id::SHORT => NbtTag::Short(i16::deserialize(d)?),
            tag_id::INT => NbtTag::Int(i32::deserialize(d)?),
            tag_id::LONG => NbtTag::Long(i64::deserialize(d)?),
            tag_id::FLOAT => NbtTag::Float(float(d)?),
            tag_id::DOUBLE => NbtTag::Double(double(d)?),
            tag_id::BYTE_ARRAY => NbtTag::ByteArray(bytes(d)?),
            tag_id::STRING => NbtTag::String(Text.deserialize(d)?),
            tag_id::LIST => NbtTag::List(d.deserialize_seq(List { depth: self.depth })?),
            tag_id::COMPOUND => NbtTag::Compound(d.deserialize_seq(Entries { depth: self.depth })?),
            tag_id::INT_ARRAY => NbtTag::IntArray(Vec::<i32>::deserialize(d)?),
            _ => NbtTag::LongArray(Vec::<i64>::deserialize(d)?),
        })
    }
}

fn bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    use serde::Deserialize;
    Ok(Vec::<i8>::deserialize(d)?
        .into_iter()
        .map(|b| b as u8)
        .collect())
}

/// An entry, `{"name": …, "<type>": payload}`: the name and the tag.
pub(super) struct Entry {
    pub(super) depth: usize,
}

impl<'de> DeserializeSeed<'de> for Entry {
    type Value = (Mutf8String, NbtTag);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Entry {
    type Value = (Mutf8String, NbtTag);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(r#"an entry {"name": …, "<type>": …}"#)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut name = None;
        let mut tag = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "name" {
                if name.is_some() {
                    return Err(A::Error::custom("`name` twice in one entry"));
                }
                name = Some(map.next_value_seed(Text)?);
                continue;
            }
            let id = type_id::<A::Error>(&key, false)?;
            if tag.is_some() {
                return Err(A::Error::custom(format_args!(
                    "a second type `{key}` in one entry"
                )));
            }
            tag = Some(map.next_value_seed(Payload {
                id,
                depth: self.depth,
            })?);
        }
        match (name, tag) {
            (Some(name), Some(tag)) => Ok((name, tag)),
            (None, _) => Err(A::Error::custom("an entry without `name`")),
            (_, None) => Err(A::Error::custom("an entry without a type key")),
        }
    }
}

/// A compound's payload: an array of entries.
struct Entries {
    depth: usize,
}

impl<'de> Visitor<'de> for Entries {
    type Value = NbtCompound;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a compound: an array of entries")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NbtCompound, A::Error> {
        let depth = self.depth + 1;
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        let mut values = Vec::new();
        while let Some(entry) = seq.next_element_seed(Entry { depth })? {
            values.push(entry);
        }
        Ok(NbtCompound::from_values(values))
    }
}

impl<'de> DeserializeSeed<'de> for Entries {
    type Value = NbtCompound;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<NbtCompound, D::Error> {
        d.deserialize_seq(self)
    }
}

/// A list's payload: `["<element type>", payloads…]`.
struct List {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for List {
    type Value = NbtList;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<NbtList, D::Error> {
        d.deserialize_seq(self)
    }
}

/// Elements of one type: each read by `seed`, collected.
fn elements<'de, A: SeqAccess<'de>, T>(
    seq: &mut A,
    mut next: impl FnMut(&mut A) -> Result<Option<T>, A::Error>,
) -> Result<Vec<T>, A::Error> {
    let mut out = Vec::new();
    while let Some(e) = next(seq)? {
        out.push(e);
    }
    Ok(out)
}

/// A float element.
struct FloatSeed;
impl<'de> DeserializeSeed<'de> for FloatSeed {
    type Value = f32;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f32, D::Error> {
        float(d)
    }
}

struct DoubleSeed;
impl<'de> DeserializeSeed<'de> for DoubleSeed {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        double(d)
    }
}

struct BytesSeed;
impl<'de> DeserializeSeed<'de> for BytesSeed {
    type Value = Vec<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u8>, D::Error> {
        bytes(d)
    }
}

impl<'de> Visitor<'de> for List {
    type Value = NbtList;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(r#"a list: ["<element type>", elements…]"#)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NbtList, A::Error> {
        let depth = self.depth + 1;
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        let Some(of) = seq.next_element::<std::borrow::Cow<'de, str>>()? else {
            return Err(A::Error::custom("a list without its element type"));
        };
        let id = type_id::<A::Error>(&of, true)?;
        let s = &mut seq;
        Ok(match id {
            tag_id::END => match s.next_element::<de::IgnoredAny>()? {
                None => NbtList::Empty,
                Some(_) => return Err(A::Error::custom("a list of `end` has no elements")),
            },
            tag_id::BYTE => NbtList::Byte(elements(s, |s| s.next_element())?),
            tag_id::SHORT => NbtList::Short(elements(s, |s| s.next_element())?),
            tag_id::INT => NbtList::Int(elements(s, |s| s.next_element())?),
            tag_id::LONG => NbtList::Long(elements(s, |s| s.next_element())?),
            tag_id::FLOAT => NbtList::Float(elements(s, |s| s.next_element_seed(FloatSeed))?),
            tag_id::DOUBLE => NbtList::Double(elements(s, |s| s.next_element_seed(DoubleSeed))?),
            tag_id::BYTE_ARRAY => {
                NbtList::ByteArray(elements(s, |s| s.next_element_seed(BytesSeed))?)
            }
            tag_id::STRING => NbtList::String(elements(s, |s| s.next_element_seed(Text))?),
            tag_id::LIST => NbtList::List(elements(s, |s| s.next_element_seed(List { depth }))?),
            tag_id::COMPOUND => {
                NbtList::Compound(elements(s, |s| s.next_element_seed(Entries { depth }))?)
            }
            tag_id::INT_ARRAY => NbtList::IntArray(elements(s, |s| s.next_element())?),
            _ => NbtList::LongArray(elements(s, |s| s.next_element())?),
        })
    }
}
