//! Every built-in table's counts against an independent reading of the test
//! world with nbtlib (`tests/independent.py`: its own region reader,
//! decompression, palette unpacking). The interpreter is `$SIMDNBT_PYTHON`,
//! else `python3`; without nbtlib the test says so and passes.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::*;
use serde_json::Value;
use simdnbt_arrow::{ScanOptions, Table};

fn python() -> String {
    std::env::var("SIMDNBT_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn independent() -> Option<Value> {
    let python = python();
    let has_nbtlib = Command::new(&python)
        .args(["-c", "import nbtlib"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_nbtlib {
        eprintln!(
            "SKIPPED: `{python} -c 'import nbtlib'` failed; set SIMDNBT_PYTHON to an \
             interpreter with nbtlib (pip install nbtlib) to run the independent reading"
        );
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/independent.py");
    let out = Command::new(&python)
        .arg(script)
        .arg(&world().dir)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "independent.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("independent.py prints JSON"))
}

fn counts(v: &Value) -> BTreeMap<String, u64> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

fn table(name: &str) -> (Vec<arrow_array::RecordBatch>, Vec<simdnbt_arrow::Warning>) {
    scan_all(&Table::builtin(name).unwrap(), &ScanOptions::default())
}

fn by<T: ToString>(values: &[Option<T>]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for v in values {
        let k = v.as_ref().map_or("None".to_owned(), |v| v.to_string());
        *m.entry(k).or_default() += 1;
    }
    m
}

#[test]
fn every_table_agrees_with_nbtlib() {
    let Some(py) = independent() else { return };

    let (chunks, warnings) = table("chunks");
    assert_eq!(rows(&chunks) as u64, py["chunks"].as_u64().unwrap());
    assert_eq!(
        warnings.len() as u64,
        py["chunk_warnings"].as_u64().unwrap()
    );
    let versions = ints(&chunks, "data_version");
    let statuses = strings(&chunks, "status");
    let keys: Vec<Option<String>> = versions
        .iter()
        .zip(&statuses)
        .map(|(v, s)| {
            let v = v.map_or("None".into(), |v| v.to_string());
            let s = s.clone().unwrap_or_else(|| "None".into());
            Some(format!("{v}/{s}"))
        })
        .collect();
    assert_eq!(by(&keys), counts(&py["chunks_by_version_status"]));
    assert_eq!(
        by(&strings(&chunks, "dimension")),
        counts(&py["chunks_by_dimension"])
    );

    let (entities, _) = table("entities");
    assert_eq!(by(&strings(&entities, "id")), counts(&py["entities"]));
    let (bes, _) = table("block_entities");
    assert_eq!(by(&strings(&bes, "id")), counts(&py["block_entities"]));

    let (items, _) = table("items");
    let ids = strings(&items, "id");
    let n = ints(&items, "count");
    let mut ours: BTreeMap<String, (u64, i64)> = BTreeMap::new();
    for (id, n) in ids.iter().zip(&n) {
        let e = ours.entry(id.clone().unwrap()).or_default();
        e.0 += 1;
        e.1 += i64::from(n.unwrap());
    }
    let theirs: BTreeMap<String, (u64, i64)> = py["items"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), (v[0].as_u64().unwrap(), v[1].as_i64().unwrap())))
        .collect();
    assert_eq!(ours, theirs);
    assert!(
        ours.len() > 10,
        "the world has items of many kinds: {ours:?}"
    );

    let (blocks, warnings) = table("blocks");
    let states = strings(&blocks, "block_state");
    let n = ints(&blocks, "count");
    let mut ours: BTreeMap<String, u64> = BTreeMap::new();
    for (s, n) in states.iter().zip(&n) {
        *ours.entry(s.clone().unwrap()).or_default() += n.unwrap() as u64;
    }
    assert_eq!(ours, counts(&py["blocks"]));
    // The broken chunk is the only chunk warning; sections skipped agree.
    let section_warnings = warnings
        .iter()
        .filter(|w| w.message.contains("sections["))
        .count();
    assert_eq!(
        section_warnings as u64,
        py["block_warnings"].as_u64().unwrap()
    );

    let (biomes, _) = table("biomes");
    let mut ours: BTreeMap<String, u64> = BTreeMap::new();
    for (b, n) in strings(&biomes, "biome")
        .iter()
        .zip(&ints(&biomes, "count"))
    {
        *ours.entry(b.clone().unwrap()).or_default() += n.unwrap() as u64;
    }
    assert_eq!(ours, counts(&py["biomes"]));
    assert!(ours.len() > 3, "{ours:?}");

    let (players, _) = table("players");
    let mut ours: Vec<(Option<i32>, Option<i32>)> = ints(&players, "xp_level")
        .into_iter()
        .zip(ints(&players, "inventory_size"))
        .collect();
    let mut theirs: Vec<(Option<i32>, Option<i32>)> = py["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let get = |k: &str| p[k].as_i64().map(|v| v as i32);
            (get("xp_level"), get("inventory_size"))
        })
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
}
