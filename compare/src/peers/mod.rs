//! The adapter table: one [`Peer`] per library (and per mode of a library).

use std::hint::black_box;
use std::sync::OnceLock;

use crate::value::{Doc, Order};

mod crab;
mod fastnbt;
mod graphite;
mod hematite;
mod na_nbt;
mod quartz;
mod shen;
mod ussr;
mod valence;

#[cfg(feature = "nightly-peers")]
mod azalea;

/// A prepared, repeatable unit of work: each call does the measured work once.
/// Whatever the library needs set up per input (a mutable copy of the input, an
/// already-parsed tree to write) lives inside the closure and is not timed.
pub type Bench<'a> = Box<dyn FnMut() + 'a>;

/// Prepares a write [`Bench`]: parses once, or says why the library cannot.
pub type PrepareWrite = for<'a> fn(&'a [u8]) -> Result<Bench<'a>, String>;

/// Parses and writes back with the library's own writer.
pub type WriteBytes = fn(&[u8]) -> Result<Vec<u8>, String>;

/// One library (or one mode of a library) as the benches and tests see it.
pub struct Peer {
    /// Benchmark id prefix, as in the upstream simdnbt benchmark table (`na_nbt_borrow`, `valence`, …).
    pub name: &'static str,
    /// crates.io package name.
    pub krate: &'static str,
    /// Exact version compared.
    pub version: &'static str,
    /// Needs nightly Rust (`nightly-peers` feature).
    pub nightly: bool,
    /// Whether compound entries come back in input order (with duplicates).
    pub order: Order,
    /// What the library does and skips while parsing; shown by the report.
    pub notes: &'static str,
    /// Parses once and reports whether the library accepts the input (untimed; cheap enough
    /// for the benches to call before registering a file's benchmarks).
    pub validate: fn(&[u8]) -> Result<(), String>,
    /// Parse only: each call parses the whole input and `black_box`es the result.
    pub read: for<'a> fn(&'a [u8]) -> Bench<'a>,
    /// Parses once (untimed), then each call serializes that library's own tree into a new `Vec<u8>`.
    /// `None` if the library cannot write.
    pub write: Option<PrepareWrite>,
    /// Parse, then visit every tag, decoding every string to UTF-8 and every array to native
    /// integers. `None` if the library's public API cannot visit every tag.
    pub decode_all: Option<for<'a> fn(&'a [u8]) -> Bench<'a>>,
    /// Parse and convert to the canonical value (untimed).
    pub to_canonical: fn(&[u8]) -> Result<Doc, String>,
    /// Parse and write back with the library's own writer (untimed; used by the tests).
    pub write_bytes: Option<WriteBytes>,
}

impl Peer {
    /// `crate@version`
    pub fn crate_version(&self) -> String {
        format!("{}@{}", self.krate, self.version)
    }
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("name", &self.name)
            .field("crate", &self.crate_version())
            .field("order", &self.order)
            .finish_non_exhaustive()
    }
}

/// Every adapter compiled into this build, simdnbt's own first.
pub fn peers() -> &'static [Peer] {
    static PEERS: OnceLock<Vec<Peer>> = OnceLock::new();
    PEERS.get_or_init(|| {
        let mut v = Vec::new();
        v.extend(crate::ours::peers());
        v.extend([
            na_nbt::BORROW,
            na_nbt::OWNED,
            na_nbt::OWNED_BE,
            ussr::BORROW,
            ussr::OWNED,
            shen::PEER,
            graphite::PEER,
            valence::PEER,
            crab::PEER,
            hematite::PEER,
            fastnbt::PEER,
            quartz::PEER,
        ]);
        #[cfg(feature = "nightly-peers")]
        {
            v.push(azalea::PEER);
            v.extend(crate::ours::upstream_peers());
        }
        v
    })
}

/// `(peer name, notes)` for every compiled-in adapter, the shape the report generator takes.
pub fn peer_notes() -> Vec<(&'static str, &'static str)> {
    peers().iter().map(|p| (p.name, p.notes)).collect()
}

/// Looks a peer up by name.
pub fn peer(name: &str) -> Option<&'static Peer> {
    peers().iter().find(|p| p.name == name)
}

/// Wraps a parse function as a [`Bench`]: each call parses `input` and `black_box`es the result
/// (the result is dropped inside the timed call, as a real caller would).
pub(crate) fn parse_bench<'a, T: 'a>(input: &'a [u8], parse: fn(&'a [u8]) -> T) -> Bench<'a> {
    Box::new(move || {
        black_box(parse(black_box(input)));
    })
}

/// Wraps an already-parsed tree and a writer as a [`Bench`].
pub(crate) fn write_bench<'a, T: 'a>(parsed: T, write: fn(&T) -> Vec<u8>) -> Bench<'a> {
    Box::new(move || {
        black_box(write(black_box(&parsed)));
    })
}

/// Marks a decoded string or converted array as used.
#[inline(always)]
pub(crate) fn sink<T>(v: T) {
    black_box(v);
}
