//! `Mutf8String`: owned MUTF-8 bytes, short ones stored inline.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use super::str::eq_str;
use super::*;

/// Owned MUTF-8 bytes, kept exactly as read or encoded (they may be invalid).
///
/// Dereferences to [`Mutf8Str`]. Converting from a `str`/`String` encodes
/// exactly (`C0 80` for U+0000, 6 bytes for supplementary characters).
///
/// Strings of up to 23 bytes (15 on 32-bit targets) made by
/// [`from_slice`](Self::from_slice), `From<&str>`, `From<&Mutf8Str>`,
/// `to_owned`, `clone` or the readers are stored inline, without a heap
/// allocation (NBT names are nearly all that short, and so are most item
/// ids). [`from_vec`](Self::from_vec) and [`from_string`](Self::from_string)
/// keep the buffer they are given. The storage form is invisible: equality,
/// ordering and hashing are over the bytes, exactly as for [`Mutf8Str`].
///
/// # Examples
/// ```
/// use simdnbt::Mutf8String;
///
/// let s = Mutf8String::from("a\0b");
/// assert_eq!(s.as_bytes(), b"a\xC0\x80b");
/// assert_eq!(s, "a\0b");
/// assert_eq!(s.into_string(), "a\0b");
/// ```
// Why hand-written rather than a small-string crate (compact_str, smol_str
// and the like hold UTF-8 `str` and put their tag where suits them): the
// inline form here is laid out as the NBT length prefix's low byte followed
// by the bytes, so the owned reader makes a string by copying the 24 input
// bytes after the prefix's high byte as they are, and the writer writes one
// back as one 24-byte move: fewer owned-read and owned-write instructions
// than the 15-byte inline enum this replaced (reports/code-notes.md).
#[repr(C)]
pub struct Mutf8String {
    /// The form: `0..=INLINE_CAP` is an inline string of that length,
    /// `Tag::Heap` (24) a heap one. The other values are the niche of
    /// `Option<Mutf8String>`.
    tag: Tag,
    /// Inline: bytes `0..HEAD` of the string. Heap, on 64-bit targets: the
    /// capacity, little-endian in 56 bits.
    head: [u8; HEAD],
    /// Inline: bytes `HEAD..INLINE_CAP` of the string. Heap: the buffer.
    body: Body,
}

/// Bytes of a [`Mutf8String`]: three words on 64-bit targets (the heap
/// capacity shares the first word with the tag), four elsewhere.
#[cfg(target_pointer_width = "64")]
pub(crate) const SIZE: usize = 24;
#[cfg(not(target_pointer_width = "64"))]
pub(crate) const SIZE: usize = 4 * std::mem::size_of::<usize>();

/// The most bytes a [`Mutf8String`] stores without allocating.
pub(crate) const INLINE_CAP: usize = SIZE - 1;

/// Bytes of the inline string held by [`Mutf8String::head`].
const HEAD: usize = std::mem::size_of::<usize>() - 1;

/// The heap buffer, as a `Vec<u8>`'s raw parts.
#[repr(C)]
#[derive(Clone, Copy)]
struct Heap {
    ptr: *mut u8,
    len: usize,
    #[cfg(not(target_pointer_width = "64"))]
    cap: usize,
}

#[repr(C)]
union Body {
    bytes: [u8; SIZE - HEAD - 1],
    heap: Heap,
}

/// [`Mutf8String::tag`]: an inline length or `Heap`.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(dead_code)] // the lengths are made from a length byte (`from_block`)
enum Tag {
    L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15, L16,
    L17, L18, L19, L20, L21, L22, L23,
    // Right after the lengths, so the valid values are one range: with 0xFF
    // (a gap from 24 to 254), rustc 1.85, the MSRV, found no niche and
    // `Option<Mutf8String>` took 32 bytes.
    Heap,
}

const _: () = assert!(INLINE_CAP <= Tag::L23 as usize);
const _: () = assert!(std::mem::size_of::<Mutf8String>() == SIZE);
const _: () = assert!(std::mem::size_of::<Option<Mutf8String>>() == SIZE);
const _: () = assert!(std::mem::size_of::<Heap>() == std::mem::size_of::<Body>());
// The inline form's bytes are contiguous after the tag (no padding).
const _: () = assert!(1 + HEAD + std::mem::size_of::<Body>() == SIZE);

/// On 64-bit targets the capacity is kept in 56 bits: no allocation can be
/// that large (user address spaces are at most 2^56 bytes).
#[cfg(target_pointer_width = "64")]
const MAX_HEAP_CAP: usize = 1 << (8 * HEAD);

// SAFETY: a `Mutf8String` owns its heap buffer alone, as a `Vec<u8>` does,
// and has no interior mutability.
unsafe impl Send for Mutf8String {}
// SAFETY: as for `Send`: `&Mutf8String` only reads.
unsafe impl Sync for Mutf8String {}

/// A [`Mutf8String`]'s inline form as stored: the length (at most
/// [`INLINE_CAP`], which writers may rely on), the bytes, and then
/// unspecified bytes up to [`SIZE`]. The length byte sits right before the
/// bytes, so a zero byte and the block are a u16 big-endian length prefix and
/// the string: the writer copies it as one fixed-size move.
#[derive(Clone, Copy)]
pub(crate) struct InlineBlock<'a>(&'a [u8; SIZE]);

impl<'a> InlineBlock<'a> {
    /// The string's length, at most [`INLINE_CAP`].
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        usize::from(self.0[0])
    }

    /// The length byte and the `SIZE - 1` bytes after it.
    #[inline(always)]
    pub(crate) fn as_array(self) -> &'a [u8; SIZE] {
        self.0
    }
}

impl Mutf8String {
    /// An empty string.
    pub const fn new() -> Self {
        Self {
            tag: Tag::L0,
            head: [0; HEAD],
            body: Body {
                bytes: [0; SIZE - HEAD - 1],
            },
        }
    }

    /// The inline string whose length byte and bytes are `block`.
    ///
    /// # Safety
    /// `block[0] <= INLINE_CAP`.
    #[inline(always)]
    unsafe fn from_block(block: [u8; SIZE]) -> Self {
        // SAFETY: `Mutf8String` is `repr(C)` and `SIZE` bytes with no padding
        // (asserted above): `block[0]` becomes the tag, a valid `Tag` (the
        // inline lengths are its variants `0..=23`, and the caller
        // guarantees `block[0] <= INLINE_CAP <= 23`); the other bytes become
        // `head` (any bytes) and the `body` union (any initialized bytes;
        // read only as `bytes` in the inline form).
        unsafe { std::mem::transmute::<[u8; SIZE], Self>(block) }
    }

    /// Whether the bytes are on the heap.
    #[inline(always)]
    fn is_heap(&self) -> bool {
        self.tag == Tag::Heap
    }

    /// Wraps raw bytes without validation, keeping the buffer (no copy, even
    /// when short: freeing it here was measured to cost more than it saves
    /// when the caller allocated it just for this; use
    /// [`from_slice`](Self::from_slice) to copy short bytes inline instead).
    #[inline]
    pub fn from_vec(vec: Vec<u8>) -> Self {
        Self::heap(vec)
    }

    #[inline]
    pub(super) fn heap(vec: Vec<u8>) -> Self {
        let mut vec = std::mem::ManuallyDrop::new(vec);
        let (ptr, len, cap) = (vec.as_mut_ptr(), vec.len(), vec.capacity());
        #[cfg(target_pointer_width = "64")]
        {
            // Unreachable in practice (see `MAX_HEAP_CAP`); without it the
            // capacity would not round-trip.
            assert!(cap < MAX_HEAP_CAP, "a Mutf8String over 2^56 bytes");
            let cap = (cap as u64).to_le_bytes();
            Self {
                tag: Tag::Heap,
                head: cap[..HEAD].try_into().expect("7 bytes"),
                body: Body {
                    heap: Heap { ptr, len },
                },
            }
        }
        #[cfg(not(target_pointer_width = "64"))]
        Self {
            tag: Tag::Heap,
            head: [0; HEAD],
            body: Body {
                heap: Heap { ptr, len, cap },
            },
        }
    }

    /// The heap buffer's capacity.
    ///
    /// # Safety
    /// `self` is in the heap form.
    #[inline(always)]
    unsafe fn heap_cap(&self) -> usize {
        // The tag and `head` are the first word; the capacity is that word
        // without its low byte (the tag).
        #[cfg(target_pointer_width = "64")]
        {
            let [h0, h1, h2, h3, h4, h5, h6] = self.head;
            let word = [self.tag as u8, h0, h1, h2, h3, h4, h5, h6];
            (u64::from_le_bytes(word) >> 8) as usize
        }
        // SAFETY: the heap form keeps `heap` in `body` (the caller's promise).
        #[cfg(not(target_pointer_width = "64"))]
        unsafe {
            self.body.heap.cap
        }
    }

    /// Moves the heap buffer out as the `Vec` it came from, leaving `self`
    /// an empty inline string (so its `Drop` frees nothing).
    ///
    /// # Safety
    /// `self` is in the heap form.
    #[inline(always)]
    unsafe fn take_vec(&mut self) -> Vec<u8> {
        // SAFETY: the heap form holds a `Vec<u8>`'s raw parts, written by
        // `heap` and never changed; `self` is reset below, so the buffer
        // has one owner.
        let vec = unsafe {
            let Heap { ptr, len, .. } = self.body.heap;
            Vec::from_raw_parts(ptr, len, self.heap_cap())
        };
        self.tag = Tag::L0;
        vec
    }

    /// Copies raw bytes without validation; up to 23 bytes (15 on 32-bit
    /// targets) are stored inline (no allocation).
    ///
    /// ```
    /// use simdnbt::Mutf8String;
    ///
    /// let s = Mutf8String::from_slice(b"id");
    /// assert_eq!(s.as_bytes(), b"id");
    /// assert_eq!(s, "id");
    /// ```
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Self {
        if bytes.len() <= INLINE_CAP {
            // SAFETY: the block's length byte is `bytes.len() <= INLINE_CAP`.
            unsafe { Self::from_block(inline_block(bytes)) }
        } else {
            Self::heap(bytes.to_vec())
        }
    }

    /// Copies the u16-length-prefixed string at `data[off..]` (its prefix and
    /// bytes known to be there, as the parser checked). A short string is
    /// the `SIZE` bytes from the prefix's low byte on, copied as they are:
    /// its inline form has exactly that layout.
    #[inline(always)]
    pub(crate) fn from_prefixed(data: &[u8], off: usize) -> Self {
        if let Some(window) = data.get(off..off + 1 + SIZE) {
            // Two byte tests, not one u16 compare: with the latter's byte
            // swap the owned reader's loop kept more on the stack
            // (reports/code-notes.md).
            if window[0] == 0 && usize::from(window[1]) <= INLINE_CAP {
                let block: [u8; SIZE] = window[1..].try_into().expect("SIZE bytes");
                // SAFETY: the length byte `block[0]` is the prefix, at most
                // `INLINE_CAP` (checked just above).
                return unsafe { Self::from_block(block) };
            }
        }
        Self::from_prefixed_general(data, off)
    }

    /// Writes [`from_prefixed`](Self::from_prefixed)`(data, off)` to `dst`:
    /// a short string's block is stored straight from the input (a returned
    /// string took a detour through the stack, as the two paths join).
    ///
    /// # Safety
    /// `dst` is valid for writing a `Mutf8String` (what it held is not
    /// dropped).
    #[inline(always)]
    pub(crate) unsafe fn write_prefixed(dst: *mut Self, data: &[u8], off: usize) {
        if let Some(window) = data.get(off..off + 1 + SIZE) {
            // Two byte tests, as in `from_prefixed`.
            if window[0] == 0 && usize::from(window[1]) <= INLINE_CAP {
                let block: [u8; SIZE] = window[1..].try_into().expect("SIZE bytes");
                // SAFETY: `dst` is valid for the write (the caller); the
                // block is an inline string (its length byte, the prefix, is
                // at most `INLINE_CAP`, checked just above), which
                // `from_block` makes with the same bytes.
                unsafe { dst.cast::<[u8; SIZE]>().write_unaligned(block) };
                return;
            }
        }
        // SAFETY: the caller's promise.
        unsafe { dst.write(Self::from_prefixed_general(data, off)) }
    }

    /// [`from_prefixed`](Self::from_prefixed) for a long string, or one too
    /// close to the input's end for the `SIZE`-byte copy.
    #[inline(never)]
    fn from_prefixed_general(data: &[u8], off: usize) -> Self {
        let len = u16::from_be_bytes([data[off], data[off + 1]]) as usize;
        Self::from_slice(&data[off + 2..off + 2 + len])
    }

    /// Encodes `s`, reusing its buffer when no escaping is needed.
    pub fn from_string(s: String) -> Self {
        match encode(&s) {
            Cow::Borrowed(_) => Self::from_vec(s.into_bytes()),
            Cow::Owned(v) => Self::from_vec(v),
        }
    }

    /// Borrows as a [`Mutf8Str`].
    #[inline]
    pub fn as_str(&self) -> &Mutf8Str {
        Mutf8Str::from_slice(self.as_bytes())
    }

    /// The raw bytes.
    #[inline(always)]
    pub fn as_bytes(&self) -> &[u8] {
        let (ptr, len) = if self.is_heap() {
            // SAFETY: the heap form keeps `heap` in `body`.
            let Heap { ptr, len, .. } = unsafe { self.body.heap };
            (ptr.cast_const(), len)
        } else {
            let start = (self as *const Self).cast::<u8>().wrapping_add(1);
            (start, self.tag as usize)
        };
        // SAFETY: heap form: `ptr` and `len` are a `Vec<u8>`'s, which this
        // string owns and does not change while borrowed. Inline form: the
        // `len = tag <= INLINE_CAP` bytes after the tag are initialized
        // (`head`, then `body.bytes`: contiguous, no padding) and inside
        // `*self`, whose borrow the slice keeps.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }

    /// The inline form, for writers that copy it whole.
    #[inline(always)]
    pub(crate) fn inline_block(&self) -> Option<InlineBlock<'_>> {
        if self.is_heap() {
            return None;
        }
        // SAFETY: in the inline form all `SIZE` bytes of `*self` are
        // initialized bytes (tag, `head`, `body.bytes`; no padding), so they
        // can be read as an array for as long as `self` is borrowed.
        Some(InlineBlock(unsafe {
            &*(self as *const Self).cast::<[u8; SIZE]>()
        }))
    }

    /// The raw bytes, by value.
    pub fn into_vec(mut self) -> Vec<u8> {
        if self.is_heap() {
            // SAFETY: checked just above.
            unsafe { self.take_vec() }
        } else {
            self.as_bytes().to_vec()
        }
    }

    /// Decodes lossily (see [`decode_lossy`]), reusing the buffer when the
    /// bytes need no conversion.
    ///
    /// **Deviation from upstream simdnbt 0.10**, which returns an empty string
    /// for invalid data: here invalid sequences become U+FFFD. Use
    /// [`try_into_string`](Self::try_into_string) to detect them.
    pub fn into_string(self) -> String {
        if !self.is_heap() {
            return decode_lossy(self.as_bytes()).into_owned();
        }
        let vec = self.into_vec();
        match decode_lossy(&vec) {
            // SAFETY: `decode_lossy` borrows only when the whole input is
            // valid UTF-8 (and means the same in MUTF-8).
            Cow::Borrowed(_) => unsafe { String::from_utf8_unchecked(vec) },
            Cow::Owned(s) => s,
        }
    }

    /// Decodes, rejecting invalid data (see [`decode`]), reusing the buffer
    /// when the bytes need no conversion.
    ///
    /// # Errors
    /// [`Mutf8Error`] with the offset of the first invalid sequence. (Upstream
    /// simdnbt 0.10 returns `simd_cesu8`'s error type here instead.)
    pub fn try_into_string(self) -> Result<String, Mutf8Error> {
        if !self.is_heap() {
            return Ok(decode(self.as_bytes())?.into_owned());
        }
        let vec = self.into_vec();
        match decode(&vec)? {
            // SAFETY: `decode` borrows only when the whole input is valid
            // UTF-8 (and means the same in MUTF-8).
            Cow::Borrowed(_) => Ok(unsafe { String::from_utf8_unchecked(vec) }),
            Cow::Owned(s) => Ok(s),
        }
    }
}

/// The inline block for `bytes` (at most `INLINE_CAP` of them): the length,
/// the bytes, zeros. Copied with at most two overlapping loads and stores of
/// 16, 8 or 4 bytes (a variable-length `copy_from_slice` is a `memcpy` call).
#[inline(always)]
fn inline_block(bytes: &[u8]) -> [u8; SIZE] {
    /// Copies `bytes` (`K..=2K` of them) to `block[1..]` with two `K`-byte moves.
    #[inline(always)]
    fn two<const K: usize>(block: &mut [u8; SIZE], bytes: &[u8]) {
        let n = bytes.len();
        let first: [u8; K] = bytes[..K].try_into().expect("K bytes");
        let last: [u8; K] = bytes[n - K..].try_into().expect("K bytes");
        block[1..1 + K].copy_from_slice(&first);
        block[n + 1 - K..n + 1].copy_from_slice(&last);
    }
    let n = bytes.len();
    let mut block = [0; SIZE];
    block[0] = n as u8;
    match n {
        16.. => two::<16>(&mut block, bytes),
        8..=15 => two::<8>(&mut block, bytes),
        4..=7 => two::<4>(&mut block, bytes),
        1..=3 => {
            block[1] = bytes[0];
            block[1 + n / 2] = bytes[n / 2];
            block[n] = bytes[n - 1];
        }
        0 => {}
    }
    block
}

impl Drop for Mutf8String {
    #[inline(always)]
    fn drop(&mut self) {
        if self.is_heap() {
            drop_heap(self);
        }
    }
}

/// Frees a heap string's buffer (out of line: most strings are inline).
#[inline(never)]
fn drop_heap(s: &mut Mutf8String) {
    // SAFETY: only called on the heap form, whose `heap` and capacity are a
    // `Vec<u8>`'s raw parts (as in `take_vec`), by `drop`, after which `s`
    // is not used: the buffer is freed once. (Not `take_vec`: resetting the
    // tag is not needed here.)
    unsafe {
        let Heap { ptr, len, .. } = s.body.heap;
        drop(Vec::from_raw_parts(ptr, len, s.heap_cap()));
    }
}

impl Clone for Mutf8String {
    /// Short strings are cloned inline, whatever their source's form.
    #[inline]
    fn clone(&self) -> Self {
        match self.inline_block() {
            // SAFETY: an inline block's length byte is at most `INLINE_CAP`.
            Some(block) => unsafe { Self::from_block(*block.as_array()) },
            None => Self::from_slice(self.as_bytes()),
        }
    }
}

impl Default for Mutf8String {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for Mutf8String {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Mutf8String {}

impl PartialOrd for Mutf8String {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Mutf8String {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Mutf8String {
    /// Hashes like the [`Mutf8Str`] it dereferences to (required by `Borrow`).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl Deref for Mutf8String {
    type Target = Mutf8Str;
    fn deref(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl Borrow<Mutf8Str> for Mutf8String {
    fn borrow(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl AsRef<Mutf8Str> for Mutf8String {
    fn as_ref(&self) -> &Mutf8Str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Mutf8String {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl From<&str> for Mutf8String {
    /// Encodes exactly (see [`encode`]).
    fn from(s: &str) -> Self {
        match encode(s) {
            Cow::Borrowed(b) => Self::from_slice(b),
            Cow::Owned(v) => Self::from_vec(v),
        }
    }
}

impl From<String> for Mutf8String {
    /// Encodes exactly (see [`encode`]), reusing the buffer when possible.
    fn from(s: String) -> Self {
        Self::from_string(s)
    }
}

impl From<&Mutf8Str> for Mutf8String {
    fn from(s: &Mutf8Str) -> Self {
        s.to_owned()
    }
}

/// Decodes lossily, as [`Mutf8Str::to_str`].
impl From<&Mutf8Str> for String {
    fn from(s: &Mutf8Str) -> Self {
        s.to_str().into_owned()
    }
}

impl PartialEq<str> for Mutf8String {
    fn eq(&self, other: &str) -> bool {
        eq_str(self.as_bytes(), other)
    }
}

impl PartialEq<&str> for Mutf8String {
    fn eq(&self, other: &&str) -> bool {
        eq_str(self.as_bytes(), other)
    }
}

impl fmt::Display for Mutf8String {
    /// Writes the lossy decoding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Mutf8String {
    /// Writes the lossy decoding, quoted and escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
