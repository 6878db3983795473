//! Java's "modified UTF-8" (MUTF-8), the string encoding of NBT.
//!
//! MUTF-8 differs from UTF-8 in two ways:
//!
//! - U+0000 is written as the two bytes `C0 80`, never as a raw `00`;
//! - a character above U+FFFF is written as its UTF-16 surrogate pair, each
//!   half as its own 3-byte sequence (6 bytes in all), never as 4-byte UTF-8.
//!
//! Everything else, in particular all ASCII text, is byte-for-byte the same,
//! so the common case decodes to a borrowed `&str` with no copy.
//!
//! # Decoding rules
//!
//! The checked decoder ([`decode`], [`Mutf8Str::try_to_str`]) accepts what
//! Java's `DataInputStream.readUTF` accepts *and* what a Rust `str` can hold:
//!
//! - `C0 80` is U+0000, and a raw `00` byte is also accepted as U+0000 (as
//!   Java does);
//! - a high surrogate followed by a low surrogate is one character;
//! - unpaired surrogates, overlong forms other than `C0 80` (e.g. `C1 81`,
//!   `E0 80 80`), truncated sequences (`E2 82`), stray continuation bytes and
//!   any byte `F0`..`FF` (so every 4-byte UTF-8 sequence) are errors.
//!
//! # Comparing with `str` and looking up keys
//!
//! Because both `C0 80` and a raw `00` decode to U+0000, a string compares
//! equal to a `str` (`Mutf8Str == str`) and a compound key matches a name in
//! `get`/`contains`/`remove` when it is *either* encoding of that `str`: a key
//! holding a raw `00` (crafted input; vanilla never writes one) is found by
//! the name it decodes to. The bytes are kept as read, so writing the document
//! reproduces them. Comparing two [`Mutf8Str`]s compares bytes.
//!
//! Java's reader tolerates unpaired surrogates, so real files can contain
//! strings that no `str` can represent. The raw bytes are therefore always
//! kept ([`Mutf8Str`], [`Mutf8String`]), and decoding is explicit: a lossy form
//! that replaces each invalid sequence with U+FFFD, and a checked form that
//! reports where the invalid data starts.
//!
//! **Deviation from upstream simdnbt 0.10:** upstream's `to_str` and
//! `into_string` silently turn invalid data into `""`. Here nothing ever
//! decodes invalid data to an empty string: the same-named methods are lossy.
//!
//! # Implementation: `simd_cesu8` and what stays hand-written
//!
//! Decoding and encoding go through the `simd_cesu8` crate where it
//! measured faster, and through this module's own code where that did
//! (instruction counts per pass over each case's strings, callgrind,
//! `compare/mutf8_icount.sh`; before → after, `simd_cesu8` alone):
//!
//! - **Non-ASCII decoding** (checked and lossy) is `simd_cesu8::mutf8::decode`:
//!   SIMD UTF-8 validation, then its MUTF-8 decoder for `C0 80` and surrogate
//!   pairs. Measured: BMP text of 100 B–10 KB 380.6k → 54.2k instructions
//!   (7×; `simd_cesu8` alone 28.6k, the rest is our 4-byte scan); the
//!   non-ASCII strings of the `generated_unicode_1m` corpus file 7.85M →
//!   5.7M (UTF-8 ones) and 12.7M → 7.8M (with `C0 80` or surrogate pairs).
//!   It agrees with the rules above on everything it
//!   accepts; 4-byte UTF-8 (which it borrows as valid UTF-8) is checked for
//!   here, and whatever it rejects (invalid data, or a raw `00`, which it
//!   refuses and we accept) goes to the hand-written decoder below. That one
//!   stays because `simd_cesu8` reports no error offset ([`Mutf8Error`]
//!   gives one) and its lossy form replaces byte by byte, where ours replaces
//!   a whole invalid sequence (one U+FFFD for an unpaired surrogate).
//! - **Short ASCII** (at most 16 bytes, most names): our inlined
//!   overlapping-load check, 343 vs 1392 instructions for 16 names.
//! - **Long ASCII**: our SIMD ASCII check before `simd_cesu8`, 1.4k vs 1.8k.
//! - **Encoding**: strings that need encoding (`00`, characters above
//!   U+FFFF) and strings under 64 bytes go through `simd_cesu8::mutf8::encode`
//!   (its copy loop: 282.6k → 160.9k for text with emoji and NULs); longer
//!   strings that borrow keep our vectorised scan (long ASCII 8.8k vs
//!   29.2k, BMP text 26.3k vs 87.6k).
//! - [`encoded_len`] and the comparisons stay ours: `simd_cesu8` has no
//!   equivalent.
//!
//! # Examples
//! ```
//! use simdnbt::mutf8;
//!
//! assert_eq!(mutf8::encode("a\0b").as_ref(), b"a\xC0\x80b");
//! assert_eq!(mutf8::decode(b"a\xC0\x80b").unwrap(), "a\0b");
//! assert_eq!(mutf8::decode(b"\xED\xA0\xBD\xED\xB8\x80").unwrap(), "😀");
//! assert_eq!(mutf8::decode(b"ab\xFF").unwrap_err().valid_up_to(), 2);
//! assert_eq!(mutf8::decode_lossy(b"ab\xFF"), "ab\u{FFFD}");
//! ```
use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use crate::simd;

// ---------------------------------------------------------------------------
// Free functions

/// Bytes that force a copy when encoding: `00` (U+0000 becomes `C0 80`) and
/// the lead bytes of 4-byte UTF-8 sequences (they become 6 bytes).
#[inline]
fn needs_encoding(b: u8) -> bool {
    b == 0 || b >= 0xF0
}

/// Index of the first byte for which [`needs_encoding`] holds. Scans in
/// blocks with a branch-free fold, which LLVM vectorises.
#[inline]
fn first_needing_encoding(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    for (n, block) in bytes.chunks(BLOCK).enumerate() {
        if block.iter().fold(false, |acc, &b| acc | needs_encoding(b)) {
            return block
                .iter()
                .position(|&b| needs_encoding(b))
                .map(|p| n * BLOCK + p);
        }
    }
    None
}

/// Encodes `s` as MUTF-8.
///
/// Borrows when `s` contains no U+0000 and no character above U+FFFF (then
/// the bytes are identical); otherwise U+0000 becomes `C0 80` and every
/// supplementary character becomes two 3-byte surrogate sequences.
///
/// # Examples
/// ```
/// use std::borrow::Cow;
/// use simdnbt::mutf8::encode;
///
/// assert!(matches!(encode("minecraft:stone"), Cow::Borrowed(_)));
/// assert_eq!(encode("a\0b").as_ref(), [0x61, 0xC0, 0x80, 0x62]);
/// assert_eq!(encode("😀").as_ref(), [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
/// ```
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    // Strings under one 64-byte block, and strings that need encoding:
    // `simd_cesu8`'s check and copy loop measured faster; longer strings
    // that borrow: our vectorised scan (see the module docs).
    if s.len() < 64 || first_needing_encoding(s.as_bytes()).is_some() {
        simd_cesu8::mutf8::encode(s)
    } else {
        Cow::Borrowed(s.as_bytes())
    }
}

/// The length in bytes of the MUTF-8 encoding of `s`, without encoding it.
///
/// # Examples
/// ```
/// assert_eq!(simdnbt::mutf8::encoded_len("abc"), 3);
/// assert_eq!(simdnbt::mutf8::encoded_len("a\0b"), 4);
/// assert_eq!(simdnbt::mutf8::encoded_len("😀"), 6);
/// ```
pub fn encoded_len(s: &str) -> usize {
    // U+0000 grows by one byte (00 -> C0 80), a 4-byte character by two.
    let extra: usize = s
        .as_bytes()
        .iter()
        .map(|&b| (b == 0) as usize + 2 * (b >= 0xF0) as usize)
        .sum();
    s.len() + extra
}

/// Decodes MUTF-8, rejecting invalid data (see the [module rules](self)).
///
/// Borrows (no copy) when the bytes are plain ASCII, or valid UTF-8 without
/// 4-byte sequences (whose meaning is then identical in MUTF-8).
///
/// # Errors
/// [`Mutf8Error`] with the offset of the first invalid sequence.
///
/// # Examples
/// ```
/// use simdnbt::mutf8::decode;
///
/// assert_eq!(decode(b"a\xC0\x80b").unwrap(), "a\0b");
/// // 4-byte UTF-8 is not MUTF-8.
/// assert_eq!(decode("x😀".as_bytes()).unwrap_err().valid_up_to(), 1);
/// // An unpaired surrogate.
/// assert_eq!(decode(b"\xED\xA0\x80").unwrap_err().valid_up_to(), 0);
/// ```
#[inline]
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    if let Some(s) = short_ascii(bytes) {
        return Ok(Cow::Borrowed(s));
    }
    decode_general(bytes)
}

/// [`decode`] past the inlined check for short ASCII strings.
fn decode_general(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    match fast_decode(bytes) {
        Fast::Borrowed(s) => Ok(Cow::Borrowed(s)),
        Fast::Owned(s) => Ok(Cow::Owned(s)),
        Fast::FourByteAt(p) => Err(Mutf8Error { valid_up_to: p }),
        Fast::Declined => decode_hand_written(bytes),
    }
}

/// [`decode`] by the hand-written decoder: for input that `simd_cesu8`
/// rejects (invalid, or holding a raw `00`), to find the exact error offset
/// or accept the raw `00`.
#[cold]
fn decode_hand_written(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    let start = match fast_prefix(bytes) {
        Prefix::All(s) => return Ok(Cow::Borrowed(s)),
        Prefix::FourByteAt(p) => return Err(Mutf8Error { valid_up_to: p }),
        Prefix::Upto(n) => n,
    };
    let mut out = String::with_capacity(bytes.len());
    decode_slow(bytes, start, &mut out, false)?;
    Ok(Cow::Owned(out))
}

/// Decodes MUTF-8, replacing each invalid sequence with U+FFFD.
///
/// An invalid sequence is replaced as a whole: a truncated sequence by one
/// U+FFFD, an unpaired surrogate's 3 bytes by one U+FFFD, a complete 4-byte
/// UTF-8 sequence by one U+FFFD, and any other stray byte by one U+FFFD each.
/// Borrows under the same conditions as [`decode`].
///
/// # Examples
/// ```
/// use simdnbt::mutf8::decode_lossy;
///
/// assert_eq!(decode_lossy(b"\xED\xA0\x80!"), "\u{FFFD}!");
/// assert_eq!(decode_lossy(b"\xE2\x82"), "\u{FFFD}");
/// assert_eq!(decode_lossy(b"\xC1\x81"), "\u{FFFD}\u{FFFD}");
/// ```
#[inline]
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match short_ascii(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => decode_lossy_general(bytes),
    }
}

/// [`decode_lossy`] past the inlined check for short ASCII strings.
fn decode_lossy_general(bytes: &[u8]) -> Cow<'_, str> {
    match fast_decode(bytes) {
        Fast::Borrowed(s) => Cow::Borrowed(s),
        Fast::Owned(s) => Cow::Owned(s),
        Fast::FourByteAt(p) => {
            let mut out = String::with_capacity(bytes.len() + 2);
            let res = decode_slow(bytes, p, &mut out, true);
            debug_assert!(res.is_ok());
            Cow::Owned(out)
        }
        Fast::Declined => decode_lossy_hand_written(bytes),
    }
}

/// [`decode_lossy`] by the hand-written decoder, for input `simd_cesu8`
/// rejects: it replaces whole invalid sequences (one U+FFFD for an unpaired
/// surrogate), where `simd_cesu8`'s lossy form replaces byte by byte.
#[cold]
fn decode_lossy_hand_written(bytes: &[u8]) -> Cow<'_, str> {
    let start = match fast_prefix(bytes) {
        Prefix::All(s) => return Cow::Borrowed(s),
        Prefix::FourByteAt(p) => p,
        Prefix::Upto(n) => n,
    };
    let mut out = String::with_capacity(bytes.len() + 2);
    let res = decode_slow(bytes, start, &mut out, true);
    debug_assert!(res.is_ok());
    Cow::Owned(out)
}

/// `bytes` as a `str` if it is ASCII and at most 16 bytes long (most NBT
/// names and many values), checked with two overlapping loads instead of a
/// loop; `None` otherwise (longer, or not ASCII), for the general path.
/// Inlined into callers, so decoding a short name costs a few instructions.
#[inline(always)]
fn short_ascii(bytes: &[u8]) -> Option<&str> {
    let n = bytes.len();
    let high = match n {
        8..=16 => {
            let head = u64::from_le_bytes(bytes[..8].try_into().unwrap());
            let tail = u64::from_le_bytes(bytes[n - 8..].try_into().unwrap());
            (head | tail) & 0x8080_8080_8080_8080
        }
        4..=7 => {
            let head = u32::from_le_bytes(bytes[..4].try_into().unwrap());
            let tail = u32::from_le_bytes(bytes[n - 4..].try_into().unwrap());
            ((head | tail) & 0x8080_8080) as u64
        }
        1..=3 => ((bytes[0] | bytes[n / 2] | bytes[n - 1]) & 0x80) as u64,
        0 => 0,
        _ => return None,
    };
    // SAFETY: every byte was checked to be below 0x80 (the loads overlap and
    // cover the whole slice), and ASCII is valid UTF-8.
    (high == 0).then(|| unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// What the fast decoder made of the input.
enum Fast<'a> {
    /// Valid MUTF-8 whose bytes are the same in UTF-8.
    Borrowed(&'a str),
    /// Valid MUTF-8 (`C0 80`, surrogate pairs), decoded.
    Owned(String),
    /// Valid UTF-8 with a 4-byte sequence at this offset (not MUTF-8).
    FourByteAt(usize),
    /// Invalid, or holding a raw `00` that `simd_cesu8` rejects: the
    /// hand-written decoder decides.
    Declined,
}

/// The fast paths: our ASCII check, then `simd_cesu8` (SIMD UTF-8
/// validation, then its MUTF-8 decoder). It agrees with the module rules on
/// everything it accepts: valid UTF-8 (checked here for 4-byte sequences,
/// which it lets through) and strict MUTF-8 without raw `00`; whatever it
/// rejects goes to the hand-written decoder.
#[inline]
fn fast_decode(bytes: &[u8]) -> Fast<'_> {
    if simd::is_ascii(bytes) {
        // SAFETY: ASCII bytes are valid UTF-8.
        return Fast::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    match simd_cesu8::mutf8::decode(bytes) {
        // `ptr::eq` on the slices (address and length): the borrowed `str` is
        // the input itself, which the owned string conversions rely on.
        Ok(Cow::Borrowed(s)) if std::ptr::eq(s.as_bytes(), bytes) => {
            match first_four_byte_lead(bytes) {
                Some(p) => Fast::FourByteAt(p),
                None => Fast::Borrowed(s),
            }
        }
        Ok(Cow::Owned(s)) => Fast::Owned(s),
        _ => Fast::Declined,
    }
}

enum Prefix<'a> {
    /// The whole input is valid MUTF-8 with the same meaning as UTF-8.
    All(&'a str),
    /// The input is valid UTF-8 but has a 4-byte sequence at this offset;
    /// everything before it is valid MUTF-8.
    FourByteAt(usize),
    /// This many leading bytes are valid MUTF-8 and UTF-8 with one meaning.
    Upto(usize),
}

/// The fast paths: ASCII (SIMD check), then UTF-8 validation by std.
#[inline]
fn fast_prefix(bytes: &[u8]) -> Prefix<'_> {
    if simd::is_ascii(bytes) {
        // SAFETY: ASCII bytes are valid UTF-8.
        return Prefix::All(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    // Valid UTF-8 never contains C0/C1 or surrogate code points, so as long as
    // it has no 4-byte sequences (lead bytes F0..F4) it is valid MUTF-8 that
    // means the same (a raw 00 is U+0000 in both).
    let (valid, all) = match std::str::from_utf8(bytes) {
        Ok(_) => (bytes.len(), true),
        Err(e) => (e.valid_up_to(), false),
    };
    match first_four_byte_lead(&bytes[..valid]) {
        Some(p) => Prefix::FourByteAt(p),
        None if all => {
            // SAFETY: `from_utf8` accepted the whole input just above.
            Prefix::All(unsafe { std::str::from_utf8_unchecked(bytes) })
        }
        None => Prefix::Upto(valid),
    }
}

/// Index of the first byte `>= F0` (branch-free block scan).
#[inline]
fn first_four_byte_lead(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    for (n, block) in bytes.chunks(BLOCK).enumerate() {
        if block.iter().fold(false, |acc, &b| acc | (b >= 0xF0)) {
            return block.iter().position(|&b| b >= 0xF0).map(|p| n * BLOCK + p);
        }
    }
    None
}

/// One decoding step.
enum Step {
    /// A character and the number of bytes it took.
    Char(char, usize),
    /// An invalid sequence of this many bytes.
    Invalid(usize),
}

/// The continuation payload of `bytes[i]`, if it is a continuation byte.
#[inline]
fn cont(bytes: &[u8], i: usize) -> Option<u32> {
    match bytes.get(i) {
        Some(&c) if c & 0xC0 == 0x80 => Some(u32::from(c & 0x3F)),
        _ => None,
    }
}

/// Decodes the 3-byte sequence at `i` as a UTF-16 code unit, or the length
/// of the invalid prefix there.
#[inline]
fn three_byte(bytes: &[u8], i: usize) -> Result<u32, usize> {
    let b0 = bytes[i];
    let c1 = cont(bytes, i + 1).ok_or(1usize)?;
    if b0 == 0xE0 && c1 < 0x20 {
        return Err(1); // overlong
    }
    let c2 = cont(bytes, i + 2).ok_or(2usize)?;
    Ok((u32::from(b0 & 0x0F) << 12) | (c1 << 6) | c2)
}

/// Decodes one character of MUTF-8 at `i` (`i < bytes.len()`).
#[inline]
fn step(bytes: &[u8], i: usize) -> Step {
    let b0 = bytes[i];
    match b0 {
        0x00..=0x7F => Step::Char(char::from(b0), 1),
        0xC0 => {
            if bytes.get(i + 1) == Some(&0x80) {
                Step::Char('\0', 2)
            } else {
                Step::Invalid(1)
            }
        }
        0xC2..=0xDF => match cont(bytes, i + 1) {
            Some(c1) => {
                let cp = (u32::from(b0 & 0x1F) << 6) | c1;
                Step::Char(char::from_u32(cp).expect("2-byte value is a char"), 2)
            }
            None => Step::Invalid(1),
        },
        0xE0..=0xEF => match three_byte(bytes, i) {
            Err(n) => Step::Invalid(n),
            Ok(hi @ 0xD800..=0xDBFF) => {
                if bytes.get(i + 3) == Some(&0xED) {
                    if let Ok(lo @ 0xDC00..=0xDFFF) = three_byte(bytes, i + 3) {
                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        return Step::Char(char::from_u32(cp).expect("pair is a char"), 6);
                    }
                }
                Step::Invalid(3)
            }
            Ok(0xDC00..=0xDFFF) => Step::Invalid(3),
            Ok(cp) => Step::Char(char::from_u32(cp).expect("non-surrogate BMP"), 3),
        },
        0xF0..=0xF4 => {
            // Not MUTF-8 at all; for lossy output swallow a well-formed 4-byte
            // UTF-8 prefix as one sequence.
            let (lo, hi) = match b0 {
                0xF0 => (0x90, 0xBF),
                0xF4 => (0x80, 0x8F),
                _ => (0x80, 0xBF),
            };
            match bytes.get(i + 1) {
                Some(&c) if (lo..=hi).contains(&c) => {}
                _ => return Step::Invalid(1),
            }
            match (cont(bytes, i + 2), cont(bytes, i + 3)) {
                (Some(_), Some(_)) => Step::Invalid(4),
                (Some(_), None) => Step::Invalid(3),
                _ => Step::Invalid(2),
            }
        }
        // Stray continuation bytes, C1, F5..FF.
        _ => Step::Invalid(1),
    }
}

/// Decodes `bytes[start..]` onto `out` (after copying the valid prefix
/// `bytes[..start]`, which must be valid UTF-8). Stops at the first error
/// unless `lossy`.
fn decode_slow(
    bytes: &[u8],
    start: usize,
    out: &mut String,
    lossy: bool,
) -> Result<(), Mutf8Error> {
    out.push_str(std::str::from_utf8(&bytes[..start]).expect("prefix is valid UTF-8"));
    let mut i = start;
    while i < bytes.len() {
        // Copy runs of ASCII in one go.
        let run = bytes[i..]
            .iter()
            .position(|&b| b >= 0x80)
            .unwrap_or(bytes.len() - i);
        if run > 0 {
            // SAFETY: the run is ASCII, which is valid UTF-8.
            out.push_str(unsafe { std::str::from_utf8_unchecked(&bytes[i..i + run]) });
            i += run;
            continue;
        }
        match step(bytes, i) {
            Step::Char(c, n) => {
                out.push(c);
                i += n;
            }
            Step::Invalid(n) => {
                if !lossy {
                    return Err(Mutf8Error { valid_up_to: i });
                }
                out.push(char::REPLACEMENT_CHARACTER);
                i += n;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Error

/// Error from a checked MUTF-8 decode: the input holds a sequence that is
/// not valid MUTF-8 or that no `str` can represent (an unpaired surrogate).
///
/// Unlike upstream simdnbt 0.10 (whose checked conversions return
/// `simd_cesu8`'s error), this type reports where the invalid data starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mutf8Error {
    valid_up_to: usize,
}
impl Mutf8Error {
    /// The number of bytes before the first invalid sequence; those bytes
    /// decode without error.
    ///
    /// ```
    /// let err = simdnbt::mutf8::decode(b"ok\xE2\x82").unwrap_err();
    /// assert_eq!(err.valid_up_to(), 2);
    /// ```
    pub fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }
}
impl fmt::Display for Mutf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid MUTF-8 at byte {}", self.valid_up_to)
    }
}
impl std::error::Error for Mutf8Error {}

// ---------------------------------------------------------------------------
// Mutf8Str

/// Borrowed MUTF-8 bytes, kept exactly as read (they may be invalid).
///
/// This is a `#[repr(transparent)]` wrapper around `[u8]`: a `&[u8]` and a
/// `&Mutf8Str` have the same layout. Equality, ordering and hashing are over
/// the raw bytes. Comparing with a `str` encodes the `str` first (free when it
/// needs no escaping), so `"a\0b"` equals the bytes `61 C0 80 62`.
///
/// # Examples
/// ```
/// use simdnbt::Mutf8Str;
///
/// let s = Mutf8Str::from_slice(b"a\xC0\x80b");
/// assert_eq!(s, "a\0b");
/// assert_eq!(s.to_str(), "a\0b");
/// let bad = Mutf8Str::from_slice(b"\xFF");
/// assert!(bad.try_to_str().is_err());
/// assert_eq!(bad.to_str(), "\u{FFFD}");
/// assert_eq!(bad.as_bytes(), b"\xFF");
/// ```
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Mutf8Str {
    bytes: [u8],
}

// The readers cast `&[u8]` to `&Mutf8Str`; keep the layouts identical.
const _: () = assert!(std::mem::size_of::<&Mutf8Str>() == std::mem::size_of::<&[u8]>());
const _: () = assert!(std::mem::align_of::<&Mutf8Str>() == std::mem::align_of::<&[u8]>());

impl Mutf8Str {
    /// Wraps raw bytes without validation (no copy).
    pub fn from_slice(bytes: &[u8]) -> &Mutf8Str {
        // SAFETY: Mutf8Str is repr(transparent) over [u8], so the fat pointer
        // keeps its length and the lifetime is carried over.
        unsafe { &*(bytes as *const [u8] as *const Mutf8Str) }
    }

    /// Encodes `s` (see [`encode`]); borrows when no escaping is needed.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use simdnbt::Mutf8Str;
    ///
    /// assert!(matches!(Mutf8Str::from_str("abc"), Cow::Borrowed(_)));
    /// assert_eq!(Mutf8Str::from_str("😀").as_bytes().len(), 6);
    /// ```
    #[allow(clippy::should_implement_trait)] // returns a Cow, not Result<Self>
    pub fn from_str(s: &str) -> Cow<'_, Mutf8Str> {
        match encode(s) {
            Cow::Borrowed(b) => Cow::Borrowed(Mutf8Str::from_slice(b)),
            Cow::Owned(vec) => Cow::Owned(Mutf8String::from_vec(vec)),
        }
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Whether every byte is ASCII (then the bytes are also a valid `str`).
    pub fn is_ascii(&self) -> bool {
        simd::is_ascii(&self.bytes)
    }

    /// Decodes lossily: each invalid sequence becomes U+FFFD (see
    /// [`decode_lossy`]). Borrows when the bytes need no conversion.
    ///
    /// **Deviation from upstream simdnbt 0.10**, whose `to_str` returns `""`
    /// for invalid data: this never drops data silently. Use
    /// [`try_to_str`](Self::try_to_str) to detect invalid data.
    #[inline]
    pub fn to_str(&self) -> Cow<'_, str> {
        decode_lossy(&self.bytes)
    }

    /// Decodes lossily; the same as [`to_str`](Self::to_str).
    #[inline]
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        decode_lossy(&self.bytes)
    }

    /// Decodes, rejecting invalid data (see [`decode`]).
    ///
    /// # Errors
    /// [`Mutf8Error`] with the offset of the first invalid sequence.
    #[inline]
    pub fn try_to_str(&self) -> Result<Cow<'_, str>, Mutf8Error> {
        decode(&self.bytes)
    }
}

impl fmt::Display for Mutf8Str {
    /// Writes the lossy decoding.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.to_string_lossy())
    }
}

impl fmt::Debug for Mutf8Str {
    /// Writes the lossy decoding, quoted and escaped like `str`'s `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.to_string_lossy(), f)
    }
}

impl ToOwned for Mutf8Str {
    type Owned = Mutf8String;
    fn to_owned(&self) -> Mutf8String {
        Mutf8String::from_slice(&self.bytes)
    }
}

impl Default for &Mutf8Str {
    fn default() -> Self {
        Mutf8Str::from_slice(&[])
    }
}

impl AsRef<[u8]> for Mutf8Str {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl AsRef<Mutf8Str> for Mutf8Str {
    fn as_ref(&self) -> &Mutf8Str {
        self
    }
}

/// Whether `bytes` is the MUTF-8 encoding of `s`, a raw `00` standing for
/// U+0000 as well as `C0 80` (see the module docs).
#[inline]
fn eq_str(bytes: &[u8], s: &str) -> bool {
    key_matches(bytes, encode(s).as_ref())
}

/// Whether a stored string `stored` equals `query`, the MUTF-8 encoding of a
/// `str` (so U+0000 in it is `C0 80`), counting a raw `00` in `stored` as U+0000.
///
/// Equal bytes decide at once; the byte walk runs only when the query holds a
/// U+0000 and the stored string is shorter, which real lookups never meet.
#[inline]
pub(crate) fn key_matches(stored: &[u8], query: &[u8]) -> bool {
    if stored.len() == query.len() {
        return stored == query;
    }
    stored.len() < query.len() && eq_raw_nul(stored, query)
}

#[cold]
fn eq_raw_nul(stored: &[u8], query: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < stored.len() && j < query.len() {
        if stored[i] == query[j] {
            j += 1;
        } else if stored[i] == 0 && query[j..].starts_with(&[0xC0, 0x80]) {
            j += 2;
        } else {
            return false;
        }
        i += 1;
    }
    i == stored.len() && j == query.len()
}

impl PartialEq<str> for Mutf8Str {
    fn eq(&self, other: &str) -> bool {
        eq_str(&self.bytes, other)
    }
}

impl PartialEq<&str> for Mutf8Str {
    fn eq(&self, other: &&str) -> bool {
        eq_str(&self.bytes, other)
    }
}

// ---------------------------------------------------------------------------
// Mutf8String

/// Owned MUTF-8 bytes, kept exactly as read or encoded (they may be invalid).
///
/// Dereferences to [`Mutf8Str`]. Converting from a `str`/`String` encodes
/// exactly (`C0 80` for U+0000, 6 bytes for supplementary characters).
///
/// Strings of up to 15 bytes made by [`from_slice`](Self::from_slice),
/// `From<&str>`, `From<&Mutf8Str>`, `to_owned` or `clone` are stored inline,
/// without a heap allocation (NBT names are nearly all that short).
/// [`from_vec`](Self::from_vec) and [`from_string`](Self::from_string) keep
/// the buffer they are given. The storage form is invisible: equality,
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
pub struct Mutf8String {
    repr: Repr,
}

/// The most bytes a [`Mutf8String`] stores without allocating.
pub(crate) const INLINE_CAP: usize = 15;

/// The inline block for `bytes` (at most `INLINE_CAP` of them): the length,
/// the bytes, zeros. Copied with at most two overlapping loads and stores of
/// 8 or 4 bytes (a variable-length `copy_from_slice` is a `memcpy` call).
#[inline(always)]
fn inline_block(bytes: &[u8]) -> [u8; INLINE_CAP + 1] {
    let n = bytes.len();
    let mut block = [0; INLINE_CAP + 1];
    block[0] = n as u8;
    match n {
        8..=INLINE_CAP => {
            block[1..9].copy_from_slice(&bytes[..8]);
            block[n - 7..n + 1].copy_from_slice(&bytes[n - 8..]);
        }
        4..=7 => {
            block[1..5].copy_from_slice(&bytes[..4]);
            block[n - 3..n + 1].copy_from_slice(&bytes[n - 4..]);
        }
        1..=3 => {
            block[1] = bytes[0];
            block[1 + n / 2] = bytes[n / 2];
            block[n] = bytes[n - 1];
        }
        _ => {}
    }
    block
}

/// `Heap`'s capacity field has a niche (it never exceeds `isize::MAX`), so this
/// enum is as small as a `Vec<u8>`.
enum Repr {
    /// `block[0]` is the length `n <= INLINE_CAP` and `block[1..=n]` the bytes
    /// (the rest is zero). The length byte sits right before the bytes, so
    /// `0x00` + the block is a u16 big-endian length prefix and the string:
    /// the writer copies it as one 16-byte move.
    Inline {
        block: [u8; INLINE_CAP + 1],
    },
    Heap(Vec<u8>),
}

// The owned tree stores one of these per tag; keep it as small as a Vec. The
// sizes are those of 64-bit targets; elsewhere the inline block is larger than
// a Vec, which costs space, not correctness.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Mutf8String>() == 24);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Mutf8String>() == std::mem::size_of::<Vec<u8>>());

impl Mutf8String {
    /// An empty string.
    pub const fn new() -> Self {
        Self {
            repr: Repr::Inline {
                block: [0; INLINE_CAP + 1],
            },
        }
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
    fn heap(vec: Vec<u8>) -> Self {
        Self {
            repr: Repr::Heap(vec),
        }
    }

    /// Copies raw bytes without validation; up to 15 bytes are stored inline
    /// (no allocation).
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
            Self {
                repr: Repr::Inline {
                    block: inline_block(bytes),
                },
            }
        } else {
            Self::heap(bytes.to_vec())
        }
    }

    /// Copies the u16-length-prefixed string at `data[off..]` (its prefix and
    /// bytes known to be there, as the parser checked). A short string is
    /// made with one 16-byte load of the prefix's low byte and what follows
    /// it, masked: its inline block has exactly that layout.
    #[inline(always)]
    pub(crate) fn from_prefixed(data: &[u8], off: usize) -> Self {
        /// `KEEP[n]`: the length byte and `n` bytes after it.
        const KEEP: [u128; INLINE_CAP + 1] = {
            let mut keep = [0; INLINE_CAP + 1];
            let mut n = 0;
            while n <= INLINE_CAP {
                keep[n] = u128::MAX >> (8 * (INLINE_CAP - n));
                n += 1;
            }
            keep
        };
        if let Some(window) = data.get(off..off + INLINE_CAP + 2) {
            if window[0] == 0 && (window[1] as usize) <= INLINE_CAP {
                let raw = u128::from_le_bytes(window[1..].try_into().unwrap());
                return Self {
                    repr: Repr::Inline {
                        block: (raw & KEEP[window[1] as usize]).to_le_bytes(),
                    },
                };
            }
        }
        Self::from_prefixed_general(data, off)
    }

    /// [`from_prefixed`](Self::from_prefixed) for a long string, or one too
    /// close to the input's end for the 16-byte load.
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
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Inline { block } => {
                let (len, bytes) = block.split_first().expect("block is not empty");
                &bytes[..usize::from(*len)]
            }
            Repr::Heap(vec) => vec,
        }
    }

    /// The inline form: the length byte followed by the 15-byte buffer
    /// (bytes past the length are zero). For writers that copy it whole.
    #[inline]
    pub(crate) fn inline_block(&self) -> Option<&[u8; INLINE_CAP + 1]> {
        match &self.repr {
            Repr::Inline { block } => Some(block),
            Repr::Heap(_) => None,
        }
    }

    /// The raw bytes, by value.
    pub fn into_vec(self) -> Vec<u8> {
        match self.repr {
            Repr::Inline { .. } => self.as_bytes().to_vec(),
            Repr::Heap(vec) => vec,
        }
    }

    /// Decodes lossily (see [`decode_lossy`]), reusing the buffer when the
    /// bytes need no conversion.
    ///
    /// **Deviation from upstream simdnbt 0.10**, which returns an empty string
    /// for invalid data: here invalid sequences become U+FFFD. Use
    /// [`try_into_string`](Self::try_into_string) to detect them.
    pub fn into_string(self) -> String {
        match self.repr {
            Repr::Heap(vec) => match decode_lossy(&vec) {
                // SAFETY: `decode_lossy` borrows only when the whole input is
                // valid UTF-8 (and means the same in MUTF-8).
                Cow::Borrowed(_) => unsafe { String::from_utf8_unchecked(vec) },
                Cow::Owned(s) => s,
            },
            Repr::Inline { .. } => decode_lossy(self.as_bytes()).into_owned(),
        }
    }

    /// Decodes, rejecting invalid data (see [`decode`]), reusing the buffer
    /// when the bytes need no conversion.
    ///
    /// # Errors
    /// [`Mutf8Error`] with the offset of the first invalid sequence. (Upstream
    /// simdnbt 0.10 returns `simd_cesu8`'s error type here instead.)
    pub fn try_into_string(self) -> Result<String, Mutf8Error> {
        match self.repr {
            Repr::Heap(vec) => match decode(&vec)? {
                // SAFETY: `decode` borrows only when the whole input is valid
                // UTF-8 (and means the same in MUTF-8).
                Cow::Borrowed(_) => Ok(unsafe { String::from_utf8_unchecked(vec) }),
                Cow::Owned(s) => Ok(s),
            },
            Repr::Inline { .. } => Ok(decode(self.as_bytes())?.into_owned()),
        }
    }
}

impl Clone for Mutf8String {
    /// Short strings are cloned inline, whatever their source's form.
    #[inline]
    fn clone(&self) -> Self {
        match &self.repr {
            Repr::Inline { block } => Self {
                repr: Repr::Inline { block: *block },
            },
            Repr::Heap(vec) => Self::from_slice(vec),
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

#[cfg(test)]
mod differential;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::tests::Rng;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    /// The overlapping-load check agrees with a byte loop for every length it
    /// takes, with one high byte at every position (and none), and declines
    /// longer inputs.
    #[test]
    fn short_ascii_checks_every_byte() {
        // Under Miri, every length the check takes and one past it.
        let longest = if cfg!(miri) { 17 } else { 24 };
        for n in 0..=longest {
            let plain: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            let got = short_ascii(&plain);
            if n <= 16 {
                assert_eq!(got.map(str::as_bytes), Some(&plain[..]), "len {n}");
            } else {
                assert_eq!(got, None, "len {n}");
            }
            for at in 0..n {
                let highs: &[u8] = if cfg!(miri) {
                    &[0x80]
                } else {
                    &[0x80, 0xC0, 0xFF]
                };
                for &high in highs {
                    let mut v = plain.clone();
                    v[at] = high;
                    assert_eq!(short_ascii(&v), None, "len {n}, {high:#x} at {at}");
                    assert_eq!(decode_lossy(&v), decode_lossy_general(&v), "len {n}");
                }
            }
        }
    }

    /// Both inline constructors give the block a byte-by-byte copy would, for
    /// every inline length, and `from_prefixed` does with or without 16 bytes
    /// after the prefix.
    #[test]
    fn inline_blocks_match_a_plain_copy() {
        for n in 0..=20usize {
            let bytes: Vec<u8> = (0..n as u8).map(|i| 0xA0 ^ i).collect();
            let s = Mutf8String::from_slice(&bytes);
            assert_eq!(s.as_bytes(), &bytes[..], "len {n}");
            if let Repr::Inline { block } = &s.repr {
                let mut want = [0u8; INLINE_CAP + 1];
                want[0] = n as u8;
                want[1..=n].copy_from_slice(&bytes);
                assert_eq!(block, &want, "len {n}");
            } else {
                assert!(n > INLINE_CAP);
            }
            let mut prefixed = vec![0xEE, (n >> 8) as u8, n as u8];
            prefixed.extend_from_slice(&bytes);
            for trailing in [0, 1, 40] {
                let mut input = prefixed.clone();
                input.extend(std::iter::repeat_n(0xFF, trailing));
                let p = Mutf8String::from_prefixed(&input, 1);
                assert_eq!(p, s, "len {n}, {trailing} trailing");
                if let (Repr::Inline { block: a }, Repr::Inline { block: b }) = (&p.repr, &s.repr) {
                    assert_eq!(a, b, "len {n}, {trailing} trailing");
                }
            }
        }
    }

    /// Independent reference encoder: Java's writeUTF over UTF-16 units.
    fn java_encode(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        for u in s.encode_utf16() {
            let u = u32::from(u);
            if u != 0 && u < 0x80 {
                out.push(u as u8);
            } else if u < 0x800 {
                out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
            } else {
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
        out
    }

    #[test]
    fn nbt_md_valid_cases() {
        let s = Mutf8Str::from_slice(&[0x61, 0xC0, 0x80, 0x62]);
        assert_eq!(s.try_to_str().unwrap(), "a\0b");
        assert_eq!(s.to_str(), "a\0b");
        assert_eq!(s, "a\0b");
        let e = Mutf8Str::from_slice(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(e.try_to_str().unwrap(), "😀");
        assert_eq!(e.to_string_lossy(), "😀");
        assert_eq!(e, "😀");
        assert_eq!(encode("a\0b").as_ref(), [0x61, 0xC0, 0x80, 0x62]);
        assert_eq!(encode("😀").as_ref(), [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(encoded_len("a\0b"), 4);
        assert_eq!(encoded_len("😀"), 6);
    }

    #[test]
    fn nbt_md_invalid_cases() {
        // (bytes, valid_up_to, lossy)
        let cases: &[(&[u8], usize, &str)] = &[
            (&[0xED, 0xA0, 0x80], 0, "\u{FFFD}"),
            (&[0xFF], 0, "\u{FFFD}"),
            (&[0xC1, 0x81], 0, "\u{FFFD}\u{FFFD}"),
            (&[0xE2, 0x82], 0, "\u{FFFD}"),
            (b"ab\xED\xA0\x80cd", 2, "ab\u{FFFD}cd"),
            (b"ab\xE2\x82", 2, "ab\u{FFFD}"),
            (b"\xC3\xA9\xFF", 2, "é\u{FFFD}"),
            (b"x\xED\xB8\x80", 1, "x\u{FFFD}"),
            (b"x\xED\xA0\xBDy", 1, "x\u{FFFD}y"),
            (b"\xED\xA0\xBD\xED\xA0\xBD", 0, "\u{FFFD}\u{FFFD}"),
            (b"\xC0", 0, "\u{FFFD}"),
            (b"\xC0\x81", 0, "\u{FFFD}\u{FFFD}"),
            (b"\xE0\x80\x80", 0, "\u{FFFD}\u{FFFD}\u{FFFD}"),
            (b"\x80", 0, "\u{FFFD}"),
            (b"a\xC0\x80\xFF", 3, "a\0\u{FFFD}"),
            ("é😀".as_bytes(), 2, "é\u{FFFD}"),
            (b"\xF0\x9F", 0, "\u{FFFD}"),
            (b"\xF5\x80", 0, "\u{FFFD}\u{FFFD}"),
        ];
        for &(bytes, valid_up_to, lossy) in cases {
            let s = Mutf8Str::from_slice(bytes);
            let err = s.try_to_str().unwrap_err();
            assert_eq!(err.valid_up_to(), valid_up_to, "{bytes:02X?}");
            assert_eq!(decode(bytes).unwrap_err(), err);
            assert_eq!(s.to_str(), lossy, "{bytes:02X?}");
            assert_eq!(decode_lossy(bytes), lossy);
            assert_eq!(s.as_bytes(), bytes, "raw bytes kept");
            let owned = s.to_owned();
            assert_eq!(owned.clone().try_into_string().unwrap_err(), err);
            assert_eq!(owned.clone().into_string(), lossy);
            assert_eq!(owned.into_vec(), bytes);
            assert!(err.to_string().contains(&valid_up_to.to_string()));
        }
    }

    #[test]
    fn four_byte_utf8_is_rejected() {
        for s in ["😀", "a😀", "\u{10000}", "\u{10FFFF}", "ééé😀"] {
            let err = decode(s.as_bytes()).unwrap_err();
            assert_eq!(err.valid_up_to(), s.find(|c: char| c > '\u{FFFF}').unwrap());
            assert_eq!(decode_lossy(s.as_bytes()).matches('\u{FFFD}').count(), 1);
        }
    }

    #[test]
    fn raw_nul_is_accepted() {
        assert_eq!(decode(b"a\0b").unwrap(), "a\0b");
        assert_eq!(decode("é\0".as_bytes()).unwrap(), "é\0");
        assert_eq!(decode(b"\0\xC0\x80").unwrap(), "\0\0");
    }

    #[test]
    fn borrows_when_possible() {
        assert!(matches!(decode(b"hello"), Ok(Cow::Borrowed(_))));
        assert!(matches!(
            decode("héllo ✓ \u{D7FF}\u{E000}".as_bytes()),
            Ok(Cow::Borrowed(_))
        ));
        assert!(matches!(decode_lossy("✓".as_bytes()), Cow::Borrowed(_)));
        assert!(matches!(decode(b"a\xC0\x80"), Ok(Cow::Owned(_))));
        assert!(matches!(encode("plain ✓ é"), Cow::Borrowed(_)));
        assert!(matches!(encode("a\0"), Cow::Owned(_)));
        assert!(matches!(Mutf8Str::from_str("abc"), Cow::Borrowed(_)));
        assert!(matches!(Mutf8Str::from_str("😀"), Cow::Owned(_)));
        let s = String::from("reuse");
        let p = s.as_ptr();
        assert_eq!(Mutf8String::from(s).as_bytes().as_ptr(), p);
        let v = b"and this".to_vec();
        let p = v.as_ptr();
        assert_eq!(Mutf8String::from_vec(v).as_bytes().as_ptr(), p);
    }

    #[test]
    fn every_char_class_round_trips() {
        let chars = [
            '\0',
            '\u{1}',
            'A',
            '\u{7F}',
            '\u{80}',
            'é',
            '\u{7FF}',
            '\u{800}',
            '✓',
            '\u{D7FF}',
            '\u{E000}',
            '\u{FFFD}',
            '\u{FFFF}',
            '\u{10000}',
            '😀',
            '\u{10FFFF}',
        ];
        for c in chars {
            let s = format!("x{c}y{c}");
            let enc = encode(&s);
            assert_eq!(enc.as_ref(), java_encode(&s), "{c:?}");
            assert_eq!(encoded_len(&s), enc.len());
            assert_eq!(decode(&enc).unwrap(), s);
            assert_eq!(decode_lossy(&enc), s);
            assert!(!enc[1..].contains(&0) || c != '\0');
            assert!(enc.iter().all(|&b| b < 0xF0), "no 4-byte sequences");
            let m = Mutf8String::from(s.as_str());
            assert_eq!(m, s.as_str());
            assert_eq!(m, *s.as_str());
            assert_eq!(Mutf8String::from(s.clone()), m);
            assert_eq!(m.clone().try_into_string().unwrap(), s);
            assert_eq!(m.to_string(), s);
        }
    }

    fn random_char(rng: &mut Rng) -> char {
        loop {
            let r = rng.next();
            let cp = match r % 6 {
                0 => (r >> 8) as u32 % 0x80,
                1 => 0x80 + (r >> 8) as u32 % 0x780,
                2 => 0x800 + (r >> 8) as u32 % 0xF800,
                3 => 0x10000 + (r >> 8) as u32 % 0x100000,
                4 => [
                    0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
                ][(r >> 8) as usize % 10],
                _ => u32::from(b'a') + (r >> 8) as u32 % 26,
            };
            if let Some(c) = char::from_u32(cp) {
                return c;
            }
        }
    }

    #[test]
    fn random_strings_round_trip() {
        let mut rng = Rng::new(0x004D_5554_4638);
        let iters = if cfg!(miri) { 40 } else { 3000 };
        for _ in 0..iters {
            let len = (rng.next() % 40) as usize;
            let s: String = (0..len).map(|_| random_char(&mut rng)).collect();
            let enc = encode(&s);
            assert_eq!(enc.as_ref(), java_encode(&s));
            assert_eq!(encoded_len(&s), enc.len());
            assert_eq!(decode(&enc).unwrap(), s);
            assert_eq!(decode_lossy(&enc), s);
            assert_eq!(Mutf8Str::from_slice(&enc), s.as_str());
        }
    }

    #[test]
    fn random_bytes_checked_and_lossy_agree() {
        let mut rng = Rng::new(0xB17E5);
        let iters = if cfg!(miri) { 60 } else { 20000 };
        let alphabet = [
            0x00, 0x41, 0x80, 0xA0, 0xBD, 0xB8, 0xC0, 0xC1, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
            0xFF, 0x9F,
        ];
        for _ in 0..iters {
            let len = (rng.next() % 12) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = rng.next();
                    if r % 3 == 0 {
                        (r >> 8) as u8
                    } else {
                        alphabet[(r >> 16) as usize % alphabet.len()]
                    }
                })
                .collect();
            let lossy = decode_lossy(&bytes);
            match decode(&bytes) {
                Ok(s) => assert_eq!(s, lossy),
                Err(e) => {
                    let n = e.valid_up_to();
                    let prefix = decode(&bytes[..n]).unwrap();
                    assert!(lossy.starts_with(&*prefix));
                    assert!(lossy[prefix.len()..].starts_with('\u{FFFD}'));
                }
            }
        }
    }

    #[test]
    fn layout_matches_byte_slices() {
        use std::mem::{align_of, size_of};
        assert_eq!(size_of::<&Mutf8Str>(), size_of::<&[u8]>());
        assert_eq!(align_of::<&Mutf8Str>(), align_of::<&[u8]>());
        let parts: [&[u8]; 2] = [b"ab", b"\xC0\x80"];
        let names: &[&Mutf8Str] =
            // SAFETY: &Mutf8Str has the layout of &[u8] (repr(transparent)).
            unsafe { &*(&parts[..] as *const [&[u8]] as *const [&Mutf8Str]) };
        assert_eq!(names[0], "ab");
        assert_eq!(names[1], "\0");
    }

    fn hash_of(v: &(impl Hash + ?Sized)) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    /// Each length around the inline limit, built every way.
    #[test]
    fn inline_and_heap_forms_agree() {
        for len in [0usize, 1, 14, 15, 16, 17, 40] {
            let bytes: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let inline_or_heap = Mutf8String::from_slice(&bytes);
            assert_eq!(inline_or_heap.inline_block().is_some(), len <= INLINE_CAP);
            let heap = Mutf8String::heap(bytes.clone());
            assert!(heap.inline_block().is_none());
            let moved = Mutf8String::from_vec(bytes.clone());
            assert!(moved.inline_block().is_none(), "from_vec keeps its buffer");
            let from_str = Mutf8String::from(std::str::from_utf8(&bytes).unwrap());
            let from_string = Mutf8String::from(String::from_utf8(bytes.clone()).unwrap());
            let owned = Mutf8Str::from_slice(&bytes).to_owned();
            for s in [
                &inline_or_heap,
                &heap,
                &moved,
                &from_str,
                &from_string,
                &owned,
            ] {
                assert_eq!(s.as_bytes(), &bytes[..]);
                assert_eq!(s.len(), len);
                assert_eq!(*s, inline_or_heap);
                assert_eq!(s.cmp(&heap), std::cmp::Ordering::Equal);
                assert_eq!(
                    s.partial_cmp(&inline_or_heap),
                    Some(std::cmp::Ordering::Equal)
                );
                assert_eq!(hash_of(s), hash_of(&heap));
                assert_eq!(hash_of(s), hash_of(Mutf8Str::from_slice(&bytes)));
                assert_eq!(s.clone(), *s);
                assert_eq!(s.clone().inline_block().is_some(), len <= INLINE_CAP);
                assert_eq!(s.clone().into_vec(), bytes);
                assert_eq!(s.clone().into_string().as_bytes(), &bytes[..]);
                assert_eq!(s.clone().try_into_string().unwrap().as_bytes(), &bytes[..]);
                assert_eq!(AsRef::<[u8]>::as_ref(s), &bytes[..]);
                assert_eq!(s.as_str().as_bytes(), &bytes[..]);
                assert_eq!(**s, *Mutf8Str::from_slice(&bytes));
                assert_eq!(format!("{s}"), std::str::from_utf8(&bytes).unwrap());
            }
            // Ordering across forms: a shorter prefix sorts first.
            if len > 0 {
                let shorter = Mutf8String::heap(bytes[..len - 1].to_vec());
                assert!(shorter < inline_or_heap);
                assert!(Mutf8String::from_slice(&bytes[..len - 1]) < heap);
            }
        }
    }

    #[test]
    fn inline_strings_keep_invalid_bytes() {
        let raw = b"\xFF\xC0\x80\xED\xA0\x80";
        let s = Mutf8String::from_slice(raw);
        assert!(s.inline_block().is_some());
        assert_eq!(s.as_bytes(), raw);
        assert!(s.clone().try_into_string().is_err());
        assert_eq!(s.clone().into_string(), "\u{FFFD}\0\u{FFFD}");
        assert_eq!(s.into_vec(), raw);
        let e = Mutf8String::from("\0\0\0\0\0\0\0\0");
        assert_eq!(e.len(), 16);
        assert!(e.inline_block().is_none());
        assert_eq!(e.as_bytes(), b"\xC0\x80".repeat(8));
    }

    #[test]
    fn sizes() {
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(std::mem::size_of::<Mutf8String>(), 24);
            assert_eq!(std::mem::size_of::<Option<Mutf8String>>(), 24);
        }
        // Any width: the niche keeps `Option` free.
        assert_eq!(
            std::mem::size_of::<Option<Mutf8String>>(),
            std::mem::size_of::<Mutf8String>()
        );
        assert_eq!(Mutf8String::default().as_bytes(), b"");
        assert_eq!(Mutf8String::new(), Mutf8String::heap(Vec::new()));
    }

    #[test]
    fn traits() {
        let hash = |v: &dyn Fn(&mut DefaultHasher)| {
            let mut h = DefaultHasher::new();
            v(&mut h);
            h.finish()
        };
        let owned = Mutf8String::from("k\0");
        let borrowed: &Mutf8Str = &owned;
        assert_eq!(hash(&|h| owned.hash(h)), hash(&|h| borrowed.hash(h)));
        let mut map = std::collections::HashMap::new();
        map.insert(owned.clone(), 1);
        assert_eq!(map.get(Mutf8Str::from_slice(b"k\xC0\x80")), Some(&1));
        assert!(Mutf8Str::from_slice(b"a") < Mutf8Str::from_slice(b"b"));
        let (a, b) = (Mutf8String::from("a"), Mutf8String::from("b"));
        assert!(a < b);
        let d: &Mutf8Str = Default::default();
        assert!(d.is_empty());
        assert_eq!(Mutf8String::default(), Mutf8String::new());
        assert_eq!(Mutf8String::new().len(), 0);
        assert_eq!(
            format!("{:?}", Mutf8Str::from_slice(b"a\"\xC0\x80\xFF")),
            "\"a\\\"\\0\u{FFFD}\""
        );
        assert_eq!(format!("{}", Mutf8Str::from_slice(b"a\xFF")), "a\u{FFFD}");
        assert_eq!(format!("{:>4}", Mutf8Str::from_slice(b"ab")), "  ab");
        assert_eq!(format!("{owned:?}"), "\"k\\0\"");
        assert_eq!(format!("{owned}"), "k\0");
        assert_eq!(AsRef::<[u8]>::as_ref(borrowed), b"k\xC0\x80");
        assert!(Mutf8Str::from_slice(b"abc").is_ascii());
        assert!(!Mutf8Str::from_slice(b"ab\xC3\xA9").is_ascii());
        assert_eq!(
            Mutf8Str::from_slice(b"a\0b"),
            "a\0b",
            "a raw 00 is U+0000 too"
        );
        assert_ne!(Mutf8Str::from_slice(b"a\0b\0"), "a\0b");
        assert_eq!(Mutf8String::from(borrowed), owned);
        assert_eq!(Mutf8String::from_vec(vec![0xFF]).as_bytes(), [0xFF]);
        assert_eq!(owned.as_str().len(), 3);
        let e: Box<dyn std::error::Error> = Box::new(decode(b"\xFF").unwrap_err());
        assert_eq!(e.to_string(), "invalid MUTF-8 at byte 0");
    }
}
