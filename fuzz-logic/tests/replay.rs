//! Replays, on stable, every fuzz target's logic over every committed regression
//! file (`fuzz/regressions/<target>/`), every docs/format.md §4 case and the shared
//! corpus (and truncations of it) — the same functions the fuzzer runs.

use std::io::Cursor;
use std::path::PathBuf;

use simdnbt_fuzz_logic::cross::{self, Divergence, Outcome};
use simdnbt_fuzz_logic::hostile;
use simdnbt_fuzz_logic::{TARGETS, generate, roundtrip};
use testkit::bytes::{deep_compounds, deep_lists, r};

/// libFuzzer runs targets on the 8 MiB main thread, in release mode; a debug
/// test thread has 2 MiB. fastnbt (and our own walkers) recurse up to ~600
/// levels, so every test runs on a thread with a generous stack.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn regressions_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions")
}

/// Every file in `fuzz/regressions/<target>/`, through that target. The
/// folder is walked, not the target list: `fuzz/regressions/` must exist,
/// every folder in it must be a target's name (a misspelled one fails), and
/// every target must have a folder holding at least one input, so that a
/// moved, renamed or emptied folder cannot make the replay pass on nothing.
#[test]
fn regressions_replay() {
    big_stack(regressions_replay_body);
}

fn regressions_replay_body() {
    let root = regressions_root();
    let entries = std::fs::read_dir(&root).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the regression inputs are missing)",
            root.display()
        )
    });
    let mut folders: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    folders.sort();
    let mut replayed = Vec::new();
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        if folder.is_file() && folder.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let Some(&(target, run)) = TARGETS.iter().find(|(t, _)| *t == name) else {
            let known: Vec<&str> = TARGETS.iter().map(|(t, _)| *t).collect();
            panic!(
                "{}: not a fuzz target's name (targets: {})",
                folder.display(),
                known.join(", ")
            );
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_none_or(|e| e != "md"))
            .collect();
        files.sort();
        assert!(
            !files.is_empty(),
            "{}: no regression inputs",
            folder.display()
        );
        for path in &files {
            assert!(path.is_file(), "{}: not a file", path.display());
            let bytes = std::fs::read(path).unwrap();
            eprintln!("{target}: {}", path.display());
            run(&bytes);
        }
        replayed.push((target, files.len()));
    }
    for (target, _) in TARGETS {
        assert!(
            replayed.iter().any(|(t, _)| t == target),
            "{}: no regression folder for target {target}",
            root.display()
        );
    }
    let total: usize = replayed.iter().map(|(_, n)| n).sum();
    eprintln!("{total} regression files replayed: {replayed:?}");
}

/// Every §4 case through every target, and the answer §4 requires.
#[test]
fn nbt_md_section4_cases() {
    big_stack(nbt_md_section4_cases_body);
}

fn nbt_md_section4_cases_body() {
    for case in hostile::cases() {
        let b = simdnbt::borrow::read(&mut Cursor::new(&case.bytes[..]));
        let o = simdnbt::owned::read(&mut Cursor::new(&case.bytes[..]));
        let b = b.map(|n| matches!(n, simdnbt::borrow::Nbt::Some(_)));
        let o = o.map(|n| matches!(n, simdnbt::owned::Nbt::Some(_)));
        case.expect.check(b, &format!("{} (borrow)", case.name));
        case.expect.check(o, &format!("{} (owned)", case.name));
        for (target, run) in TARGETS {
            eprintln!("{target}: §4 {}", case.name);
            run(&case.bytes);
        }
    }
}

/// The over-long write case of §4 goes through the structured checker, which
/// asserts the writer's error.
#[test]
fn over_long_string_write_is_refused() {
    big_stack(over_long_string_write_is_refused_body);
}

fn over_long_string_write_is_refused_body() {
    let mut root = simdnbt::owned::NbtCompound::new();
    root.insert(
        "s",
        simdnbt::owned::NbtTag::String(simdnbt::Mutf8String::from_vec(hostile::over_long_string())),
    );
    let nbt = simdnbt::owned::Nbt::new("".into(), root);
    roundtrip::check_document(
        &nbt,
        Some(simdnbt::WriteError::StringTooLong { len: 70_000 }),
    );
}

/// Depth chains at the writer's limit: 512 writes and reads back; 513 is refused.
#[test]
fn deep_chains_at_the_limit() {
    big_stack(deep_chains_at_the_limit_body);
}

fn deep_chains_at_the_limit_body() {
    for lists in [false, true] {
        for levels in [1, 2, 511, 512] {
            let nbt = simdnbt::owned::Nbt::new("".into(), generate::deep_chain(levels, lists));
            roundtrip::check_document(&nbt, None);
        }
        for levels in [513, 600] {
            let nbt = simdnbt::owned::Nbt::new("".into(), generate::deep_chain(levels, lists));
            roundtrip::check_document(&nbt, Some(simdnbt::WriteError::MaxDepthExceeded));
        }
    }
}

/// The shared corpus files and every 97th prefix of each, through every target.
#[test]
fn corpus_seeds_replay() {
    big_stack(corpus_seeds_replay_body);
}

fn corpus_seeds_replay_body() {
    for file in corpus::SHARED {
        let bytes = corpus::load(file.name).unwrap();
        for (target, run) in TARGETS {
            eprintln!("{target}: {}", file.name);
            run(bytes);
        }
        // Truncations: every reader must reject (or, for a prefix that ends a
        // document, accept) the same way.
        for cut in (0..bytes.len()).step_by(97) {
            roundtrip::roundtrip(&bytes[..cut]);
            simdnbt_fuzz_logic::cross_library(&bytes[..cut]);
        }
    }
}

/// Structured-mode seeds: many generated documents round-trip.
#[test]
fn structured_documents_replay() {
    big_stack(structured_documents_replay_body);
}

fn structured_documents_replay_body() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..300u32 {
        let mut s = vec![roundtrip::STRUCTURED_SELECTOR];
        for _ in 0..(i * 7 % 2048) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(x as u8);
        }
        roundtrip::roundtrip(&s);
    }
}

/// The cross-library comparison agrees on the corpus and hits each documented
/// divergence exactly where docs/format.md says we differ.
#[test]
fn cross_library_divergences() {
    big_stack(cross_library_divergences_body);
}

fn cross_library_divergences_body() {
    for file in corpus::SHARED {
        let bytes = corpus::load(file.name).unwrap();
        let (fast, val) = cross::compare(bytes);
        assert_eq!(val, Outcome::Agree, "valence_nbt on {}", file.name);
        // fastnbt may only differ on strings it cannot decode.
        assert!(
            matches!(
                fast,
                Outcome::Agree | Outcome::Allowed(Divergence::InvalidMutf8)
            ),
            "fastnbt on {}: {fast:?}",
            file.name
        );
    }
    let find = |name: &str| hostile::case(name).bytes;
    assert_eq!(
        cross::compare(&find("end_root")),
        (
            Outcome::Allowed(Divergence::EndRoot),
            Outcome::Allowed(Divergence::EndRoot)
        )
    );
    assert_eq!(
        cross::compare(&find("invalid_ff")),
        (
            Outcome::Allowed(Divergence::InvalidMutf8),
            Outcome::Allowed(Divergence::InvalidMutf8)
        )
    );
    assert_eq!(
        cross::compare(&find("emoji")),
        (Outcome::Agree, Outcome::Agree)
    );
    assert_eq!(
        cross::compare(&find("nul")),
        (Outcome::Agree, Outcome::Agree)
    );
    // 513 levels: valence_nbt (root not counted) and fastnbt (no limit) accept.
    let deep = deep_compounds(512);
    assert_eq!(
        cross::compare(&deep),
        (
            Outcome::Allowed(Divergence::DepthLimit),
            Outcome::Allowed(Divergence::DepthLimit)
        )
    );
    // 512 levels: everyone accepts and agrees.
    assert_eq!(
        cross::compare(&deep_compounds(511)),
        (Outcome::Agree, Outcome::Agree)
    );
    // Too deep for fastnbt's recursion: it is not run.
    assert_eq!(cross::compare(&find("deep_lists")).0, Outcome::Skipped);
    // fastnbt's serde-internal key.
    let token = r(&[&[0x01, 0x00, 20][..], b"__fastnbt_byte_array", &[0x05]].concat());
    assert_eq!(
        cross::compare(&token),
        (
            Outcome::Allowed(Divergence::FastnbtArrayToken),
            Outcome::Agree
        )
    );
    // A 4-byte UTF-8 sequence: every library reads the document; only the
    // checked string decode differs (docs/format.md §2).
    let four = r(&[0x08, 0x00, 0x01, b's', 0x00, 0x04, 0xf0, 0x9f, 0x98, 0x80]);
    assert_eq!(cross::compare(&four), (Outcome::Agree, Outcome::Agree));
    assert_eq!(
        cross::compare_strings(&four),
        Outcome::Allowed(Divergence::FourByteUtf8)
    );
    let raw_nul = r(&[0x08, 0x00, 0x01, b's', 0x00, 0x04, 0xc0, 0x80, 0x62, 0x00]);
    assert_eq!(
        cross::compare(&raw_nul),
        (
            Outcome::Allowed(Divergence::InvalidMutf8),
            Outcome::Allowed(Divergence::InvalidMutf8)
        )
    );
    assert_eq!(
        cross::compare_strings(&raw_nul),
        Outcome::Allowed(Divergence::RawNul)
    );
    for name in [
        "emoji",
        "nul",
        "invalid_ff",
        "invalid_lone_surrogate",
        "invalid_overlong_c1",
        "invalid_truncated_e2",
    ] {
        assert_eq!(
            cross::compare_strings(&find(name)),
            Outcome::Agree,
            "{name}"
        );
    }
    // Duplicate keys: both others keep the last value, so does the canonical form.
    let dup = r(&[0x01, 0x00, 0x01, b'k', 0x01, 0x01, 0x00, 0x01, b'k', 0x02]);
    assert_eq!(cross::compare(&dup), (Outcome::Agree, Outcome::Agree));
}

#[test]
fn nesting_depth_scan() {
    big_stack(nesting_depth_scan_body);
}

fn nesting_depth_scan_body() {
    assert_eq!(cross::nesting_depth(&deep_compounds(10)), 11);
    assert_eq!(cross::nesting_depth(&deep_lists(10)), 12);
    assert_eq!(cross::nesting_depth(&[]), 0);
    assert_eq!(cross::nesting_depth(&r(&[])), 1);
}

/// `document_edit`'s bursts (hundreds of pushes into one nested container,
/// some of large strings, which make the document compact itself) on every
/// shared corpus file, and its compaction of documents deeper than 512.
#[test]
fn document_edit_bursts_and_deep_compaction() {
    big_stack(document_edit_bursts_and_deep_compaction_body);
}

fn document_edit_bursts_and_deep_compaction_body() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for file in corpus::SHARED {
        let bytes = corpus::load(file.name).unwrap();
        for seed in 0..24u8 {
            let mut input = bytes.to_vec();
            // A first choice of 0xf0 or more picks a burst.
            input.push(0xf0 | (seed % 16));
            for _ in 0..48 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                input.push(x as u8);
            }
            simdnbt_fuzz_logic::document_edit(&input);
        }
    }
    for levels in [513, 700, 2048] {
        let kinds =
            testkit::bytes::chain(&[testkit::bytes::Kind::C, testkit::bytes::Kind::L], levels);
        simdnbt_fuzz_logic::document_edit(&testkit::bytes::chain_named(&kinds));
    }
}
