//! Commands over many documents: every file of a folder (the walker,
//! [`crate::walk`]) and every chunk of a region file, in parallel on rayon's
//! pool, with a progress bar on a terminal and a summary on stderr at the end.
//! A file or chunk that fails is reported and the others go on; the exit
//! status says so.

pub mod diff;
pub mod edit;
pub mod search;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use simdnbt::region::LocalPos;

use crate::input::{InputOpts, Place};
use crate::report::count;
use crate::walk::Inputs;

/// Whether `place` (with `opts`) names many documents: a folder, or a region
/// file without `--chunk`.
pub fn is_many(place: &Place, opts: &InputOpts) -> bool {
    match place {
        Place::Std => false,
        Place::File(path) => {
            path.is_dir()
                || (opts.chunk.is_none() && opts.format(place) == crate::input::InputFormat::Region)
        }
    }
}

/// The files `path` stands for; `--from region` takes a single file as a
/// region whatever its name.
pub fn inputs(path: &Path, opts: &InputOpts) -> Inputs {
    let mut inputs = Inputs::collect(&[path.to_owned()]);
    if opts.from == Some(crate::input::InputFormat::Region) {
        inputs.regions.append(&mut inputs.documents);
    }
    inputs
}

/// Where a document is: a file, or one chunk of a region file. Shown as
/// `FILE` or `FILE chunk (X, Z)` (local coordinates, as `show` lists them).
#[derive(Clone, Debug)]
pub struct Where<'p> {
    /// The file.
    pub file: &'p Path,
    /// The chunk, for a region file.
    pub chunk: Option<LocalPos>,
}

impl fmt::Display for Where<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(pos) = self.chunk {
            write!(f, " chunk {pos}")?;
        }
        Ok(())
    }
}

/// Counts of one run, printed at the end.
#[derive(Debug, Default)]
pub struct Summary {
    /// Region files read.
    pub regions: usize,
    /// Other files read.
    pub documents: usize,
    /// Chunks read.
    pub chunks: usize,
    /// Bytes of the files.
    pub bytes: u64,
    /// Values matched (found, set, removed or replaced).
    pub matches: usize,
    /// Files that changed (or would, with `--dry-run`).
    pub changed_files: usize,
    /// Chunks that changed (or would).
    pub changed_chunks: usize,
    /// Files, chunks and folder entries that failed.
    pub failed: usize,
    /// Region files that failed as a whole (their chunks are in `chunks`
    /// and `failed`).
    pub failed_regions: usize,
    /// Chunks left out for a bad header entry (they are in `failed`):
    /// `FILE chunk (X, Z): why`.
    pub skipped: Vec<String>,
}

impl Summary {
    /// The counts of `inputs` before anything is read.
    pub fn of(inputs: &Inputs) -> Self {
        Summary {
            regions: inputs.regions.len(),
            documents: inputs.documents.len(),
            bytes: inputs.total_bytes(),
            failed: inputs.unreadable.len(),
            ..Summary::default()
        }
    }

    /// One line for stderr: `VERB 165 files (…): 273.3 MB in 2.31 s (118.3
    /// MB/s); WHAT…; 0 failed`. `edits`: name the changed files and chunks
    /// (`would change` when `dry_run`).
    pub fn line(&self, verb: &str, start: Instant, edits: bool, dry_run: bool) -> String {
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let mb = self.bytes as f64 / 1e6;
        let mut line = format!(
            "{verb} {} ({}, {}; {}): {mb:.1} MB in {seconds:.2} s ({:.1} MB/s); {}",
            count(self.regions + self.documents, "file"),
            count(self.regions, "region file"),
            count(self.chunks, "chunk"),
            count(self.documents, "other file"),
            mb / seconds,
            count(self.matches, "match"),
        );
        if edits {
            let changed = if dry_run { "would change" } else { "changed" };
            line.push_str(&format!(
                "; {changed} {} ({})",
                count(self.changed_files, "file"),
                count(self.changed_chunks, "chunk")
            ));
        }
        line.push_str(&format!("; {} failed", self.failed));
        if self.failed_regions > 0 {
            line.push_str(&format!(
                " (all the chunks of {})",
                count(self.failed_regions, "region file")
            ));
        }
        if !self.skipped.is_empty() {
            line.push_str(&format!(
                "; skipped for a bad header entry, the rest of each file {}: {}",
                if edits { "edited" } else { "read" },
                self.skipped.join("; ")
            ));
        }
        line
    }
}

/// Whether a region error is about a header entry (the chunk is left out
/// of the region) rather than the chunk's data.
pub fn is_header_entry_error(e: &simdnbt::region::RegionError) -> bool {
    use simdnbt::region::RegionErrorKind::*;
    e.pos().is_some()
        && matches!(
            e.kind(),
            NoSectors { .. }
                | OffsetInHeader { .. }
                | SectorsPastEnd { .. }
                | Overlap { .. }
                | ChunkHeaderCut { .. }
                | ZeroLength
                | LengthTooLarge { .. }
        )
}

/// The region file of a chunk, as a place, for messages and for finding
/// external chunks beside it.
pub fn place(path: &Path) -> Place {
    Place::File(PathBuf::from(path))
}
