//! Number literals: `12`, `-3b`, `0xFFub`, `0b1010s`, `1_000L`, `1.5f`, `.5`,
//! `1e3d`, and their range rules (see the module docs of [`super`]).

use super::error::ErrorKind;
use crate::Number;

/// Whether `b` can be part of a number token. A token is the longest run of
/// these bytes; it must then be a number as a whole. (Vanilla parses the
/// longest number prefix and then wants a separator, and none of these bytes is
/// one, so the two always agree on what is an error.)
#[inline]
pub(super) fn is_token_byte(b: u8) -> bool {
    // The same set as an unquoted string's.
    super::string::is_unquoted_byte(b)
}

/// Whether a value starting with `b` must be a number (vanilla: a value
/// starting with `0-9 + - .` is never an unquoted string).
#[inline]
pub(super) fn starts_number(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.')
}

/// An integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IntType {
    Byte,
    Short,
    Int,
    Long,
}

impl IntType {
    fn bits(self) -> u32 {
        match self {
            IntType::Byte => 8,
            IntType::Short => 16,
            IntType::Int => 32,
            IntType::Long => 64,
        }
    }
}

/// An integer literal before its type is applied.
#[derive(Debug, Clone, Copy)]
pub(super) struct IntLiteral {
    negative: bool,
    radix: u32,
    /// `None` when the digits overflow 64 bits: out of range for every type.
    magnitude: Option<u64>,
    /// `Some(true)` for an `s…` suffix, `Some(false)` for `u…`.
    signed: Option<bool>,
    /// The type letter of the suffix, if any.
    pub(super) ty: Option<IntType>,
}

impl IntLiteral {
    /// The value as `ty`, widened to i64; vanilla's rules: decimal is signed,
    /// hex and binary unsigned unless the suffix says otherwise; an unsigned
    /// value may use the whole width (`255ub` is byte -1) but never a minus
    /// sign; anything outside the type's range is an error, never a wrap.
    pub(super) fn value(&self, ty: IntType) -> Result<i64, ErrorKind> {
        let signed = self.signed.unwrap_or(self.radix == 10);
        if !signed && self.negative {
            return Err(ErrorKind::NegativeUnsigned);
        }
        let mag = self.magnitude.ok_or(ErrorKind::NumberOutOfRange)? as u128;
        let bits = ty.bits();
        if signed {
            let limit = 1u128 << (bits - 1);
            if self.negative {
                if mag > limit {
                    return Err(ErrorKind::NumberOutOfRange);
                }
                Ok((-(mag as i128)) as i64)
            } else if mag >= limit {
                Err(ErrorKind::NumberOutOfRange)
            } else {
                Ok(mag as i64)
            }
        } else {
            if mag >> bits != 0 {
                return Err(ErrorKind::NumberOutOfRange);
            }
            // Reinterpret the unsigned bits as the signed type, then widen.
            let shift = 64 - bits;
            Ok(((mag as u64) << shift) as i64 >> shift)
        }
    }
}

/// An error and the offset in the token where it was found.
pub(super) type TokenError = (ErrorKind, usize);

/// The end of the run of digits (and `_`) accepted by `accept` from `i`, or an
/// error if the run starts or ends with `_` (vanilla: "underscore not allowed").
fn digit_run(t: &[u8], i: usize, accept: fn(u8) -> bool) -> Result<usize, TokenError> {
    let mut end = i;
    while end < t.len() && accept(t[end]) {
        end += 1;
    }
    if end > i && (t[i] == b'_' || t[end - 1] == b'_') {
        return Err((
            ErrorKind::InvalidNumber("`_` only between digits"),
            if t[i] == b'_' { i } else { end - 1 },
        ));
    }
    Ok(end)
}

fn dec(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}
fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit() || b == b'_'
}
fn bin(b: u8) -> bool {
    matches!(b, b'0' | b'1' | b'_')
}

/// The common case, decided quickly: an optional `-`, 1 to 19 decimal digits
/// (no leading zero, no `_`), then nothing or one of `b s i l` (either case).
/// `None` sends the token to the full grammar, which gives the same answer.
#[inline]
fn simple_int(t: &[u8]) -> Option<IntLiteral> {
    let negative = t.first() == Some(&b'-');
    let digits = &t[usize::from(negative)..];
    let (digits, ty) = match digits.last()? {
        b'0'..=b'9' => (digits, None),
        &c => (
            &digits[..digits.len() - 1],
            Some(match c.to_ascii_lowercase() {
                b'b' => IntType::Byte,
                b's' => IntType::Short,
                b'i' => IntType::Int,
                b'l' => IntType::Long,
                _ => return None,
            }),
        ),
    };
    if digits.is_empty() || digits.len() > 19 || (digits[0] == b'0' && digits.len() > 1) {
        return None;
    }
    let mut v: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        // 19 digits fit in a u64.
        v = v * 10 + (d - b'0') as u64;
    }
    Some(IntLiteral {
        negative,
        radix: 10,
        magnitude: Some(v),
        signed: None,
        ty,
    })
}

/// An integer literal as a number of its type (int without a suffix).
fn int_number(lit: IntLiteral) -> Result<Number, TokenError> {
    let at_start = |e| (e, 0);
    Ok(match lit.ty.unwrap_or(IntType::Int) {
        IntType::Byte => Number::Byte(lit.value(IntType::Byte).map_err(at_start)? as i8),
        IntType::Short => Number::Short(lit.value(IntType::Short).map_err(at_start)? as i16),
        IntType::Int => Number::Int(lit.value(IntType::Int).map_err(at_start)? as i32),
        IntType::Long => Number::Long(lit.value(IntType::Long).map_err(at_start)?),
    })
}

/// Parses a whole number token (see [`is_token_byte`]).
pub(super) fn parse(t: &[u8]) -> Result<Number, TokenError> {
    if let Some(lit) = simple_int(t) {
        return int_number(lit);
    }
    let start = usize::from(matches!(t.first(), Some(b'+' | b'-')));
    if let Some(n) = parse_float(t, start)? {
        return Ok(n);
    }
    int_number(parse_int(t)?)
}

/// `Ok(None)` when the token is not float-shaped (then it may be an integer).
/// Float shapes (vanilla's): `1.`, `1.5`, `.5` (each with an optional exponent
/// and suffix), `1e5` (optional suffix), `1f` / `1d`; no suffix means double.
fn parse_float(t: &[u8], start: usize) -> Result<Option<Number>, TokenError> {
    let whole_end = digit_run(t, start, dec)?;
    let has_whole = whole_end > start;
    let mut i = whole_end;
    let mut shaped = false;
    if t.get(i) == Some(&b'.') {
        let frac_end = digit_run(t, i + 1, dec)?;
        if !has_whole && frac_end == i + 1 {
            return Err((ErrorKind::InvalidNumber("expected digits after `.`"), i + 1));
        }
        i = frac_end;
        shaped = true;
    } else if !has_whole {
        return Ok(None);
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(t.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_end = digit_run(t, j, dec)?;
        if exp_end > j {
            i = exp_end;
            shaped = true;
        } else if shaped {
            return Err((ErrorKind::InvalidNumber("expected exponent digits"), j));
        }
    }
    let double = match t.get(i) {
        Some(b'f' | b'F') if i + 1 == t.len() => false,
        Some(b'd' | b'D') if i + 1 == t.len() => true,
        None if shaped => true,
        _ if shaped => return Err((ErrorKind::InvalidNumber("expected `f` or `d`"), i)),
        _ => return Ok(None),
    };
    let text = &t[..i];
    let cleaned;
    let text = if text.contains(&b'_') {
        cleaned = text
            .iter()
            .copied()
            .filter(|&b| b != b'_')
            .collect::<Vec<u8>>();
        &cleaned[..]
    } else {
        text
    };
    // The shape was checked above and is ASCII; Rust's float grammar accepts it
    // and rounds correctly, as Java's `parseFloat` / `parseDouble` do, except
    // for an exponent of 5 digits or more (see `small_exponent`).
    let text = std::str::from_utf8(text).map_err(|_| (ErrorKind::InvalidNumber("bad float"), 0))?;
    let rewritten;
    let text = match small_exponent(text) {
        Some(short) => {
            rewritten = short;
            &rewritten[..]
        }
        None => text,
    };
    let bad = |_| (ErrorKind::InvalidNumber("bad float"), 0);
    let n = if double {
        let v: f64 = text.parse().map_err(bad)?;
        if !v.is_finite() {
            return Err((ErrorKind::NonFiniteNumber, 0));
        }
        Number::Double(v)
    } else {
        let v: f32 = text.parse().map_err(bad)?;
        if !v.is_finite() {
            return Err((ErrorKind::NonFiniteNumber, 0));
        }
        Number::Float(v)
    };
    Ok(Some(n))
}

/// Significant digits kept when [`small_exponent`] rewrites a literal: more
/// than the 767 that a value halfway between two doubles (or floats) can need,
/// so that the digits cut off decide nothing but "a non-zero digit follows".
const KEPT_DIGITS: usize = 800;

/// A float literal (`[sign] digits [. digits] e [sign] digits`, no `_`, no
/// suffix) whose exponent has 5 or more digits, rewritten as the same value
/// with a small exponent; `None` for every other literal, which std reads
/// exactly as it is.
///
/// Why: std's parser is correct for any number of digits but saturates an
/// explicit exponent past 65 535, so a long significand whose exponent makes
/// up for it (`"3" × 10^6` then `e-999990`, 3.33e9) read as infinity. Rather
/// than parse floats ourselves, the significand is cut to [`KEPT_DIGITS`]
/// significant digits with a sticky `1` appended when anything non-zero was
/// cut (the decimal then lies strictly between the same two rounding
/// boundaries as the original, so std rounds it the same way), and the
/// exponent is the one that keeps the value. A value whose leading digit is
/// past 10^±400 is outside every float's range: `1e400` (infinite) or `0`.
fn small_exponent(text: &str) -> Option<String> {
    let (mantissa, exponent) = text.split_once(['e', 'E'])?;
    let exp_digits = exponent
        .trim_start_matches(['+', '-'])
        .trim_start_matches('0');
    if exp_digits.len() < 5 {
        return None;
    }
    let negative_exp = exponent.starts_with('-');
    // Saturate far past any float's range; i64 holds it with room to spare.
    let exp = exp_digits
        .bytes()
        .fold(0i64, |e, d| (e * 10 + i64::from(d - b'0')).min(1 << 40));
    let exp = if negative_exp { -exp } else { exp };
    let (sign, mantissa) = match mantissa.as_bytes().first() {
        Some(b'-') => ("-", &mantissa[1..]),
        Some(b'+') => ("", &mantissa[1..]),
        _ => ("", mantissa),
    };
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // value = digits × 10^(exp − frac.len()), with the digits' leading and
    // trailing zeros dropped.
    let digits = whole.bytes().chain(frac.bytes());
    let mut significant: Vec<u8> = digits.skip_while(|&d| d == b'0').collect();
    let mut exp = exp - frac.len() as i64;
    while significant.last() == Some(&b'0') {
        significant.pop();
        exp += 1;
    }
    if significant.is_empty() {
        return Some(format!("{sign}0"));
    }
    let leading = exp + significant.len() as i64 - 1;
    if leading > 400 {
        return Some(format!("{sign}1e400"));
    }
    if leading < -400 {
        return Some(format!("{sign}0"));
    }
    if significant.len() > KEPT_DIGITS {
        // The last digit is non-zero, so the cut drops something non-zero.
        exp += (significant.len() - KEPT_DIGITS) as i64 - 1;
        significant.truncate(KEPT_DIGITS);
        significant.push(b'1');
    }
    let significant = std::str::from_utf8(&significant).expect("ASCII digits");
    Some(format!("{sign}{significant}e{exp}"))
}

/// Parses an integer token: sign, `0x…` / `0b…` / decimal digits, suffix.
pub(super) fn parse_int(t: &[u8]) -> Result<IntLiteral, TokenError> {
    if let Some(lit) = simple_int(t) {
        return Ok(lit);
    }
    let negative = t.first() == Some(&b'-');
    let start = usize::from(matches!(t.first(), Some(b'+' | b'-')));
    let (radix, digits_start, digits_end) = if t.get(start) == Some(&b'0') {
        match t.get(start + 1) {
            Some(b'x' | b'X') => {
                let end = digit_run(t, start + 2, hex)?;
                if end == start + 2 {
                    return Err((ErrorKind::InvalidNumber("expected hex digits"), end));
                }
                (16, start + 2, end)
            }
            Some(b'b' | b'B') if matches!(t.get(start + 2), Some(b'0' | b'1' | b'_')) => {
                let end = digit_run(t, start + 2, bin)?;
                (2, start + 2, end)
            }
            Some(b'0'..=b'9') => {
                return Err((ErrorKind::InvalidNumber("octal is not supported"), start));
            }
            _ => (10, start, start + 1),
        }
    } else {
        let end = digit_run(t, start, dec)?;
        if end == start {
            return Err((ErrorKind::Expected("a number"), start));
        }
        (10, start, end)
    };
    let mut magnitude = Some(0u64);
    for &b in &t[digits_start..digits_end] {
        if b == b'_' {
            continue;
        }
        let d = (b as char).to_digit(radix).unwrap_or(0) as u64;
        magnitude = magnitude
            .and_then(|m| m.checked_mul(radix as u64))
            .and_then(|m| m.checked_add(d));
    }
    let (signed, ty) = suffix(&t[digits_end..]).ok_or((
        ErrorKind::InvalidNumber("expected a suffix b, s, i, l (optionally after u or s)"),
        digits_end,
    ))?;
    Ok(IntLiteral {
        negative,
        radix,
        magnitude,
        signed,
        ty,
    })
}

/// An integer suffix: none, a type letter, or `u`/`s` then a type letter.
fn suffix(s: &[u8]) -> Option<(Option<bool>, Option<IntType>)> {
    let ty = |b: u8| match b.to_ascii_lowercase() {
        b'b' => Some(IntType::Byte),
        b's' => Some(IntType::Short),
        b'i' => Some(IntType::Int),
        b'l' => Some(IntType::Long),
        _ => None,
    };
    match *s {
        [] => Some((None, None)),
        [t] => Some((None, Some(ty(t)?))),
        [sign, t] => {
            let signed = match sign.to_ascii_lowercase() {
                b'u' => false,
                b's' => true,
                _ => return None,
            };
            Some((Some(signed), Some(ty(t)?)))
        }
        _ => None,
    }
}
