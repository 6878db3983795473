//! An explicit stack for walks that would otherwise recurse (the owned
//! tree's writer and drop): the first few items in an array in the walk's
//! own stack frame, so a document nested as deep as real ones are
//! allocates nothing for it; deeper ones move to the heap, growing by
//! doubling.
//!
//! The array is a local of the walk ([`Inline`]), borrowed by the
//! [`Stack`], rather than a field of it: the stack is then a pointer, a
//! length and a capacity, which stay in registers, and a push or pop has
//! one branch (room left; anything left) whether the items are inline or on
//! the heap. Against the owned stack it replaced (items inline in the
//! struct, a branch on where each one is), the owned write and read (with
//! its drop) execute fewer instructions.
//!
//! The read loop (`read/frames.rs`, the design this one generalises) and
//! the document's writer (`document/write.rs`) keep their own: on this
//! type some of their reads and writes executed more instructions, for no
//! reason in the stack's own code (the same instructions per push and pop:
//! LLVM lays the inlined loop out differently), and a slower read is not
//! traded for one type fewer. The counts are in `reports/code-notes.md`,
//! "The inline stack".

use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ptr;

/// A [`Stack`]'s inline part: a local of the walk, as is the `Vec` the
/// stack moves to when it is full.
pub(crate) type Inline<T, const N: usize> = [MaybeUninit<T>; N];

/// An empty [`Inline`].
#[inline(always)]
pub(crate) const fn inline<T, const N: usize>() -> Inline<T, N> {
    [const { MaybeUninit::uninit() }; N]
}

/// A stack of `T`: `len` items from `base`, which is an [`Inline`] array
/// until it is full, then `heap`'s buffer.
///
/// # Invariant
/// `base` is valid for reads and writes of `cap` items for `'s` (the inline
/// array, borrowed for `'s`, or `heap`'s buffer, which only
/// [`Stack::spill`] replaces, and which `heap`, of length 0, never drops
/// items of), and its first `len <= cap` items are initialised.
///
/// Items left on the stack when it goes are not dropped: `T` has no drop
/// glue (checked when it is made; the walks keep iterators and raw parts
/// on it). A `Drop` here, even one that does nothing, cost instructions in
/// the read loop when it was tried there: the stack no longer stayed in
/// registers.
pub(crate) struct Stack<'s, T> {
    base: *mut T,
    len: usize,
    cap: usize,
    heap: &'s mut Vec<T>,
    items: PhantomData<&'s mut [T]>,
}

impl<'s, T> Stack<'s, T> {
    /// An empty stack whose first items go into `inline`, the rest into
    /// `heap` (empty; it stays of length 0, the stack tracks its items).
    pub(crate) fn new<const N: usize>(inline: &'s mut Inline<T, N>, heap: &'s mut Vec<T>) -> Self {
        const {
            assert!(
                !mem::needs_drop::<T>(),
                "items left on a Stack are not dropped"
            );
            assert!(N > 0, "a Stack doubles its room, which starts at N");
        };
        Stack {
            base: inline.as_mut_ptr().cast(),
            len: 0,
            cap: N,
            heap,
            items: PhantomData,
        }
    }

    /// The number of items.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, item: T) {
        if self.len == self.cap {
            (self.base, self.cap) = Self::spill(self.heap, self.base, self.len);
        }
        // SAFETY: len < cap (checked, or just moved to a larger buffer), so
        // the slot is in `base`'s buffer (invariant); `len` covers it only
        // once it is written.
        unsafe { self.base.add(self.len).write(item) };
        self.len += 1;
    }

    /// Moves the `len` items at `base` (a full buffer) into a new heap
    /// buffer of twice the room, owned by `heap`; returns it and its room.
    /// By value, not `&mut self`: the stack's own fields stay in registers.
    #[cold]
    #[inline(never)]
    fn spill(heap: &mut Vec<T>, base: *const T, len: usize) -> (*mut T, usize) {
        let mut grown = Vec::<T>::with_capacity(2 * len);
        // SAFETY: the first `len` items at `base` are initialised (the
        // invariant) and `grown` has room for them; the buffers are
        // distinct. They are moved, not copied: from here only the new
        // buffer holds them, and `base`'s buffer, the inline array or
        // `heap`'s old one (of length 0), drops none of them.
        unsafe { ptr::copy_nonoverlapping(base, grown.as_mut_ptr(), len) };
        *heap = grown;
        (heap.as_mut_ptr(), heap.capacity())
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the item at `len` (the old top) is initialised
        // (invariant); the length no longer covers it, so it is read out
        // once.
        Some(unsafe { self.base.add(self.len).read() })
    }
}

#[cfg(test)]
mod tests {
    use super::{Stack, inline};

    /// Items come back in reverse order across the inline part and two
    /// spills (under Miri: the moves to the heap keep every item, here a
    /// reference, valid).
    #[test]
    fn pops_in_reverse_across_the_spill() {
        const N: usize = 4;
        let n = N * 4 + 3;
        let strings: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let (mut room, mut heap) = (inline::<&String, N>(), Vec::new());
        let mut s = Stack::new(&mut room, &mut heap);
        for t in &strings[..n] {
            s.push(t);
        }
        assert_eq!(s.len(), n);
        for i in (N - 2..n).rev() {
            assert_eq!(s.pop(), Some(&strings[i]));
        }
        assert_eq!(s.len(), N - 2);
        s.push(&strings[0]);
        assert_eq!(s.pop(), Some(&strings[0]));
        let (mut room, mut heap) = (inline::<&String, N>(), Vec::new());
        let mut empty = Stack::new(&mut room, &mut heap);
        assert_eq!(empty.pop(), None);
    }
}
