//! The owned model: a tree you can build, change and write.
//!
//! Reading is one pass of the validating core every reader shares
//! (`build.rs` is the owned model's sink), so the owned and borrowed readers
//! accept exactly the same inputs and fail at the same offsets. The
//! builder's scratch stacks (the entries of the compounds still open) are
//! kept by each thread from one read to the next, so that a read allocates
//! only the tree it returns; stacks grown past 1,024 entries (56 KiB) are
//! freed after the read instead.
//!
//! ```
//! use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
//!
//! let mut root = NbtCompound::new();
//! root.insert("name", "Steve");
//! root.insert("pos", NbtList::Double(vec![1.0, 64.0, -3.5]));
//! let nbt = Nbt::Some(BaseNbt::new("", root));
//!
//! let mut bytes = Vec::new();
//! nbt.write(&mut bytes).unwrap();
//! let back = simdnbt::owned::read(&mut std::io::Cursor::new(&bytes[..])).unwrap();
//! assert_eq!(back, nbt);
//! assert_eq!(back.unwrap().string("name").unwrap().to_str(), "Steve");
//! ```

pub(crate) mod build;
mod compound;
mod debug;
mod entries;
mod estimate;
pub(crate) mod from_borrow;
mod iterative;
mod layout;
mod list;
mod number;
mod tag;
mod write;

use std::io::Cursor;
use std::ops::{Deref, DerefMut};

pub use compound::NbtCompound;
pub use list::NbtList;
pub use tag::NbtTag;

use crate::WriteError;
use crate::error::{Error, ErrorKind, NonRootError};
use crate::mutf8::{Mutf8Str, Mutf8String};
use crate::options::ReadOptions;
use crate::read::root::{RootPrefix, cursor_parts, not_compressed, root_prefix_in, tag_prefix};
use crate::read::wire::{BigEndian, Wire};
use crate::tag_id::{COMPOUND, END};

/// Open containers the owned tree's walks (the writer, the drop) keep
/// inline on their stack (`crate::stack`): Minecraft nests a few levels.
const STACK_INLINE: usize = 8;

/// Reads a named root compound (disk form). `Ok(Nbt::None)` for an End root.
/// Accepts and rejects exactly what [`crate::borrow::read`] does.
pub fn read(data: &mut Cursor<&[u8]>) -> Result<Nbt, Error> {
    read_with(data, &ReadOptions::default())
}

/// [`read`] with explicit limits.
pub fn read_with(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Nbt, Error> {
    read_root(data, opts, true)
}

/// Reads an unnamed root compound (network form since 1.20.2).
pub fn read_unnamed(data: &mut Cursor<&[u8]>) -> Result<Nbt, Error> {
    read_unnamed_with(data, &ReadOptions::default())
}

/// [`read_unnamed`] with explicit limits.
pub fn read_unnamed_with(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Nbt, Error> {
    read_root(data, opts, false)
}

/// Reads a compound's payload (named tags up to End), with no id or name before it.
///
/// The error is a [`NonRootError`] (upstream's type): an [`Error`] with its offset,
/// which `?` converts.
pub fn read_compound(data: &mut Cursor<&[u8]>) -> Result<NbtCompound, NonRootError> {
    let (bytes, pos) = cursor_parts(data);
    not_compressed(bytes, pos)?;
    let tag = read_value(data, pos, COMPOUND, &ReadOptions::default())?;
    Ok(into_compound(tag))
}

/// Reads an unnamed tag of any type but End (network form since 1.20.3).
pub fn read_tag(data: &mut Cursor<&[u8]>) -> Result<NbtTag, NonRootError> {
    let start = data.position();
    match read_optional_tag(data)? {
        Some(tag) => Ok(tag),
        None => Err(Error::new(ErrorKind::InvalidRootType(END), start as usize).into()),
    }
}

/// Reads an unnamed tag of any type; End means "no value" (`Ok(None)`).
pub fn read_optional_tag(data: &mut Cursor<&[u8]>) -> Result<Option<NbtTag>, NonRootError> {
    read_optional_tag_with(data, &ReadOptions::default())
}

/// [`read_optional_tag`] with explicit limits.
pub fn read_optional_tag_with(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
) -> Result<Option<NbtTag>, NonRootError> {
    let (bytes, pos) = cursor_parts(data);
    let Some((id, payload)) = tag_prefix(bytes, pos)? else {
        data.set_position(pos as u64 + 1);
        return Ok(None);
    };
    Ok(Some(read_value(data, payload, id, opts)?))
}

/// Reads the value of type `id` whose payload is at `pos` in one pass of the
/// validating core and moves the cursor past it.
fn read_value(
    data: &mut Cursor<&[u8]>,
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<NbtTag, Error> {
    read_value_in::<BigEndian>(data, pos, id, opts)
}

/// [`read_value`] for input in form `W`.
fn read_value_in<W: Wire>(
    data: &mut Cursor<&[u8]>,
    pos: usize,
    id: u8,
    opts: &ReadOptions,
) -> Result<NbtTag, Error> {
    let bytes: &[u8] = data.get_ref();
    let (tag, end) =
        crate::read::read_value_in::<W, _>(bytes, pos, id, opts, build::OwnedSink::<W>::new)?;
    data.set_position(end as u64);
    Ok(tag)
}

/// The compound a compound root was read into.
fn into_compound(tag: NbtTag) -> NbtCompound {
    match tag {
        NbtTag::Compound(c) => c,
        _ => unreachable!("the core read a compound root"),
    }
}

fn read_root(data: &mut Cursor<&[u8]>, opts: &ReadOptions, named: bool) -> Result<Nbt, Error> {
    read_root_in::<BigEndian>(data, opts, named)
}

/// [`read_root`] for input in form `W` (the Bedrock readers,
/// [`crate::bedrock::owned`]).
pub(crate) fn read_root_in<W: Wire>(
    data: &mut Cursor<&[u8]>,
    opts: &ReadOptions,
    named: bool,
) -> Result<Nbt, Error> {
    let (bytes, start) = cursor_parts(data);
    match root_prefix_in::<W>(bytes, start, named)? {
        RootPrefix::End { end } => {
            data.set_position(end as u64);
            Ok(Nbt::None)
        }
        RootPrefix::Compound {
            name_off, payload, ..
        } => {
            let name = match name_off {
                Some(off) => build::string_at::<W>(bytes, off),
                None => Mutf8String::new(),
            };
            let tag = read_value_in::<W>(data, payload, COMPOUND, opts)?;
            Ok(Nbt::Some(BaseNbt::new(name, into_compound(tag))))
        }
    }
}

/// A named root compound: what an NBT file holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BaseNbt {
    name: Mutf8String,
    tag: NbtCompound,
}

impl BaseNbt {
    /// Makes a document from a root name (usually `""`) and compound.
    pub fn new(name: impl Into<Mutf8String>, tag: NbtCompound) -> Self {
        Self {
            name: name.into(),
            tag,
        }
    }

    /// The root name.
    pub fn name(&self) -> &Mutf8Str {
        &self.name
    }

    /// The root compound.
    pub fn as_compound(self) -> NbtCompound {
        self.tag
    }

    /// Appends the document in disk form: `0a`, name, payload.
    ///
    /// Unlike upstream simdnbt this returns a `Result`: a string over 65535
    /// encoded bytes, a list or array over `i32::MAX` elements, or nesting deeper
    /// than 512 is an error instead of a corrupt file. On error `data` may hold a
    /// partial document; discard it.
    pub fn write(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        // Reserve for the whole document before the first byte, so the
        // header does not cost an extra allocation.
        data.reserve(3 + self.name.len() + estimate::reserve_for(&self.tag));
        data.push(crate::tag_id::COMPOUND);
        write::string(&self.name, data)?;
        write::compound_payload_in_room(&self.tag, data)
    }

    /// Appends the document in network form: `0a`, payload (no name).
    pub fn write_unnamed(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        data.reserve(1 + estimate::reserve_for(&self.tag));
        data.push(crate::tag_id::COMPOUND);
        write::compound_payload_in_room(&self.tag, data)
    }
}

impl Deref for BaseNbt {
    type Target = NbtCompound;
    fn deref(&self) -> &NbtCompound {
        &self.tag
    }
}

impl DerefMut for BaseNbt {
    fn deref_mut(&mut self) -> &mut NbtCompound {
        &mut self.tag
    }
}

impl From<NbtCompound> for BaseNbt {
    fn from(tag: NbtCompound) -> Self {
        Self::new("", tag)
    }
}

impl IntoIterator for BaseNbt {
    type Item = (Mutf8String, NbtTag);
    type IntoIter = std::vec::IntoIter<(Mutf8String, NbtTag)>;
    fn into_iter(self) -> Self::IntoIter {
        self.tag.into_iter()
    }
}

/// A document, or nothing (an End root): `Option<BaseNbt>` under upstream
/// simdnbt's names. [`Nbt::default`] is `None`.
#[derive(Clone, Default, PartialEq, Debug)]
pub enum Nbt {
    /// A document.
    Some(BaseNbt),
    /// No document (the input was a single End byte).
    #[default]
    None,
}

impl Nbt {
    /// Appends the document in disk form, or a single End byte for `None`.
    /// See [`BaseNbt::write`] for the errors.
    pub fn write(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        match self {
            Nbt::Some(nbt) => nbt.write(data),
            Nbt::None => {
                data.push(crate::tag_id::END);
                Ok(())
            }
        }
    }

    /// Appends the document in network form, or a single End byte for `None`.
    pub fn write_unnamed(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        match self {
            Nbt::Some(nbt) => nbt.write_unnamed(data),
            Nbt::None => {
                data.push(crate::tag_id::END);
                Ok(())
            }
        }
    }

    /// A document with this root name and compound. (The name is a
    /// `Mutf8String`, as upstream, so that `Nbt::new("".into(), c)` infers.)
    pub fn new(name: Mutf8String, tag: NbtCompound) -> Self {
        Nbt::Some(BaseNbt::new(name, tag))
    }

    /// The document; panics on `None`.
    #[track_caller]
    pub fn unwrap(self) -> BaseNbt {
        match self {
            Nbt::Some(nbt) => nbt,
            Nbt::None => panic!("called `Nbt::unwrap()` on `Nbt::None`"),
        }
    }

    /// The document, or `default` for `None`.
    pub fn unwrap_or<'a>(&'a self, default: &'a BaseNbt) -> &'a BaseNbt {
        match self {
            Nbt::Some(nbt) => nbt,
            Nbt::None => default,
        }
    }

    /// Whether there is a document.
    pub fn is_some(&self) -> bool {
        matches!(self, Nbt::Some(_))
    }

    /// Whether the root was End.
    pub fn is_none(&self) -> bool {
        matches!(self, Nbt::None)
    }

    /// The root compound's tags in order (none for `Nbt::None`).
    pub fn iter(&self) -> impl Iterator<Item = (&Mutf8Str, &NbtTag)> {
        (**self).iter()
    }

    /// The document as an `Option`, for `?`, `let … else` and the `Option`
    /// combinators. (Also `Option::from(nbt)`, and `Nbt::from(option)` back.)
    ///
    /// ```
    /// use simdnbt::owned::{BaseNbt, Nbt, NbtCompound};
    ///
    /// assert_eq!(Nbt::None.into_option(), None);
    /// let doc = BaseNbt::new("", NbtCompound::from_values(vec![("x".into(), 7.into())]));
    /// let nbt = Nbt::from(Some(doc.clone()));
    /// assert_eq!(nbt.as_option(), Some(&doc));
    /// assert_eq!(nbt.into_option(), Some(doc));
    /// ```
    pub fn into_option(self) -> Option<BaseNbt> {
        match self {
            Nbt::Some(nbt) => Some(nbt),
            Nbt::None => None,
        }
    }

    /// The document by reference, as an `Option`.
    pub fn as_option(&self) -> Option<&BaseNbt> {
        match self {
            Nbt::Some(nbt) => Some(nbt),
            Nbt::None => None,
        }
    }

    /// The document mutably, as an `Option`.
    pub fn as_option_mut(&mut self) -> Option<&mut BaseNbt> {
        match self {
            Nbt::Some(nbt) => Some(nbt),
            Nbt::None => None,
        }
    }

    /// The document, or `err` for `None`: `owned::read(..)?.ok_or(MyError)?`.
    ///
    /// ```
    /// use std::io::Cursor;
    ///
    /// let end = [0u8];
    /// let nbt = simdnbt::owned::read(&mut Cursor::new(&end[..])).unwrap();
    /// assert_eq!(nbt.ok_or("no document").unwrap_err(), "no document");
    /// ```
    pub fn ok_or<E>(self, err: E) -> Result<BaseNbt, E> {
        self.into_option().ok_or(err)
    }

    /// The document, or `err()` for `None`.
    pub fn ok_or_else<E>(self, err: impl FnOnce() -> E) -> Result<BaseNbt, E> {
        self.into_option().ok_or_else(err)
    }
}

impl From<Nbt> for Option<BaseNbt> {
    fn from(nbt: Nbt) -> Self {
        nbt.into_option()
    }
}

impl From<Option<BaseNbt>> for Nbt {
    fn from(nbt: Option<BaseNbt>) -> Self {
        match nbt {
            Some(nbt) => Nbt::Some(nbt),
            None => Nbt::None,
        }
    }
}

/// The document, or an empty one (no name, no tags) for `Nbt::None`, so that
/// `nbt.int("x")` works on an `Nbt` as upstream simdnbt allows.
///
/// ```
/// use simdnbt::owned::{Nbt, NbtCompound};
///
/// let mut c = NbtCompound::new();
/// c.insert("x", 5);
/// assert_eq!(Nbt::new("".into(), c).int("x"), Some(5));
/// assert_eq!(Nbt::None.int("x"), None);
/// assert!(Nbt::None.is_empty());
/// ```
impl Deref for Nbt {
    type Target = BaseNbt;
    fn deref(&self) -> &BaseNbt {
        static EMPTY: BaseNbt = BaseNbt {
            name: Mutf8String::new(),
            tag: NbtCompound::new(),
        };
        match self {
            Nbt::Some(nbt) => nbt,
            Nbt::None => &EMPTY,
        }
    }
}

/// The root compound's tags (none for `Nbt::None`).
impl IntoIterator for Nbt {
    type Item = (Mutf8String, NbtTag);
    type IntoIter = std::vec::IntoIter<(Mutf8String, NbtTag)>;
    fn into_iter(self) -> Self::IntoIter {
        match self {
            Nbt::Some(nbt) => nbt.into_iter(),
            Nbt::None => Vec::new().into_iter(),
        }
    }
}
