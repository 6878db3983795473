"""nbtlib's model: tags, files, SNBT, paths."""

import gzip
import math
import struct

import pytest

import simdnbt
from simdnbt import (
    Byte, ByteArray, Compound, Double, File, Float, Int, IntArray, List, Long, LongArray,
    Short, String,
)


def sample():
    return File({
        "byte": Byte(-1), "short": Short(300), "int": Int(-7), "long": Long(1 << 40),
        "float": Float(0.5), "double": Double(-2.25), "string": String("héllo ☃"),
        "list": List[Short]([Short(1), Short(2)]), "empty": List[Int]([]),
        "nested": List[List]([List[Byte]([Byte(1)]), List[String]([String("a")])]),
        "compound": Compound({"x": Int(1)}),
        "bytes": ByteArray([1, -2, 3]), "ints": IntArray([1, -2]), "longs": LongArray([1 << 50]),
    })


def test_tags_subclass_builtins():
    assert isinstance(Int(3), int) and isinstance(Double(1.0), float)
    assert isinstance(String("a"), str) and isinstance(List[Int](), list)
    assert isinstance(Compound(), dict)
    assert Int(3) + 1 == 4
    with pytest.raises(simdnbt.OutOfRange):
        Byte(128)
    assert List([Int(1)]).subtype is Int
    with pytest.raises(simdnbt.IncompatibleItemType):
        List[Int]([String("a")])
    assert List[Int]([1, 2]) == [1, 2] and type(List[Int]([1])[0]) is Int


def test_round_trip_keeps_types_order_and_bytes(tmp_path):
    f = sample()
    for compression in ("raw", "gzip", "zlib"):
        data = f.to_bytes(compression=compression)
        g = File.from_bytes(data)
        assert g.compression == compression
        assert list(g) == list(f)
        for k in f:
            assert type(g[k]).__name__ == type(f[k]).__name__, k
        assert g.to_bytes(compression="raw") == f.to_bytes(compression="raw")
    assert type(g["empty"]) is List[Int]
    assert type(g["nested"][0]) is List[Byte]
    assert list(g["ints"]) == [1, -2] and list(g["longs"]) == [1 << 50]
    path = tmp_path / "x.dat"
    f.save(path, gzipped=True)
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    h = simdnbt.load(path)
    assert h.gzipped and h.filename == str(path)
    h["int"] = Int(8)
    h.save()
    assert simdnbt.load(path)["int"] == 8


def test_float_bits_kept():
    bits = 0x3F8CCCCD  # 1.1f
    raw = b"\x0a\x00\x00\x05\x00\x01f" + struct.pack(">I", bits) + b"\x00"
    f = File.from_bytes(raw)
    assert struct.pack(">f", f["f"]) == struct.pack(">I", bits)
    assert f.to_bytes() == raw
    g = File.from_bytes(File({"n": Double(math.nan), "i": Float(-math.inf)}).to_bytes())
    assert math.isnan(g["n"]) and g["i"] == -math.inf


def test_plain_python_values_are_written():
    f = File({"b": True, "i": 5, "big": 1 << 40, "d": 1.5, "s": "x", "l": [1, 2], "c": {"k": b"\x01"}})
    g = File.from_bytes(f.to_bytes())
    assert [type(v).__name__ for v in g.values()] == [
        "Byte", "Int", "Long", "Double", "String", "List[Int]", "Compound"]
    assert type(g["c"]["k"]) is ByteArray


def test_snbt():
    tag = simdnbt.parse_nbt('{a: 1b, b: [I; 1, 2], c: "x", d: [1.5f, 2f], e: []}')
    assert type(tag) is Compound and type(tag["a"]) is Byte and type(tag["d"]) is List[Float]
    assert simdnbt.serialize_tag(tag) == '{a:1b,b:[I;1,2],c:"x",d:[1.5f,2.0f],e:[]}'
    assert simdnbt.parse_nbt(simdnbt.serialize_tag(tag, indent=2)) == tag
    assert Int(5).snbt() == "5"
    with pytest.raises(simdnbt.NbtError):
        simdnbt.parse_nbt("{a: ")


def test_path():
    tag = simdnbt.parse_nbt('{Inventory: [{Slot: 0b, id: "stone"}, {Slot: 1b, id: "dirt"}]}')
    p = simdnbt.Path("Inventory[{Slot:1b}]") / "id"
    assert p == "Inventory[{Slot:1b}].id"
    assert p.get(tag) == "dirt" and type(p.get(tag)) is String
    assert simdnbt.Path("Inventory[].id").get_all(tag) == ["stone", "dirt"]
    with pytest.raises(simdnbt.NbtError):
        simdnbt.Path("a[")


def test_gzip_from_python_is_read(tmp_path):
    raw = File({"a": Int(1)}).to_bytes()
    (tmp_path / "a.dat").write_bytes(gzip.compress(raw))
    assert simdnbt.load(tmp_path / "a.dat") == {"a": 1}


def test_self_containing_value_is_an_error():
    c = Compound()
    c["me"] = c
    with pytest.raises(simdnbt.NbtError, match="deeper"):
        File(c).to_bytes()


def test_shared_small_numbers_and_strings_keep_their_types():
    # Small numbers and short strings are shared between reads (immutable):
    # each tag type has its own instances, and each read gets fresh containers.
    f = File({"b": Byte(5), "s": Short(5), "i": Int(5), "l": Long(5), "str": String("k"),
              "list": List[String](["k", "b"])})
    data = f.to_bytes()
    one, two = File.from_bytes(data), File.from_bytes(data)
    assert [type(one[k]).__name__ for k in ("b", "s", "i", "l")] == ["Byte", "Short", "Int", "Long"]
    assert type(one["str"]) is String and one["str"] is two["str"]
    assert list(one) == ["b", "s", "i", "l", "str", "list"] and list(one)[0] == "b"
    one["list"].append(String("x"))
    assert two["list"] == ["k", "b"]
    assert type(next(iter(one))) is str


def test_large_reads_leave_the_garbage_collector_as_it_was(tmp_path):
    """Reads of large inputs pause the collector while the tree is built;
    they must leave it running, or stopped, as it was."""
    import gc

    big = simdnbt.File({f"k{i}": simdnbt.List[simdnbt.Compound]([{"a": simdnbt.Int(i)}])
                        for i in range(5000)})
    data = big.to_bytes(compression="raw")
    assert len(data) > 64 * 1024
    path = tmp_path / "big.nbt"
    path.write_bytes(data)
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            assert simdnbt.load(path) == big
            assert simdnbt.File.from_bytes(data) == big
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_load_sets_what_file_load_did(tmp_path):
    path = tmp_path / "f.dat"
    simdnbt.File({"a": simdnbt.Byte(1)}, root_name="root").save(path, gzipped=True)
    for name in (path, str(path)):
        f = simdnbt.load(name)
        assert (f.filename, f.root_name, f.compression, f.byteorder) == (str(path), "root", "gzip", "big")
        assert type(f) is simdnbt.File and f.gzipped
    with pytest.raises(simdnbt.NbtError):
        (tmp_path / "list.nbt").write_bytes(b"\x09\x00\x00\x01\x00\x00\x00\x01\x05")
        simdnbt.load(tmp_path / "list.nbt")
