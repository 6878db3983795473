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
//! (instruction counts per pass over each case's strings, before and
//! after: `reports/mutf8.md` and `reports/perf.md`):
//!
//! - **Strings that read the same in UTF-8** (checked and lossy; every
//!   string longer than 16 bytes or not ASCII) are borrowed after one check
//!   (`simd::is_bmp_utf8`): a pass of ours over the bytes (SSE2 maximum)
//!   settles ASCII and bytes `F0` and above; strings of at most 64 bytes
//!   with only 2-byte characters (Latin text, `§` codes) are then checked
//!   on bit masks (a lead before each continuation byte, SSE2); the rest by
//!   `simdutf8`'s SIMD UTF-8
//!   validation, its AVX2 kernel called directly on a zero-padded 64-byte
//!   block for strings of at most 64 bytes (its dispatched entry point hands
//!   those to std's scalar validator). Valid UTF-8 without 4-byte sequences
//!   has no `C0 80` and no surrogates, so it is MUTF-8 with the same meaning.
//!   Fewer instructions than `simd_cesu8` behind an ASCII check on
//!   non-ASCII text, BMP text, long ASCII and `hypixel.nbt`'s decode_all
//!   (`reports/perf.md`, "decode_all: strings borrowed after one check").
//! - **MUTF-8's own forms** (`C0 80`, surrogate pairs) are
//!   `simd_cesu8::mutf8::decode`: its SIMD UTF-8 validation fails on them,
//!   then its MUTF-8 decoder converts: several times fewer instructions
//!   than the hand-written decoder on BMP text, and fewer on strings with
//!   `C0 80` or surrogate pairs, though the check above runs first and
//!   fails on them (a trade for the common case: real files rarely hold
//!   them; `reports/mutf8.md`).
//!   It agrees with the rules above on everything it
//!   accepts; 4-byte UTF-8 (which it borrows as valid UTF-8) is checked for
//!   here, and whatever it rejects (invalid data, or a raw `00`, which it
//!   refuses and we accept) goes to the hand-written decoder below. That one
//!   stays because `simd_cesu8` reports no error offset ([`Mutf8Error`]
//!   gives one) and its lossy form replaces byte by byte, where ours replaces
//!   a whole invalid sequence (one U+FFFD for an unpaired surrogate).
//! - **Short ASCII** (at most 16 bytes, most names): our inlined
//!   overlapping-load check, a quarter of the instructions of the crate's
//!   call (`reports/mutf8.md`).
//! - **Encoding**: strings that need encoding (`00`, characters above
//!   U+FFFF) and strings under 64 bytes go through `simd_cesu8::mutf8::encode`
//!   (its copy loop is cheaper); longer strings that borrow keep our
//!   vectorised scan, which is several times cheaper there (the counts:
//!   `reports/mutf8.md`).
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

mod decode;
mod encode;
mod error;
mod str;
mod string;

pub use decode::{decode, decode_lossy};
pub use encode::{encode, encoded_len};
pub use error::Mutf8Error;
pub use str::Mutf8Str;
pub(crate) use str::key_matches;
pub use string::Mutf8String;
pub(crate) use string::{InlineBlock, SIZE as STRING_SIZE};

#[cfg(test)]
mod differential;
#[cfg(test)]
mod tests;
