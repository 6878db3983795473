//! The instruction-count driver: runs one prepared workload of `compare`
//! under `valgrind --tool=callgrind`, which counts instructions repeatably
//! even on a noisy machine. `compare/icount.sh` runs it and divides.
//!
//! ```text
//! icount nbt    <peer> <read|write|decode_all|edit|write_edited> <file> <iterations>
//! icount serde  <peer> <read|write> <complex_player.dat|level.dat> <iterations>
//! icount serde  simdnbt <read_owned|read_owned_root> <complex_player.dat|level.dat> <iterations>
//! icount mutf8  <simdnbt|simd_cesu8> <decode|decode_lossy|encode> <case> <iterations>
//! icount snbt   <simdnbt|valence|quartz> <read|write> <file> <iterations>
//! icount region <reader> <iterations>
//! icount bedrock <reader> <file> <iterations>
//! icount locate <file> <iterations>
//! ```
//!
//! Every mode counts only `measured` (`--toggle-collect='*icount*measured*'`):
//! setup (loading and inflating the input, parsing for a write, building the
//! MUTF-8 cases) and three warm-up calls are not counted, so a count divided
//! by the iterations is the cost of one call.

use std::hint::black_box;
use std::io::Cursor;
use std::process::ExitCode;

use compare::mutf8_cases::{WORKLOADS, cases};
use compare::region::*;
use compare::serde_peers::serde_peers;
use compare::snbt_peers::{SNBT_PEERS, text_of};
use compare::typed::{Level, LevelOwned, Player, PlayerOwned};
use serde::Deserialize;
use serde::{Serialize, de::DeserializeOwned};

// The same allocator as the criterion benches, so counts match what they time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: icount nbt    <peer> <read|write|decode_all|edit|write_edited> <file> <iterations>
       icount serde  <peer> <read|write> <complex_player.dat|level.dat> <iterations>
       icount serde  simdnbt <read_owned|read_owned_root> <complex_player.dat|level.dat> <iterations>
       icount mutf8  <simdnbt|simd_cesu8> <decode|decode_lossy|encode> <case> <iterations>
       icount snbt   <simdnbt|valence|quartz> <read|write> <file> <iterations>
       icount region <reader> <iterations>
       icount bedrock <reader> <file> <iterations>
       icount locate <file> <iterations>";

/// The counted region: `n` calls of the workload.
#[inline(never)]
fn measured(bench: &mut dyn FnMut(), n: u64) {
    for _ in 0..n {
        bench();
    }
}

/// Warms up (the first calls pay for CPU feature detection and allocator
/// pages, which a long-running program pays once), then counts `n` calls.
fn count(bench: &mut dyn FnMut(), n: u64) -> ExitCode {
    for _ in 0..3 {
        bench();
    }
    measured(bench, n);
    ExitCode::SUCCESS
}

fn fail(message: String) -> ExitCode {
    eprintln!("icount: {message}");
    ExitCode::FAILURE
}

fn usage(message: &str) -> ExitCode {
    eprintln!("icount: {message}\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((n, rest)) = args.split_last() else {
        return usage("no mode");
    };
    let Ok(n) = n.parse::<u64>() else {
        return usage("the last argument must be the number of iterations");
    };
    match rest {
        [mode, peer, op, file] if mode == "nbt" => nbt(peer, op, file, n),
        [mode, peer, op, file] if mode == "serde" && op.starts_with("read_owned") => {
            serde_owned(peer, op, file, n)
        }
        [mode, peer, op, file] if mode == "serde" => match file.as_str() {
            "complex_player.dat" => serde::<Player>(peer, op, file, n),
            "level.dat" => serde::<Level>(peer, op, file, n),
            _ => usage("serde: the file must be complex_player.dat or level.dat"),
        },
        [mode, lib, op, case] if mode == "mutf8" => mutf8(lib, op, case, n),
        [mode, peer, op, file] if mode == "snbt" => snbt(peer, op, file, n),
        [mode, reader] if mode == "region" => region(reader, n),
        [mode, reader, file] if mode == "bedrock" => bedrock(reader, file, n),
        [mode, file] if mode == "locate" => locate(file, n),
        _ => usage("unknown mode or wrong number of arguments"),
    }
}

/// One peer's `read`, `write`, `decode_all`, `edit` or `write_edited` of the
/// compare bench.
fn nbt(peer: &str, op: &str, file: &str, n: u64) -> ExitCode {
    let Some(peer) = compare::peer(peer) else {
        return usage(&format!("unknown peer {peer}"));
    };
    let input = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    let name = peer.info.name;
    let mut bench = match op {
        "read" => (peer.read)(input),
        "write" => match peer.write.map(|prepare| prepare(input)) {
            Some(Ok(bench)) => bench,
            Some(Err(why)) => return fail(format!("{name}: cannot write {file}: {why}")),
            None => return fail(format!("{name} has no writer")),
        },
        "decode_all" => match peer.decode_all {
            Some(prepare) => prepare(input),
            None => return fail(format!("{name} cannot visit every tag")),
        },
        "edit" | "write_edited" => {
            let prepare = if op == "edit" {
                peer.edit
            } else {
                peer.write_edited
            };
            match prepare.map(|prepare| prepare(input)) {
                Some(Ok(bench)) => bench,
                Some(Err(why)) => return fail(format!("{name}: cannot edit {file}: {why}")),
                None => return fail(format!("{name} has no mutable tree")),
            }
        }
        _ => {
            return usage(
                "nbt: the operation must be read, write, decode_all, edit or write_edited",
            );
        }
    };
    count(&mut *bench, n)
}

/// One serde peer's typed read or write (`compare::serde_peers`).
fn serde<T: Serialize + DeserializeOwned>(peer: &str, op: &str, file: &str, n: u64) -> ExitCode {
    let Some(peer) = serde_peers::<T>().into_iter().find(|p| p.name == peer) else {
        return usage(&format!("unknown serde peer {peer}"));
    };
    let bytes = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    let value: T = match simdnbt::serde::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => return fail(format!("{file} does not read as the typed struct: {e}")),
    };
    match op {
        "read" => count(&mut || drop(black_box((peer.read)(black_box(bytes)))), n),
        "write" => count(&mut || drop(black_box((peer.write)(black_box(&value)))), n),
        _ => usage("serde: the operation must be read or write"),
    }
}

/// simdnbt's serde read into the owned tree: `read_owned`, a struct with
/// owned fields ([`PlayerOwned`], [`LevelOwned`]); `read_owned_root`, the
/// whole document as a `simdnbt::owned::BaseNbt`.
fn serde_owned(peer: &str, op: &str, file: &str, n: u64) -> ExitCode {
    if peer != "simdnbt" {
        return usage("serde: read_owned and read_owned_root are simdnbt's only");
    }
    let bytes = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    fn read<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> T {
        simdnbt::serde::from_slice(bytes).unwrap()
    }
    let read: fn(&[u8]) = match (op, file) {
        ("read_owned", "complex_player.dat") => |b| drop(black_box(read::<PlayerOwned>(b))),
        ("read_owned", "level.dat") => |b| drop(black_box(read::<LevelOwned>(b))),
        ("read_owned_root", _) => |b| drop(black_box(read::<simdnbt::owned::BaseNbt>(b))),
        _ => return usage("serde: read_owned is for complex_player.dat or level.dat"),
    };
    if let Err(e) = simdnbt::serde::from_slice::<simdnbt::owned::BaseNbt>(bytes) {
        return fail(format!("{file} does not read through serde: {e}"));
    }
    count(&mut || read(black_box(bytes)), n)
}

/// One MUTF-8 codec workload over one case (`compare::mutf8_cases`).
fn mutf8(lib: &str, op: &str, name: &str, n: u64) -> ExitCode {
    let Some(&(_, _, run)) = WORKLOADS.iter().find(|w| w.0 == lib && w.1 == op) else {
        return usage(&format!("unknown library/operation {lib} {op}"));
    };
    let Some(case) = cases().into_iter().find(|c| c.name == name) else {
        return usage(&format!("unknown case {name}"));
    };
    count(&mut || _ = black_box(run(black_box(&case))), n)
}

/// One SNBT peer's read of simdnbt's compact text of `file`, or its print
/// of the tree it reads from the binary file (`compare::snbt_peers`).
fn snbt(peer: &str, op: &str, file: &str, n: u64) -> ExitCode {
    let Some(peer) = SNBT_PEERS.iter().find(|p| p.name == peer) else {
        return usage(&format!("unknown SNBT peer {peer}"));
    };
    let input = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    let name = peer.name;
    match op {
        "read" => {
            let text = match text_of(input) {
                Ok(text) => text,
                Err(e) => return fail(format!("{file} has no SNBT form: {e}")),
            };
            if let Err(e) = (peer.read)(&text) {
                return fail(format!("{name} cannot read the SNBT of {file}: {e}"));
            }
            count(&mut || drop(black_box((peer.read)(black_box(&text)))), n)
        }
        "write" => match (peer.writer)(input) {
            Ok(mut print) => count(&mut || _ = black_box(print()), n),
            Err(e) => fail(format!("{name} cannot print {file}: {e}")),
        },
        _ => usage("snbt: the operation must be read or write"),
    }
}

/// One reader of every chunk of fastanvil's `1.19.4.mca` (`compare::region`):
/// the four whole readers, their `_inflate` halves, the `_parse` halves over
/// pre-inflated chunks, and one-shot inflation with zlib-rs and miniz_oxide.
fn region(reader: &str, n: u64) -> ExitCode {
    let file = match corpus::load_as_shipped("1.19.4.mca") {
        Ok(file) => file,
        Err(e) => return fail(e.to_string()),
    };
    let chunks = inflated_chunks(file);
    let whole: Option<fn(&[u8]) -> usize> = match reader {
        "simdnbt_borrow" => Some(simdnbt_borrow),
        "simdnbt_owned" => Some(simdnbt_owned),
        "fastanvil_fastnbt" => Some(fastanvil_fastnbt),
        "valence" => Some(valence),
        "simdnbt_inflate" => Some(simdnbt_inflate),
        "fastanvil_inflate" => Some(fastanvil_inflate),
        "valence_inflate" => Some(valence_inflate),
        _ => None,
    };
    if let Some(read) = whole {
        return count(&mut || _ = black_box(read(black_box(file))), n);
    }
    match reader {
        "one_shot_zlib_rs" => count(
            &mut || _ = black_box(inflate_zlib_rs(&zlib_chunks(file))),
            n,
        ),
        "one_shot_miniz_oxide" => count(
            &mut || _ = black_box(inflate_miniz_oxide(&zlib_chunks(file))),
            n,
        ),
        "simdnbt_borrow_parse" => count(
            &mut || {
                for c in &chunks {
                    black_box(simdnbt::borrow::read(&mut Cursor::new(&c[..])).unwrap());
                }
            },
            n,
        ),
        "simdnbt_owned_parse" => count(
            &mut || {
                for c in &chunks {
                    black_box(simdnbt::owned::read(&mut Cursor::new(&c[..])).unwrap());
                }
            },
            n,
        ),
        "fastnbt_parse" => count(
            &mut || {
                for c in &chunks {
                    black_box(fastnbt::from_bytes::<fastnbt::Value>(c).unwrap());
                }
            },
            n,
        ),
        // The floor (`compare::floor`): the least any validating reader of
        // these chunks must do.
        "floor_parse" => count(
            &mut || {
                for c in &chunks {
                    black_box(compare::floor::walk(c).unwrap());
                }
            },
            n,
        ),
        "valence_nbt_parse" => count(
            &mut || {
                for c in &chunks {
                    black_box(valence_nbt::from_binary::<String>(&mut &c[..]).unwrap());
                }
            },
            n,
        ),
        _ => usage(&format!("unknown region reader {reader}")),
    }
}

/// One reader of a corpus file converted to a Bedrock form (outside the
/// count): the owned model and the document reading little-endian and
/// network input, the transcoders to Java, and na_nbt's owned little-endian
/// read; and the network form's writes (`*_write`: the tree read outside
/// the count).
fn bedrock(reader: &str, file: &str, n: u64) -> ExitCode {
    let java = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    let (Ok(le), Ok(net)) = (
        simdnbt::bedrock::to_little_endian(java),
        simdnbt::bedrock::to_network(java),
    ) else {
        return fail(format!("{file} does not transcode"));
    };
    match reader {
        "simdnbt_le_owned" => count(
            &mut || {
                black_box(
                    simdnbt::bedrock::owned::read_le(&mut Cursor::new(black_box(&le))).unwrap(),
                );
            },
            n,
        ),
        "simdnbt_doc_le" => count(
            &mut || {
                black_box(
                    simdnbt::bedrock::document::read_le(&mut Cursor::new(black_box(&le))).unwrap(),
                );
            },
            n,
        ),
        "simdnbt_net_owned" => count(
            &mut || {
                black_box(
                    simdnbt::bedrock::owned::read_network(&mut Cursor::new(black_box(&net)))
                        .unwrap(),
                );
            },
            n,
        ),
        "simdnbt_doc_net" => count(
            &mut || {
                black_box(
                    simdnbt::bedrock::document::read_network(&mut Cursor::new(black_box(&net)))
                        .unwrap(),
                );
            },
            n,
        ),
        "simdnbt_doc_net_write" => {
            let doc = simdnbt::bedrock::document::read_network(&mut Cursor::new(&net))
                .unwrap()
                .unwrap();
            count(
                &mut || {
                    let mut out = Vec::new();
                    black_box(&doc).write(&mut out);
                    black_box(out);
                },
                n,
            )
        }
        "simdnbt_net_owned_write" => {
            let nbt = simdnbt::bedrock::owned::read_network(&mut Cursor::new(&net)).unwrap();
            count(
                &mut || {
                    let mut out = Vec::new();
                    simdnbt::bedrock::owned::write_network(black_box(&nbt), &mut out).unwrap();
                    black_box(out);
                },
                n,
            )
        }
        "simdnbt_le_to_java" => count(
            &mut || _ = black_box(simdnbt::bedrock::to_big_endian(black_box(&le)).unwrap()),
            n,
        ),
        "simdnbt_net_to_java" => count(
            &mut || _ = black_box(simdnbt::bedrock::from_network(black_box(&net)).unwrap()),
            n,
        ),
        "na_nbt_le_owned" => count(
            &mut || {
                black_box(
                    na_nbt::read_owned::<na_nbt::LE, na_nbt::NativeEndian>(black_box(&le)).unwrap(),
                );
            },
            n,
        ),
        _ => usage(&format!("unknown bedrock reader {reader}")),
    }
}

/// `path::locate_error` over a valid file: the core run to the end with the
/// error locator's sink (what a failed read pays to name the path).
fn locate(file: &str, n: u64) -> ExitCode {
    let input = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => return fail(e),
    };
    if simdnbt::path::locate_error(input).is_some() {
        return fail(format!("{file} does not read"));
    }
    count(
        &mut || _ = black_box(simdnbt::path::locate_error(black_box(input))),
        n,
    )
}
