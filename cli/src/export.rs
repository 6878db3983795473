//! `nbt export`: one table of a world written to a folder, Parquet, CSV or
//! NDJSON, laid out as a hive-partitioned dataset
//! (`DIR/dimension=D/region=r.X.Z/part-0.parquet`) that Spark, DuckDB,
//! pyarrow, Polars and Dask read as one table. Every file is written whole
//! to a temporary file beside it and renamed, so an interrupted export
//! leaves no half-written file.

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use std::collections::BTreeSet;
use std::sync::Arc;

use datafusion::arrow::array::{AsArray, BooleanArray, RecordBatch};
use datafusion::arrow::compute::{cast, filter_record_batch};
use datafusion::arrow::datatypes::{DataType, SchemaRef};
use indicatif::ProgressBar;
use rayon::prelude::*;
use simdnbt_arrow::{Partition, ScanOptions, Source, Table};

use crate::batches::{Format, SyncOnFlush, Writer};
use crate::failure::{Failure, Result};
use crate::report::{count, progress_bar};
use crate::store::TempFile;

/// `nbt export`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  nbt export world --table entities --to parquet -o entities/
  nbt export world --table chunks --to csv -o chunks/
  nbt export world --table inv=Inventory[] --col id=id --col count=count --to ndjson -o inv/

The folder is a hive-partitioned dataset: DIR/dimension=D/region=r.X.Z/part-0.EXT
for rows from region files (the dimension is in the path, not in the files),
DIR/dimension=D/region=none/part-0.EXT for rows from other files (player
files, level.dat). Spark: spark.read.parquet(\"DIR\"); DuckDB:
read_parquet('DIR/**/*.parquet', hive_partitioning=true); pyarrow:
pyarrow.dataset.dataset(\"DIR\", partitioning=\"hive\"); Dask:
dask.dataframe.read_parquet(\"DIR\"). DIR must be new or empty. A chunk or
file that cannot be read is named on stderr and left out (exit status 2).")]
pub struct ExportArgs {
    /// The world folder, region file or NBT file
    pub world: PathBuf,
    /// The table: a built-in one (chunks, entities, block_entities, items,
    /// players, blocks, biomes, nbt), or NAME=ROWS for a custom one (with --col)
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// A column of the custom table: NAME=PATH, PATH relative to a row
    #[arg(long = "col", value_name = "NAME=PATH")]
    pub cols: Vec<String>,
    /// Add an `snbt` column: the whole row's value as SNBT
    #[arg(long)]
    pub snbt: bool,
    /// The file format
    #[arg(long, value_enum)]
    pub to: ExportFormat,
    /// The folder to write (created; must be empty if it exists)
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

/// `nbt export --to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Parquet, zstd-compressed
    Parquet,
    /// CSV with a header line
    Csv,
    /// One JSON object per row and line
    Ndjson,
}

impl ExportFormat {
    fn extension(self) -> &'static str {
        match self {
            ExportFormat::Parquet => "parquet",
            ExportFormat::Csv => "csv",
            ExportFormat::Ndjson => "ndjson",
        }
    }

    fn format(self) -> Format {
        match self {
            ExportFormat::Parquet => Format::Parquet,
            ExportFormat::Csv => Format::Csv,
            ExportFormat::Ndjson => Format::Json,
        }
    }
}

/// The table `--table` names (with `--col` for a custom one).
pub fn table(spec: &str, cols: &[String], snbt: bool) -> Result<Table> {
    let table = match spec.split_once('=') {
        None => {
            if !cols.is_empty() {
                return Err(Failure::new(format!(
                    "--col is for a custom table (--table NAME=ROWS); {spec} is built in"
                )));
            }
            Table::builtin(spec).ok_or_else(|| {
                Failure::new(format!(
                    "no table named {spec}: the tables are {}; NAME=ROWS makes a custom one",
                    Table::builtin_names().join(", ")
                ))
            })?
        }
        Some((name, rows)) => {
            let cols = cols
                .iter()
                .map(|c| {
                    c.split_once('=')
                        .map(|(n, p)| (n.to_owned(), p.to_owned()))
                        .ok_or_else(|| Failure::new(format!("--col {c}: give NAME=PATH (id=id)")))
                })
                .collect::<Result<Vec<_>>>()?;
            Table::custom(rows, &cols)
                .map_err(|e| Failure::new(format!("--table {spec}: {e}")))?
                .with_name(name)
        }
    };
    Ok(if snbt {
        table.with_snbt_column()
    } else {
        table
    })
}

/// The value of a hive partition key for `value`: `__HIVE_DEFAULT_PARTITION__`
/// (what Spark, pyarrow and DuckDB read as null) for none or the empty
/// string; else the characters a path or the `key=value` syntax would
/// misread percent-encoded, as Spark writes them (`:` too, which Windows
/// refuses in names).
fn hive_value(value: Option<&str>) -> String {
    let value = match value {
        None | Some("") => return "__HIVE_DEFAULT_PARTITION__".to_owned(),
        Some(v) => v,
    };
    let mut out = String::new();
    for c in value.chars() {
        if c.is_control() || "\"#%'*/:=?\\{[]^".contains(c) {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The folder, relative to the export folder, of the rows with dimension
/// `dimension` from the region file `region` (`r.X.Z`; none: not from a
/// region file).
fn hive_dir(dimension: Option<&str>, region: Option<(i32, i32)>) -> PathBuf {
    let region = match region {
        Some((x, z)) => format!("r.{x}.{z}"),
        None => "none".to_owned(),
    };
    PathBuf::from(format!("dimension={}", hive_value(dimension))).join(format!("region={region}"))
}

/// What the export wrote.
#[derive(Default)]
struct Written {
    rows: usize,
    bytes: u64,
    files: usize,
}

/// The work of one export task: the region files of one hive folder, or
/// every file that is not a region file (their rows spread over folders by
/// their `dimension`: a player's is where the player is).
enum Task<'p> {
    Region(PathBuf, Vec<&'p Partition>),
    Others(Vec<&'p Partition>),
}

/// `nbt export`.
pub fn run(args: ExportArgs) -> Result<u8> {
    let start = Instant::now();
    let table = table(&args.table, &args.cols, args.snbt)?;
    let source = Source::open(&args.world)
        .map_err(|e| Failure::new(format!("{}: {e}", args.world.display())))?;
    empty_folder(&args.output)?;

    // The dimension is in each file's path: the files leave it out.
    let schema = table.schema();
    let dimension = schema.index_of("dimension").ok();
    let others: Vec<usize> = (0..schema.fields().len())
        .filter(|&i| Some(i) != dimension)
        .collect();
    let written_schema: SchemaRef = Arc::new(
        schema
            .project(&others)
            .map_err(|e| Failure::new(format!("table {}: {e}", table.name())))?,
    );
    let mut tasks: BTreeMap<PathBuf, Vec<&Partition>> = BTreeMap::new();
    let mut loose = Vec::new();
    for part in source.partitions().iter().filter(|p| table.reads(p.kind)) {
        match part.region.filter(|_| part.kind.is_region()) {
            Some(region) => tasks
                .entry(hive_dir(Some(&part.dimension), Some(region)))
                .or_default()
                .push(part),
            None => loose.push(part),
        }
    }
    let mut tasks: Vec<Task<'_>> = tasks
        .into_iter()
        .map(|(dir, parts)| Task::Region(dir, parts))
        .collect();
    if !loose.is_empty() {
        tasks.push(Task::Others(loose));
    }

    let files = tasks
        .iter()
        .map(|t| match t {
            Task::Region(_, parts) | Task::Others(parts) => parts.len(),
        })
        .sum::<usize>();
    let total: u64 = source
        .partitions()
        .iter()
        .filter(|p| table.reads(p.kind))
        .map(|p| file_size(&p.path))
        .sum();
    let bar = progress_bar(total);
    let problems = Problems {
        bar: &bar,
        count: AtomicUsize::new(0),
    };
    let problem = &problems;
    let sink = |_: ()| Sink {
        out: &args.output,
        name: format!("part-0.{}", args.to.extension()),
        to: args.to,
        schema: Arc::clone(&written_schema),
        files: BTreeMap::new(),
        rows: 0,
    };
    let results: Vec<Result<Written>> = tasks
        .par_iter()
        .map(|task| {
            let mut sink = sink(());
            match task {
                Task::Region(dir, parts) => {
                    let opts = ScanOptions::default().with_projection(others.clone());
                    for part in parts {
                        scan(&table, part, &opts, problem, &mut |batch| {
                            sink.write(dir, batch)
                        })?;
                        bar.inc(file_size(&part.path));
                    }
                }
                Task::Others(parts) => {
                    // With the dimension first, to spread the rows by it.
                    let mut columns: Vec<usize> = dimension.into_iter().collect();
                    columns.extend(&others);
                    let opts = ScanOptions::default().with_projection(columns);
                    for part in parts {
                        scan(&table, part, &opts, problem, &mut |batch| {
                            by_dimension(&mut sink, batch, dimension.is_some())
                        })?;
                        bar.inc(file_size(&part.path));
                    }
                }
            }
            sink.finish()
        })
        .collect();
    bar.finish_and_clear();
    let mut done = Written::default();
    let mut failed = 0usize;
    for result in results {
        match result {
            Ok(w) => {
                done.rows += w.rows;
                done.bytes += w.bytes;
                done.files += w.files;
            }
            Err(f) => {
                eprintln!("nbt: {}", f.message);
                failed += 1;
            }
        }
    }
    let skipped = problems.count.into_inner();
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "exported {} of {} from {} ({:.1} MB) to {} in {} ({:.1} MB) in {seconds:.2} s; {} skipped; {} failed",
        count(done.rows, "row"),
        table.name(),
        count(files, "file"),
        total as f64 / 1e6,
        args.output.display(),
        count(done.files, &format!("{} file", args.to.extension())),
        done.bytes as f64 / 1e6,
        count(skipped, "chunk or file"),
        failed,
    );
    Ok(if skipped + failed > 0 {
        crate::failure::TROUBLE
    } else {
        0
    })
}

/// Refuses a folder with anything in it: files of an earlier export would
/// be read as part of this one.
fn empty_folder(dir: &Path) -> Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => Err(Failure::new(format!(
                "{} is not empty: export to a new folder (its files would mix with this export's)",
                dir.display()
            ))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Failure::new(format!("cannot read {}: {e}", dir.display()))),
    }
}

/// Scans one file, handing each batch with rows to `each`; a file or chunk
/// that cannot be read goes to `problem`.
fn scan(
    table: &Table,
    part: &Partition,
    opts: &ScanOptions,
    problem: &Problems<'_>,
    each: &mut dyn FnMut(&RecordBatch) -> Result<()>,
) -> Result<()> {
    let mut scan = simdnbt_arrow::scan_partition(table, part, opts)
        .map_err(|e| Failure::new(format!("table {}: {e}", table.name())))?;
    for batch in scan.by_ref() {
        match batch {
            Ok(b) if b.num_rows() > 0 => each(&b)?,
            Ok(_) => {}
            Err(e) => {
                problem.say(e.to_string());
                break;
            }
        }
    }
    for warning in scan.take_warnings() {
        problem.say(warning.to_string());
    }
    let more = usize::try_from(scan.dropped_warnings()).unwrap_or(usize::MAX);
    problem.count.fetch_add(more, Ordering::Relaxed);
    Ok(())
}

/// The chunks and files an export skipped: each named on stderr as it is
/// found, and counted.
struct Problems<'b> {
    bar: &'b ProgressBar,
    count: AtomicUsize,
}

impl Problems<'_> {
    fn say(&self, problem: String) {
        self.bar.suspend(|| eprintln!("nbt: {problem}"));
        self.count.fetch_add(1, Ordering::Relaxed);
    }
}

/// Writes the rows of `batch` (its first column the dimension, when
/// `has_dimension`) to the folder of their dimension, without that column.
fn by_dimension(sink: &mut Sink<'_>, batch: &RecordBatch, has_dimension: bool) -> Result<()> {
    if !has_dimension {
        return sink.write(&hive_dir(None, None), batch);
    }
    let fail = |e: &dyn std::fmt::Display| Failure::new(format!("cannot export: {e}"));
    let dims = cast(batch.column(0), &DataType::Utf8).map_err(|e| fail(&e))?;
    let dims = dims.as_string::<i32>();
    let rest = batch
        .project(&(1..batch.num_columns()).collect::<Vec<_>>())
        .map_err(|e| fail(&e))?;
    let values: BTreeSet<Option<&str>> = dims.iter().collect();
    for value in values {
        let mask: BooleanArray = dims.iter().map(|d| Some(d == value)).collect();
        let rows = filter_record_batch(&rest, &mask).map_err(|e| fail(&e))?;
        sink.write(&hive_dir(value, None), &rows)?;
    }
    Ok(())
}

/// The files one task writes, each opened at its first rows (a folder with
/// no rows gets no file), each a temporary file until [`Sink::finish`].
struct Sink<'a> {
    out: &'a Path,
    name: String,
    to: ExportFormat,
    schema: SchemaRef,
    files: BTreeMap<PathBuf, (TempFile, Writer<'static>)>,
    rows: usize,
}

impl Sink<'_> {
    fn write(&mut self, dir: &Path, batch: &RecordBatch) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let file = self.out.join(dir).join(&self.name);
        if !self.files.contains_key(&file) {
            let parent = file.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::new(format!("cannot create {}: {e}", parent.display())))?;
            let temp = TempFile::beside(&file, "tmp")?;
            let handle = temp.create()?;
            let writer = Writer::new(
                self.to.format(),
                Arc::clone(&self.schema),
                Box::new(BufWriter::new(SyncOnFlush(handle))),
            )?;
            self.files.insert(file.clone(), (temp, writer));
        }
        if let Some((_, writer)) = self.files.get_mut(&file) {
            writer.write(batch)?;
        }
        self.rows += batch.num_rows();
        Ok(())
    }

    /// Completes every file and renames it into place.
    fn finish(self) -> Result<Written> {
        let mut written = Written {
            rows: self.rows,
            ..Written::default()
        };
        for (file, (temp, mut writer)) in self.files {
            writer.finish()?;
            drop(writer);
            temp.replace(&file)?;
            written.files += 1;
            written.bytes += file_size(&file);
        }
        Ok(written)
    }
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}
