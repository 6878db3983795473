//! # compare: simdnbt against every other Rust NBT crate
//!
//! One adapter table ([`peers()`]) drives both the criterion benches
//! (`cargo bench -p compare`, groups `compare/<file>`, functions `<peer>_read`,
//! `<peer>_write`, `<peer>_decode_all`) and the cross-library equivalence tests
//! (`tests/equivalence.rs`).
//!
//! Each [`Peer`] says what its library does and skips while parsing in
//! [`Peer::notes`] (lazy strings? MUTF-8 validated? arrays converted? order kept?),
//! whether it keeps compound order ([`Peer::order`]), and how to
//! - `read`: parse only, the result `black_box`ed — libraries differ a lot in how much
//!   work that includes (a borrowed index vs. a fully decoded tree);
//! - `write`: serialize the library's own parsed tree;
//! - `decode_all`: parse and then visit every tag, decoding every string to UTF-8 and
//!   every array to native integers — the like-for-like workload, because lazy readers
//!   skip exactly that while parsing;
//! - `to_canonical`: convert the parse result into the shared [`Value`] (untimed).
//!
//! | peer | lazy strings | MUTF-8 | arrays converted at parse | order |
//! |---|---|---|---|---|
//! | simdnbt_borrow | yes (raw bytes) | on request | no (on request) | kept |
//! | simdnbt_owned | yes (raw bytes) | on request | yes | kept |
//! | na_nbt_borrow | yes | on request | no | kept |
//! | na_nbt_owned | raw copy | on request | yes (native order) | kept |
//! | ussr_borrow | yes | on request | no | kept |
//! | ussr_owned | raw copy | on request | no (raw BE bytes) | kept |
//! | shen | decoded | **plain UTF-8, lossy** | yes | kept |
//! | graphite | decoded | CESU-8, strict | yes | sorted |
//! | valence | decoded | CESU-8, strict | yes | sorted (BTreeMap) |
//! | crab | decoded | CESU-8, strict | yes | kept (duplicates dropped) |
//! | hematite | decoded | CESU-8, strict | yes | HashMap |
//! | fastnbt | decoded | CESU-8, strict | yes | HashMap |
//! | quartz | decoded | CESU-8, strict | yes | HashMap |
//! | azalea (nightly) | decoded | **plain UTF-8, lossy** | yes | sorted when large |
//! | upstream_* (nightly) | as simdnbt 0.10 | | | kept |
//!
//! Inputs come from [`inputs`] (the workspace `corpus` crate).

pub mod inputs;
mod ours;
pub mod peers;
pub mod reference;
pub mod value;

pub use peers::{peer, peer_notes, peers, Bench, Peer};
pub use value::{diff, Doc, List, Order, Value};
