//! serde benches: every library with a serde binary (de)serializer, on the
//! same typed structs (`compare::typed`), for `complex_player.dat` and
//! `level.dat`.
//!
//! Groups `serde/<file>`, functions `<peer>_serde_read` (bytes → struct) and
//! `<peer>_serde_write` (struct → a new `Vec<u8>`). Run with
//! `cargo bench -p compare --bench serde`.
//!
//! na_nbt 0.2.1 has serde too, but maps `Vec` to a list of `{"": v}`
//! compounds and `Option` to a compound wrapper, so it cannot read these
//! vanilla files into the shared structs (`tests/serde_typed.rs` shows it).
//!
//! | peer | read | write |
//! |---|---|---|
//! | simdnbt | `simdnbt::serde::from_slice` (validating pass, then a walk) | `simdnbt::serde::to_vec` |
//! | fastnbt 2.6.3 | `fastnbt::from_bytes` | `fastnbt::to_bytes` |
//! | quartz_nbt 0.2.9 | `quartz_nbt::serde::deserialize` (`Flavor::Uncompressed`) | `quartz_nbt::serde::serialize` |
//! | hematite-nbt 0.5.2 | `nbt::from_reader` on a `&[u8]` | `nbt::to_writer` into a `Vec` |

use std::hint::black_box;

use compare::typed::{Level, Player};
use criterion::{criterion_group, criterion_main, Criterion};
use serde::{de::DeserializeOwned, Serialize};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Read<T> = fn(&[u8]) -> T;
type Write<T> = fn(&T) -> Vec<u8>;

/// Each library's read and write, for a typed `T`.
fn peers<T: Serialize + DeserializeOwned>() -> Vec<(&'static str, Read<T>, Write<T>)> {
    vec![
        (
            "simdnbt",
            |b| simdnbt::serde::from_slice(b).unwrap(),
            |v| simdnbt::serde::to_vec(v).unwrap(),
        ),
        (
            "fastnbt",
            |b| fastnbt::from_bytes(b).unwrap(),
            |v| fastnbt::to_bytes(v).unwrap(),
        ),
        (
            "quartz",
            |b| {
                quartz_nbt::serde::deserialize(b, quartz_nbt::io::Flavor::Uncompressed)
                    .unwrap()
                    .0
            },
            |v| {
                quartz_nbt::serde::serialize(v, None, quartz_nbt::io::Flavor::Uncompressed).unwrap()
            },
        ),
        (
            "hematite",
            |mut b| nbt::from_reader(&mut b).unwrap(),
            |v| {
                let mut out = Vec::new();
                nbt::to_writer(&mut out, v, None).unwrap();
                out
            },
        ),
    ]
}

fn bench_file<T: Serialize + DeserializeOwned>(c: &mut Criterion, file: &str) {
    let bytes = compare::inputs::load(file).unwrap();
    let value: T = simdnbt::serde::from_slice(bytes).unwrap();
    let mut group = c.benchmark_group(format!("serde/{file}"));
    group.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    for (name, read, write) in peers::<T>() {
        group.bench_function(format!("{name}_serde_read"), |b| {
            b.iter(|| read(black_box(bytes)))
        });
        group.bench_function(format!("{name}_serde_write"), |b| {
            b.iter(|| write(black_box(&value)))
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
