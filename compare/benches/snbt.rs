//! SNBT read and write: simdnbt against valence_nbt 0.8 (`snbt` feature) and
//! quartz_nbt 0.2, the two other Rust crates with SNBT, on every corpus input
//! turned into SNBT.
//!
//! Groups are `snbt/<file>`, functions `<peer>_snbt_read` (text → the
//! library's tree) and `<peer>_snbt_write` (the library's tree, read from the
//! binary file, → text); throughput in bytes of SNBT text (simdnbt's compact
//! form of the file, which every reader is given). For example
//! `cargo bench -p compare --bench snbt -- 'snbt/bigtest.nbt/'`.
//!
//! What differs: simdnbt reads the 1.21.5 grammar into its owned tree
//! (MUTF-8 strings, insertion order, last value for a repeated key) and prints
//! text that reads back exactly (floats via `ryu`, every string value quoted
//! and escaped); valence reads into BTreeMap compounds with `String`s and
//! prints with `{}`-formatted floats; quartz reads into HashMap compounds and
//! prints through its `Debug` impl. A peer that cannot read the text (or
//! write the tree) is skipped on that input with a line on stderr; only the
//! files and peers the filter selects are prepared (and can print one).

use std::hint::black_box;
use std::time::Duration;

use compare::harness::Args;
use compare::snbt_peers::{SNBT_PEERS as PEERS, SnbtPeer, text_of};
use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = Args::from_env();
    let mut c = Criterion::default().configure_from_args();
    let id = |file: &str, peer: &SnbtPeer, op: &str| format!("snbt/{file}/{}_snbt_{op}", peer.name);
    for file in compare::inputs::bench_names() {
        let wanted = |peer, op| args.wants(&id(file, peer, op));
        if !PEERS
            .iter()
            .any(|p| wanted(p, "read") || wanted(p, "write"))
        {
            continue;
        }
        let input = compare::inputs::load(file).unwrap_or_else(|e| panic!("snbt/{file}: {e}"));
        let text = match text_of(input) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("snbt/{file}: no SNBT form: {e}");
                continue;
            }
        };
        let mut group = c.benchmark_group(format!("snbt/{file}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        if text.len() >= 1 << 20 {
            group
                .sample_size(10)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(3));
        } else {
            group
                .sample_size(30)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2));
        }
        for peer in PEERS {
            if wanted(peer, "read") {
                match (peer.read)(&text) {
                    Ok(_) => {
                        group.bench_function(format!("{}_snbt_read", peer.name), |b| {
                            b.iter(|| (peer.read)(black_box(&text)).is_ok())
                        });
                    }
                    Err(e) => eprintln!("snbt/{file}: skipping {}_snbt_read: {e}", peer.name),
                }
            }
            if wanted(peer, "write") {
                match (peer.writer)(input) {
                    Ok(mut w) => {
                        group.bench_function(format!("{}_snbt_write", peer.name), |b| {
                            b.iter(&mut w)
                        });
                    }
                    Err(e) => eprintln!("snbt/{file}: skipping {}_snbt_write: {e}", peer.name),
                }
            }
        }
        group.finish();
    }
    c.final_summary();
}
