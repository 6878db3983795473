//! The serde adapters: each library's typed read (bytes → `T`) and write
//! (`T` → a new `Vec<u8>`), shared by `benches/serde.rs` and the
//! instruction-count driver (`compare/icount`, mode `serde`).
//!
//! | peer | read | write |
//! |---|---|---|
//! | simdnbt | `simdnbt::serde::from_slice` (validating pass, then a walk) | `simdnbt::serde::to_vec` |
//! | fastnbt 2.6.3 | `fastnbt::from_bytes` | `fastnbt::to_bytes` |
//! | quartz_nbt 0.2.9 | `quartz_nbt::serde::deserialize` (`Flavor::Uncompressed`) | `quartz_nbt::serde::serialize` |
//! | hematite-nbt 0.5.2 | `nbt::from_reader` on a `&[u8]` | `nbt::to_writer` into a `Vec` |
//!
//! na_nbt 0.2.1 has serde too, but maps `Vec` to a list of `{"": v}`
//! compounds and `Option` to a compound wrapper, so it cannot read vanilla
//! files into the shared structs (`tests/serde_typed.rs` shows it).

use serde::{Serialize, de::DeserializeOwned};

/// Reads a `T` from a whole document (panics on error: inputs are checked).
pub type Read<T> = fn(&[u8]) -> T;
/// Writes a `T` as a document with an empty root name.
pub type Write<T> = fn(&T) -> Vec<u8>;

/// One library's serde read and write.
pub struct SerdePeer<T> {
    /// The bench function prefix: `<name>_serde_read`, `<name>_serde_write`.
    pub name: &'static str,
    pub read: Read<T>,
    pub write: Write<T>,
}

/// Every library, simdnbt first.
pub fn serde_peers<T: Serialize + DeserializeOwned>() -> Vec<SerdePeer<T>> {
    vec![
        SerdePeer {
            name: "simdnbt",
            read: |b| simdnbt::serde::from_slice(b).unwrap(),
            write: |v| simdnbt::serde::to_vec(v).unwrap(),
        },
        SerdePeer {
            name: "fastnbt",
            read: |b| fastnbt::from_bytes(b).unwrap(),
            write: |v| fastnbt::to_bytes(v).unwrap(),
        },
        SerdePeer {
            name: "quartz",
            read: |b| {
                quartz_nbt::serde::deserialize(b, quartz_nbt::io::Flavor::Uncompressed)
                    .unwrap()
                    .0
            },
            write: |v| {
                quartz_nbt::serde::serialize(v, None, quartz_nbt::io::Flavor::Uncompressed).unwrap()
            },
        },
        SerdePeer {
            name: "hematite",
            read: |mut b| nbt::from_reader(&mut b).unwrap(),
            write: |v| {
                let mut out = Vec::new();
                nbt::to_writer(&mut out, v, None).unwrap();
                out
            },
        },
    ]
}
