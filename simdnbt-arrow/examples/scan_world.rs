//! Scans a world for one table and counts rows by the first column asked
//! for: what `SELECT col, count(*) FROM table GROUP BY col` reads, without
//! an SQL engine. For measuring CPU time and peak memory:
//!
//! ```sh
//! cargo build --release -p simdnbt-arrow --example scan_world
//! /usr/bin/time -v target/release/examples/scan_world WORLD entities id
//! ```

use std::collections::HashMap;

use arrow_array::{Array, StringArray};
use simdnbt_arrow::{ScanOptions, Source, Table, scan};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [world, table, columns @ ..] = &args[..] else {
        eprintln!("usage: scan_world WORLD TABLE [COLUMN...]");
        std::process::exit(2);
    };
    let source = Source::open(world).unwrap_or_else(|e| panic!("{e}"));
    let table = Table::builtin(table).unwrap_or_else(|| panic!("no table {table}"));
    let schema = table.schema();
    let projection: Vec<usize> = columns
        .iter()
        .map(|c| {
            schema
                .index_of(c)
                .unwrap_or_else(|_| panic!("no column {c}"))
        })
        .collect();
    let opts = ScanOptions::default().with_projection(projection);
    let mut scan = scan(&source, &table, &opts);
    let mut groups: HashMap<String, u64> = HashMap::new();
    let mut rows = 0u64;
    for batch in scan.by_ref() {
        let batch = batch.unwrap_or_else(|e| panic!("{e}"));
        rows += batch.num_rows() as u64;
        if batch.num_columns() == 0 {
            continue;
        }
        let col = batch.column(0);
        if let Some(s) = col.as_any().downcast_ref::<StringArray>() {
            for v in s.iter() {
                *groups.entry(v.unwrap_or("NULL").to_owned()).or_default() += 1;
            }
        } else {
            let text = format!("{:?}", col.data_type());
            *groups.entry(text).or_default() += col.len() as u64;
        }
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.1));
    for (k, n) in groups.iter().take(10) {
        println!("{n:>10}  {k}");
    }
    let warnings = scan.warnings();
    eprintln!(
        "{rows} rows, {} groups, {} warnings, {} of {} bytes",
        groups.len(),
        warnings.len() as u64 + scan.dropped_warnings(),
        scan.progress().bytes_done,
        scan.progress().bytes_total
    );
}
