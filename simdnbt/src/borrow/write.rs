//! Writing from a borrowed document.
//!
//! Everything on a tape was validated when it was read, so writing never fails
//! and is mostly copying: every string, array and list of non-containers is one
//! contiguous span of the input. Only compounds and lists of compounds/lists are
//! walked, with an explicit stack so input cannot drive recursion.
//!
//! The output is the input's own bytes, so it is exactly as deep as what was
//! read: a document read with a raised [`ReadOptions::max_depth`](crate::ReadOptions::max_depth)
//! writes back deeper than 512 levels (see there for why the owned writer
//! refuses instead).

use crate::tag_id::*;
use crate::tape::{Tape, TapeValue};

enum Frame {
    /// Named children in `next..end`, then an End byte.
    Compound { next: u32, end: u32 },
    /// Unnamed elements (compounds or lists) in `next..end`.
    Elements { next: u32, end: u32 },
}

/// Offset of the input byte just past a value that contains no compounds or
/// lists of containers, i.e. one that is a single span of the input.
fn span_end(tape: &Tape<'_>, value: TapeValue) -> usize {
    let p = value.payload;
    match value.id {
        LIST => {
            let elem = tape.data[p];
            match elem {
                STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => tape.prefixed_elements(p).end(),
                _ => p + 5 + tape.u32_at(p + 1) as usize * layout(elem).fixed as usize,
            }
        }
        COMPOUND => unreachable!("containers are walked, not copied"),
        id => leaf_end(tape.data, id, p),
    }
}

/// Appends `bytes` to `out`. Into an empty `Vec` (what a caller that writes
/// one document usually passes) as one allocation of exactly their size and
/// one copy, the least a copy can cost: `extend_from_slice` would go through
/// `Vec`'s general growth path first (`reports/code-notes.md`).
#[inline]
pub(crate) fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    if out.capacity() == 0 {
        *out = bytes.to_vec();
    } else {
        out.extend_from_slice(bytes);
    }
}

/// Writes one value's payload, pushing a frame for containers.
#[inline]
fn value(tape: &Tape<'_>, v: TapeValue, out: &mut Vec<u8>, stack: &mut Vec<Frame>) {
    match v.id {
        COMPOUND => stack.push(Frame::Compound {
            next: v.start,
            end: v.end,
        }),
        LIST if matches!(tape.data[v.payload], COMPOUND | LIST) => {
            out.extend_from_slice(&tape.data[v.payload..v.payload + 5]);
            stack.push(Frame::Elements {
                next: v.start,
                end: v.end,
            });
        }
        _ => out.extend_from_slice(&tape.data[v.payload..span_end(tape, v)]),
    }
}

fn drain(tape: &Tape<'_>, out: &mut Vec<u8>, stack: &mut Vec<Frame>) {
    while let Some(frame) = stack.last_mut() {
        match frame {
            Frame::Compound { next, end } => {
                if *next >= *end {
                    out.push(END);
                    stack.pop();
                    continue;
                }
                let (name, v, following) = tape.named(*next);
                *next = following;
                out.push(v.id);
                // The name with its length.
                out.extend_from_slice(&tape.data[v.payload - name.len() - 2..v.payload]);
                value(tape, v, out, stack);
            }
            Frame::Elements { next, end } => {
                if *next >= *end {
                    stack.pop();
                    continue;
                }
                let (v, following) = tape.unnamed(*next);
                *next = following;
                value(tape, v, out, stack);
            }
        }
    }
}

/// Appends a compound's named tags and closing End.
pub(crate) fn compound_payload(tape: &Tape<'_>, start: u32, end: u32, out: &mut Vec<u8>) {
    let mut stack = vec![Frame::Compound { next: start, end }];
    drain(tape, out, &mut stack);
}

/// Appends a list's payload.
pub(crate) fn list_payload(tape: &Tape<'_>, v: TapeValue, out: &mut Vec<u8>) {
    value_payload(tape, v, out);
}

/// Appends any value's payload.
pub(crate) fn value_payload(tape: &Tape<'_>, v: TapeValue, out: &mut Vec<u8>) {
    let mut stack = Vec::new();
    value(tape, v, out, &mut stack);
    drain(tape, out, &mut stack);
}
