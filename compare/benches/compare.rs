//! simdnbt against every other Rust NBT crate, on every corpus input.
//!
//! Groups are `compare/<file>`, functions `<peer>_read`, `<peer>_write`,
//! `<peer>_decode_all` and, for libraries with a mutable tree, `<peer>_edit`
//! (read, change 10 values, remove 2, insert 5, write: `compare::edit_workload`),
//! throughput in inflated input bytes. For example
//! `cargo bench -p compare 'compare/complex_player.dat/'` runs one file and
//! `cargo bench -p compare 'compare/complex_player.dat/' -- --list` lists its ids.
//!
//! A peer that rejects (or panics on) an input is skipped on that input with one line on
//! stderr saying why; so is a writer that fails or panics on the parsed tree.

use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use compare::{Bench, Peer, peers};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

// Same allocator as the upstream simdnbt harness, so allocation-heavy peers are not
// measured against the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Inputs at least this large get fewer samples, so a full run stays reasonable on 2 cores.
const LARGE: usize = 1 << 20;

/// Runs `f`, turning a panic into an error; the default hook's report (and backtrace) is
/// silenced because the skip line printed by the caller says what happened.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r.unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panicked: {msg}"))
    })
}

/// The file named by a `compare/<file>/...` filter on the command line, if any.
/// Only used to avoid preparing inputs no benchmark will run; criterion still does the filtering.
fn filtered_file() -> Option<String> {
    let mut args = std::env::args().skip(1);
    let mut positional = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            // criterion options that take a value
            "--save-baseline"
            | "--baseline"
            | "--load-baseline"
            | "--sample-size"
            | "--warm-up-time"
            | "--measurement-time"
            | "--nresamples"
            | "--noise-threshold"
            | "--confidence-level"
            | "--significance-level"
            | "--profile-time"
            | "--color"
            | "--format"
            | "--output-format"
            | "--plotting-backend"
            | "--baseline-lenient"
            | "-c"
            | "-s"
            | "-b" => {
                args.next();
            }
            s if s.starts_with('-') => {}
            s => positional = Some(s.to_string()),
        }
    }
    let rest = positional?.strip_prefix("compare/")?.to_string();
    let file = rest.split('/').next()?.replace("\\.", ".");
    // a regex filter ("compare/.*dat/") can't be resolved here; prepare everything
    if file.chars().any(|c| "*+?[](){}|^$\\".contains(c)) || file.is_empty() {
        return None;
    }
    Some(file)
}

fn bench_peer(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    file: &str,
    input: &'static [u8],
    peer: &Peer,
) {
    if let Err(e) = guarded(|| (peer.validate)(input)) {
        eprintln!(
            "compare/{file}: skipping {} ({}): {e}",
            peer.name,
            peer.crate_version()
        );
        return;
    }
    let mut read = (peer.read)(input);
    group.bench_function(format!("{}_read", peer.name), |b| b.iter(&mut read));
    drop(read);

    if let Some(write) = peer.write {
        // one untimed run first: some writers panic on some trees
        let prepared = guarded(|| {
            let mut w: Bench<'static> = write(input)?;
            w();
            Ok(w)
        });
        match prepared {
            Ok(mut w) => {
                group.bench_function(format!("{}_write", peer.name), |b| b.iter(&mut w));
            }
            Err(e) => eprintln!("compare/{file}: skipping {}_write: {e}", peer.name),
        }
    }

    if let Some(decode_all) = peer.decode_all {
        let mut d = decode_all(input);
        group.bench_function(format!("{}_decode_all", peer.name), |b| b.iter(&mut d));
    }

    if let Some(edit) = peer.edit {
        match guarded(|| edit(input)) {
            Ok(mut e) => {
                group.bench_function(format!("{}_edit", peer.name), |b| b.iter(&mut e));
            }
            Err(e) => eprintln!("compare/{file}: skipping {}_edit: {e}", peer.name),
        }
    }
}

fn bench(c: &mut Criterion) {
    let only = filtered_file();
    for file in compare::inputs::bench_names() {
        if only.as_deref().is_some_and(|f| f != file) {
            continue;
        }
        let input = match compare::inputs::load(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("compare/{file}: cannot load input: {e}");
                continue;
            }
        };
        let mut group = c.benchmark_group(format!("compare/{file}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        if input.len() >= LARGE {
            group
                .sample_size(10)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(3));
        } else {
            group
                .sample_size(50)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(2));
        }
        for peer in peers() {
            bench_peer(&mut group, file, black_box(input), peer);
        }
        group.finish();
    }
}

criterion_group!(compare, bench);
criterion_main!(compare);
