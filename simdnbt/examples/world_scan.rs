//! Counts every block in a world's region files, in parallel.
//!
//! ```text
//! cargo run --release -p simdnbt --features scan --example world_scan -- WORLD [--item minecraft:diamond] [--top N] [--parse-only]
//! RAYON_NUM_THREADS=1 cargo run --release ...   # one core
//! ```
//!
//! WORLD is a world folder (its `region/` is scanned) or a folder of
//! `r.X.Z.mca` files itself.
//!
//! Each chunk is inflated and parsed with the borrow reader on rayon's pool; the
//! block states of its sections are decoded by `simdnbt::region::chunk` (both
//! packings: 1.16+ and the older one where indices span longs) into real block
//! counts. `--item ID` also lists every stack of that item in block entities
//! (chests, barrels, ...). `--parse-only` skips both, to time inflate + parse
//! alone. A progress bar is drawn when stderr is a terminal.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use simdnbt::borrow::{BaseNbt, NbtCompound};
use simdnbt::region::chunk::Chunk;
use simdnbt::region::scan::{ChunkRef, Scan};

#[derive(Default)]
struct Found {
    blocks: HashMap<String, u64>,
    /// (region file, chunk x, chunk z, container x, y, z, count)
    items: Vec<(String, u8, u8, i32, i32, i32, i32)>,
    /// Chunks whose sections did not decode: where, and why.
    undecoded: Vec<String>,
}

impl Found {
    fn merge(mut self, other: Found) -> Found {
        for (name, n) in other.blocks {
            *self.blocks.entry(name).or_default() += n;
        }
        self.items.extend(other.items);
        self.undecoded.extend(other.undecoded);
        self
    }
}

/// Every block of every section, decoded by `simdnbt::region::chunk` (both
/// packings, 1.13+); a chunk whose sections do not decode is counted apart.
fn count_blocks(found: &mut Found, chunk: ChunkRef<'_>, nbt: &BaseNbt<'_>) {
    let decoded = match Chunk::from_nbt(&nbt.as_compound()) {
        Ok(decoded) => decoded,
        Err(e) => {
            let (x, z) = (chunk.info.pos.x, chunk.info.pos.z);
            let region = chunk.region.display();
            found
                .undecoded
                .push(format!("{region}: chunk ({x}, {z}): {e}"));
            return;
        }
    };
    for blocks in decoded.sections().iter().filter_map(|s| s.blocks()) {
        for (name, n) in blocks.palette().iter().zip(blocks.counts()) {
            if n > 0 {
                *found.blocks.entry(name.clone()).or_default() += n;
            }
        }
    }
}

fn find_items(found: &mut Found, chunk: ChunkRef<'_>, nbt: &BaseNbt<'_>, item: &str) {
    let root = nbt.as_compound();
    let entities = root
        .list("block_entities")
        .or_else(|| root.compound("Level").and_then(|l| l.list("TileEntities")));
    let Some(entities) = entities.and_then(|l| l.compounds()) else {
        return;
    };
    let region = chunk
        .region
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    for entity in entities.iter() {
        let Some(items) = entity.list("Items").and_then(|l| l.compounds()) else {
            continue;
        };
        for stack in items.iter() {
            if stack.string("id").is_some_and(|id| id.to_str() == item) {
                let pos = |k: &str, e: &NbtCompound<'_, '_>| e.int(k).unwrap_or(0);
                let count = stack
                    .byte("Count")
                    .map(i32::from)
                    .or_else(|| stack.int("count"))
                    .unwrap_or(1);
                found.items.push((
                    region.clone(),
                    chunk.info.pos.x,
                    chunk.info.pos.z,
                    pos("x", &entity),
                    pos("y", &entity),
                    pos("z", &entity),
                    count,
                ));
            }
        }
    }
}

const USAGE: &str = "usage: world_scan WORLD_OR_REGION_DIR [--item ID] [--top N] [--parse-only]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("world_scan: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The folder of region files: `dir/region` for a world folder, else `dir`.
fn region_dir(dir: &Path) -> Result<PathBuf, String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{}: not a folder\n{USAGE}", dir.display()));
    }
    let region = dir.join("region");
    Ok(if region.is_dir() {
        region
    } else {
        dir.to_owned()
    })
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut item = None;
    let mut top = 20;
    let mut parse_only = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--item" => item = Some(args.next().ok_or("--item needs an id")?),
            "--top" => top = args.next().ok_or("--top needs a number")?.parse()?,
            "--parse-only" => parse_only = true,
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = region_dir(&dir.ok_or(USAGE)?)?;
    let scan = Scan::dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if scan.paths().is_empty() {
        return Err(format!(
            "no r.X.Z.mca files in {} (give a world folder, or its region/ folder)",
            dir.display()
        )
        .into());
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(scan.total_bytes());
        bar.set_style(indicatif::ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )?);
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let scan = scan.on_progress(|bytes| bar.inc(bytes));
    let start = Instant::now();
    let report = scan.run(
        Found::default,
        |found, chunk, nbt| {
            if parse_only {
                return;
            }
            count_blocks(found, chunk, nbt);
            if let Some(item) = &item {
                find_items(found, chunk, nbt, item);
            }
        },
        Found::merge,
    );
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let mut blocks: Vec<_> = report.value.blocks.iter().collect();
    blocks.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    println!("{:>14}  block", "count");
    for (name, n) in blocks.iter().take(top) {
        println!("{n:>14}  {name}");
    }
    if let Some(item) = &item {
        println!("\n{} stacks of {item}:", report.value.items.len());
        for (region, cx, cz, x, y, z, count) in &report.value.items {
            println!("  {count:>3} at {x} {y} {z} ({region}, chunk {cx} {cz})");
        }
    }
    for error in &report.errors {
        eprintln!("error: {error}");
    }
    for error in &report.value.undecoded {
        eprintln!("not decoded: {error}");
    }
    let mb = report.inflated_bytes as f64 / 1e6;
    println!(
        "\n{} regions, {} chunks, {} block kinds, {} errors; {mb:.1} MB of NBT in {elapsed:.3} s: {:.0} MB/s on {} threads",
        report.regions,
        report.chunks,
        blocks.len(),
        report.errors.len(),
        mb / elapsed,
        rayon::current_num_threads(),
    );
    Ok(())
}
