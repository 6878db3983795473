//! The tape as a [`Sink`] of the validating core: one or two words per tag,
//! each pushed after a capacity check, through a raw pointer into spare
//! capacity.
//!
//! # A full tape ends the parse
//!
//! The tape does not grow while the core runs: a push that finds it full
//! ends the parse ([`tape_full`]), and [`super::parse_root`] parses the value
//! again into a tape four times as large ([`retry_capacity`]). The first tape
//! ([`first_capacity`]) is one word per 8 input bytes, which real files never
//! fill (they take 10–60 bytes per word), so only dense inputs parse more
//! than once, at most three times. What it buys is the tag loop's registers:
//! a growth call that returns into the loop needs every value the loop keeps
//! to survive it, in a callee-saved register or spilled around the whole
//! loop; an error return needs none of them (`reports/code-notes.md`).
//!
//! # Why raw pointers, and why they are sound
//!
//! The words go into an allocation of `cap` words at `wbase`, the buffer of
//! a `Vec<u64>` taken apart ([`super::spare::take`]) and put together again
//! only at the end ([`TapeSink::finish`]; on an error, [`TapeSink`]'s drop
//! frees it); `wlen` counts the words written. `Vec::push` would check the
//! capacity the same way but reload the `Vec`'s fields after every store,
//! and keeping the length in the `Vec` costs a store per push; the owned
//! writer's [`AppendBuf`](crate::append::AppendBuf), which does the same job
//! for bytes, measured slower on borrow read here (`reports/code-notes.md`).
//!
//! The payload offset of each non-empty list of strings or arrays (what
//! [`super::Tape::side`] is built from) is written from the other end of the
//! same buffer, downwards: the slots `top..cap` hold them, the latest at
//! `top`, and the tape's words may only grow up to `top`. So a document's
//! whole index is one allocation with no second `Vec` to grow (which on
//! hypixel.nbt, with 26 such lists, cost three reallocations per read), and
//! [`TapeSink::finish`] moves the offsets, in document order, to just after
//! the tape.
//!
//! Every `unsafe` here rests on these facts, all local to this file:
//!
//! - **`wbase` and `cap` are a `Vec<u64>`'s buffer and capacity**, owned by
//!   the sink, `wlen <= top <= cap`, and the first `wlen` slots and the slots
//!   `top..cap` written: only [`TapeSink::new`] sets `wbase` and `cap`, only
//!   the sink sets `top` (its caller does not touch the `Cell` while the sink
//!   lives), and only [`TapeSink::finish`] and the drop give the buffer up,
//!   each once.
//! - **A push writes only below `top`, a list offset only at `top - 1`**:
//!   [`TapeSink::push`], [`TapeSink::push2`] and the list offset's store
//!   check the free slots between `wlen` and `top` first and end the parse
//!   when too few.
//! - **Every [`Index`] is below `wlen`**: an `Index` can only be made here,
//!   each from the index of a word just pushed, and words are never removed,
//!   so the word it names is allocated and written for the life of the sink.
//!
//! The tape never outgrows the input: every word stands for at least one
//! input byte (a list offset for the 2-byte length prefix of its list's
//! first element), and no try's tape is larger than the rest of the input
//! can use ([`retry_capacity`]).
//!
//! Measured and kept for the core's register allocation (`reports/perf.md`):
//! the count of an open compound beside its index in one `u64` (counting is an
//! `inc`), an 8-byte [`Index`] as what waits on the core's stack (the count
//! parked in the container word's low half), the sink owning its buffer (a
//! sink that only borrows it keeps more values in registers and spills
//! worse), and no field the tag loop does not need: the list offsets in the
//! buffer rather than a `Vec` of their own, and the buffer as its pointer
//! and capacity rather than a `Vec` beside them. And `top` kept in memory,
//! in a `Cell` of the caller's whose address [`tape_full`] lets escape:
//! carried in a register round the tag loop instead, it cost nightly Rust's
//! LLVM 15–17% more instructions per read (register moves at the loop's
//! head); in memory each check loads it, folded into the compare, and
//! stable's counts are the same either way.

use std::cell::Cell;

use super::COUNT_MASK;
use crate::error::{Error, ErrorKind};
use crate::read::Sink;
use crate::read::check::err;
use crate::tag_id::*;

/// The tape being written.
pub(crate) struct TapeSink<'f> {
    /// The start of the allocation.
    wbase: *mut u64,
    /// The number of words written: the next free slot's index, which is
    /// also the index a container word gets.
    wlen: usize,
    /// The allocation's length in words.
    cap: usize,
    /// Where the list offsets start (module docs): the tape's words may use
    /// the slots below it. In memory on purpose (module docs).
    top: &'f Cell<usize>,
    /// See [`super::Tape`]'s field of the same name.
    elements: u32,
    /// Set when the parse ends because the tape is full (see [`tape_full`]).
    full: &'f Cell<bool>,
}

/// What a parse leaves for [`super::Tape`] (see its fields).
pub(crate) struct TapeParts {
    pub words: Vec<u64>,
    pub len: u32,
    pub elements: u32,
}

/// The index of a word this sink pushed: of a compound's or list's container
/// word (made only here; see the module docs for why that makes it a valid
/// index for the life of the sink).
#[derive(Clone, Copy)]
pub(crate) struct Index(u32);

/// A compound being read: its container word's index in the high 32 bits,
/// its children so far in the low 32 (fewer than 2^32: each takes a tape
/// word, and the tape has fewer than 2^32), so counting one is an `inc`.
///
/// The container word itself holds `COMPOUND<<56` for a one-word header
/// (list element or root) and 0 for a named compound's, until it closes;
/// while the compound is parked its low 32 bits keep the count.
#[derive(Clone, Copy)]
pub(crate) struct OpenTapeCompound(u64);

impl OpenTapeCompound {
    #[inline(always)]
    fn new(i: Index, count: u32) -> Self {
        Self((i.0 as u64) << 32 | count as u64)
    }

    #[inline(always)]
    fn index(self) -> Index {
        Index((self.0 >> 32) as u32)
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.0 as u32
    }

    #[inline(always)]
    fn add_child(&mut self) {
        self.0 += 1;
    }
}

/// The id bits of a word.
const ID_BITS: u64 = 0xff << 56;

/// The low 32 bits of the word at `word`.
#[inline(always)]
fn low_half(word: *mut u64) -> *mut u32 {
    let half = if cfg!(target_endian = "little") { 0 } else { 1 };
    // The low half of a u64 is its first u32 on little-endian targets, its
    // second on big-endian ones; either is inside the word.
    word.cast::<u32>().wrapping_add(half)
}

impl<'f> TapeSink<'f> {
    /// An empty tape of `capacity` words ([`first_capacity`], then
    /// [`retry_capacity`]) that sets `full` if it fills; `top` is the sink's
    /// (module docs), whatever it holds.
    pub(crate) fn new(capacity: usize, full: &'f Cell<bool>, top: &'f Cell<usize>) -> Self {
        // The tape's indices are 32 bits; the bound also spares the size
        // computation its overflow check.
        // The buffer and capacity of a `Vec<u64>` that `take` gave up, with
        // nothing in it: the sink owns them from here on.
        let (wbase, cap) = super::spare::take(capacity.min(u32::MAX as usize));
        top.set(cap);
        Self {
            wbase,
            wlen: 0,
            cap,
            top,
            elements: 0,
            full,
        }
    }

    /// Appends a word for the tag at input offset `at`.
    #[inline(always)]
    fn push(&mut self, word: u64, at: usize) -> Result<(), Error> {
        if self.wlen == self.top.get() {
            return Err(tape_full(self.full, self.top, at));
        }
        // SAFETY: wlen < top <= cap (checked), so the slot is in the buffer
        // and no list offset's (module docs).
        unsafe { self.wbase.add(self.wlen).write(word) };
        self.wlen += 1;
        Ok(())
    }

    /// Appends a word for the tag at input offset `at`; returns its index.
    #[inline(always)]
    fn push_indexed(&mut self, word: u64, at: usize) -> Result<Index, Error> {
        self.push(word, at)?;
        Ok(Index(self.wlen as u32 - 1))
    }

    /// Appends two words for the tag at input offset `at`; returns the
    /// second one's index.
    #[inline(always)]
    fn push2(&mut self, first: u64, second: u64, at: usize) -> Result<Index, Error> {
        if self.top.get() - self.wlen < 2 {
            return Err(tape_full(self.full, self.top, at));
        }
        // SAFETY: wlen + 2 <= top <= cap (checked), so both slots are in
        // the buffer and neither is a list offset's (module docs).
        unsafe {
            self.wbase.add(self.wlen).write(first);
            self.wbase.add(self.wlen + 1).write(second);
        }
        self.wlen += 2;
        Ok(Index(self.wlen as u32 - 1))
    }

    /// The word `i` names.
    #[inline(always)]
    fn word(&self, i: Index) -> *mut u64 {
        debug_assert!((i.0 as usize) < self.wlen);
        // SAFETY: `i` is below wlen (see `Index`), so inside the allocation.
        unsafe { self.wbase.add(i.0 as usize) }
    }

    /// Overwrites word `i`.
    #[inline(always)]
    fn set(&mut self, i: Index, word: u64) {
        // SAFETY: `i` names an initialised word of the allocation (see `Index`).
        unsafe { *self.word(i) = word };
    }

    /// The two words of a named compound or list (id byte at `at`) in `c`:
    /// its tag word and its container word, whose index is returned.
    #[inline(always)]
    fn named_container(
        &mut self,
        c: &mut OpenTapeCompound,
        id: u8,
        at: usize,
    ) -> Result<Index, Error> {
        c.add_child();
        self.push2(((id as u64) << 56) | (at + 1) as u64, 0, at)
    }
}

impl<'a> Sink<'a> for TapeSink<'_> {
    type Compound = OpenTapeCompound;
    /// The list's container word.
    type Slot = Index;
    /// The list's container word.
    type Elements = Index;
    /// The container word; a compound's count waits in its low half.
    type Parked = Index;
    /// The list's first index in the side table.
    type PrefixedList = u32;
    type Output = TapeParts;

    #[inline(always)]
    fn root_compound(&mut self) -> Result<OpenTapeCompound, Error> {
        let i = self.push_indexed((COMPOUND as u64) << 56, 0)?;
        Ok(OpenTapeCompound::new(i, 0))
    }

    #[inline(always)]
    fn root_list(&mut self, pos: usize) -> Result<Index, Error> {
        self.push2(((LIST as u64) << 56) | pos as u64, 0, pos)
    }

    #[inline(always)]
    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error> {
        self.push(((id as u64) << 56) | pos as u64, pos)
    }

    #[inline(always)]
    fn named_leaf(
        &mut self,
        c: &mut OpenTapeCompound,
        id: u8,
        at: usize,
        _payload: usize,
    ) -> Result<(), Error> {
        c.add_child();
        self.push(((id as u64) << 56) | (at + 1) as u64, at)
    }

    #[inline(always)]
    fn named_compound(
        &mut self,
        c: &mut OpenTapeCompound,
        at: usize,
    ) -> Result<OpenTapeCompound, Error> {
        let i = self.named_container(c, COMPOUND, at)?;
        Ok(OpenTapeCompound::new(i, 0))
    }

    #[inline(always)]
    fn named_list(&mut self, c: &mut OpenTapeCompound, at: usize) -> Result<Index, Error> {
        self.named_container(c, LIST, at)
    }

    #[inline(always)]
    fn close_compound(&mut self, c: OpenTapeCompound) {
        let word = self.word(c.index());
        let saturated = c.count().min(COUNT_MASK as u32) as u64;
        // SAFETY: `word` is an initialised word of the allocation (`Index`).
        unsafe { *word = (*word & ID_BITS) | saturated << 32 | self.wlen as u64 };
    }

    #[inline(always)]
    fn park_compound(&mut self, c: OpenTapeCompound) -> Index {
        // SAFETY: the low half of an initialised word of the allocation
        // (`Index`); bits 32..56 stay 0 until the compound closes.
        unsafe { low_half(self.word(c.index())).write(c.count()) };
        c.index()
    }

    #[inline(always)]
    fn resume_compound(&mut self, p: Index) -> OpenTapeCompound {
        // SAFETY: as in `park_compound`, which wrote it.
        let count = unsafe { low_half(self.word(p)).read() };
        OpenTapeCompound::new(p, count)
    }

    #[inline(always)]
    fn park_elements(&mut self, e: Index) -> Index {
        e
    }

    #[inline(always)]
    fn resume_elements(&mut self, p: Index) -> Index {
        p
    }

    #[inline(always)]
    fn element_compound(&mut self, pos: usize) -> Result<OpenTapeCompound, Error> {
        let i = self.push_indexed((COMPOUND as u64) << 56, pos)?;
        Ok(OpenTapeCompound::new(i, 0))
    }

    #[inline(always)]
    fn element_list(&mut self, pos: usize) -> Result<Index, Error> {
        self.push2(((LIST as u64) << 56) | pos as u64, 0, pos)
    }

    #[inline(always)]
    fn flat_list(&mut self, slot: Index, _elem: u8, _n: u32, _payload: usize) {
        self.set(slot, self.wlen as u64);
    }

    #[inline(always)]
    fn prefixed_list(
        &mut self,
        _elem: u8,
        n: u32,
        payload: usize,
        _len: usize,
    ) -> Result<u32, Error> {
        // Only where the list is: the side table is built from it on first
        // use (`Tape::side`).
        let aux = self.elements;
        if n > 0 {
            self.elements = aux
                .checked_add(n)
                .ok_or_else(|| err(ErrorKind::InputTooLarge, payload - 5))?;
            let top = self.top.get();
            if self.wlen == top {
                return Err(tape_full(self.full, self.top, payload - 5));
            }
            self.top.set(top - 1);
            // SAFETY: wlen <= top < cap (checked just above), so the slot is
            // in the buffer and no tape word's (module docs).
            unsafe { self.wbase.add(top - 1).write(payload as u64) };
        }
        Ok(aux)
    }

    #[inline(always)]
    fn prefixed_element(&mut self, _list: &mut u32, _bytes: &'a [u8]) {}

    #[inline(always)]
    fn close_prefixed_list(&mut self, slot: Index, aux: u32) {
        self.set(slot, (aux as u64) << 32 | self.wlen as u64);
    }

    #[inline(always)]
    fn elements(&mut self, slot: Index, _elem: u8, _n: u32) -> Index {
        slot
    }

    #[inline(always)]
    fn close_elements(&mut self, slot: Index) {
        self.set(slot, self.wlen as u64);
    }

    fn finish(self, _end: usize) -> TapeParts {
        // The buffer goes to the `Vec` below, not to the drop.
        let this = std::mem::ManuallyDrop::new(self);
        let wlen = this.wlen;
        let top = this.top.get();
        let lists = this.cap - top;
        if lists > 0 {
            // SAFETY: the slots `top..cap` hold the offsets and `wlen..top`
            // none of the tape's words (module docs); `lists` slots from
            // `wlen` on end at or before `cap`.
            unsafe { move_lists(this.wbase, wlen, top, lists) };
        }
        // SAFETY: the buffer and capacity of a `Vec<u64>` (module docs),
        // given up here and nowhere else (the drop does not run); its first
        // `wlen` words are the tape's and the next `lists` its list offsets
        // (moved there just above), and `wlen + lists <= cap`.
        let words = unsafe { Vec::from_raw_parts(this.wbase, wlen + lists, this.cap) };
        TapeParts {
            words,
            len: wlen as u32,
            elements: this.elements,
        }
    }
}

/// A parse that ended in an error frees the buffer.
impl Drop for TapeSink<'_> {
    fn drop(&mut self) {
        // SAFETY: the buffer and capacity of a `Vec<u64>` that the sink owns
        // (module docs), given up here and nowhere else; nothing in it needs
        // dropping (length 0).
        drop(unsafe { Vec::from_raw_parts(self.wbase, 0, self.cap) });
    }
}

/// The error that ends a parse whose tape is full, at the tag at input
/// offset `at` (what a tape of `u32::MAX` words reports); `full` tells the
/// caller that this is why, so that it tries again with a larger tape
/// ([`retry_capacity`]). Out of line and never returning into the tag loop:
/// no value of the loop has to survive it.
///
/// `top`'s address escapes here (`black_box`), so that LLVM keeps it in
/// memory rather than in a register carried round the tag loop (module
/// docs); on this cold path that costs nothing.
#[cold]
#[inline(never)]
fn tape_full(full: &Cell<bool>, top: &Cell<usize>, at: usize) -> Error {
    std::hint::black_box(top);
    full.set(true);
    err(ErrorKind::InputTooLarge, at)
}

/// Moves the `n` list offsets from `base[top..top + n]` (the latest first)
/// to `base[wlen..wlen + n]` in document order, after the tape (see
/// [`super::Tape::words`]). Out of line: most documents have no such list.
///
/// # Safety
///
/// `base[..top + n]` is one allocation of `u64`s, `wlen <= top`, and the `n`
/// slots from `top` are initialised.
#[cold]
#[inline(never)]
unsafe fn move_lists(base: *mut u64, wlen: usize, top: usize, n: usize) {
    // SAFETY: the `n` initialised slots from `top` are inside the allocation
    // (the caller's contract) and no other reference to them exists while
    // the sink is being finished.
    let offsets = unsafe { std::slice::from_raw_parts_mut(base.add(top), n) };
    offsets.reverse();
    // SAFETY: both ranges are inside the allocation (`wlen + n <= top + n`);
    // `copy` allows them to overlap.
    unsafe { std::ptr::copy(base.add(top), base.add(wlen), n) };
}

/// The first tape's capacity in words for a value of `rest` input bytes.
///
/// Real files take 10–60 input bytes per tape word (reports/perf.md), so one
/// word per 8 bytes leaves every one of them a single allocation; 4 more for
/// the smallest documents (a root and a few tags). Denser inputs parse again
/// into a larger tape ([`retry_capacity`]).
///
/// Up to 4 KiB the allocation is rounded up to a power of two. A Rust
/// allocation always names its alignment, and mimalloc's aligned entry point
/// serves a block of any other size only from a ready free list of at most
/// 1 KiB; otherwise (every tape over 1 KiB, and a small one whose free list
/// is empty) it over-allocates through its generic aligned path, which
/// small documents' reads paid for (`reports/code-notes.md`). Other allocators round to size classes of their own;
/// the rounding at most doubles an allocation of at most 4 KiB.
#[inline(always)]
pub(crate) fn first_capacity(rest: usize) -> usize {
    /// The largest power of two mimalloc aligns naturally, in words.
    const NATURAL: usize = 4096 / size_of::<u64>();
    let words = rest / 8 + 4;
    if words <= NATURAL {
        words.next_power_of_two()
    } else {
        words
    }
}

/// The tape's capacity for the next try of a parse whose tape of
/// `capacity` words was full, for a value of `rest` input bytes; `None` when
/// it was already as large as it can need to be.
///
/// Every tape word stands for at least one input byte (a compound in a list
/// is its End byte; every other word takes more), so `rest` words and the
/// root's, and 2 of slack for a two-word push, always suffice; nor may the
/// tape pass `u32::MAX` words, which its container words index with 32 bits.
/// Four times as large each try: a value parses at most three times (one word
/// per 8, 2 and 1/2 input bytes), and the tape never takes more than 8 bytes
/// per input byte, what the densest input needs.
pub(crate) fn retry_capacity(capacity: usize, rest: usize) -> Option<usize> {
    let most = rest.saturating_add(3).min(u32::MAX as usize);
    (capacity < most).then(|| capacity.saturating_mul(4).min(most))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value parses at most three times, and no try's tape is larger than
    /// one word per input byte (and the root's, and 2 of slack) or
    /// `u32::MAX` words.
    #[test]
    fn retries_are_few_and_bounded() {
        for rest in [
            0usize,
            1,
            7,
            8,
            100,
            591,
            4096,
            4097,
            1 << 20,
            u32::MAX as usize,
            usize::MAX / 2,
            usize::MAX,
        ] {
            let most = rest.saturating_add(3).min(u32::MAX as usize);
            let mut capacity = first_capacity(rest);
            let mut tries = 1;
            while let Some(more) = retry_capacity(capacity, rest) {
                assert!(
                    more > capacity && more <= most,
                    "rest {rest}: {capacity} -> {more}"
                );
                capacity = more;
                tries += 1;
            }
            assert!(tries <= 3, "rest {rest}: {tries} tries");
            assert!(
                capacity >= most,
                "rest {rest}: last try {capacity} < {most}"
            );
        }
    }

    /// Up to 4 KiB the first tape is a power of two (mimalloc's plain path),
    /// and never below one word per 8 input bytes and 4.
    #[test]
    fn first_capacity_is_a_power_of_two_up_to_4_kib() {
        // Miri interprets slowly: every 37th size there.
        let step = if cfg!(miri) { 37 } else { 1 };
        for rest in (0..40_000usize).step_by(step) {
            let c = first_capacity(rest);
            assert!(c >= rest / 8 + 4, "rest {rest}");
            if c * 8 <= 4096 {
                assert!(c.is_power_of_two(), "rest {rest}: {c}");
            } else {
                assert_eq!(c, rest / 8 + 4, "rest {rest}");
            }
        }
    }
}
