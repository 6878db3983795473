//! The one lossy MUTF-8 rule every test and adapter uses to turn raw string bytes
//! into a canonical `String`: simdnbt's own [`simdnbt::mutf8::decode_lossy`].
//!
//! The rule (docs/format.md §2; pinned by [`CASES`] and this module's tests):
//!
//! - `C0 80` and a surrogate pair decode as Java's `DataInputStream.readUTF` does
//!   (U+0000; one supplementary character);
//! - a raw `00` byte is U+0000 too (Java's reader accepts it; so does simdnbt's
//!   checked decoder, so the lossy form must not disagree with it);
//! - every invalid sequence becomes U+FFFD, *as a whole* where it is a recognisable
//!   unit (an unpaired surrogate's 3 bytes, a truncated sequence, a 4-byte UTF-8
//!   sequence) and *per byte* otherwise: the overlong `C1 81` is two stray bytes, so
//!   two U+FFFD (as `String::from_utf8_lossy` also gives).
//!
//! Before this kit, `compare`'s reference reader had its own decoder that turned a raw
//! `00` into U+FFFD and `C1 81` into a single U+FFFD; tests now share this one.
//! A decoder that follows another library's rules (for example Java CESU-8 as
//! fastnbt and valence_nbt decode) is not lossy and stays with the code that needs it.

use std::convert::Infallible;

/// Decodes `bytes` with the lossy rule above.
///
/// ```
/// assert_eq!(testkit::mutf8::lossy(b"a\xC0\x80b"), "a\0b");
/// assert_eq!(testkit::mutf8::lossy(b"\xC1\x81"), "\u{FFFD}\u{FFFD}");
/// ```
pub fn lossy(bytes: &[u8]) -> String {
    simdnbt::mutf8::decode_lossy(bytes).into_owned()
}

/// [`lossy`] as a decoder that cannot fail, the shape the converters in
/// [`crate::from_simdnbt`] take.
pub fn lossy_ok(bytes: &[u8]) -> Result<String, Infallible> {
    Ok(lossy(bytes))
}

/// One string case: raw bytes, what the checked decoder gives (`None`: an error) and
/// what [`lossy`] gives.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The raw string bytes.
    pub raw: &'static [u8],
    /// The checked decode (`Mutf8Str::try_to_str`), `None` when it is an error.
    pub text: Option<&'static str>,
    /// The lossy decode.
    pub lossy: &'static str,
}

impl Case {
    /// Whether `raw` is exactly what a MUTF-8 writer emits for [`Case::text`]
    /// (a raw `00` decodes, but is written back as `C0 80`).
    pub fn is_canonical(&self) -> bool {
        self.text.is_some() && !self.raw.contains(&0)
    }
}

const fn case(raw: &'static [u8], text: Option<&'static str>, lossy: &'static str) -> Case {
    Case { raw, text, lossy }
}

/// The string cases of docs/format.md §4 ("NUL and emoji", "invalid MUTF-8") and the
/// disputed ones (raw `00`, `C1 81`, 4-byte UTF-8), with their decodes.
pub const CASES: &[Case] = &[
    case(b"", Some(""), ""),
    case(b"ascii", Some("ascii"), "ascii"),
    case("ŉé€".as_bytes(), Some("ŉé€"), "ŉé€"),
    case(b"a\xC0\x80b", Some("a\0b"), "a\0b"),
    case(b"\xED\xA0\xBD\xED\xB8\x80", Some("😀"), "😀"),
    case(b"a\x00b", Some("a\0b"), "a\0b"),
    case(b"\xED\xA0\x80", None, "\u{FFFD}"),
    case(b"\xFF", None, "\u{FFFD}"),
    case(b"\xC1\x81", None, "\u{FFFD}\u{FFFD}"),
    case(b"\xE2\x82", None, "\u{FFFD}"),
    case(b"\xF0\x9F\x98\x80", None, "\u{FFFD}"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_decodes_as_pinned() {
        for c in CASES {
            assert_eq!(lossy(c.raw), c.lossy, "lossy {:02x?}", c.raw);
            let checked = simdnbt::mutf8::decode(c.raw).ok();
            assert_eq!(checked.as_deref(), c.text, "checked {:02x?}", c.raw);
            if let Some(text) = c.text {
                assert_eq!(c.lossy, text, "lossy and checked agree on valid input");
            } else {
                assert!(c.lossy.contains('\u{FFFD}'), "{:02x?}", c.raw);
            }
            if c.is_canonical() {
                assert_eq!(simdnbt::mutf8::encode(c.text.unwrap()).as_ref(), c.raw);
            }
        }
    }

    /// The two sequences on which decoders differ: a raw `00` and the
    /// over-long `C1 81`.
    #[test]
    fn disputed_raw_nul_and_c1_81() {
        assert_eq!(lossy(&[0x00]), "\0");
        assert_eq!(lossy(&[0x61, 0x00]), "a\0");
        assert_eq!(lossy(&[0xC1, 0x81]), "\u{FFFD}\u{FFFD}");
        assert_eq!(lossy(&[0xC1, 0x81]), String::from_utf8_lossy(&[0xC1, 0x81]));
        let Ok(s) = lossy_ok(&[0xC0, 0x80]);
        assert_eq!(s, "\0");
    }
}
