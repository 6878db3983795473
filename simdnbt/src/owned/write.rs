//! Writing the owned tree.
//!
//! Every length is checked before it is written (a string over 65535 encoded
//! bytes, a list or array over `i32::MAX` elements, nesting past 512 levels are
//! errors), so the writer never emits a file a reader would reject. Containers
//! are walked with an explicit stack.

use std::slice;

use super::{NbtCompound, NbtList, NbtTag};
use crate::mutf8::Mutf8Str;
use crate::options::DEFAULT_MAX_DEPTH;
use crate::simd::{self, BeNumber};
use crate::tag_id::*;
use crate::WriteError;

enum Frame<'d> {
    Compound(slice::Iter<'d, (crate::Mutf8String, NbtTag)>),
    Compounds(slice::Iter<'d, NbtCompound>),
    Lists(slice::Iter<'d, NbtList>),
}

/// Writes a u16-length-prefixed MUTF-8 string.
#[inline]
pub(crate) fn string(s: &Mutf8Str, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let bytes = s.as_bytes();
    let len =
        u16::try_from(bytes.len()).map_err(|_| WriteError::StringTooLong { len: bytes.len() })?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

#[inline]
fn length(len: usize, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let len = i32::try_from(len).map_err(|_| WriteError::LengthTooLarge { len })?;
    out.extend_from_slice(&len.to_be_bytes());
    Ok(())
}

#[inline]
fn numbers<T: BeNumber>(values: &[T], out: &mut Vec<u8>) -> Result<(), WriteError> {
    length(values.len(), out)?;
    simd::extend_be_bytes(out, values);
    Ok(())
}

/// Element id, length, then the elements of a list of non-containers.
fn leaf_list(list: &NbtList, out: &mut Vec<u8>) -> Result<(), WriteError> {
    out.push(list.id());
    match list {
        NbtList::Empty => length(0, out),
        NbtList::Byte(v) => {
            length(v.len(), out)?;
            out.extend(v.iter().map(|&b| b as u8));
            Ok(())
        }
        NbtList::Short(v) => numbers(v, out),
        NbtList::Int(v) => numbers(v, out),
        NbtList::Long(v) => numbers(v, out),
        NbtList::Float(v) => numbers(v, out),
        NbtList::Double(v) => numbers(v, out),
        NbtList::ByteArray(v) => {
            length(v.len(), out)?;
            v.iter().try_for_each(|a| {
                length(a.len(), out)?;
                out.extend_from_slice(a);
                Ok(())
            })
        }
        NbtList::String(v) => {
            length(v.len(), out)?;
            v.iter().try_for_each(|s| string(s, out))
        }
        NbtList::IntArray(v) => {
            length(v.len(), out)?;
            v.iter().try_for_each(|a| numbers(a, out))
        }
        NbtList::LongArray(v) => {
            length(v.len(), out)?;
            v.iter().try_for_each(|a| numbers(a, out))
        }
        NbtList::Compound(_) | NbtList::List(_) => unreachable!("containers are framed"),
    }
}

/// Writes a value's payload; for a container, writes its header and returns the
/// frame that will write its contents. `depth` is the depth a container would have.
#[inline]
fn value<'d>(
    tag: &'d NbtTag,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<Option<Frame<'d>>, WriteError> {
    match tag {
        NbtTag::Byte(v) => out.push(*v as u8),
        NbtTag::Short(v) => out.extend_from_slice(&v.to_be_bytes()),
        NbtTag::Int(v) => out.extend_from_slice(&v.to_be_bytes()),
        NbtTag::Long(v) => out.extend_from_slice(&v.to_be_bytes()),
        NbtTag::Float(v) => out.extend_from_slice(&v.to_be_bytes()),
        NbtTag::Double(v) => out.extend_from_slice(&v.to_be_bytes()),
        NbtTag::ByteArray(v) => {
            length(v.len(), out)?;
            out.extend_from_slice(v);
        }
        NbtTag::String(s) => string(s, out)?,
        NbtTag::IntArray(v) => numbers(v, out)?,
        NbtTag::LongArray(v) => numbers(v, out)?,
        NbtTag::Compound(c) => return container_compound(c, depth),
        NbtTag::List(l) => return container_list(l, depth, out),
    }
    Ok(None)
}

#[inline]
fn check_depth(depth: usize) -> Result<(), WriteError> {
    if depth > DEFAULT_MAX_DEPTH as usize {
        Err(WriteError::MaxDepthExceeded)
    } else {
        Ok(())
    }
}

#[inline]
fn container_compound(c: &NbtCompound, depth: usize) -> Result<Option<Frame<'_>>, WriteError> {
    check_depth(depth)?;
    Ok(Some(Frame::Compound(c.values.iter())))
}

#[inline]
fn container_list<'d>(
    l: &'d NbtList,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<Option<Frame<'d>>, WriteError> {
    check_depth(depth)?;
    match l {
        NbtList::Compound(items) => {
            out.push(COMPOUND);
            length(items.len(), out)?;
            Ok(Some(Frame::Compounds(items.iter())))
        }
        NbtList::List(items) => {
            out.push(LIST);
            length(items.len(), out)?;
            Ok(Some(Frame::Lists(items.iter())))
        }
        leaf => leaf_list(leaf, out).map(|()| None),
    }
}

/// Writes the contents of the frames on `stack` (and closes them). `base` is the
/// depth of the container below the stack's first frame.
fn drain<'d>(stack: &mut Vec<Frame<'d>>, base: usize, out: &mut Vec<u8>) -> Result<(), WriteError> {
    loop {
        let depth = base + stack.len() + 1;
        let Some(frame) = stack.last_mut() else { break };
        let next = match frame {
            Frame::Compound(iter) => match iter.next() {
                Some((name, tag)) => {
                    out.push(tag.id());
                    string(name, out)?;
                    value(tag, depth, out)?
                }
                None => {
                    out.push(END);
                    stack.pop();
                    continue;
                }
            },
            Frame::Compounds(iter) => match iter.next() {
                Some(c) => container_compound(c, depth)?,
                None => {
                    stack.pop();
                    continue;
                }
            },
            Frame::Lists(iter) => match iter.next() {
                Some(l) => container_list(l, depth, out)?,
                None => {
                    stack.pop();
                    continue;
                }
            },
        };
        if let Some(frame) = next {
            stack.push(frame);
        }
    }
    Ok(())
}

pub(crate) fn compound_payload(c: &NbtCompound, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut stack = vec![Frame::Compound(c.values.iter())];
    drain(&mut stack, 0, out)
}

pub(crate) fn list_payload(l: &NbtList, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut stack: Vec<Frame<'_>> = container_list(l, 1, out)?.into_iter().collect();
    drain(&mut stack, 0, out)
}

pub(crate) fn tag_payload(tag: &NbtTag, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut stack: Vec<Frame<'_>> = value(tag, 1, out)?.into_iter().collect();
    drain(&mut stack, 0, out)
}
