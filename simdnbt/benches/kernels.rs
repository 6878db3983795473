//! Throughput of the SIMD kernels per path, with std::time only (no
//! dependencies): `cargo bench -p simdnbt --bench kernels [FILTER]`.
//!
//! Each measurement is named `<size>/<operation> <path>` (`64/is_ascii Avx2`,
//! `4096/from_be_bytes::<i64> Scalar`, …) and runs only if its name contains
//! FILTER, as a libtest filter. Not part of a plain `cargo bench` (`bench =
//! false` in `Cargo.toml`), whose filter names the compare benches.
//!
//! The numbers are GB/s of input; compare ratios, not absolutes.
use std::hint::black_box;
use std::time::{Duration, Instant};

use simdnbt::simd::kernels::{self, Kernel};

/// The measurements the command line selects.
struct Selected {
    filter: Option<String>,
}

impl Selected {
    fn from_args() -> Self {
        // `cargo bench` appends `--bench`; the first other non-flag argument is the filter.
        let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
        Selected { filter }
    }

    /// Measures `f` over `bytes` and prints the rate, if `name` is selected.
    fn run(&self, name: &str, bytes: usize, f: impl FnMut()) {
        if self.filter.as_deref().is_none_or(|f| name.contains(f)) {
            println!("{name}: {:.2} GB/s", gbps(bytes, f));
        }
    }
}

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

/// `is_ascii` per path, std's, and the MUTF-8 decoder over `size` ASCII bytes
/// (and the public dispatched `is_ascii` with `dispatched`).
fn ascii(sel: &Selected, paths: &[Kernel], size: usize, dispatched: bool) {
    let ascii: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
    for &p in paths {
        sel.run(&format!("{size}/is_ascii {p:?}"), size, || {
            black_box(kernels::is_ascii(p, black_box(&ascii)));
        });
    }
    if dispatched {
        sel.run(
            &format!("{size}/is_ascii (public, dispatched)"),
            size,
            || {
                black_box(simdnbt::simd::is_ascii(black_box(&ascii)));
            },
        );
    }
    sel.run(
        &format!("{size}/is_ascii <[u8]>::is_ascii (std)"),
        size,
        || {
            black_box(black_box(&ascii[..]).is_ascii());
        },
    );
    sel.run(&format!("{size}/mutf8::decode ascii"), size, || {
        black_box(simdnbt::mutf8::decode(black_box(&ascii)).is_ok());
    });
}

fn main() {
    let sel = Selected::from_args();
    let paths = kernels::available();
    // NBT strings are short: measure the per-call cost too.
    for &size in &[8usize, 16, 32, 64] {
        ascii(&sel, &paths, size, true);
    }
    for &size in &[4 * 1024usize, 64 * 1024, 1024 * 1024] {
        let input: Vec<u8> = (0..size + 1).map(|i| (i * 131 + 7) as u8).collect();
        let input = &input[1..]; // unaligned start
        for &p in &paths {
            sel.run(&format!("{size}/from_be_bytes::<i64> {p:?}"), size, || {
                black_box(kernels::from_be_bytes::<i64>(p, black_box(input)));
            });
        }
        for &p in &paths {
            sel.run(&format!("{size}/from_be_bytes::<i32> {p:?}"), size, || {
                black_box(kernels::from_be_bytes::<i32>(p, black_box(input)));
            });
        }
        let values: Vec<i64> = simdnbt::simd::from_be_bytes(input);
        let mut out = Vec::with_capacity(size);
        for &p in &paths {
            sel.run(
                &format!("{size}/extend_be_bytes::<i64> {p:?}"),
                size,
                || {
                    out.clear();
                    kernels::extend_be_bytes(p, &mut out, black_box(&values));
                    black_box(&out);
                },
            );
        }
        ascii(&sel, &paths, size, false);
        let text = "minecraft:stone é ✓ ".repeat(size / 24);
        sel.run(
            &format!("{size}/mutf8::decode BMP utf-8"),
            text.len(),
            || {
                black_box(simdnbt::mutf8::decode(black_box(text.as_bytes())).is_ok());
            },
        );
        let emoji = simdnbt::mutf8::encode(&"a😀\0".repeat(size / 8)).into_owned();
        let name = format!("{size}/mutf8::decode surrogates+nul (slow path)");
        sel.run(&name, emoji.len(), || {
            black_box(simdnbt::mutf8::decode(black_box(&emoji)).is_ok());
        });
    }
    let _ = Kernel::Scalar;
}
