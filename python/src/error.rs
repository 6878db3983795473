//! `simdnbt.NbtError`: every failure to read or write NBT, with the byte
//! offset where the reader stopped when there is one.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    simdnbt,
    NbtError,
    PyValueError,
    "An input that is not valid NBT (or SNBT, JSON, a region file), or a value that cannot be written as NBT. `offset` is the byte offset the reader stopped at (in the decompressed bytes for gzip and zlib input), or None."
);

/// An `NbtError` with `message`, and `offset` as its attribute.
pub fn nbt_error(message: impl Into<String>, offset: Option<usize>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let err = NbtError::new_err(message);
        // Setting an attribute on a fresh exception object cannot fail but
        // for lack of memory, which the next call reports anyway.
        let _ = err.value(py).setattr("offset", offset);
        err
    })
}

/// Any other error of the library, without an offset of its own.
pub fn other_error(e: impl std::fmt::Display) -> PyErr {
    nbt_error(e.to_string(), None)
}
