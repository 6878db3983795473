//! A very fast, hostile-input-safe reader and writer for NBT, Minecraft's Named
//! Binary Tag format, on stable Rust.
//!
//! Two models share one reader core:
//!
//! - [`borrow`]: a zero-copy document over your input buffer. One validating pass
//!   records every tag on a flat tape of `u64` words (the simdjson idea); strings
//!   and arrays are decoded only when you ask. The fastest way to read.
//! - [`owned`]: a tree you can change and write, built directly by that same
//!   validating core (no tape), so it accepts exactly what the borrow reader
//!   accepts and fails at the same offsets.
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtTag};
//!
//! let nbt = Nbt::Some(BaseNbt::new(
//!     "",
//!     NbtCompound::from_values(vec![("key".into(), NbtTag::String("value".into()))]),
//! ));
//! let mut bytes = Vec::new();
//! nbt.write(&mut bytes).unwrap();
//!
//! let doc = simdnbt::borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
//! assert_eq!(doc.string("key").unwrap().to_str(), "value");
//! ```
//!
//! Every read gives `Ok` or an [`Error`] carrying the byte offset where it went
//! wrong: no input can make a reader panic, overflow the stack or allocate more
//! than a small multiple of its size. Limits for servers are in [`ReadOptions`].
//! Strings stay MUTF-8 bytes ([`Mutf8Str`]) until you decode them, lossily with
//! [`Mutf8Str::to_str`] or checked with [`Mutf8Str::try_to_str`].
//!
//! # Derive
//!
//! With the `derive` feature (on by default), `#[derive(Deserialize, Serialize)]`
//! maps a struct to a compound and `#[derive(FromNbtTag, ToNbtTag)]` an enum of
//! unit variants to a String tag, as upstream simdnbt's derives do. The generated
//! `Deserialize` walks the borrowed compound once and compares keys as raw bytes.
//!
//! ```
//! use simdnbt::{Deserialize, FromNbtTag, Serialize, ToNbtTag};
//!
//! #[derive(Debug, PartialEq, Deserialize, Serialize)]
//! struct Item {
//!     id: String,
//!     #[simdnbt(rename = "Count")]
//!     count: i8,
//!     tag: Option<Tag>,          // left out when None; None when missing
//!     #[simdnbt(default)]
//!     slot: u8,                  // 0 when missing
//!     rarity: Rarity,
//! }
//!
//! #[derive(Debug, PartialEq, Deserialize, Serialize)]
//! struct Tag {
//!     #[simdnbt(rename = "Damage")]
//!     damage: i32,
//! }
//!
//! #[derive(Debug, PartialEq, FromNbtTag, ToNbtTag)]
//! enum Rarity {
//!     #[simdnbt(rename = "common")]
//!     Common,
//!     #[simdnbt(rename = "epic")]
//!     Epic,
//! }
//!
//! let item = Item { id: "minecraft:stone".into(), count: 3, tag: None, slot: 2, rarity: Rarity::Epic };
//! let mut bytes = Vec::new();
//! item.to_nbt().write(&mut bytes).unwrap();
//! let doc = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..])).unwrap().unwrap();
//! assert_eq!(Item::from_nbt(&doc).unwrap(), Item { id: "minecraft:stone".into(), count: 3, tag: None, slot: 2, rarity: Rarity::Epic });
//! ```
//!
//! | attribute | on | effect |
//! |---|---|---|
//! | `rename = "Key"` | field, variant | the compound key / string value |
//! | `flatten` | field | the field's own `Deserialize`/`Serialize` type reads from / writes into this compound |
//! | `default`, `default = "path::to_fn"` | field | a missing key gives `Default::default()` / `to_fn()` |
//! | `skip` | field | never read (always `Default::default()`) nor written |
//! | `default` | struct | missing keys take their value from `Self::default()` |
//! | `deny_unknown_fields` | struct | a key no field reads is an error (not checked when a field is `flatten`ed: the flattened type sees every key) |
//!
//! `Option<T>` fields are left out when `None` and are `None` when the key is
//! missing (or holds another type, as upstream). Generic structs get the bounds
//! their fields need; a one-field tuple struct is its inner type (a compound for
//! `Deserialize`/`Serialize`, the inner tag for `FromNbtTag`/`ToNbtTag`); a unit
//! struct is an empty compound. Anything else (enums with data, unions, tuple
//! structs of several fields, conflicting attributes) is a compile error that
//! says what is supported. A [`DeserializeError`] names the path of the value
//! that did not fit (`Inventory[3].tag.display.Name`, see [`path`]).
//! Files on disk are usually compressed: `compression` (default feature) detects
//! and inflates gzip and zlib with a size cap and writes them back; `region`
//! (feature `region`) reads and writes Minecraft region files, and `region::scan`
//! (feature `scan`) parses a folder of them in parallel.
#![deny(missing_docs)]

// The derives' generated code names `::simdnbt`; this makes that path work in
// this crate's own tests and docs too.
extern crate self as simdnbt;

// The validating core and the tape it fills: every binary reader is a sink of
// `read`.
mod read;
mod tape;

// The document models.
pub mod borrow;
pub mod owned;

// Format facts, values and errors shared by the models.
mod convert;
mod deserialize_error;
mod error;
pub mod mutf8;
mod number;
mod options;
pub mod raw_list;
pub mod tag_id;

// Places in documents: NBT paths.
pub mod path;

// Building blocks: the writers' append buffer, the SIMD kernels, byte order.
mod append;
pub mod simd;
pub mod swap_endianness;

// Optional formats, each behind its feature.
#[cfg(feature = "bedrock")]
pub mod bedrock;
#[cfg(feature = "compression")]
pub mod compression;
#[cfg(feature = "region")]
pub mod region;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "snbt")]
pub mod snbt;

#[doc(hidden)]
pub use convert::__private;
pub use convert::{Deserialize, FromNbtTag, Serialize, ToNbtTag};
pub use deserialize_error::{DeserializeError, DeserializeErrorKind};
pub use error::{Error, ErrorKind, NonRootError, WriteError};
pub use mutf8::{Mutf8Error, Mutf8Str, Mutf8String};
pub use number::Number;
pub use options::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_INFLATED, ReadOptions};
/// The derive macros (feature `derive`, on by default); see the crate
/// docs' "Derive" section.
#[cfg(feature = "derive")]
pub use simdnbt_derive::*;

/// The workspace README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
