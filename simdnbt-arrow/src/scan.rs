//! Scanning: one partition as a stream of batches ([`scan_partition`]), or
//! every partition of a source in parallel through a bounded channel ([`scan`]).

use std::io::Cursor;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use simdnbt::ReadOptions;
use simdnbt::borrow;
use simdnbt::region::{ChunkInfo, Region};

use crate::cols::Cols;
use crate::tables::Doc;
use crate::{Error, Partition, Source, Table, Warning};

/// How to scan.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// The columns to produce, as indices into [`Table::schema`], in the
    /// order wanted; `None` for all. Columns not asked for are not decoded
    /// (a `chunks` scan of header columns only does not even inflate the
    /// chunks). `Some(vec![])` gives batches with rows but no columns (for
    /// `count(*)`).
    pub projection: Option<Vec<usize>>,
    /// Rows per batch (at most; the last batch of a partition is smaller).
    pub batch_rows: usize,
    /// Worker threads of [`scan`]; `None` for one per core.
    pub threads: Option<usize>,
    /// Limits for inflating and parsing each chunk and file.
    pub read: ReadOptions,
    /// Warnings kept (per partition, and per [`Scan`]); the rest are
    /// counted, not kept, so a world of broken chunks cannot fill memory.
    pub max_warnings: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            projection: None,
            batch_rows: 8192,
            threads: None,
            read: ReadOptions::default(),
            max_warnings: 1000,
        }
    }
}

impl ScanOptions {
    /// Only these columns (indices into the table's schema), in this order.
    pub fn with_projection(mut self, projection: Vec<usize>) -> Self {
        self.projection = Some(projection);
        self
    }

    /// At most `rows` rows per batch (at least 1).
    pub fn with_batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// `threads` workers for [`scan`] (at least 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.max(1));
        self
    }
}

/// The projected schema and the table-column indices it holds.
pub(crate) fn project(table: &Table, opts: &ScanOptions) -> Result<(SchemaRef, Vec<usize>), Error> {
    let schema = table.schema();
    let width = schema.fields().len();
    let projection: Vec<usize> = match &opts.projection {
        None => (0..width).collect(),
        Some(p) => p.clone(),
    };
    if let Some(&index) = projection.iter().find(|&&i| i >= width) {
        return Err(Error::Projection {
            table: table.name().to_owned(),
            index,
            columns: width,
        });
    }
    Ok((Arc::new(schema.project(&projection)?), projection))
}

/// Warnings of one partition, capped.
#[derive(Debug)]
struct Warnings {
    kept: Vec<Warning>,
    dropped: u64,
    max: usize,
}

impl Warnings {
    fn push(&mut self, warning: Warning) {
        if self.kept.len() < self.max {
            self.kept.push(warning);
        } else {
            self.dropped += 1;
        }
    }
}

enum Reader {
    /// Nothing (left) to read.
    Done,
    /// A file to open on the first call.
    Pending,
    Region {
        // Boxed: a `Region` (its header tables) is most of the enum's size.
        region: Box<Region>,
        entries: Vec<ChunkInfo>,
        next: usize,
        buf: Vec<u8>,
    },
}

/// The rows of one partition, in batches of at most
/// [`ScanOptions::batch_rows`]: an iterator of `Result<RecordBatch, Error>`.
/// A chunk that cannot be read is a [`Warning`] ([`PartitionScan::warnings`]),
/// and the scan goes on; a file that cannot be opened (a region file whose
/// header is broken, a player file that is not NBT) is the iterator's one
/// `Err`.
pub struct PartitionScan {
    table: Table,
    part: Partition,
    file: String,
    reader: Reader,
    cols: Cols,
    batch_rows: usize,
    read: ReadOptions,
    warnings: Warnings,
    messages: Vec<String>,
    progress: Option<Arc<AtomicU64>>,
    cancel: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for PartitionScan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartitionScan")
            .field("table", &self.table.name())
            .field("partition", &self.part)
            .finish_non_exhaustive()
    }
}

/// Scans one partition (one file) for `table`: the batches come as the
/// iterator is advanced, so at most one region file and one batch are in
/// memory. A partition the table does not read (player files for `chunks`)
/// gives no batch. Errors: a projection index past the schema.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("simdnbt-arrow-doc-part-{}", std::process::id()));
/// # std::fs::create_dir_all(dir.join("region")).unwrap();
/// # let mut region = simdnbt::region::Region::new();
/// # region.write_chunk(0, 0, &[0x0a, 0, 0, 3, 0, 11, b'D', b'a', b't', b'a', b'V', b'e', b'r', b's', b'i', b'o', b'n', 0, 0, 0x0d, 0x48, 0], simdnbt::region::ChunkCompression::Zlib).unwrap();
/// # region.save(dir.join("region/r.0.0.mca")).unwrap();
/// use simdnbt_arrow::{scan_partition, ScanOptions, Source, Table};
///
/// let source = Source::open(&dir)?;
/// let chunks = Table::builtin("chunks").unwrap();
/// let mut rows = 0;
/// for part in source.partitions() {
///     for batch in scan_partition(&chunks, part, &ScanOptions::default())? {
///         rows += batch?.num_rows();
///     }
/// }
/// assert_eq!(rows, 1);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), simdnbt_arrow::Error>(())
/// ```
pub fn scan_partition(
    table: &Table,
    part: &Partition,
    opts: &ScanOptions,
) -> Result<PartitionScan, Error> {
    let (schema, projection) = project(table, opts)?;
    let width = table.schema().fields().len();
    let reader = if table.reads(part.kind) {
        Reader::Pending
    } else {
        Reader::Done
    };
    Ok(PartitionScan {
        table: table.clone(),
        part: part.clone(),
        file: part.path.display().to_string(),
        reader,
        cols: Cols::new(schema, &projection, width),
        batch_rows: opts.batch_rows.max(1),
        read: opts.read,
        warnings: Warnings {
            kept: Vec::new(),
            dropped: 0,
            max: opts.max_warnings,
        },
        messages: Vec::new(),
        progress: None,
        cancel: None,
    })
}

impl PartitionScan {
    /// The warnings so far (at most [`ScanOptions::max_warnings`]).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings.kept
    }

    /// How many warnings were not kept, past [`ScanOptions::max_warnings`].
    pub fn dropped_warnings(&self) -> u64 {
        self.warnings.dropped
    }

    /// The warnings so far, taken out.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings.kept)
    }

    /// The partition being scanned.
    pub fn partition(&self) -> &Partition {
        &self.part
    }

    fn progress(&self, bytes: u64) {
        if let Some(p) = &self.progress {
            p.fetch_add(bytes, Ordering::Relaxed);
        }
    }

    fn warn(&mut self, chunk: Option<(i32, i32)>, message: String) {
        self.warnings.push(Warning {
            path: self.part.path.clone(),
            chunk,
            message,
        });
    }

    /// The file size, for progress, when a file is finished or refused.
    fn file_len(&self) -> u64 {
        std::fs::metadata(&self.part.path).map_or(0, |m| m.len())
    }

    /// Reads the next chunk or file into the builders. `Ok(false)`: nothing left.
    fn step(&mut self) -> Result<bool, Error> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.reader = Reader::Done;
            return Ok(false);
        }
        match &mut self.reader {
            Reader::Done => Ok(false),
            Reader::Pending if self.part.kind.is_region() => {
                let region = match Region::open(&self.part.path) {
                    Ok(region) => region.with_options(self.read),
                    Err(error) => {
                        self.reader = Reader::Done;
                        self.progress(self.file_len());
                        return Err(Error::Region {
                            path: self.part.path.clone(),
                            error,
                        });
                    }
                };
                self.progress(8192);
                let entries = region.chunks().collect();
                self.reader = Reader::Region {
                    region: Box::new(region),
                    entries,
                    next: 0,
                    buf: Vec::new(),
                };
                Ok(true)
            }
            Reader::Pending => {
                self.reader = Reader::Done;
                let result = self.read_file();
                self.progress(self.file_len());
                result.map(|()| true)
            }
            Reader::Region { .. } => self.region_step(),
        }
    }

    fn read_file(&mut self) -> Result<(), Error> {
        let path = &self.part.path;
        let file =
            simdnbt::compression::read_file_with(path, &self.read).map_err(|e| Error::File {
                path: path.clone(),
                message: e.to_string(),
            })?;
        let nbt = match file.borrow() {
            Ok(nbt) => nbt,
            Err(e) => {
                return Err(Error::File {
                    path: path.clone(),
                    message: format!("not NBT: {e}"),
                });
            }
        };
        let doc = Doc {
            part: &self.part,
            file: &self.file,
            chunk: None,
            info: None,
            stored_size: None,
        };
        self.messages.clear();
        self.table
            .extract(&doc, nbt.as_option(), &mut self.cols, &mut self.messages);
        for message in std::mem::take(&mut self.messages) {
            self.warn(None, message);
        }
        Ok(())
    }

    fn region_step(&mut self) -> Result<bool, Error> {
        let Reader::Region {
            region,
            entries,
            next,
            buf,
        } = &mut self.reader
        else {
            return Ok(false);
        };
        let Some(info) = entries.get(*next).copied() else {
            self.reader = Reader::Done;
            return Ok(false);
        };
        *next += 1;
        let (lx, lz) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let chunk = match self.part.region {
            Some((rx, rz)) => (
                rx.wrapping_mul(32).wrapping_add(lx),
                rz.wrapping_mul(32).wrapping_add(lz),
            ),
            None => (lx, lz),
        };
        let stored_size = stored_size(region, &info);
        let doc = Doc {
            part: &self.part,
            file: &self.file,
            chunk: Some(chunk),
            info: Some(info),
            stored_size,
        };
        self.messages.clear();
        let mut failed = None;
        if self.table.needs_nbt(&self.cols) {
            match region.chunk_into(lx, lz, buf) {
                Err(e) => failed = Some(format!("{e}")),
                Ok(_) => match borrow::read_with(&mut Cursor::new(&buf[..]), &self.read) {
                    Ok(nbt) => {
                        self.table.extract(
                            &doc,
                            nbt.as_option(),
                            &mut self.cols,
                            &mut self.messages,
                        );
                    }
                    Err(e) => failed = Some(format!("not NBT: {e}")),
                },
            }
        } else {
            self.table
                .extract(&doc, None, &mut self.cols, &mut self.messages);
        }
        if let Some(message) = failed {
            self.messages.push(message);
            self.table.extract_unreadable(&doc, &mut self.cols);
        }
        let sectors = u64::from(info.sectors) * 4096;
        for message in std::mem::take(&mut self.messages) {
            self.warn(Some(chunk), message);
        }
        self.progress(sectors);
        Ok(true)
    }

    fn flush(&mut self) -> Result<RecordBatch, Error> {
        Ok(self.cols.finish()?)
    }
}

/// The bytes a chunk takes in its region file (after the length field and
/// compression byte), from the header; `None` for an external `.mcc` chunk.
fn stored_size(region: &Region, info: &ChunkInfo) -> Option<i64> {
    if info.external {
        return None;
    }
    let at = info.sector as usize * 4096;
    let bytes = region.as_bytes().get(at..at + 4)?;
    let length = u32::from_be_bytes(bytes.try_into().ok()?);
    Some(i64::from(length) - 1)
}

impl Iterator for PartitionScan {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.cols.rows() >= self.batch_rows {
                return Some(self.flush());
            }
            match self.step() {
                Ok(true) => {}
                Ok(false) if self.cols.rows() > 0 => return Some(self.flush()),
                Ok(false) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// How far a [`Scan`] has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of the partitions' files done (a region's header and each
    /// chunk's sectors as they are read, a whole file when it is done).
    pub bytes_done: u64,
    /// The partitions' total size ([`Source::total_bytes`]).
    pub bytes_total: u64,
    /// Partitions finished.
    pub partitions_done: usize,
    /// Partitions in all.
    pub partitions_total: usize,
}

#[derive(Debug)]
struct Shared {
    warnings: Mutex<Vec<Warning>>,
    dropped: AtomicU64,
    max_warnings: usize,
    bytes_done: Arc<AtomicU64>,
    bytes_total: u64,
    partitions_done: AtomicUsize,
    partitions_total: usize,
    cancel: Arc<AtomicBool>,
}

impl Shared {
    fn warn(&self, warnings: Vec<Warning>, dropped: u64) {
        let mut kept = self.warnings.lock().unwrap_or_else(|e| e.into_inner());
        let room = self.max_warnings.saturating_sub(kept.len());
        let extra = warnings.len().saturating_sub(room) as u64;
        kept.extend(warnings.into_iter().take(room));
        self.dropped.fetch_add(dropped + extra, Ordering::Relaxed);
    }
}

/// Every partition of a source, scanned in parallel: an iterator of
/// `Result<RecordBatch, Error>` in no particular order. See [`scan`].
pub struct Scan {
    rx: Option<Receiver<Result<RecordBatch, Error>>>,
    shared: Arc<Shared>,
    schema: SchemaRef,
    worker: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Scan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scan")
            .field("progress", &self.progress())
            .finish_non_exhaustive()
    }
}

/// Scans every partition of `source` for `table` on a pool of
/// [`ScanOptions::threads`] workers (rayon), one partition per worker at a
/// time. Batches reach the iterator through a channel of two batches per
/// worker: a worker that gets ahead waits, so memory stays bounded (one
/// region file, one batch being built and two sent per worker) whatever the
/// size of the world. A chunk that cannot be read, and a file that cannot
/// be opened, are [`Warning`]s ([`Scan::warnings`]), not errors: the other
/// partitions go on. Dropping the `Scan` stops the workers.
///
/// A projection past the table's columns is the iterator's first and only
/// item, an `Err`.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("simdnbt-arrow-doc-scan-{}", std::process::id()));
/// # std::fs::create_dir_all(dir.join("region")).unwrap();
/// # let mut region = simdnbt::region::Region::new();
/// # for x in 0..3 { region.write_chunk(x, 0, &[0x0a, 0, 0, 0], simdnbt::region::ChunkCompression::Zlib).unwrap(); }
/// # region.save(dir.join("region/r.0.0.mca")).unwrap();
/// use simdnbt_arrow::{scan, ScanOptions, Source, Table};
///
/// let source = Source::open(&dir)?;
/// let chunks = Table::builtin("chunks").unwrap();
/// let mut scan = scan(&source, &chunks, &ScanOptions::default().with_projection(vec![]));
/// let rows: usize = scan.by_ref().map(|b| b.unwrap().num_rows()).sum();
/// assert_eq!(rows, 3);
/// assert!(scan.warnings().is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), simdnbt_arrow::Error>(())
/// ```
pub fn scan(source: &Source, table: &Table, opts: &ScanOptions) -> Scan {
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let shared = Arc::new(Shared {
        warnings: Mutex::new(Vec::new()),
        dropped: AtomicU64::new(0),
        max_warnings: opts.max_warnings,
        bytes_done: Arc::new(AtomicU64::new(0)),
        bytes_total: source.total_bytes(),
        partitions_done: AtomicUsize::new(0),
        partitions_total: source.partitions().len(),
        cancel: Arc::new(AtomicBool::new(false)),
    });
    let (tx, rx) = sync_channel(threads * 2);
    let schema = match project(table, opts) {
        Ok((schema, _)) => schema,
        Err(e) => {
            let _ = tx.send(Err(e));
            return Scan {
                rx: Some(rx),
                shared,
                schema: table.schema(),
                worker: None,
            };
        }
    };
    let parts = source.partitions().to_vec();
    let (table, opts, worker_shared) = (table.clone(), opts.clone(), shared.clone());
    let worker = std::thread::spawn(move || run(parts, table, opts, threads, tx, worker_shared));
    Scan {
        rx: Some(rx),
        shared,
        schema,
        worker: Some(worker),
    }
}

fn run(
    parts: Vec<Partition>,
    table: Table,
    opts: ScanOptions,
    threads: usize,
    tx: SyncSender<Result<RecordBatch, Error>>,
    shared: Arc<Shared>,
) {
    use rayon::prelude::*;
    let work = || {
        parts.par_iter().with_max_len(1).for_each(|part| {
            scan_one(part, &table, &opts, &tx, &shared);
            shared.partitions_done.fetch_add(1, Ordering::Relaxed);
        })
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        // No threads to be had: scan here, one partition after the other.
        Err(_) => parts.iter().for_each(|part| {
            scan_one(part, &table, &opts, &tx, &shared);
            shared.partitions_done.fetch_add(1, Ordering::Relaxed);
        }),
    }
}

fn scan_one(
    part: &Partition,
    table: &Table,
    opts: &ScanOptions,
    tx: &SyncSender<Result<RecordBatch, Error>>,
    shared: &Shared,
) {
    if shared.cancel.load(Ordering::Relaxed) {
        return;
    }
    let mut scan = match scan_partition(table, part, opts) {
        Ok(scan) => scan,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    scan.progress = Some(shared.bytes_done.clone());
    scan.cancel = Some(shared.cancel.clone());
    while let Some(item) = scan.next() {
        let item = match item {
            Ok(batch) => Ok(batch),
            // A file that cannot be opened is the scan's warning, not its end.
            Err(Error::Region { path, error }) => {
                scan.warnings.push(Warning {
                    path,
                    chunk: None,
                    message: format!("region file skipped: {error}"),
                });
                continue;
            }
            Err(Error::File { path, message }) => {
                scan.warnings.push(Warning {
                    path,
                    chunk: None,
                    message: format!("file skipped: {message}"),
                });
                continue;
            }
            Err(e) => Err(e),
        };
        if tx.send(item).is_err() {
            shared.cancel.store(true, Ordering::Relaxed);
            break;
        }
    }
    let dropped = scan.warnings.dropped;
    shared.warn(scan.take_warnings(), dropped);
}

impl Scan {
    /// The schema of the batches (the projected columns).
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The warnings so far, from every partition (at most
    /// [`ScanOptions::max_warnings`]; a partition's warnings arrive when it is done).
    pub fn warnings(&self) -> Vec<Warning> {
        self.shared
            .warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Warnings past [`ScanOptions::max_warnings`], counted but not kept.
    pub fn dropped_warnings(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// How far the scan has come.
    pub fn progress(&self) -> Progress {
        Progress {
            bytes_done: self.shared.bytes_done.load(Ordering::Relaxed),
            bytes_total: self.shared.bytes_total,
            partitions_done: self.shared.partitions_done.load(Ordering::Relaxed),
            partitions_total: self.shared.partitions_total,
        }
    }

    /// Stops the workers and waits for them (what dropping the scan does).
    fn stop(&mut self) {
        self.shared.cancel.store(true, Ordering::Relaxed);
        // Closing the channel wakes a worker blocked on a full one.
        self.rx = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Iterator for Scan {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.rx.as_ref()?.recv().ok();
        if item.is_none() {
            // Every sender is gone: the workers are done, or one panicked
            // (which must not pass for the end of the rows).
            if let Some(Err(panic)) = self.worker.take().map(JoinHandle::join) {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                return Some(Err(Error::WorkerPanicked { message }));
            }
        }
        item
    }
}

impl Drop for Scan {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `Scan` and `PartitionScan` go to other threads (an engine's executors).
#[allow(dead_code)]
fn assert_send() {
    fn is_send<T: Send + 'static>() {}
    is_send::<Scan>();
    is_send::<PartitionScan>();
}

/// A whole partition's batches and warnings, for tests and small inputs.
#[doc(hidden)]
pub fn collect_partition(
    table: &Table,
    part: &Partition,
    opts: &ScanOptions,
) -> Result<(Vec<RecordBatch>, Vec<Warning>), Error> {
    let mut scan = scan_partition(table, part, opts)?;
    let batches = scan.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok((batches, scan.take_warnings()))
}
