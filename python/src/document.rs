//! `simdnbt.Document`: the bytes stay in Rust; values are made into Python
//! objects only when asked for, and writing copies what was not edited.

use std::path::PathBuf;

use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use simdnbt::Encoding;
use simdnbt::compression::Compression;
use simdnbt::document::{self, DocValue};
use simdnbt::path::NbtPath;
use simdnbt::tag_id;

use crate::convert::{classes, py_str};
use crate::error::{nbt_error, other_error};
use crate::file::{Order, document_from_bytes_capped, parse_compression, read_path, write_atomic};

fn parse_path(text: &str) -> PyResult<NbtPath> {
    NbtPath::parse(text).map_err(|e| nbt_error(format!("NBT path {text:?}: {e}"), None))
}

fn order_of(doc: &document::Document) -> Order {
    match doc.encoding() {
        Encoding::BigEndian => Order::Big,
        Encoding::LittleEndian => Order::Little,
        Encoding::Network => Order::Network,
    }
}

fn byte_order(order: Order) -> Encoding {
    match order {
        Order::Big => Encoding::BigEndian,
        Order::Little => Encoding::LittleEndian,
        Order::Network => Encoding::Network,
    }
}

fn is_container(v: &DocValue<'_>) -> bool {
    matches!(v.id(), tag_id::COMPOUND | tag_id::LIST)
}

/// A document read from NBT (big- or little-endian, gzip, zlib or raw),
/// SNBT or typed JSON, kept as its bytes in Rust.
#[pyclass(module = "simdnbt")]
pub struct Document {
    doc: document::Document,
    compression: Compression,
    path: Option<PathBuf>,
}

impl Document {
    fn new(doc: document::Document, compression: Compression, path: Option<PathBuf>) -> Document {
        Document {
            doc,
            compression,
            path,
        }
    }

    fn root_compound(&self) -> PyResult<document::NbtCompound<'_>> {
        self.doc
            .as_compound()
            .ok_or_else(|| PyTypeError::new_err("the document's root is not a compound"))
    }

    /// The first value `path` selects, as Python (containers as views when
    /// `views`, with `owner` the document's Python object).
    fn lookup<'py>(
        &self,
        py: Python<'py>,
        owner: &Py<Document>,
        path: NbtPath,
        views: bool,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(v) = path.get(&self.doc) else {
            return Ok(None);
        };
        if views && is_container(&v) {
            let view = DocumentView {
                doc: owner.clone_ref(py),
                path,
            };
            return Ok(Some(Bound::new(py, view)?.into_any()));
        }
        Ok(Some(classes(py)?.value(py, v)?))
    }
}

/// A key or an index, as `doc[...]` takes it.
fn extend(path: &NbtPath, key: &Bound<'_, PyAny>) -> PyResult<NbtPath> {
    if let Ok(k) = key.cast::<PyString>() {
        // An NBT path names keys in Unicode: a key read from a lone
        // surrogate (which `keys()` gives exactly) has no path.
        let k = k.to_cow().map_err(|_| {
            PyKeyError::new_err(format!(
                "{}: a key holding a lone surrogate cannot be looked up in a Document \
                 (NBT paths name keys in Unicode); to_python() reads it",
                key.repr()
                    .map_or_else(|_| "the key".into(), |r| r.to_string())
            ))
        })?;
        return Ok(path.clone().with_key(k.into_owned()));
    }
    if let Ok(i) = key.extract::<usize>() {
        return Ok(path.clone().with_index(i));
    }
    Err(PyTypeError::new_err(
        "a document is indexed by str keys and int indices",
    ))
}

fn missing(key: &Bound<'_, PyAny>) -> PyErr {
    if key.extract::<usize>().is_ok() {
        PyIndexError::new_err(key.clone().unbind())
    } else {
        PyKeyError::new_err(key.clone().unbind())
    }
}

#[pymethods]
impl Document {
    /// Reads a file: gzip, zlib or raw (detected), big-endian by default;
    /// `byteorder="little"` for Bedrock files, `"network"` for its VarInt form.
    /// At most `max_inflated` bytes are inflated (256 MiB when None).
    #[staticmethod]
    #[pyo3(signature = (path, byteorder = "big", max_inflated = None))]
    fn read(
        py: Python<'_>,
        path: PathBuf,
        byteorder: &str,
        max_inflated: Option<usize>,
    ) -> PyResult<Document> {
        let order = Order::parse(byteorder)?;
        let cap = max_inflated.unwrap_or(simdnbt::DEFAULT_MAX_INFLATED);
        let (doc, compression) =
            py.detach(|| document_from_bytes_capped(read_path(&path)?, order, cap))?;
        Ok(Document::new(doc, compression, Some(path)))
    }

    /// Reads NBT bytes (gzip, zlib or raw, detected); at most `max_inflated`
    /// bytes are inflated (256 MiB when None).
    #[staticmethod]
    #[pyo3(signature = (data, byteorder = "big", max_inflated = None))]
    fn from_bytes(
        py: Python<'_>,
        data: Vec<u8>,
        byteorder: &str,
        max_inflated: Option<usize>,
    ) -> PyResult<Document> {
        let order = Order::parse(byteorder)?;
        let cap = max_inflated.unwrap_or(simdnbt::DEFAULT_MAX_INFLATED);
        let (doc, compression) = py.detach(|| document_from_bytes_capped(data, order, cap))?;
        Ok(Document::new(doc, compression, None))
    }

    /// A document of an SNBT compound (`{a: 1b}`), with an empty root name.
    #[staticmethod]
    fn from_snbt(text: &str) -> PyResult<Document> {
        let root =
            simdnbt::snbt::compound_from_str(text).map_err(|e| nbt_error(e.to_string(), None))?;
        let doc = document::Document::from_owned(&simdnbt::owned::BaseNbt::new("", root))
            .map_err(other_error)?;
        Ok(Document::new(doc, Compression::Raw, None))
    }

    /// A document of typed JSON (as `nbt convert --to json` writes it).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Document> {
        let nbt = simdnbt::json::from_str(text).map_err(other_error)?;
        let doc = document::Document::from_owned(&nbt).map_err(other_error)?;
        Ok(Document::new(doc, Compression::Raw, None))
    }

    /// A document holding `value` (a Compound or dict) as its root.
    #[staticmethod]
    #[pyo3(signature = (value, name = ""))]
    fn from_python(
        py: Python<'_>,
        value: &Bound<'_, pyo3::types::PyDict>,
        name: &str,
    ) -> PyResult<Document> {
        let root = classes(py)?.to_compound(value, 0)?;
        let doc = document::Document::from_owned(&simdnbt::owned::BaseNbt::new(name, root))
            .map_err(other_error)?;
        Ok(Document::new(doc, Compression::Raw, None))
    }

    /// The root's name (`""` in most files).
    #[getter]
    fn name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        py_str(py, self.doc.name())
    }

    /// How the file was stored: "gzip", "zlib" or "raw"; `write` keeps it.
    #[getter]
    fn compression(&self) -> &'static str {
        self.compression.name()
    }

    /// "big", "little" or "network".
    #[getter]
    fn byteorder(&self) -> &'static str {
        match order_of(&self.doc) {
            Order::Big => "big",
            Order::Little => "little",
            Order::Network => "network",
        }
    }

    /// A value of the root compound: containers as views (lazy), other
    /// values as tags.
    fn __getitem__<'py>(
        slf: &Bound<'py, Self>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let path = extend(&NbtPath::default(), key)?;
        let owner = slf.clone().unbind();
        slf.borrow()
            .lookup(py, &owner, path, true)?
            .ok_or_else(|| missing(key))
    }

    fn __contains__(&self, key: &str) -> bool {
        self.doc.contains(key)
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.root_compound()?.len())
    }

    /// The root compound's keys, in order.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        self.root_compound()?
            .keys()
            .map(|k| py_str(py, k))
            .collect()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.keys(py)?)?
            .try_iter()
            .map(|i| i.into_any())
    }

    /// The first value an NBT path selects (`Inventory[{Slot:0b}].id`),
    /// converted to tags, or `default`.
    #[pyo3(signature = (path, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let path = parse_path(path)?;
        match path.get_all(&self.doc).into_iter().next() {
            Some(v) => Ok(Some(classes(py)?.value(py, v)?)),
            None => Ok(default),
        }
    }

    /// Every value an NBT path selects, converted to tags.
    fn get_all<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let path = parse_path(path)?;
        let c = classes(py)?;
        path.get_all(&self.doc)
            .into_iter()
            .map(|v| c.value(py, v))
            .collect()
    }

    /// Sets every value an NBT path selects (creating a missing last key) to
    /// `value`; returns how many were set. Nothing changes on an error.
    fn set(&mut self, py: Python<'_>, path: &str, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        let tag = classes(py)?.to_tag(value, 0)?;
        parse_path(path)?
            .set(&mut self.doc, tag)
            .map_err(|e| nbt_error(e.to_string(), None))
    }

    /// Removes every value an NBT path selects; returns how many.
    fn remove(&mut self, path: &str) -> PyResult<usize> {
        Ok(parse_path(path)?.remove(&mut self.doc))
    }

    /// The NBT bytes, in the document's byte order unless `byteorder` says
    /// otherwise, compressed as `compression` ("gzip", "zlib", "raw"; by
    /// default as it was read).
    #[pyo3(signature = (compression = None, byteorder = None))]
    fn to_bytes<'py>(
        &self,
        py: Python<'py>,
        compression: Option<&str>,
        byteorder: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.encode(py, compression, byteorder)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes the document to `path` (by default the file it was read
    /// from), through a temporary file renamed over it.
    #[pyo3(signature = (path = None, compression = None, byteorder = None))]
    fn write(
        &self,
        py: Python<'_>,
        path: Option<PathBuf>,
        compression: Option<&str>,
        byteorder: Option<&str>,
    ) -> PyResult<()> {
        let path = path.or_else(|| self.path.clone()).ok_or_else(|| {
            PyTypeError::new_err("write: no path (the document was not read from a file)")
        })?;
        let bytes = self.encode(py, compression, byteorder)?;
        py.detach(|| write_atomic(&path, &bytes))?;
        Ok(())
    }

    /// The whole document as tags (a `Compound`, as `simdnbt.load` gives).
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = classes(py)?;
        match self.doc.as_compound() {
            Some(root) => Ok(c.compound(py, root, c.compound_class(py))?.into_any()),
            None => c.tag(py, self.doc.root()),
        }
    }

    /// SNBT of the root, compact or pretty.
    #[pyo3(signature = (pretty = false))]
    fn to_snbt(&self, pretty: bool) -> PyResult<String> {
        let text = if pretty {
            simdnbt::snbt::to_string_pretty(&self.doc)
        } else {
            simdnbt::snbt::to_string(&self.doc)
        };
        text.map_err(other_error)
    }

    /// Typed JSON (every type, order and float bit kept).
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> PyResult<String> {
        let nbt = self.doc.to_owned_nbt();
        let base = nbt
            .as_option()
            .ok_or_else(|| nbt_error("the document holds no compound", None))?;
        if pretty {
            let mut out = Vec::new();
            simdnbt::json::to_writer_pretty(&mut out, base).map_err(other_error)?;
            String::from_utf8(out).map_err(other_error)
        } else {
            simdnbt::json::to_string(base).map_err(other_error)
        }
    }

    fn __repr__(&self) -> String {
        let len = self.doc.as_compound().map_or(0, |c| c.len());
        format!(
            "<simdnbt.Document {:?}: {len} keys, {}>",
            self.doc.name().to_str(),
            self.compression.name()
        )
    }
}

impl Document {
    fn encode(
        &self,
        py: Python<'_>,
        compression: Option<&str>,
        byteorder: Option<&str>,
    ) -> PyResult<Vec<u8>> {
        let compression = compression
            .map(parse_compression)
            .transpose()?
            .unwrap_or(self.compression);
        let order = byteorder
            .map(Order::parse)
            .transpose()?
            .unwrap_or(order_of(&self.doc));
        Ok(py.detach(|| {
            let mut raw = Vec::new();
            self.doc
                .write_in(self.doc.form(), byte_order(order), &mut raw);
            match compression {
                Compression::Raw => raw,
                c => simdnbt::compression::compress(&raw, c),
            }
        }))
    }
}

/// A compound or list inside a [`Document`], by path: `doc["Data"]`. It
/// reads from the document each time, so it sees later edits.
#[pyclass(module = "simdnbt")]
pub struct DocumentView {
    doc: Py<Document>,
    path: NbtPath,
}

#[pymethods]
impl DocumentView {
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let path = extend(&self.path, key)?;
        self.doc
            .borrow(py)
            .lookup(py, &self.doc, path, true)?
            .ok_or_else(|| missing(key))
    }

    fn __contains__(&self, py: Python<'_>, key: &str) -> bool {
        let path = self.path.clone().with_key(key);
        !path.get_all(&self.doc.borrow(py).doc).is_empty()
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let doc = self.doc.borrow(py);
        match self.path.get_all(&doc.doc).into_iter().next() {
            Some(DocValue::Compound(c)) => Ok(c.len()),
            Some(DocValue::List(l)) => Ok(l.len()),
            Some(DocValue::Tag(t)) if t.id() == tag_id::COMPOUND => {
                Ok(t.compound().map_or(0, |c| c.len()))
            }
            Some(DocValue::Tag(t)) if t.id() == tag_id::LIST => Ok(t.list().map_or(0, |l| l.len())),
            _ => Err(PyKeyError::new_err(self.path.to_string())),
        }
    }

    /// The keys of a compound view.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyString>>> {
        let doc = self.doc.borrow(py);
        let c = match self.path.get_all(&doc.doc).into_iter().next() {
            Some(DocValue::Compound(c)) => Some(c),
            Some(DocValue::Tag(t)) => t.compound(),
            _ => None,
        };
        let c =
            c.ok_or_else(|| PyTypeError::new_err(format!("{} is not a compound", self.path)))?;
        c.keys().map(|k| py_str(py, k)).collect()
    }

    /// The first value a path below this one selects, or `default`.
    #[pyo3(signature = (path, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        path: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let full = parse_path(&format!("{}.{path}", self.path))?;
        let doc = self.doc.borrow(py);
        match full.get_all(&doc.doc).into_iter().next() {
            Some(v) => Ok(Some(classes(py)?.value(py, v)?)),
            None => Ok(default),
        }
    }

    /// The NBT path of this view in its document.
    #[getter]
    fn path(&self) -> String {
        self.path.to_string()
    }

    /// This value as tags.
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let doc = self.doc.borrow(py);
        let v = self
            .path
            .get_all(&doc.doc)
            .into_iter()
            .next()
            .ok_or_else(|| PyKeyError::new_err(self.path.to_string()))?;
        classes(py)?.value(py, v)
    }

    fn __repr__(&self) -> String {
        format!("<simdnbt.DocumentView {}>", self.path)
    }
}

impl Document {
    /// A document of a region's chunk.
    pub fn from_parts(doc: document::Document, compression: Compression) -> Document {
        Document::new(doc, compression, None)
    }

    /// The uncompressed bytes in the document's own form.
    pub fn raw_bytes(&self) -> Vec<u8> {
        self.doc.to_bytes()
    }
}
