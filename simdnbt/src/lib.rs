//! simdnbt: a very fast NBT reader and writer on stable Rust. See the README.
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

pub use options::{ReadOptions, DEFAULT_MAX_DEPTH};
