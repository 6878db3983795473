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
//! The scratch stack starts in an array the caller keeps on its stack
//! ([`Scratch`], 64 nodes: more than real files keep pending) and moves to
//! the heap only when it outgrows it, so a document costs one allocation
//! (the arena's, whose tail then holds the bytes: [`super::buf::Block`]),
//! and the arena never holds more nodes than the input has bytes. The stack is written through raw pointers kept in the sink (which
//! the inlined core keeps in registers), with one predictable capacity check
//! per push; growth is
//! out of line and capped at what the rest of the input can still need.

use std::marker::PhantomData;
use std::mem::MaybeUninit;

use super::buf::Buf;
use super::node::{Node, UNCONVERTED};
use crate::error::Error;
use crate::read::Sink;
use crate::read::wire::{LittleEndian, u16_at};
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

/// Input bytes per node of the densest real files (complex_player.dat takes
/// 11.6, level.dat 12.9): the arena starts with room for that many nodes
/// and grows by doubling in the rarer denser inputs.
pub(crate) const BYTES_PER_NODE: usize = 12;

/// Nodes the scratch stack holds before it moves to the heap.
const INLINE: usize = 64;

/// The scratch stack's first home, owned by the caller of the parse (on its
/// stack) and lent to the sink.
pub(crate) type Scratch = [MaybeUninit<Node>; INLINE];

/// A new, empty [`Scratch`].
pub(crate) fn scratch() -> Scratch {
    [MaybeUninit::uninit(); INLINE]
}

/// The arena being built. `VALUE` sinks read a value an edit appended (a
/// separate instantiation of the core, so that the reader's own stays
/// inlined where it is used: one more caller made every read slower;
/// `reports/code-notes.md`, "The document"). `UTF8` sinks read Bedrock input, whose
/// strings are UTF-8: each name and string is checked for the bytes that
/// MUTF-8 writes otherwise ([`differs_in_mutf8`]); the first one found
/// marks the root [`UNCONVERTED`].
pub(crate) struct DocSink<'a, 's, const VALUE: bool = false, const UTF8: bool = false> {
    data: &'a [u8],
    /// The blocks made so far. Index `i` here is node `base + i` of the
    /// document the blocks are added to.
    nodes: Buf<Node>,
    base: u32,
    /// Named children of every open compound, innermost last, once they
    /// outgrew the caller's [`Scratch`] (empty, no allocation, until then):
    /// its `len` is only set when it grows (`sp - base` nodes are written).
    heap: Vec<Node>,
    /// The scratch stack's start, next free slot and end (in the lent
    /// [`Scratch`], or in `heap`).
    base_ptr: *mut Node,
    sp: *mut Node,
    end_ptr: *mut Node,
    /// The lent [`Scratch`] must outlive the pointers into it.
    _lent: PhantomData<&'s mut Scratch>,
    root: Node,
    /// The next element slot (arena index) of the innermost open list of
    /// compounds or lists.
    cursor: u32,
    /// The most nodes `nodes` can need in all, when the caller knows a
    /// tighter bound than the rest of `data` gives (a document read from
    /// another form, whose tags per byte are not `data`'s): growth stops
    /// there (see [`Self::most_nodes`]).
    most: usize,
}

/// A compound being read: its children are `scratch[start..]`.
#[derive(Clone, Copy)]
pub(crate) struct OpenDocCompound {
    start: u32,
    target: Target,
}

/// A list of strings or arrays being filled: its block and the next slot.
pub(crate) struct OpenSide {
    block: u32,
    next: u32,
    elem: u8,
}

impl<'a, 's, const VALUE: bool, const UTF8: bool> DocSink<'a, 's, VALUE, UTF8> {
    /// A sink for the value whose payload is at `pos` of `data`, whose
    /// blocks go after the `base` nodes a document already has. `nodes` is
    /// the (empty) vector to build them in.
    /// `scratch` is where the stack starts (see [`Scratch`]); `most` caps
    /// the arena's growth (`usize::MAX`: what the rest of `data` can hold).
    pub(crate) fn new(
        data: &'a [u8],
        nodes: Buf<Node>,
        base: u32,
        scratch: &'s mut Scratch,
        most: usize,
    ) -> Self {
        // `MaybeUninit<Node>` has `Node`'s layout; the slots are written
        // before they are read (`push`, then `scratch_mut`/`close_compound`).
        let base_ptr = scratch.as_mut_ptr().cast::<Node>();
        // SAFETY: INLINE slots are in `scratch` from `base_ptr`.
        let end_ptr = unsafe { base_ptr.add(INLINE) };
        Self {
            data,
            nodes,
            base,
            heap: Vec::new(),
            base_ptr,
            sp: base_ptr,
            end_ptr,
            _lent: PhantomData,
            root: Node::default(),
            cursor: 0,
            most,
        }
    }

    /// The most nodes the arena can hold once the value is read, the input
    /// being at `pos` (or past it): those it has, those waiting on the
    /// scratch stack, and one per byte left (a tag takes at least one: an
    /// empty compound in a list), within the caller's bound. The arena's
    /// doubling stops there, so that it ends within a node per input byte
    /// (16× the input) on any input, not twice that.
    #[inline(always)]
    fn most_nodes(&self, pos: usize) -> usize {
        let left = self.data.len().saturating_sub(pos);
        (self.nodes.len() + self.depth() + left + 16).min(self.most)
    }

    /// The number of nodes on the scratch stack.
    #[inline(always)]
    fn depth(&self) -> usize {
        // SAFETY: base_ptr <= sp, both in (or one past) the same allocation.
        unsafe { self.sp.offset_from(self.base_ptr) as usize }
    }

    /// Pushes a node on the scratch stack, `pos` being where the input is.
    #[inline(always)]
    fn push(&mut self, node: Node, pos: usize) {
        if self.sp == self.end_ptr {
            self.grow_scratch(pos);
        }
        // SAFETY: sp < end_ptr, so the slot is allocated; it is read only
        // through `scratch_mut` / `close_compound` after it is written.
        unsafe {
            self.sp.write(node);
            self.sp = self.sp.add(1);
        }
    }

    /// Scratch slot `i`, which was pushed and not yet popped.
    #[inline(always)]
    fn scratch_mut(&mut self, i: u32) -> &mut Node {
        let i = i as usize;
        assert!(i < self.depth());
        // SAFETY: i < depth, so the slot is allocated and written.
        unsafe { &mut *self.base_ptr.add(i) }
    }

    /// Grows the full scratch stack: doubles it (moving it to the heap the
    /// first time), capped at what the rest of the input (from `pos`) can
    /// need.
    #[cold]
    #[inline(never)]
    fn grow_scratch(&mut self, pos: usize) {
        let used = self.depth();
        // Every named tag takes at least 3 input bytes before its payload.
        let most = used + (self.data.len() - pos) / 3 + 2;
        let target = (used * 2).clamp(used + 1, most.max(used + 1));
        if self.heap.capacity() == 0 {
            let mut heap = Vec::with_capacity(target);
            // SAFETY: the first `used` slots of the lent scratch are written;
            // `heap` has room for them and is a different allocation.
            unsafe {
                std::ptr::copy_nonoverlapping(self.base_ptr, heap.as_mut_ptr(), used);
                heap.set_len(used);
            }
            self.heap = heap;
        } else {
            // SAFETY: the first `used` slots are written.
            unsafe { self.heap.set_len(used) };
            self.heap.reserve_exact(target - used);
        }
        self.base_ptr = self.heap.as_mut_ptr();
        // SAFETY: `used <= capacity` slots are allocated from base_ptr.
        unsafe {
            self.sp = self.base_ptr.add(used);
            self.end_ptr = self.base_ptr.add(self.heap.capacity());
        }
    }

    /// The node a [`Target`] names (most often a scratch slot).
    #[inline(always)]
    fn target(&mut self, t: Target) -> &mut Node {
        if t & ARENA == 0 {
            self.scratch_mut(t)
        } else if t == ROOT {
            &mut self.root
        } else {
            &mut self.nodes[(t & !ARENA) as usize]
        }
    }

    /// Makes room for `need` more nodes in the arena, the input being at
    /// `pos` or past it.
    #[cold]
    #[inline(never)]
    fn grow_arena(&mut self, need: usize, pos: usize) {
        let most = self.most_nodes(pos);
        self.nodes.reserve_capped(need, most);
    }

    /// Reserves a block of `n` nodes in the arena, the input being at
    /// `pos(self)` or past it; returns its index here.
    #[inline(always)]
    fn reserve_block(&mut self, n: u32, pos: impl FnOnce(&mut Self) -> usize) -> u32 {
        let at = self.nodes.len();
        // `n` was checked against the remaining input: at most one element
        // per input byte, so this is bounded by the input. The nodes waiting
        // on the scratch stack come after the block: room for them too, so
        // that a block of millions is not followed by a doubling for one.
        let need = n as usize + self.depth() + 16;
        if self.nodes.spare() < need {
            let most = pos(self);
            self.grow_arena(need, most);
        }
        self.nodes.resize(at + n as usize, Node::default());
        at as u32
    }

    /// With `UTF8`: checks the name of the named tag whose id is at `at`
    /// (its little-endian length after it: `UTF8` sinks read the
    /// little-endian form only).
    #[inline(always)]
    fn check_name(&mut self, at: usize) {
        if UTF8 {
            assert!(at + 3 <= self.data.len());
            // SAFETY: two bytes are there (asserted; the core checked them).
            let len = unsafe { u16_at::<LittleEndian>(self.data, at + 1) } as usize;
            self.check(at + 3, len);
        }
    }

    /// With `UTF8`: checks the string of `len` bytes at `start`.
    #[inline(always)]
    fn check(&mut self, start: usize, len: usize) {
        if UTF8 && differs_in_mutf8(self.data, start, len) {
            self.root.flags |= UNCONVERTED;
        }
    }

    /// The next element slot of the innermost open list (an arena index).
    #[inline(always)]
    fn next_element(&mut self) -> u32 {
        let i = self.cursor;
        self.cursor += 1;
        i
    }
}

impl<'a, 's, const VALUE: bool, const UTF8: bool> Sink<'a> for DocSink<'a, 's, VALUE, UTF8> {
    type Compound = OpenDocCompound;
    type Slot = Target;
    /// The enclosing list's next element slot, restored when this list closes.
    type Elements = u32;
    /// A compound as it is; a list's `Elements` in `start`.
    type Parked = OpenDocCompound;
    type PrefixedList = OpenSide;
    /// The arena and the root value's node.
    type Output = (Buf<Node>, Node);

    #[inline(always)]
    fn root_compound(&mut self) -> Result<OpenDocCompound, Error> {
        // The payload offset is filled in by the caller, which knows it.
        self.root = Node::open(0, COMPOUND);
        Ok(OpenDocCompound {
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
    fn named_leaf(
        &mut self,
        _c: &mut OpenDocCompound,
        id: u8,
        at: usize,
        payload: usize,
    ) -> Result<(), Error> {
        if UTF8 {
            self.check(at + 3, payload - at - 3);
            if id == STRING {
                // SAFETY: the core checked the string's length prefix (and
                // its bytes) at `payload`.
                let len = unsafe { u16_at::<LittleEndian>(self.data, payload) } as usize;
                self.check(payload + 2, len);
            }
        }
        self.push(Node::leaf(at as u32 + 1, id, payload as u32), at);
        Ok(())
    }

    #[inline(always)]
    fn named_compound(
        &mut self,
        _c: &mut OpenDocCompound,
        at: usize,
    ) -> Result<OpenDocCompound, Error> {
        self.check_name(at);
        let target = self.depth() as u32;
        self.push(Node::open(at as u32 + 1, COMPOUND), at);
        Ok(OpenDocCompound {
            start: target + 1,
            target,
        })
    }

    #[inline(always)]
    fn named_list(&mut self, _c: &mut OpenDocCompound, at: usize) -> Result<Target, Error> {
        self.check_name(at);
        let target = self.depth() as u32;
        self.push(Node::open(at as u32 + 1, LIST), at);
        Ok(target)
    }

    #[inline(always)]
    fn close_compound(&mut self, c: OpenDocCompound) {
        let start = c.start as usize;
        let n = self.depth() - start;
        let mut block = 0;
        if n > 0 {
            if self.nodes.spare() < n {
                // SAFETY: slot depth - 1 (>= start) is written. The input is
                // past the last child's name.
                let last = unsafe { (*self.sp.sub(1)).off } as usize;
                self.grow_arena(n, last);
            }
            block = self.base + self.nodes.len() as u32;
            // SAFETY: slots start..depth are written, and no other
            // reference to the scratch allocation is live.
            let children = unsafe { std::slice::from_raw_parts(self.base_ptr.add(start), n) };
            self.nodes.extend_from_slice(children);
            // SAFETY: start <= depth: still within the allocation.
            self.sp = unsafe { self.base_ptr.add(start) };
        }
        let node = self.target(c.target);
        node.a = block;
        node.b = n as u32;
    }

    #[inline(always)]
    fn park_compound(&mut self, c: OpenDocCompound) -> OpenDocCompound {
        c
    }

    #[inline(always)]
    fn resume_compound(&mut self, p: OpenDocCompound) -> OpenDocCompound {
        p
    }

    #[inline(always)]
    fn park_elements(&mut self, e: u32) -> OpenDocCompound {
        OpenDocCompound {
            start: e,
            target: 0,
        }
    }

    #[inline(always)]
    fn resume_elements(&mut self, p: OpenDocCompound) -> u32 {
        p.start
    }

    #[inline(always)]
    fn element_compound(&mut self, pos: usize) -> Result<OpenDocCompound, Error> {
        let i = self.next_element();
        self.nodes[i as usize] = Node::open(pos as u32, COMPOUND);
        Ok(OpenDocCompound {
            start: self.depth() as u32,
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

    fn prefixed_list(
        &mut self,
        elem: u8,
        n: u32,
        payload: usize,
        _len: usize,
    ) -> Result<OpenSide, Error> {
        let block = self.reserve_block(n, |_| payload);
        Ok(OpenSide {
            block,
            next: block,
            elem,
        })
    }

    #[inline(always)]
    fn prefixed_element(&mut self, side: &mut OpenSide, bytes: &'a [u8]) {
        let prefix = layout(side.elem).prefix as usize;
        // `bytes` is a checked slice of `data`: this is its offset there.
        let at = (bytes.as_ptr().addr() - self.data.as_ptr().addr() - prefix) as u32;
        if UTF8 && side.elem == STRING {
            self.check(at as usize + 2, bytes.len());
        }
        self.nodes[side.next as usize] = Node::leaf(at, side.elem, at);
        side.next += 1;
    }

    fn close_prefixed_list(&mut self, slot: Target, side: OpenSide) {
        let block = self.base + side.block;
        let node = self.target(slot);
        node.elem = side.elem;
        node.a = block;
        node.b = side.next - side.block;
    }

    #[inline(always)]
    fn elements(&mut self, slot: Target, elem: u8, n: u32) -> u32 {
        // The list's own node is at (or names) an offset before its elements.
        let block = self.reserve_block(n, |s| s.target(slot).off as usize);
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

    fn finish(self, _end: usize) -> (Buf<Node>, Node) {
        (self.nodes, self.root)
    }
}

/// Whether the UTF-8 bytes `data[start..start + len]` hold a byte that MUTF-8
/// writes otherwise: `00` (U+0000, `C0 80` in MUTF-8) or `F0..=FF` (the first
/// byte of a character above U+FFFF, a surrogate pair in MUTF-8, or no UTF-8
/// at all). Every other byte string is the same text, or the same invalid
/// bytes, in both.
///
/// Called for every name and string of a little-endian read, so it is one
/// 16-byte SSE2 compare for nearly all of them (names are short): an 8-byte
/// SWAR loop cost a little-endian read several times what this does
/// (`reports/code-notes.md`, "The document").
#[inline(always)]
pub(crate) fn differs_in_mutf8(data: &[u8], start: usize, len: usize) -> bool {
    let end = start + len;
    #[cfg(target_arch = "x86_64")]
    if end + 16 <= data.len() {
        // SAFETY: `start <= end` (`len` is unsigned) and `end + 16 <=
        // data.len()` (checked just above).
        return unsafe { differs_in_mutf8_sse2(data, start, end) };
    }
    differs_in_mutf8_bytes(&data[start..end])
}

/// [`differs_in_mutf8`] byte by byte (within 16 bytes of the input's end,
/// and on targets without SSE2).
#[cold]
#[inline(never)]
fn differs_in_mutf8_bytes(bytes: &[u8]) -> bool {
    bytes.iter().any(|&b| b == 0 || b >= 0xf0)
}

/// `LOW_BITS[n]`: the low `n` bits set.
#[cfg(target_arch = "x86_64")]
const LOW_BITS: [u16; 17] = {
    let mut t = [0u16; 17];
    let mut n = 1;
    while n < 17 {
        t[n] = (t[n - 1] << 1) | 1;
        n += 1;
    }
    t
};

/// [`differs_in_mutf8`] for `data[start..end]`, 16 bytes at a time; the
/// bytes after `end` that the last load reads are masked off.
///
/// # Safety
/// `start <= end` and `end + 16 <= data.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn differs_in_mutf8_sse2(data: &[u8], start: usize, end: usize) -> bool {
    use std::arch::x86_64::*;
    debug_assert!(start <= end && end + 16 <= data.len());
    let mut p = start;
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are
    // always available. Each load reads 16 bytes from `p`, and `p <= end`
    // in the loop (it stops once at most 16 bytes of the string are left
    // from `p`), so `p + 16 <= end + 16 <= data.len()` (the caller's
    // promise): in bounds. `_mm_loadu_si128` has no alignment requirement.
    unsafe {
        let ones = _mm_set1_epi8(1);
        let limit = _mm_set1_epi8(0xefu8 as i8);
        loop {
            // Minus one, 00 is FF and F0..=FF are EF..=FE: the odd bytes
            // are those at least EF (their maximum with EF is themselves).
            let v = _mm_sub_epi8(_mm_loadu_si128(data.as_ptr().add(p).cast()), ones);
            let odd = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), v);
            let mask = _mm_movemask_epi8(odd) as u32;
            let left = end - p;
            if left <= 16 {
                // Only the string's own bytes (`left` of them) count. A
                // table, not `(1 << left) - 1`: a shift by a variable takes
                // `cl`, which the core's loop keeps other values in.
                return mask & LOW_BITS[left] as u32 != 0;
            }
            if mask != 0 {
                return true;
            }
            p += 16;
        }
    }
}
