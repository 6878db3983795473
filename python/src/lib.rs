//! `simdnbt._native`: the Rust half of the Python package `simdnbt`.
//!
//! The tag classes (`Byte` … `Compound`, subclasses of Python's builtins) are
//! defined in Python (`simdnbt/tag.py`) and handed to this module once at
//! import (`convert::register`); the readers build instances of them
//! directly, without running their Python constructors.

mod convert;
mod document;
mod error;
mod file;
mod region;
mod scan;

use pyo3::prelude::*;

/// The extension's Rust allocations (chunk buffers, Arrow arrays, trees
/// being converted) through mimalloc, as in the `nbt` tool; see the
/// `mimalloc` feature in Cargo.toml.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NbtError", py.get_type::<error::NbtError>())?;
    m.add_function(wrap_pyfunction!(convert::register, m)?)?;
    m.add_function(wrap_pyfunction!(file::read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(file::load_file, m)?)?;
    m.add_function(wrap_pyfunction!(file::write_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(file::write_file, m)?)?;
    m.add_function(wrap_pyfunction!(file::parse_snbt, m)?)?;
    m.add_function(wrap_pyfunction!(file::to_snbt, m)?)?;
    m.add_class::<document::Document>()?;
    m.add_class::<document::DocumentView>()?;
    m.add_class::<region::Region>()?;
    m.add_function(wrap_pyfunction!(scan::scan_stream, m)?)?;
    m.add_function(wrap_pyfunction!(scan::partitions, m)?)?;
    m.add_function(wrap_pyfunction!(scan::schema_stream, m)?)?;
    m.add_function(wrap_pyfunction!(scan::table_names, m)?)?;
    Ok(())
}
