"""Fixtures of the Python package's tests.

The package must be installed (`pip install ./python`). The corpus files
come from the `corpus` crate (`corpus export`): its binary from
`CORPUS_BIN` or the workspace's `target/debug/corpus`, else `cargo run -p
corpus`. The test world and `nbt` as in cli/tests/python (`WORLD_BIN`,
`NBT_BIN`). Without one, the tests needing it skip, saying why."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary(var, name, how):
    path = os.environ.get(var) or str(ROOT / "target" / "debug" / name)
    if not Path(path).is_file():
        pytest.skip(f"no {name} binary at {path}: build it ({how}) or set {var}")
    return path


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    """Every corpus file, as shipped (gzip stays gzip; the region file as r.0.0.mca)."""
    out = tmp_path_factory.mktemp("corpus")
    binary = os.environ.get("CORPUS_BIN") or str(ROOT / "target" / "debug" / "corpus")
    if Path(binary).is_file():
        cmd = [binary]
    elif shutil.which("cargo"):
        cmd = ["cargo", "run", "--quiet", "-p", "corpus", "--"]
    else:
        pytest.skip("no corpus binary and no cargo: set CORPUS_BIN")
    subprocess.run(cmd + ["export", str(out)], check=True, cwd=ROOT, capture_output=True)
    return out


@pytest.fixture(scope="session")
def corpus_files(corpus_dir):
    """The NBT files of the corpus (not the region file)."""
    return sorted(p for p in corpus_dir.iterdir() if p.suffix != ".mca")


@pytest.fixture(scope="session")
def nbt():
    return _binary("NBT_BIN", "nbt", "cargo build -p simdnbt-cli --bin nbt")


@pytest.fixture(scope="session")
def world(tmp_path_factory):
    """The test world of testkit::world, written by its example."""
    assemble = _binary(
        "WORLD_BIN", "examples/world", "cargo build -p testkit --features world --example world"
    )
    w = tmp_path_factory.mktemp("world") / "world"
    subprocess.run([assemble, str(w)], check=True, capture_output=True)
    return w
