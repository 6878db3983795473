//! Encoding `str` to MUTF-8: a copy only when the text holds U+0000 or
//! characters above U+FFFF.

use std::borrow::Cow;

/// Bytes that force a copy when encoding: `00` (U+0000 becomes `C0 80`) and
/// the lead bytes of 4-byte UTF-8 sequences (they become 6 bytes).
#[inline]
pub(super) fn needs_encoding(b: u8) -> bool {
    b == 0 || b >= 0xF0
}

/// Index of the first byte for which [`needs_encoding`] holds. Scans in
/// blocks with a branch-free fold, which LLVM vectorises.
#[inline]
pub(super) fn first_needing_encoding(bytes: &[u8]) -> Option<usize> {
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
