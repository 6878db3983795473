//! Hostile input and write safety (docs/format.md §3 "Hostile input", §4 table).
//!
//! Every test reads with BOTH readers (borrow and owned) through the helpers in
//! `support`, which assert that the two agree exactly: same value, or same
//! error kind and offset, and the same cursor position afterwards.

use crate::support;

use std::io::Cursor;

use simdnbt::owned::{self, NbtCompound, NbtList, NbtTag};
use simdnbt::{ErrorKind, Mutf8Str, ReadOptions, WriteError, borrow};
use support::*;

// ---------------------------------------------------------------------------
// docs/format.md §4, row by row.
// ---------------------------------------------------------------------------

/// Every row of the kit's §4 table: both readers agree (value, or error kind and
/// offset, and cursor) and give the expected answer.
#[test]
fn s4_every_case_answers_with_the_expected_kind_and_offset() {
    for case in testkit::hostile::cases() {
        let (o, _) = read_both(&case.bytes);
        let o = o.map(|n| n.is_some());
        case.expect.check(o, case.name);
    }
}

/// The depth cases fail at the same container in the network form (two bytes
/// earlier: no root name).
#[test]
fn s4_deep_cases_in_the_network_form() {
    for name in ["deep_lists", "deep_compounds"] {
        let case = testkit::hostile::case(name);
        let e = err(&read_both(&case.bytes).0);
        assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
        assert_eq!(
            err(&read_unnamed_both(&unnamed(&case.bytes)).0),
            e.shifted(-2)
        );
    }
}

#[test]
fn s4_three_empty_compounds() {
    let bytes = r(&[0x09, 0, 1, 0x6c, 0x0a, 0, 0, 0, 3, 0, 0, 0]);
    let (o, pos) = read_both(&bytes);
    let nbt = o.unwrap().unwrap();
    assert_eq!(pos as usize, bytes.len());
    let list = nbt.list("l").expect("a list called l");
    let compounds = list.compounds().expect("of compounds");
    assert_eq!(compounds.len(), 3);
    assert!(compounds.iter().all(NbtCompound::is_empty));
    // And the borrow view says the same.
    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    let l = doc.list("l").unwrap().compounds().unwrap();
    assert_eq!(l.len(), 3);
    assert!(l.iter().all(|c| c.is_empty()));
}

/// §4 "NUL and emoji" and "invalid MUTF-8", with the kit's pinned string cases:
/// every string parses, keeps its raw bytes through both writers, and decodes
/// (checked and lossy) exactly as pinned.
#[test]
fn s4_strings_parse_keep_raw_bytes_and_decode_as_pinned() {
    for case in testkit::mutf8::CASES {
        let raw = case.raw;
        let bytes = string_doc(raw);
        let owned = read_both(&bytes).0.unwrap().unwrap();
        let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
        for s in [owned.string("s").unwrap(), doc.string("s").unwrap()] {
            assert_eq!(s.as_bytes(), raw, "raw bytes kept for {raw:02x?}");
            assert_eq!(s.try_to_str().ok().as_deref(), case.text, "{raw:02x?}");
            assert_eq!(s.to_str(), case.lossy, "lossy {raw:02x?}");
            assert_eq!(s.to_string_lossy(), case.lossy);
        }
        // Raw bytes survive both writers unchanged.
        let mut out = Vec::new();
        owned.write(&mut out).unwrap();
        assert_eq!(out, bytes);
        out.clear();
        doc.write(&mut out);
        assert_eq!(out, bytes);
        // Writing the text gives the same MUTF-8 bytes back.
        if let (true, Some(text)) = (case.is_canonical(), case.text) {
            assert_eq!(Mutf8Str::from_str(text).as_bytes(), raw);
            let mut c = NbtCompound::new();
            c.insert("s", text);
            let mut out = Vec::new();
            owned::BaseNbt::new("", c).write(&mut out).unwrap();
            assert_eq!(out, bytes, "{text:?} written as MUTF-8");
        }
    }
}

#[test]
fn s4_over_long_string_write_is_an_error() {
    let long = "x".repeat(70_000);
    let too_long = WriteError::StringTooLong { len: 70_000 };
    // As a value, a key, a root name, a list element and a bare tag.
    let mut value = NbtCompound::new();
    value.insert("s", long.as_str());
    let mut key = NbtCompound::new();
    key.insert(long.as_str(), 1i32);
    let mut in_list = NbtCompound::new();
    in_list.insert("l", NbtList::String(vec![long.as_str().into()]));
    for (what, nbt) in [
        ("value", owned::BaseNbt::new("", value)),
        ("key", owned::BaseNbt::new("", key)),
        (
            "root name",
            owned::BaseNbt::new(long.as_str(), NbtCompound::new()),
        ),
        ("list element", owned::BaseNbt::new("", in_list)),
    ] {
        let mut out = Vec::new();
        assert_eq!(nbt.write(&mut out), Err(too_long), "{what}");
    }
    let mut out = Vec::new();
    assert_eq!(
        NbtTag::String(long.as_str().into()).write(&mut out),
        Err(too_long)
    );
    // 65535 bytes is the largest that fits, and it reads back.
    let max = "y".repeat(65_535);
    let mut c = NbtCompound::new();
    c.insert(max.as_str(), max.as_str());
    let nbt = owned::Nbt::new(max.as_str().into(), c);
    let mut out = Vec::new();
    nbt.write(&mut out).unwrap();
    assert!(read_both(&out).0.unwrap() == nbt);
}

#[test]
fn s4_empty_input_is_an_error() {
    let eof = (ErrorKind::UnexpectedEof, 0);
    let e = err(&read_both(&[]).0);
    assert_eq!((e.kind(), e.offset()), eof);
    let e = err(&read_unnamed_both(&[]).0);
    assert_eq!((e.kind(), e.offset()), eof);
    let e = err(&read_tag_both(&[]).0);
    assert_eq!((e.kind(), e.offset()), eof);
    let e = err(&read_optional_tag_both(&[]).0);
    assert_eq!((e.kind(), e.offset()), eof);
    let e = err(&read_compound_both(&[]).0);
    assert_eq!((e.kind(), e.offset()), eof);
}

#[test]
fn s4_end_root_is_none() {
    let (o, pos) = read_both(&[0x00]);
    assert!(o.unwrap().is_none());
    assert_eq!(pos, 1);
    let (o, pos) = read_unnamed_both(&[0x00]);
    assert!(o.unwrap().is_none());
    assert_eq!(pos, 1);
    let (o, pos) = read_optional_tag_both(&[0x00, 0xff]);
    assert!(o.unwrap().is_none());
    assert_eq!(pos, 1);
    // read_tag wants a value: End is an error that says so.
    let e = err(&read_tag_both(&[0x00]).0);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidRootType(0), 0));
    // Both writers write None back as a single End byte.
    let mut out = Vec::new();
    owned::Nbt::None.write(&mut out).unwrap();
    borrow::Nbt::None.write(&mut out);
    owned::Nbt::None.write_unnamed(&mut out).unwrap();
    borrow::Nbt::None.write_unnamed(&mut out);
    assert_eq!(out, [0, 0, 0, 0]);
}

// ---------------------------------------------------------------------------
// Helpers for the sections below.
// ---------------------------------------------------------------------------

trait Shift {
    fn shifted(self, by: isize) -> Self;
}

impl Shift for simdnbt::Error {
    fn shifted(self, by: isize) -> Self {
        simdnbt::Error::new(self.kind(), self.offset().checked_add_signed(by).unwrap())
    }
}

// ---------------------------------------------------------------------------
// Depth: 511 / 512 / 513 levels counting the root, for every shape, in every
// read form, with identical outcomes; ReadOptions::max_depth honoured alike.
// ---------------------------------------------------------------------------

use testkit::bytes::Kind::{C, L};

/// Nesting shapes: pure compounds, pure lists, and mixes. Shapes that start
/// with a list are only reachable through the unnamed-tag forms.
const SHAPES: &[&[Kind]] = &[&[C], &[L], &[C, L], &[L, C], &[C, C, L], &[C, L, L]];

/// Offset at which a reader must report `MaxDepthExceeded` for `kinds` (deeper
/// than `max`), in the unnamed-tag form: the offending container's header.
/// A compound child of a compound is reported at its tag id, a compound
/// element of a list at its first byte, a list at its element-type byte.
fn depth_error_offset(kinds: &[Kind], max: usize) -> usize {
    // Walk the chain's prefix bytes (see support::chain_payload).
    let mut at = 1; // after the root id
    for i in 0..max {
        let parent = kinds[i];
        let child = kinds[i + 1];
        let header = match parent {
            Kind::C => 4, // id, u16 name length, "c"
            Kind::L => 5, // element id, i32 length
        };
        if i + 1 == max {
            return match (parent, child) {
                (Kind::C, Kind::C) => at,
                (Kind::C, Kind::L) => at + 4,
                (Kind::L, _) => at + 5,
            };
        }
        at += header;
    }
    unreachable!()
}

#[test]
fn depth_511_512_ok_513_err_for_every_shape_and_read_form() {
    for &pattern in SHAPES {
        for depth in [1, 2, 511, 512, 513, 514, 2000] {
            let kinds = chain(pattern, depth);
            let tag = chain_tag(&kinds);
            let ok = depth <= 512;
            let what = format!("{pattern:?} depth {depth}");

            let (t, pos) = read_tag_both(&tag);
            let (ot, opos) = read_optional_tag_both(&tag);
            assert!(t.as_ref().ok() == ot.as_ref().ok().and_then(Option::as_ref));
            assert_eq!(t.as_ref().err(), ot.as_ref().err());
            assert_eq!(pos, opos);
            if ok {
                let t = t.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(pos as usize, tag.len(), "{what}: read to the end");
                // Both writers give the input back.
                let mut out = Vec::new();
                t.write(&mut out).unwrap();
                assert!(out == tag, "{what}: owned write differs");
                let doc = borrow::read_tag(&mut Cursor::new(&tag[..])).unwrap();
                let mut out = Vec::new();
                doc.as_tag().write(&mut out);
                assert!(out == tag, "{what}: borrow write differs");
            } else {
                let e = err(&t);
                assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded, "{what}");
                assert_eq!(e.offset(), depth_error_offset(&kinds, 512), "{what}");
            }

            if kinds[0] == C {
                let named = chain_named(&kinds);
                let (o, pos) = read_both(&named);
                let (u, upos) = read_unnamed_both(&unnamed(&named));
                match (&o, &u) {
                    (Ok(a), Ok(b)) => {
                        assert!(ok, "{what}");
                        assert!(a == b);
                        assert_eq!(pos as usize, named.len());
                        assert_eq!(upos as usize, named.len() - 2);
                        let mut out = Vec::new();
                        a.write(&mut out).unwrap();
                        assert!(out == named, "{what}: owned write differs");
                    }
                    (Err(a), Err(b)) => {
                        assert!(!ok, "{what}: {a}");
                        assert_eq!(a.kind(), ErrorKind::MaxDepthExceeded);
                        assert_eq!(a.offset(), depth_error_offset(&kinds, 512) + 2);
                        assert_eq!(*b, a.shifted(-2));
                    }
                    _ => panic!("{what}: read and read_unnamed disagree"),
                }
                // read_compound reads the payload alone: same limit.
                let (c, _) = read_compound_both(&named[3..]);
                assert_eq!(c.is_ok(), ok, "{what}: read_compound");
            }
        }
    }
}

#[test]
fn max_depth_option_is_honoured_identically() {
    for &pattern in SHAPES {
        if pattern[0] != C {
            continue;
        }
        for max in [1usize, 2, 3, 10, 100] {
            let opts = ReadOptions::default().max_depth(max as u32);
            for depth in [max.saturating_sub(1).max(1), max, max + 1, max + 7] {
                let kinds = chain(pattern, depth);
                let named = chain_named(&kinds);
                let what = format!("{pattern:?} depth {depth} max {max}");
                let (o, _) = read_both_with(&named, &opts);
                if depth <= max {
                    assert!(o.is_ok(), "{what}: {:?}", o.err());
                } else {
                    let e = err(&o);
                    assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded, "{what}");
                    assert_eq!(e.offset(), depth_error_offset(&kinds, max) + 2, "{what}");
                }
                // The borrow unnamed forms take the same options.
                let un = unnamed(&named);
                let u = borrow::read_unnamed_with(&mut Cursor::new(&un[..]), &opts);
                assert_eq!(u.is_ok(), depth <= max, "{what}: read_unnamed_with");
                let tag = chain_tag(&kinds);
                let t = borrow::read_optional_tag_with(&mut Cursor::new(&tag[..]), &opts);
                assert_eq!(t.is_ok(), depth <= max, "{what}: read_optional_tag_with");
            }
        }
    }
    // max_depth(0): not even a root compound; a scalar root has no depth.
    let opts = ReadOptions::default().max_depth(0);
    let e = err(&read_both_with(&r(&[]), &opts).0);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::MaxDepthExceeded, 3));
    let t = borrow::read_optional_tag_with(&mut Cursor::new(&[3, 0, 0, 0, 1][..]), &opts);
    assert!(t.unwrap().is_some());
    let e = borrow::read_optional_tag_with(&mut Cursor::new(&[9, 0, 0, 0, 0, 0][..]), &opts);
    assert_eq!(e.unwrap_err().kind(), ErrorKind::MaxDepthExceeded);
    // A deeper limit than the default is honoured too.
    let opts = ReadOptions::default().max_depth(1000);
    let kinds = chain(&[C, L], 1000);
    assert!(read_both_with(&chain_named(&kinds), &opts).0.is_ok());
    let kinds = chain(&[C, L], 1001);
    let e = err(&read_both_with(&chain_named(&kinds), &opts).0);
    assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
}

// ---------------------------------------------------------------------------
// No stack that input can blow: everything on a 256 KiB thread, debug build.
// ---------------------------------------------------------------------------

/// Reads, converts, writes, compares and drops a 512-deep document of every
/// shape on a small stack.
#[test]
fn a_512_deep_document_is_handled_on_a_256k_stack() {
    on_small_stack(|| {
        for &pattern in SHAPES {
            let kinds = chain(pattern, 512);
            let tag = chain_tag(&kinds);
            let what = format!("{pattern:?}");

            // Borrow: parse, compare, write (three entry points), to_owned.
            let doc = borrow::read_tag(&mut Cursor::new(&tag[..])).expect(&what);
            let doc2 = borrow::read_tag(&mut Cursor::new(&tag[..])).unwrap();
            assert!(doc.as_tag() == doc2.as_tag(), "{what}: borrow eq");
            let mut out = Vec::new();
            doc.as_tag().write(&mut out);
            assert!(out == tag, "{what}: borrow write");
            let a = doc.as_tag().to_owned();

            // Owned: parse, compare, write, clone-free drop.
            let b = owned::read_tag(&mut Cursor::new(&tag[..])).expect(&what);
            assert!(a == b, "{what}: owned eq");
            let mut out = Vec::new();
            b.write(&mut out).unwrap();
            assert!(out == tag, "{what}: owned write");
            drop(a);
            drop(b);

            if kinds[0] == C {
                let named = chain_named(&kinds);
                let doc = borrow::read(&mut Cursor::new(&named[..])).unwrap().unwrap();
                let mut out = Vec::new();
                doc.as_compound().write(&mut out);
                assert!(out == named[3..], "{what}: borrow compound write");
                out.clear();
                doc.write_unnamed(&mut out);
                assert!(out == unnamed(&named), "{what}: borrow write_unnamed");
                assert!(doc.as_compound() == doc.as_compound());
                let o = owned::read(&mut Cursor::new(&named[..])).unwrap();
                assert!(owned::Nbt::Some(doc.to_owned()) == o, "{what}: to_owned");
                let mut out = Vec::new();
                o.write(&mut out).unwrap();
                assert!(out == named, "{what}: owned write");
                out.clear();
                o.write_unnamed(&mut out).unwrap();
                assert!(out == unnamed(&named), "{what}: owned write_unnamed");
            }
        }
    });
}

/// `Debug` of a 512-deep document, compact and pretty, of both models, on a
/// small stack; `{:#?}` stays linear in its output (it once took over a minute
/// at 512 levels).
#[test]
fn debug_of_a_512_deep_document_on_a_256k_stack_is_fast() {
    let took = on_small_stack(|| {
        let start = std::time::Instant::now();
        for &pattern in SHAPES {
            let kinds = chain(pattern, 512);
            let tag = chain_tag(&kinds);
            let doc = borrow::read_tag(&mut Cursor::new(&tag[..])).unwrap();
            let owned = owned::read_tag(&mut Cursor::new(&tag[..])).unwrap();
            let compact = format!("{owned:?}");
            assert_eq!(format!("{:?}", doc.as_tag()), compact, "{pattern:?}");
            // The innermost value is printed: nothing is cut off.
            assert!(
                compact.contains("42") || compact.contains("[7, 8]"),
                "{pattern:?}"
            );
            let pretty = format!("{owned:#?}");
            assert_eq!(format!("{:#?}", doc.as_tag()), pretty, "{pattern:?}");
            // One line per container opening and closing, plus the leaf.
            assert!(pretty.lines().count() <= 2 * 512 + 2, "{pattern:?}");
            assert!(
                pretty.len() < 2_000_000,
                "{pattern:?}: {} bytes",
                pretty.len()
            );
        }
        start.elapsed()
    });
    assert!(
        took < std::time::Duration::from_secs(SHAPES.len() as u64),
        "{took:?}"
    );
}

/// The §4 deep inputs fail cleanly on a small stack too.
#[test]
fn rejecting_100000_levels_works_on_a_256k_stack() {
    on_small_stack(|| {
        for &pattern in SHAPES {
            let kinds = chain(pattern, 100_000);
            let tag = chain_tag(&kinds);
            let e = err(&read_tag_both(&tag).0);
            assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
            if kinds[0] == C {
                let e = err(&read_both(&chain_named(&kinds)).0);
                assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
            }
        }
    });
}

/// An owned tree nested deeper than any reader accepts can be built by hand:
/// writing it is an error (not a file no reader takes), and dropping,
/// comparing and converting it do not recurse.
#[test]
fn hand_built_100000_deep_owned_trees_do_not_overflow() {
    on_small_stack(|| {
        const N: usize = 100_000;
        let c = deep_owned_compound(N);
        let c2 = deep_owned_compound(N);
        assert!(c == c2, "deep compounds compare equal");
        let mut out = Vec::new();
        assert_eq!(c.write(&mut out), Err(WriteError::MaxDepthExceeded));
        let nbt = owned::BaseNbt::new("", c);
        assert_eq!(
            nbt.write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );
        assert_eq!(
            nbt.write_unnamed(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );
        let tag = NbtTag::Compound(c2);
        assert_eq!(
            tag.write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );

        let l = deep_owned_list(N);
        let mut l2 = deep_owned_list(N);
        assert!(l == l2, "deep lists compare equal");
        assert_eq!(l.write(&mut Vec::new()), Err(WriteError::MaxDepthExceeded));
        // A difference at the very bottom is found without recursion.
        {
            let mut cur = &mut l2;
            while let NbtList::List(v) = cur {
                cur = &mut v[0];
            }
            *cur = NbtList::Int(vec![1]);
        }
        assert!(l != l2, "deep lists differing at the bottom");
        let tag = NbtTag::List(l);
        assert!(tag != NbtTag::List(NbtList::Empty));
        assert_eq!(
            tag.write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );

        // Mixed: compound in list in compound ..., wide as well as deep.
        let mut mixed = NbtCompound::new();
        for i in 0..N / 2 {
            let mut parent = NbtCompound::new();
            parent.insert("sibling", i as i32);
            parent.insert("l", NbtList::Compound(vec![mixed, NbtCompound::new()]));
            mixed = parent;
        }
        let mut out = Vec::new();
        assert_eq!(mixed.write(&mut out), Err(WriteError::MaxDepthExceeded));
        drop((nbt, mixed, tag, l2));
    });
}

/// `insert` over a key that holds a deep list chain, and `remove` of a key
/// with shadowed duplicates, drop the old values as the models' own `Drop`
/// does: without recursion, even 100 000 levels deep on a 256 KiB stack.
#[test]
fn replacing_or_removing_a_deep_list_value_does_not_recurse() {
    on_small_stack(|| {
        let mut c = NbtCompound::new();
        c.insert("l", deep_owned_list(100_000));
        c.insert("l", 1); // replaces: the old chain is dropped here
        assert_eq!(c.int("l"), Some(1));
        c.extend([("l", NbtTag::List(deep_owned_list(100_000)))]);
        c.extend([("l", NbtTag::Int(2))]);
        assert_eq!(c.int("l"), Some(2));
        c.push("d", deep_owned_list(100_000));
        c.push("d", 3);
        assert_eq!(c.remove("d"), Some(NbtTag::Int(3))); // and the shadowed chain
        assert!(!c.contains("d"));
    });
}

/// Every root shape drops without recursion: a bare `NbtList` chain and an
/// `NbtTag::List` chain held by nothing else, a chain taken out of a list with `into_lists`, and a
/// compound chain; each 100 000 levels deep on a 256 KiB stack.
#[test]
fn bare_list_chains_of_any_depth_drop_on_a_256k_stack() {
    on_small_stack(|| {
        const N: usize = 100_000;
        drop(deep_owned_list(N));
        drop(NbtTag::List(deep_owned_list(N)));
        let inner = deep_owned_list(N).into_lists().unwrap();
        assert_eq!(inner.len(), 1);
        drop(inner);
        // Lists of compounds of lists …, with no compound at the root.
        let mut mixed = NbtList::Empty;
        for i in 0..N / 2 {
            let mut c = NbtCompound::new();
            c.insert("l", mixed);
            c.insert("i", i as i32);
            mixed = NbtList::Compound(vec![c, NbtCompound::new()]);
        }
        drop(NbtTag::List(mixed));
        drop(NbtTag::Compound(deep_owned_compound(N)));
    });
}

/// The network-form input of issue 26: `09` + 10^6 × `09 00 00 00 01` +
/// `00 00 00 00 00`, a list chain a million levels deep, read with the depth
/// limit lifted. Reading, comparing, cloning, printing and dropping the
/// `NbtTag::List` it gives all hold on a 256 KiB stack (dropping it aborted
/// even on 8 MiB).
#[test]
fn a_million_deep_list_read_with_max_depth_lifted_drops_on_a_256k_stack() {
    on_small_stack(|| {
        const N: usize = 1_000_000;
        let mut bytes = vec![0x09];
        for _ in 0..N {
            bytes.extend_from_slice(&[0x09, 0, 0, 0, 1]);
        }
        bytes.extend_from_slice(&[0, 0, 0, 0, 0]);
        let opts = ReadOptions::default().max_depth(u32::MAX);
        let tag = owned::read_optional_tag_with(&mut Cursor::new(&bytes[..]), &opts)
            .unwrap()
            .unwrap();
        let NbtTag::List(list) = &tag else {
            panic!("a list")
        };
        let copy = tag.clone();
        assert!(copy == tag);
        let printed = format!("{list:?}");
        assert_eq!(printed.matches("List(").count(), N);
        drop(copy);
        drop(tag);
    });
}

/// A document read with a raised depth limit: the borrow writer gives back the
/// bytes it read (which need the same raised limit), the owned writer refuses
/// (see `ReadOptions::max_depth` for why they differ).
#[test]
fn relaxed_read_deep_document_borrow_copies_owned_refuses() {
    on_small_stack(|| {
        let named = chain_named(&chain(&[C], 600));
        let relaxed = ReadOptions::default().max_depth(600);
        assert_eq!(
            err(&borrow::read(&mut Cursor::new(&named[..]))).kind(),
            ErrorKind::MaxDepthExceeded
        );
        let doc = borrow::read_with(&mut Cursor::new(&named[..]), &relaxed)
            .unwrap()
            .unwrap();
        let mut out = Vec::new();
        doc.write(&mut out);
        assert!(out == named, "borrow writer copies what it read");
        assert!(borrow::read_with(&mut Cursor::new(&out[..]), &relaxed).is_ok());
        let tree = owned::read_with(&mut Cursor::new(&named[..]), &relaxed).unwrap();
        assert_eq!(
            tree.write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );
    });
}

/// The writer's limit is the reader's: a hand-built tree of exactly 512 levels
/// writes and reads back; 513 levels is a write error.
#[test]
fn owned_writer_depth_limit_matches_the_readers() {
    on_small_stack(|| {
        let c = deep_owned_compound(512);
        let mut out = Vec::new();
        owned::BaseNbt::new("", c).write(&mut out).unwrap();
        assert!(read_both(&out).0.is_ok());
        let c = deep_owned_compound(513);
        assert_eq!(
            owned::BaseNbt::new("", c).write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );
        let l = deep_owned_list(512);
        let mut out = vec![9];
        l.write(&mut out).unwrap();
        assert!(read_tag_both(&out).0.unwrap() == NbtTag::List(l));
        let l = deep_owned_list(513);
        assert_eq!(l.write(&mut Vec::new()), Err(WriteError::MaxDepthExceeded));
        // A list of 512 levels inside a root compound is 513.
        let mut root = NbtCompound::new();
        root.insert("l", deep_owned_list(511));
        root.write(&mut Vec::new()).unwrap();
        let mut root = NbtCompound::new();
        root.insert("l", deep_owned_list(512));
        assert_eq!(
            root.write(&mut Vec::new()),
            Err(WriteError::MaxDepthExceeded)
        );
    });
}

// ---------------------------------------------------------------------------
// Lengths: negative, larger than what remains, len × size near overflow, and
// lists of End with a non-zero length; for every length-prefixed kind, in
// every position (named in a compound, element of a list, root tag).
// ---------------------------------------------------------------------------

/// Smallest number of input bytes one element of a list of `elem` takes.
fn min_size(elem: u8) -> usize {
    match elem {
        0 => 0,
        1 => 1,
        2 | 8 => 2,
        3 | 5 | 7 | 11 | 12 => 4,
        4 | 6 => 8,
        9 => 5,
        10 => 1,
        _ => unreachable!(),
    }
}

/// A length-prefixed value: an array (`id` 7, 11, 12) or a list of `elem`.
#[derive(Clone, Copy, Debug)]
struct Prefixed {
    id: u8,
    elem: u8,
}

impl Prefixed {
    fn all() -> Vec<Prefixed> {
        let mut v: Vec<_> = [7, 11, 12]
            .into_iter()
            .map(|id| Prefixed { id, elem: 0 })
            .collect();
        v.extend((0..=12).map(|elem| Prefixed { id: 9, elem }));
        v
    }

    /// Bytes before the i32 length.
    fn head(&self) -> Vec<u8> {
        if self.id == 9 {
            vec![self.elem]
        } else {
            vec![]
        }
    }

    /// Smallest input one element takes.
    fn min(&self) -> usize {
        match self.id {
            7 => 1,
            11 => 4,
            12 => 8,
            _ => min_size(self.elem),
        }
    }
}

/// One crafted input and where its length prefix sits.
struct Placed {
    what: String,
    bytes: Vec<u8>,
    prefix_at: usize,
    /// Bytes after the prefix.
    remaining: usize,
    /// Read with `read_tag` instead of `read`.
    as_tag: bool,
}

/// `p`'s head, then the i32 `len`, then `filler` zero bytes, placed as a named
/// child of a root compound, as the only element of a list, and as a root tag.
fn placements(p: Prefixed, len: i32, filler: usize) -> Vec<Placed> {
    let value = cat(&[&p.head(), &len.to_be_bytes(), &vec![0; filler]]);
    let mut out = Vec::new();
    // Named child: 0A 00 00 | id 00 01 'v' | value | 00
    let bytes = r(&named(p.id, b"v", &value));
    let prefix_at = 7 + p.head().len();
    out.push(Placed {
        what: format!("{p:?} len {len} named"),
        remaining: bytes.len() - prefix_at - 4,
        bytes,
        prefix_at,
        as_tag: false,
    });
    // Element of a list: 0A 00 00 | 09 00 01 'l' id 00 00 00 01 | value | 00
    let bytes = r(&named(9, b"l", &cat(&[&[p.id, 0, 0, 0, 1], &value])));
    let prefix_at = 12 + p.head().len();
    out.push(Placed {
        what: format!("{p:?} len {len} in a list"),
        remaining: bytes.len() - prefix_at - 4,
        bytes,
        prefix_at,
        as_tag: false,
    });
    // Root tag (network form): id | value
    let bytes = cat(&[&[p.id], &value]);
    let prefix_at = 1 + p.head().len();
    out.push(Placed {
        what: format!("{p:?} len {len} root tag"),
        remaining: bytes.len() - prefix_at - 4,
        bytes,
        prefix_at,
        as_tag: true,
    });
    out
}

fn read_placed(p: &Placed) -> simdnbt::Error {
    if p.as_tag {
        err(&read_tag_both(&p.bytes).0)
    } else {
        err(&read_both(&p.bytes).0)
    }
}

#[test]
fn negative_lengths_are_errors_at_the_prefix_for_every_kind_and_position() {
    for p in Prefixed::all() {
        for len in [-1, -2, -0x100, i32::MIN] {
            for placed in placements(p, len, 64) {
                let e = read_placed(&placed);
                assert_eq!(e.kind(), ErrorKind::NegativeLength(len), "{}", placed.what);
                assert_eq!(e.offset(), placed.prefix_at, "{}", placed.what);
            }
        }
    }
}

#[test]
fn lengths_larger_than_the_input_are_errors_at_the_prefix() {
    for p in Prefixed::all() {
        if p.id == 9 && p.elem == 0 {
            continue; // list of End: see the next test
        }
        let filler = 24;
        let lens: Vec<i32> = vec![
            i32::MAX,
            0x7fff_fff8,
            0x4000_0000,
            0x2000_0000, // × 8 = 2^32: wraps to 0 in 32-bit arithmetic
            0x2000_0001,
            0x1000_0000,
            0x0100_0000,
            0x10000,
        ];
        for (i, base) in placements(p, 0, filler).iter().enumerate() {
            // The smallest length that does not fit, then the large ones.
            let smallest = (base.remaining / p.min() + 1) as i32;
            for len in std::iter::once(smallest).chain(lens.iter().copied()) {
                let placed = &placements(p, len, filler)[i];
                let w = &placed.what;
                assert!(len as usize * p.min() > placed.remaining, "{w}");
                let e = read_placed(placed);
                assert_eq!(e.kind(), ErrorKind::LengthExceedsInput, "{w}");
                assert_eq!(e.offset(), placed.prefix_at, "{w}");
            }
        }
    }
}

#[test]
fn a_length_that_fits_the_rule_but_not_the_data_is_unexpected_eof() {
    // len × min_size ≤ remaining passes the prefix check; reading the elements
    // then runs out (or the elements eat the closing End), which is an
    // UnexpectedEof at the end of the input; never a LengthExceedsInput.
    for p in Prefixed::all() {
        if p.id == 9 && p.elem == 0 {
            continue;
        }
        for (i, base) in placements(p, 0, 24).iter().enumerate() {
            let len = (base.remaining / p.min()) as i32;
            let placed = &placements(p, len, 24)[i];
            let o = if placed.as_tag {
                read_tag_both(&placed.bytes).0.map(|_| ())
            } else {
                read_both(&placed.bytes).0.map(|_| ())
            };
            if let Err(e) = o {
                assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{}", placed.what);
                assert_eq!(e.offset(), placed.bytes.len(), "{}", placed.what);
            }
        }
    }
}

#[test]
fn list_of_end_with_a_non_zero_length_is_an_error() {
    let p = Prefixed { id: 9, elem: 0 };
    for len in [1, 5, 0x100, 0x7fff_ffff] {
        for placed in placements(p, len, 8) {
            let e = read_placed(&placed);
            assert_eq!(e.kind(), ErrorKind::ListOfEndNotEmpty, "{}", placed.what);
            assert_eq!(e.offset(), placed.prefix_at, "{}", placed.what);
        }
    }
    // Length 0 is the ordinary empty list, in every position.
    for placed in placements(p, 0, 0) {
        if placed.as_tag {
            let t = read_tag_both(&placed.bytes).0.unwrap();
            assert!(t == NbtTag::List(NbtList::Empty));
        } else if placed.what.ends_with("named") {
            let nbt = read_both(&placed.bytes).0.unwrap().unwrap();
            assert!(nbt.list("v").unwrap().empty());
        }
    }
}

#[test]
fn string_lengths_past_the_end_are_unexpected_eof() {
    // u16 lengths cannot be negative; one past what remains is an EOF at the
    // end of the input, for values, names, root names and list elements.
    let value = r(&named(8, b"s", &[0xff, 0xff, b'a']));
    let name = cat(&[&[0x0a, 0, 0, 0x01, 0xff, 0xff], b"abc"]);
    let root_name = [0x0a, 0x00, 0x05, b'a', b'b'];
    let element = r(&named(9, b"l", &[8, 0, 0, 0, 1, 0x12, 0x34, 0]));
    let tag = [0x08, 0x00, 0x02, b'x'];
    for bytes in [&value[..], &name, &root_name, &element] {
        let e = err(&read_both(bytes).0);
        assert_eq!(
            (e.kind(), e.offset()),
            (ErrorKind::UnexpectedEof, bytes.len())
        );
    }
    let e = err(&read_tag_both(&tag).0);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::UnexpectedEof, tag.len())
    );
}

#[test]
fn unknown_tag_ids_are_errors_where_they_stand() {
    for id in [13u8, 0x7f, 0x80, 0xff] {
        // As a child of a compound: at its id byte.
        let bytes = r(&[id, 0, 0, 1, 2, 3, 4]);
        let e = err(&read_both(&bytes).0);
        assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownTagId(id), 3));
        // As a list's element type: at that byte.
        let bytes = r(&named(9, b"l", &[id, 0, 0, 0, 1, 0]));
        let e = err(&read_both(&bytes).0);
        assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownTagId(id), 7));
        // As the root.
        let e = err(&read_tag_both(&[id, 0, 0]).0);
        assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownTagId(id), 0));
    }
}

// ---------------------------------------------------------------------------
// Truncation at every offset of every corpus file.
// ---------------------------------------------------------------------------

/// Files up to this size are truncated at every offset; larger (generated)
/// ones at every offset of their first `HEAD` and last `TAIL` bytes plus
/// `SAMPLES` evenly spread offsets (every offset of a 1 MB file would be
/// ~5·10^11 bytes parsed; the debug build parses a few tens of MB/s).
const EXHAUSTIVE_UP_TO: usize = 64 * 1024;
const HEAD: usize = 4096;
const TAIL: usize = 64;
const SAMPLES: usize = 64;

/// The document as the read form that accepts it: `read` for a compound root,
/// `read_tag` (after dropping the name) for stringtest.nbt's List root.
fn corpus_doc(name: &str) -> (Vec<u8>, bool) {
    let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
    if bytes[0] == 0x0a {
        (bytes.to_vec(), false)
    } else {
        let name_len = u16::from_be_bytes([bytes[1], bytes[2]]) as usize;
        (cat(&[&bytes[..1], &bytes[3 + name_len..]]), true)
    }
}

fn truncation_offsets(len: usize, samples: usize) -> Vec<usize> {
    if len <= EXHAUSTIVE_UP_TO {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..HEAD).chain(len - TAIL..len).collect();
    v.extend((1..=samples).map(|i| HEAD + i * (len - HEAD - TAIL) / (samples + 1)));
    v
}

fn check_truncations(name: &str, samples: usize) {
    let (doc, as_tag) = corpus_doc(name);
    // The whole file reads, to the end.
    let pos = if as_tag {
        read_tag_both(&doc).1
    } else {
        let (o, pos) = read_both(&doc);
        assert!(o.unwrap().is_some(), "{name}");
        pos
    };
    assert_eq!(pos as usize, doc.len(), "{name}");
    for k in truncation_offsets(doc.len(), samples) {
        let cut = &doc[..k];
        // read_both / read_tag_both assert the two readers agree exactly.
        let e = if as_tag {
            err(&read_tag_both(cut).0)
        } else {
            err(&read_both_with(cut, &ReadOptions::default()).0)
        };
        assert!(
            matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
            ),
            "{name} cut at {k}: {e}"
        );
        assert!(e.offset() <= k, "{name} cut at {k}: {e}");
    }
}

#[test]
fn truncation_at_every_offset_of_every_shared_corpus_file() {
    for file in corpus::SHARED {
        check_truncations(file.name, 0);
    }
}

#[test]
fn truncation_of_the_generated_files_sampled() {
    for name in corpus::GENERATED {
        // The 12 MB file costs ~12× per sample: fewer samples.
        let samples = if *name == "generated_chunks_12m" {
            6
        } else {
            SAMPLES
        };
        check_truncations(name, samples);
    }
}

// ---------------------------------------------------------------------------
// Compressed input given to the raw reader says so.
// ---------------------------------------------------------------------------

#[test]
fn gzip_and_zlib_input_is_reported_as_such() {
    let gz = corpus::load_as_shipped("complex_player.dat").unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    // A zlib stream of an empty root compound (78 9c = default compression),
    // and the other common zlib headers.
    let zlibs: [&[u8]; 4] = [
        &[
            0x78, 0x9c, 0xe3, 0x62, 0x60, 0x60, 0x00, 0x00, 0x00, 0x20, 0x00, 0x0b,
        ],
        &[0x78, 0x01, 0x01, 0x04, 0x00],
        &[0x78, 0x5e, 0x00],
        &[0x78, 0xda, 0x63],
    ];
    let mut cases: Vec<(&[u8], ErrorKind)> = vec![(gz, ErrorKind::GzipCompressed)];
    cases.extend(zlibs.iter().map(|z| (*z, ErrorKind::ZlibCompressed)));
    for (bytes, kind) in cases {
        for e in [
            err(&read_both(bytes).0),
            err(&read_unnamed_both(bytes).0),
            err(&read_tag_both(bytes).0),
            err(&read_optional_tag_both(bytes).0),
        ] {
            assert_eq!((e.kind(), e.offset()), (kind, 0));
        }
        // Offsets count from the slice start when the cursor does not.
        let shifted = cat(&[&[0xaa, 0xbb], bytes]);
        let mut c = Cursor::new(&shifted[..]);
        c.set_position(2);
        let e = borrow::read(&mut c).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (kind, 2));
        let mut c = Cursor::new(&shifted[..]);
        c.set_position(2);
        let e = owned::read(&mut c).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (kind, 2));
    }
    // Just the magic and nothing else is still recognised.
    assert_eq!(
        err(&read_both(&[0x1f, 0x8b]).0).kind(),
        ErrorKind::GzipCompressed
    );
    // 0x1f alone is an unknown tag id, not gzip.
    let e = err(&read_both(&[0x1f]).0);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownTagId(0x1f), 0));
    // 78 with another second byte is not called zlib.
    let e = err(&read_both(&[0x78, 0x00]).0);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownTagId(0x78), 0));
}

// ---------------------------------------------------------------------------
// Trailing bytes and the cursor.
// ---------------------------------------------------------------------------

#[test]
fn trailing_bytes_are_not_an_error_and_the_cursor_says_how_far_the_reader_read() {
    let doc = r(&named(3, b"x", &[0, 0, 0, 42]));
    for trailer in [&[][..], &[0], &[0x0a, 0, 0], &[0xff; 100], &[0x1f, 0x8b]] {
        let bytes = cat(&[&doc, trailer]);
        let (o, pos) = read_both(&bytes);
        assert_eq!(o.unwrap().unwrap().int("x"), Some(42));
        assert_eq!(pos as usize, doc.len(), "trailer {trailer:02x?}");
        let (o, pos) = read_unnamed_both(&cat(&[&unnamed(&doc), trailer]));
        assert_eq!(o.unwrap().unwrap().int("x"), Some(42));
        assert_eq!(pos as usize, doc.len() - 2);
        let (o, pos) = read_compound_both(&cat(&[&doc[3..], trailer]));
        assert_eq!(o.unwrap().int("x"), Some(42));
        assert_eq!(pos as usize, doc.len() - 3);
        let (o, pos) = read_tag_both(&cat(&[&[3, 0, 0, 0, 7], trailer]));
        assert!(o.unwrap() == NbtTag::Int(7));
        assert_eq!(pos, 5);
    }
    // A stream of documents reads one after another from one cursor; every
    // offset (including errors') is counted from the start of the slice.
    let stream = cat(&[&doc, &[0], &doc, &r(&[0x09, 0, 1, b'l', 0, 0, 0, 0, 9])]);
    for owned_reader in [false, true] {
        let mut c = Cursor::new(&stream[..]);
        let mut seen = Vec::new();
        loop {
            let before = c.position();
            let res = if owned_reader {
                owned::read(&mut c).map(|n| n.is_some())
            } else {
                borrow::read(&mut c).map(|n| n.is_some())
            };
            match res {
                Ok(some) => seen.push((some, c.position() - before)),
                Err(e) => {
                    assert_eq!(e.kind(), ErrorKind::ListOfEndNotEmpty);
                    assert_eq!(e.offset(), 2 * doc.len() + 1 + 8);
                    break;
                }
            }
        }
        let l = doc.len() as u64;
        assert_eq!(seen, [(true, l), (false, 1), (true, l)]);
    }
}

// ---------------------------------------------------------------------------
// Writers never emit bytes our reader rejects.
// ---------------------------------------------------------------------------

/// Hand-built trees with the edge cases a writer can get wrong.
fn edge_case_trees() -> Vec<(&'static str, NbtCompound)> {
    let mut trees = Vec::new();

    let mut every = NbtCompound::new();
    every.insert("byte", i8::MIN);
    every.insert("short", i16::MIN);
    every.insert("int", i32::MIN);
    every.insert("long", i64::MIN);
    every.insert("float", f32::from_bits(0x7fc0_0001)); // NaN with a payload
    every.insert("double", -0.0f64);
    every.insert("bytes", vec![0u8, 255]);
    every.insert("string", "text");
    every.insert("ints", vec![i32::MIN, -1, 0, i32::MAX]);
    every.insert("longs", vec![i64::MIN, i64::MAX]);
    every.insert("compound", NbtCompound::new());
    every.insert("list", NbtList::Int(vec![1, 2, 3]));
    trees.push(("every tag type", every));

    let mut names = NbtCompound::new();
    names.insert("", 1i8);
    names.insert("", NbtCompound::new());
    names.insert("k".repeat(65_535).as_str(), "v".repeat(65_535).as_str());
    names.push("dup", 1i32);
    names.push("dup", 2i32);
    trees.push(("empty, maximal and duplicate names", names));

    let mut empties = NbtCompound::new();
    let empty_lists = [
        NbtList::Empty,
        NbtList::Byte(vec![]),
        NbtList::Short(vec![]),
        NbtList::Int(vec![]),
        NbtList::Long(vec![]),
        NbtList::Float(vec![]),
        NbtList::Double(vec![]),
        NbtList::ByteArray(vec![]),
        NbtList::String(vec![]),
        NbtList::List(vec![]),
        NbtList::Compound(vec![]),
        NbtList::IntArray(vec![]),
        NbtList::LongArray(vec![]),
    ];
    for (i, l) in empty_lists.iter().enumerate() {
        empties.insert(format!("empty{i}").as_str(), l.clone());
    }
    empties.insert("empty arrays", NbtList::ByteArray(vec![vec![], vec![]]));
    empties.insert("empty int arrays", NbtList::IntArray(vec![vec![]]));
    empties.insert(
        "empty long arrays",
        NbtList::LongArray(vec![vec![], vec![1]]),
    );
    empties.insert("empty strings", NbtList::String(vec!["".into(), "".into()]));
    empties.insert(
        "empty compounds",
        NbtList::Compound(vec![NbtCompound::new(); 3]),
    );
    empties.insert("empty arrays as tags", NbtTag::IntArray(vec![]));
    empties.insert("empty long array", NbtTag::LongArray(vec![]));
    empties.insert("empty byte array", NbtTag::ByteArray(vec![]));
    empties.insert("empty string", "");
    trees.push(("empty values of every type", empties));

    let mut nested = NbtCompound::new();
    nested.insert("lists of empty lists", NbtList::List(empty_lists.to_vec()));
    nested.insert(
        "nested empties",
        NbtList::List(vec![
            NbtList::List(vec![NbtList::Empty, NbtList::List(vec![])]),
            NbtList::List(vec![]),
        ]),
    );
    let mut inner = NbtCompound::new();
    inner.insert(
        "l",
        NbtList::List(vec![NbtList::Compound(vec![NbtCompound::new()])]),
    );
    nested.insert(
        "compounds in lists in compounds",
        NbtList::Compound(vec![inner]),
    );
    nested.insert(
        "heterogeneous",
        NbtList::from(vec![NbtTag::Int(1), NbtTag::String("a".into())]),
    );
    nested.insert(
        "floats",
        NbtList::Float(vec![f32::NAN, -0.0, f32::INFINITY]),
    );
    nested.insert(
        "doubles",
        NbtList::Double(vec![
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::MIN_POSITIVE,
        ]),
    );
    nested.insert(
        "max string element",
        NbtList::String(vec!["z".repeat(65_535).into()]),
    );
    trees.push(("nested and special", nested));

    trees.push(("512 levels", deep_owned_compound(512)));
    let mut deep_list = NbtCompound::new();
    deep_list.insert("l", deep_owned_list(511));
    trees.push(("512 levels ending in lists", deep_list));
    trees
}

#[test]
fn owned_writer_output_is_accepted_by_both_readers_and_equal() {
    for (what, tree) in edge_case_trees() {
        for root_name in ["", "root", &"n".repeat(65_535)] {
            let nbt = owned::Nbt::new(root_name.into(), tree.clone());
            // Disk form.
            let mut bytes = Vec::new();
            nbt.write(&mut bytes)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let (o, pos) = read_both(&bytes);
            let o = o.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(pos as usize, bytes.len(), "{what}");
            assert!(o == nbt, "{what}: read back differs");
            // The borrow writer reproduces the bytes, both ways it can.
            let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
            let mut again = Vec::new();
            doc.write(&mut again);
            assert!(again == bytes, "{what}: borrow write");
            let mut payload = Vec::new();
            doc.as_compound().write(&mut payload);
            assert!(
                payload == bytes[3 + root_name.len()..],
                "{what}: borrow re-encode"
            );
            // Network form.
            let mut net = Vec::new();
            nbt.write_unnamed(&mut net).unwrap();
            let (u, _) = read_unnamed_both(&net);
            assert!(u.unwrap().unwrap().as_compound() == tree, "{what}: unnamed");
        }
        // Every value alone as a network tag.
        for (key, tag) in tree.iter() {
            let mut bytes = Vec::new();
            tag.write(&mut bytes).unwrap();
            let (t, pos) = read_tag_both(&bytes);
            let w = format!("{what}: {:?}", key.to_str());
            assert!(t.unwrap_or_else(|e| panic!("{w}: {e}")) == *tag, "{w}");
            assert_eq!(pos as usize, bytes.len(), "{w}");
            let doc = borrow::read_tag(&mut Cursor::new(&bytes[..])).unwrap();
            let mut again = Vec::new();
            doc.as_tag().write(&mut again);
            assert!(again == bytes, "{w}: borrow write");
        }
    }
}

#[test]
fn owned_writer_rejects_what_it_cannot_encode() {
    // A 65536-byte key, root name, string value and list element.
    let long = "q".repeat(65_536);
    let err_long = Err(WriteError::StringTooLong { len: 65_536 });
    let mut c = NbtCompound::new();
    c.insert(long.as_str(), 0i8);
    assert_eq!(c.write(&mut Vec::new()), err_long);
    assert_eq!(
        owned::BaseNbt::new(long.as_str(), NbtCompound::new()).write(&mut Vec::new()),
        err_long
    );
    let l = NbtList::String(vec!["ok".into(), long.as_str().into()]);
    assert_eq!(l.write(&mut Vec::new()), err_long);
    // Deep inside a list of compounds.
    let mut inner = NbtCompound::new();
    inner.insert("s", long.as_str());
    let l = NbtList::Compound(vec![NbtCompound::new(), inner]);
    assert_eq!(l.write(&mut Vec::new()), err_long);
}

/// An array of more than i32::MAX elements is a write error, checked before
/// anything is copied. The 2 GiB zeroed vector is only reserved address
/// space (calloc), never touched.
#[test]
#[cfg(all(target_pointer_width = "64", not(miri)))]
fn owned_writer_rejects_arrays_longer_than_i32_max() {
    let n = i32::MAX as usize + 1;
    // vec![0; n] would abort on allocation failure; ask the allocator directly.
    let layout = std::alloc::Layout::array::<u8>(n).unwrap();
    // SAFETY: the layout is non-zero-sized.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return; // no address space for it here; nothing to test
    }
    // SAFETY: allocated by the global allocator with this layout, n zeroed bytes.
    let huge = unsafe { Vec::from_raw_parts(ptr, n, n) };
    let tag = NbtTag::ByteArray(huge);
    let mut out = Vec::new();
    assert_eq!(
        tag.write(&mut out),
        Err(WriteError::LengthTooLarge { len: n })
    );
    assert!(out.len() < 16, "nothing was copied");
    let mut c = NbtCompound::new();
    c.insert("a", tag);
    let mut out = Vec::new();
    assert_eq!(
        c.write(&mut out),
        Err(WriteError::LengthTooLarge { len: n })
    );
    assert!(out.len() < 16);
}

/// Regression: dropping a list of empty compounds or empty lists deep in a
/// tree ends, on a small stack (such lists once sent the drop into endless
/// recursion).
#[test]
fn dropping_lists_of_empty_containers_deep_in_a_tree() {
    on_small_stack(|| {
        for depth in [63, 64, 65, 66, 100, 510] {
            for leaf in [
                NbtList::Compound(vec![NbtCompound::new(); 3]),
                NbtList::Compound(vec![]),
                NbtList::List(vec![NbtList::Empty, NbtList::List(vec![])]),
                NbtList::List(vec![]),
            ] {
                let mut c = NbtCompound::new();
                c.insert("l", leaf);
                for _ in 1..depth {
                    let mut parent = NbtCompound::new();
                    parent.insert("c", c);
                    c = parent;
                }
                let nbt = owned::BaseNbt::new("", c);
                let mut bytes = Vec::new();
                nbt.write(&mut bytes).unwrap();
                drop(nbt);
                // And the same tree as read from bytes.
                let read = read_both(&bytes).0.unwrap();
                drop(read);
            }
        }
    });
}

/// `Clone` of a parsed 512-deep document (every shape) on a small stack, and
/// of hand-built trees far deeper than that: a derived `Clone` recursed once
/// per level and overflowed 256 KiB at ~200 levels in the debug build.
#[test]
fn clone_does_not_recurse() {
    on_small_stack(|| {
        for &pattern in SHAPES {
            let tag = chain_tag(&chain(pattern, 512));
            let t = owned::read_tag(&mut Cursor::new(&tag[..])).unwrap();
            let copy = t.clone();
            assert!(copy == t);
            let mut out = Vec::new();
            copy.write(&mut out).unwrap();
            assert!(out == tag, "{pattern:?}: clone writes the same bytes");
            if pattern[0] == C {
                let named = chain_named(&chain(pattern, 512));
                let nbt = owned::read(&mut Cursor::new(&named[..])).unwrap();
                assert!(nbt.clone() == nbt);
            }
        }
        let c = deep_owned_compound(100_000);
        assert!(c.clone() == c);
        let l = deep_owned_list(100_000);
        let copy = l.clone();
        assert!(copy == l);
        let tag_copy = NbtTag::List(l.clone());
        let tag = NbtTag::List(l);
        assert!(tag_copy == tag);
        drop((copy, tag_copy, tag));
    });
    // Every kind of value survives a clone unchanged.
    for (what, tree) in edge_case_trees() {
        let copy = tree.clone();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        tree.write(&mut a).unwrap();
        copy.write(&mut b).unwrap();
        assert!(a == b, "{what}");
        assert!(copy == tree, "{what}");
    }
}

/// `ReadOptions::max_bytes` is enforced identically by both readers: a budget
/// of exactly the document reads it, one byte less is `BudgetExceeded`.
#[test]
fn byte_budget_is_honoured_identically() {
    for name in ["bigtest.nbt", "complex_player.dat", "hypixel.nbt"] {
        let bytes = corpus::load(name).unwrap();
        // The budget counts from the root's payload (after id and name).
        let header = 3 + u16::from_be_bytes([bytes[1], bytes[2]]) as usize;
        let payload = bytes.len() - header;
        let exact = ReadOptions::default().max_bytes(payload);
        assert!(read_both_with(bytes, &exact).0.is_ok(), "{name}");
        for less in [1, 2, payload / 2, payload - 1] {
            let opts = ReadOptions::default().max_bytes(payload - less);
            let e = err(&read_both_with(bytes, &opts).0);
            assert_eq!(e.kind(), ErrorKind::BudgetExceeded, "{name} -{less}");
            assert!(e.offset() <= header + payload - less, "{name} -{less}");
        }
    }
    // A crafted huge length is still reported as such under a budget.
    let bytes = [0x0a, 0, 0, 0x0b, 0, 1, 0x69, 0x7f, 0xff, 0xff, 0xff, 0];
    let e = err(&read_both_with(&bytes, &ReadOptions::default().max_bytes(4)).0);
    assert_eq!(e.kind(), ErrorKind::BudgetExceeded);
}
