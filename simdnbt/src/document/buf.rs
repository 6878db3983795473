//! [`Buf`]: a growable buffer of `Copy` values that can live in the tail of
//! an allocation it does not own, so that a document's nodes and bytes share
//! one block ([`Block`]) until either outgrows its part of it.
//!
//! A read makes one allocation for both (and dropping the document one free):
//! the arena is allocated with room for the nodes and, after them, for the
//! bytes; once the parse is done, that tail is lent to the bytes. An
//! allocation and a free cost a small document's read a share worth saving
//! even on mimalloc's fast path (`reports/code-notes.md`, "The document").
//! The parts grow on their own: one that
//! outgrows its part moves to an allocation of its own (the old part stays in
//! the block, unused, until the document is dropped or compacted). While the
//! parse runs the arena is an ordinary owned buffer, so a dense input's arena
//! grows by reallocating, as a `Vec` would.

use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use super::node::Node;

/// One allocation holding a document's nodes and, in its tail, its bytes
/// (see [`Buf::lend_tail`]). Never read through; it only keeps the memory the
/// [`Buf`]s in it point into alive (dropping it frees the block, so it must
/// outlive them: it is a field of the same document).
pub(crate) struct Block {
    /// The allocation of a `Vec<Node>` with capacity `slots` (dangling for 0).
    ptr: NonNull<Node>,
    slots: usize,
}

// SAFETY: a `Block` only owns (and frees) its allocation; it never reads it.
unsafe impl Send for Block {}
// SAFETY: as above.
unsafe impl Sync for Block {}

impl Block {
    /// No block (a document whose buffers own their memory).
    pub(crate) fn none() -> Block {
        let mut v = ManuallyDrop::new(Vec::<Node>::new());
        Block {
            slots: v.capacity(),
            ptr: NonNull::new(v.as_mut_ptr()).expect("a vector's pointer is not null"),
        }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: `ptr` and `slots` are a `Vec<Node>`'s allocation (`none`,
        // `Buf::lend_tail`), given up there; no values to drop (length 0).
        drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), 0, self.slots) });
    }
}

impl Clone for Block {
    /// A clone's buffers own their memory: no block.
    fn clone(&self) -> Block {
        Block::none()
    }
}

/// The nodes of room that `bytes` bytes take.
pub(crate) fn slots_for(bytes: usize) -> usize {
    bytes.div_ceil(size_of::<Node>())
}

impl Buf<Node> {
    /// Splits this arena's allocation: the last [`slots_for`]`(bytes)` slots
    /// of its room become an empty byte buffer, the rest stays the arena's,
    /// and a [`Block`] takes over the allocation. `None` (nothing changed)
    /// when the arena does not own its memory or has less spare room than
    /// that.
    pub(crate) fn lend_tail(&mut self, bytes: usize) -> Option<(Block, Buf<u8>)> {
        let tail = slots_for(bytes);
        if !self.is_owned() || self.spare() < tail {
            return None;
        }
        let slots = self.room();
        let keep = slots - tail;
        let block = Block {
            ptr: self.ptr,
            slots,
        };
        // No longer owned (the block frees the allocation); `len <= keep`,
        // as the spare room was at least `tail`.
        self.cap = keep;
        // SAFETY: the allocation (now the block's) has `slots` slots; the
        // bytes get the `tail` after the arena's `keep`, which no one else
        // uses, and the block outlives them (the document's field).
        let bytes = unsafe {
            Buf::in_part(
                self.ptr.as_ptr().add(keep).cast::<u8>(),
                tail * size_of::<Node>(),
            )
        };
        Some((block, bytes))
    }
}

/// Set in [`Buf`]'s `cap` when the buffer owns its memory (a vector's
/// allocation, freed on drop); clear while it is in a part of a [`Block`].
/// A capacity never reaches it (`isize::MAX` bytes at most).
const OWNED: usize = 1 << (usize::BITS - 1);

/// A growable buffer of `T`: `len` values at `ptr`, room for `cap` (less the
/// [`OWNED`] bit). The size of a `Vec`, so that documents stay cheap to move
/// (a flag of its own made a small document's read measurably dearer:
/// `reports/code-notes.md`, "The document").
pub(crate) struct Buf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    cap: usize,
}

// SAFETY: a `Buf` is a uniquely owned buffer of `T` (its own allocation, or a
// part of a `Block` that no one else reads or writes), like a `Vec<T>`.
unsafe impl<T: Copy + Send> Send for Buf<T> {}
// SAFETY: as above; `&Buf` only reads.
unsafe impl<T: Copy + Sync> Sync for Buf<T> {}

impl<T: Copy> Buf<T> {
    /// An empty buffer in `cap` slots at `ptr`, which it does not own.
    ///
    /// # Safety
    ///
    /// `ptr` is valid for reads and writes of `cap` values of `T` (and
    /// aligned) for as long as the buffer uses it (until it grows out, or is
    /// dropped), and nothing else accesses that memory meanwhile.
    unsafe fn in_part(ptr: *mut T, cap: usize) -> Buf<T> {
        Buf {
            // SAFETY: a pointer into an allocation (or dangling and aligned
            // for `cap == 0`, from `Vec::as_mut_ptr`) is not null.
            ptr: unsafe { NonNull::new_unchecked(ptr) },
            len: 0,
            cap,
        }
    }

    /// The buffer holding `v`'s values (no copy).
    pub(crate) fn from_vec(v: Vec<T>) -> Buf<T> {
        let mut v = ManuallyDrop::new(v);
        Buf {
            ptr: NonNull::new(v.as_mut_ptr()).expect("a vector's pointer is not null"),
            len: v.len(),
            cap: v.capacity() | OWNED,
        }
    }

    /// An empty buffer with room for `cap` values.
    pub(crate) fn with_capacity(cap: usize) -> Buf<T> {
        Buf::from_vec(Vec::with_capacity(cap))
    }

    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Room for values in all.
    #[inline(always)]
    fn room(&self) -> usize {
        self.cap & !OWNED
    }

    /// Makes room for `additional` more values.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, additional: usize) {
        if self.room() - self.len < additional {
            self.grow(additional, usize::MAX);
        }
    }

    /// [`reserve`](Self::reserve), growing the room to no more than `most`
    /// values in all unless `additional` needs more: a reader that knows how
    /// many values the rest of its input can still make caps the doubling
    /// there, so that a dense input does not end in a buffer twice its need.
    #[inline(always)]
    pub(crate) fn reserve_capped(&mut self, additional: usize, most: usize) {
        if self.room() - self.len < additional {
            self.grow(additional, most);
        }
    }

    /// Grows the room to at least `additional` more values (and to twice
    /// what it was, or `most` if that is less): an owned buffer reallocates
    /// (in place when the allocator can, so growth never holds the old and
    /// new room at once); one in a block part moves to an allocation of its
    /// own (the part stays in the block, unused).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize, most: usize) {
        // A length near `usize::MAX` cannot be allocated: the allocation
        // fails first, as a `Vec`'s would.
        let need = self.len.saturating_add(additional);
        let room = need.max((self.room() * 2).max(8).min(most));
        if self.cap & OWNED != 0 {
            // SAFETY: an owned buffer is a vector's allocation with `len`
            // values (`from_vec`). Not dropped here: if `reserve_exact`
            // fails, the buffer still owns the allocation unchanged.
            let mut v = ManuallyDrop::new(unsafe {
                Vec::from_raw_parts(self.ptr.as_ptr(), self.len, self.room())
            });
            v.reserve_exact(room - self.len);
            self.ptr = NonNull::new(v.as_mut_ptr()).expect("a vector's pointer is not null");
            self.cap = v.capacity() | OWNED;
        } else {
            let mut v = Vec::with_capacity(room);
            v.extend_from_slice(self);
            // The block part has nothing to free.
            *self = Buf::from_vec(v);
        }
    }

    /// How many more values fit without growing.
    #[inline(always)]
    pub(crate) fn spare(&self) -> usize {
        self.room() - self.len
    }

    /// Whether the buffer is in memory of its own (not in a block part).
    #[inline(always)]
    pub(crate) fn is_owned(&self) -> bool {
        self.cap & OWNED != 0
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) {
        self.reserve(1);
        // SAFETY: `len < room` after `reserve`: the slot is in the buffer.
        unsafe { self.ptr.as_ptr().add(self.len).write(value) };
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn extend_from_slice(&mut self, values: &[T]) {
        self.reserve(values.len());
        // SAFETY: room for `values.len()` more after `reserve`; `values` is
        // not in this buffer's unused room (nothing hands that out).
        unsafe {
            std::ptr::copy_nonoverlapping(
                values.as_ptr(),
                self.ptr.as_ptr().add(self.len),
                values.len(),
            )
        };
        self.len += values.len();
    }

    /// Appends a copy of the values in `range`.
    pub(crate) fn extend_from_within(&mut self, range: std::ops::Range<usize>) {
        assert!(range.start <= range.end && range.end <= self.len);
        let n = range.end - range.start;
        self.reserve(n);
        // SAFETY: `range` is initialized (checked above) and the target,
        // `len..len + n`, is in the buffer after `reserve` and after it.
        unsafe {
            let p = self.ptr.as_ptr();
            std::ptr::copy_nonoverlapping(p.add(range.start), p.add(self.len), n);
        }
        self.len += n;
    }

    /// Grows or shortens the buffer to `len` values, new ones `value`.
    pub(crate) fn resize(&mut self, len: usize, value: T) {
        if len <= self.len {
            self.len = len;
            return;
        }
        self.reserve(len - self.len);
        for i in self.len..len {
            // SAFETY: `i < len <= room` after `reserve`.
            unsafe { self.ptr.as_ptr().add(i).write(value) };
        }
        self.len = len;
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Runs `f` on the buffer as a `Vec` (for writers that append to one),
    /// keeping what it appended. A buffer still in a block part moves to an
    /// allocation of its own first.
    pub(crate) fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
        if self.cap & OWNED == 0 {
            self.grow(0, usize::MAX);
        }
        // Empty while `f` runs, so that nothing points into `v` if it panics.
        let me = ManuallyDrop::new(std::mem::replace(self, Buf::from_vec(Vec::new())));
        // SAFETY: an owned buffer is a vector's allocation with `len` values.
        let mut v = unsafe { Vec::from_raw_parts(me.ptr.as_ptr(), me.len, me.room()) };
        let r = f(&mut v);
        *self = Buf::from_vec(v);
        r
    }
}

impl<T: Copy> Drop for Buf<T> {
    fn drop(&mut self) {
        if self.cap & OWNED != 0 {
            // SAFETY: an owned buffer is a vector's allocation (`from_vec`),
            // given up there; `T: Copy` has nothing to drop.
            drop(unsafe { Vec::from_raw_parts(self.ptr.as_ptr(), 0, self.room()) });
        }
    }
}

impl<T: Copy> Deref for Buf<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `len` values at `ptr` are initialized and owned by this buffer.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for Buf<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// Empty, with no allocation, and not owned (nothing to free: its drop is
/// one test; the first push moves it to an allocation of its own).
impl<T: Copy> Default for Buf<T> {
    fn default() -> Buf<T> {
        // SAFETY: no values at all: a dangling, aligned pointer is valid
        // for zero of them.
        unsafe { Buf::in_part(NonNull::dangling().as_ptr(), 0) }
    }
}

impl<T: Copy> Clone for Buf<T> {
    /// A copy in an allocation of its own, with the same room.
    fn clone(&self) -> Buf<T> {
        let mut b = Buf::with_capacity(self.room());
        b.extend_from_slice(self);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both parts of a block take values, grow out of it one after the
    /// other, and keep what they held; a vector writer appends to the bytes.
    #[test]
    fn block_parts_grow_out_on_their_own() {
        let mut nodes = Buf::<Node>::with_capacity(2 + slots_for(5));
        let (block, mut bytes) = nodes.lend_tail(5).expect("room for the tail");
        nodes.push(Node::leaf(1, 2, 3));
        nodes.push(Node::leaf(4, 5, 6));
        bytes.extend_from_slice(b"abcde");
        bytes.extend_from_within(1..3);
        assert_eq!(&bytes[..], b"abcdebc");
        bytes.push(b'!');
        bytes.truncate(7);
        bytes.with_vec(|v| v.extend_from_slice(b"xyz"));
        assert_eq!(&bytes[..], b"abcdebcxyz");
        nodes.resize(5, Node::default());
        nodes.extend_from_within(0..2);
        assert_eq!(nodes.len(), 7);
        assert!(nodes.is_owned() && bytes.is_owned());
        // An owned buffer grows in its allocation.
        nodes.resize(100, Node::default());
        assert_eq!(nodes[6].a, 6);
        assert_eq!((nodes[0].off, nodes[6].a), (1, 6));
        let twin = nodes.clone();
        drop(nodes);
        assert_eq!(twin[5], Node::leaf(1, 2, 3));
        let mut v = Buf::from_vec(vec![1u8, 2]);
        v.with_vec(|v| v.push(3));
        assert_eq!(&v[..], [1, 2, 3]);
        drop(bytes);
        drop(block);
        // Too little spare room, or memory not its own: no block.
        let mut full = Buf::<Node>::from_vec(vec![Node::default(); 3]);
        assert!(full.lend_tail(1).is_none() && full.is_owned());
    }
}
