//! `ValueDe`: serde's `Deserializer` for one value of the document.

use super::*;

/// One value's deserializer. Errors the value raises get their offset from
/// its container (the entry, the element, or 0 for the root), so the value
/// carries none: it is passed by value at every field and element.
pub(super) struct ValueDe<'de, 't> {
    pub(super) node: Node<'de, 't>,
    pub(super) ctx: Ctx,
}

impl<'de, 't> ValueDe<'de, 't> {
    pub(super) fn invalid<V: Visitor<'de>, T>(&self, visitor: &V) -> Result<T> {
        Err(de::Error::invalid_type(self.node.unexpected(), visitor))
    }

    pub(super) fn seq(&self) -> Option<SeqDe<'de, 't>> {
        let ctx = self.ctx;
        let seq = match self.node {
            Node::List(l) => SeqDe::list(l, ctx),
            Node::ByteArray(b) => SeqDe {
                elems: Elems::Bytes(b.iter()),
                index: 0,
                first: ctx.off(b.as_ptr()),
                stride: 1,
                ctx,
            },
            Node::IntArray(r) => SeqDe::numbers(Elems::Ints(r.iter()), r, ctx),
            Node::LongArray(r) => SeqDe::numbers(Elems::Longs(r.iter()), r, ctx),
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
            (crate::serde::array::INT_ARRAY_TOKEN, Node::IntArray(r)) => {
                visitor.visit_borrowed_bytes(r.as_big_endian())
            }
            (crate::serde::array::LONG_ARRAY_TOKEN, Node::LongArray(r)) => {
                visitor.visit_borrowed_bytes(r.as_big_endian())
            }
            (crate::serde::array::BYTE_ARRAY_TOKEN, Node::ByteArray(b)) => {
                visitor.visit_borrowed_bytes(b)
            }
            // The owned tree asks for exact types and raw strings.
            (crate::serde::owned::MUTF8_TOKEN, Node::Str(s)) => {
                visitor.visit_borrowed_bytes(s.as_bytes())
            }
            (crate::serde::owned::TAG_TOKEN, node) if node.id() != END => {
                visitor.visit_enum(Typed {
                    id: node.id(),
                    value: self,
                })
            }
            // The owned tree's containers are built here from the document,
            // in one iterative walk, and handed over (`serde/handoff.rs`).
            (crate::serde::owned::COMPOUND_TOKEN, Node::Compound(c)) => {
                let value = crate::owned::NbtTag::Compound(c.to_owned());
                handoff::hand_over(value, |b| visitor.visit_bytes(b))
            }
            (crate::serde::owned::LIST_TOKEN, Node::List(l)) => {
                let value = crate::owned::NbtTag::List(l.to_owned());
                handoff::hand_over(value, |b| visitor.visit_bytes(b))
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
