//! End-to-end tests of `nbt sql`, `nbt export` and `nbt prune` on the test
//! world of `testkit::world` (several chunk formats and dimensions, entity
//! region files, player files, a chunk that does not inflate).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use simdnbt::region::Region;
use simdnbt_arrow::{ScanOptions, Source, Table};
use tempfile::TempDir;
use testkit::world::WorldInfo;

fn nbt() -> Command {
    Command::cargo_bin("nbt").expect("the nbt binary is built")
}

fn world(dir: &TempDir) -> WorldInfo {
    testkit::world::assemble(&dir.path().join("world")).expect("the test world")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("nbt runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// `nbt sql W QUERY --format csv`, its exit status and lines (header first).
fn sql(w: &Path, query: &str) -> (Option<i32>, Vec<String>, String) {
    let r = run(nbt().arg("sql").arg(w).arg(query).args(["--format", "csv"]));
    (
        r.code,
        r.stdout.lines().map(str::to_owned).collect(),
        r.stderr,
    )
}

/// Rows of `table` per value of column `key`, counted by the scanner itself
/// (what `GROUP BY key` must give).
fn scanned(w: &Path, table: &str, key: &str) -> BTreeMap<String, usize> {
    let table = Table::builtin(table).unwrap();
    let index = table.schema().index_of(key).unwrap();
    let opts = ScanOptions::default().with_projection(vec![index]);
    let mut counts = BTreeMap::new();
    for batch in simdnbt_arrow::scan(&Source::open(w).unwrap(), &table, &opts) {
        let batch = batch.unwrap();
        let column = datafusion::arrow::compute::cast(
            batch.column(0),
            &datafusion::arrow::datatypes::DataType::Utf8,
        )
        .unwrap();
        let column = datafusion::arrow::array::AsArray::as_string::<i32>(&column);
        for value in column.iter() {
            *counts.entry(value.unwrap_or("").to_owned()).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn sql_counts_every_chunk_and_names_the_broken_one() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    // count(*) reads only the region headers: the broken chunk counts and
    // nothing is skipped.
    let (code, lines, stderr) = sql(&w.dir, "SELECT count(*) AS n FROM chunks");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(lines, ["n".to_owned(), w.region_chunks.to_string()]);
    // Its data version needs the chunk inflated: it is null, and named.
    let (code, lines, stderr) = sql(
        &w.dir,
        "SELECT count(*) AS n, count(data_version) AS v FROM chunks",
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        lines[1],
        format!("{},{}", w.region_chunks, w.region_chunks - 1)
    );
    let (x, z) = w.broken.1;
    assert!(
        stderr.contains(&format!("r.-1.0.mca: chunk ({x}, {z})")),
        "{stderr}"
    );
    assert!(stderr.contains("1 chunk or file skipped"), "{stderr}");
}

#[test]
fn sql_groups_entities_as_the_scanner_reads_them() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let (code, lines, stderr) = sql(
        &w.dir,
        "SELECT id, count(*) AS n FROM entities GROUP BY id ORDER BY id",
    );
    assert!(code == Some(0) || code == Some(2), "{stderr}");
    let got: BTreeMap<String, usize> = lines[1..]
        .iter()
        .map(|l| {
            let (id, n) = l.rsplit_once(',').unwrap();
            (id.to_owned(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(got, scanned(&w.dir, "entities", "id"));
    // The kit's entities are there, the passenger too, each in its dimension.
    assert!(got["minecraft:item"] >= 2, "{got:?}");
    assert_eq!(got["minecraft:chicken"], 1);
    let (_, lines, _) = sql(
        &w.dir,
        "SELECT dimension, chunk_x, chunk_z FROM entities WHERE id = 'minecraft:piglin'",
    );
    assert_eq!(lines[1..], ["the_nether,0,0".to_owned()]);
}

#[test]
fn sql_prints_tables_json_and_parquet() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let query = "SELECT dimension, count(*) AS n FROM chunks GROUP BY dimension ORDER BY dimension";
    let table = run(nbt().arg("sql").arg(&w.dir).arg(query));
    assert_eq!(table.code, Some(0), "{}", table.stderr);
    assert!(table.stdout.starts_with("+---"), "{}", table.stdout);
    assert!(table.stdout.contains("| dimension "), "{}", table.stdout);
    assert!(table.stdout.contains("| mymod:sky "), "{}", table.stdout);
    assert!(table.stderr.contains("rows"), "{}", table.stderr);
    // No row: the header still says what was asked (not an empty "++").
    let empty = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg("SELECT id, count(*) AS n FROM entities WHERE id = 'no:such' GROUP BY id"));
    assert!(empty.stdout.contains("| id | n |"), "{}", empty.stdout);
    let empty_csv = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg("SELECT id, count(*) AS n FROM entities WHERE id = 'no:such' GROUP BY id")
        .args(["--format", "csv"]));
    assert_eq!(empty_csv.stdout, "id,n\n", "{}", empty_csv.stderr);

    let json = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg(query)
        .args(["--format", "json"]));
    let rows: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), w.dimensions.len());
    let total: u64 = rows.iter().map(|r| r["n"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, w.region_chunks);

    let file = dir.path().join("out/counts.parquet");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let pq = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg(query)
        .args(["--format", "parquet", "-o"])
        .arg(&file));
    assert_eq!(pq.code, Some(0), "{}", pq.stderr);
    assert_eq!(parquet_rows(&file), w.dimensions.len());
    // Nothing but the file: the temporary file was renamed.
    let names: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["counts.parquet"]);
}

#[test]
fn sql_errors_name_the_column_and_the_table() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let r = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg("SELECT nope_col FROM chunks"));
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("nope_col"), "{}", r.stderr);
    let r = run(nbt().arg("sql").arg(&w.dir).arg("SELECT * FROM nope_table"));
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("nope_table"), "{}", r.stderr);
    let out = dir.path().join("never.csv");
    let r = run(nbt()
        .arg("sql")
        .arg(&w.dir)
        .arg("SELEC 1")
        .args(["--format", "csv", "-o"])
        .arg(&out));
    assert_eq!(r.code, Some(2));
    assert!(!out.exists(), "no file for a query that failed");
    let r = run(nbt()
        .arg("sql")
        .arg(dir.path().join("no-world"))
        .arg("SELECT 1"));
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("no-world"), "{}", r.stderr);
}

#[test]
fn sql_custom_table_agrees_with_items() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let (code, lines, stderr) = sql_custom(
        &w.dir,
        "SELECT count(*) AS n, sum(n) AS items FROM inv",
        &[
            "--table",
            "inv=Inventory[]",
            "--col",
            "id=id",
            "--col",
            "n:int=Count",
        ],
    );
    // 2: the world's broken chunk is read, named and skipped.
    assert_eq!(code, Some(2), "{stderr}");
    let (_, items, _) = sql(
        &w.dir,
        &format!(
            "SELECT count(*) AS n FROM items WHERE container = 'player' AND field = 'Inventory' \
             AND holder_uuid IN ('{}', '{}')",
            testkit::world::PLAYERS[0].0,
            testkit::world::PLAYERS[1].0
        ),
    );
    let custom: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(custom[0], items[1], "{lines:?} {items:?}");
    assert!(custom[0].parse::<usize>().unwrap() > 0);
}

fn sql_custom(w: &Path, query: &str, args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let r = run(nbt()
        .arg("sql")
        .arg(w)
        .arg(query)
        .args(["--format", "csv"])
        .args(args));
    (
        r.code,
        r.stdout.lines().map(str::to_owned).collect(),
        r.stderr,
    )
}

fn parquet_rows(file: &Path) -> usize {
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        std::fs::File::open(file).unwrap(),
    )
    .unwrap()
    .build()
    .unwrap();
    reader.map(|b| b.unwrap().num_rows()).sum()
}

/// Every file below `root`, relative to it.
fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn export_writes_a_hive_dataset() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let out = dir.path().join("chunks");
    let r = run(nbt()
        .arg("export")
        .arg(&w.dir)
        .args(["--table", "chunks", "--to", "parquet", "-o"])
        .arg(&out));
    // 2: the broken chunk's row is written, its NBT columns null, and named.
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("chunk (-1, 31)"), "{}", r.stderr);
    let written = files(&out);
    let expect = |p: &str| PathBuf::from(p);
    assert!(
        written.contains(&expect("dimension=overworld/region=r.0.0/part-0.parquet")),
        "{written:?}"
    );
    assert!(written.contains(&expect("dimension=overworld/region=r.-1.0/part-0.parquet")));
    assert!(written.contains(&expect("dimension=the_end/region=r.-6.-1/part-0.parquet")));
    assert!(written.contains(&expect("dimension=mymod%3Asky/region=r.0.0/part-0.parquet")));
    assert!(written.iter().all(|f| !f.to_string_lossy().contains("/.")));
    let rows: usize = written.iter().map(|f| parquet_rows(&out.join(f))).sum();
    assert_eq!(rows, w.region_chunks);
    // The dimension is in the path, not in the files.
    let file = std::fs::File::open(out.join("dimension=overworld/region=r.0.0/part-0.parquet"));
    let builder =
        parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file.unwrap())
            .unwrap();
    assert!(builder.schema().index_of("dimension").is_err());
    assert!(builder.schema().index_of("chunk_x").is_ok());

    // A second export into the same folder would mix with the first.
    let again = run(nbt()
        .arg("export")
        .arg(&w.dir)
        .args(["--table", "chunks", "--to", "parquet", "-o"])
        .arg(&out));
    assert_eq!(again.code, Some(2));
    assert!(again.stderr.contains("not empty"), "{}", again.stderr);
}

#[test]
fn export_csv_ndjson_and_rows_outside_regions() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    for to in ["csv", "ndjson"] {
        let out = dir.path().join(format!("entities-{to}"));
        let r = run(nbt()
            .arg("export")
            .arg(&w.dir)
            .args(["--table", "entities", "--to", to, "-o"])
            .arg(&out));
        assert!(matches!(r.code, Some(0 | 2)), "{}", r.stderr);
        let lines: usize = files(&out)
            .iter()
            .map(|f| {
                std::fs::read_to_string(out.join(f))
                    .unwrap()
                    .lines()
                    .count()
            })
            .sum();
        let headers = if to == "csv" { files(&out).len() } else { 0 };
        let total: usize = scanned(&w.dir, "entities", "id").values().sum();
        assert_eq!(lines - headers, total, "{to}");
    }
    // Players are rows of player files: in the folder of their dimension.
    let out = dir.path().join("players");
    let r = run(nbt()
        .arg("export")
        .arg(&w.dir)
        .args(["--table", "players", "--to", "parquet", "-o"])
        .arg(&out));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let written = files(&out);
    assert!(
        written
            .iter()
            .all(|f| f.to_string_lossy().contains("/region=none/"))
    );
    let rows: usize = written.iter().map(|f| parquet_rows(&out.join(f))).sum();
    let (_, lines, _) = sql(&w.dir, "SELECT count(*) FROM players");
    assert_eq!(rows.to_string(), lines[1]);
}

/// Each chunk of a region file: its header timestamp and its record (the
/// length field, the compression byte and the data), by local position.
fn records(file: &Path) -> BTreeMap<(u8, u8), (u32, Vec<u8>)> {
    let bytes = std::fs::read(file).unwrap();
    let region = Region::from_bytes(bytes.clone()).unwrap();
    region
        .chunks()
        .map(|info| {
            let start = info.sector as usize * 4096;
            let len = u32::from_be_bytes(bytes[start..start + 4].try_into().unwrap()) as usize;
            let record = bytes[start..start + 4 + len].to_vec();
            ((info.pos.x, info.pos.z), (info.timestamp, record))
        })
        .collect()
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files(root)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(root.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

#[test]
fn prune_removes_matching_chunks_and_keeps_the_others_byte_for_byte() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let condition = "dimension = 'overworld' AND chunk_z = 0 AND chunk_x < 2";
    let region = w.dir.join("region/r.0.0.mca");
    let entities = w.dir.join("entities/r.0.0.mca");
    let other = w.dir.join("region/r.-1.0.mca");
    let before = snapshot(&w.dir);
    let (_, matching, _) = sql(
        &w.dir,
        &format!("SELECT chunk_x, chunk_z FROM chunks WHERE {condition} ORDER BY 1, 2"),
    );
    let matching = matching.len() - 1;
    assert!(
        matching > 2,
        "the condition matches chunks in two region files"
    );

    let dry = run(nbt()
        .arg("prune")
        .arg(&w.dir)
        .args(["--where", condition, "--dry-run"]));
    assert_eq!(dry.code, Some(0), "{}", dry.stderr);
    assert!(
        dry.stdout.contains("r.0.0.mca chunk (1, 0)"),
        "{}",
        dry.stdout
    );
    assert!(dry.stderr.contains("would have removed"), "{}", dry.stderr);
    assert_eq!(snapshot(&w.dir), before, "a dry run writes nothing");

    let old_region = records(&region);
    let old_other = records(&other);
    let real = run(nbt()
        .arg("prune")
        .arg(&w.dir)
        .args(["--where", condition, "--backup"]));
    assert_eq!(real.code, Some(0), "{}", real.stderr);
    assert_eq!(real.stdout, dry.stdout);
    // The originals are kept as FILE.bak.
    let bak = |p: &Path| PathBuf::from(format!("{}.bak", p.display()));
    assert_eq!(
        std::fs::read(bak(&region)).unwrap(),
        before[Path::new("region/r.0.0.mca")]
    );
    assert!(bak(&entities).exists() && bak(&other).exists());

    // The matching chunks are gone; every other one is as it was.
    let (_, left, _) = sql(
        &w.dir,
        &format!("SELECT count(*) FROM chunks WHERE {condition}"),
    );
    assert_eq!(left[1], "0");
    let (_, total, _) = sql(&w.dir, "SELECT count(*) FROM chunks");
    assert_eq!(total[1], (w.region_chunks - matching).to_string());
    for (file, old) in [(&region, old_region), (&other, old_other)] {
        let new = records(file);
        assert_eq!(
            new.len(),
            old.len() - old.keys().filter(|k| !new.contains_key(k)).count()
        );
        assert!(new.len() < old.len());
        for (pos, record) in &new {
            assert_eq!(
                Some(record),
                old.get(pos),
                "{} chunk {pos:?}",
                file.display()
            );
        }
    }
    assert!(!records(&region).contains_key(&(0, 0)));
    // The chunks' entities went with them; the nether's were not touched.
    assert!(records(&entities).is_empty());
    assert_eq!(
        std::fs::read(w.dir.join("DIM-1/entities/r.0.0.mca")).unwrap(),
        before[Path::new("DIM-1/entities/r.0.0.mca")]
    );
    // The pruned file is packed: smaller than the original.
    assert!(
        std::fs::metadata(&region).unwrap().len()
            < before[Path::new("region/r.0.0.mca")].len() as u64
    );

    // Nothing matches any more: exit 1, nothing written.
    let after = snapshot(&w.dir);
    let none = run(nbt().arg("prune").arg(&w.dir).args(["--where", condition]));
    assert_eq!(none.code, Some(1), "{}", none.stderr);
    assert_eq!(snapshot(&w.dir), after);
}

#[test]
fn prune_refuses_a_bad_condition() {
    let dir = TempDir::new().unwrap();
    let w = world(&dir);
    let before = snapshot(&w.dir);
    let r = run(nbt()
        .arg("prune")
        .arg(&w.dir)
        .args(["--where", "nope_col < 3"]));
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("nope_col"), "{}", r.stderr);
    assert_eq!(snapshot(&w.dir), before);
}

#[test]
fn prune_removes_a_chunks_external_file_with_it() {
    use simdnbt::region::ChunkCompression;
    let dir = TempDir::new().unwrap();
    let folder = dir.path().join("world/region");
    std::fs::create_dir_all(&folder).unwrap();
    let chunk = |inhabited: i64, filler: usize| {
        let mut nbt = simdnbt::owned::NbtCompound::new();
        nbt.insert("DataVersion", 3700);
        nbt.insert("InhabitedTime", inhabited);
        nbt.insert("filler", simdnbt::owned::NbtTag::ByteArray(vec![7; filler]));
        let mut out = Vec::new();
        simdnbt::owned::BaseNbt::new("", nbt)
            .write(&mut out)
            .unwrap();
        out
    };
    let mut region = Region::new().with_external_dir(&folder, 0, 0);
    // Over 255 sectors uncompressed: stored in c.X.Z.mcc, as the game does.
    let big = chunk(0, 1_100_000);
    region
        .write_chunk(1, 0, &big, ChunkCompression::Uncompressed)
        .unwrap();
    region
        .write_chunk(2, 0, &chunk(0, 10), ChunkCompression::Zlib)
        .unwrap();
    region
        .write_chunk(3, 0, &chunk(5000, 10), ChunkCompression::Zlib)
        .unwrap();
    let file = folder.join("r.0.0.mca");
    region.save(&file).unwrap();
    let mcc = folder.join("c.1.0.mcc");
    assert!(mcc.is_file(), "the big chunk is external");
    let w = dir.path().join("world");

    let dry =
        run(nbt()
            .arg("prune")
            .arg(&w)
            .args(["--where", "inhabited_time < 100", "--dry-run"]));
    assert_eq!(dry.code, Some(0), "{}", dry.stderr);
    assert!(mcc.is_file(), "a dry run removes nothing");

    let real = run(nbt()
        .arg("prune")
        .arg(&w)
        .args(["--where", "inhabited_time < 100"]));
    assert_eq!(real.code, Some(0), "{}", real.stderr);
    assert!(!mcc.exists(), "the removed chunk's .mcc is gone");
    let left = records(&file);
    assert_eq!(left.keys().collect::<Vec<_>>(), [&(3, 0)]);
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        1,
        "nothing but the region file is left"
    );
}

#[test]
fn sql_skips_region_files_the_where_rules_out_unread() {
    use simdnbt::region::ChunkCompression;
    let dir = TempDir::new().unwrap();
    let w = dir.path().join("world");
    let chunk = [0x0a, 0, 0, 3, 0, 1, b'v', 0, 0, 0, 1, 0];
    let save = |file: &str, xs: &[i32]| {
        let path = w.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut region = Region::new();
        for &x in xs {
            region
                .write_chunk(x, 0, &chunk, ChunkCompression::Zlib)
                .unwrap();
        }
        region.save(path).unwrap();
    };
    // Chunks 0, 1 and -1 of the overworld; two files that do not open.
    save("region/r.0.0.mca", &[0, 1]);
    save("region/r.-1.0.mca", &[31]);
    std::fs::write(w.join("region/r.1.0.mca"), [0xff; 8192]).unwrap();
    std::fs::create_dir_all(w.join("DIM-1/region")).unwrap();
    std::fs::write(w.join("DIM-1/region/r.0.0.mca"), [0xff; 8192]).unwrap();

    let (code, lines, stderr) = sql(&w, "SELECT count(*) AS n FROM chunks");
    assert_eq!(code, Some(2), "every file read: the broken ones named");
    assert_eq!(lines[1], "3");
    assert!(
        stderr.contains("r.1.0.mca") && stderr.contains("DIM-1"),
        "{stderr}"
    );
    // Each condition rules both broken files out: they are never opened.
    for (condition, n) in [
        ("dimension = 'overworld' AND chunk_x < 32", "3"),
        (
            "chunk_x BETWEEN -40 AND 31 AND dimension IN ('overworld')",
            "3",
        ),
        (
            "NOT (chunk_x >= 0) OR (chunk_x = 1 AND dimension <> 'the_nether')",
            "2",
        ),
        ("chunk_z = 0 AND 0 > chunk_x", "1"),
    ] {
        let (code, lines, stderr) = sql(
            &w,
            &format!("SELECT count(*) AS n FROM chunks WHERE {condition}"),
        );
        assert_eq!(code, Some(0), "{condition}: {stderr}");
        assert_eq!(lines[1], n, "{condition}");
    }
    let (_, plan, _) = sql(&w, "EXPLAIN SELECT count(*) FROM chunks WHERE chunk_x = -1");
    assert!(plan.join("\n").contains("files=1"), "{plan:?}");
}
