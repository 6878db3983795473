//! Typed JSON errors: what went wrong and where (line and column of the
//! JSON text, from 1, and the JSON pointer of the value).

use std::fmt;

/// Why typed JSON did not read or write, and where.
///
/// ```
/// let err = simdnbt::json::from_str(r#"{"name":"","compound":[],"int":1}"#).unwrap_err();
/// assert_eq!((err.line(), err.column()), (1, 30));
/// assert_eq!(err.to_string(), "line 1, column 30, at /int: a second type `int` in one entry");
///
/// let text = r#"{"name":"","compound":[{"name":"a","byte":300}]}"#;
/// assert_eq!(simdnbt::json::from_str(text).unwrap_err().pointer(), "/compound/0/byte");
/// ```
#[derive(Debug)]
pub struct Error {
    message: String,
    line: usize,
    column: usize,
    pointer: String,
}

impl Error {
    pub(super) fn root_type(found: &str) -> Self {
        Error {
            message: format!("the root is a `{found}`: it must be a `compound`"),
            line: 1,
            column: 1,
            pointer: String::new(),
        }
    }

    /// Names the value the error is in, found in the text that was read.
    pub(super) fn in_text(mut self, text: &[u8]) -> Self {
        if self.line > 0 {
            self.pointer = super::locate::pointer(text, self.line, self.column);
        }
        self
    }

    /// The JSON pointer (RFC 6901) of the value the error is in:
    /// `/compound/0/byte` is the `byte` of the root compound's first entry,
    /// `/compound/2/list/3` the third element of a list (its element type is
    /// element 0). Empty for the whole text, or an error not in the text.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The line (from 1; 0 when the error is not in the text: a failing writer).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column, from 1, in bytes (0 when the error is not in the text).
    pub fn column(&self) -> usize {
        self.column
    }

    /// What went wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        let full = e.to_string();
        // serde_json appends " at line L column C" to positioned errors.
        let message = match full.rfind(" at line ") {
            Some(at) if e.line() > 0 => full[..at].to_owned(),
            _ => full,
        };
        // serde_json says column 0 for an error before the line's first
        // character; columns here count from 1.
        let column = if e.line() > 0 { e.column().max(1) } else { 0 };
        Error {
            message,
            line: e.line(),
            column,
            pointer: String::new(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return f.write_str(&self.message);
        }
        write!(f, "line {}, column {}", self.line, self.column)?;
        if !self.pointer.is_empty() {
            write!(f, ", at {}", self.pointer)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Error {}
