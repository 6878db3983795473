//! A hash index from compound keys to entry positions, for compounds too big
//! to scan ([`crate::owned::NbtCompound`] builds one once its lookups have
//! cost about as much by scanning; the index knows nothing of the entries it
//! points at, so any model with keys at positions can use it).
//!
//! Keys are MUTF-8 bytes; a key with a raw `00` byte (crafted input) is
//! indexed as its canonical form, each `00` as `C0 80`, which is how a lookup
//! by name finds it ([`crate::mutf8::key_matches`]). One position per key:
//! the last entry of a repeated key, the one lookups return.
//!
//! Open addressing with linear probing, at most half full; each slot holds
//! the position and 32 bits of the key's hash, so a probe reads the key only
//! when those bits match. The hash is std's keyed SipHash (a random key per
//! index), so crafted keys cannot make lookups collide.

use std::hash::{BuildHasher, Hasher, RandomState};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The most entries an index holds (a bigger compound is scanned): slots
/// are found by 32 bits of the hash, so a table has at most 2^32 slots.
pub(crate) const MAX_INDEXED: usize = 1 << 30;

/// See the module docs.
pub(crate) struct KeyIndex {
    hasher: RandomState,
    /// `0` for an empty slot, else `hash32 << 32 | (position + 1)`, where
    /// `hash32` is the key's 32-bit hash (its slot is `hash32 & mask`).
    slots: Box<[u64]>,
    /// Occupied slots (distinct keys).
    used: usize,
    /// Some key is held by more than one entry: an entry that is not the
    /// last of its key is not in the index.
    pub(crate) shadowed: bool,
}

/// A slot's position (`None` if empty).
#[inline(always)]
fn pos_of(slot: u64) -> Option<usize> {
    match slot as u32 {
        0 => None,
        p => Some(p as usize - 1),
    }
}

#[inline(always)]
fn hash32(slot: u64) -> u32 {
    (slot >> 32) as u32
}

#[inline(always)]
fn make_slot(hash: u32, pos: usize) -> u64 {
    (u64::from(hash) << 32) | (pos as u64 + 1)
}

/// Whether two stored keys are the same name (equal in canonical form).
#[inline]
pub(crate) fn same_key(a: &[u8], b: &[u8]) -> bool {
    a == b || ((a.contains(&0) || b.contains(&0)) && canonical(a) == canonical(b))
}

/// `key` with each raw `00` byte as `C0 80`.
#[cold]
pub(crate) fn canonical(key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(key.len() + 4);
    for &b in key {
        match b {
            0 => out.extend_from_slice(&[0xC0, 0x80]),
            b => out.push(b),
        }
    }
    out
}

impl KeyIndex {
    /// An index of the `n` keys `key(0..n)` (at most [`MAX_INDEXED`]).
    pub(crate) fn build<'k>(n: usize, key: impl Fn(usize) -> &'k [u8]) -> Self {
        let mut index = KeyIndex {
            hasher: RandomState::new(),
            slots: vec![0; (2 * n).next_power_of_two().max(16)].into_boxed_slice(),
            used: 0,
            shadowed: false,
        };
        for i in 0..n {
            index.insert(key(i), i, &key);
        }
        index
    }

    fn hash(&self, key: &[u8]) -> u32 {
        let mut h = self.hasher.build_hasher();
        if key.contains(&0) {
            h.write(&canonical(key));
        } else {
            h.write(key);
        }
        let h = h.finish();
        (h ^ (h >> 32)) as u32
    }

    #[inline(always)]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The slot holding the key hashed to `hash` for which `same(position)`
    /// holds (`true`), or the empty slot where it would go (`false`).
    #[inline]
    fn find(&self, hash: u32, same: impl Fn(usize) -> bool) -> (usize, bool) {
        let mask = self.mask();
        let mut i = hash as usize & mask;
        loop {
            let s = self.slots[i];
            match pos_of(s) {
                None => return (i, false),
                Some(p) if hash32(s) == hash && same(p) => return (i, true),
                Some(_) => i = (i + 1) & mask,
            }
        }
    }

    /// The position of `key` (canonical MUTF-8: no raw `00` byte), where
    /// `matches(p)` says whether the key at position `p` is it.
    #[inline]
    pub(crate) fn get(&self, key: &[u8], matches: impl Fn(usize) -> bool) -> Option<usize> {
        let (i, found) = self.find(self.hash(key), matches);
        if found { pos_of(self.slots[i]) } else { None }
    }

    /// Records that the entry at `pos`, after every indexed one, has key
    /// `key`: it becomes the one a lookup of `key` finds. `key_at` gives the
    /// keys of the indexed entries.
    pub(crate) fn insert<'k>(
        &mut self,
        key: &[u8],
        pos: usize,
        key_at: impl Fn(usize) -> &'k [u8],
    ) {
        let hash = self.hash(key);
        let (i, found) = self.find(hash, |p| same_key(key_at(p), key));
        if found {
            self.shadowed = true;
        } else {
            self.used += 1;
        }
        self.slots[i] = make_slot(hash, pos);
        if self.used * 2 > self.slots.len() {
            self.grow();
        }
    }

    /// Doubles the table (a slot keeps its hash, so nothing is rehashed).
    #[cold]
    fn grow(&mut self) {
        let bigger = vec![0; self.slots.len() * 2].into_boxed_slice();
        let old = std::mem::replace(&mut self.slots, bigger);
        let mask = self.mask();
        for s in old.iter().copied().filter(|&s| s != 0) {
            let mut i = hash32(s) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }

    /// Forgets the entry at `pos`, whose key is `key` and which the index
    /// holds, and moves every later position down by one (the entries after
    /// it moved down). `key_at(p)`: the key of the entry now at `p`, for the
    /// entries after `pos` (there are `len - pos` of them, `len` counted
    /// after the removal).
    pub(crate) fn remove<'k>(
        &mut self,
        key: &[u8],
        pos: usize,
        len: usize,
        key_at: impl Fn(usize) -> &'k [u8],
    ) {
        let (i, found) = self.find(self.hash(key), |p| p == pos);
        debug_assert!(found, "the removed entry is indexed");
        if found {
            self.delete(i);
        }
        let moved = len - pos;
        if moved * 8 < self.slots.len() {
            // Few entries after it: find each by its key.
            for p in pos..len {
                let k = key_at(p);
                let (i, found) = self.find(self.hash(k), |q| q == p + 1);
                if found {
                    self.slots[i] -= 1;
                }
            }
        } else {
            for s in self.slots.iter_mut() {
                if pos_of(*s).is_some_and(|p| p > pos) {
                    *s -= 1;
                }
            }
        }
    }

    /// Empties slot `i`, moving later slots of its probe run back so that
    /// every key stays reachable from its home slot.
    fn delete(&mut self, mut i: usize) {
        let mask = self.mask();
        self.used -= 1;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let s = self.slots[j];
            if s == 0 {
                break;
            }
            let home = hash32(s) as usize & mask;
            // `s` may fill the hole at `i` unless its home lies cyclically
            // in (i, j].
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.slots[i] = s;
                i = j;
            }
        }
        self.slots[i] = 0;
    }
}

/// A [`KeyIndex`] built when lookups have earned it, also through `&self`
/// (a lookup builds it), in one pointer word: before the index exists it
/// counts the work lookups did without one (as `count << 1 | 1`; a pointer
/// to the index is even). Changes through `&mut self` keep the index up to
/// date ([`get_mut`](Self::get_mut)) or drop it ([`clear`](Self::clear)).
pub(crate) struct LazyIndex(AtomicPtr<KeyIndex>);

/// Whether the word holds the index (not null, not a count).
#[inline(always)]
fn is_index(p: *mut KeyIndex) -> bool {
    !p.is_null() && p.addr() & 1 == 0
}

impl LazyIndex {
    /// No index, no work counted.
    pub(crate) const fn new() -> Self {
        LazyIndex(AtomicPtr::new(ptr::null_mut()))
    }

    /// The index, if built.
    #[inline]
    pub(crate) fn get(&self) -> Option<&KeyIndex> {
        let p = self.0.load(Ordering::Acquire);
        if !is_index(p) {
            return None;
        }
        // SAFETY: an index pointer here came from `Box::into_raw` in
        // `install` (published with Release, read with Acquire) and is freed
        // only through `&mut self` (`clear`, `Drop`), so the box outlives
        // this borrow of `self`.
        Some(unsafe { &*p })
    }

    /// Counts `work` more done without the index; whether the total has
    /// reached `budget` (then build it: [`get_or_build`](Self::get_or_build)).
    /// Counts may be lost to a concurrent lookup, which only delays the
    /// build.
    #[inline]
    pub(crate) fn earned(&self, work: usize, budget: usize) -> bool {
        let p = self.0.load(Ordering::Relaxed);
        if is_index(p) {
            return true;
        }
        let done = (p.addr() >> 1).saturating_add(work);
        if done >= budget {
            return true;
        }
        let count = ptr::without_provenance_mut((done << 1) | 1);
        // Never over an index another thread installed meanwhile.
        let _ = self
            .0
            .compare_exchange(p, count, Ordering::Relaxed, Ordering::Relaxed);
        false
    }

    /// The index, built by `build` if there is none.
    #[inline]
    pub(crate) fn get_or_build(&self, build: impl FnOnce() -> KeyIndex) -> &KeyIndex {
        match self.get() {
            Some(index) => index,
            None => self.install(build()),
        }
    }

    #[cold]
    #[inline(never)]
    fn install(&self, index: KeyIndex) -> &KeyIndex {
        let new = Box::into_raw(Box::new(index));
        let mut current = self.0.load(Ordering::Acquire);
        loop {
            if is_index(current) {
                // Another thread built it first: keep theirs.
                // SAFETY: `new` was never published, so this is its only owner.
                drop(unsafe { Box::from_raw(new) });
                // SAFETY: an index pointer published by `install`; see `get`.
                return unsafe { &*current };
            }
            match self
                .0
                .compare_exchange(current, new, Ordering::AcqRel, Ordering::Acquire)
            {
                // SAFETY: `new` is the box just published; as in `get`, it
                // is freed only through `&mut self`.
                Ok(_) => return unsafe { &*new },
                Err(now) => current = now,
            }
        }
    }

    /// The index, if built, to keep up to date with a change.
    #[inline]
    pub(crate) fn get_mut(&mut self) -> Option<&mut KeyIndex> {
        let p = *self.0.get_mut();
        if !is_index(p) {
            return None;
        }
        // SAFETY: as in `get`; `&mut self` makes this the only access.
        Some(unsafe { &mut *p })
    }

    /// Drops the index and the work counted (the next lookups start over).
    #[inline]
    pub(crate) fn clear(&mut self) {
        let p = std::mem::replace(self.0.get_mut(), ptr::null_mut());
        if is_index(p) {
            // SAFETY: `p` came from `Box::into_raw` (see `get`) and is no
            // longer reachable from `self`.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

impl Default for LazyIndex {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for LazyIndex {
    fn drop(&mut self) {
        self.clear();
    }
}
