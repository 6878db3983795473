//! NBT paths: Minecraft's syntax for places in a document
//! (`Inventory[{Slot:0b}].components."minecraft:custom_name"`), parsed,
//! printed and evaluated against [`owned`](crate::owned),
//! [`borrow`](crate::borrow) and [`document`](crate::document) documents
//! (and `set` / `remove` on owned trees and on documents:
//! [`NbtPath::set`], [`NbtPath::remove`]), through one API over the models
//! ([`PathRoot`], [`PathRootMut`]); and the paths that
//! deserialization errors report.
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
//! // Built from the root inwards.
//! let path = NbtPath::new()
//!     .with_key("Inventory")
//!     .with_index(3)
//!     .with_key("tag")
//!     .with_key("display")
//!     .with_key("Name");
//! assert_eq!(path.to_string(), "Inventory[3].tag.display.Name");
//! assert_eq!(NbtPath::parse("Inventory[3].tag.display.Name").unwrap(), path);
//!
//! // Keys that are not plain words are quoted, so a path is never ambiguous.
//! let odd = NbtPath::new().with_key("").with_key("a.b");
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
//! | descendant | `..name`, `..name{…}` | the value under key `name` of the value itself and of every compound below it, at any depth, through lists (this crate's extension) |
//! | wildcard | `*`, `*{…}` | every entry of a compound; every element of a list or array, as `[]` (this crate's extension) |
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
//!   last node is an error, as is an empty node (`a...b`, a leading `.`). As
//!   in vanilla, a single `.` at the very end is accepted (`a.` is `a`). The
//!   empty text is the empty path, which selects the root.
//!
//! # Extensions: `..name` and `*`
//!
//! Two nodes go beyond vanilla's syntax (which has neither; in vanilla `..`
//! is an error and `*` an ordinary key):
//!
//! - **`..name`** selects, from each value, the entry `name` of that value
//!   and of every compound below it at any depth, lists included: `..Pos`
//!   finds every `Pos` in a chunk, `Inventory..id` every `id` in the
//!   inventory. It may start a path, follow any node (`a..b`, `a[0]..b`,
//!   `{x:1b}..b`) and take a filter (`..Item{id:"minecraft:stone"}`).
//! - **`*`** selects every entry of a compound, in order, and every element
//!   of a list or array (as `[]` does): `*.Pos`, `Inventory[0].*`; it takes a
//!   filter too (`*{id:"minecraft:chest"}`). The key `*` is written quoted,
//!   `"*"` (as [`NbtPath`]'s `Display` always did); `..*` is an error.
//!
//! Both see what a lookup by name sees: of a repeated key (only in a crafted
//! file) the last entry, and no key that is not valid MUTF-8 (no path could
//! name it). Matches come in **document order** below each value a node
//! starts from (an entry before what lies inside the entries after it: `..a`
//! on `{a: {a: 1}}` gives `{a: 1}`, then `1`), in the order of those values.
//! A value found twice (`..a..b` where `a`s nest) is selected once.
//!
//! **Cost.** Each `..` node is one walk on a heap stack (no recursion: any
//! depth on a small thread stack) that enters every compound and list below
//! the values it starts from at most once, even when those values lie inside
//! one another; so `..name` costs `O(N)` for a document of `N` values, and a
//! path with `k` descendant nodes (`a..b..c`: 2) at most `O(k × N)`, never
//! `N²`. `*` costs the entries it selects.
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
//! [`NbtPath::get_all`] takes the root of any model ([`PathRoot`]). Values
//! come back as [`Value`] (owned documents), [`BorrowValue`] (borrowed ones)
//! or [`DocValue`](crate::document::DocValue) (documents): a value under a compound key is the [`NbtTag`](crate::owned::NbtTag)
//! stored there, but list elements and array elements are not stored as tags
//! (lists are typed vectors), and the root is a compound; those come back as
//! their own variants. A path that selects the root (the empty path, or only
//! a root filter) returns the root compound when it matches.
//!
//! # Editing
//!
//! [`NbtPath::set`] and [`NbtPath::remove`], on an owned tree or a
//! [`Document`](crate::document::Document) ([`PathRootMut`]), follow
//! `/data modify … set value` and `/data remove`:
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

mod display;
pub(crate) mod edit;
mod error;
pub(crate) mod eval;
mod locate;
mod nbt_path;
mod parse;
pub(crate) mod root;
mod segment;
mod value;
pub(crate) mod view;

// Filters need SNBT: everything only they use sits behind this one gate, and
// `Node` is what evaluation asks of a value (navigation, plus with filters
// what they compare).
#[cfg(feature = "snbt")]
pub(crate) mod filter;
#[cfg(feature = "snbt")]
pub use filter::Filter;
#[cfg(feature = "snbt")]
pub(crate) use filter::FilterView as Node;
#[cfg(not(feature = "snbt"))]
pub(crate) use view::View as Node;

pub use error::{PathError, PathErrorKind};
pub use locate::{locate_error, locate_error_with};
pub use nbt_path::NbtPath;
pub use parse::{PathParseError, PathParseErrorKind};
pub use root::{PathRoot, PathRootMut};
pub use segment::PathSegment;
pub use value::{BorrowValue, Value};
