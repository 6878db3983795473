//! Hash indexes of big compounds' keys, so that lookups in them cost O(1)
//! amortised (the owned model's [`KeyIndex`], which knows nothing of where
//! the keys are).
//!
//! A node has no room for a pointer, so the indexes sit beside the nodes, in
//! a map from a compound's block (the index of its first child node) to its
//! [`LazyIndex`]. A block is unique to its compound while it lives: new
//! blocks only ever go at the end of the arena, so the start of a block an
//! edit left behind is never the start of another one. An edit that moves a
//! block ([`Document::grow_block`]) moves its index along; one that changes
//! the keys keeps the index up to date or drops it; compaction and `clone`
//! start without any.
//!
//! Lookups through `&Document` build an index (as the owned model's do), so
//! the map is behind a lock; only compounds of at least [`INDEX_FROM`]
//! children take it, and the edits that keep indexes up to date reach the
//! map through `&mut` without locking.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{PoisonError, RwLock};

use super::Document;
use super::node::Node;
use crate::key_index::{KeyIndex, LazyIndex, MAX_INDEXED};
use crate::mutf8::key_matches;

/// The fewest children a compound has for lookups to go through an index.
/// A scan compares a child in a few instructions (one masked word compare;
/// fewer once the compound's names are hashed, see
/// [`HASHED`](super::node::HASHED)), while a lookup through an index pays
/// for SipHash (`key_index.rs`), so a scan from the end is cheaper up to
/// well past this size: every compound of a player file, level.dat or a
/// chunk keeps the scan it had (the counts: `reports/code-notes.md`, "The
/// document").
pub(crate) const INDEX_FROM: usize = 128;

/// A compound of `n` children builds its index once scans have compared
/// `BUILD_AFTER * n` of them: building costs about as much per key as
/// comparing this many children, so a compound looked up a few times is
/// never indexed and one looked up often pays at most about twice the best
/// choice made in hindsight (the counts: `reports/code-notes.md`, "The
/// document").
const BUILD_AFTER: usize = 48;

/// See the module docs. The map's hasher is std's SipHash with fixed keys:
/// making one needs no thread-local state (every read makes a document),
/// and its keys are block positions, at most one per 128 nodes.
///
/// The locked map is boxed, made by the first lookup that needs it, and
/// held in one pointer word (null until then): most documents never have a
/// compound of [`INDEX_FROM`] children, and a lock and an empty map inline
/// made every read build, move and drop 48 bytes more, which a small
/// file's read paid for in instructions.
pub(crate) struct Indexes(AtomicPtr<RwLock<Map>>);

type Map = HashMap<u32, LazyIndex, BuildHasherDefault<DefaultHasher>>;

impl Default for Indexes {
    fn default() -> Self {
        Indexes(AtomicPtr::new(ptr::null_mut()))
    }
}

/// A copy starts without indexes (lookups build them again).
impl Clone for Indexes {
    fn clone(&self) -> Self {
        Indexes::default()
    }
}

impl Drop for Indexes {
    #[inline]
    fn drop(&mut self) {
        let p = *self.0.get_mut();
        if !p.is_null() {
            drop_map(p);
        }
    }
}

/// Frees the map of a document that had one (out of line: few do).
#[cold]
#[inline(never)]
fn drop_map(p: *mut RwLock<Map>) {
    // SAFETY: a non-null pointer in `Indexes` came from `Box::into_raw` in
    // `Indexes::lock` and is freed only here, from `drop` (`&mut`: no
    // borrow of the map is live).
    drop(unsafe { Box::from_raw(p) });
}

impl Indexes {
    /// The map, if a lookup has made it and it is not empty (edits that
    /// keep indexes up to date have nothing to do otherwise).
    fn map_mut(&mut self) -> Option<&mut Map> {
        let p = *self.0.get_mut();
        if p.is_null() {
            return None;
        }
        // SAFETY: a box published by `lock`, freed only on drop; `&mut
        // self` makes this the only access.
        let lock = unsafe { &mut *p };
        let map = lock.get_mut().unwrap_or_else(PoisonError::into_inner);
        // An empty map has nothing to keep up to date either (and a
        // lookup in it would hash the key for nothing).
        (!map.is_empty()).then_some(map)
    }

    /// The locked map, made on first use.
    fn lock(&self) -> &RwLock<Map> {
        let p = self.0.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: a box published by `install` (Release, read with
            // Acquire), freed only on drop, so it outlives `&self`.
            return unsafe { &*p };
        }
        self.install()
    }

    #[cold]
    #[inline(never)]
    fn install(&self) -> &RwLock<Map> {
        let new = Box::into_raw(Box::<RwLock<Map>>::default());
        match self
            .0
            .compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: the box just published; as in `lock`.
            Ok(_) => unsafe { &*new },
            Err(theirs) => {
                // Another thread made it first: keep theirs.
                // SAFETY: `new` was never published: this is its only owner.
                drop(unsafe { Box::from_raw(new) });
                // SAFETY: a box published by `install`; as in `lock`.
                unsafe { &*theirs }
            }
        }
    }
}

impl Document {
    /// The last child of compound `c` (at least [`INDEX_FROM`] children)
    /// whose name matches `key` (canonical MUTF-8, as
    /// [`crate::mutf8::key_matches`] compares), through its index, or by
    /// `scan` while the index is not worth building; the scan's work is
    /// counted toward building it.
    #[inline(never)]
    pub(crate) fn indexed_position(
        &self,
        c: &Node,
        key: &[u8],
        scan: impl FnOnce() -> Option<usize>,
    ) -> Option<usize> {
        let children = self.children(c);
        let n = children.len();
        let name = |p: usize| self.str_at(children[p].off as usize);
        let matches = |p: usize| key_matches(name(p), key);
        let lock = self.indexes.lock();
        {
            let map = lock.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(index) = map.get(&c.a).and_then(LazyIndex::get) {
                return index.get(key, matches);
            }
        }
        let found = scan();
        if n > MAX_INDEXED {
            return found;
        }
        let scanned = found.map_or(n, |p| n - p);
        let build = || KeyIndex::build(n, name);
        {
            let map = lock.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(lazy) = map.get(&c.a) {
                if lazy.earned(scanned, BUILD_AFTER * n) {
                    lazy.get_or_build(build);
                }
                return found;
            }
        }
        let mut map = lock.write().unwrap_or_else(PoisonError::into_inner);
        let lazy = map.entry(c.a).or_default();
        if lazy.earned(scanned, BUILD_AFTER * n) {
            lazy.get_or_build(build);
        }
        found
    }

    /// After an edit that changed the keys of the compound whose block
    /// starts at `a` in a way its index does not follow: drops the index
    /// (and the work counted toward it).
    #[inline]
    pub(crate) fn drop_index(&mut self, a: u32) {
        if let Some(map) = self.indexes.map_mut() {
            map.remove(&a);
        }
    }

    /// After a compound's block moved from `from` to `to`.
    #[inline]
    pub(crate) fn move_index(&mut self, from: u32, to: u32) {
        if let Some(map) = self.indexes.map_mut() {
            if let Some(lazy) = map.remove(&from) {
                map.insert(to, lazy);
            }
        }
    }

    /// After `removed` children of the compound whose block starts at `a`,
    /// all called `key`, the first at `pos`, were taken out (the others
    /// moved down; `len` are left).
    pub(crate) fn index_removed(
        &mut self,
        a: u32,
        key: &[u8],
        pos: usize,
        removed: usize,
        len: usize,
    ) {
        let (bytes, nodes, le) = (&self.bytes, &self.nodes, self.le);
        let Some(map) = self.indexes.map_mut() else {
            return;
        };
        let Some(lazy) = map.get_mut(&a) else {
            return;
        };
        match lazy.get_mut() {
            // No key is repeated: the entry removed was the only one.
            Some(index) if !index.shadowed && removed == 1 => {
                index.remove(key, pos, len, |p| name_at(bytes, nodes, le, a, p));
            }
            Some(_) => {
                map.remove(&a);
            }
            // Only work counted: still right for the compound.
            None => {}
        }
    }

    /// After child `pos` of compound `c` was appended (`pos` its last
    /// child): the new entry is the one lookups of its name find.
    #[inline]
    pub(crate) fn index_appended(&mut self, c: usize, pos: usize) {
        let Node { a, .. } = self.nodes[c];
        let (bytes, nodes) = (&self.bytes, &self.nodes);
        let Some(lazy) = self.indexes.map_mut().and_then(|map| map.get_mut(&a)) else {
            return;
        };
        let le = self.le;
        let name = |p: usize| name_at(bytes, nodes, le, a, p);
        match lazy.get_mut() {
            Some(index) if pos < MAX_INDEXED => index.insert(name(pos), pos, name),
            Some(_) => lazy.clear(),
            None => {}
        }
    }
}

/// The name of child `p` of the block at `a` (what `Document::str_at`
/// reads, for when the document is borrowed in parts).
#[inline]
fn name_at<'b>(bytes: &'b [u8], nodes: &[Node], le: bool, a: u32, p: usize) -> &'b [u8] {
    let off = nodes[a as usize + p].off as usize;
    let b = [bytes[off], bytes[off + 1]];
    let len = if le {
        u16::from_le_bytes(b)
    } else {
        u16::from_be_bytes(b)
    } as usize;
    &bytes[off + 2..off + 2 + len]
}
