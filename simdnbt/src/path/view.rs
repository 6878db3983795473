//! Navigation: what evaluating and editing a path needs of a value, for
//! owned and borrowed documents (the document model implements it in
//! `document/path.rs`). What filters need on top is `filter::FilterView`.

use super::value::{BorrowValue, Value};
use crate::{Number, tag_id};

/// What evaluation needs of a value in a document.
pub(crate) trait View: Copy {
    /// The value under `key`, if this is a compound that has it.
    fn child(self, key: &str) -> Option<Self>;
    /// The number of elements of a list or array.
    fn len(self) -> Option<usize>;
    /// Element `i` of a list or array.
    fn element(self, i: usize) -> Option<Self>;
    /// Every element of a list or array, appended to `out`.
    fn elements(self, out: &mut Vec<Self>);
    /// How a compound's keys are borrowed from the document.
    type Key: Copy + AsRef<[u8]>;
    /// Calls `f` with every entry of a compound, in order (nothing for other values).
    fn for_each_entry(self, f: impl FnMut(Self::Key, Self));
    /// An identity of a compound or list, the same for every view of it and
    /// unique in its document, which lets a walk below several values visit
    /// each node once; `None` for other values (and where an empty
    /// container has no identity of its own: it has nothing below it).
    fn node_id(self) -> Option<usize>;
}

impl<'t> View for Value<'t> {
    fn child(self, key: &str) -> Option<Self> {
        self.compound()?.get(key).map(Value::Tag)
    }

    fn len(self) -> Option<usize> {
        match self.typed() {
            Value::List(l) => Some(l.len()),
            Value::ByteArray(a) => Some(a.len()),
            Value::IntArray(a) => Some(a.len()),
            Value::LongArray(a) => Some(a.len()),
            _ => None,
        }
    }

    fn element(self, i: usize) -> Option<Self> {
        use crate::owned::NbtList as L;
        Some(match self.typed() {
            Value::ByteArray(a) => Value::Number(Number::Byte(*a.get(i)? as i8)),
            Value::IntArray(a) => Value::Number(Number::Int(*a.get(i)?)),
            Value::LongArray(a) => Value::Number(Number::Long(*a.get(i)?)),
            Value::List(l) => match l {
                L::Empty => return None,
                L::Byte(v) => Value::Number(Number::Byte(*v.get(i)?)),
                L::Short(v) => Value::Number(Number::Short(*v.get(i)?)),
                L::Int(v) => Value::Number(Number::Int(*v.get(i)?)),
                L::Long(v) => Value::Number(Number::Long(*v.get(i)?)),
                L::Float(v) => Value::Number(Number::Float(*v.get(i)?)),
                L::Double(v) => Value::Number(Number::Double(*v.get(i)?)),
                L::ByteArray(v) => Value::ByteArray(v.get(i)?),
                L::String(v) => Value::String(v.get(i)?),
                L::List(v) => Value::List(v.get(i)?),
                L::Compound(v) => Value::Compound(v.get(i)?),
                L::IntArray(v) => Value::IntArray(v.get(i)?),
                L::LongArray(v) => Value::LongArray(v.get(i)?),
            },
            _ => return None,
        })
    }

    fn elements(self, out: &mut Vec<Self>) {
        let n = self.len().unwrap_or(0);
        out.extend((0..n).filter_map(|i| self.element(i)));
    }

    type Key = &'t [u8];

    fn for_each_entry(self, mut f: impl FnMut(Self::Key, Self)) {
        if let Some(c) = self.compound() {
            for (k, v) in &c.values {
                f(k.as_bytes(), Value::Tag(v));
            }
        }
    }

    fn node_id(self) -> Option<usize> {
        match self.typed() {
            Value::Compound(c) => Some(std::ptr::from_ref(c) as usize),
            Value::List(l) => Some(std::ptr::from_ref(l) as usize),
            _ => None,
        }
    }
}

impl<'a: 'tape, 'tape> View for BorrowValue<'a, 'tape> {
    fn child(self, key: &str) -> Option<Self> {
        match self.typed() {
            BorrowValue::Compound(c) => c.get(key).map(BorrowValue::Tag),
            _ => None,
        }
    }

    fn len(self) -> Option<usize> {
        match self.typed() {
            BorrowValue::List(l) => Some(l.len()),
            BorrowValue::ByteArray(a) => Some(a.len()),
            BorrowValue::IntArray(a) => Some(a.len()),
            BorrowValue::LongArray(a) => Some(a.len()),
            _ => None,
        }
    }

    fn element(self, i: usize) -> Option<Self> {
        Some(match self.typed() {
            BorrowValue::ByteArray(a) => BorrowValue::Number(Number::Byte(*a.get(i)? as i8)),
            BorrowValue::IntArray(a) => BorrowValue::Number(Number::Int(a.get(i)?)),
            BorrowValue::LongArray(a) => BorrowValue::Number(Number::Long(a.get(i)?)),
            BorrowValue::List(l) => match l.id() {
                tag_id::BYTE => BorrowValue::Number(Number::Byte(*l.bytes()?.get(i)?)),
                tag_id::SHORT => BorrowValue::Number(Number::Short(l.shorts_raw()?.get(i)?)),
                tag_id::INT => BorrowValue::Number(Number::Int(l.ints_raw()?.get(i)?)),
                tag_id::LONG => BorrowValue::Number(Number::Long(l.longs_raw()?.get(i)?)),
                tag_id::FLOAT => BorrowValue::Number(Number::Float(l.floats_raw()?.get(i)?)),
                tag_id::DOUBLE => BorrowValue::Number(Number::Double(l.doubles_raw()?.get(i)?)),
                tag_id::BYTE_ARRAY => BorrowValue::ByteArray(l.byte_arrays()?.get(i)?),
                tag_id::STRING => BorrowValue::String(l.strings()?.get(i)?),
                tag_id::LIST => BorrowValue::List(l.lists()?.get(i)?),
                tag_id::COMPOUND => BorrowValue::Compound(l.compounds()?.get(i)?),
                tag_id::INT_ARRAY => BorrowValue::IntArray(*l.int_arrays()?.get(i)?),
                tag_id::LONG_ARRAY => BorrowValue::LongArray(*l.long_arrays()?.get(i)?),
                _ => return None,
            },
            _ => return None,
        })
    }

    fn elements(self, out: &mut Vec<Self>) {
        // Lists of lists and compounds are walked once (indexing each would
        // scan from the start every time).
        if let BorrowValue::List(l) = self.typed() {
            if let Some(c) = l.compounds() {
                out.extend(c.iter().map(BorrowValue::Compound));
                return;
            }
            if let Some(ls) = l.lists() {
                out.extend(ls.iter().map(BorrowValue::List));
                return;
            }
        }
        let n = self.len().unwrap_or(0);
        out.extend((0..n).filter_map(|i| self.element(i)));
    }

    type Key = &'a [u8];

    fn for_each_entry(self, mut f: impl FnMut(Self::Key, Self)) {
        if let BorrowValue::Compound(c) = self.typed() {
            for (k, v) in c.iter() {
                f(k.as_bytes(), BorrowValue::Tag(v));
            }
        }
    }

    fn node_id(self) -> Option<usize> {
        // A compound by the tape index of its first child, a list by the
        // input offset of its payload; the low bit tells which.
        match self.typed() {
            BorrowValue::Compound(c) if c.start < c.end => Some((c.start as usize) << 1),
            BorrowValue::List(l) => Some(l.value.payload << 1 | 1),
            _ => None,
        }
    }
}
