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

/// Payload size of the fixed-size tags (Byte..=Double), indexed by id; 0 otherwise.
pub(crate) const FIXED_SIZE: [u8; 16] = [0, 1, 2, 4, 8, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0];

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
