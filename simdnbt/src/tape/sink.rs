//! The tape as a [`Sink`] of the validating core: one or two words per tag,
//! written through raw pointers kept in the sink (which the inlined core
//! keeps in registers), and where each list of strings or arrays is (its
//! side-table slices are made on first use, see [`super::Tape::side`]).
//!
//! The tape never outgrows the input: every word stands for at least one
//! input byte, and growth is capped at what the rest of the input can use.

use super::COUNT_MASK;
use crate::error::{Error, ErrorKind};
use crate::read::Sink;
use crate::read::check::err;
use crate::tag_id::*;

/// The tape being written.
pub(crate) struct TapeSink {
    /// The allocation; its `len` is only set at the end or before growing
    /// (`wp - wbase` words are written).
    words: Vec<u64>,
    /// The payload offset of every non-empty list of strings or arrays, in
    /// document order (see [`super::Tape::words`]).
    lists: Vec<usize>,
    /// See [`super::Tape`]'s field of the same name.
    elements: u32,
    /// The start of `words`' allocation.
    wbase: *mut u64,
    /// The next free slot.
    wp: *mut u64,
    /// One past the allocation's last slot.
    wend: *mut u64,
    /// The input's length.
    len: usize,
}

/// A compound being read: `words[patch] = bits | count<<32 | end` when it
/// closes. `bits` is 0 for a named compound (whose container word is
/// separate) and `COMPOUND<<56` for a one-word header (list element or root).
#[derive(Clone, Copy)]
pub(crate) struct OpenCompound {
    patch: u32,
    bits: u64,
    count: u32,
}

/// What a parse leaves for [`super::Tape`] (see its fields).
pub(crate) struct TapeParts {
    pub words: Vec<u64>,
    pub len: u32,
    pub elements: u32,
}

impl TapeSink {
    /// An empty tape sized for the value at `pos` of `data`.
    pub(crate) fn new(data: &[u8], pos: usize) -> Self {
        // Real files take 8–12 input bytes per tape word. Start with room for
        // one word per 4 bytes, twice what they need, so the free capacity
        // stays above the worst-case `limit` and a real file of up to 4 MiB
        // never crosses it (bigger files cross it, see `grow`, but rarely
        // reallocate).
        let mut words: Vec<u64> = Vec::with_capacity(((data.len() - pos) / 4).clamp(4, 1 << 20));
        let wbase = words.as_mut_ptr();
        // SAFETY: capacity() slots are allocated from `wbase`.
        let wend = unsafe { wbase.add(words.capacity()) };
        Self {
            words,
            lists: Vec::new(),
            elements: 0,
            wbase,
            wp: wbase,
            wend,
            len: data.len(),
        }
    }

    /// The number of words written so far.
    #[inline(always)]
    fn wlen(&self) -> usize {
        // SAFETY: wbase <= wp, both in (or one past) the same allocation.
        unsafe { self.wp.offset_from(self.wbase) as usize }
    }

    /// The number of free slots.
    #[inline(always)]
    fn free(&self) -> usize {
        // SAFETY: wp <= wend, both in (or one past) the same allocation.
        unsafe { self.wend.offset_from(self.wp) as usize }
    }

    /// Makes room for `n` more words (cold path out of line).
    #[inline(always)]
    fn reserve(&mut self, n: usize, pos: usize, len: usize) -> Result<(), Error> {
        if self.free() < n {
            self.regrow(n, pos, len)?;
        }
        Ok(())
    }

    /// Replaces the allocation after [`grow`].
    #[inline(always)]
    fn regrow(&mut self, n: usize, pos: usize, len: usize) -> Result<(), Error> {
        let wlen = self.wlen();
        (self.wbase, self.wend) = grow(&mut self.words, wlen, n, pos, len)?;
        // SAFETY: the grown allocation holds at least `wlen` slots.
        self.wp = unsafe { self.wbase.add(wlen) };
        Ok(())
    }

    /// Appends a word; `reserve` (or the core's `limit`) made room for it.
    #[inline(always)]
    fn push(&mut self, word: u64) {
        debug_assert!(self.wp < self.wend);
        // SAFETY: wp < wend, so the slot is allocated; words.len() is raised
        // over it only after it is written.
        unsafe {
            self.wp.write(word);
            self.wp = self.wp.add(1);
        }
    }

    /// The two words of a named compound or list (id byte at `at`) in `c`:
    /// its tag word and its container word, whose index is returned.
    #[inline(always)]
    fn named_container(&mut self, c: &mut OpenCompound, id: u8, at: usize) -> u32 {
        c.count = c.count.wrapping_add(1);
        self.push(((id as u64) << 56) | (at + 1) as u64);
        let container = self.wlen() as u32;
        self.push(0);
        container
    }

    /// Overwrites word `i`, which was pushed earlier.
    #[inline(always)]
    fn set(&mut self, i: u32, word: u64) {
        let i = i as usize;
        assert!(i < self.wlen());
        // SAFETY: i < wlen, so the slot is allocated and initialised.
        unsafe { *self.wbase.add(i) = word };
    }
}

impl<'a> Sink<'a> for TapeSink {
    type Compound = OpenCompound;
    /// The index of the list's container word.
    type Slot = u32;
    /// The index of the list's container word.
    type Elements = u32;
    /// The list's first index in the side table.
    type PrefixedList = u32;
    type Output = TapeParts;

    #[inline(always)]
    fn limit(&self, pos: usize, len: usize) -> usize {
        // No named tag takes more than one word per two input bytes (a number
        // takes one word for ≥ 4 bytes, a list of numbers two for ≥ 8).
        len.min(pos + 2 * self.free().saturating_sub(2))
    }

    #[inline(always)]
    fn grow(&mut self, pos: usize, len: usize) -> Result<(), Error> {
        self.regrow(2, pos, len)
    }

    #[inline(always)]
    fn root_compound(&mut self) -> Result<OpenCompound, Error> {
        let bits = (COMPOUND as u64) << 56;
        self.push(bits);
        Ok(OpenCompound {
            patch: 0,
            bits,
            count: 0,
        })
    }

    #[inline(always)]
    fn root_list(&mut self, pos: usize) -> Result<u32, Error> {
        self.push(((LIST as u64) << 56) | pos as u64);
        self.push(0);
        Ok(1)
    }

    #[inline(always)]
    fn root_leaf(&mut self, id: u8, pos: usize) -> Result<(), Error> {
        self.push(((id as u64) << 56) | pos as u64);
        Ok(())
    }

    #[inline(always)]
    fn named_leaf(&mut self, c: &mut OpenCompound, id: u8, at: usize, _payload: usize) {
        c.count = c.count.wrapping_add(1);
        self.push(((id as u64) << 56) | (at + 1) as u64);
    }

    #[inline(always)]
    fn named_compound(&mut self, c: &mut OpenCompound, at: usize) -> OpenCompound {
        OpenCompound {
            patch: self.named_container(c, COMPOUND, at),
            bits: 0,
            count: 0,
        }
    }

    #[inline(always)]
    fn named_list(&mut self, c: &mut OpenCompound, at: usize) -> u32 {
        self.named_container(c, LIST, at)
    }

    #[inline(always)]
    fn close_compound(&mut self, c: OpenCompound) {
        let saturated = c.count.min(COUNT_MASK as u32);
        let word = c.bits | (saturated as u64) << 32 | self.wlen() as u64;
        self.set(c.patch, word);
    }

    #[inline(always)]
    fn element_compound(&mut self, pos: usize) -> Result<OpenCompound, Error> {
        // A compound in a list is at least its End byte: one word per byte.
        self.reserve(1, pos, self.len)?;
        let bits = (COMPOUND as u64) << 56;
        let patch = self.wlen() as u32;
        self.push(bits);
        Ok(OpenCompound {
            patch,
            bits,
            count: 0,
        })
    }

    #[inline(always)]
    fn element_list(&mut self, pos: usize) -> Result<u32, Error> {
        self.reserve(2, pos, self.len)?;
        self.push(((LIST as u64) << 56) | pos as u64);
        let container = self.wlen() as u32;
        self.push(0);
        Ok(container)
    }

    #[inline(always)]
    fn flat_list(&mut self, slot: u32, _elem: u8, _n: u32, _payload: usize) {
        self.set(slot, self.wlen() as u64);
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
            self.lists.push(payload);
        }
        Ok(aux)
    }

    #[inline(always)]
    fn prefixed_element(&mut self, _list: &mut u32, _bytes: &'a [u8]) {}

    #[inline(always)]
    fn close_prefixed_list(&mut self, slot: u32, aux: u32) {
        self.set(slot, (aux as u64) << 32 | self.wlen() as u64);
    }

    #[inline(always)]
    fn elements(&mut self, slot: u32, _elem: u8, _n: u32) -> u32 {
        slot
    }

    #[inline(always)]
    fn close_elements(&mut self, slot: u32) {
        self.set(slot, self.wlen() as u64);
    }

    fn finish(mut self, _end: usize) -> Self::Output {
        let wlen = self.wlen();
        // SAFETY: the first `wlen` words have been written (and wlen <= capacity).
        unsafe { self.words.set_len(wlen) };
        if !self.lists.is_empty() {
            finish_lists(&mut self.words, &self.lists);
        }
        TapeParts {
            words: self.words,
            len: wlen as u32,
            elements: self.elements,
        }
    }
}

/// Appends the lists' offsets after the tape (see [`super::Tape::words`]).
#[cold]
#[inline(never)]
fn finish_lists(words: &mut Vec<u64>, lists: &[usize]) {
    words.extend(lists.iter().map(|&p| p as u64));
}

/// Grows the tape for `n` more words; the tape's container words index it
/// with 32 bits, so it may not pass `u32::MAX` words.
///
/// The core also calls this when the input position crosses `limit`, which
/// assumes the worst case (one word per two input bytes). Real files take
/// one word per 8–12 bytes, so when at least `KEEP` words are still free
/// nothing is reallocated: the loop just moves `limit` on, at least
/// `2 × (KEEP - 2)` bytes, more than any one tag's checked prefix (id, a
/// 65,535-byte name and the smallest payload), so the tag then fits.
///
/// Every tape word stands for at least one input byte (a compound in a list
/// is its End byte; every other word takes more), so from `pos` on the tape
/// needs at most `len - pos` more words (+2 for the `reserve` margin).
/// Doubling is capped there: otherwise a crafted input whose tape needs just
/// over a power of two words (one-byte compounds in a list) would leave twice
/// the 8 bytes per input byte allocated, 16× the input.
#[cold]
#[inline(never)]
fn grow(
    words: &mut Vec<u64>,
    wlen: usize,
    n: usize,
    pos: usize,
    len: usize,
) -> Result<(*mut u64, *mut u64), Error> {
    /// Free words that make reallocating unnecessary (see above).
    const KEEP: usize = 1 << 16;
    let base = words.as_mut_ptr();
    let free = words.capacity() - wlen;
    if free >= n.max(KEEP) {
        // SAFETY: capacity() slots are allocated from `base`.
        return Ok((base, unsafe { base.add(words.capacity()) }));
    }
    if wlen + n > u32::MAX as usize {
        return Err(err(ErrorKind::InputTooLarge, pos));
    }
    // SAFETY: the first `wlen` words have been written.
    unsafe { words.set_len(wlen) };
    let most = wlen + (len - pos) + 2;
    let target = (wlen + n).max((words.capacity() * 2).min(most));
    words.reserve_exact(target - wlen);
    let base = words.as_mut_ptr();
    // SAFETY: capacity() slots are allocated from `base`.
    Ok((base, unsafe { base.add(words.capacity()) }))
}
