//! The readers and writers on valid and hostile input: the shared corpus read and
//! written back by both models, the spec's example files, every hostile case of
//! `docs/format.md` §4, the path of a read error, and the document model
//! (`document`: read and edited against the borrow reader and the owned tree).

#[path = "../support/mod.rs"]
mod support;

mod corpus;
mod document;
mod hostile;
mod locate;
mod spec;
