//! Zero-copy reading: a document that borrows the input.
//!
//! [`read`] makes one validating pass over the input and records every tag on a
//! flat *tape* (see the crate docs); strings and arrays are neither decoded nor
//! copied until you ask for them. This is the fastest way to read NBT when you
//! can keep the input alive while you use the document.
//!
//! The tape is a read's only allocation. When a document is dropped, its
//! thread keeps the tape (if it is at most 64 KiB, one per thread) for the
//! next read, so a loop that reads and drops documents allocates nothing.
//!
//! ```
//! use std::io::Cursor;
//! // 0a 00 00 | 03 00 01 'x' 00 00 00 2a | 00   =>   {"x": 42}
//! let bytes = [0x0a, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 42, 0];
//! let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
//! assert_eq!(nbt.int("x"), Some(42));
//! ```

/// Calls `$m!` with the typed getters every compound-like type has (one
/// list, so `NbtCompound` and `BaseNbt` cannot drift apart). `$tape` is the
/// lifetime of the views they return.
macro_rules! for_each_getter {
    ($m:ident, $tape:lifetime) => {
        $m! {
            /// The Byte called `name`.
            byte -> i8;
            /// The Short called `name`.
            short -> i16;
            /// The Int called `name`.
            int -> i32;
            /// The Long called `name`.
            long -> i64;
            /// The Float called `name`.
            float -> f32;
            /// The Double called `name`.
            double -> f64;
            /// The ByteArray called `name`, borrowed from the input.
            byte_array -> &'a [u8];
            /// The String called `name`, borrowed from the input (not yet decoded).
            string -> &'a Mutf8Str;
            /// The List called `name`.
            list -> NbtList<'a, $tape>;
            /// The Compound called `name`.
            compound -> NbtCompound<'a, $tape>;
            /// The IntArray called `name`, converted to native order.
            int_array -> Vec<i32>;
            /// The LongArray called `name`, converted to native order.
            long_array -> Vec<i64>;
            /// The IntArray called `name` as a zero-copy big-endian view.
            int_array_raw -> RawList<'a, i32>;
            /// The LongArray called `name` as a zero-copy big-endian view.
            long_array_raw -> RawList<'a, i64>;
        }
    };
}

mod compound;
mod list;
mod tag;
mod write;

use std::fmt;
use std::io::Cursor;

pub use compound::{NbtCompound, NbtCompoundIter};
pub use list::{NbtCompoundList, NbtCompoundListIter, NbtList, NbtListList, NbtListListIter};
pub use tag::NbtTag;

use crate::error::{Error, ErrorKind};
use crate::mutf8::Mutf8Str;
use crate::options::ReadOptions;
use crate::raw_list::RawList;
use crate::read::root::{RootPrefix, cursor_parts, not_compressed, root_prefix, tag_prefix};
use crate::tag_id::*;
use crate::tape::{self, Tape};

/// Reads a named root compound, the form of NBT files on disk: tag id, name, payload.
///
/// Returns `Ok(Nbt::None)` when the root tag is End (`00`). On success the cursor is
/// left just after the document; bytes after it are not an error.
pub fn read<'a>(data: &mut Cursor<&'a [u8]>) -> Result<Nbt<'a>, Error> {
    read_with(data, &ReadOptions::default())
}

/// [`read`] with explicit limits.
pub fn read_with<'a>(data: &mut Cursor<&'a [u8]>, opts: &ReadOptions) -> Result<Nbt<'a>, Error> {
    read_root(data, opts, true)
}

/// Reads an unnamed root compound, the network form since Minecraft 1.20.2:
/// tag id and payload, no name. Returns `Ok(Nbt::None)` for an End root.
pub fn read_unnamed<'a>(data: &mut Cursor<&'a [u8]>) -> Result<Nbt<'a>, Error> {
    read_unnamed_with(data, &ReadOptions::default())
}

/// [`read_unnamed`] with explicit limits.
pub fn read_unnamed_with<'a>(
    data: &mut Cursor<&'a [u8]>,
    opts: &ReadOptions,
) -> Result<Nbt<'a>, Error> {
    read_root(data, opts, false)
}

/// Reads a compound's payload (its named tags up to and including End), with no
/// tag id or name before it.
pub fn read_compound<'a>(data: &mut Cursor<&'a [u8]>) -> Result<BaseNbtCompound<'a>, Error> {
    let (bytes, pos) = cursor_parts(data);
    not_compressed(bytes, pos)?;
    let (tape, end) = tape::parse_root(bytes, pos, COMPOUND, &ReadOptions::default())?;
    data.set_position(end as u64);
    Ok(BaseNbtCompound { tape })
}

/// Reads an unnamed tag of any type but End: tag id, then payload. This is how
/// Minecraft 1.20.3+ sends text components and other network NBT.
/// An End tag is [`ErrorKind::InvalidRootType`]`(0)`; use [`read_optional_tag`] to accept it.
pub fn read_tag<'a>(data: &mut Cursor<&'a [u8]>) -> Result<BaseNbtTag<'a>, Error> {
    let start = data.position();
    match read_optional_tag(data)? {
        Some(tag) => Ok(tag),
        None => Err(Error::new(ErrorKind::InvalidRootType(END), start as usize)),
    }
}

/// Reads an unnamed tag of any type, where an End tag means "no value" (`Ok(None)`).
pub fn read_optional_tag<'a>(data: &mut Cursor<&'a [u8]>) -> Result<Option<BaseNbtTag<'a>>, Error> {
    read_optional_tag_with(data, &ReadOptions::default())
}

/// [`read_optional_tag`] with explicit limits.
pub fn read_optional_tag_with<'a>(
    data: &mut Cursor<&'a [u8]>,
    opts: &ReadOptions,
) -> Result<Option<BaseNbtTag<'a>>, Error> {
    let (bytes, pos) = cursor_parts(data);
    let Some((id, payload)) = tag_prefix(bytes, pos)? else {
        data.set_position(pos as u64 + 1);
        return Ok(None);
    };
    let (tape, end) = tape::parse_root(bytes, payload, id, opts)?;
    data.set_position(end as u64);
    Ok(Some(BaseNbtTag { tape }))
}

fn read_root<'a>(
    data: &mut Cursor<&'a [u8]>,
    opts: &ReadOptions,
    named: bool,
) -> Result<Nbt<'a>, Error> {
    let (bytes, start) = cursor_parts(data);
    let (start, name_off, pos) = match root_prefix(bytes, start, named)? {
        RootPrefix::End { end } => {
            data.set_position(end as u64);
            return Ok(Nbt::None);
        }
        RootPrefix::Compound {
            start,
            name_off,
            payload,
        } => (start, name_off, payload),
    };
    let (tape, end) = tape::parse_root(bytes, pos, COMPOUND, opts)?;
    data.set_position(end as u64);
    debug_assert!(start < end && end <= bytes.len());
    Ok(Nbt::Some(BaseNbt {
        tape,
        // SAFETY: `start` is the root's tag id, before its payload, and
        // `end`, where the parse of that payload ended, is inside `bytes`.
        bytes: unsafe { bytes.get_unchecked(start..end) },
        named: name_off.is_some(),
    }))
}

/// A document read by [`read`]: a named root compound.
///
/// It derefs to nothing, but has the compound accessors of [`NbtCompound`]
/// (`get`, `int`, `list`, …) directly, as upstream simdnbt does.
pub struct BaseNbt<'a> {
    tape: Tape<'a>,
    /// The document in the input, from its tag id to its final End: what
    /// [`BaseNbt::write`] copies.
    bytes: &'a [u8],
    /// Whether a name follows the tag id (the disk form; not the network form).
    named: bool,
}

macro_rules! delegate_getters {
    ($( $(#[$doc:meta])* $name:ident -> $ret:ty; )*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, name: &str) -> Option<$ret> {
            self.as_compound().$name(name)
        }
    )*};
}

impl<'a> BaseNbt<'a> {
    /// The tape's buffer (to tell whether a read reused a kept tape).
    #[cfg(test)]
    pub(crate) fn tape_words(&self) -> *const u64 {
        self.tape.words.as_ptr()
    }

    /// The root compound.
    #[inline]
    pub fn as_compound(&self) -> NbtCompound<'a, '_> {
        NbtCompound::root(&self.tape)
    }

    /// The root's name (empty for the unnamed network form). Often empty in files too.
    pub fn name(&self) -> &'a Mutf8Str {
        let name = if self.named {
            &self.bytes[3..self.payload_start()]
        } else {
            &[]
        };
        Mutf8Str::from_slice(name)
    }

    /// Where the root compound's payload starts in [`Self::as_bytes`].
    #[inline]
    fn payload_start(&self) -> usize {
        if self.named {
            3 + u16::from_be_bytes([self.bytes[1], self.bytes[2]]) as usize
        } else {
            1
        }
    }

    /// The first tag called `name` in the root compound.
    pub fn get(&self, name: &str) -> Option<NbtTag<'a, '_>> {
        self.as_compound().get(name)
    }

    /// Whether the root compound has a tag called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.as_compound().contains(name)
    }

    for_each_getter!(delegate_getters, '_);

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::BaseNbt {
        crate::owned::BaseNbt::new(self.name().to_owned(), self.as_compound().to_owned())
    }

    /// Appends the document in disk form (named root). The document is immutable
    /// and was validated, so this copies its bytes from the input unchanged. A
    /// document read unnamed is written with an empty name.
    pub fn write(&self, data: &mut Vec<u8>) {
        if self.named {
            write::append(data, self.bytes);
        } else {
            data.extend_from_slice(&[COMPOUND, 0, 0]);
            data.extend_from_slice(&self.bytes[1..]);
        }
    }

    /// Appends the document in network form (tag id and payload, no name).
    pub fn write_unnamed(&self, data: &mut Vec<u8>) {
        data.push(COMPOUND);
        data.extend_from_slice(&self.bytes[self.payload_start()..]);
    }

    /// The bytes of the input this document was read from (tag id to final End).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl fmt::Debug for BaseNbt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BaseNbt")
            .field("name", &self.name())
            .field("tag", &self.as_compound())
            .finish()
    }
}

impl PartialEq for BaseNbt<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name() && self.as_compound() == other.as_compound()
    }
}

/// A root compound read by [`read_compound`].
pub struct BaseNbtCompound<'a> {
    tape: Tape<'a>,
}

impl<'a> BaseNbtCompound<'a> {
    /// The compound.
    pub fn as_compound(&self) -> NbtCompound<'a, '_> {
        NbtCompound::root(&self.tape)
    }
}

impl<'a, 'tape> From<&'tape BaseNbtCompound<'a>> for NbtCompound<'a, 'tape> {
    fn from(compound: &'tape BaseNbtCompound<'a>) -> Self {
        compound.as_compound()
    }
}

/// An unnamed root tag read by [`read_tag`] or [`read_optional_tag`].
pub struct BaseNbtTag<'a> {
    tape: Tape<'a>,
}

impl<'a> BaseNbtTag<'a> {
    /// The tag.
    pub fn as_tag(&self) -> NbtTag<'a, '_> {
        let (value, _) = self.tape.unnamed(0);
        NbtTag::new(&self.tape, value)
    }
}

impl<'a, 'tape> From<&'tape BaseNbtTag<'a>> for NbtTag<'a, 'tape> {
    fn from(tag: &'tape BaseNbtTag<'a>) -> Self {
        tag.as_tag()
    }
}

impl fmt::Debug for BaseNbtTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_tag(), f)
    }
}

/// The result of [`read`]: a document, or nothing (an End root). Shaped like
/// `Option<BaseNbt>` under upstream simdnbt's names, so code written for it
/// keeps compiling; [`Nbt::default`] is `None`.
#[derive(Default)]
pub enum Nbt<'a> {
    /// A document.
    Some(BaseNbt<'a>),
    /// The input held an End tag: no document.
    #[default]
    None,
}

impl<'a> Nbt<'a> {
    /// Appends the document (or a single End byte for `None`) in network form.
    pub fn write_unnamed(&self, data: &mut Vec<u8>) {
        match self {
            Nbt::Some(nbt) => nbt.write_unnamed(data),
            Nbt::None => data.push(END),
        }
    }

    /// The document; panics on `None`.
    #[track_caller]
    pub fn unwrap(self) -> BaseNbt<'a> {
        match self {
            Nbt::Some(nbt) => nbt,
            Nbt::None => panic!("called `Nbt::unwrap()` on `Nbt::None`"),
        }
    }

    /// Appends the document (or a single End byte for `None`) in disk form.
    pub fn write(&self, data: &mut Vec<u8>) {
        let Nbt::Some(nbt) = self else {
            return data.push(END);
        };
        nbt.write(data)
    }

    /// Whether there is a document.
    pub fn is_some(&self) -> bool {
        matches!(self, Nbt::Some(_))
    }

    /// Whether the root was End.
    pub fn is_none(&self) -> bool {
        matches!(self, Nbt::None)
    }

    /// Converts to the owned model.
    pub fn to_owned(&self) -> crate::owned::Nbt {
        match self {
            Nbt::Some(nbt) => crate::owned::Nbt::Some(nbt.to_owned()),
            Nbt::None => crate::owned::Nbt::None,
        }
    }

    /// The document as an `Option`, for `?`, `let … else` and the `Option`
    /// combinators. (Also `Option::from(nbt)`.)
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// let end = [0u8]; // an End root: no document
    /// let nbt = simdnbt::borrow::read(&mut Cursor::new(&end[..])).unwrap();
    /// assert!(nbt.into_option().is_none());
    ///
    /// let bytes = [10, 0, 0, 3, 0, 1, b'x', 0, 0, 0, 7, 0];
    /// let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..])).unwrap();
    /// let Some(doc) = nbt.into_option() else { panic!("no document") };
    /// assert_eq!(doc.int("x"), Some(7));
    /// ```
    pub fn into_option(self) -> Option<BaseNbt<'a>> {
        match self {
            Nbt::Some(nbt) => Some(nbt),
            Nbt::None => None,
        }
    }

    /// The document by reference, as an `Option`.
    pub fn as_option(&self) -> Option<&BaseNbt<'a>> {
        match self {
            Nbt::Some(nbt) => Some(nbt),
            Nbt::None => None,
        }
    }

    /// The document, or `err` for an End root: `read(..)?.ok_or(MyError)?`.
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// fn score(bytes: &[u8]) -> Result<i32, Box<dyn std::error::Error>> {
    ///     let doc = simdnbt::borrow::read(&mut Cursor::new(bytes))?.ok_or("no document")?;
    ///     Ok(doc.int("Score").ok_or("no Score")?)
    /// }
    /// assert_eq!(score(&[10, 0, 0, 3, 0, 5, b'S', b'c', b'o', b'r', b'e', 0, 0, 0, 7, 0]).unwrap(), 7);
    /// assert_eq!(score(&[0]).unwrap_err().to_string(), "no document");
    /// ```
    pub fn ok_or<E>(self, err: E) -> Result<BaseNbt<'a>, E> {
        self.into_option().ok_or(err)
    }

    /// The document, or `err()` for an End root.
    pub fn ok_or_else<E>(self, err: impl FnOnce() -> E) -> Result<BaseNbt<'a>, E> {
        self.into_option().ok_or_else(err)
    }
}

impl<'a> From<Nbt<'a>> for Option<BaseNbt<'a>> {
    fn from(nbt: Nbt<'a>) -> Self {
        nbt.into_option()
    }
}

impl<'a> From<Option<BaseNbt<'a>>> for Nbt<'a> {
    fn from(nbt: Option<BaseNbt<'a>>) -> Self {
        match nbt {
            Some(nbt) => Nbt::Some(nbt),
            None => Nbt::None,
        }
    }
}

impl fmt::Debug for Nbt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nbt::Some(nbt) => f.debug_tuple("Some").field(nbt).finish(),
            Nbt::None => f.write_str("None"),
        }
    }
}

impl<'a> PartialEq for Nbt<'a> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Nbt::Some(a), Nbt::Some(b)) => a == b,
            (Nbt::None, Nbt::None) => true,
            _ => false,
        }
    }
}
