//! `nbt_path`: any text parses as an NBT path to `Ok` or an `Err` with a
//! sensible column, never a panic; what parses prints and reads back as
//! itself; and evaluating it against a small document (owned, borrowed and
//! document models), setting and removing, never panics and keeps the
//! models' claims: `set` / `remove` on the document give the owned tree's
//! counts, errors and written bytes.
//!
//! Every filter of the path also matches exactly what vanilla's
//! `compareNbt`, written plainly (`testkit::filter`), matches, against every
//! compound of the document (the indexed matcher against the reference), and
//! the path selects what evaluation written plainly (`testkit::path`)
//! selects, `..key` and `*` included.
//!
//! Input: `PATH` or `PATH\nSNBT`. The document is the SNBT compound after the
//! first line break when it parses, else a fixed document with every kind of
//! value (lists of compounds, nested and mixed lists, arrays, odd keys).

use std::io::Cursor;

use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::path::{BorrowValue, NbtPath, PathSegment, Value};
use simdnbt::snbt;

/// The document used when the input brings none.
pub const DEFAULT_DOC: &str = r#"{Inventory: [{Slot: 0b, id: "minecraft:stone", count: 3b, tag: {display: {Name: "x"}, ench: [{id: 1s}, {id: 2s}]}}, {Slot: 1b, id: "minecraft:dirt"}], a: [1, 2, 3], b: {c: [[1, 2], [3]], "d e": 1.5f, "": 0L}, e: [], arr: [I; 1, 2, 3], bytes: [B; 4b], longs: [L; 9L], mixed: [1, "s", {k: 1b}], f: -0.0f}"#;

/// The `nbt_path` target.
pub fn nbt_path(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (path_text, doc_text) = match text.split_once('\n') {
        Some((p, d)) => (p, Some(d)),
        None => (&*text, None),
    };
    let path = match NbtPath::parse(path_text) {
        Ok(p) => p,
        Err(e) => {
            let chars = path_text.chars().count();
            assert!(
                (1..=chars + 1).contains(&e.column()),
                "column {} outside 1..={} for {path_text:?}",
                e.column(),
                chars + 1
            );
            assert!(
                e.to_string()
                    .starts_with(&format!("column {}: ", e.column()))
            );
            return;
        }
    };
    check_display(&path);
    let root = doc_text
        .and_then(|d| snbt::compound_from_str(d).ok())
        .unwrap_or_else(|| snbt::compound_from_str(DEFAULT_DOC).expect("the default document"));
    let value = [
        NbtTag::Int(7),
        NbtTag::Byte(1),
        NbtTag::from("v"),
        NbtTag::Compound(NbtCompound::new()),
    ][data.len() % 4]
        .clone();
    evaluate(&path, &root, value);
}

/// Printing is stable and reads back as the same path.
pub fn check_display(path: &NbtPath) {
    let printed = path.to_string();
    let back = NbtPath::parse(&printed)
        .unwrap_or_else(|e| panic!("printed path {printed:?} does not parse: {e}"));
    assert!(&back == path, "print → parse changed {printed:?}: {back:?}");
    assert_eq!(back.to_string(), printed, "printing is not stable");
}

fn write(root: &NbtCompound) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    BaseNbt::new("", root.clone()).write(&mut out).ok()?;
    Some(out)
}

/// Every compound of `root` (the root included), breadth first, at most `limit`.
fn compounds(root: &NbtCompound, limit: usize) -> Vec<&NbtCompound> {
    let mut out = vec![root];
    let mut lists: Vec<&NbtList> = Vec::new();
    let mut next = 0;
    while out.len() < limit && (next < out.len() || !lists.is_empty()) {
        if let Some(l) = lists.pop() {
            match l {
                NbtList::Compound(v) => out.extend(v.iter()),
                NbtList::List(v) => lists.extend(v.iter()),
                _ => {}
            }
            continue;
        }
        for (_, tag) in out[next].iter() {
            match tag {
                NbtTag::Compound(c) => out.push(c),
                NbtTag::List(l) => lists.push(l),
                _ => {}
            }
        }
        next += 1;
    }
    out.truncate(limit);
    out
}

/// Each filter of `path` against every compound of `root`: the matcher and
/// the plain `compareNbt` agree.
pub fn check_filters(path: &NbtPath, root: &NbtCompound) {
    let targets = compounds(root, 200);
    for segment in path.segments() {
        let (PathSegment::Filter(filter) | PathSegment::ElementFilter(filter)) = segment else {
            continue;
        };
        for target in &targets {
            let want = testkit::filter::compound_matches(filter.compound(), target);
            assert_eq!(
                filter.matches(Value::Compound(target)),
                want,
                "{filter} against {:?}",
                snbt::to_string(*target)
            );
        }
    }
}

/// get_all (owned and borrowed agree), resolve_all (each concrete path leads
/// back to its value), set and remove on copies.
pub fn evaluate(path: &NbtPath, root: &NbtCompound, value: NbtTag) {
    check_filters(path, root);
    let found: Vec<NbtTag> = path
        .get_all(root)
        .iter()
        .map(|v| v.to_tag().into_owned())
        .collect();
    assert!(
        found == testkit::path::select(path, root),
        "{path} selects other values than the plain reference"
    );
    let mut document = None;
    if let Some(bytes) = write(root) {
        let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
            .expect("a written document reads back")
            .unwrap();
        let borrowed: Vec<NbtTag> = path
            .get_all(nbt.as_compound())
            .iter()
            .map(BorrowValue::to_owned)
            .collect();
        assert!(
            found == borrowed,
            "owned and borrowed matches differ for {path}"
        );
        let doc = simdnbt::document::Document::from_vec(bytes)
            .expect("a written document reads back")
            .unwrap();
        let in_doc: Vec<NbtTag> = path
            .get_all(doc.as_compound().unwrap())
            .iter()
            .map(|v| v.to_owned())
            .collect();
        assert!(
            found == in_doc,
            "owned and document matches differ for {path}"
        );
        let resolved = path.resolve_all(doc.as_compound().unwrap());
        assert_eq!(
            resolved.len(),
            found.len(),
            "document resolve_all for {path}"
        );
        document = Some(doc);
    }
    let resolved = path.resolve_all(root);
    assert_eq!(resolved.len(), found.len());
    for ((concrete, v), want) in resolved.iter().zip(&found) {
        assert!(concrete.is_concrete(), "{concrete:?}");
        assert!(&v.to_tag().into_owned() == want);
        check_display(concrete);
        let again = concrete.get_all(root);
        assert_eq!(
            again.len(),
            1,
            "{concrete} (from {path}) selects {}",
            again.len()
        );
        assert!(
            &again[0].to_tag().into_owned() == want,
            "{concrete} leads elsewhere"
        );
    }

    let mut edited = root.clone();
    let set = path.set(&mut edited, value.clone());
    if let Some(doc) = &document {
        check_document_set(path, doc, value, &set, &edited);
    }
    match set {
        Ok(n) => {
            assert!(n >= 1, "set reported success but wrote nothing");
            // The writer may refuse a document made too deep; what it
            // writes reads back as the edited document.
            if let Some(bytes) = write(&edited) {
                let back = simdnbt::owned::read(&mut Cursor::new(&bytes[..]))
                    .expect("an edited document reads back")
                    .unwrap();
                assert!(
                    back.as_compound() == edited,
                    "the edited document changed on the way"
                );
            }
        }
        Err(e) => {
            assert!(edited == *root, "a failed set changed the document: {e}");
            assert!(!e.to_string().is_empty());
        }
    }

    let mut edited = root.clone();
    let removed = path.remove(&mut edited);
    if path.selects_root() {
        assert_eq!(removed, 0);
    } else {
        assert_eq!(
            removed,
            found.len(),
            "remove and get_all disagree on {path}"
        );
    }
    if removed == 0 {
        assert!(edited == *root, "remove of nothing changed the document");
    }
    if let Some(doc) = &document {
        let mut d = doc.clone();
        assert_eq!(
            path.remove(&mut d),
            removed,
            "remove on the document and on the tree disagree on {path}"
        );
        assert!(
            Some(d.to_bytes()) == write(&edited),
            "remove on the document writes other bytes than on the tree for {path}"
        );
    }
}

/// `set` on the document against `set` on the owned tree (`want`, the tree it left
/// in `edited`): the same count and bytes, or the same error and the
/// document unchanged; or the document refused a value the owned writer
/// refuses too (a string too long, nesting too deep), and is unchanged.
fn check_document_set(
    path: &NbtPath,
    doc: &simdnbt::document::Document,
    value: NbtTag,
    want: &Result<usize, simdnbt::path::PathError>,
    edited: &NbtCompound,
) {
    use simdnbt::path::PathErrorKind;
    let mut d = doc.clone();
    match path.set(&mut d, value) {
        Err(e) if matches!(e.kind(), PathErrorKind::Refused { .. }) => {
            assert!(want.is_ok(), "{path}: refused ({e}) where set failed");
            assert!(
                write(edited).is_none(),
                "{path}: refused ({e}) a writable edit"
            );
            assert!(d == *doc, "{path}: a refused set changed the document");
        }
        got => {
            assert_eq!(
                &got, want,
                "set on the document and on the tree disagree on {path}"
            );
            match got {
                Ok(_) => assert!(
                    Some(d.to_bytes()) == write(edited),
                    "set on the document writes other bytes than on the tree for {path}"
                ),
                Err(_) => assert!(d == *doc, "{path}: a failed set changed the document"),
            }
        }
    }
}

/// Seeds: one path per node kind and some with their own documents.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let paths = [
        "Inventory[{Slot:0b}].id",
        "Inventory[].tag.display.Name",
        "Inventory[{tag:{ench:[{id:2s}]}}].count",
        "a[-1]",
        "a[0]",
        "a[]",
        "b.c[][0]",
        "b.\"d e\"",
        "b.''",
        "{a:[1]}.b",
        "b{c:[[3]]}.c",
        "arr[-3]",
        "mixed[{k:1b}]",
        "{f:-0.0f}",
        "",
        "e[]",
        "x.y",
        "a[-2147483648]",
        "Inventory[{Slot:1b}]\n{Inventory:[{Slot:1b},{Slot:1b,q:[L;1L]}]}",
        "'a\\'b'[0]\n{\"a'b\":[{}]}",
        // Past the matcher's thresholds: more keys than it scans, more
        // distinct leaves than it compares directly, a long document list.
        "a{k0:0,k1:1,k2:2,k3:3,k4:4,k5:5,k6:6,k7:7,k8:8,k9:9}\n{a:{k9:9,k8:8,k7:7,k6:6,k5:5,k4:4,k3:3,k2:2,k1:1,k0:0,k0:1}}",
        "l[{v:[9,1,8,2,7,3,3]}]\n{l:[{v:[0,1,2,3,4,5,6,7,8,9]},{v:[1,2,3,7,8]},{v:[9,8,7,3,2,1,0,0,0,0]}]}",
        "{s:[\"a\",\"b\",\"c\",\"d\",\"e\"],f:[0.0f,-0.0f,1.5f,2.5f,3.5f]}\n{s:[\"e\",\"d\",\"c\",\"b\",\"a\",\"x\",\"y\",\"z\",\"w\"],f:[0.0f,1.5f,2.5f,3.5f,4.5f,5.5f,6.5f,7.5f,8.5f]}",
        "{m:[1,\"a\",[I;1],2,3,4]}\n{m:[4,3,2,1,\"a\",[I;1],[L;1L],{k:1},5,6]}",
        // This crate's extensions: `..key` and `*`, alone, nested, filtered.
        "..id",
        "..Slot",
        "Inventory..id",
        "..tag..id",
        "*",
        "*.*",
        "b.*[0]",
        "*.c",
        "..ench[{id:2s}]",
        "..display{Name:\"x\"}.Name",
        "*{Name:\"x\"}",
        "{f:-0.0f}..k",
        "..a..a..a\n{a:{a:{a:{a:1}},b:[{a:2},{a:{a:3}}]},a:4}",
        "..\"*\"\n{\"*\":{\"*\":1}}",
        "*\n{a:1,a:2,b:[I;1,2]}",
    ];
    paths
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("path-{i:02}"), p.as_bytes().to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_hostile_paths_pass() {
        for (_, seed) in seeds() {
            nbt_path(&seed);
        }
        let deep_filter = format!("a{}{}", "{b:[".repeat(300), "]}".repeat(300));
        // A 500-deep document, and a root filter that is the same document.
        let deep = format!("{}1b{}", "{b:[".repeat(250), "]}".repeat(250));
        let deep_doc = format!("{deep}\n{deep}");
        let deep_walk = format!("{}\n{deep}", "b[0].".repeat(249));
        for text in [
            "\u{0}",
            "[",
            "[-",
            "[-0]",
            "a[18446744073709551616]",
            "a[-9223372036854775808]",
            "\"\\",
            "'\\'",
            "{",
            "a{",
            "a{b:[I;",
            "...",
            "..",
            "..*",
            "*..",
            &"..a".repeat(2000),
            &"*".repeat(100),
            &"*.".repeat(2000),
            "a.",
            "a.[0]",
            &"[]".repeat(5000),
            &"a.".repeat(5000),
            &deep_filter,
            &deep_doc,
            &deep_walk,
        ] {
            nbt_path(text.as_bytes());
        }
    }
}
