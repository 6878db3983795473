//! Writing the owned tree.
//!
//! Every length is checked before it is written (a string over 65535 encoded
//! bytes, a list or array over `i32::MAX` elements, nesting past 512 levels are
//! errors), so the writer never emits a file a reader would reject. Containers
//! are walked with an explicit stack.
//!
//! Speed: the entries of the compound being written are iterated in a tight
//! inner loop (the stack is touched only to enter or leave a container), each
//! entry costs one match on its tag and one capacity check, and bytes are
//! stored straight into the output's spare capacity (through an
//! [`AppendBuf`]); a short (inline) name is copied as one fixed-size block,
//! with no `memcpy` call.

use std::slice;

use super::STACK_INLINE;
use super::estimate::reserve_for;
use super::{NbtCompound, NbtList, NbtTag};
use crate::WriteError;
use crate::append::{AppendBuf, Backing};
use crate::mutf8::{InlineBlock, Mutf8Str, Mutf8String, STRING_SIZE};
use crate::options::DEFAULT_MAX_DEPTH;
use crate::simd::{self, BeNumber};
use crate::stack::{Stack, inline};
use crate::tag_id::*;

use super::layout::{HEAD, INLINE_ENTRY_ROOM};

enum Frame<'d> {
    Compound(slice::Iter<'d, (Mutf8String, NbtTag)>),
    Compounds(slice::Iter<'d, NbtCompound>),
    Lists(slice::Iter<'d, NbtList>),
}

/// Stores `bytes` at `dst`.
///
/// # Safety
/// `dst` must be valid for `N` byte writes.
#[inline(always)]
unsafe fn store<const N: usize>(dst: *mut u8, bytes: [u8; N]) {
    // SAFETY: guaranteed by the caller; unaligned writes need no alignment.
    unsafe { dst.cast::<[u8; N]>().write_unaligned(bytes) }
}

/// Copies `src` to `dst`. Strings of 8 to 32 bytes (most names and values
/// that are not inline) take two overlapping fixed-size moves instead of a
/// `memcpy` call.
///
/// # Safety
/// `dst` must be valid for `src.len()` byte writes and not overlap `src`.
#[inline(always)]
unsafe fn copy_short(dst: *mut u8, src: &[u8]) {
    let n = src.len();
    fn block<const K: usize>(s: &[u8]) -> [u8; K] {
        s.try_into().expect("K bytes")
    }
    // SAFETY: (all arms) every store ends at or before `dst + n`, which the
    // caller guarantees writable; the two stores together cover `0..n`.
    unsafe {
        if (16..=32).contains(&n) {
            store(dst, block::<16>(&src[..16]));
            store(dst.add(n - 16), block::<16>(&src[n - 16..]));
        } else if (8..16).contains(&n) {
            store(dst, block::<8>(&src[..8]));
            store(dst.add(n - 8), block::<8>(&src[n - 8..]));
        } else {
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst, n);
        }
    }
}

/// The output, appended to through its spare capacity: a write checks the
/// room (one compare on the fast path), stores at the end with plain moves
/// and bumps the length, instead of going through `extend_from_slice`'s
/// generic copy. The `Vec`'s length is brought up to date when it is used
/// directly and by `finish`, which every entry point below calls, also after
/// an error (so the entries written before it are kept).
type Out<'a> = AppendBuf<u8, &'a mut Vec<u8>>;

/// A cursor over [`Out`] for the loop over a compound's entries: it never
/// escapes, so its raw parts stay in registers, whereas `Out` itself is
/// passed to out-of-line calls and lives in memory.
type Entries<'o, 'a> = AppendBuf<u8, &'o mut Out<'a>>;

/// An entry's id, inline name `block` and `payload` (a fixed-size value),
/// with one room check.
#[inline(always)]
fn inline_entry<B: Backing<u8>, const N: usize>(
    buf: &mut AppendBuf<u8, B>,
    id: u8,
    block: InlineBlock<'_>,
    payload: [u8; N],
) {
    buf.reserve(HEAD + N);
    // SAFETY: `HEAD + N` bytes were just made spare.
    unsafe { inline_entry_in_room(buf, id, block, payload) }
}

/// [`inline_entry`] into room made before.
///
/// # Safety
/// At least `HEAD + N` bytes are spare.
#[inline(always)]
unsafe fn inline_entry_in_room<B: Backing<u8>, const N: usize>(
    buf: &mut AppendBuf<u8, B>,
    id: u8,
    block: InlineBlock<'_>,
    payload: [u8; N],
) {
    let len = block.len();
    let dst = buf.end();
    // SAFETY: `HEAD + N` bytes are spare at `dst` (the caller); the stores
    // cover `0..HEAD` and `3 + len..3 + len + N` (`3 + len <= HEAD`: an
    // inline block's length is at most `STRING_SIZE - 1`), so the
    // `3 + len + N` bytes the end moves over are stored.
    unsafe {
        store(dst, [id, 0]);
        store(dst.add(2), *block.as_array());
        store(dst.add(3 + len), payload);
        buf.advance(3 + len + N);
    }
}

impl Out<'_> {
    /// An entry's id and name, then `payload` (a fixed-size value), with one
    /// room check when the name is inline.
    #[inline(always)]
    fn entry<const N: usize>(
        &mut self,
        id: u8,
        name: &Mutf8String,
        payload: [u8; N],
    ) -> Result<(), WriteError> {
        match name.inline_block() {
            Some(block) => {
                inline_entry(self, id, block, payload);
                Ok(())
            }
            None => {
                self.put([id]);
                self.long_string(name.as_bytes())?;
                self.put(payload);
                Ok(())
            }
        }
    }

    /// An entry's id and name.
    #[inline(always)]
    fn head(&mut self, id: u8, name: &Mutf8String) -> Result<(), WriteError> {
        self.entry(id, name, [])
    }

    /// A u16-length-prefixed string, checked.
    #[inline(always)]
    fn string(&mut self, s: &Mutf8String) -> Result<(), WriteError> {
        match s.inline_block() {
            Some(block) => {
                let len = block.len();
                let dst = self.tail(1 + STRING_SIZE);
                // SAFETY: `1 + STRING_SIZE` bytes were reserved at `dst` and
                // stored; the end moves over `2 + len` of them (an inline
                // block's length is at most `STRING_SIZE - 1`).
                unsafe {
                    store(dst, [0]);
                    store(dst.add(1), *block.as_array());
                    self.advance(2 + len);
                }
                Ok(())
            }
            None => {
                let bytes = s.as_bytes();
                let n = bytes.len();
                if (16..=32).contains(&n) {
                    // Inline here too (item ids and the like): no call, no
                    // length check needed (n <= 32).
                    let dst = self.tail(2 + n);
                    // SAFETY: `2 + n` bytes were reserved at `dst`; the length
                    // and the `n` bytes are stored before the end moves.
                    unsafe {
                        store(dst, (n as u16).to_be_bytes());
                        copy_short(dst.add(2), bytes);
                        self.advance(2 + n);
                    }
                    Ok(())
                } else {
                    self.long_string(bytes)
                }
            }
        }
    }

    #[inline(never)]
    fn long_string(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        let len = u16::try_from(bytes.len())
            .map_err(|_| WriteError::StringTooLong { len: bytes.len() })?;
        let n = bytes.len();
        let dst = self.tail(2 + n);
        // SAFETY: `2 + n` bytes were reserved at `dst`; the length and the
        // `n` bytes are stored before the end moves over them.
        unsafe {
            store(dst, len.to_be_bytes());
            copy_short(dst.add(2), bytes);
            self.advance(2 + n);
        }
        Ok(())
    }

    /// An i32 length, checked.
    #[inline(always)]
    fn length(&mut self, len: usize) -> Result<(), WriteError> {
        let len = i32::try_from(len).map_err(|_| WriteError::LengthTooLarge { len })?;
        self.put(len.to_be_bytes());
        Ok(())
    }

    /// An i32 length and then the bytes.
    #[inline]
    fn byte_array(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        self.length(bytes.len())?;
        self.with_backing(|v| v.extend_from_slice(bytes));
        Ok(())
    }

    /// An i32 length and then the numbers, big-endian.
    #[inline]
    fn numbers<T: BeNumber>(&mut self, values: &[T]) -> Result<(), WriteError> {
        self.length(values.len())?;
        self.with_backing(|v| simd::extend_be_bytes(v, values));
        Ok(())
    }
}

/// Writes a u16-length-prefixed MUTF-8 string.
#[inline]
pub(crate) fn string(s: &Mutf8Str, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut out = AppendBuf::new(out);
    let r = out.long_string(s.as_bytes());
    out.finish();
    r
}

/// Element id, length, then the elements of a list of non-containers.
#[inline(never)]
fn leaf_list(list: &NbtList, out: &mut Out<'_>) -> Result<(), WriteError> {
    out.put([list.id()]);
    match list {
        NbtList::Empty => out.length(0),
        NbtList::Byte(v) => {
            out.length(v.len())?;
            out.with_backing(|out| out.extend(v.iter().map(|&b| b as u8)));
            Ok(())
        }
        NbtList::Short(v) => out.numbers(v),
        NbtList::Int(v) => out.numbers(v),
        NbtList::Long(v) => out.numbers(v),
        NbtList::Float(v) => out.numbers(v),
        NbtList::Double(v) => out.numbers(v),
        NbtList::ByteArray(v) => {
            out.length(v.len())?;
            v.iter().try_for_each(|a| out.byte_array(a))
        }
        NbtList::String(v) => {
            out.length(v.len())?;
            v.iter().try_for_each(|s| out.string(s))
        }
        NbtList::IntArray(v) => {
            out.length(v.len())?;
            v.iter().try_for_each(|a| out.numbers(a))
        }
        NbtList::LongArray(v) => {
            out.length(v.len())?;
            v.iter().try_for_each(|a| out.numbers(a))
        }
        NbtList::Compound(_) | NbtList::List(_) => unreachable!("containers are framed"),
    }
}

#[inline]
fn check_depth(depth: usize) -> Result<(), WriteError> {
    if depth > DEFAULT_MAX_DEPTH as usize {
        Err(WriteError::MaxDepthExceeded)
    } else {
        Ok(())
    }
}

/// Writes a list's header; for a list of containers, returns the frame that
/// will write its elements, otherwise writes the elements too. `depth` is the
/// depth the list has.
#[inline]
fn list<'d>(
    l: &'d NbtList,
    depth: usize,
    out: &mut Out<'_>,
) -> Result<Option<Frame<'d>>, WriteError> {
    check_depth(depth)?;
    match l {
        NbtList::Compound(items) => {
            out.put([COMPOUND]);
            out.length(items.len())?;
            Ok(Some(Frame::Compounds(items.iter())))
        }
        NbtList::List(items) => {
            out.put([LIST]);
            out.length(items.len())?;
            Ok(Some(Frame::Lists(items.iter())))
        }
        leaf => leaf_list(leaf, out).map(|()| None),
    }
}

/// Writes the contents of `cur`, a container at depth 1, and everything in
/// it. Only the containers being written around `cur` are on the stack (one
/// push when entering a container, one pop when leaving it).
fn run(cur: Option<Frame<'_>>, out: &mut Out<'_>) -> Result<(), WriteError> {
    let Some(mut cur) = cur else { return Ok(()) };
    let (mut inline, mut heap) = (inline::<_, STACK_INLINE>(), Vec::new());
    let mut stack = Stack::new(&mut inline, &mut heap);
    loop {
        // The depth of a container found in `cur`, which is at depth
        // `stack.len() + 1`.
        let depth = stack.len() + 2;
        let child = match &mut cur {
            Frame::Compound(iter) => compound_entries(iter, depth, out)?,
            Frame::Compounds(iter) => match iter.next() {
                Some(c) => {
                    check_depth(depth)?;
                    Some(Frame::Compound(c.values.iter()))
                }
                None => None,
            },
            Frame::Lists(iter) => {
                let mut child = None;
                for l in iter.by_ref() {
                    child = list(l, depth, out)?;
                    if child.is_some() {
                        break;
                    }
                }
                child
            }
        };
        match child {
            Some(child) => stack.push(std::mem::replace(&mut cur, child)),
            None => match stack.pop() {
                Some(parent) => cur = parent,
                None => return Ok(()),
            },
        }
    }
}

/// Makes room for the entries left in `iter` written inline, and the End:
/// one check per compound (and after each entry written another way)
/// instead of one per entry.
#[inline(always)]
fn reserve_entries(e: &mut Entries<'_, '_>, iter: &slice::Iter<'_, (Mutf8String, NbtTag)>) {
    e.reserve(
        iter.len()
            .saturating_mul(INLINE_ENTRY_ROOM)
            .saturating_add(1),
    );
}

/// A list's element id and its length, checked.
#[inline(always)]
fn list_head(id: u8, len: usize) -> Result<[u8; 5], WriteError> {
    let len = i32::try_from(len).map_err(|_| WriteError::LengthTooLarge { len })?;
    let [a, b, c, d] = len.to_be_bytes();
    Ok([id, a, b, c, d])
}

/// The most bytes of numbers a list written by [`short_number_list`] holds
/// (`Pos`, `Motion`, `Rotation` and the like).
const SHORT_LIST: usize = 32;

/// A number NBT lists hold: its element id and big-endian store.
trait ListNumber: BeNumber {
    const ID: u8;
    /// Stores the big-endian bytes of `self` at `dst`.
    ///
    /// # Safety
    /// `dst` is valid for `Self::SIZE` byte writes.
    unsafe fn store_be(self, dst: *mut u8);
}

macro_rules! list_number {
    ($($t:ty => $id:expr),*) => {$(
        impl ListNumber for $t {
            const ID: u8 = $id;
            #[inline(always)]
            unsafe fn store_be(self, dst: *mut u8) {
                // SAFETY: the caller.
                unsafe { store(dst, self.to_be_bytes()) }
            }
        }
    )*};
}
list_number!(i16 => SHORT, i32 => INT, i64 => LONG, f32 => FLOAT, f64 => DOUBLE);

/// Writes a List entry named by `name` if `l` is a list of at most
/// [`SHORT_LIST`] bytes of numbers: one room check and plain stores, where
/// the general path hands the buffer to the array kernels (a dispatch, a
/// `Vec` reservation and a call for a few numbers). Returns whether it did.
#[inline(always)]
fn short_number_list(e: &mut Entries<'_, '_>, name: InlineBlock<'_>, l: &NbtList) -> bool {
    #[inline(always)]
    fn put<T: ListNumber>(e: &mut Entries<'_, '_>, name: InlineBlock<'_>, values: &[T]) -> bool {
        let bytes = values.len() * T::SIZE;
        if bytes > SHORT_LIST {
            return false;
        }
        e.reserve(HEAD + 5 + SHORT_LIST);
        let name_len = name.len();
        let dst = e.end();
        // SAFETY: `HEAD + 5 + SHORT_LIST` bytes are spare at `dst`. The
        // stores cover `0..HEAD` (id, 0, name block), then from
        // `at = 3 + name_len <= HEAD` the element id, the length and
        // `bytes <= SHORT_LIST` bytes of numbers; the end moves over
        // `at + 5 + bytes` stored bytes.
        unsafe {
            store(dst, [LIST, 0]);
            store(dst.add(2), *name.as_array());
            let at = dst.add(3 + name_len);
            // At most 32 numbers: the length fits an i32.
            let [a, b, c, d] = (values.len() as i32).to_be_bytes();
            store(at, [T::ID, a, b, c, d]);
            let mut p = at.add(5);
            for &v in values {
                v.store_be(p);
                p = p.add(T::SIZE);
            }
            e.advance(3 + name_len + 5 + bytes);
        }
        true
    }
    match l {
        NbtList::Short(v) => put(e, name, v),
        NbtList::Int(v) => put(e, name, v),
        NbtList::Long(v) => put(e, name, v),
        NbtList::Float(v) => put(e, name, v),
        NbtList::Double(v) => put(e, name, v),
        _ => false,
    }
}

/// [`Out::entry`] on the cursor: a scalar entry.
///
/// # Safety
/// [`reserve_entries`] made room for this entry (it was left in the
/// iterator then, and every entry since was written inline or followed by
/// a new `reserve_entries`).
#[inline(always)]
unsafe fn scalar<const N: usize>(
    e: &mut Entries<'_, '_>,
    id: u8,
    name: &Mutf8String,
    payload: [u8; N],
) -> Result<bool, WriteError> {
    match name.inline_block() {
        Some(block) => {
            // SAFETY: `HEAD + N <= INLINE_ENTRY_ROOM` bytes are spare (the
            // caller).
            unsafe { inline_entry_in_room(e, id, block, payload) };
            Ok(false)
        }
        None => e
            .with_backing(|out| out.entry(id, name, payload))
            .map(|()| true),
    }
}

/// A String entry whose name and value are both inline: no room check.
///
/// # Safety
/// As for [`scalar`]: `INLINE_ENTRY_ROOM` bytes are spare.
#[inline(always)]
unsafe fn short_string(e: &mut Entries<'_, '_>, name: InlineBlock<'_>, value: InlineBlock<'_>) {
    let name_len = name.len();
    let value_len = value.len();
    let dst = e.end();
    // SAFETY: `INLINE_ENTRY_ROOM` bytes are spare at `dst` (the caller).
    // The stores cover `0..HEAD` (id, 0, name block) and then, from
    // `at = 3 + name_len <= HEAD` (an inline block's length is at most
    // `STRING_SIZE - 1`), `at..at + 1 + STRING_SIZE` (0, value block),
    // ending at most at `INLINE_ENTRY_ROOM`; the end moves over
    // `at + 2 + value_len` stored bytes.
    unsafe {
        store(dst, [STRING, 0]);
        store(dst.add(2), *name.as_array());
        let at = 3 + name_len;
        store(dst.add(at), [0]);
        store(dst.add(at + 1), *value.as_array());
        e.advance(3 + name_len + 2 + value_len);
    }
}

/// Writes a compound's entries until one is a container with elements to
/// write (returned as a frame, after its header), or until the End byte.
#[inline(always)]
fn compound_entries<'d>(
    iter: &mut slice::Iter<'d, (Mutf8String, NbtTag)>,
    depth: usize,
    out: &mut Out<'_>,
) -> Result<Option<Frame<'d>>, WriteError> {
    let mut e = out.cursor();
    let r = entries(iter, depth, &mut e);
    e.finish();
    r
}

/// [`compound_entries`] on the cursor.
#[inline(always)]
fn entries<'d>(
    iter: &mut slice::Iter<'d, (Mutf8String, NbtTag)>,
    depth: usize,
    e: &mut Entries<'_, '_>,
) -> Result<Option<Frame<'d>>, WriteError> {
    reserve_entries(e, iter);
    while let Some((name, tag)) = iter.next() {
        macro_rules! continue_slow {
            () => {{
                reserve_entries(e, iter);
                continue;
            }};
        }
        // SAFETY: (the `scalar` and `short_string` calls) room was made for
        // this entry: by `reserve_entries` above while it was in `iter`,
        // and again after every entry not written inline (`slow`).
        let slow = unsafe {
            match tag {
                NbtTag::Byte(v) => scalar(e, BYTE, name, [*v as u8])?,
                NbtTag::Short(v) => scalar(e, SHORT, name, v.to_be_bytes())?,
                NbtTag::Int(v) => scalar(e, INT, name, v.to_be_bytes())?,
                NbtTag::Long(v) => scalar(e, LONG, name, v.to_be_bytes())?,
                NbtTag::Float(v) => scalar(e, FLOAT, name, v.to_be_bytes())?,
                NbtTag::Double(v) => scalar(e, DOUBLE, name, v.to_be_bytes())?,
                NbtTag::ByteArray(v) => e
                    .with_backing(|out| {
                        out.head(BYTE_ARRAY, name)?;
                        out.byte_array(v)
                    })
                    .map(|()| true)?,
                NbtTag::String(s) => match (name.inline_block(), s.inline_block()) {
                    (Some(name), Some(value)) => {
                        short_string(e, name, value);
                        false
                    }
                    _ => e
                        .with_backing(|out| {
                            out.head(STRING, name)?;
                            out.string(s)
                        })
                        .map(|()| true)?,
                },
                NbtTag::IntArray(v) => e
                    .with_backing(|out| {
                        out.head(INT_ARRAY, name)?;
                        out.numbers(v)
                    })
                    .map(|()| true)?,
                NbtTag::LongArray(v) => e
                    .with_backing(|out| {
                        out.head(LONG_ARRAY, name)?;
                        out.numbers(v)
                    })
                    .map(|()| true)?,
                NbtTag::Compound(c) => {
                    // The head is written as an entry without a payload (into
                    // the room made for it, when the name is inline).
                    scalar(e, COMPOUND, name, [])?;
                    check_depth(depth)?;
                    return Ok(Some(Frame::Compound(c.values.iter())));
                }
                // A list of containers: its whole head (name, element id,
                // length) into the compound's room, without leaving the loop.
                NbtTag::List(NbtList::Compound(items)) => {
                    check_depth(depth)?;
                    scalar(e, LIST, name, list_head(COMPOUND, items.len())?)?;
                    return Ok(Some(Frame::Compounds(items.iter())));
                }
                NbtTag::List(NbtList::List(items)) => {
                    check_depth(depth)?;
                    scalar(e, LIST, name, list_head(LIST, items.len())?)?;
                    return Ok(Some(Frame::Lists(items.iter())));
                }
                NbtTag::List(l) => {
                    if let Some(block) = name.inline_block() {
                        if short_number_list(e, block, l) {
                            // Its own room check may have used the room made
                            // for the entries left: made again below.
                            continue_slow!();
                        }
                    }
                    scalar(e, LIST, name, [])?;
                    let child = e.with_backing(|out| list(l, depth, out))?;
                    if child.is_some() {
                        return Ok(child);
                    }
                    true
                }
            }
        };
        if slow {
            reserve_entries(e, iter);
        }
    }
    // SAFETY: room for the End was made with the entries' (one byte).
    unsafe {
        e.end().write(END);
        e.advance(1);
    }
    Ok(None)
}

pub(crate) fn compound_payload(c: &NbtCompound, out: &mut Vec<u8>) -> Result<(), WriteError> {
    out.reserve(reserve_for(c));
    compound_payload_in_room(c, out)
}

/// [`compound_payload`] without the reservation (the caller made it).
pub(crate) fn compound_payload_in_room(
    c: &NbtCompound,
    out: &mut Vec<u8>,
) -> Result<(), WriteError> {
    let mut out = AppendBuf::new(out);
    let r = run(Some(Frame::Compound(c.values.iter())), &mut out);
    out.finish();
    r
}

pub(crate) fn list_payload(l: &NbtList, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut out = AppendBuf::new(out);
    let r = list(l, 1, &mut out).and_then(|first| run(first, &mut out));
    out.finish();
    r
}

pub(crate) fn tag_payload(tag: &NbtTag, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut out = AppendBuf::new(out);
    let r = tag_payload_to(tag, &mut out);
    out.finish();
    r
}

fn tag_payload_to(tag: &NbtTag, out: &mut Out<'_>) -> Result<(), WriteError> {
    let first = match tag {
        NbtTag::Compound(c) => {
            check_depth(1)?;
            Some(Frame::Compound(c.values.iter()))
        }
        NbtTag::List(l) => list(l, 1, out)?,
        NbtTag::Byte(v) => {
            out.put([*v as u8]);
            None
        }
        NbtTag::Short(v) => {
            out.put(v.to_be_bytes());
            None
        }
        NbtTag::Int(v) => {
            out.put(v.to_be_bytes());
            None
        }
        NbtTag::Long(v) => {
            out.put(v.to_be_bytes());
            None
        }
        NbtTag::Float(v) => {
            out.put(v.to_be_bytes());
            None
        }
        NbtTag::Double(v) => {
            out.put(v.to_be_bytes());
            None
        }
        NbtTag::ByteArray(v) => return out.byte_array(v),
        NbtTag::String(s) => return out.string(s),
        NbtTag::IntArray(v) => return out.numbers(v),
        NbtTag::LongArray(v) => return out.numbers(v),
    };
    run(first, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::owned::estimate::RESERVE_CAP;
    use crate::owned::{BaseNbt, Nbt};

    /// Every fast path of `Out` (inline names, 8..=32-byte copies, memcpy,
    /// number kernels, byte lists, nested frames past the inline stack),
    /// checked by reading the bytes back. Small enough for Miri.
    #[test]
    fn round_trips_every_path() {
        let names: Vec<Mutf8String> = [0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40]
            .iter()
            .map(|&n| Mutf8String::from_slice(&vec![b'n'; n]))
            .chain([
                Mutf8String::from_vec(b"heap".to_vec()),
                Mutf8String::from_vec(b"heap-but-short".to_vec()),
                Mutf8String::from("a\0b"),
            ])
            .collect();
        let mut root = NbtCompound::new();
        for (i, name) in names.iter().enumerate() {
            let mut c = NbtCompound::new();
            c.push(name.clone(), i as i8);
            c.push(name.clone(), -(i as i16));
            c.push(name.clone(), i as i32 * 1000);
            c.push(name.clone(), i as i64 * -1_000_000_007);
            c.push(name.clone(), i as f32 / 3.0);
            c.push(name.clone(), f64::from(i as u32) / 7.0);
            c.push(name.clone(), NbtTag::String(name.clone()));
            c.push(name.clone(), vec![i as u8; i]);
            c.push(name.clone(), vec![i as i32; i]);
            c.push(name.clone(), vec![i as i64; i]);
            c.push(name.clone(), NbtList::Byte(vec![-(i as i8); i]));
            c.push(name.clone(), NbtList::Double(vec![0.5; i]));
            c.push(name.clone(), NbtList::String(names.clone()));
            c.push(name.clone(), NbtList::IntArray(vec![vec![7; i]; 2]));
            c.push(name.clone(), NbtList::Empty);
            root.push(name.clone(), c.clone());
            root.push(name.clone(), NbtList::Compound(vec![c.clone(); 2]));
        }
        // Deeper than the inline frame stack: compounds, then lists of lists.
        let mut deep = NbtTag::Int(1);
        for level in 0..12 {
            deep = if level % 2 == 0 {
                NbtTag::Compound(NbtCompound::from_values(vec![("d".into(), deep)]))
            } else {
                NbtTag::List(NbtList::List(vec![
                    NbtList::Empty,
                    NbtList::Compound(vec![NbtCompound::from_values(vec![("e".into(), deep)])]),
                ]))
            };
        }
        root.insert("deep", deep);
        let nbt = Nbt::Some(BaseNbt::new("root", root));
        let mut bytes = vec![0xAA]; // writing appends
        nbt.write(&mut bytes).unwrap();
        assert_eq!(bytes[0], 0xAA);
        let back = crate::owned::read(&mut std::io::Cursor::new(&bytes[1..])).unwrap();
        assert_eq!(back, nbt);
        let mut again = Vec::new();
        back.write(&mut again).unwrap();
        assert_eq!(again, bytes[1..]);
    }

    /// The estimate allocates the output once: a document written into an
    /// empty `Vec` keeps the capacity its first reservation asked for (a
    /// regrowth would at least double it), on every corpus file that reads
    /// into an owned tree with a compound root and writes under half of
    /// [`RESERVE_CAP`] (the Anvil chunks among them, whose sections lists
    /// are where a sampling of fewer elements fell short); and it is capped.
    #[test]
    #[cfg_attr(miri, ignore = "reads the corpus from the cargo registry")]
    fn estimate_allocates_once() {
        let mut regrown = Vec::new();
        for name in corpus::all_names() {
            let bytes = corpus::load(name).unwrap();
            let Ok(Nbt::Some(nbt)) = crate::owned::read(&mut std::io::Cursor::new(bytes)) else {
                continue;
            };
            let reserved = 3 + nbt.name().len() + reserve_for(&nbt);
            let mut out = Vec::new();
            nbt.write(&mut out).unwrap();
            assert_eq!(out, bytes, "{name}");
            if out.capacity() != reserved.max(8) {
                regrown.push((name, reserved, out.len()));
            }
        }
        // Only the generated files of about 1 MiB and more may grow: past
        // the cap, or (generated_unicode_1m, 4% short) a list of 1,000
        // strings sized from three.
        for (name, _, len) in &regrown {
            assert!(*len > RESERVE_CAP / 2, "{name} regrew: {regrown:?}");
        }
        // A list sized from three elements unlike the rest is capped.
        let big = NbtCompound::from_values(vec![("a".into(), NbtTag::ByteArray(vec![0; 1 << 16]))]);
        let mut list = vec![NbtCompound::new(); 1000];
        list[0] = big.clone();
        list[500] = big.clone();
        list[999] = big;
        let mut root = NbtCompound::new();
        root.insert("l", NbtList::Compound(list));
        assert_eq!(reserve_for(&root), RESERVE_CAP);
    }

    #[test]
    fn errors_keep_their_order() {
        let long = Mutf8String::from_vec(vec![b'x'; 70_000]);
        let mut c = NbtCompound::new();
        c.insert("ok", 1i8);
        c.insert(long.clone(), 2i8);
        let mut out = Vec::new();
        assert!(matches!(
            c.write(&mut out),
            Err(WriteError::StringTooLong { len: 70_000 })
        ));
        assert_eq!(out[..5], [BYTE, 0, 2, b'o', b'k'], "earlier entries kept");
        let mut out = Vec::new();
        assert!(matches!(
            NbtTag::String(long).write(&mut out),
            Err(WriteError::StringTooLong { len: 70_000 })
        ));
    }
}
