//! NBT paths: every node kind against corpus documents and small built ones,
//! owned and borrowed evaluation agreeing, set/remove edge cases, every parse
//! error with its column, and hostile paths.
#![cfg(feature = "snbt")]

use std::io::Cursor;

use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};
use simdnbt::path::{BorrowValue, NbtPath, PathErrorKind, PathParseErrorKind, PathSegment, Value};
use simdnbt::snbt;

fn p(text: &str) -> NbtPath {
    NbtPath::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn doc(text: &str) -> NbtCompound {
    snbt::compound_from_str(text).unwrap()
}

fn corpus(name: &str) -> NbtCompound {
    let bytes = corpus::load(name).unwrap();
    simdnbt::owned::read(&mut Cursor::new(bytes))
        .unwrap()
        .unwrap()
        .as_compound()
}

fn to_bytes(c: &NbtCompound) -> Vec<u8> {
    let mut out = Vec::new();
    BaseNbt::new("", c.clone()).write(&mut out).unwrap();
    out
}

/// The SNBT of every value `path` selects in `root`, after checking that the
/// borrowed document gives the same values and `resolve_all` the same ones
/// with paths that lead back to them.
fn snbts(path: &str, root: &NbtCompound) -> Vec<String> {
    let path = p(path);
    let owned: Vec<NbtTag> = path
        .get_all(root)
        .iter()
        .map(|v| v.to_tag().into_owned())
        .collect();
    let bytes = to_bytes(root);
    let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    let borrowed: Vec<NbtTag> = path
        .get_all(nbt.as_compound())
        .iter()
        .map(BorrowValue::to_owned)
        .collect();
    assert_eq!(owned, borrowed, "owned and borrowed differ for {path}");
    let resolved = path.resolve_all(root);
    assert_eq!(resolved.len(), owned.len());
    for ((concrete, v), want) in resolved.iter().zip(&owned) {
        assert!(concrete.is_concrete());
        assert_eq!(&v.to_tag().into_owned(), want);
        let again = p(&concrete.to_string()).get_all(root);
        assert_eq!(again.len(), 1, "{concrete} from {path}");
        assert_eq!(&again[0].to_tag().into_owned(), want);
    }
    owned.iter().map(|t| snbt::to_string(t).unwrap()).collect()
}

#[test]
fn player_inventory_by_slot_and_all_names() {
    let player = corpus("complex_player.dat");
    assert_eq!(
        snbts("Inventory[{Slot:0b}].id", &player),
        [r#""minecraft:diamond_sword""#]
    );
    assert_eq!(
        snbts("Inventory[].tag.display.Name", &player),
        [r#""Shinzuki""#, r#""Spencer's Bae""#, r#""Nate's Booties""#]
    );
    assert_eq!(snbts("Inventory[-1].Slot", &player), ["103b"]);
    assert_eq!(snbts("Inventory[0].Slot", &player), ["0b"]);
    assert_eq!(snbts("Inventory[-25].Slot", &player), ["0b"]);
    assert!(snbts("Inventory[-26].Slot", &player).is_empty());
    assert!(snbts("Inventory[25]", &player).is_empty());
    assert_eq!(
        snbts(
            r#"Attributes[{Name:"generic.movementSpeed"}].Modifiers[0].Operation"#,
            &player
        ),
        ["2"]
    );
    // A list in a filter: each filter element matches some enchantment.
    let both = snbts(
        "Inventory[{tag:{ench:[{id:34s},{id:21s,lvl:3s}]}}].Slot",
        &player,
    );
    assert_eq!(both, ["0b"]);
    let found = p("Inventory[{tag:{display:{}}}]").resolve_all(&player);
    let paths: Vec<String> = found.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(paths.len(), 3);
    assert_eq!(paths[0], "Inventory[0]");
    // A key with a filter, and a filter at the root.
    assert_eq!(snbts("SelectedItem{Count:1b}.Damage", &player), ["1196s"]);
    assert!(snbts("SelectedItem{Count:2b}.Damage", &player).is_empty());
    assert_eq!(snbts("{XpLevel:51}.Health", &player), ["20s"]);
    assert!(snbts("{XpLevel:52}.Health", &player).is_empty());
}

#[test]
fn bigtest_quoted_keys_arrays_and_the_root() {
    let big = corpus("bigtest.nbt");
    assert_eq!(
        snbts(r#""nested compound test".egg.name"#, &big),
        [r#""Eggbert""#]
    );
    assert_eq!(snbts("'listTest (long)'[-1]", &big), ["15L"]);
    assert_eq!(snbts("\"listTest (long)\"[]", &big).len(), 5);
    assert_eq!(
        snbts(
            r#""listTest (compound)"[{name:"Compound tag #1"}]."created-on""#,
            &big
        ),
        ["1264099775885L"]
    );
    let array = "'byteArrayTest (the first 1000 values of (n*n*255+n*7)%100, starting with n=0 (0, 62, 34, 16, 8, ...))'";
    assert_eq!(snbts(&format!("{array}[1]"), &big), ["62b"]);
    assert_eq!(snbts(&format!("{array}[-1]"), &big), ["48b"]);
    assert_eq!(snbts(&format!("{array}[]"), &big).len(), 1000);
    // Element filters take compound elements of lists only.
    assert!(snbts(&format!("{array}[{{}}]"), &big).is_empty());
    // Paths that select the root return it.
    assert_eq!(p("").get_all(&big).len(), 1);
    assert!(matches!(
        p("{byteTest:127b}").get(&big),
        Some(Value::Compound(_))
    ));
    assert!(p("{byteTest:1b}").get_all(&big).is_empty());
    assert_eq!(snbts("{byteTest:127b}.shortTest", &big), ["32767s"]);
    assert_eq!(snbts("{}.intTest", &big), ["2147483647"]);
    assert!(p("{}").selects_root() && p("").selects_root());
}

/// Every concrete path in a document, breadth first (no recursion), at most
/// `limit` of them.
fn concrete_paths(root: &NbtCompound, limit: usize) -> Vec<NbtPath> {
    let mut out = Vec::new();
    let mut queue = vec![NbtPath::new()];
    while let Some(path) = queue.pop() {
        if out.len() >= limit {
            break;
        }
        let value = path.get(root).unwrap();
        let tag = value.to_tag();
        let mut children: Vec<NbtPath> = Vec::new();
        let segments: Vec<PathSegment> = path.segments().cloned().collect();
        let extend = |last: PathSegment| {
            let mut s = segments.clone();
            s.push(last);
            let mut p = NbtPath::new();
            for seg in s.into_iter().rev() {
                match seg {
                    PathSegment::Key(k) => p.push_key_front(k),
                    PathSegment::Index(i) => p.push_index_front(i),
                    _ => unreachable!(),
                }
            }
            p
        };
        match &*tag {
            NbtTag::Compound(c) => {
                for (k, _) in c.iter() {
                    children.push(extend(PathSegment::Key(k.to_string_lossy().into_owned())));
                }
            }
            NbtTag::List(l) => children.extend((0..l.len()).map(|i| extend(PathSegment::Index(i)))),
            NbtTag::IntArray(a) => {
                children.extend((0..a.len().min(3)).map(|i| extend(PathSegment::Index(i))))
            }
            _ => {}
        }
        if !path.is_empty() {
            out.push(path);
        }
        queue.extend(children);
    }
    out
}

#[test]
fn every_concrete_path_of_corpus_files_reads_back_the_same_in_both_models() {
    for name in [
        "complex_player.dat",
        "bigtest.nbt",
        "level.dat",
        "hypixel.nbt",
        "chunk1.14.nbt",
    ] {
        let root = corpus(name);
        let paths = concrete_paths(&root, 3000);
        assert!(paths.len() > 20, "{name}");
        let bytes = to_bytes(&root);
        let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        for path in &paths {
            let text = path.to_string();
            let parsed = p(&text);
            assert_eq!(&parsed, path, "{name}: {text}");
            let owned = parsed.get_all(&root);
            assert!(!owned.is_empty(), "{name}: {text}");
            let borrowed = parsed.get_all(nbt.as_compound());
            let owned: Vec<NbtTag> = owned.iter().map(|v| v.to_tag().into_owned()).collect();
            let borrowed: Vec<NbtTag> = borrowed.iter().map(BorrowValue::to_owned).collect();
            assert_eq!(owned, borrowed, "{name}: {text}");
        }
    }
}

#[test]
fn quoted_keys_with_dots_spaces_and_quotes() {
    let root = doc(
        r#"{"a.b": {"c d": 1, "q\"uote": 2, "back\\slash": 3, "it's": 4, "": 5, "x[0]": 6, "é": 7}}"#,
    );
    assert_eq!(snbts(r#""a.b"."c d""#, &root), ["1"]);
    assert_eq!(snbts("'a.b'.'c d'", &root), ["1"]);
    assert_eq!(snbts(r#""a.b"."q\"uote""#, &root), ["2"]);
    assert_eq!(snbts(r#"'a.b'.'q"uote'"#, &root), ["2"]);
    assert_eq!(snbts(r#""a.b"."back\\slash""#, &root), ["3"]);
    assert_eq!(snbts(r#""a.b".'it\'s'"#, &root), ["4"]);
    assert_eq!(snbts(r#""a.b"."it's""#, &root), ["4"]);
    assert_eq!(snbts("\"a.b\".\"\"", &root), ["5"]);
    assert_eq!(snbts(r#""a.b"."x[0]""#, &root), ["6"]);
    assert_eq!(snbts(r#""a.b".é"#, &root), ["7"]);
    assert!(snbts("a.b", &root).is_empty());
    // What resolve_all reports prints with the one quoting rule.
    let names: Vec<String> = p(r#""a.b"{}"#)
        .resolve_all(&root)
        .into_iter()
        .map(|(c, _)| c.to_string())
        .collect();
    assert_eq!(names, [r#""a.b""#]);
    let q = p(r#""a.b".'it\'s'"#).resolve_all(&root);
    assert_eq!(q[0].0.to_string(), r#""a.b"."it's""#);
    let bs = p(r#""a.b"."back\\slash""#).resolve_all(&root);
    assert_eq!(bs[0].0.to_string(), r#""a.b"."back\\slash""#);
}

#[test]
fn filters_follow_vanilla_matching() {
    let root = doc(
        r#"{a: [{b: [1, 2, 3], n: 0}, {b: [4], n: 1}, {b: [], n: 2}, {n: 3}],
            f: {z: -0.0f, o: 0.0f, d: 1.5d}, arr: {i: [I; 1, 2], l: [L; 5]},
            s: {t: "x", nested: {deep: [{k: [{v: 1b}]}]}}, mixed: [1, "a"]}"#,
    );
    let n = |path: &str| snbts(path, &root);
    assert_eq!(n("a[{b:[3,1]}].n"), ["0"]);
    assert_eq!(n("a[{b:[1,1]}].n"), ["0"]);
    assert_eq!(n("a[{b:[4]}].n"), ["1"]);
    assert!(n("a[{b:[5]}].n").is_empty());
    // The empty list filter matches only empty lists.
    assert_eq!(n("a[{b:[]}].n"), ["2"]);
    assert_eq!(n("a[{}].n").len(), 4);
    // Types must agree: 1b is not 1, a list is not an array.
    assert!(n("a[{n:0b}]").is_empty());
    assert!(n("arr{i:[1,2]}").is_empty());
    // Floats by bits; arrays whole.
    assert_eq!(n("f{z:-0.0f}.d"), ["1.5d"]);
    assert!(n("f{z:0.0f}.d").is_empty());
    assert_eq!(n("f{o:0.0f, d:1.5d}.d"), ["1.5d"]);
    assert_eq!(n("arr{i:[I;1,2]}.l"), ["[L;5L]"]);
    assert!(n("arr{i:[I;1]}.l").is_empty());
    assert!(n("arr{i:[I;1,2,3]}.l").is_empty());
    // Nested lists of compounds inside a filter.
    assert_eq!(n("s{nested:{deep:[{k:[{v:1b}]}]}}.t"), [r#""x""#]);
    assert!(n("s{nested:{deep:[{k:[{v:2b}]}]}}.t").is_empty());
    // Mixed lists are `{"": v}` wrappers on both sides.
    assert_eq!(n("{mixed:[\"a\"]}.mixed[]").len(), 2);
    assert!(n("{mixed:[\"b\"]}.mixed").is_empty());
    // A filter on something that is not a compound selects nothing.
    assert!(n("s.t{}").is_empty());
    assert!(n("a[0].b[{}]").is_empty());
}

#[test]
fn display_round_trips_and_concrete_text_is_unchanged() {
    for text in [
        "",
        "a",
        "a.b.c",
        "[0]",
        "a[0][1].b",
        "a[-1]",
        "a[]",
        "a[][].b",
        "a[{b:1b}]",
        "{a:1}",
        "{a:1}.b",
        "a{b:[1,2]}.c",
        r#""a b".c"#,
        r#""""#,
        r#""q\"\\""#,
        "Inventory[{Slot:0b}].id",
        "Items[].tag.display.Name",
        "minecraft:x",
    ] {
        let path = p(text);
        let printed = path.to_string();
        assert_eq!(p(&printed), path, "{text} printed as {printed}");
    }
    // Normalising forms print one way.
    assert_eq!(p("a.[0]").to_string(), "a[0]");
    assert_eq!(p("a.").to_string(), "a");
    assert_eq!(p("a[-0]").to_string(), "a[0]");
    assert_eq!(p("'a'").to_string(), "a");
    assert_eq!(p("minecraft:x").to_string(), r#""minecraft:x""#);
    assert_eq!(p("a{ b : 1b }").to_string(), "a{b:1b}");
    assert_eq!(p("a[007]").to_string(), "a[7]");
    // Concrete paths: exactly the text errors have always printed.
    let built = NbtPath::new()
        .with_key("Inventory")
        .with_index(3)
        .with_key("tag")
        .with_key("display")
        .with_key("Name");
    assert_eq!(built.to_string(), "Inventory[3].tag.display.Name");
    let big = NbtPath::new().with_index(usize::MAX);
    assert_eq!(p(&big.to_string()), big);
    let odd = NbtPath::new().with_key("\"").with_key("a\nb");
    assert_eq!(odd.to_string(), "\"\\\"\".\"a\nb\"");
    assert_eq!(p(&odd.to_string()), odd);
}

#[test]
fn every_parse_error_has_its_column() {
    let cases: &[(&str, usize, &str)] = &[
        (".a", 1, "expected a key"),
        ("a...b", 4, "expected a key"),
        ("a..", 4, "expected a key"),
        ("..*", 3, "expected a key (write `\"*\"` for the key `*`)"),
        ("*[", 3, "expected an index, `]` or `{`"),
        ("a b", 2, "expected `.`, `[` or the end of the path"),
        ("a]", 2, "expected `.`, `[` or the end of the path"),
        (" a", 1, "expected a key"),
        ("a[", 3, "expected an index, `]` or `{`"),
        ("a[x]", 3, "expected an index, `]` or `{`"),
        ("a[1", 4, "expected `]`"),
        ("a[1x]", 4, "expected `]`"),
        ("a[-]", 4, "expected digits"),
        ("a[+1]", 3, "expected an index, `]` or `{`"),
        ("a[1.5]", 4, "expected `]`"),
        ("a[{b:1}", 8, "expected `]`"),
        (
            "a[0]{b:1}",
            5,
            "a filter `{…}` may only follow a key or start the path",
        ),
        (
            "a.{b:1}",
            3,
            "a filter `{…}` may only follow a key or start the path",
        ),
        (
            "a{b:1}{c:1}",
            7,
            "a filter `{…}` may only follow a key or start the path",
        ),
        ("\"abc", 1, "quoted key without its closing quote"),
        ("'abc\\'", 1, "quoted key without its closing quote"),
        (
            "\"a\\nb\"",
            3,
            "invalid escape (a quoted key knows only `\\\\` and `\\` before its quote)",
        ),
        (
            "'a\\\"'",
            3,
            "invalid escape (a quoted key knows only `\\\\` and `\\` before its quote)",
        ),
        ("a[99999999999999999999999]", 3, "index out of range"),
        ("a[-99999999999999999999999]", 3, "index out of range"),
        ("a{b:}", 5, "in the filter: expected a value"),
        ("a{b:1", 6, "in the filter: expected `,` or `}`"),
        (
            "{a:128b}",
            4,
            "in the filter: number out of range for its type",
        ),
        ("é.ü...x", 6, "expected a key"),
        ("}", 1, "expected a key"),
    ];
    for &(text, column, message) in cases {
        let err = NbtPath::parse(text).expect_err(text);
        assert_eq!(err.column(), column, "{text}: {err}");
        assert_eq!(
            err.to_string(),
            format!("column {column}: {message}"),
            "{text}"
        );
        assert!(text.parse::<NbtPath>().is_err());
    }
    let deep = format!("a{}{}", "{b:".repeat(600), "}".repeat(600));
    let err = NbtPath::parse(&deep).unwrap_err();
    assert!(matches!(err.kind(), PathParseErrorKind::Filter(_)), "{err}");
}

#[test]
fn set_replaces_creates_and_refuses_cleanly() {
    let mut root = doc(
        r#"{a: [1, 2, 3], c: {}, items: [{Slot: 0b, id: "x"}, {Slot: 1b, id: "y"}], e: [], arr: [I; 1, 2]}"#,
    );
    let set =
        |root: &mut NbtCompound, path: &str, v: &str| p(path).set(root, snbt::from_str(v).unwrap());
    assert_eq!(set(&mut root, "a[-1]", "9"), Ok(1));
    assert_eq!(set(&mut root, "a[0]", "7"), Ok(1));
    assert_eq!(set(&mut root, "c.new", "'v'"), Ok(1));
    assert_eq!(set(&mut root, "c.new", "'w'"), Ok(1));
    assert_eq!(set(&mut root, "items[{Slot:1b}].id", "'z'"), Ok(1));
    assert_eq!(set(&mut root, "items[].count", "1b"), Ok(2));
    assert_eq!(set(&mut root, "e[]", "{q:1}"), Ok(1));
    assert_eq!(set(&mut root, "arr[1]", "5"), Ok(1));
    assert_eq!(set(&mut root, "c{new:'w'}", "{k:1}"), Ok(1));
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        r#"{a:[7,2,9],c:{k:1},items:[{Slot:0b,id:"x",count:1b},{Slot:1b,id:"z",count:1b}],e:[{q:1}],arr:[I;1,5]}"#
    );
    let before = snbt::to_string(&root).unwrap();
    let kind = |r: Result<usize, simdnbt::path::PathError>| r.unwrap_err().kind().clone();
    // Nothing there: missing parents are not created (vanilla would).
    assert_eq!(
        kind(set(&mut root, "x.y", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(
        kind(set(&mut root, "a[3]", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(
        kind(set(&mut root, "a[-4]", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(
        kind(set(&mut root, "c{k:2}", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(
        kind(set(&mut root, "missing{}", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(
        kind(set(&mut root, "a.b", "1")),
        PathErrorKind::NothingSelected
    );
    assert_eq!(kind(set(&mut root, "", "{}")), PathErrorKind::SelectsRoot);
    assert_eq!(kind(set(&mut root, "{}", "{}")), PathErrorKind::SelectsRoot);
    // Wrong element type: an error naming the place, and nothing changes.
    let err = set(&mut root, "items[].id", "1").map(|_| ());
    assert!(err.is_ok(), "a compound key takes any type");
    let err = set(&mut root, "a[]", "'s'").unwrap_err();
    assert_eq!(
        err.kind(),
        &PathErrorKind::WrongType {
            at: p("a[0]"),
            expected: 3,
            found: 8
        }
    );
    assert_eq!(err.to_string(), "a[]: a[0] holds Int elements, not String");
    assert_eq!(
        kind(set(&mut root, "arr[0]", "1b")),
        PathErrorKind::WrongType {
            at: p("arr[0]"),
            expected: 3,
            found: 1
        }
    );
    let after = snbt::to_string(&root).unwrap();
    assert_ne!(before, after, "items[].id was set above");
    assert!(after.contains("a:[7,2,9]"));
}

#[test]
fn remove_counts_and_keeps_indices_straight() {
    let mut root = doc(
        r#"{a: [0, 1, 2, 3, 4], b: [{k: 1}, {k: 2}, {k: 1}], c: {d: 1, e: 2}, arr: [B; 1, 2, 3], l: [[1], [2]]}"#,
    );
    assert_eq!(p("b[{k:1}]").remove(&mut root), 2);
    assert_eq!(p("a[-1]").remove(&mut root), 1);
    assert_eq!(p("a[1]").remove(&mut root), 1);
    assert_eq!(p("arr[0]").remove(&mut root), 1);
    assert_eq!(p("c{d:1}.e").remove(&mut root), 1);
    assert_eq!(p("c{d:2}.d").remove(&mut root), 0);
    assert_eq!(p("l[][0]").remove(&mut root), 2);
    assert_eq!(p("nothing").remove(&mut root), 0);
    assert_eq!(p("").remove(&mut root), 0);
    assert_eq!(p("{}").remove(&mut root), 0);
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        "{a:[0,2,3],b:[{k:2}],c:{d:1},arr:[B;2b,3b],l:[[],[]]}"
    );
    assert_eq!(p("a[]").remove(&mut root), 3);
    assert_eq!(p("a[]").remove(&mut root), 0);
    assert_eq!(p("c").remove(&mut root), 1);
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        "{a:[],b:[{k:2}],arr:[B;2b,3b],l:[[],[]]}"
    );
}

#[test]
fn hostile_paths_do_not_crash() {
    let root = doc("{a: [1, 2], b: {c: [[1, 2], [3]]}}");
    // Extreme indices select nothing.
    for text in [
        "a[-2147483648]",
        "a[2147483647]",
        "a[18446744073709551615]",
        "a[-18446744073709551615]",
    ] {
        assert!(snbts(text, &root).is_empty(), "{text}");
    }
    assert_eq!(snbts("a[-2]", &root), ["1"]);
    // Long paths: linear work, no recursion.
    let long = "b.".repeat(100_000) + "c";
    assert!(p(&long).get_all(&root).is_empty());
    let many = "[]".repeat(10_000);
    assert!(p(&format!("b.c{many}")).get_all(&root).is_empty());
    // Deep filters (under SNBT's 512 limit) match against deep documents on
    // a small stack: matching keeps its own stack.
    let levels = 250; // a compound and a list each: 500 deep
    let text = format!("{}1b{}", "{a:[".repeat(levels), "]}".repeat(levels));
    let deep_doc = doc(&text);
    let path = p(&text);
    let handle = std::thread::Builder::new()
        .stack_size(64 * 1024)
        // The document and path go back out to be dropped: dropping a deep
        // tree is the owned model's business, not the matcher's.
        .spawn(move || (path.get_all(&deep_doc).len(), path, deep_doc))
        .unwrap();
    assert_eq!(handle.join().unwrap().0, 1);
}

#[test]
fn values_convert_and_name_their_types() {
    let root = doc("{l: [[1], [2]], s: ['a', 'b'], ia: [[I; 1], [I; 2]], f: [1.5f]}");
    let v = p("l[1]").get(&root).unwrap();
    assert!(matches!(v, Value::List(NbtList::Int(_))));
    assert_eq!(v.id(), simdnbt::tag_id::LIST);
    assert!(matches!(p("s[0]").get(&root), Some(Value::String(_))));
    assert!(matches!(p("ia[1]").get(&root), Some(Value::IntArray([2]))));
    assert_eq!(
        p("ia[1][0]").get(&root),
        Some(Value::Number(simdnbt::Number::Int(2)))
    );
    assert_eq!(
        p("f[0]").get(&root),
        Some(Value::Number(simdnbt::Number::Float(1.5)))
    );
    assert!(p("l").get(&root).unwrap().list().is_some());
}

#[test]
fn set_and_remove_through_root_filters_element_filters_and_arrays() {
    let mut root =
        doc("{id: 1, list: [{k: 1}, {k: 2}], ints: [1, 2], arr: [L; 1L, 2L], mixed: [1, 'a']}");
    let set =
        |root: &mut NbtCompound, path: &str, v: &str| p(path).set(root, snbt::from_str(v).unwrap());
    assert_eq!(set(&mut root, "{id:1}.tag", "'yes'"), Ok(1));
    assert_eq!(
        set(&mut root, "{id:2}.tag", "'no'").unwrap_err().kind(),
        &PathErrorKind::NothingSelected
    );
    assert_eq!(set(&mut root, "list[{k:2}]", "{k:3, new:1b}"), Ok(1));
    assert_eq!(
        set(&mut root, "ints[{}]", "1").unwrap_err().kind(),
        &PathErrorKind::NothingSelected
    );
    assert_eq!(set(&mut root, "arr[-1]", "9L"), Ok(1));
    assert_eq!(set(&mut root, "arr[]", "0L"), Ok(2));
    // A mixed list is stored as `{"": v}` compounds and takes compounds.
    assert!(matches!(
        set(&mut root, "mixed[0]", "5").unwrap_err().kind(),
        PathErrorKind::WrongType { .. }
    ));
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        r#"{id:1,list:[{k:1},{k:3,new:1b}],ints:[1,2],arr:[L;0L,0L],mixed:[1,"a"],tag:"yes"}"#
    );
    assert_eq!(p("{id:1}.list[{k:1}]").remove(&mut root), 1);
    assert_eq!(p("{id:9}.ints").remove(&mut root), 0);
    assert_eq!(p("arr[-1]").remove(&mut root), 1);
    assert_eq!(p("mixed[{\"\":'a'}]").remove(&mut root), 1);
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        r#"{id:1,list:[{k:3,new:1b}],ints:[1,2],arr:[L;0L],mixed:[{"":1}],tag:"yes"}"#
    );
}

/// A built path and document for the filter cost tests: `n` filter leaves or
/// keys against `n` document elements or keys, each found only after the
/// others (the worst order for a linear search).
fn big_filter_cases(n: usize) -> Vec<(&'static str, NbtPath, NbtCompound)> {
    use simdnbt::path::Filter;
    let ints = |it: &mut dyn Iterator<Item = i32>| NbtList::Int(it.collect());
    let with = |key: &str, tag: NbtTag| {
        let mut c = NbtCompound::new();
        c.insert(key, tag);
        c
    };
    let path = |filter: NbtCompound, element: bool| {
        let filter = Filter::new(filter);
        let text = if element {
            format!("a[{filter}]")
        } else {
            format!("a{filter}")
        };
        p(&text)
    };
    let n32 = n as i32;
    // `a[{l:[n-1, …, 1, 0]}]` against `a: [{l: [0, 1, …, n-1]}]`.
    let distinct = (
        "list filter, distinct leaves",
        path(with("l", NbtTag::List(ints(&mut (0..n32).rev()))), true),
        with(
            "a",
            NbtTag::List(NbtList::Compound(vec![with(
                "l",
                NbtTag::List(ints(&mut (0..n32))),
            )])),
        ),
    );
    // `a[{l:[1, 1, …]}]` against a list whose only 1 is last.
    let repeated = (
        "list filter, one leaf repeated",
        path(
            with("l", NbtTag::List(ints(&mut std::iter::repeat_n(1, n)))),
            true,
        ),
        with(
            "a",
            NbtTag::List(NbtList::Compound(vec![with(
                "l",
                NbtTag::List(ints(&mut (2..n32 + 1).chain([1]))),
            )])),
        ),
    );
    // `a{k0:0, k1:1, …}` against a compound with the same keys, reversed.
    let keys = |order: &mut dyn Iterator<Item = usize>| {
        NbtCompound::from_values(
            order
                .map(|i| (format!("k{i}").into(), NbtTag::Int(i as i32)))
                .collect(),
        )
    };
    let compound = (
        "compound filter",
        path(keys(&mut (0..n)), false),
        with("a", NbtTag::Compound(keys(&mut (0..n).rev()))),
    );
    vec![distinct, repeated, compound]
}

/// Filters cost near-linear time in the filter and the document: the three
/// shapes of issue 26 at 100 000 list elements and 200 000 keys, owned and
/// borrowed, each in well under a second in a debug build (a linear search
/// per element or key, 10^10 steps, took hours). `FILTER_COST_N=20000`
/// runs a smaller size (how the linear search was timed).
#[test]
fn big_filters_against_big_documents_take_near_linear_time() {
    let size = |default| std::env::var("FILTER_COST_N").map_or(default, |v| v.parse().unwrap());
    for (what, path, root) in big_filter_cases(size(100_000))
        .into_iter()
        .take(2)
        .chain(big_filter_cases(size(200_000)).into_iter().skip(2))
    {
        let bytes = to_bytes(&root);
        let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        let start = std::time::Instant::now();
        assert_eq!(path.get_all(&root).len(), 1, "{what}");
        let owned = start.elapsed();
        let start = std::time::Instant::now();
        assert_eq!(path.get_all(nbt.as_compound()).len(), 1, "{what}");
        let borrowed = start.elapsed();
        eprintln!("{what}: owned {owned:?}, borrowed {borrowed:?}");
        // Alone on the machine each takes well under a second; the test
        // binary runs its tests in parallel on a shared 2-core box, so the
        // bound is generous. The linear search needs hours at this size.
        let bound = std::time::Duration::from_secs(30);
        assert!(
            owned < bound && borrowed < bound,
            "{what}: {owned:?} / {borrowed:?}"
        );
    }
}

/// A small xorshift generator, so the random cases below are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A raw key or string: `00` bytes are raw (as crafted binary input holds them).
fn raw(bytes: &[u8]) -> simdnbt::Mutf8String {
    simdnbt::Mutf8String::from_vec(bytes.to_vec())
}

/// A random document value from a small alphabet (so that filters derived
/// from one value often match another), with compounds of up to 13 keys
/// (duplicates and a raw-`00` key among them) and lists of up to 13
/// elements: both sides of every size threshold of the matcher.
fn random_value(rng: &mut Rng, depth: usize) -> NbtTag {
    let kinds = if depth > 1 { 7 } else { 11 };
    match rng.below(kinds) {
        0 => NbtTag::Int(rng.below(5) as i32),
        1 => NbtTag::Byte(rng.below(2) as i8),
        2 => NbtTag::String(raw(
            [&b"a"[..], b"b", b"s\0", b"s\xc0\x80", "é".as_bytes()][rng.below(5)]
        )),
        3 => NbtTag::Float([0.0, -0.0, 1.5][rng.below(3)]),
        4 => NbtTag::IntArray((0..rng.below(3)).map(|_| rng.below(2) as i32).collect()),
        5 => NbtTag::Long(rng.below(3) as i64),
        6 => NbtTag::ByteArray((0..rng.below(3)).map(|_| rng.below(2) as u8).collect()),
        7 => NbtTag::Compound(random_compound(rng, depth + 1)),
        8 => NbtTag::List(NbtList::Int(
            (0..rng.below(14)).map(|_| rng.below(12) as i32).collect(),
        )),
        9 => NbtTag::List(NbtList::Compound(
            (0..rng.below(10))
                .map(|_| random_compound(rng, depth + 2))
                .collect(),
        )),
        _ => NbtTag::List(NbtList::from(
            (0..rng.below(10))
                .map(|_| random_value(rng, depth + 2))
                .collect::<Vec<_>>(),
        )),
    }
}

fn random_compound(rng: &mut Rng, depth: usize) -> NbtCompound {
    let keys: [&[u8]; 14] = [
        b"k0",
        b"k1",
        b"k2",
        b"k3",
        b"k4",
        b"k5",
        b"k6",
        b"k7",
        b"k8",
        b"k9",
        b"k10",
        b"k11",
        b"x\0",
        b"x\xc0\x80",
    ];
    let n = rng.below(if depth == 0 { 24 } else { 14 });
    NbtCompound::from_values(
        (0..n)
            .map(|_| (raw(keys[rng.below(14)]), random_value(rng, depth)))
            .collect(),
    )
}

/// A filter made from `target`: mostly a part of it (a subset of keys, some
/// of its list elements, possibly repeated), now and then something else, so
/// that it matches often but not always.
fn filter_from(target: &NbtTag, rng: &mut Rng) -> NbtTag {
    if rng.below(12) == 0 {
        return random_value(rng, 3);
    }
    match target {
        NbtTag::Compound(c) => {
            let mut f = NbtCompound::new();
            for (k, v) in c.iter() {
                if rng.below(10) < 8 {
                    f.insert(k, filter_from(v, rng));
                }
            }
            NbtTag::Compound(f)
        }
        NbtTag::List(l) => {
            let elements = l.as_nbt_tags();
            let n = if elements.is_empty() {
                rng.below(2)
            } else {
                rng.below(elements.len() + 4)
            };
            let picked: Vec<NbtTag> = (0..n)
                .map(|_| match elements.len() {
                    0 => random_value(rng, 3),
                    len => filter_from(&elements[rng.below(len)], rng),
                })
                .collect();
            NbtTag::List(NbtList::from(picked))
        }
        other => other.clone(),
    }
}

/// The indexed matcher gives what vanilla's `compareNbt`, written plainly
/// (`testkit::filter`), gives, on thousands of random filters and documents
/// of every shape on both sides of its size thresholds (direct and hashed
/// list leaves, scanned and indexed keys), owned and borrowed, as a root
/// filter and as an element filter.
#[test]
fn the_indexed_matcher_agrees_with_plain_compare_nbt() {
    use simdnbt::path::Filter;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut matched = 0;
    for case in 0..4000 {
        // One random compound, a copy missing a few entries, and another.
        let first = random_compound(&mut rng, 0);
        let thinned = first
            .iter()
            .filter(|_| rng.below(10) > 0)
            .map(|(k, v)| (k.to_owned(), v.clone()));
        let thinned = NbtCompound::from_values(thinned.collect());
        let targets = vec![first, thinned, random_compound(&mut rng, 0)];
        let NbtTag::Compound(filter) = filter_from(&NbtTag::Compound(targets[0].clone()), &mut rng)
        else {
            continue;
        };
        // As a path's SNBT gives it (strings and keys re-encoded, a repeated
        // key once), so that the parsed path and `Filter::new` agree.
        let filter = snbt::compound_from_str(&snbt::to_string(&filter).unwrap()).unwrap();
        let want: Vec<bool> = targets
            .iter()
            .map(|t| testkit::filter::compound_matches(&filter, t))
            .collect();
        matched += want.iter().filter(|&&m| m).count();
        let f = Filter::new(filter.clone());
        for (t, &w) in targets.iter().zip(&want) {
            assert_eq!(
                f.matches(Value::Compound(t)),
                w,
                "case {case}: {f} against {}",
                snbt::to_string(t).unwrap()
            );
        }
        let mut root = NbtCompound::new();
        root.insert("a", targets[0].clone());
        root.insert("l", NbtList::Compound(targets.clone()));
        let expected = want.iter().filter(|&&m| m).count();
        let element = p(&format!("l[{f}]"));
        let at_root = p(&format!("a{f}"));
        let bytes = to_bytes(&root);
        let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
            .unwrap()
            .unwrap();
        for (path, want) in [(&element, expected), (&at_root, usize::from(want[0]))] {
            assert_eq!(path.get_all(&root).len(), want, "case {case}: {path}");
            assert_eq!(
                path.get_all(nbt.as_compound()).len(),
                want,
                "case {case}: {path} (borrowed)"
            );
        }
    }
    // The generator is useful only if both answers are common.
    assert!(
        (1000..11000).contains(&matched),
        "{matched} of 12000 matched"
    );
}

/// The matcher's indexed paths on the cases its index has to get right:
/// compound filters of more keys than it scans (a key found only by its
/// name, `00` against `C0 80`; a repeated document key, whose last entry
/// counts), and list filters of more distinct leaves than it compares
/// directly (every leaf type, `-0.0` against `0.0`, NaN, a string with a
/// raw `00`, arrays whole, a list of mixed types), each against the plain
/// reference.
#[test]
fn indexed_filters_keep_every_matching_rule() {
    use simdnbt::path::Filter;
    let keys = |n: usize| (0..n).map(|i| (format!("key{i}").into(), NbtTag::Int(i as i32)));
    let mut target: Vec<(simdnbt::Mutf8String, NbtTag)> = keys(20).collect();
    target.push((raw(b"nul\0"), NbtTag::Int(-1)));
    target.push(("key3".into(), NbtTag::Int(99))); // a repeat: the last counts
    let target = NbtCompound::from_values(target);
    // The filter's keys, with key3 as the document's last entry has it.
    let counted = |n: usize| {
        let mut v: Vec<_> = keys(n).collect();
        v[3].1 = NbtTag::Int(99);
        v
    };
    let mut with_nul = counted(12);
    with_nul.push(("nul\u{0}".into(), NbtTag::Int(-1)));
    let mut missing = counted(12);
    missing.push(("key20".into(), NbtTag::Int(20)));
    let compound_cases = [
        (with_nul, true),
        (keys(12).collect(), false), // key3's shadowed first entry
        (missing, false),
        (counted(20), true),
    ];
    for (filter, want) in compound_cases {
        let filter = NbtCompound::from_values(filter);
        assert_eq!(testkit::filter::compound_matches(&filter, &target), want);
        assert_eq!(Filter::new(filter).matches(Value::Compound(&target)), want);
    }

    let list = |tags: Vec<NbtTag>| NbtTag::List(NbtList::from(tags));
    let ints = |v: &[i32]| list(v.iter().map(|&i| NbtTag::Int(i)).collect());
    let floats = |v: &[f32]| list(v.iter().map(|&f| NbtTag::Float(f)).collect());
    let strings = |v: &[&[u8]]| list(v.iter().map(|s| NbtTag::String(raw(s))).collect());
    // Arrays of each type from the same element values.
    let arrays =
        |v: &[&[i32]], make: fn(&[i32]) -> NbtTag| list(v.iter().map(|a| make(a)).collect());
    let int_arrays = |v: &[&[i32]]| arrays(v, |a| NbtTag::IntArray(a.to_vec()));
    let long_arrays = |v: &[&[i32]]| {
        arrays(v, |a| {
            NbtTag::LongArray(a.iter().map(|&x| x.into()).collect())
        })
    };
    let byte_arrays = |v: &[&[i32]]| {
        arrays(v, |a| {
            NbtTag::ByteArray(a.iter().map(|&x| x as u8).collect())
        })
    };
    let mixed = |v: Vec<NbtTag>| list(v);
    let doc_ints = ints(&(0..20).collect::<Vec<_>>());
    let doc_floats = floats(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, f32::NAN]);
    let doc_strings = strings(&[b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"i", b"s\0"]);
    let doc_array_values: [&[i32]; 10] = [
        &[],
        &[1],
        &[1, 2],
        &[2],
        &[3],
        &[4],
        &[5],
        &[6],
        &[7],
        &[8, 9],
    ];
    let doc_int_arrays = int_arrays(&doc_array_values);
    let doc_long_arrays = long_arrays(&doc_array_values);
    let doc_byte_arrays = byte_arrays(&doc_array_values);
    // Even numbers as Ints, odd ones as Strings: a list of mixed types.
    let int_or_string = |i: i32| match i % 2 {
        0 => NbtTag::Int(i),
        _ => NbtTag::String(format!("{i}").into()),
    };
    let doc_mixed = mixed((0..10).map(int_or_string).collect());
    let cases = [
        (ints(&[19, 0, 7, 7, 3, 12]), &doc_ints, true),
        (ints(&[19, 0, 7, 7, 3, 20]), &doc_ints, false),
        (list((0..6).map(NbtTag::Long).collect()), &doc_ints, false),
        (
            floats(&[8.0, 0.0, 1.0, 2.0, 3.0, f32::NAN]),
            &doc_floats,
            true,
        ),
        (floats(&[8.0, -0.0, 1.0, 2.0, 3.0, 4.0]), &doc_floats, false),
        (
            strings(&[b"a", b"b", b"c", b"d", b"e", b"s\xc0\x80"]),
            &doc_strings,
            true,
        ),
        (
            strings(&[b"a", b"b", b"c", b"d", b"e", b"s"]),
            &doc_strings,
            false,
        ),
        (
            int_arrays(&[&[], &[1], &[2], &[3], &[8, 9], &[1, 2]]),
            &doc_int_arrays,
            true,
        ),
        (
            int_arrays(&[&[], &[1], &[2], &[3], &[8], &[1, 2]]),
            &doc_int_arrays,
            false,
        ),
        (
            long_arrays(&[&[], &[1], &[2], &[3], &[8, 9], &[1, 2]]),
            &doc_long_arrays,
            true,
        ),
        (
            long_arrays(&[&[], &[1], &[2], &[3], &[9, 8], &[1, 2]]),
            &doc_long_arrays,
            false,
        ),
        (
            byte_arrays(&[&[], &[1], &[2], &[3], &[8, 9], &[1, 2]]),
            &doc_byte_arrays,
            true,
        ),
        (
            byte_arrays(&[&[], &[1], &[2], &[3], &[8, 9], &[1, 2, 3]]),
            &doc_byte_arrays,
            false,
        ),
        (
            mixed((0..10).rev().map(int_or_string).collect()),
            &doc_mixed,
            true,
        ),
        (
            mixed(vec![
                NbtTag::Int(0),
                NbtTag::Int(2),
                NbtTag::Int(4),
                NbtTag::Int(6),
                NbtTag::Int(8),
                NbtTag::String("0".into()),
            ]),
            &doc_mixed,
            false,
        ),
    ];
    for (i, (filter, doc, want)) in cases.into_iter().enumerate() {
        let mut f = NbtCompound::new();
        f.insert("l", filter);
        let mut t = NbtCompound::new();
        t.insert("l", doc.clone());
        assert_eq!(
            testkit::filter::compound_matches(&f, &t),
            want,
            "case {i} (reference)"
        );
        assert_eq!(
            Filter::new(f.clone()).matches(Value::Compound(&t)),
            want,
            "case {i}"
        );
        // The same through a parsed path over a borrowed document (SNBT
        // cannot write NaN: those cases are owned only).
        if let Ok(text) = snbt::to_string(&f) {
            let mut root = NbtCompound::new();
            root.insert("a", t);
            let bytes = to_bytes(&root);
            let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
                .unwrap()
                .unwrap();
            let found = p(&format!("a{text}")).get_all(nbt.as_compound()).len();
            assert_eq!(found, usize::from(want), "case {i} (borrowed)");
        }
    }
}

/// Every value `..key` selects below `v`, by a plain recursive walk: each
/// compound's last entry of `key`, then that compound's entries in order.
fn reference_descendants(v: &NbtTag, key: &str, out: &mut Vec<NbtTag>) {
    match v {
        NbtTag::Compound(c) => {
            for (k, child) in c.iter() {
                if k.to_str() == key && c.get(key).is_some_and(|last| std::ptr::eq(last, child)) {
                    out.push(child.clone());
                }
                reference_descendants(child, key, out);
            }
        }
        NbtTag::List(NbtList::Compound(l)) => {
            for c in l {
                reference_descendants(&NbtTag::Compound(c.clone()), key, out);
            }
        }
        NbtTag::List(NbtList::List(l)) => {
            for e in l {
                reference_descendants(&NbtTag::List(e.clone()), key, out);
            }
        }
        _ => {}
    }
}

/// [`snbts`], and the document model agreeing.
fn snbts_all_models(path: &str, root: &NbtCompound) -> Vec<String> {
    let got = snbts(path, root);
    let document = simdnbt::document::Document::from_owned(&root.clone().into()).unwrap();
    let in_doc: Vec<String> = p(path)
        .get_all(document.as_compound().unwrap())
        .iter()
        .map(|v| snbt::to_string(&v.to_owned()).unwrap())
        .collect();
    assert_eq!(got, in_doc, "document model differs for {path}");
    got
}

#[test]
fn descendant_steps_find_keys_at_any_depth_in_document_order() {
    let root = doc("{a: {Pos: 1, b: [{Pos: 2}, {c: {Pos: 3}}], d: [[{Pos: 5}]]}, Pos: 4}");
    assert_eq!(snbts_all_models("..Pos", &root), ["1", "2", "3", "5", "4"]);
    assert_eq!(snbts_all_models("a..Pos", &root), ["1", "2", "3", "5"]);
    assert_eq!(snbts_all_models("a.b..Pos", &root), ["2", "3"]);
    assert_eq!(snbts_all_models("a.b[1]..Pos", &root), ["3"]);
    assert_eq!(snbts_all_models("..c..Pos", &root), ["3"]);
    assert_eq!(snbts_all_models("..c.Pos", &root), ["3"]);
    assert!(snbts_all_models("..nothing", &root).is_empty());
    let found = p("..Pos").resolve_all(&root);
    let paths: Vec<String> = found.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(
        paths,
        [
            "a.Pos",
            "a.b[0].Pos",
            "a.b[1].c.Pos",
            "a.d[0][0].Pos",
            "Pos"
        ]
    );
    // Nested matches: each once, the outer first.
    let nested = doc("{a: {a: {a: 1}}}");
    assert_eq!(
        snbts_all_models("..a", &nested),
        ["{a:{a:1}}", "{a:1}", "1"]
    );
    assert_eq!(snbts_all_models("..a..a", &nested), ["{a:1}", "1"]);
    assert_eq!(snbts_all_models("..a..a..a", &nested), ["1"]);
    // Every corpus file agrees with a plain recursive walk.
    for name in [
        "complex_player.dat",
        "bigtest.nbt",
        "level.dat",
        "hello_world.nbt",
    ] {
        let root = corpus(name);
        for key in ["id", "Pos", "name", "Data", "x"] {
            let mut want = Vec::new();
            reference_descendants(&NbtTag::Compound(root.clone()), key, &mut want);
            let want: Vec<String> = want.iter().map(|t| snbt::to_string(t).unwrap()).collect();
            assert_eq!(
                snbts_all_models(&format!("..{key}"), &root),
                want,
                "{name} ..{key}"
            );
        }
    }
}

#[test]
fn descendant_steps_see_what_a_lookup_sees() {
    // A repeated key: only its last entry, as `get` and `a.b` find it.
    let mut c = NbtCompound::new();
    c.push("a", doc("{x: 1}"));
    c.push("a", doc("{x: 2}"));
    c.push("y", doc("{x: 3}"));
    assert_eq!(snbts_all_models("..x", &c), ["2", "3"]);
    assert_eq!(snbts_all_models("*", &c), ["{x:2}", "{x:3}"]);
    // A key that is not valid MUTF-8 cannot be named, so it is not entered.
    let mut odd = NbtCompound::new();
    odd.push(raw(&[0xff]), doc("{x: 1}"));
    odd.push("ok", doc("{x: 2}"));
    assert_eq!(p("..x").get_all(&odd).len(), 1);
    assert_eq!(p("*").get_all(&odd).len(), 1);
}

#[test]
fn wildcards_select_every_entry_or_element() {
    let root = doc("{a: 1, b: {c: 2}, l: [3, 4], i: [I; 5, 6], e: {}}");
    assert_eq!(
        snbts_all_models("*", &root),
        ["1", "{c:2}", "[3,4]", "[I;5,6]", "{}"]
    );
    assert_eq!(snbts_all_models("l.*", &root), ["3", "4"]);
    assert_eq!(snbts_all_models("i.*", &root), ["5", "6"]);
    assert_eq!(snbts_all_models("*.c", &root), ["2"]);
    assert_eq!(snbts_all_models("*.*", &root), ["2", "3", "4", "5", "6"]);
    assert!(snbts_all_models("a.*", &root).is_empty());
    assert!(snbts_all_models("e.*", &root).is_empty());
    assert_eq!(snbts_all_models("*{c:2}", &root), ["{c:2}"]);
    assert_eq!(snbts_all_models("\"*\"", &doc("{\"*\": 7}")), ["7"]);
    let found = p("*.*").resolve_all(&root);
    let paths: Vec<String> = found.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(paths, ["b.c", "l[0]", "l[1]", "i[0]", "i[1]"]);
}

#[test]
fn new_steps_combine_with_filters_on_the_corpus() {
    let player = corpus("complex_player.dat");
    let ids = snbts_all_models(r#"..ench[{id:34s}].lvl"#, &player);
    let inventory = snbts_all_models(r#"Inventory[].tag.ench[{id:34s}].lvl"#, &player);
    let selected = snbts_all_models(r#"SelectedItem.tag.ench[{id:34s}].lvl"#, &player);
    assert_eq!(ids.len(), inventory.len() + selected.len());
    assert!(!inventory.is_empty());
    let swords = snbts_all_models(
        r#"..Inventory[{id:"minecraft:diamond_sword"}].Slot"#,
        &player,
    );
    assert_eq!(swords, ["0b"]);
    let named = snbts_all_models(r#"..display{Name:"Shinzuki"}.Name"#, &player);
    // The sword in the inventory and the same one held (SelectedItem).
    assert_eq!(named, [r#""Shinzuki""#, r#""Shinzuki""#]);
    let all = snbts_all_models("Inventory[].*", &player);
    let plain = snbts_all_models("Inventory[].Slot", &player);
    assert!(all.len() > plain.len() && plain.iter().all(|s| all.contains(s)));
}

#[test]
fn new_steps_print_and_read_back() {
    for text in [
        "..Pos",
        "a..b",
        "*",
        "a.*",
        "*.Pos",
        "a[0]..b[1]",
        "..\"odd key\".x",
        "\"*\"",
        "a.\"*\"",
        "*[0]",
        "..a..b..c",
    ] {
        let path = p(text);
        assert_eq!(path.to_string(), text);
        assert_eq!(p(&path.to_string()), path, "{text}");
    }
    let with_filters = [
        r#"..Item{id:"x"}"#,
        r#"{a:1b}..b"#,
        r#"*{a:1b}.c"#,
        r#"..l[{a:1b}]"#,
    ];
    for text in with_filters {
        let path = p(text);
        assert_eq!(p(&path.to_string()), path, "{text}");
    }
    assert_eq!(
        p("a..b.*").segments().cloned().collect::<Vec<_>>(),
        [
            PathSegment::Key("a".into()),
            PathSegment::Descendant("b".into()),
            PathSegment::AllEntries
        ]
    );
    assert!(!p("..a").is_concrete());
    assert!(!p("*").selects_root());
}

#[test]
fn set_and_remove_through_descendants_and_wildcards() {
    let mut root = doc("{a: {Pos: 1, b: [{Pos: 2}]}, Pos: 3, c: 4}");
    assert_eq!(p("..Pos").set(&mut root, NbtTag::Int(9)).unwrap(), 3);
    assert_eq!(
        snbt::to_string(&root).unwrap(),
        "{a:{Pos:9,b:[{Pos:9}]},Pos:9,c:4}"
    );
    assert_eq!(p("a..Pos").remove(&mut root), 2);
    assert_eq!(snbt::to_string(&root).unwrap(), "{a:{b:[{}]},Pos:9,c:4}");
    // Nested holders: the inner edit happens before the outer one.
    let mut nested = doc("{a: {a: {a: 1}}}");
    assert_eq!(p("..a").remove(&mut nested), 3);
    assert_eq!(snbt::to_string(&nested).unwrap(), "{}");
    let mut nested = doc("{a: {a: {a: 1}}}");
    assert_eq!(p("..a").set(&mut nested, NbtTag::Int(5)).unwrap(), 3);
    assert_eq!(snbt::to_string(&nested).unwrap(), "{a:5}");
    // A wildcard replaces what is there and creates nothing.
    let mut w = doc("{x: {p: 1, q: 2}, l: [1, 2, 3], e: {}}");
    assert_eq!(p("x.*").set(&mut w, NbtTag::Int(0)).unwrap(), 2);
    assert_eq!(p("l.*").set(&mut w, NbtTag::Int(7)).unwrap(), 3);
    assert!(p("e.*").set(&mut w, NbtTag::Int(7)).is_err());
    assert_eq!(snbt::to_string(&w).unwrap(), "{x:{p:0,q:0},l:[7,7,7],e:{}}");
    assert_eq!(p("l.*").remove(&mut w), 3);
    assert_eq!(p("*{p:0}").remove(&mut w), 1);
    assert_eq!(snbt::to_string(&w).unwrap(), "{l:[],e:{}}");
    // Wrong element type through `..`: an error, nothing changed.
    let mut typed = doc("{a: {l: [1, 2]}, l: [1]}");
    let before = typed.clone();
    assert!(
        p("..l[0]")
            .set(&mut typed, NbtTag::String("x".into()))
            .is_err()
    );
    assert_eq!(typed, before);
}

#[test]
fn many_descendant_steps_on_deep_documents_stay_linear_on_a_small_stack() {
    // 512 levels of `a` (compound and list in turn), on a 256 KiB thread.
    let levels = 256;
    let text = format!("{}1b{}", "{a:[".repeat(levels), "]}".repeat(levels));
    let root = doc(&text);
    let steps = 200;
    let path = p(&"..a".repeat(steps));
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let owned = path.get_all(&root).len();
            let bytes = to_bytes(&root);
            let nbt = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
                .unwrap()
                .unwrap();
            let borrowed = path.get_all(nbt.as_compound()).len();
            let resolved = path.resolve_all(&root).len();
            let mut edited = root.clone();
            let removed = path.remove(&mut edited);
            (owned, borrowed, resolved, removed, root, edited)
        })
        .unwrap();
    let (owned, borrowed, resolved, removed, ..) = handle.join().unwrap();
    // `..a` k times from the root: the a's at depth k and below.
    assert_eq!((owned, borrowed, resolved, removed), (57, 57, 57, 57));
}
