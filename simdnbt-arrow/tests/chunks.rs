//! The `chunks` table, `Source` discovery and the scanners, on the test world.

mod common;

use arrow_array::{Array, TimestampSecondArray};
use common::*;
use simdnbt_arrow::{PartitionKind, ScanOptions, Source, Table, scan, scan_partition};

#[test]
fn a_world_folder_has_every_dimension_and_file() {
    let w = world();
    let source = Source::open(&w.dir).unwrap();
    let parts = source.partitions();
    let mut dims: Vec<&str> = parts
        .iter()
        .filter(|p| p.kind == PartitionKind::Region)
        .map(|p| p.dimension.as_str())
        .collect();
    dims.dedup();
    assert_eq!(dims, ["overworld", "the_nether", "the_end", "mymod:sky"]);
    let count = |k| parts.iter().filter(|p| p.kind == k).count();
    assert_eq!(count(PartitionKind::Region), 5);
    assert_eq!(count(PartitionKind::Entities), 2);
    assert_eq!(count(PartitionKind::Player), 2);
    assert_eq!(count(PartitionKind::Level), 1);
    let end = parts.iter().find(|p| p.dimension == "the_end").unwrap();
    assert_eq!(end.region, Some((-6, -1)));
    // A region folder, a region file and an NBT file open by themselves.
    let nether = Source::open(w.dir.join("DIM-1/entities")).unwrap();
    assert_eq!(nether.partitions()[0].kind, PartitionKind::Entities);
    assert_eq!(nether.partitions()[0].dimension, "the_nether");
    let one = Source::open(w.dir.join("region/r.0.0.mca")).unwrap();
    assert_eq!(one.partitions().len(), 1);
    let level = Source::open(w.dir.join("level.dat")).unwrap();
    assert_eq!(level.partitions()[0].kind, PartitionKind::Level);
    // A folder with nothing to read is an error naming it.
    let empty = std::env::temp_dir().join(format!("simdnbt-arrow-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let e = Source::open(&empty).unwrap_err().to_string();
    assert!(e.contains("simdnbt-arrow-empty"), "{e}");
    assert!(Source::open(empty.join("missing")).is_err());
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn every_chunk_is_a_row_and_the_broken_one_is_a_warning() {
    let w = world();
    let chunks = Table::builtin("chunks").unwrap();
    let (batches, warnings) = scan_all(&chunks, &ScanOptions::default());
    assert_eq!(rows(&batches), w.region_chunks);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].path, w.broken.0);
    assert_eq!(warnings[0].chunk, Some(w.broken.1));
    // Its row has the header's columns and no NBT ones.
    let xs = ints(&batches, "chunk_x");
    let zs = ints(&batches, "chunk_z");
    let versions = ints(&batches, "data_version");
    let broken = (0..xs.len())
        .find(|&i| (xs[i], zs[i]) == (Some(w.broken.1.0), Some(w.broken.1.1)))
        .unwrap();
    assert_eq!(versions[broken], None);
    // The corpus region: 676 chunks of DataVersion 3337, all `minecraft:full`? At least counted.
    let by_version = tally(&versions);
    assert_eq!(by_version[&Some(3337)], 676, "{by_version:?}");
    let dims = tally(&strings(&batches, "dimension"));
    assert_eq!(dims[&Some("the_end".to_owned())], 1);
    assert_eq!(dims[&Some("mymod:sky".to_owned())], 1);
    assert_eq!(dims[&Some("the_nether".to_owned())], 2);
    // Compression as the header says: the kit's region rotates them.
    let compressions = tally(&strings(&batches, "compression"));
    for c in ["zlib", "gzip", "none", "lz4"] {
        assert!(
            compressions.contains_key(&Some(c.to_owned())),
            "{compressions:?}"
        );
    }
    // The End chunk is where it came from: region (-6, -1), local (7, 25).
    let end = (0..xs.len()).find(|&i| xs[i] == Some(-6 * 32 + 7)).unwrap();
    assert_eq!(zs[end], Some(-32 + 25));
    // Save times are the header's.
    let times: Vec<i64> = batches
        .iter()
        .flat_map(|b| {
            let a = b.column_by_name("save_time").unwrap();
            let a = a.as_any().downcast_ref::<TimestampSecondArray>().unwrap();
            a.iter().flatten().collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(times.len(), w.region_chunks);
    assert!(times.contains(&i64::from(testkit::world::TIMESTAMP)));
}

#[test]
fn header_columns_do_not_read_the_chunks() {
    let w = world();
    let chunks = Table::builtin("chunks").unwrap();
    // compression, chunk_x: no NBT column, so the broken chunk is not even inflated.
    let opts = ScanOptions::default().with_projection(vec![8, 1]);
    let (batches, warnings) = scan_all(&chunks, &opts);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(rows(&batches), w.region_chunks);
    let schema = batches[0].schema();
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["compression", "chunk_x"]);
    // No column at all: the rows are still counted.
    let (batches, _) = scan_all(&chunks, &ScanOptions::default().with_projection(vec![]));
    assert_eq!(rows(&batches), w.region_chunks);
    assert!(batches.iter().all(|b| b.num_columns() == 0));
}

#[test]
fn partitions_one_by_one_give_what_the_parallel_scan_gives() {
    let w = world();
    let source = Source::open(&w.dir).unwrap();
    let chunks = Table::builtin("chunks").unwrap();
    let opts = ScanOptions::default().with_batch_rows(100);
    let mut total = 0;
    let mut warnings = Vec::new();
    for part in source.partitions() {
        let mut s = scan_partition(&chunks, part, &opts).unwrap();
        for batch in s.by_ref() {
            let batch = batch.unwrap();
            assert!(batch.num_rows() <= 100);
            total += batch.num_rows();
        }
        warnings.extend(s.take_warnings());
        // Tables that do not read a kind give nothing for it.
        if !part.kind.is_region() || part.kind != PartitionKind::Region {
            let again = scan_partition(&chunks, part, &opts).unwrap();
            assert_eq!(again.count(), 0);
        }
    }
    assert_eq!(total, w.region_chunks);
    assert_eq!(warnings.len(), 1);
    for threads in [1, 3] {
        let opts = opts.clone().with_threads(threads);
        let (batches, warnings) = scan_all(&chunks, &opts);
        assert_eq!(rows(&batches), total);
        assert_eq!(warnings.len(), 1);
    }
}

#[test]
fn a_dropped_scan_stops_and_progress_adds_up() {
    let w = world();
    let source = Source::open(&w.dir).unwrap();
    let chunks = Table::builtin("chunks").unwrap();
    let opts = ScanOptions::default().with_batch_rows(1).with_threads(2);
    // Take one batch of 1 row and drop the scan: the workers, blocked on the
    // full channel, must stop (this test would hang otherwise).
    let mut s = scan(&source, &chunks, &opts);
    assert_eq!(s.next().unwrap().unwrap().num_rows(), 1);
    drop(s);
    let mut s = scan(&source, &chunks, &opts);
    let n = s.by_ref().count();
    assert_eq!(n, w.region_chunks);
    let p = s.progress();
    assert_eq!(p.partitions_done, p.partitions_total);
    assert!(p.bytes_done > 0 && p.bytes_done <= p.bytes_total, "{p:?}");
}

#[test]
fn a_projection_past_the_schema_is_an_error_naming_the_table() {
    let source = Source::open(&world().dir).unwrap();
    let chunks = Table::builtin("chunks").unwrap();
    let opts = ScanOptions::default().with_projection(vec![99]);
    let e = scan_partition(&chunks, &source.partitions()[0], &opts).unwrap_err();
    assert!(e.to_string().contains("chunks"), "{e}");
    let mut s = scan(&source, &chunks, &opts);
    assert!(s.next().unwrap().is_err());
    assert!(s.next().is_none());
}

#[test]
fn a_broken_region_header_is_a_warning_in_a_scan_and_an_error_alone() {
    let dir = std::env::temp_dir().join(format!("simdnbt-arrow-badheader-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("region")).unwrap();
    // Three bytes: shorter than the header.
    std::fs::write(dir.join("region/r.0.0.mca"), [1, 2, 3]).unwrap();
    let source = Source::open(&dir).unwrap();
    let chunks = Table::builtin("chunks").unwrap();
    let mut s = scan(&source, &chunks, &ScanOptions::default());
    assert!(s.by_ref().next().is_none());
    let warnings = s.warnings();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].to_string().contains("r.0.0.mca"),
        "{}",
        warnings[0]
    );
    let mut one =
        scan_partition(&chunks, &source.partitions()[0], &ScanOptions::default()).unwrap();
    let e = one.next().unwrap().unwrap_err();
    assert!(e.to_string().contains("r.0.0.mca"), "{e}");
    assert!(one.next().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
