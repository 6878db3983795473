//! `simdnbt.scan`: a world's table as an Arrow stream (the C stream
//! interface, in a PyCapsule), which pyarrow imports without a copy.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use simdnbt_arrow::{ScanOptions, Source, Table};

use crate::error::other_error;

fn table_of(
    name: Option<&str>,
    rows: Option<&str>,
    custom: Option<Vec<(String, String)>>,
) -> PyResult<Table> {
    if let Some(rows) = rows {
        return Table::custom(rows, &custom.unwrap_or_default()).map_err(other_error);
    }
    let name = name.unwrap_or("chunks");
    Table::builtin(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no table {name:?}; the tables are {}",
            Table::builtin_names().join(", ")
        ))
    })
}

/// The table asked for, the options that project its `columns`, and the
/// schema of the batches.
fn prepare(
    table: Option<&str>,
    columns: Option<Vec<String>>,
    rows: Option<&str>,
    custom: Option<Vec<(String, String)>>,
) -> PyResult<(Table, ScanOptions, SchemaRef)> {
    let table = table_of(table, rows, custom)?;
    let schema = table.schema();
    let Some(cols) = columns else {
        return Ok((table, ScanOptions::default(), schema));
    };
    let mut idx = Vec::with_capacity(cols.len());
    for c in &cols {
        idx.push(schema.index_of(c).map_err(|_| {
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            PyValueError::new_err(format!(
                "table {:?} has no column {c:?}; its columns are {}",
                table.name(),
                names.join(", ")
            ))
        })?);
    }
    let projected = Arc::new(schema.project(&idx).map_err(other_error)?);
    Ok((
        table,
        ScanOptions::default().with_projection(idx),
        projected,
    ))
}

fn capsule(
    py: Python<'_>,
    batches: Vec<RecordBatch>,
    schema: SchemaRef,
) -> PyResult<Bound<'_, PyCapsule>> {
    let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let stream = FFI_ArrowArrayStream::new(Box::new(reader));
    PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
}

/// A stream of no batches with the schema [`scan_stream`] would give: what
/// Dask needs to plan without reading.
#[pyfunction]
#[pyo3(signature = (table = None, columns = None, rows = None, custom = None))]
pub fn schema_stream<'py>(
    py: Python<'py>,
    table: Option<&str>,
    columns: Option<Vec<String>>,
    rows: Option<&str>,
    custom: Option<Vec<(String, String)>>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let (_, _, schema) = prepare(table, columns, rows, custom)?;
    capsule(py, Vec::new(), schema)
}

/// Scans `world` (a world folder, a region file or an NBT file): every
/// partition in parallel, or only partition `partition` (an index into
/// [`partitions`]). The GIL is released for the whole scan. Returns the
/// stream capsule and the warnings (chunks that could not be read).
#[pyfunction]
#[pyo3(signature = (world, table = None, columns = None, rows = None, custom = None, partition = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn scan_stream<'py>(
    py: Python<'py>,
    world: PathBuf,
    table: Option<&str>,
    columns: Option<Vec<String>>,
    rows: Option<&str>,
    custom: Option<Vec<(String, String)>>,
    partition: Option<usize>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyCapsule>, Vec<String>)> {
    let (table, mut opts, projected) = prepare(table, columns, rows, custom)?;
    if let Some(threads) = threads {
        opts = opts.with_threads(threads);
    }
    let (batches, warnings) = py
        .detach(|| -> Result<(Vec<RecordBatch>, Vec<String>), String> {
            let source = Source::open(&world).map_err(|e| e.to_string())?;
            match partition {
                None => {
                    let mut scan = simdnbt_arrow::scan(&source, &table, &opts);
                    let batches = scan
                        .by_ref()
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| e.to_string())?;
                    let warnings = scan.warnings().iter().map(|w| w.to_string()).collect();
                    Ok((batches, warnings))
                }
                Some(i) => {
                    let part = source.partitions().get(i).ok_or_else(|| {
                        format!(
                            "partition {i}: {} has {}",
                            world.display(),
                            source.partitions().len()
                        )
                    })?;
                    let mut scan = simdnbt_arrow::scan_partition(&table, part, &opts)
                        .map_err(|e| e.to_string())?;
                    let batches = scan
                        .by_ref()
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| e.to_string())?;
                    let warnings = scan.warnings().iter().map(|w| w.to_string()).collect();
                    Ok((batches, warnings))
                }
            }
        })
        .map_err(|m| crate::error::nbt_error(m, None))?;
    Ok((capsule(py, batches, projected)?, warnings))
}

/// `(path, dimension, kind, region x, region z)`: one partition.
type PartitionInfo = (String, String, &'static str, Option<i32>, Option<i32>);

/// Every partition of `world`, in the order [`scan_stream`]'s `partition` counts them.
#[pyfunction]
pub fn partitions(py: Python<'_>, world: PathBuf) -> PyResult<Vec<PartitionInfo>> {
    let source = py.detach(|| Source::open(&world)).map_err(other_error)?;
    Ok(source
        .partitions()
        .iter()
        .map(|p| {
            (
                p.path.display().to_string(),
                p.dimension.clone(),
                p.kind.name(),
                p.region.map(|r| r.0),
                p.region.map(|r| r.1),
            )
        })
        .collect())
}

/// The built-in tables' names.
#[pyfunction]
pub fn table_names() -> Vec<&'static str> {
    Table::builtin_names().to_vec()
}
