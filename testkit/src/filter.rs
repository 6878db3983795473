//! NBT-path filter matching written plainly, as vanilla's
//! `NbtUtils.compareNbt(filter, target, partialLists = true)` reads: a linear
//! search per key and per list element, recursing once per level. The
//! reference `simdnbt::path`'s indexed matcher is checked against (the rules
//! are in `simdnbt::path`'s module docs); for small values only.

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};

/// Whether `target` has every key of `filter` with a matching value.
pub fn compound_matches(filter: &NbtCompound, target: &NbtCompound) -> bool {
    filter.iter().all(|(key, f)| {
        target
            .get(&key.to_string_lossy())
            .is_some_and(|t| tag_matches(f, t))
    })
}

/// Whether `target` matches filter value `filter`.
pub fn tag_matches(filter: &NbtTag, target: &NbtTag) -> bool {
    match (filter, target) {
        (NbtTag::Compound(f), NbtTag::Compound(t)) => compound_matches(f, t),
        (NbtTag::List(f), NbtTag::List(t)) => list_matches(f, t),
        (f, t) => leaf_equals(f, t),
    }
}

/// Every element of `filter` matches some element of `target`; `[]` only `[]`.
fn list_matches(filter: &NbtList, target: &NbtList) -> bool {
    if filter.is_empty() {
        return target.is_empty();
    }
    let targets: Vec<NbtTag> = target.as_nbt_tags().into_iter().map(unwrap).collect();
    filter
        .as_nbt_tags()
        .into_iter()
        .map(unwrap)
        .all(|f| targets.iter().any(|t| tag_matches(&f, t)))
}

/// The value of a `{"": value}` compound (an element of a list of mixed types).
fn unwrap(tag: NbtTag) -> NbtTag {
    if let NbtTag::Compound(c) = &tag {
        if let (1, Some((key, value))) = (c.len(), c.iter().next()) {
            if key.as_bytes().is_empty() {
                return value.clone();
            }
        }
    }
    tag
}

/// Java's `equals` on two leaf tags: same type, same value, floats by bits
/// with every NaN one value; a document string with a raw `00` equals the
/// filter string holding `C0 80` there (filter strings hold no raw `00`: an
/// SNBT filter never does).
fn leaf_equals(filter: &NbtTag, target: &NbtTag) -> bool {
    use NbtTag as T;
    let f32_bits = |v: f32| {
        if v.is_nan() {
            f32::NAN.to_bits()
        } else {
            v.to_bits()
        }
    };
    let f64_bits = |v: f64| {
        if v.is_nan() {
            f64::NAN.to_bits()
        } else {
            v.to_bits()
        }
    };
    match (filter, target) {
        (T::Byte(a), T::Byte(b)) => a == b,
        (T::Short(a), T::Short(b)) => a == b,
        (T::Int(a), T::Int(b)) => a == b,
        (T::Long(a), T::Long(b)) => a == b,
        (T::Float(a), T::Float(b)) => f32_bits(*a) == f32_bits(*b),
        (T::Double(a), T::Double(b)) => f64_bits(*a) == f64_bits(*b),
        (T::ByteArray(a), T::ByteArray(b)) => a == b,
        (T::String(a), T::String(b)) => {
            let stored: Vec<u8> = b
                .as_bytes()
                .iter()
                .flat_map(|&c| if c == 0 { vec![0xC0, 0x80] } else { vec![c] })
                .collect();
            stored == a.as_bytes()
        }
        (T::IntArray(a), T::IntArray(b)) => a == b,
        (T::LongArray(a), T::LongArray(b)) => a == b,
        _ => false,
    }
}
