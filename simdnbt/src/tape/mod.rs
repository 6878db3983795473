//! The tape: what the validating core ([`crate::read`]) records for the
//! borrowed model, where every tag is.
//!
//! Like simdjson's tape, it is a flat `Vec<u64>` of fixed-size words pointing into
//! the input; nothing is decoded or copied and nothing is allocated per tag.
//!
//! Word layouts (`id` = tag id in the top 8 bits, `off` = input offset, 56 bits):
//!
//! | what | words |
//! |---|---|
//! | named child of a compound | `id<<56 \| name_off`, then for a compound or list one *container word* |
//! | compound inside a list, or as a root value | `COMPOUND<<56 \| count<<32 \| end` |
//! | list inside a list, or as a root value | `LIST<<56 \| payload_off`, then a container word |
//! | any other root value | `id<<56 \| payload_off` |
//!
//! A container word is `aux<<32 \| end`: `end` is the tape index just past the
//! container's last word (so skipping a container is one load). For a list of
//! strings or arrays `aux` indexes [`Tape::side`], the table of one slice per
//! element, built on first use; for a compound it counts the children (in a
//! one-word compound header the count sits in bits 32..56, saturating).
//! `name_off` points at the name's u16 length; the payload follows the name.

use std::cell::Cell;
use std::sync::OnceLock;

use crate::error::Error;
use crate::options::ReadOptions;
use crate::tag_id::*;

mod sink;
mod spare;

pub(crate) use sink::TapeSink;

/// Parses one value whose tag id `id` was already read; `pos` is its payload.
/// Returns the tape and the offset just past the value.
#[inline]
pub(crate) fn parse_root<'a>(
    data: &'a [u8],
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<(Tape<'a>, usize), Error> {
    parse_root_in(data, pos, id, opts, 0)
}

/// [`parse_root`] into a tape of `capacity` words ([`sink::first_capacity`]
/// if 0): when it fills, the value is parsed again into a larger one, up to
/// what it can need ([`sink::retry_capacity`]). The retry is a call, not a
/// loop: in a loop the parse's setup moved before it, where every read paid
/// for it (reports/perf.md). Out of line, so that the readers around it stay
/// small enough to inline into their callers.
#[inline(never)]
fn parse_root_in<'a>(
    data: &'a [u8],
    pos: usize,
    id: u8,
    opts: &ReadOptions,
    capacity: usize,
) -> Result<(Tape<'a>, usize), Error> {
    let rest = crate::read::budget_end(data, pos, opts) - pos;
    let capacity = if capacity == 0 {
        sink::first_capacity(rest)
    } else {
        capacity
    };
    let full = Cell::new(false);
    // The sink's list-offset bound, kept in memory (`sink.rs`'s module docs).
    let top = Cell::new(0);
    let (parts, end) = match crate::read::read_value(data, pos, id, opts, |_| {
        TapeSink::new(capacity, &full, &top)
    }) {
        Err(e) if full.get() => {
            return match sink::retry_capacity(capacity, rest) {
                Some(more) => parse_root_in(data, pos, id, opts, more),
                None => Err(e),
            };
        }
        other => other?,
    };
    Ok((
        Tape {
            data,
            words: spare::Words::new(parts.words),
            len: parts.len,
            elements: parts.elements,
            side: OnceLock::new(),
        },
        end,
    ))
}

/// The input offset in a word: its low 56 bits, which hold any offset the
/// core accepts ([`crate::read::check::MAX_INPUT`]).
pub(crate) const OFFSET_MASK: u64 = crate::read::check::MAX_INPUT - 1;
/// The child count kept in a one-word compound header (bits 32..56).
pub(crate) const COUNT_MASK: u64 = (1 << 24) - 1;

/// The parsed index of one document.
///
/// # Invariant
///
/// Only [`parse_root`] makes a `Tape`, from what the validating core
/// checked, so for the words below `len` and the [`TapeValue`]s read from them:
/// a named tag's word points at its name's u16 length, and the name and the
/// tag's payload follow inside `data`; a value's `payload` is inside `data`
/// with all of its payload (a number's bytes, a string's or array's length
/// and elements, a list's 5-byte header and elements); a named compound's or
/// list's word is followed by its container word; every `end` and `start` is
/// at most `len`; each word after `len` is the offset of the first element
/// of a non-empty list of strings or arrays, whose 5-byte header (element
/// id, count) precedes it and whose elements all lie inside `data`. The
/// accessors below read the input and the words without
/// bounds checks on the strength of it (checked by `debug_assert!`); the
/// views reach both only through them.
pub(crate) struct Tape<'a> {
    /// The whole input (offsets are relative to its start).
    pub data: &'a [u8],
    /// The tape (`words[..len]`), then the payload offset (first element) of
    /// every non-empty list of strings, byte arrays, int arrays or long
    /// arrays, in document order: in one allocation, which keeps `Tape` (and
    /// every document) small to move. Kept by the thread when the tape is
    /// dropped ([`spare::Words`]).
    pub words: spare::Words,
    /// The tape's length in words.
    len: u32,
    /// How many elements those lists have together.
    elements: u32,
    /// One slice per element of those lists (the element's bytes without its
    /// length prefix), built on first use: most reads never ask for them.
    side: OnceLock<SideTable>,
}

/// The side table's slices, each into [`Tape::data`]. Raw pointers, so that
/// the type names no lifetime: a `OnceLock` of `&'a [u8]`s would make `Tape`
/// (and every borrowed document) invariant in `'a`, where upstream's
/// documents are covariant (a document could no longer be used where a
/// shorter-lived one is expected).
struct SideTable(Box<[*const [u8]]>);

// SAFETY: the pointers are shared, read-only views into the input, which is
// itself `Send + Sync` (`&[u8]`); nothing is written through them.
unsafe impl Send for SideTable {}
// SAFETY: as for `Send`.
unsafe impl Sync for SideTable {}

/// The elements of a validated list of strings or arrays, as slices of the
/// input without their length prefixes.
pub(crate) struct PrefixedElements<'a> {
    data: &'a [u8],
    pos: usize,
    left: u32,
    /// The element type.
    elem: u8,
}

impl<'a> Iterator for PrefixedElements<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let start = self.pos + layout(self.elem).prefix as usize;
        self.pos = leaf_end(self.data, self.elem, self.pos);
        Some(&self.data[start..self.pos])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for PrefixedElements<'_> {}

impl PrefixedElements<'_> {
    /// The input offset just past the last element (walks what is left).
    pub fn end(mut self) -> usize {
        while self.next().is_some() {}
        self.pos
    }
}

/// A tag's value as found on the tape: enough to read it without rescanning.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TapeValue {
    pub id: u8,
    /// Offset of the payload in the input (for a list: its element-type byte).
    pub payload: usize,
    /// For compounds and lists of compounds/lists: tape index of the first child.
    pub start: u32,
    /// For containers: tape index just past the last word.
    pub end: u32,
    /// For lists of strings/arrays: index of the first element in [`Tape::side`].
    /// For compounds: the number of children (saturating at 2^24 - 1), a
    /// capacity hint for building the owned tree.
    pub aux: u32,
}

#[inline(always)]
pub(crate) fn word_id(word: u64) -> u8 {
    (word >> 56) as u8
}

#[inline(always)]
pub(crate) fn word_offset(word: u64) -> usize {
    (word & OFFSET_MASK) as usize
}

impl<'a> Tape<'a> {
    /// One slice per element of every list of strings or arrays, indexed by
    /// the lists' `aux` (built on the first call).
    #[inline]
    pub fn side(&self) -> &[&'a [u8]] {
        let table = self.side.get_or_init(|| {
            let mut side = Vec::with_capacity(self.elements as usize);
            // Through the unchecked accessors, the element type's layout
            // looked up once per list: the checked walk of
            // `prefixed_elements` cost several times more per element
            // (`reports/perf.md`). The lists were validated by the parse
            // (the invariant above).
            for &payload in &self.words[self.len as usize..] {
                let header = payload as usize - 5;
                let l = layout(self.byte(header));
                let (prefix, element) = (l.prefix as usize, l.element as usize);
                let mut pos = payload as usize;
                for _ in 0..self.u32_at(header + 1) {
                    let units = match prefix {
                        2 => self.u16_at(pos) as usize,
                        _ => self.u32_at(pos) as usize,
                    };
                    let start = pos + prefix;
                    pos = start + units * element;
                    side.push(self.bytes(start, pos) as *const [u8]);
                }
            }
            // Exact: no reallocation.
            SideTable(side.into_boxed_slice())
        });
        let slices: &[*const [u8]] = &table.0;
        // SAFETY: pointers and references have the same layout (the
        // Reference, "Type layout"), and every pointer was made from a slice
        // of `self.data`, valid and unchanged for `'a`.
        unsafe { &*(slices as *const [*const [u8]] as *const [&'a [u8]]) }
    }

    /// The elements of the list of strings or arrays whose header (element
    /// id, count) is at `header`.
    #[inline]
    pub fn prefixed_elements(&self, header: usize) -> PrefixedElements<'a> {
        PrefixedElements {
            data: self.data,
            pos: header + 5,
            left: self.u32_at(header + 1),
            elem: self.data[header],
        }
    }

    /// The input's bytes `start..end`, which the parse checked (see the
    /// invariant: callers pass only spans of what a word or value names).
    #[inline(always)]
    pub fn bytes(&self, start: usize, end: usize) -> &'a [u8] {
        debug_assert!(start <= end && end <= self.data.len());
        // SAFETY: inside `data` by the invariant (the span is part of a
        // checked tag).
        unsafe { self.data.get_unchecked(start..end) }
    }

    /// The input's byte at `off`, which the parse checked (as for [`Self::bytes`]).
    #[inline(always)]
    pub fn byte(&self, off: usize) -> u8 {
        debug_assert!(off < self.data.len());
        // SAFETY: inside `data` by the invariant.
        unsafe { *self.data.get_unchecked(off) }
    }

    /// The word at index `i`, below `len` (callers pass a value's `start` up
    /// to its `end`, see the invariant).
    #[inline(always)]
    pub fn word(&self, i: u32) -> u64 {
        debug_assert!(i < self.len);
        // SAFETY: below `len` <= words.len() by the invariant.
        unsafe { *self.words.get_unchecked(i as usize) }
    }

    #[inline(always)]
    pub fn u16_at(&self, off: usize) -> u16 {
        u16::from_be_bytes(self.bytes(off, off + 2).try_into().unwrap())
    }

    #[inline(always)]
    pub fn u32_at(&self, off: usize) -> u32 {
        u32::from_be_bytes(self.bytes(off, off + 4).try_into().unwrap())
    }

    /// The bytes of a u16-length-prefixed string at `off`.
    #[inline(always)]
    pub fn str_at(&self, off: usize) -> &'a [u8] {
        let len = self.u16_at(off) as usize;
        self.bytes(off + 2, off + 2 + len)
    }

    /// The child count recorded for the compound whose children start at tape
    /// index `start` (saturating at `COUNT_MASK`). Both compound header forms
    /// keep it in bits 32..56 of the word just before the first child.
    #[inline]
    pub fn child_count_hint(&self, start: u32) -> u32 {
        ((self.word(start - 1) >> 32) & COUNT_MASK) as u32
    }

    /// Reads the named child whose first word is at tape index `i`.
    /// Returns its name (the bytes after the u16 length at offset
    /// `value.payload - 2 - name.len()`), its value and the index of the next
    /// sibling.
    #[inline(always)]
    pub fn named(&self, i: u32) -> (&'a [u8], TapeValue, u32) {
        let word = self.word(i);
        let id = word_id(word);
        let name = self.str_at(word_offset(word));
        // The name is a slice of `data`, so this is its end's offset.
        let payload = name.as_ptr() as usize - self.data.as_ptr() as usize + name.len();
        if id == COMPOUND || id == LIST {
            let c = self.word(i + 1);
            let end = c as u32;
            let value = TapeValue {
                id,
                payload,
                start: i + 2,
                end,
                aux: (c >> 32) as u32,
            };
            (name, value, end)
        } else {
            (
                name,
                TapeValue {
                    id,
                    payload,
                    start: i + 1,
                    end: i + 1,
                    aux: 0,
                },
                i + 1,
            )
        }
    }

    /// Reads the unnamed value (list element or root) whose first word is at `i`.
    /// Returns the value and the index just past it.
    #[inline(always)]
    pub fn unnamed(&self, i: u32) -> (TapeValue, u32) {
        let word = self.word(i);
        let id = word_id(word);
        match id {
            COMPOUND => {
                let end = word as u32;
                let aux = ((word >> 32) & COUNT_MASK) as u32;
                (
                    TapeValue {
                        id,
                        payload: 0,
                        start: i + 1,
                        end,
                        aux,
                    },
                    end,
                )
            }
            LIST => {
                let c = self.word(i + 1);
                let end = c as u32;
                let value = TapeValue {
                    id,
                    payload: word_offset(word),
                    start: i + 2,
                    end,
                    aux: (c >> 32) as u32,
                };
                (value, end)
            }
            _ => (
                TapeValue {
                    id,
                    payload: word_offset(word),
                    start: i + 1,
                    end: i + 1,
                    aux: 0,
                },
                i + 1,
            ),
        }
    }
}
