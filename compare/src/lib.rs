//! # compare: simdnbt against every other Rust NBT crate
//!
//! One adapter table ([`peers()`]) drives both the criterion benches
//! (`cargo bench -p compare --bench compare`, groups `compare/<file>`, functions
//! `<peer>_read`, `<peer>_write`, `<peer>_decode_all`) and the cross-library
//! equivalence tests (`tests/equivalence.rs`). The benches share one harness
//! ([`harness`]: the filter, applied before any input is prepared, and the run
//! record); the report generator is its own crate (`compare/report`), reading
//! the record through `compare/results`.
//!
//! Each library is an [`Adapter`]: four functions over its own parsed tree
//! (`parse`, `write`, `visit`, `to_canonical`) and an [`Info`] (name, crate,
//! version, order, notes); [`Peer::of`] turns it into its table entry. Adding a peer
//! is one such impl and one line in [`peers()`].
//!
//! Each [`Peer`] says what its library does and skips while parsing in
//! [`Info::notes`] (lazy strings? MUTF-8 validated? arrays converted? order kept?),
//! whether it keeps compound order ([`Info::order`]), and how to
//! - `read`: parse only, the result `black_box`ed — libraries differ a lot in how much
//!   work that includes (a borrowed index vs. a fully decoded tree);
//! - `write`: serialize the library's own parsed tree;
//! - `decode_all`: parse and then visit every tag, decoding every string to UTF-8 and
//!   every array to native integers — the like-for-like workload, because lazy readers
//!   skip exactly that while parsing;
//! - `to_canonical`: convert the parse result into the shared [`Value`] (untimed; the
//!   value, [`diff`] and the lossy MUTF-8 rule come from the workspace's `testkit`);
//! - `edit` ([`edit_workload`], function `<peer>_edit`): parse, make the input's
//!   [`EditScript`] (change 10 values, remove 2, insert 5) and write, for every
//!   library with a mutable tree: simdnbt_owned, simdnbt_doc, na_nbt_owned(_be),
//!   ussr_owned, shen, valence, crab, hematite (on its `Value` tree: `Blob` cannot
//!   remove), fastnbt, quartz and upstream_owned. Not for the read-only views
//!   (simdnbt_borrow, na_nbt_borrow), ussr_borrow (every key and string is borrowed
//!   from the input, so a new one needs storage that outlives it), graphite (its
//!   arena cannot remove a key) or azalea (not yet written); the peer files say why.
//!
//! | peer | strings while parsing | invalid MUTF-8 | arrays at parse | compound order | empty-list type |
//! |---|---|---|---|---|---|
//! | simdnbt_borrow | raw slice, decode on request | kept | BE slice, convert on request | kept, duplicates kept | kept |
//! | simdnbt_owned | raw copy | kept | native Vec | kept, duplicates kept | kept |
//! | na_nbt_borrow | raw slice (lazy, indexed) | kept | BE slice | kept | kept |
//! | na_nbt_owned | raw copy | kept | native (`NativeEndian` store) | kept | kept |
//! | ussr_borrow | raw slice | kept | BE slice | kept | lost (`Empty`) |
//! | ussr_owned | raw copy | kept | raw BE bytes | kept | lost (`Empty`) |
//! | shen | **plain UTF-8, lossy** | replaced | native Vec | kept | lost |
//! | graphite | CESU-8 → `String` | **rejected** | native Vec | sorted | kept |
//! | valence | CESU-8 → `String` | **rejected** | native Vec | sorted (BTreeMap) | kept |
//! | crab | CESU-8 → `String` | **rejected** | native Vec | kept, later duplicates dropped | lost |
//! | hematite | CESU-8 → `String` | **rejected** | native Vec | HashMap | lost |
//! | fastnbt | CESU-8 → `String` | **rejected** | native Vec | HashMap | lost |
//! | quartz | CESU-8 → `String` | **rejected** | native Vec | HashMap | lost |
//! | azalea (nightly) | **plain UTF-8, lossy** | replaced | native Vec | sorted when large | lost (`Empty`) |
//! | upstream_* (nightly) | as simdnbt 0.10: raw | kept | as above | kept | borrow kept; owned End-only `Empty` |
//! | floor (not a library) | skipped | accepted (not checked) | skipped | nothing kept | nothing kept |
//!
//! The invalid-MUTF-8, truncation and order columns are pinned by tests in
//! `tests/equivalence.rs`; every place a peer's result differs from simdnbt's on the
//! corpus is listed there (`DIVERGENCES`) with its reason.
//!
//! The `floor` peer is no library but the yardstick ([`floor`]): a walker
//! that checks what every validating reader must and records nothing, so a
//! reader's time over its time says how close to the limit the reader is. It
//! has `read` only; the `race` example (`examples/race.rs`) times readers
//! against it in interleaved rounds.
//!
//! Inputs come from [`inputs`] (the workspace `corpus` crate).

mod adapter;
pub mod derived;
pub mod edit_workload;
pub mod floor;
pub mod harness;
pub mod inputs;
pub mod mutf8_cases;
#[cfg(test)]
mod nightly_manifest;
mod peers;
pub mod reference;
pub mod region;
pub mod serde_peers;
pub mod snbt_peers;
pub mod typed;

pub use adapter::{Adapter, Bench, Info, Peer, PrepareWrite, WriteBytes, sink};
pub use edit_workload::EditScript;
pub use peers::{peer, peer_notes, peers};
pub use testkit::value;
pub use testkit::{Doc, List, Order, Value, diff, diff_all};
