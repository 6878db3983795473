//! The mutable handle on a list.

use std::marker::PhantomData;

use super::{
    ArrayMut, EditError, Key, Name, NbtCompoundMut, child_handle, flat_room, number_bytes,
};
use crate::ToNbtTag;
use crate::document::node::{Node, ROOMY, is_flat};
use crate::document::{Document, NbtList};
use crate::tag_id::*;

/// A mutable handle on a list of a [`Document`]. Elements must all have the
/// list's type; an untyped empty list (element type End) takes the type of
/// the first value put in.
pub struct NbtListMut<'d> {
    pub(crate) doc: &'d mut Document,
    pub(crate) depth: usize,
}

impl<'d> NbtListMut<'d> {
    #[inline(always)]
    fn node(&self) -> &Node {
        &self.doc.nodes[self.doc.path[self.depth] as usize]
    }

    /// The list as it is now.
    pub fn as_list(&self) -> NbtList<'_> {
        NbtList::new(self.doc, self.node())
    }

    /// The element type (End for an untyped list).
    // A list's `id` is its element type, as in the borrow views.
    #[allow(clippy::misnamed_getters)]
    pub fn id(&self) -> u8 {
        self.node().elem
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.node().b as usize
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.node().b == 0
    }

    /// Appends `value`.
    ///
    /// ```
    /// use simdnbt::document::EditError;
    /// use simdnbt::owned::{NbtCompound, NbtList};
    ///
    /// let mut c = NbtCompound::new();
    /// c.insert("l", NbtList::Int(vec![1]));
    /// let mut doc = simdnbt::document::Document::from_owned(&c.into())?;
    /// let mut root = doc.as_compound_mut().unwrap();
    /// let mut l = root.list_mut("l").unwrap();
    /// l.push(2)?;
    /// assert_eq!(l.push("x"), Err(EditError::WrongType { expected: 3, found: 8 }));
    /// assert_eq!(doc.list("l").unwrap().ints(), Some(vec![1, 2]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push(&mut self, value: impl ToNbtTag) -> Result<(), EditError> {
        let len = self.len();
        self.insert(len, value)
    }

    /// Puts `value` in at `index` (at most the length), shifting the rest.
    pub fn insert(&mut self, index: usize, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let len = self.len();
        if index > len {
            return Err(EditError::IndexOutOfBounds { index, len });
        }
        self.doc.check_type(self.depth, &tag)?;
        let node = *self.node();
        let id = tag.id();
        if is_flat(id) {
            // `is_flat` ids other than End are numbers, and no value is End.
            let Some((b, n)) = number_bytes(&tag) else {
                return Ok(());
            };
            if index == len && node.elem == id && len > 0 {
                return self.flat_push(&b[..n]);
            }
            return self.flat_edit(id, |data| {
                let at = index * n;
                data.splice(at..at, b[..n].iter().copied());
            });
        }
        let c = self.doc.path[self.depth] as usize;
        if is_flat(node.elem) && node.b == 0 {
            // An untyped empty list takes its first non-number element:
            // it becomes a list with element nodes (no block yet).
            self.doc.nodes[c].a = 0;
        }
        let r = self.doc.insert_child(self.depth, index, Name::None, &tag);
        if r.is_err() {
            // A refused element (a string too long, a value too deep)
            // leaves the list as it was: still flat, its elements where
            // they were.
            self.doc.nodes[c].a = node.a;
        }
        r
    }

    /// Sets element `index` to `value` (in place when it has the same size).
    pub fn set(&mut self, index: usize, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let len = self.len();
        if index >= len {
            return Err(EditError::IndexOutOfBounds { index, len });
        }
        self.doc.check_type(self.depth, &tag)?;
        let node = *self.node();
        if is_flat(node.elem) {
            // `check_type` passed: a number of the list's type.
            let Some((b, n)) = number_bytes(&tag) else {
                return Ok(());
            };
            let at = node.a as usize + index * n;
            self.doc.bytes[at..at + n].copy_from_slice(&b[..n]);
            return Ok(());
        }
        self.doc.replace_child(self.depth, index, &tag)
    }

    /// Removes element `index`; returns whether there was one. The list
    /// keeps its element type.
    pub fn remove(&mut self, index: usize) -> bool {
        let node = *self.node();
        if index >= node.b as usize {
            return false;
        }
        if is_flat(node.elem) {
            let n = layout(node.elem).fixed as usize;
            // Writing a shorter list cannot pass the size limit by much;
            // when it would, nothing is removed.
            return self
                .flat_edit(node.elem, |data| {
                    data.drain(index * n..index * n + n);
                })
                .is_ok();
        }
        self.doc.remove_child(self.depth, index);
        true
    }

    /// Removes every element (the list keeps its element type).
    pub fn clear(&mut self) {
        let node = *self.node();
        if is_flat(node.elem) {
            // Shorter than before: within the size limit.
            let _ = self.flat_edit(node.elem, Vec::clear);
            return;
        }
        let c = self.doc.path[self.depth] as usize;
        self.doc.nodes[c].b = 0;
        self.doc.mark_dirty(self.depth);
    }

    /// Appends the element whose bytes are `value` to this list of numbers
    /// (not empty, of `value`'s type): into its room, or at the end of the
    /// bytes when it is the last thing there, or else by writing it again at
    /// the end with room for as many elements again ([`ROOMY`]).
    fn flat_push(&mut self, value: &[u8]) -> Result<(), EditError> {
        let doc = &mut *self.doc;
        let i = doc.path[self.depth] as usize;
        let node = doc.nodes[i];
        let (start, len, size) = (node.a as usize, node.b as usize, value.len());
        if len >= i32::MAX as usize {
            return Err(EditError::LengthTooLarge { len: len + 1 });
        }
        let end = start + len * size;
        if node.flags & ROOMY != 0 && len < flat_room(len) {
            doc.bytes[end..end + size].copy_from_slice(value);
        } else if end == doc.bytes.len() {
            if end + size > super::MAX_BYTES {
                return Err(EditError::DocumentTooLarge);
            }
            doc.bytes.extend_from_slice(value);
            // Past any room it had: from now on its end is the bytes' end.
            doc.nodes[i].flags &= !ROOMY;
        } else {
            let room = flat_room(len + 1);
            let named = doc.is_named(self.depth);
            let mut header = [node.elem, 0, 0, 0, 0];
            header[1..].copy_from_slice(&(len as u32).to_be_bytes());
            // The elements, the new one, then the room (zeros).
            let mut data = Vec::with_capacity(room * size);
            data.extend_from_slice(&doc.bytes[start..end]);
            data.extend_from_slice(value);
            data.resize(room * size, 0);
            let payload = doc.rewrite_leaf(i, named, &header, &data)?;
            doc.nodes[i].a = payload as u32 + 5;
            doc.nodes[i].flags |= ROOMY;
        }
        let node = &mut doc.nodes[i];
        node.b += 1;
        let a = node.a as usize;
        doc.bytes[a - 4..a].copy_from_slice(&(len as u32 + 1).to_be_bytes());
        if self.depth > 0 {
            doc.mark_dirty(self.depth - 1);
        }
        doc.maybe_compact(Some(self.depth));
        Ok(())
    }

    /// Rewrites this list of numbers (or untyped empty list) as a list of
    /// `elem` whose elements `edit` makes from the current ones.
    fn flat_edit(&mut self, elem: u8, edit: impl FnOnce(&mut Vec<u8>)) -> Result<(), EditError> {
        let doc = &mut *self.doc;
        let i = doc.path[self.depth] as usize;
        let node = doc.nodes[i];
        let size = layout(elem).fixed as usize;
        let start = node.a as usize;
        let old = node.b as usize * layout(node.elem).fixed as usize;
        let mut data = doc.bytes[start..start + old].to_vec();
        edit(&mut data);
        let count = data.len() / size.max(1);
        if count > i32::MAX as usize {
            return Err(EditError::LengthTooLarge { len: count });
        }
        let mut header = [elem, 0, 0, 0, 0];
        header[1..].copy_from_slice(&(count as u32).to_be_bytes());
        let named = doc.is_named(self.depth);
        if start + old == doc.bytes.len() && elem == node.elem && node.b > 0 && data.len() >= old {
            // The last thing in the bytes (written by an earlier edit): grow
            // it in place.
            doc.bytes[start - 4..start].copy_from_slice(&header[1..]);
            doc.bytes.extend_from_slice(&data[old..]);
            if data[..old] != doc.bytes[start..start + old] {
                doc.bytes[start..start + old].copy_from_slice(&data[..old]);
            }
        } else {
            let payload = doc.rewrite_leaf(i, named, &header, &data)?;
            doc.nodes[i].a = payload as u32 + 5;
        }
        let node = &mut doc.nodes[i];
        node.elem = elem;
        node.b = count as u32;
        // Written again as it is, or grown past any room it had.
        node.flags &= !ROOMY;
        if self.depth > 0 {
            doc.mark_dirty(self.depth - 1);
        }
        doc.maybe_compact(Some(self.depth));
        Ok(())
    }

    child_handles!();
}
