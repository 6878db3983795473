//! The deserializer: serde's data model over a [`crate::borrow`] document.
//!
//! The input is first read by the borrow reader (one validating pass: depth,
//! lengths and budget are checked there, with byte offsets), then walked
//! through the document's views. Strings and byte arrays are handed to the
//! visitor borrowed from the input when they can be.

use std::borrow::Cow;
use std::io::Cursor;

use ::serde::de::{
    self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use super::Options;
use super::error::{Error, Result};
use crate::borrow::{
    self, NbtCompound, NbtCompoundIter, NbtCompoundListIter, NbtList, NbtListListIter, NbtTag,
};
use crate::mutf8::{self, Mutf8Str};
use crate::raw_list::{self, RawList};
use crate::tag_id::*;

/// Reads NBT bytes into serde's data model.
///
/// Made by [`Deserializer::from_slice`] (the disk form: a named root compound)
/// or [`Deserializer::from_slice_with`]; use `&mut Deserializer` wherever a
/// [`serde::Deserializer`](::serde::Deserializer) is wanted, for example with
/// `serde_path_to_error`:
///
/// ```
/// use simdnbt::serde::Deserializer;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Level { #[allow(dead_code)] time: i64 }
///
/// // {"time": "x"}
/// let bytes = [0x0a, 0, 0, 8, 0, 4, b't', b'i', b'm', b'e', 0, 1, b'x', 0];
/// let mut de = Deserializer::from_slice(&bytes).unwrap();
/// let err = serde_path_to_error::deserialize::<_, Level>(&mut de).unwrap_err();
/// assert_eq!(err.path().to_string(), "time");
/// ```
pub struct Deserializer<'de> {
    input: &'de [u8],
    doc: Doc<'de>,
    /// Offset just past the document.
    end: usize,
}

enum Doc<'de> {
    /// A root compound (named or in network form), or `None` for an End root.
    Compound(borrow::Nbt<'de>),
    /// Network form with any root tag, or `None` for an End root.
    Tag(Option<borrow::BaseNbtTag<'de>>),
}

impl<'de> Deserializer<'de> {
    /// Reads `input` in disk form: a named root compound (or a single End
    /// byte, which reads as `None` into an `Option`). Bytes after the
    /// document are left for [`Deserializer::end`] to reject.
    ///
    /// # Errors
    /// The reader's error, with its byte offset, when `input` is not valid NBT.
    pub fn from_slice(input: &'de [u8]) -> Result<Self> {
        Self::from_slice_with(input, &Options::default())
    }

    /// Reads `input` with `options`: the network form (any root tag, no
    /// name) and the reader's limits.
    ///
    /// ```
    /// use simdnbt::serde::{Deserializer, Options};
    /// // network form, root String "hi"
    /// let bytes = [8, 0, 2, b'h', b'i'];
    /// let mut de = Deserializer::from_slice_with(&bytes, &Options::new().network()).unwrap();
    /// let s: &str = serde::Deserialize::deserialize(&mut de).unwrap();
    /// assert_eq!(s, "hi");
    /// ```
    ///
    /// # Errors
    /// The reader's error, with its byte offset, when `input` is not valid NBT.
    pub fn from_slice_with(input: &'de [u8], options: &Options) -> Result<Self> {
        let mut cursor = Cursor::new(input);
        let doc = if options.network {
            Doc::Tag(borrow::read_optional_tag_with(&mut cursor, &options.read)?)
        } else {
            Doc::Compound(borrow::read_with(&mut cursor, &options.read)?)
        };
        let end = cursor.position() as usize;
        Ok(Deserializer { input, doc, end })
    }

    /// The root compound's name, in disk form (`None` in network form or for
    /// an End root).
    pub fn root_name(&self) -> Option<&'de Mutf8Str> {
        match &self.doc {
            Doc::Compound(borrow::Nbt::Some(nbt)) => Some(nbt.name()),
            _ => None,
        }
    }

    /// Checks that the document was the whole input.
    ///
    /// # Errors
    /// When bytes follow the document; the offset is the first of them.
    pub fn end(&self) -> Result<()> {
        if self.end == self.input.len() {
            Ok(())
        } else {
            Err(Error::msg_at("trailing bytes after the document", self.end))
        }
    }

    fn root(&self) -> ValueDe<'de, '_> {
        let ctx = Ctx {
            base: self.input.as_ptr() as usize,
        };
        let node = match &self.doc {
            Doc::Compound(borrow::Nbt::Some(nbt)) => Node::Compound(nbt.as_compound()),
            Doc::Tag(Some(tag)) => Node::from_tag(tag.as_tag()),
            Doc::Compound(borrow::Nbt::None) | Doc::Tag(None) => Node::End,
        };
        ValueDe { node, off: 0, ctx }
    }
}

/// What the walk needs to turn pointers into the input back into offsets.
#[derive(Clone, Copy)]
struct Ctx {
    base: usize,
}

impl Ctx {
    #[inline]
    fn off(self, p: *const u8) -> usize {
        (p as usize).wrapping_sub(self.base)
    }

    /// The offset of a named tag (its id byte) from its key, which is
    /// borrowed from the input just after the id and the key's u16 length.
    #[inline]
    fn entry_off(self, key: &Mutf8Str) -> usize {
        self.off(key.as_bytes().as_ptr()).wrapping_sub(3)
    }
}

/// One value of the document, as the views give it.
#[derive(Clone, Copy)]
enum Node<'de, 't> {
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    ByteArray(&'de [u8]),
    Str(&'de Mutf8Str),
    List(NbtList<'de, 't>),
    Compound(NbtCompound<'de, 't>),
    IntArray(RawList<'de, i32>),
    LongArray(RawList<'de, i64>),
    /// The End root: no document.
    End,
}

impl<'de, 't> Node<'de, 't> {
    #[inline]
    fn from_tag(tag: NbtTag<'de, 't>) -> Self {
        let node = match tag.id() {
            BYTE => tag.byte().map(Node::Byte),
            SHORT => tag.short().map(Node::Short),
            INT => tag.int().map(Node::Int),
            LONG => tag.long().map(Node::Long),
            FLOAT => tag.float().map(Node::Float),
            DOUBLE => tag.double().map(Node::Double),
            BYTE_ARRAY => tag.byte_array().map(Node::ByteArray),
            STRING => tag.string().map(Node::Str),
            LIST => tag.list().map(Node::List),
            COMPOUND => tag.compound().map(Node::Compound),
            INT_ARRAY => tag.int_array_raw().map(Node::IntArray),
            LONG_ARRAY => tag.long_array_raw().map(Node::LongArray),
            _ => None,
        };
        // The views never hold another id; End is the safe answer if one did.
        node.unwrap_or(Node::End)
    }

    /// A list element compound: the 1.21.5 heterogeneous-list wrapper
    /// `{"": value}` reads as `value`.
    #[inline]
    fn from_element(c: NbtCompound<'de, 't>) -> Self {
        let mut it = c.iter();
        if let Some((key, tag)) = it.next() {
            if key.is_empty() && it.next().is_none() {
                return Node::from_tag(tag);
            }
        }
        Node::Compound(c)
    }

    /// Where this value's bytes start, when a view can tell (strings and
    /// arrays from their slices, compounds from their first key).
    fn offset(&self, ctx: Ctx) -> Option<usize> {
        match self {
            Node::Str(s) => Some(ctx.off(s.as_bytes().as_ptr()).wrapping_sub(2)),
            Node::ByteArray(b) => Some(ctx.off(b.as_ptr()).wrapping_sub(4)),
            Node::IntArray(r) => Some(ctx.off(r.as_big_endian().as_ptr()).wrapping_sub(4)),
            Node::LongArray(r) => Some(ctx.off(r.as_big_endian().as_ptr()).wrapping_sub(4)),
            Node::Compound(c) => c.iter().next().map(|(k, _)| ctx.entry_off(k)),
            _ => None,
        }
    }

    fn id(&self) -> u8 {
        match self {
            Node::Byte(_) => BYTE,
            Node::Short(_) => SHORT,
            Node::Int(_) => INT,
            Node::Long(_) => LONG,
            Node::Float(_) => FLOAT,
            Node::Double(_) => DOUBLE,
            Node::ByteArray(_) => BYTE_ARRAY,
            Node::Str(_) => STRING,
            Node::List(_) => LIST,
            Node::Compound(_) => COMPOUND,
            Node::IntArray(_) => INT_ARRAY,
            Node::LongArray(_) => LONG_ARRAY,
            Node::End => END,
        }
    }

    fn unexpected(&self) -> Unexpected<'static> {
        match *self {
            Node::Byte(v) => Unexpected::Signed(v.into()),
            Node::Short(v) => Unexpected::Signed(v.into()),
            Node::Int(v) => Unexpected::Signed(v.into()),
            Node::Long(v) => Unexpected::Signed(v),
            Node::Float(v) => Unexpected::Float(v.into()),
            Node::Double(v) => Unexpected::Float(v),
            Node::ByteArray(_) => Unexpected::Other("byte array"),
            Node::Str(_) => Unexpected::Other("string"),
            Node::List(_) => Unexpected::Seq,
            Node::Compound(_) => Unexpected::Map,
            Node::IntArray(_) => Unexpected::Other("int array"),
            Node::LongArray(_) => Unexpected::Other("long array"),
            Node::End => Unexpected::Other("empty document"),
        }
    }
}

/// Hands a MUTF-8 string to a visitor: borrowed when its bytes are UTF-8
/// as they are, decoded otherwise, an error when it is not valid MUTF-8.
#[inline]
fn visit_mutf8<'de, V: Visitor<'de>>(s: &'de Mutf8Str, ctx: Ctx, visitor: V) -> Result<V::Value> {
    let bytes = s.as_bytes();
    // Keys and most strings are ASCII, the same bytes in MUTF-8 and UTF-8.
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        return visitor.visit_borrowed_str(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    visit_decoded(s, ctx, visitor)
}

/// [`visit_mutf8`] for strings that need decoding.
fn visit_decoded<'de, V: Visitor<'de>>(s: &'de Mutf8Str, ctx: Ctx, visitor: V) -> Result<V::Value> {
    match mutf8::decode(s.as_bytes()) {
        Ok(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
        Ok(Cow::Owned(s)) => visitor.visit_string(s),
        Err(e) => Err(Error::msg_at(
            format_args!("invalid MUTF-8 string: {e}"),
            ctx.off(s.as_bytes().as_ptr()) + e.valid_up_to(),
        )),
    }
}

/// One value's deserializer. `off` is the best offset known for errors the
/// value itself raises; its container refines it.
struct ValueDe<'de, 't> {
    node: Node<'de, 't>,
    off: usize,
    ctx: Ctx,
}

impl<'de, 't> ValueDe<'de, 't> {
    fn invalid<V: Visitor<'de>, T>(&self, visitor: &V) -> Result<T> {
        Err(de::Error::invalid_type(self.node.unexpected(), visitor))
    }

    fn seq(&self) -> Option<SeqDe<'de, 't>> {
        let ctx = self.ctx;
        let fallback = self.off;
        let seq = match self.node {
            Node::List(l) => SeqDe::list(l, ctx, fallback),
            Node::ByteArray(b) => SeqDe {
                elems: Elems::Bytes(b.iter()),
                index: 0,
                first: ctx.off(b.as_ptr()),
                stride: 1,
                fallback,
                ctx,
            },
            Node::IntArray(r) => SeqDe::numbers(Elems::Ints(r.iter()), r, ctx, fallback),
            Node::LongArray(r) => SeqDe::numbers(Elems::Longs(r.iter()), r, ctx, fallback),
            _ => return None,
        };
        Some(seq)
    }
}

macro_rules! forward_to_any {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.deserialize_any(visitor)
        }
    )*};
}

/// `u8`..`u64` read the signed tag of their width bit for bit (`255u8` is
/// Byte `-1`); any other tag goes through the visitor's range check.
macro_rules! unsigned_bits {
    ($($method:ident, $variant:ident, $visit:ident, $t:ty;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.node {
                Node::$variant(v) => visitor.$visit(v as $t),
                _ => self.deserialize_any(visitor),
            }
        }
    )*};
}

impl<'de, 't> de::Deserializer<'de> for ValueDe<'de, 't> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::Byte(v) => visitor.visit_i8(v),
            Node::Short(v) => visitor.visit_i16(v),
            Node::Int(v) => visitor.visit_i32(v),
            Node::Long(v) => visitor.visit_i64(v),
            Node::Float(v) => visitor.visit_f32(v),
            Node::Double(v) => visitor.visit_f64(v),
            Node::Str(s) => visit_mutf8(s, self.ctx, visitor),
            Node::Compound(c) => visitor.visit_map(MapDe::new(c, self.ctx)),
            Node::End => visitor.visit_none(),
            // Lists and arrays are sequences of their element type, so an
            // IntArray buffered by serde (untagged, flatten, internal tags)
            // is still a sequence of i32 when it reaches its field.
            Node::List(_) | Node::ByteArray(_) | Node::IntArray(_) | Node::LongArray(_) => {
                match self.seq() {
                    Some(seq) => visitor.visit_seq(seq),
                    None => self.invalid(&visitor),
                }
            }
        }
    }

    forward_to_any! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_identifier
    }

    unsigned_bits! {
        deserialize_u8, Byte, visit_u8, u8;
        deserialize_u16, Short, visit_u16, u16;
        deserialize_u32, Int, visit_u32, u32;
        deserialize_u64, Long, visit_u64, u64;
    }

    /// A Byte: 0 is false, anything else true (as vanilla's `getBoolean`).
    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::Byte(v) => visitor.visit_bool(v != 0),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::ByteArray(b) => visitor.visit_borrowed_bytes(b),
            Node::Str(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    /// A value that is there is `Some`; a missing field is `None` (serde's
    /// derive does that), and so is an End root.
    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::End => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    /// `()` is an empty compound.
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::Compound(c) if c.is_empty() => visitor.visit_unit(),
            Node::End => visitor.visit_unit(),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        // The array types ask by name for their bytes in one piece.
        match (name, self.node) {
            (super::array::INT_ARRAY_TOKEN, Node::IntArray(r)) => {
                visitor.visit_borrowed_bytes(r.as_big_endian())
            }
            (super::array::LONG_ARRAY_TOKEN, Node::LongArray(r)) => {
                visitor.visit_borrowed_bytes(r.as_big_endian())
            }
            (super::array::BYTE_ARRAY_TOKEN, Node::ByteArray(b)) => visitor.visit_borrowed_bytes(b),
            // The owned tree asks for exact types and raw strings.
            (super::owned::MUTF8_TOKEN, Node::Str(s)) => visitor.visit_borrowed_bytes(s.as_bytes()),
            (super::owned::TAG_TOKEN, node) if node.id() != END => visitor.visit_enum(Typed {
                id: node.id(),
                value: self,
            }),
            // Containers go to the owned tree as their payload bytes, which
            // it reads with the (iterative) owned reader: no recursion here.
            (super::owned::COMPOUND_TOKEN, Node::Compound(c)) => {
                let mut payload = Vec::new();
                c.write(&mut payload);
                visitor.visit_byte_buf(payload)
            }
            (super::owned::LIST_TOKEN, Node::List(l)) => {
                let mut payload = Vec::new();
                l.write(&mut payload);
                visitor.visit_byte_buf(payload)
            }
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.seq() {
            Some(seq) => visitor.visit_seq(seq),
            None => self.invalid(&visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.node {
            Node::Compound(c) => visitor.visit_map(MapDe::new(c, self.ctx)),
            _ => self.invalid(&visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    /// A unit variant is a String; any other variant a compound of one
    /// entry, `{variant: value}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.node {
            Node::Str(name) => visitor.visit_enum(UnitVariant {
                name,
                ctx: self.ctx,
            }),
            Node::Compound(c) => {
                let mut it = c.iter();
                match (it.next(), it.next()) {
                    (Some((key, tag)), None) => visitor.visit_enum(TaggedVariant {
                        key,
                        tag,
                        ctx: self.ctx,
                    }),
                    _ => Err(de::Error::invalid_value(
                        Unexpected::Map,
                        &"a compound with exactly one entry, {variant: value}",
                    )),
                }
            }
            _ => self.invalid(&visitor),
        }
    }

    /// Skipping costs nothing: the reader has validated and indexed the value.
    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
}

/// A compound's entries, in input order.
struct MapDe<'de, 't> {
    iter: NbtCompoundIter<'de, 't>,
    /// The compound (for `size_hint`, which few visitors ask) and the
    /// entries taken so far.
    compound: NbtCompound<'de, 't>,
    taken: usize,
    pending: Option<(&'de Mutf8Str, NbtTag<'de, 't>)>,
    ctx: Ctx,
}

impl<'de, 't> MapDe<'de, 't> {
    #[inline]
    fn new(c: NbtCompound<'de, 't>, ctx: Ctx) -> Self {
        MapDe {
            iter: c.iter(),
            compound: c,
            taken: 0,
            pending: None,
            ctx,
        }
    }
}

#[cold]
fn in_key(e: Error, key: &Mutf8Str, off: usize) -> Error {
    e.at(off).in_key(&key.to_str())
}

impl<'de, 't> MapAccess<'de> for MapDe<'de, 't> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, tag)) = self.iter.next() else {
            return Ok(None);
        };
        self.taken += 1;
        self.pending = Some((key, tag));
        let ctx = self.ctx;
        match seed.deserialize(KeyDe { key, ctx }) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(in_key(e, key, ctx.entry_off(key))),
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((key, tag)) = self.pending.take() else {
            return Err(Error::msg("a map value was asked for before its key"));
        };
        let ctx = self.ctx;
        let off = ctx.entry_off(key);
        let value = ValueDe {
            node: Node::from_tag(tag),
            off,
            ctx,
        };
        match seed.deserialize(value) {
            Ok(v) => Ok(v),
            Err(e) => Err(in_key(e, key, off)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.compound.len().saturating_sub(self.taken))
    }
}

/// The elements of a list or array, by element type.
enum Elems<'de, 't> {
    Empty,
    /// A ByteArray's bytes (or a List of Byte's, as `u8`).
    Bytes(std::slice::Iter<'de, u8>),
    ByteList(std::slice::Iter<'de, i8>),
    Shorts(raw_list::Iter<'de, i16>),
    Ints(raw_list::Iter<'de, i32>),
    Longs(raw_list::Iter<'de, i64>),
    Floats(raw_list::Iter<'de, f32>),
    Doubles(raw_list::Iter<'de, f64>),
    Strings(std::slice::Iter<'t, &'de Mutf8Str>),
    ByteArrays(std::slice::Iter<'t, &'de [u8]>),
    IntArrays(std::slice::Iter<'t, RawList<'de, i32>>),
    LongArrays(std::slice::Iter<'t, RawList<'de, i64>>),
    Lists(NbtListListIter<'de, 't>),
    Compounds(NbtCompoundListIter<'de, 't>),
}

struct SeqDe<'de, 't> {
    elems: Elems<'de, 't>,
    index: usize,
    /// For fixed-size elements: offset of the first, and the element size
    /// (`stride` 0 for the others, which know their own offset).
    first: usize,
    stride: usize,
    /// The list's own offset, for elements that cannot tell theirs.
    fallback: usize,
    ctx: Ctx,
}

impl<'de, 't> SeqDe<'de, 't> {
    fn numbers<T: crate::simd::BeNumber>(
        elems: Elems<'de, 't>,
        raw: RawList<'de, T>,
        ctx: Ctx,
        fallback: usize,
    ) -> Self {
        SeqDe {
            elems,
            index: 0,
            first: ctx.off(raw.as_big_endian().as_ptr()),
            stride: T::SIZE,
            fallback,
            ctx,
        }
    }

    fn list(l: NbtList<'de, 't>, ctx: Ctx, fallback: usize) -> Self {
        macro_rules! raw {
            ($get:ident, $variant:ident) => {
                match l.$get() {
                    Some(r) => return Self::numbers(Elems::$variant(r.iter()), r, ctx, fallback),
                    None => Elems::Empty,
                }
            };
        }
        let elems = match l.id() {
            BYTE => match l.bytes() {
                Some(b) => {
                    return SeqDe {
                        elems: Elems::ByteList(b.iter()),
                        index: 0,
                        first: ctx.off(b.as_ptr().cast()),
                        stride: 1,
                        fallback,
                        ctx,
                    };
                }
                None => Elems::Empty,
            },
            SHORT => raw!(shorts_raw, Shorts),
            INT => raw!(ints_raw, Ints),
            LONG => raw!(longs_raw, Longs),
            FLOAT => raw!(floats_raw, Floats),
            DOUBLE => raw!(doubles_raw, Doubles),
            STRING => l
                .strings()
                .map_or(Elems::Empty, |s| Elems::Strings(s.iter())),
            BYTE_ARRAY => l
                .byte_arrays()
                .map_or(Elems::Empty, |s| Elems::ByteArrays(s.iter())),
            INT_ARRAY => l
                .int_arrays()
                .map_or(Elems::Empty, |s| Elems::IntArrays(s.iter())),
            LONG_ARRAY => l
                .long_arrays()
                .map_or(Elems::Empty, |s| Elems::LongArrays(s.iter())),
            LIST => l.lists().map_or(Elems::Empty, |s| Elems::Lists(s.iter())),
            COMPOUND => l
                .compounds()
                .map_or(Elems::Empty, |s| Elems::Compounds(s.iter())),
            _ => Elems::Empty,
        };
        SeqDe {
            elems,
            index: 0,
            first: 0,
            stride: 0,
            fallback,
            ctx,
        }
    }

    fn remaining(&self) -> usize {
        match &self.elems {
            Elems::Empty => 0,
            Elems::Bytes(it) => it.len(),
            Elems::ByteList(it) => it.len(),
            Elems::Shorts(it) => it.len(),
            Elems::Ints(it) => it.len(),
            Elems::Longs(it) => it.len(),
            Elems::Floats(it) => it.len(),
            Elems::Doubles(it) => it.len(),
            Elems::Strings(it) => it.len(),
            Elems::ByteArrays(it) => it.len(),
            Elems::IntArrays(it) => it.len(),
            Elems::LongArrays(it) => it.len(),
            Elems::Lists(it) => it.len(),
            Elems::Compounds(it) => it.len(),
        }
    }

    #[cold]
    fn element_error(&self, e: Error, index: usize, node: Node<'de, 't>) -> Error {
        let off = if self.stride != 0 {
            self.first + index * self.stride
        } else {
            node.offset(self.ctx).unwrap_or(self.fallback)
        };
        e.at(off).in_index(index)
    }
}

impl<'de, 't> SeqAccess<'de> for SeqDe<'de, 't> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let node = match &mut self.elems {
            Elems::Empty => None,
            Elems::Bytes(it) => it.next().map(|&b| Node::Byte(b as i8)),
            Elems::ByteList(it) => it.next().map(|&b| Node::Byte(b)),
            Elems::Shorts(it) => it.next().map(Node::Short),
            Elems::Ints(it) => it.next().map(Node::Int),
            Elems::Longs(it) => it.next().map(Node::Long),
            Elems::Floats(it) => it.next().map(Node::Float),
            Elems::Doubles(it) => it.next().map(Node::Double),
            Elems::Strings(it) => it.next().map(|&s| Node::Str(s)),
            Elems::ByteArrays(it) => it.next().map(|&b| Node::ByteArray(b)),
            Elems::IntArrays(it) => it.next().map(|&r| Node::IntArray(r)),
            Elems::LongArrays(it) => it.next().map(|&r| Node::LongArray(r)),
            Elems::Lists(it) => it.next().map(Node::List),
            Elems::Compounds(it) => it.next().map(Node::from_element),
        };
        let Some(node) = node else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        let value = ValueDe {
            node,
            off: self.fallback,
            ctx: self.ctx,
        };
        match seed.deserialize(value) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(self.element_error(e, index, node)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining())
    }
}

/// A compound key. Besides strings it reads as any integer, float, bool or
/// char written in it (so `HashMap<i32, T>` works), and as a unit variant.
struct KeyDe<'de> {
    key: &'de Mutf8Str,
    ctx: Ctx,
}

impl<'de> KeyDe<'de> {
    fn parse<T: std::str::FromStr>(&self) -> Result<T> {
        let s = self.key.to_str();
        s.parse().map_err(|_| {
            Error::msg(format_args!(
                "invalid map key {s:?}: expected a {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

macro_rules! parse_key {
    ($($method:ident, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.parse()?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyDe<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_mutf8(self.key, self.ctx, visitor)
    }

    parse_key! {
        deserialize_bool, visit_bool; deserialize_i8, visit_i8; deserialize_i16, visit_i16;
        deserialize_i32, visit_i32; deserialize_i64, visit_i64; deserialize_i128, visit_i128;
        deserialize_u8, visit_u8; deserialize_u16, visit_u16; deserialize_u32, visit_u32;
        deserialize_u64, visit_u64; deserialize_u128, visit_u128; deserialize_f32, visit_f32;
        deserialize_f64, visit_f64; deserialize_char, visit_char;
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == super::owned::MUTF8_TOKEN {
            return visitor.visit_borrowed_bytes(self.key.as_bytes());
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(UnitVariant {
            name: self.key,
            ctx: self.ctx,
        })
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.key.as_bytes())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    ::serde::forward_to_deserialize_any! {
        str string identifier unit unit_struct seq tuple tuple_struct map struct ignored_any
    }
}

/// A unit variant written as its name (a String).
struct UnitVariant<'de> {
    name: &'de Mutf8Str,
    ctx: Ctx,
}

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(KeyDe {
            key: self.name,
            ctx: self.ctx,
        })?;
        Ok((v, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: value}",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: [..]}",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: {..}}",
        ))
    }
}

/// A variant with content: a compound of one entry, `{variant: value}`.
struct TaggedVariant<'de, 't> {
    key: &'de Mutf8Str,
    tag: NbtTag<'de, 't>,
    ctx: Ctx,
}

impl<'de, 't> TaggedVariant<'de, 't> {
    fn content<T>(self, f: impl FnOnce(ValueDe<'de, 't>) -> Result<T>) -> Result<T> {
        let off = self.ctx.entry_off(self.key);
        let value = ValueDe {
            node: Node::from_tag(self.tag),
            off,
            ctx: self.ctx,
        };
        f(value).map_err(|e| in_key(e, self.key, off))
    }
}

impl<'de, 't> EnumAccess<'de> for TaggedVariant<'de, 't> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed
            .deserialize(KeyDe {
                key: self.key,
                ctx: self.ctx,
            })
            .map_err(|e| e.at(self.ctx.entry_off(self.key)))?;
        Ok((v, self))
    }
}

impl<'de, 't> VariantAccess<'de> for TaggedVariant<'de, 't> {
    type Error = Error;

    /// `{variant: anything}` is accepted for a unit variant too.
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.content(|v| seed.deserialize(v))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.content(|v| de::Deserializer::deserialize_seq(v, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.content(|v| de::Deserializer::deserialize_map(v, visitor))
    }
}

/// A value with its tag id as the variant name (the owned tree's way to
/// learn exact types; see `owned.rs`).
struct Typed<'de, 't> {
    id: u8,
    value: ValueDe<'de, 't>,
}

impl<'de, 't> EnumAccess<'de> for Typed<'de, 't> {
    type Error = Error;
    type Variant = ValueDe<'de, 't>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let name = super::owned::TYPE_NAMES[self.id as usize];
        let v = seed.deserialize(de::value::StrDeserializer::<Error>::new(name))?;
        Ok((v, self.value))
    }
}

impl<'de, 't> VariantAccess<'de> for ValueDe<'de, 't> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}

macro_rules! root_forward {
    ($($method:ident ( $($arg:ident : $t:ty),* ))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $t,)* visitor: V) -> Result<V::Value> {
            self.root().$method($($arg,)* visitor).map_err(|e| e.at(0))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    root_forward! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_u8() deserialize_u16()
        deserialize_u32() deserialize_u64() deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string() deserialize_bytes()
        deserialize_byte_buf() deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq() deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier() deserialize_ignored_any()
    }
}
