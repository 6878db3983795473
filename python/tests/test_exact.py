"""What Python's types cannot hold plainly still reads and writes back
byte-exact: MUTF-8 strings with lone surrogates, NUL and characters past
U+FFFF, and NaNs with their bits (signalling ones among them)."""

import math
import struct

import pytest

import simdnbt
from simdnbt import Document, File


def root(body):
    return b"\x0a\x00\x00" + body + b"\x00"


def named(tag_id, name, payload):
    return bytes([tag_id]) + struct.pack(">H", len(name)) + name + payload


def string(raw):
    return struct.pack(">H", len(raw)) + raw


# MUTF-8 (Java's encoding) of each str: NUL as C0 80, a character past
# U+FFFF as its surrogate pair, a lone surrogate as its own 3 bytes.
STRINGS = [
    ("plain", b"minecraft:stone", "minecraft:stone"),
    ("nul", b"a\xc0\x80b", "a\x00b"),
    ("pair", b"\xed\xa0\xbd\xed\xb8\x80", "\U0001F600"),
    ("lone high", b"x\xed\xa0\x80y", "x\ud800y"),
    ("lone low", b"\xed\xb0\x80", "\udc00"),
    ("reversed pair", b"\xed\xb8\x80\xed\xa0\xbd", "\ude00\ud83d"),
    ("high at end", b"ok\xed\xa0\xbd", "ok\ud83d"),
]


@pytest.mark.parametrize("raw,text", [(r, t) for _, r, t in STRINGS], ids=[n for n, _, _ in STRINGS])
def test_strings_read_as_java_wrote_them_and_write_back(raw, text):
    data = root(named(8, b"s", string(raw)) + named(9, b"l", b"\x08" + struct.pack(">i", 1) + string(raw))
                + named(1, raw, b"\x01"))
    f = File.from_bytes(data)
    assert f["s"] == text and type(f["s"]) is simdnbt.String
    assert list(f["l"]) == [text]
    assert text in f  # the key
    assert f.to_bytes(compression="raw") == data
    assert Document.from_bytes(data).get("s") == text
    assert File(Document.from_bytes(data).to_python()).to_bytes(compression="raw") == data
    # The key as the document lists it: exact, and looked up by it when an
    # NBT path can name it (Unicode); else a KeyError that says why.
    doc = Document.from_bytes(data)
    assert doc.keys() == ["s", "l", text]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        with pytest.raises(KeyError, match="lone surrogate"):
            doc[text]
    else:
        assert doc[text] == 1


@pytest.mark.parametrize("raw,text", [(r, t) for _, r, t in STRINGS], ids=[n for n, _, _ in STRINGS])
def test_strings_made_in_python_write_as_java_would(raw, text):
    data = root(named(8, b"s", string(raw)))
    assert File({"s": simdnbt.String(text)}).to_bytes(compression="raw") == data
    assert File({"s": text}).to_bytes(compression="raw") == data


FLOATS = [0x7F800001, 0xFF800001, 0x7FC00000, 0x7FBFFFFF, 0x7FC00001, 0x7F800000, 0x00000001]
DOUBLES = [0x7FF0000000000001, 0xFFF0000000000001, 0x7FF8000000000000, 0x7FF7FFFFFFFFFFFF,
           0x7FF0000020000000, 0x0000000000000001]


@pytest.mark.parametrize("bits", FLOATS, ids=[f"{b:08x}" for b in FLOATS])
def test_float_bits_kept(bits):
    payload = struct.pack(">I", bits)
    data = root(named(5, b"f", payload) + named(9, b"l", b"\x05" + struct.pack(">i", 1) + payload))
    f = File.from_bytes(data)
    assert math.isnan(f["f"]) == (bits & 0x7FFFFFFF > 0x7F800000)
    assert f.to_bytes(compression="raw") == data
    doc = Document.from_bytes(data)
    doc.set("g", doc.get("f"))
    assert doc.to_bytes(compression="raw")[:-1].endswith(named(5, b"g", payload))


@pytest.mark.parametrize("bits", DOUBLES, ids=[f"{b:016x}" for b in DOUBLES])
def test_double_bits_kept(bits):
    payload = struct.pack(">Q", bits)
    data = root(named(6, b"d", payload) + named(9, b"l", b"\x06" + struct.pack(">i", 1) + payload))
    f = File.from_bytes(data)
    assert struct.pack(">d", f["d"]) == payload
    assert f.to_bytes(compression="raw") == data


def test_nan_made_in_python_writes_as_a_nan():
    out = File({"f": simdnbt.Float(float("nan")), "d": simdnbt.Double(float("-nan"))}).to_bytes(
        compression="raw")
    f = File.from_bytes(out)
    assert math.isnan(f["f"]) and math.isnan(f["d"])


def test_root_name_with_a_lone_surrogate_round_trips(tmp_path):
    data = b"\x0a" + string(b"r\xed\xa0\x80") + b"\x01\x00\x01a\x01\x00"
    f = File.from_bytes(data)
    assert f.root_name == "r\ud800"
    assert Document.from_bytes(data).name == "r\ud800"
    assert f.to_bytes(compression="raw") == data
    path = tmp_path / "r.nbt"
    path.write_bytes(data)
    g = simdnbt.load(path)
    assert g.root_name == "r\ud800"
    g.save()
    assert path.read_bytes() == data
