//! The deserializer: serde's data model pulled from the validating core.
//!
//! [`crate::read::pull`] hands out the input's events as serde asks for
//! them: a field is read when the derived code asks for its key and value,
//! a value nobody asks for is skipped by the core itself, strings and byte
//! arrays are handed to the visitor borrowed from the input. No tape is
//! built (through the borrow reader's tape [`super::from_slice`] executed
//! more instructions than fastnbt: `reports/code-notes.md`).
//!
//! What serde reads is checked by the pull reader as the push readers check
//! it, so a document read to its end is a document every reader accepts. An
//! error on the way (a type that does not fit, or invalid bytes) is judged
//! on the cold path: the whole document is checked by the core, and if it is
//! invalid the core's error is the answer, the same kind and offset the
//! borrow reader gives; otherwise the deserializer's own, with its path.

mod key;
mod map;
mod node;
mod seq;
mod value;
mod variant;

use std::borrow::Cow;

use ::serde::de::{
    self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use super::Options;
use super::error::{Error, Result};
use super::handoff;
use crate::ReadOptions;
use crate::mutf8::{self, Mutf8Str};
use crate::raw_list::{self, RawList};
use crate::read::pull::{self, Head, Pull};
use crate::read::root::{RootPrefix, root_prefix, tag_prefix};
use crate::read::wire::BigEndian;
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
    root: Root<'de>,
    read: ReadOptions,
    /// The whole document was checked before deserializing (so the pull
    /// reader never fails on it).
    checked: bool,
    /// Offset just past the document, once known.
    end: Option<usize>,
}

/// The root value: its type and payload offset, and the root name of the
/// disk form.
#[derive(Clone, Copy)]
enum Root<'de> {
    /// The End root: no document.
    End,
    Value {
        id: u8,
        payload: usize,
        name: Option<&'de Mutf8Str>,
    },
}

impl<'de> Deserializer<'de> {
    /// Reads `input` in disk form: a named root compound (or a single End
    /// byte, which reads as `None` into an `Option`). The whole document is
    /// checked here; bytes after it are left for [`Deserializer::end`] to
    /// reject.
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
        let mut de = Self::unchecked(input, options)?;
        de.end = Some(de.check()?);
        de.checked = true;
        Ok(de)
    }

    /// A deserializer that has read only the root's prefix: the document is
    /// checked as serde pulls it ([`super::from_slice_with`]).
    pub(crate) fn unchecked(input: &'de [u8], options: &Options) -> Result<Self> {
        let root = if options.network {
            match tag_prefix(input, 0)? {
                None => Root::End,
                Some((id, payload)) => Root::Value {
                    id,
                    payload,
                    name: None,
                },
            }
        } else {
            match root_prefix(input, 0, true)? {
                RootPrefix::End { .. } => Root::End,
                RootPrefix::Compound {
                    name_off, payload, ..
                } => Root::Value {
                    id: COMPOUND,
                    payload,
                    name: name_off.map(|off| Mutf8Str::from_slice(&input[off + 2..payload])),
                },
            }
        };
        let end = match root {
            Root::End => Some(1),
            Root::Value { .. } => None,
        };
        Ok(Deserializer {
            input,
            root,
            read: options.read,
            checked: false,
            end,
        })
    }

    /// The root compound's name, in disk form (`None` in network form or for
    /// an End root).
    pub fn root_name(&self) -> Option<&'de Mutf8Str> {
        match self.root {
            Root::Value { name, .. } => name,
            Root::End => None,
        }
    }

    /// Checks that the document was the whole input.
    ///
    /// # Errors
    /// When bytes follow the document; the offset is the first of them. The
    /// reader's error if the document itself is invalid.
    pub fn end(&self) -> Result<()> {
        let end = match self.end {
            Some(end) => end,
            None => self.check()?,
        };
        if end == self.input.len() {
            Ok(())
        } else {
            Err(Error::msg_at("trailing bytes after the document", end))
        }
    }

    /// The core's check of the whole document: where it ends.
    fn check(&self) -> Result<usize> {
        match self.root {
            Root::End => Ok(1),
            Root::Value { id, payload, .. } => Ok(pull::check_value::<BigEndian>(
                self.input, payload, id, &self.read,
            )?),
        }
    }

    /// The error a deserialization that failed with `e` reports: the core's
    /// when the document is invalid (unless it was checked first), else `e`.
    #[cold]
    #[inline(never)]
    fn fail(&self, e: Error) -> Error {
        if !self.checked {
            if let Err(read) = self.check() {
                return read;
            }
        }
        e.at(0)
    }

    /// Deserializes the root value with `f`, then skips what `f` left of it.
    #[inline(always)]
    fn with_root<T>(&mut self, f: impl FnOnce(ValueDe<'_, 'de>) -> Result<T>) -> Result<T> {
        let Root::Value { id, payload, .. } = self.root else {
            let mut r = Reader::new(self.input, 0, &self.read)?;
            return f(ValueDe {
                r: &mut r,
                node: Node::End,
            });
        };
        let mut r = Reader::new(self.input, payload, &self.read)?;
        let node = Node::read(&mut r.pull, id, payload)?;
        let v = f(ValueDe { r: &mut r, node })?;
        r.finish_value(id, payload, payload)?;
        self.end = Some(r.pull.pos());
        Ok(v)
    }
}

/// Stack left below which a container's visitor runs on a new segment.
/// One nesting level of a recursive visitor takes about 3.7 KiB of stack
/// with `serde_json::Value` in a debug build (0.8 KiB in release; its own
/// frames and ours), so 512 levels need 1.9 MiB (400 KiB in release), more
/// than a 256 KiB thread has. 64 KiB leaves room for the [`CHECK_EVERY`]
/// levels of any reasonable visitor between two checks. With the segments,
/// 512 (or 2048, refused at 513) levels into `serde_json::Value` need 26
/// (30) KiB of the thread's own stack in a debug build; dropping that value
/// is `serde_json`'s recursion (0.8 KiB a level in a debug build).
#[cfg(not(miri))]
const RED_ZONE: usize = 64 * 1024;

/// The stack is checked at every this many levels of nesting: a check (the
/// stack pointer, through an assembly call, and a thread-local) at every
/// container made typed reads measurably slower (`reports/code-notes.md`).
const CHECK_EVERY: usize = 4;

/// The size of each new stack segment (mapped as needed: pages are only
/// committed when used).
#[cfg(not(miri))]
const SEGMENT: usize = 1024 * 1024;

/// Runs the visitor of a container at `depth`, on a new stack segment when
/// this one is nearly used up ([`RED_ZONE`], checked every [`CHECK_EVERY`]
/// levels): every depth the reader accepts then deserializes on any
/// thread, whatever the visitor's frames.
#[inline(always)]
fn nested<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if depth % CHECK_EVERY != 0 {
        return f();
    }
    // Miri cannot run the stack switch (assembly); it runs the tests that
    // matter there on a big stack.
    #[cfg(not(miri))]
    {
        stacker::maybe_grow(RED_ZONE, SEGMENT, f)
    }
    #[cfg(miri)]
    {
        f()
    }
}

/// The pull reader and the input's address (errors turn borrowed slices back
/// into offsets).
struct Reader<'de> {
    pull: Pull<'de>,
    ctx: Ctx<'de>,
}

impl<'de> Reader<'de> {
    #[inline(always)]
    fn new(input: &'de [u8], payload: usize, read: &ReadOptions) -> Result<Self> {
        Ok(Reader {
            pull: Pull::new(input, payload, read)?,
            ctx: Ctx { input },
        })
    }

    /// After a value of type `id` whose payload was at `start` went to a
    /// seed: skips it if the seed left it unread (a compound or list whose
    /// reader has not moved). `blame`: where a depth error names.
    #[inline(always)]
    fn finish_value(&mut self, id: u8, start: usize, blame: usize) -> Result<()> {
        if matches!(id, COMPOUND | LIST) && self.pull.pos() == start {
            self.pull.skip(id, blame)?;
        }
        Ok(())
    }
}

macro_rules! root_forward {
    ($($method:ident ( $($arg:ident : $t:ty),* ))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $t,)* visitor: V) -> Result<V::Value> {
            match self.with_root(|v| v.$method($($arg,)* visitor)) {
                Ok(v) => Ok(v),
                Err(e) => Err(self.fail(e)),
            }
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
