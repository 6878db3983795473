//! A compound's entries: a `Vec`'s buffer with its length and capacity in
//! 32 bits each, so that a compound (these and its lookup index's pointer)
//! stays 24 bytes, the size of a `Vec`, and a tag stays 32. (A list of empty
//! compounds is what bounds the owned reader's memory, 24 bytes per input
//! byte.) The buffer is a `Vec`'s, so it converts to and from one for free.

use std::marker::PhantomData;
use std::mem::{self, ManuallyDrop};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use super::NbtTag;
use crate::mutf8::Mutf8String;

/// One named tag of a compound.
pub(crate) type Entry = (Mutf8String, NbtTag);

/// See the module docs. Invariant: `ptr`, `len` and `cap` are the parts of
/// a `Vec<Entry>` (the first `len` entries initialized), which this owns.
pub(crate) struct Entries {
    ptr: NonNull<Entry>,
    len: u32,
    cap: u32,
    _owns: PhantomData<Entry>,
}

// SAFETY: `Entries` owns its entries as a `Vec<Entry>` does, and `Entry` is
// `Send` and `Sync`.
unsafe impl Send for Entries {}
// SAFETY: as for `Send`: shared access only reads the entries.
unsafe impl Sync for Entries {}

/// The most entries a compound holds: 2^32 - 1, far beyond what fits in
/// memory next to a 2 GiB input limit.
#[cold]
#[inline(never)]
fn too_many() -> ! {
    panic!("a compound holds at most {} entries", u32::MAX)
}

impl Entries {
    /// No entries, no allocation.
    pub(crate) const fn new() -> Self {
        Entries {
            ptr: NonNull::dangling(),
            len: 0,
            cap: 0,
            _owns: PhantomData,
        }
    }

    /// Takes `v`'s buffer (shrunk to its length if its capacity does not
    /// fit 32 bits).
    ///
    /// # Panics
    /// If `v` has more than `u32::MAX` entries.
    #[inline]
    pub(crate) fn from_vec(v: Vec<Entry>) -> Self {
        let mut v = ManuallyDrop::new(v);
        if v.capacity() > u32::MAX as usize {
            if v.len() > u32::MAX as usize {
                // Dropped as the vector it is.
                drop(ManuallyDrop::into_inner(v));
                too_many();
            }
            v.shrink_to_fit();
            if v.capacity() > u32::MAX as usize {
                drop(ManuallyDrop::into_inner(v));
                too_many();
            }
        }
        Entries {
            // SAFETY: a `Vec`'s pointer is never null (dangling when nothing
            // is allocated).
            ptr: unsafe { NonNull::new_unchecked(v.as_mut_ptr()) },
            len: v.len() as u32,
            cap: v.capacity() as u32,
            _owns: PhantomData,
        }
    }

    /// The entries as the `Vec` they are.
    pub(crate) fn into_vec(self) -> Vec<Entry> {
        let this = ManuallyDrop::new(self);
        // SAFETY: the parts of a `Vec<Entry>` (the invariant), whose
        // ownership moves to it: `this` is not dropped.
        unsafe { Vec::from_raw_parts(this.ptr.as_ptr(), this.len as usize, this.cap as usize) }
    }

    /// Runs `f` on the entries as a `Vec` (a panic in `f` leaves them empty:
    /// the `Vec` is dropped, never freed twice).
    #[inline]
    fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
        let mut v = mem::take(self).into_vec();
        let r = f(&mut v);
        *self = Entries::from_vec(v);
        r
    }

    /// Appends an entry.
    #[inline]
    pub(crate) fn push(&mut self, entry: Entry) {
        if self.len < self.cap {
            // SAFETY: `len < cap`: the slot is inside the buffer and not
            // initialized; it is from now on, as `len` says.
            unsafe { self.ptr.as_ptr().add(self.len as usize).write(entry) };
            self.len += 1;
        } else {
            self.grow_push(entry);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_push(&mut self, entry: Entry) {
        if self.len == u32::MAX {
            too_many();
        }
        self.with_vec(|v| v.push(entry));
    }

    /// Removes the entry at `i`, moving the later ones down (`Vec::remove`).
    pub(crate) fn remove(&mut self, i: usize) -> Entry {
        self.with_vec(|v| v.remove(i))
    }

    /// Drops every entry, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.with_vec(Vec::clear);
    }

    /// The entries.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Entry] {
        // SAFETY: the first `len` entries of the buffer are initialized and
        // owned by `self`, borrowed for as long as `self` is.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len as usize) }
    }

    /// The entries, mutably.
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Entry] {
        // SAFETY: as in `as_slice`; `&mut self` makes this the only access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len as usize) }
    }
}

impl Default for Entries {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        drop(mem::take(self).into_vec());
    }
}

impl Deref for Entries {
    type Target = [Entry];
    #[inline]
    fn deref(&self) -> &[Entry] {
        self.as_slice()
    }
}

impl DerefMut for Entries {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Entry] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl From<Vec<Entry>> for Entries {
    fn from(v: Vec<Entry>) -> Self {
        Self::from_vec(v)
    }
}
