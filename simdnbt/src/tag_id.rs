//! Tag ids of the binary format (docs/format.md §1).

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

/// Payload size of the fixed-size tags (Byte..=Double), indexed by id; 0 otherwise.
pub(crate) const FIXED_SIZE: [u8; 16] = [0, 1, 2, 4, 8, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// Where the payload of a number, string or array of type `id` that starts
/// at `p` of `data` ends. The payload must have been checked by the reader
/// (its length prefix is there and its elements fit).
#[inline(always)]
pub(crate) fn leaf_end(data: &[u8], id: u8, p: usize) -> usize {
    let len = || u32::from_be_bytes(data[p..p + 4].try_into().unwrap()) as usize;
    match id {
        BYTE..=DOUBLE => p + FIXED_SIZE[id as usize] as usize,
        STRING => p + 2 + u16::from_be_bytes(data[p..p + 2].try_into().unwrap()) as usize,
        BYTE_ARRAY => p + 4 + len(),
        INT_ARRAY => p + 4 + len() * 4,
        _ => p + 4 + len() * 8,
    }
}

/// Smallest number of input bytes one list element of type `id` can take.
/// Used to reject a length prefix before anything is allocated for it.
pub(crate) const fn min_element_size(id: u8) -> usize {
    match id {
        BYTE => 1,
        SHORT => 2,
        INT | FLOAT => 4,
        LONG | DOUBLE => 8,
        BYTE_ARRAY | INT_ARRAY | LONG_ARRAY => 4,
        STRING => 2,
        LIST => 5,
        COMPOUND => 1,
        _ => 0,
    }
}

/// The tag type's name as the format calls it (`"Int"`, `"Compound"`, …), or
/// `"unknown"` for an id outside `0..=12`.
///
/// ```
/// assert_eq!(simdnbt::tag_id::name(simdnbt::tag_id::INT_ARRAY), "IntArray");
/// ```
pub const fn name(id: u8) -> &'static str {
    match id {
        END => "End",
        BYTE => "Byte",
        SHORT => "Short",
        INT => "Int",
        LONG => "Long",
        FLOAT => "Float",
        DOUBLE => "Double",
        BYTE_ARRAY => "ByteArray",
        STRING => "String",
        LIST => "List",
        COMPOUND => "Compound",
        INT_ARRAY => "IntArray",
        LONG_ARRAY => "LongArray",
        _ => "unknown",
    }
}
