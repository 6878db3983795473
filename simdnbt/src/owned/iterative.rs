//! `PartialEq`, `Drop` and `Clone` for the owned tree, without recursion
//! (`Drop` on compounds only; see [`NbtCompound`]'s `Drop`).
//!
//! Derived impls recurse once per nesting level; a hand-built tree can be nested
//! far deeper than any reader accepts, and even 512 levels overflow a small
//! thread stack in a debug build. These walk with a heap stack instead.

use std::mem;

use super::{BaseNbt, NbtCompound, NbtList, NbtTag};

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

/// A container whose children were moved out for dropping.
enum Detached {
    Compound(NbtCompound),
    List(NbtList),
}

/// Whether dropping `l` as a child could recurse: it is a non-empty list of
/// compounds or lists. Detaching leaves `Empty` behind, which is not.
fn list_is_nested(l: &NbtList) -> bool {
    match l {
        NbtList::Compound(v) => !v.is_empty(),
        NbtList::List(v) => !v.is_empty(),
        _ => false,
    }
}

fn compound_has_containers(c: &NbtCompound) -> bool {
    c.values.iter().any(|(_, v)| match v {
        NbtTag::Compound(c) => !c.values.is_empty(),
        NbtTag::List(l) => list_is_nested(l),
        _ => false,
    })
}

fn list_has_containers(l: &NbtList) -> bool {
    match l {
        NbtList::Compound(v) => v.iter().any(|c| !c.values.is_empty()),
        NbtList::List(v) => v.iter().any(list_is_nested),
        _ => false,
    }
}

/// Moves the non-empty containers directly inside `node` onto `out`.
fn detach_children(node: &mut Detached, out: &mut Vec<Detached>) {
    match node {
        Detached::Compound(c) => {
            for (_, v) in c.values.iter_mut() {
                match v {
                    NbtTag::Compound(c) if !c.values.is_empty() => {
                        out.push(Detached::Compound(mem::take(c)))
                    }
                    NbtTag::List(l) if list_is_nested(l) => out.push(Detached::List(mem::take(l))),
                    _ => {}
                }
            }
        }
        Detached::List(NbtList::Compound(v)) => out.extend(
            v.iter_mut()
                .filter(|c| !c.values.is_empty())
                .map(|c| Detached::Compound(mem::take(c))),
        ),
        Detached::List(NbtList::List(v)) => out.extend(
            v.iter_mut()
                .filter(|l| list_is_nested(l))
                .map(|l| Detached::List(mem::take(l))),
        ),
        Detached::List(_) => {}
    }
}

/// Drops `first`'s descendants one container at a time, so each drop is shallow.
fn flatten(first: Detached) {
    let mut todo = vec![first];
    while let Some(mut node) = todo.pop() {
        detach_children(&mut node, &mut todo);
        // `node` now holds no non-empty containers: its drop does not recurse.
    }
}

/// How deep the current thread is in nested drops of owned containers.
/// Shallow trees (nearly all) drop recursively, which is fastest; past
/// `RECURSIVE_DROP_LIMIT` levels the rest of the tree is flattened instead, so
/// no tree, however deep, can overflow the stack while dropping.
mod drop_depth {
    use std::cell::Cell;

    thread_local!(static DEPTH: Cell<u32> = const { Cell::new(0) });

    pub(super) const RECURSIVE_DROP_LIMIT: u32 = 64;

    /// Runs `f` one level deeper; returns `false` without running it when the
    /// limit is reached.
    #[inline]
    pub(super) fn deeper(f: impl FnOnce()) -> bool {
        DEPTH.with(|depth| {
            let d = depth.get();
            if d >= RECURSIVE_DROP_LIMIT {
                return false;
            }
            depth.set(d + 1);
            f();
            depth.set(d);
            true
        })
    }
}

/// Drops a compound's children. A list of lists among them is taken apart with
/// a heap stack: `NbtList` has no `Drop` of its own (so that its `Vec`s can be
/// moved out by value), and a chain of lists directly inside lists would
/// otherwise drop one stack frame per level. Compounds below count themselves.
fn drop_children(c: &mut NbtCompound) {
    for (_, v) in c.values.iter_mut() {
        if let NbtTag::List(l @ NbtList::List(_)) = v {
            if list_has_containers(l) {
                flatten(Detached::List(mem::take(l)));
            }
        }
    }
    c.values.clear();
}

/// Dropping is iterative for any tree held by a compound ([`BaseNbt`],
/// `NbtTag::Compound`, a list inside one…), however deep. A bare [`NbtList`]
/// or `NbtTag::List` whose lists nest directly in lists drops recursively,
/// one level at a time: the readers never make more than 512 levels, which
/// is fine; to drop a deeper hand-built list chain, put it in a compound.
impl Drop for NbtCompound {
    fn drop(&mut self) {
        if !compound_has_containers(self) {
            return;
        }
        // Drop the children now, while the depth counter counts this level.
        if !drop_depth::deeper(|| drop_children(self)) {
            flatten(Detached::Compound(mem::take(self)));
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
