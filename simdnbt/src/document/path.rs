//! `simdnbt::path` over a document: the values a path selects, as views of
//! the document ([`DocValue`]), and the [`View`] the path evaluator walks
//! (the evaluator itself is the one every model shares, `path/eval.rs`).

use super::list::number_at;
use super::node::is_flat;
use super::{Document, NbtCompound, NbtList, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::path::NbtPath;
use crate::path::eval::select;
use crate::path::view::View;
use crate::raw_list::RawList;
use crate::{Number, owned, tag_id};

/// A value a path selects in a [`Document`]: the counterpart of
/// [`crate::path::Value`] and [`crate::path::BorrowValue`].
///
/// ```
/// use simdnbt::document::{DocValue, Document};
/// use simdnbt::path::NbtPath;
///
/// let root = simdnbt::snbt::compound_from_str("{a: {b: 7}, l: [I; 1, 2]}").unwrap();
/// let doc = Document::from_owned(&root.into()).unwrap();
/// let root = doc.as_compound().unwrap();
/// let b = NbtPath::parse("a.b").unwrap().get_all_document(root);
/// assert_eq!(b[0].to_owned().int(), Some(7));
/// let l1 = NbtPath::parse("l[1]").unwrap().get_all_document(root);
/// assert!(matches!(l1[..], [DocValue::Number(simdnbt::Number::Int(2))]));
/// ```
#[derive(Debug, Clone, Copy)]
pub enum DocValue<'d> {
    /// A value stored under a compound key.
    Tag(NbtTag<'d>),
    /// The root, or an element of a list of compounds.
    Compound(NbtCompound<'d>),
    /// An element of a list of lists.
    List(NbtList<'d>),
    /// An element of a list of numbers or of an array.
    Number(Number),
    /// An element of a list of ByteArrays.
    ByteArray(&'d [u8]),
    /// An element of a list of Strings.
    String(&'d Mutf8Str),
    /// An element of a list of IntArrays (big-endian view).
    IntArray(RawList<'d, i32>),
    /// An element of a list of LongArrays (big-endian view).
    LongArray(RawList<'d, i64>),
}

impl<'d> DocValue<'d> {
    /// The same value, with `Tag` replaced by the variant of its type.
    fn typed(self) -> Self {
        let DocValue::Tag(tag) = self else {
            return self;
        };
        let node = tag.node;
        if let Some(n) = number_at_node(tag) {
            return DocValue::Number(n);
        }
        match node.id {
            tag_id::BYTE_ARRAY => tag.byte_array().map(DocValue::ByteArray),
            tag_id::STRING => tag.string().map(DocValue::String),
            tag_id::LIST => tag.list().map(DocValue::List),
            tag_id::COMPOUND => tag.compound().map(DocValue::Compound),
            tag_id::INT_ARRAY => tag.int_array_raw().map(DocValue::IntArray),
            _ => tag.long_array_raw().map(DocValue::LongArray),
        }
        .unwrap_or(self)
    }

    /// The tag type (a [`crate::tag_id`]).
    pub fn id(&self) -> u8 {
        match self {
            DocValue::Tag(tag) => tag.id(),
            DocValue::Compound(_) => tag_id::COMPOUND,
            DocValue::List(_) => tag_id::LIST,
            DocValue::Number(n) => n.id(),
            DocValue::ByteArray(_) => tag_id::BYTE_ARRAY,
            DocValue::String(_) => tag_id::STRING,
            DocValue::IntArray(_) => tag_id::INT_ARRAY,
            DocValue::LongArray(_) => tag_id::LONG_ARRAY,
        }
    }

    /// Converts to an owned tag.
    pub fn to_owned(&self) -> owned::NbtTag {
        use owned::NbtTag as T;
        match *self {
            DocValue::Tag(tag) => tag.to_owned(),
            DocValue::Compound(c) => T::Compound(c.to_owned()),
            DocValue::List(l) => T::List(l.to_owned()),
            DocValue::Number(n) => T::from(n),
            DocValue::ByteArray(v) => T::ByteArray(v.to_vec()),
            DocValue::String(v) => T::String(v.to_owned()),
            DocValue::IntArray(v) => T::IntArray(v.to_vec()),
            DocValue::LongArray(v) => T::LongArray(v.to_vec()),
        }
    }
}

/// The number a tag holds, if it is one.
fn number_at_node(tag: NbtTag<'_>) -> Option<Number> {
    let id = tag.node.id;
    let size = tag_id::layout(id).fixed as usize;
    if size == 0 {
        return None;
    }
    let at = tag.node.a as usize;
    number_at(id, &tag.doc.bytes[at..at + size], tag.doc.le())
}

impl<'d> View for DocValue<'d> {
    fn child(self, key: &str) -> Option<Self> {
        match self.typed() {
            DocValue::Compound(c) => c.get(key).map(DocValue::Tag),
            _ => None,
        }
    }

    fn len(self) -> Option<usize> {
        match self.typed() {
            DocValue::List(l) => Some(l.len()),
            DocValue::ByteArray(a) => Some(a.len()),
            DocValue::IntArray(a) => Some(a.len()),
            DocValue::LongArray(a) => Some(a.len()),
            DocValue::Tag(t) => le_array(t).map(|(_, n)| n),
            _ => None,
        }
    }

    fn element(self, i: usize) -> Option<Self> {
        Some(match self.typed() {
            DocValue::ByteArray(a) => DocValue::Number(Number::Byte(*a.get(i)? as i8)),
            DocValue::IntArray(a) => DocValue::Number(Number::Int(a.get(i)?)),
            DocValue::LongArray(a) => DocValue::Number(Number::Long(a.get(i)?)),
            DocValue::List(l) if is_flat(l.id()) => match l.get(i)? {
                super::ListElement::Number(n) => DocValue::Number(n),
                super::ListElement::Tag(t) => DocValue::Tag(t),
            },
            DocValue::List(l) => element(l, i)?,
            DocValue::Tag(t) => {
                let (id, n) = le_array(t)?;
                if i >= n {
                    return None;
                }
                let at = t.node.a as usize + 4;
                DocValue::Number(if id == tag_id::INT_ARRAY {
                    Number::Int(i32::from_be_bytes(t.doc.be_bytes(at + 4 * i)))
                } else {
                    Number::Long(i64::from_be_bytes(t.doc.be_bytes(at + 8 * i)))
                })
            }
            _ => return None,
        })
    }

    fn elements(self, out: &mut Vec<Self>) {
        let n = self.len().unwrap_or(0);
        out.extend((0..n).filter_map(|i| self.element(i)));
    }

    type Key = &'d [u8];

    fn for_each_entry(self, mut f: impl FnMut(Self::Key, Self)) {
        if let DocValue::Compound(c) = self.typed() {
            for (k, v) in c.iter() {
                f(k.as_bytes(), DocValue::Tag(v));
            }
        }
    }

    fn node_id(self) -> Option<usize> {
        match self.typed() {
            DocValue::Compound(c) => Some(std::ptr::from_ref(c.node) as usize),
            DocValue::List(l) => Some(std::ptr::from_ref(l.node) as usize),
            _ => None,
        }
    }
}

/// What filters compare (feature `snbt`).
#[cfg(feature = "snbt")]
impl<'d> crate::path::filter::FilterView for DocValue<'d> {
    fn id(self) -> u8 {
        DocValue::id(&self)
    }

    fn child_bytes(self, key: &[u8]) -> Option<Self> {
        let DocValue::Compound(c) = self.typed() else {
            return None;
        };
        let (_, v) = c
            .iter()
            .filter(|(k, _)| crate::mutf8::key_matches(k.as_bytes(), key))
            .last()?;
        Some(DocValue::Tag(v))
    }

    fn unwrapped(self) -> Self {
        if let DocValue::Compound(c) = self.typed() {
            let mut entries = c.iter();
            if let (Some((key, value)), None) = (entries.next(), entries.next()) {
                if key.is_empty() {
                    return DocValue::Tag(value);
                }
            }
        }
        self
    }

    fn leaf(&self) -> crate::path::filter::Leaf<'_> {
        match self.typed() {
            DocValue::Number(n) => crate::path::filter::Leaf::Number(n),
            DocValue::ByteArray(v) => crate::path::filter::Leaf::ByteArray(v),
            DocValue::String(v) => crate::path::filter::Leaf::String(v.as_bytes()),
            DocValue::IntArray(v) => {
                crate::path::filter::Leaf::IntArray(crate::path::filter::Array::BigEndian(v))
            }
            DocValue::LongArray(v) => {
                crate::path::filter::Leaf::LongArray(crate::path::filter::Array::BigEndian(v))
            }
            _ => crate::path::filter::Leaf::Container,
        }
    }
}

/// An IntArray or LongArray of a little-endian document (which has no
/// big-endian views, so [`DocValue::typed`] leaves it a `Tag`): its type and
/// length.
fn le_array(t: NbtTag<'_>) -> Option<(u8, usize)> {
    let id = t.node.id;
    (t.doc.le() && matches!(id, tag_id::INT_ARRAY | tag_id::LONG_ARRAY))
        .then(|| (id, t.doc.u32_at(t.node.a as usize) as usize))
}

/// Element `i` of a list whose elements are nodes, as the variant of its type.
fn element(l: NbtList<'_>, i: usize) -> Option<DocValue<'_>> {
    Some(match l.id() {
        tag_id::BYTE_ARRAY => DocValue::ByteArray(l.byte_arrays()?.get(i)?),
        tag_id::STRING => DocValue::String(l.strings()?.get(i)?),
        tag_id::LIST => DocValue::List(l.lists()?.get(i)?),
        tag_id::COMPOUND => DocValue::Compound(l.compounds()?.get(i)?),
        tag_id::INT_ARRAY | tag_id::LONG_ARRAY if l.doc.le() => match l.get(i)? {
            super::ListElement::Tag(t) => DocValue::Tag(t),
            super::ListElement::Number(_) => return None,
        },
        tag_id::INT_ARRAY => DocValue::IntArray(l.int_arrays()?.get(i)?),
        tag_id::LONG_ARRAY => DocValue::LongArray(l.long_arrays()?.get(i)?),
        _ => return None,
    })
}

impl NbtPath {
    /// Every value the path selects in a [`Document`]: the same values, in
    /// the same order, as [`get_all`](Self::get_all) on the owned form.
    pub fn get_all_document<'d>(&self, root: NbtCompound<'d>) -> Vec<DocValue<'d>> {
        select(self, DocValue::Compound(root), false)
            .into_iter()
            .map(|(v, _)| v)
            .collect()
    }

    /// Each value [`get_all_document`](Self::get_all_document) returns, with
    /// the concrete path (keys and indices only) that reaches it.
    pub fn resolve_all_document<'d>(&self, root: NbtCompound<'d>) -> Vec<(NbtPath, DocValue<'d>)> {
        select(self, DocValue::Compound(root), true)
            .into_iter()
            .map(|(v, p)| (p.unwrap_or_default(), v))
            .collect()
    }
}

/// The root compound of a document, as the path evaluator's root.
impl Document {
    /// Every value `path` selects in the root compound (none when the root
    /// is not a compound).
    pub fn select(&self, path: &NbtPath) -> Vec<DocValue<'_>> {
        match self.as_compound() {
            Some(root) => path.get_all_document(root),
            None => Vec::new(),
        }
    }
}
