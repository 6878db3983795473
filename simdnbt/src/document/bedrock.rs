//! The Bedrock document: the document model ([`crate::document`]) read
//! from Bedrock's little-endian files ([`read_le`]) or network NBT
//! ([`read_network`]), edited like any document, and written back in the
//! encoding it was read in ([`Document::encoding`]; [`Document::write_in`]
//! writes another). This module is also `simdnbt::bedrock::document`, next
//! to the rest of Bedrock.
//!
//! Which model: [`crate::bedrock::owned`] to build or hold a Bedrock tree
//! with plain `Vec`s; this one to read a Bedrock file, look values up and
//! write it back (it reads a little-endian file in fewer instructions than
//! na_nbt's little-endian owned read and
//! [`crate::bedrock::owned::read_le`]: `reports/code-notes.md`).
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::bedrock;
//! use simdnbt::Encoding;
//!
//! // {Name: "Steve 😀", xp: 5} in the Java form, as a Bedrock level.dat.
//! let java = [
//!     10, 0, 0, //
//!     8, 0, 4, b'N', b'a', b'm', b'e', 0, 12, b'S', b't', b'e', b'v', b'e', b' ', //
//!     0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, //
//!     3, 0, 2, b'x', b'p', 0, 0, 0, 5, //
//!     0,
//! ];
//! let body = bedrock::to_little_endian(&java)?;
//! let mut level_dat = Vec::new();
//! bedrock::write_level_header(10, &body, &mut level_dat);
//!
//! let (_header, le) = bedrock::split_level_header(&level_dat).unwrap();
//! let mut doc = bedrock::document::read_le(&mut Cursor::new(le))?.unwrap();
//! assert_eq!(doc.encoding(), Encoding::LittleEndian);
//! assert_eq!(doc.int("xp"), Some(5));
//! assert_eq!(doc.string("Name").unwrap().to_str(), "Steve 😀");
//! assert_eq!(doc.to_bytes(), le); // unedited: the same bytes
//!
//! doc.as_compound_mut().unwrap().set("xp", 6)?;
//! let back = bedrock::owned::read_le(&mut Cursor::new(&doc.to_bytes()[..]))?;
//! assert_eq!(back.unwrap().int("xp"), Some(6));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it works
//!
//! A document read from little-endian input keeps the input's bytes as they
//! are ([`Encoding::LittleEndian`]): the same validating core reads them
//! (its `LittleEndian` instance, so errors and offsets are those of the other
//! little-endian readers) into the same nodes, every accessor decodes
//! numbers and lengths in the document's order, and writing it back is a
//! copy. Its strings are viewed as MUTF-8 ([`Mutf8Str`](crate::Mutf8Str))
//! like every other string of the crate: UTF-8 and MUTF-8 are the same bytes
//! unless a string holds U+0000 or a character above U+FFFF, so the read
//! checks each name and string for the bytes that mark those
//! (`build::differs_in_mutf8`). A document where one is found (rare:
//! none of the corpus files has one) is converted as a whole instead: the
//! core transcodes it to the Java form (strings re-encoded as
//! [`crate::bedrock`] does, invalid UTF-8 kept as it is) and that is read; it
//! still writes little-endian.
//!
//! Edits work on the Java form: the first mutable handle (or `set_root`,
//! `set_name`) on a little-endian document converts its storage the same way
//! (one transcode of the document), and [`Document::write`] turns the edited
//! bytes back into the little-endian form through the core. So edits keep
//! every check they have, and a document that is only read pays nothing for
//! them. Zero-copy big-endian views (`int_array_raw`, `ints_raw`,
//! `int_arrays`, …) are `None` in a little-endian document; the decoding
//! getters work in both.
//!
//! The network (VarInt) form is never stored: its lengths have no fixed
//! width, which the document's offsets rely on. A document read from it is
//! the core's transcode of the input to the Java form (the same checks and
//! errors, at the input's offsets, as
//! [`crate::bedrock::owned::read_network`]), read as Java, so edits need no
//! conversion; its [`Document::write`] transcodes the written Java bytes
//! back ([`Encoding::Network`]). A read then costs a transcode more than
//! [`crate::bedrock::owned::read_network`]'s one pass, and a write one
//! transcode of the document, edited or not.

use std::io::Cursor;

use super::buf::Buf;
use super::node::UNCONVERTED;
use super::read::{RootParts, node_room};
use super::{Framing, MAX_BYTES, write};
use crate::bedrock::transcode;
use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;
use crate::read::root::{cursor_parts, root_prefix_in};
use crate::read::wire::{BigEndian, LittleEndian, VarInt, Wire};

pub use crate::Encoding;
#[allow(deprecated)]
pub use crate::document::ByteOrder;
pub use crate::document::Document;

/// Reads a little-endian document (a named root compound; `Ok(None)` for a
/// lone End) at the cursor into a document, copying its bytes, and moves the
/// cursor past it.
///
/// Memory: as a Java read, at most 18× the input on any input (16 bytes a
/// node, a node per input byte at worst, and the copy), a document that is
/// converted as it is read included (`reports/memory.md`; asserted by
/// `tests/memory/little_endian.rs`).
///
/// # Errors
/// The first structural problem, with its offset in the input: the errors
/// of [`crate::bedrock::owned::read_le`], at the same offsets, and
/// [`ErrorKind::InputTooLarge`] for a
/// document whose Java form (U+0000 takes two bytes there) passes the 2 GiB
/// a document holds.
pub fn read_le(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_le_with(data, &ReadOptions::default())
}

/// [`read_le`] within the limits of `opts`.
pub fn read_le_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    let (bytes, start) = cursor_parts(data);
    let layout = match RootParts::of_root(root_prefix_in::<LittleEndian>(bytes, start, true)?) {
        Ok(layout) => layout,
        Err(end) => {
            data.set_position(end as u64);
            return Ok(None);
        }
    };
    let doc = layout.read_in::<LittleEndian, true>(bytes, opts)?;
    let end = start + doc.bytes.len();
    let doc = checked(doc, opts, start)?;
    data.set_position(end as u64);
    Ok(Some(doc))
}

/// [`read_le`] keeping `bytes` as the document's storage (no copy). Bytes
/// after the document are dropped.
///
/// ```
/// let doc = simdnbt::bedrock::document::from_vec_le(vec![10, 0, 0, 0])?.unwrap();
/// assert!(doc.as_compound().unwrap().is_empty());
/// # Ok::<(), simdnbt::Error>(())
/// ```
pub fn from_vec_le(bytes: Vec<u8>) -> Result<Option<Document>, Error> {
    from_vec_le_with(bytes, &ReadOptions::default())
}

/// [`from_vec_le`] within the limits of `opts`.
pub fn from_vec_le_with(bytes: Vec<u8>, opts: &ReadOptions) -> Result<Option<Document>, Error> {
    let Ok(layout) = RootParts::of_root(root_prefix_in::<LittleEndian>(&bytes, 0, true)?) else {
        return Ok(None);
    };
    let doc = Document::parse_vec_in::<LittleEndian, true>(bytes, &layout, opts)?;
    Ok(Some(checked(doc, opts, 0)?))
}

/// Reads a network-form (VarInt) document (a named root compound;
/// `Ok(None)` for a lone End) at the cursor into a document, and moves the
/// cursor past it. It writes the network form back
/// ([`Document::encoding`] is [`Encoding::Network`]); [`Document::write_in`]
/// writes it as Java or little-endian.
///
/// Memory: the document holds the input's Java form (at most 8× the input:
/// a Long of one VarInt byte is eight bytes in Java, but takes no node),
/// and peaks at no more than 21× the input on any input (a node and four
/// Java bytes per input byte for empty arrays in a list, the worst;
/// `reports/memory.md`; asserted by `tests/memory/network.rs`).
///
/// # Errors
/// The first structural problem, with its offset in the input: the errors
/// of [`crate::bedrock::owned::read_network`], at the same offsets,
/// [`ErrorKind::StringTooLong`] for a
/// string longer than Java's 65535 bytes, and
/// [`ErrorKind::InputTooLarge`] for an
/// input whose Java form passes the 2 GiB a document holds (at the input
/// offset where it does; found while transcoding, before that much is
/// allocated for a long list).
///
/// ```
/// use std::io::Cursor;
/// use simdnbt::bedrock;
/// use simdnbt::Encoding;
///
/// // {"": {n: 1}}: name lengths are VarInts, the Int a ZigZag VarInt (1 → 2).
/// let net = [10, 0, 3, 1, b'n', 2, 0];
/// let mut doc = bedrock::document::read_network(&mut Cursor::new(&net[..]))?.unwrap();
/// assert_eq!(doc.encoding(), Encoding::Network);
/// assert_eq!(doc.int("n"), Some(1));
/// assert_eq!(doc.to_bytes(), net);
///
/// doc.as_compound_mut().unwrap().set("n", -1)?;
/// assert_eq!(doc.to_bytes(), [10, 0, 3, 1, b'n', 1, 0]); // ZigZag: -1 → 1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_network(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_network_with(data, &ReadOptions::default())
}

/// [`read_network`] within the limits of `opts` (applied to the input).
pub fn read_network_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    read_network_within(data, opts, MAX_BYTES)
}

/// [`read_network_with`] for a document of at most `limit` bytes in its
/// Java form (a larger one is [`ErrorKind::InputTooLarge`]; tests lower it).
pub(crate) fn read_network_within(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
    limit: usize,
) -> Result<Option<Document>, Error> {
    let (bytes, start) = cursor_parts(data);
    // The root's checks (type, End) are the owned network reader's.
    let root = match RootParts::of_root(root_prefix_in::<VarInt>(bytes, start, true)?) {
        Ok(root) => root,
        Err(end) => {
            data.set_position(end as u64);
            return Ok(None);
        }
    };
    // The readers count `max_bytes` from the payload, the transcoder from
    // the root's id: the same budget, so the same error at the same offset.
    let mut input_opts = *opts;
    if let Some(max) = opts.max_bytes {
        input_opts = input_opts.max_bytes(max.saturating_add(root.payload - start));
    }
    // The Java form can be 8× the input (a one-byte VarInt Long): the
    // transcoder stops where it passes what a document holds.
    let (mut java, end) = transcode::document_within::<VarInt, BigEndian>(
        bytes,
        start,
        &input_opts,
        false,
        limit.min(MAX_BYTES),
    )?;
    // The output grew by doubling: its slack goes back before the nodes
    // are allocated (a peak of twice the Java form, then 16 bytes a node).
    if java.capacity() - java.len() > java.len() / 8 + 4096 {
        java.shrink_to_fit();
    }
    // The core checked the input within `opts`; the Java bytes are read
    // within its depth only. A tag takes at least one byte of the input (an
    // empty compound, string or array in a list), so the input's size bounds
    // the nodes: numbers, which the Java form widens most, take none.
    let java_opts = ReadOptions::default().max_depth(opts.max_depth);
    let tags = end - root.payload;
    let room = node_room(tags);
    let doc = RootParts::find(&java, 0, Framing::Named)
        .and_then(|at| {
            // A transcoded compound has a root.
            let at = at.ok_or(Error::new(ErrorKind::InvalidRootType(0), 0))?;
            Document::parse_vec_room::<BigEndian, false>(java, &at, &java_opts, room, tags + 2)
        })
        // Unreachable: the core read the input within this depth, and its
        // Java form is valid NBT within the size limit. Said as an error at
        // the document's start all the same.
        .map_err(|e| Error::new(e.kind(), start));
    let mut doc = doc?;
    data.set_position(end as u64);
    doc.out_order = Encoding::Network;
    Ok(Some(doc))
}

/// `doc` (just read, from input offset `start`) as read, or converted to the
/// Java form when one of its strings (or the root name) is not the same
/// bytes in MUTF-8.
///
/// The conversion lets go of the little-endian document before the Java one
/// is read, so that the peak is one document, not two: the bytes are taken
/// out of it (or copied, when they share the arena's allocation, which then
/// had room to spare for them), the nodes dropped, the bytes transcoded and
/// dropped, and the Java form read into exactly as many nodes as the
/// little-endian one had. A Java form past what a document holds (U+0000
/// takes two bytes in MUTF-8) is [`ErrorKind::InputTooLarge`].
fn checked(mut doc: Document, opts: &ReadOptions, start: usize) -> Result<Document, Error> {
    let root_name = doc.name as usize;
    let len = doc.u16_at(root_name) as usize;
    let unconverted = doc.nodes[0].flags & UNCONVERTED != 0
        || super::build::differs_in_mutf8(&doc.bytes, root_name + 2, len);
    if !unconverted {
        return Ok(doc);
    }
    // An unedited document's bytes are its little-endian form, whole.
    let form = doc.form;
    let nodes = doc.nodes.len();
    let le = if doc.bytes.is_owned() {
        std::mem::replace(&mut doc.bytes, Buf::from_vec(Vec::new()))
    } else {
        doc.bytes.clone()
    };
    drop(doc);
    // Any depth: the core checked the input within `opts` already.
    let any = ReadOptions::default().max_depth(u32::MAX);
    let (mut java, _) =
        transcode::document_within::<LittleEndian, BigEndian>(&le, 0, &any, true, MAX_BYTES)
            .map_err(|e| Error::new(e.kind(), e.offset() + start))?;
    drop(le);
    if java.capacity() - java.len() > java.len() / 8 + 4096 {
        java.shrink_to_fit();
    }
    let java_opts = ReadOptions::default().max_depth(opts.max_depth);
    // The same tags: room for each, and for a block's reserve (see `build.rs`).
    let doc = RootParts::find(&java, 0, Framing::Named).and_then(|at| {
        let at = at.ok_or(Error::new(ErrorKind::InvalidRootType(0), 0))?;
        Document::parse_vec_room::<BigEndian, false>(java, &at, &java_opts, nodes + 16, nodes + 16)
    });
    // Unreachable: the Java form of a valid document, within the size and
    // depth it was read with. Said as an error at its start all the same.
    let mut doc = doc.map_err(|e| Error::new(e.kind(), start))?;
    doc.form = form;
    doc.out_order = Encoding::LittleEndian;
    Ok(doc)
}

impl Document {
    /// Moves a little-endian document to Java storage (see the module docs),
    /// before an edit.
    #[cold]
    #[inline(never)]
    pub(crate) fn store_big_endian(&mut self) {
        // The document's own depth, which the core checked when it read it.
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let depth = self.max_depth;
        self.store_big_endian_with(&opts);
        self.max_depth = depth;
    }

    fn store_big_endian_with(&mut self, opts: &ReadOptions) {
        let mut le = Vec::new();
        write::document(self, Framing::Named, &mut le);
        let java = transcode_whole::<LittleEndian, BigEndian>(&le, opts);
        // A little-endian document's strings are the same bytes in MUTF-8
        // (`checked` converted any other when it was read), so its Java form
        // has its size and depth, and reads back.
        let at = RootParts::find(&java, 0, Framing::Named)
            .ok()
            .flatten()
            .expect("a transcoded document has a root");
        let mut fresh = Document::parse_vec(java, &at, opts).expect("a transcoded document reads");
        fresh.form = self.form;
        fresh.out_order = Encoding::LittleEndian;
        *self = fresh;
    }

    /// Appends the document in the byte order it is not stored in.
    #[cold]
    #[inline(never)]
    pub(super) fn write_other_order(&self, form: Framing, order: Encoding, out: &mut Vec<u8>) {
        // The core transcodes named documents: the payload gets an empty
        // name when the output has none.
        let mut stored = Vec::new();
        if form == Framing::Named {
            write::document(self, Framing::Named, &mut stored);
        } else {
            stored.extend_from_slice(&[self.nodes[0].id, 0, 0]);
            write::payload(self, &self.nodes[0], &mut stored);
        }
        // Any depth: the document holds what it holds.
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let other = match (self.le(), order) {
            (false, Encoding::LittleEndian) => {
                transcode_whole::<BigEndian, LittleEndian>(&stored, &opts)
            }
            (true, Encoding::BigEndian) => {
                transcode_whole::<LittleEndian, BigEndian>(&stored, &opts)
            }
            (false, Encoding::Network) => transcode_whole::<BigEndian, VarInt>(&stored, &opts),
            (true, Encoding::Network) => transcode_whole::<LittleEndian, VarInt>(&stored, &opts),
            // The stored order is written by `write::document`.
            (_, Encoding::BigEndian | Encoding::LittleEndian) => stored,
        };
        if form == Framing::Named {
            out.extend_from_slice(&other);
        } else {
            // The id, then the payload after the empty name (a VarInt 0 in
            // the network form, a u16 0 in the others).
            let name = if order == Encoding::Network { 1 } else { 2 };
            out.push(other[0]);
            out.extend_from_slice(&other[1 + name..]);
        }
    }
}

/// The Java form of the little-endian payload `le` of a value of type `id`.
pub(crate) fn be_payload(id: u8, le: &[u8]) -> Vec<u8> {
    let mut framed = Vec::with_capacity(le.len() + 3);
    framed.extend_from_slice(&[id, 0, 0]);
    framed.extend_from_slice(le);
    let opts = ReadOptions::default().max_depth(u32::MAX);
    let mut java = transcode_whole::<LittleEndian, BigEndian>(&framed, &opts);
    java.drain(..3);
    java
}

/// The document `input` (written from a document, so valid) in form `T`.
/// Cannot fail: the core accepts what the writer wrote at any depth
/// (`opts` lifts the depth limit), and the sink's one refusal, a string too
/// long for a fixed-width form, needs a string over 65535 bytes in its new
/// encoding: stored strings are at most that, decoding MUTF-8 to UTF-8
/// never lengthens one, and a little-endian document's strings are the
/// same bytes in MUTF-8 (see `checked`).
fn transcode_whole<F: Wire, T: Wire>(input: &[u8], opts: &ReadOptions) -> Vec<u8> {
    transcode::document::<F, T>(input, 0, opts, true)
        .expect("a document's bytes transcode")
        .0
}
