//! The race: readers timed against the floor ([`compare::floor`]) in
//! interleaved rounds, a yardstick that holds on a loaded machine.
//!
//! For each file, every chosen bench (a peer's `read` or `decode_all`, from
//! the adapter table) and the floor's `read` get a batch of calls sized to
//! about `--batch-us` microseconds. Each round times every batch once, in an
//! order rotated every round; a bench's ratio in a round is its time per call
//! over the floor's in that round. Load that slows a whole round cancels; the
//! median over rounds of the ratios, and their inter-quartile range, are
//! printed as a markdown table.
//!
//! ```text
//! cargo run --release -p compare --example race
//! cargo run --release -p compare --example race -- --files complex_player.dat,1.19.4.mca \
//!     --peers simdnbt_borrow,na_nbt_borrow,simdnbt_borrow:decode_all --rounds 4000
//! ```
//!
//! `--files`: corpus names, comma-separated; a region name
//! (`corpus::REGIONS`, `1.19.4.mca`) means all of its chunks, inflated before
//! timing, read one after another per call. `--peers`: adapter names, each
//! `name` for its read or `name:decode_all`; by default simdnbt_borrow,
//! na_nbt_borrow and upstream_borrow (in the nightly build) and their
//! decode_all. `--rounds` (default 2000) after 50 warm-up rounds.

use std::hint::black_box;
use std::time::Instant;

use compare::{Bench, Peer, peer};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str =
    "usage: race [--files a,b,...] [--peers p,q:decode_all,...] [--rounds N] [--batch-us N]";

/// The files of the table in reports/perf.md ("Against the floor").
const DEFAULT_FILES: [&str; 6] = [
    "complex_player.dat",
    "hypixel.nbt",
    "level.dat",
    "bigtest.nbt",
    "chunk1.14.nbt",
    "1.19.4.mca",
];

const DEFAULT_PEERS: [&str; 6] = [
    "simdnbt_borrow",
    "na_nbt_borrow",
    "upstream_borrow",
    "simdnbt_borrow:decode_all",
    "na_nbt_borrow:decode_all",
    "upstream_borrow:decode_all",
];

const WARM_UP: usize = 50;

struct Args {
    files: Vec<String>,
    peers: Vec<String>,
    rounds: usize,
    batch_us: u64,
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        files: DEFAULT_FILES.map(str::to_owned).to_vec(),
        peers: DEFAULT_PEERS.map(str::to_owned).to_vec(),
        rounds: 2000,
        batch_us: 250,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse().map_err(|_| format!("{flag}: not a number"));
        match flag.as_str() {
            "--files" => a.files = list(&value),
            "--peers" => a.peers = list(&value),
            "--rounds" => a.rounds = number()? as usize,
            "--batch-us" => a.batch_us = number()?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if a.rounds == 0 || a.files.is_empty() {
        return Err("nothing to run".into());
    }
    Ok(a)
}

/// The inputs of a file: itself, or every chunk of a region, inflated.
fn inputs(name: &str) -> Result<Vec<&'static [u8]>, String> {
    if corpus::REGIONS.iter().any(|r| r.name == name) {
        let file = corpus::load_as_shipped(name).map_err(|e| e.to_string())?;
        let chunks = compare::region::inflated_chunks(file);
        return Ok(chunks
            .into_iter()
            .map(|c| &*Box::leak(c.into_boxed_slice()))
            .collect());
    }
    Ok(vec![compare::inputs::load(name)?])
}

/// One timed contestant: a label and one call's work (all of a region's
/// chunks for a region).
struct Racer {
    label: String,
    call: Bench<'static>,
    batch: u64,
}

/// `spec` (`name` or `name:decode_all`) prepared on every input, or why not.
fn racer(spec: &str, inputs: &[&'static [u8]]) -> Result<Racer, String> {
    let (name, workload) = spec.split_once(':').unwrap_or((spec, "read"));
    let p: &Peer = peer(name).ok_or(format!("no peer {name} in this build"))?;
    let prepare = match workload {
        "read" => p.read,
        "decode_all" => p.decode_all.ok_or(format!("{name} has no decode_all"))?,
        w => return Err(format!("unknown workload {w}")),
    };
    for input in inputs {
        (p.validate)(input).map_err(|e| format!("{name} rejects the input: {e}"))?;
    }
    let mut benches: Vec<Bench<'static>> = inputs.iter().map(|i| prepare(i)).collect();
    let call: Bench<'static> = if benches.len() == 1 {
        benches.pop().unwrap()
    } else {
        Box::new(move || benches.iter_mut().for_each(|b| b()))
    };
    let label = if workload == "read" {
        name.to_owned()
    } else {
        format!("{name} {workload}")
    };
    Ok(Racer {
        label,
        call,
        batch: 1,
    })
}

/// Calls per batch so that one batch takes about `target_ns`.
fn calibrate(r: &mut Racer, target_ns: u64) {
    for _ in 0..3 {
        (r.call)();
    }
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            (r.call)();
        }
        let ns = t.elapsed().as_nanos() as u64;
        if ns >= target_ns / 4 || n >= 1 << 20 {
            r.batch = (n * target_ns / ns.max(1)).max(1);
            return;
        }
        n *= 2;
    }
}

/// Nanoseconds per call of one batch.
fn time(r: &mut Racer) -> f64 {
    let t = Instant::now();
    for _ in 0..r.batch {
        (r.call)();
    }
    black_box(t.elapsed().as_nanos() as f64 / r.batch as f64)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

fn race(file: &str, args: &Args) -> Result<(), String> {
    let inputs = inputs(file)?;
    let mut racers = vec![racer("floor", &inputs)?];
    for spec in &args.peers {
        match racer(spec, &inputs) {
            Ok(r) => racers.push(r),
            Err(e) => eprintln!("race {file}: skipping {spec}: {e}"),
        }
    }
    for r in &mut racers {
        calibrate(r, args.batch_us * 1000);
    }
    let n = racers.len();
    // ratios[i]: racer i's time over the floor's, one per round; floor_ns:
    // the floor's own time per call.
    let mut ratios = vec![Vec::with_capacity(args.rounds); n];
    let mut floor_ns = Vec::with_capacity(args.rounds);
    let mut ns = vec![0.0; n];
    for round in 0..WARM_UP + args.rounds {
        for k in 0..n {
            let i = (round + k) % n;
            ns[i] = time(&mut racers[i]);
        }
        if round >= WARM_UP {
            floor_ns.push(ns[0]);
            for i in 1..n {
                ratios[i].push(ns[i] / ns[0]);
            }
        }
    }
    floor_ns.sort_by(f64::total_cmp);
    let chunks = if inputs.len() > 1 {
        format!(" ({} chunks)", inputs.len())
    } else {
        String::new()
    };
    println!(
        "| {file}{chunks} | floor | {} | 1 | |",
        ns_cell(quantile(&floor_ns, 0.5))
    );
    for (r, mut v) in racers.iter().zip(ratios).skip(1) {
        v.sort_by(f64::total_cmp);
        let median = quantile(&v, 0.5);
        println!(
            "| | {} | {} | {median:.3} | {:.3}–{:.3} |",
            r.label,
            ns_cell(median * quantile(&floor_ns, 0.5)),
            quantile(&v, 0.25),
            quantile(&v, 0.75)
        );
    }
    Ok(())
}

/// A time per call: ns below 10 µs, µs above.
fn ns_cell(ns: f64) -> String {
    if ns < 10_000.0 {
        format!("{ns:.0} ns")
    } else {
        format!("{:.0} µs", ns / 1000.0)
    }
}

fn main() {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("race: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    println!(
        "{} rounds of ~{} µs batches, order rotated each round; ratio = median over rounds of \
         (time per call / the floor's in the same round), IQR = its 25th–75th percentile.\n",
        args.rounds, args.batch_us
    );
    println!(
        "| file | reader | time per call (≈ ratio × floor's median) | ratio to the floor | IQR |"
    );
    println!("|---|---|---:|---:|---|");
    let mut failed = false;
    for file in &args.files {
        if let Err(e) = race(file, &args) {
            eprintln!("race {file}: {e}");
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}
