//! Reading criterion's on-disk output.
//!
//! criterion 0.5 (and 0.7, which the `compare` benches use: checked, the
//! files are identical in shape) writes, for every benchmark, a directory
//! `<criterion dir>/<group dir>/<function dir>/new/` holding (among others)
//!
//! * `benchmark.json`: `{"group_id": "compare/complex_player.dat",
//!   "function_id": "simdnbt_borrow_read", "value_str": null,
//!   "throughput": {"Bytes": 3380}, "full_id": …, "directory_name": …,
//!   "title": …}`
//! * `estimates.json`: `{"mean": {"point_estimate": 389.0,
//!   "confidence_interval": {"confidence_level": 0.95, "lower_bound": …,
//!   "upper_bound": …}, "standard_error": …}, "median": {…}, "std_dev": {…},
//!   "median_abs_dev": {…}, "slope": {…} | null}`, all times in nanoseconds.
//!
//! Directory names are criterion's sanitised ids, so this module identifies
//! a benchmark by the ids inside `benchmark.json`, never by its path. Any
//! `new/benchmark.json` under the criterion directory is considered; the
//! `base/` and `change/` copies and the HTML `report/` directories are not.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Prefix every group of the comparison benchmarks starts with.
pub const GROUP_PREFIX: &str = "compare/";

/// What a benchmark function measures, from its `_read` / `_write` /
/// `_decode_all` / `_edit` suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Parse a byte buffer into the library's NBT representation.
    Read,
    /// Serialise an already parsed value back to bytes.
    Write,
    /// Parse, then visit and decode every value (strings, arrays).
    DecodeAll,
    /// Parse, change 10 values, remove 2, insert 5, write
    /// (`crate::edit_workload`).
    Edit,
}

impl Workload {
    /// All workloads, in report order.
    pub const ALL: [Workload; 4] = [
        Workload::Read,
        Workload::Write,
        Workload::DecodeAll,
        Workload::Edit,
    ];

    /// The function-id suffix without the leading `_` (`read`, `write`,
    /// `decode_all`).
    pub fn as_str(self) -> &'static str {
        match self {
            Workload::Read => "read",
            Workload::Write => "write",
            Workload::DecodeAll => "decode_all",
            Workload::Edit => "edit",
        }
    }

    /// Human-readable title used for headings.
    pub fn title(self) -> &'static str {
        match self {
            Workload::Read => "Read",
            Workload::Write => "Write",
            Workload::DecodeAll => "Decode all",
            Workload::Edit => "Edit (read, change 10, remove 2, insert 5, write)",
        }
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Splits a function id such as `na_nbt_borrow_read` into the peer name and
/// the workload. The peer name may itself contain `_`; only the final
/// `_read`, `_write`, `_decode_all` or `_edit` suffix is taken off. Returns `None`
/// when there is no such suffix or nothing is left before it.
pub fn split_function_id(function_id: &str) -> Option<(&str, Workload)> {
    // `_decode_all` first: it is the only suffix that contains another `_`.
    for workload in [
        Workload::DecodeAll,
        Workload::Read,
        Workload::Write,
        Workload::Edit,
    ] {
        let suffix = workload.as_str();
        if let Some(rest) = function_id.strip_suffix(suffix) {
            if let Some(peer) = rest.strip_suffix('_') {
                if !peer.is_empty() {
                    return Some((peer, workload));
                }
            }
        }
    }
    None
}

/// A point estimate with its confidence interval, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// criterion's point estimate.
    pub point: f64,
    /// Lower bound of the confidence interval.
    pub lower: f64,
    /// Upper bound of the confidence interval.
    pub upper: f64,
    /// Confidence level of the interval (criterion's default is 0.95).
    pub confidence_level: f64,
}

/// One benchmark result: a peer running one workload on one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// criterion group id, e.g. `compare/complex_player.dat`.
    pub group_id: String,
    /// The file part of the group id, e.g. `complex_player.dat`.
    pub file: String,
    /// Peer name, e.g. `simdnbt_borrow`.
    pub peer: String,
    /// Which workload was measured.
    pub workload: Workload,
    /// Bytes processed per iteration, from criterion's `Bytes` (or
    /// `BytesDecimal`) throughput; `None` when the bench set none.
    pub bytes: Option<u64>,
    /// Median time per iteration.
    pub median: Estimate,
    /// Mean time per iteration.
    pub mean: Estimate,
    /// The `benchmark.json` this came from.
    pub source: PathBuf,
}

impl Measurement {
    /// The full benchmark id, `<group>/<peer>_<workload>` (what a filter matches).
    pub fn id(&self) -> String {
        format!("{}/{}_{}", self.group_id, self.peer, self.workload)
    }

    /// Bytes per second at the median time, if a byte throughput was set.
    pub fn bytes_per_sec(&self) -> Option<f64> {
        let bytes = self.bytes? as f64;
        (self.median.point > 0.0).then(|| bytes / (self.median.point * 1e-9))
    }
}

/// Why an input was skipped or flagged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// A file could not be read or is not the JSON criterion writes; the
    /// benchmark was skipped.
    Malformed,
    /// Well-formed but not one of ours (group outside `compare/`, function
    /// without a workload suffix); skipped.
    Unrecognised,
    /// The same peer/workload/file appeared twice; the later one was skipped.
    Duplicate,
    /// A peer name not in the known list; the result is still reported.
    UnknownPeer,
    /// A result from another run: older than the run being recorded, or
    /// measured in another run record given to the report; not used.
    OtherRun,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProblemKind::Malformed => "malformed",
            ProblemKind::Unrecognised => "unrecognised",
            ProblemKind::Duplicate => "duplicate",
            ProblemKind::UnknownPeer => "unknown peer",
            ProblemKind::OtherRun => "another run",
        })
    }
}

/// An input that was skipped or flagged, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The file concerned.
    pub path: PathBuf,
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Human-readable detail.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({})",
            self.path.display(),
            self.kind,
            self.message
        )
    }
}

/// Everything found under a criterion directory.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Loaded {
    /// Usable results, sorted by file, workload, then peer.
    pub measurements: Vec<Measurement>,
    /// Inputs skipped or flagged, sorted by path.
    pub problems: Vec<Problem>,
}

/// Reads every `new/benchmark.json` (with its sibling `estimates.json`)
/// under `criterion_dir`. Bad inputs become [`Problem`]s; only a missing or
/// unreadable `criterion_dir` itself is an error. `known_peer` decides which
/// peer names are flagged as [`ProblemKind::UnknownPeer`].
pub fn load(criterion_dir: &Path, known_peer: &dyn Fn(&str) -> bool) -> std::io::Result<Loaded> {
    load_run(criterion_dir, known_peer, None, &|_| true)
}

/// As [`load`], for the run a bench is recording: only the benchmarks whose
/// id `wanted` accepts, and (with `since`) only results criterion wrote at or
/// after that time; an older result of a wanted benchmark is a
/// [`ProblemKind::OtherRun`] (criterion did not measure it this time).
pub fn load_run(
    criterion_dir: &Path,
    known_peer: &dyn Fn(&str) -> bool,
    since: Option<SystemTime>,
    wanted: &dyn Fn(&str) -> bool,
) -> std::io::Result<Loaded> {
    let mut files = Vec::new();
    find_benchmark_files(criterion_dir, &mut files)?;
    files.sort();

    let mut loaded = Loaded::default();
    for path in files {
        match parse_benchmark(&path) {
            Ok(Parsed::Measurement(m)) if !wanted(&m.id()) => {}
            Ok(Parsed::Measurement(m))
                if since.is_some_and(|t| modified(&path.with_file_name("estimates.json")) < t) =>
            {
                loaded.problems.push(Problem {
                    path,
                    kind: ProblemKind::OtherRun,
                    message: format!("{} was not measured in this run; left out", m.id()),
                })
            }
            Ok(Parsed::Measurement(m)) => {
                let dup = loaded.measurements.iter().any(|o| {
                    o.group_id == m.group_id && o.peer == m.peer && o.workload == m.workload
                });
                if dup {
                    loaded.problems.push(Problem {
                        path,
                        kind: ProblemKind::Duplicate,
                        message: format!(
                            "{}/{}_{} already seen; skipped",
                            m.group_id, m.peer, m.workload
                        ),
                    });
                    continue;
                }
                if !known_peer(&m.peer) {
                    loaded.problems.push(Problem {
                        path,
                        kind: ProblemKind::UnknownPeer,
                        message: format!(
                            "peer `{}` is not in the known list; reported anyway",
                            m.peer
                        ),
                    });
                }
                loaded.measurements.push(m);
            }
            // For a run, only what criterion wrote during it concerns it.
            Ok(Parsed::Skip(..)) | Err(_) if since.is_some_and(|t| modified(&path) < t) => {}
            Ok(Parsed::Skip(kind, message)) | Err((kind, message)) => {
                loaded.problems.push(Problem {
                    path,
                    kind,
                    message,
                })
            }
        }
    }
    loaded
        .measurements
        .sort_by(|a, b| (&a.file, a.workload, &a.peer).cmp(&(&b.file, b.workload, &b.peer)));
    Ok(loaded)
}

/// When a file was last written (the epoch if unknown, so it counts as old).
fn modified(path: &Path) -> SystemTime {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// Collects `…/new/benchmark.json` paths, recursively. Symlinks are not
/// followed (criterion makes none).
fn find_benchmark_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let ty = entry.file_type()?;
        if !ty.is_dir() {
            continue;
        }
        let path = entry.path();
        if entry.file_name() == "new" {
            let candidate = path.join("benchmark.json");
            if candidate.is_file() {
                out.push(candidate);
            }
            continue;
        }
        // criterion's own baselines and HTML output hold no new results.
        if entry.file_name() == "base"
            || entry.file_name() == "change"
            || entry.file_name() == "report"
        {
            continue;
        }
        find_benchmark_files(&path, out)?;
    }
    Ok(())
}

enum Parsed {
    Measurement(Measurement),
    Skip(ProblemKind, String),
}

type ParseError = (ProblemKind, String);

fn malformed(msg: impl Into<String>) -> ParseError {
    (ProblemKind::Malformed, msg.into())
}

fn read_json(path: &Path) -> Result<Value, ParseError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let text =
        fs::read_to_string(path).map_err(|e| malformed(format!("cannot read {name}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| malformed(format!("invalid JSON in {name}: {e}")))
}

fn parse_benchmark(path: &Path) -> Result<Parsed, ParseError> {
    let bench = read_json(path)?;
    let group_id = str_field(&bench, "group_id")?;
    let function_id = match bench.get("function_id") {
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Null) | None => {
            return Ok(Parsed::Skip(
                ProblemKind::Unrecognised,
                format!("group `{group_id}` has no function id"),
            ));
        }
        Some(_) => return Err(malformed("`function_id` is not a string")),
    };
    let Some(file) = group_id
        .strip_prefix(GROUP_PREFIX)
        .filter(|f| !f.is_empty())
    else {
        return Ok(Parsed::Skip(
            ProblemKind::Unrecognised,
            format!("group `{group_id}` is not a `{GROUP_PREFIX}<file>` group"),
        ));
    };
    let Some((peer, workload)) = split_function_id(function_id) else {
        return Ok(Parsed::Skip(
            ProblemKind::Unrecognised,
            format!("function `{function_id}` does not end in _read, _write, _decode_all or _edit"),
        ));
    };
    if let Some(Value::String(v)) = bench.get("value_str") {
        // Parameterised benches would collide on peer/workload; say so.
        return Ok(Parsed::Skip(
            ProblemKind::Unrecognised,
            format!("`{function_id}` has a parameter value `{v}`; compare benches take none"),
        ));
    }
    let bytes = match bench.get("throughput") {
        None | Some(Value::Null) => None,
        Some(Value::Object(map)) => match (map.get("Bytes"), map.get("BytesDecimal")) {
            (Some(v), _) | (None, Some(v)) => Some(
                v.as_u64()
                    .ok_or_else(|| malformed("throughput bytes is not an unsigned integer"))?,
            ),
            // Elements throughput: no byte rate, times still compare.
            _ => None,
        },
        Some(_) => return Err(malformed("`throughput` is not an object")),
    };

    let estimates_path = path.with_file_name("estimates.json");
    let estimates = read_json(&estimates_path)?;
    let median =
        estimate(&estimates, "median").map_err(|(k, m)| (k, format!("estimates.json: {m}")))?;
    let mean =
        estimate(&estimates, "mean").map_err(|(k, m)| (k, format!("estimates.json: {m}")))?;

    Ok(Parsed::Measurement(Measurement {
        group_id: group_id.to_owned(),
        file: file.to_owned(),
        peer: peer.to_owned(),
        workload,
        bytes,
        median,
        mean,
        source: path.to_owned(),
    }))
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, ParseError> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| malformed(format!("missing string field `{key}`")))
}

fn num_field(v: &Value, key: &str, what: &str) -> Result<f64, ParseError> {
    let n = v
        .get(key)
        .and_then(Value::as_f64)
        .ok_or_else(|| malformed(format!("`{what}` lacks numeric `{key}`")))?;
    if n.is_finite() && n >= 0.0 {
        Ok(n)
    } else {
        Err(malformed(format!(
            "`{what}.{key}` is {n}, not a finite non-negative time"
        )))
    }
}

fn estimate(estimates: &Value, which: &str) -> Result<Estimate, ParseError> {
    let e = estimates
        .get(which)
        .filter(|v| v.is_object())
        .ok_or_else(|| malformed(format!("no `{which}` estimate")))?;
    let point = num_field(e, "point_estimate", which)?;
    let ci = e
        .get("confidence_interval")
        .ok_or_else(|| malformed(format!("`{which}` has no confidence_interval")))?;
    let what = format!("{which}.confidence_interval");
    let lower = num_field(ci, "lower_bound", &what)?;
    let upper = num_field(ci, "upper_bound", &what)?;
    let confidence_level = ci
        .get("confidence_level")
        .and_then(Value::as_f64)
        .unwrap_or(0.95);
    Ok(Estimate {
        point,
        lower,
        upper,
        confidence_level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_last_suffix() {
        assert_eq!(
            split_function_id("simdnbt_borrow_read"),
            Some(("simdnbt_borrow", Workload::Read))
        );
        assert_eq!(
            split_function_id("na_nbt_owned_write"),
            Some(("na_nbt_owned", Workload::Write))
        );
        assert_eq!(
            split_function_id("ussr_borrow_decode_all"),
            Some(("ussr_borrow", Workload::DecodeAll))
        );
        assert_eq!(
            split_function_id("shen_read"),
            Some(("shen", Workload::Read))
        );
        assert_eq!(
            split_function_id("odd_read_write"),
            Some(("odd_read", Workload::Write))
        );
        assert_eq!(
            split_function_id("read_decode_all"),
            Some(("read", Workload::DecodeAll))
        );
        assert_eq!(split_function_id("_read"), None);
        assert_eq!(split_function_id("read"), None);
        assert_eq!(split_function_id("fastnbt_parse"), None);
        assert_eq!(split_function_id("fastnbtread"), None);
    }
}
