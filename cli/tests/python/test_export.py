"""`nbt export` read back by the engines people use: pyarrow, DuckDB, Spark
(local mode) and Dask read the hive-partitioned folder as one dataset and
count what `nbt sql` counts. A test whose engine does not import skips,
saying so."""

import pytest

# (table, column counted by) pairs compared on every engine.
CASES = [
    ("chunks", "dimension"),
    ("entities", "id"),
    ("block_entities", "id"),
    ("items", "id"),
    ("blocks", "dimension"),
]


def counts(rows, key):
    return {r[key]: int(r["n"]) for r in rows}


def expected(sql, table, key):
    rows = sql(f"SELECT CAST({key} AS VARCHAR) AS {key}, count(*) AS n FROM {table} GROUP BY 1")
    got = counts(rows, key)
    assert sum(got.values()) > 0, f"nbt sql found no rows in {table}"
    return got


def _import(name):
    try:
        return __import__(name)
    except ImportError as e:
        pytest.skip(f"{name} does not import ({e}): install it to run this test")


@pytest.mark.parametrize("table,key", CASES)
def test_pyarrow_reads_the_folder_as_one_dataset(sql, export, table, key):
    _import("pyarrow")
    import pyarrow.dataset as ds

    data = ds.dataset(str(export(table)), format="parquet", partitioning="hive").to_table()
    got = {}
    for value in data.column(key).to_pylist():
        got[str(value)] = got.get(str(value), 0) + 1
    assert got == expected(sql, table, key)
    # The hive keys come back as columns; the files hold the table's other columns.
    assert "dimension" in data.column_names and "region" in data.column_names


@pytest.mark.parametrize("table,key", CASES)
def test_duckdb_reads_the_folder_as_one_dataset(sql, export, table, key):
    duckdb = _import("duckdb")
    folder = export(table)
    rows = duckdb.sql(
        f"SELECT CAST({key} AS VARCHAR) AS k, count(*) AS n "
        f"FROM read_parquet('{folder}/**/*.parquet', hive_partitioning=true) GROUP BY 1"
    ).fetchall()
    assert {k: n for k, n in rows} == expected(sql, table, key)


@pytest.mark.parametrize("to,reader", [("csv", "read_csv"), ("ndjson", "read_json")])
def test_duckdb_reads_the_csv_and_ndjson_exports(sql, export, to, reader):
    duckdb = _import("duckdb")
    folder = export("chunks", to)
    rows = duckdb.sql(
        f"SELECT dimension, count(*) FROM {reader}('{folder}/**/*.{to}', hive_partitioning=true) "
        "GROUP BY 1"
    ).fetchall()
    assert {k: n for k, n in rows} == expected(sql, "chunks", "dimension")


@pytest.fixture(scope="module")
def spark():
    _import("pyspark")
    from pyspark.sql import SparkSession

    try:
        session = (
            SparkSession.builder.master("local[1]")
            .appName("nbt-export")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate()
        )
    except Exception as e:  # no Java, or one Spark does not run on
        pytest.skip(f"Spark does not start ({e})")
    yield session
    session.stop()


@pytest.mark.parametrize("table,key", CASES)
def test_spark_reads_the_folder_as_one_dataset(sql, export, spark, table, key):
    frame = spark.read.parquet(str(export(table)))
    got = {str(r[key]): r["count"] for r in frame.groupBy(key).count().collect()}
    assert got == expected(sql, table, key)


def test_dask_reads_the_folder_as_one_dataset(sql, export):
    _import("dask")
    import dask.dataframe as dd

    frame = dd.read_parquet(str(export("chunks")))
    got = {str(k): int(v) for k, v in frame.groupby("dimension", observed=True).size().compute().items()}
    assert got == expected(sql, "chunks", "dimension")
