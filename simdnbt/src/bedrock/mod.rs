//! Bedrock Edition NBT: the little-endian form, the network (VarInt) form,
//! the `level.dat` header, and telling the forms apart.
//!
//! Bedrock stores NBT with the same tags and layout as Java
//! ([`crate::tag_id`]) in two forms (`docs/format.md`, "Bedrock forms"):
//!
//! - **little-endian** (files, LevelDB records): every number and length
//!   prefix little-endian. `level.dat` adds an 8-byte header before the
//!   document: a little-endian `i32` storage version and a little-endian
//!   `u32` length of the rest of the file. The LevelDB records of a world
//!   (block entities, entities) hold several roots one after another;
//!   [`to_big_endian_prefix`] reads one of them and says where it ended.
//! - **network** (the protocol: every proxy, server and packet tool): Int,
//!   Long, array lengths and list counts are ZigZag VarInts (at most 5 bytes,
//!   10 for a Long), string lengths unsigned VarInts, Short, Float and
//!   Double little-endian. The root is a named tag like the others (its
//!   name's length a VarInt too, as gophertunnel's and prismarine-nbt's
//!   `littleVarint` readers take it and as the game writes it).
//!
//! Strings are **UTF-8** in both, instead of Java's MUTF-8.
//!
//! Every function here runs the crate's one validating core
//! (`simdnbt/src/read/`) over the input's form: the same checks in the same
//! order as the Java readers — tag ids, the depth limit, every length
//! against the remaining input before anything is sized by it, lists of End
//! — with every [`ReadOptions`] limit, reported as an [`Error`] with the
//! offset **in the input it was given**. An over-long VarInt is
//! [`ErrorKind::InvalidVarInt`].
//! Transcoding writes the other form as the core reads ([`to_big_endian`],
//! [`to_little_endian`], [`from_network`], [`to_network`]); the owned model
//! reads and writes both forms directly ([`owned`]), and so does the
//! document model ([`document`], explained there); [`detect`] says which
//! form a buffer is in.
//!
//! # Strings
//!
//! A Bedrock string that is valid UTF-8 is re-encoded as MUTF-8 (U+0000 as
//! `C0 80`, characters above U+FFFF as surrogate pairs), so it decodes to the
//! same text here. A string that is not valid UTF-8 — or whose MUTF-8 form would
//! pass the 65535-byte limit — keeps its bytes unchanged: nothing is lost, and
//! converting back gives the original bytes (decoding it in between replaces
//! what is not MUTF-8 with U+FFFD). In the other direction, a string in
//! canonical MUTF-8 becomes UTF-8 and anything else (an unpaired surrogate, a
//! raw `00`) keeps its bytes. So Bedrock → Java → Bedrock is byte-exact for
//! every document whose strings are valid UTF-8, and after one trip either way
//! every further trip is exact.
//!
//! ```
//! use simdnbt::{bedrock, owned::{BaseNbt, Nbt, NbtCompound, NbtTag}};
//!
//! // A Java-form document, written by the owned writer...
//! let nbt = Nbt::Some(BaseNbt::new("", NbtCompound::from_values(vec![
//!     ("LevelName".into(), NbtTag::String("Ünïcode 😀".into())),
//!     ("StorageVersion".into(), NbtTag::Int(10)),
//! ])));
//! let mut java = Vec::new();
//! nbt.write(&mut java).unwrap();
//!
//! // ...as a Bedrock level.dat...
//! let body = bedrock::to_little_endian(&java).unwrap();
//! let mut level_dat = Vec::new();
//! bedrock::write_level_header(10, &body, &mut level_dat);
//!
//! // ...and back.
//! let (header, le) = bedrock::split_level_header(&level_dat).unwrap();
//! assert_eq!(header.version, 10);
//! let back = simdnbt::owned::read(&mut std::io::Cursor::new(&bedrock::to_big_endian(le).unwrap()[..])).unwrap();
//! assert_eq!(back, nbt);
//! assert_eq!(bedrock::detect(&level_dat), bedrock::DetectedForm::LevelDat);
//!
//! // The network form: a packet's NBT, read straight into the owned model...
//! let packet: &[u8] = &[10, 0, 3, 1, b'n', 2, 0]; // {n: 1}
//! let from_packet = bedrock::owned::read_network(&mut std::io::Cursor::new(packet)).unwrap();
//! assert_eq!(from_packet.unwrap().int("n"), Some(1));
//! // ...or turned into the Java form, and back.
//! assert_eq!(bedrock::to_network(&bedrock::from_network(packet).unwrap()).unwrap(), packet);
//! ```

mod detect;
/// The Bedrock document (read, edit and write back little-endian files and
/// network NBT): [`crate::document::bedrock`], where it lives.
pub use crate::document::bedrock as document;
pub mod owned;
pub(crate) mod transcode;

#[allow(deprecated)]
pub use detect::{DetectedForm, Form, detect};

use crate::read::wire::{BigEndian, LittleEndian, VarInt, Wire};
use crate::{Error, ErrorKind, ReadOptions};

/// The 8-byte header of a Bedrock `level.dat`, before the little-endian document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelHeader {
    /// The storage version the file was saved with (also in its `StorageVersion` tag).
    pub version: i32,
    /// The length in bytes of the document after the header.
    pub length: u32,
}

/// Splits a Bedrock `level.dat` into its header and the little-endian document.
///
/// Returns `None` when `bytes` does not start with a header whose length field
/// equals the number of bytes after it (so a plain NBT document is never taken
/// for a `level.dat` by accident).
///
/// ```
/// let mut file = vec![10, 0, 0, 0, 1, 0, 0, 0, 0];
/// let (header, body) = simdnbt::bedrock::split_level_header(&file).unwrap();
/// assert_eq!((header.version, header.length, body), (10, 1, &[0u8][..]));
/// file.push(0); // one byte more than the header says
/// assert!(simdnbt::bedrock::split_level_header(&file).is_none());
/// ```
pub fn split_level_header(bytes: &[u8]) -> Option<(LevelHeader, &[u8])> {
    let (head, body) = bytes.split_first_chunk::<8>()?;
    let version = i32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let length = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    (usize::try_from(length).ok() == Some(body.len()))
        .then_some((LevelHeader { version, length }, body))
}

/// Appends a `level.dat` header for `body` (storage `version`, `body`'s length), then `body`.
///
/// # Panics
/// If `body` is 4 GiB or longer (its length does not fit the header).
///
/// ```
/// let mut out = Vec::new();
/// simdnbt::bedrock::write_level_header(10, &[0], &mut out);
/// assert_eq!(out, [10, 0, 0, 0, 1, 0, 0, 0, 0]);
/// ```
pub fn write_level_header(version: i32, body: &[u8], out: &mut Vec<u8>) {
    let length = u32::try_from(body.len()).expect("a level.dat body is shorter than 4 GiB");
    out.reserve(8 + body.len());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&length.to_le_bytes());
    out.extend_from_slice(body);
}

/// Turns a little-endian (Bedrock) document into the big-endian (Java) form
/// that this crate's readers read.
///
/// The whole input must be one document (tag id, name, payload — or a single
/// End byte); use [`split_level_header`] first for a `level.dat`.
///
/// # Errors
/// The first structural problem, with its offset in `le`: what
/// [`crate::borrow::read`] would report on the Java form, plus
/// [`ErrorKind::LengthExceedsInput`] at the end of the document when bytes
/// follow it.
///
/// ```
/// // {"": {n: 1}} in Bedrock form: Int payload and name lengths little-endian.
/// let le = [10, 0, 0, 3, 1, 0, b'n', 1, 0, 0, 0, 0];
/// let java = simdnbt::bedrock::to_big_endian(&le).unwrap();
/// assert_eq!(java, [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0]);
/// ```
pub fn to_big_endian(le: &[u8]) -> Result<Vec<u8>, Error> {
    whole::<LittleEndian, BigEndian>(le, &ReadOptions::default())
}

/// [`to_big_endian`] within the limits of `opts` (every one of them:
/// [`ReadOptions::max_depth`], [`ReadOptions::max_bytes`]).
pub fn to_big_endian_with(le: &[u8], opts: &ReadOptions) -> Result<Vec<u8>, Error> {
    whole::<LittleEndian, BigEndian>(le, opts)
}

/// Transcodes the first little-endian document of `le` and returns it with the
/// number of input bytes it took, for records that hold several roots in a row.
///
/// ```
/// let two = [1, 0, 0, 7, 1, 0, 0, 9]; // two Byte roots
/// let (java, used) = simdnbt::bedrock::to_big_endian_prefix(&two).unwrap();
/// assert_eq!((java, used), (vec![1, 0, 0, 7], 4));
/// ```
pub fn to_big_endian_prefix(le: &[u8]) -> Result<(Vec<u8>, usize), Error> {
    transcode::document::<LittleEndian, BigEndian>(le, 0, &ReadOptions::default(), false)
}

/// Turns a big-endian (Java) document into the little-endian (Bedrock) form.
///
/// # Errors
/// As [`to_big_endian`], with offsets in `be`.
///
/// ```
/// let java = [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0];
/// let le = simdnbt::bedrock::to_little_endian(&java).unwrap();
/// assert_eq!(le, [10, 0, 0, 3, 1, 0, b'n', 1, 0, 0, 0, 0]);
/// ```
pub fn to_little_endian(be: &[u8]) -> Result<Vec<u8>, Error> {
    whole::<BigEndian, LittleEndian>(be, &ReadOptions::default())
}

/// Turns a network-form (VarInt) document into the big-endian (Java) form.
///
/// # Errors
/// As [`to_big_endian`], with offsets in `net`; also
/// [`ErrorKind::InvalidVarInt`] for a
/// VarInt too long for its type, and
/// [`ErrorKind::StringTooLong`] for a
/// string longer than Java's 65535 bytes.
///
/// ```
/// // {"": {n: 1}}: name lengths are VarInts, the Int a ZigZag VarInt (1 → 2).
/// let net = [10, 0, 3, 1, b'n', 2, 0];
/// let java = simdnbt::bedrock::from_network(&net).unwrap();
/// assert_eq!(java, [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0]);
/// ```
pub fn from_network(net: &[u8]) -> Result<Vec<u8>, Error> {
    whole::<VarInt, BigEndian>(net, &ReadOptions::default())
}

/// [`from_network`] within the limits of `opts`.
pub fn from_network_with(net: &[u8], opts: &ReadOptions) -> Result<Vec<u8>, Error> {
    whole::<VarInt, BigEndian>(net, opts)
}

/// [`to_big_endian_prefix`] for the network form: the first document of
/// `net` (packets carry NBT among other fields) and the bytes it took.
///
/// ```
/// let (java, used) = simdnbt::bedrock::from_network_prefix(&[3, 0, 1, 0xff]).unwrap();
/// assert_eq!((java, used), (vec![3, 0, 0, 0xff, 0xff, 0xff, 0xff], 3));
/// ```
pub fn from_network_prefix(net: &[u8]) -> Result<(Vec<u8>, usize), Error> {
    transcode::document::<VarInt, BigEndian>(net, 0, &ReadOptions::default(), false)
}

/// Turns a big-endian (Java) document into the network (VarInt) form.
///
/// # Errors
/// As [`to_big_endian`], with offsets in `be`.
///
/// ```
/// let java = [10, 0, 0, 3, 0, 1, b'n', 0, 0, 0, 1, 0];
/// assert_eq!(simdnbt::bedrock::to_network(&java).unwrap(), [10, 0, 3, 1, b'n', 2, 0]);
/// ```
pub fn to_network(be: &[u8]) -> Result<Vec<u8>, Error> {
    whole::<BigEndian, VarInt>(be, &ReadOptions::default())
}

/// Transcodes one whole document of `input` from form `F` to form `T`.
fn whole<F: Wire, T: Wire>(input: &[u8], opts: &ReadOptions) -> Result<Vec<u8>, Error> {
    let (out, end) = transcode::document::<F, T>(input, 0, opts, true)?;
    if end != input.len() {
        return Err(Error::new(ErrorKind::LengthExceedsInput, end));
    }
    Ok(out)
}
