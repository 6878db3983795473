//! Building the owned tree from a tape: one walk, with an explicit stack so
//! that the input's nesting cannot drive recursion.

use super::build::{flat_list_at, leaf_at};
use super::{NbtCompound, NbtList, NbtTag};
use crate::mutf8::Mutf8String;
use crate::read::wire::BigEndian;
use crate::simd;
use crate::tag_id::*;
use crate::tape::{Tape, TapeValue};

/// The children of a container being built.
enum Children {
    /// A compound's named tags.
    Values(Vec<(Mutf8String, NbtTag)>),
    /// A list of compounds.
    Compounds(Vec<NbtCompound>),
    /// A list of lists.
    Lists(Vec<NbtList>),
}

/// A container being built: its children so far, the tape range still to
/// read, and where its name is in the input (`NO_NAME` for list elements and
/// the root). Small, because frames move at every nesting change.
struct Frame {
    children: Children,
    next: u32,
    end: u32,
    name_off: usize,
}

const NO_NAME: usize = usize::MAX;

impl Frame {
    fn into_tag(self) -> NbtTag {
        match self.children {
            Children::Values(values) => NbtTag::Compound(NbtCompound::from_values(values)),
            Children::Compounds(items) => NbtTag::List(NbtList::Compound(items)),
            Children::Lists(items) => NbtTag::List(NbtList::List(items)),
        }
    }
}

fn string(bytes: &[u8]) -> Mutf8String {
    Mutf8String::from_slice(bytes)
}

/// Converts a value that holds no compounds or lists of containers.
#[inline(always)]
fn leaf(tape: &Tape<'_>, v: TapeValue) -> NbtTag {
    match v.id {
        LIST => NbtTag::List(leaf_list(tape, v)),
        id => leaf_at::<BigEndian>(tape.data, id, v.payload),
    }
}

/// Converts a list whose elements are not compounds or lists.
fn leaf_list(tape: &Tape<'_>, v: TapeValue) -> NbtList {
    let p = v.payload;
    let elem = tape.data[p];
    let len = tape.u32_at(p + 1) as usize;
    // Straight from the input: no need for the side table.
    let elements = || tape.prefixed_elements(p);
    match elem {
        BYTE_ARRAY => NbtList::ByteArray(elements().map(|s| s.to_vec()).collect()),
        STRING => NbtList::String(elements().map(string).collect()),
        INT_ARRAY => NbtList::IntArray(elements().map(simd::from_be_bytes).collect()),
        LONG_ARRAY => NbtList::LongArray(elements().map(simd::from_be_bytes).collect()),
        _ => flat_list_at::<BigEndian>(tape.data, elem, len, p + 5),
    }
}

/// Whether `v` is built directly (no frame): anything but a compound or a
/// non-empty list of compounds or lists.
#[inline]
fn is_leaf(tape: &Tape<'_>, v: TapeValue) -> bool {
    match v.id {
        COMPOUND => false,
        LIST => v.start == v.end || !matches!(tape.data[v.payload], COMPOUND | LIST),
        _ => true,
    }
}

/// The frame that builds container `v`, named by the string at `name_off`.
fn open_container(tape: &Tape<'_>, v: TapeValue, name_off: usize) -> Frame {
    let children = if v.id == COMPOUND {
        // `aux` counts the children (saturating; only a capacity hint).
        Children::Values(Vec::with_capacity(v.aux as usize))
    } else {
        let len = tape.u32_at(v.payload + 1) as usize;
        match tape.data[v.payload] {
            COMPOUND => Children::Compounds(Vec::with_capacity(len)),
            _ => Children::Lists(Vec::with_capacity(len)),
        }
    };
    Frame {
        children,
        next: v.start,
        end: v.end,
        name_off,
    }
}

/// Builds the tag for `v` (of any type) and everything inside it. The
/// container being filled is `cur`; its ancestors wait on `stack`.
fn build(tape: &Tape<'_>, v: TapeValue) -> NbtTag {
    if is_leaf(tape, v) {
        return leaf(tape, v);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut cur = open_container(tape, v, NO_NAME);
    loop {
        if cur.next < cur.end {
            let child = match &mut cur.children {
                Children::Values(values) => {
                    let (name, v, following) = tape.named(cur.next);
                    let name_off = v.payload - name.len() - 2;
                    cur.next = following;
                    if is_leaf(tape, v) {
                        values.push((
                            Mutf8String::from_prefixed(tape.data, name_off),
                            leaf(tape, v),
                        ));
                        continue;
                    }
                    open_container(tape, v, name_off)
                }
                Children::Compounds(_) | Children::Lists(_) => {
                    let (v, following) = tape.unnamed(cur.next);
                    cur.next = following;
                    if is_leaf(tape, v) {
                        if let Children::Lists(items) = &mut cur.children {
                            items.push(leaf_list(tape, v));
                        }
                        continue;
                    }
                    open_container(tape, v, NO_NAME)
                }
            };
            stack.push(std::mem::replace(&mut cur, child));
            continue;
        }
        // `cur` is complete: hand it to its parent.
        let Some(parent) = stack.pop() else {
            return cur.into_tag();
        };
        let done = std::mem::replace(&mut cur, parent);
        match &mut cur.children {
            Children::Values(values) => {
                let name = Mutf8String::from_prefixed(tape.data, done.name_off);
                values.push((name, done.into_tag()));
            }
            Children::Compounds(items) => {
                if let Children::Values(values) = done.children {
                    items.push(NbtCompound::from_values(values));
                }
            }
            Children::Lists(items) => {
                if let NbtTag::List(list) = done.into_tag() {
                    items.push(list);
                }
            }
        }
    }
}

pub(crate) fn compound(tape: &Tape<'_>, start: u32, end: u32) -> NbtCompound {
    let v = TapeValue {
        id: COMPOUND,
        payload: 0,
        start,
        end,
        aux: tape.child_count_hint(start),
    };
    match build(tape, v) {
        NbtTag::Compound(c) => c,
        _ => unreachable!(),
    }
}

pub(crate) fn list(tape: &Tape<'_>, v: TapeValue) -> NbtList {
    match build(tape, v) {
        NbtTag::List(l) => l,
        _ => unreachable!(),
    }
}

pub(crate) fn tag(tape: &Tape<'_>, v: TapeValue) -> NbtTag {
    build(tape, v)
}
