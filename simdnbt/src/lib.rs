//! A very fast, hostile-input-safe reader and writer for NBT, Minecraft's Named
//! Binary Tag format, on stable Rust.
//!
//! Three models share one reader core:
//!
//! - [`borrow`]: a zero-copy document over your input buffer. One validating pass
//!   records every tag on a flat tape of `u64` words (the simdjson idea); strings
//!   and arrays are decoded only when you ask. The fastest way to read.
//! - [`document`]: a document you can change and write back, which owns its
//!   bytes (a copy, or the `Vec` you give it) and one arena of nodes; untouched
//!   parts are written back as copies of the stored bytes. The fastest way to
//!   read, edit a few values and write.
//! - [`owned`]: a tree of plain `Vec`s you can build and change freely (upstream
//!   simdnbt's owned API), built directly by that same validating core.
//!
//! All three accept exactly what the borrow reader accepts and fail at the same
//! offsets.
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
//! # Which API for which task
//!
//! | task | API | feature |
//! |---|---|---|
//! | read a file from disk (`level.dat`, a player file: gzip, zlib or raw) | [`compression::read_file`], then [`borrow`](compression::Decompressed::borrow) (zero-copy) or [`to_owned_nbt`](compression::Decompressed::to_owned_nbt); [`compression::read_owned_file`] in one step | `compression` (default) |
//! | write it back, gzip'd | [`compression::write_owned_file`] | `compression` (default) |
//! | read NBT bytes you already have, fastest, and look things up | [`borrow::read`]; network form (1.20.2+, no root name): [`borrow::read_unnamed`], [`borrow::read_optional_tag`] | — |
//! | read, change a few values, write back (untouched parts are copied) | [`document::read`] or [`Document::read_file`](document::Document::read_file), [`as_compound_mut`](document::Document::as_compound_mut), [`Document::write`](document::Document::write) | — |
//! | build a tree in code, or reshape it with plain `Vec`s | [`owned::read`], [`owned::NbtCompound`] (`insert`, `get_mut`, `remove`, `from_values`), [`owned::BaseNbt::write`]; checked at compile time from SNBT: the `simdnbt-macros` crate's `snbt!` | — |
//! | limits for untrusted input (servers, proxies: depth, bytes, inflated size) | [`ReadOptions`] with the `_with` readers | — |
//! | one chunk of a region file (`r.X.Z.mca`) | [`region::Region::open`], [`region::Region::chunk`] | `region` |
//! | every chunk of a world, in parallel | [`region::scan::Scan`] | `scan` |
//! | your own structs, through serde | [`serde::from_slice`], [`serde::to_vec`] | `serde` (default) |
//! | your own structs, through this crate's derive (upstream simdnbt's) | [`Deserialize`], [`Serialize`], [`FromNbtTag`], [`ToNbtTag`] and their derives | `derive` (default) |
//! | SNBT, the text form (`/data get`, commands, data packs) | [`snbt::from_str`], [`snbt::to_string_pretty`] | `snbt` (default) |
//! | JSON that keeps every NBT type (and reads back exactly) | [`json::to_string`], [`json::from_str`] | `json` |
//! | a value by NBT path (`Inventory[{Slot:0b}].id`) | [`path::NbtPath`] | — (filters need `snbt`) |
//! | the path of the value a read error is in | [`path::locate_error`] | — |
//! | Bedrock Edition files and packets | [`bedrock::document`] (`read_le`, `read_network`: read, edit, write back), [`bedrock::owned`], [`bedrock::to_big_endian`], [`bedrock::to_little_endian`] | `bedrock` |
//! | strings: decode, encode, compare | [`Mutf8Str`], [`Mutf8String`], [`mutf8`] | — |
//! | the format itself: tag ids, layout, root forms | [`tag_id`] | — |
//! | arrays without copying; byte swapping | [`raw_list::RawList`], [`swap_endianness`], [`simd`] | — |
//!
//! ```no_run
//! # #[cfg(feature = "compression")] {
//! // A gzip'd level.dat: inflate (capped), then read it in place.
//! let file = simdnbt::compression::read_file("world/level.dat")?;
//! let level = file.borrow()?.ok_or("level.dat holds no document")?;
//! let data = level.compound("Data").ok_or("no Data")?;
//! println!("{:?}", data.string("LevelName").map(|s| s.to_str()));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! On by default: `derive`, `serde`, `compression` and `snbt`. Opt-in:
//! `region` (region files, LZ4), `scan` (parallel world scan, rayon),
//! `bedrock`, `json` (typed JSON, serde_json), `libdeflate` (gzip and zlib
//! through libdeflate, a C library) and `snbt-unicode-names` (SNBT's
//! `\N{NAME}` escape, 500 KB of tables). Items that need a feature say so
//! on docs.rs; `simdnbt/Cargo.toml` gives each one's build cost.
//!
//! # serde or the derive
//!
//! Both map your structs to compounds. [`serde`] works with any serde type
//! (enums with data, `#[serde(flatten)]`, `Option`s, maps) and reads from the
//! bytes in one pass, borrowing strings; the derive is upstream simdnbt's
//! ([`Deserialize`] reads from a [`borrow`] document, [`Serialize`] builds an
//! [`owned`] compound), so code written for upstream keeps working. They map
//! numbers the same way but **not vectors**: with the derive, `Vec<i32>`,
//! `Vec<i64>` and `Vec<u8>` are the IntArray, LongArray and ByteArray tags
//! (the first two also read from a List of Int / Long); with serde a `Vec` is
//! always a **List** (`Vec<u8>` a List of Byte), and the arrays need
//! [`serde::IntArray`], [`serde::LongArray`], [`serde::ByteArray`] (or their
//! `#[serde(with = …)]` modules). Vanilla writes block states, heightmaps and
//! UUIDs as arrays, so a serde struct for chunk data uses those wrappers. The
//! derive's table is in [Derive](#derive), serde's in [`serde`].
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
//! How Rust types map to tags: [`Deserialize`]'s module table (`Vec<i32>` is
//! an IntArray here, a List through serde: see [serde or the
//! derive](#serde-or-the-derive)).
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The front page links items of every feature; a build without some of them
// cannot resolve those links. The all-features build (docs.rs, CI) checks them.
#![cfg_attr(
    not(all(
        feature = "derive",
        feature = "serde",
        feature = "compression",
        feature = "snbt",
        feature = "region",
        feature = "scan",
        feature = "bedrock",
        feature = "json"
    )),
    allow(rustdoc::broken_intra_doc_links)
)]

// The derives' generated code names `::simdnbt`; this makes that path work in
// this crate's own tests and docs too.
extern crate self as simdnbt;

// The validating core and the tape it fills: every binary reader is a sink of
// `read`.
mod kept;
mod read;
mod stack;
mod tape;

// The document models.
pub mod borrow;
pub mod document;
pub mod owned;

// Format facts, values and errors shared by the models.
mod convert;
mod deserialize_error;
mod error;
mod key_index;
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
#[cfg_attr(docsrs, doc(cfg(feature = "bedrock")))]
pub mod bedrock;
#[cfg(feature = "compression")]
#[cfg_attr(docsrs, doc(cfg(feature = "compression")))]
pub mod compression;
#[cfg(feature = "json")]
#[cfg_attr(docsrs, doc(cfg(feature = "json")))]
pub mod json;
#[cfg(feature = "region")]
#[cfg_attr(docsrs, doc(cfg(feature = "region")))]
pub mod region;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;
#[cfg(feature = "snbt")]
#[cfg_attr(docsrs, doc(cfg(feature = "snbt")))]
pub mod snbt;

#[doc(hidden)]
pub use convert::__private;
pub use convert::{Deserialize, FromNbtTag, Serialize, ToNbtTag};
pub use deserialize_error::{DeserializeError, DeserializeErrorKind};
pub use error::{Error, ErrorKind, NonRootError, WriteError};
pub use mutf8::{Mutf8Error, Mutf8Str, Mutf8String};
pub use number::Number;
pub use options::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_INFLATED, ReadOptions};
pub use read::wire::Encoding;
/// The derive macros (feature `derive`, on by default); see the crate
/// docs' "Derive" section.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use simdnbt_derive::*;

/// The workspace README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The examples of docs/formats.md, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/formats.md")]
pub struct FormatsDoctests;
