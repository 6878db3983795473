//! The tape's allocation, kept by each thread from one document to the next.
//!
//! A borrowed read allocates nothing but its tape, and a program that reads
//! one document after another (packets, chunks, a directory of files) frees
//! each tape just before it allocates the next. A Rust allocation always
//! names its alignment, and mimalloc serves that through its aligned entry
//! point: an allocation and a free cost ~65 instructions (a sixth of
//! hello_world's whole read), and a tape over 4 KiB takes its generic path.
//! So a dropped tape of at most [`KEEP_BYTES`] is kept by its thread,
//! emptied, and the next read of a document it can hold takes it back
//! instead of allocating (`reports/perf.md`), as the owned builder keeps its
//! scratch stacks (`owned/build.rs`).
//!
//! A thread keeps at most one tape, of at most [`KEEP_BYTES`], which a
//! document it read needed; larger ones are freed as before. Both ends are
//! calls that pass the allocation's raw parts in registers: inlined, the
//! thread-local's `Vec` moved through the parse's stack frame several times.

use std::cell::Cell;
use std::mem::ManuallyDrop;

/// Tapes of more bytes than this are freed when dropped, not kept: the
/// first tape of any document up to 512 KiB of input fits.
pub(super) const KEEP_BYTES: usize = 64 * 1024;

thread_local! {
    static SPARE: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
}

/// The buffer and capacity of an empty tape of at least `capacity` words:
/// the thread's kept one if it is large enough, else a new allocation of
/// exactly that. The caller owns it as a `Vec<u64>` of length 0
/// ([`Vec::from_raw_parts`]).
#[inline(never)]
pub(super) fn take(capacity: usize) -> (*mut u64, usize) {
    // During the thread's teardown (`try_with` fails) a tape is allocated.
    let kept = SPARE.try_with(|spare| {
        let kept = spare.take();
        if kept.capacity() >= capacity {
            Some(kept)
        } else {
            // Too small for this document: it stays with the thread.
            spare.set(kept);
            None
        }
    });
    raw_parts(match kept {
        Ok(Some(kept)) => kept,
        _ => Vec::with_capacity(capacity),
    })
}

fn raw_parts(words: Vec<u64>) -> (*mut u64, usize) {
    let mut words = ManuallyDrop::new(words);
    (words.as_mut_ptr(), words.capacity())
}

/// Gives a dropped tape's allocation to the thread, emptied, if it is small
/// enough to keep; otherwise (and during the thread's teardown) frees it.
/// `words` is left empty, with no allocation.
#[inline(never)]
pub(super) fn keep(words: &mut Vec<u64>) {
    let mut words = std::mem::take(words);
    if words.capacity() * size_of::<u64>() > KEEP_BYTES {
        return;
    }
    words.clear();
    let _ = SPARE.try_with(|spare| {
        let old = spare.replace(words);
        // Normally the empty `Vec` that `take` left: nothing to free.
        if old.capacity() == 0 {
            std::mem::forget(old);
        }
    });
}
