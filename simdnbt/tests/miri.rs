//! A Miri-sized tour of every code path that uses `unsafe`: the parser's raw
//! tape writes and unchecked reads (including tape growth), the borrow views'
//! slice casts (`bytes`, `strings`, `int_arrays`, `long_arrays`, `RawList`),
//! MUTF-8 and the byte-swap kernels, the owned builder, writers, `Drop` and
//! `PartialEq`, the walks' inline stacks past their inline part, the
//! document model's raw scratch stack (growth included), the
//! one block its nodes and bytes share (each growing out of it) and its list
//! view, the owned compound's 32-bit entries and the key indexes of both
//! models (built by racing threads), on valid, truncated and hostile input.
//!
//! Runs in the normal test suite too; `.ci/miri.sh` runs it under Miri. No
//! file I/O (Miri's isolation), inputs are built here.

mod support;

use std::io::Cursor;

use simdnbt::owned::{self, NbtCompound, NbtList, NbtTag};
use simdnbt::raw_list::RawList;
use simdnbt::{ErrorKind, Mutf8Str, Mutf8String, ReadOptions, WriteError, borrow};
use support::*;

/// A document using every tag type, every list element type, odd lengths
/// (for the byte-swap kernels' tails), nesting, and non-ASCII strings.
fn every_type() -> owned::Nbt {
    let mut c = NbtCompound::new();
    c.insert("byte", -5i8);
    c.insert("short", -300i16);
    c.insert("int", 123_456_789i32);
    c.insert("long", -1i64 << 40);
    c.insert("float", -1.5f32);
    c.insert("double", f64::from_bits(0x7ff8_dead_beef_0001));
    c.insert("bytes", (0..=255u8).collect::<Vec<u8>>());
    c.insert("ints", (0..37).map(|i| i * -99_991).collect::<Vec<i32>>());
    c.insert("longs", (0..19).map(|i| i << 50 | i).collect::<Vec<i64>>());
    c.insert(
        "ascii",
        "plain ascii, long enough for a vector lane or two....",
    );
    c.insert("unicode", "héllo wörld ✓ 日本");
    c.insert("l_empty", NbtList::Empty);
    c.insert("l_byte", NbtList::Byte(vec![-1, 0, 1, 127, -128]));
    c.insert("l_short", NbtList::Short((0..17).collect()));
    c.insert(
        "l_int",
        NbtList::Int((0..33).map(|i| i * 7 - 100).collect()),
    );
    c.insert("l_long", NbtList::Long((0..9).map(|i| -i).collect()));
    c.insert("l_float", NbtList::Float(vec![0.5, -0.0, f32::INFINITY]));
    c.insert("l_double", NbtList::Double(vec![1e300, -1e-300, 0.1]));
    c.insert(
        "l_byte_array",
        NbtList::ByteArray(vec![vec![], vec![1], vec![2, 3, 4]]),
    );
    c.insert(
        "l_string",
        NbtList::String(vec!["".into(), "a".into(), "ß".into()]),
    );
    c.insert(
        "l_list",
        NbtList::List(vec![
            NbtList::Int(vec![1, 2]),
            NbtList::Empty,
            NbtList::String(vec!["x".into()]),
            NbtList::List(vec![NbtList::Long(vec![5])]),
        ]),
    );
    let mut inner = NbtCompound::new();
    inner.insert("k", 1i8);
    inner.insert("nested", NbtList::Compound(vec![NbtCompound::new()]));
    c.insert("l_compound", NbtList::Compound(vec![inner.clone(), inner]));
    c.insert(
        "l_int_array",
        NbtList::IntArray(vec![vec![], vec![-1, 2, -3], (0..9).collect()]),
    );
    c.insert(
        "l_long_array",
        NbtList::LongArray(vec![vec![i64::MIN], vec![], vec![1, 2, 3]]),
    );
    let mut sub = NbtCompound::new();
    sub.insert(
        "deeper",
        NbtCompound::from_values(vec![("x".into(), 1i32.into())]),
    );
    c.insert("compound", sub);
    owned::Nbt::new("root name".into(), c)
}

fn bytes_of(nbt: &owned::Nbt) -> Vec<u8> {
    let mut out = Vec::new();
    nbt.write(&mut out).unwrap();
    out
}

#[test]
fn every_type_reads_views_converts_and_writes_back() {
    let nbt = every_type();
    let bytes = bytes_of(&nbt);
    let (o, pos) = read_both(&bytes);
    assert!(o.unwrap() == nbt);
    assert_eq!(pos as usize, bytes.len());

    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(doc.name().to_str(), "root name");
    assert_eq!(doc.byte("byte"), Some(-5));
    assert_eq!(doc.short("short"), Some(-300));
    assert_eq!(doc.int("int"), Some(123_456_789));
    assert_eq!(doc.long("long"), Some(-1 << 40));
    assert_eq!(doc.float("float"), Some(-1.5));
    assert_eq!(
        doc.double("double").unwrap().to_bits(),
        0x7ff8_dead_beef_0001
    );
    assert_eq!(doc.byte_array("bytes").unwrap().len(), 256);
    let ints: Vec<i32> = (0..37).map(|i| i * -99_991).collect();
    assert_eq!(doc.int_array("ints").unwrap(), ints);
    let raw: RawList<'_, i32> = doc.int_array_raw("ints").unwrap();
    assert_eq!(raw.len(), 37);
    assert_eq!(raw.to_vec(), ints);
    assert_eq!(raw.as_big_endian().len(), 37 * 4);
    let longs: Vec<i64> = (0..19).map(|i| i << 50 | i).collect();
    assert_eq!(doc.long_array("longs").unwrap(), longs);
    assert_eq!(doc.long_array_raw("longs").unwrap().to_vec(), longs);
    assert_eq!(
        doc.string("unicode").unwrap().to_str(),
        "héllo wörld ✓ 日本"
    );
    assert!(doc.string("ascii").unwrap().try_to_str().is_ok());

    let list = |name| doc.list(name).unwrap();
    assert!(list("l_empty").empty());
    assert_eq!(list("l_byte").bytes().unwrap(), &[-1, 0, 1, 127, -128]);
    assert_eq!(
        list("l_short").shorts().unwrap(),
        (0..17).collect::<Vec<i16>>()
    );
    assert_eq!(list("l_short").shorts_raw().unwrap().len(), 17);
    assert_eq!(list("l_int").ints().unwrap().len(), 33);
    assert_eq!(list("l_int").ints_raw().unwrap().to_vec()[0], -100);
    assert_eq!(
        list("l_long").longs().unwrap(),
        (0..9).map(|i| -i).collect::<Vec<i64>>()
    );
    assert_eq!(list("l_long").longs_raw().unwrap().len(), 9);
    assert_eq!(list("l_float").floats().unwrap()[2], f32::INFINITY);
    assert_eq!(list("l_float").floats_raw().unwrap().len(), 3);
    assert_eq!(list("l_double").doubles().unwrap()[0], 1e300);
    assert_eq!(list("l_double").doubles_raw().unwrap().len(), 3);
    let arrays = list("l_byte_array");
    let arrays = arrays.byte_arrays().unwrap();
    assert_eq!(arrays, &[&[][..], &[1], &[2, 3, 4]]);
    let strings = list("l_string");
    let strings = strings.strings().unwrap();
    assert_eq!(strings.len(), 3);
    assert_eq!(strings[2].to_str(), "ß");
    let ia = list("l_int_array");
    let ia = ia.int_arrays().unwrap();
    assert_eq!(ia[1].to_vec(), vec![-1, 2, -3]);
    assert_eq!(ia[2].len(), 9);
    let la = list("l_long_array");
    let la = la.long_arrays().unwrap();
    assert_eq!(la[0].to_vec(), vec![i64::MIN]);
    assert!(la[1].is_empty());
    let lists = list("l_list");
    let lists = lists.lists().unwrap();
    assert_eq!(lists.len(), 4);
    assert_eq!(lists.get(0).unwrap().ints().unwrap(), vec![1, 2]);
    assert!(lists.get(1).unwrap().empty());
    let deepest = lists.last().unwrap().lists().unwrap().first().unwrap();
    assert_eq!(deepest.longs().unwrap(), vec![5]);
    let compounds = list("l_compound");
    let compounds = compounds.compounds().unwrap();
    assert_eq!(compounds.len(), 2);
    for c in compounds.iter() {
        assert_eq!(c.byte("k"), Some(1));
        assert_eq!(c.list("nested").unwrap().compounds().unwrap().len(), 1);
    }
    let sub = doc.compound("compound").unwrap();
    assert_eq!(sub.compound("deeper").unwrap().int("x"), Some(1));
    assert_eq!(doc.as_compound().len(), nbt.clone().unwrap().len());
    assert!(format!("{:?}", doc.as_compound()).len() > 100);

    // Both writers, every entry point.
    let mut out = Vec::new();
    doc.write(&mut out);
    assert_eq!(out, bytes);
    out.clear();
    doc.as_compound().write(&mut out);
    assert_eq!(out, bytes[3 + "root name".len()..]);
    out.clear();
    doc.write_unnamed(&mut out);
    let (u, _) = read_unnamed_both(&out);
    assert!(u.unwrap().unwrap().as_compound() == nbt.clone().unwrap().as_compound());
    for (_, tag) in doc.as_compound().iter() {
        let mut one = Vec::new();
        tag.write(&mut one);
        let (t, _) = read_tag_both(&one);
        assert!(t.unwrap() == tag.to_owned());
    }
}

#[test]
fn truncation_and_corruption_of_a_small_document() {
    let bytes = bytes_of(&every_type());
    // Miri: a spread of offsets; natively: every offset.
    let step = if cfg!(miri) { 89 } else { 1 };
    for k in (0..bytes.len()).step_by(step) {
        let e = err(&read_both_with(&bytes[..k], &ReadOptions::default()).0);
        assert!(
            matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthExceedsInput
            ),
            "cut at {k}: {e}"
        );
        assert!(e.offset() <= k);
    }
    // Flip bytes: any outcome but a crash or disagreement (checked by read_both).
    let step = if cfg!(miri) { 173 } else { 1 };
    for i in (0..bytes.len()).step_by(step) {
        for v in [0x00, 0x09, 0x0a, 0x7f, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            let _ = read_both_with(&b, &ReadOptions::default());
        }
    }
}

#[test]
fn tape_growth_and_its_cap() {
    // The tape starts at one word per 8 input bytes: these fill it, and are
    // parsed again into tapes four times as large, up to one word per input
    // byte.
    for n in [0usize, 1, 3, 4, 5, 31, 64, 300] {
        let mut body = vec![0x09, 0, 1, b'l', 0x0a];
        body.extend_from_slice(&(n as i32).to_be_bytes());
        body.resize(body.len() + n, 0);
        body.extend_from_slice(&[1, 0, 0, 9]); // one more tag after the list
        let bytes = r(&body);
        let nbt = read_both(&bytes).0.unwrap().unwrap();
        assert_eq!(nbt.list("l").unwrap().len(), n);
        let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
        assert_eq!(doc.list("l").unwrap().compounds().unwrap().len(), n);
        let mut out = Vec::new();
        doc.write(&mut out);
        assert_eq!(out, bytes);
    }
    // Lists of lists and strings: two words and side entries per element.
    let mut body = vec![0x09, 0, 1, b'l', 0x09, 0, 0, 0, 50];
    for i in 0..50u8 {
        body.extend_from_slice(&[8, 0, 0, 0, 1, 0, 1, b'a' + i % 26]);
    }
    let bytes = r(&body);
    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    let lists = doc.list("l").unwrap().lists().unwrap();
    assert_eq!(lists.len(), 50);
    for (i, l) in lists.iter().enumerate() {
        let s = l.strings().unwrap();
        assert_eq!(s[0].as_bytes(), &[b'a' + (i % 26) as u8]);
    }
    assert!(read_both(&bytes).0.is_ok());

    // A tape filled by many one-byte compounds, then lists of strings and of
    // int arrays, recorded by the try that fits: every view still reads the
    // right bytes (the side table is built from them on first use).
    let mut body = vec![0x09, 0, 1, b'c', 0x0a, 0, 0, 0, 150];
    body.resize(body.len() + 150, 0);
    body.extend_from_slice(&[0x09, 0, 1, b's', 8, 0, 0, 1, 44]);
    for _ in 0..300 {
        body.extend_from_slice(&[0, 1, b'x']);
    }
    body.extend_from_slice(&[0x09, 0, 1, b'i', 11, 0, 0, 0, 2]);
    body.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0]);
    let bytes = r(&body);
    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(doc.list("c").unwrap().compounds().unwrap().len(), 150);
    let strings = doc.list("s").unwrap();
    let strings = strings.strings().unwrap();
    assert_eq!(strings.len(), 300);
    assert!(strings.iter().all(|s| s.as_bytes() == b"x"));
    let arrays = doc.list("i").unwrap();
    assert_eq!(arrays.int_arrays().unwrap()[0].to_vec(), vec![7]);
    let mut out = Vec::new();
    doc.write(&mut out);
    assert_eq!(out, bytes);
    assert!(read_both(&bytes).0.is_ok());
}

/// Borrowed documents are covariant in the input's lifetime, as upstream's
/// are (compiles only if so).
#[allow(dead_code)]
fn covariant<'a: 'b, 'b>(
    n: borrow::Nbt<'a>,
    c: borrow::BaseNbtCompound<'a>,
    t: borrow::BaseNbtTag<'a>,
) -> (
    borrow::Nbt<'b>,
    borrow::BaseNbtCompound<'b>,
    borrow::BaseNbtTag<'b>,
) {
    (n, c, t)
}

/// The side table of lists of strings and arrays is built on first use,
/// once, from any thread: views agree with the input before and after,
/// conversions and writes never need it, and the document is `Send + Sync`.
#[test]
fn lazy_side_table() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<borrow::Nbt<'static>>();
    send_sync::<borrow::BaseNbtTag<'static>>();
    send_sync::<borrow::BaseNbtCompound<'static>>();

    // {"a": ["x", "yz"], "e": [] (of strings), "n": [[B;1,2], [B;]],
    //  "ll": [["p"], [I;7], []], "z": [L;9]}
    let mut c = NbtCompound::new();
    c.insert("a", NbtList::String(vec!["x".into(), "yz".into()]));
    c.insert("e", NbtList::String(vec![]));
    c.insert("n", NbtList::ByteArray(vec![vec![1, 2], vec![]]));
    c.insert(
        "ll",
        NbtList::List(vec![
            NbtList::String(vec!["p".into()]),
            NbtList::IntArray(vec![vec![7]]),
            NbtList::LongArray(vec![]),
        ]),
    );
    c.insert("z", NbtList::LongArray(vec![vec![9]]));
    let nbt = owned::Nbt::Some(owned::BaseNbt::new("", c));
    let bytes = bytes_of(&nbt);
    let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();

    // Converted and written from the input, before any table exists.
    assert!(owned::Nbt::Some(doc.to_owned()) == nbt);
    let mut out = Vec::new();
    doc.as_compound().write(&mut out);
    assert_eq!(out[..], bytes[3..]);

    // Two threads ask at once: one builds it, both read it.
    let views = |doc: &borrow::BaseNbt| {
        let a = doc.list("a").unwrap();
        let a: Vec<&[u8]> = a.strings().unwrap().iter().map(|s| s.as_bytes()).collect();
        assert_eq!(a, [&b"x"[..], b"yz"]);
        assert!(doc.list("e").unwrap().strings().unwrap().is_empty());
        assert_eq!(
            doc.list("n").unwrap().byte_arrays().unwrap(),
            [&[1, 2][..], &[]]
        );
        let ll: Vec<_> = doc.list("ll").unwrap().lists().unwrap().iter().collect();
        assert_eq!(ll[0].strings().unwrap()[0].as_bytes(), b"p");
        assert_eq!(ll[1].int_arrays().unwrap()[0].to_vec(), vec![7]);
        assert!(ll[2].long_arrays().unwrap().is_empty());
        assert_eq!(
            doc.list("z").unwrap().long_arrays().unwrap()[0].to_vec(),
            vec![9]
        );
        // A list of another type has no such view.
        assert!(doc.list("a").unwrap().int_arrays().is_none());
    };
    std::thread::scope(|s| {
        s.spawn(|| views(&doc));
        s.spawn(|| views(&doc));
    });
    views(&doc);
}

#[test]
fn depth_limits_and_deep_drops() {
    let deep = if cfg!(miri) { 70 } else { 512 };
    for pattern in [&[Kind::C][..], &[Kind::L], &[Kind::C, Kind::L]] {
        let kinds = chain(pattern, deep);
        let tag = chain_tag(&kinds);
        let t = read_tag_both(&tag).0.unwrap();
        let mut out = Vec::new();
        t.write(&mut out).unwrap();
        assert_eq!(out, tag);
        // The drop's explicit stack, past its inline frames.
        drop(t);
        let opts = ReadOptions::default().max_depth(deep as u32 - 1);
        if kinds[0] == Kind::C {
            let e = err(&read_both_with(&chain_named(&kinds), &opts).0);
            assert_eq!(e.kind(), ErrorKind::MaxDepthExceeded);
        }
    }
    let n = if cfg!(miri) { 600 } else { 100_000 };
    let c = deep_owned_compound(n);
    assert!(c == deep_owned_compound(n));
    assert_eq!(c.write(&mut Vec::new()), Err(WriteError::MaxDepthExceeded));
    let (l, l2) = (deep_owned_list(n), deep_owned_list(n));
    assert!(l == l2);
    // Bare list chains and compounds holding them both drop without recursion.
    let mut holder = simdnbt::owned::NbtCompound::new();
    holder.insert("l", l);
    holder.insert("l2", l2);
    drop((c, holder));
}

#[test]
fn hostile_lengths_and_ids() {
    let max = i32::MAX.to_be_bytes();
    let cases: Vec<(Vec<u8>, ErrorKind)> = vec![
        (
            r(&[0x09, 0, 1, b'l', 0x0a, 0x7f, 0xff, 0xff, 0xff]),
            ErrorKind::LengthExceedsInput,
        ),
        (
            r(&cat(&[&[0x0c, 0, 1, b'a'], &max])),
            ErrorKind::LengthExceedsInput,
        ),
        (
            r(&[0x07, 0, 1, b'b', 0xff, 0xff, 0xff, 0xff]),
            ErrorKind::NegativeLength(-1),
        ),
        (
            r(&[0x09, 0, 1, b'l', 0x08, 0x80, 0, 0, 0]),
            ErrorKind::NegativeLength(i32::MIN),
        ),
        (
            r(&[0x09, 0, 1, b'l', 0, 0, 0, 0, 5]),
            ErrorKind::ListOfEndNotEmpty,
        ),
        (r(&[0x0d, 0, 0]), ErrorKind::UnknownTagId(13)),
        (vec![0x1f, 0x8b, 8, 0], ErrorKind::GzipCompressed),
        (vec![0x78, 0x9c, 1, 2], ErrorKind::ZlibCompressed),
        (vec![], ErrorKind::UnexpectedEof),
    ];
    for (bytes, kind) in cases {
        assert_eq!(err(&read_both(&bytes).0).kind(), kind, "{bytes:02x?}");
    }
    assert!(read_both(&[0]).0.unwrap().is_none());
    // A byte budget.
    let bytes = bytes_of(&every_type());
    let opts = ReadOptions::default().max_bytes(100);
    let e = err(&read_both_with(&bytes, &opts).0);
    assert_eq!(e.kind(), ErrorKind::BudgetExceeded);
}

#[test]
fn mutf8_strings() {
    for case in testkit::mutf8::CASES {
        let (raw, text) = (case.raw, case.text);
        let s = Mutf8Str::from_slice(raw);
        assert_eq!(s.as_bytes(), raw);
        assert_eq!(s.len(), raw.len());
        let owned: Mutf8String = s.to_owned();
        assert_eq!(owned.as_bytes(), raw);
        let lossy = s.to_string_lossy();
        match text {
            Some(t) => {
                assert_eq!(s.try_to_str().unwrap(), t);
                assert_eq!(lossy, t);
                if case.is_canonical() {
                    assert_eq!(Mutf8Str::from_str(t).as_bytes(), raw);
                }
            }
            None => {
                assert!(s.try_to_str().is_err());
                assert_eq!(lossy, case.lossy);
            }
        }
        let _ = format!("{s:?}");
    }
    for text in ["", "a", "plain", "ünï", "日本語", "a\0b", "😀x"] {
        let enc = Mutf8Str::from_str(text);
        assert_eq!(enc.to_str(), text);
        let mut c = NbtCompound::new();
        c.insert(text, text);
        let nbt = owned::Nbt::new(text.into(), c);
        let (o, _) = read_both(&bytes_of(&nbt));
        assert!(o.unwrap() == nbt);
    }
}

#[test]
fn owned_tree_api_on_read_data() {
    let nbt = every_type();
    let mut root = nbt.clone().unwrap();
    assert!(root.contains("int"));
    *root.int_mut("int").unwrap() = 7;
    assert_eq!(root.int("int"), Some(7));
    let removed = root.remove("l_compound").unwrap();
    assert!(matches!(removed, NbtTag::List(NbtList::Compound(_))));
    root.insert("again", removed);
    let tags = root.list("l_int").unwrap().as_nbt_tags();
    assert_eq!(tags.len(), 33);
    let bytes = {
        let mut out = Vec::new();
        root.write(&mut out).unwrap();
        out
    };
    let back = read_both(&bytes).0.unwrap().unwrap();
    assert!(back == root);
    drop((back, root, nbt));
}

/// Every byte-swap / ASCII kernel this CPU (or, under Miri, the enabled
/// target features) offers, on the lengths around its vector widths, at an
/// unaligned start, against the scalar path. `.ci/miri.sh` runs this a second
/// time with SSSE3 and AVX2 enabled so that Miri checks those kernels too.
#[test]
fn kernels_agree_with_scalar_on_every_path() {
    use simdnbt::simd::kernels::{self, Kernel};
    // Under Miri the paths are exactly the enabled target features, so with
    // `-C target-feature=+ssse3,+avx2` those kernels must be among them.
    #[cfg(all(miri, target_arch = "x86_64"))]
    {
        let avail = kernels::available();
        assert_eq!(avail.contains(&Kernel::Avx2), cfg!(target_feature = "avx2"));
        assert_eq!(
            avail.contains(&Kernel::Ssse3),
            cfg!(target_feature = "ssse3")
        );
    }
    let data: Vec<u8> = (0..1100u32).map(|i| (i * 37 + 11) as u8).collect();
    let lens = [
        0usize, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129,
    ];
    for path in kernels::available() {
        for &n in &lens {
            // Start at 1: unaligned loads and stores.
            let swap = |size: usize| &data[1..1 + n * size];
            assert_eq!(
                kernels::from_be_bytes::<i16>(path, swap(2)),
                kernels::from_be_bytes::<i16>(Kernel::Scalar, swap(2))
            );
            let ints = kernels::from_be_bytes::<i32>(path, swap(4));
            assert_eq!(ints, kernels::from_be_bytes::<i32>(Kernel::Scalar, swap(4)));
            let longs = kernels::from_be_bytes::<i64>(path, swap(8));
            assert_eq!(
                longs,
                kernels::from_be_bytes::<i64>(Kernel::Scalar, swap(8))
            );
            let floats = kernels::from_be_bytes::<f64>(path, swap(8));
            assert_eq!(floats.len(), n);
            // Back again, appended after an odd prefix.
            let mut out = vec![0xaa];
            kernels::extend_be_bytes(path, &mut out, &ints);
            assert_eq!(&out[1..], swap(4), "{path:?} {n}");
            let mut out = vec![0xaa, 0xbb, 0xcc];
            kernels::extend_be_bytes(path, &mut out, &longs);
            assert_eq!(&out[3..], swap(8), "{path:?} {n}");
        }
        for n in [0, 1, 127, 128, 129, 200, 299] {
            let ascii = vec![b'a'; n];
            assert!(kernels::is_ascii(path, &ascii[..]));
            for at in [0, n / 2, n.saturating_sub(1)] {
                if n > 0 {
                    let mut not = ascii.clone();
                    not[at] = 0x80;
                    assert!(!kernels::is_ascii(path, &not), "{path:?} {n} {at}");
                    assert!(kernels::is_ascii(path, &not[at + 1..]));
                }
            }
        }
    }
}

/// The document model: its reader writes the open compounds' children
/// through raw pointers into a scratch stack that grows past 64 nodes (a
/// compound of 100 children inside another), and is dropped mid-parse on
/// every truncation; then views (the `i8` list view), edits, writes,
/// compaction and drop.
#[test]
fn document_scratch_stack_views_and_edits() {
    use simdnbt::document::{self, Document};
    let mut nbt = every_type();
    let mut wide = NbtCompound::new();
    for i in 0..100 {
        wide.insert(format!("k{i}"), i);
    }
    let mut outer = NbtCompound::new();
    outer.insert("before", 1i8);
    outer.insert("wide", wide);
    outer.insert("after", "x");
    if let owned::Nbt::Some(root) = &mut nbt {
        root.insert("outer", outer);
    }
    let bytes = bytes_of(&nbt);
    let doc = document::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    assert!(doc.to_bytes() == bytes);
    assert!(doc.to_owned_nbt() == nbt);
    let wide = doc.compound("outer").unwrap().compound("wide").unwrap();
    assert_eq!((wide.len(), wide.int("k99")), (100, Some(99)));
    assert_eq!(
        doc.list("l_byte").unwrap().bytes().unwrap(),
        &[-1, 0, 1, 127, -128]
    );
    assert_eq!(doc.int_array("ints").unwrap().len(), 37);

    let step = if cfg!(miri) { 41 } else { 1 };
    for cut in (0..bytes.len()).step_by(step) {
        let d = document::read(&mut Cursor::new(&bytes[..cut])).unwrap_err();
        let b = borrow::read(&mut Cursor::new(&bytes[..cut])).unwrap_err();
        assert_eq!(
            (d.kind(), d.offset()),
            (b.kind(), b.offset()),
            "cut at {cut}"
        );
    }

    let mut doc = Document::from_vec(bytes.clone()).unwrap().unwrap();
    {
        let mut root = doc.as_compound_mut().unwrap();
        root.set("int", 5).unwrap();
        root.set("unicode", "a longer value than before").unwrap();
        root.remove("bytes");
        let mut l = root.list_mut("l_compound").unwrap();
        l.push(NbtCompound::new()).unwrap();
        let mut wide = root
            .compound_mut("outer")
            .unwrap()
            .into_compound_mut("wide")
            .unwrap();
        wide.insert("k100", 100).unwrap();
        let mut a = root.int_array_mut("ints").unwrap();
        a.push(7).unwrap();
        a.set(0, -1).unwrap();
    }
    let written = doc.to_bytes();
    let back = owned::read(&mut Cursor::new(&written[..]))
        .unwrap()
        .unwrap();
    assert_eq!(back.int("int"), Some(5));
    assert!(!back.contains("bytes"));
    assert_eq!(
        back.list("l_compound").unwrap().compounds().unwrap().len(),
        3
    );
    assert_eq!(back.int_array("ints").unwrap()[..1], [-1]);
    doc.compact();
    assert!(doc.to_bytes() == written);
}

/// The document model's one allocation: a document read from a slice keeps
/// its nodes and bytes in one block; edits grow each out of its part on its
/// own (nodes by many new keys, bytes by long values, a compound value
/// through the owned writer), and clones, compaction and drop follow. The
/// owned tree gets the same edits and must write the same bytes.
/// The document writer's explicit stack (`crate::stack`) past its inline
/// frames and through its moves to the heap: an edit at the bottom of a
/// deep chain makes the writer walk every container above it.
#[test]
fn deep_document_edit_walks_the_writer_stack() {
    use simdnbt::document::Document;
    use simdnbt::path::NbtPath;
    let deep = if cfg!(miri) { 40 } else { 300 };
    let mut c = NbtCompound::new();
    c.insert("x", 1);
    for i in 0..deep {
        let mut parent = NbtCompound::new();
        parent.insert("a", c);
        parent.insert("s", format!("{i}"));
        c = parent;
    }
    let mut doc = Document::from_owned(&owned::BaseNbt::new("", c.clone())).unwrap();
    let path = NbtPath::parse(&format!("{}x", "a.".repeat(deep))).unwrap();
    assert_eq!(path.set(&mut doc, NbtTag::Int(2)), Ok(1));
    assert_eq!(path.set(&mut c, NbtTag::Int(2)), Ok(1));
    let mut want = Vec::new();
    owned::BaseNbt::new("", c).write(&mut want).unwrap();
    assert!(doc.to_bytes() == want);
}

#[test]
fn document_block_parts_grow_apart() {
    use simdnbt::document;
    let mut small = NbtCompound::new();
    small.insert("a", 1i8);
    small.insert("s", "short");
    let nbt = owned::Nbt::Some(owned::BaseNbt::new("", small.clone()));
    let bytes = bytes_of(&nbt);
    for order in 0..3 {
        let mut doc = document::read(&mut Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        let mut tree = small.clone();
        let copy = doc.clone();
        let mut root = doc.as_compound_mut().unwrap();
        let mut inner = NbtCompound::new();
        inner.insert("x", NbtList::Int(vec![1, 2, 3]));
        // Each order makes a different part leave the block first.
        let steps: [u8; 3] = match order {
            0 => [0, 1, 2],
            1 => [1, 0, 2],
            _ => [2, 1, 0],
        };
        for step in steps {
            match step {
                0 => {
                    for i in 0..80 {
                        root.insert(&format!("k{i}"), i).unwrap();
                        tree.insert(format!("k{i}"), i);
                    }
                }
                1 => {
                    let long = "a value longer than the headroom of a small document...".repeat(3);
                    root.set("s", long.as_str()).unwrap();
                    tree.insert("s", long.as_str());
                }
                _ => {
                    root.insert("inner", inner.clone()).unwrap();
                    tree.insert("inner", inner.clone());
                }
            }
        }
        let want = bytes_of(&owned::Nbt::Some(owned::BaseNbt::new("", tree)));
        assert!(doc.to_bytes() == want, "order {order}");
        assert!(copy.to_bytes() == bytes);
        let twin = doc.clone();
        doc.compact();
        assert!(doc.to_bytes() == want && twin.to_bytes() == want);
        drop(copy);
    }
}

/// serde's pull reader (`read/pull.rs`: unchecked head and prefix reads) on
/// valid, truncated and corrupted input: it agrees with the borrow reader,
/// and serde reads the document back.
#[cfg(feature = "serde")]
#[test]
fn serde_pull_reader() {
    use simdnbt::serde::{__pull_walk, Options, from_slice};
    let bytes = bytes_of(&every_type());
    let agree = |b: &[u8]| {
        let mut c = Cursor::new(b);
        let pushed = borrow::read(&mut c).map(|_| c.position() as usize);
        let pulled = __pull_walk(b, &Options::new());
        match (&pulled, &pushed) {
            (Ok(a), Ok(p)) => assert_eq!(a, p),
            (Err(a), Err(p)) => assert_eq!((a.kind(), a.offset()), (p.kind(), p.offset())),
            _ => panic!("pull {pulled:?}, push {pushed:?}"),
        }
        let _ = from_slice::<owned::Nbt>(b);
        let _ = from_slice::<serde::de::IgnoredAny>(b);
    };
    // Compared as bytes (the document holds a NaN), past the root name,
    // which serde does not carry.
    let back: owned::Nbt = from_slice(&bytes).unwrap();
    let name = u16::from_be_bytes([bytes[1], bytes[2]]) as usize;
    assert_eq!(bytes_of(&back)[3..], bytes[3 + name..]);
    let step = if cfg!(miri) { 61 } else { 1 };
    for k in (0..bytes.len()).step_by(step) {
        agree(&bytes[..k]);
    }
    let step = if cfg!(miri) { 131 } else { 1 };
    for i in (0..bytes.len()).step_by(step) {
        for v in [0x00, 0x09, 0x0a, 0x7f, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            agree(&b);
        }
    }
}

/// The owned compound's entries (a `Vec`'s parts in 32-bit fields) and its
/// lazy key index (a pointer word that is a count until a lookup installs a
/// boxed index, also from two threads at once): built, kept up to date by
/// insert/push/remove, dropped by `keys_mut`/`clear`/`retain`, cloned,
/// converted to and from a `Vec`, dropped.
#[test]
fn owned_compound_entries_and_key_index() {
    let key = |i: usize| format!("k{i}");
    let mut c = NbtCompound::with_capacity(3);
    for i in 0..80 {
        c.insert(key(i), i as i32);
    }
    // Missing keys scan all 80: the budget (16 scans' worth) builds the
    // index on the 17th, raced by two threads.
    std::thread::scope(|s| {
        for t in 0..2 {
            let c = &c;
            s.spawn(move || {
                for i in 0..20 {
                    assert!(!c.contains(&format!("missing{t}{i}")));
                }
                assert_eq!(c.int("k5"), Some(5));
            });
        }
    });
    for i in 80..90 {
        c.push(key(i), i as i32);
    }
    assert_eq!(c.remove("k3").and_then(|t| t.int()), Some(3));
    assert_eq!(c.remove("k89").and_then(|t| t.int()), Some(89));
    c.insert("k4", "four");
    assert_eq!(c.int("k88"), Some(88));
    assert_eq!(
        c.string("k4").map(|s| s.to_str().into_owned()),
        Some("four".into())
    );
    let copy = c.clone();
    assert_eq!(copy.len(), 88);
    for k in c.keys_mut().take(1) {
        *k = Mutf8String::from("renamed");
    }
    assert_eq!(c.int("renamed"), Some(0));
    c.retain(|_, v| v.int().is_some_and(|i| i % 2 == 0));
    assert_eq!(c.int("k10"), Some(10));
    let v: Vec<(Mutf8String, NbtTag)> = c.into_iter().collect();
    let mut c = NbtCompound::from_values(v);
    assert_eq!(c.int("k86"), Some(86));
    c.clear();
    assert!(c.is_empty());
    drop(copy);
}

/// The document's key indexes: a compound past the threshold built by
/// inserts (the index built through `&` by two threads at once), kept up to
/// date as its block moves, by a remove, dropped by a clone and `clear`.
#[test]
fn document_key_index() {
    let mut doc = simdnbt::document::Document::from_vec(vec![0x0a, 0, 0, 0])
        .unwrap()
        .unwrap();
    let mut root = doc.as_compound_mut().unwrap();
    for i in 0..130 {
        root.insert(&format!("k{i}"), i).unwrap();
        // A sibling that grows too: the root's block moves past it.
        if i % 40 == 0 {
            root.insert(&format!("c{i}"), NbtCompound::new()).unwrap();
            root.compound_mut(format!("c{i}").as_str())
                .unwrap()
                .push("x", 1)
                .unwrap();
        }
    }
    let doc = &doc;
    std::thread::scope(|s| {
        for t in 0..2 {
            s.spawn(move || {
                for i in 0..50 {
                    assert!(!doc.contains(&format!("missing{t}{i}")));
                }
                assert_eq!(doc.int("k7"), Some(7));
            });
        }
    });
    let mut doc = doc.clone();
    let mut root = doc.as_compound_mut().unwrap();
    assert!(root.remove("k3"));
    root.insert("k200", 200).unwrap();
    assert_eq!(doc.int("k129"), Some(129));
    assert_eq!(doc.int("k3"), None);
    doc.as_compound_mut().unwrap().clear();
    assert_eq!(doc.int("k129"), None);
}
