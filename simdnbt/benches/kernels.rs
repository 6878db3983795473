//! Throughput of the SIMD kernels per path, with std::time only (no
//! dependencies): `cargo bench -p simdnbt --bench kernels`.
//!
//! The numbers are GB/s of input; compare ratios, not absolutes.
use std::hint::black_box;
use std::time::{Duration, Instant};

use simdnbt::simd::kernels::{self, Kernel};

fn gbps(bytes: usize, mut f: impl FnMut()) -> f64 {
    // Warm up, then run for ~200 ms and keep the best of 5 batches.
    f();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let mut iters = 0u64;
        while start.elapsed() < Duration::from_millis(40) {
            // Batches, so the clock read does not dominate short inputs.
            for _ in 0..64 {
                f();
            }
            iters += 64;
        }
        best = best.min(start.elapsed().as_secs_f64() / iters as f64);
    }
    bytes as f64 / best / 1e9
}

fn main() {
    let paths = kernels::available();
    // NBT strings are short: measure the per-call cost too.
    for &size in &[8usize, 16, 32, 64] {
        let ascii: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
        println!("-- short string, {size} bytes");
        for &p in &paths {
            let g = gbps(size, || {
                black_box(kernels::is_ascii(p, black_box(&ascii)));
            });
            println!("is_ascii {p:?}: {g:.2} GB/s");
        }
        let g = gbps(size, || {
            black_box(simdnbt::simd::is_ascii(black_box(&ascii)));
        });
        println!("is_ascii (public, dispatched): {g:.2} GB/s");
        let g = gbps(size, || {
            black_box(black_box(&ascii[..]).is_ascii());
        });
        println!("is_ascii <[u8]>::is_ascii (std): {g:.2} GB/s");
        let g = gbps(size, || {
            black_box(simdnbt::mutf8::decode(black_box(&ascii)).is_ok());
        });
        println!("mutf8::decode ascii: {g:.2} GB/s");
    }
    for &size in &[4 * 1024usize, 64 * 1024, 1024 * 1024] {
        let input: Vec<u8> = (0..size + 1).map(|i| (i * 131 + 7) as u8).collect();
        let input = &input[1..]; // unaligned start
        println!("-- {size} bytes");
        for &p in &paths {
            let g = gbps(size, || {
                black_box(kernels::from_be_bytes::<i64>(p, black_box(input)));
            });
            println!("from_be_bytes::<i64> {p:?}: {g:.2} GB/s");
        }
        for &p in &paths {
            let g = gbps(size, || {
                black_box(kernels::from_be_bytes::<i32>(p, black_box(input)));
            });
            println!("from_be_bytes::<i32> {p:?}: {g:.2} GB/s");
        }
        let values: Vec<i64> = simdnbt::simd::from_be_bytes(input);
        let mut out = Vec::with_capacity(size);
        for &p in &paths {
            let g = gbps(size, || {
                out.clear();
                kernels::extend_be_bytes(p, &mut out, black_box(&values));
                black_box(&out);
            });
            println!("extend_be_bytes::<i64> {p:?}: {g:.2} GB/s");
        }
        let ascii: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
        for &p in &paths {
            let g = gbps(size, || {
                black_box(kernels::is_ascii(p, black_box(&ascii)));
            });
            println!("is_ascii {p:?}: {g:.2} GB/s");
        }
        let g = gbps(size, || {
            black_box(black_box(&ascii[..]).is_ascii());
        });
        println!("is_ascii <[u8]>::is_ascii (std): {g:.2} GB/s");
        let g = gbps(size, || {
            black_box(simdnbt::mutf8::decode(black_box(&ascii)).is_ok());
        });
        println!("mutf8::decode ascii: {g:.2} GB/s");
        let text = "minecraft:stone é ✓ ".repeat(size / 24);
        let g = gbps(text.len(), || {
            black_box(simdnbt::mutf8::decode(black_box(text.as_bytes())).is_ok());
        });
        println!("mutf8::decode BMP utf-8: {g:.2} GB/s");
        let emoji = simdnbt::mutf8::encode(&"a😀\0".repeat(size / 8)).into_owned();
        let g = gbps(emoji.len(), || {
            black_box(simdnbt::mutf8::decode(black_box(&emoji)).is_ok());
        });
        println!("mutf8::decode surrogates+nul (slow path): {g:.2} GB/s");
    }
    let _ = Kernel::Scalar;
}
