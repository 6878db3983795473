//! Owned compounds.

use super::entries::Entries;
use super::{NbtList, NbtTag, write};
use crate::key_index::{KeyIndex, LazyIndex, MAX_INDEXED};
use crate::mutf8::{Mutf8Str, Mutf8String, key_matches};
use crate::{ToNbtTag, WriteError};

/// The fewest entries a compound has for lookups to go through a hash index
/// instead of a scan from the end. An indexed lookup costs about as much as
/// scanning a dozen entries, so below this size a scan costs at most about
/// twice an indexed lookup, and the common compounds (a player's or
/// level.dat's root, 40 to 60 entries) keep exactly the scan they had; a
/// lower threshold made edits of player files cost more (the counts:
/// `reports/code-notes.md`).
pub(crate) const INDEX_FROM: usize = 64;

/// A compound of `n` entries builds its index once its lookups have
/// compared `BUILD_AFTER * n` entries by scanning: about what building it
/// costs (`reports/code-notes.md`), so a compound looked up a few
/// times is never indexed and one looked up often pays at most about twice
/// the best choice made in hindsight. Either way lookups cost O(1) amortised.
const BUILD_AFTER: usize = 16;

/// A compound: named tags in insertion order, used as a map.
///
/// [`insert`](Self::insert) replaces the value of a key that is already there,
/// as vanilla's `CompoundTag` (a map) and every other NBT library do.
///
/// # Cost
///
/// Lookup by name ([`get`](Self::get), the typed getters,
/// [`contains`](Self::contains), and the lookup in [`insert`](Self::insert)
/// and [`remove`](Self::remove)) is a scan from the end in a compound of
/// fewer than 64 entries, the size NBT is mostly made of; in a bigger one
/// it is O(1) amortised: once scans have cost about as much as indexing
/// would (16 full scans' worth), a lookup builds a hash index of the keys
/// (O(n), 16 to 32 bytes per key, std's keyed SipHash, so crafted keys
/// cannot make it collide), and [`insert`](Self::insert), [`push`](Self::push),
/// [`extend`](Self::extend) and [`remove`](Self::remove) keep it up to date.
/// So building a compound of n keys with `insert` is O(n) overall.
/// [`remove`](Self::remove) keeps the order of the others, so it moves the
/// entries after the removed one down (as `Vec::remove` does): O(1) at the
/// end, a memory move of the rest elsewhere ([`retain`](Self::retain)
/// removes many in one pass). [`keys_mut`](Self::keys_mut) and
/// [`clear`](Self::clear) drop the index (the next big lookup builds it
/// again); changing values ([`get_mut`](Self::get_mut),
/// [`iter_mut`](Self::iter_mut), …) keeps it. A compound is 24 bytes, as a
/// `Vec` is: the entries' buffer, their count and capacity in 32 bits each
/// (so at most `u32::MAX` entries), and the index's pointer.
///
/// # Duplicate keys
///
/// Only crafted input repeats a key inside one compound. The readers keep every
/// entry, in order, so writing it back gives the same bytes; the **last** entry
/// is the one that counts, as in the game (which puts each entry into a map in
/// turn, so a later one overwrites an earlier one). Lookups here and in
/// [`crate::borrow::NbtCompound`] return it, [`insert`](Self::insert) replaces
/// its value in place, and [`remove`](Self::remove) removes every entry of the
/// key. The earlier entries are shadowed: nothing reads them, they stay where
/// they are and are written back as read; [`iter`](Self::iter) and
/// [`len`](Self::len) still see every entry. [`push`](Self::push) appends
/// without looking, to build such a compound deliberately.
///
/// ```
/// use simdnbt::owned::NbtCompound;
///
/// let mut c = NbtCompound::new();
/// c.push("a", 1);
/// c.push("a", 2); // a duplicate, on purpose
/// assert_eq!(c.int("a"), Some(2)); // the last one counts
/// c.insert("a", 3); // replaces the one lookups see
/// assert_eq!(c.iter().map(|(_, v)| v.int().unwrap()).collect::<Vec<_>>(), [1, 3]);
/// assert_eq!(c.remove("a").and_then(|v| v.int()), Some(3));
/// assert!(c.is_empty()); // every entry of the key is gone
/// ```
#[derive(Default)]
pub struct NbtCompound {
    /// The entries. Code that changes keys or their order here (rather than
    /// through the methods) must clear `index`.
    pub(crate) values: Entries,
    /// Key → position of the last entry of the key, once a lookup in a
    /// compound of at least [`INDEX_FROM`] entries built it.
    pub(crate) index: LazyIndex,
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
    pub const fn new() -> Self {
        Self {
            values: Entries::new(),
            index: LazyIndex::new(),
        }
    }

    /// An empty compound with room for `capacity` tags.
    pub fn with_capacity(capacity: usize) -> Self {
        Self::from_values(Vec::with_capacity(capacity))
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
        self.index.clear();
    }

    /// A compound of these tags, in this order (no lookup: a repeated key is
    /// kept, and the last of its entries is the one lookups see).
    pub fn from_values(values: Vec<(Mutf8String, NbtTag)>) -> Self {
        Self {
            values: Entries::from_vec(values),
            index: LazyIndex::new(),
        }
    }

    /// The index of the last entry called `name` (the one that counts; see
    /// the type docs).
    #[inline]
    fn position(&self, name: &str) -> Option<usize> {
        let key = Mutf8Str::from_str(name);
        self.position_canonical(key.as_bytes())
    }

    /// The index of the last entry whose key matches `key`, the MUTF-8
    /// encoding of a name (no raw `00` byte, as `Mutf8Str::from_str` gives):
    /// a scan from the end in a small compound, the index in a big one.
    #[inline]
    pub(crate) fn position_canonical(&self, key: &[u8]) -> Option<usize> {
        if self.values.len() < INDEX_FROM {
            return position_of(&self.values, key);
        }
        self.indexed_position(key)
    }

    #[inline(never)]
    fn indexed_position(&self, key: &[u8]) -> Option<usize> {
        let values = &self.values;
        let matches = |p: usize| key_matches(values[p].0.as_bytes(), key);
        if let Some(index) = self.index.get() {
            return index.get(key, matches);
        }
        let n = values.len();
        let found = position_of(values, key);
        // Build the index once scans have cost about what building it does.
        let scanned = found.map_or(n, |p| n - p);
        if n <= MAX_INDEXED && self.index.earned(scanned, BUILD_AFTER * n) {
            self.index
                .get_or_build(|| KeyIndex::build(n, |p| values[p].0.as_bytes()));
        }
        found
    }

    /// [`position_canonical`](Self::position_canonical) for any stored key
    /// bytes (a key made from raw bytes may hold a raw `00`, which only a
    /// scan compares as `key_matches` does).
    #[inline]
    fn position_bytes(&self, key: &[u8]) -> Option<usize> {
        if self.values.len() >= INDEX_FROM && key.contains(&0) {
            return position_of(&self.values, key);
        }
        self.position_canonical(key)
    }

    /// Appends an entry, keeping the index (if any) up to date: the new
    /// entry is the one its key's lookups find.
    #[inline]
    fn push_entry(&mut self, name: Mutf8String, tag: NbtTag) {
        let pos = self.values.len();
        if let Some(index) = self.index.get_mut() {
            if pos < MAX_INDEXED {
                let values = &self.values;
                index.insert(name.as_bytes(), pos, |p| values[p].0.as_bytes());
            } else {
                self.index.clear();
            }
        }
        self.values.push((name, tag));
    }

    /// The tag under `key` (canonical MUTF-8, see
    /// [`position_canonical`](Self::position_canonical)), as `get` finds it.
    #[cfg(feature = "snbt")]
    #[inline]
    pub(crate) fn get_bytes(&self, key: &[u8]) -> Option<&NbtTag> {
        self.position_canonical(key).map(|i| &self.values[i].1)
    }

    /// The tag called `name` (the last one, if a crafted input repeats it).
    pub fn get(&self, name: &str) -> Option<&NbtTag> {
        self.position(name).map(|i| &self.values[i].1)
    }

    /// The tag called `name`, mutably (the last one, if repeated).
    pub fn get_mut(&mut self, name: &str) -> Option<&mut NbtTag> {
        self.position(name).map(|i| &mut self.values[i].1)
    }

    /// Whether there is a tag called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Removes the tag called `name` and returns it, keeping the others'
    /// order. A repeated key loses every entry (so `contains` is `false`
    /// afterwards); the value returned is the last, the one `get` saw.
    ///
    /// Keeping the order (the order the compound is written in) moves the
    /// entries after the removed one down, as `Vec::remove` and
    /// `IndexMap::shift_remove` do: O(1) at the end, O(n) at the front, so
    /// removing many keys one by one from a big compound is quadratic. Use
    /// [`retain`](Self::retain) for that: one pass.
    pub fn remove(&mut self, name: &str) -> Option<NbtTag> {
        let key = Mutf8Str::from_str(name);
        let key = key.as_bytes();
        let last = self.position_canonical(key)?;
        let removed = self.values.remove(last).1;
        let values = &self.values;
        let unique = match self.index.get_mut() {
            // No key is repeated: no shadowed entry to look for.
            Some(index) if !index.shadowed => {
                index.remove(key, last, values.len(), |p| values[p].0.as_bytes());
                true
            }
            Some(_) => {
                self.index.clear();
                false
            }
            None => false,
        };
        // Shadowed entries (crafted input only) come before the last one.
        if !unique
            && self.values[..last]
                .iter()
                .any(|(k, _)| key_matches(k.as_bytes(), key))
        {
            let (shadowed, kept) = std::mem::take(&mut self.values)
                .into_vec()
                .into_iter()
                .partition(|(k, _)| crate::mutf8::key_matches(k.as_bytes(), key));
            self.values = Entries::from_vec(kept);
            drop::<Vec<(Mutf8String, NbtTag)>>(shadowed);
        }
        Some(removed)
    }

    /// Keeps only the tags for which `keep` returns `true`, in order, in one
    /// pass: O(n) however many go (and the lookup index is built again by
    /// later lookups, see the type docs). `keep` may change the values.
    ///
    /// ```
    /// let mut c: simdnbt::owned::NbtCompound =
    ///     (0..10).map(|i| (format!("k{i}"), simdnbt::owned::NbtTag::Int(i))).collect();
    /// c.retain(|name, _| name.to_str() != "k3");
    /// c.retain(|_, tag| tag.int().is_some_and(|i| i % 2 == 1));
    /// assert_eq!(c.keys().map(|k| k.to_str().into_owned()).collect::<Vec<_>>(), ["k1", "k5", "k7", "k9"]);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&Mutf8Str, &mut NbtTag) -> bool) {
        let mut values = std::mem::take(&mut self.values).into_vec();
        values.retain_mut(|(k, v)| keep(k.as_str(), v));
        // No longer than it was: fits the entries' 32-bit length.
        self.values = Entries::from_vec(values);
        self.index.clear();
    }

    /// Same as [`remove`](Self::remove) (upstream's name).
    pub fn take(&mut self, name: &str) -> Option<NbtTag> {
        self.remove(name)
    }

    /// Sets the tag called `name`: replaces the value in place if the key is
    /// there (the last entry, if repeated; see the type docs), appends it
    /// otherwise. Costs a lookup (O(1) in a big compound, see the type
    /// docs); [`push`](Self::push) appends without one.
    ///
    /// Takes anything [`ToNbtTag`]: tags, numbers (unsigned ones as the signed
    /// tag of their width), strings, `Vec<String>`, [`crate::Serialize`]
    /// types…; an `Option` changes nothing for `None`.
    ///
    /// ```
    /// let mut c = simdnbt::owned::NbtCompound::new();
    /// c.insert("count", 3u8);
    /// c.insert("name", Some("Steve"));
    /// c.insert("nickname", None::<String>);
    /// c.insert("tags", vec!["a".to_string()]);
    /// c.insert("count", 4u8); // replaces
    /// assert_eq!(c.byte("count"), Some(4));
    /// assert!(!c.contains("nickname"));
    /// assert_eq!(c.len(), 3);
    /// ```
    pub fn insert(&mut self, name: impl Into<Mutf8String>, tag: impl ToNbtTag) {
        let Some(tag) = tag.to_optional_nbt_tag() else {
            return;
        };
        let name = name.into();
        match self.position_bytes(name.as_bytes()) {
            // The old value drops without recursion, however deep.
            Some(i) => self.values[i].1 = tag,
            None => self.push_entry(name, tag),
        }
    }

    /// Appends a tag without looking for its key: O(1). If the key is already
    /// there this makes a duplicate, and the new entry is the one lookups see
    /// (see the type docs). For building a compound whose keys you know to be
    /// new; [`insert`](Self::insert) replaces. Takes what `insert` takes.
    ///
    /// ```
    /// let mut c = simdnbt::owned::NbtCompound::new();
    /// c.push("id", "minecraft:stone");
    /// c.push("Count", 1i8);
    /// assert_eq!(c.byte("Count"), Some(1));
    /// ```
    pub fn push(&mut self, name: impl Into<Mutf8String>, tag: impl ToNbtTag) {
        if let Some(tag) = tag.to_optional_nbt_tag() {
            self.push_entry(name.into(), tag);
        }
    }

    /// Inserts several tags: a key the compound already had gets its value
    /// replaced, as [`insert`](Self::insert) does; the others are appended in
    /// order, as [`push`](Self::push) does (a key repeated within `other` is
    /// kept as a reader keeps it: the last entry counts). Costs one lookup
    /// per tag (O(1), see the type docs).
    pub fn extend(
        &mut self,
        other: impl IntoIterator<Item = (impl Into<Mutf8String>, impl ToNbtTag)>,
    ) {
        let before = self.values.len();
        for (name, tag) in other {
            let Some(tag) = tag.to_optional_nbt_tag() else {
                continue;
            };
            let name = name.into();
            let key = name.as_bytes();
            let old = if self.values.len() < INDEX_FROM || key.contains(&0) {
                position_of(&self.values[..before], key)
            } else {
                match self.position_canonical(key) {
                    Some(i) if i < before => Some(i),
                    // One this call pushed, so none from before matched its
                    // name; unless a raw `00` spelling of it was pushed.
                    Some(_) if self.index.get().is_some_and(|x| x.shadowed) => {
                        position_of(&self.values[..before], key)
                    }
                    _ => None,
                }
            };
            match old {
                // The old value drops without recursion, however deep.
                Some(i) => self.values[i].1 = tag,
                None => self.push_entry(name, tag),
            }
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

    /// The keys in order, mutably (drops the lookup index; see the type
    /// docs).
    pub fn keys_mut(&mut self) -> impl ExactSizeIterator<Item = &mut Mutf8String> {
        self.index.clear();
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

/// The index of the last entry whose key is `key` (MUTF-8), searched from the end.
fn position_of(values: &[(Mutf8String, NbtTag)], key: &[u8]) -> Option<usize> {
    values
        .iter()
        .rposition(|(k, _)| key_matches(k.as_bytes(), key))
}

impl IntoIterator for NbtCompound {
    type Item = (Mutf8String, NbtTag);
    type IntoIter = std::vec::IntoIter<(Mutf8String, NbtTag)>;
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(&mut self.values).into_vec().into_iter()
    }
}

/// Collects the tags in order without lookups, as [`NbtCompound::from_values`]
/// does (a repeated key is kept; the last entry counts).
impl<K: Into<Mutf8String>, V: Into<NbtTag>> FromIterator<(K, V)> for NbtCompound {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_values(
            iter.into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
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
            other => Self::from_values(vec![(Mutf8String::default(), other)]),
        }
    }
}

/// Whether `c` has the shape of a wrapped list element: one entry, key `""`.
fn is_wrapper(c: &NbtCompound) -> bool {
    matches!(&c.values[..], [(key, _)] if key.is_empty())
}
