//! The validating pass that builds a [`Tape`](super::tape::Tape).
//!
//! One loop, no recursion: the container being read is kept in a local
//! [`Frame`], its ancestors on a heap stack whose depth the depth limit bounds.
//! The tape's length, capacity and the input position live in locals so the
//! per-tag work stays in registers: one bounds check covers a tag's id, name
//! and smallest payload (all of it for numbers), one capacity check covers the
//! (at most two) words it adds.
//!
//! Every length prefix is checked against the bytes that remain before anything
//! is sized by it, so the tape and side table never outgrow the input: at most
//! one tape word per input byte, one side slice per two.

use super::tape::{COUNT_MASK, OFFSET_MASK};
use crate::error::{Error, ErrorKind};
use crate::tag_id::*;

/// A container being read.
#[derive(Clone, Copy)]
enum Frame {
    /// Named children until End; then `words[patch] = bits | count<<32 | end`.
    /// `bits` is 0 for a named compound (whose container word is separate) and
    /// `COMPOUND<<56` for a one-word header (list element or root).
    Compound { patch: u32, bits: u64, count: u32 },
    /// `remaining` unnamed compounds or lists; then `words[patch] = end`.
    List {
        remaining: u32,
        elem: u8,
        patch: u32,
    },
}

/// Fewest payload bytes a tag of each id has: fixed-size tags their value,
/// others their length prefix, a list its 5-byte header, a compound its End.
pub(crate) const MIN_PAYLOAD: [u8; 16] = [0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4, 0, 0, 0];

/// `TAG_PREFIX[id]`: the bytes a named tag of type `id` takes before its
/// name's length is added: id, name length, smallest payload. Unknown ids
/// get a value no input reaches, so the tag loop's single bounds check
/// rejects them too.
const TAG_PREFIX: [u32; 256] = {
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
fn unknown_named_tag(id: u8, left: usize, name_len: usize, at: usize) -> Error {
    if left >= 3 + name_len + MIN_PAYLOAD[(id & 15) as usize] as usize {
        err(ErrorKind::UnknownTagId(id), at)
    } else {
        err(ErrorKind::UnexpectedEof, at + left)
    }
}

/// The tape and side table of a successful parse, and where the value ended.
pub(crate) type Parsed<'a> = (Vec<u64>, Vec<&'a [u8]>, usize);

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

/// What opening a list produced.
enum Opened {
    /// The list was read whole (numbers, strings, arrays, End, or empty);
    /// its container word is `aux<<32 | end`.
    Done { aux: u32 },
    /// A non-empty list of compounds or lists: read its elements next.
    Elements(Frame),
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

/// Reads a list header at `*pos` and, unless its elements are compounds or
/// lists, the elements too (strings and arrays go to the side table).
#[inline(always)]
fn open_list<'a>(
    data: &'a [u8],
    pos: &mut usize,
    side: &mut Vec<&'a [u8]>,
    container: u32,
    depth: usize,
    max_depth: u32,
) -> Result<Opened, Error> {
    let at = *pos;
    let ListHeader { elem, n } = list_header(data, pos, depth, max_depth)?;
    match elem {
        END => Ok(Opened::Done { aux: 0 }),
        BYTE..=DOUBLE => {
            *pos += n as usize * FIXED_SIZE[elem as usize] as usize;
            Ok(Opened::Done { aux: 0 })
        }
        COMPOUND | LIST if n == 0 => Ok(Opened::Done { aux: 0 }),
        COMPOUND | LIST => Ok(Opened::Elements(Frame::List {
            remaining: n,
            elem,
            patch: container,
        })),
        _ => {
            let aux = u32::try_from(side.len()).map_err(|_| err(ErrorKind::InputTooLarge, at))?;
            // Usually `side_room!` made room already; `n` was checked
            // against the remaining input.
            side.reserve_exact(n as usize);
            for _ in 0..n {
                side.push(list_element(data, pos, elem)?);
            }
            Ok(Opened::Done { aux })
        }
    }
}

/// Parses the value of type `root` (its id already read) at `pos`.
pub(crate) fn parse<'a>(
    data: &'a [u8],
    mut pos: usize,
    root: u8,
    max_depth: u32,
) -> Result<Parsed<'a>, Error> {
    if data.len() as u64 > OFFSET_MASK {
        return Err(err(ErrorKind::InputTooLarge, 0));
    }
    let len = data.len();
    // Real files take 8–12 input bytes per tape word. Start with room for one
    // word per 4 bytes, twice what they need, so the free capacity stays
    // above the worst-case `limit` below and a real file of up to 4 MiB never
    // crosses it (bigger files cross it, see `grow`, but rarely reallocate).
    let mut words: Vec<u64> = Vec::with_capacity(((len - pos) / 4).clamp(4, 1 << 20));
    let mut side: Vec<&'a [u8]> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // The tape is written through raw pointers kept in locals (registers):
    // `wp` is the next free slot, `wbase..wend` the allocation. `words.len()`
    // is only set at the end (`finish`) or before growing.
    let mut wbase = words.as_mut_ptr();
    let mut wp = wbase;
    // SAFETY: capacity() slots are allocated from `wbase`.
    let mut wend = unsafe { wbase.add(words.capacity()) };
    // The number of words written so far.
    macro_rules! wlen {
        () => {
            // SAFETY: wbase <= wp, both in (or one past) the same allocation.
            unsafe { wp.offset_from(wbase) as usize }
        };
    }
    // The number of free slots.
    macro_rules! free {
        () => {
            // SAFETY: wp <= wend, both in (or one past) the same allocation.
            unsafe { wend.offset_from(wp) as usize }
        };
    }
    // Replaces the allocation after `grow`.
    macro_rules! regrow {
        ($n:expr) => {{
            let wlen = wlen!();
            (wbase, wend) = grow(&mut words, wlen, $n, pos, len)?;
            // SAFETY: the grown allocation holds at least `wlen` slots.
            wp = unsafe { wbase.add(wlen) };
        }};
    }

    // A list of strings or arrays at `pos` fills the side table, not the
    // tape, and its elements take input bytes the tape will then never need.
    // When the side table has to grow for it (rarely: it grows by doubling),
    // first give back tape capacity beyond what the rest of the input can
    // still use, so tape and side table never both hold a worst-case
    // reservation (only when tape and grown side table would together pass
    // 8 bytes per input byte: below that the memory bound is not at risk,
    // and a shrink copies the tape); then grow the side table, capped at
    // what the rest of the input could fill.
    macro_rules! side_room {
        () => {
            if let Some((elem, n)) = side_list_at(data, pos) {
                if side.capacity() - side.len() < n {
                    let after = len - pos - 5 - n * min_element_size(elem);
                    let most = wlen!() + after + 2;
                    // SAFETY: wbase <= wend, both in (or one past) the allocation.
                    let capacity = unsafe { wend.offset_from(wbase) as usize };
                    let side_after = side.len() + n.max(side.capacity().min(n + after / 2));
                    if capacity > most + most / 4 && capacity + 2 * side_after > len {
                        (wbase, wp, wend) = shrink(&mut words, wlen!(), most);
                    }
                    grow_side(&mut side, side_after);
                }
            }
        };
    }

    // Makes room for `n` more words (cold path out of line).
    macro_rules! reserve {
        ($n:expr) => {
            if free!() < $n {
                regrow!($n);
            }
        };
    }
    // Appends a word; `reserve!` made room for it.
    macro_rules! push {
        ($word:expr) => {{
            debug_assert!(wp < wend);
            let word: u64 = $word;
            // SAFETY: wp < wend, so the slot is allocated; words.len() is
            // raised over it only after it is written.
            unsafe {
                wp.write(word);
                wp = wp.add(1);
            }
        }};
    }
    // Overwrites word `i`, which was pushed earlier.
    macro_rules! set {
        ($i:expr, $word:expr) => {{
            let i = $i as usize;
            let word: u64 = $word;
            assert!(i < wlen!());
            // SAFETY: i < wlen, so the slot is allocated and initialised.
            unsafe { *wbase.add(i) = word };
        }};
    }

    let root64 = (root as u64) << 56;
    reserve!(2);
    let mut cur = match root {
        COMPOUND => {
            if max_depth == 0 {
                return Err(err(ErrorKind::MaxDepthExceeded, pos));
            }
            push!(root64);
            Frame::Compound {
                patch: 0,
                bits: root64,
                count: 0,
            }
        }
        LIST => {
            push!(root64 | pos as u64);
            push!(0);
            match open_list(data, &mut pos, &mut side, 1, 1, max_depth)? {
                Opened::Done { aux } => {
                    set!(1, (aux as u64) << 32 | wlen!() as u64);
                    return finish(words, wlen!(), side, pos);
                }
                Opened::Elements(frame) => frame,
            }
        }
        BYTE..=LONG_ARRAY => {
            push!(root64 | pos as u64);
            if len - pos < MIN_PAYLOAD[root as usize] as usize {
                return Err(err(ErrorKind::UnexpectedEof, len));
            }
            match root {
                STRING => drop(string(data, &mut pos)?),
                BYTE_ARRAY => drop(array(data, &mut pos, 1)?),
                INT_ARRAY => drop(array(data, &mut pos, 4)?),
                LONG_ARRAY => drop(array(data, &mut pos, 8)?),
                _ => pos += FIXED_SIZE[root as usize] as usize,
            }
            return finish(words, wlen!(), side, pos);
        }
        _ => return Err(err(ErrorKind::UnknownTagId(root), pos.saturating_sub(1))),
    };

    // The hot loop compares input positions against `limit` instead of the
    // input's end: `limit` is also where the tape's free capacity would run
    // out if every later tag took one word per two input bytes (no named tag
    // takes more: a number takes one word for ≥ 4 bytes, a list of numbers two
    // for ≥ 8), so one bounds check per tag also covers the tape capacity.
    // Crossing `limit` before the input's end means "grow, then go on".
    // Containers, whose words do not follow that rule, recompute it.
    let mut limit;
    macro_rules! relimit {
        () => {
            limit = len.min(pos + 2 * free!().saturating_sub(2));
        };
    }

    'frames: loop {
        relimit!();
        match cur {
            Frame::Compound {
                mut patch,
                mut bits,
                mut count,
            } => loop {
                if limit - pos < 3 {
                    // Fewer than 3 bytes before `limit`: the End byte of this
                    // compound, the tape's capacity, or the end of the input.
                    if pos < len && data[pos] == END {
                        // Handled below, with at least the End byte present.
                    } else if limit < len {
                        regrow!(2);
                        relimit!();
                        continue;
                    } else {
                        return Err(err(ErrorKind::UnexpectedEof, len));
                    }
                }
                // SAFETY: pos < limit <= len (checked just above).
                let id = unsafe { *data.get_unchecked(pos) };
                if id == END {
                    pos += 1;
                    let saturated = count.min(COUNT_MASK as u32);
                    set!(patch, bits | (saturated as u64) << 32 | wlen!() as u64);
                    // The next compound of the same list (the common case of
                    // lists of items or entities) starts right here, at the
                    // same depth, without going through the frame stack.
                    if let Some(Frame::List {
                        remaining,
                        elem: COMPOUND,
                        ..
                    }) = stack.last_mut()
                    {
                        if *remaining > 0 {
                            *remaining -= 1;
                            reserve!(1);
                            patch = wlen!() as u32;
                            push!((COMPOUND as u64) << 56);
                            count = 0;
                            relimit!();
                            continue;
                        }
                    }
                    match stack.pop() {
                        // Back in the parent compound: carry on in this loop.
                        Some(Frame::Compound {
                            patch: p,
                            bits: b,
                            count: c,
                        }) => {
                            (patch, bits, count) = (p, b, c);
                            relimit!();
                            continue;
                        }
                        Some(parent) => {
                            cur = parent;
                            continue 'frames;
                        }
                        None => break 'frames,
                    }
                }
                // SAFETY: three bytes remain before `limit` at `pos`.
                let name_len = unsafe { u16_at(data, pos + 1) } as usize;
                // Id, name and the smallest payload of this type, which for a
                // number is its whole payload. An unknown id's entry is too
                // big for any input, so this one check also catches it.
                let skip = name_len + TAG_PREFIX[id as usize] as usize;
                if limit - pos < skip {
                    if id > LONG_ARRAY {
                        return Err(unknown_named_tag(id, len - pos, name_len, pos));
                    }
                    if limit < len {
                        regrow!(2);
                        relimit!();
                        continue;
                    }
                    return Err(err(ErrorKind::UnexpectedEof, len));
                }
                let at = pos;
                count = count.wrapping_add(1);
                push!(((id as u64) << 56) | (at + 1) as u64);
                if id <= DOUBLE {
                    pos += skip;
                    continue;
                }
                pos = at + 3 + name_len;
                match id {
                    STRING => drop(string(data, &mut pos)?),
                    BYTE_ARRAY => drop(array(data, &mut pos, 1)?),
                    INT_ARRAY => drop(array(data, &mut pos, 4)?),
                    LONG_ARRAY => drop(array(data, &mut pos, 8)?),
                    LIST => {
                        let container = wlen!();
                        push!(0);
                        let depth = stack.len() + 2;
                        let elem = data[pos];
                        if elem <= DOUBLE && depth <= max_depth as usize {
                            // A list of numbers (or End): checked like an array.
                            // SAFETY: MIN_PAYLOAD covered the 5-byte header.
                            let n = unsafe { i32_at(data, pos + 1) };
                            let size = FIXED_SIZE[elem as usize] as u64;
                            if n < 0
                                || (elem == END && n != 0)
                                || ((len - pos - 5) as u64) < n as u64 * size
                            {
                                return Err(number_list_error(n, elem, pos + 1));
                            }
                            pos += 5 + n as usize * size as usize;
                            set!(container, wlen!() as u64);
                        } else {
                            side_room!();
                            match open_list(
                                data,
                                &mut pos,
                                &mut side,
                                container as u32,
                                depth,
                                max_depth,
                            )? {
                                Opened::Done { aux } => {
                                    set!(container, (aux as u64) << 32 | wlen!() as u64)
                                }
                                Opened::Elements(frame) => {
                                    stack.push(Frame::Compound { patch, bits, count });
                                    cur = frame;
                                    continue 'frames;
                                }
                            }
                        }
                    }
                    COMPOUND => {
                        if stack.len() + 2 > max_depth as usize {
                            return Err(err(ErrorKind::MaxDepthExceeded, at));
                        }
                        let child = wlen!() as u32;
                        push!(0);
                        // Into the child compound: carry on in this loop.
                        stack.push(Frame::Compound { patch, bits, count });
                        (patch, bits, count) = (child, 0, 0);
                        relimit!();
                        continue;
                    }
                    _ => return Err(err(ErrorKind::UnknownTagId(id), at)),
                }
                // Strings, arrays and lists may have moved `pos` past `limit`
                // (checked against the input's end instead).
                relimit!();
            },
            Frame::List {
                remaining: 0,
                patch,
                ..
            } => {
                set!(patch, wlen!() as u64);
                match stack.pop() {
                    Some(parent) => cur = parent,
                    None => break 'frames,
                }
            }
            Frame::List {
                remaining,
                elem,
                patch,
            } => {
                let this = Frame::List {
                    remaining: remaining - 1,
                    elem,
                    patch,
                };
                let depth = stack.len() + 2;
                reserve!(2);
                if elem == COMPOUND {
                    if depth > max_depth as usize {
                        return Err(err(ErrorKind::MaxDepthExceeded, pos));
                    }
                    let child = wlen!() as u32;
                    push!((COMPOUND as u64) << 56);
                    stack.push(this);
                    cur = Frame::Compound {
                        patch: child,
                        bits: (COMPOUND as u64) << 56,
                        count: 0,
                    };
                } else {
                    push!(((LIST as u64) << 56) | pos as u64);
                    let container = wlen!();
                    push!(0);
                    side_room!();
                    match open_list(
                        data,
                        &mut pos,
                        &mut side,
                        container as u32,
                        depth,
                        max_depth,
                    )? {
                        Opened::Done { aux } => {
                            set!(container, (aux as u64) << 32 | wlen!() as u64);
                            cur = this;
                        }
                        Opened::Elements(frame) => {
                            stack.push(this);
                            cur = frame;
                        }
                    }
                }
            }
        }
    }
    finish(words, wlen!(), side, pos)
}

/// Grows the tape for `n` more words; the tape's container words index it
/// with 32 bits, so it may not pass `u32::MAX` words.
///
/// The tag loop also calls this when the input position crosses `limit`,
/// which assumes the worst case (one word per two input bytes). Real files
/// take one word per 8–12 bytes, so when at least `KEEP` words are still
/// free nothing is reallocated: the loop just moves `limit` on, at least
/// `2 × (KEEP - 2)` bytes, more than any one tag's checked prefix (id, a
/// 65,535-byte name and the smallest payload), so the tag then fits.
///
/// Every tape word stands for at least one input byte (a compound in a list
/// is its End byte; every other word takes more), so from `pos` on the tape
/// needs at most `len - pos` more words (+2 for the `reserve!` margin).
/// Doubling is capped there: otherwise a crafted input whose tape needs just
/// over a power of two words (one-byte compounds in a list) would leave twice
/// the 8 bytes per input byte allocated, 16× the input.
#[cold]
#[inline(never)]
fn grow(
    words: &mut Vec<u64>,
    wlen: usize,
    n: usize,
    pos: usize,
    len: usize,
) -> Result<(*mut u64, *mut u64), Error> {
    /// Free words that make reallocating unnecessary (see above).
    const KEEP: usize = 1 << 16;
    let base = words.as_mut_ptr();
    let free = words.capacity() - wlen;
    if free >= n.max(KEEP) {
        // SAFETY: capacity() slots are allocated from `base`.
        return Ok((base, unsafe { base.add(words.capacity()) }));
    }
    if wlen + n > u32::MAX as usize {
        return Err(err(ErrorKind::InputTooLarge, pos));
    }
    // SAFETY: the first `wlen` words have been written.
    unsafe { words.set_len(wlen) };
    let most = wlen + (len - pos) + 2;
    let target = (wlen + n).max((words.capacity() * 2).min(most));
    words.reserve_exact(target - wlen);
    let base = words.as_mut_ptr();
    // SAFETY: capacity() slots are allocated from `base`.
    Ok((base, unsafe { base.add(words.capacity()) }))
}

/// If a list of strings or arrays with a count that fits the input starts
/// at `pos`, its element type and count.
#[inline]
fn side_list_at(data: &[u8], pos: usize) -> Option<(u8, usize)> {
    let header = data.get(pos..pos + 5)?;
    let elem = header[0];
    let n = i32::from_be_bytes([header[1], header[2], header[3], header[4]]);
    let fits =
        n > 0 && (n as u64) * (min_element_size(elem) as u64) <= (data.len() - pos - 5) as u64;
    (matches!(elem, STRING | BYTE_ARRAY | INT_ARRAY | LONG_ARRAY) && fits)
        .then_some((elem, n as usize))
}

/// Grows the side table to `capacity` slices (`side_room!` chooses it: by
/// doubling, so a file of many small lists of strings does not copy the
/// table for each, but no more than the rest of the input could fill).
#[cold]
#[inline(never)]
fn grow_side(side: &mut Vec<&[u8]>, capacity: usize) {
    side.reserve_exact(capacity - side.len());
}

/// Shrinks the tape's allocation to about `most` words (never below `wlen`).
#[cold]
#[inline(never)]
fn shrink(words: &mut Vec<u64>, wlen: usize, most: usize) -> (*mut u64, *mut u64, *mut u64) {
    // SAFETY: the first `wlen` words have been written.
    unsafe { words.set_len(wlen) };
    words.shrink_to(most);
    let base = words.as_mut_ptr();
    // SAFETY: `wlen <= capacity` slots are allocated from `base`.
    unsafe { (base, base.add(wlen), base.add(words.capacity())) }
}

fn finish<'a>(
    mut words: Vec<u64>,
    wlen: usize,
    side: Vec<&'a [u8]>,
    pos: usize,
) -> Result<Parsed<'a>, Error> {
    // SAFETY: the first `wlen` words have been written (and wlen <= capacity).
    unsafe { words.set_len(wlen) };
    Ok((words, side, pos))
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use std::io::Cursor;

    /// Unknown ids are caught by the tag loop's bounds check (`TAG_PREFIX`);
    /// the error stays what the separate check gave: unknown once the id,
    /// name and `id & 15`'s smallest payload are there, truncated before.
    /// Both readers agree.
    #[test]
    fn unknown_ids_give_the_same_errors_as_before_folding() {
        for id in [13u8, 14, 15, 16, 17, 20, 25, 0x7f, 0x80, 0xff] {
            let min = super::MIN_PAYLOAD[(id & 15) as usize] as usize;
            for name_len in [0usize, 1, 5] {
                for present in 0..=name_len + min + 1 {
                    // Root `0a 00 00`, then the tag: id, name length, name, payload.
                    let mut doc = vec![0x0a, 0, 0, id, 0, name_len as u8];
                    doc.extend(std::iter::repeat_n(b'n', name_len.min(present)));
                    doc.extend(std::iter::repeat_n(0, present.saturating_sub(name_len)));
                    let whole = present >= name_len + min;
                    let want = if whole {
                        (ErrorKind::UnknownTagId(id), 3)
                    } else {
                        (ErrorKind::UnexpectedEof, doc.len())
                    };
                    let b = crate::borrow::read(&mut Cursor::new(&doc[..])).unwrap_err();
                    let o = crate::owned::read(&mut Cursor::new(&doc[..])).unwrap_err();
                    let what = format!("id {id}, name {name_len}, {present} bytes after it");
                    assert_eq!((b.kind(), b.offset()), want, "borrow: {what}");
                    assert_eq!((o.kind(), o.offset()), want, "owned: {what}");
                }
            }
        }
    }
}
