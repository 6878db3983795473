//! The one error type of [`crate::serde`]: what went wrong, the byte offset
//! and the NBT path of the value it happened at.

use std::fmt;

use crate::path::NbtPath;

/// An error from [`crate::serde`]: reading, mapping or writing.
///
/// It knows the byte offset in the input (when reading; the start of the tag
/// the error is about, or where the reader stopped) and the path of the value
/// inside the document, such as `Inventory[3].tag.display.Name`.
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct Item { #[allow(dead_code)] count: i8 }
///
/// // {"count": "x"} : a String where a Byte is expected
/// let bytes = [0x0a, 0, 0, 8, 0, 5, b'c', b'o', b'u', b'n', b't', 0, 1, b'x', 0];
/// let err = simdnbt::serde::from_slice::<Item>(&bytes).unwrap_err();
/// assert_eq!(err.path(), "count");
/// assert_eq!(err.offset(), Some(3));
/// assert!(err.to_string().starts_with("invalid type: string \"x\", expected i8"));
/// ```
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: Kind,
    offset: Option<usize>,
    /// Grown from the inside out while the error travels up.
    path: NbtPath,
}

enum Kind {
    Message(String),
    Read(crate::Error),
    Write(crate::WriteError),
    Io(std::io::Error),
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

impl Error {
    fn new(kind: Kind, offset: Option<usize>) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                offset,
                path: NbtPath::new(),
            }),
        }
    }

    #[cold]
    pub(crate) fn msg(msg: impl fmt::Display) -> Self {
        Self::new(Kind::Message(msg.to_string()), None)
    }

    #[cold]
    pub(crate) fn msg_at(msg: impl fmt::Display, offset: usize) -> Self {
        Self::new(Kind::Message(msg.to_string()), Some(offset))
    }

    #[cold]
    pub(crate) fn write(e: crate::WriteError) -> Self {
        Self::new(Kind::Write(e), None)
    }

    #[cold]
    pub(crate) fn io(e: std::io::Error) -> Self {
        Self::new(Kind::Io(e), None)
    }

    /// Sets the offset unless a deeper value already did.
    #[cold]
    pub(crate) fn at(mut self, offset: usize) -> Self {
        self.inner.offset.get_or_insert(offset);
        self
    }

    /// Prepends a compound key to the path.
    #[cold]
    pub(crate) fn in_key(mut self, key: &str) -> Self {
        self.inner.path.push_key_front(key);
        self
    }

    /// Prepends a list index to the path.
    #[cold]
    pub(crate) fn in_index(mut self, index: usize) -> Self {
        self.inner.path.push_index_front(index);
        self
    }

    /// The byte offset in the input where the value in question starts (or
    /// where the reader stopped); `None` for errors that are not about input
    /// bytes (serialization, I/O).
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The path of the value in the document, such as
    /// `Inventory[3].tag.display.Name`; empty for the root. It is
    /// [`NbtPath`]'s text (the one formatter of paths): keys that are empty or
    /// hold anything but ASCII letters, digits, `_`, `-` and `+` are quoted
    /// (`a."x.y"`), and [`NbtPath::parse`] reads it back.
    pub fn path(&self) -> String {
        self.inner.path.to_string()
    }

    /// The same path as an [`NbtPath`], to evaluate or take apart.
    ///
    /// ```
    /// let bytes = [0x0a, 0, 0, 8, 0, 1, b'n', 0, 1, b'x', 0];
    /// let err = simdnbt::serde::from_slice::<std::collections::HashMap<String, i32>>(&bytes)
    ///     .unwrap_err();
    /// assert_eq!(err.nbt_path().to_string(), "n");
    /// ```
    pub fn nbt_path(&self) -> &NbtPath {
        &self.inner.path
    }

    /// The reader's error, when the bytes are not valid NBT (or break a
    /// [`crate::ReadOptions`] limit).
    pub fn read_error(&self) -> Option<&crate::Error> {
        match &self.inner.kind {
            Kind::Read(e) => Some(e),
            _ => None,
        }
    }

    /// The writer's error, when a value cannot be written as valid NBT.
    pub fn write_error(&self) -> Option<&crate::WriteError> {
        match &self.inner.kind {
            Kind::Write(e) => Some(e),
            _ => None,
        }
    }

    /// The I/O error, from [`super::from_reader`] or [`super::to_writer`].
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match &self.inner.kind {
            Kind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<crate::Error> for Error {
    #[cold]
    fn from(e: crate::Error) -> Self {
        Self::new(Kind::Read(e), Some(e.offset()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.kind {
            Kind::Message(m) => f.write_str(m)?,
            // The reader's own message ends in "at byte N": don't say it twice.
            Kind::Read(e) => fmt::Display::fmt(&e.kind(), f)?,
            Kind::Write(e) => fmt::Display::fmt(e, f)?,
            Kind::Io(e) => fmt::Display::fmt(e, f)?,
        }
        if !self.inner.path.is_empty() {
            write!(f, " at {}", self.path())?;
        }
        if let Some(off) = self.inner.offset {
            write!(f, " (byte {off})")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?})", self.to_string())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            Kind::Message(_) => None,
            Kind::Read(e) => Some(e),
            Kind::Write(e) => Some(e),
            Kind::Io(e) => Some(e),
        }
    }
}

impl ::serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::msg(msg)
    }
}

impl ::serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::msg(msg)
    }
}
