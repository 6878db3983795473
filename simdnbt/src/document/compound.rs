//! Compounds of a document: a block of named child nodes.

use std::borrow::Cow;
use std::fmt;
use std::slice;

use super::node::Node;
use super::{Document, NbtList, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::raw_list::RawList;

/// A compound inside a [`Document`]: its named tags, in order.
///
/// Lookup is a linear scan from the end and returns the last match (a
/// crafted input's duplicate keys are all kept, in order, and the last
/// counts, as in the other models); `len` is O(1).
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
pub(crate) struct Lookup<'k> {
    pub bytes: Cow<'k, [u8]>,
    nul: bool,
}

impl<'k> Lookup<'k> {
    /// The key `name`. ASCII without NUL (nearly every key) is its own
    /// encoding, checked inline without a call into the encoder
    /// ([`Mutf8Str::from_str`], about 90 instructions for a short key).
    #[inline]
    pub(crate) fn new(name: &'k str) -> Self {
        if name.bytes().all(|b| b.wrapping_sub(1) < 0x7f) {
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

    /// The index of the last of `children` (named nodes) called this: the
    /// entry that counts when a crafted input repeats a key, as in the
    /// other models. Searched from the end, so it costs no more than a
    /// search for the first.
    #[inline]
    pub(crate) fn position(&self, doc: &Document, children: &[Node]) -> Option<usize> {
        children.iter().rposition(|c| self.names(doc, c))
    }

    /// Whether the named node `c` is called this.
    #[inline(always)]
    pub(crate) fn names(&self, doc: &Document, c: &Node) -> bool {
        let key = &self.bytes[..];
        let off = c.off as usize;
        if self.nul {
            return crate::mutf8::key_matches(doc.str_at(off), key);
        }
        // One length compare for most names.
        doc.u16_at(off) as usize == key.len() && same(&doc.bytes[off + 2..off + 2 + key.len()], key)
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
        let i = Lookup::new(name).position(self.doc, self.children)?;
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
