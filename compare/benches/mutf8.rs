//! MUTF-8 codec throughput: `simdnbt::mutf8` against `simd_cesu8::mutf8`
//! (the crate upstream simdnbt uses), per operation and kind of text. The
//! cases and what differs between the two are described in
//! `compare::mutf8_cases`. Groups are `mutf8/<op>/<case>`, functions the
//! library; throughput in MUTF-8 bytes. For example
//! `cargo bench -p compare --bench mutf8 -- 'mutf8/decode/'`.

use std::hint::black_box;
use std::time::Duration;

use compare::harness::Args;
use compare::mutf8_cases::{CASE_NAMES, WORKLOADS, cases};
use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = Args::from_env();
    let ops = ["decode", "decode_lossy", "encode"];
    let libs = || WORKLOADS.iter().map(|w| w.0);
    let wanted =
        |op: &str, case: &str| args.wants_any(libs().map(|lib| format!("mutf8/{op}/{case}/{lib}")));
    if !ops
        .iter()
        .any(|op| CASE_NAMES.iter().any(|case| wanted(op, case)))
    {
        return;
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .configure_from_args();
    let cases = cases();
    for op in ops {
        for case in cases.iter().filter(|case| wanted(op, case.name)) {
            let mut group = c.benchmark_group(format!("mutf8/{op}/{}", case.name));
            group.throughput(Throughput::Bytes(case.bytes()));
            for &(lib, _, run) in WORKLOADS.iter().filter(|w| w.1 == op) {
                group.bench_function(lib, |b| b.iter(|| run(black_box(case))));
            }
            group.finish();
        }
    }
    c.final_summary();
}
