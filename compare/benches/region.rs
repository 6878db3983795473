//! Reading every chunk of fastanvil's `1.19.4.mca` (676 zlib chunks): inflate +
//! parse with simdnbt, fastanvil + fastnbt and valence_anvil's steps +
//! valence_nbt, then inflate and parse alone (the shares), then zlib-rs against
//! miniz_oxide. See `compare/src/region.rs` for what each reader does;
//! `region/parse/floor` is the floor (`compare::floor`), not a library.
//!
//! ```text
//! cargo bench -p compare --bench region
//! cargo bench -p compare --bench region -- 'region/read'
//! ```
//!
//! Throughput is inflated NBT bytes.

use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

use compare::harness::Args;
use compare::region::*;
use criterion::{Criterion, Throughput};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The `region/read`, `region/inflate` and `region/parse` groups.
fn benches(c: &mut Criterion) {
    let file = corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"));
    let total = simdnbt_borrow(file);
    for (name, reader) in [
        ("simdnbt_owned", simdnbt_owned as fn(&[u8]) -> usize),
        ("fastanvil_fastnbt", fastanvil_fastnbt),
        ("valence", valence),
    ] {
        assert_eq!(reader(file), total, "{name} read different bytes");
    }

    let mut g = c.benchmark_group("region/read");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.bench_function("simdnbt_borrow", |b| {
        b.iter(|| simdnbt_borrow(black_box(file)))
    });
    g.bench_function("simdnbt_owned", |b| {
        b.iter(|| simdnbt_owned(black_box(file)))
    });
    g.bench_function("fastanvil_fastnbt", |b| {
        b.iter(|| fastanvil_fastnbt(black_box(file)))
    });
    g.bench_function("valence", |b| b.iter(|| valence(black_box(file))));
    g.finish();

    let mut g = c.benchmark_group("region/inflate");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("simdnbt", |b| b.iter(|| simdnbt_inflate(black_box(file))));
    g.bench_function("fastanvil", |b| {
        b.iter(|| fastanvil_inflate(black_box(file)))
    });
    g.bench_function("valence", |b| b.iter(|| valence_inflate(black_box(file))));
    let chunks = zlib_chunks(file);
    g.bench_function("one_shot_zlib_rs", |b| {
        b.iter(|| inflate_zlib_rs(black_box(&chunks)))
    });
    g.bench_function("one_shot_miniz_oxide", |b| {
        b.iter(|| inflate_miniz_oxide(black_box(&chunks)))
    });
    g.finish();

    let inflated = inflated_chunks(file);
    let mut g = c.benchmark_group("region/parse");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("simdnbt_borrow", |b| {
        b.iter(|| {
            for nbt in &inflated {
                black_box(simdnbt::borrow::read(&mut Cursor::new(&nbt[..])).unwrap());
            }
        })
    });
    g.bench_function("simdnbt_owned", |b| {
        b.iter(|| {
            for nbt in &inflated {
                black_box(simdnbt::owned::read(&mut Cursor::new(&nbt[..])).unwrap());
            }
        })
    });
    g.bench_function("fastnbt", |b| {
        b.iter(|| {
            for nbt in &inflated {
                black_box(fastnbt::from_bytes::<fastnbt::Value>(nbt).unwrap());
            }
        })
    });
    g.bench_function("valence_nbt", |b| {
        b.iter(|| {
            for nbt in &inflated {
                black_box(valence_nbt::from_binary::<String>(&mut &nbt[..]).unwrap());
            }
        })
    });
    // Not a library: the least a validating reader must do (compare::floor).
    g.bench_function("floor", |b| {
        b.iter(|| {
            for nbt in &inflated {
                black_box(compare::floor::walk(nbt).unwrap());
            }
        })
    });
    g.finish();
}

/// `simdnbt::region::scan` over a folder of four copies of the region file
/// (parse only: the visitor counts chunks), on rayon pools of 1 and 2 threads.
fn scan(c: &mut Criterion) {
    use simdnbt::region::scan::Scan;
    let file = corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"));
    let dir = std::env::temp_dir().join(format!("simdnbt-scan-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (x, z) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        std::fs::write(dir.join(format!("r.{x}.{z}.mca")), file).unwrap();
    }
    let scan = Scan::dir(&dir).unwrap();
    let run = || scan.run(|| 0usize, |n, _, _| *n += 1, |a, b| a + b);
    let first = run();
    assert_eq!((first.value, first.errors.len()), (4 * 676, 0));
    let mut g = c.benchmark_group("region/scan");
    g.throughput(Throughput::Bytes(first.inflated_bytes));
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| pool.install(run))
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let args = Args::from_env();
    // The function names of each part, to skip a part's setup (reading and
    // checking the region file, writing the scan folder) when the filter
    // excludes all of it.
    let read = [
        "simdnbt_borrow",
        "simdnbt_owned",
        "fastanvil_fastnbt",
        "valence",
    ];
    let inflate = [
        "simdnbt",
        "fastanvil",
        "valence",
        "one_shot_zlib_rs",
        "one_shot_miniz_oxide",
    ];
    let parse = [
        "simdnbt_borrow",
        "simdnbt_owned",
        "fastnbt",
        "valence_nbt",
        "floor",
    ];
    let ids = |group: &str, names: &[&str]| {
        names
            .iter()
            .map(|n| format!("region/{group}/{n}"))
            .collect::<Vec<_>>()
    };
    let mut c = Criterion::default().configure_from_args();
    if args.wants_any(ids("read", &read))
        || args.wants_any(ids("inflate", &inflate))
        || args.wants_any(ids("parse", &parse))
    {
        benches(&mut c);
    }
    if args.wants_any(ids("scan", &["threads_1", "threads_2"])) {
        scan(&mut c);
    }
    c.final_summary();
}
