//! Editing many documents: `nbt set`, `nbt rm` and `nbt replace` over a
//! folder or a whole region file. Only documents that change are rewritten;
//! in a region only the chunks that change are encoded again, and every other
//! chunk keeps its bytes and its sectors. Each file is written through
//! [`crate::store::replace_verified`] (a temporary file, read back, renamed
//! over the original), so an interrupted run leaves every file old or new.

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use simdnbt::document::Document;
use simdnbt::region::{ChunkInfo, EncodedChunk};

use super::{Summary, Where};
use crate::failure::{Failure, Result};
use crate::input::{self, InputOpts};
use crate::report::progress_bar;
use crate::store::WriteOpts;
use crate::walk::Inputs;

/// One edit of a document (every input is read into one: `input::open`):
/// what it matched and changed (nothing changed: the document is not
/// written), or why it cannot be made (the document is then unchanged).
pub type Edit<'e> = &'e (dyn Fn(&mut Document) -> std::result::Result<Change, String> + Sync + 'e);

/// What an edit did to one document.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Change {
    /// Values the path selected.
    pub matched: usize,
    /// Values changed (set to something else, removed, replaced).
    pub changed: usize,
    /// A line per change (`PATH: OLD -> NEW`), when the edit was asked to
    /// show them (`replace --dry-run`).
    pub shown: Vec<String>,
}

/// What an edit did to one file.
#[derive(Debug, Default, Clone)]
struct Outcome {
    /// Values matched.
    matched: usize,
    /// Values changed.
    values: usize,
    /// Chunks read (region files).
    chunks: usize,
    /// Chunks changed (region files).
    changed_chunks: usize,
    /// Chunks that could not be read or edited, left as they were.
    failed_chunks: usize,
    /// The changes shown ([`Change::shown`]), each after its chunk.
    shown: Vec<String>,
    /// Chunks left out for a bad header entry (counted in `failed_chunks`).
    skipped: Vec<String>,
}

/// A chunk the edit changed: where it is, and its new data, compressed and
/// checked.
struct Changed {
    info: ChunkInfo,
    chunk: EncodedChunk,
}

/// Runs `edit` over every document of `inputs` and writes the files that
/// change; `verb` says what was done in the per-file lines (`set`,
/// `removed`, `replaced`). Prints a line per changed file and the summary on
/// stderr; returns the exit status (0; 1 nothing matched; 2 something failed).
pub fn run(inputs: &Inputs, opts: &InputOpts, edit: Edit<'_>, verb: &str, w: WriteOpts) -> u8 {
    let start = Instant::now();
    let mut summary = Summary::of(inputs);
    let bar = progress_bar(summary.bytes);
    let say = |line: String| bar.suspend(|| eprintln!("{line}"));
    for message in &inputs.unreadable {
        eprintln!("nbt: {message}");
    }
    let would = if w.dry_run { "would have " } else { "" };
    let files: Vec<(&Path, bool)> = (inputs.documents.iter().map(|p| (p.as_path(), false)))
        .chain(inputs.regions.iter().map(|p| (p.as_path(), true)))
        .collect();
    let done = Mutex::new(Vec::new());
    files.par_iter().for_each(|&(file, region)| {
        let result = if region {
            edit_region(file, edit, w, &|m| say(format!("nbt: {m}")))
        } else {
            edit_document(file, opts, edit, w).map_err(|f| (f, 0))
        };
        bar.inc(std::fs::metadata(file).map_or(0, |m| m.len()));
        match &result {
            Ok(o) if o.values > 0 => {
                let chunks = match o.chunks {
                    0 => String::new(),
                    _ => format!(" in {}", crate::report::count(o.changed_chunks, "chunk")),
                };
                let mut lines = format!(
                    "{}: {would}{verb} {}{chunks}",
                    file.display(),
                    crate::report::count(o.values, "value")
                );
                for shown in &o.shown {
                    lines.push_str(&format!("\n  {shown}"));
                }
                say(lines);
            }
            Ok(_) => {}
            Err((f, _)) => say(format!("nbt: {}", f.message)),
        }
        done.lock().unwrap_or_else(|e| e.into_inner()).push(result);
    });
    bar.finish_and_clear();
    for result in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        match result {
            Ok(mut o) => {
                summary.skipped.append(&mut o.skipped);
                summary.matches += o.matched;
                summary.chunks += o.chunks;
                summary.changed_chunks += o.changed_chunks;
                summary.changed_files += usize::from(o.values > 0);
                summary.failed += o.failed_chunks;
            }
            // A region that failed as a whole: every chunk of it is left
            // as it was, and counts as failed.
            Err((_, chunks)) if chunks > 0 => {
                summary.chunks += chunks;
                summary.failed += chunks;
                summary.failed_regions += 1;
            }
            Err(_) => summary.failed += 1,
        }
    }
    eprintln!("{}", summary.line("edited", start, true, w.dry_run));
    if summary.failed > 0 {
        crate::failure::TROUBLE
    } else if summary.matches == 0 {
        crate::failure::NO
    } else {
        0
    }
}

/// One non-region file: read, edit, and stored in its own form if it changed.
fn edit_document(file: &Path, opts: &InputOpts, edit: Edit<'_>, w: WriteOpts) -> Result<Outcome> {
    let _lock = w.lock(file)?;
    let place = super::place(file);
    let opts = opts.in_folder(&place);
    let mut stored = crate::input::open_document(&place, &opts)?;
    let Some(doc) = stored.doc.as_mut() else {
        return Ok(Outcome::default());
    };
    let change = edit(doc).map_err(|m| Failure::new(format!("{place}: {m}")))?;
    if change.changed > 0 {
        crate::store::store(&place, doc, &mut stored.form, w)?;
    }
    Ok(Outcome {
        matched: change.matched,
        values: change.changed,
        shown: change.shown,
        ..Outcome::default()
    })
}

/// One chunk: read, edited; what the edit did, and the new chunk when it
/// changed, compressed at `level`.
///
/// The new chunk is checked before it is handed back: the document refuses
/// an edit it could not write (a string over 65535 bytes, nesting past
/// 512), [`EncodedChunk`] reads the bytes it is given with the borrow reader,
/// and the compressed data must decompress to exactly those bytes. The tree
/// is not parsed again from them: the writer's output reading back as the
/// document is what the fuzz targets check, and a second parse here cost
/// more than the check itself.
fn edit_chunk(
    region: &simdnbt::region::Region,
    info: ChunkInfo,
    edit: Edit<'_>,
    level: u32,
) -> std::result::Result<(Change, Option<Changed>), String> {
    let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
    let compression = info
        .compression
        .ok_or_else(|| format!("compression {} cannot be read", info.compression_id))?;
    let bytes = region
        .chunk(x, z)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    let (change, raw) = edited(bytes, edit)?;
    let Some(raw) = raw else {
        return Ok((change, None));
    };
    let chunk = EncodedChunk::with_level(&raw, compression, level)
        .map_err(|e| format!("the edited chunk is not valid NBT: {e}"))?;
    if !chunk.reads_back_as(&raw) {
        return Err("the edited chunk would not decompress as it was compressed".into());
    }
    Ok((change, Some(Changed { info, chunk })))
}

/// What `edit` did to the document `bytes` (uncompressed NBT), and its new
/// bytes when it changed.
fn edited(
    bytes: Vec<u8>,
    edit: Edit<'_>,
) -> std::result::Result<(Change, Option<Vec<u8>>), String> {
    let Some(mut doc) = Document::from_vec(bytes).map_err(|e| format!("invalid NBT: {e}"))? else {
        return Ok((Change::default(), None));
    };
    let change = edit(&mut doc)?;
    let raw = (change.changed > 0).then(|| doc.to_bytes());
    Ok((change, raw))
}

/// One region file: every chunk edited in parallel; the changed ones written
/// into the region, the others left in their sectors; the file replaced
/// when anything changed. A chunk that cannot be read is reported through
/// `fail` and kept as it is. A region that fails as a whole gives the
/// failure and its number of chunks (0 when it could not be opened).
fn edit_region(
    file: &Path,
    edit: Edit<'_>,
    w: WriteOpts,
    fail: &(dyn Fn(String) + Sync),
) -> std::result::Result<Outcome, (Failure, usize)> {
    let _lock = w.lock(file).map_err(|f| (f, 0))?;
    let place = super::place(file);
    let original = place.read_all().map_err(|f| (f, 0))?;
    // A bad header entry costs only its own chunk, which is left as it is.
    let (mut region, bad) =
        input::open_region_lenient(&place, original.clone()).map_err(|f| (f, 0))?;
    let infos: Vec<ChunkInfo> = region.chunks().collect();
    let whole = |f: Failure| (f, infos.len() + bad.len());
    let results: Vec<_> = infos
        .par_iter()
        .map(|&info| (info, edit_chunk(&region, info, edit, w.level)))
        .collect();
    let mut outcome = Outcome {
        chunks: infos.len() + bad.len(),
        failed_chunks: bad.len(),
        ..Outcome::default()
    };
    for bad in &bad {
        fail(input::skipped_chunk(&place, bad));
        outcome.skipped.push(format!("{place}: {bad}"));
    }
    let mut changed = Vec::new();
    for (info, result) in results {
        match result {
            Ok((change, c)) => {
                outcome.matched += change.matched;
                outcome.values += change.changed;
                let at = info.pos;
                outcome
                    .shown
                    .extend(change.shown.iter().map(|s| format!("chunk {at} {s}")));
                changed.extend(c);
            }
            Err(message) => {
                let at = Where {
                    file,
                    chunk: Some(info.pos),
                };
                fail(format!("{at}: {message}; left as it is"));
                outcome.failed_chunks += 1;
            }
        }
    }
    if changed.is_empty() {
        return Ok(outcome);
    }
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    for c in &changed {
        let (x, z) = (i32::from(c.info.pos.x), i32::from(c.info.pos.z));
        region
            .write_encoded(x, z, &c.chunk)
            .map_err(|e| whole(refuse(format!("cannot store chunk {}: {e}", c.info.pos))))?;
        if region.info(x, z).is_some_and(|i| i.external) || c.info.external {
            return Err(whole(refuse(format!(
                "chunk {} is over 1 MiB compressed and needs an external .mcc file, which \
                 `nbt` does not write",
                c.info.pos
            ))));
        }
        outcome.changed_chunks += 1;
    }
    let built = region.as_bytes();
    let bad: Vec<_> = bad.iter().filter_map(|e| e.pos()).collect();
    let verify = |written: &[u8]| {
        verify_region(&place, &original, (&infos, &bad), &changed, built, written).map_err(refuse)
    };
    crate::store::replace_verified(file, built, &verify, w).map_err(whole)?;
    Ok(outcome)
}

/// Checks a region file about to replace `original`: the bytes `built`
/// (on disk: the file read back is compared with them), holding the same
/// chunks, each changed one stored as its checked data ([`Changed`]), each
/// other one byte-identical (its sectors, and its header entries) to the
/// original. `(infos, bad)`: the original's chunks, and the chunks of its
/// bad header entries, which are left as they were; such an entry may read
/// as a chunk afterwards (one sharing the sectors of a chunk that moved now
/// has them to itself), and no other chunk may appear.
fn verify_region(
    place: &crate::input::Place,
    original: &[u8],
    (infos, bad): (&[ChunkInfo], &[simdnbt::region::LocalPos]),
    changed: &[Changed],
    built: &[u8],
    written: &[u8],
) -> std::result::Result<(), String> {
    if written != built {
        return Err("the file read back differs from what was written".into());
    }
    let (back, _) = input::open_region_lenient(place, written.to_vec()).map_err(|f| f.message)?;
    if back.chunks().filter(|i| !bad.contains(&i.pos)).count() != infos.len() {
        return Err("the result would hold another set of chunks".into());
    }
    let sector = 4096usize;
    let record = |bytes: &'_ [u8], info: &ChunkInfo| -> Option<Vec<u8>> {
        let start = info.sector as usize * sector;
        bytes
            .get(start..start + info.sectors as usize * sector)
            .map(<[u8]>::to_vec)
    };
    let mut changed_at = changed.iter().map(|c| (c.info.pos, c)).collect::<Vec<_>>();
    changed_at.sort_by_key(|(p, _)| *p);
    for info in infos {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let now = back
            .info(x, z)
            .ok_or_else(|| format!("chunk {} would be lost", info.pos))?;
        match changed_at.binary_search_by_key(&info.pos, |(p, _)| *p) {
            Ok(i) => {
                let c = &changed_at[i].1.chunk;
                // The record: its length (the compression byte and the
                // data), the compression byte, the data.
                let start = now.sector as usize * sector;
                let data = c.data();
                let mut head = u32::try_from(1 + data.len())
                    .unwrap_or(u32::MAX)
                    .to_be_bytes()
                    .to_vec();
                head.push(c.compression().id());
                let stored = |at: usize, len: usize| written.get(start + at..start + at + len);
                if stored(0, 5) != Some(&head[..]) || stored(5, data.len()) != Some(data) {
                    return Err(format!("chunk {} would not read back as written", info.pos));
                }
            }
            Err(_) => {
                if now != *info || record(original, info) != record(written, &now) {
                    return Err(format!(
                        "unchanged chunk {} would not be kept byte for byte",
                        info.pos
                    ));
                }
            }
        }
    }
    Ok(())
}
