//! The readers and writers on valid and hostile input: the shared corpus read and
//! written back by both models, the spec's example files, every hostile case of
//! `docs/format.md` §4, and the path of a read error.

#[path = "../support/mod.rs"]
mod support;

mod corpus;
mod hostile;
mod locate;
mod spec;
