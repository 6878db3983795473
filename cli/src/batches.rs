//! Arrow batches written out, for `nbt sql` and `nbt export`: in one of
//! the formats ([`Format`], [`Writer`]), to stdout or to a file written
//! whole to a temporary file beside it and renamed ([`Output`]), so an
//! interrupted command leaves no half-written file.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;

use crate::failure::{Failure, Result};
use crate::store::TempFile;

/// `nbt sql --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns, as on a terminal
    Table,
    /// CSV with a header line
    Csv,
    /// One JSON object per row and line
    Json,
    /// A Parquet file (needs -o, or stdout not a terminal)
    Parquet,
}

/// Writes batches in one of the output formats.
pub enum Writer<'w> {
    /// Batches kept until the end: the column widths need every row. The
    /// schema gives the header when no row came.
    Table(Vec<RecordBatch>, SchemaRef, Box<dyn std::io::Write + 'w>),
    /// CSV, and the schema while no batch came: the header of an empty
    /// answer, as the table has.
    Csv(
        datafusion::arrow::csv::Writer<Box<dyn std::io::Write + 'w>>,
        Option<SchemaRef>,
    ),
    Json(datafusion::arrow::json::LineDelimitedWriter<Box<dyn std::io::Write + 'w>>),
    Parquet(parquet::arrow::ArrowWriter<Box<dyn std::io::Write + Send + 'w>>),
}

impl<'w> Writer<'w> {
    /// A writer of `format` for batches of `schema` into `out`.
    pub fn new(
        format: Format,
        schema: SchemaRef,
        out: Box<dyn std::io::Write + Send + 'w>,
    ) -> Result<Self> {
        Ok(match format {
            Format::Table => Writer::Table(Vec::new(), schema, out),
            Format::Csv => Writer::Csv(datafusion::arrow::csv::Writer::new(out), Some(schema)),
            Format::Json => Writer::Json(datafusion::arrow::json::LineDelimitedWriter::new(out)),
            Format::Parquet => Writer::Parquet(
                parquet::arrow::ArrowWriter::try_new(out, schema, Some(parquet_properties()))
                    .map_err(|e| Failure::new(format!("cannot write Parquet: {e}")))?,
            ),
        })
    }

    /// Writes `batch` (for a table: keeps it).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let fail =
            |e: &dyn std::fmt::Display| Failure::new(format!("cannot write the result: {e}"));
        match self {
            Writer::Table(batches, _, _) => {
                batches.push(batch.clone());
                Ok(())
            }
            Writer::Csv(w, schema) => {
                *schema = None;
                w.write(batch).map_err(|e| fail(&e))
            }
            Writer::Json(w) => w.write(batch).map_err(|e| fail(&e)),
            Writer::Parquet(w) => w.write(batch).map_err(|e| fail(&e)),
        }
    }

    /// Writes what is left (a table: all of it; Parquet: its footer).
    pub fn finish(&mut self) -> Result<()> {
        let fail =
            |e: &dyn std::fmt::Display| Failure::new(format!("cannot write the result: {e}"));
        match self {
            Writer::Table(batches, schema, out) => {
                if batches.is_empty() {
                    batches.push(RecordBatch::new_empty(schema.clone()));
                }
                let text = datafusion::arrow::util::pretty::pretty_format_batches(batches)
                    .map_err(|e| fail(&e))?;
                writeln!(out, "{text}")
                    .and_then(|()| out.flush())
                    .or_else(broken_pipe)
            }
            // The header line (arrow writes it before the first batch).
            Writer::Csv(w, schema) => match schema.take() {
                Some(schema) => w
                    .write(&RecordBatch::new_empty(schema))
                    .map_err(|e| fail(&e)),
                None => Ok(()),
            },
            Writer::Json(w) => w.finish().map_err(|e| fail(&e)),
            Writer::Parquet(w) => w.finish().map(drop).map_err(|e| fail(&e)),
        }
    }
}

/// A closed pipe (`nbt sql ... | head`) is not an error.
fn broken_pipe(e: std::io::Error) -> Result<()> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(Failure::new(format!("cannot write the result: {e}")))
    }
}

/// How every Parquet file `nbt` writes is encoded: zstd, which Spark,
/// DuckDB, pyarrow and Polars all read.
pub fn parquet_properties() -> parquet::file::properties::WriterProperties {
    parquet::file::properties::WriterProperties::builder()
        .set_compression(parquet::basic::Compression::ZSTD(Default::default()))
        .build()
}

/// Where `nbt sql` writes its result: stdout, or a file written whole to a
/// temporary file beside it and renamed by [`Output::commit`] (dropped
/// before that, the temporary file is removed).
pub struct Output {
    file: Option<(TempFile, PathBuf)>,
}

impl Output {
    /// Output to `path`, or stdout.
    pub fn create(path: Option<&Path>) -> Result<Self> {
        Ok(Output {
            file: match path {
                None => None,
                Some(p) => Some((TempFile::beside(p, "tmp")?, p.to_owned())),
            },
        })
    }

    /// A writer into it (buffered; a closed stdout pipe swallows the rest).
    pub fn writer(&mut self) -> Result<Box<dyn Write + Send + 'static>> {
        Ok(match &self.file {
            None => Box::new(Pipe(BufWriter::new(std::io::stdout()))),
            Some((temp, _)) => Box::new(BufWriter::new(SyncOnFlush(temp.create()?))),
        })
    }

    /// Puts the file in place (a no-op for stdout).
    pub fn commit(self) -> Result<()> {
        match self.file {
            None => Ok(()),
            Some((temp, path)) => temp.replace(&path),
        }
    }
}

/// Stdout for results: a reader that went away (`| head`) is not an error,
/// the rest of the output is dropped.
struct Pipe<W>(W);

impl<W: Write> Write for Pipe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(buf.len()),
            other => other,
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }
}

/// A file that is on disk, not only in the page cache, once flushed:
/// renamed after that, it cannot come back empty after a power cut.
pub struct SyncOnFlush(pub std::fs::File);

impl Write for SyncOnFlush {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.sync_all()
    }
}
