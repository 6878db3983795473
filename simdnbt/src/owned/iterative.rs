//! `PartialEq`, `Drop` and `Clone` for the owned tree, without recursion.
//!
//! Derived impls recurse once per nesting level; a hand-built tree can be nested
//! far deeper than any reader accepts, and even 512 levels overflow a small
//! thread stack in a debug build. These walk with a heap stack instead.

use std::mem::{self, ManuallyDrop};
use std::ptr;

use super::STACK_INLINE;
use super::{BaseNbt, NbtCompound, NbtList, NbtTag};
use crate::mutf8::Mutf8String;
use crate::stack::{Stack, inline};

/// Floats compare by bits so that a document always equals itself and equal
/// documents write equal bytes.
fn bits_eq32(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn bits_eq64(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

enum Pair<'d> {
    Compounds(&'d NbtCompound, &'d NbtCompound),
    Lists(&'d NbtList, &'d NbtList),
}

/// Compares the non-container parts of `a` and `b` and queues their containers.
fn shallow_eq<'d>(pair: Pair<'d>, todo: &mut Vec<Pair<'d>>) -> bool {
    match pair {
        Pair::Compounds(a, b) => {
            a.values.len() == b.values.len()
                && a.values
                    .iter()
                    .zip(&b.values)
                    .all(|((ka, va), (kb, vb))| ka == kb && tag_shallow_eq(va, vb, todo))
        }
        Pair::Lists(a, b) => match (a, b) {
            (NbtList::Empty, NbtList::Empty) => true,
            (NbtList::Byte(x), NbtList::Byte(y)) => x == y,
            (NbtList::Short(x), NbtList::Short(y)) => x == y,
            (NbtList::Int(x), NbtList::Int(y)) => x == y,
            (NbtList::Long(x), NbtList::Long(y)) => x == y,
            (NbtList::Float(x), NbtList::Float(y)) => bits_eq32(x, y),
            (NbtList::Double(x), NbtList::Double(y)) => bits_eq64(x, y),
            (NbtList::ByteArray(x), NbtList::ByteArray(y)) => x == y,
            (NbtList::String(x), NbtList::String(y)) => x == y,
            (NbtList::IntArray(x), NbtList::IntArray(y)) => x == y,
            (NbtList::LongArray(x), NbtList::LongArray(y)) => x == y,
            (NbtList::Compound(x), NbtList::Compound(y)) => {
                x.len() == y.len() && {
                    todo.extend(x.iter().zip(y).map(|(a, b)| Pair::Compounds(a, b)));
                    true
                }
            }
            (NbtList::List(x), NbtList::List(y)) => {
                x.len() == y.len() && {
                    todo.extend(x.iter().zip(y).map(|(a, b)| Pair::Lists(a, b)));
                    true
                }
            }
            _ => false,
        },
    }
}

fn tag_shallow_eq<'d>(a: &'d NbtTag, b: &'d NbtTag, todo: &mut Vec<Pair<'d>>) -> bool {
    match (a, b) {
        (NbtTag::Byte(x), NbtTag::Byte(y)) => x == y,
        (NbtTag::Short(x), NbtTag::Short(y)) => x == y,
        (NbtTag::Int(x), NbtTag::Int(y)) => x == y,
        (NbtTag::Long(x), NbtTag::Long(y)) => x == y,
        (NbtTag::Float(x), NbtTag::Float(y)) => x.to_bits() == y.to_bits(),
        (NbtTag::Double(x), NbtTag::Double(y)) => x.to_bits() == y.to_bits(),
        (NbtTag::ByteArray(x), NbtTag::ByteArray(y)) => x == y,
        (NbtTag::String(x), NbtTag::String(y)) => x == y,
        (NbtTag::IntArray(x), NbtTag::IntArray(y)) => x == y,
        (NbtTag::LongArray(x), NbtTag::LongArray(y)) => x == y,
        (NbtTag::Compound(x), NbtTag::Compound(y)) => {
            todo.push(Pair::Compounds(x, y));
            true
        }
        (NbtTag::List(x), NbtTag::List(y)) => {
            todo.push(Pair::Lists(x, y));
            true
        }
        _ => false,
    }
}

fn deep_eq(first: Pair<'_>) -> bool {
    let mut todo = vec![first];
    while let Some(pair) = todo.pop() {
        if !shallow_eq(pair, &mut todo) {
            return false;
        }
    }
    true
}

/// Key order and duplicates count; floats compare by bits.
impl PartialEq for NbtCompound {
    fn eq(&self, other: &Self) -> bool {
        deep_eq(Pair::Compounds(self, other))
    }
}

/// Element type counts (`Int(vec![]) != Empty`); floats compare by bits.
impl PartialEq for NbtList {
    fn eq(&self, other: &Self) -> bool {
        deep_eq(Pair::Lists(self, other))
    }
}

/// Same type and value; floats compare by bits.
impl PartialEq for NbtTag {
    fn eq(&self, other: &Self) -> bool {
        let mut todo = Vec::new();
        tag_shallow_eq(self, other, &mut todo) && todo.into_iter().all(deep_eq)
    }
}

impl PartialEq<NbtCompound> for BaseNbt {
    fn eq(&self, other: &NbtCompound) -> bool {
        **self == *other
    }
}

/// What a container being dropped holds. A word, so that a [`Dropping`]
/// has no padding to copy when it moves on and off the stack.
#[derive(Clone, Copy)]
#[repr(usize)]
enum Elements {
    /// A compound's `(Mutf8String, NbtTag)` entries.
    Entries,
    /// A list's compounds.
    Compounds,
    /// A list's lists.
    Lists,
}

/// A container being dropped: its elements from `next` to `end` are still
/// to drop, those before `next` were dropped or moved out; `buf` and `cap`
/// are its `Vec`'s buffer, freed once every element is gone.
struct Dropping {
    elements: Elements,
    next: *mut u8,
    end: *mut u8,
    buf: *mut u8,
    cap: usize,
}

impl Dropping {
    /// Takes over `v`'s buffer and elements, if it has any elements (an
    /// empty `Vec` is freed here).
    #[inline(always)]
    fn of<T>(elements: Elements, v: Vec<T>) -> Option<Self> {
        if v.is_empty() {
            return None;
        }
        let mut v = ManuallyDrop::new(v);
        let buf = v.as_mut_ptr();
        Some(Dropping {
            elements,
            // SAFETY: `len` elements from `buf` on are in the allocation.
            end: unsafe { buf.add(v.len()) }.cast(),
            next: buf.cast(),
            buf: buf.cast(),
            cap: v.capacity(),
        })
    }

    /// The elements of `list`, if it is a non-empty list of compounds or of
    /// lists: the only lists whose drop could recurse. Any other list is
    /// left to drop as its `Vec` (numbers are freed without a visit).
    ///
    /// # Safety
    /// On `Some`, `list`'s `Vec` is owned by the result: `list` must not be
    /// dropped or used again (its memory is freed as its parent's element,
    /// or forgotten).
    #[inline(always)]
    unsafe fn nested(list: &mut NbtList) -> Option<Self> {
        // SAFETY: (both arms) the `Vec` is read out only when it is moved
        // into the result, which the caller's promise makes its one owner.
        unsafe {
            match list {
                NbtList::Compound(v) if !v.is_empty() => {
                    Self::of(Elements::Compounds, ptr::read(v))
                }
                NbtList::List(v) if !v.is_empty() => Self::of(Elements::Lists, ptr::read(v)),
                _ => None,
            }
        }
    }

    /// Drops the elements from `next` on up to the first one that holds
    /// elements of its own, and returns that one's (`next` then points past
    /// it); `None` once all are dropped.
    ///
    /// # Safety
    /// `self` is what [`of`](Self::of) made, updated only by this.
    #[inline(always)]
    unsafe fn next_nested(&mut self) -> Option<Dropping> {
        // SAFETY: elements `next..end` are initialized and owned by `self`
        // (the promise); each is dropped or has its `Vec` moved out exactly
        // once, and `next` moves past it, so none is used again. The buffer
        // itself is freed by `free`, without dropping any element.
        unsafe {
            match self.elements {
                Elements::Entries => {
                    let mut e = self.next.cast::<(Mutf8String, NbtTag)>();
                    let end = self.end.cast::<(Mutf8String, NbtTag)>();
                    while e != end {
                        let (name, tag) = &mut *e;
                        e = e.add(1);
                        ptr::drop_in_place(name);
                        // Numbers first, as one range test of the tag
                        // (most entries), not a jump through the full match.
                        if matches!(
                            tag,
                            NbtTag::Byte(_)
                                | NbtTag::Short(_)
                                | NbtTag::Int(_)
                                | NbtTag::Long(_)
                                | NbtTag::Float(_)
                                | NbtTag::Double(_)
                        ) {
                            continue;
                        }
                        let nested = match tag {
                            NbtTag::Compound(c) => {
                                ptr::drop_in_place(&mut c.index);
                                Self::of(Elements::Entries, ptr::read(&c.values).into_vec())
                            }
                            NbtTag::List(l) => match Self::nested(l) {
                                Some(nested) => Some(nested),
                                None => {
                                    ptr::drop_in_place(l);
                                    None
                                }
                            },
                            NbtTag::String(s) => drop_leaf(s),
                            NbtTag::ByteArray(v) => drop_leaf(v),
                            NbtTag::IntArray(v) => drop_leaf(v),
                            NbtTag::LongArray(v) => drop_leaf(v),
                            // Numbers (passed above) hold nothing to free.
                            _ => None,
                        };
                        if nested.is_some() {
                            self.next = e.cast();
                            return nested;
                        }
                    }
                    self.next = e.cast();
                    None
                }
                Elements::Compounds => {
                    let mut c = self.next.cast::<NbtCompound>();
                    let end = self.end.cast::<NbtCompound>();
                    while c != end {
                        ptr::drop_in_place(&raw mut (*c).index);
                        let values = ptr::read(&(*c).values).into_vec();
                        c = c.add(1);
                        if let Some(nested) = Self::of(Elements::Entries, values) {
                            self.next = c.cast();
                            return Some(nested);
                        }
                    }
                    self.next = c.cast();
                    None
                }
                Elements::Lists => {
                    let mut l = self.next.cast::<NbtList>();
                    let end = self.end.cast::<NbtList>();
                    while l != end {
                        let list = &mut *l;
                        l = l.add(1);
                        match Self::nested(list) {
                            Some(nested) => {
                                self.next = l.cast();
                                return Some(nested);
                            }
                            None => ptr::drop_in_place(list),
                        }
                    }
                    self.next = l.cast();
                    None
                }
            }
        }
    }

    /// Frees the buffer, whose elements were all dropped or moved out.
    ///
    /// # Safety
    /// As for [`next_nested`](Self::next_nested), which returned `None`.
    #[inline(always)]
    unsafe fn free(self) {
        // SAFETY: `buf` and `cap` are the buffer and capacity of a `Vec` of
        // the element type `elements` names (see `of`); a length of 0 drops
        // no element.
        unsafe {
            match self.elements {
                Elements::Entries => drop(Vec::from_raw_parts(
                    self.buf.cast::<(Mutf8String, NbtTag)>(),
                    0,
                    self.cap,
                )),
                Elements::Compounds => drop(Vec::from_raw_parts(
                    self.buf.cast::<NbtCompound>(),
                    0,
                    self.cap,
                )),
                Elements::Lists => {
                    drop(Vec::from_raw_parts(self.buf.cast::<NbtList>(), 0, self.cap))
                }
            }
        }
    }
}

/// Drops a string or array in place: it holds no containers.
///
/// # Safety
/// As for [`ptr::drop_in_place`].
#[inline(always)]
unsafe fn drop_leaf<T>(leaf: *mut T) -> Option<Dropping> {
    // SAFETY: the caller's promise.
    unsafe { ptr::drop_in_place(leaf) };
    None
}

/// Drops `first` and everything in it, one container at a time with an
/// explicit stack of the containers left half-dropped, so any depth drops
/// on any thread's stack; each element is visited once, and a container
/// whose last element holds the next one is freed before it (a chain needs
/// no stack at all).
#[inline(never)]
fn drop_tree(first: Dropping) {
    let (mut inline, mut heap) = (inline::<_, STACK_INLINE>(), Vec::new());
    let mut stack = Stack::new(&mut inline, &mut heap);
    let mut cur = first;
    loop {
        // SAFETY: `cur` and every container on the stack were made by
        // `Dropping::of` and changed only by `next_nested` until freed.
        unsafe {
            match cur.next_nested() {
                Some(child) => {
                    if cur.next == cur.end {
                        cur.free();
                    } else {
                        stack.push(cur);
                    }
                    cur = child;
                }
                None => {
                    cur.free();
                    match stack.pop() {
                        Some(parent) => cur = parent,
                        None => return,
                    }
                }
            }
        }
    }
}

/// Dropping is iterative for any tree, however deep (an explicit stack of
/// the containers being dropped, no recursion), and visits each element
/// once.
impl Drop for NbtCompound {
    #[inline]
    fn drop(&mut self) {
        if let Some(entries) =
            Dropping::of(Elements::Entries, mem::take(&mut self.values).into_vec())
        {
            drop_tree(entries);
        }
    }
}

/// As [`NbtCompound`]'s, for a list of compounds or lists (a bare `NbtList`
/// or `NbtTag::List` chain, which a read with a raised
/// [`crate::ReadOptions::max_depth`] can return, drops without recursion
/// too); any other list drops as its `Vec`.
///
/// Because `NbtList` has a `Drop`, a `Vec` cannot be moved out of it by a
/// pattern (`match list { NbtList::Int(v) => v, .. }`); the `into_*` methods
/// (`into_ints`, `into_compounds`, …) do that.
impl Drop for NbtList {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: on `Some`, `self` is overwritten right away, not dropped.
        if let Some(elements) = unsafe { Dropping::nested(self) } {
            // SAFETY: `self` is overwritten without being dropped: its `Vec`
            // is `elements`' now.
            unsafe { ptr::write(self, NbtList::Empty) };
            drop_tree(elements);
        }
    }
}

/// A container being cloned: what is left of the source, the copy so far,
/// and the key it goes under in its parent compound (`None` in a list or at
/// the root).
enum CloneFrame<'d> {
    Compound {
        src: std::slice::Iter<'d, (crate::Mutf8String, NbtTag)>,
        out: Vec<(crate::Mutf8String, NbtTag)>,
        key: Option<crate::Mutf8String>,
    },
    Compounds {
        src: std::slice::Iter<'d, NbtCompound>,
        out: Vec<NbtCompound>,
        key: Option<crate::Mutf8String>,
    },
    Lists {
        src: std::slice::Iter<'d, NbtList>,
        out: Vec<NbtList>,
        key: Option<crate::Mutf8String>,
    },
}

fn compound_frame(c: &NbtCompound, key: Option<crate::Mutf8String>) -> CloneFrame<'_> {
    CloneFrame::Compound {
        src: c.values.iter(),
        out: Vec::with_capacity(c.values.len()),
        key,
    }
}

/// A copy of a list that holds no containers, or the frame that copies one
/// that does.
fn clone_list(l: &NbtList, key: Option<crate::Mutf8String>) -> Result<NbtList, CloneFrame<'_>> {
    Ok(match l {
        NbtList::Compound(v) => {
            return Err(CloneFrame::Compounds {
                src: v.iter(),
                out: Vec::with_capacity(v.len()),
                key,
            });
        }
        NbtList::List(v) => {
            return Err(CloneFrame::Lists {
                src: v.iter(),
                out: Vec::with_capacity(v.len()),
                key,
            });
        }
        NbtList::Empty => NbtList::Empty,
        NbtList::Byte(v) => NbtList::Byte(v.clone()),
        NbtList::Short(v) => NbtList::Short(v.clone()),
        NbtList::Int(v) => NbtList::Int(v.clone()),
        NbtList::Long(v) => NbtList::Long(v.clone()),
        NbtList::Float(v) => NbtList::Float(v.clone()),
        NbtList::Double(v) => NbtList::Double(v.clone()),
        NbtList::ByteArray(v) => NbtList::ByteArray(v.clone()),
        NbtList::String(v) => NbtList::String(v.clone()),
        NbtList::IntArray(v) => NbtList::IntArray(v.clone()),
        NbtList::LongArray(v) => NbtList::LongArray(v.clone()),
    })
}

/// Copies the tree under `first` with a heap stack (a derived `Clone`
/// recurses once per level: a 512-deep document overflows a 256 KiB stack).
fn deep_clone(first: CloneFrame<'_>) -> NbtTag {
    let mut stack = vec![first];
    loop {
        let top = stack.last_mut().expect("stack is never empty here");
        let child = match top {
            CloneFrame::Compound { src, out, .. } => match src.next() {
                Some((k, NbtTag::Compound(c))) => Some(compound_frame(c, Some(k.clone()))),
                Some((k, NbtTag::List(l))) => match clone_list(l, Some(k.clone())) {
                    Ok(l) => {
                        out.push((k.clone(), NbtTag::List(l)));
                        continue;
                    }
                    Err(frame) => Some(frame),
                },
                // Not a container: the derived clone does not recurse.
                Some((k, v)) => {
                    out.push((k.clone(), v.clone()));
                    continue;
                }
                None => None,
            },
            CloneFrame::Compounds { src, .. } => src.next().map(|c| compound_frame(c, None)),
            CloneFrame::Lists { src, out, .. } => match src.next() {
                Some(l) => match clone_list(l, None) {
                    Ok(l) => {
                        out.push(l);
                        continue;
                    }
                    Err(frame) => Some(frame),
                },
                None => None,
            },
        };
        if let Some(frame) = child {
            stack.push(frame);
            continue;
        }
        let (key, done) = match stack.pop().expect("non-empty") {
            CloneFrame::Compound { out, key, .. } => {
                (key, NbtTag::Compound(NbtCompound::from_values(out)))
            }
            CloneFrame::Compounds { out, key, .. } => (key, NbtTag::List(NbtList::Compound(out))),
            CloneFrame::Lists { out, key, .. } => (key, NbtTag::List(NbtList::List(out))),
        };
        match (stack.last_mut(), done) {
            (None, done) => return done,
            (Some(CloneFrame::Compound { out, .. }), done) => {
                out.push((key.expect("children of compounds have keys"), done))
            }
            (Some(CloneFrame::Compounds { out, .. }), NbtTag::Compound(c)) => out.push(c),
            (Some(CloneFrame::Lists { out, .. }), NbtTag::List(l)) => out.push(l),
            _ => unreachable!("a list's elements have its element type"),
        }
    }
}

impl Clone for NbtCompound {
    fn clone(&self) -> Self {
        match deep_clone(compound_frame(self, None)) {
            NbtTag::Compound(c) => c,
            _ => unreachable!(),
        }
    }
}

impl Clone for NbtList {
    fn clone(&self) -> Self {
        match clone_list(self, None) {
            Ok(l) => l,
            Err(frame) => match deep_clone(frame) {
                NbtTag::List(l) => l,
                _ => unreachable!(),
            },
        }
    }
}
