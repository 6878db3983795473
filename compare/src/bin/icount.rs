//! Instruction-count driver: runs one peer's prepared workload under
//! `valgrind --tool=callgrind`, which counts instructions repeatably even on a
//! noisy machine. Use `compare/icount.sh`, which runs this and divides.
//!
//! ```text
//! icount <peer> <read|write|decode_all|edit|write_edited> <file> <iterations>
//! ```
//!
//! Only `measured` is counted (`--toggle-collect`): setup (loading and
//! inflating the input, parsing for a write) and a few warm-up calls are not.

use std::process::ExitCode;

// The same allocator as the criterion benches, so counts match what they time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The counted region: `n` calls of the workload.
#[inline(never)]
fn measured(bench: &mut dyn FnMut(), n: u64) {
    for _ in 0..n {
        bench();
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [peer, op, file, n] = args.as_slice() else {
        eprintln!(
            "usage: icount <peer> <read|write|decode_all|edit|write_edited> <file> <iterations>"
        );
        return ExitCode::from(2);
    };
    let Some(peer) = compare::peer(peer) else {
        eprintln!("unknown peer {peer}");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("iterations must be a number");
        return ExitCode::from(2);
    };
    let input = match compare::inputs::load(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut bench = match op.as_str() {
        "read" => (peer.read)(input),
        "write" => match peer.write.map(|prepare| prepare(input)) {
            Some(Ok(bench)) => bench,
            Some(Err(why)) => {
                eprintln!("{}: cannot write {file}: {why}", peer.name);
                return ExitCode::FAILURE;
            }
            None => {
                eprintln!("{} has no writer", peer.name);
                return ExitCode::FAILURE;
            }
        },
        "decode_all" => match peer.decode_all {
            Some(prepare) => prepare(input),
            None => {
                eprintln!("{} cannot visit every tag", peer.name);
                return ExitCode::FAILURE;
            }
        },
        op @ ("edit" | "write_edited") => match (if op == "edit" {
            peer.edit
        } else {
            peer.write_edited
        })
        .map(|prepare| prepare(input))
        {
            Some(Ok(bench)) => bench,
            Some(Err(why)) => {
                eprintln!("{}: cannot edit {file}: {why}", peer.name);
                return ExitCode::FAILURE;
            }
            None => {
                eprintln!("{} has no mutable tree", peer.name);
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("op must be read, write, decode_all, edit or write_edited");
            return ExitCode::from(2);
        }
    };
    // Warm up: first calls pay for lazy initialisation (CPU feature detection,
    // allocator pages) that a long-running program pays once.
    for _ in 0..3 {
        bench();
    }
    measured(&mut *bench, n);
    ExitCode::SUCCESS
}
