//! Shared helpers: the assembled world (once per test binary) and column readers.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use arrow_array::{Array, Float64Array, Int32Array, RecordBatch, StringArray};
use simdnbt_arrow::{ScanOptions, Source, Table, Warning, scan};
use testkit::world::WorldInfo;

/// The test world, assembled once per test binary in a temporary folder.
pub fn world() -> &'static WorldInfo {
    static WORLD: OnceLock<WorldInfo> = OnceLock::new();
    WORLD.get_or_init(|| {
        // One folder per test binary (they run one after the other), rewritten each run.
        let exe = std::env::current_exe().unwrap();
        let name = exe.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("world-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        testkit::world::assemble(&dir).expect("the test world assembles")
    })
}

/// Every batch of `table` on the test world (parallel scan) and the warnings.
pub fn scan_all(table: &Table, opts: &ScanOptions) -> (Vec<RecordBatch>, Vec<Warning>) {
    let source = Source::open(&world().dir).unwrap();
    let mut scan = scan(&source, table, opts);
    let batches: Vec<RecordBatch> = scan.by_ref().map(|b| b.unwrap()).collect();
    (batches, scan.warnings())
}

pub fn rows(batches: &[RecordBatch]) -> usize {
    batches.iter().map(|b| b.num_rows()).sum()
}

pub fn strings(batches: &[RecordBatch], col: &str) -> Vec<Option<String>> {
    batches
        .iter()
        .flat_map(|b| {
            let a = b.column_by_name(col).unwrap();
            let a = a.as_any().downcast_ref::<StringArray>().unwrap();
            (0..a.len())
                .map(|i| a.is_valid(i).then(|| a.value(i).to_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

pub fn ints(batches: &[RecordBatch], col: &str) -> Vec<Option<i32>> {
    batches
        .iter()
        .flat_map(|b| {
            let a = b.column_by_name(col).unwrap();
            let a = a.as_any().downcast_ref::<Int32Array>().unwrap();
            a.iter().collect::<Vec<_>>()
        })
        .collect()
}

pub fn floats(batches: &[RecordBatch], col: &str) -> Vec<Option<f64>> {
    batches
        .iter()
        .flat_map(|b| {
            let a = b.column_by_name(col).unwrap();
            let a = a.as_any().downcast_ref::<Float64Array>().unwrap();
            a.iter().collect::<Vec<_>>()
        })
        .collect()
}

/// How many times each value occurs.
pub fn tally<T: Ord + Clone>(values: &[T]) -> BTreeMap<T, usize> {
    let mut m = BTreeMap::new();
    for v in values {
        *m.entry(v.clone()).or_default() += 1;
    }
    m
}
