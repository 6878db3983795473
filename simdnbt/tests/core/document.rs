//! The document model (`simdnbt::document`): every corpus file read → write
//! byte-exact; random edit scripts agree with the owned tree after every edit
//! (the test kit's `edit` module); every hostile case, truncation and limit
//! answers exactly as the borrow reader; deep documents on a small stack.

use std::io::Cursor;

use crate::support::*;
use simdnbt::document::{self, Document, Framing};
use simdnbt::{ErrorKind, ReadOptions, borrow, owned};
use testkit::document::agree;

#[test]
fn corpus_read_write_is_byte_exact() {
    for name in corpus::all_names() {
        let bytes = corpus::load(name).unwrap();
        let form = document::Framing::Named;
        let doc = document::read_root(&mut Cursor::new(bytes), form, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap();
        let out = doc.to_bytes();
        assert!(out == bytes, "{name}: write differs");
        let mut payload = Vec::new();
        doc.root().write_payload(&mut payload);
        let header = 3 + doc.name().len();
        assert!(payload == bytes[header..], "{name}: payload write differs");
        if name != "stringtest.nbt" {
            let o = owned::read(&mut Cursor::new(bytes)).unwrap().unwrap();
            assert!(
                doc.as_compound().unwrap().to_owned() == *o,
                "{name}: to_owned"
            );
        }
    }
}

/// `n` bytes from a xorshift generator seeded with `seed`.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The unnamed form (id, payload) of a named document.
fn unnamed(named: &[u8]) -> Vec<u8> {
    let name_len = u16::from_be_bytes([named[1], named[2]]) as usize;
    let mut v = vec![named[0]];
    v.extend_from_slice(&named[3 + name_len..]);
    v
}

#[test]
fn random_edits_agree_with_the_owned_tree_on_every_corpus_file() {
    let mut total = 0;
    for name in corpus::all_names() {
        let bytes = unnamed(corpus::load(name).unwrap());
        // Each edit compares whole documents: a few scripts on the
        // megabyte files.
        let scripts = if bytes.len() > 100_000 { 1 } else { 12 };
        let edits = if bytes.len() > 100_000 { 8 } else { 60 };
        for seed in 0..scripts {
            let data = noise(seed + 1, 4096);
            let mut src = testkit::edit::Source::new(&data);
            let compact = (seed % 3) as usize * 7;
            total += testkit::edit::check_random_edits(&bytes, &mut src, edits, compact);
        }
    }
    assert!(total > 1000, "only {total} edits ran");
}

#[test]
fn every_hostile_case_answers_as_the_borrow_reader() {
    for case in testkit::hostile::cases() {
        agree(&case.bytes, &ReadOptions::default(), case.name);
        let mut c = Cursor::new(&case.bytes[..]);
        case.expect.check(
            document::read(&mut c).map(|d| d.is_some()),
            &format!("{}: document", case.name),
        );
    }
}

#[test]
fn every_truncation_of_the_small_corpus_files_fails_as_the_borrow_reader() {
    let mut cuts = 0;
    for name in [
        "bigtest.nbt",
        "simple_player.dat",
        "hello_world.nbt",
        "complex_player.dat",
    ] {
        let bytes = corpus::load(name).unwrap();
        for cut in 0..bytes.len() {
            agree(
                &bytes[..cut],
                &ReadOptions::default(),
                &format!("{name} cut at {cut}"),
            );
            cuts += 1;
        }
    }
    assert!(cuts > 5000);
}

#[test]
fn depth_and_budget_limits_answer_as_the_borrow_reader() {
    for pattern in [
        &[Kind::C][..],
        &[Kind::C, Kind::L],
        &[Kind::L],
        &[Kind::L, Kind::C],
    ] {
        for depth in [510, 511, 512, 513, 600] {
            let kinds = chain(pattern, depth);
            for max in [512, 511, 1000] {
                let opts = ReadOptions::default().max_depth(max);
                agree(
                    &chain_tag(&kinds),
                    &opts,
                    &format!("{pattern:?} {depth} max {max}"),
                );
                if kinds[0] == Kind::C {
                    agree(
                        &chain_named(&kinds),
                        &opts,
                        &format!("{pattern:?} {depth} named"),
                    );
                }
            }
        }
    }
    let bytes = corpus::load("complex_player.dat").unwrap();
    for budget in [0, 1, 3, 100, 1000, 3379, 3380, 3381] {
        agree(
            bytes,
            &ReadOptions::default().max_bytes(budget),
            &format!("budget {budget}"),
        );
    }
}

#[test]
fn roots_of_any_type_and_taken_vectors() {
    // stringtest.nbt: a named List root.
    let bytes = corpus::load("stringtest.nbt").unwrap();
    let doc = document::read_root(
        &mut Cursor::new(bytes),
        Framing::Named,
        &ReadOptions::default(),
    )
    .unwrap()
    .unwrap();
    assert!(doc.root().list().is_some());
    assert!(doc.to_bytes() == bytes);
    let taken = Document::from_vec_with(bytes.to_vec(), Framing::Named, &ReadOptions::default())
        .unwrap()
        .unwrap();
    assert!(taken == doc);
    // `read` (compound roots only) refuses it like the borrow reader.
    let e = document::read(&mut Cursor::new(bytes)).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidRootType(9), 0));
    // A vector with bytes after the document keeps only the document.
    let mut padded = corpus::load("bigtest.nbt").unwrap().to_vec();
    let len = padded.len();
    padded.extend_from_slice(b"trailing");
    let doc = Document::from_vec(padded).unwrap().unwrap();
    assert_eq!(doc.to_bytes().len(), len);
    // Unnamed tags of every kind, through the cursor forms.
    for tag in [
        owned::NbtTag::Int(5),
        owned::NbtTag::String("s".into()),
        owned::NbtTag::LongArray(vec![1, 2]),
        owned::NbtTag::List(owned::NbtList::Double(vec![0.5])),
    ] {
        let mut bytes = Vec::new();
        tag.write(&mut bytes).unwrap();
        let doc = document::read_tag(&mut Cursor::new(&bytes[..])).unwrap();
        assert_eq!(doc.root().to_owned(), tag);
        assert_eq!(doc.to_bytes(), bytes);
        assert_eq!(Document::from_owned_tag(&tag).unwrap().to_bytes(), bytes);
    }
}

#[test]
fn conversions_and_text() {
    let bytes = corpus::load("bigtest.nbt").unwrap();
    let doc = document::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    let o = owned::read(&mut Cursor::new(bytes)).unwrap();
    assert!(doc.to_owned_nbt() == o);
    let b = borrow::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    assert!(Document::from_borrow(&b) == doc);
    assert!(Document::from_owned(&o.clone().unwrap()).unwrap() == doc);
    assert_eq!(
        simdnbt::snbt::to_string(&doc).unwrap(),
        simdnbt::snbt::to_string(&o.clone().unwrap().as_compound()).unwrap()
    );
    assert_eq!(
        format!("{:?}", doc.root()),
        format!("{:?}", owned::NbtTag::Compound(o.unwrap().as_compound()))
    );
}

#[cfg(feature = "compression")]
#[test]
fn compressed_documents_read_and_write_back() {
    use simdnbt::compression::{Compression, Decompressed};
    let bytes = corpus::load("complex_player.dat").unwrap();
    for format in [Compression::Gzip, Compression::Zlib, Compression::Raw] {
        let packed = simdnbt::compression::compress(bytes, format);
        let doc = Decompressed::from_bytes(&packed)
            .unwrap()
            .into_document()
            .unwrap();
        assert!(doc.to_bytes() == bytes, "{format:?}");
        let again = Decompressed::from_bytes(&doc.to_compressed(format)).unwrap();
        assert_eq!(again.compression(), format);
        assert!(again.as_bytes() == bytes);
    }
    let dir = std::env::temp_dir().join(format!("simdnbt-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("player.dat");
    std::fs::write(
        &path,
        simdnbt::compression::compress(bytes, Compression::Gzip),
    )
    .unwrap();
    let (mut doc, format) = Document::read_file(&path).unwrap();
    assert_eq!(format, Compression::Gzip);
    doc.as_compound_mut().unwrap().set("Score", 99).unwrap();
    doc.write_file(&path, format).unwrap();
    let back = simdnbt::compression::read_owned_file(&path).unwrap();
    assert_eq!(back.int("Score"), Some(99));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads, edits at the deepest level, writes, converts, prints and drops a
/// 512-deep document of every shape on a small stack: nothing recurses.
#[test]
fn a_512_deep_document_is_handled_on_a_256k_stack() {
    on_small_stack(|| {
        for pattern in [
            &[Kind::C][..],
            &[Kind::C, Kind::L],
            &[Kind::L],
            &[Kind::L, Kind::C],
        ] {
            let kinds = chain(pattern, 512);
            let tag = chain_tag(&kinds);
            let what = format!("{pattern:?}");
            let mut doc = document::read_tag(&mut Cursor::new(&tag[..])).expect(&what);
            assert!(doc.to_bytes() == tag, "{what}: write");
            let owned = owned::read_tag(&mut Cursor::new(&tag[..])).unwrap();
            assert!(doc.root().to_owned() == owned, "{what}: to_owned");
            assert_eq!(
                format!("{:?}", doc.root()),
                format!("{owned:?}"),
                "{what}: Debug"
            );
            assert_eq!(
                format!("{:#?}", doc.root()),
                format!("{owned:#?}"),
                "{what}: pretty Debug"
            );
            // Dirty every level: the writer walks all 512.
            deepest(&mut doc, &kinds);
            let out = doc.to_bytes();
            let back = owned::read_tag(&mut Cursor::new(&out[..])).expect(&what);
            assert!(back != owned, "{what}: the edit shows");
            doc.compact();
            assert!(doc.to_bytes() == out, "{what}: compact");
            drop(doc);
        }
    });
}

/// Sets a value in the innermost container (a compound gets a key, a list
/// of bytes its first byte), walking down with the consuming handles.
fn deepest(doc: &mut Document, kinds: &[Kind]) {
    enum H<'d> {
        C(document::NbtCompoundMut<'d>),
        L(document::NbtListMut<'d>),
    }
    let mut h = match kinds[0] {
        Kind::C => H::C(doc.as_compound_mut().unwrap()),
        Kind::L => H::L(doc.as_list_mut().unwrap()),
    };
    for next in &kinds[1..] {
        h = match (h, next) {
            (H::C(c), Kind::C) => H::C(c.into_compound_mut("c").unwrap()),
            (H::C(c), Kind::L) => H::L(c.into_list_mut("c").unwrap()),
            (H::L(l), Kind::C) => H::C(l.into_compound_mut(0).unwrap()),
            (H::L(l), Kind::L) => H::L(l.into_list_mut(0).unwrap()),
        };
    }
    match h {
        H::C(mut c) => c.set("x", 7).unwrap(),
        H::L(mut l) => l.set(0, 9i8).unwrap(),
    }
}

/// A crafted file that repeats a key: every model's lookup, paths and
/// filters see the last entry; `insert` replaces that entry, `push`
/// appends, `remove` takes every entry (docs/format.md §3), alike in the
/// document, the owned tree and the borrow views.
#[test]
fn a_repeated_key_counts_by_its_last_entry_in_every_model() {
    use simdnbt::path::NbtPath;
    // {a: 1b, b: 7, a: 2b}
    let bytes = [
        0x0a, 0, 0, 1, 0, 1, b'a', 1, 3, 0, 1, b'b', 0, 0, 0, 7, 1, 0, 1, b'a', 2, 0,
    ];
    let b = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(b.as_compound().byte("a"), Some(2));
    let o = owned::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    assert_eq!(o.byte("a"), Some(2));
    let mut d = Document::from_vec(bytes.to_vec()).unwrap().unwrap();
    assert_eq!(d.as_compound().unwrap().byte("a"), Some(2));

    let path = NbtPath::parse("a").unwrap();
    let picked = |p: &str| NbtPath::parse(p).unwrap();
    assert_eq!(path.get_all(&o)[0].to_tag().byte(), Some(2));
    assert_eq!(path.get_all(b.as_compound())[0].to_owned().byte(), Some(2));
    assert_eq!(
        path.get_all(d.as_compound().unwrap())[0].to_owned().byte(),
        Some(2)
    );
    // A filter compares the counted entry: {a: 2b} matches, {a: 1b} does not.
    for (filter, want) in [("{a: 2b}.b", 1), ("{a: 1b}.b", 0)] {
        assert_eq!(picked(filter).get_all(&o).len(), want, "{filter}");
        assert_eq!(
            picked(filter).get_all(b.as_compound()).len(),
            want,
            "{filter}"
        );
        let root = d.as_compound().unwrap();
        assert_eq!(picked(filter).get_all(root).len(), want, "{filter}");
    }

    // Edits: the document against the owned tree, byte for byte.
    let mut o = o.as_compound();
    let mut root = d.as_compound_mut().unwrap();
    root.insert("a", 5i8).unwrap();
    o.insert("a", 5i8);
    root.push("b", 8).unwrap();
    o.push("b", 8);
    assert_eq!(root.as_compound().int("b"), Some(8));
    assert!(root.remove("a"));
    assert_eq!(o.remove("a").map(|t| t.byte()), Some(Some(5)));
    assert!(!root.as_compound().contains("a") && !o.contains("a"));
    assert_eq!(root.as_compound().len(), 2);
    let mut want = Vec::new();
    o.write(&mut want).unwrap();
    assert!(
        d.to_bytes()[3..] == want[..],
        "document and owned tree differ"
    );
}

/// A million pushes into a list (of strings, of Ints, of compounds) and into
/// a compound, each two levels down and not the last thing in the document:
/// amortized O(1) each (they were quadratic: every push past about 4,100
/// elements compacted the document, and a push into a list of numbers copied
/// it). Bounded generously in time (seconds; quadratic work takes hours), and
/// read back.
#[test]
#[cfg_attr(miri, ignore = "a million edits")]
fn a_million_pushes_into_nested_containers_take_bounded_time() {
    const N: usize = 1_000_000;
    fn doc_with(inner: owned::NbtTag) -> Document {
        let mut c = owned::NbtCompound::new();
        c.insert("l", inner);
        c.insert("after", "tail");
        let mut root = owned::NbtCompound::new();
        root.insert("c", c);
        root.insert("z", 1);
        Document::from_owned(&owned::BaseNbt::new("", root)).unwrap()
    }
    let start = std::time::Instant::now();
    let empty = || owned::NbtTag::List(owned::NbtList::Empty);

    let mut doc = doc_with(empty());
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        let mut l = c.list_mut("l").unwrap();
        for i in 0..N {
            l.push(["a", "bc", "def"][i % 3]).unwrap();
        }
    }
    let bytes = doc.to_bytes();
    let back = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    let strings = back.compound("c").unwrap().list("l").unwrap();
    let strings = strings.strings().unwrap();
    assert_eq!(strings.len(), N);
    assert!(
        strings
            .iter()
            .enumerate()
            .all(|(i, s)| s.to_str() == ["a", "bc", "def"][i % 3])
    );

    let mut doc = doc_with(empty());
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        let mut l = c.list_mut("l").unwrap();
        for i in 0..N {
            l.push(i as i32).unwrap();
        }
    }
    let ints = doc
        .compound("c")
        .unwrap()
        .list("l")
        .unwrap()
        .ints()
        .unwrap();
    assert!(ints.len() == N && ints.iter().enumerate().all(|(i, &v)| v == i as i32));

    let mut doc = doc_with(empty());
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        let mut l = c.list_mut("l").unwrap();
        for i in 0..N {
            let mut e = owned::NbtCompound::new();
            e.insert("i", i as i32);
            l.push(e).unwrap();
        }
    }
    let back = owned::read(&mut Cursor::new(&doc.to_bytes()[..]))
        .unwrap()
        .unwrap();
    let list = back
        .compound("c")
        .unwrap()
        .list("l")
        .unwrap()
        .compounds()
        .unwrap();
    assert!(
        list.len() == N
            && list
                .iter()
                .enumerate()
                .all(|(i, e)| e.int("i") == Some(i as i32))
    );

    let mut doc = doc_with(owned::NbtTag::Compound(owned::NbtCompound::new()));
    {
        let mut root = doc.as_compound_mut().unwrap();
        let mut c = root.compound_mut("c").unwrap();
        let mut l = c.compound_mut("l").unwrap();
        for i in 0..N {
            l.push(&i.to_string(), i as i64).unwrap();
        }
    }
    let bytes = doc.to_bytes();
    let back = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    let c = back.compound("c").unwrap().compound("l").unwrap();
    assert_eq!(c.len(), N);
    assert!(
        c.iter()
            .enumerate()
            .all(|(i, (k, v))| k.to_str() == i.to_string() && v.long() == Some(i as i64))
    );
    assert_eq!(
        back.compound("c")
            .unwrap()
            .string("after")
            .unwrap()
            .to_str(),
        "tail"
    );

    // About 50 s in a debug build on a loaded 2-core machine; the quadratic
    // pushes took 48 s (release) for 100,000 strings alone.
    let took = start.elapsed();
    assert!(took.as_secs() < 300, "{took:?}");
}

/// A document deeper than the default limit (read with a raised one, then
/// made a document from the borrowed tree, whose edits keep to 512) compacts,
/// on request and by itself after large edits, at its own depth.
#[test]
#[cfg_attr(miri, ignore = "large edits")]
fn a_document_deeper_than_512_compacts() {
    let deep = chain_named(&chain(&[Kind::C, Kind::L], 700));
    let opts = ReadOptions::default().max_depth(1000);
    let nbt = borrow::read_with(&mut Cursor::new(&deep[..]), &opts)
        .unwrap()
        .unwrap();
    let mut doc = Document::from_borrow(&nbt);
    doc.compact();
    assert!(doc.to_bytes() == deep);
    // Large sets grow the bytes past the compaction threshold.
    let big = "x".repeat(60_000);
    for i in 0..12 {
        let s = format!("{big}{i}");
        doc.as_compound_mut()
            .unwrap()
            .set("big", s.as_str())
            .unwrap();
        assert_eq!(doc.string("big").unwrap().to_str(), s);
    }
    let mut doc = document::read_with(&mut Cursor::new(&deep[..]), &opts)
        .unwrap()
        .unwrap();
    for i in 0..12 {
        let s = format!("{big}{i}");
        doc.as_compound_mut()
            .unwrap()
            .set("big", s.as_str())
            .unwrap();
    }
    doc.compact();
    let mut want = owned::read_with(&mut Cursor::new(&deep[..]), &opts)
        .unwrap()
        .unwrap();
    want.insert("big", format!("{big}11"));
    let got = owned::read_with(&mut Cursor::new(&doc.to_bytes()[..]), &opts)
        .unwrap()
        .unwrap();
    assert!(got == want);
}

/// The conversions into a document refuse a value past the 2 GiB a document
/// holds: `try_from_borrow` and `from_owned` with an error, `from_borrow`
/// with its documented panic.
#[test]
#[ignore = "2.2 GB of memory (2 GiB values copied); run with --ignored"]
fn conversions_past_2_gib_are_errors() {
    // {a: [B; 2^30 bytes], b: [B; 2^30 bytes]}: a zeroed buffer, only the
    // entries' heads written (an array is at most 2^31 - 1 long).
    let half = 1usize << 30;
    let n = 3 + 2 * (8 + half) + 1;
    let mut bytes = vec![0u8; n];
    bytes[..3].copy_from_slice(&[0x0a, 0, 0]);
    for (at, name) in [(3, b'a'), (3 + 8 + half, b'b')] {
        bytes[at..at + 4].copy_from_slice(&[0x07, 0, 1, name]);
        bytes[at + 4..at + 8].copy_from_slice(&(half as u32).to_be_bytes());
    }
    let nbt = borrow::read(&mut Cursor::new(&bytes[..])).unwrap().unwrap();
    let e = Document::try_from_borrow(&nbt).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InputTooLarge);
    let root = nbt.as_compound();
    let tag = root.get("a").unwrap();
    // Half of it fits.
    assert_eq!(
        Document::try_from_borrow_tag(tag)
            .unwrap()
            .root()
            .byte_array()
            .map(<[u8]>::len),
        Some(half)
    );
    let panicked = std::panic::catch_unwind(|| Document::from_borrow(&nbt)).is_err();
    assert!(panicked, "from_borrow's documented panic");
    drop(nbt);
    drop(bytes);
    let mut c = owned::NbtCompound::new();
    c.insert("a", owned::NbtTag::ByteArray(vec![0; half]));
    c.insert("b", owned::NbtTag::ByteArray(vec![0; half]));
    let e = Document::from_owned(&owned::BaseNbt::new("", c)).unwrap_err();
    assert_eq!(e, simdnbt::WriteError::DocumentTooLarge { len: n });
}
