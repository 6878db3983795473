//! Conversions between [`Number`] and the owned tree's [`NbtTag`].

use super::NbtTag;
use crate::Number;

impl Number {
    /// The number in `tag`, if it holds one.
    pub fn from_tag(tag: &NbtTag) -> Option<Number> {
        use NbtTag as T;
        Some(match *tag {
            T::Byte(v) => Number::Byte(v),
            T::Short(v) => Number::Short(v),
            T::Int(v) => Number::Int(v),
            T::Long(v) => Number::Long(v),
            T::Float(v) => Number::Float(v),
            T::Double(v) => Number::Double(v),
            _ => return None,
        })
    }
}

impl From<Number> for NbtTag {
    fn from(n: Number) -> NbtTag {
        use NbtTag as T;
        match n {
            Number::Byte(v) => T::Byte(v),
            Number::Short(v) => T::Short(v),
            Number::Int(v) => T::Int(v),
            Number::Long(v) => T::Long(v),
            Number::Float(v) => T::Float(v),
            Number::Double(v) => T::Double(v),
        }
    }
}
