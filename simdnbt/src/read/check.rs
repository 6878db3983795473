//! The input checks of the validating core: bounds, lengths, counts and ids,
//! each failing with the error kind and byte offset every reader reports.
//!
//! Every length prefix is checked against the bytes that remain before
//! anything is sized by it, so no sink can be made to allocate more than the
//! input could fill.

use crate::error::{Error, ErrorKind};
use crate::tag_id::*;

/// Fewest payload bytes a tag of each id has: fixed-size tags their value,
/// others their length prefix, a list its 5-byte header, a compound its End.
pub(crate) const MIN_PAYLOAD: [u8; 16] = [0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4, 0, 0, 0];

/// `TAG_PREFIX[id]`: the bytes a named tag of type `id` takes before its
/// name's length is added: id, name length, smallest payload. Unknown ids
/// get a value no input reaches, so the tag loop's single bounds check
/// rejects them too.
pub(crate) const TAG_PREFIX: [u32; 256] = {
    // 2^31: past any input (at most isize::MAX bytes), and no overflow when a
    // name length is added on 32-bit targets.
    let mut t = [1 << 31; 256];
    let mut id = 0;
    while id <= LONG_ARRAY as usize {
        t[id] = 3 + MIN_PAYLOAD[id] as u32;
        id += 1;
    }
    t
};

/// The error for a named tag with unknown id `id` at `at`, `left` input
/// bytes from there: unknown, once its id, name and (for ids 13..=255, read
/// as `id & 15`) smallest payload are all there; truncated otherwise. The
/// order of the checks the tag loop had before unknown ids were folded into
/// its bounds check, which the owned reader and the tests rely on.
#[cold]
pub(crate) fn unknown_named_tag(id: u8, left: usize, name_len: usize, at: usize) -> Error {
    if left >= 3 + name_len + MIN_PAYLOAD[(id & 15) as usize] as usize {
        err(ErrorKind::UnknownTagId(id), at)
    } else {
        err(ErrorKind::UnexpectedEof, at + left)
    }
}

#[cold]
pub(crate) fn err(kind: ErrorKind, at: usize) -> Error {
    Error::new(kind, at)
}

/// Reads a big-endian u16 at `pos`.
///
/// # Safety
/// `pos + 2 <= data.len()`.
#[inline(always)]
pub(crate) unsafe fn u16_at(data: &[u8], pos: usize) -> u16 {
    debug_assert!(pos + 2 <= data.len());
    // SAFETY: the caller checked that two bytes remain at `pos`.
    let b = unsafe { data.get_unchecked(pos..pos + 2) };
    u16::from_be_bytes([b[0], b[1]])
}

/// Reads a big-endian i32 at `pos`.
///
/// # Safety
/// `pos + 4 <= data.len()`.
#[inline(always)]
pub(crate) unsafe fn i32_at(data: &[u8], pos: usize) -> i32 {
    debug_assert!(pos + 4 <= data.len());
    // SAFETY: the caller checked that four bytes remain at `pos`.
    let b = unsafe { data.get_unchecked(pos..pos + 4) };
    i32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Skips a string payload at `*pos` (its 2-byte length known to be there) and
/// returns its bytes.
#[inline(always)]
pub(crate) fn string<'a>(data: &'a [u8], pos: &mut usize) -> Result<&'a [u8], Error> {
    // SAFETY: every caller checked that the 2-byte length is there.
    let len = unsafe { u16_at(data, *pos) } as usize;
    let start = *pos + 2;
    if data.len() - start < len {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    }
    *pos = start + len;
    Ok(&data[start..start + len])
}

/// Skips an array payload of `size`-byte elements at `*pos` (its 4-byte
/// length known to be there) and returns the elements' bytes.
#[inline(always)]
pub(crate) fn array<'a>(data: &'a [u8], pos: &mut usize, size: usize) -> Result<&'a [u8], Error> {
    let at = *pos;
    // SAFETY: every caller checked that the 4-byte length is there.
    let len = unsafe { i32_at(data, at) };
    if len < 0 {
        return Err(err(ErrorKind::NegativeLength(len), at));
    }
    let start = at + 4;
    // u64: `len × size` cannot overflow for len < 2^31, size ≤ 8.
    if ((data.len() - start) as u64) < len as u64 * size as u64 {
        return Err(err(ErrorKind::LengthExceedsInput, at));
    }
    *pos = start + len as usize * size;
    Ok(&data[start..*pos])
}

/// Why a list of numbers (or of End) with count `n` at `count_at` is invalid.
#[cold]
pub(crate) fn number_list_error(n: i32, elem: u8, count_at: usize) -> Error {
    let kind = if n < 0 {
        ErrorKind::NegativeLength(n)
    } else if elem == END {
        ErrorKind::ListOfEndNotEmpty
    } else {
        ErrorKind::LengthExceedsInput
    };
    err(kind, count_at)
}

/// A list header that passed every check: element type and count.
pub(crate) struct ListHeader {
    pub elem: u8,
    pub n: u32,
}

/// Reads and checks a list header at `*pos` (shared by both readers, so they
/// reject the same lists at the same offsets): depth, the 5 header bytes, a
/// negative count, a count larger than the rest of the input could hold, a
/// non-empty list of End, an unknown element type — in that order. Leaves
/// `*pos` after the header.
#[inline(always)]
pub(crate) fn list_header(
    data: &[u8],
    pos: &mut usize,
    depth: usize,
    max_depth: u32,
) -> Result<ListHeader, Error> {
    let at = *pos;
    if depth > max_depth as usize {
        return Err(err(ErrorKind::MaxDepthExceeded, at));
    }
    if data.len() - at < 5 {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    }
    let elem = data[at];
    let count_at = at + 1;
    // SAFETY: five bytes remain at `at`.
    let n = unsafe { i32_at(data, count_at) };
    if n < 0 {
        return Err(err(ErrorKind::NegativeLength(n), count_at));
    }
    *pos = at + 5;
    let min = min_element_size(elem);
    if ((data.len() - *pos) as u64) < n as u64 * min as u64 {
        return Err(err(ErrorKind::LengthExceedsInput, count_at));
    }
    match elem {
        END if n != 0 => Err(err(ErrorKind::ListOfEndNotEmpty, count_at)),
        END..=LONG_ARRAY => Ok(ListHeader { elem, n: n as u32 }),
        _ => Err(err(ErrorKind::UnknownTagId(elem), at)),
    }
}

/// Reads one element of a list of strings or arrays at `*pos` and returns its
/// bytes (without the length prefix).
#[inline(always)]
pub(crate) fn list_element<'a>(
    data: &'a [u8],
    pos: &mut usize,
    elem: u8,
) -> Result<&'a [u8], Error> {
    let (prefix, size) = match elem {
        STRING => (2, 0),
        BYTE_ARRAY => (4, 1),
        INT_ARRAY => (4, 4),
        _ => (4, 8),
    };
    if data.len() - *pos < prefix {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    }
    if elem == STRING {
        string(data, pos)
    } else {
        array(data, pos, size)
    }
}
