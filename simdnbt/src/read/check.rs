//! The input checks of the validating core: bounds, lengths, counts and ids,
//! each failing with the error kind and byte offset every reader reports.
//!
//! Every length prefix is checked against the bytes that remain before
//! anything is sized by it, so no sink can be made to allocate more than the
//! input could fill. Numbers and lengths are read only through
//! [`super::wire`], in the form the core was given.

use super::wire::{self, Wire, array_element_min, varint, zigzag32, zigzag64};
use crate::error::{Error, ErrorKind};
use crate::tag_id::*;

/// The longest input any reader takes: every offset a reader keeps fits in
/// 56 bits (the tape packs a tag id above one). A longer input is
/// [`ErrorKind::InputTooLarge`].
pub(crate) const MAX_INPUT: u64 = 1 << 56;

/// `TAG_PREFIX[id]`: the bytes a named tag of type `id` takes before its
/// name's length is added: id, name length, smallest payload
/// ([`TagLayout::min`]). Unknown ids get a value no input reaches, so the tag
/// loop's single bounds check rejects them too.
pub(crate) const TAG_PREFIX: [u32; 256] = {
    // 2^31: past any input the loop's subtraction can leave, and no overflow
    // when a name length is added on 32-bit targets.
    let mut t = [1 << 31; 256];
    let mut id = 0;
    while id <= LONG_ARRAY {
        t[id as usize] = 3 + layout(id).min as u32;
        id += 1;
    }
    t
};

/// The smallest payload a tag with id byte `id` is taken to have when
/// judging whether an unknown id is "unknown" or "truncated": its
/// [`TagLayout::min`], read as `id & 15` for ids 13..=255. The order the first
/// readers checked in, kept by every reader (the owned reader, the Bedrock
/// transcoder and the tests rely on it).
#[inline(always)]
pub(crate) const fn min_payload_for_error(id: u8) -> usize {
    LAYOUT[(id & 15) as usize].min as usize
}

/// [`named_tag_error`] in the network form, whose name length is a VarInt:
/// `head` bytes of id and name length from `at`.
#[cold]
pub(crate) fn varint_named_tag_error(
    id: u8,
    left: usize,
    head: usize,
    name_len: usize,
    at: usize,
) -> Error {
    if !is_known(id) && left >= head + name_len + wire::min_payload::<wire::VarInt>(id) {
        err(ErrorKind::UnknownTagId(id), at)
    } else {
        err(ErrorKind::UnexpectedEof, at + left)
    }
}

/// The network form's named-tag head at `pos` (its id `id` and the first
/// byte of its VarInt name length are there): the payload's offset and the
/// bytes from `pos` to the end of its smallest payload, checked against the
/// input as the fixed forms' head is.
#[inline(always)]
pub(crate) fn varint_named_head(data: &[u8], pos: usize, id: u8) -> Result<(usize, usize), Error> {
    let len = data.len();
    let mut p = pos + 1;
    let name_len = varint::<5>(data, &mut p)? as usize;
    let skip = (p - pos)
        .saturating_add(name_len)
        .saturating_add(VARINT_TAG_MIN[id as usize] as usize);
    if len - pos < skip {
        return Err(varint_named_tag_error(
            id,
            len - pos,
            p - pos,
            name_len,
            pos,
        ));
    }
    Ok((p + name_len, skip))
}

/// `VARINT_TAG_MIN[id]`: the smallest payload of a named tag of type `id` in
/// the network form; unknown ids get a value no input reaches, as in
/// [`TAG_PREFIX`].
pub(crate) const VARINT_TAG_MIN: [u32; 256] = {
    let mut t = [1 << 31; 256];
    let mut id = 0;
    while id <= LONG_ARRAY {
        t[id as usize] = wire::VARINT_MIN[id as usize] as u32;
        id += 1;
    }
    t
};

/// The error for a named tag with id `id` at `at` whose id, name length,
/// name and smallest payload do not all fit in the `left` input bytes from
/// there: unknown, once an unknown id's name and smallest payload (see
/// [`min_payload_for_error`]) are all there; truncated otherwise.
#[cold]
pub(crate) fn named_tag_error(id: u8, left: usize, name_len: usize, at: usize) -> Error {
    if !is_known(id) && left >= 3 + name_len + min_payload_for_error(id) {
        err(ErrorKind::UnknownTagId(id), at)
    } else {
        err(ErrorKind::UnexpectedEof, at + left)
    }
}

#[cold]
pub(crate) fn err(kind: ErrorKind, at: usize) -> Error {
    Error::new(kind, at)
}

/// Skips a string payload (form `W`) at `*pos` and returns its bytes.
///
/// # Safety
/// The length prefix's smallest size is in `data` (2 bytes in the fixed
/// forms, 1 in the network form): `*pos + 2 <= data.len()` or
/// `*pos < data.len()`.
#[inline(always)]
pub(crate) unsafe fn string<'a, W: Wire>(
    data: &'a [u8],
    pos: &mut usize,
) -> Result<&'a [u8], Error> {
    let (len, start) = if W::VARINT {
        let mut p = *pos;
        (varint::<5>(data, &mut p)? as usize, p)
    } else {
        // SAFETY: the caller checked that the 2-byte length is there.
        (unsafe { wire::u16_at::<W>(data, *pos) } as usize, *pos + 2)
    };
    if data.len() - start < len {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    }
    *pos = start + len;
    // SAFETY: start <= data.len() (the caller, or the VarInt read) and
    // len <= data.len() - start (checked above).
    Ok(unsafe { data.get_unchecked(start..start + len) })
}

/// Skips an array payload of type `id` (form `W`) at `*pos` and returns the
/// elements' bytes.
///
/// # Safety
/// The length prefix's smallest size is in `data` (4 bytes in the fixed
/// forms, 1 in the network form).
#[inline(always)]
pub(crate) unsafe fn array<'a, W: Wire>(
    data: &'a [u8],
    pos: &mut usize,
    id: u8,
) -> Result<&'a [u8], Error> {
    let at = *pos;
    let (len, start) = if W::VARINT {
        let mut p = at;
        (zigzag32(data, &mut p)?, p)
    } else {
        // SAFETY: the caller checked that the 4-byte length is there.
        (unsafe { wire::i32_at::<W>(data, at) }, at + 4)
    };
    if len < 0 {
        return Err(err(ErrorKind::NegativeLength(len), at));
    }
    let size = array_element_min::<W>(id);
    // u64: `len × size` cannot overflow for len < 2^31, size ≤ 8.
    if ((data.len() - start) as u64) < len as u64 * size as u64 {
        return Err(err(ErrorKind::LengthExceedsInput, at));
    }
    if W::VARINT && id != BYTE_ARRAY {
        let mut p = start;
        for _ in 0..len {
            if id == INT_ARRAY {
                zigzag32(data, &mut p)?;
            } else {
                zigzag64(data, &mut p)?;
            }
        }
        *pos = p;
    } else {
        *pos = start + len as usize * size;
    }
    // SAFETY: start <= data.len() (the caller, or the VarInt read) and the
    // elements fit in the rest (checked above, or read one by one).
    Ok(unsafe { data.get_unchecked(start..*pos) })
}

/// Skips the payload of a string or array (`id`: String, ByteArray,
/// IntArray or LongArray) at `*pos` and returns its elements' bytes.
///
/// # Safety
/// `id` is one of those four and its length prefix's smallest size
/// ([`TagLayout::prefix`] bytes, 1 in the network form) is in `data` at `*pos`.
#[inline(always)]
pub(crate) unsafe fn prefixed<'a, W: Wire>(
    data: &'a [u8],
    pos: &mut usize,
    id: u8,
) -> Result<&'a [u8], Error> {
    debug_assert!(matches!(id, STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY));
    if id == STRING {
        // SAFETY: the caller: the prefix is there.
        unsafe { string::<W>(data, pos) }
    } else {
        // SAFETY: the caller: the prefix is there.
        unsafe { array::<W>(data, pos, id) }
    }
}

/// Skips a number payload of type `id` (Byte..=Double) at `*pos`, whose
/// smallest size ([`wire::min_payload`]) the caller checked: all of it in the
/// fixed forms, a VarInt's first byte for an Int or Long of the network form.
#[inline(always)]
pub(crate) fn number<W: Wire>(data: &[u8], pos: &mut usize, id: u8) -> Result<(), Error> {
    if W::VARINT && id == INT {
        zigzag32(data, pos)?;
    } else if W::VARINT && id == LONG {
        zigzag64(data, pos)?;
    } else {
        *pos += layout(id).fixed as usize;
    }
    Ok(())
}

/// Reads one element of a list of strings or arrays (`elem`) at `*pos` and
/// returns its bytes (without the length prefix).
#[inline(always)]
pub(crate) fn list_element<'a, W: Wire>(
    data: &'a [u8],
    pos: &mut usize,
    elem: u8,
) -> Result<&'a [u8], Error> {
    let prefix = if W::VARINT {
        1
    } else {
        layout(elem).prefix as usize
    };
    if data.len() - *pos < prefix {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    }
    // SAFETY: the prefix is there (just checked); `elem` is a string or array
    // type (the core opens such lists only for those).
    unsafe { prefixed::<W>(data, pos, elem) }
}

/// A list header that passed every check: element type and count.
pub(crate) struct ListHeader {
    pub elem: u8,
    pub n: u32,
}

/// `ELEMENT_MIN[elem]`: the fewest bytes a list element of type `elem` takes
/// ([`TagLayout::min`]); End's is 2^63, so that any count but 0 fails
/// [`list_header`]'s size test too (the unknown ids are caught by their own).
const ELEMENT_MIN: [u64; 256] = {
    let mut t = [1 << 63; 256];
    let mut id = BYTE;
    while id <= LONG_ARRAY {
        t[id as usize] = layout(id).min as u64;
        id += 1;
    }
    t
};

/// Reads and checks a list header at `*pos` and leaves `*pos` after it: the
/// one rule every list goes by (named, element of a list, root). A list at
/// depth `depth` (counting the root as 1) is rejected when it is deeper than
/// `max_depth`, when its 5 header bytes are not there, when its count is
/// negative, larger than the rest of the input could hold at its element
/// type's [`TagLayout::min`] bytes, non-zero for a list of End, or its element
/// type is unknown — in that order ([`list_header_error`]). `there`: the
/// caller knows the 5 header bytes are in `data` (a named list, whose bounds
/// check covered them), which saves testing it again.
#[inline(always)]
pub(crate) fn list_header<W: Wire>(
    data: &[u8],
    pos: &mut usize,
    depth: usize,
    max_depth: usize,
    there: bool,
) -> Result<ListHeader, Error> {
    if W::VARINT {
        return varint_list_header(data, pos, depth, max_depth);
    }
    let at = *pos;
    debug_assert!(!there || data.len() - at >= 5);
    if depth > max_depth || (!there && data.len() - at < 5) {
        return Err(list_header_error::<W>(data, at, depth, max_depth));
    }
    // SAFETY: five bytes remain at `at` (checked above).
    let (elem, n) = unsafe { (*data.get_unchecked(at), wire::i32_at::<W>(data, at + 1)) };
    let rest = (data.len() - at - 5) as u64;
    // Two tests for the rest, the cold path sorting out which failed. The
    // size test also fails a negative count (read as at least 2^63 elements
    // of at least one byte) and a non-empty list of End (2^63 bytes each).
    if (n as i64 as u64).saturating_mul(ELEMENT_MIN[elem as usize]) > rest || !is_known(elem) {
        return Err(list_header_error::<W>(data, at, depth, max_depth));
    }
    *pos = at + 5;
    Ok(ListHeader { elem, n: n as u32 })
}

/// [`list_header`] in the network form: element id, ZigZag VarInt count,
/// the same checks in the same order (a VarInt that is cut short or too long
/// fails where [`varint`] says).
#[inline(always)]
fn varint_list_header(
    data: &[u8],
    pos: &mut usize,
    depth: usize,
    max_depth: usize,
) -> Result<ListHeader, Error> {
    let at = *pos;
    if depth > max_depth {
        return Err(err(ErrorKind::MaxDepthExceeded, at));
    }
    let Some(&elem) = data.get(at) else {
        return Err(err(ErrorKind::UnexpectedEof, data.len()));
    };
    let count_at = at + 1;
    let mut p = count_at;
    let n = zigzag32(data, &mut p)?;
    if n < 0 {
        return Err(err(ErrorKind::NegativeLength(n), count_at));
    }
    let min = if is_known(elem) {
        wire::min_payload::<wire::VarInt>(elem) as u64
    } else {
        0
    };
    if ((data.len() - p) as u64) < n as u64 * min {
        return Err(err(ErrorKind::LengthExceedsInput, count_at));
    }
    if elem == END && n != 0 {
        return Err(err(ErrorKind::ListOfEndNotEmpty, count_at));
    }
    if !is_known(elem) {
        return Err(err(ErrorKind::UnknownTagId(elem), at));
    }
    *pos = p;
    Ok(ListHeader { elem, n: n as u32 })
}

/// Why the list header at `at` fails [`list_header`], in its order.
#[cold]
#[inline(never)]
fn list_header_error<W: Wire>(data: &[u8], at: usize, depth: usize, max_depth: usize) -> Error {
    if depth > max_depth {
        return err(ErrorKind::MaxDepthExceeded, at);
    }
    if data.len() - at < 5 {
        return err(ErrorKind::UnexpectedEof, data.len());
    }
    let elem = data[at];
    let count_at = at + 1;
    // SAFETY: five bytes remain at `at` (checked above).
    let n = unsafe { wire::i32_at::<W>(data, count_at) };
    let min = layout(elem).min as u64;
    if n < 0 {
        err(ErrorKind::NegativeLength(n), count_at)
    } else if ((data.len() - at - 5) as u64) < n as u64 * min {
        err(ErrorKind::LengthExceedsInput, count_at)
    } else if elem == END && n != 0 {
        err(ErrorKind::ListOfEndNotEmpty, count_at)
    } else {
        debug_assert!(!is_known(elem));
        err(ErrorKind::UnknownTagId(elem), at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented order of `list_header`'s checks, one at a time: what
    /// the one combined test and its cold path must agree with.
    fn reference(data: &[u8], at: usize, depth: usize, max: usize) -> Result<(u8, u32), Error> {
        if depth > max {
            return Err(err(ErrorKind::MaxDepthExceeded, at));
        }
        if data.len() - at < 5 {
            return Err(err(ErrorKind::UnexpectedEof, data.len()));
        }
        let elem = data[at];
        let n = i32::from_be_bytes(data[at + 1..at + 5].try_into().unwrap());
        if n < 0 {
            return Err(err(ErrorKind::NegativeLength(n), at + 1));
        }
        let min = match elem {
            BYTE => 1,
            SHORT | STRING => 2,
            INT | FLOAT | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => 4,
            LONG | DOUBLE => 8,
            LIST => 5,
            COMPOUND => 1,
            _ => 0,
        };
        if ((data.len() - at - 5) as u64) < n as u64 * min {
            return Err(err(ErrorKind::LengthExceedsInput, at + 1));
        }
        if elem == END && n != 0 {
            return Err(err(ErrorKind::ListOfEndNotEmpty, at + 1));
        }
        if elem > LONG_ARRAY {
            return Err(err(ErrorKind::UnknownTagId(elem), at));
        }
        Ok((elem, n as u32))
    }

    #[test]
    fn list_header_checks_in_the_documented_order() {
        let counts = [i32::MIN, -1, 0, 1, 2, 3, 4, 7, 8, 100, i32::MAX];
        // Miri interprets slowly: the known ids and two unknown ones there.
        let elems: Vec<u8> = if cfg!(miri) {
            (0..=13).chain([0xff]).collect()
        } else {
            (0..=255).collect()
        };
        for elem in elems {
            for n in counts {
                for rest in [0usize, 1, 2, 4, 7, 8, 16, 40] {
                    let mut data = vec![0xaa, elem];
                    data.extend_from_slice(&n.to_be_bytes());
                    data.resize(data.len() + rest, 0);
                    for cut in [data.len(), 4, 1] {
                        let data = &data[..cut];
                        for (depth, max) in [(3, 512), (513, 512), (1, 0)] {
                            let mut pos = 1;
                            let got =
                                list_header::<wire::BigEndian>(data, &mut pos, depth, max, false)
                                    .map(|h| (h.elem, h.n));
                            let want = reference(data, 1, depth, max);
                            // Formatted only on a failure: Miri interprets every `format!`.
                            let what =
                                || format!("elem {elem} n {n} rest {rest} cut {cut} depth {depth}");
                            match (&got, &want) {
                                (Ok(g), Ok(w)) => {
                                    assert_eq!(g, w, "{}", what());
                                    assert_eq!(pos, 6, "{}", what());
                                }
                                (Err(g), Err(w)) => assert_eq!(
                                    (g.kind(), g.offset()),
                                    (w.kind(), w.offset()),
                                    "{}",
                                    what()
                                ),
                                _ => panic!("{}: {got:?} vs {want:?}", what()),
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every named tag's bounds check covers its id, name length and smallest
    /// payload, and nothing an unknown id could pass.
    #[test]
    fn tag_prefix_is_three_plus_the_smallest_payload() {
        for id in 0..=255u8 {
            let want = if is_known(id) {
                3 + layout(id).min as u32
            } else {
                1 << 31
            };
            assert_eq!(TAG_PREFIX[id as usize], want, "id {id}");
        }
    }
}
