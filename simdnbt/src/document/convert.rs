//! Conversions between the document and the other models: through NBT bytes,
//! which every model writes and the validating core reads, so a conversion
//! never recurses and accepts exactly what a read would.

use super::{Document, Form, Layout};
use crate::error::WriteError;
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
        Ok(Document::read_written(bytes, Form::Named))
    }

    /// A document (unnamed form) whose root is a copy of `tag`, of any type.
    pub fn from_owned_tag(tag: &owned::NbtTag) -> Result<Document, WriteError> {
        let mut bytes = Vec::new();
        tag.write(&mut bytes)?;
        Ok(Document::read_written(bytes, Form::Unnamed))
    }

    /// A document (named form) holding a copy of a borrowed document's bytes.
    pub fn from_borrow(nbt: &borrow::BaseNbt<'_>) -> Document {
        let mut bytes = Vec::new();
        nbt.write(&mut bytes);
        Document::read_written(bytes, Form::Named)
    }

    /// A document (unnamed form) whose root is a copy of a borrowed tag.
    pub fn from_borrow_tag(tag: borrow::NbtTag<'_, '_>) -> Document {
        let mut bytes = Vec::new();
        tag.write(&mut bytes);
        Document::read_written(bytes, Form::Unnamed)
    }

    /// Reads bytes a writer of this crate produced (any depth: a borrowed
    /// document may have been read with a raised limit).
    ///
    /// Panics only on a value of more than 2 GiB (`MAX_BYTES`), which these
    /// conversions' signatures cannot refuse (the borrow reader and the owned
    /// writer have no such limit): the one way this `expect` is reached.
    fn read_written(bytes: Vec<u8>, form: Form) -> Document {
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let at = Layout::find(&bytes, 0, form)
            .ok()
            .flatten()
            .expect("written NBT has a root");
        let mut doc = Document::parse_vec(bytes, &at, &opts).expect("written NBT reads back");
        // Edits keep to the usual limit, or to the depth the value has.
        doc.max_depth = crate::DEFAULT_MAX_DEPTH;
        doc
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
