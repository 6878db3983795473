//! Editing a document: mutable handles on compounds, lists and arrays.
//!
//! A handle is the document and a depth: the node it stands on is
//! `path[depth]`, where `path` (kept in the document) lists the nodes from the
//! root to the innermost live handle. Taking a child handle borrows the
//! parent mutably, so only the innermost handle is usable at a time; the
//! entries above it are whatever its own children left there and are
//! overwritten by the next child handle. Knowing the path, an edit can mark
//! every container above it [`DIRTY`], and compaction can find the handles'
//! nodes again (by their positions among their siblings, which it keeps).
//!
//! What an edit does to the storage:
//!
//! - a number, or a string or array of the same length, of the same type, is
//!   overwritten in place: nothing else changes, and the containers around it
//!   are still copied whole by the writer;
//! - any other value is written again at the end of the bytes, as a whole
//!   entry for a named tag (id, name, payload; see `node.rs`), and its node
//!   replaced; a new compound or list value is read by the validating core
//!   into nodes like the input was;
//! - a compound or list that gains an element moves its block of nodes to
//!   the end of the arena with room to grow (unused slots are marked
//!   [`SPARE`]), so repeated pushes cost amortized O(1);
//! - a list of numbers keeps its elements in the bytes: it is written again
//!   with the change (or grown in place when it is already the last thing in
//!   the bytes).
//!
//! Every edit checks first and changes nothing when it fails.

use std::fmt;
use std::marker::PhantomData;

use super::build::DocSink;
use super::compound::Lookup;
use super::node::{DIRTY, Node, is_flat};
use super::{Document, Form, MAX_BYTES, NbtCompound, NbtList};
use crate::mutf8::Mutf8Str;
use crate::owned::{self, NbtTag as OwnedTag};
use crate::tag_id::*;
use crate::{ErrorKind, ToNbtTag, WriteError};

/// The id of an unused slot at the end of a block (room to grow).
const SPARE: u8 = 0xff;
/// Slots a block gets when it moves: its length again, at least this.
const MIN_ROOM: usize = 4;
/// The most nodes a document holds (indices stay below 2^31).
const MAX_NODES: usize = i32::MAX as usize;
/// Compaction thresholds above twice the settled size.
const SLACK_BYTES: usize = 64 * 1024;
const SLACK_NODES: usize = 4096;

/// Why an edit changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EditError {
    /// The list (or array) holds elements of another type.
    WrongType {
        /// The element type there (a [`crate::tag_id`]).
        expected: u8,
        /// The value's type.
        found: u8,
    },
    /// The value would nest deeper than the document's depth limit (the one
    /// it was read with, 512 by default).
    MaxDepthExceeded,
    /// A string or key longer than 65535 bytes once MUTF-8 encoded.
    StringTooLong {
        /// The encoded length in bytes.
        len: usize,
    },
    /// A list or array with more than `i32::MAX` elements.
    LengthTooLarge {
        /// The number of elements.
        len: usize,
    },
    /// The document would hold more than 2^31 − 1 bytes or nodes.
    DocumentTooLarge,
    /// An index past the end of a list or array.
    IndexOutOfBounds {
        /// The index asked for.
        index: usize,
        /// The length.
        len: usize,
    },
}

impl From<WriteError> for EditError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::StringTooLong { len } => EditError::StringTooLong { len },
            WriteError::LengthTooLarge { len } => EditError::LengthTooLarge { len },
            _ => EditError::MaxDepthExceeded,
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::WrongType { expected, found } => write!(
                f,
                "the list holds {} elements, not {}",
                name(*expected),
                name(*found)
            ),
            EditError::MaxDepthExceeded => {
                f.write_str("the value would nest deeper than the depth limit")
            }
            EditError::StringTooLong { len } => {
                write!(
                    f,
                    "string of {len} encoded bytes exceeds the NBT limit of 65535"
                )
            }
            EditError::LengthTooLarge { len } => write!(
                f,
                "list or array of {len} elements exceeds the NBT limit of i32::MAX"
            ),
            EditError::DocumentTooLarge => {
                f.write_str("the document would exceed 2^31 - 1 bytes or nodes")
            }
            EditError::IndexOutOfBounds { index, len } => {
                write!(f, "index {index} is out of bounds for length {len}")
            }
        }
    }
}

impl std::error::Error for EditError {}

/// A name for a new entry: copied from the stored bytes, or given.
#[derive(Clone, Copy)]
enum Name<'n> {
    /// An unnamed value (list element or root).
    None,
    /// The u16-prefixed name stored at this offset.
    Stored(usize),
    /// A new name (MUTF-8).
    New(&'n [u8]),
}

/// The big-endian bytes of a number tag.
fn number_bytes(tag: &OwnedTag) -> Option<([u8; 8], usize)> {
    let mut b = [0; 8];
    let n = match tag {
        OwnedTag::Byte(v) => {
            b[0] = *v as u8;
            1
        }
        OwnedTag::Short(v) => {
            b[..2].copy_from_slice(&v.to_be_bytes());
            2
        }
        OwnedTag::Int(v) => {
            b[..4].copy_from_slice(&v.to_be_bytes());
            4
        }
        OwnedTag::Long(v) => {
            b.copy_from_slice(&v.to_be_bytes());
            8
        }
        OwnedTag::Float(v) => {
            b[..4].copy_from_slice(&v.to_be_bytes());
            4
        }
        OwnedTag::Double(v) => {
            b.copy_from_slice(&v.to_be_bytes());
            8
        }
        _ => return None,
    };
    Some((b, n))
}

impl Document {
    /// A mutable handle on the root compound, if the root is one.
    ///
    /// ```
    /// let mut doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])?.unwrap();
    /// doc.as_compound_mut().unwrap().set("x", 1i8)?;
    /// assert_eq!(doc.byte("x"), Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_compound_mut(&mut self) -> Option<NbtCompoundMut<'_>> {
        (self.nodes[0].id == COMPOUND).then(|| {
            self.path.clear();
            self.path.push(0);
            NbtCompoundMut {
                doc: self,
                depth: 0,
            }
        })
    }

    /// A mutable handle on the root list, if the root is one.
    pub fn as_list_mut(&mut self) -> Option<NbtListMut<'_>> {
        (self.nodes[0].id == LIST).then(|| {
            self.path.clear();
            self.path.push(0);
            NbtListMut {
                doc: self,
                depth: 0,
            }
        })
    }

    /// Replaces the root value (of any type; the name stays).
    ///
    /// ```
    /// use simdnbt::owned::NbtTag;
    /// let mut doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])?.unwrap();
    /// doc.set_root(NbtTag::Int(3))?;
    /// assert_eq!(doc.to_bytes(), [3, 0, 0, 0, 0, 0, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_root(&mut self, value: impl ToNbtTag) -> Result<(), EditError> {
        let Some(tag) = value.to_optional_nbt_tag() else {
            return Ok(());
        };
        let node = self.append_value(&tag, Name::None, self.max_depth)?;
        self.nodes[0] = node;
        self.path.clear();
        self.maybe_compact(None);
        Ok(())
    }

    /// Sets the root's name; the document takes the named form ([`Form::Named`]).
    pub fn set_name(&mut self, name: &str) -> Result<(), EditError> {
        let name = Mutf8Str::from_str(name);
        let len = name.len();
        if len > u16::MAX as usize {
            return Err(EditError::StringTooLong { len });
        }
        if self.bytes.len() + 2 + len > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        self.name = self.bytes.len() as u32;
        self.bytes.extend_from_slice(&(len as u16).to_be_bytes());
        self.bytes.extend_from_slice(name.as_bytes());
        self.form = Form::Named;
        Ok(())
    }

    /// Sets how [`write`](Self::write) frames the root. A document made
    /// named gets the empty name if it had none.
    pub fn set_form(&mut self, form: Form) {
        if form == Form::Named && self.form == Form::Unnamed {
            // Two bytes always fit: edits keep below MAX_BYTES by more.
            let _ = self.set_name("");
        }
        self.form = form;
    }

    /// Marks the containers `path[..=depth]` as no longer their stored bytes.
    fn mark_dirty(&mut self, depth: usize) {
        for &i in &self.path[..=depth] {
            self.nodes[i as usize].flags |= DIRTY;
        }
    }

    /// How many container levels a value put into the container at `depth`
    /// may take.
    fn levels_below(&self, depth: usize) -> u32 {
        self.max_depth.saturating_sub(depth as u32 + 1)
    }

    /// Appends `tag` to the bytes (a whole entry when it is named) and
    /// makes its node, reading a new compound or list through the
    /// validating core; `levels` is the nesting it may take. On error the
    /// bytes and nodes are as they were.
    fn append_value(
        &mut self,
        tag: &OwnedTag,
        name: Name<'_>,
        levels: u32,
    ) -> Result<Node, EditError> {
        let (bytes, nodes) = (self.bytes.len(), self.nodes.len());
        let r = self.append_value_unchecked(tag, name, levels);
        if r.is_err() {
            self.bytes.truncate(bytes);
            self.nodes.truncate(nodes);
        }
        r
    }

    fn append_value_unchecked(
        &mut self,
        tag: &OwnedTag,
        name: Name<'_>,
        levels: u32,
    ) -> Result<Node, EditError> {
        let id = tag.id();
        let off = match name {
            Name::None => None,
            Name::Stored(at) => {
                let len = self.u16_at(at) as usize;
                self.bytes.push(id);
                let off = self.bytes.len();
                self.bytes.extend_from_within(at..at + 2 + len);
                Some(off)
            }
            Name::New(key) => {
                if key.len() > u16::MAX as usize {
                    return Err(EditError::StringTooLong { len: key.len() });
                }
                self.bytes.push(id);
                let off = self.bytes.len();
                self.bytes
                    .extend_from_slice(&(key.len() as u16).to_be_bytes());
                self.bytes.extend_from_slice(key);
                Some(off)
            }
        };
        let payload = self.bytes.len();
        tag.write_payload(&mut self.bytes)?;
        if self.bytes.len() > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        let off = off.unwrap_or(payload) as u32;
        let p = payload as u32;
        let (elem, n) = match tag {
            OwnedTag::List(_) => (self.bytes[payload], self.u32_at(payload + 1)),
            OwnedTag::Compound(c) => (0, c.len() as u32),
            _ => return Ok(Node::leaf(off, id, p)),
        };
        if levels == 0 {
            return Err(EditError::MaxDepthExceeded);
        }
        if id == LIST && is_flat(elem) {
            let mut node = Node::open(off, LIST);
            node.elem = elem;
            node.a = p + 5;
            node.b = n;
            return Ok(node);
        }
        if n == 0 {
            let mut node = Node::open(off, id);
            node.elem = elem;
            return Ok(node);
        }
        let base = self.nodes.len() as u32;
        let mut scratch = super::build::scratch();
        let sink = DocSink::<true>::new(&self.bytes, payload, Vec::new(), base, &mut scratch);
        match crate::read::parse(&self.bytes, payload, id, levels, sink) {
            Ok(((new, mut node), _)) => {
                if self.nodes.len() + new.len() > MAX_NODES {
                    return Err(EditError::DocumentTooLarge);
                }
                self.nodes.extend_from_slice(&new);
                node.off = off;
                Ok(node)
            }
            Err(e) => {
                // The bytes were just written by the checked owned writer:
                // only the depth limit can refuse them.
                debug_assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
                Err(EditError::MaxDepthExceeded)
            }
        }
    }

    /// Writes `tag` over the stored value of node `i` if it has the same
    /// type and size. Returns whether it did.
    fn overwrite(&mut self, i: usize, tag: &OwnedTag) -> bool {
        let node = self.nodes[i];
        let p = node.a as usize;
        if let Some((b, n)) = number_bytes(tag) {
            if node.id != tag.id() {
                return false;
            }
            self.bytes[p..p + n].copy_from_slice(&b[..n]);
            return true;
        }
        // The stored length of a string (u16) or array (u32) at `p`.
        let same_len = |doc: &Document, len: usize| match node.id {
            STRING => doc.u16_at(p) as usize == len,
            _ => doc.u32_at(p) as usize == len,
        };
        match tag {
            OwnedTag::String(s) if node.id == STRING && same_len(self, s.len()) => {
                self.bytes[p + 2..p + 2 + s.len()].copy_from_slice(s.as_bytes());
            }
            OwnedTag::ByteArray(v) if node.id == BYTE_ARRAY && same_len(self, v.len()) => {
                self.bytes[p + 4..p + 4 + v.len()].copy_from_slice(v);
            }
            OwnedTag::IntArray(v) if node.id == INT_ARRAY && same_len(self, v.len()) => {
                for (k, x) in v.iter().enumerate() {
                    let at = p + 4 + 4 * k;
                    self.bytes[at..at + 4].copy_from_slice(&x.to_be_bytes());
                }
            }
            OwnedTag::LongArray(v) if node.id == LONG_ARRAY && same_len(self, v.len()) => {
                for (k, x) in v.iter().enumerate() {
                    let at = p + 4 + 8 * k;
                    self.bytes[at..at + 8].copy_from_slice(&x.to_be_bytes());
                }
            }
            _ => return false,
        }
        true
    }

    /// The element type a value put into the list at `depth` must have, or
    /// `None` for a compound or an untyped empty list.
    fn element_type(&self, depth: usize) -> Option<u8> {
        let node = &self.nodes[self.path[depth] as usize];
        (node.id == LIST && !(node.elem == END && node.b == 0)).then_some(node.elem)
    }

    /// Checks that `tag` may go into the container at `depth`.
    fn check_type(&self, depth: usize, tag: &OwnedTag) -> Result<(), EditError> {
        match self.element_type(depth) {
            Some(expected) if expected != tag.id() => Err(EditError::WrongType {
                expected,
                found: tag.id(),
            }),
            _ => Ok(()),
        }
    }

    /// Replaces child `pos` of the container (compound or list of
    /// non-numbers) at `depth` with `tag`.
    fn replace_child(&mut self, depth: usize, pos: usize, tag: &OwnedTag) -> Result<(), EditError> {
        self.check_type(depth, tag)?;
        let container = self.nodes[self.path[depth] as usize];
        let i = container.a as usize + pos;
        if self.overwrite(i, tag) {
            return Ok(());
        }
        let name = if container.id == COMPOUND {
            Name::Stored(self.nodes[i].off as usize)
        } else {
            Name::None
        };
        let node = self.append_value(tag, name, self.levels_below(depth))?;
        self.nodes[i] = node;
        self.mark_dirty(depth);
        self.maybe_compact(Some(depth));
        Ok(())
    }

    /// Makes room for one more child at the end of node `c`'s block, moving
    /// the block to the end of the arena (with room to grow) when it has none.
    fn grow_block(&mut self, c: usize) -> Result<(), EditError> {
        let Node { a, b, .. } = self.nodes[c];
        let (a, b) = (a as usize, b as usize);
        let end = a + b;
        if b > 0 && end == self.nodes.len() {
            if end >= MAX_NODES {
                return Err(EditError::DocumentTooLarge);
            }
            self.nodes.push(Node::open(0, SPARE));
            return Ok(());
        }
        if b > 0 && self.nodes.get(end).is_some_and(|n| n.id == SPARE) {
            return Ok(());
        }
        let room = b.max(MIN_ROOM);
        let new = self.nodes.len();
        if new + b + room > MAX_NODES {
            return Err(EditError::DocumentTooLarge);
        }
        self.nodes.extend_from_within(a..end);
        self.nodes.resize(new + b + room, Node::open(0, SPARE));
        self.nodes[c].a = new as u32;
        Ok(())
    }

    /// Puts `tag` into the container at `depth` as child `pos` (`pos` ≤ its
    /// length), named `name` in a compound.
    fn insert_child(
        &mut self,
        depth: usize,
        pos: usize,
        name: Name<'_>,
        tag: &OwnedTag,
    ) -> Result<(), EditError> {
        self.check_type(depth, tag)?;
        let c = self.path[depth] as usize;
        let len = self.nodes[c].b as usize;
        if len >= i32::MAX as usize {
            return Err(EditError::LengthTooLarge { len: len + 1 });
        }
        let (bytes, nodes) = (self.bytes.len(), self.nodes.len());
        let node = self.append_value(tag, name, self.levels_below(depth))?;
        if let Err(e) = self.grow_block(c) {
            self.bytes.truncate(bytes);
            self.nodes.truncate(nodes);
            return Err(e);
        }
        let container = &mut self.nodes[c];
        let a = container.a as usize;
        container.b += 1;
        if container.id == LIST {
            container.elem = tag.id();
        }
        self.nodes.copy_within(a + pos..a + len, a + pos + 1);
        self.nodes[a + pos] = node;
        self.mark_dirty(depth);
        self.maybe_compact(Some(depth));
        Ok(())
    }

    /// Removes child `pos` of the container at `depth`.
    fn remove_child(&mut self, depth: usize, pos: usize) {
        let c = self.path[depth] as usize;
        let Node { a, b, .. } = self.nodes[c];
        let (a, b) = (a as usize, b as usize);
        self.nodes.copy_within(a + pos + 1..a + b, a + pos);
        self.nodes[a + b - 1] = Node::open(0, SPARE);
        self.nodes[c].b -= 1;
        self.mark_dirty(depth);
    }

    /// Whether the container at `depth` is a compound's child (its entries
    /// have names), i.e. its parent is a compound.
    fn is_named(&self, depth: usize) -> bool {
        depth > 0 && self.nodes[self.path[depth - 1] as usize].id == COMPOUND
    }

    /// Writes node `i` (a flat list or an array, at `depth`'s child or at
    /// `depth` itself) again at the end of the bytes: its entry head if
    /// `named`, then `header`, then `data`. Returns the payload offset.
    fn rewrite_leaf(
        &mut self,
        i: usize,
        named: bool,
        header: &[u8],
        data: &[u8],
    ) -> Result<usize, EditError> {
        let head = if named {
            3 + self.u16_at(self.nodes[i].off as usize) as usize
        } else {
            0
        };
        if self.bytes.len() + head + header.len() + data.len() > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        let node = &mut self.nodes[i];
        if named {
            let at = node.off as usize;
            self.bytes.push(node.id);
            node.off = self.bytes.len() as u32;
            self.bytes.extend_from_within(at..at + head - 1);
        }
        let payload = self.bytes.len();
        if !named {
            node.off = payload as u32;
        }
        self.bytes.extend_from_slice(header);
        self.bytes.extend_from_slice(data);
        Ok(payload)
    }

    /// Compacts when edits have grown the bytes or nodes past twice their
    /// size after the last read or compaction; the handles on `path[..=depth]`
    /// keep standing on the same containers.
    fn maybe_compact(&mut self, depth: Option<usize>) {
        let (bytes, nodes) = (self.settled.0 as usize, self.settled.1 as usize);
        if self.bytes.len() <= 2 * bytes + SLACK_BYTES
            && self.nodes.len() <= 2 * nodes + SLACK_NODES
        {
            return;
        }
        let keep = depth.map_or(0, |d| d + 1);
        self.path.truncate(keep);
        let positions: Vec<u32> = self
            .path
            .windows(2)
            .map(|w| w[1] - self.nodes[w[0] as usize].a)
            .collect();
        self.compact();
        for (k, pos) in positions.into_iter().enumerate() {
            self.path[k + 1] = self.nodes[self.path[k] as usize].a + pos;
        }
    }
}

/// A mutable handle on a compound of a [`Document`] (from
/// [`Document::as_compound_mut`] or a parent handle).
///
/// Every edit keeps the document valid, or returns an [`EditError`] and
/// changes nothing.
pub struct NbtCompoundMut<'d> {
    pub(super) doc: &'d mut Document,
    depth: usize,
}

/// A mutable handle on a list of a [`Document`]. Elements must all have the
/// list's type; an untyped empty list (element type End) takes the type of
/// the first value put in.
pub struct NbtListMut<'d> {
    doc: &'d mut Document,
    depth: usize,
}

/// Opens a child handle of the container at `depth`: child `pos`, if it has
/// type `id`.
fn child_handle(doc: &mut Document, depth: usize, pos: usize, id: u8) -> Option<usize> {
    let c = doc.nodes[doc.path[depth] as usize];
    let i = c.a as usize + pos;
    if pos >= c.b as usize || !c.has_block() || doc.nodes[i].id != id {
        return None;
    }
    doc.path.truncate(depth + 1);
    doc.path.push(i as u32);
    Some(depth + 1)
}

macro_rules! array_handles {
    ($($(#[$doc:meta])* $name:ident, $t:ty;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, key: impl Key) -> Option<ArrayMut<'_, $t>> {
            let pos = key.position(self.doc, self.depth)?;
            let c = self.doc.nodes[self.doc.path[self.depth] as usize];
            (pos < c.b as usize && c.has_block()
                && self.doc.nodes[c.a as usize + pos].id == <$t as ArrayElement>::ID)
                .then(|| ArrayMut { doc: &mut *self.doc, depth: self.depth, pos, _t: PhantomData })
        }
    )*};
}

mod sealed {
    pub trait Sealed {}
}

/// How a child is found: a key (`&str`) in a compound, an index (`usize`)
/// in a list. Sealed.
pub trait Key: sealed::Sealed {
    #[doc(hidden)]
    fn position(self, doc: &Document, depth: usize) -> Option<usize>;
}

impl sealed::Sealed for &str {}
impl Key for &str {
    fn position(self, doc: &Document, depth: usize) -> Option<usize> {
        let c = &doc.nodes[doc.path[depth] as usize];
        if c.id != COMPOUND {
            return None;
        }
        Lookup::new(self).position(doc, doc.children(c))
    }
}

impl sealed::Sealed for usize {}
impl Key for usize {
    fn position(self, doc: &Document, depth: usize) -> Option<usize> {
        let c = &doc.nodes[doc.path[depth] as usize];
        (c.id == LIST && self < c.b as usize).then_some(self)
    }
}

/// The child handles both container handles have.
macro_rules! child_handles {
    () => {
        /// A handle on the compound at `key` (a name in a compound, an index
        /// in a list).
        pub fn compound_mut(&mut self, key: impl Key) -> Option<NbtCompoundMut<'_>> {
            let pos = key.position(self.doc, self.depth)?;
            let depth = child_handle(self.doc, self.depth, pos, COMPOUND)?;
            Some(NbtCompoundMut {
                doc: &mut *self.doc,
                depth,
            })
        }

        /// A handle on the list at `key`.
        pub fn list_mut(&mut self, key: impl Key) -> Option<NbtListMut<'_>> {
            let pos = key.position(self.doc, self.depth)?;
            let depth = child_handle(self.doc, self.depth, pos, LIST)?;
            Some(NbtListMut {
                doc: &mut *self.doc,
                depth,
            })
        }

        /// [`compound_mut`](Self::compound_mut), handing this handle's
        /// borrow to the child, so that a loop can walk down any depth:
        ///
        /// ```
        /// let root = simdnbt::snbt::compound_from_str("{c: {c: {c: {}}}}").unwrap();
        /// let mut doc = simdnbt::document::Document::from_owned(&root.into())?;
        /// let mut h = doc.as_compound_mut().unwrap();
        /// while h.as_compound().contains("c") {
        ///     h = h.into_compound_mut("c").unwrap();
        /// }
        /// h.set("x", 1)?;
        /// assert_eq!(simdnbt::snbt::to_string(&doc)?, "{c:{c:{c:{x:1}}}}");
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn into_compound_mut(self, key: impl Key) -> Option<NbtCompoundMut<'d>> {
            let pos = key.position(self.doc, self.depth)?;
            let depth = child_handle(self.doc, self.depth, pos, COMPOUND)?;
            Some(NbtCompoundMut {
                doc: self.doc,
                depth,
            })
        }

        /// [`list_mut`](Self::list_mut), handing this handle's borrow to the
        /// child.
        pub fn into_list_mut(self, key: impl Key) -> Option<NbtListMut<'d>> {
            let pos = key.position(self.doc, self.depth)?;
            let depth = child_handle(self.doc, self.depth, pos, LIST)?;
            Some(NbtListMut {
                doc: self.doc,
                depth,
            })
        }

        array_handles! {
            /// A handle on the ByteArray at `key`.
            byte_array_mut, u8;
            /// A handle on the IntArray at `key`.
            int_array_mut, i32;
            /// A handle on the LongArray at `key`.
            long_array_mut, i64;
        }
    };
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
            let (b, n) = number_bytes(&tag).expect("a number");
            return self.flat_edit(id, |data| {
                let at = index * n;
                data.splice(at..at, b[..n].iter().copied());
            });
        }
        if is_flat(node.elem) && node.b == 0 {
            // An untyped empty list takes its first non-number element:
            // it becomes a list with element nodes (no block yet).
            let c = self.doc.path[self.depth] as usize;
            self.doc.nodes[c].a = 0;
        }
        self.doc.insert_child(self.depth, index, Name::None, &tag)
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
            let (b, n) = number_bytes(&tag).expect("the list's number type");
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
            let n = FIXED_SIZE[node.elem as usize] as usize;
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

    /// Rewrites this list of numbers (or untyped empty list) as a list of
    /// `elem` whose elements `edit` makes from the current ones.
    fn flat_edit(&mut self, elem: u8, edit: impl FnOnce(&mut Vec<u8>)) -> Result<(), EditError> {
        let doc = &mut *self.doc;
        let i = doc.path[self.depth] as usize;
        let node = doc.nodes[i];
        let size = FIXED_SIZE[elem as usize] as usize;
        let start = node.a as usize;
        let old = node.b as usize * FIXED_SIZE[node.elem as usize] as usize;
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
        if self.depth > 0 {
            doc.mark_dirty(self.depth - 1);
        }
        doc.maybe_compact(Some(self.depth));
        Ok(())
    }

    child_handles!();
}

/// The element types of arrays: `u8` (ByteArray), `i32` (IntArray), `i64`
/// (LongArray). Sealed.
pub trait ArrayElement: Copy + sealed::Sealed {
    #[doc(hidden)]
    const ID: u8;
    #[doc(hidden)]
    const SIZE: usize;
    #[doc(hidden)]
    fn read(b: &[u8]) -> Self;
    #[doc(hidden)]
    fn put(self, b: &mut [u8]);
}

impl sealed::Sealed for u8 {}
impl ArrayElement for u8 {
    const ID: u8 = BYTE_ARRAY;
    const SIZE: usize = 1;
    fn read(b: &[u8]) -> Self {
        b[0]
    }
    fn put(self, b: &mut [u8]) {
        b[0] = self;
    }
}

impl sealed::Sealed for i32 {}
impl ArrayElement for i32 {
    const ID: u8 = INT_ARRAY;
    const SIZE: usize = 4;
    fn read(b: &[u8]) -> Self {
        i32::from_be_bytes(b.try_into().unwrap())
    }
    fn put(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_be_bytes());
    }
}

impl sealed::Sealed for i64 {}
impl ArrayElement for i64 {
    const ID: u8 = LONG_ARRAY;
    const SIZE: usize = 8;
    fn read(b: &[u8]) -> Self {
        i64::from_be_bytes(b.try_into().unwrap())
    }
    fn put(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_be_bytes());
    }
}

/// A mutable handle on a ByteArray, IntArray or LongArray of a
/// [`Document`]: elements are read and set in place, in the stored
/// big-endian bytes; growing it moves it to the end of the bytes once (later
/// pushes grow it there).
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
///
/// let mut c = NbtCompound::new();
/// c.insert("a", NbtTag::IntArray(vec![1, 2]));
/// let mut doc = simdnbt::document::Document::from_owned(&c.into())?;
/// let mut root = doc.as_compound_mut().unwrap();
/// let mut a = root.int_array_mut("a").unwrap();
/// a.set(0, 10)?;
/// a.push(3)?;
/// assert_eq!(a.to_vec(), [10, 2, 3]);
/// assert_eq!(doc.int_array("a"), Some(vec![10, 2, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ArrayMut<'d, T> {
    doc: &'d mut Document,
    /// The container holding the array, and the array's place in it.
    depth: usize,
    pos: usize,
    _t: PhantomData<T>,
}

impl<T: ArrayElement> ArrayMut<'_, T> {
    /// The array's node index.
    fn index(&self) -> usize {
        self.doc.nodes[self.doc.path[self.depth] as usize].a as usize + self.pos
    }

    /// Where the elements start.
    fn start(&self) -> usize {
        self.doc.nodes[self.index()].a as usize + 4
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.doc.u32_at(self.start() - 4) as usize
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`.
    pub fn get(&self, i: usize) -> Option<T> {
        (i < self.len()).then(|| {
            let at = self.start() + i * T::SIZE;
            T::read(&self.doc.bytes[at..at + T::SIZE])
        })
    }

    /// Sets element `i`, in place.
    pub fn set(&mut self, i: usize, value: T) -> Result<(), EditError> {
        let len = self.len();
        if i >= len {
            return Err(EditError::IndexOutOfBounds { index: i, len });
        }
        let at = self.start() + i * T::SIZE;
        value.put(&mut self.doc.bytes[at..at + T::SIZE]);
        Ok(())
    }

    /// Appends an element.
    pub fn push(&mut self, value: T) -> Result<(), EditError> {
        let len = self.len();
        if len >= i32::MAX as usize {
            return Err(EditError::LengthTooLarge { len: len + 1 });
        }
        let start = self.start();
        let end = start + len * T::SIZE;
        let mut element = [0; 8];
        value.put(&mut element[..T::SIZE]);
        let i = self.index();
        let doc = &mut *self.doc;
        if end != doc.bytes.len() {
            // Move it to the end of the bytes (as a whole entry if named).
            let data = doc.bytes[start..end].to_vec();
            let named = doc.nodes[doc.path[self.depth] as usize].id == COMPOUND;
            let payload = doc.rewrite_leaf(i, named, &(len as u32).to_be_bytes(), &data)?;
            doc.nodes[i].a = payload as u32;
            doc.mark_dirty(self.depth);
        }
        if doc.bytes.len() + T::SIZE > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        doc.bytes.extend_from_slice(&element[..T::SIZE]);
        let start = self.start();
        self.doc.bytes[start - 4..start].copy_from_slice(&(len as u32 + 1).to_be_bytes());
        self.doc.mark_dirty(self.depth);
        self.doc.maybe_compact(Some(self.depth));
        Ok(())
    }

    /// Shortens the array to `len` elements (nothing when it is shorter).
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            let start = self.start();
            self.doc.bytes[start - 4..start].copy_from_slice(&(len as u32).to_be_bytes());
            self.doc.mark_dirty(self.depth);
        }
    }

    /// The elements, in native order.
    pub fn to_vec(&self) -> Vec<T> {
        let start = self.start();
        self.doc.bytes[start..start + self.len() * T::SIZE]
            .chunks_exact(T::SIZE)
            .map(T::read)
            .collect()
    }
}
