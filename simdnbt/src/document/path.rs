//! `simdnbt::path` over a document: the values a path selects, as views of
//! the document ([`DocValue`]), the [`View`] the path evaluator walks (the
//! evaluator itself is the one every model shares, `path/eval.rs`), and
//! `set` and `remove` by path (the places to edit are found as for the owned
//! tree, `path/edit.rs`, and edited through the document's handles).

use super::list::number_at;
use super::node::is_flat;
use super::{
    ArrayElement, ArrayMut, Document, EditError, NbtCompound, NbtCompoundMut, NbtList, NbtListMut,
    NbtTag,
};
use crate::mutf8::Mutf8Str;
use crate::path::edit::{EditView, Slot, Target, set_targets, targets};
use crate::path::eval::select;
use crate::path::root::sealed::{Sealed, Token};
use crate::path::view::View;
use crate::path::{NbtPath, PathError, PathErrorKind, PathRoot, PathRootMut, PathSegment};
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
/// let b = NbtPath::parse("a.b").unwrap().get_all(root);
/// assert_eq!(b[0].to_owned().int(), Some(7));
/// let l1 = NbtPath::parse("l[1]").unwrap().get_all(root);
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

impl Sealed for NbtCompound<'_> {}
impl<'d> PathRoot for NbtCompound<'d> {
    type Value = DocValue<'d>;

    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        _: Token,
    ) -> Vec<(DocValue<'d>, Option<NbtPath>)> {
        select(path, DocValue::Compound(self), with_paths)
    }
}

/// A root that is not a compound selects nothing.
impl Sealed for &Document {}
impl<'d> PathRoot for &'d Document {
    type Value = DocValue<'d>;

    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        t: Token,
    ) -> Vec<(DocValue<'d>, Option<NbtPath>)> {
        match self.as_compound() {
            Some(root) => root.select_path(path, with_paths, t),
            None => Vec::new(),
        }
    }
}

impl NbtPath {
    /// [`get_all`](Self::get_all) on a document's compound.
    #[deprecated(
        since = "0.12.0",
        note = "use `get_all`, which takes every model's root"
    )]
    pub fn get_all_document<'d>(&self, root: NbtCompound<'d>) -> Vec<DocValue<'d>> {
        self.get_all(root)
    }

    /// [`resolve_all`](Self::resolve_all) on a document's compound.
    #[deprecated(
        since = "0.12.0",
        note = "use `resolve_all`, which takes every model's root"
    )]
    pub fn resolve_all_document<'d>(&self, root: NbtCompound<'d>) -> Vec<(NbtPath, DocValue<'d>)> {
        self.resolve_all(root)
    }
}

impl EditView for DocValue<'_> {
    fn is_compound(self) -> bool {
        matches!(self.typed(), DocValue::Compound(_))
    }

    fn element_type(self) -> Option<u8> {
        match self.typed() {
            DocValue::List(l) if l.id() == tag_id::END && l.is_empty() => None,
            DocValue::List(l) => Some(l.id()),
            DocValue::ByteArray(_) => Some(tag_id::BYTE),
            DocValue::IntArray(_) => Some(tag_id::INT),
            DocValue::LongArray(_) => Some(tag_id::LONG),
            _ => None,
        }
    }
}

/// A parent a path edit changes, reached through the document's handles.
enum ParentMut<'d> {
    Compound(NbtCompoundMut<'d>),
    List(NbtListMut<'d>),
    /// An array: the container holding it, where it is there, and its type.
    Array(Holder<'d>, Step<'d>, u8),
}

/// A container handle.
enum Holder<'d> {
    Compound(NbtCompoundMut<'d>),
    List(NbtListMut<'d>),
}

/// One concrete step: a key or an index.
#[derive(Clone, Copy)]
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

/// The concrete step `segment` is (a resolved path has only these).
fn step(segment: &PathSegment) -> Option<Step<'_>> {
    match segment {
        PathSegment::Key(k) => Some(Step::Key(k)),
        PathSegment::Index(i) => Some(Step::Index(*i)),
        _ => None,
    }
}

impl<'d> Holder<'d> {
    /// The type of the child at `step`.
    fn child_id(&self, step: Step<'_>) -> Option<u8> {
        match (self, step) {
            (Holder::Compound(c), Step::Key(k)) => Some(c.as_compound().get(k)?.id()),
            (Holder::List(l), Step::Index(i)) if i < l.len() => Some(l.id()),
            _ => None,
        }
    }

    /// The container one concrete step down.
    fn into_child(self, step: Step<'_>, id: u8) -> Option<Holder<'d>> {
        Some(match (self, step, id) {
            (Holder::Compound(c), Step::Key(k), tag_id::COMPOUND) => {
                Holder::Compound(c.into_compound_mut(k)?)
            }
            (Holder::Compound(c), Step::Key(k), tag_id::LIST) => Holder::List(c.into_list_mut(k)?),
            (Holder::List(l), Step::Index(i), tag_id::COMPOUND) => {
                Holder::Compound(l.into_compound_mut(i)?)
            }
            (Holder::List(l), Step::Index(i), tag_id::LIST) => Holder::List(l.into_list_mut(i)?),
            _ => return None,
        })
    }
}

/// Writes `value` at `slot` of the array at `step` of `holder`.
fn set_array<T: Payload>(
    holder: &mut Holder<'_>,
    step: Step<'_>,
    slot: &Slot,
    value: &crate::owned::NbtTag,
) -> Result<(), EditError> {
    let (Some(mut a), Some(x)) = (T::handle(holder, step), T::of(value)) else {
        return Ok(());
    };
    match slot {
        Slot::Element(i) => a.set(*i, x),
        Slot::Append => a.push(x),
        Slot::Key(_) => Ok(()),
    }
}

/// Removes element `i` of the array at `step` of `holder` in place (the
/// rest move down one); whether there was one.
fn remove_array<T: Payload>(holder: &mut Holder<'_>, step: Step<'_>, i: usize) -> bool {
    let Some(mut a) = T::handle(holder, step) else {
        return false;
    };
    let len = a.len();
    if i >= len {
        return false;
    }
    for j in i..len - 1 {
        if let Some(next) = a.get(j + 1) {
            // In bounds: `j` < `len`.
            let _ = a.set(j, next);
        }
    }
    a.truncate(len - 1);
    true
}

/// An array element type: its handle, and its value as an owned tag's payload.
trait Payload: ArrayElement {
    fn handle<'h>(holder: &'h mut Holder<'_>, step: Step<'_>) -> Option<ArrayMut<'h, Self>>;
    fn of(tag: &crate::owned::NbtTag) -> Option<Self>;
}

macro_rules! payload {
    ($t:ty, $handle:ident, $variant:ident) => {
        impl Payload for $t {
            fn handle<'h>(holder: &'h mut Holder<'_>, step: Step<'_>) -> Option<ArrayMut<'h, $t>> {
                match (holder, step) {
                    (Holder::Compound(c), Step::Key(k)) => c.$handle(k),
                    (Holder::List(l), Step::Index(i)) => l.$handle(i),
                    _ => None,
                }
            }
            fn of(tag: &crate::owned::NbtTag) -> Option<$t> {
                match tag {
                    crate::owned::NbtTag::$variant(v) => Some(*v as $t),
                    _ => None,
                }
            }
        }
    };
}
payload!(u8, byte_array_mut, Byte);
payload!(i32, int_array_mut, Int);
payload!(i64, long_array_mut, Long);

impl<'d> ParentMut<'d> {
    /// Walks a concrete path from the root compound.
    fn at(doc: &'d mut Document, path: &'d NbtPath) -> Option<ParentMut<'d>> {
        let mut holder = Holder::Compound(doc.as_compound_mut()?);
        let mut segments = path.segments().peekable();
        while let Some(segment) = segments.next() {
            let s = step(segment)?;
            let id = holder.child_id(s)?;
            if segments.peek().is_none()
                && matches!(
                    id,
                    tag_id::BYTE_ARRAY | tag_id::INT_ARRAY | tag_id::LONG_ARRAY
                )
            {
                return Some(ParentMut::Array(holder, s, id));
            }
            holder = holder.into_child(s, id)?;
        }
        Some(match holder {
            Holder::Compound(c) => ParentMut::Compound(c),
            Holder::List(l) => ParentMut::List(l),
        })
    }

    /// Writes `value` at each of `slots` (the types were checked); how many
    /// were written before an error.
    fn set(
        &mut self,
        slots: &[Slot],
        value: &crate::owned::NbtTag,
    ) -> Result<(), (usize, EditError)> {
        for (n, slot) in slots.iter().enumerate() {
            let done = match (&mut *self, slot) {
                (ParentMut::Compound(c), Slot::Key(k)) => c.insert(k, value.clone()),
                (ParentMut::List(l), Slot::Element(i)) => l.set(*i, value.clone()),
                (ParentMut::List(l), Slot::Append) => l.push(value.clone()),
                (ParentMut::Array(holder, step, id), slot) => match *id {
                    tag_id::BYTE_ARRAY => set_array::<u8>(holder, *step, slot, value),
                    tag_id::INT_ARRAY => set_array::<i32>(holder, *step, slot, value),
                    _ => set_array::<i64>(holder, *step, slot, value),
                },
                _ => Ok(()),
            };
            done.map_err(|e| (n, e))?;
        }
        Ok(())
    }

    /// Removes the places; returns how many were there.
    fn remove(&mut self, slots: &[Slot]) -> usize {
        let mut removed = 0;
        // Elements from the last, so the indices of the rest hold.
        for slot in slots.iter().rev() {
            let done = match (&mut *self, slot) {
                (ParentMut::Compound(c), Slot::Key(k)) => c.remove(k),
                (ParentMut::List(l), Slot::Element(i)) => l.remove(*i),
                (ParentMut::Array(holder, step, id), Slot::Element(i)) => match *id {
                    tag_id::BYTE_ARRAY => remove_array::<u8>(holder, *step, *i),
                    tag_id::INT_ARRAY => remove_array::<i32>(holder, *step, *i),
                    _ => remove_array::<i64>(holder, *step, *i),
                },
                _ => false,
            };
            removed += usize::from(done);
        }
        removed
    }
}

/// Whether putting `value` at `count` places could be refused. A number or
/// a string that fits a length prefix cannot nest too deep or be too long;
/// it can only make the document too large, which it cannot do while each
/// place's new bytes (an entry: id, name and value, each name and string
/// at most 65535 bytes) fit below the size limit and the nodes are far
/// below theirs (a block that grows is copied once, with as much room
/// again, and compaction keeps the nodes within about four times their
/// count after the read: from an eighth of their limit, half of it).
fn may_be_refused(doc: &Document, value: &crate::owned::NbtTag, count: usize) -> bool {
    use crate::owned::NbtTag as T;
    let leaf = match value {
        T::Byte(_) | T::Short(_) | T::Int(_) | T::Long(_) | T::Float(_) | T::Double(_) => true,
        T::String(s) => s.len() <= u16::MAX as usize,
        _ => false,
    };
    const MOST_PER_PLACE: usize = 1 + 2 * (2 + u16::MAX as usize);
    !leaf
        || count.saturating_mul(MOST_PER_PLACE) > super::MAX_BYTES - doc.bytes.len()
        || doc.nodes.len() > i32::MAX as usize / 8
}

/// The concrete path of `slot` in the parent at `path`.
fn slot_path(path: &NbtPath, slot: &Slot) -> NbtPath {
    match slot {
        Slot::Key(k) => path.clone().with_key(k.clone()),
        Slot::Element(i) => path.clone().with_index(*i),
        Slot::Append => path.clone().with_index(0),
    }
}

/// `set` and `remove` on a document: the places `path/edit.rs` finds for
/// the owned tree, edited through the document's handles.
impl Sealed for Document {}
impl PathRootMut for Document {
    fn set_path(
        &mut self,
        path: &NbtPath,
        value: crate::owned::NbtTag,
        _: Token,
    ) -> Result<usize, PathError> {
        let doc = self;
        let found = match doc.as_compound() {
            Some(root) => targets(path, DocValue::Compound(root), true),
            None if path.selects_root() => None,
            None => Some(Vec::new()),
        };
        let targets = set_targets(path, found, value.id())?;
        let count: usize = targets.iter().map(|t| t.slots.len()).sum();
        // One place: an edit that fails changes nothing. More, with a value
        // the document could refuse: the document as it was, to go back to.
        let before = (count > 1 && may_be_refused(doc, &value, count)).then(|| doc.clone());
        for Target {
            path: at, slots, ..
        } in &targets
        {
            // The path was found a moment ago in the same document.
            let Some(mut parent) = ParentMut::at(doc, at) else {
                continue;
            };
            if let Err((n, error)) = parent.set(slots, &value) {
                let at = slot_path(at, &slots[n]);
                if let Some(before) = before {
                    *doc = before;
                }
                return Err(PathError::new(path, PathErrorKind::Refused { at, error }));
            }
        }
        Ok(count)
    }

    fn remove_path(&mut self, path: &NbtPath, _: Token) -> usize {
        let doc = self;
        let Some(targets) = doc
            .as_compound()
            .and_then(|root| targets(path, DocValue::Compound(root), false))
        else {
            return 0;
        };
        targets
            .iter()
            .filter_map(|t| Some(ParentMut::at(doc, &t.path)?.remove(&t.slots)))
            .sum()
    }
}

impl NbtPath {
    /// [`set`](Self::set) on a document.
    #[deprecated(
        since = "0.12.0",
        note = "use `set`, which takes an owned tree or a document"
    )]
    pub fn set_document(
        &self,
        doc: &mut Document,
        value: crate::owned::NbtTag,
    ) -> Result<usize, PathError> {
        self.set(doc, value)
    }

    /// [`remove`](Self::remove) on a document.
    #[deprecated(
        since = "0.12.0",
        note = "use `remove`, which takes an owned tree or a document"
    )]
    pub fn remove_document(&self, doc: &mut Document) -> usize {
        self.remove(doc)
    }
}

impl Document {
    /// [`NbtPath::get_all`] on the document.
    #[deprecated(since = "0.12.0", note = "use `path.get_all(&document)`")]
    pub fn select(&self, path: &NbtPath) -> Vec<DocValue<'_>> {
        path.get_all(self)
    }
}
