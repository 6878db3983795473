//! Whole files and byte strings to and from the nbtlib-style tree, and SNBT.

use std::io::Cursor;
use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyType};
use pyo3::{ffi, intern};
use simdnbt::Mutf8String;
use simdnbt::compression::{self, Compression};
use simdnbt::document::Document;
use simdnbt::owned;

use crate::convert::{classes, mutf8_of, py_str};
use crate::error::{nbt_error, other_error};

/// The byte order of binary NBT: Java's big-endian, Bedrock's little-endian
/// (files) or its network form (VarInts, packets).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Big,
    Little,
    Network,
}

impl Order {
    pub fn parse(name: &str) -> PyResult<Order> {
        match name {
            "big" => Ok(Order::Big),
            "little" => Ok(Order::Little),
            "network" => Ok(Order::Network),
            _ => Err(PyValueError::new_err(format!(
                "byteorder {name:?}: expected \"big\", \"little\" or \"network\""
            ))),
        }
    }
}

pub fn parse_compression(name: &str) -> PyResult<Compression> {
    match name {
        "gzip" => Ok(Compression::Gzip),
        "zlib" => Ok(Compression::Zlib),
        "raw" | "none" => Ok(Compression::Raw),
        _ => Err(PyValueError::new_err(format!(
            "compression {name:?}: expected \"gzip\", \"zlib\" or \"raw\""
        ))),
    }
}

/// Inflates `bytes` if they are gzip or zlib (capped as the library caps
/// it), then reads them as one document in `order`. Runs without the GIL.
pub fn document_from_bytes(
    bytes: Vec<u8>,
    order: Order,
) -> Result<(Document, Compression), Failure> {
    document_from_bytes_capped(bytes, order, simdnbt::DEFAULT_MAX_INFLATED)
}

/// [`document_from_bytes`], inflating at most `max_inflated` bytes.
pub fn document_from_bytes_capped(
    bytes: Vec<u8>,
    order: Order,
    max_inflated: usize,
) -> Result<(Document, Compression), Failure> {
    let compression = compression::detect(&bytes);
    let opts = simdnbt::ReadOptions::default().max_inflated_bytes(max_inflated);
    let raw = match compression {
        Compression::Raw => bytes,
        _ => compression::decompress_with(&bytes, &opts)
            .map_err(|e| Failure::Nbt(e.to_string(), Some(e.offset())))?
            .into_owned(),
    };
    let doc = match order {
        Order::Big => Document::from_vec(raw),
        Order::Little => simdnbt::bedrock::document::from_vec_le(raw),
        Order::Network => simdnbt::bedrock::document::read_network(&mut Cursor::new(&raw)),
    }
    .map_err(|e| Failure::Nbt(e.to_string(), Some(e.offset())))?
    .ok_or_else(|| Failure::Nbt("the input holds no value (a lone End tag)".into(), Some(0)))?;
    Ok((doc, compression))
}

/// An error made without the GIL, raised once it is held again.
pub enum Failure {
    Io(String),
    Nbt(String, Option<usize>),
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> PyErr {
        match f {
            Failure::Io(m) => PyOSError::new_err(m),
            Failure::Nbt(m, offset) => nbt_error(m, offset),
        }
    }
}

pub fn read_path(path: &PathBuf) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Io(format!("{}: {e}", path.display())))
}

/// The root of a document as Python: a compound as an instance of `cls`.
/// `size`: the bytes it was read from (compressed or not), to tell a large
/// tree.
fn root_to_py<'py>(
    py: Python<'py>,
    doc: &Document,
    cls: &Bound<'py, PyType>,
    size: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let c = classes(py)?;
    let _gc = c.pause_gc(py, size);
    match doc.as_compound() {
        Some(root) => Ok(c.compound(py, root, cls)?.into_any()),
        None => c.tag(py, doc.root()),
    }
}

type Loaded<'py> = (Bound<'py, PyString>, &'static str, Bound<'py, PyAny>);

/// `(root name, compression, root)` of NBT bytes; the root compound is an
/// instance of `cls`. `max_inflated`: the cap on inflated bytes (the
/// library's default when None).
#[pyfunction]
#[pyo3(signature = (data, byteorder, cls, max_inflated = None))]
pub fn read_bytes<'py>(
    py: Python<'py>,
    data: Vec<u8>,
    byteorder: &str,
    cls: &Bound<'py, PyType>,
    max_inflated: Option<usize>,
) -> PyResult<Loaded<'py>> {
    let order = Order::parse(byteorder)?;
    let size = data.len();
    let cap = max_inflated.unwrap_or(simdnbt::DEFAULT_MAX_INFLATED);
    let (doc, compression) = py.detach(|| document_from_bytes_capped(data, order, cap))?;
    Ok((
        py_str(py, doc.name())?,
        compression.name(),
        root_to_py(py, &doc, cls, size)?,
    ))
}

/// `File.load`: the root compound of the file at `filename` as an instance
/// of `cls` (a `File`), with its `filename`, `byteorder`, `root_name` and
/// `compression` set. All in one call: for a small file, the Python frames
/// around a read cost as much as the read. `max_inflated`: as in
/// [`read_bytes`].
#[pyfunction]
#[pyo3(signature = (filename, byteorder, cls, max_inflated = None))]
pub fn load_file<'py>(
    py: Python<'py>,
    filename: &Bound<'py, PyAny>,
    byteorder: &Bound<'py, PyString>,
    cls: &Bound<'py, PyType>,
    max_inflated: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: a live object; the result is a new reference (a str or
    // bytes) or NULL with an exception set.
    let fspath = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyOS_FSPath(filename.as_ptr()))? };
    let path: PathBuf = fspath.extract()?;
    let order = Order::parse(&byteorder.to_cow()?)?;
    let (doc, compression, size) = py.detach(|| {
        let data = read_path(&path)?;
        let size = data.len();
        let cap = max_inflated.unwrap_or(simdnbt::DEFAULT_MAX_INFLATED);
        document_from_bytes_capped(data, order, cap).map(|(doc, c)| (doc, c, size))
    })?;
    let root = root_to_py(py, &doc, cls, size)?;
    if !root.is_instance(cls)? {
        return Err(nbt_error("the root of the file is not a compound", None));
    }
    root.setattr(intern!(py, "filename"), fspath)?;
    root.setattr(intern!(py, "byteorder"), byteorder)?;
    root.setattr(intern!(py, "root_name"), py_str(py, doc.name())?)?;
    root.setattr(intern!(py, "compression"), compression.name())?;
    Ok(root)
}

/// The NBT bytes of a root compound named `name`.
pub fn encode(
    root: owned::NbtCompound,
    name: Mutf8String,
    compression: Compression,
    order: Order,
) -> PyResult<Vec<u8>> {
    let nbt = owned::Nbt::Some(owned::BaseNbt::new(name, root));
    let mut raw = Vec::new();
    match order {
        Order::Big => nbt.write(&mut raw),
        Order::Little => simdnbt::bedrock::owned::write_le(&nbt, &mut raw),
        Order::Network => simdnbt::bedrock::owned::write_network(&nbt, &mut raw),
    }
    .map_err(other_error)?;
    Ok(match compression {
        Compression::Raw => raw,
        _ => compression::compress(&raw, compression),
    })
}

#[pyfunction]
pub fn write_bytes<'py>(
    py: Python<'py>,
    root: &Bound<'py, PyDict>,
    name: &Bound<'py, PyString>,
    compression: &str,
    byteorder: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let compound = classes(py)?.to_compound(root, 0)?;
    let name = mutf8_of(name)?;
    let (compression, order) = (parse_compression(compression)?, Order::parse(byteorder)?);
    let bytes = py.detach(|| encode(compound, name, compression, order))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// renamed over it: a crash leaves the old file or the new one, never half.
pub fn write_atomic(path: &PathBuf, bytes: &[u8]) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::Io(format!("{}: {e}", path.display()));
    let mut tmp = path.clone().into_os_string();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

#[pyfunction]
pub fn write_file(
    py: Python<'_>,
    path: PathBuf,
    root: &Bound<'_, PyDict>,
    name: &Bound<'_, PyString>,
    compression: &str,
    byteorder: &str,
) -> PyResult<()> {
    let compound = classes(py)?.to_compound(root, 0)?;
    let name = mutf8_of(name)?;
    let (compression, order) = (parse_compression(compression)?, Order::parse(byteorder)?);
    py.detach(|| -> PyResult<()> {
        let bytes = encode(compound, name, compression, order)?;
        Ok(write_atomic(&path, &bytes)?)
    })
}

/// An SNBT text as a tag.
#[pyfunction]
pub fn parse_snbt<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let tag = simdnbt::snbt::from_str(text).map_err(|e| nbt_error(e.to_string(), None))?;
    let doc = Document::from_owned_tag(&tag).map_err(other_error)?;
    classes(py)?.tag(py, doc.root())
}

/// A value as SNBT, compact or pretty.
#[pyfunction]
#[pyo3(signature = (value, pretty = false))]
pub fn to_snbt(py: Python<'_>, value: &Bound<'_, PyAny>, pretty: bool) -> PyResult<String> {
    let tag = classes(py)?.to_tag(value, 0)?;
    let text = if pretty {
        simdnbt::snbt::to_string_pretty(&tag)
    } else {
        simdnbt::snbt::to_string(&tag)
    };
    text.map_err(other_error)
}
