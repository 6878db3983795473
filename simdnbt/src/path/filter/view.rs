//! What filter matching needs of a value beyond navigation: its type, its
//! entries by key bytes, and its leaf form.

use super::leaf::{Array, Leaf};
use crate::mutf8::key_matches;
use crate::path::value::{BorrowValue, Value};
use crate::path::view::View;

/// What filters compare of a value in a document.
pub(crate) trait FilterView: View {
    /// The tag type.
    fn id(self) -> u8;
    /// The value under `key`, the MUTF-8 encoding of a name (what
    /// [`Mutf8Str::from_str`](crate::Mutf8Str::from_str) gives), if this is a
    /// compound that has it: the last entry whose key matches, as in
    /// [`NbtCompound::get`](crate::owned::NbtCompound::get).
    fn child_bytes(self, key: &[u8]) -> Option<Self>;
    /// The value inside a `{"": value}` compound (the form a list of mixed
    /// types is stored in), else the value itself.
    fn unwrapped(self) -> Self;
    /// The value as a leaf.
    fn leaf(&self) -> Leaf<'_>;
}

impl<'t> FilterView for Value<'t> {
    fn id(self) -> u8 {
        Value::id(&self)
    }

    fn child_bytes(self, key: &[u8]) -> Option<Self> {
        // Through the compound's index when it is big: O(1).
        self.compound()?.get_bytes(key).map(Value::Tag)
    }

    fn unwrapped(self) -> Self {
        match self.compound().map(|c| c.values.as_slice()) {
            Some([(key, value)]) if key.as_bytes().is_empty() => Value::Tag(value),
            _ => self,
        }
    }

    fn leaf(&self) -> Leaf<'_> {
        match self.typed() {
            Value::Number(n) => Leaf::Number(n),
            Value::ByteArray(v) => Leaf::ByteArray(v),
            Value::String(v) => Leaf::String(v.as_bytes()),
            Value::IntArray(v) => Leaf::IntArray(Array::Native(v)),
            Value::LongArray(v) => Leaf::LongArray(Array::Native(v)),
            _ => Leaf::Container,
        }
    }
}

impl<'a: 'tape, 'tape> FilterView for BorrowValue<'a, 'tape> {
    fn id(self) -> u8 {
        BorrowValue::id(&self)
    }

    fn child_bytes(self, key: &[u8]) -> Option<Self> {
        let BorrowValue::Compound(c) = self.typed() else {
            return None;
        };
        // Forward links only: the last match is found by a full scan.
        let (_, v) = c
            .iter()
            .filter(|(k, _)| key_matches(k.as_bytes(), key))
            .last()?;
        Some(BorrowValue::Tag(v))
    }

    fn unwrapped(self) -> Self {
        if let BorrowValue::Compound(c) = self.typed() {
            let mut entries = c.iter();
            if let (Some((key, value)), None) = (entries.next(), entries.next()) {
                if key.is_empty() {
                    return BorrowValue::Tag(value);
                }
            }
        }
        self
    }

    fn leaf(&self) -> Leaf<'_> {
        match self.typed() {
            BorrowValue::Number(n) => Leaf::Number(n),
            BorrowValue::ByteArray(v) => Leaf::ByteArray(v),
            BorrowValue::String(v) => Leaf::String(v.as_bytes()),
            BorrowValue::IntArray(v) => Leaf::IntArray(Array::BigEndian(v)),
            BorrowValue::LongArray(v) => Leaf::LongArray(Array::BigEndian(v)),
            _ => Leaf::Container,
        }
    }
}
