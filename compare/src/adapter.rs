//! The adapter contract: a library as four functions over its own parsed tree
//! ([`Adapter`]), what it says about itself ([`Info`]), and the table entry the
//! benches and tests use ([`Peer`], built by [`Peer::of`]). The table itself,
//! one adapter per file, is [`crate::peers`].

use std::hint::black_box;

use testkit::{Doc, Order};

use crate::edit_workload::EditScript;

/// A prepared, repeatable unit of work: each call does the measured work once.
/// Whatever the library needs set up per input (a mutable copy of the input, an
/// already-parsed tree to write) lives inside the closure and is not timed.
pub type Bench<'a> = Box<dyn FnMut() + 'a>;

/// Prepares a write [`Bench`]: parses once, or says why the library cannot.
pub type PrepareWrite = for<'a> fn(&'a [u8]) -> Result<Bench<'a>, String>;

/// Parses and writes back with the library's own writer.
pub type WriteBytes = fn(&[u8]) -> Result<Vec<u8>, String>;

/// Prepares an edit [`Bench`] (read, [`EditScript`], write), or says why the
/// library cannot.
pub type PrepareEdit = for<'a> fn(&'a [u8]) -> Result<Bench<'a>, String>;

/// Parses, applies the input's [`EditScript`] and converts to the canonical
/// value (untimed; used by the tests).
pub type EditCanonical = fn(&[u8]) -> Result<Doc, String>;

/// One library (or one mode of a library) as the benches and tests see it:
/// what it is ([`Info`]) and its prepared workloads.
pub struct Peer {
    /// Name, crate, version, order and notes.
    pub info: Info,
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
    /// The edit workload ([`crate::edit_workload`]): each call parses, applies the
    /// input's edits and writes. `None` if the library has no mutable tree.
    pub edit: Option<PrepareEdit>,
    /// Parse, edit, convert to the canonical value (untimed; used by the tests).
    pub edit_canonical: Option<EditCanonical>,
    /// Parse, edit and write with the library's own writer (untimed; used by
    /// the tests). `None` if the library has no mutable tree or no writer.
    pub edit_bytes: Option<WriteBytes>,
    /// Parses once and inserts one key into the root (untimed), then each call
    /// writes that tree: a write after one edit that changes the structure.
    pub write_edited: Option<PrepareEdit>,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("name", &self.info.name)
            .field("crate", &self.info.crate_version())
            .field("order", &self.info.order)
            .finish_non_exhaustive()
    }
}

/// What a [`Peer`] says about its library, besides the functions.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    /// Benchmark id prefix, as in the upstream simdnbt benchmark table (`na_nbt_borrow`, `valence`, …).
    pub name: &'static str,
    /// crates.io package name.
    pub krate: &'static str,
    /// Exact version compared.
    pub version: &'static str,
    /// Needs nightly Rust (feature `nightly-peers`, in the build from
    /// compare/nightly/Cargo.toml).
    pub nightly: bool,
    /// Whether compound entries come back in input order (with duplicates).
    pub order: Order,
    /// What the library does and skips while parsing; shown by the report.
    pub notes: &'static str,
}

impl Info {
    /// `crate@version`
    pub fn crate_version(&self) -> String {
        format!("{}@{}", self.krate, self.version)
    }
}

/// One library (or mode of a library) as four functions over its own parsed tree;
/// [`Peer::of`]`::<A>()` turns it into the [`Peer`] table entry.
///
/// The timed work: `read` is [`Adapter::parse`] (`black_box`ed), `write` is
/// [`Adapter::write`] of a tree parsed once untimed, `decode_all` is `parse` then
/// [`Adapter::visit`]. A library that needs something else timed overrides
/// [`Adapter::read_bench`] or [`Adapter::decode_all_bench`].
pub trait Adapter {
    /// The library's parse result (it may borrow the input).
    type Tree<'a>: 'a;
    /// Name, crate, version, order and notes.
    const INFO: Info;
    /// `false` if the library cannot write: no `write` bench, no `write_bytes`.
    const WRITES: bool = true;
    /// `false` if the library's public API cannot visit every tag: no `decode_all`.
    const VISITS: bool = true;
    /// `true` if the library has a mutable tree: an `edit` bench ([`Adapter::edit`]).
    const EDITS: bool = false;

    /// Parses the whole input.
    fn parse(input: &[u8]) -> Result<Self::Tree<'_>, String>;
    /// Serializes the library's own tree (only called when [`Adapter::WRITES`]).
    fn write(tree: &Self::Tree<'_>) -> Result<Vec<u8>, String>;
    /// Visits every tag, decoding every string to UTF-8 and every array to native
    /// integers, and [`sink`]s the results (only called when [`Adapter::VISITS`]).
    fn visit(tree: &Self::Tree<'_>);
    /// Converts the tree into the canonical value (untimed).
    fn to_canonical(tree: &Self::Tree<'_>) -> Result<Doc, String>;

    /// Applies the edit workload's edits to the tree (only called when
    /// [`Adapter::EDITS`]).
    fn edit(_tree: &mut Self::Tree<'_>, _script: &EditScript) -> Result<(), String> {
        Err("no mutable tree".into())
    }

    /// The `read` bench: each call parses the input and `black_box`es the result.
    fn read_bench(input: &[u8]) -> Bench<'_> {
        Box::new(move || {
            sink(Self::parse(black_box(input)));
        })
    }

    /// The `decode_all` bench: each call parses, then visits the tree.
    fn decode_all_bench(input: &[u8]) -> Bench<'_> {
        Box::new(move || {
            if let Ok(tree) = Self::parse(black_box(input)) {
                Self::visit(&tree);
            }
        })
    }

    /// The `edit` bench (only called when [`Adapter::EDITS`]): each call
    /// parses the input, applies its edits and writes (`edit_bench_with`
    /// over [`Adapter::parse`]).
    fn edit_bench(input: &[u8]) -> Result<Bench<'_>, String>
    where
        Self: Sized,
    {
        edit_bench_with::<Self>(input, move || Self::parse(black_box(input)))
    }
}

impl Peer {
    /// The table entry of an [`Adapter`].
    pub fn of<A: Adapter>() -> Peer {
        let peer = Peer {
            info: A::INFO,
            validate: |input| A::parse(input).map(drop),
            read: A::read_bench,
            write: A::WRITES.then_some(write_bench::<A>),
            decode_all: A::VISITS.then_some(A::decode_all_bench),
            to_canonical: |input| A::to_canonical(&A::parse(input)?),
            write_bytes: A::WRITES.then_some(|input| A::write(&A::parse(input)?)),
            edit: None,
            write_edited: None,
            edit_canonical: None,
            edit_bytes: None,
        };
        if A::EDITS {
            peer.edits_with::<A>()
        } else {
            peer
        }
    }

    /// The same entry with its edit workload run on `E`'s tree: for a library
    /// whose mutable tree is not the one its `read` bench builds (hematite:
    /// `Blob` has no `get_mut` or `remove`, its `Value` has).
    pub fn edits_with<E: Adapter>(mut self) -> Peer {
        self.edit = E::WRITES.then_some(E::edit_bench);
        self.write_edited = E::WRITES.then_some(write_edited_bench::<E>);
        self.edit_canonical = Some(|input| E::to_canonical(&edited::<E>(input)?));
        self.edit_bytes = E::WRITES.then_some(|input| E::write(&edited::<E>(input)?));
        self
    }
}

/// The input parsed, with its [`EditScript`] applied (untimed).
fn edited<E: Adapter>(input: &[u8]) -> Result<E::Tree<'_>, String> {
    let script = EditScript::for_input(input)?;
    let mut tree = E::parse(input)?;
    E::edit(&mut tree, &script)?;
    Ok(tree)
}

/// The `write` bench: parses once (untimed), then each call writes that tree.
fn write_bench<A: Adapter>(input: &[u8]) -> Result<Bench<'_>, String> {
    let tree = A::parse(input)?;
    Ok(Box::new(move || {
        sink(A::write(black_box(&tree)));
    }))
}

/// An `edit` bench over a parse of the library's own: each call runs `parse`,
/// applies the input's edits (chosen once, untimed) and writes the tree. For
/// an [`Adapter::edit_bench`] whose timed parse is not [`Adapter::parse`]
/// (shen reads from a `&mut [u8]` copied once, as in its `read` bench).
pub fn edit_bench_with<'a, A: Adapter>(
    input: &'a [u8],
    mut parse: impl FnMut() -> Result<A::Tree<'a>, String> + 'a,
) -> Result<Bench<'a>, String> {
    let script = EditScript::for_input(input)?;
    // One untimed run: the edits apply and the tree writes.
    let mut tree = parse()?;
    A::edit(&mut tree, &script)?;
    A::write(&tree)?;
    drop(tree);
    Ok(Box::new(move || {
        if let Ok(mut tree) = parse() {
            let _ = A::edit(&mut tree, black_box(&script));
            sink(A::write(&tree));
        }
    }))
}

/// The `write_edited` bench: parses once and applies one edit (the input's
/// first insert: a new key in the root compound), untimed; then each call
/// writes that tree.
fn write_edited_bench<A: Adapter>(input: &[u8]) -> Result<Bench<'_>, String> {
    let full = EditScript::for_input(input)?;
    let one = EditScript {
        changes: Vec::new(),
        inserts: full.inserts.into_iter().take(1).collect(),
        removes: Vec::new(),
    };
    let mut tree = A::parse(input)?;
    A::edit(&mut tree, &one)?;
    A::write(&tree)?;
    Ok(Box::new(move || {
        sink(A::write(black_box(&tree)));
    }))
}

/// Marks a decoded string or converted array as used.
#[inline(always)]
pub fn sink<T>(v: T) {
    black_box(v);
}
