//! Lists and arrays as serde sequences.

use super::*;

/// The elements of a list or array, by element type.
pub(super) enum Elems<'de, 't> {
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

pub(super) struct SeqDe<'de, 't> {
    pub(super) elems: Elems<'de, 't>,
    pub(super) index: usize,
    /// For fixed-size elements: offset of the first, and the element size
    /// (`stride` 0 for the others, which know their own offset).
    pub(super) first: usize,
    pub(super) stride: usize,
    pub(super) ctx: Ctx,
}

impl<'de, 't> SeqDe<'de, 't> {
    pub(super) fn numbers<T: crate::simd::BeNumber>(
        elems: Elems<'de, 't>,
        raw: RawList<'de, T>,
        ctx: Ctx,
    ) -> Self {
        SeqDe {
            elems,
            index: 0,
            first: ctx.off(raw.as_big_endian().as_ptr()),
            stride: T::SIZE,
            ctx,
        }
    }

    pub(super) fn list(l: NbtList<'de, 't>, ctx: Ctx) -> Self {
        macro_rules! raw {
            ($get:ident, $variant:ident) => {
                match l.$get() {
                    Some(r) => return Self::numbers(Elems::$variant(r.iter()), r, ctx),
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
            ctx,
        }
    }

    pub(super) fn remaining(&self) -> usize {
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
    pub(super) fn element_error(&self, e: Error, index: usize, node: Node<'de, 't>) -> Error {
        // An element that cannot tell its offset takes the list's, which
        // the list's container adds (`Error::at` keeps the first offset set).
        let off = if self.stride != 0 {
            Some(self.first + index * self.stride)
        } else {
            node.offset(self.ctx)
        };
        match off {
            Some(off) => e.at(off),
            None => e,
        }
        .in_index(index)
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
