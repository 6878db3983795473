//! The nodes a path is made of, and the SNBT filters some of them carry.

use std::fmt;

#[cfg(doc)]
use super::NbtPath;

#[cfg(feature = "snbt")]
use super::Value;
#[cfg(feature = "snbt")]
use crate::owned;

/// One node of an [`NbtPath`].
///
/// [`NbtPath::segments`] lists them from the root. Concrete paths (what errors
/// report and [`NbtPath::resolve_all`] returns) hold only [`Key`](Self::Key)
/// and [`Index`](Self::Index).
///
/// ```
/// use simdnbt::path::{NbtPath, PathSegment};
///
/// let p = NbtPath::parse("Items[-1]").unwrap();
/// let segments: Vec<_> = p.segments().cloned().collect();
/// assert_eq!(segments, [PathSegment::Key("Items".into()), PathSegment::IndexFromEnd(1)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PathSegment {
    /// A compound key: `name` or `"name"`.
    Key(String),
    /// A list or array index from the start: `[3]`.
    Index(usize),
    /// An index from the end, at least 1: `[-1]` is the last element.
    IndexFromEnd(usize),
    /// Every element of a list or array: `[]`.
    AllElements,
    /// The compound elements of a list that match: `[{Slot:0b}]`.
    #[cfg(feature = "snbt")]
    ElementFilter(Filter),
    /// Keeps the selected value only if it is a compound that matches. In
    /// text it is written right after a key (`a{b:1b}`) or as the first node
    /// (`{b:1b}`, a root filter); it appears nowhere else.
    #[cfg(feature = "snbt")]
    Filter(Filter),
}

/// An SNBT compound that values are matched against (see the module docs).
///
/// ```
/// let f = simdnbt::path::Filter::parse("{Slot: 0b}").unwrap();
/// assert_eq!(f.to_string(), "{Slot:0b}");
/// assert_eq!(f.compound().byte("Slot"), Some(0));
/// ```
#[cfg(feature = "snbt")]
#[derive(Clone)]
pub struct Filter(pub(super) owned::NbtCompound);

#[cfg(feature = "snbt")]
impl Filter {
    /// Parses an SNBT compound (the whole text) as a filter.
    ///
    /// ```
    /// assert!(simdnbt::path::Filter::parse("{a:[1,2]}").is_ok());
    /// assert!(simdnbt::path::Filter::parse("[1]").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Filter, crate::snbt::Error> {
        crate::snbt::compound_from_str(text).map(Filter)
    }

    /// Makes a filter of a compound.
    ///
    /// ```
    /// let mut c = simdnbt::owned::NbtCompound::new();
    /// c.insert("Slot", 0i8);
    /// assert_eq!(simdnbt::path::Filter::new(c).to_string(), "{Slot:0b}");
    /// ```
    pub fn new(compound: owned::NbtCompound) -> Filter {
        Filter(compound)
    }

    /// The compound.
    ///
    /// ```
    /// let f = simdnbt::path::Filter::parse("{a:1}").unwrap();
    /// assert_eq!(f.compound().int("a"), Some(1));
    /// ```
    pub fn compound(&self) -> &owned::NbtCompound {
        &self.0
    }

    /// Whether `value` matches this filter.
    ///
    /// ```
    /// let f = simdnbt::path::Filter::parse("{a:1}").unwrap();
    /// let doc = simdnbt::snbt::compound_from_str("{a:1,b:2}").unwrap();
    /// assert!(f.matches(simdnbt::path::Value::Compound(&doc)));
    /// ```
    pub fn matches(&self, value: Value<'_>) -> bool {
        super::filter::matches(&self.0, value)
    }

    /// The filter's SNBT (what `Display` writes), or a placeholder for a
    /// compound that SNBT cannot print (a NaN float, only from [`Filter::new`]).
    fn text(&self) -> String {
        crate::snbt::to_string(&self.0).unwrap_or_else(|_| "{}".to_owned())
    }
}

#[cfg(feature = "snbt")]
impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

#[cfg(feature = "snbt")]
impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Filter({})", self.text())
    }
}

/// Filters are equal when their compounds are (floats by bits, so equality is
/// reflexive: `Eq` holds).
#[cfg(feature = "snbt")]
impl PartialEq for Filter {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

#[cfg(feature = "snbt")]
impl Eq for Filter {}

/// Hashes the SNBT text, which equal compounds share.
#[cfg(feature = "snbt")]
impl std::hash::Hash for Filter {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text().hash(state);
    }
}
