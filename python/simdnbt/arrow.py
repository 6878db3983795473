"""Worlds as Arrow tables."""

from __future__ import annotations

import os
import warnings as _warnings

from . import _native

__all__ = ["scan", "tables", "ScanWarning"]


class ScanWarning(UserWarning):
    """A chunk or file that could not be read; the scan went on without it."""


class _Stream:
    """An Arrow C stream (``__arrow_c_stream__``), for pyarrow, Polars, DuckDB."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_stream__(self, requested_schema=None):
        capsule, self._capsule = self._capsule, None
        if capsule is None:
            raise RuntimeError("an Arrow stream is read once")
        return capsule


def tables():
    """The built-in tables' names (``chunks``, ``entities``, ...)."""
    return list(_native.table_names())


def scan(world, table="chunks", columns=None, *, rows=None, custom=None, threads=None,
         partition=None):
    """A world (folder, region file or NBT file) as a ``pyarrow.Table``.

    ``table`` is a built-in table (:func:`tables`); ``columns`` the columns
    wanted (all by default; the others are not decoded). A custom table:
    ``rows`` an NBT path to each row (``"Inventory[]"``) and ``custom`` a
    list of ``(column name, path below the row)``. Rust scans every region
    file in parallel with the GIL released; the batches reach pyarrow
    through the Arrow C stream interface, without a copy. Chunks that
    cannot be read are skipped with a :class:`ScanWarning`.
    """
    import pyarrow as pa

    capsule, problems = _native.scan_stream(
        os.fspath(world), table if rows is None else None,
        None if columns is None else list(columns), rows,
        None if custom is None else [tuple(c) for c in custom], partition, threads,
    )
    for p in problems:
        _warnings.warn(p, ScanWarning, stacklevel=2)
    return pa.RecordBatchReader.from_stream(_Stream(capsule)).read_all()
