//! The mutable handle on a compound.

use std::marker::PhantomData;

use super::{ArrayMut, EditError, Key, Lookup, Name, NbtListMut, SPARE, child_handle};
use crate::ToNbtTag;
use crate::document::node::Node;
use crate::document::{Document, NbtCompound};
use crate::owned;
use crate::tag_id::*;

/// A mutable handle on a compound of a [`Document`] (from
/// [`Document::as_compound_mut`] or a parent handle).
///
/// Every edit keeps the document valid, or returns an [`EditError`] and
/// changes nothing.
pub struct NbtCompoundMut<'d> {
    pub(crate) doc: &'d mut Document,
    pub(crate) depth: usize,
}

impl<'d> NbtCompoundMut<'d> {
    #[inline(always)]
    fn node(&self) -> &Node {
        &self.doc.nodes[self.doc.path[self.depth] as usize]
    }

    /// The compound as it is now.
    pub fn as_compound(&self) -> NbtCompound<'_> {
        NbtCompound::new(self.doc, self.node())
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.node().b as usize
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.node().b == 0
    }

    /// Sets the tag called `name` to `value` (the last entry, if a crafted
    /// input repeats the key: the one lookups see), or appends it when there
    /// is none, as [`owned::NbtCompound::insert`] does. A value of the same
    /// type and size (any number; a string or array of the same length) is
    /// written in place. `None` (from an `Option`) changes nothing. Costs a
    /// lookup; [`push`](Self::push) appends without one.
    ///
    /// ```
    /// use simdnbt::owned::NbtTag;
    ///
    /// let mut doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])?.unwrap();
    /// let mut root = doc.as_compound_mut().unwrap();
    /// root.insert("a", 1)?;
    /// root.insert("a", "now a string")?; // replaces
    /// root.insert("c", simdnbt::snbt::from_str("{x: [1b, 2b]}")?)?;
    /// assert_eq!(simdnbt::snbt::to_string(&doc.root())?, r#"{a:"now a string",c:{x:[1b,2b]}}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert(&mut self, name: &str, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let key = Lookup::new(name);
        let c = self.doc.path[self.depth] as usize;
        self.doc.hash_names(c);
        match key.position(self.doc, &self.doc.nodes[c]) {
            Some(pos) => self.doc.replace_child(self.depth, pos, &tag),
            None => {
                let len = self.len();
                self.doc
                    .insert_child(self.depth, len, Name::New(&key.bytes), &tag)
            }
        }
    }

    /// Same as [`insert`](Self::insert).
    pub fn set(&mut self, name: &str, value: impl ToNbtTag) -> Result<(), EditError> {
        self.insert(name, value)
    }

    /// Appends `value` as `name` without looking for the key, as
    /// [`owned::NbtCompound::push`] does: a key already there becomes a
    /// duplicate, and the new entry is the one lookups see.
    pub fn push(&mut self, name: &str, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let key = Lookup::new(name);
        let len = self.len();
        self.doc
            .insert_child(self.depth, len, Name::New(&key.bytes), &tag)
    }

    /// Removes the tag called `name`, keeping the others' order; returns
    /// whether there was one. A repeated key loses every entry, as in
    /// [`owned::NbtCompound::remove`] (one pass over the compound).
    pub fn remove(&mut self, name: &str) -> bool {
        let key = Lookup::new(name);
        let c = self.doc.path[self.depth] as usize;
        self.doc.hash_names(c);
        let Node { a, b, .. } = self.doc.nodes[c];
        let (a, b) = (a as usize, b as usize);
        // Entries before the first match stay where they are.
        let Some(first) = key.first(self.doc, &self.doc.nodes[c]) else {
            return false;
        };
        let mut kept = a + first;
        let word = key.word(self.doc);
        for i in kept + 1..a + b {
            let node = self.doc.nodes[i];
            if !key.names(self.doc, &node, word) {
                self.doc.nodes[kept] = node;
                kept += 1;
            }
        }
        self.doc.nodes[kept..a + b].fill(Node::open(0, SPARE));
        self.doc.nodes[c].b = (kept - a) as u32;
        self.doc
            .index_removed(a as u32, &key.bytes, first, b - (kept - a), kept - a);
        self.doc.mark_dirty(self.depth);
        true
    }

    /// Removes the tag called `name` (every entry, if repeated) and returns
    /// the one lookups saw, as an owned tag.
    pub fn take(&mut self, name: &str) -> Option<owned::NbtTag> {
        let tag = self.as_compound().get(name)?.to_owned();
        self.remove(name);
        Some(tag)
    }

    /// Removes every tag.
    pub fn clear(&mut self) {
        let c = self.doc.path[self.depth] as usize;
        self.doc.drop_index(self.doc.nodes[c].a);
        self.doc.nodes[c].b = 0;
        self.doc.mark_dirty(self.depth);
    }

    child_handles!();
}
