//! `NbtPath`: a parsed path, and the queries and edits it runs on a document.

use std::collections::VecDeque;

use super::root::sealed::Token;
use super::{
    BorrowValue, PathError, PathParseError, PathRoot, PathRootMut, PathSegment, eval, parse,
};
use crate::{borrow, owned};

/// A path in a document: the nodes from the root (see the module docs).
///
/// `Display` writes the path syntax: keys joined by `.`, indices as `[i]`; a
/// key that is empty or holds anything but ASCII letters, digits, `_`, `-` and
/// `+` is written in double quotes with `"` and `\` escaped. [`NbtPath::parse`]
/// reads every printed path back as the same path.
///
/// ```
/// use simdnbt::path::NbtPath;
///
/// let p: NbtPath = "a.'b c'[-1][]".parse().unwrap();
/// assert_eq!(p.to_string(), r#"a."b c"[-1][]"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NbtPath {
    /// From the root inwards. A deque: errors grow a path outwards as they
    /// return through each level (at the front), builders inwards (at the
    /// back), both in O(1).
    pub(super) segments: VecDeque<PathSegment>,
}

impl NbtPath {
    /// The empty path (the root).
    ///
    /// ```
    /// assert_eq!(simdnbt::path::NbtPath::new().to_string(), "");
    /// ```
    pub const fn new() -> Self {
        Self {
            segments: VecDeque::new(),
        }
    }

    /// Parses path text (see the module docs for the syntax).
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    ///
    /// assert!(NbtPath::parse("Inventory[0].tag.display.Name").is_ok());
    /// assert!(NbtPath::parse("a..b").is_ok()); // `b` at any depth below `a`
    /// let err = NbtPath::parse("a...b").unwrap_err();
    /// assert_eq!(err.to_string(), "column 4: expected a key");
    /// ```
    pub fn parse(text: &str) -> Result<NbtPath, PathParseError> {
        parse::parse(text)
    }

    /// Builds a path from segments listed from the root.
    pub(super) fn from_segments(segments: Vec<PathSegment>) -> Self {
        Self {
            segments: segments.into(),
        }
    }

    /// Whether this is the empty path (the root).
    ///
    /// ```
    /// assert!(simdnbt::path::NbtPath::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Whether the path holds only keys and indices from the start (what
    /// errors and [`resolve_all`](Self::resolve_all) report).
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    /// assert!(NbtPath::parse("a[0].b").unwrap().is_concrete());
    /// assert!(!NbtPath::parse("a[]").unwrap().is_concrete());
    /// ```
    pub fn is_concrete(&self) -> bool {
        self.segments
            .iter()
            .all(|s| matches!(s, PathSegment::Key(_) | PathSegment::Index(_)))
    }

    /// Whether the path selects the root itself: no node other than a root
    /// filter.
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    /// assert!(NbtPath::parse("").unwrap().selects_root());
    /// assert!(!NbtPath::parse("a").unwrap().selects_root());
    /// ```
    pub fn selects_root(&self) -> bool {
        self.segments().all(|s| !eval::moves(s))
    }

    /// Puts `key` in front: the value is under compound key `key`.
    ///
    /// ```
    /// let mut p = simdnbt::path::NbtPath::new();
    /// p.push_key_front("b");
    /// p.push_key_front("a");
    /// assert_eq!(p.to_string(), "a.b");
    /// ```
    pub fn push_key_front(&mut self, key: impl Into<String>) {
        self.segments.push_front(PathSegment::Key(key.into()));
    }

    /// Puts `index` in front: the value is element `index` of a list.
    ///
    /// ```
    /// let mut p = simdnbt::path::NbtPath::new();
    /// p.push_index_front(2);
    /// assert_eq!(p.to_string(), "[2]");
    /// ```
    pub fn push_index_front(&mut self, index: usize) {
        self.segments.push_front(PathSegment::Index(index));
    }

    /// Appends `key`: the value under compound key `key` of what the path
    /// selects.
    ///
    /// ```
    /// let mut p = simdnbt::path::NbtPath::new();
    /// p.push_key("a");
    /// p.push_key("b");
    /// assert_eq!(p.to_string(), "a.b");
    /// ```
    pub fn push_key(&mut self, key: impl Into<String>) {
        self.segments.push_back(PathSegment::Key(key.into()));
    }

    /// Appends `index`: element `index` of the list or array the path
    /// selects.
    ///
    /// ```
    /// let mut p = simdnbt::path::NbtPath::new();
    /// p.push_key("Items");
    /// p.push_index(2);
    /// assert_eq!(p.to_string(), "Items[2]");
    /// ```
    pub fn push_index(&mut self, index: usize) {
        self.segments.push_back(PathSegment::Index(index));
    }

    /// Removes and returns the last segment (`None` for the root).
    ///
    /// ```
    /// use simdnbt::path::{NbtPath, PathSegment};
    /// let mut p = NbtPath::parse("a[1]").unwrap();
    /// assert_eq!(p.pop(), Some(PathSegment::Index(1)));
    /// assert_eq!(p.to_string(), "a");
    /// ```
    pub fn pop(&mut self) -> Option<PathSegment> {
        self.segments.pop_back()
    }

    /// [`push_key`](Self::push_key), by value: builds a path from the root
    /// inwards.
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    /// let p = NbtPath::new().with_key("Inventory").with_index(3).with_key("tag");
    /// assert_eq!(p.to_string(), "Inventory[3].tag");
    /// ```
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.push_key(key);
        self
    }

    /// [`push_index`](Self::push_index), by value.
    ///
    /// ```
    /// let p = simdnbt::path::NbtPath::new().with_key("a").with_index(1);
    /// assert_eq!(p.to_string(), "a[1]");
    /// ```
    pub fn with_index(mut self, index: usize) -> Self {
        self.push_index(index);
        self
    }

    /// The segments from the root inwards.
    ///
    /// ```
    /// use simdnbt::path::{NbtPath, PathSegment};
    /// let p = NbtPath::parse("a[0]").unwrap();
    /// assert_eq!(p.segments().next(), Some(&PathSegment::Key("a".into())));
    /// ```
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = &PathSegment> + ExactSizeIterator {
        self.segments.iter()
    }

    /// Every value the path selects in `root`, in document order: an owned
    /// tree (`&NbtCompound`), a borrowed one or a document (see
    /// [`PathRoot`] for each model's roots and the views it returns).
    ///
    /// In an owned tree a value under a key comes back as [`Value::Tag`](super::Value::Tag);
    /// list and array elements as the variant of their type. A path that
    /// selects the root (the empty path, or only a root filter) returns the
    /// root ([`Value::Compound`](super::Value::Compound)`(root)`) when the filter matches.
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::path::{NbtPath, Value};
    ///
    /// let root = simdnbt::snbt::compound_from_str("{a: [1, 2, 3]}").unwrap();
    /// let all = NbtPath::parse("a[]").unwrap().get_all(&root);
    /// assert_eq!(all, [1, 2, 3].map(|i| Value::Number(simdnbt::Number::Int(i))));
    /// assert_eq!(NbtPath::parse("a[-1]").unwrap().get_all(&root), [Value::Number(simdnbt::Number::Int(3))]);
    /// assert!(NbtPath::parse("b").unwrap().get_all(&root).is_empty());
    /// assert_eq!(NbtPath::parse("{}").unwrap().get_all(&root), [Value::Compound(&root)]);
    /// assert!(NbtPath::parse("{a:[]}").unwrap().get_all(&root).is_empty());
    /// # }
    /// ```
    pub fn get_all<R: PathRoot>(&self, root: R) -> Vec<R::Value> {
        root.select_path(self, false, Token)
            .into_iter()
            .map(|(v, _)| v)
            .collect()
    }

    /// The first value [`get_all`](Self::get_all) would return.
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::path::{NbtPath, Value};
    ///
    /// let root = simdnbt::snbt::compound_from_str("{a: {b: 1b}}").unwrap();
    /// let b = NbtPath::parse("a.b").unwrap().get(&root).unwrap();
    /// assert_eq!(b.to_tag().byte(), Some(1));
    /// # }
    /// ```
    pub fn get<R: PathRoot>(&self, root: R) -> Option<R::Value> {
        self.get_all(root).into_iter().next()
    }

    /// Each value [`get_all`](Self::get_all) returns, with the concrete path
    /// (keys and indices only) that reaches it.
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::path::NbtPath;
    ///
    /// let root = simdnbt::snbt::compound_from_str("{Items: [{id: a}, {id: b}]}").unwrap();
    /// let found = NbtPath::parse("Items[{id:b}].id").unwrap().resolve_all(&root);
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].0.to_string(), "Items[1].id");
    /// # }
    /// ```
    pub fn resolve_all<R: PathRoot>(&self, root: R) -> Vec<(NbtPath, R::Value)> {
        root.select_path(self, true, Token)
            .into_iter()
            .map(|(v, p)| (p.unwrap_or_default(), v))
            .collect()
    }

    /// [`get_all`](Self::get_all) on a borrowed document.
    #[deprecated(
        since = "0.12.0",
        note = "use `get_all`, which takes every model's root"
    )]
    pub fn get_all_borrow<'a, 'tape>(
        &self,
        root: borrow::NbtCompound<'a, 'tape>,
    ) -> Vec<BorrowValue<'a, 'tape>>
    where
        'a: 'tape,
    {
        self.get_all(root)
    }

    /// [`resolve_all`](Self::resolve_all) on a borrowed document.
    #[deprecated(
        since = "0.12.0",
        note = "use `resolve_all`, which takes every model's root"
    )]
    pub fn resolve_all_borrow<'a, 'tape>(
        &self,
        root: borrow::NbtCompound<'a, 'tape>,
    ) -> Vec<(NbtPath, BorrowValue<'a, 'tape>)>
    where
        'a: 'tape,
    {
        self.resolve_all(root)
    }

    /// Sets every value the path selects in `root` to `value`, as `/data
    /// modify … set value` does; a missing last key is created (its parent
    /// must exist). Returns how many places were written. `root` is an owned
    /// tree or a [`Document`](crate::document::Document) (see
    /// [`PathRootMut`]): the same path sets the same places in both.
    ///
    /// It is an error when the path selects nothing that can be set (nothing
    /// matches, or it selects the root), or when `value` cannot go in one of
    /// the places (a list or array of another element type); then nothing is
    /// changed. A document also refuses what would make it invalid
    /// ([`PathErrorKind::Refused`](super::PathErrorKind::Refused): a string
    /// over 65535 bytes, nesting past the depth limit), and is then left as
    /// it was.
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::owned::NbtTag;
    /// use simdnbt::path::NbtPath;
    ///
    /// let mut root = simdnbt::snbt::compound_from_str("{a: [1, 2], b: {}}").unwrap();
    /// assert_eq!(NbtPath::parse("a[]").unwrap().set(&mut root, NbtTag::Int(0)).unwrap(), 2);
    /// assert_eq!(NbtPath::parse("b.c").unwrap().set(&mut root, NbtTag::from("x")).unwrap(), 1);
    /// assert_eq!(simdnbt::snbt::to_string(&root).unwrap(), r#"{a:[0,0],b:{c:"x"}}"#);
    /// assert!(NbtPath::parse("a[0]").unwrap().set(&mut root, NbtTag::from("x")).is_err());
    ///
    /// // The same on a document.
    /// let root = simdnbt::snbt::compound_from_str("{a: [1, 2], b: {}}").unwrap();
    /// let mut doc = simdnbt::document::Document::from_owned(&root.into()).unwrap();
    /// assert_eq!(NbtPath::parse("a[]").unwrap().set(&mut doc, NbtTag::Int(0)).unwrap(), 2);
    /// assert_eq!(NbtPath::parse("b.c").unwrap().set(&mut doc, NbtTag::from("x")).unwrap(), 1);
    /// assert_eq!(simdnbt::snbt::to_string(&doc).unwrap(), r#"{a:[0,0],b:{c:"x"}}"#);
    /// assert!(NbtPath::parse("a[0]").unwrap().set(&mut doc, NbtTag::from("x")).is_err());
    /// # }
    /// ```
    pub fn set<R: PathRootMut + ?Sized>(
        &self,
        root: &mut R,
        value: owned::NbtTag,
    ) -> Result<usize, PathError> {
        root.set_path(self, value, Token)
    }

    /// Removes every value the path selects in `root`, as `/data remove`
    /// does; returns how many were removed. The root cannot be removed.
    /// `root` is an owned tree or a [`Document`](crate::document::Document)
    /// (see [`PathRootMut`]).
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::path::NbtPath;
    ///
    /// let mut root = simdnbt::snbt::compound_from_str("{a: [1, 2, 3], b: 1, c: [I; 4, 5]}").unwrap();
    /// let mut doc = simdnbt::document::Document::from_owned(&root.clone().into()).unwrap();
    /// for path in ["a[-1]", "b", "c[0]"] {
    ///     let path = NbtPath::parse(path).unwrap();
    ///     assert_eq!(path.remove(&mut root), 1);
    ///     assert_eq!(path.remove(&mut doc), 1);
    /// }
    /// assert_eq!(simdnbt::snbt::to_string(&root).unwrap(), "{a:[1,2],c:[I;5]}");
    /// assert_eq!(simdnbt::snbt::to_string(&doc).unwrap(), "{a:[1,2],c:[I;5]}");
    /// # }
    /// ```
    pub fn remove<R: PathRootMut + ?Sized>(&self, root: &mut R) -> usize {
        root.remove_path(self, Token)
    }
}

impl std::str::FromStr for NbtPath {
    type Err = PathParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        NbtPath::parse(text)
    }
}
