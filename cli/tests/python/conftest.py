"""Fixtures of the export read-back tests: the `nbt` binary, a small world
assembled from the corpus, and `nbt sql` / `nbt export` runs over it.

The binaries come from the environment (`NBT_BIN`, `WORLD_BIN`) or from the
workspace's `target/debug/`; `.ci/run` builds both before running pytest.
Without them every test skips, saying why."""

import csv
import io
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _binary(var, name):
    path = os.environ.get(var) or str(ROOT / "target" / "debug" / name)
    if not Path(path).is_file():
        how = {
            "nbt": "cargo build -p simdnbt-cli --bin nbt",
            "examples/world": "cargo build -p testkit --features world --example world",
        }[name]
        pytest.skip(f"no {name} binary at {path}: build it ({how}) or set {var}")
    return path


@pytest.fixture(scope="session")
def nbt():
    return _binary("NBT_BIN", "nbt")


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    """The test world of testkit::world (several chunk formats, four
    dimensions, entity region files, player files, one chunk that does not
    inflate), written by its example."""
    assemble = _binary("WORLD_BIN", "examples/world")
    w = tmp_path_factory.mktemp("tables") / "world"
    subprocess.run([assemble, str(w)], check=True, capture_output=True)
    return w


@pytest.fixture(scope="session")
def sql(nbt, world):
    """Runs `nbt sql WORLD QUERY` and gives its rows (CSV, as strings)."""

    def run(query):
        out = subprocess.run(
            [nbt, "sql", str(world), query, "--format", "csv"],
            capture_output=True,
            text=True,
        )
        # 2: the world's broken chunk was skipped (and named); still an answer.
        assert out.returncode in (0, 2), out.stderr
        return list(csv.DictReader(io.StringIO(out.stdout)))

    return run


@pytest.fixture(scope="session")
def export(nbt, world, tmp_path_factory):
    """Runs `nbt export WORLD --table TABLE --to FORMAT -o DIR` once per
    (table, format) and gives DIR."""
    done = {}

    def run(table, to="parquet"):
        if (table, to) not in done:
            out = tmp_path_factory.mktemp("export") / f"{table}-{to}"
            run = subprocess.run(
                [nbt, "export", str(world), "--table", table, "--to", to, "-o", str(out)],
                capture_output=True,
                text=True,
            )
            assert run.returncode in (0, 2), run.stderr
            done[(table, to)] = out
        return done[(table, to)]

    return run
