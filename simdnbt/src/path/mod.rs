//! NBT paths: Minecraft's syntax for places in a document
//! (`Inventory[{Slot:0b}].components."minecraft:custom_name"`), parsed,
//! printed and evaluated against [`owned`] and
//! [`borrow`] documents; and the paths that deserialization
//! errors report.
//!
//! One type, [`NbtPath`], serves both: the derive macros,
//! [`crate::DeserializeError`] and [`crate::serde::Error::path`] print the
//! *concrete* path of the value they are about (keys and indices only), and
//! [`NbtPath::parse`] reads what they print back, plus the pattern nodes of
//! Java Edition's `/data` commands.
//!
//! ```
//! use simdnbt::path::NbtPath;
//!
//! // Errors are built from the inside out: the innermost key first.
//! let path = NbtPath::new()
//!     .with_key("Name")
//!     .with_key("display")
//!     .with_key("tag")
//!     .with_index(3)
//!     .with_key("Inventory");
//! assert_eq!(path.to_string(), "Inventory[3].tag.display.Name");
//! assert_eq!(NbtPath::parse("Inventory[3].tag.display.Name").unwrap(), path);
//!
//! // Keys that are not plain words are quoted, so a path is never ambiguous.
//! let odd = NbtPath::new().with_key("a.b").with_key("");
//! assert_eq!(odd.to_string(), r#"""."a.b""#);
//! ```
//!
//! Evaluating a path against a document:
//!
//! ```
//! # #[cfg(feature = "snbt")] {
//! use simdnbt::path::NbtPath;
//!
//! let root = simdnbt::snbt::compound_from_str(
//!     r#"{Inventory: [{Slot: 0b, id: "minecraft:stone"}, {Slot: 1b, id: "minecraft:dirt"}]}"#,
//! ).unwrap();
//! let path: NbtPath = "Inventory[{Slot:1b}].id".parse().unwrap();
//! let ids: Vec<String> = path
//!     .get_all(&root)
//!     .iter()
//!     .map(|v| v.to_tag().string().unwrap().to_string())
//!     .collect();
//! assert_eq!(ids, ["minecraft:dirt"]);
//! # }
//! ```
//!
//! # Syntax
//!
//! The rules are those of the Minecraft wiki's "NBT path" page and of the
//! game's `/data` command argument; where this crate differs, it says so.
//!
//! A path is a sequence of **nodes**, separated by `.`. The `.` may be left out
//! before a node that starts with `[` (`a[0]`, also `a.[0]`), and is left out
//! before a filter `{…}` after a key (`a{b:1b}`). The nodes:
//!
//! | node | text | selects, from each value selected so far |
//! |---|---|---|
//! | root filter | `{…}` | the root itself, if it matches the compound (first node only) |
//! | key | `name`, `"name"`, `'name'` | the value under that key, if the value is a compound that has it |
//! | key with filter | `name{…}` | the value under that key, if it is a compound matching the filter |
//! | index | `[3]` | element 3 of a list or array (from 0) |
//! | index from the end | `[-1]` | the last element; `[-n]` the n-th from the end |
//! | all elements | `[]` | every element of a list or array |
//! | element filter | `[{…}]` | every compound element of a list matching the filter |
//!
//! - **Keys.** An unquoted key is one or more characters other than space,
//!   `"`, `'`, `[`, `]`, `.`, `{` and `}` (any other character, digits and
//!   non-ASCII included). A quoted key is in `"…"` or `'…'`, may be empty, and
//!   knows two escapes: `\\` and a backslash before the quote that opened it
//!   (`"say \"hi\""`, `'it\'s'`); any other escape is an error.
//! - **Indices** are an optional `-` and decimal digits. Vanilla reads a 32-bit
//!   int; this crate takes any magnitude that fits `usize` (so every concrete
//!   path prints and reads back), and an index past either end of a list simply
//!   selects nothing. `[-0]` is `[0]`.
//! - **Filters** are SNBT compounds (feature `snbt`, see [`crate::snbt`] for the
//!   grammar; whitespace may stand inside the braces, nesting is limited to 512
//!   as there). Without the feature a filter is a parse error.
//! - A path ends at the end of the text: a space or anything else after the
//!   last node is an error, as is an empty node (`a..b`, a leading `.`). As in
//!   vanilla, a single `.` at the very end is accepted (`a.` is `a`). The empty
//!   text is the empty path, which selects the root.
//!
//! # Filters: what matches
//!
//! A filter matches as vanilla's `NbtUtils.compareNbt` with partial lists:
//!
//! - a compound filter matches a compound that has every key of the filter
//!   with a matching value (other keys may be there: a subset match);
//! - a list filter matches a list (not an array) when every element of the
//!   filter matches *some* element of the list, in any order, the same element
//!   possibly several times; the empty list filter `[]` matches only an empty
//!   list;
//! - anything else matches only an equal value of the same type: numbers by
//!   value, floats by bits (`-0.0f` is not `0.0f`), strings exactly, arrays
//!   element by element (whole arrays, not subsets).
//!
//! A list that SNBT writes with mixed element types (`[1, "a"]`) is stored as
//! a list of `{"": value}` compounds, as the game writes it, and filters compare
//! those compounds. Matching uses an explicit stack (no recursion) and visits
//! each pair of a filter value and a document value at most once per match.
//!
//! Matching costs about linear time in the filter and the document: a
//! compound filter indexes a document compound's keys once it has looked up
//! a few, and a list filter's numbers, strings and arrays are hashed and
//! searched rather than compared with every element (`O((T + F) log T)` for
//! `F` filter and `T` document elements; lookups allocate nothing). Compound
//! or list *elements* of a list filter are still compared with each document
//! element in turn, `O(C × T)` for `C` of them: no index avoids that in
//! general.
//!
//! # What `get_all` returns
//!
//! Values come back as [`Value`] (owned documents) or [`BorrowValue`] (borrowed
//! ones): a value under a compound key is the [`NbtTag`](crate::owned::NbtTag)
//! stored there, but list elements and array elements are not stored as tags
//! (lists are typed vectors), and the root is a compound; those come back as
//! their own variants. A path that selects the root (the empty path, or only
//! a root filter) returns the root compound when it matches.
//!
//! # Editing
//!
//! [`NbtPath::set`] and [`NbtPath::remove`] follow `/data modify … set value`
//! and `/data remove`:
//!
//! - `set` replaces every selected value. A plain last key that is missing is
//!   created (`c.new` adds `new` to each selected `c`); a key with a filter
//!   replaces only an existing, matching value. `[]` on an empty list or array
//!   puts the value in as its one element. It returns how many places it
//!   wrote, including those whose old value was equal (the game counts only
//!   changes).
//! - `remove` removes every selected value and returns how many; the root
//!   cannot be removed (0).
//!
//! Where this crate is stricter than the game: missing *parents* are not
//! created (the game makes the compounds and lists a path needs); a list keeps
//! its element type (a list of mixed types, stored as `{"": v}` compounds,
//! takes compounds), and an array takes only its own element type (the game
//! converts any number). A `set` that would break these is an error and
//! changes nothing.

use std::fmt;

mod display;
mod edit;
mod eval;
#[cfg(feature = "snbt")]
mod filter;
mod locate;
mod parse;
mod value;

pub use locate::{locate_error, locate_error_with};
pub use parse::{PathParseError, PathParseErrorKind};
pub use value::{BorrowValue, Value};

use crate::{borrow, owned};

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
pub struct Filter(owned::NbtCompound);

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
    /// A filter looks its keys up by name, so a key that is not the MUTF-8
    /// encoding of a name (a raw `00` byte, invalid bytes) is stored as the
    /// encoding of the name it decodes to (invalid bytes as U+FFFD), which is
    /// what it matches by; [`Filter::compound`] shows that form.
    ///
    /// ```
    /// let mut c = simdnbt::owned::NbtCompound::new();
    /// c.insert("Slot", 0i8);
    /// assert_eq!(simdnbt::path::Filter::new(c).to_string(), "{Slot:0b}");
    /// ```
    pub fn new(mut compound: owned::NbtCompound) -> Filter {
        filter::canonical_keys(&mut compound);
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
        filter::matches(&self.0, value)
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
    /// Innermost segment first: errors grow the path outwards as they return
    /// through each level, and pushing is cheaper than inserting at the front.
    reversed: Vec<PathSegment>,
}

impl NbtPath {
    /// The empty path (the root).
    ///
    /// ```
    /// assert_eq!(simdnbt::path::NbtPath::new().to_string(), "");
    /// ```
    pub const fn new() -> Self {
        Self {
            reversed: Vec::new(),
        }
    }

    /// Parses path text (see the module docs for the syntax).
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    ///
    /// assert!(NbtPath::parse("Inventory[0].tag.display.Name").is_ok());
    /// let err = NbtPath::parse("a..b").unwrap_err();
    /// assert_eq!(err.to_string(), "column 3: expected a key");
    /// ```
    pub fn parse(text: &str) -> Result<NbtPath, PathParseError> {
        parse::parse(text)
    }

    /// Builds a path from segments listed from the root.
    fn from_segments(mut segments: Vec<PathSegment>) -> Self {
        segments.reverse();
        Self { reversed: segments }
    }

    /// Whether this is the empty path (the root).
    ///
    /// ```
    /// assert!(simdnbt::path::NbtPath::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.reversed.is_empty()
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
        self.reversed
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
        self.reversed.push(PathSegment::Key(key.into()));
    }

    /// Puts `index` in front: the value is element `index` of a list.
    ///
    /// ```
    /// let mut p = simdnbt::path::NbtPath::new();
    /// p.push_index_front(2);
    /// assert_eq!(p.to_string(), "[2]");
    /// ```
    pub fn push_index_front(&mut self, index: usize) {
        self.reversed.push(PathSegment::Index(index));
    }

    /// [`push_key_front`](Self::push_key_front), by value.
    ///
    /// ```
    /// let p = simdnbt::path::NbtPath::new().with_key("b").with_key("a");
    /// assert_eq!(p.to_string(), "a.b");
    /// ```
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.push_key_front(key);
        self
    }

    /// [`push_index_front`](Self::push_index_front), by value.
    ///
    /// ```
    /// let p = simdnbt::path::NbtPath::new().with_index(1).with_key("a");
    /// assert_eq!(p.to_string(), "a[1]");
    /// ```
    pub fn with_index(mut self, index: usize) -> Self {
        self.push_index_front(index);
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
        self.reversed.iter().rev()
    }

    /// Every value the path selects in an owned document, in document order.
    ///
    /// A value under a key comes back as [`Value::Tag`]; list and array
    /// elements as the variant of their type. A path that selects the root
    /// (the empty path, or only a root filter) returns
    /// [`Value::Compound`]`(root)` when the filter matches.
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
    pub fn get_all<'t>(&self, root: &'t owned::NbtCompound) -> Vec<Value<'t>> {
        eval::select(self, Value::Compound(root), false)
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
    pub fn get<'t>(&self, root: &'t owned::NbtCompound) -> Option<Value<'t>> {
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
    pub fn resolve_all<'t>(&self, root: &'t owned::NbtCompound) -> Vec<(NbtPath, Value<'t>)> {
        eval::select(self, Value::Compound(root), true)
            .into_iter()
            .map(|(v, p)| (p.unwrap_or_default(), v))
            .collect()
    }

    /// Every value the path selects in a borrowed document: the same values,
    /// in the same order, as [`get_all`](Self::get_all) on the owned form.
    ///
    /// ```
    /// use simdnbt::path::NbtPath;
    ///
    /// // {a: {b: 7}} as binary NBT
    /// let bytes = [10, 0, 0, 10, 0, 1, b'a', 3, 0, 1, b'b', 0, 0, 0, 7, 0, 0];
    /// let doc = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..])).unwrap().unwrap();
    /// let found = NbtPath::parse("a.b").unwrap().get_all_borrow(doc.as_compound());
    /// assert_eq!(found[0].to_owned().int(), Some(7));
    /// ```
    pub fn get_all_borrow<'a, 'tape>(
        &self,
        root: borrow::NbtCompound<'a, 'tape>,
    ) -> Vec<BorrowValue<'a, 'tape>>
    where
        'a: 'tape,
    {
        eval::select(self, BorrowValue::Compound(root), false)
            .into_iter()
            .map(|(v, _)| v)
            .collect()
    }

    /// Sets every value the path selects to `value`, as `/data modify … set
    /// value` does; a missing last key is created (its parent must exist).
    /// Returns how many places were written.
    ///
    /// It is an error when the path selects nothing that can be set (nothing
    /// matches, or it selects the root), or when `value` cannot go in one of
    /// the places (a list or array of another element type); then nothing is
    /// changed.
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
    /// # }
    /// ```
    pub fn set(
        &self,
        root: &mut owned::NbtCompound,
        value: owned::NbtTag,
    ) -> Result<usize, PathError> {
        edit::set(self, root, value)
    }

    /// Removes every value the path selects, as `/data remove` does; returns
    /// how many were removed. The root cannot be removed.
    ///
    /// ```
    /// # #[cfg(feature = "snbt")] {
    /// use simdnbt::path::NbtPath;
    ///
    /// let mut root = simdnbt::snbt::compound_from_str("{a: [1, 2, 3], b: 1}").unwrap();
    /// assert_eq!(NbtPath::parse("a[-1]").unwrap().remove(&mut root), 1);
    /// assert_eq!(NbtPath::parse("b").unwrap().remove(&mut root), 1);
    /// assert_eq!(simdnbt::snbt::to_string(&root).unwrap(), "{a:[1,2]}");
    /// # }
    /// ```
    pub fn remove(&self, root: &mut owned::NbtCompound) -> usize {
        edit::remove(self, root)
    }
}

impl std::str::FromStr for NbtPath {
    type Err = PathParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        NbtPath::parse(text)
    }
}

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
}

impl PathError {
    fn new(path: &NbtPath, kind: PathErrorKind) -> Self {
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
        }
    }
}

impl std::error::Error for PathError {}
