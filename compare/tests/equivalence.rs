//! Cross-library equivalence on every corpus file.
//!
//! For every peer and every input, four checks:
//! - `Parse`: the peer parses the file;
//! - `Canonical`: the peer's canonical value equals simdnbt's (exactly, or ignoring
//!   compound order for peers declared [`Order::Unordered`]);
//! - `PeerWrite`: what the peer's writer produces, read back by simdnbt, equals what
//!   simdnbt read from the original;
//! - `OurWrite`: what simdnbt's writer produces, read by the peer, equals what the peer
//!   read from the original.
//!
//! Every check that fails must be explained by one row of [`DIVERGENCES`], whose
//! `signature` must occur in the failure message; and every row must still match at
//! least one failure, so the table cannot go stale.

use compare::{Doc, Order, Peer, diff, diff_all, peers};

/// How many differences per (peer, file, check) are collected; each must be explained.
const MAX_DIFFS: usize = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Parse,
    Canonical,
    PeerWrite,
    OurWrite,
}

struct Divergence {
    peer: &'static str,
    /// A corpus file name, or `*` for every file on which this check fails with this signature.
    file: &'static str,
    check: Check,
    /// Substring of the failure message that identifies this divergence.
    signature: &'static str,
    /// Why, in terms of docs/format.md.
    reason: &'static str,
}

/// Known, explained divergences between peers and simdnbt on the corpus.
const DIVERGENCES: &[Divergence] = &[
    // --- empty lists lose their element type -------------------------------------------
    // docs/format.md §3: write(read(bytes)) == bytes. A list's element type is part of the bytes even
    // when the list is empty (`09 <id> 00 00 00 00`); simdnbt keeps it. These libraries model a
    // list as a Vec of tags (ussr: `List::Empty`), so an empty list has no type left and their
    // writers emit a list of End. (Their *reading* is compared with that relaxation: see
    // `compare::value::diff`.)
    EMPTY_LIST_TYPE("crab"),
    EMPTY_LIST_TYPE("fastnbt"),
    EMPTY_LIST_TYPE("hematite"),
    EMPTY_LIST_TYPE("quartz"),
    EMPTY_LIST_TYPE("shen"),
    EMPTY_LIST_TYPE("ussr_borrow"),
    EMPTY_LIST_TYPE("ussr_owned"),
    // --- the root name is not kept -------------------------------------------------------
    // docs/format.md §1: the file form carries a root name (bigtest.nbt: "Level"). These libraries do
    // not keep it and write an empty name, so only files with an empty root name round-trip.
    ROOT_NAME_DROPPED("na_nbt_borrow"),
    ROOT_NAME_DROPPED("na_nbt_owned"),
    ROOT_NAME_DROPPED("na_nbt_owned_be"),
    ROOT_NAME_DROPPED("fastnbt"),
    // --- strings that are not MUTF-8 ------------------------------------------------------
    // docs/format.md §2: U+0000 is `C0 80` and a character above U+FFFF is a 6-byte surrogate pair.
    // shen decodes string bytes as plain UTF-8 (`from_utf8_lossy`), so both become U+FFFD on
    // read; its writer then writes those replacement characters.
    Divergence {
        peer: "shen",
        file: "generated_unicode_1m",
        check: Check::Canonical,
        signature: "\u{FFFD}",
        reason: "decodes strings as plain UTF-8, not MUTF-8: `C0 80` (U+0000) and 6-byte \
                 supplementary characters are replaced by U+FFFD (docs/format.md §2)",
    },
    Divergence {
        peer: "shen",
        file: "generated_unicode_1m",
        check: Check::PeerWrite,
        signature: "\u{FFFD}",
        reason: "what shen read is already lossy (see Canonical), so it writes U+FFFD back",
    },
    // azalea (nightly) does the same: plain UTF-8 with a lossy fallback.
    Divergence {
        peer: "azalea",
        file: "generated_unicode_1m",
        check: Check::Canonical,
        signature: "\u{FFFD}",
        reason: "decodes strings as plain UTF-8 (lossy fallback), not MUTF-8: 6-byte \
                 supplementary characters and `C0 80` become U+FFFD (docs/format.md §2)",
    },
    Divergence {
        peer: "azalea",
        file: "generated_unicode_1m",
        check: Check::PeerWrite,
        signature: "\u{FFFD}",
        reason: "what azalea read is already lossy (see Canonical), so it writes U+FFFD back",
    },
    // graphite decodes MUTF-8 correctly but writes plain UTF-8: U+0000 as a raw `00` and
    // supplementary characters as 4-byte sequences, which no MUTF-8 reader accepts. Its
    // canonical value goes through its writer (no public compound iteration), so it shows too.
    Divergence {
        peer: "graphite",
        file: "generated_unicode_1m",
        check: Check::Canonical,
        signature: "\u{FFFD}",
        reason: "its writer emits plain UTF-8 (raw 00, 4-byte supplementary characters) instead \
                 of MUTF-8 (docs/format.md §2); the canonical value is read from those bytes",
    },
    Divergence {
        peer: "graphite",
        file: "generated_unicode_1m",
        check: Check::PeerWrite,
        signature: "\u{FFFD}",
        reason: "writes plain UTF-8 instead of MUTF-8 (docs/format.md §2)",
    },
    // --- writer bugs ---------------------------------------------------------------------
    Divergence {
        peer: "ussr_borrow",
        file: "bigtest.nbt",
        check: Check::PeerWrite,
        signature: "simdnbt rejects",
        reason: "the borrowed writer omits the i32 length prefix of a ByteArray (docs/format.md §1: \
                 `07`, i32 length, bytes), so every following tag is misread: a corrupt file",
    },
    Divergence {
        peer: "ussr_borrow",
        file: "hypixel.nbt",
        check: Check::PeerWrite,
        signature: "simdnbt rejects",
        reason: "same missing ByteArray length prefix as on bigtest.nbt",
    },
    Divergence {
        peer: "ussr_borrow",
        file: "generated_chunks_1m",
        check: Check::PeerWrite,
        signature: "simdnbt rejects",
        reason: "same missing ByteArray length prefix as on bigtest.nbt",
    },
    Divergence {
        peer: "ussr_borrow",
        file: "generated_chunks_12m",
        check: Check::PeerWrite,
        signature: "simdnbt rejects",
        reason: "same missing ByteArray length prefix as on bigtest.nbt",
    },
    Divergence {
        peer: "ussr_borrow",
        file: "chunk1.14.nbt",
        check: Check::PeerWrite,
        signature: "panicked: cast_slice_mut",
        reason: "the writer reinterprets a big-endian long array in place with bytemuck, which \
                 panics when the array is not 8-byte aligned in memory (it sits at an arbitrary \
                 offset of the input); a writer must not panic (docs/format.md §3)",
    },
    Divergence {
        peer: "ussr_owned",
        file: "chunk1.14.nbt",
        check: Check::PeerWrite,
        signature: "panicked: cast_slice_mut",
        reason: "same unaligned bytemuck cast as ussr_borrow, on the owned `RawVec` bytes",
    },
    // crates.io simdnbt 0.10 (nightly): its borrowed writer re-encodes lists from the tape and
    // gets some lengths wrong, so its output is not the document it read.
    Divergence {
        peer: "upstream_borrow",
        file: "*",
        check: Check::PeerWrite,
        signature: "simdnbt rejects",
        reason: "the 0.10 borrowed writer drops the i32 length of a list of strings (`09 08` then \
                 the first string) and writes some lists of lists with length 0: a corrupt file \
                 (docs/format.md §3)",
    },
    Divergence {
        peer: "upstream_borrow",
        file: "chunk1.14.nbt",
        check: Check::PeerWrite,
        signature: "compound has 1 entries != 2",
        reason: "the 0.10 borrowed writer writes the 16-element list of empty lists \
                 `PostProcessing` with length 0, so the rest of the document is misread",
    },
];

#[allow(non_snake_case)]
const fn EMPTY_LIST_TYPE(peer: &'static str) -> Divergence {
    Divergence {
        peer,
        file: "*",
        check: Check::PeerWrite,
        signature: "list element type 0 != ",
        reason: "empty lists are written as lists of End: the element type is not kept \
                 (docs/format.md §3 exact round trip)",
    }
}

#[allow(non_snake_case)]
const fn ROOT_NAME_DROPPED(peer: &'static str) -> Divergence {
    Divergence {
        peer,
        file: "*",
        check: Check::PeerWrite,
        signature: "root name: \"\" != ",
        reason: "the root name is not kept; its writer writes an empty one (docs/format.md §1 file form)",
    }
}

/// Our reading of a document: simdnbt when its adapter is compiled in, else the
/// crate's reference reader (so the peer checks still run before simdnbt lands).
fn ours(input: &[u8]) -> Result<Doc, String> {
    match compare::peer("simdnbt_borrow") {
        Some(p) => (p.to_canonical)(input),
        None => compare::reference::read(input),
    }
}

fn our_write(input: &[u8]) -> Option<Result<Vec<u8>, String>> {
    compare::peer("simdnbt_owned")
        .and_then(|p| p.write_bytes)
        .map(|w| w(input))
}

/// Runs `f`, turning a panic into an error (several peers panic on some inputs).
fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {msg}"))
    })
}

fn check_file(peer: &Peer, file: &str, input: &[u8], ours_doc: &Doc) -> Vec<(Check, String)> {
    let mut failures = Vec::new();
    let theirs = match guard(|| (peer.to_canonical)(input)) {
        Ok(d) => d,
        Err(e) => {
            failures.push((Check::Parse, e));
            return failures;
        }
    };
    for e in diff_all(&theirs, ours_doc, peer.info.order, MAX_DIFFS) {
        failures.push((Check::Canonical, e));
    }
    if let Some(w) = peer.write_bytes {
        let r = guard(|| w(input))
            .and_then(|bytes| ours(&bytes).map_err(|e| format!("simdnbt rejects: {e}")));
        match r {
            // the peer wrote in its own order, so compare with its declared order
            Ok(back) => {
                for e in diff_all(&back, ours_doc, peer.info.order, MAX_DIFFS) {
                    failures.push((Check::PeerWrite, e));
                }
            }
            Err(e) => failures.push((Check::PeerWrite, e)),
        }
    }
    if let Some(ours_bytes) = our_write(input) {
        let r = ours_bytes.and_then(|b| {
            guard(|| (peer.to_canonical)(&b)).map_err(|e| format!("peer rejects: {e}"))
        });
        match r {
            Ok(back) => {
                for e in diff_all(&back, &theirs, peer.info.order, MAX_DIFFS) {
                    failures.push((Check::OurWrite, e));
                }
            }
            Err(e) => failures.push((Check::OurWrite, e)),
        }
    } else {
        eprintln!("{file}: simdnbt writer not compiled in; OurWrite skipped");
    }
    failures
}

fn run_peer(name: &str) {
    let peer = compare::peer(name).unwrap_or_else(|| panic!("no adapter named {name}"));
    let mut unexplained = Vec::new();
    let mut matched = vec![false; DIVERGENCES.len()];
    let mut files_checked = 0;
    for file in compare::inputs::bench_names() {
        let input = compare::inputs::load(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let ours_doc = ours(input).unwrap_or_else(|e| panic!("simdnbt fails on {file}: {e}"));
        files_checked += 1;
        for (check, msg) in check_file(peer, file, input, &ours_doc) {
            let hit = DIVERGENCES.iter().position(|d| {
                d.peer == name
                    && (d.file == "*" || d.file == file)
                    && d.check == check
                    && msg.contains(d.signature)
            });
            match hit {
                Some(i) => matched[i] = true,
                None => unexplained.push(format!("{name} {file} {check:?}: {msg}")),
            }
        }
    }
    assert!(files_checked >= 8, "only {files_checked} corpus files");
    let stale: Vec<_> = DIVERGENCES
        .iter()
        .zip(&matched)
        .filter(|(d, m)| d.peer == name && !**m)
        .map(|(d, _)| format!("{} {} {:?} ({})", d.peer, d.file, d.check, d.reason))
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "unexplained failures:\n  {}\nlisted divergences that no longer happen:\n  {}",
        unexplained.join("\n  "),
        stale.join("\n  ")
    );
}

#[test]
fn divergence_table_names_real_peers_and_files() {
    let files = compare::inputs::bench_names();
    for d in DIVERGENCES {
        let known = compare::peer(d.peer).is_some()
            || (cfg!(not(feature = "nightly-peers"))
                && matches!(d.peer, "azalea" | "upstream_borrow" | "upstream_owned"));
        assert!(known, "divergence for unknown peer {}", d.peer);
        assert!(
            d.file == "*" || files.contains(&d.file),
            "divergence for unknown file {}",
            d.file
        );
        assert!(!d.reason.is_empty() && !d.signature.is_empty());
    }
}

/// Peers with no tree to compare: the floor (`compare::floor`) checks and
/// records nothing; `tests/floor.rs` holds it to `simdnbt::borrow::read`'s
/// answers instead.
const NO_TREE: [&str; 1] = ["floor"];

#[test]
fn every_adapter_has_a_test_below() {
    let tested: &[&str] = &ALL_TESTED;
    for p in peers().iter().filter(|p| !NO_TREE.contains(&p.info.name)) {
        assert!(
            tested.contains(&p.info.name),
            "no equivalence test for {}",
            p.info.name
        );
    }
}

#[test]
fn simdnbt_agrees_with_the_reference_reader() {
    if compare::peer("simdnbt_borrow").is_none() {
        eprintln!("simdnbt adapters not compiled in yet");
        return;
    }
    for file in compare::inputs::bench_names() {
        let input = compare::inputs::load(file).unwrap();
        let reference = compare::reference::read(input).unwrap();
        for name in ["simdnbt_borrow", "simdnbt_owned", "simdnbt_doc"] {
            let p = compare::peer(name).unwrap();
            let d = (p.to_canonical)(input).unwrap();
            diff(&d, &reference, Order::Exact).unwrap_or_else(|e| panic!("{name} {file}: {e}"));
        }
    }
}

macro_rules! peer_tests {
    ($($(#[$m:meta])* $name:ident),* $(,)?) => {
        const ALL_TESTED: [&str; peer_tests!(@count $($name)*)] = [$(stringify!($name)),*];
        $(
            $(#[$m])*
            #[test]
            fn $name() {
                run_peer(stringify!($name));
            }
        )*
    };
    (@count) => { 0 };
    (@count $x:ident $($rest:ident)*) => { 1 + peer_tests!(@count $($rest)*) };
}

peer_tests!(
    simdnbt_borrow,
    simdnbt_owned,
    simdnbt_doc,
    na_nbt_borrow,
    na_nbt_owned,
    na_nbt_owned_be,
    ussr_borrow,
    ussr_owned,
    shen,
    graphite,
    valence,
    crab,
    hematite,
    fastnbt,
    quartz,
    #[cfg(feature = "nightly-peers")]
    azalea,
    #[cfg(feature = "nightly-peers")]
    upstream_borrow,
    #[cfg(feature = "nightly-peers")]
    upstream_owned,
);

#[test]
fn adapter_table_is_complete_and_documented() {
    let names: Vec<&str> = peers().iter().map(|p| p.info.name).collect();
    for required in [
        "simdnbt_borrow",
        "simdnbt_owned",
        "simdnbt_doc",
        "na_nbt_borrow",
        "na_nbt_owned",
        "ussr_borrow",
        "ussr_owned",
        "shen",
        "graphite",
        "valence",
        "crab",
        "hematite",
        "fastnbt",
        "quartz",
        "floor",
    ] {
        assert!(names.contains(&required), "missing adapter {required}");
    }
    if cfg!(feature = "nightly-peers") {
        for required in ["azalea", "upstream_borrow", "upstream_owned"] {
            assert!(names.contains(&required), "missing adapter {required}");
        }
    }
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "duplicate adapter names");
    for p in peers() {
        assert!(p.info.notes.len() > 80, "{}: notes too thin", p.info.name);
        assert_eq!(
            p.info.nightly,
            cfg!(feature = "nightly-peers")
                && matches!(p.info.name, "azalea" | "upstream_borrow" | "upstream_owned")
        );
    }
    assert_eq!(compare::peer_notes().len(), names.len());
}

/// The edit workload makes the same document in every library that has a
/// mutable tree: its result equals the input's [`compare::EditScript`]
/// applied to simdnbt's canonical value (in the peer's declared order); what
/// the peer writes after the edits, read by simdnbt, equals what it writes
/// unedited with the script applied (so its own writer's known losses, such
/// as empty lists' element types, are on both sides); and each edit bench
/// runs.
#[test]
fn every_editing_peer_makes_the_same_edits() {
    let mut editing = Vec::new();
    let mut written_checked = Vec::new();
    for file in compare::inputs::bench_names() {
        let input = compare::inputs::load(file).unwrap();
        if input.len() > 1 << 16 {
            continue; // debug builds; the benches run the large ones
        }
        let script = compare::EditScript::for_input(input).unwrap();
        let mut expected = ours(input).unwrap();
        let compare::Value::Compound(root) = &mut expected.root else {
            panic!("{file}: root")
        };
        script.apply(root);
        for p in peers() {
            let Some(edited) = p.edit_canonical else {
                continue;
            };
            editing.push(p.info.name);
            let got =
                guard(|| edited(input)).unwrap_or_else(|e| panic!("{} {file}: {e}", p.info.name));
            // Root names: only compare where the peer keeps them.
            let want = compare::Doc {
                name: got.name.as_ref().and(expected.name.clone()),
                root: expected.root.clone(),
            };
            diff(&got, &want, p.info.order)
                .unwrap_or_else(|e| panic!("{} {file}: {e}", p.info.name));
            if let (Some(edit_bytes), Some(write_bytes)) = (p.edit_bytes, p.write_bytes) {
                // A writer that fails on the unedited tree is the PeerWrite
                // check's business (see DIVERGENCES); here it has nothing to
                // compare with.
                let Ok(unedited) = guard(|| write_bytes(input)) else {
                    continue;
                };
                let read_back = |bytes: Result<Vec<u8>, String>| {
                    bytes
                        .and_then(|b| ours(&b))
                        .unwrap_or_else(|e| panic!("{} {file}: {e}", p.info.name))
                };
                let written = read_back(guard(|| edit_bytes(input)));
                let mut want = read_back(Ok(unedited));
                let compare::Value::Compound(root) = &mut want.root else {
                    panic!("{} {file}: written root", p.info.name)
                };
                script.apply(root);
                diff(&written, &want, p.info.order)
                    .unwrap_or_else(|e| panic!("{} {file}: written: {e}", p.info.name));
                written_checked.push(p.info.name);
            }
            (p.edit.unwrap())(input).unwrap()();
        }
    }
    editing.sort();
    editing.dedup();
    for required in [
        "simdnbt_owned",
        "simdnbt_doc",
        "na_nbt_owned",
        "na_nbt_owned_be",
        "valence",
        "fastnbt",
        "quartz",
        "crab",
        "hematite",
        "shen",
        "ussr_owned",
    ] {
        assert!(
            editing.contains(&required),
            "{required} has no edit workload"
        );
        assert!(
            written_checked.contains(&required),
            "{required}: what it writes after the edits is not checked"
        );
    }
}

/// Every peer accepts every corpus file and rejects a truncated one (so `validate`, which
/// the benches use to decide what to skip, really parses), and each timed closure runs.
#[test]
fn every_bench_closure_runs_on_the_small_inputs() {
    let mut accepted_truncated = Vec::new();
    for file in compare::inputs::bench_names() {
        let input = compare::inputs::load(file).unwrap();
        if input.len() > 1 << 16 {
            continue; // debug builds; the benches run the large ones
        }
        for p in peers() {
            (p.validate)(input).unwrap_or_else(|e| panic!("{} rejects {file}: {e}", p.info.name));
            // a truncated input must be rejected (an error or, for some peers, a panic)
            let half = &input[..input.len() / 2];
            if guard(|| (p.validate)(half)).is_ok() {
                accepted_truncated.push(p.info.name);
            }
            (p.read)(input)();
            if let Some(d) = p.decode_all {
                d(input)();
            }
            if let Some(w) = p.write {
                if let Ok(mut b) = guard(|| w(input)) {
                    let _ = guard(|| {
                        b();
                        Ok(())
                    });
                }
            }
        }
    }
    // crab's compound loop stops quietly when the input runs out (`while has_remaining`),
    // so a truncated document parses as Ok with the tail missing (docs/format.md §3 wants an error).
    accepted_truncated.sort();
    accepted_truncated.dedup();
    // azalea (nightly) reads a missing tag id as End (`read_u8().unwrap_or(0)`), same effect.
    let expected: &[&str] = if cfg!(feature = "nightly-peers") {
        &["azalea", "crab"]
    } else {
        &["crab"]
    };
    assert_eq!(
        accepted_truncated, expected,
        "peers accepting a truncated file"
    );
}

/// docs/format.md §4 "invalid MUTF-8": `ED A0 80` is a lone surrogate, which Java writes but no
/// Rust `str` can hold. simdnbt (and every peer that keeps raw bytes) parses it; libraries
/// that decode into `String` while parsing either reject the document or replace the text.
/// The expected outcome of each peer is pinned here so the notes stay true.
#[test]
fn invalid_mutf8_outcomes() {
    // R(08 00 01 's' 00 03 ED A0 80)
    let doc = testkit::hostile::case("invalid_lone_surrogate").bytes;
    assert_eq!(doc, testkit::bytes::string_doc(&[0xED, 0xA0, 0x80]));
    let mut rejects = Vec::new();
    for p in peers().iter().filter(|p| !NO_TREE.contains(&p.info.name)) {
        match guard(|| (p.to_canonical)(&doc)) {
            Err(_) => rejects.push(p.info.name),
            Ok(d) => {
                let compare::Value::Compound(c) = &d.root else {
                    panic!("{}: root", p.info.name)
                };
                assert_eq!(c.len(), 1, "{}", p.info.name);
                let compare::Value::String(s) = &c[0].1 else {
                    panic!("{}: not a string", p.info.name)
                };
                assert!(s.contains('\u{FFFD}'), "{}: {s:?}", p.info.name);
            }
        }
    }
    rejects.sort();
    let expected = [
        "crab", "fastnbt", "graphite", "hematite", "quartz", "valence",
    ];
    assert_eq!(rejects, expected, "peers rejecting a lone surrogate");
}

#[test]
fn every_adapter_has_notes_and_a_known_package_at_its_locked_version() {
    // The run record takes each peer's notes from the adapter table, and the
    // report its crate version from compare_results::peers::KNOWN and the
    // lock file: every adapter must be in both, at the version it says.
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
        .expect("Cargo.lock");
    let env = compare_results::env::Environment {
        lock_packages: compare_results::env::parse_cargo_lock(&lock),
        ..Default::default()
    };
    assert!(!peers().is_empty());
    for p in peers() {
        let known = compare_results::peers::find(p.info.name).unwrap_or_else(|| {
            panic!(
                "{} is missing from compare_results::peers::KNOWN",
                p.info.name
            )
        });
        assert_eq!(known.package, p.info.krate, "{}", p.info.name);
        assert_eq!(
            env.version_of(known),
            Some(p.info.version),
            "{}: the adapter's version is not the locked one",
            p.info.name
        );
    }
}
