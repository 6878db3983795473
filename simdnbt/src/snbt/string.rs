//! Strings: quoted strings and their escapes, unquoted strings, and how the
//! printer quotes and escapes (see the module docs of [`super`]).

use super::error::{ErrorKind, PrintError};
use crate::Mutf8String;
use crate::mutf8;

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

/// Whether an ASCII byte is copied into a quoted string as is.
#[inline]
fn is_plain_quoted(b: u8, quote: u8) -> bool {
    (0x20..0x7F).contains(&b) && b != quote && b != b'\\'
}

/// Prints a MUTF-8 string as a quoted SNBT string: `"` unless the string holds
/// `"` and no `'`; the quote and `\` escaped; control characters as `\n`, `\t`,
/// `\r`, `\b`, `\f` or `\xHH`; unpaired surrogates as `\uDXXX`; everything
/// else as UTF-8.
pub(super) fn write_quoted(out: &mut Vec<u8>, s: &[u8]) -> Result<(), PrintError> {
    // Most strings are plain printable ASCII without quotes or `\`: one pass.
    if s.iter().all(|&b| is_plain_quoted(b, b'"') && b != b'\'') {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s);
        out.push(b'"');
        return Ok(());
    }
    let quote = if s.contains(&b'"') && !s.contains(&b'\'') {
        b'\''
    } else {
        b'"'
    };
    out.push(quote);
    let mut i = 0;
    while i < s.len() {
        let run = s[i..]
            .iter()
            .position(|&b| !is_plain_quoted(b, quote))
            .unwrap_or(s.len() - i);
        out.extend_from_slice(&s[i..i + run]);
        i += run;
        if i == s.len() {
            break;
        }
        let b = s[i];
        if b < 0x80 {
            match b {
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\r' => out.extend_from_slice(b"\\r"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0C => out.extend_from_slice(b"\\f"),
                b'\\' => out.extend_from_slice(b"\\\\"),
                _ if b == quote => out.extend_from_slice(&[b'\\', quote]),
                _ => push_hex_escape(out, b'x', b as u32, 2),
            }
            i += 1;
            continue;
        }
        // Fast: a 2- or 3-byte sequence that is the same in MUTF-8 and UTF-8
        // (not U+0000 as C0 80, not a C1 control, not a surrogate, not
        // overlong) is copied as it is.
        let cont = |k: usize| s.get(i + k).is_some_and(|&c| c & 0xC0 == 0x80);
        let same = match b {
            0xC2 => cont(1) && s[i + 1] >= 0xA0,
            0xC3..=0xDF => cont(1),
            0xE0 => cont(1) && cont(2) && s[i + 1] >= 0xA0,
            0xED => cont(1) && cont(2) && s[i + 1] < 0xA0,
            0xE1..=0xEF => cont(1) && cont(2),
            _ => false,
        };
        if same {
            let len = if b < 0xE0 { 2 } else { 3 };
            out.extend_from_slice(&s[i..i + len]);
            i += len;
            continue;
        }
        if b >= 0xF0 {
            // 4-byte UTF-8 is not MUTF-8, but non-Java writers emit it: print the
            // character (it reads back in the 6-byte form Java writes).
            let c = s
                .get(i..i + 4)
                .and_then(|q| std::str::from_utf8(q).ok())
                .and_then(|q| q.chars().next())
                .ok_or(PrintError::InvalidString)?;
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            i += 4;
            continue;
        }
        let (unit, len) = decode_unit(&s[i..]).ok_or(PrintError::InvalidString)?;
        i += len;
        let cp = if (0xD800..0xDC00).contains(&unit) {
            match decode_unit(&s[i..]) {
                Some((low, len2)) if (0xDC00..0xE000).contains(&low) => {
                    i += len2;
                    0x10000 + ((unit as u32 - 0xD800) << 10) + (low as u32 - 0xDC00)
                }
                _ => {
                    push_hex_escape(out, b'u', unit as u32, 4);
                    continue;
                }
            }
        } else if (0xDC00..0xE000).contains(&unit) {
            push_hex_escape(out, b'u', unit as u32, 4);
            continue;
        } else {
            unit as u32
        };
        if cp < 0x20 || (0x7F..0xA0).contains(&cp) {
            // U+0000 (stored as C0 80) and the C1 controls.
            push_hex_escape(out, b'x', cp, 2);
        } else {
            // `cp` is a scalar value: surrogates were handled above.
            let c = char::from_u32(cp).ok_or(PrintError::InvalidString)?;
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out.push(quote);
    Ok(())
}

fn push_hex_escape(out: &mut Vec<u8>, letter: u8, v: u32, digits: u32) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push(b'\\');
    out.push(letter);
    for k in (0..digits).rev() {
        out.push(HEX[((v >> (4 * k)) & 0xF) as usize]);
    }
}

/// Decodes one non-ASCII MUTF-8 sequence (2 or 3 bytes) into a UTF-16 code
/// unit. Overlong forms other than `C0 80` are rejected: they are not what
/// Java writes, and reading the printed text back would give other bytes.
fn decode_unit(s: &[u8]) -> Option<(u16, usize)> {
    let b0 = *s.first()?;
    let cont = |i: usize| s.get(i).copied().filter(|b| b & 0xC0 == 0x80);
    match b0 {
        0xC0..=0xDF => {
            let v = ((b0 as u16 & 0x1F) << 6) | (cont(1)? as u16 & 0x3F);
            (v >= 0x80 || v == 0).then_some((v, 2))
        }
        0xE0..=0xEF => {
            let v = ((b0 as u16 & 0x0F) << 12)
                | ((cont(1)? as u16 & 0x3F) << 6)
                | (cont(2)? as u16 & 0x3F);
            (v >= 0x800).then_some((v, 3))
        }
        _ => None,
    }
}
