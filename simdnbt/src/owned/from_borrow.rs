//! Building the owned tree from a tape: one walk, with an explicit stack so
//! that the input's nesting cannot drive recursion.

use super::{NbtCompound, NbtList, NbtTag};
use crate::borrow::tape::{Tape, Value};
use crate::mutf8::Mutf8String;
use crate::simd;
use crate::tag_id::*;

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

/// Converts a value that holds no compounds or lists of containers. Numbers
/// and strings (most tags) are made here, inlined into the builder's loop;
/// arrays and lists out of line.
#[inline(always)]
fn leaf(tape: &Tape<'_>, v: Value) -> NbtTag {
    let p = v.payload;
    let d = tape.data;
    match v.id {
        BYTE => NbtTag::Byte(d[p] as i8),
        SHORT => NbtTag::Short(i16::from_be_bytes([d[p], d[p + 1]])),
        INT => NbtTag::Int(tape.u32_at(p) as i32),
        LONG => NbtTag::Long(i64::from_be_bytes(d[p..p + 8].try_into().unwrap())),
        FLOAT => NbtTag::Float(f32::from_bits(tape.u32_at(p))),
        DOUBLE => NbtTag::Double(f64::from_be_bytes(d[p..p + 8].try_into().unwrap())),
        STRING => NbtTag::String(Mutf8String::from_prefixed(d, p)),
        _ => array_or_list(tape, v),
    }
}

/// [`leaf`] for arrays and lists of leaves.
#[inline(never)]
fn array_or_list(tape: &Tape<'_>, v: Value) -> NbtTag {
    let p = v.payload;
    let d = tape.data;
    let array = |size: usize| &d[p + 4..p + 4 + tape.u32_at(p) as usize * size];
    match v.id {
        BYTE_ARRAY => NbtTag::ByteArray(array(1).to_vec()),
        INT_ARRAY => NbtTag::IntArray(simd::from_be_bytes(array(4))),
        LONG_ARRAY => NbtTag::LongArray(simd::from_be_bytes(array(8))),
        _ => NbtTag::List(leaf_list(tape, v)),
    }
}

/// Converts a list whose elements are not compounds or lists.
fn leaf_list(tape: &Tape<'_>, v: Value) -> NbtList {
    let p = v.payload;
    let elem = tape.data[p];
    let len = tape.u32_at(p + 1) as usize;
    let numbers = |size: usize| &tape.data[p + 5..p + 5 + len * size];
    let side = || &tape.side[v.aux as usize..v.aux as usize + len];
    match elem {
        END => NbtList::Empty,
        BYTE => NbtList::Byte(numbers(1).iter().map(|&b| b as i8).collect()),
        SHORT => NbtList::Short(simd::from_be_bytes(numbers(2))),
        INT => NbtList::Int(simd::from_be_bytes(numbers(4))),
        LONG => NbtList::Long(simd::from_be_bytes(numbers(8))),
        FLOAT => NbtList::Float(simd::from_be_bytes(numbers(4))),
        DOUBLE => NbtList::Double(simd::from_be_bytes(numbers(8))),
        BYTE_ARRAY => NbtList::ByteArray(side().iter().map(|s| s.to_vec()).collect()),
        STRING => NbtList::String(side().iter().map(|s| string(s)).collect()),
        INT_ARRAY => NbtList::IntArray(side().iter().map(|s| simd::from_be_bytes(s)).collect()),
        LONG_ARRAY => NbtList::LongArray(side().iter().map(|s| simd::from_be_bytes(s)).collect()),
        COMPOUND => NbtList::Compound(Vec::new()),
        _ => NbtList::List(Vec::new()),
    }
}

/// Whether `v` is built directly (no frame): anything but a compound or a
/// non-empty list of compounds or lists.
#[inline]
fn is_leaf(tape: &Tape<'_>, v: Value) -> bool {
    match v.id {
        COMPOUND => false,
        LIST => v.start == v.end || !matches!(tape.data[v.payload], COMPOUND | LIST),
        _ => true,
    }
}

/// The frame that builds container `v`, named by the string at `name_off`.
fn open_container(tape: &Tape<'_>, v: Value, name_off: usize) -> Frame {
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
fn build(tape: &Tape<'_>, v: Value) -> NbtTag {
    if is_leaf(tape, v) {
        return leaf(tape, v);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut cur = open_container(tape, v, NO_NAME);
    loop {
        if cur.next < cur.end {
            let child = match &mut cur.children {
                Children::Values(values) => {
                    let (name_off, v, following) = tape.named(cur.next);
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
    let v = Value {
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

pub(crate) fn list(tape: &Tape<'_>, v: Value) -> NbtList {
    match build(tape, v) {
        NbtTag::List(l) => l,
        _ => unreachable!(),
    }
}

pub(crate) fn tag(tape: &Tape<'_>, v: Value) -> NbtTag {
    build(tape, v)
}
