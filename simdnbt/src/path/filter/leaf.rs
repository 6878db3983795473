//! Leaves as filters compare them.

use crate::Number;
use crate::raw_list::RawList;

/// A leaf value as filters compare it: the type and the value (numbers as
/// Java's `equals` does, see [`Number::java_equals`]).
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'x> {
    Number(Number),
    ByteArray(&'x [u8]),
    String(&'x [u8]),
    IntArray(Array<'x, i32>),
    LongArray(Array<'x, i64>),
    /// A compound or list: not a leaf.
    Container,
}

/// Array elements, native or big-endian.
#[derive(Clone, Copy)]
pub(crate) enum Array<'x, T> {
    Native(&'x [T]),
    BigEndian(RawList<'x, T>),
}

impl<T: crate::simd::BeNumber + Copy + PartialEq> Array<'_, T> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Array::Native(v) => v.len(),
            Array::BigEndian(v) => v.len(),
        }
    }

    pub(crate) fn get(&self, i: usize) -> Option<T> {
        match self {
            Array::Native(v) => v.get(i).copied(),
            Array::BigEndian(v) => v.get(i),
        }
    }

    fn same(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Leaf<'_> {
    /// Whether a document leaf equals this filter leaf.
    pub(crate) fn matched_by(&self, filter: &Leaf<'_>) -> bool {
        match (filter, self) {
            (Leaf::Number(a), Leaf::Number(b)) => a.java_equals(*b),
            (Leaf::ByteArray(a), Leaf::ByteArray(b)) => a == b,
            (Leaf::String(a), Leaf::String(b)) => crate::mutf8::key_matches(b, a),
            (Leaf::IntArray(a), Leaf::IntArray(b)) => a.same(b),
            (Leaf::LongArray(a), Leaf::LongArray(b)) => a.same(b),
            _ => false,
        }
    }
}
