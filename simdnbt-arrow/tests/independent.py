"""An independent reading of a world with nbtlib: the rows of simdnbt-arrow's
built-in tables, summed up, as JSON on stdout.

    python3 independent.py WORLD

Everything below the NBT parser is done here: the region header, zlib /
gzip / uncompressed / LZ4 (lz4-java's block stream, decoded in Python) chunk
data, the palettes' packed indices (both packings), the pre-1.13 arrays.
The table rules (which keys hold entities, items...) are the crate's
documented ones (simdnbt-arrow/src/lib.rs). Exit code 3 (and a message on
stderr) when nbtlib cannot be imported.
"""

import gzip
import io
import json
import os
import struct
import sys
import zlib
from collections import Counter

try:
    import nbtlib
    from nbtlib import Compound, List, String
except ImportError as e:  # pragma: no cover
    print(f"nbtlib cannot be imported: {e}", file=sys.stderr)
    sys.exit(3)

INTS = (nbtlib.Byte, nbtlib.Short, nbtlib.Int, nbtlib.Long)


def lz4_block(src, size):
    """One LZ4 block (no frame) decoded to `size` bytes."""
    out = bytearray()
    i = 0
    while i < len(src):
        token = src[i]
        i += 1
        lit = token >> 4
        if lit == 15:
            while True:
                b = src[i]
                i += 1
                lit += b
                if b != 255:
                    break
        out += src[i:i + lit]
        i += lit
        if i >= len(src):
            break
        off = src[i] | src[i + 1] << 8
        i += 2
        m = token & 15
        if m == 15:
            while True:
                b = src[i]
                i += 1
                m += b
                if b != 255:
                    break
        m += 4
        start = len(out) - off
        for k in range(m):
            out.append(out[start + k])
    if len(out) != size:
        raise ValueError("lz4 block: wrong size")
    return bytes(out)


def lz4_java(data):
    """lz4-java's LZ4BlockOutputStream: blocks of 'LZ4Block', token, sizes, checksum."""
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i:i + 8] != b"LZ4Block":
            raise ValueError("lz4-java: bad magic")
        token = data[i + 8]
        clen, dlen, _check = struct.unpack_from("<iii", data, i + 9)
        body = data[i + 21:i + 21 + clen]
        i += 21 + clen
        method = token & 0xF0
        if dlen == 0:
            break
        out += body if method == 0x10 else lz4_block(body, dlen)
    return bytes(out)


def region_chunks(path):
    """(local x, local z, timestamp, compression id, nbt bytes or None) per present chunk."""
    data = open(path, "rb").read()
    for index in range(1024):
        loc = struct.unpack_from(">I", data, index * 4)[0]
        if loc == 0:
            continue
        ts = struct.unpack_from(">I", data, 4096 + index * 4)[0]
        at = (loc >> 8) * 4096
        length = struct.unpack_from(">I", data, at)[0]
        comp = data[at + 4]
        raw = data[at + 5:at + 4 + length]
        try:
            if comp == 1:
                nbt = gzip.decompress(raw)
            elif comp == 2:
                nbt = zlib.decompress(raw)
            elif comp == 3:
                nbt = raw
            elif comp == 4:
                nbt = lz4_java(raw)
            else:
                nbt = None
        except Exception:
            nbt = None
        yield index % 32, index // 32, ts, comp, nbt


def parse(nbt):
    try:
        return nbtlib.File.parse(io.BytesIO(nbt))
    except Exception:
        return None


def get(c, key, kind):
    v = c.get(key) if isinstance(c, Compound) else None
    return v if isinstance(v, kind) else None


def compounds(c, key):
    v = get(c, key, List)
    if v is None:
        return []
    return [e for e in v if isinstance(e, Compound)]


def level(root):
    return get(root, "Level", Compound) or root if get(root, "Level", Compound) is not None else root


def int_like(v):
    return int(v) if isinstance(v, INTS) else None


def entities(root):
    out = []
    lists = []
    lv = get(root, "Level", Compound)
    data = lv if lv is not None else root
    if get(data, "Entities", List) is not None:
        lists.append(compounds(data, "Entities"))
    if get(root, "entities", List) is not None:
        lists.append(compounds(root, "entities"))

    def walk(e, depth):
        out.append(e)
        if depth < 64:
            for r in compounds(e, "Passengers"):
                walk(r, depth + 1)

    for lst in lists:
        for e in lst:
            walk(e, 0)
    return out


def block_entities(root):
    lv = get(root, "Level", Compound)
    data = lv if lv is not None else root
    if get(data, "block_entities", List) is not None:
        return compounds(data, "block_entities")
    return compounds(data, "TileEntities")


def item_id(item):
    v = item.get("id")
    if isinstance(v, String):
        return str(v)
    if isinstance(v, INTS):
        return str(int(v))
    return None


def items_of(c, lists, singles, out):
    for key in lists:
        for item in compounds(c, key):
            out.append(item)
    for key in singles:
        item = get(c, key, Compound)
        if item is not None:
            out.append(item)
    eq = get(c, "equipment", Compound)
    if eq is not None:
        for v in eq.values():
            if isinstance(v, Compound):
                out.append(v)


def inner_items(item):
    """The item stacks inside an item: a shulker box's or a bundle's."""
    out = []
    tag = get(item, "tag", Compound)
    if tag is not None:
        bet = get(tag, "BlockEntityTag", Compound)
        if bet is not None:
            out += compounds(bet, "Items")
        out += compounds(tag, "Items")
    comps = get(item, "components", Compound)
    if comps is not None:
        for entry in compounds(comps, "minecraft:container"):
            inner = get(entry, "item", Compound)
            if inner is not None:
                out.append(inner)
        out += compounds(comps, "minecraft:bundle_contents")
    return out


def add_items(found, items, depth=0):
    for item in items:
        i = item_id(item)
        if i is None or i in ("minecraft:air", "air", "0"):
            continue
        n = int_like(item.get("count"))
        if n is None:
            n = int_like(item.get("Count"))
        if n is None:
            n = 1
        found.setdefault(i, [0, 0])
        found[i][0] += 1
        found[i][1] += n
        if depth < 8:
            add_items(found, inner_items(item), depth + 1)


ENTITY_LISTS = ["Items", "Inventory", "ArmorItems", "HandItems"]
ENTITY_SINGLES = ["Item", "SaddleItem", "ArmorItem", "DecorItem", "body_armor_item"]


def bits_for(n, minimum):
    return max(minimum, (n - 1).bit_length())


def unpack(longs, n, bits, spanning, size=4096):
    """Palette indices from packed longs; None when they do not fit."""
    if n == 1:
        return [0] * size
    if bits > 32:
        return None
    longs = [x & 0xFFFFFFFFFFFFFFFF for x in longs]
    if spanning:
        if len(longs) != (size * bits + 63) // 64:
            return None
        big = 0
        for k, x in enumerate(longs):
            big |= x << (64 * k)
        mask = (1 << bits) - 1
        out = [(big >> (i * bits)) & mask for i in range(size)]
    else:
        per = 64 // bits
        if len(longs) != (size + per - 1) // per:
            return None
        mask = (1 << bits) - 1
        out = []
        for x in longs:
            for _ in range(per):
                out.append(x & mask)
                x >>= bits
        out = out[:size]
    if any(i >= n for i in out):
        return None
    return out


def state_name(entry):
    name = get(entry, "Name", String)
    if name is None:
        return None
    props = get(entry, "Properties", Compound)
    if not props:
        return str(name)
    pairs = sorted((k, str(v) if isinstance(v, String) else v.snbt()) for k, v in props.items())
    return str(name) + "[" + ",".join(f"{k}={v}" for k, v in pairs) + "]"


def nibble(arr, i):
    if arr is None or i // 2 >= len(arr):
        return 0
    return (int(arr[i // 2]) & 0xFF) >> ((i & 1) * 4) & 0xF


def blocks(root, found, warnings):
    dv = int_like(root.get("DataVersion"))
    spanning = (dv or 0) < 2529
    if get(root, "sections", List) is not None:
        sections, modern = compounds(root, "sections"), True
    else:
        lv = get(root, "Level", Compound)
        data = lv if lv is not None else root
        if get(data, "Sections", List) is None:
            return
        sections, modern = compounds(data, "Sections"), False
    for s in sections:
        if modern:
            bs = get(s, "block_states", Compound)
            if bs is None:
                continue
            palette, longs = get(bs, "palette", List), get(bs, "data", nbtlib.LongArray)
        elif get(s, "Palette", List) is not None:
            palette, longs = get(s, "Palette", List), get(s, "BlockStates", nbtlib.LongArray)
        elif "Blocks" in s:
            b = get(s, "Blocks", nbtlib.ByteArray)
            if b is None or len(b) != 4096:
                warnings.append("legacy")
                continue
            add, meta = get(s, "Add", nbtlib.ByteArray), get(s, "Data", nbtlib.ByteArray)
            c = Counter()
            for i in range(4096):
                bid = (int(b[i]) & 0xFF) | nibble(add, i) << 8
                c[f"legacy:{bid}:{nibble(meta, i)}"] += 1
            for k, v in c.items():
                found[k] = found.get(k, 0) + v
            continue
        else:
            continue
        if palette is None or not all(isinstance(e, Compound) for e in palette) or len(palette) == 0:
            warnings.append("palette")
            continue
        n = len(palette)
        idx = unpack(list(longs) if longs is not None else [], n, bits_for(n, 4), spanning)
        if idx is None:
            warnings.append("data")
            continue
        c = Counter(idx)
        names = [state_name(e) for e in palette]
        if any(names[i] is None for i in c):
            warnings.append("name")
            continue
        for i, v in c.items():
            found[names[i]] = found.get(names[i], 0) + v


def dimension_dirs(world):
    dims = [("overworld", world), ("the_nether", os.path.join(world, "DIM-1")),
            ("the_end", os.path.join(world, "DIM1"))]
    base = os.path.join(world, "dimensions")
    if os.path.isdir(base):
        for ns in sorted(os.listdir(base)):
            for p in sorted(os.listdir(os.path.join(base, ns))):
                name = f"{ns}:{p}"
                name = {"minecraft:overworld": "overworld", "minecraft:the_nether": "the_nether",
                        "minecraft:the_end": "the_end"}.get(name, name)
                dims.append((name, os.path.join(base, ns, p)))
    return dims


def region_files(d):
    if not os.path.isdir(d):
        return []
    out = []
    for name in sorted(os.listdir(d)):
        parts = name.split(".")
        if len(parts) == 4 and parts[0] == "r" and parts[3] == "mca":
            out.append(os.path.join(d, name))
    return out


def load_file(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    elif raw[:1] == b"\x78":
        raw = zlib.decompress(raw)
    return parse(raw)


def biomes(root, found):
    """Biome cells per biome: 1.18+ sections' palettes, else the chunk's array."""
    if get(root, "sections", List) is not None:
        for s in compounds(root, "sections"):
            b = get(s, "biomes", Compound)
            if b is None:
                continue
            palette, longs = get(b, "palette", List), get(b, "data", nbtlib.LongArray)
            if palette is None or len(palette) == 0 or not all(isinstance(e, String) for e in palette):
                continue
            n = len(palette)
            idx = unpack(list(longs) if longs is not None else [], n, bits_for(n, 0), False, 64)
            if idx is None:
                continue
            for i, v in Counter(idx).items():
                found[str(palette[i])] = found.get(str(palette[i]), 0) + v
        return
    lv = get(root, "Level", Compound)
    data = lv if lv is not None else root
    arr = data.get("Biomes")
    if isinstance(arr, nbtlib.IntArray):
        ids = [int(v) for v in arr]
    elif isinstance(arr, nbtlib.ByteArray):
        ids = [int(v) & 0xFF for v in arr]
    else:
        return
    for k, v in Counter(ids).items():
        found[str(k)] = found.get(str(k), 0) + v


def main(world):
    out = {
        "chunks": 0, "chunks_by_version_status": Counter(), "chunks_by_dimension": Counter(),
        "chunk_warnings": 0, "entities": Counter(), "block_entities": Counter(),
        "items": {}, "blocks": {}, "block_warnings": [], "players": [], "biomes": {},
    }
    for dim, d in dimension_dirs(world):
        for path in region_files(os.path.join(d, "region")):
            for _x, _z, _ts, _comp, nbt in region_chunks(path):
                out["chunks"] += 1
                out["chunks_by_dimension"][dim] += 1
                root = parse(nbt) if nbt is not None else None
                if root is None:
                    out["chunk_warnings"] += 1
                    out["chunks_by_version_status"]["None/None"] += 1
                    continue
                lv = get(root, "Level", Compound)
                data = lv if lv is not None else root
                dv = int_like(get(root, "DataVersion", nbtlib.Int))
                st = get(data, "Status", String)
                out["chunks_by_version_status"][f"{dv}/{st if st is None else str(st)}"] += 1
                for e in entities(root):
                    out["entities"][str(get(e, "id", String))] += 1
                for be in block_entities(root):
                    out["block_entities"][str(get(be, "id", String))] += 1
                found = []
                for be in block_entities(root):
                    items_of(be, ["Items"], ["Item", "item", "RecordItem", "Book"], found)
                for e in entities(root):
                    items_of(e, ENTITY_LISTS, ENTITY_SINGLES, found)
                add_items(out["items"], found)
                blocks(root, out["blocks"], out["block_warnings"])
                biomes(root, out["biomes"])
        for path in region_files(os.path.join(d, "entities")):
            for _x, _z, _ts, _comp, nbt in region_chunks(path):
                root = parse(nbt) if nbt is not None else None
                if root is None:
                    continue
                found = []
                for e in entities(root):
                    out["entities"][str(get(e, "id", String))] += 1
                    items_of(e, ENTITY_LISTS, ENTITY_SINGLES, found)
                add_items(out["items"], found)
    players = []
    pd = os.path.join(world, "playerdata")
    if os.path.isdir(pd):
        for name in sorted(os.listdir(pd)):
            if name.endswith(".dat"):
                root = load_file(os.path.join(pd, name))
                if root is not None:
                    players.append((name[:-4], root))
    lvl = os.path.join(world, "level.dat")
    if os.path.isfile(lvl):
        root = load_file(lvl)
        p = get(get(root, "Data", Compound), "Player", Compound) if root is not None else None
        if p is not None:
            players.append((None, p))
    for uuid, p in players:
        found = []
        items_of(p, ["Inventory", "EnderItems"], [], found)
        add_items(out["items"], found)
        inv = get(p, "Inventory", List)
        out["players"].append({
            "file_uuid": uuid,
            "xp_level": int_like(p.get("XpLevel")),
            "inventory_size": None if inv is None else len(inv),
        })
    out["block_warnings"] = len(out["block_warnings"])
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
