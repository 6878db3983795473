//! Filter matching (vanilla's `NbtUtils.compareNbt` with partial lists; the
//! rules are in the module docs), with an explicit stack: a filter nests at
//! most 512 levels, but nothing here recurses on it either way.
//!
//! # Cost
//!
//! A linear search per filter key and per list element would make a filter of
//! `F` keys or elements against a document value of `T` cost `F × T` steps
//! (20 000 against 20 000: half a minute in a debug build). Instead:
//!
//! - **Compound filters** look their first [`LINEAR_LOOKUPS`] keys up by a
//!   scan of the document compound, then index it once in a hash map (last
//!   entry of each key, as `get` finds it): `O(T + F)` per compound pair.
//! - **Leaf elements of list filters** (numbers, strings, arrays) are hashed
//!   once per filter list, duplicates dropped; against a document list the
//!   document's leaves are hashed and sorted once and each distinct filter
//!   leaf is a binary search: `O((T + D) log T)` for `D` distinct leaves, and
//!   since each hit is a different document element, at most `T + 1` searches
//!   run. With at most [`DIRECT_LEAVES`] distinct leaves, or at most
//!   [`DIRECT_TARGETS`] document elements, leaves are compared directly.
//! - **Container elements of list filters** (compounds, lists) are compared
//!   with each document element until one matches: `O(C × T)`
//!   comparisons for `C` container elements. No index removes that in general
//!   (finding, for every filter compound, a document compound holding all of
//!   it is a subset search, which no known method answers in much less than
//!   `C × T` time), so a path with thousands of distinct compounds in one list
//!   filter is the remaining way to make matching cost path size × document
//!   size.
//!
//! Lookups allocate nothing: filter keys are compared as stored (a
//! [`Filter`](super::Filter) holds them in the canonical MUTF-8 encoding of
//! their names, see `Filter::new`). Building an index allocates once per pair.
//! Hashing uses std's keyed SipHash, so crafted keys cannot make the indices
//! collide.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};

use super::leaf::Leaf;
use super::view::FilterView;
use crate::owned::{NbtCompound, NbtList};
use crate::path::value::Value;
use crate::path::view::View;
use crate::tag_id;

/// Keys of a compound filter looked up by scanning the document compound
/// before it is indexed: most filters have a few keys, and a scan of a small
/// compound is cheaper than a hash map.
pub(super) const LINEAR_LOOKUPS: usize = 8;

/// A list filter's leaves are compared with each document element directly,
/// without hashing, when there are at most this many distinct leaves (at most
/// 4 comparisons per element, cheaper than hashing it) …
pub(super) const DIRECT_LEAVES: usize = 4;

/// … or the document list has at most this many elements.
pub(super) const DIRECT_TARGETS: usize = 8;

/// A comparison in progress: a filter compound or list against a document
/// value of the same type.
enum Frame<'f, V: FilterView> {
    /// The next filter entry to look up is `next`.
    Compound {
        filter: &'f NbtCompound,
        target: V,
        next: usize,
        /// The target's keys, once [`LINEAR_LOOKUPS`] have been looked up.
        index: Option<HashMap<KeyBytes<V::Key>, V>>,
    },
    /// The container elements of a filter list (its leaves have matched),
    /// `rest[ri]` against document element `ti` (the document's elements
    /// collected once).
    List {
        filter: Value<'f>,
        prepared: usize,
        ri: usize,
        targets: Vec<V>,
        ti: usize,
    },
}

/// A document key as an index holds it: as stored, or, if it holds a raw `00`
/// byte (crafted input), with each `00` as `C0 80`, the form a lookup by name
/// finds it by (see `mutf8::key_matches`). Keys compare and hash as those
/// bytes, so that the index is searched by `&[u8]`.
enum KeyBytes<K> {
    Stored(K),
    Nul(Vec<u8>),
}

impl<K: AsRef<[u8]>> KeyBytes<K> {
    fn of(key: K) -> Self {
        let bytes = key.as_ref();
        if !bytes.contains(&0) {
            return KeyBytes::Stored(key);
        }
        let mut out = Vec::with_capacity(bytes.len() + 4);
        for &b in bytes {
            match b {
                0 => out.extend_from_slice(&[0xC0, 0x80]),
                b => out.push(b),
            }
        }
        KeyBytes::Nul(out)
    }

    fn bytes(&self) -> &[u8] {
        match self {
            KeyBytes::Stored(k) => k.as_ref(),
            KeyBytes::Nul(v) => v,
        }
    }
}

impl<K: AsRef<[u8]>> PartialEq for KeyBytes<K> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl<K: AsRef<[u8]>> Eq for KeyBytes<K> {}

impl<K: AsRef<[u8]>> Hash for KeyBytes<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl<K: AsRef<[u8]>> std::borrow::Borrow<[u8]> for KeyBytes<K> {
    fn borrow(&self) -> &[u8] {
        self.bytes()
    }
}

/// What matching a filter list needs beyond the list itself, worked out once
/// per list per [`Matcher`].
struct Prepared {
    /// The hash of each distinct hashable leaf element, with the element's
    /// index, sorted by hash.
    leaves: Vec<(u64, usize)>,
    /// The elements compared one by one: containers, and leaves that cannot
    /// be hashed (strings holding a raw `00`, only in a hand-built filter).
    rest: Vec<usize>,
}

/// Matches one filter against any number of document values, keeping what it
/// works out about the filter's lists between them.
pub(super) struct Matcher<'f> {
    filter: &'f NbtCompound,
    /// Prepared filter lists, found by the list's address (the filter is
    /// borrowed for `'f`, so an address names one list).
    lists: HashMap<*const NbtList, usize>,
    prepared: Vec<Prepared>,
    hasher: RandomState,
}

/// The hash of a leaf of type `id`, or `None` when it cannot be hashed
/// consistently with [`Leaf::matched_by`]. `stored`: a document leaf, whose
/// strings match a name with each raw `00` read as `C0 80`; a filter leaf's
/// string is hashed as it is, and cannot be hashed if it holds a raw `00`.
fn leaf_hash(hasher: &RandomState, id: u8, leaf: &Leaf<'_>, stored: bool) -> Option<u64> {
    let mut h = hasher.build_hasher();
    h.write_u8(id);
    match leaf {
        Leaf::Number(n) => h.write_u64(number_bits(*n)),
        Leaf::ByteArray(b) => {
            h.write_usize(b.len());
            h.write(b);
        }
        Leaf::String(s) if !s.contains(&0) => h.write(s),
        Leaf::String(s) if stored => h.write(KeyBytes::of(*s).bytes()),
        Leaf::String(_) => return None,
        Leaf::IntArray(a) => {
            h.write_usize(a.len());
            (0..a.len())
                .filter_map(|i| a.get(i))
                .for_each(|v| h.write_i32(v));
        }
        Leaf::LongArray(a) => {
            h.write_usize(a.len());
            (0..a.len())
                .filter_map(|i| a.get(i))
                .for_each(|v| h.write_i64(v));
        }
        Leaf::Container => return None,
    }
    Some(h.finish())
}

/// A number's value as `java_equals` compares it (the type is hashed apart):
/// integers by value, floats by bits with one NaN.
fn number_bits(n: crate::Number) -> u64 {
    use crate::Number as N;
    match n {
        N::Byte(v) => v as u64,
        N::Short(v) => v as u64,
        N::Int(v) => v as u64,
        N::Long(v) => v as u64,
        N::Float(v) if v.is_nan() => 0x7fc0_0000,
        N::Float(v) => u64::from(v.to_bits()),
        N::Double(v) if v.is_nan() => 0x7ff8_0000_0000_0000,
        N::Double(v) => v.to_bits(),
    }
}

/// Whether document value `t` equals filter leaf `f` (same type, equal value).
fn leaf_matches<V: FilterView>(f: Value<'_>, t: V) -> bool {
    f.id() == t.id() && t.leaf().matched_by(&f.leaf())
}

impl<'f> Matcher<'f> {
    pub(super) fn new(filter: &'f NbtCompound) -> Self {
        Matcher {
            filter,
            lists: HashMap::new(),
            prepared: Vec::new(),
            hasher: RandomState::new(),
        }
    }

    /// Whether `target` matches the filter compound.
    pub(super) fn matches<V: FilterView>(&mut self, target: V) -> bool {
        if target.id() != tag_id::COMPOUND {
            return false;
        }
        let mut stack = vec![Frame::Compound {
            filter: self.filter,
            target,
            next: 0,
            index: None,
        }];
        // The result of the comparison that just finished (`None`: a frame was
        // just pushed and has not looked at anything yet).
        let mut result: Option<bool> = None;
        while let Some(top) = stack.last_mut() {
            let child = match top {
                Frame::Compound {
                    filter,
                    target,
                    next,
                    index,
                } => {
                    if result == Some(false) {
                        stack.pop();
                        continue;
                    }
                    let Some((key, value)) = filter.values.get(*next) else {
                        stack.pop();
                        result = Some(true);
                        continue;
                    };
                    *next += 1;
                    let found = match index {
                        Some(index) => index.get(key.as_bytes()).copied(),
                        None if *next > LINEAR_LOOKUPS => {
                            let built = index.insert(key_index(*target));
                            built.get(key.as_bytes()).copied()
                        }
                        None => target.child_bytes(key.as_bytes()),
                    };
                    match found {
                        Some(t) => self.start(Value::Tag(value), t),
                        None => Err(false),
                    }
                }
                Frame::List {
                    filter,
                    prepared,
                    ri,
                    targets,
                    ti,
                } => {
                    match result {
                        Some(true) => {
                            *ri += 1;
                            *ti = 0;
                        }
                        Some(false) => *ti += 1,
                        None => {}
                    }
                    let rest = &self.prepared[*prepared].rest;
                    let Some(&fi) = rest.get(*ri) else {
                        stack.pop();
                        result = Some(true);
                        continue;
                    };
                    let (Some(f), Some(&t)) = (View::element(*filter, fi), targets.get(*ti)) else {
                        stack.pop();
                        result = Some(false);
                        continue;
                    };
                    self.start(f.unwrapped(), t)
                }
            };
            match child {
                Ok(frame) => {
                    stack.push(frame);
                    result = None;
                }
                Err(r) => result = Some(r),
            }
        }
        result.unwrap_or(false)
    }

    /// Starts comparing `filter` with `target`: a result for leaves, type
    /// mismatches and lists whose container elements are settled, a frame for
    /// compounds and lists with container elements left to compare.
    fn start<V: FilterView>(&mut self, filter: Value<'f>, target: V) -> Result<Frame<'f, V>, bool> {
        let filter = filter.typed();
        if filter.id() != target.id() {
            return Err(false);
        }
        match filter {
            Value::Compound(c) => Ok(Frame::Compound {
                filter: c,
                target,
                next: 0,
                index: None,
            }),
            Value::List(l) => {
                let target_len = target.len().unwrap_or(0);
                if l.is_empty() {
                    return Err(target_len == 0);
                }
                let mut targets = Vec::with_capacity(target_len);
                target.elements(&mut targets);
                for t in &mut targets {
                    *t = t.unwrapped();
                }
                let prepared = self.prepare(l, filter);
                if !self.leaves_match(prepared, filter, &targets) {
                    return Err(false);
                }
                if self.prepared[prepared].rest.is_empty() {
                    return Err(true);
                }
                Ok(Frame::List {
                    filter,
                    prepared,
                    ri: 0,
                    targets,
                    ti: 0,
                })
            }
            _ => Err(leaf_matches(filter, target)),
        }
    }

    /// The prepared form of filter list `l` (`list` is the same list as a value).
    fn prepare(&mut self, l: &'f NbtList, list: Value<'f>) -> usize {
        if let Some(&at) = self.lists.get(&std::ptr::from_ref(l)) {
            return at;
        }
        let mut leaves = Vec::new();
        let mut rest = Vec::new();
        for fi in 0..l.len() {
            let Some(f) = View::element(list, fi).map(FilterView::unwrapped) else {
                continue;
            };
            match leaf_hash(&self.hasher, f.id(), &f.leaf(), false) {
                Some(h) => leaves.push((h, fi)),
                None => rest.push(fi),
            }
        }
        leaves.sort_unstable();
        // Drop repeated leaves: equal hashes are neighbours now, and a leaf
        // equal to one kept earlier adds nothing to match.
        let element = |fi| View::element(list, fi).map(FilterView::unwrapped);
        let mut kept: Vec<(u64, usize)> = Vec::with_capacity(leaves.len());
        for (h, fi) in leaves {
            let run = kept.iter().rev().take_while(|(kh, _)| *kh == h);
            let repeated = run
                .clone()
                .any(|&(_, ki)| match (element(ki), element(fi)) {
                    (Some(k), Some(f)) => leaf_matches(k, f),
                    _ => false,
                });
            if !repeated {
                kept.push((h, fi));
            }
        }
        self.prepared.push(Prepared { leaves: kept, rest });
        self.lists
            .insert(std::ptr::from_ref(l), self.prepared.len() - 1);
        self.prepared.len() - 1
    }

    /// Whether every leaf element of the prepared filter list matches some
    /// element of `targets`.
    fn leaves_match<V: FilterView>(&self, prepared: usize, list: Value<'f>, targets: &[V]) -> bool {
        let leaves = &self.prepared[prepared].leaves;
        let element = |fi| View::element(list, fi).map(FilterView::unwrapped);
        if leaves.len() <= DIRECT_LEAVES || targets.len() <= DIRECT_TARGETS {
            return leaves.iter().all(|&(_, fi)| {
                element(fi).is_some_and(|f| targets.iter().any(|&t| leaf_matches(f, t)))
            });
        }
        let mut hashed: Vec<(u64, usize)> = targets
            .iter()
            .enumerate()
            .filter_map(|(ti, t)| Some((leaf_hash(&self.hasher, t.id(), &t.leaf(), true)?, ti)))
            .collect();
        hashed.sort_unstable();
        leaves.iter().all(|&(h, fi)| {
            let Some(f) = element(fi) else { return false };
            let from = hashed.partition_point(|&(th, _)| th < h);
            hashed[from..]
                .iter()
                .take_while(|&&(th, _)| th == h)
                .any(|&(_, ti)| leaf_matches(f, targets[ti]))
        })
    }
}

/// Every key of compound `target` (the last entry of each), as a lookup by
/// name finds it.
fn key_index<V: FilterView>(target: V) -> HashMap<KeyBytes<V::Key>, V> {
    let mut entries = Vec::new();
    target.for_each_entry(|key, value| entries.push((key, value)));
    let mut index = HashMap::with_capacity(entries.len());
    for (key, value) in entries {
        index.insert(KeyBytes::of(key), value);
    }
    index
}

/// Rewrites every key of `filter` (at any depth) that is not the canonical
/// MUTF-8 encoding of its name (a raw `00`, invalid bytes: only in a
/// hand-built compound) as that encoding, which is how a lookup by the key's
/// name compares it, so that matching can compare the stored bytes.
pub(super) fn canonical_keys(filter: &mut NbtCompound) {
    enum Node<'c> {
        Compound(&'c mut NbtCompound),
        List(&'c mut NbtList),
    }
    let mut stack = vec![Node::Compound(filter)];
    while let Some(node) = stack.pop() {
        match node {
            Node::Compound(c) => {
                // Keys change below.
                c.index.clear();
                for (key, value) in c.values.iter_mut() {
                    let bytes = key.as_bytes();
                    if !bytes.is_ascii() || bytes.contains(&0) {
                        let name = key.to_string_lossy();
                        let canonical = crate::Mutf8Str::from_str(&name);
                        if canonical.as_bytes() != bytes {
                            let canonical = canonical.into_owned();
                            *key = canonical;
                        }
                    }
                    match value {
                        crate::owned::NbtTag::Compound(c) => stack.push(Node::Compound(c)),
                        crate::owned::NbtTag::List(l) => stack.push(Node::List(l)),
                        _ => {}
                    }
                }
            }
            Node::List(NbtList::Compound(v)) => stack.extend(v.iter_mut().map(Node::Compound)),
            Node::List(NbtList::List(v)) => stack.extend(v.iter_mut().map(Node::List)),
            Node::List(_) => {}
        }
    }
}

/// Whether `target` matches the filter compound.
pub(super) fn matches<V: FilterView>(filter: &NbtCompound, target: V) -> bool {
    Matcher::new(filter).matches(target)
}
