"""The measurements of reports/python.md, in CPU seconds of this process
(time.process_time: user + sys, every thread), interleaved rounds, one run.

    python python/bench/measure.py CORPUS_DIR [WORLD SCAN_WORLD_BIN [NBT_BIN]]

CORPUS_DIR: `cargo run -p corpus -- export DIR`. WORLD: the 64-region world
of reports/cli.md; SCAN_WORLD_BIN: simdnbt-arrow's `scan_world` example
built with the same profile as the wheel; NBT_BIN: a release `nbt`
(`cargo build --release -p simdnbt-cli`), whose `export` is the scan's
yardstick.
"""

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import nbtlib

import simdnbt

try:
    import amulet_nbt
except ImportError:
    amulet_nbt = None

ROUNDS = 5


def per_call(fn, n):
    t = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t) / n


def calls_for(fn, budget=0.05):
    """How many calls take about `budget` CPU seconds."""
    t = per_call(fn, 1)
    return max(1, int(budget / max(t, 1e-6)))


def compare(cases):
    """cases: name -> function. Median CPU seconds per call of each, rounds interleaved."""
    counts = {k: calls_for(f) for k, f in cases.items()}
    times = {k: [] for k in cases}
    for _ in range(ROUNDS):
        for k, f in cases.items():
            times[k].append(per_call(f, counts[k]))
    return {k: statistics.median(v) for k, v in times.items()}


def load_table(corpus):
    print("| file | bytes | simdnbt.load µs | nbtlib.load µs | × nbtlib |"
          + (" amulet_nbt µs | × amulet |" if amulet_nbt else ""))
    print("|---|---|---|---|---|" + ("---|---|" if amulet_nbt else ""))
    ratios, amulet_ratios = [], []
    for path in sorted(corpus.iterdir()):
        if path.suffix == ".mca":
            continue
        try:
            nbtlib.load(path)
        except Exception as e:  # noqa: BLE001 - reported, not measured
            print(f"| {path.name} | {path.stat().st_size} | | nbtlib fails: {type(e).__name__} | |")
            continue
        cases = {"simdnbt": lambda: simdnbt.load(path), "nbtlib": lambda: nbtlib.load(path)}
        if amulet_nbt:
            cases["amulet"] = lambda: amulet_nbt.load(str(path))
        t = compare(cases)
        r = t["nbtlib"] / t["simdnbt"]
        ratios.append(r)
        row = (f"| {path.name} | {path.stat().st_size} | {t['simdnbt'] * 1e6:.1f} | "
               f"{t['nbtlib'] * 1e6:.1f} | {r:.1f}× |")
        if amulet_nbt:
            ra = t["amulet"] / t["simdnbt"]
            amulet_ratios.append(ra)
            row += f" {t['amulet'] * 1e6:.1f} | {ra:.2f}× |"
        print(row)
    print(f"\nmin {min(ratios):.1f}×, median {statistics.median(ratios):.1f}× vs nbtlib "
          f"over {len(ratios)} files")
    if amulet_ratios:
        print(f"min {min(amulet_ratios):.2f}×, median {statistics.median(amulet_ratios):.2f}× vs amulet_nbt")


def path_table(corpus):
    cases = [
        ("complex_player.dat", "Inventory[0].id", lambda t: t["Inventory"][0]["id"]),
        ("level.dat", "Data.LevelName", lambda t: t["Data"]["LevelName"]),
        ("generated_inventory_1m", "players[0].Inventory[0].id",
         lambda t: t["players"][0]["Inventory"][0]["id"]),
        ("generated_chunks_12m", "chunks[0].xPos", lambda t: t["chunks"][0]["xPos"]),
    ]
    print("\n| file | path | Document.read + get µs | nbtlib load + index µs | × |")
    print("|---|---|---|---|---|")
    for name, path, index in cases:
        f = corpus / name
        assert index(nbtlib.load(f)) == simdnbt.Document.read(f).get(path), (name, path)
        t = compare({
            "doc": lambda: simdnbt.Document.read(f).get(path),
            "nbtlib": lambda: index(nbtlib.load(f)),
        })
        print(f"| {name} | `{path}` | {t['doc'] * 1e6:.1f} | {t['nbtlib'] * 1e6:.1f} | "
              f"{t['nbtlib'] / t['doc']:.0f}× |")


def run(cmd):
    """CPU seconds (user + sys) of a child process running `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def scan_table(world, scan_world):
    """Whole processes, each timed by getrusage of its children: a Python
    process that imports simdnbt + pyarrow and scans, against the Rust
    example scanning the same table and columns."""
    # scan_world counts rows by the first column (a string column).
    cases = [("chunks", ["status", "chunk_x", "chunk_z", "data_version", "inhabited_time"]),
             ("block_entities", ["id", "x", "y", "z"]), ("blocks", ["block_state", "count"])]

    print("\n| table, columns | scan → pyarrow (Python process) CPU s | of it: import simdnbt, pyarrow | scan_world (Rust) CPU s | × |")
    print("|---|---|---|---|---|")
    imp = [sys.executable, "-c", "import simdnbt, pyarrow"]
    for table, cols in cases:
        py = [sys.executable, "-c",
              f"import simdnbt; t = simdnbt.scan({str(world)!r}, table={table!r}, columns={cols!r}); "
              "print(t.num_rows)"]
        rust = [scan_world, str(world), table] + cols
        got = {"py": [], "imp": [], "rust": []}
        for _ in range(3):
            got["py"].append(run(py))
            got["imp"].append(run(imp))
            got["rust"].append(run(rust))
        m = {k: statistics.median(v) for k, v in got.items()}
        print(f"| {table}: {', '.join(cols)} | {m['py']:.2f} | {m['imp']:.2f} | {m['rust']:.2f} | "
              f"{m['py'] / m['rust']:.2f}× ({(m['py'] - m['imp']) / m['rust']:.2f}× without the imports) |")


def export_table(world, nbt):
    """The issue's yardstick: a Python process scanning a whole built-in
    table (every column) into a pyarrow.Table, against `nbt export` of the
    same table to Parquet (the same scan, plus Parquet encoding and
    writing). Whole processes, CPU seconds by getrusage of the children,
    median of three interleaved rounds."""
    import tempfile

    print("\n| table (every column) | scan → pyarrow (Python process) CPU s | `nbt export --to parquet` CPU s | × |")
    print("|---|---|---|---|")
    for table in ["chunks", "entities", "block_entities", "blocks"]:
        py = [sys.executable, "-c",
              f"import simdnbt; t = simdnbt.scan({str(world)!r}, table={table!r}); print(t.num_rows)"]
        got = {"py": [], "nbt": []}
        for _ in range(3):
            got["py"].append(run(py))
            with tempfile.TemporaryDirectory() as out:
                got["nbt"].append(run([nbt, "export", str(world), "--table", table, "--to", "parquet",
                                       "-o", os.path.join(out, "t")]))
        m = {k: statistics.median(v) for k, v in got.items()}
        print(f"| {table} | {m['py']:.2f} | {m['nbt']:.2f} | {m['py'] / m['nbt']:.2f}× |")


def main():
    corpus = Path(sys.argv[1])
    print(f"simdnbt {simdnbt.__version__}, nbtlib {nbtlib.__version__ if hasattr(nbtlib, '__version__') else '?'}, "
          f"amulet_nbt {getattr(amulet_nbt, '__version__', 'not installed')}, Python {sys.version.split()[0]}\n")
    load_table(corpus)
    path_table(corpus)
    if len(sys.argv) > 3:
        scan_table(Path(sys.argv[2]), sys.argv[3])
    if len(sys.argv) > 4:
        export_table(Path(sys.argv[2]), sys.argv[4])


if __name__ == "__main__":
    os.environ.setdefault("RAYON_NUM_THREADS", "2")
    main()
