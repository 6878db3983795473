//! What a path selects: [`Value`] in owned documents, [`BorrowValue`] in
//! borrowed ones.
//!
//! A value under a compound key is stored as a tag, and comes back as
//! `Tag`. List elements are stored in typed vectors and array elements as
//! numbers, and the root is a compound: those come back as the variant of
//! their type.

use std::borrow::Cow;

use crate::mutf8::{Mutf8Str, Mutf8String};
use crate::raw_list::RawList;
use crate::{Number, borrow, owned, tag_id};

/// A value selected in an owned document (see the [module docs](super)).
///
/// ```
/// # #[cfg(feature = "snbt")] {
/// use simdnbt::path::{NbtPath, Value};
///
/// let root = simdnbt::snbt::compound_from_str("{a: 1, b: [{c: 2}]}").unwrap();
/// let a = NbtPath::parse("a").unwrap().get(&root).unwrap();
/// assert!(matches!(a, Value::Tag(_)));
/// let b0 = NbtPath::parse("b[0]").unwrap().get(&root).unwrap();
/// assert!(matches!(b0, Value::Compound(_)));
/// assert_eq!(b0.to_tag().compound().unwrap().int("c"), Some(2));
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'t> {
    /// A value stored under a compound key.
    Tag(&'t owned::NbtTag),
    /// The root, or an element of a list of compounds.
    Compound(&'t owned::NbtCompound),
    /// An element of a list of lists.
    List(&'t owned::NbtList),
    /// An element of a list of numbers or of an array.
    Number(Number),
    /// An element of a list of ByteArrays.
    ByteArray(&'t [u8]),
    /// An element of a list of Strings.
    String(&'t Mutf8String),
    /// An element of a list of IntArrays.
    IntArray(&'t [i32]),
    /// An element of a list of LongArrays.
    LongArray(&'t [i64]),
}

impl<'t> Value<'t> {
    /// The same value, with `Tag` replaced by the variant of its type (the
    /// form evaluation works on).
    pub(crate) fn typed(self) -> Value<'t> {
        use owned::NbtTag as T;
        match self {
            Value::Tag(tag) => match tag {
                T::Byte(_) | T::Short(_) | T::Int(_) | T::Long(_) | T::Float(_) | T::Double(_) => {
                    Number::from_tag(tag).map_or(self, Value::Number)
                }
                T::ByteArray(v) => Value::ByteArray(v),
                T::String(v) => Value::String(v),
                T::List(v) => Value::List(v),
                T::Compound(v) => Value::Compound(v),
                T::IntArray(v) => Value::IntArray(v),
                T::LongArray(v) => Value::LongArray(v),
            },
            other => other,
        }
    }

    /// The tag type (a [`crate::tag_id`]).
    ///
    /// ```
    /// assert_eq!(simdnbt::path::Value::Number(simdnbt::Number::Int(1)).id(), simdnbt::tag_id::INT);
    /// ```
    pub fn id(&self) -> u8 {
        match self.typed() {
            Value::Tag(tag) => tag.id(),
            Value::Compound(_) => tag_id::COMPOUND,
            Value::List(_) => tag_id::LIST,
            Value::Number(n) => n.id(),
            Value::ByteArray(_) => tag_id::BYTE_ARRAY,
            Value::String(_) => tag_id::STRING,
            Value::IntArray(_) => tag_id::INT_ARRAY,
            Value::LongArray(_) => tag_id::LONG_ARRAY,
        }
    }

    /// The value as a tag: borrowed when it is one (`Tag`), else a copy.
    ///
    /// ```
    /// use simdnbt::path::Value;
    /// assert_eq!(Value::Number(simdnbt::Number::Int(5)).to_tag().int(), Some(5));
    /// ```
    pub fn to_tag(&self) -> Cow<'t, owned::NbtTag> {
        use owned::NbtTag as T;
        Cow::Owned(match *self {
            Value::Tag(tag) => return Cow::Borrowed(tag),
            Value::Compound(c) => T::Compound(c.clone()),
            Value::List(l) => T::List(l.clone()),
            Value::Number(n) => T::from(n),
            Value::ByteArray(v) => T::ByteArray(v.to_vec()),
            Value::String(v) => T::String(v.clone()),
            Value::IntArray(v) => T::IntArray(v.to_vec()),
            Value::LongArray(v) => T::LongArray(v.to_vec()),
        })
    }

    /// The compound, if the value is one.
    ///
    /// ```
    /// let c = simdnbt::owned::NbtCompound::new();
    /// assert!(simdnbt::path::Value::Compound(&c).compound().is_some());
    /// ```
    pub fn compound(&self) -> Option<&'t owned::NbtCompound> {
        match self.typed() {
            Value::Compound(c) => Some(c),
            _ => None,
        }
    }

    /// The list, if the value is one.
    ///
    /// ```
    /// let l = simdnbt::owned::NbtList::Empty;
    /// assert!(simdnbt::path::Value::List(&l).list().is_some());
    /// ```
    pub fn list(&self) -> Option<&'t owned::NbtList> {
        match self.typed() {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
}

/// A value selected in a borrowed document: the counterpart of [`Value`].
///
/// ```
/// use simdnbt::path::{BorrowValue, NbtPath};
///
/// // {a: [I; 1, 2]} as binary NBT
/// let bytes = [10, 0, 0, 11, 0, 1, b'a', 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0];
/// let doc = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..])).unwrap().unwrap();
/// let found = NbtPath::parse("a[1]").unwrap().get_all(doc.as_compound());
/// assert!(matches!(found[..], [BorrowValue::Number(simdnbt::Number::Int(2))]));
/// ```
#[derive(Debug, Clone, Copy)]
pub enum BorrowValue<'a: 'tape, 'tape> {
    /// A value stored under a compound key.
    Tag(borrow::NbtTag<'a, 'tape>),
    /// The root, or an element of a list of compounds.
    Compound(borrow::NbtCompound<'a, 'tape>),
    /// An element of a list of lists.
    List(borrow::NbtList<'a, 'tape>),
    /// An element of a list of numbers or of an array.
    Number(Number),
    /// An element of a list of ByteArrays.
    ByteArray(&'a [u8]),
    /// An element of a list of Strings.
    String(&'a Mutf8Str),
    /// An element of a list of IntArrays (big-endian view).
    IntArray(RawList<'a, i32>),
    /// An element of a list of LongArrays (big-endian view).
    LongArray(RawList<'a, i64>),
}

impl<'a: 'tape, 'tape> BorrowValue<'a, 'tape> {
    /// The same value, with `Tag` replaced by the variant of its type.
    pub(crate) fn typed(self) -> Self {
        let BorrowValue::Tag(tag) = self else {
            return self;
        };
        let typed = match tag.id() {
            tag_id::BYTE => tag.byte().map(Number::Byte),
            tag_id::SHORT => tag.short().map(Number::Short),
            tag_id::INT => tag.int().map(Number::Int),
            tag_id::LONG => tag.long().map(Number::Long),
            tag_id::FLOAT => tag.float().map(Number::Float),
            tag_id::DOUBLE => tag.double().map(Number::Double),
            _ => None,
        }
        .map(BorrowValue::Number);
        let typed = typed.or_else(|| match tag.id() {
            tag_id::BYTE_ARRAY => tag.byte_array().map(BorrowValue::ByteArray),
            tag_id::STRING => tag.string().map(BorrowValue::String),
            tag_id::LIST => tag.list().map(BorrowValue::List),
            tag_id::COMPOUND => tag.compound().map(BorrowValue::Compound),
            tag_id::INT_ARRAY => tag.int_array_raw().map(BorrowValue::IntArray),
            _ => tag.long_array_raw().map(BorrowValue::LongArray),
        });
        typed.unwrap_or(self)
    }

    /// The tag type (a [`crate::tag_id`]).
    ///
    /// ```
    /// assert_eq!(simdnbt::path::BorrowValue::Number(simdnbt::Number::Int(1)).id(), simdnbt::tag_id::INT);
    /// ```
    pub fn id(&self) -> u8 {
        match self {
            BorrowValue::Tag(tag) => tag.id(),
            BorrowValue::Compound(_) => tag_id::COMPOUND,
            BorrowValue::List(_) => tag_id::LIST,
            BorrowValue::Number(n) => n.id(),
            BorrowValue::ByteArray(_) => tag_id::BYTE_ARRAY,
            BorrowValue::String(_) => tag_id::STRING,
            BorrowValue::IntArray(_) => tag_id::INT_ARRAY,
            BorrowValue::LongArray(_) => tag_id::LONG_ARRAY,
        }
    }

    /// Converts to an owned tag.
    ///
    /// ```
    /// assert_eq!(simdnbt::path::BorrowValue::Number(simdnbt::Number::Int(5)).to_owned().int(), Some(5));
    /// ```
    pub fn to_owned(&self) -> owned::NbtTag {
        use owned::NbtTag as T;
        match *self {
            BorrowValue::Tag(tag) => tag.to_owned(),
            BorrowValue::Compound(c) => T::Compound(c.to_owned()),
            BorrowValue::List(l) => T::List(l.to_owned()),
            BorrowValue::Number(n) => T::from(n),
            BorrowValue::ByteArray(v) => T::ByteArray(v.to_vec()),
            BorrowValue::String(v) => T::String(v.to_owned()),
            BorrowValue::IntArray(v) => T::IntArray(v.to_vec()),
            BorrowValue::LongArray(v) => T::LongArray(v.to_vec()),
        }
    }
}
