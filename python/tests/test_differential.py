"""Every corpus file read as nbtlib reads it (types, order, values, float
bits) and saved byte-exact."""

import math
import struct

import pytest

import simdnbt

nbtlib = pytest.importorskip("nbtlib")



def as_nbtlib(text):
    """What nbtlib makes of the MUTF-8 encoding of `text`: it decodes the
    bytes as UTF-8 with replacement, so a NUL (C0 80) or a character past
    U+FFFF (a surrogate pair, 3 bytes each) becomes U+FFFD there, where ours
    decodes it."""
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if c == 0:
            out += b"\xc0\x80"
        elif c > 0xFFFF:
            c -= 0x10000
            for unit in (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)):
                out += chr(unit).encode("utf-8", "surrogatepass")
        else:
            out += ch.encode("utf-8", "surrogatepass")
    return bytes(out).decode("utf-8", "replace")


def same(ours, theirs, where="root"):
    """Asserts equal trees: type names, key order, values, float bits."""
    tname = type(theirs).__name__
    oname = type(ours).__name__
    if tname.startswith("List["):
        assert oname.startswith("List["), where
        # nbtlib names the subtype of a list of lists List[List].
        assert oname == tname, (where, oname, tname)
    else:
        assert oname == tname, (where, oname, tname)
    if isinstance(theirs, dict):
        assert [as_nbtlib(k) for k in ours] == list(theirs), where
        for k, t in zip(ours, theirs):
            same(ours[k], theirs[t], f"{where}.{k}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, float):
        fmt = ">f" if tname == "Float" else ">d"
        assert struct.pack(fmt, ours) == struct.pack(fmt, theirs) or (
            math.isnan(ours) and math.isnan(theirs)), where
    elif tname.endswith("Array"):
        assert ours.tobytes() == theirs.astype(theirs.dtype.newbyteorder(">")).tobytes(), where
    elif tname == "String":
        assert as_nbtlib(ours) == theirs, where
    else:
        assert ours == theirs, where


def test_corpus_equals_nbtlib_and_saves_byte_exact(corpus_files, tmp_path):
    assert corpus_files, "the corpus export wrote no files"
    checked = 0
    for path in corpus_files:
        try:
            theirs = nbtlib.load(path)
        except Exception:
            # nbtlib cannot read it (zlib, a non-compound root, ...): ours must
            # still read it or fail with NbtError, never crash.
            try:
                simdnbt.load(path)
            except simdnbt.NbtError:
                pass
            continue
        ours = simdnbt.load(path)
        same(ours, theirs, path.name)
        assert ours.root_name == theirs.root_name
        raw = simdnbt.Document.read(path).to_bytes(compression="raw")
        assert ours.to_bytes(compression="raw") == raw, path.name
        out = tmp_path / path.name
        ours.save(out)
        assert simdnbt.Document.read(out).to_bytes(compression="raw") == raw
        checked += 1
    assert checked >= len(corpus_files) // 2, (checked, len(corpus_files))
