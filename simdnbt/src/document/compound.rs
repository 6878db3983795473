//! Compounds of a document: a block of named child nodes.

use std::borrow::Cow;
use std::fmt;
use std::slice;

use super::index::INDEX_FROM;
use super::node::{Node, name_hash};
use super::{Document, NbtList, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;

/// A compound inside a [`Document`]: its named tags, in order.
///
/// Lookup returns the last match (a crafted input's duplicate keys are all
/// kept, in order, and the last counts, as in the other models): a scan
/// from the end, or in a compound of 128 or more tags a hash index, O(1)
/// amortised (see the [module docs](super#cost)); `len` is O(1).
#[derive(Clone, Copy)]
pub struct NbtCompound<'d> {
    pub(crate) doc: &'d Document,
    /// The compound's own node.
    pub(crate) node: &'d Node,
    children: &'d [Node],
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

/// A key to look up: its MUTF-8 bytes, and whether it holds U+0000 (then a
/// stored name with a raw `00` there matches too, [`crate::mutf8::key_matches`]).
///
/// A compound shorter than [`WORD_FROM`] is scanned by comparing each
/// stored name's length, then its bytes; a longer one by the key's
/// [`Word`] (built once per scan, a few instructions), and, once the
/// compound is [`HASHED`](super::node::HASHED), by the key's name hash first.
pub(crate) struct Lookup<'k> {
    pub bytes: Cow<'k, [u8]>,
    nul: bool,
}

/// The fewest children for a scan to build the key's [`Word`]: it costs
/// about as much as comparing the lengths of 8 names, and a shorter scan
/// passes over fewer names than that.
const WORD_FROM: usize = 8;

/// The key as the document stores a name (u16 big-endian length, then the
/// bytes), its first 8 bytes read as one little-endian word, and the mask of
/// the bytes that are the key's (`2 + len` of them, at most 8): one load,
/// `and` and compare per child rejects nearly every other name and accepts
/// a key of up to 6 bytes outright.
#[derive(Clone, Copy)]
pub(crate) struct Word {
    head: u64,
    mask: u64,
}

impl<'k> Lookup<'k> {
    /// The key `name`. ASCII without NUL (nearly every key) is its own
    /// encoding, checked inline without a call into the encoder
    /// ([`Mutf8Str::from_str`], a call that costs several times the check;
    /// `reports/code-notes.md`, "The document").
    #[inline]
    pub(crate) fn new(name: &'k str) -> Self {
        if plain_ascii(name.as_bytes()) {
            return Lookup {
                bytes: Cow::Borrowed(name.as_bytes()),
                nul: false,
            };
        }
        let bytes = match Mutf8Str::from_str(name) {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_vec()),
        };
        Lookup {
            bytes,
            nul: name.contains('\0'),
        }
    }

    /// The key's [`Word`].
    #[inline(always)]
    pub(crate) fn word(&self, doc: &Document) -> Word {
        let bytes = &self.bytes[..];
        let len = bytes.len();
        if len > u16::MAX as usize {
            // Longer than any name: matches nothing.
            return Word { head: 1, mask: 0 };
        }
        let n = len.min(6);
        // The stored length's two bytes in the document's order, then the
        // key's first `n`.
        let mut head = if doc.le() {
            len as u64
        } else {
            u16::from_le_bytes((len as u16).to_be_bytes()) as u64
        };
        if n == 6 {
            // Most keys: two loads instead of a byte loop.
            let four = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as u64;
            let two = u16::from_le_bytes(bytes[4..6].try_into().unwrap()) as u64;
            head |= four << 16 | two << 48;
        } else {
            for (i, &b) in bytes[..n].iter().enumerate() {
                head |= (b as u64) << (16 + 8 * i);
            }
        }
        Word {
            head,
            mask: u64::MAX >> (8 * (6 - n)),
        }
    }

    /// The index of the last child of compound `c` called this: the entry
    /// that counts when a crafted input repeats a key, as in the other
    /// models. Searched from the end, so it costs no more than a search for
    /// the first; in a [`HASHED`](super::node::HASHED) compound a child
    /// whose name hash differs is passed over without reading its name.
    #[inline]
    pub(crate) fn position(&self, doc: &Document, c: &Node) -> Option<usize> {
        self.find::<true>(doc, c)
    }

    /// The index of the first child of compound `c` called this.
    #[inline]
    pub(crate) fn first(&self, doc: &Document, c: &Node) -> Option<usize> {
        self.find::<false>(doc, c)
    }

    /// The last (`LAST`) or first child of compound `c` called this.
    #[inline(always)]
    fn find<const LAST: bool>(&self, doc: &Document, c: &Node) -> Option<usize> {
        if LAST && c.b as usize >= INDEX_FROM && c.has_block() {
            return doc.indexed_position(c, &self.bytes, || self.scan::<true>(doc, c));
        }
        self.scan::<LAST>(doc, c)
    }

    /// [`find`](Self::find) by a scan of the children.
    #[inline(always)]
    fn scan<const LAST: bool>(&self, doc: &Document, c: &Node) -> Option<usize> {
        let children = doc.children(c);
        // One loop per way of comparing, so that each is as tight as it can be.
        if children.len() < WORD_FROM || self.nul {
            // (A key holding U+0000 is compared decoded, its length unused.)
            let len = if self.nul {
                [0; 2]
            } else {
                self.stored_len(doc)?
            };
            return scan::<LAST>(children, |n| self.names_by_length(doc, n, len));
        }
        let word = self.word(doc);
        if self.hashed(c) {
            let hash = name_hash(&self.bytes);
            return scan::<LAST>(children, |n| {
                n.name_hash == hash && self.names(doc, n, word)
            });
        }
        scan::<LAST>(children, |n| self.names(doc, n, word))
    }

    /// Whether lookups in compound `c` may compare name hashes first.
    #[inline(always)]
    pub(crate) fn hashed(&self, c: &Node) -> bool {
        c.is_hashed() && !self.nul
    }

    /// Whether the named node `c` is called this, compared by `word` first.
    #[inline(always)]
    pub(crate) fn names(&self, doc: &Document, c: &Node, word: Word) -> bool {
        let off = c.off as usize;
        match doc.bytes.get(off..off + 8) {
            // Length and up to 6 bytes in one compare; the rest only for
            // names that start the same.
            Some(w) if !self.nul => {
                u64::from_le_bytes(w.try_into().unwrap()) & word.mask == word.head
                    && self.rest_is(doc, off)
            }
            _ => self.names_slowly(doc, off),
        }
    }

    /// Whether the named node `c` is called this, compared by length first.
    #[inline(always)]
    fn names_by_length(&self, doc: &Document, c: &Node, len: [u8; 2]) -> bool {
        let off = c.off as usize;
        if self.nul {
            return self.names_slowly(doc, off);
        }
        let key = &self.bytes[..];
        doc.bytes[off..off + 2] == len && same(&doc.bytes[off + 2..off + 2 + key.len()], key)
    }

    /// The key's length as a name's length prefix is stored in `doc`
    /// (compared as bytes, so that the byte order is tested once per lookup,
    /// not per name); `None` when no name is that long.
    #[inline(always)]
    fn stored_len(&self, doc: &Document) -> Option<[u8; 2]> {
        let len = u16::try_from(self.bytes.len()).ok()?;
        Some(if doc.le() {
            len.to_le_bytes()
        } else {
            len.to_be_bytes()
        })
    }

    /// After [`names`](Self::names)' word matched: whether the name's bytes
    /// past the first 6 are the key's.
    #[inline(always)]
    fn rest_is(&self, doc: &Document, off: usize) -> bool {
        let key = &self.bytes[..];
        key.len() <= 6 || same(&doc.bytes[off + 8..off + 2 + key.len()], &key[6..])
    }

    /// [`names`](Self::names) for a key holding U+0000, or a name within 8
    /// bytes of the end (an entry an edit appended last, a tiny document).
    #[cold]
    #[inline(never)]
    fn names_slowly(&self, doc: &Document, off: usize) -> bool {
        let stored = doc.str_at(off);
        if self.nul {
            crate::mutf8::key_matches(stored, &self.bytes)
        } else {
            stored == &self.bytes[..]
        }
    }
}

/// Whether every byte is ASCII other than NUL (`01..=7f`): then a key is
/// its own MUTF-8 encoding. Keys of 4 to 16 bytes (nearly all) are checked
/// with two overlapping word loads, longer ones a word at a time, instead of
/// a byte loop.
#[inline(always)]
fn plain_ascii(b: &[u8]) -> bool {
    // A byte outside 01..=7f sets its high bit in `w - 0x01..01` or in `w`
    // itself; a borrow only runs on past a byte that is 00, already caught.
    const LO: u64 = u64::from_ne_bytes([1; 8]);
    const HI: u64 = u64::from_ne_bytes([0x80; 8]);
    let ok = |w: u64| (w.wrapping_sub(LO) | w) & HI == 0;
    let n = b.len();
    let w64 = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    // A u32 with 4 more bytes of 01 above, so the same test applies.
    let w32 = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as u64 | (LO << 32);
    match n {
        8..=16 => ok(w64(0)) && ok(w64(n - 8)),
        4..8 => ok(w32(0)) && ok(w32(n - 4)),
        // Longer keys (bigtest.nbt has names of 19 to 100 bytes) a word at
        // a time, the last word overlapping.
        17.. => (0..n - 8).step_by(8).all(|at| ok(w64(at))) && ok(w64(n - 8)),
        _ => b.iter().all(|&x| x.wrapping_sub(1) < 0x7f),
    }
}

/// Whether two names of the same length are equal: names of up to 16 bytes
/// (nearly all) with two overlapping word compares inline instead of a
/// `memcmp` call.
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    debug_assert_eq!(n, b.len());
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().unwrap());
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        0..8 => a.iter().zip(b).all(|(x, y)| x == y),
        _ => a == b,
    }
}

impl<'d> NbtCompound<'d> {
    #[inline(always)]
    pub(crate) fn new(doc: &'d Document, node: &'d Node) -> Self {
        Self {
            doc,
            node,
            children: doc.children(node),
        }
    }

    /// The tag called `name` (the last one, if a crafted input repeats it).
    #[inline]
    pub fn get(&self, name: &str) -> Option<NbtTag<'d>> {
        let i = Lookup::new(name).position(self.doc, self.node)?;
        Some(NbtTag::new(self.doc, &self.children[i]))
    }

    /// Whether there is a tag called `name`.
    #[inline]
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    for_each_getter!(typed_getters, 'd);

    /// The named tags in order.
    #[inline]
    pub fn iter(&self) -> NbtCompoundIter<'d> {
        NbtCompoundIter {
            doc: self.doc,
            children: self.children.iter(),
        }
    }

    /// The number of tags.
    #[inline]
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// Whether the compound has no tags.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &'d Mutf8Str> + use<'d> {
        self.iter().map(|(k, _)| k)
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::NbtCompound {
        match NbtTag::new(self.doc, self.node).to_owned() {
            crate::owned::NbtTag::Compound(c) => c,
            _ => unreachable!("a compound converts to a compound"),
        }
    }

    /// Appends this compound's payload (named tags and the closing End).
    pub fn write(&self, out: &mut Vec<u8>) {
        super::write::payload(self.doc, self.node, out);
    }
}

impl<'d> IntoIterator for NbtCompound<'d> {
    type Item = (&'d Mutf8Str, NbtTag<'d>);
    type IntoIter = NbtCompoundIter<'d>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Iterator over a compound's `(name, tag)` pairs, in order.
#[derive(Clone)]
pub struct NbtCompoundIter<'d> {
    doc: &'d Document,
    children: slice::Iter<'d, Node>,
}

impl<'d> Iterator for NbtCompoundIter<'d> {
    type Item = (&'d Mutf8Str, NbtTag<'d>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.children.next()?;
        Some((
            Mutf8Str::from_slice(self.doc.str_at(node.off as usize)),
            NbtTag::new(self.doc, node),
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.children.size_hint()
    }
}

impl ExactSizeIterator for NbtCompoundIter<'_> {}

impl fmt::Debug for NbtCompound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_owned(), f)
    }
}

/// Compares values by encoding: key order and duplicates count, floats
/// compare by bits.
impl PartialEq for NbtCompound<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        self.write(&mut a);
        other.write(&mut b);
        a == b
    }
}

/// The index of the last (`LAST`) or first node of `nodes` that `hit`.
#[inline(always)]
fn scan<const LAST: bool>(nodes: &[Node], hit: impl FnMut(&Node) -> bool) -> Option<usize> {
    if LAST {
        nodes.iter().rposition(hit)
    } else {
        nodes.iter().position(hit)
    }
}
