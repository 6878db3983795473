"""The lazy, Rust-backed document."""

import pytest

import simdnbt
from simdnbt import Byte, Compound, Document, File, Int, List, String


@pytest.fixture
def player(tmp_path):
    f = File({
        "Data": Compound({"LevelName": String("world"), "Time": simdnbt.Long(5)}),
        "Inventory": List[Compound]([
            Compound({"Slot": Byte(0), "id": String("minecraft:stone"), "Count": Byte(3)}),
            Compound({"Slot": Byte(1), "id": String("minecraft:dirt"), "Count": Byte(1)}),
        ]),
        "Pos": List[simdnbt.Double]([1.0, 2.0, 3.0]),
    })
    path = tmp_path / "player.dat"
    f.save(path, gzipped=True)
    return path


def test_read_index_and_get(player):
    doc = Document.read(player)
    assert doc.compression == "gzip" and len(doc) == 3 and doc.keys() == ["Data", "Inventory", "Pos"]
    assert doc["Data"]["LevelName"] == "world" and type(doc["Data"]["LevelName"]) is String
    assert isinstance(doc["Data"], simdnbt.DocumentView) and len(doc["Data"]) == 2
    assert doc["Inventory"][1]["id"] == "minecraft:dirt"
    assert doc.get("Inventory[{Slot:0b}].id") == "minecraft:stone"
    assert doc.get("Nope", 5) == 5
    assert doc.get_all("Inventory[].Count") == [3, 1]
    assert doc["Pos"][2] == 3.0
    with pytest.raises(KeyError):
        doc["Data"]["nope"]
    with pytest.raises(IndexError):
        doc["Inventory"][7]


def test_edit_and_write(player, tmp_path):
    doc = Document.read(player)
    assert doc.set("Inventory[{Slot:0b}].Count", Byte(64)) == 1
    assert doc.set("Data.New", "x") == 1
    assert doc.remove("Inventory[{Slot:1b}]") == 1
    doc.write()
    back = simdnbt.load(player)
    assert back.gzipped
    assert back["Inventory"] == [{"Slot": 0, "id": "minecraft:stone", "Count": 64}]
    assert back["Data"]["New"] == "x" and type(back["Data"]["New"]) is String
    # A failed edit changes nothing.
    with pytest.raises(simdnbt.NbtError):
        doc.set("Pos[0]", "text")
    assert doc.get("Pos[0]") == 1.0


def test_to_python_equals_load(player):
    assert Document.read(player).to_python() == simdnbt.load(player)


def test_unedited_write_is_a_copy(player, tmp_path):
    doc = Document.read(player)
    raw = simdnbt.load(player).to_bytes(compression="raw")
    assert doc.to_bytes(compression="raw") == raw


def test_snbt_json_bedrock():
    doc = Document.from_snbt('{a: 1b, b: [L; 5], c: {d: "e"}}')
    assert doc.to_snbt() == '{a:1b,b:[L;5L],c:{d:"e"}}'
    again = Document.from_json(doc.to_json())
    assert again.to_snbt() == doc.to_snbt()
    little = doc.to_bytes(byteorder="little")
    le = Document.from_bytes(little, byteorder="little")
    assert le.byteorder == "little" and le.to_snbt() == doc.to_snbt()
    assert le.to_bytes() == little
    assert simdnbt.File.from_bytes(little, byteorder="little")["c"]["d"] == "e"
    net = doc.to_bytes(byteorder="network")
    assert Document.from_bytes(net, byteorder="network").to_snbt() == doc.to_snbt()
