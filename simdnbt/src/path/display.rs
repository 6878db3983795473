//! `Display` for [`NbtPath`]: the path syntax, which [`NbtPath::parse`] reads
//! back. Concrete paths print as they always have (errors and tests rely on
//! it): keys joined by `.`, `[i]` for indices, odd keys in double quotes.

use std::fmt;

use super::{NbtPath, PathSegment};

/// Whether `key` prints without quotes. Narrower than what the parser takes
/// unquoted, so a printed path reads the same in any NBT path reader.
fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+'))
}

/// Writes `key`, quoted with `"` and `\` escaped unless it is bare.
pub(crate) fn write_key(f: &mut impl fmt::Write, key: &str) -> fmt::Result {
    if is_bare_key(key) {
        return f.write_str(key);
    }
    f.write_char('"')?;
    for c in key.chars() {
        if matches!(c, '"' | '\\') {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char('"')
}

impl fmt::Display for NbtPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments().enumerate() {
            match segment {
                PathSegment::Index(index) => write!(f, "[{index}]")?,
                PathSegment::IndexFromEnd(n) => write!(f, "[-{n}]")?,
                PathSegment::AllElements => f.write_str("[]")?,
                PathSegment::AllEntries if i > 0 => f.write_str(".*")?,
                PathSegment::AllEntries => f.write_str("*")?,
                PathSegment::Descendant(key) => {
                    f.write_str("..")?;
                    write_key(f, key)?;
                }
                #[cfg(feature = "snbt")]
                PathSegment::ElementFilter(_) | PathSegment::Filter(_) => {
                    super::filter::write_segment(f, segment)?
                }
                PathSegment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write_key(f, key)?;
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
        let p = NbtPath::new().with_index(1).with_key("i").with_index(2);
        assert_eq!(p.to_string(), "[1].i[2]");
        let q = NbtPath::new().with_key("x").with_key("say \"hi\"\\");
        assert_eq!(q.to_string(), r#"x."say \"hi\"\\""#);
        assert_eq!(
            q.segments().next(),
            Some(&PathSegment::Key("x".to_string()))
        );
    }
}
