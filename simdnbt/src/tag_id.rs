//! The binary format (Java Edition), and its tag ids.
//!
//! All numbers are big-endian; floats are their IEEE bits.
//!
//! | id | tag | payload |
//! |---|---|---|
//! | 0 | End | none (closes a compound) |
//! | 1 | Byte | i8 |
//! | 2 | Short | i16 |
//! | 3 | Int | i32 |
//! | 4 | Long | i64 |
//! | 5 | Float | f32 |
//! | 6 | Double | f64 |
//! | 7 | ByteArray | i32 length, then that many bytes |
//! | 8 | String | u16 byte length, then [MUTF-8](crate::mutf8) bytes |
//! | 9 | List | u8 element id, i32 length, then that many payloads (no names, no per-element ids) |
//! | 10 | Compound | named tags (id, u16 name length, MUTF-8 name, payload) until an End byte |
//! | 11 | IntArray | i32 length, then i32s |
//! | 12 | LongArray | i32 length, then i64s |
//!
//! - **File (disk) form**, what [`crate::borrow::read`] and [`crate::owned::read`]
//!   take: the root's id (a Compound), u16 name length, name, payload. Files
//!   are usually gzip-compressed and region chunks zlib ([`crate::compression`]);
//!   the readers take the inflated bytes.
//! - **Network form** (since 1.20.2), [`crate::borrow::read_unnamed`]: the
//!   root's id and payload, no name. Since 1.20.3 the root may be any tag
//!   ([`crate::borrow::read_optional_tag`]); a lone End byte means "no value".
//! - **Heterogeneous lists** (1.21.5): a list whose elements differ in type is
//!   stored as a list of compounds, each `{"": value}`.
//! - **Limits** the game applies, and the readers too ([`crate::ReadOptions`]):
//!   at most 512 nested compounds and lists, counting the root; a negative
//!   length, or a non-empty list of End, is an error.
//! - A compound is a map in the game: a key that a crafted file repeats reads
//!   as its last value ([`crate::owned::NbtCompound`], "Duplicate keys").

/// End: closes a compound; as a list element type, "no elements".
pub const END: u8 = 0;
/// Byte: i8.
pub const BYTE: u8 = 1;
/// Short: i16.
pub const SHORT: u8 = 2;
/// Int: i32.
pub const INT: u8 = 3;
/// Long: i64.
pub const LONG: u8 = 4;
/// Float: f32.
pub const FLOAT: u8 = 5;
/// Double: f64.
pub const DOUBLE: u8 = 6;
/// ByteArray: i32 length, then bytes.
pub const BYTE_ARRAY: u8 = 7;
/// String: u16 byte length, then MUTF-8 bytes.
pub const STRING: u8 = 8;
/// List: element id, i32 length, then payloads.
pub const LIST: u8 = 9;
/// Compound: named tags until End.
pub const COMPOUND: u8 = 10;
/// IntArray: i32 length, then i32s.
pub const INT_ARRAY: u8 = 11;
/// LongArray: i32 length, then i64s.
pub const LONG_ARRAY: u8 = 12;

/// What the binary format fixes about one tag type's payload (docs/format.md
/// §1): the facts every reader, writer and transcoder sizes payloads by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagLayout {
    /// Payload bytes of a fixed-size tag (Byte..=Double); 0 for the others.
    pub fixed: u8,
    /// Width of the length prefix before a string's or array's elements (2 for
    /// String, 4 for the arrays); 0 for the others (a list's 5-byte header is
    /// its own).
    pub prefix: u8,
    /// Bytes per unit the length prefix counts: 1 for String and ByteArray, 4
    /// for IntArray, 8 for LongArray; 0 for the others.
    pub element: u8,
    /// Fewest payload bytes a tag of this type takes: a fixed-size tag's
    /// value, a string's or array's prefix, a list's header, a compound's
    /// End. It is also the fewest input bytes one list element of this type
    /// takes, which bounds a list's count before anything is sized by it.
    pub min: u8,
}

const fn layout_row(fixed: u8, prefix: u8, element: u8, min: u8) -> TagLayout {
    TagLayout {
        fixed,
        prefix,
        element,
        min,
    }
}

/// [`TagLayout`] of every known tag id, indexed by id; ids 13..=15 (unknown)
/// are all zeros, so tables indexed by `id & 15` stay in bounds.
pub(crate) const LAYOUT: [TagLayout; 16] = {
    let mut t = [layout_row(0, 0, 0, 0); 16];
    t[BYTE as usize] = layout_row(1, 0, 0, 1);
    t[SHORT as usize] = layout_row(2, 0, 0, 2);
    t[INT as usize] = layout_row(4, 0, 0, 4);
    t[LONG as usize] = layout_row(8, 0, 0, 8);
    t[FLOAT as usize] = layout_row(4, 0, 0, 4);
    t[DOUBLE as usize] = layout_row(8, 0, 0, 8);
    t[BYTE_ARRAY as usize] = layout_row(0, 4, 1, 4);
    t[STRING as usize] = layout_row(0, 2, 1, 2);
    t[LIST as usize] = layout_row(0, 0, 0, 5);
    t[COMPOUND as usize] = layout_row(0, 0, 0, 1);
    t[INT_ARRAY as usize] = layout_row(0, 4, 4, 4);
    t[LONG_ARRAY as usize] = layout_row(0, 4, 8, 4);
    t
};

/// The [`TagLayout`] of tag id `id`; an unknown id has all zeros.
#[inline(always)]
pub(crate) const fn layout(id: u8) -> TagLayout {
    if is_known(id) {
        LAYOUT[id as usize]
    } else {
        LAYOUT[15]
    }
}

/// Whether `id` is one of the 13 tag ids of the format (End..=LongArray).
#[inline(always)]
pub(crate) const fn is_known(id: u8) -> bool {
    id <= LONG_ARRAY
}

/// Where the payload of a number, string or array of type `id` that starts
/// at `p` of `data` ends. The payload must have been checked by the reader
/// (its length prefix is there and its elements fit).
#[inline(always)]
pub(crate) fn leaf_end(data: &[u8], id: u8, p: usize) -> usize {
    let l = layout(id);
    let units = match l.prefix {
        0 => return p + l.fixed as usize,
        2 => u16::from_be_bytes(data[p..p + 2].try_into().unwrap()) as usize,
        _ => u32::from_be_bytes(data[p..p + 4].try_into().unwrap()) as usize,
    };
    p + l.prefix as usize + units * l.element as usize
}

/// The tag type's name as the format calls it (`"Int"`, `"Compound"`, …), or
/// `"unknown"` for an id outside `0..=12`.
///
/// ```
/// assert_eq!(simdnbt::tag_id::name(simdnbt::tag_id::INT_ARRAY), "IntArray");
/// ```
pub const fn name(id: u8) -> &'static str {
    if (id as usize) < NAMES.len() {
        NAMES[id as usize].0
    } else {
        "unknown"
    }
}

/// Every tag type's names, by id: as the format calls it, and in snake_case.
/// The one table of them: serde's enum protocol and typed JSON take theirs
/// from here.
const NAMES: [(&str, &str); 13] = [
    ("End", "end"),
    ("Byte", "byte"),
    ("Short", "short"),
    ("Int", "int"),
    ("Long", "long"),
    ("Float", "float"),
    ("Double", "double"),
    ("ByteArray", "byte_array"),
    ("String", "string"),
    ("List", "list"),
    ("Compound", "compound"),
    ("IntArray", "int_array"),
    ("LongArray", "long_array"),
];

/// Every tag type's name by id, as the format calls it (`"IntArray"`) or,
/// with `snake`, in snake_case (`"int_array"`: typed JSON's keys).
// Only serde's and typed JSON's tables use it.
#[cfg_attr(not(any(feature = "serde", feature = "json")), allow(dead_code))]
pub(crate) const fn names(snake: bool) -> [&'static str; 13] {
    let mut out = [""; 13];
    let mut id = 0;
    while id < 13 {
        out[id] = if snake { NAMES[id].1 } else { NAMES[id].0 };
        id += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table against the format's description (docs/format.md §1).
    #[test]
    fn layout_matches_the_format() {
        for id in 0..=255u8 {
            let l = layout(id);
            let want = match id {
                BYTE => (1, 0, 0, 1),
                SHORT => (2, 0, 0, 2),
                INT | FLOAT => (4, 0, 0, 4),
                LONG | DOUBLE => (8, 0, 0, 8),
                BYTE_ARRAY => (0, 4, 1, 4),
                STRING => (0, 2, 1, 2),
                INT_ARRAY => (0, 4, 4, 4),
                LONG_ARRAY => (0, 4, 8, 4),
                // A list's header: element id and count.
                LIST => (0, 0, 0, 5),
                // Its End byte.
                COMPOUND => (0, 0, 0, 1),
                _ => (0, 0, 0, 0),
            };
            assert_eq!((l.fixed, l.prefix, l.element, l.min), want, "id {id}");
            assert_eq!(is_known(id), id <= LONG_ARRAY);
        }
    }
}
