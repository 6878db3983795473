"""Regions, scans into pyarrow / DuckDB, and Dask, checked against `nbt sql`."""

import csv
import io
import subprocess
import time

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


def count_during(call):
    """How far a Python thread counts while `call` runs in this one, as a
    fraction of how far it counts in the same time when this thread sleeps."""
    import threading

    stop = threading.Event()
    count = [0]

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before, start = count[0], time.perf_counter()
        time.sleep(0.3)
        rate = (count[0] - before) / (time.perf_counter() - start)
        before, start = count[0], time.perf_counter()
        call()
        elapsed = time.perf_counter() - start
        during = count[0] - before
    finally:
        stop.set()
        t.join()
    return during / (rate * elapsed), elapsed


def test_scan_releases_the_gil(world):
    # Holding the GIL in the native scan would stop the other thread for the
    # whole call (it gets at most one switch interval, 5 ms); released, it
    # counts for all of it (with less CPU: the scan's workers share it).
    held, held_time = count_during(lambda: sum(range(10**7)))
    assert held_time < 0.1 or held < 0.1, (held, held_time)
    share, elapsed = count_during(lambda: simdnbt._native.scan_stream(str(world), "entities"))
    assert elapsed < 0.1 or share > 0.2, (share, elapsed)
