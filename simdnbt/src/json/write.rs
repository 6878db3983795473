//! The writer: the owned tree as typed JSON, through `serde::Serialize`
//! wrappers that `serde_json` drives. Nesting is checked against
//! [`MAX_DEPTH`] as it goes, so the writer never emits what the reader
//! refuses.

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::MAX_DEPTH;
use crate::mutf8::{self, Mutf8Str};
use crate::owned::{NbtCompound, NbtList, NbtTag};

/// The type name of a tag id, as the shape writes it.
pub(super) fn type_name(id: u8) -> &'static str {
    super::TYPES[usize::from(id)]
}

/// A string or key: JSON text when the bytes are the canonical MUTF-8 of
/// some text, else the bytes.
pub(super) struct Text<'a>(pub(super) &'a Mutf8Str);

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = self.0.as_bytes();
        match mutf8::decode(bytes) {
            Ok(text) if *mutf8::encode(&text) == *bytes => s.serialize_str(&text),
            _ => s.collect_seq(bytes),
        }
    }
}

/// A float: a JSON number when one reads back as the same bits (the
/// shortest decimal when that does, else the exact widened value), else the
/// bits as `"0x…"` (NaN, infinities, `-0.0`).
struct Float(f32);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if !v.is_finite() || (v == 0.0 && v.is_sign_negative()) {
            return s.serialize_str(&format!("0x{:08x}", v.to_bits()));
        }
        let shortest: f64 = v.to_string().parse().unwrap_or(f64::from(v));
        if (shortest as f32).to_bits() == v.to_bits() {
            s.serialize_f64(shortest)
        } else {
            s.serialize_f64(f64::from(v))
        }
    }
}

struct Double(f64);

impl Serialize for Double {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if !v.is_finite() || (v == 0.0 && v.is_sign_negative()) {
            return s.serialize_str(&format!("0x{:016x}", v.to_bits()));
        }
        s.serialize_f64(v)
    }
}

/// An entry: `{"name": key, "<type>": payload}`.
pub(super) struct Entry<'a> {
    pub(super) name: &'a Mutf8Str,
    pub(super) tag: &'a NbtTag,
    pub(super) depth: usize,
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("name", &Text(self.name))?;
        map.serialize_key(type_name(self.tag.id()))?;
        map.serialize_value(&Payload {
            tag: self.tag,
            depth: self.depth,
        })?;
        map.end()
    }
}

/// A compound's payload: its entries in order, repeated keys kept.
pub(super) struct Entries<'a> {
    pub(super) compound: &'a NbtCompound,
    pub(super) depth: usize,
}

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth > MAX_DEPTH {
            return Err(S::Error::custom(format_args!(
                "nested deeper than {MAX_DEPTH} levels, more than typed JSON reads back"
            )));
        }
        let mut seq = s.serialize_seq(Some(self.compound.len()))?;
        for (name, tag) in self.compound.iter() {
            seq.serialize_element(&Entry {
                name,
                tag,
                depth: self.depth + 1,
            })?;
        }
        seq.end()
    }
}

struct Payload<'a> {
    tag: &'a NbtTag,
    depth: usize,
}

impl Serialize for Payload<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.tag {
            NbtTag::Byte(v) => s.serialize_i8(*v),
            NbtTag::Short(v) => s.serialize_i16(*v),
            NbtTag::Int(v) => s.serialize_i32(*v),
            NbtTag::Long(v) => s.serialize_i64(*v),
            NbtTag::Float(v) => Float(*v).serialize(s),
            NbtTag::Double(v) => Double(*v).serialize(s),
            NbtTag::ByteArray(v) => s.collect_seq(v.iter().map(|&b| b as i8)),
            NbtTag::String(v) => Text(v.as_str()).serialize(s),
            NbtTag::List(l) => List {
                list: l,
                depth: self.depth,
            }
            .serialize(s),
            NbtTag::Compound(c) => Entries {
                compound: c,
                depth: self.depth,
            }
            .serialize(s),
            NbtTag::IntArray(v) => s.collect_seq(v),
            NbtTag::LongArray(v) => s.collect_seq(v),
        }
    }
}

/// A list's payload: `["<element type>", element payloads…]`.
struct List<'a> {
    list: &'a NbtList,
    depth: usize,
}

impl Serialize for List<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.depth > MAX_DEPTH {
            return Err(S::Error::custom(format_args!(
                "nested deeper than {MAX_DEPTH} levels, more than typed JSON reads back"
            )));
        }
        let depth = self.depth + 1;
        let mut seq = s.serialize_seq(Some(self.list.len() + 1))?;
        seq.serialize_element(type_name(self.list.id()))?;
        match self.list {
            NbtList::Empty => {}
            NbtList::Byte(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
            NbtList::Short(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
            NbtList::Int(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
            NbtList::Long(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
            NbtList::Float(v) => v
                .iter()
                .try_for_each(|&e| seq.serialize_element(&Float(e)))?,
            NbtList::Double(v) => v
                .iter()
                .try_for_each(|&e| seq.serialize_element(&Double(e)))?,
            NbtList::ByteArray(v) => v.iter().try_for_each(|e| {
                let signed: Vec<i8> = e.iter().map(|&b| b as i8).collect();
                seq.serialize_element(&signed)
            })?,
            NbtList::String(v) => v
                .iter()
                .try_for_each(|e| seq.serialize_element(&Text(e.as_str())))?,
            NbtList::List(v) => v
                .iter()
                .try_for_each(|e| seq.serialize_element(&List { list: e, depth }))?,
            NbtList::Compound(v) => v
                .iter()
                .try_for_each(|e| seq.serialize_element(&Entries { compound: e, depth }))?,
            NbtList::IntArray(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
            NbtList::LongArray(v) => v.iter().try_for_each(|e| seq.serialize_element(e))?,
        }
        seq.end()
    }
}
