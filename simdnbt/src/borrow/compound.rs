//! Borrowed compounds: a range of the tape.

use std::borrow::Cow;
use std::fmt;

use super::{NbtList, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;
use crate::tape::{COUNT_MASK, Tape};

/// A compound inside a borrowed document: its named tags, in input order.
///
/// Keys are not sorted or hashed, so lookup is a linear scan (fast for the
/// small compounds NBT is made of). When a crafted input repeats a key, all
/// entries are kept in order and lookup returns the **last**, the value the
/// game reads (its compound is a map, filled entry by entry), as
/// [`crate::owned::NbtCompound`] does; see its "Duplicate keys" section.
#[derive(Clone, Copy)]
pub struct NbtCompound<'a: 'tape, 'tape> {
    pub(crate) tape: &'tape Tape<'a>,
    /// Tape index of the first child's word.
    pub(crate) start: u32,
    /// Tape index just past the last child.
    pub(crate) end: u32,
}

macro_rules! typed_getters {
    ($( $(#[$doc:meta])* $name:ident -> $ret:ty; )*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, name: &str) -> Option<$ret> {
            self.get(name).and_then(|tag| tag.$name())
        }
    )*};
}

impl<'a: 'tape, 'tape> NbtCompound<'a, 'tape> {
    /// The root compound of a tape (its header word is at index 0).
    pub(crate) fn root(tape: &'tape Tape<'a>) -> Self {
        let (value, _) = tape.unnamed(0);
        Self {
            tape,
            start: value.start,
            end: value.end,
        }
    }

    /// The tag called `name` (the last one, if a crafted input repeats it).
    ///
    /// The tape links entries forwards only, so the scan always runs to the
    /// end of the compound: a lookup costs the whole compound, present key or
    /// not (about the cost of a miss before duplicates counted the last).
    #[inline]
    pub fn get(&self, name: &str) -> Option<NbtTag<'a, 'tape>> {
        let key = Mutf8Str::from_str(name);
        let key = key.as_bytes();
        let mut found = None;
        let mut i = self.start;
        while i < self.end {
            let (name, value, next) = self.tape.named(i);
            if crate::mutf8::key_matches(name, key) {
                found = Some(value);
            }
            i = next;
        }
        found.map(|value| NbtTag::new(self.tape, value))
    }

    /// Whether there is a tag called `name`.
    #[inline]
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    for_each_getter!(typed_getters, 'tape);

    /// The named tags in input order.
    #[inline]
    pub fn iter(&self) -> NbtCompoundIter<'a, 'tape> {
        NbtCompoundIter {
            tape: self.tape,
            next: self.start,
            end: self.end,
        }
    }

    /// The number of tags (recorded while parsing; a scan past 2^24 − 1 tags).
    pub fn len(&self) -> usize {
        match self.tape.child_count_hint(self.start) {
            n if (n as u64) < COUNT_MASK => n as usize,
            _ => self.iter().count(),
        }
    }

    /// Whether the compound has no tags.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The keys in input order.
    pub fn keys(&self) -> impl Iterator<Item = &'a Mutf8Str> + 'tape + use<'a, 'tape> {
        self.iter().map(|(k, _)| k)
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtCompound {
        crate::owned::from_borrow::compound(self.tape, self.start, self.end)
    }

    /// Appends this compound's payload (named tags and the closing End).
    pub fn write(&self, data: &mut Vec<u8>) {
        super::write::compound_payload(self.tape, self.start, self.end, data);
    }

    /// Decodes every key to `str` lossily; convenient for debugging and tests.
    pub fn keys_lossy(&self) -> Vec<Cow<'a, str>> {
        self.keys().map(|k| k.to_string_lossy()).collect()
    }
}

impl<'a: 'tape, 'tape> IntoIterator for NbtCompound<'a, 'tape> {
    type Item = (&'a Mutf8Str, NbtTag<'a, 'tape>);
    type IntoIter = NbtCompoundIter<'a, 'tape>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Iterator over a borrowed compound's `(name, tag)` pairs, in input order.
#[derive(Clone)]
pub struct NbtCompoundIter<'a: 'tape, 'tape> {
    tape: &'tape Tape<'a>,
    next: u32,
    end: u32,
}

impl<'a: 'tape, 'tape> Iterator for NbtCompoundIter<'a, 'tape> {
    type Item = (&'a Mutf8Str, NbtTag<'a, 'tape>);

    // Always inlined: the item is 48 bytes, and a call returns it through
    // memory (a quarter of visiting a file, `reports/code-notes.md`).
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let (name, value, next) = self.tape.named(self.next);
        self.next = next;
        Some((Mutf8Str::from_slice(name), NbtTag::new(self.tape, value)))
    }
}

impl fmt::Debug for NbtCompound<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Compares values, not positions. NBT's encoding is canonical, so two compounds
/// are equal exactly when their encodings are: key order and duplicates count,
/// and floats compare by bits (NaN equals the same NaN; `-0.0 != 0.0`).
impl PartialEq for NbtCompound<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        a == b
    }
}
