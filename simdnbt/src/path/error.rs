//! `PathError`: why a path edit changed nothing.

use std::fmt;

use super::NbtPath;

/// Why [`NbtPath::set`] wrote nothing. `Display` names the path.
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
/// use simdnbt::path::NbtPath;
///
/// let err = NbtPath::parse("a.b").unwrap().set(&mut NbtCompound::new(), NbtTag::Int(1)).unwrap_err();
/// assert_eq!(err.to_string(), "a.b: the path selects nothing that can be set");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    path: NbtPath,
    kind: PathErrorKind,
}

/// What [`PathError`] is about.
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
/// use simdnbt::path::{NbtPath, PathErrorKind};
///
/// let err = NbtPath::parse("").unwrap().set(&mut NbtCompound::new(), NbtTag::Int(1)).unwrap_err();
/// assert_eq!(err.kind(), &PathErrorKind::SelectsRoot);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathErrorKind {
    /// Nothing matched, or no match is a place a value can be put.
    NothingSelected,
    /// The path selects the root compound, which cannot be replaced.
    SelectsRoot,
    /// The value's type does not fit a place the path selects: an element of
    /// a list or array of another element type.
    WrongType {
        /// The concrete path of the place.
        at: NbtPath,
        /// The element type there (a [`crate::tag_id`]).
        expected: u8,
        /// The value's type.
        found: u8,
    },
    /// A [`Document`](crate::document::Document) refused the value at a
    /// place (a string over 65535 bytes, nesting past the depth limit):
    /// the document is unchanged.
    Refused {
        /// The concrete path of the place.
        at: NbtPath,
        /// Why the document refused it.
        error: crate::document::EditError,
    },
}

impl PathError {
    pub(crate) fn new(path: &NbtPath, kind: PathErrorKind) -> Self {
        PathError {
            path: path.clone(),
            kind,
        }
    }

    /// The path that was evaluated.
    ///
    /// ```
    /// use simdnbt::owned::{NbtCompound, NbtTag};
    /// let p = simdnbt::path::NbtPath::parse("x[0]").unwrap();
    /// let err = p.set(&mut NbtCompound::new(), NbtTag::Int(1)).unwrap_err();
    /// assert_eq!(err.path(), &p);
    /// ```
    pub fn path(&self) -> &NbtPath {
        &self.path
    }

    /// What went wrong.
    ///
    /// ```
    /// use simdnbt::owned::{NbtCompound, NbtTag};
    /// use simdnbt::path::{NbtPath, PathErrorKind};
    /// let err = NbtPath::parse("x").unwrap().remove(&mut NbtCompound::new());
    /// assert_eq!(err, 0);
    /// let err = NbtPath::parse("x[0]").unwrap().set(&mut NbtCompound::new(), NbtTag::Int(1)).unwrap_err();
    /// assert_eq!(err.kind(), &PathErrorKind::NothingSelected);
    /// ```
    pub fn kind(&self) -> &PathErrorKind {
        &self.kind
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)".to_owned()
        } else {
            self.path.to_string()
        };
        match &self.kind {
            PathErrorKind::NothingSelected => {
                write!(f, "{path}: the path selects nothing that can be set")
            }
            PathErrorKind::SelectsRoot => {
                write!(
                    f,
                    "{path}: the path selects the root, which cannot be replaced"
                )
            }
            PathErrorKind::WrongType {
                at,
                expected,
                found,
            } => write!(
                f,
                "{path}: {at} holds {} elements, not {}",
                crate::tag_id::name(*expected),
                crate::tag_id::name(*found)
            ),
            PathErrorKind::Refused { at, error } => write!(f, "{path}: {at}: {error}"),
        }
    }
}

impl std::error::Error for PathError {}
