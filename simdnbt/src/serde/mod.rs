//! serde support: your own types to and from NBT bytes, and serde impls for
//! the [`crate::owned`] tree (so a document converts to JSON and back).
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Item<'a> {
//!     id: &'a str,
//!     #[serde(rename = "Count")]
//!     count: i8,
//!     #[serde(skip_serializing_if = "Option::is_none")]
//!     tag: Option<Tag>,
//! }
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Tag { #[serde(rename = "Damage")] damage: i32 }
//!
//! let item = Item { id: "minecraft:stone", count: 64, tag: None };
//! let bytes = simdnbt::serde::to_vec(&item).unwrap();
//! let back: Item = simdnbt::serde::from_slice(&bytes).unwrap(); // `id` borrows from `bytes`
//! assert_eq!(back, item);
//! ```
//!
//! Reading pulls from the validating core (`simdnbt/src/read/`) as serde
//! asks for each value, with no tape in between, so serde accepts exactly
//! the bytes the readers accept, under the same [`ReadOptions`] limits
//! (depth, byte budget), and never panics or overflows on hostile input:
//! an invalid document fails with the reader's error, whatever the type. Errors ([`Error`]) carry the byte offset and
//! the NBT path of the value, like `Inventory[3].tag.display.Name`.
//!
//! # Mapping
//!
//! | Rust (serde) | written as | read from |
//! |---|---|---|
//! | `bool` | Byte 0 or 1 | Byte (0 is false, anything else true); where serde buffers (untagged, flatten, internal tags) use [`byte_bool`] |
//! | `i8` `i16` `i32` `i64` | Byte, Short, Int, Long | any integer tag whose value fits (never wrapped or truncated) |
//! | `u8` `u16` `u32` `u64` | Byte, Short, Int, Long of the same bits (`255u8` is Byte −1) | the tag of the same width, bit for bit; other integer tags if the value fits |
//! | `i128` `u128` | error (no NBT type; see [`uuid`]) | error |
//! | `f32` `f64` | Float, Double | Float or Double (or an integer), converted by serde |
//! | `char` | String of one char | String of one char |
//! | `String`, `&str`, `Cow<str>` | String (MUTF-8) | String; `&'de str` and `#[serde(borrow)] Cow<'de, str>` borrow the input when its bytes are UTF-8 as they are (no NUL, no char above U+FFFF); invalid MUTF-8 is an error |
//! | `&[u8]`, `serde_bytes` | ByteArray | ByteArray (borrowed) |
//! | `Vec<T>`, slices, `[T; N]`, tuples, sets | List: one element type, an empty one is a List of End | List; also a ByteArray, IntArray or LongArray as a sequence of its numbers |
//! | `Vec<i8>`, `Vec<u8>` | List of Byte | List of Byte or ByteArray |
//! | [`ByteArray`], [`byte_array`] | ByteArray | ByteArray or List of Byte |
//! | [`IntArray`], [`int_array`] | IntArray | IntArray or List of Int |
//! | [`LongArray`], [`long_array`] | LongArray | LongArray or List of Long |
//! | `u128` with [`uuid`] | IntArray of 4, most significant first | IntArray (or List of Int) of exactly 4 |
//! | struct, map | Compound | Compound (unknown keys are skipped unless `deny_unknown_fields`) |
//! | map key | its String; numbers, `bool`, `char` and unit variants as their text | String, parsed into the key type |
//! | `Some(v)` | `v` | a present value |
//! | `None` field | left out | a missing field (serde's derive) |
//! | `None` in a list or array | error (NBT has no null) | — |
//! | `None` at the root | End root (`00`, "no document") | End root |
//! | `()`, unit struct | empty Compound | empty Compound |
//! | unit variant | String, the variant's name | String |
//! | newtype, tuple, struct variant | Compound `{variant: value}` | Compound of exactly one entry |
//! | newtype struct | its content | its content |
//! | list element `{"": v}` (1.21.5 heterogeneous lists) | not written: a list holds one type, else error | `v` |
//! | the root | Compound named `""` ([`Options::root_name`]); [`Options::network`]: any tag, no name | disk form; [`Options::network`]: any tag |
//! | bytes after the document | — | [`from_slice`] rejects them; [`Deserializer::end`] checks |
//!
//! # Arrays, and serde's buffering
//!
//! `#[serde(untagged)]`, internally tagged enums and `#[serde(flatten)]` make
//! serde read a value into a buffer first and forget newtype names. No marker
//! is needed to read an array (they are sequences of the right integer
//! width), so [`IntArray`] etc. still work there, as the tests check. What a
//! buffer cannot do is turn a Byte into a `bool` (hence [`byte_bool`]) or a
//! negative Byte into a `u8`.
//!
//! # The owned tree
//!
//! [`crate::owned`]'s `NbtTag`, `NbtList`, `NbtCompound`, `BaseNbt`, `Nbt`
//! and [`crate::Mutf8String`] implement `Serialize` and `Deserialize`.
//! With [`Serializer`] / [`Deserializer`] every tag keeps its
//! exact type: asked by a private newtype name, the deserializer gives a
//! tag's id through serde's enum protocol, and a compound or list is built
//! straight from its bytes by the owned reader's builder (one pass of the
//! core, without recursion) and handed to the owned type whole. With other
//! formats the tree is plain data: numbers, strings, sequences, maps, as in
//! JSON. Reading from such a format picks the tag from the value serde
//! reports: `i8` Byte, `i16` Short, `i32` Int, `i64`/`u64` Long (serde_json
//! reports every integer as one of these), `f32` Float, `f64` Double, `bool`
//! Byte, strings String, bytes ByteArray, sequences List (one of mixed
//! types becomes a 1.21.5 heterogeneous list of `{"": value}` compounds),
//! maps Compound. Writing to such a format, a compound that is exactly
//! `{"": value}` is written as `value` (upstream simdnbt's rule, which crates
//! checksumming serde output rely on), so such lists convert both ways.
//!
//! ```
//! use simdnbt::owned::{BaseNbt, NbtCompound, NbtTag};
//!
//! let nbt = BaseNbt::new("", NbtCompound::from_values(vec![
//!     ("name".into(), NbtTag::String("Steve".into())),
//!     ("xp".into(), NbtTag::Int(7)),
//! ]));
//! let json = serde_json::to_string(&nbt).unwrap();
//! assert_eq!(json, r#"{"name":"Steve","xp":7}"#);
//! let back: BaseNbt = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.string("name").unwrap().to_str(), "Steve");
//! assert_eq!(back.long("xp"), Some(7)); // JSON has no Int: it reads back a Long
//!
//! // Through NBT bytes nothing is lost.
//! let bytes = simdnbt::serde::to_vec(&nbt).unwrap();
//! let exact: BaseNbt = simdnbt::serde::from_slice(&bytes).unwrap();
//! assert_eq!(exact, nbt);
//! ```
//!
//! A [`BaseNbt`](crate::owned::BaseNbt)'s root name is not part of its serde form (write it with
//! [`Options::root_name`]; read it with [`Deserializer::root_name`]).
//!
//! # Stack use
//!
//! serde's derived code recurses once per level of nesting, which the reader
//! bounds by [`ReadOptions::max_depth`] (512 by default, as vanilla): a type
//! that follows the nesting (a recursive struct, `serde_json::Value`) goes
//! that deep into a document nested past the limit before the reader's
//! depth error stops it. A 512-deep document into a derived recursive struct
//! fits the 2 MiB of a test thread in a debug build (the tests check it);
//! lower `max_depth` for smaller stacks. Values serde does not ask for, and
//! the owned tree, are read without recursion.

mod array;
mod de;
mod error;
mod handoff;
mod owned;
mod ser;

pub use array::{
    ByteArray, IntArray, LongArray, byte_array, byte_bool, int_array, long_array, uuid,
};
pub use de::Deserializer;
pub use error::Error;
pub use ser::{MapSer, SeqSer, Serializer};

use crate::ReadOptions;

/// The root form and limits for reading and writing.
///
/// ```
/// use simdnbt::serde::{from_slice_with, to_vec_with, Options};
///
/// let network = Options::new().network();
/// let bytes = to_vec_with(&"hello", &network).unwrap(); // a String root, no name
/// assert_eq!(bytes, [8, 0, 5, b'h', b'e', b'l', b'l', b'o']);
/// let back: String = from_slice_with(&bytes, &network).unwrap();
/// assert_eq!(back, "hello");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub(crate) network: bool,
    pub(crate) root_name: String,
    pub(crate) read: ReadOptions,
}

impl Options {
    /// Disk form (a named root compound, name `""`), default read limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// The network form (Minecraft 1.20.2+): the root tag has no name, and
    /// may be any tag (1.20.3+), not only a compound.
    pub fn network(mut self) -> Self {
        self.network = true;
        self
    }

    /// The root compound's name when writing the disk form (default `""`).
    pub fn root_name(mut self, name: impl Into<String>) -> Self {
        self.root_name = name.into();
        self
    }

    /// The reader's limits (depth, byte budget) when reading.
    pub fn read_options(mut self, read: ReadOptions) -> Self {
        self.read = read;
        self
    }
}

/// Reads a `T` from the disk form (a named root compound), rejecting bytes
/// after the document.
///
/// # Errors
/// Invalid NBT, a value that does not fit `T`, or trailing bytes; the error
/// says where ([`Error::offset`], [`Error::path`]).
pub fn from_slice<'de, T: ::serde::Deserialize<'de>>(input: &'de [u8]) -> Result<T, Error> {
    from_slice_with(input, &Options::default())
}

/// [`from_slice`] with [`Options`] (network form, read limits).
///
/// # Errors
/// As [`from_slice`].
pub fn from_slice_with<'de, T: ::serde::Deserialize<'de>>(
    input: &'de [u8],
    options: &Options,
) -> Result<T, Error> {
    let mut de = Deserializer::unchecked(input, options)?;
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The pull reader's walk of the whole document in `input` (every event
/// pulled, nothing skipped): where the document ends, or the reader's
/// error. Not part of the API: the agreement tests and the
/// `serde_roundtrip` fuzz target compare it with the push readers.
#[doc(hidden)]
pub fn __pull_walk(input: &[u8], options: &Options) -> Result<usize, crate::Error> {
    use crate::read::root::{RootPrefix, root_prefix, tag_prefix};
    use crate::read::wire::BigEndian;
    let (id, payload) = if options.network {
        match tag_prefix(input, 0)? {
            None => return Ok(1),
            Some(root) => root,
        }
    } else {
        match root_prefix(input, 0, true)? {
            RootPrefix::End { end } => return Ok(end),
            RootPrefix::Compound { payload, .. } => (crate::tag_id::COMPOUND, payload),
        }
    };
    crate::read::pull::walk::<BigEndian>(input, payload, id, &options.read)
}

/// Reads all of `reader` and a `T` from it (disk form). The bytes are read
/// into memory first (NBT is read in one validating pass), so `T` cannot
/// borrow from them.
///
/// # Errors
/// As [`from_slice`], or the reader's I/O error.
pub fn from_reader<R: std::io::Read, T: ::serde::de::DeserializeOwned>(
    reader: R,
) -> Result<T, Error> {
    from_reader_with(reader, &Options::default())
}

/// [`from_reader`] with [`Options`].
///
/// # Errors
/// As [`from_reader`].
pub fn from_reader_with<R: std::io::Read, T: ::serde::de::DeserializeOwned>(
    mut reader: R,
    options: &Options,
) -> Result<T, Error> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(Error::io)?;
    from_slice_with(&bytes, options)
}

/// Writes `value` in disk form: a root compound named `""`.
///
/// # Errors
/// When `value` has no NBT form: the root is not a compound, a list mixes
/// element types, `None` in a list, a string over 65535 bytes, and the
/// others in the mapping table. [`Error::path`] says which value.
pub fn to_vec<T: ?Sized + ::serde::Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    to_vec_with(value, &Options::default())
}

/// [`to_vec`] with [`Options`] (root name, network form).
///
/// # Errors
/// As [`to_vec`].
pub fn to_vec_with<T: ?Sized + ::serde::Serialize>(
    value: &T,
    options: &Options,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(256);
    value.serialize(&mut Serializer::with_options(&mut out, options))?;
    Ok(out)
}

/// Writes `value` in disk form to `writer` (all at once, so nothing is
/// written when serialization fails).
///
/// # Errors
/// As [`to_vec`], or the writer's I/O error.
pub fn to_writer<W: std::io::Write, T: ?Sized + ::serde::Serialize>(
    writer: W,
    value: &T,
) -> Result<(), Error> {
    to_writer_with(writer, value, &Options::default())
}

/// [`to_writer`] with [`Options`].
///
/// # Errors
/// As [`to_writer`].
pub fn to_writer_with<W: std::io::Write, T: ?Sized + ::serde::Serialize>(
    mut writer: W,
    value: &T,
    options: &Options,
) -> Result<(), Error> {
    let bytes = to_vec_with(value, options)?;
    writer.write_all(&bytes).map_err(Error::io)
}
