//! A single borrowed tag of any type.

use std::fmt;

use super::{NbtCompound, NbtList};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;
use crate::simd;
use crate::tag_id::*;
use crate::tape::{Tape, TapeValue};

/// A tag inside a borrowed document. Use [`id`](Self::id) or the typed getters,
/// which return `None` when the tag has another type.
#[derive(Clone, Copy)]
pub struct NbtTag<'a: 'tape, 'tape> {
    tape: &'tape Tape<'a>,
    value: TapeValue,
}

macro_rules! fixed_getters {
    ($( $(#[$doc:meta])* $name:ident, $id:expr, $t:ty; )*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self) -> Option<$t> {
            if self.value.id != $id {
                return None;
            }
            let off = self.value.payload;
            const N: usize = std::mem::size_of::<$t>();
            let bytes: [u8; N] = self.tape.bytes(off, off + N).try_into().unwrap();
            Some(<$t>::from_be_bytes(bytes))
        }
    )*};
}

impl<'a: 'tape, 'tape> NbtTag<'a, 'tape> {
    #[inline(always)]
    pub(crate) fn new(tape: &'tape Tape<'a>, value: TapeValue) -> Self {
        Self { tape, value }
    }

    /// The tag id (see [`crate::tag_id`]).
    #[inline]
    pub fn id(&self) -> u8 {
        self.value.id
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

    /// The array's bytes (after its i32 length) if this is an array of `id`.
    #[inline]
    fn array(&self, id: u8, size: usize) -> Option<&'a [u8]> {
        if self.value.id != id {
            return None;
        }
        let off = self.value.payload;
        let len = self.tape.u32_at(off) as usize;
        Some(self.tape.bytes(off + 4, off + 4 + len * size))
    }

    /// The bytes if this is a ByteArray, borrowed from the input.
    #[inline]
    pub fn byte_array(&self) -> Option<&'a [u8]> {
        self.array(BYTE_ARRAY, 1)
    }

    /// The string if this is a String, borrowed from the input (not yet decoded:
    /// call [`Mutf8Str::to_str`] or [`Mutf8Str::try_to_str`]).
    #[inline]
    pub fn string(&self) -> Option<&'a Mutf8Str> {
        if self.value.id != STRING {
            return None;
        }
        Some(Mutf8Str::from_slice(self.tape.str_at(self.value.payload)))
    }

    /// The list if this is a List.
    #[inline]
    pub fn list(&self) -> Option<NbtList<'a, 'tape>> {
        (self.value.id == LIST).then(|| NbtList::new(self.tape, self.value))
    }

    /// The compound if this is a Compound.
    #[inline]
    pub fn compound(&self) -> Option<NbtCompound<'a, 'tape>> {
        (self.value.id == COMPOUND).then_some(NbtCompound {
            tape: self.tape,
            start: self.value.start,
            end: self.value.end,
        })
    }

    /// The values if this is an IntArray, converted to native order (SIMD byte swap).
    #[inline]
    pub fn int_array(&self) -> Option<Vec<i32>> {
        self.array(INT_ARRAY, 4).map(simd::from_be_bytes)
    }

    /// The values if this is a LongArray, converted to native order (SIMD byte swap).
    #[inline]
    pub fn long_array(&self) -> Option<Vec<i64>> {
        self.array(LONG_ARRAY, 8).map(simd::from_be_bytes)
    }

    /// A zero-copy big-endian view if this is an IntArray.
    #[inline]
    pub fn int_array_raw(&self) -> Option<RawList<'a, i32>> {
        self.array(INT_ARRAY, 4).map(RawList::new)
    }

    /// A zero-copy big-endian view if this is a LongArray.
    #[inline]
    pub fn long_array_raw(&self) -> Option<RawList<'a, i64>> {
        self.array(LONG_ARRAY, 8).map(RawList::new)
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtTag {
        crate::owned::from_borrow::tag(self.tape, self.value)
    }

    /// Appends this tag as an unnamed tag: its id, then its payload (what
    /// [`super::read_tag`] reads), as [`crate::owned::NbtTag::write`] does.
    pub fn write(&self, data: &mut Vec<u8>) {
        data.push(self.id());
        self.write_payload(data);
    }

    /// Appends this tag's payload only (no id, no name).
    pub fn write_payload(&self, data: &mut Vec<u8>) {
        super::write::value_payload(self.tape, self.value, data);
    }
}

impl fmt::Debug for NbtTag<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_owned(), f)
    }
}

/// Compares values by type and encoding (see [`NbtCompound`]'s `PartialEq`).
impl PartialEq for NbtTag<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        self.id() == other.id() && a == b
    }
}
