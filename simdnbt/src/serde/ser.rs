//! The serializer: serde's data model straight to NBT bytes, in one pass.
//!
//! A tag's id comes before its name, but serde only says what a value is when
//! it serializes it; so a compound entry is written as a placeholder id, the
//! name, then the value, which sets the id it turned out to be. A list's
//! element id and length are patched the same way.

use ::serde::ser::{self, Impossible, Serialize};

use super::Options;
use super::array::{BYTE_ARRAY_TOKEN, INT_ARRAY_TOKEN, LONG_ARRAY_TOKEN};
use super::error::{Error, Result};
use super::owned::{EMPTY_LIST_TOKENS, WRAPPER_TOKEN};
use crate::mutf8;
use crate::tag_id::*;
use crate::{DEFAULT_MAX_DEPTH, WriteError};

/// Writes serde's data model as NBT bytes into a `Vec<u8>`.
///
/// [`super::to_vec`] and [`super::to_writer`] are the usual way; use this
/// type to append to a buffer you keep, or with `serde_path_to_error`.
///
/// ```
/// use serde::Serialize;
/// use simdnbt::serde::{Options, Serializer};
///
/// let mut out = Vec::new();
/// let options = Options::new().root_name("hello");
/// let mut ser = Serializer::with_options(&mut out, &options);
/// std::collections::BTreeMap::from([("x", 1i8)]).serialize(&mut ser).unwrap();
/// assert_eq!(out, [0x0a, 0, 5, b'h', b'e', b'l', b'l', b'o', 1, 0, 1, b'x', 1, 0]);
/// ```
pub struct Serializer<'w> {
    out: &'w mut Vec<u8>,
    network: bool,
    name: String,
}

impl<'w> Serializer<'w> {
    /// A serializer for the disk form (a root compound named `""`) that
    /// appends to `out`.
    pub fn new(out: &'w mut Vec<u8>) -> Self {
        Self::with_options(out, &Options::default())
    }

    /// A serializer for the form `options` choose: the root name, or the
    /// network form (no name; any root tag).
    pub fn with_options(out: &'w mut Vec<u8>, options: &Options) -> Self {
        Serializer {
            out,
            network: options.network,
            name: options.root_name.clone(),
        }
    }

    fn begin(&mut self) -> Result<ValueSer<'_>> {
        let pos = self.out.len();
        self.out.push(END);
        if !self.network {
            write_str(self.out, &self.name)?;
        }
        Ok(ValueSer {
            out: self.out,
            slot: Slot::Root {
                pos,
                named: !self.network,
            },
            depth: 0,
        })
    }
}

/// Appends a u16-length-prefixed MUTF-8 string.
#[inline]
fn write_str(out: &mut Vec<u8>, s: &str) -> Result<()> {
    let bytes = s.as_bytes();
    // Keys and most values are ASCII without NUL, the same bytes in MUTF-8:
    // one branch-free pass decides, instead of the encoder's scan.
    let plain = bytes
        .iter()
        .fold(false, |bad, &b| bad | (b.wrapping_sub(1) >= 0x7f));
    if !plain && bytes.len() <= u16::MAX as usize {
        out.reserve(2 + bytes.len());
        out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
        out.extend_from_slice(bytes);
        return Ok(());
    }
    write_encoded(out, s)
}

/// [`write_str`] for strings that need MUTF-8 encoding (or are too long).
#[cold]
fn write_encoded(out: &mut Vec<u8>, s: &str) -> Result<()> {
    let bytes = mutf8::encode(s);
    let len = u16::try_from(bytes.len())
        .map_err(|_| Error::write(WriteError::StringTooLong { len: bytes.len() }))?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&bytes);
    Ok(())
}

/// Where the value being serialized goes, which decides how its tag id is
/// recorded.
#[derive(Clone, Copy)]
enum Slot {
    /// A compound entry whose placeholder id is at `pos` (its name follows).
    Field(usize),
    /// The root: its placeholder id at `pos`; a named root must be a compound.
    Root { pos: usize, named: bool },
    /// A list element: the list's element id is at `header`.
    Elem { header: usize, first: bool },
    /// The body of an array type (`ByteArray` etc.), of element id `elem`.
    ArrayBody(u8),
    /// An element of an array of element id `elem`: must be exactly that type.
    ArrayElem(u8),
}

/// Serializes one value into its slot.
pub(crate) struct ValueSer<'a> {
    out: &'a mut Vec<u8>,
    slot: Slot,
    /// Compounds and lists around this value (the root compound is 1).
    depth: u32,
}

impl<'a> ValueSer<'a> {
    /// Records that this value is a tag of `id`.
    #[inline(always)]
    fn set_id(&mut self, id: u8) -> Result<()> {
        match self.slot {
            Slot::Field(pos) => {
                self.out[pos] = id;
                Ok(())
            }
            Slot::Elem {
                header,
                first: true,
            } => {
                self.out[header] = id;
                Ok(())
            }
            Slot::Elem { header, .. } if self.out[header] == id => Ok(()),
            Slot::ArrayElem(elem) if elem == id => Ok(()),
            _ => self.set_id_slow(id),
        }
    }

    /// [`Self::set_id`] for the root, array bodies and type errors.
    #[cold]
    fn set_id_slow(&mut self, id: u8) -> Result<()> {
        match self.slot {
            Slot::Field(pos) => {
                self.out[pos] = id;
                Ok(())
            }
            Slot::Elem { header, .. } => Err(Error::msg(format_args!(
                "a list holds one type: this element is a {}, the first was a {}",
                crate::tag_id::name(id),
                crate::tag_id::name(self.out[header])
            ))),
            Slot::Root { pos, named } => {
                if named && id != COMPOUND {
                    return Err(Error::msg(format_args!(
                        "the root of a named document must be a compound (a struct or map), not a {}; \
                         use Options::network() for other root tags",
                        crate::tag_id::name(id)
                    )));
                }
                self.out[pos] = id;
                Ok(())
            }
            Slot::ArrayBody(elem) => match (elem, id) {
                (BYTE, BYTE_ARRAY) | (_, LIST) => Ok(()),
                _ => Err(Error::msg(format_args!(
                    "an array of {} must be a sequence, not a {}",
                    crate::tag_id::name(elem),
                    crate::tag_id::name(id)
                ))),
            },
            Slot::ArrayElem(elem) => Err(Error::msg(format_args!(
                "an array of {} cannot hold a {}",
                crate::tag_id::name(elem),
                crate::tag_id::name(id)
            ))),
        }
    }

    /// One level deeper, for a compound or list.
    #[inline]
    fn deeper(&self) -> Result<u32> {
        let depth = self.depth + 1;
        if depth > DEFAULT_MAX_DEPTH {
            return Err(Error::write(WriteError::MaxDepthExceeded));
        }
        Ok(depth)
    }

    /// Writes a number's bytes. The width is a constant, so the copy is a
    /// store: with a slice it was a `memcpy` call per number (a tenth of
    /// writing `complex_player.dat`).
    #[inline]
    fn number<const N: usize>(mut self, id: u8, be: [u8; N]) -> Result<()> {
        self.set_id(id)?;
        self.out.extend_from_slice(&be);
        Ok(())
    }

    /// Starts a compound: the caller writes entries, then END.
    #[inline]
    fn compound(mut self) -> Result<MapSer<'a>> {
        self.set_id(COMPOUND)?;
        let depth = self.deeper()?;
        Ok(MapSer {
            out: self.out,
            depth,
            key_pos: 0,
            ends: 1,
        })
    }

    /// Starts `{variant: …}`: returns the serializer for the entry's value.
    fn variant(mut self, variant: &str) -> Result<ValueSer<'a>> {
        self.set_id(COMPOUND)?;
        let depth = self.deeper()?;
        let pos = self.out.len();
        self.out.push(END);
        write_str(self.out, variant)?;
        Ok(ValueSer {
            out: self.out,
            slot: Slot::Field(pos),
            depth,
        })
    }

    fn seq(mut self, len: Option<usize>) -> Result<SeqSer<'a>> {
        self.set_id(LIST)?;
        let depth = self.deeper()?;
        let header = self.out.len();
        let array = match self.slot {
            Slot::ArrayBody(elem) => {
                self.out.extend_from_slice(&[0; 4]);
                Some(elem)
            }
            _ => {
                self.out.extend_from_slice(&[END, 0, 0, 0, 0]);
                None
            }
        };
        if let Some(len) = len {
            self.out.reserve(len.min(1 << 16));
        }
        Ok(SeqSer {
            out: self.out,
            header,
            count: 0,
            array,
            depth,
            ends: 0,
        })
    }
}

/// Serializer methods writing a number as the tag `$id`, big-endian.
macro_rules! numbers {
    ($($method:ident: $t:ty => $id:ident),*) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<()> {
            self.number($id, v.to_be_bytes())
        }
    )*};
}

impl<'a> ser::Serializer for ValueSer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = SeqSer<'a>;
    type SerializeTupleStruct = SeqSer<'a>;
    type SerializeTupleVariant = SeqSer<'a>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = MapSer<'a>;
    type SerializeStructVariant = MapSer<'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.number(BYTE, [v as u8])
    }
    // Unsigned integers are the signed tag of their width, bit for bit.
    numbers! {
        serialize_i8: i8 => BYTE, serialize_i16: i16 => SHORT, serialize_i32: i32 => INT,
        serialize_i64: i64 => LONG, serialize_u8: u8 => BYTE, serialize_u16: u16 => SHORT,
        serialize_u32: u32 => INT, serialize_u64: u64 => LONG, serialize_f32: f32 => FLOAT,
        serialize_f64: f64 => DOUBLE
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(mut self, v: &str) -> Result<()> {
        self.set_id(STRING)?;
        write_str(self.out, v)
    }
    fn serialize_bytes(mut self, v: &[u8]) -> Result<()> {
        self.set_id(BYTE_ARRAY)?;
        let len = i32::try_from(v.len())
            .map_err(|_| Error::write(WriteError::LengthTooLarge { len: v.len() }))?;
        self.out.extend_from_slice(&len.to_be_bytes());
        self.out.extend_from_slice(v);
        Ok(())
    }

    /// A `None` field is left out; `None` as the root is an End root (no
    /// document); NBT has no null to put in a list or array.
    fn serialize_none(self) -> Result<()> {
        match self.slot {
            Slot::Field(pos) => {
                self.out.truncate(pos);
                Ok(())
            }
            Slot::Root { pos, .. } => {
                self.out.truncate(pos);
                self.out.push(END);
                Ok(())
            }
            _ => Err(Error::msg(
                "None cannot be a list element: NBT has no null (skip it, or use a compound)",
            )),
        }
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    /// `()` and unit structs are empty compounds.
    fn serialize_unit(self) -> Result<()> {
        let map = self.compound()?;
        map.out.push(END);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    /// A unit variant is its name, a String.
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let (id, elem) = match name {
            BYTE_ARRAY_TOKEN => (BYTE_ARRAY, BYTE),
            INT_ARRAY_TOKEN => (INT_ARRAY, INT),
            LONG_ARRAY_TOKEN => (LONG_ARRAY, LONG),
            _ if name.starts_with('\0') => {
                if name == WRAPPER_TOKEN {
                    let mut map = self.compound()?;
                    ser::SerializeMap::serialize_entry(&mut map, "", value)?;
                    return ser::SerializeMap::end(map);
                }
                if let Some(elem) = EMPTY_LIST_TOKENS.iter().position(|&t| t == name) {
                    let seq = self.seq(Some(0))?;
                    seq.out[seq.header] = elem as u8;
                    return seq.finish();
                }
                return value.serialize(self);
            }
            _ => return value.serialize(self),
        };
        self.set_id(id)?;
        value.serialize(ValueSer {
            out: self.out,
            slot: Slot::ArrayBody(elem),
            depth: self.depth,
        })
    }

    /// `{variant: value}`.
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let ValueSer { out, slot, depth } = self.variant(variant)?;
        value
            .serialize(ValueSer {
                out: &mut *out,
                slot,
                depth,
            })
            .map_err(|e| e.in_key(variant))?;
        out.push(END);
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'a>> {
        self.seq(len)
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'a>> {
        self.seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSer<'a>> {
        self.seq(Some(len))
    }
    /// `{variant: [..]}`.
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSer<'a>> {
        let mut seq = self.variant(variant)?.seq(Some(len))?;
        seq.ends = 1;
        Ok(seq)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a>> {
        self.compound()
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSer<'a>> {
        self.compound()
    }
    /// `{variant: {..}}`.
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<MapSer<'a>> {
        let mut map = self.variant(variant)?.compound()?;
        map.ends = 2;
        Ok(map)
    }
}

/// A list (or an array body) being written.
pub struct SeqSer<'a> {
    out: &'a mut Vec<u8>,
    /// For a list: its element id byte (the i32 length follows); for an
    /// array: its i32 length.
    header: usize,
    count: usize,
    /// `Some(element id)` when writing an array's body.
    array: Option<u8>,
    depth: u32,
    /// Compound ends to write after the list (1 for a tuple variant).
    ends: usize,
}

impl SeqSer<'_> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let slot = match self.array {
            Some(elem) => Slot::ArrayElem(elem),
            None => Slot::Elem {
                header: self.header,
                first: self.count == 0,
            },
        };
        let index = self.count;
        value
            .serialize(ValueSer {
                out: self.out,
                slot,
                depth: self.depth,
            })
            .map_err(|e| e.in_index(index))?;
        self.count += 1;
        Ok(())
    }

    fn finish(self) -> Result<()> {
        let len = i32::try_from(self.count)
            .map_err(|_| Error::write(WriteError::LengthTooLarge { len: self.count }))?;
        let at = match self.array {
            Some(_) => self.header,
            None => self.header + 1,
        };
        self.out[at..at + 4].copy_from_slice(&len.to_be_bytes());
        for _ in 0..self.ends {
            self.out.push(END);
        }
        Ok(())
    }
}

macro_rules! seq_impls {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for SeqSer<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

seq_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// A compound being written.
pub struct MapSer<'a> {
    out: &'a mut Vec<u8>,
    depth: u32,
    /// The placeholder id of the entry whose key was written last.
    key_pos: usize,
    /// Compound ends to write at the end (2 for a struct variant).
    ends: usize,
}

impl MapSer<'_> {
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<()> {
        let pos = self.out.len();
        self.out.push(END);
        write_str(self.out, key)?;
        value
            .serialize(ValueSer {
                out: self.out,
                slot: Slot::Field(pos),
                depth: self.depth,
            })
            .map_err(|e| e.in_key(key))
    }

    fn finish(self) -> Result<()> {
        for _ in 0..self.ends {
            self.out.push(END);
        }
        Ok(())
    }
}

macro_rules! struct_impls {
    ($($tr:ident),*) => {$(
        impl ser::$tr for MapSer<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn serialize_field<T: ?Sized + Serialize>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<()> {
                self.field(key, value)
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

struct_impls!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for MapSer<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.key_pos = self.out.len();
        self.out.push(END);
        key.serialize(KeySer { out: self.out })
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let pos = self.key_pos;
        value
            .serialize(ValueSer {
                out: self.out,
                slot: Slot::Field(pos),
                depth: self.depth,
            })
            .map_err(|e| {
                let key = self.out.get(pos + 3..).map_or(Default::default(), |rest| {
                    let len = u16::from_be_bytes([self.out[pos + 1], self.out[pos + 2]]) as usize;
                    mutf8::decode_lossy(&rest[..len.min(rest.len())]).into_owned()
                });
                e.in_key(&key)
            })
    }

    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        ser::SerializeMap::serialize_key(self, key)?;
        ser::SerializeMap::serialize_value(self, value)
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// A compound key: a string, or a number, bool or char written as one.
struct KeySer<'a> {
    out: &'a mut Vec<u8>,
}

#[cold]
fn key_error() -> Error {
    Error::msg("a compound key must be a string, number, bool, char or unit variant")
}

macro_rules! key_display {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            write_str(self.out, &v.to_string())
        }
    )*};
}

macro_rules! key_reject {
    ($($method:ident ( $($arg:ident : $t:ty),* ) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $t),*) -> Result<$ret> {
            Err(key_error())
        }
    )*};
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out, v)
    }

    key_display!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_char: char
    );

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<()> {
        write_str(self.out, variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(key_error())
    }

    key_reject! {
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(n: &'static str) -> ();
        serialize_seq(l: Option<usize>) -> Impossible<(), Error>;
        serialize_tuple(l: usize) -> Impossible<(), Error>;
        serialize_tuple_struct(n: &'static str, l: usize) -> Impossible<(), Error>;
        serialize_tuple_variant(n: &'static str, i: u32, v: &'static str, l: usize) -> Impossible<(), Error>;
        serialize_map(l: Option<usize>) -> Impossible<(), Error>;
        serialize_struct(n: &'static str, l: usize) -> Impossible<(), Error>;
        serialize_struct_variant(n: &'static str, i: u32, v: &'static str, l: usize) -> Impossible<(), Error>;
    }
}

macro_rules! root_forward {
    ($($method:ident ( $($arg:ident : $t:ty),* ) -> $ret:ty;)*) => {$(
        fn $method(self, $($arg: $t),*) -> Result<$ret> {
            self.begin()?.$method($($arg),*)
        }
    )*};
}

macro_rules! root_forward_generic {
    ($($method:ident ( $($arg:ident : $t:ty),* );)*) => {$(
        fn $method<T: ?Sized + Serialize>(self, $($arg: $t,)* value: &T) -> Result<()> {
            self.begin()?.$method($($arg,)* value)
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Serializer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = SeqSer<'a>;
    type SerializeTupleStruct = SeqSer<'a>;
    type SerializeTupleVariant = SeqSer<'a>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = MapSer<'a>;
    type SerializeStructVariant = MapSer<'a>;

    root_forward! {
        serialize_bool(v: bool) -> ();
        serialize_i8(v: i8) -> ();
        serialize_i16(v: i16) -> ();
        serialize_i32(v: i32) -> ();
        serialize_i64(v: i64) -> ();
        serialize_u8(v: u8) -> ();
        serialize_u16(v: u16) -> ();
        serialize_u32(v: u32) -> ();
        serialize_u64(v: u64) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, i: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> SeqSer<'a>;
        serialize_tuple(len: usize) -> SeqSer<'a>;
        serialize_tuple_struct(name: &'static str, len: usize) -> SeqSer<'a>;
        serialize_tuple_variant(name: &'static str, i: u32, variant: &'static str, len: usize) -> SeqSer<'a>;
        serialize_map(len: Option<usize>) -> MapSer<'a>;
        serialize_struct(name: &'static str, len: usize) -> MapSer<'a>;
        serialize_struct_variant(name: &'static str, i: u32, variant: &'static str, len: usize) -> MapSer<'a>;
    }

    root_forward_generic! {
        serialize_some();
        serialize_newtype_struct(name: &'static str);
        serialize_newtype_variant(name: &'static str, i: u32, variant: &'static str);
    }
}
