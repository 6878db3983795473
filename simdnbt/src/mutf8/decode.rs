//! Decoding MUTF-8: checked and lossy, the fast paths and the hand-written
//! step decoder that alone knows error offsets (see the module docs).

use std::borrow::Cow;

use super::Mutf8Error;
use crate::simd;

/// Decodes MUTF-8, rejecting invalid data (see the [module rules](super)).
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

/// [`decode`] past the inlined check for short ASCII strings: the
/// borrowing check ([`as_bmp_utf8`]), then [`decode_converting`].
pub(super) fn decode_general(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    match as_bmp_utf8(bytes) {
        Some(s) => Ok(Cow::Borrowed(s)),
        None => decode_converting(bytes),
    }
}

/// [`decode`] of what [`as_bmp_utf8`] declined.
#[inline(never)]
pub(super) fn decode_converting(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    match convert(bytes) {
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
pub(super) fn decode_hand_written(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
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

/// [`decode_lossy`] past the inlined check for short ASCII strings: the
/// borrowing check ([`as_bmp_utf8`]), then [`decode_lossy_converting`].
pub(super) fn decode_lossy_general(bytes: &[u8]) -> Cow<'_, str> {
    match as_bmp_utf8(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => decode_lossy_converting(bytes),
    }
}

/// [`decode_lossy`] of what [`as_bmp_utf8`] declined.
#[inline(never)]
pub(super) fn decode_lossy_converting(bytes: &[u8]) -> Cow<'_, str> {
    match convert(bytes) {
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
pub(super) fn decode_lossy_hand_written(bytes: &[u8]) -> Cow<'_, str> {
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
pub(super) fn short_ascii(bytes: &[u8]) -> Option<&str> {
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

/// What [`convert`] made of the input.
pub(super) enum Fast<'a> {
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

/// `bytes` as a `str` when they are valid MUTF-8 that reads the same as
/// UTF-8: UTF-8 of the Basic Multilingual Plane (`simd::is_bmp_utf8`: ASCII,
/// or no `C0 80`, no surrogates, no 4-byte sequences). This is the common
/// case of every string longer than [`short_ascii`] takes, borrowed as it is.
#[inline]
pub(super) fn as_bmp_utf8(bytes: &[u8]) -> Option<&str> {
    // SAFETY: `is_bmp_utf8` is true only for ASCII bytes and for bytes that
    // `simdutf8` validated as UTF-8.
    simd::is_bmp_utf8(bytes).then(|| unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The decoding of bytes that [`as_bmp_utf8`] declined: `simd_cesu8` decodes `C0 80` and surrogate pairs (after its own
/// SIMD UTF-8 validation, which fails on them). It agrees with the module
/// rules on everything it accepts: valid UTF-8 (checked here for 4-byte
/// sequences, which it lets through) and strict MUTF-8 without raw `00`;
/// whatever it rejects goes to the hand-written decoder.
#[inline]
pub(super) fn convert(bytes: &[u8]) -> Fast<'_> {
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

pub(super) enum Prefix<'a> {
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
pub(super) fn fast_prefix(bytes: &[u8]) -> Prefix<'_> {
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
pub(super) fn first_four_byte_lead(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    for (n, block) in bytes.chunks(BLOCK).enumerate() {
        if block.iter().fold(false, |acc, &b| acc | (b >= 0xF0)) {
            return block.iter().position(|&b| b >= 0xF0).map(|p| n * BLOCK + p);
        }
    }
    None
}

/// One decoding step.
pub(super) enum Step {
    /// A character and the number of bytes it took.
    Char(char, usize),
    /// An invalid sequence of this many bytes.
    Invalid(usize),
}

/// The continuation payload of `bytes[i]`, if it is a continuation byte.
#[inline]
pub(super) fn cont(bytes: &[u8], i: usize) -> Option<u32> {
    match bytes.get(i) {
        Some(&c) if c & 0xC0 == 0x80 => Some(u32::from(c & 0x3F)),
        _ => None,
    }
}

/// Decodes the 3-byte sequence at `i` as a UTF-16 code unit, or the length
/// of the invalid prefix there.
#[inline]
pub(super) fn three_byte(bytes: &[u8], i: usize) -> Result<u32, usize> {
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
pub(super) fn step(bytes: &[u8], i: usize) -> Step {
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
pub(super) fn decode_slow(
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
