//! Reading a document: the document model's [`Sink`] for the validating core.
//!
//! Nodes of every open compound wait on one scratch stack; when a compound
//! closes, its children are appended to the arena as one contiguous block and
//! its own node (just below them on the scratch stack, or in its list's block)
//! is patched with where they went. A list knows its length from its header,
//! which the core checked against the remaining input (at least one byte per
//! element), so its block is reserved in the arena when it opens and its
//! elements are written straight into it. Lists of numbers get no element
//! nodes at all.
//!
//! So a document costs three allocations (bytes, arena, scratch), and the
//! arena never holds more nodes than the input has bytes.

use super::node::Node;
use crate::error::Error;
use crate::read::Sink;
use crate::tag_id::*;

/// Where a container's own node is, so it can be patched once its contents
/// are known: an index into the scratch stack, [`ARENA`] | an arena index
/// (list elements), or [`ROOT`].
type Target = u32;
/// Marks an arena index in a [`Target`] (arena indices stay below 2^31: the
/// arena holds at most one node per input byte, and documents are smaller).
const ARENA: u32 = 1 << 31;
/// The root value's node.
const ROOT: u32 = u32::MAX;

/// The arena being built.
pub(crate) struct DocSink<'a> {
    data: &'a [u8],
    /// The blocks made so far. Index `i` here is node `base + i` of the
    /// document the blocks are added to.
    nodes: Vec<Node>,
    base: u32,
    /// Named children of every open compound, innermost last.
    scratch: Vec<Node>,
    root: Node,
    /// The next element slot (arena index) of the innermost open list of
    /// compounds or lists.
    cursor: u32,
}

/// A compound being read: its children are `scratch[start..]`.
#[derive(Clone, Copy)]
pub(crate) struct OpenCompound {
    start: u32,
    target: Target,
}

/// A list of strings or arrays being filled: its block and the next slot.
pub(crate) struct OpenSide {
    block: u32,
    next: u32,
    elem: u8,
}

impl<'a> DocSink<'a> {
    /// A sink for the value whose payload is at `pos` of `data`, whose
    /// blocks go after the `base` nodes a document already has. `nodes` is
    /// the (empty) vector to build them in.
    pub(crate) fn new(data: &'a [u8], pos: usize, nodes: Vec<Node>, base: u32) -> Self {
        Self {
            data,
            nodes,
            base,
            // Open compounds' children: a few dozen in real files.
            scratch: Vec::with_capacity(((data.len() - pos) / 8).clamp(4, 64)),
            root: Node::default(),
            cursor: 0,
        }
    }

    /// The node a [`Target`] names.
    #[inline(always)]
    fn target(&mut self, t: Target) -> &mut Node {
        if t == ROOT {
            &mut self.root
        } else if t & ARENA != 0 {
            &mut self.nodes[(t & !ARENA) as usize]
        } else {
            &mut self.scratch[t as usize]
        }
    }

    /// Reserves a block of `n` nodes in the arena; returns its document index.
    #[inline(always)]
    fn reserve_block(&mut self, n: u32) -> u32 {
        let at = self.nodes.len();
        // `n` was checked against the remaining input: at most one element
        // per input byte, so this is bounded by the input.
        self.nodes.resize(at + n as usize, Node::default());
        at as u32
    }

    /// The next element slot of the innermost open list (an arena index).
    #[inline(always)]
    fn next_element(&mut self) -> u32 {
        let i = self.cursor;
        self.cursor += 1;
        i
    }
}

impl<'a> Sink<'a> for DocSink<'a> {
    type Compound = OpenCompound;
    type Slot = Target;
    /// The enclosing list's next element slot, restored when this list closes.
    type Elements = u32;
    type Side = OpenSide;
    /// The arena and the root value's node.
    type Output = (Vec<Node>, Node);

    #[inline(always)]
    fn root_compound(&mut self) -> Result<OpenCompound, Error> {
        // The payload offset is filled in by the caller, which knows it.
        self.root = Node::open(0, COMPOUND);
        Ok(OpenCompound {
            start: 0,
            target: ROOT,
        })
    }

    #[inline(always)]
    fn root_list(&mut self, pos: usize) -> Result<Target, Error> {
        self.root = Node::open(pos as u32, LIST);
        Ok(ROOT)
    }

    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error> {
        self.root = Node::leaf(pos as u32, id, pos as u32);
        Ok(())
    }

    #[inline(always)]
    fn named_leaf(&mut self, _c: &mut OpenCompound, id: u8, at: usize, payload: usize) {
        self.scratch
            .push(Node::leaf(at as u32 + 1, id, payload as u32));
    }

    #[inline(always)]
    fn named_compound(&mut self, _c: &mut OpenCompound, at: usize) -> OpenCompound {
        let target = self.scratch.len() as u32;
        self.scratch.push(Node::open(at as u32 + 1, COMPOUND));
        OpenCompound {
            start: target + 1,
            target,
        }
    }

    #[inline(always)]
    fn named_list(&mut self, _c: &mut OpenCompound, at: usize) -> Target {
        let target = self.scratch.len() as u32;
        self.scratch.push(Node::open(at as u32 + 1, LIST));
        target
    }

    #[inline(always)]
    fn close_compound(&mut self, c: OpenCompound) {
        let start = c.start as usize;
        let n = self.scratch.len() - start;
        let mut block = 0;
        if n > 0 {
            block = self.base + self.nodes.len() as u32;
            self.nodes.extend_from_slice(&self.scratch[start..]);
            self.scratch.truncate(start);
        }
        let node = self.target(c.target);
        node.a = block;
        node.b = n as u32;
    }

    #[inline(always)]
    fn element_compound(&mut self, pos: usize) -> Result<OpenCompound, Error> {
        let i = self.next_element();
        self.nodes[i as usize] = Node::open(pos as u32, COMPOUND);
        Ok(OpenCompound {
            start: self.scratch.len() as u32,
            target: ARENA | i,
        })
    }

    #[inline(always)]
    fn element_list(&mut self, pos: usize) -> Result<Target, Error> {
        let i = self.next_element();
        self.nodes[i as usize] = Node::open(pos as u32, LIST);
        Ok(ARENA | i)
    }

    #[inline(always)]
    fn flat_list(&mut self, slot: Target, elem: u8, n: u32, payload: usize) {
        let node = self.target(slot);
        node.elem = elem;
        if super::node::is_flat(elem) {
            node.a = payload as u32;
            node.b = n;
        }
        // An empty list of compounds or lists: no block (`a` = `b` = 0).
    }

    fn side_list(
        &mut self,
        elem: u8,
        n: u32,
        _payload: usize,
        _len: usize,
    ) -> Result<OpenSide, Error> {
        let block = self.reserve_block(n);
        Ok(OpenSide {
            block,
            next: block,
            elem,
        })
    }

    #[inline(always)]
    fn side_element(&mut self, side: &mut OpenSide, bytes: &'a [u8]) {
        let prefix = if side.elem == STRING { 2 } else { 4 };
        // `bytes` is a checked slice of `data`: this is its offset there.
        let at = (bytes.as_ptr() as usize - self.data.as_ptr() as usize - prefix) as u32;
        self.nodes[side.next as usize] = Node::leaf(at, side.elem, at);
        side.next += 1;
    }

    fn close_side_list(&mut self, slot: Target, side: OpenSide) {
        let block = self.base + side.block;
        let node = self.target(slot);
        node.elem = side.elem;
        node.a = block;
        node.b = side.next - side.block;
    }

    #[inline(always)]
    fn elements(&mut self, slot: Target, elem: u8, n: u32) -> u32 {
        let block = self.reserve_block(n);
        let base = self.base;
        let node = self.target(slot);
        node.elem = elem;
        node.a = base + block;
        node.b = n;
        std::mem::replace(&mut self.cursor, block)
    }

    #[inline(always)]
    fn close_elements(&mut self, saved: u32) {
        self.cursor = saved;
    }

    fn finish(self, _end: usize) -> (Vec<Node>, Node) {
        (self.nodes, self.root)
    }
}
