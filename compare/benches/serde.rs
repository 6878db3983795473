//! serde benches: every library with a serde binary (de)serializer that can
//! read these files (`compare::serde_peers`), on the same typed structs
//! (`compare::typed`), for `complex_player.dat` and `level.dat`.
//!
//! Groups `serde/<file>`, functions `<peer>_serde_read` (bytes → struct) and
//! `<peer>_serde_write` (struct → a new `Vec<u8>`). Run with
//! `cargo bench -p compare --bench serde`; instruction counts (repeatable
//! under load) with `compare/icount.sh --serde`. A file whose benchmarks the
//! filter excludes is not loaded.

use std::hint::black_box;

use compare::harness::Args;
use compare::serde_peers::serde_peers;
use compare::typed::{Level, Player};
use criterion::Criterion;
use serde::{Serialize, de::DeserializeOwned};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench_file<T: Serialize + DeserializeOwned>(args: &Args, c: &mut Criterion, file: &str) {
    let peers = serde_peers::<T>();
    let ids = peers
        .iter()
        .flat_map(|p| ["read", "write"].map(|op| format!("serde/{file}/{}_serde_{op}", p.name)));
    if !args.wants_any(ids) {
        return;
    }
    let bytes = compare::inputs::load(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let value: T = simdnbt::serde::from_slice(bytes).unwrap();
    let mut group = c.benchmark_group(format!("serde/{file}"));
    group.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    for peer in peers {
        group.bench_function(format!("{}_serde_read", peer.name), |b| {
            b.iter(|| (peer.read)(black_box(bytes)))
        });
        group.bench_function(format!("{}_serde_write", peer.name), |b| {
            b.iter(|| (peer.write)(black_box(&value)))
        });
    }
    group.finish();
}

fn main() {
    let args = Args::from_env();
    let mut c = Criterion::default().configure_from_args();
    bench_file::<Player>(&args, &mut c, "complex_player.dat");
    bench_file::<Level>(&args, &mut c, "level.dat");
    c.final_summary();
}
