//! Parsing every chunk of a folder of region files in parallel (rayon).
//!
//! [`Scan`] inflates each chunk and parses it with the borrow reader on rayon's
//! thread pool (sized by `RAYON_NUM_THREADS`, all cores by default), hands each
//! document to your `visit` function with a per-thread accumulator, and merges
//! the accumulators at the end. Broken regions and chunks do not stop the scan:
//! they are collected in [`ScanReport::errors`]; a bad header entry costs only
//! its own chunk ([`Region::open_lenient`]).
//!
//! ```
//! use std::collections::HashMap;
//! use simdnbt::region::{scan::Scan, ChunkCompression, Region};
//!
//! let dir = std::env::temp_dir().join(format!("simdnbt-scan-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let mut region = Region::new();
//! for x in 0..4 {
//!     // {Status: "full"}
//!     let chunk = [&[0x0a, 0, 0, 8, 0, 6][..], b"Status", &[0, 4], b"full", &[0]].concat();
//!     region.write_chunk(x, 0, &chunk, ChunkCompression::Zlib)?;
//! }
//! region.save(dir.join("r.0.0.mca"))?;
//!
//! // Count chunks by status.
//! let report = Scan::dir(&dir)?.run(
//!     HashMap::<String, usize>::new,
//!     |counts, _chunk, nbt| {
//!         if let Some(status) = nbt.string("Status") {
//!             *counts.entry(status.to_str().into_owned()).or_default() += 1;
//!         }
//!     },
//!     |mut a, b| {
//!         for (k, v) in b {
//!             *a.entry(k).or_default() += v;
//!         }
//!         a
//!     },
//! );
//! assert_eq!(report.value["full"], 4);
//! assert_eq!(report.chunks, 4);
//! assert!(report.errors.is_empty());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::header::{HEADER_BYTES, SECTOR};
use super::{ChunkInfo, Region, RegionError, region_position};
use crate::borrow::{self, BaseNbt};
use crate::error::Error;
use crate::options::ReadOptions;

/// The chunk a document came from.
#[derive(Debug, Clone, Copy)]
pub struct ChunkRef<'a> {
    /// The region file.
    pub region: &'a Path,
    /// The header entry.
    pub info: ChunkInfo,
}

/// A region or chunk the scan could not read.
#[derive(Debug)]
pub struct ScanError {
    /// The region file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: ScanErrorKind,
}

/// What went wrong with one region or chunk of a scan.
#[derive(Debug)]
#[non_exhaustive]
pub enum ScanErrorKind {
    /// The region file (or one chunk of it) could not be read.
    Region(RegionError),
    /// A chunk inflated, but is not valid NBT.
    Nbt {
        /// The chunk.
        info: ChunkInfo,
        /// The reader's error.
        error: Error,
    },
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ScanErrorKind::Region(e) => write!(f, "{}: {e}", self.path.display()),
            ScanErrorKind::Nbt { info, error } => {
                write!(f, "{}: chunk {}: {error}", self.path.display(), info.pos)
            }
        }
    }
}

impl std::error::Error for ScanError {}

/// What a scan found: your merged value and what it read.
#[derive(Debug)]
pub struct ScanReport<T> {
    /// The merged accumulators.
    pub value: T,
    /// Region files opened.
    pub regions: usize,
    /// Chunks parsed successfully.
    pub chunks: usize,
    /// Bytes of inflated NBT parsed.
    pub inflated_bytes: u64,
    /// Everything that could not be read.
    pub errors: Vec<ScanError>,
}

/// Counters one worker keeps; merged like the user's accumulator.
#[derive(Default)]
struct Tally {
    regions: usize,
    chunks: usize,
    inflated_bytes: u64,
    errors: Vec<ScanError>,
}

impl Tally {
    fn merge(mut self, other: Tally) -> Tally {
        self.regions += other.regions;
        self.chunks += other.chunks;
        self.inflated_bytes += other.inflated_bytes;
        self.errors.extend(other.errors);
        self
    }
}

type Progress<'p> = Box<dyn Fn(u64) + Sync + 'p>;

/// A parallel scan over region files; see the [module docs](self).
pub struct Scan<'p> {
    paths: Vec<PathBuf>,
    opts: ReadOptions,
    progress: Option<Progress<'p>>,
}

impl fmt::Debug for Scan<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scan")
            .field("paths", &self.paths)
            .field("opts", &self.opts)
            .finish_non_exhaustive()
    }
}

impl<'p> Scan<'p> {
    /// A scan of every `r.X.Z.mca` file directly in `dir` (a world's `region/`
    /// folder), in name order.
    pub fn dir(dir: impl AsRef<Path>) -> io::Result<Self> {
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if region_position(&path).is_some() && path.is_file() {
                paths.push(path);
            }
        }
        paths.sort();
        Ok(Self::files(paths))
    }

    /// A scan of the given region files.
    pub fn files(paths: Vec<PathBuf>) -> Self {
        Self {
            paths,
            opts: ReadOptions::default(),
            progress: None,
        }
    }

    /// The region files this scan reads.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Sets the limits for inflating and parsing each chunk.
    pub fn options(mut self, opts: ReadOptions) -> Self {
        self.opts = opts;
        self
    }

    /// The total size of the region files, the unit of [`Scan::on_progress`].
    pub fn total_bytes(&self) -> u64 {
        self.paths
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }

    /// Calls `progress` from the worker threads with the number of region-file
    /// bytes just finished (a chunk's sectors, a header, or a whole unreadable
    /// file); the calls add up to about [`Scan::total_bytes`].
    pub fn on_progress(mut self, progress: impl Fn(u64) + Sync + 'p) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    fn report_progress(&self, bytes: u64) {
        if let Some(progress) = &self.progress {
            progress(bytes);
        }
    }

    /// Runs the scan: `visit` sees every chunk that parses, with an accumulator
    /// made by `identity` (one per rayon work item); `merge` combines them.
    pub fn run<T, I, V, M>(&self, identity: I, visit: V, merge: M) -> ScanReport<T>
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, ChunkRef<'_>, &BaseNbt<'_>) + Sync + Send,
        M: Fn(T, T) -> T + Sync + Send,
    {
        let (value, tally) = self
            .paths
            .par_iter()
            .map(|path| self.scan_region(path, &identity, &visit, &merge))
            .reduce(
                || (identity(), Tally::default()),
                |(a, ta), (b, tb)| (merge(a, b), ta.merge(tb)),
            );
        ScanReport {
            value,
            regions: tally.regions,
            chunks: tally.chunks,
            inflated_bytes: tally.inflated_bytes,
            errors: tally.errors,
        }
    }

    fn scan_region<T, I, V, M>(&self, path: &Path, identity: &I, visit: &V, merge: &M) -> (T, Tally)
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, ChunkRef<'_>, &BaseNbt<'_>) + Sync + Send,
        M: Fn(T, T) -> T + Sync + Send,
    {
        // A bad header entry costs only its chunk: reported, the others scanned.
        let (region, bad) = match Region::open_lenient(path) {
            Ok((region, bad)) => (region.with_options(self.opts), bad),
            Err(e) => {
                self.report_progress(std::fs::metadata(path).map_or(0, |m| m.len()));
                let error = ScanError {
                    path: path.to_owned(),
                    kind: ScanErrorKind::Region(e),
                };
                let tally = Tally {
                    errors: vec![error],
                    ..Tally::default()
                };
                return (identity(), tally);
            }
        };
        self.report_progress(HEADER_BYTES as u64);
        let bad: Vec<ScanError> = bad
            .into_iter()
            .map(|e| ScanError {
                path: path.to_owned(),
                kind: ScanErrorKind::Region(e),
            })
            .collect();
        let chunks: Vec<ChunkInfo> = region.chunks().collect();
        let (value, mut tally) = chunks
            .par_iter()
            .fold(
                || (identity(), Tally::default(), Vec::new()),
                |(mut value, mut tally, mut buf), info| {
                    self.scan_chunk(
                        &region, path, *info, &mut buf, &mut value, &mut tally, visit,
                    );
                    self.report_progress(u64::from(info.sectors) * SECTOR as u64);
                    (value, tally, buf)
                },
            )
            .map(|(value, tally, _)| (value, tally))
            .reduce(
                || (identity(), Tally::default()),
                |(a, ta), (b, tb)| (merge(a, b), ta.merge(tb)),
            );
        tally.regions += 1;
        tally.errors.extend(bad);
        (value, tally)
    }

    #[allow(clippy::too_many_arguments)]
    fn scan_chunk<T, V>(
        &self,
        region: &Region,
        path: &Path,
        info: ChunkInfo,
        buf: &mut Vec<u8>,
        value: &mut T,
        tally: &mut Tally,
        visit: &V,
    ) where
        V: Fn(&mut T, ChunkRef<'_>, &BaseNbt<'_>),
    {
        let fail = |kind| ScanError {
            path: path.to_owned(),
            kind,
        };
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        if let Err(e) = region.chunk_into(x, z, buf) {
            tally.errors.push(fail(ScanErrorKind::Region(e)));
            return;
        }
        match borrow::read_with(&mut Cursor::new(&buf[..]), &self.opts) {
            Ok(borrow::Nbt::Some(nbt)) => {
                visit(value, ChunkRef { region: path, info }, &nbt);
                tally.chunks += 1;
                tally.inflated_bytes += buf.len() as u64;
            }
            // An End root: an empty chunk, nothing to visit.
            Ok(borrow::Nbt::None) => tally.chunks += 1,
            Err(error) => tally.errors.push(fail(ScanErrorKind::Nbt { info, error })),
        }
    }
}
