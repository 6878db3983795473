"""Every corpus file read as amulet-nbt (PyPI `amulet-nbt`, the C++ reader
Amulet uses) reads it: types, key order, values, float bits, array bytes.

amulet-nbt 2.x publishes no wheel for Linux: pip builds it from its sdist (a
C++ build, about 15 minutes on a 2-core machine), so CI does not install it
and this module skips there, saying so. To run it:
`pip install amulet-nbt` in the test environment, then pytest.
"""

import math
import struct

import pytest

import simdnbt

amulet_nbt = pytest.importorskip(
    "amulet_nbt", reason="amulet-nbt is not installed (no Linux wheel; its sdist builds C++)")

# amulet's tag classes by our class names (ours: `List[Int]` and so on).
NAMES = {
    "ByteTag": "Byte", "ShortTag": "Short", "IntTag": "Int", "LongTag": "Long",
    "FloatTag": "Float", "DoubleTag": "Double", "StringTag": "String",
    "ListTag": "List", "CompoundTag": "Compound", "ByteArrayTag": "ByteArray",
    "IntArrayTag": "IntArray", "LongArrayTag": "LongArray",
}


def same(ours, theirs, where="root"):
    """Asserts that our tag and amulet's are the same tree."""
    tname = NAMES[type(theirs).__name__]
    # A File is the root Compound.
    oname = "Compound" if isinstance(ours, simdnbt.File) else type(ours).__name__
    assert oname.split("[")[0] == tname, (where, oname, tname)
    if tname == "Compound":
        assert list(ours) == list(theirs.keys()), where
        for k in ours:
            same(ours[k], theirs[k], f"{where}.{k}")
    elif tname == "List":
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{i}]")
    elif tname in ("Float", "Double"):
        fmt = ">f" if tname == "Float" else ">d"
        a, b = float(ours), theirs.py_float
        assert struct.pack(fmt, a) == struct.pack(fmt, b) or (math.isnan(a) and math.isnan(b)), where
    elif tname.endswith("Array"):
        assert [int(x) for x in ours] == [int(x) for x in theirs.np_array], where
    elif tname == "String":
        assert str(ours) == theirs.py_str, where
    else:
        assert int(ours) == theirs.py_int, where


def test_corpus_equals_amulet(corpus_files):
    checked = 0
    for path in corpus_files:
        try:
            theirs = amulet_nbt.load(str(path))
        except Exception:
            # amulet cannot read it (a non-compound root, ...): ours reads it
            # or fails with NbtError, never crashes.
            try:
                simdnbt.load(path)
            except simdnbt.NbtError:
                pass
            continue
        if type(theirs.tag).__name__ != "CompoundTag":
            # amulet reads any root (stringtest.nbt's is a List); ours, as
            # Java, a compound one, and says so.
            with pytest.raises(simdnbt.NbtError, match="root"):
                simdnbt.load(path)
            continue
        ours = simdnbt.load(path)
        assert ours.root_name == theirs.name, path.name
        same(ours, theirs.compound, path.name)
        checked += 1
    assert checked >= len(corpus_files) // 2, (checked, len(corpus_files))
