//! serde benches: every library with a serde binary (de)serializer that can
//! read these files (`compare::serde_peers`), on the same typed structs
//! (`compare::typed`), for `complex_player.dat` and `level.dat`.
//!
//! Groups `serde/<file>`, functions `<peer>_serde_read` (bytes → struct) and
//! `<peer>_serde_write` (struct → a new `Vec<u8>`). Run with
//! `cargo bench -p compare --bench serde`; instruction counts (repeatable
//! under load) with `compare/serde_icount.sh`.

use std::hint::black_box;

use compare::serde_peers::serde_peers;
use compare::typed::{Level, Player};
use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Serialize, de::DeserializeOwned};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench_file<T: Serialize + DeserializeOwned>(c: &mut Criterion, file: &str) {
    let bytes = compare::inputs::load(file).unwrap();
    let value: T = simdnbt::serde::from_slice(bytes).unwrap();
    let mut group = c.benchmark_group(format!("serde/{file}"));
    group.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    for peer in serde_peers::<T>() {
        group.bench_function(format!("{}_serde_read", peer.name), |b| {
            b.iter(|| (peer.read)(black_box(bytes)))
        });
        group.bench_function(format!("{}_serde_write", peer.name), |b| {
            b.iter(|| (peer.write)(black_box(&value)))
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_file::<Player>(c, "complex_player.dat");
    bench_file::<Level>(c, "level.dat");
}

criterion_group!(serde_benches, benches);
criterion_main!(serde_benches);
