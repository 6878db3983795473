//! MUTF-8 codec throughput: `simdnbt::mutf8` against `simd_cesu8::mutf8`
//! (the crate upstream simdnbt uses), per operation and kind of text. The
//! cases and what differs between the two are described in
//! `compare::mutf8_cases`. Groups are `mutf8/<op>/<case>`, functions the
//! library; throughput in MUTF-8 bytes. For example
//! `cargo bench -p compare --bench mutf8 -- 'mutf8/decode/'`.

use std::hint::black_box;
use std::time::Duration;

use compare::mutf8_cases::{WORKLOADS, cases};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let cases = cases();
    for op in ["decode", "decode_lossy", "encode"] {
        for case in &cases {
            let mut group = c.benchmark_group(format!("mutf8/{op}/{}", case.name));
            group.throughput(Throughput::Bytes(case.bytes()));
            for &(lib, _, run) in WORKLOADS.iter().filter(|w| w.1 == op) {
                group.bench_function(lib, |b| b.iter(|| run(black_box(case))));
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
