//! Instruction-count driver for the serde adapters, run under callgrind by
//! `compare/serde_icount.sh`:
//!
//! ```text
//! serde_icount <peer> <read|write> <complex_player.dat|level.dat> <iterations>
//! ```
//!
//! Only `measured` is counted (`--toggle-collect`).

use std::hint::black_box;
use std::process::ExitCode;

use compare::serde_peers::serde_peers;
use compare::typed::{Level, Player};
use serde::{Serialize, de::DeserializeOwned};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The counted region: `n` calls of the workload.
#[inline(never)]
fn measured(bench: &mut dyn FnMut(), n: u64) {
    for _ in 0..n {
        bench();
    }
}

fn run<T: Serialize + DeserializeOwned>(peer: &str, op: &str, file: &str, n: u64) -> ExitCode {
    let Some(peer) = serde_peers::<T>().into_iter().find(|p| p.name == peer) else {
        eprintln!("unknown peer {peer}");
        return ExitCode::from(2);
    };
    let bytes = compare::inputs::load(file).unwrap();
    let value: T = simdnbt::serde::from_slice(bytes).unwrap();
    let mut bench: Box<dyn FnMut()> = match op {
        "read" => Box::new(|| drop(black_box((peer.read)(black_box(bytes))))),
        "write" => Box::new(|| drop(black_box((peer.write)(black_box(&value))))),
        _ => {
            eprintln!("op must be read or write");
            return ExitCode::from(2);
        }
    };
    for _ in 0..3 {
        bench();
    }
    measured(&mut bench, n);
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [peer, op, file, n] = args.as_slice() else {
        eprintln!("usage: serde_icount <peer> <read|write> <file> <iterations>");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("iterations must be a number");
        return ExitCode::from(2);
    };
    match file.as_str() {
        "complex_player.dat" => run::<Player>(peer, op, file, n),
        "level.dat" => run::<Level>(peer, op, file, n),
        _ => {
            eprintln!("file must be complex_player.dat or level.dat");
            ExitCode::from(2)
        }
    }
}
