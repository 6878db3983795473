//! Helpers shared by the hostile-input tests: byte builders for crafted inputs,
//! "read with both readers and check they agree", and a small-stack runner.
#![allow(dead_code)]

use std::io::Cursor;

use simdnbt::{borrow, owned, Error, ReadOptions};

/// Stack size the "no recursion that input can drive" tests run on.
pub const SMALL_STACK: usize = 256 * 1024;

/// `0A 00 00` + `body` + `00`: NBT.md §4's `R(x)`, a root compound with an empty name.
pub fn r(body: &[u8]) -> Vec<u8> {
    let mut v = vec![0x0a, 0, 0];
    v.extend_from_slice(body);
    v.push(0);
    v
}

/// A named tag: id, u16 name length, name, payload.
pub fn named(id: u8, name: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut v = vec![id];
    v.extend_from_slice(&(name.len() as u16).to_be_bytes());
    v.extend_from_slice(name);
    v.extend_from_slice(payload);
    v
}

/// Concatenates byte pieces.
pub fn cat(pieces: &[&[u8]]) -> Vec<u8> {
    pieces.concat()
}

/// Runs `f` on a thread with a [`SMALL_STACK`] stack and returns its result;
/// a stack overflow there aborts the test binary, which fails the test run.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("small-stack".into())
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("small-stack thread panicked")
}

/// A container kind in a nesting chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Compound.
    C,
    /// List.
    L,
}

/// A chain of `depth` containers whose kinds repeat `pattern`
/// (`[C]` = pure compounds, `[L]` = pure lists, `[C, L]` = alternating, ...).
pub fn chain(pattern: &[Kind], depth: usize) -> Vec<Kind> {
    pattern.iter().copied().cycle().take(depth).collect()
}

fn id(k: Kind) -> u8 {
    match k {
        Kind::C => 10,
        Kind::L => 9,
    }
}

/// The payload of `kinds[0]` with `kinds[1]` inside it, and so on: a compound
/// holds its child under the name "c", a list holds exactly one element. The
/// innermost compound holds an Int, the innermost list is a list of two Bytes
/// (a list of scalars is a level too). Built without recursion.
pub fn chain_payload(kinds: &[Kind]) -> Vec<u8> {
    assert!(!kinds.is_empty());
    let mut prefix = Vec::with_capacity(kinds.len() * 5 + 16);
    let mut suffix = Vec::with_capacity(kinds.len());
    for w in kinds.windows(2) {
        match w[0] {
            Kind::C => {
                prefix.extend_from_slice(&[id(w[1]), 0, 1, b'c']);
                suffix.push(0);
            }
            Kind::L => prefix.extend_from_slice(&[id(w[1]), 0, 0, 0, 1]),
        }
    }
    match kinds[kinds.len() - 1] {
        Kind::C => prefix.extend_from_slice(&[3, 0, 1, b'x', 0, 0, 0, 42, 0]),
        Kind::L => prefix.extend_from_slice(&[1, 0, 0, 0, 2, 7, 8]),
    }
    suffix.reverse();
    prefix.extend_from_slice(&suffix);
    prefix
}

/// Disk form of a chain whose root is a compound: `0A 00 00` + payload.
pub fn chain_named(kinds: &[Kind]) -> Vec<u8> {
    assert_eq!(kinds[0], Kind::C);
    cat(&[&[0x0a, 0, 0], &chain_payload(kinds)])
}

/// Network (unnamed tag) form of any chain: id + payload.
pub fn chain_tag(kinds: &[Kind]) -> Vec<u8> {
    cat(&[&[id(kinds[0])], &chain_payload(kinds)])
}

/// Outcome of a whole-document read, in owned form, plus the cursor position
/// after the call (also on error).
pub type DocOutcome = (Result<owned::Nbt, Error>, u64);

fn show(o: &Result<impl Sized, Error>) -> String {
    match o {
        Ok(_) => "Ok(..)".into(),
        Err(e) => format!("Err({e:?})"),
    }
}

/// Reads `bytes` (disk form) with the borrow reader and with the owned reader
/// under `opts`, asserts that both give the same result (same value, or the
/// same error kind and offset) and leave the cursor at the same place, and
/// returns the owned outcome.
pub fn read_both_with(bytes: &[u8], opts: &ReadOptions) -> DocOutcome {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_with(&mut bc, opts).map(|n| n.to_owned());
    let mut oc = Cursor::new(bytes);
    let o = owned::read_with(&mut oc, opts);
    agree(&b, &o, "read_with");
    assert_eq!(bc.position(), oc.position(), "cursor after read_with");
    (o, oc.position())
}

/// [`read_both_with`] with default options; also checks `read` == `read_with(default)`.
pub fn read_both(bytes: &[u8]) -> DocOutcome {
    let with = read_both_with(bytes, &ReadOptions::default());
    let mut bc = Cursor::new(bytes);
    let b = borrow::read(&mut bc).map(|n| n.to_owned());
    let mut oc = Cursor::new(bytes);
    let o = owned::read(&mut oc);
    agree(&b, &o, "read");
    agree(&o, &with.0, "read vs read_with(default)");
    assert_eq!(bc.position(), oc.position(), "cursor after read");
    with
}

/// Network form (`read_unnamed`) with both readers; asserts agreement.
pub fn read_unnamed_both(bytes: &[u8]) -> DocOutcome {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_unnamed(&mut bc).map(|n| n.to_owned());
    let mut oc = Cursor::new(bytes);
    let o = owned::read_unnamed(&mut oc);
    agree(&b, &o, "read_unnamed");
    assert_eq!(bc.position(), oc.position(), "cursor after read_unnamed");
    (o, oc.position())
}

/// `read_tag` with both readers; asserts agreement.
pub fn read_tag_both(bytes: &[u8]) -> (Result<owned::NbtTag, Error>, u64) {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_tag(&mut bc).map(|t| t.as_tag().to_owned());
    let mut oc = Cursor::new(bytes);
    let o = owned::read_tag(&mut oc);
    agree(&b, &o, "read_tag");
    assert_eq!(bc.position(), oc.position(), "cursor after read_tag");
    (o, oc.position())
}

/// `read_optional_tag` with both readers; asserts agreement.
pub fn read_optional_tag_both(bytes: &[u8]) -> (Result<Option<owned::NbtTag>, Error>, u64) {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_optional_tag(&mut bc).map(|t| t.map(|t| t.as_tag().to_owned()));
    let mut oc = Cursor::new(bytes);
    let o = owned::read_optional_tag(&mut oc);
    agree(&b, &o, "read_optional_tag");
    assert_eq!(
        bc.position(),
        oc.position(),
        "cursor after read_optional_tag"
    );
    (o, oc.position())
}

/// `read_compound` (payload only) with both readers; asserts agreement.
pub fn read_compound_both(bytes: &[u8]) -> (Result<owned::NbtCompound, Error>, u64) {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_compound(&mut bc).map(|c| c.as_compound().to_owned());
    let mut oc = Cursor::new(bytes);
    let o = owned::read_compound(&mut oc);
    agree(&b, &o, "read_compound");
    assert_eq!(bc.position(), oc.position(), "cursor after read_compound");
    (o, oc.position())
}

/// Asserts two outcomes are equal without `Debug`-printing values (a deep
/// value's derived `Debug` recurses).
fn agree<T: PartialEq>(a: &Result<T, Error>, b: &Result<T, Error>, what: &str) {
    assert!(
        a == b,
        "{what}: borrow and owned readers disagree: {} vs {}",
        show(a),
        show(b)
    );
}

/// The error of an outcome; panics with context on `Ok`.
#[track_caller]
pub fn err<T>(o: &Result<T, Error>) -> Error {
    match o {
        Ok(_) => panic!("expected an error, got Ok"),
        Err(e) => *e,
    }
}

/// `n` compounds nested inside each other under the key "c" (the outermost
/// included), built without recursion.
pub fn deep_owned_compound(n: usize) -> owned::NbtCompound {
    let mut c = owned::NbtCompound::new();
    for _ in 1..n {
        let mut parent = owned::NbtCompound::new();
        parent.insert("c", c);
        c = parent;
    }
    c
}

/// `n` lists nested inside each other (the outermost included; the innermost
/// is a list of End), built without recursion.
pub fn deep_owned_list(n: usize) -> owned::NbtList {
    let mut l = owned::NbtList::Empty;
    for _ in 1..n {
        l = owned::NbtList::List(vec![l]);
    }
    l
}

/// A zlib stream that claims `mib` MiB of zeros, built without ever holding
/// them: the same flushed deflate block of 1 MiB of zeros, repeated (it only
/// refers back to zeros, so every copy is valid). It has no end, so only the
/// cap can stop it before the input runs out.
#[cfg(feature = "compression")]
pub fn zlib_bomb(mib: usize) -> Vec<u8> {
    use flate2::{Compress, FlushCompress};
    let zeros = vec![0u8; 1 << 20];
    let mut stream = Compress::new(flate2::Compression::best(), true);
    let mut head = Vec::with_capacity(1 << 16);
    stream
        .compress_vec(&zeros, &mut head, FlushCompress::Sync)
        .unwrap();
    let mut block = Vec::with_capacity(1 << 16);
    stream
        .compress_vec(&zeros, &mut block, FlushCompress::Sync)
        .unwrap();
    let mut bomb = head;
    for _ in 1..mib {
        bomb.extend_from_slice(&block);
    }
    bomb
}
