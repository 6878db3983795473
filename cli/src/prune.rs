//! `nbt prune`: removes the chunks whose row of the `chunks` table matches
//! an SQL condition. The condition runs through DataFusion like any `nbt
//! sql` query; then each region file with a chunk to remove is rewritten
//! through [`crate::store::replace_verified`] (a temporary file, read back
//! and checked, renamed over the original), packed, with every other chunk
//! kept byte for byte. A chunk's entities (`entities/`, 1.17+) and points of
//! interest (`poi/`) go with it, as the game would have none without the
//! chunk; so does its external `c.X.Z.mcc` file (a chunk over 1 MiB), once
//! the region file no longer refers to it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Int32Type};
use rayon::prelude::*;
use simdnbt::region::{ChunkInfo, LocalPos};

use crate::failure::{Failure, Result};
use crate::input::{self, Place};
use crate::report::{count, progress_bar};
use crate::store::WriteOpts;

/// `nbt prune`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  nbt prune world --where 'inhabited_time < 1200' --dry-run     what would go
  nbt prune world --where 'inhabited_time < 1200' --backup
  nbt prune world --where \"dimension = 'the_end' AND data_version < 3000\"

CONDITION is an SQL condition (a WHERE clause) over the columns of the
`chunks` table (`nbt sql WORLD 'DESCRIBE chunks'`). Each chunk that matches
is removed from its region file, and its entities (entities/) and points of
interest (poi/) with it, and its external c.X.Z.mcc file if it has one (kept
as c.X.Z.mcc.bak with --backup); the game generates it again the next time
a player comes near. Each changed region file is packed (the room of the removed
chunks given back), written to a temporary file, read back and checked (every
other chunk kept byte for byte), and only then renamed over the original.
One line per removed chunk on stdout, one per file and a summary on stderr.
Exit status: 0 chunks removed (or, with --dry-run, would be); 1 none matched;
2 a file or chunk could not be read or written (the others are still pruned).")]
pub struct PruneArgs {
    /// The world folder (or a region file)
    pub world: PathBuf,
    /// The chunks to remove: an SQL condition over the `chunks` table
    #[arg(long = "where", value_name = "CONDITION")]
    pub condition: String,
    /// List what would be removed, and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Keep each original region file beside it as FILE.bak (a file whose
    /// FILE.bak exists is refused and left as it is)
    #[arg(long)]
    pub backup: bool,
}

/// `nbt prune`.
pub fn run(args: PruneArgs) -> Result<u8> {
    let start = Instant::now();
    let session = crate::sql::open(&args.world, &crate::sql::TableArgs::default())?;
    let query = format!(
        "SELECT dimension, chunk_x, chunk_z FROM chunks WHERE ({})",
        args.condition
    );
    let plan = session.plan(&query).map_err(|f| Failure {
        message: format!("--where {}: {}", args.condition, f.message),
        ..f
    })?;
    let mut chunks: Vec<(String, i32, i32)> = Vec::new();
    let result = session.run(plan, &mut |batch| {
        chunks.extend(rows(&batch)?);
        Ok(())
    });
    let skipped = session.finish();
    result?;

    // Each chunk's region file, and the entities and poi files beside it.
    let regions: BTreeMap<(String, i32, i32), PathBuf> = session
        .world
        .source()
        .partitions()
        .iter()
        .filter(|p| p.kind == simdnbt_arrow::PartitionKind::Region)
        .filter_map(|p| {
            Some((
                (p.dimension.clone(), p.region?.0, p.region?.1),
                p.path.clone(),
            ))
        })
        .collect();
    let mut files: BTreeMap<PathBuf, BTreeSet<LocalPos>> = BTreeMap::new();
    let mut unplaced = 0usize;
    for (dimension, x, z) in &chunks {
        let Some(file) = regions.get(&(dimension.clone(), x >> 5, z >> 5)) else {
            unplaced += 1;
            eprintln!("nbt: chunk {x},{z} of {dimension} has no region file; left alone");
            continue;
        };
        let pos = LocalPos {
            x: (x & 31) as u8,
            z: (z & 31) as u8,
        };
        for f in std::iter::once(file.clone()).chain(siblings(file)) {
            files.entry(f).or_default().insert(pos);
        }
    }

    let w = WriteOpts {
        dry_run: args.dry_run,
        backup: args.backup,
        level: crate::store::DEFAULT_LEVEL,
        wait: false,
    };
    let total: u64 = files.keys().map(|f| file_size(f)).sum();
    let bar = progress_bar(total);
    let out = Mutex::new(String::new());
    let results: Vec<(PathBuf, Result<Pruned>)> = files
        .par_iter()
        .map(|(file, remove)| {
            let result = prune_file(file, remove, w);
            bar.inc(file_size(file));
            (file.clone(), result)
        })
        .collect();
    bar.finish_and_clear();
    let would = if args.dry_run { "would have " } else { "" };
    let mut summary = Pruned::default();
    let mut failed = 0usize;
    for (file, result) in results {
        match result {
            Ok(p) if p.removed.is_empty() => {}
            Ok(p) => {
                for problem in &p.problems {
                    eprintln!("nbt: {problem}");
                }
                failed += p.problems.len();
                let mut lines = out.lock().unwrap_or_else(|e| e.into_inner());
                for pos in &p.removed {
                    lines.push_str(&format!("{} chunk {pos}\n", file.display()));
                }
                eprintln!(
                    "{}: {would}removed {} ({:.1} MB -> {:.1} MB)",
                    file.display(),
                    count(p.removed.len(), "chunk"),
                    p.before as f64 / 1e6,
                    p.after as f64 / 1e6
                );
                summary.before += p.before;
                summary.after += p.after;
                summary.files += 1;
                summary.removed.extend(p.removed);
            }
            Err(f) => {
                eprintln!("nbt: {}", f.message);
                failed += 1;
            }
        }
    }
    crate::output::write_stdout(out.into_inner().unwrap_or_default().as_bytes())?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "pruned: {} matched; {would}removed {} from {} ({:.1} MB -> {:.1} MB) in {seconds:.2} s; {} skipped; {} failed",
        count(chunks.len(), "chunk"),
        count(summary.removed.len(), "chunk"),
        count(summary.files, "file"),
        summary.before as f64 / 1e6,
        summary.after as f64 / 1e6,
        count(skipped, "unreadable chunk or file"),
        failed + unplaced,
    );
    Ok(if failed + unplaced + skipped > 0 {
        crate::failure::TROUBLE
    } else if chunks.is_empty() {
        crate::failure::NO
    } else {
        0
    })
}

/// The (dimension, x, z) of each row of `batch` (the columns of prune's
/// query, in that order).
fn rows(batch: &RecordBatch) -> Result<Vec<(String, i32, i32)>> {
    use datafusion::arrow::compute::cast;
    let fail = |e: &dyn std::fmt::Display| Failure::new(format!("the chunks table: {e}"));
    let dims = cast(batch.column(0), &DataType::Utf8).map_err(|e| fail(&e))?;
    let xs = cast(batch.column(1), &DataType::Int32).map_err(|e| fail(&e))?;
    let zs = cast(batch.column(2), &DataType::Int32).map_err(|e| fail(&e))?;
    let (dims, xs, zs) = (
        dims.as_string::<i32>(),
        xs.as_primitive::<Int32Type>(),
        zs.as_primitive::<Int32Type>(),
    );
    (0..batch.num_rows())
        .filter(|&i| !(dims.is_null(i) || xs.is_null(i) || zs.is_null(i)))
        .map(|i| Ok((dims.value(i).to_owned(), xs.value(i), zs.value(i))))
        .collect()
}

/// The entities and poi region files of the region file `file`
/// (`DIM/region/r.X.Z.mca` → `DIM/entities/r.X.Z.mca`, `DIM/poi/...`), those
/// that exist.
fn siblings(file: &Path) -> Vec<PathBuf> {
    let (Some(name), Some(dir)) = (file.file_name(), file.parent().and_then(Path::parent)) else {
        return Vec::new();
    };
    ["entities", "poi"]
        .iter()
        .map(|sub| dir.join(sub).join(name))
        .filter(|p| p.is_file())
        .collect()
}

/// What pruning one file did.
#[derive(Default)]
struct Pruned {
    /// The chunks removed (or that would be).
    removed: Vec<LocalPos>,
    /// Files changed (in a summary).
    files: usize,
    /// Bytes before and after.
    before: u64,
    after: u64,
    /// External `.mcc` files of removed chunks that could not be removed.
    problems: Vec<String>,
}

/// Removes the chunks at `remove` (those present) from the region file
/// `file`, packs it, and replaces it through a checked temporary file.
fn prune_file(file: &Path, remove: &BTreeSet<LocalPos>, w: WriteOpts) -> Result<Pruned> {
    // Held from before the read until the file is replaced, as `set` does:
    // another run's edit in between is never lost.
    let _lock = w.lock(file)?;
    let place = Place::File(file.to_owned());
    let original = place.read_all()?;
    let mut region = input::open_region(&place, original.clone())?;
    let before: Vec<ChunkInfo> = region.chunks().collect();
    let before_external: Vec<LocalPos> = before
        .iter()
        .filter(|i| i.external)
        .map(|i| i.pos)
        .collect();
    let mut removed = Vec::new();
    for &pos in remove {
        if region.remove_chunk(pos.x.into(), pos.z.into()) {
            removed.push(pos);
        }
    }
    if removed.is_empty() {
        return Ok(Pruned::default());
    }
    region.compact();
    let kept: Vec<ChunkInfo> = before
        .into_iter()
        .filter(|i| !removed.contains(&i.pos))
        .collect();
    let verify = |written: &[u8]| -> Result<()> {
        verify_pruned(&place, &original, &kept, written).map_err(|why| {
            Failure::new(format!("refusing to write {place}: {why}; it is unchanged"))
        })
    };
    let bytes = region.as_bytes();
    crate::store::replace_verified(file, bytes, &verify, w)?;
    // Only once the region no longer points at them: a failed write above
    // leaves the file, and so these chunks, as they were.
    let external: Vec<LocalPos> = before_external
        .into_iter()
        .filter(|pos| removed.contains(pos))
        .collect();
    let problems = if w.dry_run {
        Vec::new()
    } else {
        remove_external(file, &external, w.backup)
    };
    Ok(Pruned {
        problems,
        removed,
        files: 1,
        before: original.len() as u64,
        after: bytes.len() as u64,
    })
}

/// Removes the external `c.X.Z.mcc` files of the chunks at `removed` of the
/// region file `file` (`r.X.Z.mca`), which no longer refers to them; with
/// `backup`, each is kept as `c.X.Z.mcc.bak` beside the region's `.bak`, so
/// that the backup is whole. A file already gone is not an error. Returns
/// what could not be removed (the chunks are gone from the region all the same).
fn remove_external(file: &Path, removed: &[LocalPos], backup: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let Some((rx, rz)) = simdnbt::region::region_position(file) else {
        return problems;
    };
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    for pos in removed {
        let x = i64::from(rx) * 32 + i64::from(pos.x);
        let z = i64::from(rz) * 32 + i64::from(pos.z);
        let mcc = dir.join(format!("c.{x}.{z}.mcc"));
        let result = if backup {
            let bak = dir.join(format!("c.{x}.{z}.mcc.bak"));
            if std::fs::symlink_metadata(&bak).is_ok() {
                problems.push(format!(
                    "{}: chunk {pos} removed, but its external file {} is left: {} exists",
                    file.display(),
                    mcc.display(),
                    bak.display()
                ));
                continue;
            }
            std::fs::rename(&mcc, &bak)
        } else {
            std::fs::remove_file(&mcc)
        };
        match result {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                problems.push(format!(
                    "{}: chunk {pos} removed, but its external file {} is left: {e}",
                    file.display(),
                    mcc.display()
                ));
            }
            _ => {}
        }
    }
    problems
}

/// Checks a pruned region file before it replaces `original`: it holds
/// exactly the chunks `kept`, each with its header entry (timestamp,
/// compression) and its record (length, compression byte, data) byte for
/// byte as in the original.
fn verify_pruned(
    place: &Place,
    original: &[u8],
    kept: &[ChunkInfo],
    written: &[u8],
) -> std::result::Result<(), String> {
    let back = input::open_region(place, written.to_vec()).map_err(|f| f.message)?;
    if back.chunks().count() != kept.len() {
        return Err("the result would hold another set of chunks".into());
    }
    for info in kept {
        let now = back
            .info(info.pos.x.into(), info.pos.z.into())
            .ok_or_else(|| format!("chunk {} would be lost", info.pos))?;
        let same_entry = now.timestamp == info.timestamp
            && now.compression_id == info.compression_id
            && now.external == info.external;
        if !same_entry
            || record(original, info).is_none()
            || record(original, info) != record(written, &now)
        {
            return Err(format!(
                "chunk {} would not be kept byte for byte",
                info.pos
            ));
        }
    }
    Ok(())
}

/// The record of a chunk in a region file's bytes: its length field, its
/// compression byte and its data.
fn record<'b>(file: &'b [u8], info: &ChunkInfo) -> Option<&'b [u8]> {
    let start = usize::try_from(info.sector).ok()? * 4096;
    let length: [u8; 4] = file.get(start..start + 4)?.try_into().ok()?;
    let length = usize::try_from(u32::from_be_bytes(length)).ok()?;
    file.get(start..start.checked_add(4 + length)?)
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}
