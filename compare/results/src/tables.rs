//! Turning measurements into per-file, per-workload ranked tables.

use crate::criterion::{Estimate, Measurement, Workload};
use crate::peers;

/// One row of a ranked table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Peer name.
    pub peer: String,
    /// Whether this is one of this workspace's simdnbt configurations.
    pub ours: bool,
    /// Bytes per second at the median time (`None` without a byte
    /// throughput).
    pub bytes_per_sec: Option<f64>,
    /// Median time per iteration, with its confidence interval (ns).
    pub median: Estimate,
    /// Speed relative to the table's baseline: `baseline median / this
    /// median`, i.e. throughput ratio (0.5 = half the baseline's throughput).
    /// `None` when the baseline did not run.
    pub ratio: Option<f64>,
}

/// The results of one workload on one file, fastest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The benchmarked file, e.g. `complex_player.dat`.
    pub file: String,
    /// The workload.
    pub workload: Workload,
    /// The peer ratios are taken against, if it ran.
    pub baseline: Option<String>,
    /// How the baseline was chosen, for the table heading, e.g.
    /// "`simdnbt_owned` (the fastest of ours)".
    pub baseline_label: String,
    /// Rows sorted by median time, fastest first (ties by name).
    pub rows: Vec<Row>,
}

/// Picks the baseline peer for a workload among `candidates` (peer, median
/// ns). Read and decode_all compare against [`peers::BASELINE`]; write and
/// edit compare against whichever of [`peers::OURS`] is fastest.
fn pick_baseline(workload: Workload, candidates: &[(&str, f64)]) -> (Option<String>, String) {
    match workload {
        Workload::Read | Workload::DecodeAll => {
            let found = candidates.iter().any(|(p, _)| *p == peers::BASELINE);
            let label = if found {
                format!("`{}`", peers::BASELINE)
            } else {
                format!("`{}` (did not run; no ratios)", peers::BASELINE)
            };
            (found.then(|| peers::BASELINE.to_owned()), label)
        }
        Workload::Write | Workload::Edit => {
            let best = candidates
                .iter()
                .filter(|(p, _)| peers::is_ours(p))
                .min_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(b.0)));
            match best {
                Some((p, _)) => (
                    Some((*p).to_owned()),
                    format!("`{p}` (the fastest of ours)"),
                ),
                None => (None, "the fastest of ours (none ran; no ratios)".to_owned()),
            }
        }
    }
}

/// Groups measurements into tables: files in name order, and within a file
/// read, write, decode_all, edit. Workloads with no results produce no table.
pub fn build(measurements: &[Measurement]) -> Vec<Table> {
    let mut files: Vec<&str> = measurements.iter().map(|m| m.file.as_str()).collect();
    files.sort_unstable();
    files.dedup();
    let mut tables = Vec::new();
    for file in files {
        for workload in Workload::ALL {
            let mut ms: Vec<&Measurement> = measurements
                .iter()
                .filter(|m| m.file == file && m.workload == workload)
                .collect();
            if ms.is_empty() {
                continue;
            }
            ms.sort_by(|a, b| {
                a.median
                    .point
                    .total_cmp(&b.median.point)
                    .then_with(|| a.peer.cmp(&b.peer))
            });
            let candidates: Vec<(&str, f64)> = ms
                .iter()
                .map(|m| (m.peer.as_str(), m.median.point))
                .collect();
            let (baseline, baseline_label) = pick_baseline(workload, &candidates);
            let base_time = baseline
                .as_deref()
                .and_then(|b| ms.iter().find(|m| m.peer == b))
                .map(|m| m.median.point);
            let rows = ms
                .iter()
                .map(|m| Row {
                    peer: m.peer.clone(),
                    ours: peers::is_ours(&m.peer),
                    bytes_per_sec: m.bytes_per_sec(),
                    median: m.median,
                    ratio: base_time
                        .filter(|_| m.median.point > 0.0)
                        .map(|b| b / m.median.point),
                })
                .collect();
            tables.push(Table {
                file: file.to_owned(),
                workload,
                baseline,
                baseline_label,
                rows,
            });
        }
    }
    tables
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One measurement of `ns` per call on 1000 bytes (for the tests).
    pub(crate) fn m(file: &str, peer: &str, workload: Workload, ns: f64) -> Measurement {
        let e = Estimate {
            point: ns,
            lower: ns,
            upper: ns,
            confidence_level: 0.95,
        };
        Measurement {
            group_id: format!("compare/{file}"),
            file: file.into(),
            peer: peer.into(),
            workload,
            bytes: Some(1000),
            median: e,
            mean: e,
            source: std::path::PathBuf::new(),
        }
    }

    #[test]
    fn decode_all_uses_simdnbt_borrow_and_tables_are_ordered() {
        let ms = [
            m("b.nbt", "fastnbt", Workload::DecodeAll, 400.0),
            m("b.nbt", "simdnbt_borrow", Workload::DecodeAll, 200.0),
            m("b.nbt", "simdnbt_owned", Workload::DecodeAll, 100.0),
            m("a.nbt", "fastnbt", Workload::Read, 10.0),
        ];
        let t = build(&ms);
        assert_eq!(t.len(), 2);
        assert_eq!(
            (t[0].file.as_str(), t[0].workload),
            ("a.nbt", Workload::Read)
        );
        let d = &t[1];
        assert_eq!(d.workload, Workload::DecodeAll);
        assert_eq!(d.baseline.as_deref(), Some("simdnbt_borrow"));
        let got: Vec<(&str, Option<f64>)> =
            d.rows.iter().map(|r| (r.peer.as_str(), r.ratio)).collect();
        assert_eq!(
            got,
            [
                ("simdnbt_owned", Some(2.0)),
                ("simdnbt_borrow", Some(1.0)),
                ("fastnbt", Some(0.5))
            ]
        );
        // a.nbt read has no simdnbt_borrow: no ratios, and the label says so.
        assert_eq!(t[0].baseline, None);
        assert!(t[0].rows.iter().all(|r| r.ratio.is_none()));
        assert!(t[0].baseline_label.contains("did not run"));
    }

    #[test]
    fn write_without_ours_has_no_ratios() {
        let t = build(&[m("a.nbt", "fastnbt", Workload::Write, 10.0)]);
        assert_eq!(t[0].baseline, None);
        assert!(t[0].baseline_label.contains("none ran"));
        assert_eq!(t[0].rows[0].ratio, None);
    }

    /// Every peer with a mutable tree has an edit bench (`compare/src/peers/`);
    /// each of its results is a row of the file's edit table, against the
    /// fastest of ours.
    #[test]
    fn edit_table_has_every_editing_peer() {
        let editing = [
            ("simdnbt_doc", 2.0),
            ("simdnbt_owned", 6.0),
            ("na_nbt_owned", 5.0),
            ("na_nbt_owned_be", 4.0),
            ("fastnbt", 8.0),
            ("quartz", 10.0),
            ("valence", 9.0),
            ("crab", 12.0),
            ("hematite", 11.0),
            ("shen", 7.0),
            ("ussr_owned", 3.0),
        ];
        let ms: Vec<Measurement> = editing
            .iter()
            .map(|(p, us)| m("complex_player.dat", p, Workload::Edit, us * 1000.0))
            .collect();
        let t = build(&ms);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].workload, Workload::Edit);
        assert_eq!(t[0].baseline.as_deref(), Some("simdnbt_doc"));
        assert_eq!(t[0].rows.len(), editing.len());
        for (p, us) in editing {
            let row = t[0].rows.iter().find(|r| r.peer == p).unwrap();
            assert_eq!(row.ratio, Some(2.0 / us), "{p}");
        }
    }

    #[test]
    fn ties_sort_by_name() {
        let t = build(&[
            m("a.nbt", "zeta", Workload::Read, 10.0),
            m("a.nbt", "alpha", Workload::Read, 10.0),
        ]);
        let names: Vec<&str> = t[0].rows.iter().map(|r| r.peer.as_str()).collect();
        assert_eq!(names, ["alpha", "zeta"]);
    }
}
