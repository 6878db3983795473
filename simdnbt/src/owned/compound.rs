//! Owned compounds.

use super::{NbtList, NbtTag, write};
use crate::mutf8::{Mutf8Str, Mutf8String};
use crate::{ToNbtTag, WriteError};

/// A compound: named tags in insertion order.
///
/// Lookup is a linear scan and returns the first match; duplicate keys (which
/// only crafted input has) are kept, in order, so a round trip is exact.
/// [`insert`](Self::insert) appends without replacing, as upstream simdnbt does;
/// use [`get_mut`](Self::get_mut) or [`remove`](Self::remove) first to replace.
#[derive(Default)]
pub struct NbtCompound {
    pub(crate) values: Vec<(Mutf8String, NbtTag)>,
}

macro_rules! typed_getters {
    ($( $name:ident, $name_mut:ident, $variant:ident, $t:ty, $tm:ty; )*) => {$(
        #[doc = concat!("The ", stringify!($variant), " called `name`.")]
        #[inline]
        pub fn $name(&self, name: &str) -> Option<$t> {
            self.get(name).and_then(|tag| tag.$name())
        }
        #[doc = concat!("The ", stringify!($variant), " called `name`, mutably.")]
        #[inline]
        pub fn $name_mut(&mut self, name: &str) -> Option<$tm> {
            self.get_mut(name).and_then(|tag| tag.$name_mut())
        }
    )*};
}

impl NbtCompound {
    /// An empty compound.
    pub fn new() -> Self {
        Self { values: Vec::new() }
    }

    /// An empty compound with room for `capacity` tags.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            values: Vec::with_capacity(capacity),
        }
    }

    /// The number of tags (duplicates counted).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Removes every tag, keeping the allocation.
    pub fn clear(&mut self) {
        self.values.clear();
    }

    /// A compound of these tags, in this order.
    pub fn from_values(values: Vec<(Mutf8String, NbtTag)>) -> Self {
        Self { values }
    }

    fn position(&self, name: &str) -> Option<usize> {
        let key = Mutf8Str::from_str(name);
        let key = key.as_bytes();
        self.values
            .iter()
            .position(|(k, _)| crate::mutf8::key_matches(k.as_bytes(), key))
    }

    /// The first tag called `name`.
    pub fn get(&self, name: &str) -> Option<&NbtTag> {
        self.position(name).map(|i| &self.values[i].1)
    }

    /// The first tag called `name`, mutably.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut NbtTag> {
        self.position(name).map(|i| &mut self.values[i].1)
    }

    /// Whether there is a tag called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Removes and returns the first tag called `name`, keeping the others' order.
    pub fn remove(&mut self, name: &str) -> Option<NbtTag> {
        self.position(name).map(|i| self.values.remove(i).1)
    }

    /// Same as [`remove`](Self::remove) (upstream's name).
    pub fn take(&mut self, name: &str) -> Option<NbtTag> {
        self.remove(name)
    }

    /// Appends a tag (a duplicate key is kept; see the type docs). Takes
    /// anything [`ToNbtTag`]: tags, numbers (unsigned ones as the signed tag of
    /// their width), strings, `Vec<String>`, [`crate::Serialize`] types…; an
    /// `Option` inserts nothing for `None`.
    ///
    /// ```
    /// let mut c = simdnbt::owned::NbtCompound::new();
    /// c.insert("count", 3u8);
    /// c.insert("name", Some("Steve"));
    /// c.insert("nickname", None::<String>);
    /// c.insert("tags", vec!["a".to_string()]);
    /// assert_eq!(c.byte("count"), Some(3));
    /// assert!(!c.contains("nickname"));
    /// assert_eq!(c.len(), 3);
    /// ```
    pub fn insert(&mut self, name: impl Into<Mutf8String>, tag: impl ToNbtTag) {
        if let Some(tag) = tag.to_optional_nbt_tag() {
            self.values.push((name.into(), tag));
        }
    }

    /// Appends several tags, as [`insert`](Self::insert) does.
    pub fn extend(
        &mut self,
        other: impl IntoIterator<Item = (impl Into<Mutf8String>, impl ToNbtTag)>,
    ) {
        for (name, tag) in other {
            self.insert(name, tag);
        }
    }

    typed_getters! {
        byte, byte_mut, Byte, i8, &mut i8;
        short, short_mut, Short, i16, &mut i16;
        int, int_mut, Int, i32, &mut i32;
        long, long_mut, Long, i64, &mut i64;
        float, float_mut, Float, f32, &mut f32;
        double, double_mut, Double, f64, &mut f64;
        byte_array, byte_array_mut, ByteArray, &[u8], &mut Vec<u8>;
        string, string_mut, String, &Mutf8Str, &mut Mutf8String;
        list, list_mut, List, &NbtList, &mut NbtList;
        compound, compound_mut, Compound, &NbtCompound, &mut NbtCompound;
        int_array, int_array_mut, IntArray, &[i32], &mut Vec<i32>;
        long_array, long_array_mut, LongArray, &[i64], &mut Vec<i64>;
    }

    /// The tags in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Mutf8Str, &NbtTag)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The tags in order, values mutable.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&Mutf8Str, &mut NbtTag)> {
        self.values.iter_mut().map(|(k, v)| (k.as_str(), v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Mutf8Str> {
        self.iter().map(|(key, _)| key)
    }

    /// The keys in order, mutably.
    pub fn keys_mut(&mut self) -> impl ExactSizeIterator<Item = &mut Mutf8String> {
        self.values.iter_mut().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &NbtTag> {
        self.iter().map(|(_, tag)| tag)
    }

    /// The values in order, mutably.
    pub fn values_mut(&mut self) -> impl ExactSizeIterator<Item = &mut NbtTag> {
        self.iter_mut().map(|(_, tag)| tag)
    }

    /// Appends this compound's payload: its named tags and the closing End.
    /// See [`super::BaseNbt::write`] for the errors.
    pub fn write(&self, data: &mut Vec<u8>) -> Result<(), WriteError> {
        write::compound_payload(self, data)
    }
}

impl IntoIterator for NbtCompound {
    type Item = (Mutf8String, NbtTag);
    type IntoIter = std::vec::IntoIter<(Mutf8String, NbtTag)>;
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(&mut self.values).into_iter()
    }
}

impl<K: Into<Mutf8String>, V: Into<NbtTag>> FromIterator<(K, V)> for NbtCompound {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self {
            values: iter
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }
}

impl<const N: usize, K: Into<Mutf8String>> From<[(K, NbtTag); N]> for NbtCompound {
    fn from(a: [(K, NbtTag); N]) -> Self {
        a.into_iter().collect()
    }
}

/// Wraps a tag as `{"": tag}`, the form Minecraft 1.21.5 uses for the elements
/// of a list whose elements differ in type. A compound stays as it is, except
/// one that is itself exactly `{"": value}`: that is wrapped too, so that
/// unwrapping (which vanilla does to every single-`""`-key element) gives it back.
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
///
/// let wrapped = NbtCompound::from(NbtTag::Int(1));
/// assert_eq!(wrapped.int(""), Some(1));
///
/// let plain = NbtCompound::from_values(vec![("a".into(), NbtTag::Int(1))]);
/// assert_eq!(NbtCompound::from(NbtTag::Compound(plain.clone())), plain);
///
/// let looks_wrapped = NbtCompound::from_values(vec![("".into(), NbtTag::Int(1))]);
/// let twice = NbtCompound::from(NbtTag::Compound(looks_wrapped.clone()));
/// assert_eq!(twice.compound(""), Some(&looks_wrapped));
/// ```
impl From<NbtTag> for NbtCompound {
    fn from(tag: NbtTag) -> Self {
        match tag {
            NbtTag::Compound(c) if !is_wrapper(&c) => c,
            other => Self {
                values: vec![(Mutf8String::default(), other)],
            },
        }
    }
}

/// Whether `c` has the shape of a wrapped list element: one entry, key `""`.
fn is_wrapper(c: &NbtCompound) -> bool {
    matches!(&c.values[..], [(key, _)] if key.is_empty())
}
