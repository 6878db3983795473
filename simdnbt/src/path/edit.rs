//! `set` and `remove` on owned documents.
//!
//! Both work in two passes: first, with the document borrowed immutably, the
//! path's parents are selected with their concrete paths and every place to
//! write or remove is listed (and, for `set`, type-checked, so an error
//! leaves the document unchanged); then each parent is reached again through
//! its concrete path, mutably, and edited, the deepest first: a parent
//! inside another (after `..` or `*`) is edited while the path to it still
//! holds, and editing a parent moves nothing outside it.
//!
//! The first pass ([`targets`]) is shared with the document model
//! (`document/path.rs`), which edits its parents through its own handles.

use super::eval::{holders_from, key_name, moves, named_entries, select_from};
use super::value::Value;
use super::{NbtPath, Node, PathError, PathErrorKind, PathSegment};
use crate::owned::{NbtCompound, NbtList, NbtTag};
use crate::tag_id;

/// A place in a parent.
pub(crate) enum Slot {
    /// A compound key (present or, for `set`, to create).
    Key(String),
    /// An element of a list or array.
    Element(usize),
    /// The first element of an empty list or array (`[]` on `set`).
    Append,
}

/// One parent to edit: its concrete path, the places in it, and the element
/// type its elements must have (`None`: a compound, or an untyped empty list,
/// where anything goes).
pub(crate) struct Target {
    pub(crate) path: NbtPath,
    pub(crate) slots: Vec<Slot>,
    pub(crate) element_type: Option<u8>,
}

/// What finding the places to edit needs of a value, beyond selecting.
pub(crate) trait EditView: Node {
    /// Whether the value is a compound (where `set` may create a key).
    fn is_compound(self) -> bool;
    /// The element type a list or array takes (`None`: not one, or an
    /// untyped empty list, which takes anything).
    fn element_type(self) -> Option<u8>;
}

impl EditView for Value<'_> {
    fn is_compound(self) -> bool {
        self.compound().is_some()
    }

    fn element_type(self) -> Option<u8> {
        match self.typed() {
            Value::List(NbtList::Empty) => None,
            Value::List(l) => Some(l.id()),
            Value::ByteArray(_) => Some(tag_id::BYTE),
            Value::IntArray(_) => Some(tag_id::INT),
            Value::LongArray(_) => Some(tag_id::LONG),
            _ => None,
        }
    }
}

/// The places `node` selects in `parent`, for `set` (`creating`: a missing
/// key and the first element of an empty list are places) or `remove`.
/// `trailing` is the filter after a key, if any.
fn slots<V: EditView>(
    parent: V,
    node: &PathSegment,
    trailing: &[&PathSegment],
    creating: bool,
) -> Vec<Slot> {
    let mut slots = Vec::new();
    match node {
        PathSegment::Key(key) => match parent.child(key) {
            Some(child) if !select_from(trailing.iter().copied(), child, false).is_empty() => {
                slots.push(Slot::Key(key.clone()))
            }
            Some(_) => {}
            // Only a plain key creates: a key with a filter selects what exists.
            None if creating && trailing.is_empty() && parent.is_compound() => {
                slots.push(Slot::Key(key.clone()))
            }
            None => {}
        },
        PathSegment::Index(i) => {
            if *i < parent.len().unwrap_or(0) {
                slots.push(Slot::Element(*i));
            }
        }
        PathSegment::IndexFromEnd(n) => {
            if let Some(i) = parent.len().and_then(|len| len.checked_sub(*n)) {
                slots.push(Slot::Element(i));
            }
        }
        PathSegment::AllEntries => {
            let kept = |v| !select_from(trailing.iter().copied(), v, false).is_empty();
            let mut entries = Vec::new();
            named_entries(parent, &mut entries);
            for (key, child) in entries {
                if kept(child) {
                    slots.push(Slot::Key(key_name(key)));
                }
            }
            let mut elements = Vec::new();
            parent.elements(&mut elements);
            for (i, e) in elements.into_iter().enumerate() {
                if kept(e) {
                    slots.push(Slot::Element(i));
                }
            }
        }
        // `targets` edits `..key` as the key of each compound holding it.
        PathSegment::Descendant(_) => {}
        PathSegment::AllElements => match parent.len() {
            Some(0) if creating => slots.push(Slot::Append),
            Some(n) => slots.extend((0..n).map(Slot::Element)),
            None => {}
        },
        // An element filter's matches (`moves` never picks a filter after a
        // key as the node, and `keep` gives nothing for one).
        #[cfg(feature = "snbt")]
        PathSegment::ElementFilter(_) | PathSegment::Filter(_) => {
            let mut scratch = Vec::new();
            super::filter::keep(node, std::iter::once(parent), &mut scratch, |_, _, i| {
                slots.extend(i.map(Slot::Element));
            });
        }
    }
    slots
}

/// Every parent `path` edits from `root` (a compound), with its places;
/// `None` when the path selects the root.
pub(crate) fn targets<V: EditView>(path: &NbtPath, root: V, creating: bool) -> Option<Vec<Target>> {
    let segments: Vec<&PathSegment> = path.segments().collect();
    let last = segments.iter().rposition(|s| moves(s))?;
    let trailing = &segments[last + 1..];
    let prefix = segments[..last].iter().copied();
    let as_key;
    let (parents, node) = match segments[last] {
        PathSegment::Descendant(key) => {
            as_key = PathSegment::Key(key.clone());
            (holders_from(prefix, root, key), &as_key)
        }
        node => {
            let parents = select_from(prefix, root, true);
            let parents = parents.into_iter().map(|(v, p)| (v, p.unwrap_or_default()));
            (parents.collect(), node)
        }
    };
    let mut out = Vec::new();
    for (parent, path) in parents {
        let slots = slots(parent, node, trailing, creating);
        if !slots.is_empty() {
            out.push(Target {
                path,
                slots,
                element_type: parent.element_type(),
            });
        }
    }
    // After `..` or `*`, a parent may lie inside another: the deeper ones are
    // edited first, while the concrete paths that reach them still hold.
    out.sort_by_key(|t| std::cmp::Reverse(t.path.segments().len()));
    Some(out)
}

/// A parent reached mutably.
enum ParentMut<'r> {
    Compound(&'r mut NbtCompound),
    List(&'r mut NbtList),
    ByteArray(&'r mut Vec<u8>),
    IntArray(&'r mut Vec<i32>),
    LongArray(&'r mut Vec<i64>),
}

impl<'r> ParentMut<'r> {
    fn of_tag(tag: &'r mut NbtTag) -> Option<Self> {
        Some(match tag {
            NbtTag::Compound(c) => ParentMut::Compound(c),
            NbtTag::List(l) => ParentMut::List(l),
            NbtTag::ByteArray(a) => ParentMut::ByteArray(a),
            NbtTag::IntArray(a) => ParentMut::IntArray(a),
            NbtTag::LongArray(a) => ParentMut::LongArray(a),
            _ => return None,
        })
    }

    /// The container one concrete step down.
    fn child(self, segment: &PathSegment) -> Option<Self> {
        match (self, segment) {
            (ParentMut::Compound(c), PathSegment::Key(k)) => ParentMut::of_tag(c.get_mut(k)?),
            (ParentMut::List(l), PathSegment::Index(i)) => Some(match l {
                NbtList::Compound(v) => ParentMut::Compound(v.get_mut(*i)?),
                NbtList::List(v) => ParentMut::List(v.get_mut(*i)?),
                NbtList::ByteArray(v) => ParentMut::ByteArray(v.get_mut(*i)?),
                NbtList::IntArray(v) => ParentMut::IntArray(v.get_mut(*i)?),
                NbtList::LongArray(v) => ParentMut::LongArray(v.get_mut(*i)?),
                _ => return None,
            }),
            _ => None,
        }
    }

    /// Walks a concrete path from the root.
    fn at(root: &'r mut NbtCompound, path: &NbtPath) -> Option<Self> {
        path.segments()
            .try_fold(ParentMut::Compound(root), |parent, segment| {
                parent.child(segment)
            })
    }

    /// Writes `value` at `slot`; the type was checked before.
    fn set(&mut self, slot: &Slot, value: NbtTag) {
        match (self, slot) {
            (ParentMut::Compound(c), Slot::Key(k)) => match c.get_mut(k) {
                Some(old) => *old = value,
                None => c.push(k.as_str(), value),
            },
            (ParentMut::List(l), Slot::Append) => {
                if l.empty() {
                    **l = NbtList::from(vec![value]);
                } else {
                    push_element(l, value);
                }
            }
            (ParentMut::List(l), Slot::Element(i)) => set_element(l, *i, value),
            (ParentMut::ByteArray(a), slot) => {
                if let NbtTag::Byte(v) = value {
                    put(a, slot, v as u8);
                }
            }
            (ParentMut::IntArray(a), slot) => {
                if let NbtTag::Int(v) = value {
                    put(a, slot, v);
                }
            }
            (ParentMut::LongArray(a), slot) => {
                if let NbtTag::Long(v) = value {
                    put(a, slot, v);
                }
            }
            _ => {}
        }
    }

    /// Removes the places; returns how many were there.
    fn remove(&mut self, slots: &[Slot]) -> usize {
        let mut removed = 0;
        // Elements from the last, so the indices of the rest hold.
        for slot in slots.iter().rev() {
            let done = match (&mut *self, slot) {
                (ParentMut::Compound(c), Slot::Key(k)) => c.remove(k).is_some(),
                (ParentMut::List(l), Slot::Element(i)) => remove_element(l, *i),
                (ParentMut::ByteArray(a), Slot::Element(i)) => take(a, *i),
                (ParentMut::IntArray(a), Slot::Element(i)) => take(a, *i),
                (ParentMut::LongArray(a), Slot::Element(i)) => take(a, *i),
                _ => false,
            };
            removed += usize::from(done);
        }
        removed
    }
}

fn put<T>(v: &mut Vec<T>, slot: &Slot, x: T) {
    match slot {
        Slot::Element(i) => {
            if let Some(e) = v.get_mut(*i) {
                *e = x;
            }
        }
        Slot::Append => v.push(x),
        Slot::Key(_) => {}
    }
}

fn take<T>(v: &mut Vec<T>, i: usize) -> bool {
    if i < v.len() {
        v.remove(i);
        true
    } else {
        false
    }
}

/// Runs `$body` with `$v` bound to the list's vector and `$x` to the value's
/// payload when the value has the list's element type.
macro_rules! typed {
    ($list:expr, $value:expr, |$v:ident, $x:ident| $body:expr) => {
        match ($list, $value) {
            (NbtList::Byte($v), NbtTag::Byte($x)) => $body,
            (NbtList::Short($v), NbtTag::Short($x)) => $body,
            (NbtList::Int($v), NbtTag::Int($x)) => $body,
            (NbtList::Long($v), NbtTag::Long($x)) => $body,
            (NbtList::Float($v), NbtTag::Float($x)) => $body,
            (NbtList::Double($v), NbtTag::Double($x)) => $body,
            (NbtList::ByteArray($v), NbtTag::ByteArray($x)) => $body,
            (NbtList::String($v), NbtTag::String($x)) => $body,
            (NbtList::List($v), NbtTag::List($x)) => $body,
            (NbtList::Compound($v), NbtTag::Compound($x)) => $body,
            (NbtList::IntArray($v), NbtTag::IntArray($x)) => $body,
            (NbtList::LongArray($v), NbtTag::LongArray($x)) => $body,
            _ => {}
        }
    };
}

fn set_element(list: &mut NbtList, i: usize, value: NbtTag) {
    typed!(list, value, |v, x| put(v, &Slot::Element(i), x));
}

fn push_element(list: &mut NbtList, value: NbtTag) {
    typed!(list, value, |v, x| v.push(x));
}

fn remove_element(list: &mut NbtList, i: usize) -> bool {
    macro_rules! each {
        ($($variant:ident),*) => {
            match list {
                NbtList::Empty => false,
                $(NbtList::$variant(v) => take(v, i),)*
            }
        };
    }
    each!(
        Byte, Short, Int, Long, Float, Double, ByteArray, String, List, Compound, IntArray,
        LongArray
    )
}

pub(super) fn set(
    path: &NbtPath,
    root: &mut NbtCompound,
    value: NbtTag,
) -> Result<usize, PathError> {
    let targets = set_targets(path, targets(path, Value::Compound(root), true), value.id())?;
    let count = targets.iter().map(|t| t.slots.len()).sum();
    for target in &targets {
        // The path was found a moment ago in the same document.
        let Some(mut parent) = ParentMut::at(root, &target.path) else {
            continue;
        };
        for slot in &target.slots {
            parent.set(slot, value.clone());
        }
    }
    Ok(count)
}

/// The targets of `set`ting a value of type `id`, checked: an error when
/// the path selects the root or nothing, or when the value does not fit a
/// place (before anything is written).
pub(crate) fn set_targets(
    path: &NbtPath,
    targets: Option<Vec<Target>>,
    id: u8,
) -> Result<Vec<Target>, PathError> {
    let targets = targets.ok_or_else(|| PathError::new(path, PathErrorKind::SelectsRoot))?;
    let mut count = 0;
    for target in &targets {
        if let Some(expected) = target.element_type {
            if expected != id {
                let mut at = target.path.clone();
                if let Some(Slot::Element(i)) = target.slots.first() {
                    at.push_index(*i);
                }
                return Err(PathError::new(
                    path,
                    PathErrorKind::WrongType {
                        at,
                        expected,
                        found: id,
                    },
                ));
            }
        }
        count += target.slots.len();
    }
    if count == 0 {
        return Err(PathError::new(path, PathErrorKind::NothingSelected));
    }
    Ok(targets)
}

pub(super) fn remove(path: &NbtPath, root: &mut NbtCompound) -> usize {
    let Some(targets) = targets(path, Value::Compound(root), false) else {
        return 0;
    };
    targets
        .iter()
        .filter_map(|t| Some(ParentMut::at(root, &t.path)?.remove(&t.slots)))
        .sum()
}
