//! A single tag of a document, of any type.

use std::fmt;

use super::node::Node;
use super::{Document, NbtCompound, NbtList};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;
use crate::simd;
use crate::tag_id::*;

/// A tag inside a [`Document`]. Use [`id`](Self::id) or the typed getters,
/// which return `None` when the tag has another type. Strings and arrays are
/// views of the document's bytes.
#[derive(Clone, Copy)]
pub struct NbtTag<'d> {
    pub(crate) doc: &'d Document,
    pub(crate) node: &'d Node,
}

macro_rules! fixed_getters {
    ($( $(#[$doc:meta])* $name:ident, $id:expr, $t:ty; )*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self) -> Option<$t> {
            if self.node.id != $id {
                return None;
            }
            const N: usize = std::mem::size_of::<$t>();
            Some(<$t>::from_be_bytes(self.doc.be_bytes::<N>(self.node.a as usize)))
        }
    )*};
}

impl<'d> NbtTag<'d> {
    #[inline(always)]
    pub(crate) fn new(doc: &'d Document, node: &'d Node) -> Self {
        Self { doc, node }
    }

    /// The tag id (see [`crate::tag_id`]).
    #[inline]
    pub fn id(&self) -> u8 {
        self.node.id
    }

    fixed_getters! {
        /// The value if this is a Byte.
        byte, BYTE, i8;
        /// The value if this is a Short.
        short, SHORT, i16;
        /// The value if this is an Int.
        int, INT, i32;
        /// The value if this is a Long.
        long, LONG, i64;
        /// The value if this is a Float.
        float, FLOAT, f32;
        /// The value if this is a Double.
        double, DOUBLE, f64;
    }

    /// The array's elements' bytes if this is an array of `id`.
    #[inline]
    fn array(&self, id: u8, size: usize) -> Option<&'d [u8]> {
        if self.node.id != id {
            return None;
        }
        Some(array_at(self.doc, self.node.a as usize, size))
    }

    /// The bytes if this is a ByteArray.
    #[inline]
    pub fn byte_array(&self) -> Option<&'d [u8]> {
        self.array(BYTE_ARRAY, 1)
    }

    /// The string if this is a String (not yet decoded: call
    /// [`Mutf8Str::to_str`] or [`Mutf8Str::try_to_str`]).
    #[inline]
    pub fn string(&self) -> Option<&'d Mutf8Str> {
        if self.node.id != STRING {
            return None;
        }
        Some(Mutf8Str::from_slice(self.doc.str_at(self.node.a as usize)))
    }

    /// The list if this is a List.
    #[inline]
    pub fn list(&self) -> Option<NbtList<'d>> {
        (self.node.id == LIST).then_some(NbtList::new(self.doc, self.node))
    }

    /// The compound if this is a Compound.
    #[inline]
    pub fn compound(&self) -> Option<NbtCompound<'d>> {
        (self.node.id == COMPOUND).then(|| NbtCompound::new(self.doc, self.node))
    }

    /// The values if this is an IntArray, converted to native order.
    #[inline]
    pub fn int_array(&self) -> Option<Vec<i32>> {
        Some(self.doc.numbers(self.array(INT_ARRAY, 4)?))
    }

    /// The values if this is a LongArray, converted to native order.
    #[inline]
    pub fn long_array(&self) -> Option<Vec<i64>> {
        Some(self.doc.numbers(self.array(LONG_ARRAY, 8)?))
    }

    /// A zero-copy big-endian view if this is an IntArray (`None` in a
    /// little-endian document, whose bytes are not big-endian: use
    /// [`int_array`](Self::int_array)).
    #[inline]
    pub fn int_array_raw(&self) -> Option<RawList<'d, i32>> {
        self.raw(INT_ARRAY, 4)
    }

    /// A zero-copy big-endian view if this is a LongArray (`None` in a
    /// little-endian document: use [`long_array`](Self::long_array)).
    #[inline]
    pub fn long_array_raw(&self) -> Option<RawList<'d, i64>> {
        self.raw(LONG_ARRAY, 8)
    }

    #[inline]
    fn raw<T: simd::BeNumber>(&self, id: u8, size: usize) -> Option<RawList<'d, T>> {
        if self.doc.le() {
            return None;
        }
        self.array(id, size).map(RawList::new)
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtTag {
        let mut bytes = Vec::new();
        self.write_payload(&mut bytes);
        #[cfg(feature = "bedrock")]
        if self.doc.le() {
            bytes = super::bedrock::be_payload(self.node.id, &bytes);
        }
        super::write::owned_value(&bytes, self.node.id)
    }

    /// Appends this tag as an unnamed tag: its id, then its payload (in the
    /// document's stored byte order).
    pub fn write(&self, out: &mut Vec<u8>) {
        out.push(self.node.id);
        self.write_payload(out);
    }

    /// Appends this tag's payload only (no id, no name), in the document's
    /// stored byte order.
    pub fn write_payload(&self, out: &mut Vec<u8>) {
        super::write::payload(self.doc, self.node, out);
    }
}

/// The elements of the array whose payload (i32 length, elements of `size`
/// bytes) is at `off`.
#[inline(always)]
pub(crate) fn array_at(doc: &Document, off: usize, size: usize) -> &[u8] {
    let len = doc.u32_at(off) as usize;
    &doc.bytes[off + 4..off + 4 + len * size]
}

impl fmt::Debug for NbtTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_owned(), f)
    }
}

/// Compares values by type and encoding (floats by bits).
impl PartialEq for NbtTag<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        a == b
    }
}
