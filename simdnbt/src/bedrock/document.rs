//! The document model ([`crate::document`]) read from Bedrock's
//! little-endian form directly: the validating core reads the input's
//! bytes in their own order into the document's nodes (no Java copy in
//! between), accessors decode numbers little-endian, and
//! [`Document::write`] writes the little-endian form back: a copy of every
//! part no edit touched.
//!
//! Strings are viewed as MUTF-8 like every string of the crate; a document
//! holding one whose UTF-8 bytes are not its MUTF-8 bytes (U+0000, or a
//! character above U+FFFF) is converted as a whole when it is read, as
//! [`super`]'s "Strings" says, and still writes little-endian. The first
//! edit of a little-endian document converts its storage to the Java form
//! once (one transcode of the document); writing converts it back.
//!
//! The network (VarInt) form, as in packets, is read by [`read_network`]:
//! its lengths have no fixed width, so the document stores the core's
//! transcode of it to the Java form (edits need no conversion) and
//! [`Document::write`] transcodes what it writes back to the network form
//! ([`Encoding::Network`]). A read then costs a transcode more than
//! [`super::owned::read_network`]'s one pass, and a write one transcode of
//! the document, edited or not.
//!
//! Which model: [`super::owned`] to build or hold a Bedrock tree with plain
//! `Vec`s; this one to read a Bedrock file, look values up and write it
//! back (it reads a little-endian file in fewer instructions than
//! na_nbt's little-endian owned read and [`super::owned::read_le`]:
//! `reports/code-notes.md`).
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::bedrock;
//! use simdnbt::Encoding;
//!
//! // {Name: "Steve 😀", xp: 5} in the Java form, as a Bedrock level.dat.
//! let java = [
//!     10, 0, 0, //
//!     8, 0, 4, b'N', b'a', b'm', b'e', 0, 12, b'S', b't', b'e', b'v', b'e', b' ', //
//!     0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, //
//!     3, 0, 2, b'x', b'p', 0, 0, 0, 5, //
//!     0,
//! ];
//! let body = bedrock::to_little_endian(&java)?;
//! let mut level_dat = Vec::new();
//! bedrock::write_level_header(10, &body, &mut level_dat);
//!
//! let (_header, le) = bedrock::split_level_header(&level_dat).unwrap();
//! let mut doc = bedrock::document::read_le(&mut Cursor::new(le))?.unwrap();
//! assert_eq!(doc.encoding(), Encoding::LittleEndian);
//! assert_eq!(doc.int("xp"), Some(5));
//! assert_eq!(doc.string("Name").unwrap().to_str(), "Steve 😀");
//! assert_eq!(doc.to_bytes(), le); // unedited: the same bytes
//!
//! doc.as_compound_mut().unwrap().set("xp", 6)?;
//! let back = bedrock::owned::read_le(&mut Cursor::new(&doc.to_bytes()[..]))?;
//! assert_eq!(back.unwrap().int("xp"), Some(6));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Cursor;

pub use crate::Encoding;
#[allow(deprecated)]
pub use crate::document::ByteOrder;
pub use crate::document::Document;
use crate::error::Error;
use crate::options::ReadOptions;

/// Reads a little-endian document (a named root compound; `Ok(None)` for a
/// lone End) at the cursor into a document, copying its bytes, and moves the
/// cursor past it.
///
/// Memory: as a Java read, at most 18× the input on any input (16 bytes a
/// node, a node per input byte at worst, and the copy), a document that is
/// converted as it is read included (`reports/memory.md`; asserted by
/// `tests/memory/little_endian.rs`).
///
/// # Errors
/// The first structural problem, with its offset in the input: the errors
/// of [`super::owned::read_le`], at the same offsets, and
/// [`ErrorKind::InputTooLarge`](crate::ErrorKind::InputTooLarge) for a
/// document whose Java form (U+0000 takes two bytes there) passes the 2 GiB
/// a document holds.
pub fn read_le(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_le_with(data, &ReadOptions::default())
}

/// [`read_le`] within the limits of `opts`.
pub fn read_le_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    crate::document::bedrock::read_le_with(data, opts)
}

/// [`read_le`] keeping `bytes` as the document's storage (no copy). Bytes
/// after the document are dropped.
///
/// ```
/// let doc = simdnbt::bedrock::document::from_vec_le(vec![10, 0, 0, 0])?.unwrap();
/// assert!(doc.as_compound().unwrap().is_empty());
/// # Ok::<(), simdnbt::Error>(())
/// ```
pub fn from_vec_le(bytes: Vec<u8>) -> Result<Option<Document>, Error> {
    from_vec_le_with(bytes, &ReadOptions::default())
}

/// [`from_vec_le`] within the limits of `opts`.
pub fn from_vec_le_with(bytes: Vec<u8>, opts: &ReadOptions) -> Result<Option<Document>, Error> {
    crate::document::bedrock::from_vec_le_with(bytes, opts)
}

/// Reads a network-form (VarInt) document (a named root compound;
/// `Ok(None)` for a lone End) at the cursor into a document, and moves the
/// cursor past it. It writes the network form back
/// ([`Document::encoding`] is [`Encoding::Network`]); [`Document::write_in`]
/// writes it as Java or little-endian.
///
/// Memory: the document holds the input's Java form (at most 8× the input:
/// a Long of one VarInt byte is eight bytes in Java, but takes no node),
/// and peaks at no more than 21× the input on any input (a node and four
/// Java bytes per input byte for empty arrays in a list, the worst;
/// `reports/memory.md`; asserted by `tests/memory/network.rs`).
///
/// # Errors
/// The first structural problem, with its offset in the input: the errors
/// of [`super::owned::read_network`], at the same offsets,
/// [`ErrorKind::StringTooLong`](crate::ErrorKind::StringTooLong) for a
/// string longer than Java's 65535 bytes, and
/// [`ErrorKind::InputTooLarge`](crate::ErrorKind::InputTooLarge) for an
/// input whose Java form passes the 2 GiB a document holds (at the input
/// offset where it does; found while transcoding, before that much is
/// allocated for a long list).
///
/// ```
/// use std::io::Cursor;
/// use simdnbt::bedrock;
/// use simdnbt::Encoding;
///
/// // {"": {n: 1}}: name lengths are VarInts, the Int a ZigZag VarInt (1 → 2).
/// let net = [10, 0, 3, 1, b'n', 2, 0];
/// let mut doc = bedrock::document::read_network(&mut Cursor::new(&net[..]))?.unwrap();
/// assert_eq!(doc.encoding(), Encoding::Network);
/// assert_eq!(doc.int("n"), Some(1));
/// assert_eq!(doc.to_bytes(), net);
///
/// doc.as_compound_mut().unwrap().set("n", -1)?;
/// assert_eq!(doc.to_bytes(), [10, 0, 3, 1, b'n', 1, 0]); // ZigZag: -1 → 1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_network(data: &mut Cursor<&[u8]>) -> Result<Option<Document>, Error> {
    read_network_with(data, &ReadOptions::default())
}

/// [`read_network`] within the limits of `opts` (applied to the input).
pub fn read_network_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<Document>, Error> {
    crate::document::bedrock::read_network_with(data, opts)
}
