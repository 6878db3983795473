//! The SNBT adapters: simdnbt against valence_nbt 0.8 (`snbt` feature) and
//! quartz_nbt 0.2, the two other Rust crates with SNBT, shared by
//! `benches/snbt.rs` and the instruction-count driver (`compare/icount`, mode
//! `snbt`).
//!
//! | peer | read (text → tree) | write (tree → `String`) |
//! |---|---|---|
//! | simdnbt | `simdnbt::snbt::from_str` into the owned tree (MUTF-8 strings) | `simdnbt::snbt::to_string` |
//! | valence_nbt 0.8.0 | `valence_nbt::snbt::from_snbt_str` (BTreeMap, `String`s) | `valence_nbt::snbt::to_snbt_string` |
//! | quartz_nbt 0.2.9 | `quartz_nbt::snbt::parse` (HashMap, `String`s) | `NbtCompound::to_snbt` |
//!
//! Each writer prints the tree its library reads from the binary file, so
//! the peers print Rust `String`s they decoded before the timed call and
//! simdnbt prints the MUTF-8 bytes it keeps.

use std::any::Any;
use std::hint::black_box;
use std::io::Cursor;

/// A prepared printer: prints the tree it holds, returns the text's length.
pub type Printer = Box<dyn FnMut() -> usize>;

/// One library's SNBT adapters: read the text, and print the tree it reads
/// from the binary file.
pub struct SnbtPeer {
    /// The bench function prefix: `<name>_snbt_read`, `<name>_snbt_write`.
    pub name: &'static str,
    /// Reads `text`; `Err` if the library rejects it.
    pub read: fn(&str) -> Result<Box<dyn Any>, String>,
    /// Prepares a printer of the file's tree, from the binary input.
    pub writer: fn(&[u8]) -> Result<Printer, String>,
}

/// The disk-form input read without its name, as any tag.
pub fn ours_tree(input: &[u8]) -> Result<simdnbt::owned::NbtTag, String> {
    let name_len = u16::from_be_bytes([input[1], input[2]]) as usize;
    let mut unnamed = vec![input[0]];
    unnamed.extend_from_slice(&input[3 + name_len..]);
    simdnbt::owned::read_tag(&mut Cursor::new(&unnamed[..])).map_err(|e| e.to_string())
}

/// simdnbt's compact SNBT of a binary file: the text every reader is given.
pub fn text_of(input: &[u8]) -> Result<String, String> {
    ours_tree(input).and_then(|t| simdnbt::snbt::to_string(&t).map_err(|e| e.to_string()))
}

/// Every library, simdnbt first.
pub const SNBT_PEERS: &[SnbtPeer] = &[
    SnbtPeer {
        name: "simdnbt",
        read: |text| {
            simdnbt::snbt::from_str(text)
                .map(|t| Box::new(t) as Box<dyn Any>)
                .map_err(|e| e.to_string())
        },
        writer: |input| {
            let tree = ours_tree(input)?;
            simdnbt::snbt::to_string(&tree).map_err(|e| e.to_string())?;
            Ok(Box::new(move || {
                simdnbt::snbt::to_string(black_box(&tree))
                    .map(|s| s.len())
                    .unwrap_or(0)
            }))
        },
    },
    SnbtPeer {
        name: "valence",
        read: |text| {
            valence_nbt::snbt::from_snbt_str(text)
                .map(|t| Box::new(t) as Box<dyn Any>)
                .map_err(|e| e.to_string())
        },
        writer: |input| {
            let (c, _) =
                valence_nbt::from_binary::<String>(&mut &input[..]).map_err(|e| e.to_string())?;
            let value = valence_nbt::Value::Compound(c);
            Ok(Box::new(move || {
                valence_nbt::snbt::to_snbt_string(black_box(&value)).len()
            }))
        },
    },
    SnbtPeer {
        name: "quartz",
        read: |text| {
            quartz_nbt::snbt::parse(text)
                .map(|t| Box::new(t) as Box<dyn Any>)
                .map_err(|e| e.to_string())
        },
        writer: |input| {
            let (c, _) =
                quartz_nbt::io::read_nbt(&mut &input[..], quartz_nbt::io::Flavor::Uncompressed)
                    .map_err(|e| e.to_string())?;
            Ok(Box::new(move || black_box(&c).to_snbt().len()))
        },
    },
];
