//! The headline table: one file, every library, read, write and
//! decode_all with their ratios, and read and decode_all against the floor
//! (`compare::floor`, the walker that checks what every reader must and
//! keeps nothing: how close to the limit each library is). The bench prints
//! it when it ends; the report writes it to `headline.md` and into
//! `compare.md`.

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
    // The floor's read time: "÷ floor" is a time ratio (1.00× = as fast as
    // the walker that keeps nothing; higher is slower).
    let floor = read
        .and_then(|t| t.rows.iter().find(|r| r.peer == FLOOR))
        .map(|r| r.median.point)
        .filter(|t| *t > 0.0);
    let floor_note = match floor {
        Some(_) => {
            "; \"÷ floor\": time ÷ the floor's read time (the walker that checks what every \
             reader must and keeps nothing)"
        }
        None => "; no floor ran, so no \"÷ floor\"",
    };
    let _ = writeln!(
        md,
        "`{file}`, throughput at the median time; read and decode_all ratios vs {}, write ratios vs {}{floor_note}. {provenance}\n",
        label(read.or(decode)),
        label(write)
    );
    md.push_str(
        "| Library | Read | Read ratio | Read ÷ floor | Write | Write ratio | Decode all | Decode all ratio | Decode all ÷ floor |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
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
    let dash = || "—".to_owned();
    // (throughput, ratio to the baseline, time ÷ the floor's read time)
    let cell = |t: Option<&Table>, peer: &str| {
        let row = t.and_then(|t| t.rows.iter().find(|r| r.peer == peer));
        match row {
            Some(r) => (
                r.bytes_per_sec
                    .map_or_else(|| format::time_ns(r.median.point), format::throughput),
                r.ratio.map_or_else(dash, format::ratio),
                floor.map_or_else(dash, |f| format::ratio(r.median.point / f)),
            ),
            None => (dash(), dash(), dash()),
        }
    };
    for peer in order {
        let (rt, rr, rf) = cell(read, peer);
        let (wt, wr, _) = cell(write, peer);
        let (dt, dr, df) = cell(decode, peer);
        let _ = writeln!(
            md,
            "| {} | {rt} | {rr} | {rf} | {wt} | {wr} | {dt} | {dr} | {df} |",
            peer_cell(peer)
        );
    }
    md
}

/// The floor's peer name.
const FLOOR: &str = "floor";

/// A peer's name, in bold and marked for this workspace's own.
pub fn peer_cell(peer: &str) -> String {
    if peers::is_ours(peer) {
        format!("**{peer}** (ours)")
    } else {
        peer.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(peer: &str, workload: Workload, ns: f64) -> Measurement {
        crate::tables::tests::m("f.nbt", peer, workload, ns)
    }

    #[test]
    fn read_and_decode_all_are_given_against_the_floors_read_time() {
        let ms = [
            m("floor", Workload::Read, 1000.0),
            m("simdnbt_borrow", Workload::Read, 1160.0),
            m("simdnbt_borrow", Workload::DecodeAll, 3900.0),
            m("simdnbt_borrow", Workload::Write, 50.0),
        ];
        let md = table("f.nbt", &ms, "Test.");
        let row = |peer: &str| {
            md.lines()
                .find(|l| l.starts_with(&format!("| {peer}")))
                .unwrap_or_else(|| panic!("no row for {peer} in\n{md}"))
                .to_owned()
        };
        let cells = |line: String| -> Vec<String> {
            line.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        };
        let ours = cells(row("**simdnbt_borrow**"));
        assert_eq!(ours[3], "1.16×", "read ÷ floor: {md}");
        assert_eq!(ours[5], "1.00×", "write ratio: {md}");
        assert_eq!(ours[8], "3.90×", "decode_all ÷ floor: {md}");
        let floor = cells(row("floor"));
        assert_eq!((floor[3].as_str(), floor[8].as_str()), ("1.00×", "—"));
        assert!(md.contains("\"÷ floor\": time ÷ the floor's read time"));
    }
}
