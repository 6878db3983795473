//! The logic of simdnbt's fuzz targets, as plain functions.
//!
//! The cargo-fuzz binaries in `fuzz/fuzz_targets/` are one-line wrappers around
//! [`roundtrip()`], [`cross_library`], [`borrow_read`], [`owned_read`],
//! [`serde_roundtrip()`], [`derive_read`], [`region()`], [`inflate`],
//! [`snbt()`], [`bedrock()`], [`nbt_path()`], [`document_edit`],
//! [`json_roundtrip`] and [`chunk_sections`]. Keeping
//! the logic here, in a stable workspace member, lets `cargo test --workspace`
//! replay every regression file, every docs/format.md §4 case and the corpus seeds
//! through exactly the code the fuzzer runs (see `tests/replay.rs`).
//!
//! Every function panics when a §3 claim is broken and returns normally otherwise.
#![deny(missing_docs)]

mod access;
pub mod arrow;
pub mod bedrock;
pub mod chunk;
pub mod cross;
mod derive;
pub mod document;
pub mod files;
pub mod generate;
pub mod json;
pub mod nbt_path;
pub mod roundtrip;
pub mod serde_roundtrip;
pub mod snbt;

pub use access::{borrow_read, check_str, owned_read};
pub use arrow::arrow_scan;
pub use bedrock::bedrock;
pub use chunk::chunk_sections;
pub use cross::cross_library;
pub use derive::derive_read;
pub use document::document_edit;
pub use files::{inflate, region};
pub use json::json_roundtrip;
pub use nbt_path::nbt_path;
pub use roundtrip::roundtrip;
pub use serde_roundtrip::serde_roundtrip;
pub use snbt::snbt;
/// The docs/format.md §4 cases (the workspace test kit's table).
pub use testkit::hostile;

/// One fuzz target's logic: panics on a broken claim.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `cargo fuzz run NAME` knows them.
pub const TARGETS: &[(&str, Target)] = &[
    ("roundtrip", roundtrip),
    ("cross_library", cross_library),
    ("borrow_read", borrow_read),
    ("owned_read", owned_read),
    ("serde_roundtrip", serde_roundtrip),
    ("derive_read", derive_read),
    ("region", region),
    ("inflate", inflate),
    ("snbt", snbt),
    ("bedrock", bedrock),
    ("nbt_path", nbt_path),
    ("document_edit", document_edit),
    ("json_roundtrip", json_roundtrip),
    ("chunk_sections", chunk_sections),
    ("arrow_scan", arrow_scan),
];
