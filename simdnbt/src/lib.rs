//! A very fast, hostile-input-safe reader and writer for NBT, Minecraft's Named
//! Binary Tag format, on stable Rust.
//!
//! Two models share one reader core:
//!
//! - [`borrow`]: a zero-copy document over your input buffer. One validating pass
//!   records every tag on a flat tape of `u64` words (the simdjson idea); strings
//!   and arrays are decoded only when you ask. The fastest way to read.
//! - [`owned`]: a tree you can change and write, built from that same tape, so it
//!   accepts exactly what the borrow reader accepts.
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
#![deny(missing_docs)]
#![warn(unsafe_op_in_unsafe_fn)]

mod error;
pub mod mutf8;
pub mod raw_list;
pub mod simd;

pub use error::{Error, ErrorKind, WriteError};
pub use mutf8::{Mutf8Error, Mutf8Str, Mutf8String};
mod options;
pub mod tag_id;

pub mod borrow;
pub mod owned;
#[cfg(feature = "snbt")]
pub mod snbt;

pub use options::{ReadOptions, DEFAULT_MAX_DEPTH};

/// The workspace README's examples, run as doctests (upstream simdnbt's README
/// examples among them, unchanged).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
