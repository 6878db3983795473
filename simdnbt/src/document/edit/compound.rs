//! The mutable handle on a compound.

use std::marker::PhantomData;

use super::{ArrayMut, EditError, Key, Lookup, Name, NbtListMut, child_handle};
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

    /// Sets the first tag called `name` to `value`, or appends it when there
    /// is none. A value of the same type and size (any number; a string or
    /// array of the same length) is written in place. `None` (from an
    /// `Option`) changes nothing.
    ///
    /// ```
    /// use simdnbt::owned::NbtTag;
    ///
    /// let mut doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])?.unwrap();
    /// let mut root = doc.as_compound_mut().unwrap();
    /// root.set("a", 1)?;
    /// root.set("a", "now a string")?;
    /// root.set("c", simdnbt::snbt::from_str("{x: [1b, 2b]}")?)?;
    /// assert_eq!(simdnbt::snbt::to_string(&doc.root())?, r#"{a:"now a string",c:{x:[1b,2b]}}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set(&mut self, name: &str, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let key = Lookup::new(name);
        match key.position(self.doc, self.doc.children(self.node())) {
            Some(pos) => self.doc.replace_child(self.depth, pos, &tag),
            None => {
                let len = self.len();
                self.doc
                    .insert_child(self.depth, len, Name::New(&key.bytes), &tag)
            }
        }
    }

    /// Appends `value` as `name`, even when the compound has that key
    /// already (as [`owned::NbtCompound::insert`] does; lookups find the
    /// first).
    pub fn insert(&mut self, name: &str, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let key = Lookup::new(name);
        let len = self.len();
        self.doc
            .insert_child(self.depth, len, Name::New(&key.bytes), &tag)
    }

    /// Removes the first tag called `name`; returns whether there was one.
    pub fn remove(&mut self, name: &str) -> bool {
        match name.position(self.doc, self.depth) {
            Some(pos) => {
                self.doc.remove_child(self.depth, pos);
                true
            }
            None => false,
        }
    }

    /// Removes the first tag called `name` and returns it as an owned tag.
    pub fn take(&mut self, name: &str) -> Option<owned::NbtTag> {
        let tag = self.as_compound().get(name)?.to_owned();
        self.remove(name);
        Some(tag)
    }

    /// Removes every tag.
    pub fn clear(&mut self) {
        let c = self.doc.path[self.depth] as usize;
        self.doc.nodes[c].b = 0;
        self.doc.mark_dirty(self.depth);
    }

    child_handles!();
}
