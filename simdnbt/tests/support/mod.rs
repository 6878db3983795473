//! Helpers shared by the hostile-input tests: the workspace test kit's byte
//! builders (`testkit::bytes`), "read with both readers and check they agree",
//! and a small-stack runner.
#![allow(dead_code)]

use std::io::Cursor;

use simdnbt::{Error, ReadOptions, borrow, owned};

/// Stack size the "no recursion that input can drive" tests run on.
pub const SMALL_STACK: usize = 256 * 1024;

#[allow(unused_imports)] // not every test binary uses the builders
pub use testkit::bytes::*;

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
    let o = owned::read_tag(&mut oc).map_err(Error::from);
    agree(&b, &o, "read_tag");
    assert_eq!(bc.position(), oc.position(), "cursor after read_tag");
    (o, oc.position())
}

/// `read_optional_tag` with both readers; asserts agreement.
pub fn read_optional_tag_both(bytes: &[u8]) -> (Result<Option<owned::NbtTag>, Error>, u64) {
    let mut bc = Cursor::new(bytes);
    let b = borrow::read_optional_tag(&mut bc).map(|t| t.map(|t| t.as_tag().to_owned()));
    let mut oc = Cursor::new(bytes);
    let o = owned::read_optional_tag(&mut oc).map_err(Error::from);
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
    let o = owned::read_compound(&mut oc).map_err(Error::from);
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
