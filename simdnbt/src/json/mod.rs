//! Typed JSON: a JSON form of NBT that keeps everything (feature `json`).
//!
//! Plain JSON loses what NBT knows: `1b` and `1L` both become `1`, `1.5f`
//! becomes a double, the order and repeats of keys go through a map, an empty
//! list forgets its element type, NaN and `-0.0` have no JSON number, and a
//! string that is not valid UTF-8 has no JSON string. This form keeps every
//! one of them, so `NBT → typed JSON → NBT` gives back the same bytes (tested
//! on every corpus file), and it stays readable and easy to produce from any
//! language.
//!
//! # The shape
//!
//! (The same as in the project's `docs/format.md` §8.)
//!
//! A document is an **entry**: `{"name": <text>, "<type>": <payload>}`, here
//! the root's name and `"compound"`. The types are `byte`, `short`, `int`,
//! `long`, `float`, `double`, `byte_array`, `string`, `list`, `compound`,
//! `int_array` and `long_array` (and `end`, only as a list's element type).
//! Payloads:
//!
//! | type | payload |
//! |---|---|
//! | `byte`, `short`, `int`, `long` | a JSON integer in the type's range |
//! | `float`, `double` | a JSON number that reads back as the same bits; NaN (any payload), the infinities and `-0.0` as a string of the IEEE bits, `"0x7fc00000"` (8 hex digits for a float, 16 for a double) |
//! | `byte_array` | an array of integers −128 to 127 |
//! | `int_array`, `long_array` | an array of integers |
//! | `string` | `<text>` |
//! | `compound` | an array of entries, in order (a repeated key stays repeated) |
//! | `list` | an array: the element type's name, then the elements' payloads (`["int", 1, 2]`, `["end"]` for an untyped empty list, `["compound", [...], [...]]`) |
//!
//! `<text>` (a string or a name) is a JSON string when the NBT bytes are the
//! MUTF-8 of some text, else an array of the raw bytes (0 to 255). An entry
//! has exactly those two keys, in any order; any other key, or one of them
//! twice, is an error.
//!
//! # Depth: 60, not 512
//!
//! Nesting is limited to [`MAX_DEPTH`] (60) compounds and lists, not the
//! 512 every other form takes, on purpose:
//!
//! - each NBT level is two JSON levels (an entry's object and its
//!   compound's or list's array), so 512 NBT levels are 1,024 JSON levels;
//! - `serde_json`, which reads and writes this form here and is what most
//!   Rust programs would read it with, refuses input nested deeper than 128
//!   JSON levels unless the reader opts out (its `unbounded_depth` feature
//!   and `Deserializer::disable_recursion_limit`); 60 NBT levels, 120 JSON
//!   levels, is the most that reads back with its defaults;
//! - opting out here would not be enough: `serde_json` then recurses on the
//!   stack once per JSON level, and so do this module's reader and writer,
//!   so 1,024 levels would need stack growth on both sides (as
//!   `simdnbt::serde` does with `stacker`) to keep the crate's promise of no
//!   stack overflow on a 256 KiB thread; and the output would still be
//!   refused by every `serde_json` reader with default settings.
//!
//! Real files stay far below 60 levels. The writer refuses a deeper
//! document ([`Error`]) rather than write what cannot be read back; the
//! reader refuses deeper input where it passes the limit. The reader is
//! tested at 60 and 61 levels on a 256 KiB thread
//! (`tests/formats/deep_text.rs`), the writer's refusal in
//! `tests/formats/json.rs`.
//!
//! ```
//! use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
//!
//! let mut root = NbtCompound::new();
//! root.insert("DataVersion", 3700i32);
//! root.insert("Pos", NbtTag::List(NbtList::Double(vec![1.5, 64.0, -0.0])));
//! root.insert("Empty", NbtTag::List(NbtList::Empty));
//! let nbt = BaseNbt::new("", root);
//!
//! let json = simdnbt::json::to_string(&nbt).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"name":"","compound":[{"name":"DataVersion","int":3700},{"name":"Pos","list":["double",1.5,64.0,"0x8000000000000000"]},{"name":"Empty","list":["end"]}]}"#
//! );
//! assert_eq!(simdnbt::json::from_str(&json).unwrap(), nbt);
//! ```

mod error;
mod locate;
mod read;
mod write;

use std::io;

use serde::de::DeserializeSeed;

use crate::owned::{BaseNbt, NbtTag};
pub use error::Error;

/// The deepest nesting of compounds and lists typed JSON holds (the root
/// compound is level 1): less than the binary forms' 512 (the [module
/// docs](self) say why).
pub const MAX_DEPTH: usize = 60;

/// The type names, by tag id.
const TYPES: [&str; 13] = crate::tag_id::names(true);

/// The root entry as serde sees it.
struct Root<'a>(&'a BaseNbt);

impl serde::Serialize for Root<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("name", &write::Text(self.0.name()))?;
        let root = write::Entries {
            compound: self.0,
            depth: 1,
        };
        map.serialize_entry("compound", &root)?;
        map.end()
    }
}

/// Writes `nbt` as typed JSON.
///
/// An error only for a document nested deeper than [`MAX_DEPTH`] or a
/// failing writer.
pub fn to_writer(writer: impl io::Write, nbt: &BaseNbt) -> Result<(), Error> {
    serde_json::to_writer(writer, &Root(nbt)).map_err(Error::from)
}

/// Writes `nbt` as typed JSON, indented.
pub fn to_writer_pretty(writer: impl io::Write, nbt: &BaseNbt) -> Result<(), Error> {
    serde_json::to_writer_pretty(writer, &Root(nbt)).map_err(Error::from)
}

/// `nbt` as typed JSON text (see the [module docs](self) for the shape).
pub fn to_string(nbt: &BaseNbt) -> Result<String, Error> {
    let mut out = Vec::new();
    to_writer(&mut out, nbt)?;
    // serde_json writes UTF-8.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// Whether `bytes` have typed JSON's shape: a top-level object with a
/// `name` key and a key naming an NBT type (`"compound"` for a document),
/// whatever the rest holds. A tool that also reads plain JSON tells broken
/// typed JSON (whose [`from_slice`] error is the answer) from plain JSON
/// with it, instead of reading a typed file that fails as plain JSON.
///
/// ```
/// use simdnbt::json::has_typed_shape;
/// assert!(has_typed_shape(br#"{"name":"","compound":[{"name":"a","byte":300}]}"#));
/// assert!(!has_typed_shape(br#"{"name":"Steve","health":20}"#));
/// assert!(!has_typed_shape(br#"[{"name":"","compound":[]}]"#));
/// ```
pub fn has_typed_shape(bytes: &[u8]) -> bool {
    locate::has_typed_shape(bytes)
}

/// Reads typed JSON (the whole input) into an owned document.
///
/// ```
/// let err = simdnbt::json::from_str(r#"{"name":"","compound":[{"name":"a","int":1e3}]}"#).unwrap_err();
/// assert_eq!(err.column(), 44);
/// assert!(err.to_string().contains("expected i32"), "{err}");
/// ```
pub fn from_str(text: &str) -> Result<BaseNbt, Error> {
    from_slice(text.as_bytes())
}

/// [`from_str`] over bytes (which must be UTF-8 JSON).
pub fn from_slice(bytes: &[u8]) -> Result<BaseNbt, Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let located = |e: serde_json::Error| Error::from(e).in_text(bytes);
    let (name, tag) = read::Entry { depth: 0 }
        .deserialize(&mut de)
        .map_err(located)?;
    de.end().map_err(located)?;
    match tag {
        NbtTag::Compound(c) => Ok(BaseNbt::new(name, c)),
        other => Err(Error::root_type(write::type_name(other.id()))),
    }
}
