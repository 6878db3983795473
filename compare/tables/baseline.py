"""How people answer questions about a world today, in Python: a region
reader from PyPI (anvil-parser) for the region files and nbtlib for the NBT,
one chunk after another. The comparison script of reports/tables.md: it
answers the questions `nbt sql` is timed on there, and prints the same
counts, so the two can be checked against each other.

    python baseline.py WORLD entities   # SELECT id, count(*) FROM entities GROUP BY id
    python baseline.py WORLD chunks     # SELECT status, count(*) FROM chunks GROUP BY status
    python baseline.py WORLD blocks     # SELECT name, sum(count) FROM blocks GROUP BY name

Output: `value,count` lines, sorted by value.
"""

import collections
import gzip
import io
import sys
import zlib
from pathlib import Path

import anvil  # anvil-parser
import nbtlib


def region_files(world, folder):
    """Every `FOLDER/r.X.Z.mca` of every dimension of the world."""
    for dim in [world, world / "DIM-1", world / "DIM1", *world.glob("dimensions/*/*")]:
        yield from sorted((dim / folder).glob("r.*.*.mca"))


def chunks(path):
    """The root compound of every chunk of a region file."""
    region = anvil.Region.from_file(str(path))
    for z in range(32):
        for x in range(32):
            sector, sectors = region.chunk_location(x, z)
            if (sector, sectors) == (0, 0):
                continue
            start = sector * 4096
            length = int.from_bytes(region.data[start : start + 4], "big")
            kind = region.data[start + 4]
            data = region.data[start + 5 : start + 4 + length]
            raw = gzip.decompress(data) if kind == 1 else zlib.decompress(data) if kind == 2 else data
            yield nbtlib.File.parse(io.BytesIO(raw))


def level(chunk):
    """Before 1.18 a chunk's data is under `Level`."""
    return chunk["Level"] if "Level" in chunk else chunk


def entities(world):
    counts = collections.Counter()
    for folder in ("region", "entities"):
        for path in region_files(world, folder):
            for chunk in chunks(path):
                for entity in level(chunk).get("Entities", []):
                    counts[str(entity.get("id", ""))] += 1
    return counts


def chunk_status(world):
    counts = collections.Counter()
    for path in region_files(world, "region"):
        for chunk in chunks(path):
            counts[str(level(chunk).get("Status", ""))] += 1
    return counts


def blocks(world):
    """Block counts from each section's palette and packed indices (the
    1.16+ packing: indices do not span longs)."""
    counts = collections.Counter()
    for path in region_files(world, "region"):
        for chunk in chunks(path):
            for section in level(chunk).get("sections", level(chunk).get("Sections", [])):
                states = section.get("block_states")
                if states is not None:
                    palette, data = states.get("palette", []), states.get("data")
                else:
                    palette, data = section.get("Palette", []), section.get("BlockStates")
                names = [str(p["Name"]) for p in palette]
                if not names:
                    continue
                if data is None or len(names) == 1:
                    counts[names[0]] += 4096
                    continue
                bits = max(4, (len(names) - 1).bit_length())
                per_long = 64 // bits
                mask = (1 << bits) - 1
                seen = collections.Counter()
                left = 4096
                for long in data:
                    value = int(long) & 0xFFFFFFFFFFFFFFFF
                    for _ in range(min(per_long, left)):
                        seen[value & mask] += 1
                        value >>= bits
                    left -= min(per_long, left)
                    if left == 0:
                        break
                for index, n in seen.items():
                    counts[names[index] if index < len(names) else "?"] += n
    return counts


def main():
    world, question = Path(sys.argv[1]), sys.argv[2]
    answer = {"entities": entities, "chunks": chunk_status, "blocks": blocks}[question](world)
    for value, n in sorted(answer.items()):
        print(f"{value},{n}")


if __name__ == "__main__":
    main()
