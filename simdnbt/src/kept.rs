//! Allocations a thread keeps from one read to the next: the borrowed
//! reader's tape (`tape/spare.rs`) and the owned builder's scratch stacks
//! (`owned/build.rs`), so that a program reading one document after another
//! does not free and allocate them again for each.
//!
//! What is kept is held as raw parts ([`Parts`]) in a thread-local without a
//! destructor ([`Slot`]): taking and keeping it are plain loads and stores of
//! the thread's storage. A thread-local of a type with a destructor (a
//! `Vec`) makes every access check whether it is registered yet or already
//! torn down, and moves the value through the caller's stack frame: 19
//! more instructions per borrow read, of hello_world.nbt's ~370, and 23
//! per owned read (`reports/perf.md`). What frees the kept parts when the thread exits is
//! a second thread-local, an [`Owner`], touched once, when the thread keeps
//! something for the first time; after its destructor has run, whatever is
//! given back is freed rather than kept.
//!
//! [`kept_by_thread!`] declares both thread-locals; [`take_if`] and [`keep`]
//! use them.

use std::cell::Cell;
use std::thread::LocalKey;

/// The raw parts of the allocations a thread keeps: `Copy`, with no
/// destructor; [`Parts::free`] frees them.
pub(crate) trait Parts: Copy + 'static {
    /// Nothing kept.
    const NONE: Self;

    /// Whether this holds no allocation.
    fn is_none(&self) -> bool;

    /// Frees the allocations (nothing for [`Parts::NONE`]).
    ///
    /// # Safety
    ///
    /// The parts are of live allocations that nothing else owns or uses
    /// afterwards.
    unsafe fn free(self);
}

/// An empty `Vec`'s buffer and capacity (0: no allocation), as kept.
pub(crate) struct RawVec<T> {
    ptr: *mut T,
    cap: usize,
}

// Derived `Clone` and `Copy` would ask the same of `T`.
impl<T> Clone for RawVec<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for RawVec<T> {}

impl<T> RawVec<T> {
    /// The allocation of the `Vec` in `v`, emptied first (its elements are
    /// dropped), without moving it.
    ///
    /// # Safety
    ///
    /// `v` is neither used nor dropped afterwards: the allocation is the
    /// returned parts'.
    #[inline(always)]
    pub(crate) unsafe fn take(v: &mut std::mem::ManuallyDrop<Vec<T>>) -> Self {
        v.clear();
        RawVec {
            ptr: v.as_mut_ptr(),
            cap: v.capacity(),
        }
    }

    /// The allocation's capacity in elements.
    #[inline(always)]
    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    /// The empty `Vec` these parts are of.
    ///
    /// # Safety
    ///
    /// Made by [`RawVec::take`] (or [`Parts::NONE`]), and the allocation not
    /// given back as a `Vec` or freed since.
    #[inline(always)]
    pub(crate) unsafe fn into_vec(self) -> Vec<T> {
        if self.cap == 0 {
            Vec::new()
        } else {
            // SAFETY: an emptied `Vec<T>`'s buffer and capacity (the
            // caller's contract), given back once.
            unsafe { Vec::from_raw_parts(self.ptr, 0, self.cap) }
        }
    }
}

impl<T: 'static> Parts for RawVec<T> {
    const NONE: Self = RawVec {
        ptr: std::ptr::null_mut(),
        cap: 0,
    };

    #[inline(always)]
    fn is_none(&self) -> bool {
        self.cap == 0
    }

    unsafe fn free(self) {
        // SAFETY: the caller's contract; the `Vec` is empty, so only its
        // buffer is freed.
        drop(unsafe { self.into_vec() });
    }
}

/// Several allocations kept together.
impl<A: Parts, B: Parts, C: Parts> Parts for (A, B, C) {
    const NONE: Self = (A::NONE, B::NONE, C::NONE);

    #[inline(always)]
    fn is_none(&self) -> bool {
        self.0.is_none() && self.1.is_none() && self.2.is_none()
    }

    unsafe fn free(self) {
        // SAFETY: the caller's contract, for each.
        unsafe {
            self.0.free();
            self.1.free();
            self.2.free();
        }
    }
}

/// Whether a thread's [`Owner`] is registered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Nothing kept yet on this thread: the owner is not registered.
    Unarmed,
    /// The owner is registered and will free what is kept when the thread
    /// exits.
    Armed,
    /// The owner's destructor has run: nothing may be kept any more.
    TornDown,
}

/// What a thread keeps, and whether its [`Owner`] is registered: two cells,
/// so that each access reads only what it needs.
pub(crate) struct Slot<P> {
    parts: Cell<P>,
    state: Cell<State>,
}

impl<P: Parts> Slot<P> {
    /// A thread's slot before it keeps anything.
    pub(crate) const fn empty() -> Self {
        Slot {
            parts: Cell::new(P::NONE),
            state: Cell::new(State::Unarmed),
        }
    }
}

/// Frees what its thread keeps in the slot it names when the thread exits.
pub(crate) struct Owner<P: Parts>(pub(crate) &'static LocalKey<Slot<P>>);

impl<P: Parts> Drop for Owner<P> {
    fn drop(&mut self) {
        // The slot has no destructor, so it is still there during the
        // thread's teardown.
        let parts = self.0.with(|s| {
            s.state.set(State::TornDown);
            s.parts.replace(P::NONE)
        });
        // SAFETY: what the thread kept, taken out of its slot just above.
        unsafe { parts.free() };
    }
}

/// Declares a thread's slot for parts of type `$parts` and its owner.
macro_rules! kept_by_thread {
    ($slot:ident, $owner:ident: $parts:ty) => {
        thread_local! {
            static $slot: $crate::kept::Slot<$parts> = const { $crate::kept::Slot::empty() };
            static $owner: $crate::kept::Owner<$parts> = const { $crate::kept::Owner(&$slot) };
        }
    };
}
pub(crate) use kept_by_thread;

/// Takes what the thread keeps in `slot` if there is something and `fits`
/// says it will do; it stays kept otherwise.
#[inline(always)]
pub(crate) fn take_if<P: Parts>(
    slot: &'static LocalKey<Slot<P>>,
    fits: impl FnOnce(&P) -> bool,
) -> Option<P> {
    slot.with(|s| {
        let parts = s.parts.get();
        if parts.is_none() || !fits(&parts) {
            return None;
        }
        s.parts.set(P::NONE);
        Some(parts)
    })
}

/// Gives `parts` to the thread to keep in `slot`, whose owner is `owner`
/// (both declared by one [`kept_by_thread!`]), or frees them when not
/// `keepable` (too large to keep, say). What was kept before is freed
/// (normally nothing: a read took it); during the thread's teardown `parts`
/// are freed instead.
///
/// # Safety
///
/// `parts` are of live allocations that the caller gives up.
#[inline(always)]
pub(crate) unsafe fn keep<P: Parts>(
    slot: &'static LocalKey<Slot<P>>,
    owner: &'static LocalKey<Owner<P>>,
    parts: P,
    keepable: bool,
) {
    let kept = slot.with(|s| {
        let fast = keepable && s.state.get() == State::Armed && s.parts.get().is_none();
        if fast {
            s.parts.set(parts);
        }
        fast
    });
    if !kept {
        // SAFETY: the caller's contract.
        unsafe { keep_slow(slot, owner, parts, keepable) };
    }
}

/// [`keep`] when `parts` are not `keepable`, or the thread has not kept
/// anything before, is being torn down, or already keeps something.
///
/// # Safety
///
/// As for [`keep`].
#[cold]
#[inline(never)]
unsafe fn keep_slow<P: Parts>(
    slot: &'static LocalKey<Slot<P>>,
    owner: &'static LocalKey<Owner<P>>,
    parts: P,
    keepable: bool,
) {
    let armed = keepable
        && match slot.with(|s| s.state.get()) {
            State::Armed => true,
            // The first thing kept on this thread: registers the owner's
            // destructor (`try_with` fails once the thread is being torn
            // down).
            State::Unarmed => owner.try_with(|_| ()).is_ok(),
            State::TornDown => false,
        };
    if !armed {
        // SAFETY: the caller's contract.
        return unsafe { parts.free() };
    }
    let old = slot.with(|s| {
        s.state.set(State::Armed);
        s.parts.replace(parts)
    });
    // SAFETY: what the slot held, replaced just above.
    unsafe { old.free() };
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    /// Threads that read documents and exit leave nothing allocated (Miri
    /// reports leaked memory): what each kept, the tape and the owned
    /// builder's stacks, is freed with it, and a thread's second read takes
    /// back what its first kept.
    #[test]
    fn what_a_thread_keeps_is_freed_when_it_exits() {
        let doc = [0x0a, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 42, 0];
        for _ in 0..2 {
            std::thread::spawn(move || {
                let mut tapes = Vec::new();
                for _ in 0..2 {
                    let owned = crate::owned::read(&mut Cursor::new(&doc[..]))
                        .unwrap()
                        .unwrap();
                    assert_eq!(owned.int("x"), Some(42));
                    let borrowed = crate::borrow::read(&mut Cursor::new(&doc[..]))
                        .unwrap()
                        .unwrap();
                    assert_eq!(borrowed.int("x"), Some(42));
                    tapes.push(borrowed.tape_words());
                }
                assert_eq!(tapes[0], tapes[1], "the second read took the kept tape");
            })
            .join()
            .unwrap();
        }
    }
}
