//! Paths to a value inside a document (`Inventory[3].tag.display.Name`), as
//! deserialization errors report them.
//!
//! One formatter for every error that names a place in a document, so the
//! derive macros, [`crate::DeserializeError`] and any other layer that maps NBT
//! onto Rust types print paths the same way.
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
//!
//! // Keys that are not plain words are quoted, so a path is never ambiguous.
//! let odd = NbtPath::new().with_key("a.b").with_key("");
//! assert_eq!(odd.to_string(), r#"""."a.b""#);
//! ```

use std::fmt;

/// One step of an [`NbtPath`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A compound key.
    Key(String),
    /// A list index.
    Index(usize),
}

/// Where a value is in a document: compound keys and list indices from the root.
///
/// `Display` writes keys joined by `.`, indices as `[i]`; a key that is empty or
/// holds anything but ASCII letters, digits, `_`, `-` and `+` is written in
/// double quotes with `"` and `\` escaped (as SNBT quotes strings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NbtPath {
    /// Innermost segment first: errors grow the path outwards as they return
    /// through each level, and pushing is cheaper than inserting at the front.
    reversed: Vec<PathSegment>,
}

impl NbtPath {
    /// The empty path (the root).
    pub const fn new() -> Self {
        Self {
            reversed: Vec::new(),
        }
    }

    /// Whether this is the root.
    pub fn is_empty(&self) -> bool {
        self.reversed.is_empty()
    }

    /// Puts `key` in front: the value is under compound key `key`.
    pub fn push_key_front(&mut self, key: impl Into<String>) {
        self.reversed.push(PathSegment::Key(key.into()));
    }

    /// Puts `index` in front: the value is element `index` of a list.
    pub fn push_index_front(&mut self, index: usize) {
        self.reversed.push(PathSegment::Index(index));
    }

    /// [`push_key_front`](Self::push_key_front), by value.
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.push_key_front(key);
        self
    }

    /// [`push_index_front`](Self::push_index_front), by value.
    pub fn with_index(mut self, index: usize) -> Self {
        self.push_index_front(index);
        self
    }

    /// The segments from the root inwards.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = &PathSegment> + ExactSizeIterator {
        self.reversed.iter().rev()
    }
}

fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+'))
}

impl fmt::Display for NbtPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments().enumerate() {
            match segment {
                PathSegment::Index(index) => write!(f, "[{index}]")?,
                PathSegment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    if is_bare_key(key) {
                        f.write_str(key)?;
                    } else {
                        f.write_str("\"")?;
                        for c in key.chars() {
                            if matches!(c, '"' | '\\') {
                                f.write_str("\\")?;
                            }
                            write!(f, "{c}")?;
                        }
                        f.write_str("\"")?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_keys_and_indices() {
        assert_eq!(NbtPath::new().to_string(), "");
        assert_eq!(NbtPath::new().with_index(0).to_string(), "[0]");
        let p = NbtPath::new().with_index(2).with_key("i").with_index(1);
        assert_eq!(p.to_string(), "[1].i[2]");
        let q = NbtPath::new().with_key("say \"hi\"\\").with_key("x");
        assert_eq!(q.to_string(), r#"x."say \"hi\"\\""#);
        assert_eq!(
            q.segments().next(),
            Some(&PathSegment::Key("x".to_string()))
        );
    }
}
