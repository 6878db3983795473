//! One value of any of NBT's six number types.

use crate::tag_id;

/// A Byte, Short, Int, Long, Float or Double value.
///
/// What an [NBT path](crate::path) gives for an element of a list of numbers
/// or of an array (those are stored as plain numbers, not as tags), and what an
/// SNBT number literal reads as.
///
/// ```
/// use simdnbt::{owned::NbtTag, tag_id, Number};
///
/// let n = Number::Short(7);
/// assert_eq!(n.id(), tag_id::SHORT);
/// assert_eq!(NbtTag::from(n), NbtTag::Short(7));
/// assert_eq!(Number::from_tag(&NbtTag::Double(0.5)), Some(Number::Double(0.5)));
/// assert_eq!(Number::from_tag(&NbtTag::String("7".into())), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// A Byte (also an element of a ByteArray, its bits as `i8`).
    Byte(i8),
    /// A Short.
    Short(i16),
    /// An Int (also an element of an IntArray).
    Int(i32),
    /// A Long (also an element of a LongArray).
    Long(i64),
    /// A Float.
    Float(f32),
    /// A Double.
    Double(f64),
}

impl Number {
    /// The tag type (a [`crate::tag_id`]).
    pub fn id(self) -> u8 {
        match self {
            Number::Byte(_) => tag_id::BYTE,
            Number::Short(_) => tag_id::SHORT,
            Number::Int(_) => tag_id::INT,
            Number::Long(_) => tag_id::LONG,
            Number::Float(_) => tag_id::FLOAT,
            Number::Double(_) => tag_id::DOUBLE,
        }
    }

    /// Java's `equals` on the boxed number: the same type and value, floats
    /// compared by their bits with every NaN one value (so `NaN` equals
    /// `NaN`, `0.0` does not equal `-0.0`). Vanilla matches NBT this way.
    #[cfg(feature = "snbt")]
    pub(crate) fn java_equals(self, other: Number) -> bool {
        fn f32_bits(v: f32) -> u32 {
            if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() }
        }
        fn f64_bits(v: f64) -> u64 {
            if v.is_nan() {
                0x7ff8_0000_0000_0000
            } else {
                v.to_bits()
            }
        }
        match (self, other) {
            (Number::Float(a), Number::Float(b)) => f32_bits(a) == f32_bits(b),
            (Number::Double(a), Number::Double(b)) => f64_bits(a) == f64_bits(b),
            (a, b) => a == b,
        }
    }
}
