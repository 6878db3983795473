//! The tape's allocation, kept by each thread from one document to the next.
//!
//! A borrowed read allocates nothing but its tape, and a program that reads
//! one document after another (packets, chunks, a directory of files) frees
//! each tape just before it allocates the next. A Rust allocation always
//! names its alignment, and mimalloc serves that through its aligned entry
//! point: an allocation and a free cost a sixth of a small document's whole
//! read (`reports/code-notes.md`), and a tape over 4 KiB takes its generic
//! path.
//! So a dropped tape of at most [`KEEP_BYTES`] is kept by its thread,
//! emptied, and the next read of a document it can hold takes it back
//! instead of allocating (`reports/perf.md`), as the owned builder keeps its
//! scratch stacks (`owned/build.rs`).
//!
//! A thread keeps at most one tape, of at most [`KEEP_BYTES`], which a
//! document it read needed; larger ones are freed as before. Both ends are
//! calls that pass the allocation's raw parts in registers: inlined, the
//! thread-local's `Vec` moved through the parse's stack frame several times.
//!
//! The kept tape is held as its raw parts (`crate::kept`), so taking and
//! keeping it are plain loads and stores of the thread's storage.

use std::mem::ManuallyDrop;
use std::ops::Deref;

use crate::kept::{self, RawVec};

/// Tapes of more bytes than this are freed when dropped, not kept: the
/// first tape of any document up to 512 KiB of input fits.
pub(super) const KEEP_BYTES: usize = 64 * 1024;

/// A tape's words, given back to the thread ([`give_back`]) when dropped. A type of its own with no
/// lifetime, so that the drop is not one of `Tape<'a>`'s: a document whose
/// type has a destructor that could see `'a` would have to be dropped
/// before its input could be moved or freed, which upstream's documents do
/// not ask of their users (`Vec`'s drop is known not to look at what it
/// holds).
pub(crate) struct Words(ManuallyDrop<Vec<u64>>);

impl Words {
    #[inline(always)]
    pub(super) fn new(words: Vec<u64>) -> Self {
        Self(ManuallyDrop::new(words))
    }
}

impl Deref for Words {
    type Target = Vec<u64>;

    #[inline(always)]
    fn deref(&self) -> &Vec<u64> {
        &self.0
    }
}

impl Drop for Words {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: the `Vec` this owns is given up here and never used again
        // (nor dropped: `ManuallyDrop`); its allocation is given back once.
        unsafe { give_back(RawVec::take(&mut self.0)) };
    }
}

kept::kept_by_thread!(KEPT, OWNER: RawVec<u64>);

/// The buffer and capacity of an empty tape of at least `capacity` words:
/// the thread's kept one if it is large enough, else a new allocation of
/// exactly that. The caller owns it as a `Vec<u64>` of length 0
/// ([`Vec::from_raw_parts`]).
#[inline]
pub(super) fn take(capacity: usize) -> (*mut u64, usize) {
    match kept::take_if(&KEPT, |t| t.capacity() >= capacity) {
        // SAFETY: kept by `give_back`, taken back once.
        Some(t) => raw_parts(unsafe { t.into_vec() }),
        // Nothing kept, or too small for this document: it stays with the
        // thread.
        None => allocate(capacity),
    }
}

/// A new tape's buffer and capacity. Out of line, so that [`take`] and
/// [`give_back`] are leaf functions on their common path, with no registers
/// to save.
#[inline(never)]
fn allocate(capacity: usize) -> (*mut u64, usize) {
    raw_parts(Vec::with_capacity(capacity))
}

#[inline(always)]
fn raw_parts(words: Vec<u64>) -> (*mut u64, usize) {
    let mut words = ManuallyDrop::new(words);
    (words.as_mut_ptr(), words.capacity())
}

/// Gives a dropped tape's allocation to the thread if it is small enough to
/// keep; otherwise (and during the thread's teardown) frees it.
///
/// # Safety
///
/// `tape` is an allocation the caller gives up (made by `RawVec::take`),
/// given back once.
#[inline(never)]
unsafe fn give_back(tape: RawVec<u64>) {
    let keepable = tape.capacity() * size_of::<u64>() <= KEEP_BYTES;
    // SAFETY: the caller's contract.
    unsafe { kept::keep(&KEPT, &OWNER, tape, keepable) };
}

/// [`give_back`] for a `Vec`, left empty with no allocation.
#[cfg(test)]
fn keep(words: &mut Vec<u64>) {
    let mut words = ManuallyDrop::new(std::mem::take(words));
    // SAFETY: the `Vec` was taken out of `words` just above and is not used
    // again.
    unsafe { give_back(RawVec::take(&mut words)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes a tape of `capacity` words as a `Vec` (what `TapeSink::new` does).
    fn take_vec(capacity: usize) -> Vec<u64> {
        let (buf, cap) = take(capacity);
        // SAFETY: what `take` gave up, empty.
        unsafe { Vec::from_raw_parts(buf, 0, cap) }
    }

    /// A kept tape is taken back by a read it can hold, a smaller request
    /// included; one too small stays kept while a new one is allocated; one
    /// over `KEEP_BYTES` is not kept.
    #[test]
    fn a_kept_tape_is_reused_when_it_fits() {
        // Whatever an earlier test on this thread kept is freed.
        drop(take_vec(0));
        let mut first = take_vec(64);
        first.push(7);
        let at = first.as_ptr();
        keep(&mut first);
        assert_eq!(first.capacity(), 0, "keep leaves an empty Vec");

        let mut again = take_vec(16);
        assert_eq!(again.as_ptr(), at, "the kept tape, for a smaller read");
        assert!(again.is_empty() && again.capacity() >= 64);
        keep(&mut again);

        let mut larger = take_vec(128);
        assert_ne!(larger.as_ptr(), at, "too small: a new tape");
        assert!(larger.capacity() >= 128);
        // The small one is still kept; the larger one replaces it.
        let mut small = take_vec(8);
        assert_eq!(small.as_ptr(), at, "the small tape stayed kept");
        keep(&mut small);
        let larger_at = larger.as_ptr();
        keep(&mut larger);
        let reused = take_vec(100);
        assert_eq!(reused.as_ptr(), larger_at);

        let mut huge = take_vec(KEEP_BYTES / size_of::<u64>() + 1);
        let huge_at = huge.as_ptr();
        keep(&mut huge);
        let next = take_vec(1);
        assert_ne!(next.as_ptr(), huge_at, "a tape over KEEP_BYTES is freed");
    }

    /// What a thread keeps is freed when it exits, and a tape dropped
    /// during its teardown (in another thread-local's destructor, before or
    /// after the one that frees the kept tape) is freed or kept and then
    /// freed: under Miri, which reports leaked memory, nothing leaks.
    #[test]
    fn a_kept_tape_is_freed_with_its_thread() {
        struct KeptLate(Vec<u64>);
        impl Drop for KeptLate {
            fn drop(&mut self) {
                keep(&mut self.0);
            }
        }
        thread_local! {
            static LATE: std::cell::RefCell<Option<KeptLate>> =
                const { std::cell::RefCell::new(None) };
        }
        std::thread::spawn(|| {
            let mut first = take_vec(64);
            keep(&mut first);
            LATE.with(|late| *late.borrow_mut() = Some(KeptLate(Vec::with_capacity(32))));
            let mut again = take_vec(8);
            assert!(again.capacity() >= 64, "the kept tape");
            keep(&mut again);
        })
        .join()
        .unwrap();
    }

    /// Reading and dropping documents in a loop reuses one tape.
    #[test]
    fn a_read_after_a_drop_takes_the_tape() {
        let doc = [0x0a, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 42, 0];
        let read = || crate::borrow::read(&mut std::io::Cursor::new(&doc[..])).unwrap();
        let first = read().unwrap();
        let at = first.tape_words();
        drop(first);
        let second = read().unwrap();
        assert_eq!(second.tape_words(), at);
        assert_eq!(second.int("x"), Some(42));
    }

    /// The kept tape's drop is not the document's: a document not used any
    /// more need not be dropped before its input moves (this compiles only
    /// if `BaseNbt`'s drop cannot reach `'a`).
    #[test]
    fn a_document_does_not_hold_its_input_until_dropped() {
        let bytes = vec![0x0a, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 42, 0];
        let nbt = crate::borrow::read(&mut std::io::Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        assert_eq!(nbt.int("x"), Some(42));
        let moved = bytes;
        assert_eq!(moved.len(), 12);
    }
}
