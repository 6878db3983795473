"""The README's Python section, run: each ```python block in order, in one
namespace, in a folder holding the test world as `world/`."""

import os
import re
import shutil

import pytest

from conftest import ROOT


def blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_readme_python_examples(world, tmp_path, monkeypatch):
    code = blocks()
    assert len(code) == 4
    for module in ("duckdb", "dask.distributed", "pyarrow"):
        pytest.importorskip(module)
    shutil.copytree(world, tmp_path / "world")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in code:
        exec(compile(block, "README.md", "exec"), namespace)
    import simdnbt

    assert simdnbt.load("world/level.dat")["Data"]["raining"] == 1
    player = sorted((tmp_path / "world" / "playerdata").glob("*.dat"))[0]
    assert simdnbt.Document.read(player).get("Health") == 20.0
    assert os.path.exists("world/level.dat")
