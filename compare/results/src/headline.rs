//! The headline table: one file, every library, read, write and
//! decode_all with their ratios. The bench prints it when it ends; the
//! report writes it to `headline.md` and into `compare.md`.

use std::fmt::Write as _;

use crate::criterion::{Measurement, Workload};
use crate::format;
use crate::peers;
use crate::tables::{self, Table};

/// The headline for `file` as a markdown table, preceded by one sentence
/// naming the baselines and `provenance` (which run the numbers are from).
pub fn table(file: &str, measurements: &[Measurement], provenance: &str) -> String {
    let tables = tables::build(
        &measurements
            .iter()
            .filter(|m| m.file == file)
            .cloned()
            .collect::<Vec<_>>(),
    );
    let find = |w: Workload| tables.iter().find(|t| t.workload == w);
    let (read, write, decode) = (
        find(Workload::Read),
        find(Workload::Write),
        find(Workload::DecodeAll),
    );
    if read.is_none() && write.is_none() && decode.is_none() {
        return format!("No results for `{file}`.\n");
    }
    let mut md = String::new();
    let label =
        |t: Option<&Table>| t.map_or_else(|| "n/a".to_owned(), |t| t.baseline_label.clone());
    let _ = writeln!(
        md,
        "`{file}`, throughput at the median time; read and decode_all ratios vs {}, write ratios vs {}. {provenance}\n",
        label(read.or(decode)),
        label(write)
    );
    md.push_str(
        "| Library | Read | Read ratio | Write | Write ratio | Decode all | Decode all ratio |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    // Order: by read rank, then peers that only have other results.
    let mut order: Vec<&str> = Vec::new();
    for t in [read, write, decode].into_iter().flatten() {
        for r in &t.rows {
            if !order.contains(&r.peer.as_str()) {
                order.push(&r.peer);
            }
        }
    }
    let cell = |t: Option<&Table>, peer: &str| {
        let row = t.and_then(|t| t.rows.iter().find(|r| r.peer == peer));
        match row {
            Some(r) => (
                r.bytes_per_sec
                    .map_or_else(|| format::time_ns(r.median.point), format::throughput),
                r.ratio.map_or_else(|| "—".to_owned(), format::ratio),
            ),
            None => ("—".to_owned(), "—".to_owned()),
        }
    };
    for peer in order {
        let (rt, rr) = cell(read, peer);
        let (wt, wr) = cell(write, peer);
        let (dt, dr) = cell(decode, peer);
        let _ = writeln!(
            md,
            "| {} | {rt} | {rr} | {wt} | {wr} | {dt} | {dr} |",
            peer_cell(peer)
        );
    }
    md
}

/// A peer's name, in bold and marked for this workspace's own.
pub fn peer_cell(peer: &str) -> String {
    if peers::is_ours(peer) {
        format!("**{peer}** (ours)")
    } else {
        peer.to_owned()
    }
}
