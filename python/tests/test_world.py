"""Regions, scans into pyarrow / DuckDB, and Dask, checked against `nbt sql`."""

import csv
import io
import subprocess

import pytest

import simdnbt


def sql_count(nbt, world, table):
    out = subprocess.run(
        [nbt, "sql", str(world), f"SELECT count(*) AS n FROM {table}", "--format", "csv"],
        capture_output=True, text=True,
    )
    assert out.returncode in (0, 2), out.stderr  # 2: the broken chunk, skipped
    return int(next(csv.DictReader(io.StringIO(out.stdout)))["n"])


def test_region_read_edit_save(world, tmp_path):
    path = next((world / "region").glob("r.0.0.mca"))
    region = simdnbt.Region(path)
    positions = list(region)
    assert positions and len(region) == len(positions)
    x, z = positions[0]
    chunk = region[x, z]
    assert isinstance(chunk, simdnbt.Document) and (x, z) in region
    assert chunk.set("simdnbt_test", simdnbt.Int(42)) == 1
    region[x, z] = chunk
    del region[positions[-1]]
    region.save(tmp_path / "r.0.0.mca")
    again = simdnbt.Region(tmp_path / "r.0.0.mca")
    assert again[x, z].get("simdnbt_test") == 42
    assert len(again) == len(positions) - 1 and positions[-1] not in again
    with pytest.raises(KeyError):
        again[positions[-1]]


def test_scan_counts_equal_nbt_sql(world, nbt):
    pa = pytest.importorskip("pyarrow")
    for table in ("chunks", "entities", "block_entities", "items"):
        with pytest.warns(simdnbt.arrow.ScanWarning) if table == "chunks" else _nothing():
            t = simdnbt.scan(world, table=table)
        assert isinstance(t, pa.Table)
        assert t.num_rows == sql_count(nbt, world, table), table


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_scan_columns_and_duckdb(world):
    duckdb = pytest.importorskip("duckdb")
    entities = simdnbt.scan(world, table="entities", columns=["id", "x"])
    assert entities.schema.names == ["id", "x"]
    n = duckdb.sql("SELECT count(*) FROM entities").fetchall()[0][0]
    assert n == entities.num_rows
    with pytest.raises(ValueError, match="no column"):
        simdnbt.scan(world, table="entities", columns=["nope"])
    with pytest.raises(ValueError, match="no table"):
        simdnbt.scan(world, table="nope")


def test_dask_local_cluster_two_processes(world, nbt):
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("dask.distributed")
    from simdnbt.dask import read_world

    expected = sql_count(nbt, world, "entities")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster):
            df = read_world(world, table="entities", columns=["id", "x"])
            assert df.npartitions == len(simdnbt._native.partitions(str(world)))
            assert len(df) == expected
            by_id = df.groupby("id").size().compute()
            assert int(by_id.sum()) == expected
