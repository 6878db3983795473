//! Borrowed lists: typed views of one element type.

use std::fmt;

use super::NbtCompound;
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;
use crate::simd::{self, BeNumber};
use crate::tag_id::*;
use crate::tape::{Tape, TapeValue};

/// A list inside a borrowed document. All elements have one type ([`NbtList::id`]);
/// take a typed view with [`ints`](Self::ints), [`strings`](Self::strings),
/// [`compounds`](Self::compounds) and so on, which return `None` for the wrong type.
#[derive(Clone, Copy)]
pub struct NbtList<'a: 'tape, 'tape> {
    pub(crate) tape: &'tape Tape<'a>,
    pub(crate) value: TapeValue,
}

impl<'a: 'tape, 'tape> NbtList<'a, 'tape> {
    #[inline(always)]
    pub(crate) fn new(tape: &'tape Tape<'a>, value: TapeValue) -> Self {
        Self { tape, value }
    }

    /// The element tag id (0 = End for a list declared without a type).
    #[inline]
    pub fn id(&self) -> u8 {
        self.tape.byte(self.value.payload)
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.tape.u32_at(self.value.payload + 1) as usize
    }

    /// Whether there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the element type is End (the list was written without a type).
    /// False for a typed list of length zero.
    pub fn empty(&self) -> bool {
        self.id() == END
    }

    /// The elements' bytes (for lists of fixed-size numbers), or `None` for
    /// another element type.
    #[inline]
    fn numbers(&self, id: u8) -> Option<&'a [u8]> {
        if self.id() != id {
            return None;
        }
        let start = self.value.payload + 5;
        let size = layout(id).fixed as usize;
        Some(self.tape.bytes(start, start + self.len() * size))
    }

    #[inline]
    fn numbers_vec<T: BeNumber>(&self, id: u8) -> Option<Vec<T>> {
        self.numbers(id).map(simd::from_be_bytes)
    }

    /// A list of Bytes, borrowed.
    #[inline]
    pub fn bytes(&self) -> Option<&'a [i8]> {
        let bytes = self.numbers(BYTE)?;
        // SAFETY: i8 and u8 have the same size, alignment and validity.
        Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i8>(), bytes.len()) })
    }

    /// A list of Shorts, converted to native order.
    #[inline]
    pub fn shorts(&self) -> Option<Vec<i16>> {
        self.numbers_vec(SHORT)
    }

    /// A list of Ints, converted to native order.
    #[inline]
    pub fn ints(&self) -> Option<Vec<i32>> {
        self.numbers_vec(INT)
    }

    /// A list of Longs, converted to native order.
    #[inline]
    pub fn longs(&self) -> Option<Vec<i64>> {
        self.numbers_vec(LONG)
    }

    /// A list of Floats, converted to native order.
    #[inline]
    pub fn floats(&self) -> Option<Vec<f32>> {
        self.numbers_vec(FLOAT)
    }

    /// A list of Doubles, converted to native order.
    #[inline]
    pub fn doubles(&self) -> Option<Vec<f64>> {
        self.numbers_vec(DOUBLE)
    }

    /// A list of Shorts as a zero-copy big-endian view.
    #[inline]
    pub fn shorts_raw(&self) -> Option<RawList<'a, i16>> {
        self.numbers(SHORT).map(RawList::new)
    }

    /// A list of Ints as a zero-copy big-endian view.
    #[inline]
    pub fn ints_raw(&self) -> Option<RawList<'a, i32>> {
        self.numbers(INT).map(RawList::new)
    }

    /// A list of Longs as a zero-copy big-endian view.
    #[inline]
    pub fn longs_raw(&self) -> Option<RawList<'a, i64>> {
        self.numbers(LONG).map(RawList::new)
    }

    /// A list of Floats as a zero-copy big-endian view.
    #[inline]
    pub fn floats_raw(&self) -> Option<RawList<'a, f32>> {
        self.numbers(FLOAT).map(RawList::new)
    }

    /// A list of Doubles as a zero-copy big-endian view.
    #[inline]
    pub fn doubles_raw(&self) -> Option<RawList<'a, f64>> {
        self.numbers(DOUBLE).map(RawList::new)
    }

    /// The side-table slices of a list of strings or arrays (the table is
    /// built on the first call for a non-empty list).
    #[inline]
    fn side(&self, id: u8) -> Option<&'tape [&'a [u8]]> {
        if self.id() != id {
            return None;
        }
        let len = self.len();
        if len == 0 {
            return Some(&[]);
        }
        let start = self.value.aux as usize;
        Some(&self.tape.side()[start..start + len])
    }

    /// A list of ByteArrays, each borrowed from the input.
    #[inline]
    pub fn byte_arrays(&self) -> Option<&'tape [&'a [u8]]> {
        self.side(BYTE_ARRAY)
    }

    /// A list of Strings, each borrowed from the input (not yet decoded).
    #[inline]
    pub fn strings(&self) -> Option<&'tape [&'a Mutf8Str]> {
        let slices = self.side(STRING)?;
        // SAFETY: Mutf8Str is repr(transparent) over [u8], so &Mutf8Str and &[u8]
        // have the same layout, and so do slices of them.
        Some(unsafe { &*(slices as *const [&[u8]] as *const [&Mutf8Str]) })
    }

    /// A list of IntArrays, each a zero-copy big-endian view.
    #[inline]
    pub fn int_arrays(&self) -> Option<&'tape [RawList<'a, i32>]> {
        let slices = self.side(INT_ARRAY)?;
        // SAFETY: RawList is repr(transparent) over &[u8] (asserted in raw_list),
        // and each slice's length is a multiple of 4 (checked while parsing).
        Some(unsafe { &*(slices as *const [&[u8]] as *const [RawList<'a, i32>]) })
    }

    /// A list of LongArrays, each a zero-copy big-endian view.
    #[inline]
    pub fn long_arrays(&self) -> Option<&'tape [RawList<'a, i64>]> {
        let slices = self.side(LONG_ARRAY)?;
        // SAFETY: as in `int_arrays`; lengths are multiples of 8.
        Some(unsafe { &*(slices as *const [&[u8]] as *const [RawList<'a, i64>]) })
    }

    /// A list of Lists.
    #[inline]
    pub fn lists(&self) -> Option<NbtListList<'a, 'tape>> {
        (self.id() == LIST).then(|| NbtListList {
            tape: Some(self.tape),
            start: self.value.start,
            end: self.value.end,
            len: self.len(),
        })
    }

    /// A list of Compounds.
    #[inline]
    pub fn compounds(&self) -> Option<NbtCompoundList<'a, 'tape>> {
        (self.id() == COMPOUND).then(|| NbtCompoundList {
            tape: Some(self.tape),
            start: self.value.start,
            end: self.value.end,
            len: self.len(),
        })
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtList {
        crate::owned::from_borrow::list(self.tape, self.value)
    }

    /// Appends this list's payload (element id, length, elements).
    pub fn write(&self, data: &mut Vec<u8>) {
        super::write::list_payload(self.tape, self.value, data);
    }
}

impl fmt::Debug for NbtList<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_owned(), f)
    }
}

/// Compares values (by encoding, as [`NbtCompound`]'s `PartialEq` does).
impl PartialEq for NbtList<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        a == b
    }
}

macro_rules! container_list {
    ($(#[$doc:meta])* $list:ident, $iter:ident, $item:ident, $make:expr) => {
        $(#[$doc])*
        ///
        /// `Default` is the empty list.
        #[derive(Clone, Copy, Default)]
        pub struct $list<'a: 'tape, 'tape> {
            /// `None` only for the `Default` (empty) list.
            tape: Option<&'tape Tape<'a>>,
            start: u32,
            end: u32,
            len: usize,
        }

        impl<'a: 'tape, 'tape> $list<'a, 'tape> {
            /// The number of elements.
            pub fn len(&self) -> usize {
                self.len
            }

            /// The number of elements as upstream simdnbt's `u32` (exact here;
            /// upstream may overestimate). Lengths are at most `i32::MAX`.
            pub fn approx_len(&self) -> u32 {
                self.len as u32
            }

            /// Whether there are no elements.
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// The element at `index` (a scan from the first element).
            pub fn get(&self, index: usize) -> Option<$item<'a, 'tape>> {
                self.iter().nth(index)
            }

            /// The first element.
            pub fn first(&self) -> Option<$item<'a, 'tape>> {
                self.iter().next()
            }

            /// The last element.
            pub fn last(&self) -> Option<$item<'a, 'tape>> {
                self.iter().last()
            }

            /// The elements in order.
            #[inline]
            pub fn iter(&self) -> $iter<'a, 'tape> {
                $iter { tape: self.tape, next: self.start, end: self.end, remaining: self.len }
            }
        }

        impl<'a: 'tape, 'tape> IntoIterator for $list<'a, 'tape> {
            type Item = $item<'a, 'tape>;
            type IntoIter = $iter<'a, 'tape>;
            fn into_iter(self) -> Self::IntoIter {
                self.iter()
            }
        }

        impl fmt::Debug for $list<'_, '_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl PartialEq for $list<'_, '_> {
            fn eq(&self, other: &Self) -> bool {
                self.len == other.len && self.iter().zip(other.iter()).all(|(a, b)| a == b)
            }
        }

        /// Iterator over the elements, in order.
        #[derive(Clone, Default)]
        pub struct $iter<'a: 'tape, 'tape> {
            tape: Option<&'tape Tape<'a>>,
            next: u32,
            end: u32,
            remaining: usize,
        }

        impl<'a: 'tape, 'tape> $iter<'a, 'tape> {
            /// The number of elements left.
            pub fn len(&self) -> usize {
                self.remaining
            }

            /// Whether no elements are left.
            pub fn is_empty(&self) -> bool {
                self.remaining == 0
            }

            /// The number of elements left as upstream simdnbt's `u32` (exact here).
            pub fn approx_len(&self) -> u32 {
                self.remaining as u32
            }
        }

        impl<'a: 'tape, 'tape> Iterator for $iter<'a, 'tape> {
            type Item = $item<'a, 'tape>;

            #[inline(always)]
            fn next(&mut self) -> Option<Self::Item> {
                let tape = self.tape?;
                if self.next >= self.end {
                    return None;
                }
                let (value, next) = tape.unnamed(self.next);
                self.next = next;
                self.remaining -= 1;
                let make: fn(&'tape Tape<'a>, TapeValue) -> $item<'a, 'tape> = $make;
                Some(make(tape, value))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.remaining, Some(self.remaining))
            }
        }

        impl ExactSizeIterator for $iter<'_, '_> {}
    };
}

container_list!(
    /// A list of compounds (from [`NbtList::compounds`]).
    NbtCompoundList,
    NbtCompoundListIter,
    NbtCompound,
    |tape, value| NbtCompound { tape, start: value.start, end: value.end }
);

container_list!(
    /// A list of lists (from [`NbtList::lists`]).
    NbtListList,
    NbtListListIter,
    NbtList,
    NbtList::new
);
