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
//! - a list of numbers keeps its elements in the bytes: a push writes it
//!   again at the end of the bytes with room to grow (as many elements
//!   again, the room's size implied by its length: [`ROOMY`](super::node::ROOMY)), so repeated
//!   pushes cost amortized O(1) too; other changes write it again as it is
//!   (or grow it in place when it is already the last thing in the bytes);
//! - what edits leave behind (moved blocks, values written again) is garbage
//!   until the document compacts itself: when the bytes or nodes pass four
//!   times what they held after the last read or compaction. Four, not two:
//!   right after a compaction no block has room, and the first push into each
//!   moves it (up to twice the nodes and bytes the document holds, over all
//!   of them), which must not be enough to compact again; the rest of the
//!   growth is paid by pushes, so compaction is amortized O(1) per edit.
//!
//! Every edit checks first and changes nothing when it fails.
//!
//! This file: what edits do to the storage, and how handles find their
//! nodes. The handles: `compound.rs`, `list.rs`, `array.rs`; why an edit
//! failed: `error.rs`.

use super::buf::Buf;
use super::build::DocSink;
use super::compound::Lookup;
use super::node::{DIRTY, HASH_FROM, HASHED, Node, is_flat, name_hash, name_hash_of};
use super::{Document, Framing, MAX_BYTES};
use crate::ErrorKind;
use crate::ToNbtTag;
use crate::mutf8::Mutf8Str;
use crate::owned::NbtTag as OwnedTag;
use crate::tag_id::*;

pub use array::{ArrayElement, ArrayMut};
pub use compound::NbtCompoundMut;
pub use error::EditError;
pub use list::NbtListMut;

/// The id of an unused slot at the end of a block (room to grow).
const SPARE: u8 = 0xff;
/// Slots a block gets when it moves: its length again, at least this.
const MIN_ROOM: usize = 4;
/// The most nodes a document holds (indices stay below 2^31).
const MAX_NODES: usize = i32::MAX as usize;
/// Compaction thresholds: this many times the settled size, plus a slack.
const COMPACT_FACTOR: usize = 4;
const SLACK_BYTES: usize = 64 * 1024;
const SLACK_NODES: usize = 4096;

/// The elements a [`ROOMY`](super::node::ROOMY) list of `len` elements has room for: the power
/// of two it was written with, or less (a removal shortens the list, never
/// its room), so never more than it has.
fn flat_room(len: usize) -> usize {
    len.next_power_of_two().max(MIN_ROOM)
}

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
        self.before_edit();
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
        self.before_edit();
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
        self.before_edit();
        let node = self.append_value(&tag, Name::None, self.max_depth)?;
        self.nodes[0] = node;
        self.path.clear();
        self.maybe_compact(None);
        Ok(())
    }

    /// Sets the root's name; the document takes the named form ([`Framing::Named`]).
    pub fn set_name(&mut self, name: &str) -> Result<(), EditError> {
        let name = Mutf8Str::from_str(name);
        let len = name.len();
        if len > u16::MAX as usize {
            return Err(EditError::StringTooLong { len });
        }
        self.before_edit();
        if self.bytes.len() + 2 + len > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        self.name = self.bytes.len() as u32;
        self.bytes.extend_from_slice(&(len as u16).to_be_bytes());
        self.bytes.extend_from_slice(name.as_bytes());
        self.form = Framing::Named;
        Ok(())
    }

    /// Sets how [`write`](Self::write) frames the root. A document made
    /// named gets the empty name if it had none.
    pub fn set_form(&mut self, form: Framing) {
        if form == Framing::Named && self.form == Framing::Unnamed {
            // Two bytes always fit: edits keep below MAX_BYTES by more.
            let _ = self.set_name("");
        }
        self.form = form;
    }

    /// Gives the children of compound `c` their name hashes (once; see
    /// [`HASHED`]), so that this and later lookups in it pass over most
    /// names without reading them.
    #[inline]
    fn hash_names(&mut self, c: usize) {
        let node = &self.nodes[c];
        if !node.is_hashed() && node.b >= HASH_FROM {
            self.hash_children(c);
        }
    }

    #[inline(never)]
    fn hash_children(&mut self, c: usize) {
        let range = self.nodes[c].children();
        let bytes = &self.bytes[..];
        for n in &mut self.nodes[range] {
            // The name at `off`: its u16 length, then its bytes.
            let off = n.off as usize;
            let len = u16::from_be_bytes([bytes[off], bytes[off + 1]]) as usize;
            let last = if len == 0 { 0 } else { bytes[off + 1 + len] };
            n.name_hash = name_hash_of(len, last);
        }
        self.nodes[c].flags |= HASHED;
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
        match self.append_value_unchecked(tag, name, levels) {
            Ok(mut node) => {
                // A compound's child carries its name hash from the start, so
                // that a HASHED compound stays so whatever goes in.
                match name {
                    Name::None => {}
                    Name::New(key) => node.name_hash = name_hash(key),
                    Name::Stored(at) => node.name_hash = name_hash(self.str_at(at)),
                }
                Ok(node)
            }
            Err(e) => {
                self.bytes.truncate(bytes);
                self.nodes.truncate(nodes);
                Err(e)
            }
        }
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
                let len = self.u16_be(at) as usize;
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
        match (number_bytes(tag), tag) {
            // Numbers and strings straight into the bytes (which may still be
            // in the document's first block: `with_vec` would move them out).
            // One fixed-size copy per size (a store, not a `memcpy` call).
            (Some((b, n)), _) => match n {
                1 => self.bytes.push(b[0]),
                2 => self.bytes.extend_from_slice(&b[..2]),
                4 => self.bytes.extend_from_slice(&b[..4]),
                _ => self.bytes.extend_from_slice(&b),
            },
            (None, OwnedTag::String(s)) if s.len() <= u16::MAX as usize => {
                self.bytes
                    .extend_from_slice(&(s.len() as u16).to_be_bytes());
                self.bytes.extend_from_slice(s.as_bytes());
            }
            _ => self.bytes.with_vec(|v| tag.write_payload(v))?,
        }
        if self.bytes.len() > MAX_BYTES {
            return Err(EditError::DocumentTooLarge);
        }
        let off = off.unwrap_or(payload) as u32;
        let p = payload as u32;
        let (elem, n) = match tag {
            OwnedTag::List(_) => (self.bytes[payload], self.u32_be(payload + 1)),
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
        let sink = DocSink::<true>::new(
            &self.bytes,
            Buf::from_vec(Vec::new()),
            base,
            &mut scratch,
            usize::MAX,
        );
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
            // One fixed-size copy per size (a store, not a `memcpy` call).
            match n {
                1 => self.bytes[p] = b[0],
                2 => self.bytes[p..p + 2].copy_from_slice(&b[..2]),
                4 => self.bytes[p..p + 4].copy_from_slice(&b[..4]),
                _ => self.bytes[p..p + 8].copy_from_slice(&b),
            }
            return true;
        }
        // The stored length of a string (u16) or array (u32) at `p`.
        let same_len = |doc: &Document, len: usize| match node.id {
            STRING => doc.u16_be(p) as usize == len,
            _ => doc.u32_be(p) as usize == len,
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
        if self.nodes[c].id == COMPOUND {
            self.move_index(a as u32, new as u32);
        }
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
        if pos < len {
            // (An append, the usual insert, moves nothing: no memmove call.)
            self.nodes.copy_within(a + pos..a + len, a + pos + 1);
        }
        self.nodes[a + pos] = node;
        if self.nodes[c].id == COMPOUND {
            // (Entries go into a compound only at its end.)
            debug_assert_eq!(pos, len);
            self.index_appended(c, pos);
        }
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
            3 + self.u16_be(self.nodes[i].off as usize) as usize
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

    /// Compacts when edits have grown the bytes or nodes past
    /// [`COMPACT_FACTOR`] times their size after the last read or
    /// compaction (see the module docs); the handles on `path[..=depth]`
    /// keep standing on the same containers.
    #[inline(always)]
    fn maybe_compact(&mut self, depth: Option<usize>) {
        let (bytes, nodes) = (self.settled.0 as usize, self.settled.1 as usize);
        if self.bytes.len() > COMPACT_FACTOR * bytes + SLACK_BYTES
            || self.nodes.len() > COMPACT_FACTOR * nodes + SLACK_NODES
        {
            self.compact_keeping(depth);
        }
    }

    /// [`Document::compact`], keeping the handles on `path[..=depth]` on
    /// their containers.
    #[cold]
    #[inline(never)]
    fn compact_keeping(&mut self, depth: Option<usize>) {
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
                && self.doc.nodes[c.a as usize + pos].id == <$t as $crate::document::ArrayElement>::ID)
                .then(|| ArrayMut { doc: &mut *self.doc, depth: self.depth, pos, _t: PhantomData })
        }
    )*};
}

pub(super) mod sealed {
    pub trait Sealed {}
}

/// How a child is found: a key (`&str`) in a compound, an index (`usize`)
/// in a list. Sealed.
pub trait Key: sealed::Sealed {
    #[doc(hidden)]
    fn position(self, doc: &mut Document, depth: usize) -> Option<usize>;
}

impl sealed::Sealed for &str {}
impl Key for &str {
    fn position(self, doc: &mut Document, depth: usize) -> Option<usize> {
        let c = doc.path[depth] as usize;
        if doc.nodes[c].id != COMPOUND {
            return None;
        }
        doc.hash_names(c);
        Lookup::new(self).position(doc, &doc.nodes[c])
    }
}

impl sealed::Sealed for usize {}
impl Key for usize {
    fn position(self, doc: &mut Document, depth: usize) -> Option<usize> {
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

mod array;
mod compound;
mod error;
mod list;
