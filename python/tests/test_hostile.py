"""Hostile inputs raise simdnbt.NbtError with the byte offset, never crash."""

import gzip
import struct

import pytest

import simdnbt
from simdnbt import Document, File

READERS = [
    lambda b: File.from_bytes(b),
    lambda b: Document.from_bytes(b),
    lambda b: Document.from_bytes(b).to_python(),
]


def compound(body):
    return b"\x0a\x00\x00" + body + b"\x00"


def check(data, offset=None):
    for read in READERS:
        with pytest.raises(simdnbt.NbtError) as info:
            read(data)
        assert isinstance(info.value.offset, int)
        if offset is not None:
            assert info.value.offset == offset, str(info.value)
        assert str(info.value.offset) in str(info.value)


def test_truncated_everywhere():
    good = File({"a": simdnbt.Int(1), "s": "text", "l": [1, 2], "arr": simdnbt.LongArray([1, 2])}).to_bytes()
    for cut in range(len(good) - 1):
        check(good[:cut])


def test_truncated_gzip():
    data = gzip.compress(compound(b"\x08\x00\x01s\x00\x04text"))
    for cut in (3, 10, len(data) - 1):
        with pytest.raises(simdnbt.NbtError):
            File.from_bytes(data[:cut])


def test_deep_nesting_100k():
    depth = 100_000
    lists = compound(b"\x09\x00\x01l" + b"\x09\x00\x00\x00\x01" * depth)
    check(lists)
    compounds = b"\x0a\x00\x00" + b"\x0a\x00\x00" * depth
    check(compounds)
    with pytest.raises(simdnbt.NbtError):
        simdnbt.parse_nbt("[" * depth)


def test_huge_lengths():
    check(compound(b"\x0b\x00\x01a" + struct.pack(">i", 0x7FFFFFFF)), None)
    check(compound(b"\x07\x00\x01a" + struct.pack(">i", -1)), None)
    check(compound(b"\x09\x00\x01a\x0a" + struct.pack(">i", 0x7FFFFFFF)), None)
    check(compound(b"\x08\x00\x01a\xff\xff"), None)


def test_unknown_tag_and_garbage():
    check(compound(b"\x0d\x00\x01a"), 3)
    check(b"", 0)
    check(b"\x01", None)


def test_bad_python_values():
    with pytest.raises(simdnbt.NbtError, match="out of range"):
        File({"x": 1 << 70}).to_bytes()
    with pytest.raises(TypeError):
        File({"a": object()}).to_bytes()


def test_hostile_region_files(tmp_path):
    garbage = tmp_path / "r.0.0.mca"
    garbage.write_bytes(b"\xff" * 5000)
    with pytest.raises(simdnbt.NbtError):
        simdnbt.Region(garbage)
    # A header that points chunk (0, 0) at sector 2, whose data is not zlib.
    header = bytearray(8192)
    header[0:4] = b"\x00\x00\x02\x01"
    body = struct.pack(">i", 100) + b"\x02" + b"\x00" * 99
    bad = tmp_path / "r.1.0.mca"
    bad.write_bytes(bytes(header) + body + bytes(4096 - len(body)))
    region = simdnbt.Region(bad)
    assert list(region) == [(0, 0)]
    with pytest.raises(simdnbt.NbtError, match=r"chunk \(0, 0\)"):
        region[0, 0]


def test_scan_of_a_missing_world(tmp_path):
    pytest.importorskip("pyarrow")
    with pytest.raises(simdnbt.NbtError):
        simdnbt.scan(tmp_path / "nope", table="chunks")


def test_gzip_bomb_stops_at_the_inflation_cap(tmp_path):
    """1 GiB of zeros in about 1 MB of gzip: the read stops at the cap on
    inflated bytes with NbtError, not after inflating it all (or running out
    of memory). The cap is 8 MiB here: the default (256 MiB) is the same
    check, and inflating 256 MiB twice takes minutes in the unoptimised
    build the CI tests."""
    import resource
    import zlib

    # A root compound holding a byte array of 1 GiB, then its bytes. After a
    # full flush deflate starts afresh, so the 1 MiB block of zeros is
    # compressed once and repeated; the trailer (CRC-32, size) is the whole
    # stream's.
    z = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip header
    prefix = b"\x0a\x00\x00\x07\x00\x01a" + struct.pack(">i", 1 << 30)
    head = z.compress(prefix) + z.flush(zlib.Z_FULL_FLUSH)
    chunk = bytes(1 << 20)
    block = z.compress(chunk) + z.flush(zlib.Z_FULL_FLUSH)
    last = z.flush()[:-8]
    crc = zlib.crc32(prefix)
    for _ in range(1024):
        crc = zlib.crc32(chunk, crc)
    size = (len(prefix) + (1 << 30)) & 0xFFFFFFFF
    bomb = head + block * 1024 + last + struct.pack("<II", crc, size)
    assert len(bomb) < 2 << 20
    cap = 8 << 20
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    path = tmp_path / "bomb.dat"
    path.write_bytes(bomb)
    readers = (File.from_bytes, Document.from_bytes)
    files = (simdnbt.load, File.load, Document.read)
    for read, source in [(r, bomb) for r in readers] + [(r, path) for r in files]:
        with pytest.raises(simdnbt.NbtError) as info:
            read(source, max_inflated=cap)
        assert str(cap) in str(info.value), (read, str(info.value))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 64 << 10, f"peak RSS grew by {grown} KiB"
    # Under the cap, the same reader reads it.
    small = gzip.compress(compound(b"\x07\x00\x01a" + struct.pack(">i", 1 << 20) + bytes(1 << 20)))
    assert len(File.from_bytes(small, max_inflated=cap)["a"]) == 1 << 20
    assert len(Document.from_bytes(small, max_inflated=cap).get("a")) == 1 << 20
