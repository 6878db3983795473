//! Mapping Rust types to and from NBT: whole documents ([`Deserialize`],
//! [`Serialize`]) and single values ([`FromNbtTag`], [`ToNbtTag`]), with the
//! impls for std types that upstream simdnbt 0.10 has, under its names.
//!
//! Deserializing reads the borrowed document ([`crate::borrow`]) directly;
//! serializing builds the owned tree ([`crate::owned`]), which either writer can
//! then write. `#[derive(Deserialize, Serialize)]` (feature `derive`) writes these
//! impls for structs.
//!
//! | Rust | NBT |
//! |---|---|
//! | `i8` `i16` `i32` `i64` `f32` `f64` | Byte, Short, Int, Long, Float, Double |
//! | `u8` `u16` `u32` `u64` | the signed tag of the same width, bits reinterpreted (`255u8` is Byte `-1`) |
//! | `bool` | Byte `0` / `1` (any non-zero Byte reads as `true`) |
//! | `String`, `&str` (write only) | String (decoded lossily, as [`crate::Mutf8Str::to_str`]) |
//! | `Vec<String>` | List of String |
//! | `Vec<i16>` `Vec<f32>` `Vec<f64>` (beyond upstream) | List of Short, Float, Double |
//! | `Vec<i32>` `Vec<i64>` `Vec<u8>` (beyond upstream) | IntArray, LongArray, ByteArray (the first two also read from a List of Int / Long) |
//! | `Vec<T>` where `T: Deserialize`/`Serialize` | List of Compound |
//! | `Vec<Option<T>>` | List of Compound, `None` as an empty compound |
//! | `Option<T>` | the value, or no key at all (see below) |
//! | `HashMap<K, V>`, [`owned::NbtCompound`] | Compound |
//! | [`owned::NbtTag`], [`owned::NbtList`], [`owned::Nbt`] | themselves |
//! | `()` | anything (reading), empty Compound (writing) |
//!
//! Reading an `Option<T>` field never fails: a missing key or a value of
//! another type gives `None`, as in upstream simdnbt.

use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;
use std::str::FromStr;

use crate::deserialize_error::DeserializeError;
use crate::{borrow, owned, tag_id};

/// A type read from a whole compound: a document's root or a compound value.
///
/// ```
/// use std::io::Cursor;
/// use simdnbt::{borrow, Deserialize, DeserializeError};
///
/// struct Player {
///     score: i32,
/// }
///
/// impl Deserialize for Player {
///     fn from_compound(c: borrow::NbtCompound) -> Result<Self, DeserializeError> {
///         let score = c.int("Score").ok_or(DeserializeError::MissingField.in_field("Score"))?;
///         Ok(Player { score })
///     }
/// }
///
/// let bytes = [0x0a, 0, 0, 0x03, 0, 5, b'S', b'c', b'o', b'r', b'e', 0, 0, 0, 7, 0];
/// let nbt = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
/// assert_eq!(Player::from_nbt(&nbt).unwrap().score, 7);
/// ```
pub trait Deserialize: Sized {
    /// Reads the document's root compound.
    fn from_nbt(nbt: &borrow::BaseNbt<'_>) -> Result<Self, DeserializeError> {
        Self::from_compound(nbt.as_compound())
    }

    /// Reads a compound.
    fn from_compound(compound: borrow::NbtCompound<'_, '_>) -> Result<Self, DeserializeError>;
}

/// A type written as a whole compound.
///
/// ```
/// use simdnbt::{owned, Serialize};
///
/// struct Player {
///     score: i32,
/// }
///
/// impl Serialize for Player {
///     fn to_compound(self) -> owned::NbtCompound {
///         let mut c = owned::NbtCompound::new();
///         c.insert("Score", self.score);
///         c
///     }
/// }
///
/// let mut bytes = Vec::new();
/// Player { score: 7 }.to_nbt().write(&mut bytes).unwrap();
/// assert_eq!(bytes, [0x0a, 0, 0, 0x03, 0, 5, b'S', b'c', b'o', b'r', b'e', 0, 0, 0, 7, 0]);
/// ```
pub trait Serialize: Sized {
    /// The compound as a document with an empty root name.
    fn to_nbt(self) -> owned::BaseNbt {
        owned::BaseNbt::new("", self.to_compound())
    }

    /// The compound.
    fn to_compound(self) -> owned::NbtCompound;
}

/// A type read from one tag.
///
/// Every [`Deserialize`] type is one (read from a Compound tag).
///
/// ```
/// use simdnbt::FromNbtTag;
///
/// let bytes = [0x03, 0, 0, 0, 42];
/// let tag = simdnbt::borrow::read_tag(&mut std::io::Cursor::new(&bytes[..])).unwrap();
/// assert_eq!(i32::from_nbt_tag(tag.as_tag()), Some(42));
/// assert_eq!(u32::from_nbt_tag(tag.as_tag()), Some(42));
/// assert_eq!(i64::from_nbt_tag(tag.as_tag()), None);
/// ```
pub trait FromNbtTag: Sized {
    /// The value, or `None` if the tag has another type or shape.
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self>;

    /// Reads a field that may be absent (`None`).
    ///
    /// `Ok(Some(value))` when it fits, `Ok(None)` when the tag does not fit the
    /// type, `Err` for a missing field (or, for types that report it, an error
    /// found deeper inside the value, with its path). `Option<T>` overrides this:
    /// a missing field is `Ok(Some(None))`.
    fn from_optional_nbt_tag(
        tag: Option<borrow::NbtTag<'_, '_>>,
    ) -> Result<Option<Self>, DeserializeError> {
        // Present: whatever the tag converts to (`None` if it does not fit).
        tag.map(Self::from_nbt_tag)
            .ok_or(DeserializeError::MissingField)
    }
}

/// A type written as one tag.
///
/// ```
/// use simdnbt::{owned::NbtTag, ToNbtTag};
///
/// assert_eq!(7u8.to_nbt_tag(), NbtTag::Byte(7));
/// assert_eq!(true.to_nbt_tag(), NbtTag::Byte(1));
/// assert_eq!(None::<i32>.to_optional_nbt_tag(), None);
/// ```
pub trait ToNbtTag: Sized {
    /// The tag.
    ///
    /// # Panics
    ///
    /// `Option<T>` has no tag for `None` and panics here, as in upstream simdnbt;
    /// call [`to_optional_nbt_tag`](Self::to_optional_nbt_tag) (which
    /// [`owned::NbtCompound::insert`] and the derive do) instead.
    fn to_nbt_tag(self) -> owned::NbtTag;

    /// The tag, or `None` to leave the key out (what `Option::None` does).
    fn to_optional_nbt_tag(self) -> Option<owned::NbtTag> {
        Some(self.to_nbt_tag())
    }
}

/// Reads a compound value as `T`, keeping the error (and its path) that
/// [`FromNbtTag::from_nbt_tag`] would drop.
fn compound_value<T: Deserialize>(
    tag: borrow::NbtTag<'_, '_>,
) -> Result<Option<T>, DeserializeError> {
    match tag.compound() {
        Some(c) => T::from_compound(c).map(Some),
        None => Ok(None),
    }
}

/// The compounds of a list of compounds; an untyped empty list (element type
/// End, as vanilla writes empty lists) is an empty list too.
fn compound_elements<'a, 'tape>(
    tag: borrow::NbtTag<'a, 'tape>,
) -> Option<impl ExactSizeIterator<Item = borrow::NbtCompound<'a, 'tape>>> {
    let list = tag.list()?;
    match list.compounds() {
        Some(c) => Some(c.into_iter()),
        None if list.empty() => Some(borrow::NbtCompoundListIter::default()),
        None => None,
    }
}

/// Reads every element of a list of compounds with `read`, naming the index of
/// the first that fails.
fn collect_compounds<T>(
    tag: borrow::NbtTag<'_, '_>,
    mut read: impl FnMut(borrow::NbtCompound<'_, '_>) -> Result<T, DeserializeError>,
) -> Result<Option<Vec<T>>, DeserializeError> {
    let Some(elements) = compound_elements(tag) else {
        return Ok(None);
    };
    let mut out = Vec::with_capacity(elements.len());
    for (i, c) in elements.enumerate() {
        out.push(read(c).map_err(|e| e.at_index(i))?);
    }
    Ok(Some(out))
}

impl<T: Deserialize> FromNbtTag for T {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        compound_value(tag).ok().flatten()
    }

    fn from_optional_nbt_tag(
        tag: Option<borrow::NbtTag<'_, '_>>,
    ) -> Result<Option<Self>, DeserializeError> {
        compound_value(tag.ok_or(DeserializeError::MissingField)?)
    }
}

impl<T: Serialize> ToNbtTag for T {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::Compound(self.to_compound())
    }
}

/// Number types: the tag of their width, unsigned ones bit-cast to the signed.
macro_rules! number_impls {
    ($( $t:ty => $variant:ident, $getter:ident, $as:ty; )*) => {$(
        impl FromNbtTag for $t {
            fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
                tag.$getter().map(|v| v as $t)
            }
        }

        impl ToNbtTag for $t {
            fn to_nbt_tag(self) -> owned::NbtTag {
                owned::NbtTag::$variant(self as $as)
            }
        }
    )*};
}

number_impls! {
    i8 => Byte, byte, i8;
    i16 => Short, short, i16;
    i32 => Int, int, i32;
    i64 => Long, long, i64;
    f32 => Float, float, f32;
    f64 => Double, double, f64;
    u8 => Byte, byte, i8;
    u16 => Short, short, i16;
    u32 => Int, int, i32;
    u64 => Long, long, i64;
}

impl FromNbtTag for bool {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        tag.byte().map(|b| b != 0)
    }
}

impl ToNbtTag for bool {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::Byte(i8::from(self))
    }
}

impl FromNbtTag for String {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        tag.string().map(|s| s.to_str().into_owned())
    }
}

// Text becomes a String tag; the MUTF-8 encoding happens in `Mutf8String::from`.
impl ToNbtTag for String {
    fn to_nbt_tag(self) -> owned::NbtTag {
        let text: crate::Mutf8String = self.into();
        owned::NbtTag::String(text)
    }
}

impl ToNbtTag for &str {
    fn to_nbt_tag(self) -> owned::NbtTag {
        let text: crate::Mutf8String = self.into();
        owned::NbtTag::String(text)
    }
}

/// The array tags and raw MUTF-8 strings, beyond upstream's impls: the same
/// mapping as `From<_> for owned::NbtTag`, so [`owned::NbtCompound::insert`]
/// takes every value that `From` converts.
macro_rules! array_impls {
    ($( $t:ty => $variant:ident, $getter:ident; )*) => {$(
        impl FromNbtTag for $t {
            fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
                tag.$getter().map(Into::into)
            }
        }

        impl ToNbtTag for $t {
            fn to_nbt_tag(self) -> owned::NbtTag {
                owned::NbtTag::$variant(self)
            }
        }
    )*};
}

array_impls! {
    Vec<u8> => ByteArray, byte_array;
    crate::Mutf8String => String, string;
}

/// `Vec<i32>` and `Vec<i64>` are written as IntArray / LongArray (as UUIDs and
/// block states are) and read from those or from a List of Int / Long.
macro_rules! int_array_impls {
    ($( $t:ty => $variant:ident, $array:ident, $list:ident; )*) => {$(
        impl FromNbtTag for Vec<$t> {
            fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
                tag.$array().or_else(|| number_list(tag, |l| l.$list()))
            }
        }

        impl ToNbtTag for Vec<$t> {
            fn to_nbt_tag(self) -> owned::NbtTag {
                owned::NbtTag::$variant(self)
            }
        }
    )*};
}

int_array_impls! {
    i32 => IntArray, int_array, ints;
    i64 => LongArray, long_array, longs;
}

/// A list of numbers, an untyped empty list reading as empty.
fn number_list<T>(
    tag: borrow::NbtTag<'_, '_>,
    get: impl FnOnce(&borrow::NbtList<'_, '_>) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    let list = tag.list()?;
    if list.empty() {
        return Some(Vec::new());
    }
    get(&list)
}

/// Lists of numbers that have no array type (`Pos` is a List of Double).
macro_rules! number_list_impls {
    ($( $t:ty => $variant:ident, $list:ident; )*) => {$(
        impl FromNbtTag for Vec<$t> {
            fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
                number_list(tag, |l| l.$list())
            }
        }

        impl ToNbtTag for Vec<$t> {
            fn to_nbt_tag(self) -> owned::NbtTag {
                owned::NbtTag::List(owned::NbtList::$variant(self))
            }
        }
    )*};
}

number_list_impls! {
    i16 => Short, shorts;
    f32 => Float, floats;
    f64 => Double, doubles;
}

/// A list of the elements' tags (mixed types wrapped as `{"": tag}`, as
/// `From<Vec<NbtTag>> for NbtList` does).
impl<const N: usize, T: ToNbtTag> ToNbtTag for [T; N] {
    fn to_nbt_tag(self) -> owned::NbtTag {
        let tags: Vec<owned::NbtTag> = self.into_iter().map(T::to_nbt_tag).collect();
        owned::NbtTag::List(tags.into())
    }
}

impl ToNbtTag for &crate::Mutf8Str {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::String(self.into())
    }
}

impl FromNbtTag for Vec<String> {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        let list = tag.list()?;
        if list.empty() {
            return Some(Vec::new());
        }
        Some(
            list.strings()?
                .iter()
                .map(|s| s.to_str().into_owned())
                .collect(),
        )
    }
}

impl ToNbtTag for Vec<String> {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::List(self.into())
    }
}

impl<T: FromNbtTag> FromNbtTag for Option<T> {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Some(T::from_nbt_tag(tag))
    }

    fn from_optional_nbt_tag(
        tag: Option<borrow::NbtTag<'_, '_>>,
    ) -> Result<Option<Self>, DeserializeError> {
        Ok(Some(tag.and_then(T::from_nbt_tag)))
    }
}

impl<T: ToNbtTag> ToNbtTag for Option<T> {
    fn to_nbt_tag(self) -> owned::NbtTag {
        match self {
            Some(value) => value.to_nbt_tag(),
            None => panic!(
                "ToNbtTag::to_nbt_tag called on Option::None, which has no tag; \
                 use to_optional_nbt_tag"
            ),
        }
    }

    /// `None` at any level of nesting (`Some(None)` too) is no tag: `T`'s
    /// own `to_optional_nbt_tag` decides for the inner value.
    fn to_optional_nbt_tag(self) -> Option<owned::NbtTag> {
        self.and_then(T::to_optional_nbt_tag)
    }
}

/// A list of compounds where an empty compound is `None`.
impl<T: Deserialize> FromNbtTag for Vec<Option<T>> {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Self::from_optional_nbt_tag(Some(tag)).ok().flatten()
    }

    fn from_optional_nbt_tag(
        tag: Option<borrow::NbtTag<'_, '_>>,
    ) -> Result<Option<Self>, DeserializeError> {
        collect_compounds(tag.ok_or(DeserializeError::MissingField)?, |c| {
            if c.is_empty() {
                Ok(None)
            } else {
                T::from_compound(c).map(Some)
            }
        })
    }
}

/// A list of compounds, `None` written as an empty compound.
impl<T: Serialize> ToNbtTag for Vec<Option<T>> {
    fn to_nbt_tag(self) -> owned::NbtTag {
        let compounds = self
            .into_iter()
            .map(|v| v.map_or_else(owned::NbtCompound::new, T::to_compound));
        owned::NbtTag::List(owned::NbtList::Compound(compounds.collect()))
    }
}

/// A list of compounds.
impl<T: Deserialize> FromNbtTag for Vec<T> {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Self::from_optional_nbt_tag(Some(tag)).ok().flatten()
    }

    fn from_optional_nbt_tag(
        tag: Option<borrow::NbtTag<'_, '_>>,
    ) -> Result<Option<Self>, DeserializeError> {
        collect_compounds(tag.ok_or(DeserializeError::MissingField)?, T::from_compound)
    }
}

/// A list of compounds.
impl<T: Serialize> ToNbtTag for Vec<T> {
    fn to_nbt_tag(self) -> owned::NbtTag {
        let compounds = self.into_iter().map(T::to_compound);
        owned::NbtTag::List(owned::NbtList::Compound(compounds.collect()))
    }
}

/// Keys parsed with `FromStr`; a key that does not parse or a value that does
/// not fit is an error naming the key.
impl<K: Display + FromStr + Eq + Hash, V: FromNbtTag> Deserialize for HashMap<K, V> {
    fn from_compound(compound: borrow::NbtCompound<'_, '_>) -> Result<Self, DeserializeError> {
        let mut map = HashMap::with_capacity(compound.len());
        for (key, tag) in compound.iter() {
            let key = key.to_str();
            let Ok(parsed) = key.parse() else {
                let what = format!(
                    "key {key:?} does not parse as {}",
                    std::any::type_name::<K>()
                );
                return Err(DeserializeError::MismatchedFieldType(what).in_field(key));
            };
            let found = tag.id();
            let value = match V::from_optional_nbt_tag(Some(tag)) {
                Ok(Some(value)) => value,
                Ok(None) => {
                    let e = DeserializeError::mismatched(std::any::type_name::<V>(), found);
                    return Err(e.in_field(key));
                }
                Err(e) => return Err(e.in_field(key)),
            };
            map.insert(parsed, value);
        }
        Ok(map)
    }
}

/// Keys written with `Display`, in the map's (unspecified) order.
impl<K: Display + FromStr + Eq + Hash, V: ToNbtTag> Serialize for HashMap<K, V> {
    fn to_compound(self) -> owned::NbtCompound {
        let mut compound = owned::NbtCompound::with_capacity(self.len());
        compound.extend(self.into_iter().map(|(k, v)| (k.to_string(), v)));
        compound
    }
}

impl Deserialize for owned::NbtCompound {
    fn from_compound(compound: borrow::NbtCompound<'_, '_>) -> Result<Self, DeserializeError> {
        Ok(compound.to_owned())
    }
}

impl Serialize for owned::NbtCompound {
    fn to_compound(self) -> owned::NbtCompound {
        self
    }
}

impl FromNbtTag for owned::NbtTag {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Some(tag.to_owned())
    }
}

impl ToNbtTag for owned::NbtTag {
    fn to_nbt_tag(self) -> owned::NbtTag {
        self
    }
}

impl ToNbtTag for owned::NbtList {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::List(self)
    }
}

/// A document under an empty root name; a non-compound tag is wrapped as
/// `{"": tag}` (see `From<NbtTag> for NbtCompound`).
impl FromNbtTag for owned::Nbt {
    fn from_nbt_tag(tag: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Some(owned::Nbt::new("".into(), tag.to_owned().into()))
    }
}

/// The root compound (`Nbt::None`: an empty compound); the root name is dropped.
impl ToNbtTag for owned::Nbt {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::from(self)
    }
}

/// Accepts any tag.
impl FromNbtTag for () {
    fn from_nbt_tag(_: borrow::NbtTag<'_, '_>) -> Option<Self> {
        Some(())
    }
}

/// An empty compound.
impl ToNbtTag for () {
    fn to_nbt_tag(self) -> owned::NbtTag {
        owned::NbtTag::Compound(owned::NbtCompound::new())
    }
}

/// Used by the derive macros' generated code; not a stable API.
#[doc(hidden)]
pub mod __private {
    use super::*;

    /// Reads field `key` of type `T` from the tag found for it (if any).
    #[inline]
    pub fn field<T: FromNbtTag>(
        tag: Option<borrow::NbtTag<'_, '_>>,
        key: &str,
    ) -> Result<T, DeserializeError> {
        let found = tag.as_ref().map_or(tag_id::END, |t| t.id());
        match T::from_optional_nbt_tag(tag) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => {
                Err(DeserializeError::mismatched(std::any::type_name::<T>(), found).in_field(key))
            }
            Err(e) => Err(e.in_field(key)),
        }
    }

    /// An unknown key, for `deny_unknown_fields`.
    #[cold]
    pub fn unknown_field(key: &crate::Mutf8Str) -> DeserializeError {
        let key = key.to_str();
        DeserializeError::UnknownField(key.clone().into_owned()).in_field(key)
    }
}
