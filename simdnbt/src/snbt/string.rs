//! Strings: quoted strings and their escapes, unquoted strings, and how the
//! printer quotes and escapes (see the module docs of [`super`]).

use super::error::{ErrorKind, PrintError};
use crate::Mutf8String;
use crate::mutf8;
use crate::simd::ByteSet;

/// Bytes that may appear in an unquoted string (vanilla: `0-9 A-Z a-z _ - . +`),
/// as a table: keys are scanned byte by byte.
static UNQUOTED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'+');
        b += 1;
    }
    t
};

/// Whether `b` may appear in an unquoted string.
#[inline]
pub(super) fn is_unquoted_byte(b: u8) -> bool {
    UNQUOTED[b as usize]
}

/// The end of the unquoted run starting at `i`.
#[inline]
pub(super) fn unquoted_end(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && is_unquoted_byte(text[i]) {
        i += 1;
    }
    i
}

/// MUTF-8 of UTF-8 `bytes` (a run of whole characters of the text).
#[inline]
fn push_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&mutf8::encode(text));
}

/// One UTF-16 code unit as MUTF-8 (U+0000 as `C0 80`, a surrogate as its own
/// 3-byte sequence, as Java writes it).
fn push_unit(out: &mut Vec<u8>, u: u16) {
    match u {
        1..=0x7F => out.push(u as u8),
        0 | 0x80..=0x7FF => {
            out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8])
        }
        _ => out.extend_from_slice(&[
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ]),
    }
}

/// A code point as MUTF-8 (above U+FFFF as a surrogate pair).
fn push_code_point(out: &mut Vec<u8>, cp: u32) {
    if cp > 0xFFFF {
        let v = cp - 0x10000;
        push_unit(out, 0xD800 | (v >> 10) as u16);
        push_unit(out, 0xDC00 | (v & 0x3FF) as u16);
    } else {
        push_unit(out, cp as u16);
    }
}

/// Parses the quoted string whose opening quote is at `start`; returns the
/// string (MUTF-8) and the offset after the closing quote.
pub(super) fn parse_quoted(
    text: &str,
    start: usize,
) -> Result<(Mutf8String, usize), (ErrorKind, usize)> {
    let bytes = text.as_bytes();
    let quote = bytes[start];
    let mut i = start + 1;
    // Fast path: no escape before the closing quote.
    while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\\' {
        i += 1;
    }
    if i >= bytes.len() {
        return Err((ErrorKind::Expected("a closing quote"), bytes.len()));
    }
    if bytes[i] == quote {
        let s = &text[start + 1..i];
        let value = match mutf8::encode(s) {
            std::borrow::Cow::Borrowed(b) => Mutf8String::from_slice(b),
            std::borrow::Cow::Owned(v) => Mutf8String::from_vec(v),
        };
        return Ok((value, i + 1));
    }
    let mut out = Vec::with_capacity(i - start + 16);
    let mut run = start + 1;
    loop {
        while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\\' {
            i += 1;
        }
        if i >= bytes.len() {
            return Err((ErrorKind::Expected("a closing quote"), bytes.len()));
        }
        push_text(&mut out, &text[run..i]);
        if bytes[i] == quote {
            return Ok((Mutf8String::from_vec(out), i + 1));
        }
        i = escape(text, i, &mut out)?;
        run = i;
    }
}

/// Decodes the escape whose backslash is at `at`, returning the offset after it.
fn escape(text: &str, at: usize, out: &mut Vec<u8>) -> Result<usize, (ErrorKind, usize)> {
    let bytes = text.as_bytes();
    let invalid = Err((ErrorKind::InvalidEscape, at));
    let Some(&c) = bytes.get(at + 1) else {
        return invalid;
    };
    let simple = match c {
        b'\\' | b'\'' | b'"' => Some(c),
        b'b' => Some(0x08),
        b's' => Some(b' '),
        b't' => Some(b'\t'),
        b'n' => Some(b'\n'),
        b'f' => Some(0x0C),
        b'r' => Some(b'\r'),
        _ => None,
    };
    if let Some(b) = simple {
        out.push(b);
        return Ok(at + 2);
    }
    let hex_digits = match c {
        b'x' => 2,
        b'u' => 4,
        b'U' => 8,
        b'N' => return named(text, at, out),
        _ => return invalid,
    };
    let digits = bytes
        .get(at + 2..at + 2 + hex_digits)
        .ok_or((ErrorKind::InvalidEscape, at))?;
    let mut v = 0u32;
    for &d in digits {
        v = v * 16
            + (d as char)
                .to_digit(16)
                .ok_or((ErrorKind::InvalidEscape, at))?;
    }
    if v > 0x10FFFF {
        return invalid;
    }
    push_code_point(out, v);
    Ok(at + 2 + hex_digits)
}

/// `\N{NAME}`: a character by its Unicode name (case-insensitive, as Java's
/// `Character.codePointOf`).
fn named(text: &str, at: usize, out: &mut Vec<u8>) -> Result<usize, (ErrorKind, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(at + 2) != Some(&b'{') {
        return Err((ErrorKind::InvalidEscape, at));
    }
    // Unicode names are at most 88 characters; bound the search so that a
    // missing `}` costs little.
    let rest = &bytes[at + 3..];
    let close = rest
        .iter()
        .take(128)
        .position(|&b| b == b'}')
        .ok_or((ErrorKind::InvalidEscape, at))?;
    let name = &text[at + 3..at + 3 + close];
    let c = lookup_name(name).map_err(|kind| (kind, at))?;
    push_code_point(out, c as u32);
    Ok(at + 3 + close + 1)
}

#[cfg(feature = "snbt-unicode-names")]
fn lookup_name(name: &str) -> Result<char, ErrorKind> {
    exact_name(name).ok_or(ErrorKind::UnknownCharacterName)
}

#[cfg(feature = "snbt-unicode-names")]
fn exact_name(name: &str) -> Option<char> {
    // Java matches the exact name, ignoring case and surrounding whitespace;
    // `unicode_names2` matches loosely (spaces, `_`, medial `-` ignored), so
    // check the character's own name after looking it up. Names are made of
    // `A-Z 0-9 space -`; anything else cannot match (and is kept away from the
    // crate, which mishandles a leading `-`).
    let name = name.trim().to_ascii_uppercase();
    if name.starts_with('-')
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b' ' || b == b'-')
    {
        return None;
    }
    let c = unicode_names2::character(&name)?;
    let exact = unicode_names2::name(c)?.to_string() == name;
    exact.then_some(c)
}

#[cfg(not(feature = "snbt-unicode-names"))]
fn lookup_name(_name: &str) -> Result<char, ErrorKind> {
    Err(ErrorKind::CharacterNamesNotEnabled)
}

// ---------------------------------------------------------------- printing

/// Whether a key can be printed without quotes and read back as itself:
/// unquoted-string bytes, not starting with a digit, sign or dot (so that no
/// reader takes it for a number) and not `true`/`false` in any case.
fn is_plain_key(s: &[u8]) -> bool {
    match s.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {}
        _ => return false,
    }
    s.iter().all(|&b| is_unquoted_byte(b))
        && !s.eq_ignore_ascii_case(b"true")
        && !s.eq_ignore_ascii_case(b"false")
}

/// Prints a compound key: bare when that reads back the same, else quoted.
pub(super) fn write_key(out: &mut Vec<u8>, key: &[u8]) -> Result<(), PrintError> {
    if is_plain_key(key) {
        out.extend_from_slice(key);
        Ok(())
    } else {
        write_quoted(out, key)
    }
}

/// The bytes of a string that [`write_quoted`] cannot copy as they are: the
/// controls (below 0x20, and DEL), both quotes and `\\`, and the lead bytes of
/// the MUTF-8 forms that are not UTF-8 or may need an escape: `C0` (`C0 80`,
/// U+0000), `C2` (`C2 80`..`C2 9F`, the C1 controls) and `ED` (`ED A0`..`ED BF`,
/// surrogates). Every other byte is copied: ASCII, and every other 2- or
/// 3-byte sequence, which means the same in MUTF-8 and UTF-8; whatever of
/// that is not valid UTF-8 (stray continuation bytes, overlong or truncated
/// sequences) the printer's final UTF-8 check rejects.
static SPECIAL: ByteSet<7> = ByteSet::new(0x20, [b'"', b'\'', b'\\', 0x7F, 0xC0, 0xC2, 0xED]);

/// Prints a MUTF-8 string as a quoted SNBT string: `"` unless the string holds
/// `"` and no `'`; the quote and `\` escaped; control characters as `\n`, `\t`,
/// `\r`, `\b`, `\f` or `\xHH`; unpaired surrogates as `\uDXXX`; everything
/// else as UTF-8.
///
/// The bytes that need work are found with [`SPECIAL`] (16 at a time) and
/// the runs between are copied in one piece, so non-ASCII text costs about
/// what ASCII does. Bytes that are not valid MUTF-8 are either refused here
/// (`InvalidString`) or copied, and then refused by the UTF-8 check the
/// printer makes over all its output: every piece written here starts with
/// an ASCII byte or a lead byte and is whole, so a copied invalid sequence
/// stays invalid in the output.
pub(super) fn write_quoted(out: &mut Vec<u8>, s: &[u8]) -> Result<(), PrintError> {
    let mut i = SPECIAL.find(s, 0);
    out.reserve(s.len() + 2);
    // The opening quote, changed to `'` at the first `"` if no `'` follows.
    let open = out.len();
    out.push(b'"');
    // The quote, once the first quote character decided it.
    let mut quote = None;
    // The start of the run not yet copied.
    let mut run = 0;
    while i < s.len() {
        let b = s[i];
        // Bytes that turn out to need no change stay in the run.
        let kept = match b {
            b'"' | b'\'' => {
                let q = *quote.get_or_insert_with(|| {
                    if b == b'"' && !s[i + 1..].contains(&b'\'') {
                        out[open] = b'\'';
                        b'\''
                    } else {
                        b'"'
                    }
                });
                if b == q {
                    out.extend_from_slice(&s[run..i]);
                    out.extend_from_slice(&[b'\\', q]);
                    i + 1
                } else {
                    i
                }
            }
            0xC2 => match s.get(i + 1) {
                Some(&c) if (0xA0..0xC0).contains(&c) => i,
                Some(&c) if (0x80..0xA0).contains(&c) => {
                    // A C1 control.
                    out.extend_from_slice(&s[run..i]);
                    push_hex_escape(out, b'x', c as u32, 2);
                    i + 2
                }
                _ => return Err(PrintError::InvalidString),
            },
            0xC0 if s.get(i + 1) == Some(&0x80) => {
                out.extend_from_slice(&s[run..i]);
                out.extend_from_slice(b"\\x00");
                i + 2
            }
            0xC0 => return Err(PrintError::InvalidString),
            0xED => {
                match ed_sequence(s, i)? {
                    // U+D000..U+D7FF: the same in UTF-8.
                    None => i,
                    Some(high @ 0xD800..0xDC00) => {
                        out.extend_from_slice(&s[run..i]);
                        match ed_sequence(s, i + 3) {
                            Ok(Some(low @ 0xDC00..0xE000)) => {
                                let cp = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                                push_utf8_supplementary(out, cp);
                                i + 6
                            }
                            _ => {
                                push_hex_escape(out, b'u', high, 4);
                                i + 3
                            }
                        }
                    }
                    Some(low) => {
                        out.extend_from_slice(&s[run..i]);
                        push_hex_escape(out, b'u', low, 4);
                        i + 3
                    }
                }
            }
            _ => {
                // An ASCII control, DEL or `\\`.
                out.extend_from_slice(&s[run..i]);
                match b {
                    b'\n' => out.extend_from_slice(b"\\n"),
                    b'\t' => out.extend_from_slice(b"\\t"),
                    b'\r' => out.extend_from_slice(b"\\r"),
                    0x08 => out.extend_from_slice(b"\\b"),
                    0x0C => out.extend_from_slice(b"\\f"),
                    b'\\' => out.extend_from_slice(b"\\\\"),
                    _ => push_hex_escape(out, b'x', b as u32, 2),
                }
                i + 1
            }
        };
        if kept == i {
            // Copied with the run: skip the whole sequence.
            i += if b < 0x80 {
                1
            } else if b < 0xE0 {
                2
            } else {
                3
            };
        } else {
            i = kept;
            run = kept;
        }
        i = SPECIAL.find(s, i);
    }
    out.extend_from_slice(&s[run..]);
    out.push(quote.unwrap_or(b'"'));
    Ok(())
}

/// The 3-byte sequence at `at`, which should start with `ED`: its UTF-16
/// code unit if it is a surrogate (`ED A0`..`ED BF`), `None` if it is
/// U+D000..U+D7FF (the same in UTF-8), `Err` if it is no such sequence.
fn ed_sequence(s: &[u8], at: usize) -> Result<Option<u32>, PrintError> {
    match s.get(at..at + 3) {
        Some(&[0xED, c1, c2]) if c1 & 0xC0 == 0x80 && c2 & 0xC0 == 0x80 => {
            Ok((c1 >= 0xA0).then_some(0xD000 | ((c1 as u32 & 0x3F) << 6) | (c2 as u32 & 0x3F)))
        }
        _ => Err(PrintError::InvalidString),
    }
}

/// A code point above U+FFFF as 4-byte UTF-8.
fn push_utf8_supplementary(out: &mut Vec<u8>, cp: u32) {
    out.extend_from_slice(&[
        0xF0 | (cp >> 18) as u8,
        0x80 | ((cp >> 12) & 0x3F) as u8,
        0x80 | ((cp >> 6) & 0x3F) as u8,
        0x80 | (cp & 0x3F) as u8,
    ]);
}

fn push_hex_escape(out: &mut Vec<u8>, letter: u8, v: u32, digits: u32) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push(b'\\');
    out.push(letter);
    for k in (0..digits).rev() {
        out.push(HEX[((v >> (4 * k)) & 0xF) as usize]);
    }
}
