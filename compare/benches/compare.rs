//! simdnbt against every other Rust NBT crate, on every corpus input.
//!
//! Groups are `compare/<file>`, functions `<peer>_read`, `<peer>_write`,
//! `<peer>_decode_all` and, for libraries with a mutable tree, `<peer>_edit`
//! (read, change 10 values, remove 2, insert 5, write: `compare::edit_workload`),
//! throughput in inflated input bytes. For example
//! `cargo bench 'compare/complex_player.dat/'` runs one file and
//! `cargo bench 'compare/complex_player.dat/' -- --list` lists its ids.
//!
//! Only the files and peers the filter selects are loaded and prepared. A file
//! that fails to load stops the bench before anything runs. A peer that rejects
//! (or panics on) an input is skipped on that input with one line on stderr
//! saying why, and so is a writer that fails or panics on the parsed tree; the
//! run record lists every skip. When the run ends it writes the run record
//! (`target/criterion/compare-runs/`, what `compare-report` reads) and prints
//! the headline table.

use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use compare::harness::{Args, Recorder};
use compare::{Bench, Peer, peers};
use criterion::{BenchmarkGroup, Criterion, Throughput};

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

/// The benchmark id of `peer`'s `workload` on `file`.
fn id(file: &str, peer: &Peer, workload: &str) -> String {
    format!("compare/{file}/{}_{workload}", peer.info.name)
}

fn bench_peer(
    args: &Args,
    run: &mut Recorder,
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    file: &str,
    input: &'static [u8],
    peer: &Peer,
) {
    let name = peer.info.name;
    let wants = |workload: &str| args.wants(&id(file, peer, workload));
    let (read, write, decode_all, edit) = (
        wants("read"),
        wants("write"),
        wants("decode_all"),
        wants("edit"),
    );
    if !(read
        || write && peer.write.is_some()
        || decode_all && peer.decode_all.is_some()
        || edit && peer.edit.is_some())
    {
        return;
    }
    if let Err(e) = guarded(|| (peer.validate)(input)) {
        run.skip(format!(
            "compare/{file}: skipping {name} ({}): {e}",
            peer.info.crate_version()
        ));
        return;
    }
    if read {
        let mut bench = (peer.read)(input);
        group.bench_function(format!("{name}_read"), |b| b.iter(&mut bench));
        run.registered(id(file, peer, "read"));
    }

    if let Some(prepare) = peer.write.filter(|_| write) {
        // one untimed run first: some writers panic on some trees
        let prepared = guarded(|| {
            let mut w: Bench<'static> = prepare(input)?;
            w();
            Ok(w)
        });
        match prepared {
            Ok(mut w) => {
                group.bench_function(format!("{name}_write"), |b| b.iter(&mut w));
                run.registered(id(file, peer, "write"));
            }
            Err(e) => run.skip(format!("compare/{file}: skipping {name}_write: {e}")),
        }
    }

    if let Some(prepare) = peer.decode_all.filter(|_| decode_all) {
        let mut d = prepare(input);
        group.bench_function(format!("{name}_decode_all"), |b| b.iter(&mut d));
        run.registered(id(file, peer, "decode_all"));
    }

    if let Some(prepare) = peer.edit.filter(|_| edit) {
        match guarded(|| prepare(input)) {
            Ok(mut e) => {
                group.bench_function(format!("{name}_edit"), |b| b.iter(&mut e));
                run.registered(id(file, peer, "edit"));
            }
            Err(e) => run.skip(format!("compare/{file}: skipping {name}_edit: {e}")),
        }
    }
}

fn main() {
    let args = Args::from_env();
    let mut run = Recorder::start();
    // The files any selected benchmark reads, all loaded before anything runs:
    // a file that cannot be loaded stops the bench, it is never left out.
    let mut files = Vec::new();
    let mut failed = Vec::new();
    for file in compare::inputs::bench_names() {
        let ids = peers()
            .iter()
            .flat_map(|p| ["read", "write", "decode_all", "edit"].map(|w| id(file, p, w)));
        if !args.wants_any(ids) {
            continue;
        }
        match compare::inputs::load(file) {
            Ok(input) => files.push((file, input)),
            Err(e) => failed.push(format!("compare/{file}: cannot load the input: {e}")),
        }
    }
    if !failed.is_empty() {
        for line in &failed {
            eprintln!("{line}");
        }
        eprintln!(
            "compare: {} input(s) failed to load; nothing was run",
            failed.len()
        );
        std::process::exit(1);
    }

    let mut c = Criterion::default().configure_from_args();
    for &(file, input) in &files {
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
            bench_peer(&args, &mut run, &mut group, file, black_box(input), peer);
        }
        group.finish();
    }
    c.final_summary();

    // The headline of each file measured; of the headline file alone on a long run.
    let names: Vec<&str> = files.iter().map(|(f, _)| *f).collect();
    let shown = if names.len() <= 3 {
        names
    } else {
        vec!["complex_player.dat"]
    };
    run.finish(&args, &shown);
}
