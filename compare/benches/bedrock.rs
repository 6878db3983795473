//! Reading Bedrock's little-endian form: the files of `compare/icount.sh
//! --bedrock`, converted from the Java form outside the timing, read by the
//! document (`simdnbt::bedrock::document::read_le`), the owned model
//! (`simdnbt::bedrock::owned::read_le`) and na_nbt's owned little-endian
//! read (its native-endian store). Each read is parse, build and drop, from
//! a `&[u8]`.
//!
//! The network (VarInt) form, in groups `bedrock-network/FILE`: the
//! document (`bedrock::document::read_network`, which stores the Java form)
//! and the owned model read it and write it back (the write of a tree read
//! outside the timing). No other peer reads this form.
//!
//! ```text
//! cargo bench -p compare --bench bedrock
//! cargo bench -p compare --bench bedrock -- 'bedrock/complex_player.dat/'
//! ```
//!
//! Throughput is little-endian (network) input bytes.

use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    for file in ["complex_player.dat", "level.dat", "hypixel.nbt"] {
        let java = compare::inputs::load(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let le = simdnbt::bedrock::to_little_endian(java).unwrap();
        let mut g = c.benchmark_group(format!("bedrock/{file}"));
        g.throughput(Throughput::Bytes(le.len() as u64));
        g.sample_size(50)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("simdnbt_doc_le_read", |b| {
            b.iter(|| simdnbt::bedrock::document::read_le(&mut Cursor::new(black_box(&le))))
        });
        g.bench_function("simdnbt_le_owned_read", |b| {
            b.iter(|| simdnbt::bedrock::owned::read_le(&mut Cursor::new(black_box(&le))))
        });
        g.bench_function("na_nbt_le_owned_read", |b| {
            b.iter(|| na_nbt::read_owned::<na_nbt::LE, na_nbt::NativeEndian>(black_box(&le)))
        });
        g.finish();

        let net = simdnbt::bedrock::to_network(java).unwrap();
        let mut g = c.benchmark_group(format!("bedrock-network/{file}"));
        g.throughput(Throughput::Bytes(net.len() as u64));
        g.sample_size(50)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(2));
        g.bench_function("simdnbt_doc_net_read", |b| {
            b.iter(|| simdnbt::bedrock::document::read_network(&mut Cursor::new(black_box(&net))))
        });
        g.bench_function("simdnbt_net_owned_read", |b| {
            b.iter(|| simdnbt::bedrock::owned::read_network(&mut Cursor::new(black_box(&net))))
        });
        let doc = simdnbt::bedrock::document::read_network(&mut Cursor::new(&net))
            .unwrap()
            .unwrap();
        g.bench_function("simdnbt_doc_net_write", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(net.len());
                black_box(&doc).write(&mut out);
                out
            })
        });
        let nbt = simdnbt::bedrock::owned::read_network(&mut Cursor::new(&net)).unwrap();
        g.bench_function("simdnbt_net_owned_write", |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(net.len());
                simdnbt::bedrock::owned::write_network(black_box(&nbt), &mut out).unwrap();
                out
            })
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
