//! The deserializer: serde's data model over a [`crate::borrow`] document.
//!
//! The input is first read by the borrow reader (one validating pass: depth,
//! lengths and budget are checked there, with byte offsets), then walked
//! through the document's views. Strings and byte arrays are handed to the
//! visitor borrowed from the input when they can be.

mod key;
mod map;
mod node;
mod seq;
mod value;
mod variant;

use std::borrow::Cow;
use std::io::Cursor;

use ::serde::de::{
    self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use super::Options;
use super::error::{Error, Result};
use super::handoff;
use crate::borrow::{
    self, NbtCompound, NbtCompoundIter, NbtCompoundListIter, NbtList, NbtListListIter, NbtTag,
};
use crate::mutf8::{self, Mutf8Str};
use crate::raw_list::{self, RawList};
use crate::tag_id::*;

use key::*;
use map::*;
use node::*;
use seq::*;
use value::*;
use variant::*;

/// Reads NBT bytes into serde's data model.
///
/// Made by [`Deserializer::from_slice`] (the disk form: a named root compound)
/// or [`Deserializer::from_slice_with`]; use `&mut Deserializer` wherever a
/// [`serde::Deserializer`](::serde::Deserializer) is wanted, for example with
/// `serde_path_to_error`:
///
/// ```
/// use simdnbt::serde::Deserializer;
///
/// #[derive(serde::Deserialize, Debug)]
/// struct Level { #[allow(dead_code)] time: i64 }
///
/// // {"time": "x"}
/// let bytes = [0x0a, 0, 0, 8, 0, 4, b't', b'i', b'm', b'e', 0, 1, b'x', 0];
/// let mut de = Deserializer::from_slice(&bytes).unwrap();
/// let err = serde_path_to_error::deserialize::<_, Level>(&mut de).unwrap_err();
/// assert_eq!(err.path().to_string(), "time");
/// ```
pub struct Deserializer<'de> {
    input: &'de [u8],
    doc: Doc<'de>,
    /// Offset just past the document.
    end: usize,
}

enum Doc<'de> {
    /// A root compound (named or in network form), or `None` for an End root.
    Compound(borrow::Nbt<'de>),
    /// Network form with any root tag, or `None` for an End root.
    Tag(Option<borrow::BaseNbtTag<'de>>),
}

impl<'de> Deserializer<'de> {
    /// Reads `input` in disk form: a named root compound (or a single End
    /// byte, which reads as `None` into an `Option`). Bytes after the
    /// document are left for [`Deserializer::end`] to reject.
    ///
    /// # Errors
    /// The reader's error, with its byte offset, when `input` is not valid NBT.
    pub fn from_slice(input: &'de [u8]) -> Result<Self> {
        Self::from_slice_with(input, &Options::default())
    }

    /// Reads `input` with `options`: the network form (any root tag, no
    /// name) and the reader's limits.
    ///
    /// ```
    /// use simdnbt::serde::{Deserializer, Options};
    /// // network form, root String "hi"
    /// let bytes = [8, 0, 2, b'h', b'i'];
    /// let mut de = Deserializer::from_slice_with(&bytes, &Options::new().network()).unwrap();
    /// let s: &str = serde::Deserialize::deserialize(&mut de).unwrap();
    /// assert_eq!(s, "hi");
    /// ```
    ///
    /// # Errors
    /// The reader's error, with its byte offset, when `input` is not valid NBT.
    pub fn from_slice_with(input: &'de [u8], options: &Options) -> Result<Self> {
        let mut cursor = Cursor::new(input);
        let doc = if options.network {
            Doc::Tag(borrow::read_optional_tag_with(&mut cursor, &options.read)?)
        } else {
            Doc::Compound(borrow::read_with(&mut cursor, &options.read)?)
        };
        let end = cursor.position() as usize;
        Ok(Deserializer { input, doc, end })
    }

    /// The root compound's name, in disk form (`None` in network form or for
    /// an End root).
    pub fn root_name(&self) -> Option<&'de Mutf8Str> {
        match &self.doc {
            Doc::Compound(borrow::Nbt::Some(nbt)) => Some(nbt.name()),
            _ => None,
        }
    }

    /// Checks that the document was the whole input.
    ///
    /// # Errors
    /// When bytes follow the document; the offset is the first of them.
    pub fn end(&self) -> Result<()> {
        if self.end == self.input.len() {
            Ok(())
        } else {
            Err(Error::msg_at("trailing bytes after the document", self.end))
        }
    }

    fn root(&self) -> ValueDe<'de, '_> {
        let ctx = Ctx {
            base: self.input.as_ptr() as usize,
        };
        let node = match &self.doc {
            Doc::Compound(borrow::Nbt::Some(nbt)) => Node::Compound(nbt.as_compound()),
            Doc::Tag(Some(tag)) => Node::from_tag(tag.as_tag()),
            Doc::Compound(borrow::Nbt::None) | Doc::Tag(None) => Node::End,
        };
        ValueDe { node, ctx }
    }
}

macro_rules! root_forward {
    ($($method:ident ( $($arg:ident : $t:ty),* ))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $t,)* visitor: V) -> Result<V::Value> {
            self.root().$method($($arg,)* visitor).map_err(|e| e.at(0))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    root_forward! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_u8() deserialize_u16()
        deserialize_u32() deserialize_u64() deserialize_f32() deserialize_f64()
        deserialize_char() deserialize_str() deserialize_string() deserialize_bytes()
        deserialize_byte_buf() deserialize_option() deserialize_unit()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_seq() deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier() deserialize_ignored_any()
    }
}
