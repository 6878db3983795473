//! One path API over the three models: `get_all`, `get` and `resolve_all`
//! on owned, borrowed and document roots select the same values by the same
//! concrete paths, and `set` and `remove` on a [`Document`] do what they do
//! on the owned tree (the same counts, the same errors and the same bytes
//! written); on every corpus file and many paths.

use std::io::Cursor;

use simdnbt::document::{self, Document, EditError};
use simdnbt::owned::{self, NbtCompound, NbtTag};
use simdnbt::path::{NbtPath, PathErrorKind};

/// Files whose root is a compound (all but stringtest.nbt, whose root is a List).
fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    corpus::all_names()
        .filter(|name| *name != "stringtest.nbt")
        .map(|name| (name, corpus::load(name).unwrap_or_else(|e| panic!("{e}"))))
}

fn read(bytes: &[u8]) -> (owned::BaseNbt, Document) {
    let owned = owned::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    let doc = document::read(&mut Cursor::new(bytes)).unwrap().unwrap();
    (owned, doc)
}

fn owned_bytes(owned: &owned::BaseNbt) -> Vec<u8> {
    let mut out = Vec::new();
    owned.write(&mut out).unwrap();
    out
}

/// Paths into `root`: every concrete path two levels down (keys and
/// indices), each key's last element, its elements and entries, and every
/// descendant of its name; plus a few fixed ones (a new key, a filter).
/// Fewer for a large file (each edit clones and writes it, twice).
fn paths(root: &NbtCompound, size: usize) -> Vec<NbtPath> {
    let each = match size {
        0..=16_384 => 16,
        16_385..=1_048_576 => 3,
        _ => 1,
    };
    let mut out: Vec<NbtPath> = [
        "new",
        "a.b",
        "*",
        "[]",
        "..id",
        "..Count",
        "Inventory[{Slot:0b}]",
    ]
    .iter()
    .map(|p| NbtPath::parse(p).unwrap())
    .collect();
    for pattern in ["*", "*.*", "*[0]", "*.*[1]"] {
        let pattern = NbtPath::parse(pattern).unwrap();
        for (path, _) in pattern.resolve_all(root).into_iter().take(each) {
            let text = path.to_string();
            out.push(path);
            for tail in ["[]", "[-1]", ".*", "[{}]"] {
                out.push(NbtPath::parse(&format!("{text}{tail}")).unwrap());
            }
        }
    }
    for (key, _) in root.iter().take(each / 2) {
        // Keys a path names without quotes.
        out.extend(NbtPath::parse(&format!("..{}", key.to_str())).ok());
    }
    out
}

fn values() -> Vec<NbtTag> {
    vec![
        NbtTag::Int(7),
        NbtTag::Byte(1),
        NbtTag::Long(5),
        NbtTag::from("v"),
        NbtTag::Compound(simdnbt::snbt::compound_from_str("{k: [1, 2]}").unwrap()),
    ]
}

/// Equal tags, a NaN equal to itself (the corpus has float fields).
fn same(a: &NbtTag, b: &NbtTag) -> bool {
    a == b || format!("{a:?}") == format!("{b:?}")
}

#[test]
fn the_three_models_select_the_same_values_on_the_corpus() {
    let mut selected = 0;
    for (name, bytes) in files() {
        let (owned, doc) = read(bytes);
        let borrowed = simdnbt::borrow::read(&mut Cursor::new(bytes))
            .unwrap()
            .unwrap();
        let extra = ["", "{}", "..Pos", "*.*.*", "Inventory[].id", "..id{}"];
        let extra = extra.iter().map(|p| NbtPath::parse(p).unwrap());
        for path in paths(&owned, bytes.len()).into_iter().chain(extra) {
            let o = path.resolve_all(&owned);
            let b = path.resolve_all(borrowed.as_compound());
            let d = path.resolve_all(doc.as_compound().unwrap());
            assert_eq!(o.len(), b.len(), "{name}: {path}: owned vs borrow");
            assert_eq!(o.len(), d.len(), "{name}: {path}: owned vs document");
            for ((op, ov), ((bp, bv), (dp, dv))) in o.iter().zip(b.iter().zip(&d)) {
                assert_eq!(op, bp, "{name}: {path}: borrow resolves elsewhere");
                assert_eq!(op, dp, "{name}: {path}: document resolves elsewhere");
                let ov = ov.to_tag().into_owned();
                assert!(same(&ov, &bv.to_owned()), "{name}: {path} at {op}: borrow");
                assert!(
                    same(&ov, &dv.to_owned()),
                    "{name}: {path} at {op}: document"
                );
            }
            // The roots answer as their compounds, and `get` is the first.
            assert_eq!(path.get_all(&borrowed).len(), o.len(), "{name}: {path}");
            assert_eq!(path.get_all(&doc).len(), o.len(), "{name}: {path}");
            let first = path.get(&doc).map(|v| v.to_owned());
            let want = o.first().map(|(_, v)| v.to_tag().into_owned());
            assert_eq!(first.is_some(), want.is_some(), "{name}: {path}: get");
            if let (Some(first), Some(want)) = (first, want) {
                assert!(same(&first, &want), "{name}: {path}: get");
            }
            selected += o.len();
        }
    }
    assert!(selected > 10_000, "only {selected} values selected");
}

#[test]
fn set_on_a_document_agrees_with_the_owned_tree_on_the_corpus() {
    let mut checked = 0;
    for (name, bytes) in files() {
        let (owned, doc) = read(bytes);
        // Files over 1 MiB: one value (each edit clones and writes them twice).
        let values = values()
            .into_iter()
            .take(if bytes.len() > 1 << 20 { 1 } else { 5 });
        for path in paths(&owned, bytes.len()) {
            for value in values.clone() {
                let mut o = owned.clone();
                let mut d = doc.clone();
                let want = path.set(&mut o, value.clone());
                let got = path.set(&mut d, value.clone());
                assert_eq!(got, want, "{name}: set {path} {value:?}");
                assert!(
                    d.to_bytes() == owned_bytes(&o),
                    "{name}: set {path} {value:?} writes other bytes"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} edits checked");
}

#[test]
fn remove_on_a_document_agrees_with_the_owned_tree_on_the_corpus() {
    let mut removed = 0;
    for (name, bytes) in files() {
        let (owned, doc) = read(bytes);
        for path in paths(&owned, bytes.len()) {
            let mut o = owned.clone();
            let mut d = doc.clone();
            let want = path.remove(&mut o);
            assert_eq!(path.remove(&mut d), want, "{name}: rm {path}");
            assert!(
                d.to_bytes() == owned_bytes(&o),
                "{name}: rm {path} writes other bytes"
            );
            removed += want;
        }
    }
    assert!(removed > 1000, "only {removed} values removed");
}

#[test]
fn set_on_a_document_on_arrays_and_empty_lists() {
    let root = simdnbt::snbt::compound_from_str(
        "{b: [B; 1b, 2b, 3b], i: [I; 1, 2, 3], l: [L; 1L, 2L], e: [], n: [[I; 4, 5]]}",
    )
    .unwrap();
    let owned = owned::BaseNbt::new("", root);
    let doc = Document::from_owned(&owned).unwrap();
    for (path, value) in [
        ("b[1]", NbtTag::Byte(9)),
        ("i[]", NbtTag::Int(0)),
        ("l[-1]", NbtTag::Long(8)),
        ("e[]", NbtTag::from("first")),
        ("n[0][1]", NbtTag::Int(6)),
        ("i[0]", NbtTag::Long(1)),
    ] {
        let path = NbtPath::parse(path).unwrap();
        let mut o = owned.clone();
        let mut d = doc.clone();
        assert_eq!(path.set(&mut d, value.clone()), path.set(&mut o, value));
        assert!(d.to_bytes() == owned_bytes(&o), "set {path}");
    }
    for path in ["b[0]", "i[-1]", "l[]", "n[0][0]", "e[]", "i[5]"] {
        let path = NbtPath::parse(path).unwrap();
        let mut o = owned.clone();
        let mut d = doc.clone();
        assert_eq!(path.remove(&mut d), path.remove(&mut o));
        assert!(d.to_bytes() == owned_bytes(&o), "rm {path}");
    }
}

#[test]
fn a_refused_value_leaves_the_document_as_it_was() {
    let root = simdnbt::snbt::compound_from_str("{a: {s: 1}, b: {s: 2}}").unwrap();
    let doc = Document::from_owned(&root.into()).unwrap();
    let long = NbtTag::from("x".repeat(70_000).as_str());
    // One place, and two (the first is set before the second is refused...
    // both refused here, so the document goes back to how it was).
    for path in ["a.s", "*.s"] {
        let mut d = doc.clone();
        let err = NbtPath::parse(path)
            .unwrap()
            .set(&mut d, long.clone())
            .unwrap_err();
        assert!(
            matches!(
                err.kind(),
                PathErrorKind::Refused {
                    error: EditError::StringTooLong { len: 70_000 },
                    ..
                }
            ),
            "{path}: {err}"
        );
        assert_eq!(d.to_bytes(), doc.to_bytes(), "{path}: changed");
    }
}
