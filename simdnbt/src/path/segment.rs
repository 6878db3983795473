//! The nodes a path is made of.

#[cfg(doc)]
use super::NbtPath;

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
    /// Every entry of a compound, and every element of a list or array: `*`
    /// (this crate's extension of the syntax).
    AllEntries,
    /// The value under a compound key at any depth: `..name` (this crate's
    /// extension of the syntax). From a value, it selects the entry `name`
    /// of the value itself and of every compound below it, through lists too.
    Descendant(String),
    /// The compound elements of a list that match: `[{Slot:0b}]`.
    #[cfg(feature = "snbt")]
    ElementFilter(super::Filter),
    /// Keeps the selected value only if it is a compound that matches. In
    /// text it is written right after a key (`a{b:1b}`) or as the first node
    /// (`{b:1b}`, a root filter); it appears nowhere else.
    #[cfg(feature = "snbt")]
    Filter(super::Filter),
}
