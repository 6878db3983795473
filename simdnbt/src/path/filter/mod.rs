//! Filters: the SNBT compounds of `name{…}`, `{…}` and `[{…}]` nodes, and
//! matching values against them (feature `snbt`; the rules are in the
//! [module docs](super)). Everything here is what only filters need: the
//! values' leaf form ([`Leaf`]), the view methods that compare them
//! ([`FilterView`]) and the matcher; evaluation and editing reach it through
//! the functions below, one per use.

mod leaf;
mod matcher;
mod view;

use std::fmt;

pub(crate) use leaf::{Array, Leaf};
use matcher::Matcher;
pub(crate) use view::FilterView;

use super::{PathSegment, Value};
use crate::owned;

/// An SNBT compound that values are matched against (see the module docs).
///
/// ```
/// let f = simdnbt::path::Filter::parse("{Slot: 0b}").unwrap();
/// assert_eq!(f.to_string(), "{Slot:0b}");
/// assert_eq!(f.compound().byte("Slot"), Some(0));
/// ```
#[derive(Clone)]
pub struct Filter(owned::NbtCompound);

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
        matcher::canonical_keys(&mut compound);
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
        matcher::matches(&self.0, value)
    }

    /// The filter's SNBT (what `Display` writes), or a placeholder for a
    /// compound that SNBT cannot print (a NaN float, only from [`Filter::new`]).
    fn text(&self) -> String {
        crate::snbt::to_string(&self.0).unwrap_or_else(|_| "{}".to_owned())
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Filter({})", self.text())
    }
}

/// Filters are equal when their compounds are (floats by bits, so equality is
/// reflexive: `Eq` holds).
impl PartialEq for Filter {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Filter {}

/// Hashes the SNBT text, which equal compounds share.
impl std::hash::Hash for Filter {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text().hash(state);
    }
}

/// Parses the filter at byte `pos` of `text` (on its `{`): the segment
/// (an element filter `[{…}]` when `element`) and the offset after it, or
/// the SNBT error and where.
pub(super) fn parse_segment(
    text: &str,
    pos: usize,
    element: bool,
) -> Result<(PathSegment, usize), (super::PathParseErrorKind, usize)> {
    use super::PathParseErrorKind as K;
    let (filter, end) = match crate::snbt::parse_value(text, pos, false) {
        Ok((owned::NbtTag::Compound(c), end)) => (Filter(c), end),
        // A value that starts with `{` is a compound.
        Ok(_) => return Err((K::Expected("a compound"), pos)),
        Err(e) => return Err((K::Filter(e.kind()), e.offset())),
    };
    let segment = if element {
        PathSegment::ElementFilter(filter)
    } else {
        PathSegment::Filter(filter)
    };
    Ok((segment, end))
}

/// Writes a filter segment as the path syntax has it.
pub(super) fn write_segment(f: &mut impl fmt::Write, segment: &PathSegment) -> fmt::Result {
    match segment {
        PathSegment::ElementFilter(filter) => write!(f, "[{filter}]"),
        PathSegment::Filter(filter) => write!(f, "{filter}"),
        _ => Ok(()),
    }
}

/// What a filter segment keeps of each value in `current`: for a filter
/// after a key (or a root filter), the value itself if it matches; for an
/// element filter `[{…}]`, the compound elements of a list that match, with
/// their index. `keep` is called in document order with the value, the index
/// of `current` it comes from, and the element index.
pub(crate) fn keep<V: FilterView>(
    segment: &PathSegment,
    current: impl Iterator<Item = V>,
    scratch: &mut Vec<V>,
    mut keep: impl FnMut(V, usize, Option<usize>),
) {
    let (filter, elements) = match segment {
        PathSegment::ElementFilter(filter) => (filter, true),
        PathSegment::Filter(filter) => (filter, false),
        _ => return,
    };
    // One matcher for every value: what it works out about the filter's
    // lists is worked out once.
    let mut matcher = Matcher::new(filter.compound());
    for (from, v) in current.enumerate() {
        if !elements {
            if matcher.matches(v) {
                keep(v, from, None);
            }
            continue;
        }
        if v.id() != crate::tag_id::LIST {
            continue;
        }
        scratch.clear();
        v.elements(scratch);
        for (i, &e) in scratch.iter().enumerate() {
            if matcher.matches(e) {
                keep(e, from, Some(i));
            }
        }
    }
}
