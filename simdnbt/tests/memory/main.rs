//! Peak memory of the readers (borrow, owned, document) on inputs built to
//! amplify (docs/format.md §3: "Peak memory is bounded by a small documented
//! multiple of the input size").
//!
//! A counting global allocator (its own test binary, since a
//! `#[global_allocator]` is per binary) records, per thread, the bytes live at
//! the peak of a read. `realloc` is counted conservatively: at the moment of a
//! reallocation the old and the new block are both counted, as an allocator
//! that moves the block needs both.
//!
//! `cargo test -p simdnbt --test memory -- --nocapture` prints the table
//! that `reports/memory.md` holds. The ignored `rss_probe` test reads one case
//! with one reader, for `/usr/bin/time -v` (see reports/memory.md).

mod little_endian;
mod network;
mod snbt;
#[path = "../support/mod.rs"]
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Cursor;

use simdnbt::{ErrorKind, borrow, document, owned};
use support::*;

struct Counting;

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static PEAK_MOVING: Cell<usize> = const { Cell::new(0) };
}

/// Records that `grow` more bytes became live and `shrink` bytes were freed.
/// `PEAK` counts a realloc as resizing in place (old block freed as the new
/// one appears: what glibc's mremap does for large blocks); `PEAK_MOVING`
/// counts both blocks live at once (an allocator that copies).
fn record(grow: usize, shrink: usize) {
    let _ = TRACKING.try_with(|t| {
        if t.get() {
            let live = LIVE.get();
            PEAK.set(PEAK.get().max((live + grow).saturating_sub(shrink)));
            PEAK_MOVING.set(PEAK_MOVING.get().max(live + grow));
            LIVE.set((live + grow).saturating_sub(shrink));
        }
    });
}

// SAFETY: every method forwards to `System`, which upholds the contract; the
// bookkeeping around it neither allocates nor touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            record(layout.size(), 0);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            record(layout.size(), 0);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) };
        record(0, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            record(new_size, layout.size());
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak heap bytes of one run, counting reallocs in place and moving.
#[derive(Clone, Copy, Debug)]
struct Peak {
    in_place: usize,
    moving: usize,
}

/// Runs `f` and returns its result and the peak number of heap bytes live on
/// this thread while it ran (above what was live before). The result is kept
/// alive, so it is part of the peak.
fn measure<T>(f: impl FnOnce() -> T) -> (T, Peak) {
    LIVE.set(0);
    PEAK.set(0);
    PEAK_MOVING.set(0);
    TRACKING.set(true);
    let out = f();
    TRACKING.set(false);
    let peak = Peak {
        in_place: PEAK.get(),
        moving: PEAK_MOVING.get(),
    };
    (out, peak)
}

/// [`measure`] on a thread of its own, so that nothing an earlier read left
/// with its thread (the borrow reader's kept tape, the owned builder's
/// scratch: at most 64 KiB each) serves this one: the peak of a thread's
/// first read, the largest a read can take. The result is dropped on that
/// thread after the measurement.
fn measure_first_read<T>(f: impl FnOnce() -> T + Send) -> Peak {
    std::thread::scope(|s| {
        s.spawn(|| {
            let (out, peak) = measure(f);
            drop(out);
            peak
        })
        .join()
        .unwrap()
    })
}

/// An input (built on demand, so that a probe holds only its own) and the
/// bound the borrow reader is held to on it (× its size).
struct Case {
    name: String,
    make: Box<dyn Fn() -> Vec<u8>>,
    bound: f64,
    /// A real file (not an amplification input).
    file: bool,
}

fn case(name: &str, bound: f64, make: impl Fn() -> Vec<u8> + 'static) -> Case {
    Case {
        name: name.into(),
        make: Box::new(make),
        bound,
        file: false,
    }
}

/// `0A 00 00 | 09 00 01 'l' elem len | body | 00`: a root holding one list.
fn list_doc(elem: u8, len: usize, element: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(12 + len * element.len());
    v.extend_from_slice(&[0x0a, 0, 0, 0x09, 0, 1, b'l', elem]);
    v.extend_from_slice(&(len as i32).to_be_bytes());
    for _ in 0..len {
        v.extend_from_slice(element);
    }
    v.push(0);
    v
}

/// Two lists in one root: `a` (as `list_doc` builds it) then `b` renamed "m".
fn two_lists(a: Vec<u8>, b: &[u8]) -> Vec<u8> {
    let mut v = a;
    v.pop();
    v.extend_from_slice(&[0x09, 0, 1, b'm']);
    v.extend_from_slice(&b[7..]);
    v
}

/// Scale of the amplification inputs ("millions").
const M: usize = 1_000_000;

fn cases() -> Vec<Case> {
    const B: f64 = BORROW_BOUND;
    let mut v = vec![
        case("4M empty compounds in a list", B, || {
            list_doc(10, 4 * M, &[0])
        }),
        case("1M empty lists in a list (list of lists of End)", B, || {
            list_doc(9, M, &[0, 0, 0, 0, 0])
        }),
        case("2M empty strings in a list", B, || {
            list_doc(8, 2 * M, &[0, 0])
        }),
        case("1M empty byte arrays in a list", B, || {
            list_doc(7, M, &[0, 0, 0, 0])
        }),
        case("1M empty int arrays in a list", B, || {
            list_doc(11, M, &[0, 0, 0, 0])
        }),
        case("1M compounds holding one empty compound", B, || {
            list_doc(10, M, &[0x0a, 0, 0, 0, 0])
        }),
        case("1M lists of 1 empty compound", B, || {
            list_doc(9, M, &[0x0a, 0, 0, 0, 1, 0])
        }),
        // Crafted against the tape's growth (one tape word per input byte).
        case("4M empty compounds, then one Byte", B, || {
            let mut v = list_doc(10, 4 * M, &[0]);
            v.pop();
            v.extend_from_slice(&[1, 0, 0, 7, 0]);
            v
        }),
        case("two lists of ~2M empty compounds", B, || {
            two_lists(
                list_doc(10, 2 * M + M / 10, &[0]),
                &list_doc(10, 2 * M - M / 10, &[0]),
            )
        }),
        // The tape starts at min(input/8, 2^20) words and doubles: an input a
        // little over 8 MiB of one-byte elements needs just over 2^23 words.
        case(
            "8.4M empty compounds (tape just past 2^23 words)",
            B,
            || list_doc(10, (1 << 23) + 48, &[0]),
        ),
        // Compounds (one tape word per byte) then strings (no tape words;
        // one side-table entry per two bytes once asked for): when the tape
        // last grows, it cannot know that the rest of the input is strings.
        case(
            "2.6M empty compounds, then 1.2M empty strings",
            CRAFTED_BOUND,
            || {
                two_lists(
                    list_doc(10, 2 * M + 6 * M / 10, &[0]),
                    &list_doc(8, M + 2 * M / 10, &[0, 0]),
                )
            },
        ),
        // A block reserved to the node, then another: the arena must not
        // double for the second (it held 32× the input that way).
        case("4M empty compounds, then 20 empty strings", B, || {
            two_lists(list_doc(10, 4 * M, &[0]), &list_doc(8, 20, &[0, 0]))
        }),
        case("2M empty strings, then 20 empty compounds", B, || {
            two_lists(list_doc(8, 2 * M, &[0, 0]), &list_doc(10, 20, &[0]))
        }),
        // Compounds closing one by one: their children blocks grow the arena
        // a little at a time, its doubling capped at what is left to read.
        case(
            "1M compounds holding one empty compound, then 4M empty compounds",
            B,
            || {
                two_lists(
                    list_doc(10, M, &[0x0a, 0, 0, 0, 0]),
                    &list_doc(10, 4 * M, &[0]),
                )
            },
        ),
        // Deep but legal: many chains of 510 levels inside root + list.
        case("2000 × 512-deep list chains", B, || {
            list_doc(9, 2000, &chain_payload(&chain(&[Kind::L], 510)))
        }),
        case("2000 × 512-deep compound chains", B, || {
            list_doc(10, 2000, &chain_payload(&chain(&[Kind::C], 510)))
        }),
        case("2000 × 512-deep compound/list chains", B, || {
            list_doc(10, 2000, &chain_payload(&chain(&[Kind::C, Kind::L], 510)))
        }),
        // One chain of 512: a tiny input, so fixed costs dominate the ratio.
        case("one 512-deep compound chain", B, || {
            chain_named(&chain(&[Kind::C], 512))
        }),
        case("one 512-deep compound/list chain", B, || {
            chain_named(&chain(&[Kind::C, Kind::L], 512))
        }),
    ];
    for name in REAL_FILES {
        let mut c = case(name, B, move || corpus::load(name).unwrap().to_vec());
        c.file = true;
        v.push(c);
    }
    v
}

/// The realistic files among the cases.
const REAL_FILES: [&str; 6] = [
    "generated_chunks_12m",
    "generated_inventory_1m",
    "generated_unicode_1m",
    "chunk1.14.nbt",
    "hypixel.nbt",
    "complex_player.dat",
];

/// What each reader peaked at on one input.
struct Row {
    name: String,
    size: usize,
    borrow: Peak,
    owned: Peak,
    document: Peak,
    bound: f64,
    file: bool,
}

fn mib(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// The bound the borrow reader is held to on the amplification cases
/// and on real files (plus `SLACK` of fixed costs, which matter for tiny inputs).
const BORROW_BOUND: f64 = 10.0;
/// The bound on inputs crafted against the tape's growth (a tape grown for
/// millions of one-byte compounds, then a list of millions of strings). A
/// read builds no side table (that waits for the first `strings()`), so these
/// are held to the same bound (measured 8.00×: the tape alone).
const CRAFTED_BOUND: f64 = BORROW_BOUND;
/// The owned reader's bounds, as docs/safety.md states them: a node per tag, so
/// 24 bytes (an `NbtCompound`, one `Vec`) per input byte at worst (a list of
/// empty compounds, measured 24.00×), and up to 6× on real files (measured
/// 1.2–5.7×; complex_player.dat is the highest).
const OWNED_AMPLIFICATION_BOUND: f64 = 24.0;
const OWNED_REAL_BOUND: f64 = 6.0;
/// The owned reader's fixed costs (its builder's stack) are small: a slack
/// of `SLACK` would let complex_player.dat (3.3 KiB) be 25× and still pass.
const OWNED_SLACK: usize = 4096;
const SLACK: usize = 64 * 1024;

#[test]
#[cfg_attr(miri, ignore)]
fn amplification_peak_memory() {
    let mut rows = Vec::new();
    for case in cases() {
        let bytes = (case.make)();
        let borrow_peak = measure_first_read(|| {
            let doc = borrow::read(&mut Cursor::new(&bytes[..])).unwrap();
            assert!(doc.is_some(), "{}", case.name);
            doc
        });
        let owned_peak = measure_first_read(|| {
            let doc = owned::read(&mut Cursor::new(&bytes[..])).unwrap();
            assert!(doc.is_some(), "{}", case.name);
            doc
        });
        let document_peak = measure_first_read(|| {
            let doc = document::read(&mut Cursor::new(&bytes[..])).unwrap();
            assert!(doc.is_some(), "{}", case.name);
            doc
        });
        rows.push(Row {
            name: case.name,
            size: bytes.len(),
            borrow: borrow_peak,
            owned: owned_peak,
            document: document_peak,
            bound: case.bound,
            file: case.file,
        });
    }
    let ratio = |peak: usize, size: usize| peak as f64 / size as f64;
    println!(
        "| input | size | borrow peak | ratio | owned peak | ratio | document peak | ratio | borrow, realloc moving | owned, realloc moving | document, realloc moving |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {:.2}× | {} | {:.2}× | {} | {:.2}× | {:.2}× | {:.2}× | {:.2}× |",
            r.name,
            mib(r.size),
            mib(r.borrow.in_place),
            ratio(r.borrow.in_place, r.size),
            mib(r.owned.in_place),
            ratio(r.owned.in_place, r.size),
            mib(r.document.in_place),
            ratio(r.document.in_place, r.size),
            ratio(r.borrow.moving, r.size),
            ratio(r.owned.moving, r.size),
            ratio(r.document.moving, r.size),
        );
    }
    let over: Vec<String> = rows
        .iter()
        .filter(|r| r.borrow.in_place as f64 > r.bound * r.size as f64 + SLACK as f64)
        .map(|r| {
            let got = ratio(r.borrow.in_place, r.size);
            format!("{}: {got:.2}× > {}×", r.name, r.bound)
        })
        .collect();
    assert!(over.is_empty(), "borrow reader over its bound: {over:?}");
    // The document: one 16-byte node per tag (a tag takes at least one input
    // byte) and the stored copy; real files take far fewer nodes.
    let over: Vec<String> = rows
        .iter()
        .filter(|r| {
            let bound = if r.file {
                DOCUMENT_FILE_BOUND
            } else {
                DOCUMENT_BOUND
            };
            r.document.in_place as f64 > bound * r.size as f64 + SLACK as f64
        })
        .map(|r| format!("{}: {:.2}×", r.name, ratio(r.document.in_place, r.size)))
        .collect();
    assert!(over.is_empty(), "document reader over its bound: {over:?}");
    let owned_over: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            let bound = match REAL_FILES.contains(&r.name.as_str()) {
                true => OWNED_REAL_BOUND,
                false => OWNED_AMPLIFICATION_BOUND,
            };
            let got = ratio(r.owned.in_place, r.size);
            let over = r.owned.in_place as f64 > bound * r.size as f64 + OWNED_SLACK as f64;
            over.then(|| format!("{}: {got:.2}× > {bound}×", r.name))
        })
        .collect();
    assert!(
        owned_over.is_empty(),
        "owned reader over its bound: {owned_over:?}"
    );
}

/// The document reader's bound on any input (plus `SLACK`): 16 bytes of node
/// per input byte (an empty compound in a list: no tag takes less), the
/// stored copy and its headroom (a sixteenth, at most 64 KiB). The arena's
/// doubling stops at one node per input byte left, so it never passes that
/// (it reached 32× on 4M empty compounds then 20 empty strings, doubling for
/// the second list). Measured 17.00× at worst.
const DOCUMENT_BOUND: f64 = 18.0;
/// The document reader's bound on real files (the target).
const DOCUMENT_FILE_BOUND: f64 = 3.0;

/// Length prefixes that promise gigabytes are rejected before anything is
/// sized by them: the whole read stays within a few KiB.
#[test]
fn huge_length_prefixes_allocate_nothing_large() {
    let max = i32::MAX.to_be_bytes();
    let section4 = |name: &str| testkit::hostile::case(name).bytes;
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("§4 huge list".into(), section4("huge_list")),
        ("§4 huge int array".into(), section4("huge_int_array")),
        (
            "list of End 0x7fffffff".into(),
            r(&cat(&[&[0x09, 0, 1, b'l', 0], &max])),
        ),
    ];
    for elem in 1..=12u8 {
        inputs.push((
            format!("list of {elem} × 0x7fffffff"),
            r(&cat(&[&[0x09, 0, 1, b'l', elem], &max, &[0; 64]])),
        ));
        // The same inside a list of lists, and as a root tag.
        inputs.push((
            format!("nested list of {elem} × 0x7fffffff"),
            r(&cat(&[
                &[0x09, 0, 1, b'l', 9, 0, 0, 0, 1, elem],
                &max,
                &[0; 64],
            ])),
        ));
    }
    for id in [7u8, 11, 12] {
        inputs.push((
            format!("array {id} × 0x7fffffff"),
            r(&cat(&[&[id, 0, 1, b'a'], &max, &[0; 64]])),
        ));
        inputs.push((
            format!("list of one array {id} × 0x7fffffff"),
            r(&cat(&[&[0x09, 0, 1, b'l', id, 0, 0, 0, 1], &max, &[0; 64]])),
        ));
        inputs.push((
            format!("list of 0x7fffffff arrays {id}"),
            r(&cat(&[&[0x09, 0, 1, b'l', id], &max, &[0; 64]])),
        ));
        // 0x20000000 × 8 = 2^32: wraps to 0 in 32-bit arithmetic.
        inputs.push((
            format!("array {id} × 0x20000000"),
            r(&cat(&[&[id, 0, 1, b'a', 0x20, 0, 0, 0], &[0; 64]])),
        ));
    }
    for (what, bytes) in &inputs {
        for reader in ["borrow", "owned", "document"] {
            let (res, peak) = measure(|| {
                let mut c = Cursor::new(&bytes[..]);
                match reader {
                    "borrow" => borrow::read(&mut c).map(|_| ()),
                    "owned" => owned::read(&mut c).map(|_| ()),
                    _ => document::read(&mut c).map(|_| ()),
                }
            });
            let e = res.expect_err(what);
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::LengthExceedsInput | ErrorKind::ListOfEndNotEmpty
                ),
                "{what}: {e}"
            );
            assert!(peak.moving <= 4096, "{what} ({reader}): {peak:?}");
        }
    }
}

/// For `/usr/bin/time -v`: reads case `MEMORY_CASE` (an index into the case
/// list) with `MEMORY_READER` (`none`, `borrow`, `owned` or `document`) once.
/// With `MEMORY_FILE`, the input is that file's bytes instead, read in one
/// allocation of its size: no transient allocation before the read that the
/// reader could reuse, so the RSS above the `none` run is the reader's own.
#[test]
#[ignore = "run by hand under /usr/bin/time -v; see reports/memory.md"]
fn rss_probe() {
    let reader = std::env::var("MEMORY_READER").expect("MEMORY_READER");
    let (name, bytes) = match std::env::var_os("MEMORY_FILE") {
        Some(path) => (
            path.to_string_lossy().into_owned(),
            std::fs::read(&path).unwrap(),
        ),
        None => {
            let index: usize = std::env::var("MEMORY_CASE")
                .expect("MEMORY_CASE or MEMORY_FILE")
                .parse()
                .unwrap();
            let case = cases().into_iter().nth(index).expect("case index");
            (case.name.to_string(), (case.make)())
        }
    };
    let mut c = Cursor::new(&bytes[..]);
    let some = match reader.as_str() {
        "none" => true,
        "borrow" => borrow::read(&mut c).unwrap().is_some(),
        "owned" => owned::read(&mut c).unwrap().is_some(),
        "document" => document::read(&mut c).unwrap().is_some(),
        other => panic!("unknown reader {other}"),
    };
    assert!(some);
    println!("{name}\t{}\t{reader}", bytes.len());
}

/// A decompression bomb (1 GiB of zeros claimed by 1 MB of zlib) costs at most
/// the inflation cap, not the size it claims.
#[cfg(feature = "compression")]
#[test]
fn decompression_bomb_peak_memory_is_the_cap() {
    let bomb = zlib_bomb(1024);
    let cap = 16 << 20;
    let opts = simdnbt::ReadOptions::default().max_inflated_bytes(cap);
    let (result, peak) =
        measure(|| simdnbt::compression::decompress_with(&bomb, &opts).map(|c| c.len()));
    assert!(result.is_err(), "{result:?}");
    // The output buffer (grown geometrically, never past cap + 1) plus the
    // inflater's 32 KiB window and state.
    assert!(peak.in_place <= cap + (1 << 20), "{peak:?}");
    assert!(peak.moving <= cap + cap / 2 + (1 << 20), "{peak:?}");
}

/// `read_file_with` reads a file only as far as the cap can need: a symlink to
/// `/dev/zero` (endless, length 0) and a sparse 1.5 GiB file, raw or starting
/// like a gzip stream, fail after reading about the cap.
#[cfg(all(feature = "compression", unix))]
#[test]
fn read_file_reads_no_further_than_the_cap() {
    use simdnbt::compression::{self, InflateErrorKind};
    let dir = std::env::temp_dir().join(format!("simdnbt-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zero = dir.join("zero.dat");
    let _ = std::fs::remove_file(&zero);
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let sparse = |name: &str, head: &[u8]| {
        let path = dir.join(name);
        let file = std::fs::File::create(&path).unwrap();
        std::io::Write::write_all(&mut &file, head).unwrap();
        file.set_len(3 << 29).unwrap(); // 1.5 GiB, no blocks written
        path
    };
    let raw = sparse("sparse.nbt", &[]);
    let gzip = sparse("sparse.dat", &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    let cap = 1 << 20;
    let opts = simdnbt::ReadOptions::default().max_inflated_bytes(cap);
    for path in [&zero, &raw, &gzip] {
        let (result, peak) = measure(|| compression::read_file_with(path, &opts).map(|f| f.len()));
        let Err(compression::FileError::Inflate(e)) = &result else {
            panic!("{}: {result:?}", path.display())
        };
        if path != &gzip {
            assert_eq!(e.kind(), &InflateErrorKind::TooLarge { limit: cap });
        }
        // The bytes read (at most the cap plus deflate's slack, 1/64 + 4 KiB,
        // plus one) and, for gzip, the output buffer (at most the cap plus one)
        // and the inflater's window and state; while the read buffer doubles
        // past a missing size hint (`/dev/zero`), an allocator that moves
        // blocks holds the old half too.
        let read = if path == &gzip {
            cap + cap / 64 + 4097
        } else {
            cap + 1
        };
        let most = read + if path == &gzip { cap + 1 } else { 0 };
        assert!(
            peak.in_place <= most + (256 << 10),
            "{}: {peak:?}",
            path.display()
        );
        assert!(
            peak.moving <= most + most / 2 + (256 << 10),
            "{}: {peak:?}",
            path.display()
        );
        println!("{}: {peak:?}", path.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
