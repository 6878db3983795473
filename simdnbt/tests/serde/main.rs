//! `simdnbt::serde`: the mapping of Rust types to NBT, error paths and offsets,
//! buffered (non-borrowing) input, and the owned tree through serde.

mod buffered;
mod common;
mod deep;
mod errors;
mod mapping;
mod owned;
mod pull;
