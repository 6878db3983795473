//! A canonical value that every library's result is converted to before comparing.
//!
//! What is normalised away, and why (each is a documented difference, see
//! `cross.rs`): compounds are maps from decoded key to value with the *last*
//! duplicate winning (fastnbt and valence_nbt insert into a map; simdnbt keeps
//! every entry), strings are decoded Java MUTF-8 (both others decode eagerly;
//! simdnbt keeps raw bytes), floats compare by bits, and a list's element type
//! is kept only where the other library keeps it (fastnbt's `Value::List` is a
//! `Vec<Value>` and forgets it).

use std::collections::BTreeMap;

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};

/// A library-neutral NBT value.
#[derive(Debug, Clone, PartialEq)]
pub enum Canon {
    /// Byte.
    Byte(i8),
    /// Short.
    Short(i16),
    /// Int.
    Int(i32),
    /// Long.
    Long(i64),
    /// Float, by bits.
    Float(u32),
    /// Double, by bits.
    Double(u64),
    /// ByteArray.
    ByteArray(Vec<u8>),
    /// Decoded string.
    String(String),
    /// Element type (when known) and elements.
    List(Option<u8>, Vec<Canon>),
    /// Decoded keys, last duplicate wins.
    Compound(BTreeMap<String, Canon>),
    /// IntArray.
    IntArray(Vec<i32>),
    /// LongArray.
    LongArray(Vec<i64>),
}

/// simdnbt holds a string that Java's MUTF-8 decoder (the `cesu8` crate, which
/// fastnbt and valence_nbt both use) rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidString(pub Vec<u8>);

/// Decodes raw MUTF-8 bytes as the other libraries do.
pub fn decode(bytes: &[u8]) -> Result<String, InvalidString> {
    cesu8::from_java_cesu8(bytes)
        .map(|s| s.into_owned())
        .map_err(|_| InvalidString(bytes.to_vec()))
}

/// Converts simdnbt's owned compound. `typed` keeps list element types.
/// Recursion is bounded by simdnbt's depth limit (512) on anything it read.
pub fn from_simdnbt(c: &NbtCompound, typed: bool) -> Result<Canon, InvalidString> {
    let mut map = BTreeMap::new();
    for (k, v) in c.iter() {
        map.insert(decode(k.as_bytes())?, tag(v, typed)?);
    }
    Ok(Canon::Compound(map))
}

fn tag(t: &NbtTag, typed: bool) -> Result<Canon, InvalidString> {
    Ok(match t {
        NbtTag::Byte(v) => Canon::Byte(*v),
        NbtTag::Short(v) => Canon::Short(*v),
        NbtTag::Int(v) => Canon::Int(*v),
        NbtTag::Long(v) => Canon::Long(*v),
        NbtTag::Float(v) => Canon::Float(v.to_bits()),
        NbtTag::Double(v) => Canon::Double(v.to_bits()),
        NbtTag::ByteArray(v) => Canon::ByteArray(v.clone()),
        NbtTag::String(s) => Canon::String(decode(s.as_bytes())?),
        NbtTag::List(l) => list(l, typed)?,
        NbtTag::Compound(c) => from_simdnbt(c, typed)?,
        NbtTag::IntArray(v) => Canon::IntArray(v.clone()),
        NbtTag::LongArray(v) => Canon::LongArray(v.clone()),
    })
}

fn list(l: &NbtList, typed: bool) -> Result<Canon, InvalidString> {
    fn all<T>(
        v: &[T],
        f: impl Fn(&T) -> Result<Canon, InvalidString>,
    ) -> Result<Vec<Canon>, InvalidString> {
        v.iter().map(f).collect()
    }
    let items = match l {
        NbtList::Empty => Vec::new(),
        NbtList::Byte(v) => all(v, |x| Ok(Canon::Byte(*x)))?,
        NbtList::Short(v) => all(v, |x| Ok(Canon::Short(*x)))?,
        NbtList::Int(v) => all(v, |x| Ok(Canon::Int(*x)))?,
        NbtList::Long(v) => all(v, |x| Ok(Canon::Long(*x)))?,
        NbtList::Float(v) => all(v, |x| Ok(Canon::Float(x.to_bits())))?,
        NbtList::Double(v) => all(v, |x| Ok(Canon::Double(x.to_bits())))?,
        NbtList::ByteArray(v) => all(v, |x| Ok(Canon::ByteArray(x.clone())))?,
        NbtList::String(v) => all(v, |x| Ok(Canon::String(decode(x.as_bytes())?)))?,
        NbtList::List(v) => all(v, |x| list(x, typed))?,
        NbtList::Compound(v) => all(v, |x| from_simdnbt(x, typed))?,
        NbtList::IntArray(v) => all(v, |x| Ok(Canon::IntArray(x.clone())))?,
        NbtList::LongArray(v) => all(v, |x| Ok(Canon::LongArray(x.clone())))?,
    };
    Ok(Canon::List(typed.then(|| l.id()), items))
}

/// Converts a fastnbt value (element types of lists are unknown: `None`).
pub fn from_fastnbt(v: &fastnbt::Value) -> Canon {
    use fastnbt::Value as V;
    match v {
        V::Byte(x) => Canon::Byte(*x),
        V::Short(x) => Canon::Short(*x),
        V::Int(x) => Canon::Int(*x),
        V::Long(x) => Canon::Long(*x),
        V::Float(x) => Canon::Float(x.to_bits()),
        V::Double(x) => Canon::Double(x.to_bits()),
        V::String(s) => Canon::String(s.clone()),
        V::ByteArray(a) => Canon::ByteArray(a.iter().map(|&b| b as u8).collect()),
        V::IntArray(a) => Canon::IntArray(a.iter().copied().collect()),
        V::LongArray(a) => Canon::LongArray(a.iter().copied().collect()),
        V::List(items) => Canon::List(None, items.iter().map(from_fastnbt).collect()),
        V::Compound(m) => Canon::Compound(
            m.iter()
                .map(|(k, v)| (k.clone(), from_fastnbt(v)))
                .collect(),
        ),
    }
}

/// Converts a valence_nbt compound (list element types are kept).
pub fn from_valence(c: &valence_nbt::Compound) -> Canon {
    Canon::Compound(
        c.iter()
            .map(|(k, v)| (k.clone(), valence_value(v)))
            .collect(),
    )
}

fn valence_value(v: &valence_nbt::Value) -> Canon {
    use valence_nbt::Value as V;
    match v {
        V::Byte(x) => Canon::Byte(*x),
        V::Short(x) => Canon::Short(*x),
        V::Int(x) => Canon::Int(*x),
        V::Long(x) => Canon::Long(*x),
        V::Float(x) => Canon::Float(x.to_bits()),
        V::Double(x) => Canon::Double(x.to_bits()),
        V::ByteArray(a) => Canon::ByteArray(a.iter().map(|&b| b as u8).collect()),
        V::String(s) => Canon::String(s.clone()),
        V::List(l) => valence_list(l),
        V::Compound(c) => from_valence(c),
        V::IntArray(a) => Canon::IntArray(a.clone()),
        V::LongArray(a) => Canon::LongArray(a.clone()),
    }
}

fn valence_list(l: &valence_nbt::List) -> Canon {
    use valence_nbt::List as L;
    let (id, items): (u8, Vec<Canon>) = match l {
        L::End => (0, Vec::new()),
        L::Byte(v) => (1, v.iter().map(|x| Canon::Byte(*x)).collect()),
        L::Short(v) => (2, v.iter().map(|x| Canon::Short(*x)).collect()),
        L::Int(v) => (3, v.iter().map(|x| Canon::Int(*x)).collect()),
        L::Long(v) => (4, v.iter().map(|x| Canon::Long(*x)).collect()),
        L::Float(v) => (5, v.iter().map(|x| Canon::Float(x.to_bits())).collect()),
        L::Double(v) => (6, v.iter().map(|x| Canon::Double(x.to_bits())).collect()),
        L::ByteArray(v) => (
            7,
            v.iter()
                .map(|a| Canon::ByteArray(a.iter().map(|&b| b as u8).collect()))
                .collect(),
        ),
        L::String(v) => (8, v.iter().map(|s| Canon::String(s.clone())).collect()),
        L::List(v) => (9, v.iter().map(valence_list).collect()),
        L::Compound(v) => (10, v.iter().map(from_valence).collect()),
        L::IntArray(v) => (11, v.iter().map(|a| Canon::IntArray(a.clone())).collect()),
        L::LongArray(v) => (12, v.iter().map(|a| Canon::LongArray(a.clone())).collect()),
    };
    Canon::List(Some(id), items)
}
