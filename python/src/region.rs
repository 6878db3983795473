//! `simdnbt.Region`: a region file (`r.X.Z.mca`) as a mapping from chunk
//! positions `(x, z)` (0..32 within the region) to documents.

use std::path::PathBuf;

use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use simdnbt::compression::Compression;
use simdnbt::region::{self, ChunkCompression};

use crate::document::Document;
use crate::error::nbt_error;
use crate::file::{Failure, Order, document_from_bytes};

fn region_error(e: region::RegionError) -> PyErr {
    nbt_error(e.to_string(), None)
}

#[pyclass(module = "simdnbt")]
pub struct Region {
    region: region::Region,
    path: Option<PathBuf>,
}

fn chunk_compression(name: &str) -> PyResult<ChunkCompression> {
    Ok(match name {
        "zlib" => ChunkCompression::Zlib,
        "gzip" => ChunkCompression::Gzip,
        "raw" | "none" => ChunkCompression::Uncompressed,
        "lz4" => ChunkCompression::Lz4,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "chunk compression {name:?}: expected \"zlib\", \"gzip\", \"raw\" or \"lz4\""
            )));
        }
    })
}

#[pymethods]
impl Region {
    /// Opens a region file; with no path, an empty region (`save(path)` writes it).
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Region> {
        let region = match &path {
            Some(p) => py
                .detach(|| region::Region::open(p))
                .map_err(region_error)?,
            None => region::Region::new(),
        };
        Ok(Region { region, path })
    }

    /// The positions `(x, z)` of the chunks present, in file header order.
    fn positions(&self) -> Vec<(u8, u8)> {
        self.region.chunks().map(|c| (c.pos.x, c.pos.z)).collect()
    }

    fn __len__(&self) -> usize {
        self.region.len()
    }

    fn __contains__(&self, pos: (i32, i32)) -> bool {
        self.region.info(pos.0, pos.1).is_some()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pyo3::types::PyList::new(py, self.positions())?
            .try_iter()?
            .into_any())
    }

    /// Chunk `(x, z)` as a document, or None if absent. Only the low five
    /// bits of x and z count, so world chunk coordinates work too.
    fn chunk(&self, py: Python<'_>, x: i32, z: i32) -> PyResult<Option<Document>> {
        let bytes = py
            .detach(|| self.region.chunk(x, z))
            .map_err(region_error)?;
        let Some(bytes) = bytes else { return Ok(None) };
        let (doc, _) = py
            .detach(|| document_from_bytes(bytes, Order::Big))
            .map_err(|f| match f {
                Failure::Nbt(m, off) => nbt_error(format!("chunk ({x}, {z}): {m}"), off),
                other => other.into(),
            })?;
        Ok(Some(Document::from_parts(doc, Compression::Raw)))
    }

    fn __getitem__(&self, py: Python<'_>, pos: (i32, i32)) -> PyResult<Document> {
        self.chunk(py, pos.0, pos.1)?
            .ok_or_else(|| PyKeyError::new_err(pos))
    }

    /// `((x, z), document)` for every chunk present.
    fn items(&self, py: Python<'_>) -> PyResult<Vec<((u8, u8), Document)>> {
        let mut out = Vec::new();
        for (x, z) in self.positions() {
            if let Some(doc) = self.chunk(py, x.into(), z.into())? {
                out.push(((x, z), doc));
            }
        }
        Ok(out)
    }

    /// Stores a chunk: a `Document`, or a `Compound`/dict; zlib unless
    /// `compression` says "gzip", "raw" or "lz4".
    #[pyo3(signature = (x, z, chunk, compression = "zlib"))]
    fn write_chunk(
        &mut self,
        py: Python<'_>,
        x: i32,
        z: i32,
        chunk: &Bound<'_, PyAny>,
        compression: &str,
    ) -> PyResult<()> {
        let bytes = chunk_bytes(py, chunk)?;
        let c = chunk_compression(compression)?;
        let region = &mut self.region;
        py.detach(|| region.write_chunk(x, z, &bytes, c))
            .map_err(region_error)
    }

    fn __setitem__(
        &mut self,
        py: Python<'_>,
        pos: (i32, i32),
        chunk: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.write_chunk(py, pos.0, pos.1, chunk, "zlib")
    }

    /// Removes chunk `(x, z)`; returns whether it was there.
    fn remove_chunk(&mut self, x: i32, z: i32) -> bool {
        self.region.remove_chunk(x, z)
    }

    fn __delitem__(&mut self, pos: (i32, i32)) -> PyResult<()> {
        if self.region.remove_chunk(pos.0, pos.1) {
            Ok(())
        } else {
            Err(PyKeyError::new_err(pos))
        }
    }

    /// Writes the region to `path` (by default the file it was opened from).
    #[pyo3(signature = (path = None))]
    fn save(&mut self, py: Python<'_>, path: Option<PathBuf>) -> PyResult<()> {
        let path = path.or_else(|| self.path.clone()).ok_or_else(|| {
            PyTypeError::new_err("save: no path (the region was not opened from a file)")
        })?;
        let region = &mut self.region;
        py.detach(|| region.save(&path)).map_err(region_error)
    }

    fn __repr__(&self) -> String {
        match &self.path {
            Some(p) => format!(
                "<simdnbt.Region {}: {} chunks>",
                p.display(),
                self.region.len()
            ),
            None => format!("<simdnbt.Region: {} chunks>", self.region.len()),
        }
    }
}

/// The uncompressed NBT bytes of a chunk given as a Document or a dict.
fn chunk_bytes(py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(doc) = chunk.cast::<Document>() {
        return Ok(doc.borrow().raw_bytes());
    }
    let dict = chunk
        .cast::<pyo3::types::PyDict>()
        .map_err(|_| PyTypeError::new_err("a chunk is a Document or a Compound"))?;
    let root = crate::convert::classes(py)?.to_compound(dict, 0)?;
    crate::file::encode(root, "".into(), Compression::Raw, Order::Big)
}
