//! Unit tests of what the storage does (the differential tests against the
//! owned tree are in `tests/document.rs`, through the test kit).

use std::io::Cursor;

use super::edit::EditError;
use super::{Document, Framing};
use crate::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};

fn doc_of(c: NbtCompound) -> Document {
    Document::from_owned(&BaseNbt::new("", c)).unwrap()
}

fn dirty(doc: &Document) -> usize {
    doc.nodes.iter().filter(|n| n.is_dirty()).count()
}

/// {a: {b: {n: 1, s: "xy", arr: [I; 1, 2]}, l: [1, 2]}, z: 0L}
fn nested() -> Document {
    let mut b = NbtCompound::new();
    b.insert("n", 1);
    b.insert("s", "xy");
    b.insert("arr", NbtTag::IntArray(vec![1, 2]));
    let mut a = NbtCompound::new();
    a.insert("b", b);
    a.insert("l", NbtList::Int(vec![1, 2]));
    let mut root = NbtCompound::new();
    root.insert("a", a);
    root.insert("z", 0i64);
    doc_of(root)
}

#[test]
fn same_size_edits_are_in_place_and_keep_every_container_clean() {
    let mut doc = nested();
    let before = (doc.bytes.len(), doc.nodes.len());
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut a = root.compound_mut("a").unwrap();
        let mut b = a.compound_mut("b").unwrap();
        b.set("n", 7).unwrap();
        b.set("s", "zw").unwrap();
        b.set("arr", NbtTag::IntArray(vec![3, 4])).unwrap();
        let mut arr = b.int_array_mut("arr").unwrap();
        arr.set(1, 9).unwrap();
        let mut l = a.list_mut("l").unwrap();
        l.set(0, 5).unwrap();
    }
    assert_eq!(
        (doc.bytes.len(), doc.nodes.len()),
        before,
        "nothing appended"
    );
    assert_eq!(dirty(&doc), 0, "no container needs walking");
    let b = doc.compound("a").unwrap().compound("b").unwrap();
    assert_eq!(b.int("n"), Some(7));
    assert_eq!(b.string("s").unwrap().to_str(), "zw");
    assert_eq!(b.int_array("arr"), Some(vec![3, 9]));
    assert_eq!(
        doc.compound("a").unwrap().list("l").unwrap().ints(),
        Some(vec![5, 2])
    );
}

#[test]
fn a_moved_value_dirties_exactly_the_containers_above_it() {
    let mut doc = nested();
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut a = root.compound_mut("a").unwrap();
        let mut b = a.compound_mut("b").unwrap();
        b.set("s", "a longer string").unwrap();
    }
    // root, a, b; not the list `l`.
    assert_eq!(dirty(&doc), 3);
    let back = crate::owned::read(&mut Cursor::new(&doc.to_bytes()[..]))
        .unwrap()
        .unwrap();
    let b = back.compound("a").unwrap().compound("b").unwrap();
    assert_eq!(b.string("s").unwrap().to_str(), "a longer string");
    assert_eq!(b.int("n"), Some(1));
}

#[test]
fn repeated_pushes_grow_the_block_in_place() {
    let mut root = NbtCompound::new();
    root.insert("l", NbtList::Compound(vec![NbtCompound::new()]));
    root.insert("after", 1);
    let mut doc = doc_of(root);
    let mut c = NbtCompound::new();
    c.insert("x", 1);
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut l = root.list_mut("l").unwrap();
        for _ in 0..1000 {
            l.push(c.clone()).unwrap();
        }
    }
    // 1000 pushes of a one-child compound: the element block moved about
    // log2(1000) times, not 1000 (each move copies the block).
    assert!(doc.nodes.len() < 6000, "{} nodes", doc.nodes.len());
    assert_eq!(doc.list("l").unwrap().len(), 1001);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "20,000 edits; safe code (the unsafe scratch stack is in tests/miri.rs)"
)]
fn compaction_while_a_nested_handle_is_live_keeps_it_on_its_container() {
    let mut doc = nested();
    let mut root = doc.as_compound_mut().unwrap();
    let mut a = root.compound_mut("a").unwrap();
    let mut b = a.compound_mut("b").unwrap();
    let mut compactions = 0;
    let mut last = b.doc.settled;
    for i in 0..20_000usize {
        // Alternate lengths so that nothing is written in place.
        let s = "x".repeat(10 + i % 7);
        b.set("s", s.as_str()).unwrap();
        if b.doc.settled != last {
            compactions += 1;
            last = b.doc.settled;
        }
        assert_eq!(b.as_compound().string("s").unwrap().to_str(), s);
        assert!(b.doc.bytes.len() <= 4 * b.doc.settled.0 as usize + 64 * 1024 + 64);
    }
    assert!(compactions > 0);
    b.set("n", 2).unwrap();
    a.set("m", 3).unwrap();
    root.set("z", 4i64).unwrap();
    let a = doc.compound("a").unwrap();
    assert_eq!(
        (a.int("m"), a.compound("b").unwrap().int("n")),
        (Some(3), Some(2))
    );
    assert_eq!(doc.long("z"), Some(4));
}

/// What edits cost a document: the bytes and nodes (16 bytes each) they
/// appended, and the compactions and the bytes and nodes each left.
#[derive(Default, Debug)]
struct Work {
    last: (usize, usize, (u32, u32)),
    appended: usize,
    compactions: usize,
    compacted: usize,
}

impl Work {
    fn new(doc: &Document) -> Work {
        Work {
            last: (doc.bytes.len(), doc.nodes.len(), doc.settled),
            ..Work::default()
        }
    }

    /// Counts what the edits since the last call did to `doc`.
    fn see(&mut self, doc: &Document) {
        let now = (doc.bytes.len(), doc.nodes.len(), doc.settled);
        if now.2 != self.last.2 {
            self.compactions += 1;
            self.compacted += now.0 + 16 * now.1;
        } else {
            self.appended += now.0.saturating_sub(self.last.0);
            self.appended += 16 * now.1.saturating_sub(self.last.1);
        }
        self.last = now;
    }

    /// All of it, in bytes written.
    fn total(&self) -> usize {
        self.appended + self.compacted
    }
}

/// `pushes` values from `value(i)` pushed into a list (or, with `key`, a
/// compound) two levels down, {c: {l: ...}}, holding one element at first;
/// returns what it cost.
fn push_nested(
    pushes: usize,
    compound: bool,
    first: NbtTag,
    value: impl Fn(usize) -> NbtTag,
) -> (Document, Work) {
    let mut c = NbtCompound::new();
    if compound {
        let mut l = NbtCompound::new();
        l.insert("k0", first);
        c.insert("l", l);
    } else {
        c.insert("l", NbtList::from(vec![first]));
    }
    // Something after the list in the bytes and in the arena, so that
    // nothing the pushes grow is last in either.
    c.insert("after", "tail");
    let mut root = NbtCompound::new();
    root.insert("c", c);
    root.insert("z", 1);
    let mut doc = doc_of(root);
    let mut work = Work::new(&doc);
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        if compound {
            let mut l = c.compound_mut("l").unwrap();
            for i in 0..pushes {
                l.push(&format!("k{}", i + 1), value(i)).unwrap();
                work.see(l.doc);
                // Quadratic work shows long before the end: stop there.
                assert!(work.total() < 400 * (i + 1000), "push {i}: {work:?}");
            }
        } else {
            let mut l = c.list_mut("l").unwrap();
            for i in 0..pushes {
                l.push(value(i)).unwrap();
                work.see(l.doc);
                assert!(work.total() < 400 * (i + 1000), "push {i}: {work:?}");
            }
        }
    }
    (doc, work)
}

#[test]
#[cfg_attr(miri, ignore = "100,000 edits of safe code")]
fn pushes_into_nested_containers_cost_amortized_o1() {
    const N: usize = 100_000;
    // Each push writes its value once, and moves or compacts about as much
    // again over time: a few hundred bytes each at most, all counted.
    let (doc, work) = push_nested(N, false, NbtTag::String("s".into()), |i| {
        NbtTag::String(format!("s{}", i % 10).into())
    });
    let l = doc.compound("c").unwrap().list("l").unwrap();
    assert_eq!(l.len(), N + 1);
    assert_eq!(
        l.strings().unwrap().get(N).unwrap().to_str(),
        format!("s{}", (N - 1) % 10)
    );
    assert!(work.compactions <= 20, "strings: {work:?}");

    let (doc, work) = push_nested(N, false, NbtTag::Int(-1), |i| NbtTag::Int(i as i32));
    let ints = doc
        .compound("c")
        .unwrap()
        .list("l")
        .unwrap()
        .ints()
        .unwrap();
    assert_eq!(ints.len(), N + 1);
    assert!(ints[1..].iter().enumerate().all(|(i, &v)| v == i as i32));
    assert!(work.compactions <= 20, "ints: {work:?}");

    let mut one = NbtCompound::new();
    one.insert("x", 1i8);
    let (doc, work) = push_nested(N, false, NbtTag::Compound(one.clone()), |i| {
        let mut c = NbtCompound::new();
        c.insert("x", i as i8);
        NbtTag::Compound(c)
    });
    let l = doc.compound("c").unwrap().list("l").unwrap();
    let l = l.compounds().unwrap();
    assert_eq!(l.len(), N + 1);
    assert_eq!(l.get(N).unwrap().byte("x"), Some((N - 1) as i8));
    assert!(work.compactions <= 20, "compounds: {work:?}");

    let (doc, work) = push_nested(N, true, NbtTag::Long(0), |i| NbtTag::Long(i as i64));
    let c = doc.compound("c").unwrap().compound("l").unwrap();
    assert_eq!(c.len(), N + 1);
    assert_eq!(c.long(&format!("k{N}")), Some(N as i64 - 1));
    assert!(work.compactions <= 20, "compound: {work:?}");
    // The document compacted down: what it holds is its contents, not
    // the garbage of every move.
    assert_eq!(doc.to_bytes(), {
        let mut d = doc.clone();
        d.compact();
        d.to_bytes()
    });
}

#[test]
fn a_pushed_list_of_numbers_keeps_its_room_through_other_edits() {
    let (mut doc, _) = push_nested(5, false, NbtTag::Short(7), |i| NbtTag::Short(i as i16));
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        let mut l = c.list_mut("l").unwrap();
        // Room for 8: fill it, remove, set, push past it.
        l.push(5i16).unwrap();
        l.push(6i16).unwrap();
        assert!(l.remove(0));
        l.set(0, 100i16).unwrap();
        for v in 7..20i16 {
            l.push(v).unwrap();
        }
        l.insert(1, -1i16).unwrap();
        l.push(20i16).unwrap();
    }
    c_l_shorts_are(
        &doc,
        &[
            100, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        ],
    );
    let back = crate::owned::read(&mut Cursor::new(&doc.to_bytes()[..]))
        .unwrap()
        .unwrap();
    assert_eq!(
        back.compound("c")
            .unwrap()
            .string("after")
            .unwrap()
            .to_str(),
        "tail"
    );
    doc.compact();
    c_l_shorts_are(
        &doc,
        &[
            100, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
        ],
    );
}

/// Pushes alternating between two arrays, neither last in the bytes: each
/// grows in its room (they were moved to the end at every push, a copy of
/// the whole array each time).
#[test]
#[cfg_attr(miri, ignore = "100,000 edits of safe code")]
fn alternating_array_pushes_cost_amortized_o1() {
    let mut c = NbtCompound::new();
    c.insert("a", NbtTag::IntArray(vec![-1]));
    c.insert("b", NbtTag::LongArray(vec![]));
    let mut root = NbtCompound::new();
    root.insert("c", c);
    let mut doc = doc_of(root);
    let mut work = Work::new(&doc);
    const N: usize = 50_000;
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        for i in 0..N {
            c.int_array_mut("a").unwrap().push(i as i32).unwrap();
            work.see(c.doc);
            c.long_array_mut("b").unwrap().push(-(i as i64)).unwrap();
            work.see(c.doc);
            assert!(work.total() < 400 * (i + 1000), "push {i}: {work:?}");
            if i == 10 {
                c.int_array_mut("a").unwrap().truncate(5);
                c.int_array_mut("a").unwrap().set(4, 44).unwrap();
            }
        }
    }
    let c = doc.compound("c").unwrap();
    let a = c.int_array("a").unwrap();
    let b = c.long_array("b").unwrap();
    assert_eq!(&a[..6], [-1, 0, 1, 2, 44, 11]);
    assert_eq!(a.len(), 5 + N - 11);
    assert!(a[5..].iter().enumerate().all(|(k, &v)| v == 11 + k as i32));
    assert!(b.len() == N && b.iter().enumerate().all(|(k, &v)| v == -(k as i64)));
    let back = crate::owned::read(&mut Cursor::new(&doc.to_bytes()[..]))
        .unwrap()
        .unwrap();
    assert_eq!(back.compound("c").unwrap().int_array("a"), Some(&a[..]));
}

fn c_l_shorts_are(doc: &Document, want: &[i16]) {
    let l = doc.compound("c").unwrap().list("l").unwrap();
    assert_eq!(l.shorts().unwrap(), want);
}

/// A compound nested `levels` deep under "c" (the root counts).
fn chain(levels: usize) -> Document {
    let mut c = NbtCompound::new();
    for _ in 1..levels {
        let mut outer = NbtCompound::new();
        outer.insert("c", c);
        c = outer;
    }
    doc_of(c)
}

/// Walks `levels - 1` steps down "c" and runs `f` on that handle.
fn at_depth<T>(
    doc: &mut Document,
    levels: usize,
    f: impl FnOnce(&mut super::NbtCompoundMut<'_>) -> T,
) -> T {
    fn go<T>(
        h: &mut super::NbtCompoundMut<'_>,
        left: usize,
        f: impl FnOnce(&mut super::NbtCompoundMut<'_>) -> T,
    ) -> T {
        if left == 0 {
            return f(h);
        }
        go(&mut h.compound_mut("c").unwrap(), left - 1, f)
    }
    go(&mut doc.as_compound_mut().unwrap(), levels - 1, f)
}

#[test]
fn edits_keep_the_depth_limit() {
    let mut doc = chain(511);
    let before = doc.to_bytes();
    // At level 511 a compound (level 512) fits, a list of lists does not.
    let r = at_depth(&mut doc, 511, |h| {
        h.set("deeper", NbtTag::List(NbtList::List(vec![NbtList::Empty])))
    });
    assert_eq!(r, Err(EditError::MaxDepthExceeded));
    assert_eq!(doc.to_bytes(), before);
    at_depth(&mut doc, 511, |h| h.set("c2", NbtCompound::new())).unwrap();
    // At level 512 nothing nested fits, a number does.
    let r = at_depth(&mut doc, 511, |h| {
        h.compound_mut("c2").unwrap().set("x", NbtList::Empty)
    });
    assert_eq!(r, Err(EditError::MaxDepthExceeded));
    at_depth(&mut doc, 511, |h| h.compound_mut("c2").unwrap().set("n", 1)).unwrap();
    // The document reads back within the default limit.
    assert!(crate::borrow::read(&mut Cursor::new(&doc.to_bytes()[..])).is_ok());
}

#[test]
#[cfg_attr(
    miri,
    ignore = "a length check in safe code over 80 KB strings: slow under Miri"
)]
fn strings_and_keys_past_65535_bytes_are_refused_and_change_nothing() {
    let mut doc = nested();
    let before = doc.to_bytes();
    let long = "é".repeat(40_000); // 80,000 bytes
    let mut root = doc.as_compound_mut().unwrap();
    assert_eq!(
        root.set("z", long.as_str()),
        Err(EditError::StringTooLong { len: 80_000 })
    );
    assert_eq!(
        root.set(&long, 1),
        Err(EditError::StringTooLong { len: 80_000 })
    );
    let mut c = NbtCompound::new();
    c.insert("ok", 1);
    c.insert("bad", long.as_str());
    assert!(root.insert("c", c).is_err());
    assert_eq!(doc.to_bytes(), before);
    assert_eq!((doc.bytes.len(), dirty(&doc)), (before.len(), 0));
}

#[test]
fn lists_keep_their_element_type() {
    let mut root = NbtCompound::new();
    root.insert("ints", NbtList::Int(vec![1]));
    root.insert("typed_empty", NbtList::String(vec![]));
    root.insert("untyped", NbtList::Empty);
    let mut doc = doc_of(root);
    let mut root = doc.as_compound_mut().unwrap();
    let wrong = |expected, found| Err(EditError::WrongType { expected, found });
    assert_eq!(root.list_mut("ints").unwrap().push("s"), wrong(3, 8));
    assert_eq!(root.list_mut("typed_empty").unwrap().push(1), wrong(8, 3));
    root.list_mut("untyped")
        .unwrap()
        .push(NbtCompound::new())
        .unwrap();
    assert_eq!(root.list_mut("untyped").unwrap().push(1), wrong(10, 3));
    let mut l = root.list_mut("ints").unwrap();
    assert!(l.remove(0));
    assert_eq!(l.push("s"), wrong(3, 8), "an emptied list keeps its type");
    let back = crate::owned::read(&mut Cursor::new(&doc.to_bytes()[..]))
        .unwrap()
        .unwrap();
    assert_eq!(back.list("untyped").unwrap().compounds().unwrap().len(), 1);
    assert_eq!(back.list("ints").unwrap(), &NbtList::Int(vec![]));
}

#[test]
fn forms_and_names() {
    let mut doc = nested();
    assert_eq!(doc.form(), Framing::Named);
    let named = doc.to_bytes();
    let mut unnamed = Vec::new();
    doc.write_as(Framing::Unnamed, &mut unnamed);
    assert_eq!(unnamed[0], 10);
    assert_eq!(unnamed[1..], named[3..]);
    doc.set_name("Player").unwrap();
    let renamed = doc.to_bytes();
    assert_eq!(&renamed[1..9], b"\0\x06Player");
    assert_eq!(renamed[9..], named[3..]);
    let mut u = super::read_unnamed(&mut Cursor::new(&unnamed[..]))
        .unwrap()
        .unwrap();
    assert_eq!(u.name().as_bytes(), b"");
    u.set_form(Framing::Named);
    assert_eq!(u.to_bytes(), named);
}

/// The one-word key compare against plain byte equality: keys of every
/// length around the word's 6 name bytes, names that differ only in their
/// length, first, sixth, seventh or last byte, names at the very end of the
/// bytes (an entry an edit appended last: no 8 bytes to load), and NUL keys.
#[test]
fn key_lookup_finds_exactly_the_equal_name() {
    let mut names: Vec<String> = Vec::new();
    for len in 0..=18usize {
        let base: String = (0..len).map(|i| (b'a' + i as u8) as char).collect();
        names.push(base.clone());
        for at in [0, 5, 6, 7, len.saturating_sub(1)] {
            if at < len {
                let mut b = base.clone().into_bytes();
                b[at] = b'Z';
                names.push(String::from_utf8(b).unwrap());
            }
        }
    }
    names.sort();
    names.dedup();
    let mut root = NbtCompound::new();
    for (i, n) in names.iter().enumerate() {
        root.insert(n.as_str(), i as i8);
    }
    root.insert("nul\0key", 100i8);
    let mut doc = doc_of(root);
    // Appended last, with nothing after them: the short-tail path.
    for (k, n) in ["tail", "t", ""].iter().enumerate() {
        doc.as_compound_mut()
            .unwrap()
            .push(n, 101 + k as i8)
            .unwrap();
    }
    let check = |doc: &Document| {
        let c = doc.as_compound().unwrap();
        for (i, n) in names.iter().enumerate() {
            let want = if n.is_empty() { 103 } else { i as i8 };
            assert_eq!(c.byte(n), Some(want), "{n:?}");
            let longer = format!("{n}q");
            if !names.contains(&longer) {
                assert_eq!(c.get(&longer).map(|t| t.id()), None, "{longer:?}");
            }
        }
        assert_eq!(c.byte("nul\0key"), Some(100));
        assert_eq!(c.byte("nul\0ke"), None);
        assert_eq!(c.byte("tail"), Some(101));
        assert_eq!(c.byte("t"), Some(102));
        assert_eq!(c.byte("tai"), None);
        assert_eq!(c.byte(&"x".repeat(70_000)), None);
    };
    check(&doc);
    // A mutable lookup hashes the names; lookups then go through the hashes.
    assert!(!doc.as_compound_mut().unwrap().remove("no such key"));
    assert!(doc.nodes[0].is_hashed());
    check(&doc);
    // Edits keep the hashes: a replaced value, a new key, a moved block.
    let mut root = doc.as_compound_mut().unwrap();
    root.insert("abc", "now a string").unwrap();
    root.insert("fresh", 7i8).unwrap();
    root.set("abcdefghijk", 1i64).unwrap();
    let c = doc.as_compound().unwrap();
    assert_eq!(c.string("abc").unwrap().to_str(), "now a string");
    assert_eq!(c.byte("fresh"), Some(7));
    assert_eq!(c.long("abcdefghijk"), Some(1));
    let c = doc.as_compound().unwrap();
    // remove: every entry of the key, the others kept in order.
    let before = c.len();
    let mut root = doc.as_compound_mut().unwrap();
    assert!(root.remove(""));
    assert!(!root.remove(""));
    assert!(root.remove("abcdefg"));
    let c = doc.as_compound().unwrap();
    assert_eq!(c.len(), before - 3);
    assert_eq!(
        c.byte("abcdefgh"),
        names.iter().position(|n| n == "abcdefgh").map(|i| i as i8)
    );
    assert_eq!(c.byte("tail"), Some(101));
}

/// Keys that are not plain ASCII (NUL, non-ASCII at every position of every
/// length the word check covers) are encoded, and found.
#[test]
fn keys_of_every_length_with_nul_or_non_ascii_anywhere_are_found() {
    // Past 16 bytes the ASCII check goes a word at a time: several words.
    let longest = if cfg!(miri) { 18 } else { 41 };
    for len in 1..=longest {
        for at in 0..len {
            for odd in ['\0', 'é', '\u{1f600}', '\u{7f}'] {
                let mut key: Vec<char> = (0..len).map(|i| (b'a' + i as u8) as char).collect();
                key[at] = odd;
                let key: String = key.into_iter().collect();
                let mut root = NbtCompound::new();
                root.insert(key.as_str(), 1i8);
                root.insert("other", 2i8);
                let doc = doc_of(root);
                assert_eq!(doc.byte(&key), Some(1), "{key:?}");
            }
        }
    }
}

/// An untyped empty list refusing its first element (a string too long)
/// stays a valid empty list: the document writes what it wrote before.
#[test]
fn an_empty_list_refusing_its_first_element_is_unchanged() {
    let mut root = NbtCompound::new();
    root.insert("l", NbtList::Empty);
    root.insert("k", "v");
    let mut doc = doc_of(root);
    // A new key: the root is walked by the writer, not copied whole.
    doc.as_compound_mut().unwrap().insert("new", 1).unwrap();
    let before = doc.to_bytes();
    let mut h = doc.as_compound_mut().unwrap();
    let mut l = h.list_mut("l").unwrap();
    assert!(matches!(
        l.push("s".repeat(70_000).as_str()),
        Err(EditError::StringTooLong { .. })
    ));
    assert_eq!(doc.to_bytes(), before);
}

/// The little-endian read's string check: every length, every position of
/// an odd byte in it, and bytes just outside the string (which must not
/// count), near the input's end (the byte loop) and far from it (the SSE2
/// compare and its mask).
#[test]
fn the_utf8_check_finds_exactly_the_bytes_mutf8_writes_otherwise() {
    use super::build::differs_in_mutf8;
    let odd = [0x00u8, 0xf0, 0xf4, 0xff];
    let plain = [b'a', 0x7f, 0x80, 0xc3, 0xef];
    // Under Miri (which runs this on three targets) the lengths and tails
    // around the 16-byte compare's edges, and the odd byte at the string's
    // first, middle and last place: ~1/40 of the cases.
    let lens: Vec<usize> = if cfg!(miri) {
        vec![0, 1, 2, 15, 16, 17, 31, 32, 33, 39]
    } else {
        (0..40).collect()
    };
    let tails: &[usize] = if cfg!(miri) {
        &[0, 15, 17]
    } else {
        &[0, 1, 15, 16, 17, 40]
    };
    for len in lens {
        for &tail in tails {
            // One byte before the string, the string, `tail` bytes after:
            // the bytes outside it are odd, so only its own may count.
            let mut data = vec![0u8; 1 + len + tail];
            for (i, b) in data[1..1 + len].iter_mut().enumerate() {
                *b = plain[i % plain.len()];
            }
            assert!(!differs_in_mutf8(&data, 1, len), "len {len}, tail {tail}");
            let places: Vec<usize> = if cfg!(miri) {
                let mut p = vec![0, len / 2, len.saturating_sub(1)];
                p.dedup();
                p.retain(|&at| at < len);
                p
            } else {
                (0..len).collect()
            };
            for at in places {
                for &b in &odd {
                    let mut d = data.clone();
                    d[1 + at] = b;
                    assert!(
                        differs_in_mutf8(&d, 1, len),
                        "len {len} tail {tail} at {at} {b:#x}"
                    );
                }
            }
        }
    }
}

/// A little-endian read through the SSE2 string check and back (Miri-sized:
/// names and strings far from and within 16 bytes of the input's end, one
/// that needs converting).
#[cfg(feature = "bedrock")]
#[test]
fn a_little_endian_document_reads_and_writes_back() {
    let mut c = NbtCompound::new();
    c.insert("name", "Steve");
    c.insert("a_longer_name_than_sixteen", 1i32);
    c.insert("l", NbtList::String(vec!["x".into(), "yz".into()]));
    c.insert("z", "end");
    for extra in [None, Some("nul\0")] {
        let mut c = c.clone();
        if let Some(s) = extra {
            c.insert("odd", s);
        }
        let nbt = crate::owned::Nbt::Some(BaseNbt::new("", c));
        let mut le = Vec::new();
        crate::bedrock::owned::write_le(&nbt, &mut le).unwrap();
        let doc = crate::bedrock::document::read_le(&mut Cursor::new(&le[..]))
            .unwrap()
            .unwrap();
        assert_eq!(doc.string("name").unwrap().to_str(), "Steve");
        assert_eq!(doc.int("a_longer_name_than_sixteen"), Some(1));
        assert_eq!(doc.to_owned_nbt(), nbt);
        assert_eq!(doc.to_bytes(), le);
    }
}

/// `levels` compounds, each {before: level, c: {…}, after: level as Short};
/// the innermost holds `inner`'s entries.
fn sided_chain(levels: usize, inner: NbtCompound) -> NbtCompound {
    let mut c = inner;
    for level in (1..levels).rev() {
        let mut outer = NbtCompound::new();
        outer.insert("before", level as i32);
        outer.insert("c", c);
        outer.insert("after", level as i16);
        c = outer;
    }
    c
}

#[test]
fn an_edit_below_the_writers_inline_stack_writes_every_level_around_it() {
    // Deeper than the writer's inline frames (16): every level is dirty,
    // and each must be written with its siblings on both sides and its End.
    for levels in [2, 16, 17, 18, 40] {
        let mut doc = doc_of(sided_chain(levels, NbtCompound::new()));
        at_depth(&mut doc, levels, |h| h.set("x", 7i8)).unwrap();
        let mut inner = NbtCompound::new();
        inner.insert("x", 7i8);
        let mut expected = Vec::new();
        BaseNbt::new("", sided_chain(levels, inner))
            .write(&mut expected)
            .unwrap();
        assert_eq!(doc.to_bytes(), expected, "{levels} levels");
    }
}

/// A network input whose Java form passes the limit is `InputTooLarge` at
/// the input offset where it does, found while transcoding (the real limit,
/// 2 GiB, in `tests/formats/bedrock_network_document.rs`), not a panic.
#[cfg(feature = "bedrock")]
#[test]
fn a_network_input_past_the_size_limit_in_java_is_an_error() {
    use crate::ErrorKind;
    let java = {
        let mut c = NbtCompound::new();
        c.insert("a", "x".repeat(100));
        c.insert("l", NbtList::Long(vec![0; 50]));
        let mut inner = NbtCompound::new();
        inner.insert("s", NbtList::String(vec!["yy".into(); 30]));
        c.insert("c", NbtList::Compound(vec![inner; 4]));
        let mut v = Vec::new();
        BaseNbt::new("", c).write(&mut v).unwrap();
        v
    };
    let net = crate::bedrock::to_network(&java).unwrap();
    let read = |limit: usize| {
        super::bedrock::read_network_within(&mut Cursor::new(&net[..]), &Default::default(), limit)
    };
    // Exactly its size reads; any less is refused, never with a panic.
    assert!(read(java.len()).unwrap().unwrap().to_bytes() == net);
    let mut offsets = Vec::new();
    for limit in (0..java.len()).rev() {
        let e = read(limit).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InputTooLarge, "limit {limit}");
        assert!(e.offset() <= net.len(), "limit {limit}: {e}");
        offsets.push(e.offset());
    }
    // Found while transcoding, where the output passes the limit (at the
    // end only when the last bytes pass it), not once the input is read.
    assert_eq!(offsets.last(), Some(&2), "{offsets:?}");
    assert!(offsets[offsets.len() / 2] < net.len() / 2, "{offsets:?}");
}

/// A written value past what a document holds is an error, not a panic:
/// the conversions from the borrow and owned models reach this with a
/// value read from or built past 2 GiB. (The zeroed vector is never
/// touched past its first page: no memory is used for the rest.)
#[test]
#[cfg(target_pointer_width = "64")]
#[cfg_attr(miri, ignore = "a 2 GiB allocation")]
fn a_written_value_past_2_gib_is_an_error() {
    let n = super::MAX_BYTES + 9;
    let mut bytes = vec![0u8; n];
    // {a: [B; ...]} reaching past the limit.
    let len = (n - 12) as u32;
    bytes[..11].copy_from_slice(&[0x0a, 0, 0, 0x07, 0, 1, b'a', 0, 0, 0, 0]);
    bytes[7..11].copy_from_slice(&len.to_be_bytes());
    let e = Document::read_written(bytes, Framing::Named).unwrap_err();
    assert_eq!(e.kind(), crate::ErrorKind::InputTooLarge);
    assert_eq!(e.offset(), super::MAX_BYTES);
}
