//! Deserializing `complex_player.dat` into one derived Rust type
//! (`compare::derived::Player`): simdnbt's derive against fastnbt's serde.
//!
//! `cargo bench -p compare --bench derive` runs group `derive/complex_player.dat`,
//! functions `simdnbt_derive` (borrow read + `from_nbt`) and `fastnbt_serde`
//! (`fastnbt::from_bytes`), throughput in inflated input bytes. Both parse the
//! whole input and skip the keys the type does not name. (na_nbt's serde cannot
//! read this file's lists into `Vec`s; see `compare::derived`.)

use std::hint::black_box;

use compare::derived;
use compare::harness::Args;
use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = Args::from_env();
    if !args.wants_any(
        ["simdnbt_derive", "fastnbt_serde"].map(|f| format!("derive/complex_player.dat/{f}")),
    ) {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let bytes = corpus::load("complex_player.dat").expect("corpus file");
    let expected = derived::simdnbt(bytes).expect("simdnbt reads the player");
    let mut group = c.benchmark_group("derive/complex_player.dat");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    let peers: [(&str, derived::Reader); 2] = [
        ("simdnbt_derive", derived::simdnbt),
        ("fastnbt_serde", derived::fastnbt),
    ];
    for (name, read) in peers {
        assert_eq!(
            read(bytes).as_ref(),
            Ok(&expected),
            "{name} reads the same player"
        );
        group.bench_function(name, |b| b.iter(|| read(black_box(bytes))));
    }
    group.finish();
    c.final_summary();
}
