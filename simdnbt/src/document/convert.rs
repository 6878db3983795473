//! Conversions between the document and the other models: through NBT bytes,
//! which every model writes and the validating core reads, so a conversion
//! never recurses and accepts exactly what a read would.

use super::read::RootParts;
use super::{Document, Framing, MAX_BYTES};
use crate::error::{Error, ErrorKind, WriteError};
use crate::options::ReadOptions;
use crate::{borrow, owned};

impl Document {
    /// A document (named form) holding a copy of `nbt`.
    ///
    /// The owned writer's checks apply: a string over 65535 encoded bytes, a
    /// list or array over `i32::MAX` elements or nesting past 512 levels is
    /// an error.
    ///
    /// ```
    /// use simdnbt::owned::{BaseNbt, NbtCompound};
    /// let mut c = NbtCompound::new();
    /// c.insert("x", 1);
    /// let doc = simdnbt::document::Document::from_owned(&BaseNbt::new("root", c))?;
    /// assert_eq!((doc.name().to_str().as_ref(), doc.int("x")), ("root", Some(1)));
    /// # Ok::<(), simdnbt::WriteError>(())
    /// ```
    pub fn from_owned(nbt: &owned::BaseNbt) -> Result<Document, WriteError> {
        let mut bytes = Vec::new();
        nbt.write(&mut bytes)?;
        Document::read_written_owned(bytes, Framing::Named)
    }

    /// A document (unnamed form) whose root is a copy of `tag`, of any type.
    /// Errors as [`from_owned`](Self::from_owned).
    pub fn from_owned_tag(tag: &owned::NbtTag) -> Result<Document, WriteError> {
        let mut bytes = Vec::new();
        tag.write(&mut bytes)?;
        Document::read_written_owned(bytes, Framing::Unnamed)
    }

    /// A document (named form) holding a copy of a borrowed document's bytes.
    ///
    /// # Panics
    ///
    /// If the value takes more than 2 GiB (2^31 − 1 bytes, what a document
    /// holds), which a borrowed document read from such an input may:
    /// [`try_from_borrow`](Self::try_from_borrow) returns an error instead.
    pub fn from_borrow(nbt: &borrow::BaseNbt<'_>) -> Document {
        Document::try_from_borrow(nbt).unwrap_or_else(|e| too_large(e))
    }

    /// [`from_borrow`](Self::from_borrow), with an error
    /// ([`ErrorKind::InputTooLarge`], at
    /// offset 2^31 − 1 of the written bytes) for a value of more than 2 GiB.
    pub fn try_from_borrow(nbt: &borrow::BaseNbt<'_>) -> Result<Document, Error> {
        let mut bytes = Vec::new();
        nbt.write(&mut bytes);
        Document::read_written(bytes, Framing::Named)
    }

    /// A document (unnamed form) whose root is a copy of a borrowed tag.
    ///
    /// # Panics
    ///
    /// As [`from_borrow`](Self::from_borrow);
    /// [`try_from_borrow_tag`](Self::try_from_borrow_tag) returns an error
    /// instead.
    pub fn from_borrow_tag(tag: borrow::NbtTag<'_, '_>) -> Document {
        Document::try_from_borrow_tag(tag).unwrap_or_else(|e| too_large(e))
    }

    /// [`from_borrow_tag`](Self::from_borrow_tag), with an error for a value
    /// of more than 2 GiB, as [`try_from_borrow`](Self::try_from_borrow).
    pub fn try_from_borrow_tag(tag: borrow::NbtTag<'_, '_>) -> Result<Document, Error> {
        let mut bytes = Vec::new();
        tag.write(&mut bytes);
        Document::read_written(bytes, Framing::Unnamed)
    }

    /// [`read_written`](Self::read_written) for the owned conversions, whose
    /// error type is the writer's.
    fn read_written_owned(bytes: Vec<u8>, form: Framing) -> Result<Document, WriteError> {
        let len = bytes.len();
        Document::read_written(bytes, form).map_err(|_| WriteError::DocumentTooLarge { len })
    }

    /// Reads bytes a writer of this crate produced (any depth: a borrowed
    /// document may have been read with a raised limit). The one error:
    /// more than [`MAX_BYTES`] ([`ErrorKind::InputTooLarge`]), which the
    /// borrow reader and the owned writer do not limit.
    pub(crate) fn read_written(bytes: Vec<u8>, form: Framing) -> Result<Document, Error> {
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let too_large = || Error::new(ErrorKind::InputTooLarge, MAX_BYTES);
        if bytes.len() > MAX_BYTES {
            return Err(too_large());
        }
        // Valid NBT (a writer's) within the size: it reads back. Any other
        // refusal is reported as the size, the only one possible.
        let at = RootParts::find(&bytes, 0, form)
            .ok()
            .flatten()
            .ok_or_else(too_large)?;
        let mut doc = Document::parse_vec(bytes, &at, &opts).map_err(|e| {
            debug_assert!(false, "written NBT reads back: {e:?}");
            too_large()
        })?;
        // Edits keep to the usual limit, or to the depth the value has.
        doc.max_depth = crate::DEFAULT_MAX_DEPTH;
        Ok(doc)
    }

    /// The root compound as an owned document ([`owned::Nbt::None`] when
    /// the root is not a compound; use `self.root().to_owned()` for any root).
    pub fn to_owned_nbt(&self) -> owned::Nbt {
        match self.as_compound() {
            Some(c) => owned::Nbt::Some(owned::BaseNbt::new(self.name().to_owned(), c.to_owned())),
            None => owned::Nbt::None,
        }
    }
}

/// The documented panic of the infallible conversions.
#[cold]
#[track_caller]
fn too_large(e: Error) -> ! {
    panic!("a value past what a document holds (use the try_ conversion): {e}")
}

/// The owned document's copy, as [`Document::from_owned`] makes it.
impl TryFrom<&owned::BaseNbt> for Document {
    type Error = WriteError;
    fn try_from(nbt: &owned::BaseNbt) -> Result<Self, WriteError> {
        Document::from_owned(nbt)
    }
}

impl From<&Document> for owned::Nbt {
    fn from(doc: &Document) -> Self {
        doc.to_owned_nbt()
    }
}
