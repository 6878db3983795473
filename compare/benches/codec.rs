//! The deflate codecs on every zlib chunk of the corpus regions
//! (`corpus::REGIONS`): libdeflate, zlib-rs (what the library uses without
//! its `libdeflate` feature) and zlib-ng, inflating (output size known, as
//! for a whole buffer of known bound) and deflating at levels 1-9. See
//! `compare/codecs` for the codecs; on a loaded machine trust the CPU-time
//! rounds of `codec-rounds` over these wall-clock numbers
//! (`reports/files.md`).
//!
//! ```text
//! cargo bench -p compare --bench codec
//! cargo bench -p compare --bench codec -- 'codec/deflate_6'
//! ```
//!
//! Throughput is inflated NBT bytes.

use std::hint::black_box;
use std::time::Duration;

use compare_codecs::{CODECS, Codecs, zlib_chunks};
use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    let mut chunks: Vec<(&[u8], Vec<u8>)> = Vec::new();
    for file in corpus::REGIONS {
        let region = corpus::load_as_shipped(file.name).unwrap_or_else(|e| panic!("{e}"));
        for data in zlib_chunks(region) {
            let nbt = simdnbt::compression::decompress(data).expect("corpus chunk");
            chunks.push((data, nbt.into_owned()));
        }
    }
    let total: usize = chunks.iter().map(|(_, n)| n.len()).sum();
    let mut codecs = Codecs::new();
    let mut out = vec![0u8; chunks.iter().map(|(_, n)| n.len()).max().unwrap_or(0)];

    let mut g = c.benchmark_group("codec/inflate");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for codec in CODECS {
        g.bench_function(codec.name(), |b| {
            b.iter(|| {
                for (zlib, nbt) in &chunks {
                    codecs.inflate(codec, black_box(zlib), &mut out[..nbt.len()]);
                }
            })
        });
    }
    g.finish();

    let mut packed = Vec::new();
    for level in 1..=9 {
        let mut g = c.benchmark_group(format!("codec/deflate_{level}"));
        g.throughput(Throughput::Bytes(total as u64));
        g.sample_size(10).measurement_time(Duration::from_secs(5));
        for codec in CODECS {
            g.bench_function(codec.name(), |b| {
                b.iter(|| {
                    for (_, nbt) in &chunks {
                        codecs.deflate(codec, level, black_box(nbt), &mut packed);
                    }
                })
            });
        }
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
