//! Every depth the reader accepts (512) deserializes on a 256 KiB thread,
//! whatever the visitor: `serde_json::Value` recurses once per level and
//! takes about 3.7 KiB of stack per level in a debug build (0.8 KiB in
//! release), 1.9 MiB (400 KiB) for 512 levels; the deserializer moves a deep visitor
//! onto new stack segments (`serde/de/mod.rs`). One level more is the
//! reader's depth error, however deep the input goes on.

use serde::Deserialize;
use serde::de::IgnoredAny;
use simdnbt::ErrorKind;
use simdnbt::owned::BaseNbt;
use simdnbt::serde::from_slice;

const SMALL_STACK: usize = 256 * 1024;

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// `{"": {"": ...}}`: `depth` compounds counting the root.
fn deep_compounds(depth: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0];
    for _ in 1..depth {
        out.extend_from_slice(&[10, 0, 0]);
    }
    out.extend(std::iter::repeat_n(0, depth));
    out
}

/// `{"": [[[...]]]}`: lists of lists, `depth` deep counting the root.
fn deep_lists(depth: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0, 9, 0, 0];
    for _ in 2..depth {
        out.extend_from_slice(&[9, 0, 0, 0, 1]); // a List of List, one element
    }
    out.extend_from_slice(&[1, 0, 0, 0, 1, 7]); // the innermost: a List of Byte [7]
    out.push(0);
    out
}

fn depth_error<T>(r: Result<T, simdnbt::serde::Error>) {
    let Err(e) = r else {
        panic!("a document too deep was read")
    };
    let read = e.read_error().expect("the reader's error");
    assert_eq!(read.kind(), ErrorKind::MaxDepthExceeded);
}

/// Depth of a `serde_json::Value` of nested objects and arrays.
fn json_depth(v: &serde_json::Value) -> usize {
    let mut depth = 0;
    let mut v = v;
    loop {
        depth += 1;
        v = match v {
            serde_json::Value::Object(m) => match m.values().next() {
                Some(v) => v,
                None => return depth,
            },
            serde_json::Value::Array(a) => match a.first() {
                Some(v) => v,
                None => return depth,
            },
            _ => return depth - 1,
        };
    }
}

#[test]
fn depth_512_into_json_value_on_a_256_kib_thread() {
    on_small_stack(|| {
        // Dropping a 512-deep `Value` recurses too (serde_json's own
        // `Drop`, not a deserializer's matter): these are forgotten.
        let v: serde_json::Value = from_slice(&deep_compounds(512)).unwrap();
        assert_eq!(json_depth(&v), 512);
        std::mem::forget(v);
        let v: serde_json::Value = from_slice(&deep_lists(512)).unwrap();
        // The innermost list of bytes counts as a level, its byte not.
        assert_eq!(json_depth(&v), 512);
        std::mem::forget(v);
        depth_error(from_slice::<serde_json::Value>(&deep_compounds(513)));
        depth_error(from_slice::<serde_json::Value>(&deep_lists(513)));
        // The input: refused at depth 513, not a stack overflow.
        depth_error(from_slice::<serde_json::Value>(&deep_compounds(100_000)));
        depth_error(from_slice::<serde_json::Value>(&deep_lists(100_000)));
    });
}

#[test]
fn depth_512_into_ignored_any_and_the_owned_tree_on_a_256_kib_thread() {
    on_small_stack(|| {
        for bytes in [deep_compounds(512), deep_lists(512)] {
            from_slice::<IgnoredAny>(&bytes).unwrap();
            let root: BaseNbt = from_slice(&bytes).unwrap();
            assert!(root.get("").is_some());
        }
        for bytes in [deep_compounds(100_000), deep_lists(100_000)] {
            depth_error(from_slice::<IgnoredAny>(&bytes));
            depth_error(from_slice::<BaseNbt>(&bytes));
        }
    });
}

/// A recursive type of the user's, externally tagged: `{"Some": {"Some":
/// ... {"None": {}}}}` (enum variants nest through `visit_enum`, not maps).
#[derive(Deserialize)]
enum Chain {
    Some(Box<Chain>),
    None {},
}

impl Chain {
    fn len(&self) -> usize {
        let mut n = 0;
        let mut c = self;
        while let Chain::Some(next) = c {
            n += 1;
            c = next;
        }
        n
    }
}

#[derive(Deserialize)]
struct Root {
    c: Chain,
}

fn chain(links: usize) -> Vec<u8> {
    let mut out = vec![10, 0, 0, 10, 0, 1, b'c'];
    for _ in 0..links {
        out.extend_from_slice(&[10, 0, 4]);
        out.extend_from_slice(b"Some");
    }
    out.extend_from_slice(&[10, 0, 4]);
    out.extend_from_slice(b"None");
    out.extend(std::iter::repeat_n(0, links + 3));
    out
}

#[test]
fn a_510_link_recursive_enum_on_a_256_kib_thread() {
    on_small_stack(|| {
        // Root, `c`, 509 links and the `None` compound: 512 levels.
        let root: Root = from_slice(&chain(509)).unwrap();
        assert_eq!(root.c.len(), 509);
        std::mem::forget(root);
        depth_error(from_slice::<Root>(&chain(510)));
    });
}
