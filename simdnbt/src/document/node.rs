//! The node: what the document keeps per tag, 16 bytes.
//!
//! | field | named tag (child of a compound) | unnamed tag (list element, root) |
//! |---|---|---|
//! | `off` | offset of the name's u16 length (the id byte is just before it, the payload just after the name) | offset of the payload |
//! | `a` | leaf: payload offset; number list: offset of its first element; compound or list of other elements: index of the first child node | same |
//! | `b` | compound or list: number of children / elements | same |
//!
//! Lists come in two shapes, told apart by their element type ([`is_flat`]):
//! lists of numbers (and of End) keep their elements in the bytes only
//! ("flat": `a` is where the elements start, the 5-byte header just before);
//! lists of strings, arrays, lists and compounds have one node per element, in
//! one contiguous block of the node arena. A compound's children are one block
//! too. A container with no children has no block (`a` is 0).
//!
//! Every named leaf's entry (id, name, payload) is contiguous in the bytes, so
//! the writer copies it as one span; an edit that cannot change a leaf in place
//! appends a whole new entry.

use crate::tag_id::*;

/// The container's bytes in the document's buffer are no longer its
/// encoding (a child was added, removed, or replaced by one stored elsewhere):
/// the writer walks it instead of copying its span.
pub(crate) const DIRTY: u8 = 1;

/// On a compound: every child's [`Node::name_hash`] is its name's
/// [`name_hash`]. Set by an edit's first lookup in a compound of at least
/// [`HASH_FROM`] tags (not by the reader: it would cost every read, and most
/// compounds are never searched by a mutable handle); new children get theirs
/// when they are made, compaction drops it.
pub(crate) const HASHED: u8 = 2;

/// On the root node of a document just read from UTF-8 input: some string
/// or name there is not the same bytes in MUTF-8 (it holds U+0000 or a
/// character above U+FFFF), so the bytes cannot be viewed as they are (see
/// `bedrock.rs`).
pub(crate) const UNCONVERTED: u8 = 4;

/// On a list of numbers or an array: its elements are followed in the bytes
/// by unused room, for `flat_room(len)` elements in all (`edit/mod.rs`),
/// which a push fills. Set when a push writes it again; any other rewrite
/// clears it.
pub(crate) const ROOMY: u8 = 8;

/// The fewest tags a compound has for an edit's lookup to hash its names
/// first (hashing costs about two scans' worth; below this a scan is short).
pub(crate) const HASH_FROM: u32 = 8;

/// A one-byte summary of a stored name (MUTF-8 bytes): its length and last
/// byte. A lookup compares it before the name, one byte in the node instead
/// of a load from the bytes: on complex_player.dat's root (41 keys) a key's
/// hash is shared by 1.5 of the names on average (its own included), against
/// 3.7 for the length alone.
#[inline(always)]
pub(crate) fn name_hash(name: &[u8]) -> u8 {
    name_hash_of(name.len(), name.last().copied().unwrap_or(0))
}

/// [`name_hash`] of a name of `len` bytes ending in `last` (0 if empty).
#[inline(always)]
pub(crate) fn name_hash_of(len: usize, last: u8) -> u8 {
    (len as u8).wrapping_mul(31).wrapping_add(last)
}

/// One tag of a document (see the module docs). `pub` only so the sealed
/// [`Element`](super::list::Element) trait can name it; this module is private.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    pub off: u32,
    pub id: u8,
    /// A list's element type (0 for other tags).
    pub elem: u8,
    /// [`DIRTY`] and [`HASHED`] for containers, [`ROOMY`] for lists of
    /// numbers and arrays, [`UNCONVERTED`] for the root.
    pub flags: u8,
    /// A compound's child: its [`name_hash`] once the compound is
    /// [`HASHED`] (0 before, and for other nodes).
    pub name_hash: u8,
    pub a: u32,
    pub b: u32,
}

const _: () = assert!(std::mem::size_of::<Node>() == 16);

impl Node {
    /// A leaf (number, string or array) whose payload is at `payload`.
    #[inline(always)]
    pub fn leaf(off: u32, id: u8, payload: u32) -> Node {
        Node {
            off,
            id,
            elem: 0,
            flags: 0,
            name_hash: 0,
            a: payload,
            b: 0,
        }
    }

    /// A container of type `id` whose contents are filled in later.
    #[inline(always)]
    pub fn open(off: u32, id: u8) -> Node {
        Node::leaf(off, id, 0)
    }

    /// Whether this is a container whose children are nodes (a compound, or
    /// a list whose elements are not numbers).
    #[inline(always)]
    pub fn has_block(&self) -> bool {
        self.id == COMPOUND || (self.id == LIST && !is_flat(self.elem))
    }

    /// The children's node indices, `a..a + b` (empty for leaves and flat lists).
    #[inline(always)]
    pub fn children(&self) -> std::ops::Range<usize> {
        if self.has_block() {
            self.a as usize..self.a as usize + self.b as usize
        } else {
            0..0
        }
    }

    #[inline(always)]
    pub fn is_dirty(&self) -> bool {
        self.flags & DIRTY != 0
    }

    /// Whether this compound's children carry their name hashes.
    #[inline(always)]
    pub fn is_hashed(&self) -> bool {
        self.flags & HASHED != 0
    }
}

/// Whether a list of `elem` keeps its elements in the bytes only (numbers and
/// End) rather than as nodes.
#[inline(always)]
pub(crate) fn is_flat(elem: u8) -> bool {
    elem <= DOUBLE
}
