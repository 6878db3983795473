//! Building the owned tree from a tape: one walk, with an explicit stack so
//! that the input's nesting cannot drive recursion.

use super::{NbtCompound, NbtList, NbtTag};
use crate::borrow::tape::{Tape, Value};
use crate::mutf8::Mutf8String;
use crate::simd;
use crate::tag_id::*;

/// A container being built, with the name it will have in its parent
/// (`None` for list elements and the root).
enum Building {
    Compound {
        name: Option<Mutf8String>,
        values: Vec<(Mutf8String, NbtTag)>,
        next: u32,
        end: u32,
    },
    Compounds {
        name: Option<Mutf8String>,
        items: Vec<NbtCompound>,
        next: u32,
        end: u32,
    },
    Lists {
        name: Option<Mutf8String>,
        items: Vec<NbtList>,
        next: u32,
        end: u32,
    },
}

fn string(bytes: &[u8]) -> Mutf8String {
    Mutf8String::from_vec(bytes.to_vec())
}

/// Converts a value that holds no compounds or lists of containers.
fn leaf(tape: &Tape<'_>, v: Value) -> NbtTag {
    let p = v.payload;
    let d = tape.data;
    let array = |size: usize| &d[p + 4..p + 4 + tape.u32_at(p) as usize * size];
    match v.id {
        BYTE => NbtTag::Byte(d[p] as i8),
        SHORT => NbtTag::Short(i16::from_be_bytes([d[p], d[p + 1]])),
        INT => NbtTag::Int(tape.u32_at(p) as i32),
        LONG => NbtTag::Long(i64::from_be_bytes(d[p..p + 8].try_into().unwrap())),
        FLOAT => NbtTag::Float(f32::from_bits(tape.u32_at(p))),
        DOUBLE => NbtTag::Double(f64::from_be_bytes(d[p..p + 8].try_into().unwrap())),
        BYTE_ARRAY => NbtTag::ByteArray(array(1).to_vec()),
        STRING => NbtTag::String(string(tape.str_at(p))),
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

/// The frame that builds container `v`.
fn open_container(tape: &Tape<'_>, v: Value, name: Option<Mutf8String>) -> Building {
    let (next, end) = (v.start, v.end);
    if v.id == COMPOUND {
        // `aux` counts the children (saturating; only a capacity hint).
        return Building::Compound {
            name,
            values: Vec::with_capacity(v.aux as usize),
            next,
            end,
        };
    }
    let len = tape.u32_at(v.payload + 1) as usize;
    match tape.data[v.payload] {
        COMPOUND => Building::Compounds {
            name,
            items: Vec::with_capacity(len),
            next,
            end,
        },
        _ => Building::Lists {
            name,
            items: Vec::with_capacity(len),
            next,
            end,
        },
    }
}

/// Builds the tag for `v` (of any type) and everything inside it.
fn build(tape: &Tape<'_>, v: Value) -> NbtTag {
    if is_leaf(tape, v) {
        return leaf(tape, v);
    }
    let mut stack = vec![open_container(tape, v, None)];
    loop {
        let top = stack.last_mut().expect("stack is never empty here");
        let child = match top {
            Building::Compound {
                values, next, end, ..
            } => {
                if *next < *end {
                    let (name_off, v, following) = tape.named(*next);
                    *next = following;
                    let name = string(tape.str_at(name_off));
                    if is_leaf(tape, v) {
                        values.push((name, leaf(tape, v)));
                        continue;
                    }
                    Some(open_container(tape, v, Some(name)))
                } else {
                    None
                }
            }
            Building::Compounds { next, end, .. } | Building::Lists { next, end, .. } => {
                if *next < *end {
                    let (v, following) = tape.unnamed(*next);
                    *next = following;
                    if is_leaf(tape, v) {
                        if let (Building::Lists { items, .. }, NbtTag::List(list)) =
                            (&mut *top, leaf(tape, v))
                        {
                            items.push(list);
                        }
                        continue;
                    }
                    Some(open_container(tape, v, None))
                } else {
                    None
                }
            }
        };
        if let Some(frame) = child {
            stack.push(frame);
            continue;
        }
        // The top container is complete: hand it to its parent.
        let (name, tag) = match stack.pop().expect("non-empty") {
            Building::Compound { name, values, .. } => {
                (name, NbtTag::Compound(NbtCompound::from_values(values)))
            }
            Building::Compounds { name, items, .. } => {
                (name, NbtTag::List(NbtList::Compound(items)))
            }
            Building::Lists { name, items, .. } => (name, NbtTag::List(NbtList::List(items))),
        };
        match stack.last_mut() {
            None => return tag,
            Some(Building::Compound { values, .. }) => {
                values.push((name.expect("children of compounds are named"), tag))
            }
            Some(Building::Compounds { items, .. }) => {
                if let NbtTag::Compound(c) = tag {
                    items.push(c)
                }
            }
            Some(Building::Lists { items, .. }) => {
                if let NbtTag::List(l) = tag {
                    items.push(l)
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
