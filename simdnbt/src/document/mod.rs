//! A mutable document: read once, change a few values, write back at little
//! more than the cost of a copy.
//!
//! [`Document`] owns the input bytes (a copy of a `&[u8]`, or the `Vec<u8>`
//! you hand it) and one arena of 16-byte nodes, one per tag, built by the same
//! validating pass every reader shares ([`read`] accepts and rejects exactly
//! what [`crate::borrow::read`] does, with the same errors at the same
//! offsets). Strings and arrays stay in the bytes: reading one is a view, an
//! array is decoded when you ask for it. Edits keep the document valid or
//! fail and change nothing; the writer copies every subtree an edit did not
//! touch straight from the stored bytes.
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::document;
//!
//! // {Score: 7} as a file on disk.
//! let bytes = [0x0a, 0, 0, 0x03, 0, 5, b'S', b'c', b'o', b'r', b'e', 0, 0, 0, 7, 0];
//! let mut doc = document::read(&mut Cursor::new(&bytes[..]))?.unwrap();
//! assert_eq!(doc.int("Score"), Some(7));
//!
//! let mut root = doc.as_compound_mut().unwrap();
//! root.set("Score", 8)?; // same type: changed in place
//! root.set("Name", "Steve")?; // a new key
//! root.list_mut("Tags").map(|mut l| l.push("x")); // no such list: nothing happens
//!
//! let mut out = Vec::new();
//! doc.write(&mut out);
//! let back = simdnbt::borrow::read(&mut Cursor::new(&out[..]))?.unwrap();
//! assert_eq!(back.int("Score"), Some(8));
//! assert_eq!(back.string("Name").unwrap().to_str(), "Steve");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Which model
//!
//! | job | model |
//! |---|---|
//! | read values and let go of the input | [`crate::borrow`] (no copy, fastest) |
//! | read, change a few values, write back (tools, servers saving player data) | `document` |
//! | build a tree by hand, or hold values with `&mut` access to plain `Vec`s | [`crate::owned`] |
//!
//! # Cost
//!
//! Reading is the borrow reader's pass plus one copy of the input and one
//! allocation, which holds both the bytes and the nodes; dropping is one free
//! ([`Document::from_vec`] keeps your vector as the bytes: no copy, one
//! allocation for the nodes). Writing an unmodified document is one copy; after edits, the
//! writer walks only the containers an edit touched and copies everything
//! else in runs. Lookup by key is a scan of the compound's children from the
//! end; once an edit has looked a key up in a compound of 8 or more tags, the
//! scan there compares a one-byte hash of each name (kept in its node) before
//! the name itself. In a compound of 128 or more tags lookups are O(1)
//! amortised: once scans there have cost about what it does, a lookup
//! builds a hash index of its keys, which `insert`, `push` and `remove` keep
//! up to date (so a compound of n keys is built with `insert` in O(n));
//! `clone` and compaction start without one. `len` and indexing are O(1). (Instruction counts against
//! the other models and na_nbt: `reports/perf.md`.)
//!
//! # Memory
//!
//! A document holds its bytes and 16 bytes per tag. A tag takes at least one
//! input byte (an empty compound in a list), and the arena grows no further
//! than one node per input byte (its doubling stops at what the rest of the
//! input can still hold), so a read peaks at 16× the input in nodes plus the
//! copy of the bytes and their headroom: at most **18×** the input (plus
//! 64 KiB) on any input, nearly reached by millions of empty compounds in a
//! list, while real files peak at a few times their size, bytes included
//! (each measured in `reports/memory.md`). While reading,
//! the children of the compounds still open wait on a scratch stack (on the
//! stack up to 64 nodes): every named tag takes at least 4 input bytes, so
//! it is at most 4× the input, and the arena leaves room for no more nodes
//! than are left to come. The same bound holds for Bedrock's little-endian
//! form (18×: a document converted as it is read lets go of the first one
//! before it reads the second) and, with the Java bytes it stores, 21× for
//! its network form (`reports/memory.md`; asserted in `tests/memory/`).
//!
//! Edits append: a value that cannot change in place is written again at the
//! end of the bytes (the old one becomes garbage), a compound or list that
//! gains an element moves its block of nodes to the end of the arena with
//! room for as many again, and a list of numbers that gains one is written
//! again at the end of the bytes with room likewise, so pushes cost amortized
//! O(1) at any nesting. Bytes or nodes that outgrow their part of the read's
//! allocation move to one of their own; the old part stays allocated,
//! unused, until the document is compacted or dropped. When bytes or nodes
//! grow past four times what they held after the last read or compaction
//! (plus 64 KiB / 4096 nodes), the document compacts itself (the first push
//! into each block after a compaction may move it, up to twice the document
//! over all blocks, which must not compact it again); [`Document::compact`]
//! does it on request.
//!
//! # Bedrock
//!
//! With the `bedrock` feature, [`bedrock`] (also `simdnbt::bedrock::document`)
//! reads Bedrock's little-endian files and network NBT into a document and
//! writes them back in their own encoding ([`Document::encoding`],
//! [`Document::write_in`]); how, and what it costs, is said there.
//!
//! # Limits
//!
//! The reader's limits ([`ReadOptions`]) apply, and edits keep to them: no
//! edit nests deeper than the depth the document was read with (512 by
//! default), makes a string longer than 65535 encoded bytes or a list or
//! array longer than `i32::MAX`, or gives a list an element of another type.
//! A document, with everything edits appended, holds at most 2^31 − 1 bytes
//! (larger inputs are [`ErrorKind::InputTooLarge`]; so is a larger value
//! given to [`Document::try_from_borrow`], and to [`Document::from_owned`]
//! [`WriteError::DocumentTooLarge`](crate::WriteError::DocumentTooLarge);
//! [`Document::from_borrow`] panics on one).

/// Calls `$m!` with the typed getters every compound-like type has (one
/// list, so `NbtCompound` and `Document` cannot drift apart). `$d` is the
/// lifetime of the views they return.
macro_rules! for_each_getter {
    ($m:ident, $d:lifetime) => {
        $m! {
            /// The Byte called `name`.
            byte -> i8;
            /// The Short called `name`.
            short -> i16;
            /// The Int called `name`.
            int -> i32;
            /// The Long called `name`.
            long -> i64;
            /// The Float called `name`.
            float -> f32;
            /// The Double called `name`.
            double -> f64;
            /// The ByteArray called `name`.
            byte_array -> &$d [u8];
            /// The String called `name` (not yet decoded).
            string -> &$d Mutf8Str;
            /// The List called `name`.
            list -> NbtList<$d>;
            /// The Compound called `name`.
            compound -> NbtCompound<$d>;
            /// The IntArray called `name`, converted to native order.
            int_array -> Vec<i32>;
            /// The LongArray called `name`, converted to native order.
            long_array -> Vec<i64>;
            /// The IntArray called `name` as a zero-copy big-endian view.
            int_array_raw -> RawList<$d, i32>;
            /// The LongArray called `name` as a zero-copy big-endian view.
            long_array_raw -> RawList<$d, i64>;
        }
    };
}

#[cfg(feature = "bedrock")]
#[cfg_attr(docsrs, doc(cfg(feature = "bedrock")))]
pub mod bedrock;
mod buf;
mod build;
mod compound;
#[cfg(feature = "compression")]
mod compressed;
mod convert;
mod edit;
mod index;
mod list;
mod node;
mod path;
mod read;
mod tag;
mod write;

use std::fmt;
use std::io::Cursor;

pub use compound::{NbtCompound, NbtCompoundIter};
pub use edit::{ArrayElement, ArrayMut, EditError, Key, NbtCompoundMut, NbtListMut};
pub use list::{
    Element, Elements, ElementsIter, ListElement, NbtCompoundList, NbtList, NbtListList,
};
pub use path::DocValue;
pub use tag::NbtTag;

use crate::Encoding;
use crate::error::{Error, ErrorKind};
use crate::mutf8::Mutf8Str;
use crate::options::ReadOptions;
use crate::raw_list::RawList;
use crate::read::root::{cursor_parts, root_prefix, tag_prefix};
use crate::tag_id::*;
use buf::{Block, Buf};
use node::Node;
use read::{RootParts, read_compound_root};

/// The most bytes a document holds (offsets are 32-bit, with one bit spare).
pub(crate) const MAX_BYTES: usize = i32::MAX as usize;

/// How a document's root value is framed: with a name (files) or without
/// (network NBT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Framing {
    /// Tag id, name, payload: NBT files on disk (the root is nearly always
    /// a compound, with an empty name).
    Named,
    /// Tag id, payload: network NBT (a compound since Minecraft 1.20.2, any
    /// tag since 1.20.3).
    Unnamed,
}

/// The old name of [`Framing`]: `simdnbt::bedrock` has a `Form` too (the
/// form [`detect`](crate::bedrock::detect) finds), which this one is not.
#[deprecated(since = "0.11.0", note = "renamed `simdnbt::document::Framing`")]
pub type Form = Framing;

/// The old name of [`Encoding`]: a document's encoding was called its byte
/// order, though the network form is not one.
#[deprecated(since = "0.11.0", note = "renamed `simdnbt::Encoding`")]
pub type ByteOrder = Encoding;

/// A document you can read, change and write (see the [module docs](self)).
///
/// `Send + Sync`: it owns everything it points into. `Clone` copies the
/// bytes and nodes as they are (garbage included; [`compact`](Self::compact)
/// the copy to drop it).
#[derive(Clone)]
pub struct Document {
    /// The allocation a read puts `nodes` and `bytes` in (until either
    /// outgrows its part), so that a document costs one allocation. Only
    /// kept, never read: the buffers point into it.
    _block: Block,
    /// The input, then everything edits appended.
    bytes: Buf<u8>,
    /// `nodes[0]` is the root value; the rest are blocks of children.
    nodes: Buf<Node>,
    form: Framing,
    /// Whether `bytes` are little-endian (else big-endian: stored bytes are
    /// never in the network form).
    le: bool,
    /// The byte order [`Document::write`] writes: the stored one, except for
    /// a little-endian document an edit moved to big-endian storage, and a
    /// document read from the network form (see `bedrock.rs`).
    out_order: Encoding,
    /// [`Framing::Named`]: where the root name's u16 length is.
    name: u32,
    /// The depth limit edits keep to (the one the document was read with).
    max_depth: u32,
    /// The node indices from the root to the container the innermost live
    /// mutable handle stands on (see `edit.rs`). A [`Buf`], not a `Vec`:
    /// a `Vec`'s capacity has the largest niche in the document, which made
    /// `Result<Document, E>` for an `E` such as `String` a tagged enum,
    /// whose document a caller converting the read's error copied twice;
    /// with the niche in a one-byte field the document is built in place.
    path: Buf<u32>,
    /// `bytes.len()` and `nodes.len()` after the last read or compaction.
    settled: (u32, u32),
    /// The key indexes of big compounds (`index.rs`).
    indexes: index::Indexes,
}

const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Document>();
};

/// Reads a named root compound (the form of files on disk) into a document,
/// copying the document's bytes. `Ok(None)` for an End root. Accepts and
/// rejects exactly what [`crate::borrow::read`] does, at the same offsets, and
/// leaves the cursor just after the document.
pub fn read(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_with(data, &ReadOptions::default())
}

/// [`read`] with explicit limits.
pub fn read_with(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Option<Document>, Error> {
    read_compound_root(data, Framing::Named, opts)
}

/// Reads an unnamed root compound (the network form since Minecraft 1.20.2).
/// `Ok(None)` for an End root.
pub fn read_unnamed(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_unnamed_with(data, &ReadOptions::default())
}

/// [`read_unnamed`] with explicit limits.
pub fn read_unnamed_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    read_compound_root(data, Framing::Unnamed, opts)
}

/// Reads an unnamed tag of any type but End (network NBT since 1.20.3).
/// An End tag is [`ErrorKind::InvalidRootType`]`(0)`.
pub fn read_tag(data: &mut Cursor<&[u8]>) -> Result<Document, Error> {
    let start = data.position();
    match read_optional_tag(data)? {
        Some(doc) => Ok(doc),
        None => Err(Error::new(ErrorKind::InvalidRootType(END), start as usize)),
    }
}

/// Reads an unnamed tag of any type; End means "no value" (`Ok(None)`).
pub fn read_optional_tag(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_optional_tag_with(data, &ReadOptions::default())
}

/// [`read_optional_tag`] with explicit limits.
pub fn read_optional_tag_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    let (bytes, pos) = cursor_parts(data);
    let Some((id, payload)) = tag_prefix(bytes, pos)? else {
        data.set_position(pos as u64 + 1);
        return Ok(None);
    };
    let doc = RootParts {
        start: pos,
        id,
        name: None,
        payload,
    }
    .read(bytes, opts)?;
    data.set_position(pos as u64 + doc.bytes.len() as u64);
    Ok(Some(doc))
}

/// Reads a root of any type in `form` (a named List root, as some files
/// have, included). `Ok(None)` for an End root.
///
/// ```
/// use simdnbt::document::{self, Framing};
///
/// // A named root list of two bytes: 09 00 00 | 01 00000002 | 05 06
/// let bytes = [9, 0, 0, 1, 0, 0, 0, 2, 5, 6];
/// let doc = document::read_root(&mut std::io::Cursor::new(&bytes[..]), Framing::Named, &Default::default())?
///     .unwrap();
/// assert_eq!(doc.root().list().unwrap().bytes(), Some(&[5i8, 6][..]));
/// # Ok::<(), simdnbt::Error>(())
/// ```
pub fn read_root(
    data: &mut Cursor<&[u8]>,
    form: Framing,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    let (bytes, start) = cursor_parts(data);
    let Some(layout) = RootParts::find(bytes, start, form)? else {
        data.set_position(start as u64 + 1);
        return Ok(None);
    };
    let doc = layout.read(bytes, opts)?;
    data.set_position(start as u64 + doc.bytes.len() as u64);
    Ok(Some(doc))
}

/// The getters of the root compound (`None` when the root is not one).
macro_rules! delegate_getters {
    ($( $(#[$doc:meta])* $name:ident -> $ret:ty; )*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, name: &str) -> Option<$ret> {
            self.as_compound()?.$name(name)
        }
    )*};
}

impl Document {
    /// Reads a named root compound from `bytes` as [`read`] does, keeping
    /// the vector as the document's storage (no copy). Bytes after the
    /// document are dropped. `Ok(None)` for an End root.
    ///
    /// ```
    /// let doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])?.unwrap();
    /// assert!(doc.as_compound().unwrap().is_empty());
    /// # Ok::<(), simdnbt::Error>(())
    /// ```
    pub fn from_vec(bytes: Vec<u8>) -> Result<Option<Document>, Error> {
        let Ok(at) = RootParts::of_root(root_prefix(&bytes, 0, true)?) else {
            return Ok(None);
        };
        Ok(Some(Document::parse_vec(
            bytes,
            &at,
            &ReadOptions::default(),
        )?))
    }

    /// [`Document::from_vec`] for a root of any type in `form`, with
    /// explicit limits (what [`read_root`] reads, without the copy).
    pub fn from_vec_with(
        bytes: Vec<u8>,
        form: Framing,
        opts: &ReadOptions,
    ) -> Result<Option<Document>, Error> {
        match RootParts::find(&bytes, 0, form)? {
            None => Ok(None),
            Some(at) => Ok(Some(Document::parse_vec(bytes, &at, opts)?)),
        }
    }

    /// How the root is framed (and how [`write`](Self::write) frames it).
    pub fn form(&self) -> Framing {
        self.form
    }

    /// The encoding the document was read in, which
    /// [`write`](Self::write) writes ([`Encoding::BigEndian`] for Java
    /// input, [`Encoding::LittleEndian`] or [`Encoding::Network`] for
    /// Bedrock input).
    pub fn encoding(&self) -> Encoding {
        self.out_order
    }

    /// The old name of [`encoding`](Self::encoding).
    #[deprecated(since = "0.11.0", note = "renamed `encoding`")]
    pub fn byte_order(&self) -> Encoding {
        self.encoding()
    }

    /// The root's name (empty for the unnamed form).
    pub fn name(&self) -> &Mutf8Str {
        match self.form {
            Framing::Named => Mutf8Str::from_slice(self.str_at(self.name as usize)),
            Framing::Unnamed => Mutf8Str::from_slice(&[]),
        }
    }

    /// The root value.
    #[inline]
    pub fn root(&self) -> NbtTag<'_> {
        NbtTag::new(self, &self.nodes[0])
    }

    /// The root compound, if the root is one (it always is for documents
    /// read by [`read`] and [`read_unnamed`]).
    #[inline]
    pub fn as_compound(&self) -> Option<NbtCompound<'_>> {
        self.root().compound()
    }

    /// The tag called `name` in the root compound (the last, if repeated).
    pub fn get(&self, name: &str) -> Option<NbtTag<'_>> {
        self.as_compound()?.get(name)
    }

    /// Whether the root compound has a tag called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    for_each_getter!(delegate_getters, '_);

    /// Appends the document in its own [`form`](Self::form) and
    /// [`encoding`](Self::encoding).
    ///
    /// An edited document is valid by construction, so this cannot fail.
    #[inline]
    pub fn write(&self, out: &mut Vec<u8>) {
        if self.out_order == self.stored_order() {
            write::document(self, self.form, out);
        } else {
            self.write_other_order(self.form, self.out_order, out);
        }
    }

    /// Appends the document in `form`: [`Framing::Named`] gives a document
    /// read unnamed the empty name, [`Framing::Unnamed`] leaves the name out.
    pub fn write_as(&self, form: Framing, out: &mut Vec<u8>) {
        if self.out_order == self.stored_order() {
            write::document(self, form, out);
        } else {
            self.write_other_order(form, self.out_order, out);
        }
    }

    /// Appends the document in `form` and byte `order`. The document's own
    /// order is a copy of every part no edit touched; another order is
    /// the stored bytes re-encoded by the validating core (numbers swapped
    /// or made VarInts, strings converted between MUTF-8 and UTF-8 as
    /// `simdnbt::bedrock` converts them). Only with the `bedrock` feature:
    /// without it every document is big-endian ([`write_as`](Self::write_as)).
    #[cfg(feature = "bedrock")]
    pub fn write_in(&self, form: Framing, order: Encoding, out: &mut Vec<u8>) {
        if order == self.stored_order() {
            write::document(self, form, out);
        } else {
            self.write_other_order(form, order, out);
        }
    }

    /// Without the `bedrock` feature nothing reads a little-endian document,
    /// so the stored and written orders are both big-endian and this is
    /// never called.
    #[cfg(not(feature = "bedrock"))]
    #[cold]
    fn write_other_order(&self, _form: Framing, _order: Encoding, _out: &mut Vec<u8>) {
        unreachable!("a document is big-endian without the `bedrock` feature");
    }

    /// The document's bytes in its own form, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Drops everything edits left behind: the bytes are written again as
    /// they now are and read back (at any depth: a document may be deeper
    /// than the limit its edits keep to). Nothing visible changes.
    pub fn compact(&mut self) {
        let mut bytes = Vec::new();
        write::document(self, self.form, &mut bytes);
        // At any depth: the document may be deeper than the limit its edits
        // keep to (one made from a borrowed document read with a raised
        // limit, or read with one).
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let fresh = match self.le {
            false => RootParts::find(&bytes, 0, self.form),
            true => RootParts::find_in::<crate::read::wire::LittleEndian>(&bytes, 0, self.form),
        }
        .and_then(|at| {
            let at = at.ok_or(Error::new(ErrorKind::InvalidRootType(END), 0))?;
            self.reparse(bytes, &at, &opts)
        });
        // Written from a valid document (every edit checked what it wrote),
        // no larger than its stored bytes (which edits keep within
        // `MAX_BYTES`), so it reads back at any depth. Were it ever refused,
        // the document stays as it is: compaction only saves memory.
        let Ok(mut fresh) = fresh else {
            debug_assert!(false, "a written document reads back: {fresh:?}");
            return;
        };
        fresh.out_order = self.out_order;
        fresh.max_depth = self.max_depth;
        let path = std::mem::take(&mut self.path);
        *self = fresh;
        self.path = path;
    }

    /// The bytes of the u16-length-prefixed string at `off`.
    #[inline(always)]
    pub(crate) fn str_at(&self, off: usize) -> &[u8] {
        let len = self.u16_at(off) as usize;
        &self.bytes[off + 2..off + 2 + len]
    }

    /// Before an edit: a little-endian document moves to big-endian storage
    /// (see `bedrock.rs`).
    #[inline(always)]
    pub(crate) fn before_edit(&mut self) {
        #[cfg(feature = "bedrock")]
        if self.le() {
            self.store_big_endian();
        }
    }

    /// Whether the stored bytes are little-endian.
    #[inline(always)]
    pub(crate) fn le(&self) -> bool {
        self.le
    }

    /// The byte order of the stored bytes.
    #[inline(always)]
    fn stored_order(&self) -> Encoding {
        if self.le {
            Encoding::LittleEndian
        } else {
            Encoding::BigEndian
        }
    }

    #[inline(always)]
    pub(crate) fn u16_at(&self, off: usize) -> u16 {
        self.u16_in(off, self.le())
    }

    #[inline(always)]
    pub(crate) fn u32_at(&self, off: usize) -> u32 {
        self.u32_in(off, self.le())
    }

    /// The big-endian u16 at `off`, for edits (which work on big-endian
    /// storage only: [`Document::before_edit`]).
    #[inline(always)]
    pub(crate) fn u16_be(&self, off: usize) -> u16 {
        debug_assert!(!self.le());
        self.u16_in(off, false)
    }

    /// The big-endian u32 at `off`, for edits.
    #[inline(always)]
    pub(crate) fn u32_be(&self, off: usize) -> u32 {
        debug_assert!(!self.le());
        self.u32_in(off, false)
    }

    /// The u16 at `off`, little-endian if `le` (a constant where the
    /// caller is monomorphised for one order: the writer, the edits).
    #[inline(always)]
    pub(crate) fn u16_in(&self, off: usize, le: bool) -> u16 {
        let b = self.bytes[off..off + 2].try_into().unwrap();
        if le {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }
    }

    /// The u32 at `off`, little-endian if `le`.
    #[inline(always)]
    pub(crate) fn u32_in(&self, off: usize, le: bool) -> u32 {
        let b = self.bytes[off..off + 4].try_into().unwrap();
        if le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        }
    }

    /// The `N` stored bytes of a number at `off`, in big-endian order.
    #[inline(always)]
    pub(crate) fn be_bytes<const N: usize>(&self, off: usize) -> [u8; N] {
        let mut b: [u8; N] = self.bytes[off..off + N].try_into().unwrap();
        if self.le() {
            b.reverse();
        }
        b
    }

    /// The numbers stored in `bytes` (a slice of the stored bytes), in
    /// native order.
    #[inline(always)]
    pub(crate) fn numbers<T: crate::simd::BeNumber>(&self, bytes: &[u8]) -> Vec<T> {
        if self.le() {
            le_numbers(bytes)
        } else {
            crate::simd::from_be_bytes(bytes)
        }
    }

    /// The children (or elements) of a node.
    #[inline(always)]
    pub(crate) fn children(&self, node: &Node) -> &[Node] {
        &self.nodes[node.children()]
    }
}

/// Little-endian `bytes` as native numbers (swapped to big-endian, then
/// through the SIMD kernels, as for big-endian bytes).
#[cold]
#[inline(never)]
fn le_numbers<T: crate::simd::BeNumber>(bytes: &[u8]) -> Vec<T> {
    let mut swapped = Vec::with_capacity(bytes.len());
    crate::simd::extend_swapped(T::SIZE, &mut swapped, bytes);
    crate::simd::from_be_bytes(&swapped)
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("form", &self.form)
            .field("name", &self.name())
            .field("root", &self.root())
            .finish()
    }
}

/// Documents are equal when they write the same bytes in their own forms.
impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

#[cfg(test)]
mod tests;
