//! The error of [`crate::Deserialize`] and [`crate::FromNbtTag`]: what did not
//! fit, and where in the document.

use std::fmt;

use crate::path::NbtPath;
use crate::tag_id;

/// What went wrong mapping a document onto a Rust type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeserializeErrorKind {
    /// A field the type needs is not in the compound.
    MissingField,
    /// A value has another type than the field; the text says what was expected
    /// and, where known, what was found.
    MismatchedFieldType(String),
    /// A key the type does not know (with `#[simdnbt(deny_unknown_fields)]`).
    UnknownField(String),
}

/// A document did not fit the type it was read into: a
/// [`kind`](Self::kind) and the [`path`](Self::path) of the value
/// (`Inventory[3].tag.display.Name`).
///
/// Upstream simdnbt 0.10's `DeserializeError` is an enum; its variant names
/// work here as constructors (`DeserializeError::MissingField`,
/// `DeserializeError::MismatchedFieldType(what)`,
/// `DeserializeError::UnknownField(key)`), so hand-written impls compile
/// unchanged. Match on [`kind`](Self::kind) instead of on the error.
///
/// ```
/// use simdnbt::{DeserializeError, DeserializeErrorKind};
///
/// let e = DeserializeError::MissingField.in_field("Name").in_field("display");
/// assert_eq!(e.kind(), &DeserializeErrorKind::MissingField);
/// assert_eq!(e.path().to_string(), "display.Name");
/// assert_eq!(e.to_string(), "missing field display.Name");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeserializeError {
    kind: DeserializeErrorKind,
    path: NbtPath,
}

#[allow(non_upper_case_globals, non_snake_case)]
impl DeserializeError {
    /// A missing field (upstream's `DeserializeError::MissingField`), at the root.
    /// [`in_field`](Self::in_field) adds where.
    pub const MissingField: DeserializeError = DeserializeError {
        kind: DeserializeErrorKind::MissingField,
        path: NbtPath::new(),
    };

    /// A value of the wrong type (upstream's
    /// `DeserializeError::MismatchedFieldType(what)`); `what` describes it.
    pub fn MismatchedFieldType(what: String) -> Self {
        Self::new(DeserializeErrorKind::MismatchedFieldType(what))
    }

    /// An unexpected key (upstream's `DeserializeError::UnknownField(key)`).
    pub fn UnknownField(key: String) -> Self {
        Self::new(DeserializeErrorKind::UnknownField(key))
    }
}

impl DeserializeError {
    /// An error of `kind` at the root; add the path with
    /// [`in_field`](Self::in_field) and [`at_index`](Self::at_index) on the way out.
    pub fn new(kind: DeserializeErrorKind) -> Self {
        Self {
            kind,
            path: NbtPath::new(),
        }
    }

    /// A value of tag type `found` where a `expected` was wanted.
    ///
    /// ```
    /// let e = simdnbt::DeserializeError::mismatched("i32", simdnbt::tag_id::STRING);
    /// assert_eq!(e.to_string(), "mismatched type: expected i32, found a String tag");
    /// ```
    pub fn mismatched(expected: &str, found: u8) -> Self {
        Self::MismatchedFieldType(format!(
            "expected {expected}, found a {} tag",
            tag_id::name(found)
        ))
    }

    /// What went wrong.
    pub fn kind(&self) -> &DeserializeErrorKind {
        &self.kind
    }

    /// Where: the path from the document root to the value.
    pub fn path(&self) -> &NbtPath {
        &self.path
    }

    /// The same error one level out: the value was under compound key `key`.
    pub fn in_field(mut self, key: impl Into<String>) -> Self {
        self.path.push_key_front(key);
        self
    }

    /// The same error one level out: the value was element `index` of a list.
    pub fn at_index(mut self, index: usize) -> Self {
        self.path.push_index_front(index);
        self
    }
}

impl fmt::Display for DeserializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DeserializeErrorKind::MissingField => f.write_str("missing field")?,
            DeserializeErrorKind::MismatchedFieldType(what) => {
                write!(f, "mismatched type")?;
                if !self.path.is_empty() {
                    write!(f, " at {}", self.path)?;
                }
                return write!(f, ": {what}");
            }
            DeserializeErrorKind::UnknownField(_) => f.write_str("unknown field")?,
        }
        if !self.path.is_empty() {
            write!(f, " {}", self.path)?;
        }
        Ok(())
    }
}

impl std::error::Error for DeserializeError {}
