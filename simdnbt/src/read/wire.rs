//! How the numbers and lengths of a binary form are written: the type
//! parameter of the validating core ([`super::parse_in`]) and of the sinks
//! that decode values.
//!
//! Three zero-sized types, one per form of `docs/format.md`: [`BigEndian`]
//! (Java), [`LittleEndian`] (Bedrock files and LevelDB records) and
//! [`VarInt`] (Bedrock's network form: Int, Long and every count as ZigZag
//! VarInts, string lengths as unsigned VarInts). Each is a constant
//! ([`Wire::ENCODING`]) that every function here matches on, so a monomorphised
//! reader keeps only its own form's code (the Java instance's counts against
//! a core without the parameter: `reports/perf.md`).
// Without the `bedrock` feature only the Java form is read or written.
#![cfg_attr(not(feature = "bedrock"), allow(dead_code))]

use crate::error::{Error, ErrorKind};
use crate::tag_id::*;

/// How a binary NBT document writes its numbers, lengths and strings: the
/// three encodings of `docs/format.md`. One type for the whole crate: the
/// validating core's forms, the document's ([`Document::encoding`]), Bedrock
/// detection ([`bedrock::DetectedForm::encoding`]) and the `nbt` tool's `--le` /
/// `--varint`.
///
/// [`Document::encoding`]: crate::document::Document::encoding
/// [`bedrock::DetectedForm::encoding`]: crate::bedrock::DetectedForm::encoding
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Java Edition: big-endian, fixed widths, strings in MUTF-8
    /// (`docs/format.md`).
    BigEndian,
    /// Bedrock Edition files and LevelDB records: little-endian, fixed
    /// widths, strings in UTF-8 (`docs/format.md` §7; feature `bedrock`).
    LittleEndian,
    /// Bedrock's network form, as in packets: lengths are VarInts, Int and
    /// Long ZigZag VarInts, Short, Float and Double little-endian, strings
    /// UTF-8 (`docs/format.md` §7; feature `bedrock`).
    Network,
}

/// A binary form's number encoding, at the type level: the core and the
/// sinks are monomorphised over it. Implemented by the three marker types
/// only, one per [`Encoding`].
pub(crate) trait Wire: Copy + Default + 'static {
    const ENCODING: Encoding;
    /// Whether Int, Long and the lengths are VarInts (the network form).
    const VARINT: bool = matches!(Self::ENCODING, Encoding::Network);
    /// The fewest bytes a named tag's id and name length take: 3 in the
    /// fixed forms, 2 in the network form (an id and a one-byte VarInt).
    /// A constant, not a branch on [`Wire::VARINT`] in the tag loop: that
    /// branch, though constant, gave the Java loop a worse block layout
    /// (`reports/code-notes.md`).
    const HEAD_MIN: usize = if Self::VARINT { 2 } else { 3 };
}

/// Java Edition: big-endian, fixed widths.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct BigEndian;
/// Bedrock files: little-endian, fixed widths (the Java layout otherwise).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct LittleEndian;
/// Bedrock network: little-endian Short, Float and Double; ZigZag VarInt
/// Int, Long, array and list counts; unsigned VarInt string lengths.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct VarInt;

impl Wire for BigEndian {
    const ENCODING: Encoding = Encoding::BigEndian;
}
impl Wire for LittleEndian {
    const ENCODING: Encoding = Encoding::LittleEndian;
}
impl Wire for VarInt {
    const ENCODING: Encoding = Encoding::Network;
}

/// The fewest payload bytes a tag of each type takes in the network form
/// (the fixed forms' are [`TagLayout::min`]): one byte for a VarInt, so one for
/// Int, Long, a string, an array; a list's element id and count; a
/// compound's End. Indexed by `id & 15`; unknown ids 0.
pub(crate) const VARINT_MIN: [u8; 16] = {
    let mut t = [0u8; 16];
    t[BYTE as usize] = 1;
    t[SHORT as usize] = 2;
    t[INT as usize] = 1;
    t[LONG as usize] = 1;
    t[FLOAT as usize] = 4;
    t[DOUBLE as usize] = 8;
    t[BYTE_ARRAY as usize] = 1;
    t[STRING as usize] = 1;
    t[LIST as usize] = 2;
    t[COMPOUND as usize] = 1;
    t[INT_ARRAY as usize] = 1;
    t[LONG_ARRAY as usize] = 1;
    t
};

/// The fewest payload bytes of a tag of type `id & 15` in form `W`.
#[inline(always)]
pub(crate) const fn min_payload<W: Wire>(id: u8) -> usize {
    if W::VARINT {
        VARINT_MIN[(id & 15) as usize] as usize
    } else {
        LAYOUT[(id & 15) as usize].min as usize
    }
}

/// The fewest input bytes one element of an array of type `id` takes.
#[inline(always)]
pub(crate) const fn array_element_min<W: Wire>(id: u8) -> usize {
    if W::VARINT && id != BYTE_ARRAY {
        1
    } else {
        layout(id).element as usize
    }
}

#[cold]
fn err(kind: ErrorKind, at: usize) -> Error {
    Error::new(kind, at)
}

/// Reads an unsigned VarInt of at most `MAX` bytes (5 for 32 bits, 10 for
/// 64) at `*pos` and leaves `*pos` after it. An input that ends inside it is
/// [`ErrorKind::UnexpectedEof`] at the input's end; a VarInt longer than
/// `MAX` bytes, or whose last byte carries bits past the width, is
/// [`ErrorKind::InvalidVarInt`] at its first byte.
#[inline(always)]
pub(crate) fn varint<const MAX: usize>(data: &[u8], pos: &mut usize) -> Result<u64, Error> {
    let at = *pos;
    match data.get(at) {
        Some(&b) if b < 0x80 => {
            *pos = at + 1;
            Ok(b as u64)
        }
        _ => varint_long::<MAX>(data, pos),
    }
}

#[inline(never)]
fn varint_long<const MAX: usize>(data: &[u8], pos: &mut usize) -> Result<u64, Error> {
    let at = *pos;
    let bits = if MAX == 5 { 32 } else { 64 };
    let mut v = 0u64;
    for i in 0..MAX {
        let Some(&b) = data.get(at + i) else {
            return Err(err(ErrorKind::UnexpectedEof, data.len()));
        };
        v |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            if i == MAX - 1 && (b as u32) >> (bits - 7 * (MAX - 1)) != 0 {
                return Err(err(ErrorKind::InvalidVarInt, at));
            }
            *pos = at + i + 1;
            return Ok(v);
        }
    }
    Err(err(ErrorKind::InvalidVarInt, at))
}

/// A ZigZag VarInt i32 (at most 5 bytes) at `*pos`; errors as [`varint`].
#[inline(always)]
pub(crate) fn zigzag32(data: &[u8], pos: &mut usize) -> Result<i32, Error> {
    let v = varint::<5>(data, pos)? as u32;
    Ok((v >> 1) as i32 ^ -((v & 1) as i32))
}

/// A ZigZag VarInt i64 (at most 10 bytes) at `*pos`; errors as [`varint`].
#[inline(always)]
pub(crate) fn zigzag64(data: &[u8], pos: &mut usize) -> Result<i64, Error> {
    let v = varint::<10>(data, pos)?;
    Ok((v >> 1) as i64 ^ -((v & 1) as i64))
}

/// Appends `v` as an unsigned VarInt.
#[inline]
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends `v` as a ZigZag VarInt (5 bytes at most).
#[inline]
pub(crate) fn put_zigzag32(out: &mut Vec<u8>, v: i32) {
    put_varint(out, ((v << 1) ^ (v >> 31)) as u32 as u64);
}

/// Appends `v` as a ZigZag VarInt (10 bytes at most).
#[inline]
pub(crate) fn put_zigzag64(out: &mut Vec<u8>, v: i64) {
    put_varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

/// Reads a u16 at `pos` in form `W` (not the network form, whose string
/// lengths are VarInts).
///
/// # Safety
/// `pos + 2 <= data.len()`.
#[inline(always)]
pub(crate) unsafe fn u16_at<W: Wire>(data: &[u8], pos: usize) -> u16 {
    debug_assert!(pos + 2 <= data.len());
    // SAFETY: the caller checked that two bytes remain at `pos`.
    let b = unsafe { data.get_unchecked(pos..pos + 2) };
    match W::ENCODING {
        Encoding::LittleEndian => u16::from_le_bytes([b[0], b[1]]),
        _ => u16::from_be_bytes([b[0], b[1]]),
    }
}

/// Reads an i32 at `pos` in a fixed-width form `W`.
///
/// # Safety
/// `pos + 4 <= data.len()`.
#[inline(always)]
pub(crate) unsafe fn i32_at<W: Wire>(data: &[u8], pos: usize) -> i32 {
    debug_assert!(pos + 4 <= data.len());
    // SAFETY: the caller checked that four bytes remain at `pos`.
    let b = unsafe { data.get_unchecked(pos..pos + 4) };
    match W::ENCODING {
        Encoding::LittleEndian => i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        _ => i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// Decoding what the core checked: every function below takes an offset the
/// core reported for form `W` and reads the value there (panicking only on a
/// broken invariant, never on input the core accepted).
pub(crate) mod value {
    use super::*;

    /// `N` bytes at `p` as a big- or little-endian number's bytes, in
    /// big-endian order.
    #[inline(always)]
    fn fixed<W: Wire, const N: usize>(d: &[u8], p: usize) -> [u8; N] {
        let mut b: [u8; N] = d[p..p + N].try_into().unwrap();
        if !matches!(W::ENCODING, Encoding::BigEndian) {
            b.reverse();
        }
        b
    }

    #[inline(always)]
    pub(crate) fn short<W: Wire>(d: &[u8], p: usize) -> i16 {
        i16::from_be_bytes(fixed::<W, 2>(d, p))
    }

    /// The Int at `p` and the offset after it.
    #[inline(always)]
    pub(crate) fn int<W: Wire>(d: &[u8], p: usize) -> (i32, usize) {
        if W::VARINT {
            let mut q = p;
            let v = zigzag32(d, &mut q).expect("checked by the core");
            (v, q)
        } else {
            (i32::from_be_bytes(fixed::<W, 4>(d, p)), p + 4)
        }
    }

    /// The Long at `p` and the offset after it.
    #[inline(always)]
    pub(crate) fn long<W: Wire>(d: &[u8], p: usize) -> (i64, usize) {
        if W::VARINT {
            let mut q = p;
            let v = zigzag64(d, &mut q).expect("checked by the core");
            (v, q)
        } else {
            (i64::from_be_bytes(fixed::<W, 8>(d, p)), p + 8)
        }
    }

    #[inline(always)]
    pub(crate) fn float<W: Wire>(d: &[u8], p: usize) -> f32 {
        f32::from_bits(u32::from_be_bytes(fixed::<W, 4>(d, p)))
    }

    #[inline(always)]
    pub(crate) fn double<W: Wire>(d: &[u8], p: usize) -> f64 {
        f64::from_bits(u64::from_be_bytes(fixed::<W, 8>(d, p)))
    }

    /// The string whose length prefix is at `p`: its bytes.
    #[inline(always)]
    pub(crate) fn string<W: Wire>(d: &[u8], p: usize) -> &[u8] {
        let (len, start) = if W::VARINT {
            let mut q = p;
            (
                varint::<5>(d, &mut q).expect("checked by the core") as usize,
                q,
            )
        } else {
            assert!(p + 2 <= d.len());
            // SAFETY: two bytes are there (asserted).
            (unsafe { u16_at::<W>(d, p) } as usize, p + 2)
        };
        &d[start..start + len]
    }

    /// The array of type `id` whose count is at `p`: its count and its
    /// elements' bytes.
    #[inline(always)]
    pub(crate) fn array<W: Wire>(d: &[u8], id: u8, p: usize) -> (usize, &[u8]) {
        let (n, start) = if W::VARINT {
            let mut q = p;
            (
                zigzag32(d, &mut q).expect("checked by the core") as usize,
                q,
            )
        } else {
            assert!(p + 4 <= d.len());
            // SAFETY: four bytes are there (asserted).
            (unsafe { i32_at::<W>(d, p) } as usize, p + 4)
        };
        let end = if W::VARINT && id != BYTE_ARRAY {
            let mut q = start;
            for _ in 0..n {
                if id == INT_ARRAY {
                    zigzag32(d, &mut q).expect("checked by the core");
                } else {
                    zigzag64(d, &mut q).expect("checked by the core");
                }
            }
            q
        } else {
            start + n * layout(id).element as usize
        };
        (n, &d[start..end])
    }

    /// The `n` Ints of `bytes` (an IntArray's elements or a list's).
    pub(crate) fn ints<W: Wire>(bytes: &[u8], n: usize) -> Vec<i32> {
        match W::ENCODING {
            Encoding::BigEndian => crate::simd::from_be_bytes(&bytes[..n * 4]),
            Encoding::LittleEndian => bytes[..n * 4]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect(),
            Encoding::Network => {
                let mut q = 0;
                (0..n)
                    .map(|_| zigzag32(bytes, &mut q).expect("checked by the core"))
                    .collect()
            }
        }
    }

    /// The `n` Longs of `bytes`.
    pub(crate) fn longs<W: Wire>(bytes: &[u8], n: usize) -> Vec<i64> {
        match W::ENCODING {
            Encoding::BigEndian => crate::simd::from_be_bytes(&bytes[..n * 8]),
            Encoding::LittleEndian => bytes[..n * 8]
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
                .collect(),
            Encoding::Network => {
                let mut q = 0;
                (0..n)
                    .map(|_| zigzag64(bytes, &mut q).expect("checked by the core"))
                    .collect()
            }
        }
    }

    /// The number of VarInts in `bytes` (checked: whole VarInts).
    pub(crate) fn count_varints(bytes: &[u8]) -> usize {
        bytes.iter().filter(|&&b| b < 0x80).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z32(bytes: &[u8]) -> Result<(i32, usize), (ErrorKind, usize)> {
        let mut p = 0;
        zigzag32(bytes, &mut p)
            .map(|v| (v, p))
            .map_err(|e| (e.kind(), e.offset()))
    }

    fn z64(bytes: &[u8]) -> Result<(i64, usize), (ErrorKind, usize)> {
        let mut p = 0;
        zigzag64(bytes, &mut p)
            .map(|v| (v, p))
            .map_err(|e| (e.kind(), e.offset()))
    }

    /// Hand-made vectors: the ZigZag boundaries and the widest VarInts.
    #[test]
    fn zigzag_vectors() {
        assert_eq!(z32(&[0x00]), Ok((0, 1)));
        assert_eq!(z32(&[0x01]), Ok((-1, 1)));
        assert_eq!(z32(&[0x02]), Ok((1, 1)));
        assert_eq!(z32(&[0x7f]), Ok((-64, 1)));
        assert_eq!(z32(&[0x80, 0x01]), Ok((64, 2)));
        assert_eq!(z32(&[0xfe, 0xff, 0xff, 0xff, 0x0f]), Ok((i32::MAX, 5)));
        assert_eq!(z32(&[0xff, 0xff, 0xff, 0xff, 0x0f]), Ok((i32::MIN, 5)));
        assert_eq!(
            z64(&[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
            Ok((i64::MAX, 10))
        );
        assert_eq!(
            z64(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
            Ok((i64::MIN, 10))
        );
        for v in [0, 1, -1, 63, -64, 64, i32::MIN, i32::MAX, 300, -300] {
            let mut out = Vec::new();
            put_zigzag32(&mut out, v);
            assert_eq!(z32(&out), Ok((v, out.len())), "{v}");
        }
        for v in [0, -1, 1, i64::MIN, i64::MAX, i32::MIN as i64 - 1] {
            let mut out = Vec::new();
            put_zigzag64(&mut out, v);
            assert_eq!(z64(&out), Ok((v, out.len())), "{v}");
        }
    }

    /// Over-long (a sixth byte, or bits past 32 / 64 in the last) and
    /// unterminated VarInts are errors, with their offsets.
    #[test]
    fn bad_varints() {
        use ErrorKind::*;
        assert_eq!(
            z32(&[0xff, 0xff, 0xff, 0xff, 0x10]),
            Err((InvalidVarInt, 0))
        );
        assert_eq!(
            z32(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err((InvalidVarInt, 0))
        );
        assert_eq!(z32(&[0x80, 0x80]), Err((UnexpectedEof, 2)));
        assert_eq!(z32(&[]), Err((UnexpectedEof, 0)));
        assert_eq!(
            z64(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]),
            Err((InvalidVarInt, 0))
        );
        assert_eq!(z64(&[0x80; 11]), Err((InvalidVarInt, 0)));
        assert_eq!(z64(&[0x80; 9]), Err((UnexpectedEof, 9)));
        let mut p = 3;
        assert_eq!(
            varint::<5>(&[0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], &mut p)
                .map_err(|e| (e.kind(), e.offset())),
            Err((InvalidVarInt, 3))
        );
    }
}
