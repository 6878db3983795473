//! From input bytes to a document: where the root's parts are ([`RootParts`]),
//! the one validating pass that builds the nodes ([`parse_capped`]), and how
//! the bytes and nodes are sized and placed (one allocation for both, with
//! headroom for the first edits).
//!
//! A unit because every way in (the `read*` functions, [`Document::from_vec`],
//! Bedrock's little-endian and network reads, compaction, conversion from the
//! other models) ends here, and the sizing rules (how many nodes a read
//! starts with, how far the arena may grow, when the bytes get an allocation
//! of their own) hold only if they all share it: the memory bound in the
//! module docs of [`super`] rests on this file alone.

use std::io::Cursor;

use super::buf::{self, Block, Buf};
use super::node::Node;
use super::{Document, Framing, MAX_BYTES, build};
use crate::Encoding;
use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;
use crate::read::root::{RootPrefix, cursor_parts, not_compressed, root_prefix, tag_prefix};
use crate::read::wire::{BigEndian, Wire};
use crate::tag_id::*;

pub(super) fn read_compound_root(
    data: &mut Cursor<&[u8]>,
    form: Framing,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    let (bytes, start) = cursor_parts(data);
    let layout = match RootParts::of_root(root_prefix(bytes, start, form == Framing::Named)?) {
        Ok(layout) => layout,
        Err(end) => {
            data.set_position(end as u64);
            return Ok(None);
        }
    };
    // Made in the value returned and looked at there: moving the document
    // out of a `Result` and into another one cost a small file's read a
    // copy of it.
    let read = layout.read_into::<BigEndian, false, _>(bytes, opts, Some);
    if let Ok(Some(doc)) = &read {
        data.set_position(start as u64 + doc.bytes.len() as u64);
    }
    read
}

/// Where a root value's parts are in some input.
pub(super) struct RootParts {
    /// The tag id's offset: the document starts here.
    pub(super) start: usize,
    pub(super) id: u8,
    /// The name's u16 length, for the named form.
    pub(super) name: Option<usize>,
    pub(super) payload: usize,
}

impl RootParts {
    /// Where the parts of the compound root `prefix` describes are, or
    /// where an End root ends.
    #[inline(always)]
    pub(super) fn of_root(prefix: RootPrefix) -> Result<RootParts, usize> {
        match prefix {
            RootPrefix::End { end } => Err(end),
            RootPrefix::Compound {
                start,
                name_off,
                payload,
            } => Ok(RootParts {
                start,
                id: COMPOUND,
                name: name_off,
                payload,
            }),
        }
    }

    /// The root at `start` of `bytes`, framed as `form`; `None` for End.
    pub(super) fn find(
        bytes: &[u8],
        start: usize,
        form: Framing,
    ) -> Result<Option<RootParts>, Error> {
        RootParts::find_in::<BigEndian>(bytes, start, form)
    }

    /// [`RootParts::find`] for input in the fixed-width form `W`.
    pub(super) fn find_in<W: Wire>(
        bytes: &[u8],
        start: usize,
        form: Framing,
    ) -> Result<Option<RootParts>, Error> {
        let Some((id, after_id)) = tag_prefix(bytes, start)? else {
            return Ok(None);
        };
        let (name, payload) = match form {
            Framing::Unnamed => (None, after_id),
            Framing::Named => {
                let Some(b) = bytes.get(after_id..after_id + 2) else {
                    return Err(Error::new(ErrorKind::UnexpectedEof, bytes.len()));
                };
                // SAFETY: `b` is two bytes.
                let len = unsafe { crate::read::wire::u16_at::<W>(b, 0) };
                let end = after_id + 2 + len as usize;
                if end > bytes.len() {
                    return Err(Error::new(ErrorKind::UnexpectedEof, bytes.len()));
                }
                (Some(after_id), end)
            }
        };
        if id == COMPOUND {
            not_compressed(bytes, payload)?;
        }
        Ok(Some(RootParts {
            start,
            id,
            name,
            payload,
        }))
    }

    /// Parses the root in `bytes` and copies the document's bytes, into one
    /// allocation sized from the input's length (see [`Block`]).
    pub(super) fn read(&self, bytes: &[u8], opts: &ReadOptions) -> Result<Document, Error> {
        self.read_in::<BigEndian, false>(bytes, opts)
    }

    /// [`RootParts::read`] for input in form `W`; `UTF8`: its strings are
    /// UTF-8 (see [`build::DocSink`]).
    pub(super) fn read_in<W: Wire, const UTF8: bool>(
        &self,
        bytes: &[u8],
        opts: &ReadOptions,
    ) -> Result<Document, Error> {
        self.read_into::<W, UTF8, _>(bytes, opts, |doc| doc)
    }

    /// [`RootParts::read_in`], the document made in `wrap`'s value (so that
    /// a caller returning it in an `Option` does not move it).
    #[inline(always)]
    pub(super) fn read_into<W: Wire, const UTF8: bool, R>(
        &self,
        bytes: &[u8],
        opts: &ReadOptions,
        wrap: impl FnOnce(Document) -> R,
    ) -> Result<R, Error> {
        // Offsets in the document are counted from its first byte: parse the
        // input from there (errors are moved back to input offsets).
        let rel = self.relative();
        let doc_bytes = &bytes[self.start..];
        let rest = doc_bytes.len().min(MAX_BYTES);
        let room = node_room(rest - rel.payload);
        // The arena, with room after its nodes for the bytes and their
        // headroom, lent to them once the parse has found where the
        // document ends (see [`Block`]).
        let slots = room + buf::slots_for(rest + headroom(rest));
        // What the bound below rests on.
        const _: () = assert!(build::BYTES_PER_NODE >= 8 && MAX_BYTES < 1 << 31);
        // SAFETY: `rest <= MAX_BYTES < 2^31`, so `room <= 2^31 / 8 + 64`
        // (`node_room`, with `BYTES_PER_NODE >= 8`) and the bytes' slots
        // are at most `(2^31 + 64 KiB) / 16 + 1`: together under 2^29.
        // Said to the compiler, it drops the allocation's size overflow
        // check on 64-bit targets.
        unsafe { std::hint::assert_unchecked(slots < 1 << 29) };
        let arena = Buf::with_capacity(slots);
        let (mut nodes, end) = parse_capped::<W, UTF8>(doc_bytes, &rel, opts, arena, usize::MAX)
            .map_err(|e| Error::new(e.kind(), e.offset() + self.start))?;
        let own_size = end + headroom(end);
        // Far more input followed the document than it holds: the bytes get
        // a buffer of their own size, and the arena gives up that room.
        let trailing = own_size < rest / 2;
        let lent = if trailing {
            None
        } else {
            nodes.lend_tail(own_size)
        };
        let (block, mut stored) = match lent {
            Some(parts) => parts,
            // The arena outgrew its room (a dense input), or the input was
            // mostly not the document's.
            None => {
                if trailing {
                    let mut own = Buf::with_capacity(nodes.len() + 64);
                    own.extend_from_slice(&nodes);
                    nodes = own;
                }
                (Block::none(), Buf::with_capacity(own_size))
            }
        };
        // SAFETY: `stored` is empty with room for at least `own_size >=
        // end` bytes: a lent tail of `slots_for(own_size)` slots, or a
        // buffer of that capacity. Said to the compiler, the copy below
        // skips its capacity check.
        unsafe { std::hint::assert_unchecked(stored.spare() >= end) };
        stored.extend_from_slice(&doc_bytes[..end]);
        Ok(wrap(Document::new::<W>(block, stored, nodes, &rel, opts)))
    }

    /// This layout for the input cut at `start`.
    fn relative(&self) -> RootParts {
        RootParts {
            start: 0,
            id: self.id,
            name: self.name.map(|n| n - self.start),
            payload: self.payload - self.start,
        }
    }
}

/// Room for what edits append to a document of `len` bytes (a sixteenth
/// plus 64 B, at most 64 KiB), so that the first ones do not copy the whole
/// document: the 64 B cover the edit workload's inserts on small files,
/// which a sixteenth alone does not, and a larger minimum puts a small
/// file's one allocation in a larger size class (the counts:
/// `reports/code-notes.md`, "The document").
fn headroom(len: usize) -> usize {
    (len / 16 + 64).min(64 * 1024)
}

/// The nodes a document whose root payload takes `len` input bytes starts
/// with room for: the densest real files' share; inputs under 2 KiB get at
/// most 62 nodes (with their bytes, a block mimalloc's fast path serves).
pub(super) fn node_room(len: usize) -> usize {
    if len < 2048 {
        (len / 4 + 4).min(62)
    } else {
        // Plus room for the first edits' moved blocks (1 KiB).
        len / build::BYTES_PER_NODE + 64
    }
}

/// Parses the root `at` describes in `data` (offsets from 0) into `nodes`
/// (empty), refusing a document longer than [`MAX_BYTES`]. Returns the
/// arena (root at 0) and the offset just past the document. The arena grows
/// to no more than `most` nodes (beyond what a block needs), nor more than
/// one per byte of `data` left (see [`build::DocSink`]).
///
/// In form `W`; with `UTF8`, a string or name whose UTF-8 bytes are not its
/// MUTF-8 ones marks the root node [`super::node::UNCONVERTED`].
fn parse_capped<W: Wire, const UTF8: bool>(
    data: &[u8],
    at: &RootParts,
    opts: &ReadOptions,
    mut nodes: Buf<Node>,
    most: usize,
) -> Result<(Buf<Node>, usize), Error> {
    let cut = data.len() > MAX_BYTES;
    let data = &data[..data.len().min(MAX_BYTES)];
    nodes.push(Node::default());
    let mut scratch = build::scratch();
    let parsed = crate::read::read_value_in::<W, _>(data, at.payload, at.id, opts, |bounded| {
        build::DocSink::<false, UTF8>::new(bounded, nodes, 0, &mut scratch, most)
    });
    match parsed {
        Ok(((mut nodes, mut root), end)) => {
            if at.id == COMPOUND {
                root.off = at.payload as u32;
            }
            nodes[0] = root;
            Ok((nodes, end))
        }
        Err(e)
            if cut
                && matches!(
                    e.kind(),
                    ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
                ) =>
        {
            Err(Error::new(ErrorKind::InputTooLarge, MAX_BYTES))
        }
        Err(e) => Err(e),
    }
}

impl Document {
    /// The document of bytes in form `W` and the nodes parsed from them,
    /// built in one piece (the byte order set here, not by a later step
    /// taking the document by value).
    #[inline(always)]
    pub(super) fn new<W: Wire>(
        block: Block,
        bytes: Buf<u8>,
        nodes: Buf<Node>,
        at: &RootParts,
        opts: &ReadOptions,
    ) -> Document {
        let le = matches!(W::ENCODING, Encoding::LittleEndian);
        let settled = (bytes.len() as u32, nodes.len() as u32);
        Document {
            _block: block,
            bytes,
            nodes,
            form: if at.name.is_some() {
                Framing::Named
            } else {
                Framing::Unnamed
            },
            le,
            out_order: if le {
                Encoding::LittleEndian
            } else {
                Encoding::BigEndian
            },
            name: at.name.unwrap_or(0) as u32,
            max_depth: opts.max_depth,
            path: Buf::default(),
            settled,
            indexes: Default::default(),
        }
    }

    pub(super) fn parse_vec(
        bytes: Vec<u8>,
        at: &RootParts,
        opts: &ReadOptions,
    ) -> Result<Document, Error> {
        Document::parse_vec_in::<BigEndian, false>(bytes, at, opts)
    }

    /// [`Document::parse_vec`] for input in form `W` (see [`parse_capped`]).
    pub(super) fn parse_vec_in<W: Wire, const UTF8: bool>(
        bytes: Vec<u8>,
        at: &RootParts,
        opts: &ReadOptions,
    ) -> Result<Document, Error> {
        let room = node_room(bytes.len().min(MAX_BYTES) - at.payload);
        Document::parse_vec_room::<W, UTF8>(bytes, at, opts, room, usize::MAX)
    }

    /// [`Document::parse_vec_in`] with room for `room` nodes at the start,
    /// growing to no more than `most` (see [`parse_capped`]).
    #[inline(always)]
    pub(super) fn parse_vec_room<W: Wire, const UTF8: bool>(
        bytes: Vec<u8>,
        at: &RootParts,
        opts: &ReadOptions,
        room: usize,
        most: usize,
    ) -> Result<Document, Error> {
        let nodes = Buf::with_capacity(room);
        let (nodes, end) = parse_capped::<W, UTF8>(&bytes, at, opts, nodes, most)?;
        let mut bytes = Buf::from_vec(bytes);
        bytes.truncate(end);
        Ok(Document::new::<W>(Block::none(), bytes, nodes, at, opts))
    }

    /// Reads `bytes` (written from this document in its stored order, at
    /// `at`) into a new document.
    pub(super) fn reparse(
        &self,
        bytes: Vec<u8>,
        at: &RootParts,
        opts: &ReadOptions,
    ) -> Result<Document, Error> {
        match self.le {
            false => Document::parse_vec(bytes, at, opts),
            // Every string was checked when the document was read.
            true => {
                Document::parse_vec_in::<crate::read::wire::LittleEndian, false>(bytes, at, opts)
            }
        }
    }
}
