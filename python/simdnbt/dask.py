"""A world as a Dask DataFrame: one partition per region file (and per
player or level file), each read by :func:`simdnbt.scan` on whichever
worker runs it. On a ``dask.distributed`` cluster the world must be at the
same path on every worker (a shared or network file system)."""

from __future__ import annotations

import os

from . import _native
from .arrow import _Stream, scan

__all__ = ["read_world"]


def _read_partition(index, world, table, columns, rows, custom):
    return scan(world, table, columns, rows=rows, custom=custom, partition=index,
                threads=1).to_pandas()


def read_world(path, table="chunks", columns=None, *, rows=None, custom=None):
    """A Dask DataFrame of one of the world's tables (see :func:`simdnbt.tables`),
    with ``columns`` (all by default), or of a custom table (``rows``,
    ``custom`` as in :func:`simdnbt.scan`)."""
    import dask.dataframe as dd
    import pyarrow as pa

    world = os.fspath(path)
    columns = None if columns is None else list(columns)
    custom = None if custom is None else [tuple(c) for c in custom]
    meta = pa.RecordBatchReader.from_stream(
        _Stream(_native.schema_stream(table if rows is None else None, columns, rows, custom))
    ).read_all().to_pandas()
    parts = range(len(_native.partitions(world)))
    return dd.from_map(
        _read_partition, parts, world=world, table=table, columns=columns, rows=rows,
        custom=custom, meta=meta, enforce_metadata=False,
    )
