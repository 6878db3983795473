//! `ValueDe`: serde's `Deserializer` for one value of the document.

use super::*;

/// One value's deserializer. Errors the value raises get their offset from
/// its container (the entry, the element, or 0 for the root), so the value
/// carries none.
pub(super) struct ValueDe<'a, 'de> {
    pub(super) r: &'a mut Reader<'de>,
    pub(super) node: Node<'de>,
}

impl<'a, 'de> ValueDe<'a, 'de> {
    pub(super) fn invalid<V: Visitor<'de>, T>(&self, visitor: &V) -> Result<T> {
        Err(de::Error::invalid_type(self.node.unexpected(), visitor))
    }

    /// The value with its leaf read, if a map left it pending.
    #[inline(always)]
    fn resolve(mut self) -> Result<Self> {
        if let Node::Leaf { id, blame } = self.node {
            self.node = Node::read(&mut self.r.pull, id, blame)?;
        }
        Ok(self)
    }

    /// [`de::Deserializer::deserialize_any`] out of line: where a typed
    /// method meets another tag (an `i32` field holding a Short), so that
    /// the typed methods stay small.
    #[inline(never)]
    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    /// The elements of a list or array to `visitor`, then what it left of
    /// them skipped.
    #[inline(always)]
    fn visit_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let this = self.resolve()?;
        let mut seq = match this.node {
            Node::List => SeqDe::list(this.r)?,
            Node::ByteArray(b) => SeqDe::array(this.r, Elems::Bytes(b.iter()), b, 1),
            Node::IntArray(a) => SeqDe::array(this.r, Elems::Ints(a.iter()), a.as_big_endian(), 4),
            Node::LongArray(a) => {
                SeqDe::array(this.r, Elems::Longs(a.iter()), a.as_big_endian(), 8)
            }
            _ => return this.invalid(&visitor),
        };
        let depth = seq.r.pull.depth();
        let v = nested(depth, || visitor.visit_seq(&mut seq))?;
        seq.finish()?;
        Ok(v)
    }

    /// The entries of a compound to `visitor`, then what it left of them
    /// skipped.
    #[inline(always)]
    fn visit_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let Node::Compound { blame } = self.node else {
            return self.resolve()?.invalid(&visitor);
        };
        let mut map = MapDe::open(self.r, blame)?;
        let depth = map.r.pull.depth();
        let v = nested(depth, || visitor.visit_map(&mut map))?;
        map.finish()?;
        Ok(v)
    }

    /// The compound or list at the reader, built by the core's owned builder
    /// and handed over whole (`serde/handoff.rs`).
    fn hand_over<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (id, blame) = match self.node {
            Node::Compound { blame } => (COMPOUND, blame),
            _ => (LIST, self.r.pull.pos()),
        };
        let p = &mut self.r.pull;
        let sink = crate::owned::build::OwnedSink::<BigEndian>::new(p.data());
        let value = p.parse_into(id, blame, sink)?;
        handoff::hand_over(value, |b| visitor.visit_bytes(b))
    }
}

/// The number types: the tag of the type itself goes straight to the
/// visitor, a body small enough for the derived code to inline; any other
/// tag through [`ValueDe::any`].
macro_rules! exact {
    ($($method:ident, $variant:ident, $id:ident, $t:ty, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.node {
                Node::$variant(v) => visitor.$visit(v),
                Node::Leaf { id: $id, .. } => visitor.$visit(<$t>::from_be_bytes(self.r.pull.fixed()?)),
                _ => self.any(visitor),
            }
        }
    )*};
}

/// The string types: a String straight to [`visit_mutf8`], any other tag
/// through [`ValueDe::any`].
macro_rules! string {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.node {
                Node::Str(s) => visit_mutf8(s, self.r.ctx, visitor),
                Node::Leaf { id: STRING, .. } => {
                    let s = Mutf8Str::from_slice(self.r.pull.string()?);
                    visit_mutf8(s, self.r.ctx, visitor)
                }
                _ => self.any(visitor),
            }
        }
    )*};
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
    ($($method:ident, $variant:ident, $id:ident, $visit:ident, $t:ty;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.node {
                Node::$variant(v) => visitor.$visit(v as $t),
                Node::Leaf { id: $id, .. } => visitor.$visit(<$t>::from_be_bytes(self.r.pull.fixed()?)),
                _ => self.any(visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for ValueDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let this = self.resolve()?;
        match this.node {
            Node::Byte(v) => visitor.visit_i8(v),
            Node::Short(v) => visitor.visit_i16(v),
            Node::Int(v) => visitor.visit_i32(v),
            Node::Long(v) => visitor.visit_i64(v),
            Node::Float(v) => visitor.visit_f32(v),
            Node::Double(v) => visitor.visit_f64(v),
            Node::Str(s) => visit_mutf8(s, this.r.ctx, visitor),
            Node::Compound { .. } => this.visit_map(visitor),
            Node::End => visitor.visit_none(),
            // Lists and arrays are sequences of their element type, so an
            // IntArray buffered by serde (untagged, flatten, internal tags)
            // is still a sequence of i32 when it reaches its field.
            Node::List | Node::ByteArray(_) | Node::IntArray(_) | Node::LongArray(_) => {
                this.visit_seq(visitor)
            }
            // Read above.
            Node::Leaf { .. } => this.invalid(&visitor),
        }
    }

    exact! {
        deserialize_i8, Byte, BYTE, i8, visit_i8; deserialize_i16, Short, SHORT, i16, visit_i16;
        deserialize_i32, Int, INT, i32, visit_i32; deserialize_i64, Long, LONG, i64, visit_i64;
        deserialize_f32, Float, FLOAT, f32, visit_f32;
        deserialize_f64, Double, DOUBLE, f64, visit_f64;
    }

    string! { deserialize_str deserialize_string deserialize_identifier }

    forward_to_any! { deserialize_char }

    unsigned_bits! {
        deserialize_u8, Byte, BYTE, visit_u8, u8;
        deserialize_u16, Short, SHORT, visit_u16, u16;
        deserialize_u32, Int, INT, visit_u32, u32;
        deserialize_u64, Long, LONG, visit_u64, u64;
    }

    /// A Byte: 0 is false, anything else true (as vanilla's `getBoolean`).
    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let this = self.resolve()?;
        match this.node {
            Node::Byte(v) => visitor.visit_bool(v != 0),
            _ => this.invalid(&visitor),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let this = self.resolve()?;
        match this.node {
            Node::ByteArray(b) => visitor.visit_borrowed_bytes(b),
            Node::Str(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
            _ => this.deserialize_any(visitor),
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
        let this = self.resolve()?;
        match this.node {
            Node::Compound { blame } => {
                this.r.pull.open_compound(blame)?;
                match this.r.pull.entry()? {
                    None => visitor.visit_unit(),
                    Some(_) => this.invalid(&visitor),
                }
            }
            Node::End => visitor.visit_unit(),
            _ => this.invalid(&visitor),
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
        let this = self.resolve()?;
        // The array types ask by name for their bytes in one piece.
        match (name, this.node) {
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
                    value: this,
                })
            }
            // The owned tree's containers are built here from the document,
            // in one iterative walk, and handed over (`serde/handoff.rs`).
            (crate::serde::owned::COMPOUND_TOKEN, Node::Compound { .. })
            | (crate::serde::owned::LIST_TOKEN, Node::List) => this.hand_over(visitor),
            _ => visitor.visit_newtype_struct(this),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.visit_seq(visitor)
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
        self.visit_map(visitor)
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
        let this = self.resolve()?;
        match this.node {
            Node::Str(name) => visitor.visit_enum(UnitVariant {
                name,
                ctx: this.r.ctx,
            }),
            Node::Compound { blame } => {
                let Some(head) = one_entry(&mut this.r.pull, blame)? else {
                    return Err(de::Error::invalid_value(
                        Unexpected::Map,
                        &"a compound with exactly one entry, {variant: value}",
                    ));
                };
                let start = this.r.pull.pos();
                let r = &mut *this.r;
                let depth = r.pull.depth();
                let v = nested(depth, || visitor.visit_enum(TaggedVariant { r, head }))?;
                if this.r.pull.pos() == start {
                    // `{variant: anything}` read as a unit variant.
                    this.r.pull.skip(head.id, head.at)?;
                }
                // The compound's End (`one_entry` checked it is next).
                this.r.pull.entry()?;
                Ok(v)
            }
            _ => this.invalid(&visitor),
        }
    }

    /// A leaf is read already; a container is skipped by the core.
    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let this = self.resolve()?;
        match this.node {
            Node::Compound { blame } => this.r.pull.skip(COMPOUND, blame)?,
            Node::List => {
                let pos = this.r.pull.pos();
                this.r.pull.skip(LIST, pos)?
            }
            _ => {}
        }
        visitor.visit_unit()
    }
}
