//! Lists of a document: numbers in the bytes, other elements as nodes.

use std::fmt;
use std::marker::PhantomData;
use std::slice;

use super::node::{Node, is_flat};
use super::tag::array_at;
use super::{Document, NbtCompound, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;
use crate::simd::BeNumber;
use crate::tag_id::*;

/// A list inside a [`Document`]. All elements have one type
/// ([`NbtList::id`]); take a typed view with [`ints`](Self::ints),
/// [`strings`](Self::strings), [`compounds`](Self::compounds) and so on,
/// which return `None` for the wrong type. Indexing is O(1) for every type.
#[derive(Clone, Copy)]
pub struct NbtList<'d> {
    pub(crate) doc: &'d Document,
    pub(crate) node: &'d Node,
}

impl<'d> NbtList<'d> {
    #[inline(always)]
    pub(crate) fn new(doc: &'d Document, node: &'d Node) -> Self {
        Self { doc, node }
    }

    /// The element tag id (End for a list written without a type).
    #[inline]
    // A list's `id` is its element type, as in the borrow views.
    #[allow(clippy::misnamed_getters)]
    pub fn id(&self) -> u8 {
        self.node.elem
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.node.b as usize
    }

    /// Whether there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.node.b == 0
    }

    /// Whether the element type is End (the list was written without a type).
    /// False for a typed list of length zero.
    pub fn empty(&self) -> bool {
        self.node.elem == END
    }

    /// The elements' bytes, for a list of numbers of type `id`.
    #[inline]
    fn numbers(&self, id: u8) -> Option<&'d [u8]> {
        if self.node.elem != id {
            return None;
        }
        let start = self.node.a as usize;
        let size = layout(id).fixed as usize;
        Some(&self.doc.bytes[start..start + self.len() * size])
    }

    #[inline]
    fn numbers_vec<T: BeNumber>(&self, id: u8) -> Option<Vec<T>> {
        Some(self.doc.numbers(self.numbers(id)?))
    }

    /// The elements as a zero-copy big-endian view (`None` in a
    /// little-endian document).
    #[inline]
    fn numbers_raw<T: BeNumber>(&self, id: u8) -> Option<RawList<'d, T>> {
        if self.doc.le() {
            return None;
        }
        self.numbers(id).map(RawList::new)
    }

    /// A list of Bytes.
    #[inline]
    pub fn bytes(&self) -> Option<&'d [i8]> {
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
    pub fn shorts_raw(&self) -> Option<RawList<'d, i16>> {
        self.numbers_raw(SHORT)
    }

    /// A list of Ints as a zero-copy big-endian view.
    #[inline]
    pub fn ints_raw(&self) -> Option<RawList<'d, i32>> {
        self.numbers_raw(INT)
    }

    /// A list of Longs as a zero-copy big-endian view.
    #[inline]
    pub fn longs_raw(&self) -> Option<RawList<'d, i64>> {
        self.numbers_raw(LONG)
    }

    /// A list of Floats as a zero-copy big-endian view.
    #[inline]
    pub fn floats_raw(&self) -> Option<RawList<'d, f32>> {
        self.numbers_raw(FLOAT)
    }

    /// A list of Doubles as a zero-copy big-endian view.
    #[inline]
    pub fn doubles_raw(&self) -> Option<RawList<'d, f64>> {
        self.numbers_raw(DOUBLE)
    }

    /// The element nodes, for a list of `id` (not numbers).
    #[inline]
    fn elements<T: Element<'d>>(&self, id: u8) -> Option<Elements<'d, T>> {
        if self.node.elem != id {
            return None;
        }
        Some(Elements {
            doc: self.doc,
            nodes: self.doc.children(self.node),
            _item: PhantomData,
        })
    }

    /// A list of ByteArrays, each borrowed.
    #[inline]
    pub fn byte_arrays(&self) -> Option<Elements<'d, &'d [u8]>> {
        self.elements(BYTE_ARRAY)
    }

    /// A list of Strings, each borrowed (not yet decoded).
    #[inline]
    pub fn strings(&self) -> Option<Elements<'d, &'d Mutf8Str>> {
        self.elements(STRING)
    }

    /// A list of IntArrays, each a zero-copy big-endian view (`None` in a
    /// little-endian document: index the list with [`get`](Self::get)).
    #[inline]
    pub fn int_arrays(&self) -> Option<Elements<'d, RawList<'d, i32>>> {
        if self.doc.le() {
            return None;
        }
        self.elements(INT_ARRAY)
    }

    /// A list of LongArrays, each a zero-copy big-endian view (`None` in a
    /// little-endian document).
    #[inline]
    pub fn long_arrays(&self) -> Option<Elements<'d, RawList<'d, i64>>> {
        if self.doc.le() {
            return None;
        }
        self.elements(LONG_ARRAY)
    }

    /// A list of Lists.
    #[inline]
    pub fn lists(&self) -> Option<NbtListList<'d>> {
        self.elements(LIST)
    }

    /// A list of Compounds.
    #[inline]
    pub fn compounds(&self) -> Option<NbtCompoundList<'d>> {
        self.elements(COMPOUND)
    }

    /// Element `i` as a tag, whatever the element type (numbers are read
    /// from the list's bytes).
    pub fn get(&self, i: usize) -> Option<ListElement<'d>> {
        if i >= self.len() {
            return None;
        }
        if is_flat(self.node.elem) {
            let size = layout(self.node.elem).fixed as usize;
            let at = self.node.a as usize + i * size;
            return number_at(
                self.node.elem,
                &self.doc.bytes[at..at + size],
                self.doc.le(),
            )
            .map(ListElement::Number);
        }
        let node = &self.doc.children(self.node)[i];
        Some(ListElement::Tag(NbtTag::new(self.doc, node)))
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtList {
        match NbtTag::new(self.doc, self.node).to_owned() {
            crate::owned::NbtTag::List(l) => l,
            _ => unreachable!("a list converts to a list"),
        }
    }

    /// Appends this list's payload (element id, length, elements).
    pub fn write(&self, out: &mut Vec<u8>) {
        super::write::payload(self.doc, self.node, out);
    }
}

/// The number of type `id` whose bytes are `b` (little-endian if `le`).
#[inline]
pub(crate) fn number_at(id: u8, b: &[u8], le: bool) -> Option<crate::Number> {
    use crate::Number as N;
    macro_rules! decode {
        ($t:ty) => {{
            let b = b.try_into().ok()?;
            if le {
                <$t>::from_le_bytes(b)
            } else {
                <$t>::from_be_bytes(b)
            }
        }};
    }
    Some(match id {
        BYTE => N::Byte(b[0] as i8),
        SHORT => N::Short(decode!(i16)),
        INT => N::Int(decode!(i32)),
        LONG => N::Long(decode!(i64)),
        FLOAT => N::Float(decode!(f32)),
        DOUBLE => N::Double(decode!(f64)),
        _ => return None,
    })
}

/// One element of a list, as [`NbtList::get`] finds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ListElement<'d> {
    /// An element of a list of numbers.
    Number(crate::Number),
    /// An element of any other list.
    Tag(NbtTag<'d>),
}

impl fmt::Debug for NbtList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_owned(), f)
    }
}

/// Compares values by encoding (floats by bits).
impl PartialEq for NbtList<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        a == b
    }
}

mod sealed {
    pub trait Sealed {}
}

/// What an element node of a list becomes in [`Elements`]: `&[u8]` (byte
/// arrays), `&Mutf8Str`, [`RawList`], [`NbtList`], [`NbtCompound`]. Sealed.
pub trait Element<'d>: sealed::Sealed + Sized {
    #[doc(hidden)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self;
}

impl sealed::Sealed for &[u8] {}
impl<'d> Element<'d> for &'d [u8] {
    #[inline(always)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self {
        array_at(doc, node.a as usize, 1)
    }
}

impl sealed::Sealed for &Mutf8Str {}
impl<'d> Element<'d> for &'d Mutf8Str {
    #[inline(always)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self {
        Mutf8Str::from_slice(doc.str_at(node.a as usize))
    }
}

impl<T: BeNumber> sealed::Sealed for RawList<'_, T> {}
impl<'d, T: BeNumber> Element<'d> for RawList<'d, T> {
    #[inline(always)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self {
        RawList::new(array_at(doc, node.a as usize, T::SIZE))
    }
}

impl sealed::Sealed for NbtList<'_> {}
impl<'d> Element<'d> for NbtList<'d> {
    #[inline(always)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self {
        NbtList::new(doc, node)
    }
}

impl sealed::Sealed for NbtCompound<'_> {}
impl<'d> Element<'d> for NbtCompound<'d> {
    #[inline(always)]
    fn from_node(doc: &'d Document, node: &'d Node) -> Self {
        NbtCompound::new(doc, node)
    }
}

/// The elements of a list of strings, arrays, lists or compounds, as `T`
/// (see [`Element`]): O(1) `len` and `get`.
pub struct Elements<'d, T> {
    doc: &'d Document,
    nodes: &'d [Node],
    _item: PhantomData<fn() -> T>,
}

/// A list of compounds (from [`NbtList::compounds`]).
pub type NbtCompoundList<'d> = Elements<'d, NbtCompound<'d>>;
/// A list of lists (from [`NbtList::lists`]).
pub type NbtListList<'d> = Elements<'d, NbtList<'d>>;

impl<T> Clone for Elements<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Elements<'_, T> {}

impl<'d, T: Element<'d>> Elements<'d, T> {
    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The element at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<T> {
        self.nodes.get(index).map(|n| T::from_node(self.doc, n))
    }

    /// The first element.
    pub fn first(&self) -> Option<T> {
        self.get(0)
    }

    /// The last element.
    pub fn last(&self) -> Option<T> {
        self.nodes.last().map(|n| T::from_node(self.doc, n))
    }

    /// The elements in order.
    #[inline]
    pub fn iter(&self) -> ElementsIter<'d, T> {
        ElementsIter {
            doc: self.doc,
            nodes: self.nodes.iter(),
            _item: PhantomData,
        }
    }
}

impl<'d, T: Element<'d>> IntoIterator for Elements<'d, T> {
    type Item = T;
    type IntoIter = ElementsIter<'d, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'d, T: Element<'d> + fmt::Debug> fmt::Debug for Elements<'d, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over [`Elements`], in order.
pub struct ElementsIter<'d, T> {
    doc: &'d Document,
    nodes: slice::Iter<'d, Node>,
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for ElementsIter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            doc: self.doc,
            nodes: self.nodes.clone(),
            _item: PhantomData,
        }
    }
}

impl<'d, T: Element<'d>> Iterator for ElementsIter<'d, T> {
    type Item = T;

    #[inline(always)]
    fn next(&mut self) -> Option<T> {
        self.nodes.next().map(|n| T::from_node(self.doc, n))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.nodes.size_hint()
    }
}

impl<'d, T: Element<'d>> DoubleEndedIterator for ElementsIter<'d, T> {
    fn next_back(&mut self) -> Option<T> {
        self.nodes.next_back().map(|n| T::from_node(self.doc, n))
    }
}

impl<'d, T: Element<'d>> ExactSizeIterator for ElementsIter<'d, T> {}
