//! Writing a document in one linear pass over its nodes.
//!
//! A container no edit touched is still exactly its span of the stored bytes,
//! and so is every named leaf entry (id, name, payload; see `node.rs`): the
//! writer copies those spans, and only walks the containers edits made
//! [`DIRTY`](super::node::DIRTY). Spans that follow each other in the bytes
//! are merged into one copy, so an unmodified document is written with one
//! `memcpy`, and a document with a few edits with a few.
//!
//! The walk uses an explicit stack and is generic over an [`Emitter`] (an
//! output byte form): the Java form here copies the stored big-endian bytes. Another byte form
//! (Bedrock's little-endian, its VarInt network form) is one more
//! `Emitter` whose `COPIES` is false: the walk then visits every container
//! and hands each leaf's stored bytes to the encoding to re-encode.
//!
//! The bytes are valid by construction (every edit checked what it wrote),
//! so writing cannot fail.

use super::node::Node;
use super::{Document, Framing};
use crate::tag_id::*;

/// An output byte form.
trait Emitter {
    /// Whether the stored bytes are little-endian (so each instance reads
    /// them in one order, with no branch on it).
    const LE: bool;
    /// Whether the stored bytes (Java, big-endian) are already this form:
    /// then untouched spans are copied as they are.
    const COPIES: bool;
    /// Appends `doc.bytes[start..end]` (only called when [`Self::COPIES`]).
    fn copy(&mut self, start: usize, end: usize);
    /// Appends one byte (a tag id, or a compound's End).
    fn byte(&mut self, b: u8);
    /// Appends the u16-length-prefixed stored string at `off` as a name.
    fn name(&mut self, off: usize);
    /// Appends the payload of a leaf or flat list (stored at `start..end`).
    fn leaf(&mut self, node: &Node, start: usize, end: usize);
    /// Appends a list header.
    fn list_header(&mut self, elem: u8, len: u32);
}

/// The stored form (Java's, or Bedrock's little-endian for a document read
/// from it): the stored bytes as they are, copied in merged runs.
struct Java<'d, 'o, const LE: bool> {
    bytes: &'d [u8],
    out: &'o mut Vec<u8>,
    /// The run of stored bytes not yet copied.
    start: usize,
    end: usize,
}

impl<'d, 'o, const LE: bool> Java<'d, 'o, LE> {
    fn new(doc: &'d Document, out: &'o mut Vec<u8>) -> Self {
        Java {
            bytes: &doc.bytes,
            out,
            start: 0,
            end: 0,
        }
    }

    #[inline(always)]
    fn flush(&mut self) {
        if self.end > self.start {
            self.out
                .extend_from_slice(&self.bytes[self.start..self.end]);
        }
        self.start = 0;
        self.end = 0;
    }
}

impl<const LE: bool> Emitter for Java<'_, '_, LE> {
    const LE: bool = LE;
    const COPIES: bool = true;

    #[inline(always)]
    fn copy(&mut self, start: usize, end: usize) {
        if start != self.end {
            self.flush();
            self.start = start;
        }
        self.end = end;
    }

    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.flush();
        self.out.push(b);
    }

    #[inline(always)]
    fn name(&mut self, off: usize) {
        let b = [self.bytes[off], self.bytes[off + 1]];
        let len = if LE {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        } as usize;
        self.copy(off, off + 2 + len);
    }

    #[inline(always)]
    fn leaf(&mut self, _node: &Node, start: usize, end: usize) {
        self.copy(start, end);
    }

    #[inline(always)]
    fn list_header(&mut self, elem: u8, len: u32) {
        self.flush();
        self.out.push(elem);
        self.out.extend_from_slice(&if LE {
            len.to_le_bytes()
        } else {
            len.to_be_bytes()
        });
    }
}

impl<const LE: bool> Drop for Java<'_, '_, LE> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Where a value's payload starts: after the name of a named node, at `off`
/// of an unnamed one.
#[inline(always)]
fn payload_start(doc: &Document, node: &Node, named: bool, le: bool) -> usize {
    let off = node.off as usize;
    if named {
        off + 2 + doc.u16_in(off, le) as usize
    } else {
        off
    }
}

/// Where a leaf's payload (or a flat list's elements) starts.
#[inline(always)]
fn leaf_start(node: &Node) -> usize {
    if node.id == LIST {
        // A flat list: `a` is its first element, after the 5-byte header.
        node.a as usize - 5
    } else {
        node.a as usize
    }
}

/// Where a leaf's payload (or a flat list's elements) ends.
#[inline(always)]
fn leaf_end(doc: &Document, node: &Node, le: bool) -> usize {
    let p = node.a as usize;
    match node.id {
        // A flat list: `a` is its first element.
        LIST => p + node.b as usize * layout(node.elem).fixed as usize,
        id => {
            let l = layout(id);
            let units = match l.prefix {
                0 => return p + l.fixed as usize,
                2 => doc.u16_in(p, le) as usize,
                _ => doc.u32_in(p, le) as usize,
            };
            p + l.prefix as usize + units * l.element as usize
        }
    }
}

/// The stored bytes of an empty compound (its End) or list (its header).
#[inline(always)]
fn empty_len(node: &Node) -> usize {
    if node.id == COMPOUND { 1 } else { 5 }
}

/// Where the stored span of a container with children that is not dirty
/// starts: at its first entry's id byte (a compound) or at the list header
/// just before its first element.
#[inline(always)]
fn container_start(doc: &Document, node: &Node) -> usize {
    let first = doc.nodes[node.a as usize].off as usize;
    if node.id == COMPOUND {
        first - 1
    } else {
        first - 5
    }
}

/// Where the stored span of a container with children that is not dirty
/// ends: where its last child ends, found by walking down the last children
/// (as deep as the value goes), plus one End byte per compound on the way.
fn container_end<E: Emitter>(doc: &Document, node: &Node) -> usize {
    let mut ends = 0;
    let mut n = node;
    loop {
        let named = n.id == COMPOUND;
        ends += named as usize;
        let last = &doc.nodes[(n.a + n.b - 1) as usize];
        if !last.has_block() {
            return leaf_end(doc, last, E::LE) + ends;
        }
        if last.b == 0 {
            return payload_start(doc, last, named, E::LE) + empty_len(last) + ends;
        }
        n = last;
    }
}

/// A container the walk is inside: its children `next..end` (node indices)
/// not yet written, and whether it is a compound (an End follows them).
#[derive(Clone, Copy)]
struct Frame {
    next: u32,
    end: u32,
    compound: bool,
}

/// Frames kept in [`Stack`]'s array; deeper nesting goes on to a `Vec`.
const INLINE: usize = 16;

/// The containers around the one the walk is in: the first [`INLINE`] in an
/// array on the writer's own stack, deeper ones in a vector, so that writing
/// an edited document allocates only its output (a `Vec` from the first
/// frame cost a small document's write half as much again:
/// `reports/code-notes.md`, "The document").
struct Stack {
    inline: [Frame; INLINE],
    len: usize,
    deeper: Vec<Frame>,
}

impl Stack {
    fn new() -> Self {
        Stack {
            inline: [Frame {
                next: 0,
                end: 0,
                compound: false,
            }; INLINE],
            len: 0,
            deeper: Vec::new(),
        }
    }

    #[inline(always)]
    fn push(&mut self, frame: Frame) {
        if self.len < INLINE {
            self.inline[self.len] = frame;
        } else {
            self.deeper.push(frame);
        }
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Frame> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        if self.len < INLINE {
            Some(self.inline[self.len])
        } else {
            self.deeper.pop()
        }
    }
}

/// Writes `node`'s payload (its id and name, if any, are written already);
/// a container that cannot be copied gets its list header, and its frame is
/// returned for the walk to enter.
#[inline(always)]
fn value<E: Emitter>(doc: &Document, node: &Node, e: &mut E) -> Option<Frame> {
    if !node.has_block() {
        e.leaf(node, leaf_start(node), leaf_end(doc, node, E::LE));
    } else if node.b == 0 {
        if node.id == COMPOUND {
            e.byte(END);
        } else {
            e.list_header(node.elem, 0);
        }
    } else if E::COPIES && !node.is_dirty() {
        e.copy(container_start(doc, node), container_end::<E>(doc, node));
    } else {
        let compound = node.id == COMPOUND;
        if !compound {
            e.list_header(node.elem, node.b);
        }
        return Some(Frame {
            next: node.a,
            end: node.a + node.b,
            compound,
        });
    }
    None
}

/// Where the stored entry of a named child that needs no walk (a leaf, a
/// flat list, or with [`Emitter::COPIES`] a container that is not dirty)
/// ends; `None` when it must be walked.
#[inline(always)]
fn entry_end<E: Emitter>(doc: &Document, child: &Node) -> Option<usize> {
    // Numbers first: most entries.
    if child.id <= DOUBLE {
        Some(child.a as usize + layout(child.id).fixed as usize)
    } else if !child.has_block() {
        Some(leaf_end(doc, child, E::LE))
    } else if !E::COPIES || child.is_dirty() {
        None
    } else if child.b == 0 {
        Some(payload_start(doc, child, true, E::LE) + empty_len(child))
    } else {
        Some(container_end::<E>(doc, child))
    }
}

/// Writes the payload of `root` and everything under it.
fn walk<E: Emitter>(doc: &Document, root: &Node, e: &mut E) {
    // An unmodified document is one copy: no stack to set up.
    let Some(mut frame) = value(doc, root, e) else {
        return;
    };
    // The container the walk is in stays in `frame` (registers), so that a
    // run of children that need no walk is one tight loop.
    let mut stack = Stack::new();
    loop {
        while frame.next < frame.end {
            let child = &doc.nodes[frame.next as usize];
            frame.next += 1;
            if frame.compound {
                let off = child.off as usize;
                match entry_end::<E>(doc, child) {
                    // The whole entry, id to payload, in one span.
                    Some(end) if E::COPIES => {
                        e.copy(off - 1, end);
                        continue;
                    }
                    _ => {
                        e.byte(child.id);
                        e.name(off);
                    }
                }
            }
            if let Some(inner) = value(doc, child, e) {
                stack.push(frame);
                frame = inner;
            }
        }
        if frame.compound {
            e.byte(END);
        }
        match stack.pop() {
            Some(outer) => frame = outer,
            None => return,
        }
    }
}

/// Appends the whole document in `form`, in its stored byte order.
#[inline]
pub(crate) fn document(doc: &Document, form: Framing, out: &mut Vec<u8>) {
    if doc.le() {
        document_in::<true>(doc, form, out)
    } else {
        document_in::<false>(doc, form, out)
    }
}

/// [`document`] for stored bytes that are little-endian if `LE`.
fn document_in<const LE: bool>(doc: &Document, form: Framing, out: &mut Vec<u8>) {
    // The live document is never larger than what is stored.
    out.reserve(doc.bytes.len());
    let root = &doc.nodes[0];
    let mut e = Java::<LE>::new(doc, out);
    // A document keeps its root's id (and name) at its start, so when
    // nothing moved this and the payload are copied in one run.
    if doc.bytes.first() == Some(&root.id) {
        e.copy(0, 1);
    } else {
        e.byte(root.id);
    }
    if form == Framing::Named {
        match doc.form {
            Framing::Named => e.name(doc.name as usize),
            Framing::Unnamed => {
                e.byte(0);
                e.byte(0);
            }
        }
    }
    walk(doc, root, &mut e);
}

/// Appends the payload of `node`.
pub(crate) fn payload(doc: &Document, node: &Node, out: &mut Vec<u8>) {
    if doc.le() {
        walk(doc, node, &mut Java::<true>::new(doc, out));
    } else {
        walk(doc, node, &mut Java::<false>::new(doc, out));
    }
}

/// The owned value of type `id` whose payload `bytes` holds (written by this
/// writer, so valid).
pub(crate) fn owned_value(bytes: &[u8], id: u8) -> crate::owned::NbtTag {
    let mut framed = Vec::with_capacity(bytes.len() + 1);
    framed.push(id);
    framed.extend_from_slice(bytes);
    // Any depth: the value was read (or built by checked edits) already.
    let opts = crate::ReadOptions::default().max_depth(u32::MAX);
    crate::owned::read_optional_tag_with(&mut std::io::Cursor::new(&framed[..]), &opts)
        .ok()
        .flatten()
        .expect("a document's bytes read back")
}
