//! The path parser: one loop over the text, no recursion (filters go to the
//! SNBT parser, which keeps its own explicit stack and 512-level limit).

use std::fmt;

use super::{NbtPath, PathSegment};

/// Why a path did not parse, and where.
///
/// ```
/// let err = simdnbt::path::NbtPath::parse("a[x]").unwrap_err();
/// assert_eq!(err.column(), 3);
/// assert_eq!(err.to_string(), "column 3: expected an index, `]` or `{`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathParseError {
    kind: PathParseErrorKind,
    offset: usize,
    column: usize,
}

/// What went wrong in [`PathParseError`].
///
/// ```
/// use simdnbt::path::{NbtPath, PathParseErrorKind};
/// let err = NbtPath::parse("a[99999999999999999999999]").unwrap_err();
/// assert_eq!(err.kind(), &PathParseErrorKind::IndexOutOfRange);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathParseErrorKind {
    /// Something else stands where the text names what was expected.
    Expected(&'static str),
    /// A backslash not followed by `\` or the string's own quote.
    InvalidEscape,
    /// A quoted key without its closing quote.
    UnclosedQuote,
    /// An index whose magnitude does not fit `usize`.
    IndexOutOfRange,
    /// A filter `{…}` that neither follows a key nor starts the path
    /// (`a[0]{…}`, `a.{…}`, `a{…}{…}`).
    MisplacedFilter,
    /// The filter is not valid SNBT.
    #[cfg(feature = "snbt")]
    Filter(crate::snbt::ErrorKind),
    /// A filter, in a build without the `snbt` feature.
    FiltersNeedSnbt,
}

impl PathParseError {
    fn at(kind: PathParseErrorKind, text: &str, offset: usize) -> Self {
        let before = text.get(..offset).unwrap_or(text);
        PathParseError {
            kind,
            offset,
            column: before.chars().count() + 1,
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// use simdnbt::path::{NbtPath, PathParseErrorKind};
    /// assert!(NbtPath::parse("a.").is_ok()); // as in vanilla
    /// let err = NbtPath::parse(".a").unwrap_err();
    /// assert_eq!(err.kind(), &PathParseErrorKind::Expected("a key"));
    /// ```
    pub fn kind(&self) -> &PathParseErrorKind {
        &self.kind
    }

    /// The column, from 1, in characters (line breaks, possible inside
    /// filters and quoted keys, count as one character).
    ///
    /// ```
    /// assert_eq!(simdnbt::path::NbtPath::parse("ä b").unwrap_err().column(), 2);
    /// ```
    pub fn column(&self) -> usize {
        self.column
    }

    /// The byte offset in the text.
    ///
    /// ```
    /// assert_eq!(simdnbt::path::NbtPath::parse("ä b").unwrap_err().offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for PathParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathParseErrorKind::Expected(what) => write!(f, "expected {what}"),
            PathParseErrorKind::InvalidEscape => f.write_str(
                "invalid escape (a quoted key knows only `\\\\` and `\\` before its quote)",
            ),
            PathParseErrorKind::UnclosedQuote => {
                f.write_str("quoted key without its closing quote")
            }
            PathParseErrorKind::IndexOutOfRange => f.write_str("index out of range"),
            PathParseErrorKind::MisplacedFilter => {
                f.write_str("a filter `{…}` may only follow a key or start the path")
            }
            #[cfg(feature = "snbt")]
            PathParseErrorKind::Filter(kind) => write!(f, "in the filter: {kind}"),
            PathParseErrorKind::FiltersNeedSnbt => {
                f.write_str("filters `{…}` need simdnbt's `snbt` feature")
            }
        }
    }
}

impl fmt::Display for PathParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.kind)
    }
}

impl std::error::Error for PathParseError {}

/// Whether `c` may stand in an unquoted key (vanilla's rule).
fn unquoted_char(c: char) -> bool {
    !matches!(c, ' ' | '"' | '\'' | '[' | ']' | '.' | '{' | '}')
}

struct Parser<'t> {
    text: &'t str,
    pos: usize,
    segments: Vec<PathSegment>,
}

impl Parser<'_> {
    fn err(&self, kind: PathParseErrorKind, at: usize) -> PathParseError {
        PathParseError::at(kind, self.text, at)
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// A quoted key, `pos` on its opening quote.
    fn quoted(&mut self, quote: char) -> Result<String, PathParseError> {
        let start = self.pos;
        let mut out = String::new();
        let mut chars = self.text[start + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            if c == quote {
                self.pos = start + 1 + i + 1;
                return Ok(out);
            }
            if c == '\\' {
                match chars.next() {
                    Some((_, e)) if e == '\\' || e == quote => out.push(e),
                    Some(_) => {
                        return Err(self.err(PathParseErrorKind::InvalidEscape, start + 1 + i));
                    }
                    None => break,
                }
            } else {
                out.push(c);
            }
        }
        Err(self.err(PathParseErrorKind::UnclosedQuote, start))
    }

    fn unquoted(&mut self) -> Result<String, PathParseError> {
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest.find(|c| !unquoted_char(c)).unwrap_or(rest.len());
        if len == 0 {
            return Err(self.err(PathParseErrorKind::Expected("a key"), start));
        }
        self.pos += len;
        Ok(rest[..len].to_owned())
    }

    /// A filter segment at `pos` (on its `{`): an element filter `[{…}]`
    /// when `element`.
    fn filter_segment(
        &mut self,
        #[cfg_attr(not(feature = "snbt"), allow(unused_variables))] element: bool,
    ) -> Result<PathSegment, PathParseError> {
        #[cfg(feature = "snbt")]
        return match super::filter::parse_segment(self.text, self.pos, element) {
            Ok((segment, end)) => {
                self.pos = end;
                Ok(segment)
            }
            Err((kind, at)) => Err(self.err(kind, at)),
        };
        #[cfg(not(feature = "snbt"))]
        Err(self.err(PathParseErrorKind::FiltersNeedSnbt, self.pos))
    }

    /// After `[`: `]`, `{…}]` or an index and `]`.
    fn bracket(&mut self) -> Result<PathSegment, PathParseError> {
        self.pos += 1;
        let segment = match self.peek() {
            Some(']') => PathSegment::AllElements,
            Some('{') => self.filter_segment(true)?,
            Some(c) if c == '-' || c.is_ascii_digit() => self.index()?,
            _ => {
                return Err(self.err(
                    PathParseErrorKind::Expected("an index, `]` or `{`"),
                    self.pos,
                ));
            }
        };
        if self.peek() != Some(']') {
            return Err(self.err(PathParseErrorKind::Expected("`]`"), self.pos));
        }
        self.pos += 1;
        Ok(segment)
    }

    fn index(&mut self) -> Result<PathSegment, PathParseError> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let negative = bytes[start] == b'-';
        let digits = start + usize::from(negative);
        let mut end = digits;
        let mut value: usize = 0;
        while let Some(&b) = bytes.get(end).filter(|b| b.is_ascii_digit()) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(usize::from(b - b'0')))
                .ok_or_else(|| self.err(PathParseErrorKind::IndexOutOfRange, start))?;
            end += 1;
        }
        if end == digits {
            return Err(self.err(PathParseErrorKind::Expected("digits"), digits));
        }
        self.pos = end;
        Ok(match (negative, value) {
            (true, n) if n > 0 => PathSegment::IndexFromEnd(n),
            (_, i) => PathSegment::Index(i),
        })
    }

    /// A key at `pos`, quoted or not; `None` for an unquoted `*`.
    fn key(&mut self) -> Result<Option<String>, PathParseError> {
        match self.peek() {
            Some(q @ ('"' | '\'')) => self.quoted(q).map(Some),
            _ => {
                let key = self.unquoted()?;
                Ok((key != "*").then_some(key))
            }
        }
    }

    /// One node at `pos`.
    fn node(&mut self, first: bool) -> Result<(), PathParseError> {
        let segment = match self.peek() {
            Some('[') => {
                let segment = self.bracket()?;
                self.segments.push(segment);
                return Ok(());
            }
            Some('{') if first => {
                let segment = self.filter_segment(false)?;
                self.segments.push(segment);
                return Ok(());
            }
            Some('{') => return Err(self.err(PathParseErrorKind::MisplacedFilter, self.pos)),
            Some('.') if self.text[self.pos..].starts_with("..") => {
                self.pos += 2;
                let at = self.pos;
                match self.key()? {
                    Some(key) => PathSegment::Descendant(key),
                    None => {
                        return Err(self.err(
                            PathParseErrorKind::Expected("a key (write `\"*\"` for the key `*`)"),
                            at,
                        ));
                    }
                }
            }
            _ => match self.key()? {
                Some(key) => PathSegment::Key(key),
                None => PathSegment::AllEntries,
            },
        };
        self.segments.push(segment);
        if self.peek() == Some('{') {
            let segment = self.filter_segment(false)?;
            self.segments.push(segment);
        }
        Ok(())
    }
}

pub(super) fn parse(text: &str) -> Result<NbtPath, PathParseError> {
    let mut p = Parser {
        text,
        pos: 0,
        segments: Vec::new(),
    };
    let mut first = true;
    while p.pos < text.len() {
        p.node(first)?;
        first = false;
        match p.peek() {
            None | Some('[' | '{') => {}
            // `..`: the next node is a descendant step.
            Some('.') if text[p.pos..].starts_with("..") => {}
            Some('.') => p.pos += 1,
            Some(_) => {
                return Err(p.err(
                    PathParseErrorKind::Expected("`.`, `[` or the end of the path"),
                    p.pos,
                ));
            }
        }
    }
    Ok(NbtPath::from_segments(p.segments))
}
