//! SNBT errors: where (line, column, byte offset) and what was expected.

use std::fmt;

/// What went wrong while parsing SNBT.
///
/// This enum is `#[non_exhaustive]`: new kinds may be added in minor releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Something else was found where the text says what was expected
    /// (for example "`,` or `}`").
    Expected(&'static str),
    /// A number that does not fit its type (`128b`, `[B;300]`, `256ub`).
    NumberOutOfRange,
    /// A malformed number (`1_`, `0x`, `1.5b`, `01`: octal is not supported).
    InvalidNumber(&'static str),
    /// A minus sign on an unsigned number (`-1ub`; hex and binary are unsigned
    /// unless they say `s…`).
    NegativeUnsigned,
    /// A float or double whose value is not finite (`1e39f`, `1e309`).
    NonFiniteNumber,
    /// An unknown or malformed escape in a quoted string.
    InvalidEscape,
    /// `\N{…}` with a name that is not a Unicode character name.
    UnknownCharacterName,
    /// `\N{…}` without the `snbt-unicode-names` feature, which has the names
    /// (off by default: its tables are about 500 KB).
    CharacterNamesNotEnabled,
    /// A typed array element of a type the array does not take (`[B;1s]`).
    InvalidArrayElement,
    /// A call of a function that does not exist with that many arguments.
    UnknownFunction,
    /// An argument a function does not take (`bool("x")`, `uuid(1)`).
    InvalidArgument(&'static str),
    /// More nested compounds, lists and calls than 512 (vanilla's limit),
    /// counting the root.
    MaxDepthExceeded,
    /// The root is not a compound where a compound was asked for.
    NotACompound,
}

/// An error from parsing SNBT, with its position in the text.
///
/// Lines and columns count from 1; columns count characters (Unicode scalar
/// values), not bytes.
///
/// ```
/// let err = simdnbt::snbt::from_str("{a:1,\n b:128b}").unwrap_err();
/// assert_eq!((err.line(), err.column()), (2, 4));
/// assert_eq!(err.kind(), simdnbt::snbt::ErrorKind::NumberOutOfRange);
/// assert_eq!(err.to_string(), "line 2, column 4: number out of range for its type");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
    line: usize,
    column: usize,
}

impl Error {
    /// Makes an error of `kind` at byte `offset` of `text` (counting the line and
    /// column only now: errors are rare, positions are not tracked while parsing).
    #[cold]
    pub(crate) fn at(kind: ErrorKind, text: &str, offset: usize) -> Self {
        let offset = offset.min(text.len());
        // `offset` is always on a char boundary: the parser only stops on ASCII
        // bytes or at the start of a character; be safe anyway.
        let before = text.get(..offset).unwrap_or(text);
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Self {
            kind,
            offset,
            line: before.bytes().filter(|&b| b == b'\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the text.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The line, from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column, from 1, in characters.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Expected(what) => write!(f, "expected {what}"),
            ErrorKind::NumberOutOfRange => f.write_str("number out of range for its type"),
            ErrorKind::InvalidNumber(why) => write!(f, "invalid number: {why}"),
            ErrorKind::NegativeUnsigned => f.write_str("an unsigned number cannot be negative"),
            ErrorKind::NonFiniteNumber => f.write_str("the number is not finite"),
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence"),
            ErrorKind::UnknownCharacterName => f.write_str("unknown Unicode character name"),
            ErrorKind::CharacterNamesNotEnabled => f.write_str(
                "`\\N{…}` escapes need simdnbt's `snbt-unicode-names` feature (the Unicode name \
                 tables); use `\\u…` instead, or enable the feature",
            ),
            ErrorKind::InvalidArrayElement => {
                f.write_str("element type not allowed in this typed array")
            }
            ErrorKind::UnknownFunction => f.write_str("no such function (`bool(x)`, `uuid(s)`)"),
            ErrorKind::InvalidArgument(why) => write!(f, "invalid argument: {why}"),
            ErrorKind::MaxDepthExceeded => f.write_str("nested deeper than 512 levels"),
            ErrorKind::NotACompound => f.write_str("expected a compound `{…}` as the root"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for Error {}

/// Why a value cannot be printed as SNBT that reads back as the same value.
///
/// ```
/// use simdnbt::owned::NbtTag;
/// use simdnbt::snbt::{to_string, PrintError};
///
/// assert_eq!(to_string(&NbtTag::Double(f64::NAN)), Err(PrintError::NonFiniteNumber));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PrintError {
    /// A NaN or infinite float or double: SNBT has no syntax for them (vanilla
    /// prints `NaNd`, which reads back as a *string*).
    NonFiniteNumber,
    /// A string whose bytes are not MUTF-8 that Java could hold (for example a raw
    /// `FF` byte or a 4-byte UTF-8 sequence); unpaired surrogates are fine
    /// (printed as `\uD800`).
    InvalidString,
    /// More than 512 nested compounds and lists, counting the root: no reader
    /// (vanilla's or [`super::from_str`]) would take the text back.
    MaxDepthExceeded,
}

impl fmt::Display for PrintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrintError::NonFiniteNumber => {
                f.write_str("NaN and infinite floats have no SNBT form that reads back")
            }
            PrintError::InvalidString => f.write_str("a string is not valid MUTF-8"),
            PrintError::MaxDepthExceeded => f.write_str("nested deeper than 512 levels"),
        }
    }
}

impl std::error::Error for PrintError {}
