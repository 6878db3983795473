//! The core's stack of containers waiting for their child: [`Frame`]s of
//! 8 bytes for the tape, the first [`INLINE`] of them in the parse's own
//! stack frame, so a document up to that deep allocates nothing for them.

use std::marker::PhantomData;
use std::mem::MaybeUninit;

/// A container waiting on the stack for its child.
///
/// `kind` is [`COMPOUND_FRAME`] for a compound; for a list of compounds or
/// lists it is the number of elements still to open after the one being read
/// (at most `i32::MAX - 1`), with [`LIST_OF_LISTS`] set for a list of lists.
/// `parked` is the sink's state of it ([`super::Sink::Parked`]).
#[derive(Clone, Copy)]
pub(super) struct Frame<P> {
    pub kind: u32,
    pub parked: P,
}

/// [`Frame::kind`] of a compound.
pub(super) const COMPOUND_FRAME: u32 = u32::MAX;
/// Set in [`Frame::kind`] for a list of lists.
pub(super) const LIST_OF_LISTS: u32 = 1 << 31;

/// How many frames live in the parse's stack frame: real documents are
/// rarely more than 8 deep; deeper ones move to the heap, growing by
/// doubling as far as the depth limit lets them.
pub(super) const INLINE: usize = 16;

/// The inline part of a [`Frames`], a local of the parse.
pub(super) type Inline<P> = [MaybeUninit<Frame<P>>; INLINE];

/// The stack: `len` frames from `base`, which is the inline array until it
/// is full, then `heap`'s allocation.
///
/// # Invariant
/// `base` is valid for reads and writes of `cap` frames for `'s` (the inline
/// array, borrowed for `'s`, or `heap`'s buffer, which only [`Frames::spill`]
/// replaces), and its first `len <= cap` frames are initialised.
pub(super) struct Frames<'s, P> {
    base: *mut Frame<P>,
    len: usize,
    cap: usize,
    heap: &'s mut Vec<Frame<P>>,
    inline: PhantomData<&'s mut Inline<P>>,
}

impl<'s, P: Copy> Frames<'s, P> {
    /// An empty stack whose first frames go into `inline`, the rest into
    /// `heap` (empty).
    #[inline(always)]
    pub fn new(inline: &'s mut Inline<P>, heap: &'s mut Vec<Frame<P>>) -> Self {
        Self {
            base: inline.as_mut_ptr().cast(),
            len: 0,
            cap: INLINE,
            heap,
            inline: PhantomData,
        }
    }

    /// The number of frames.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn push(&mut self, frame: Frame<P>) {
        if self.len == self.cap {
            (self.base, self.cap) = Self::spill(self.heap, self.base, self.len);
        }
        // SAFETY: len < cap (checked, or just moved to a larger buffer), so
        // the slot is in `base`'s buffer (invariant); `len` covers it only
        // once it is written.
        unsafe { self.base.add(self.len).write(frame) };
        self.len += 1;
    }

    /// Moves the `len` frames at `base` (a full buffer) into a new heap
    /// buffer of twice the room, owned by `heap`; returns it and its room.
    /// By value, not `&mut self`: the stack's own fields stay in registers.
    #[cold]
    #[inline(never)]
    fn spill(
        heap: &mut Vec<Frame<P>>,
        base: *const Frame<P>,
        len: usize,
    ) -> (*mut Frame<P>, usize) {
        let mut grown = Vec::with_capacity(2 * len);
        // SAFETY: the first `len` frames at `base` are initialised (the
        // invariant); `base` may be `heap`'s own buffer, which is still
        // alive here.
        grown.extend_from_slice(unsafe { std::slice::from_raw_parts(base, len) });
        *heap = grown;
        (heap.as_mut_ptr(), heap.capacity())
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<Frame<P>> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the frame at `len` (the old top) is initialised (invariant).
        Some(unsafe { self.base.add(self.len).read() })
    }

    #[inline(always)]
    pub fn last_mut(&mut self) -> Option<&mut Frame<P>> {
        if self.len == 0 {
            return None;
        }
        // SAFETY: the top frame is initialised (invariant), and `&mut self`
        // keeps anything else from using it while borrowed.
        Some(unsafe { &mut *self.base.add(self.len - 1) })
    }
}
