//! The run record: what one run of the `compare` bench measured, written by
//! the bench when it ends and read by the report generator, so a report is
//! made from one run and says which.
//!
//! A run is one execution of the bench binary (one `cargo bench` of
//! `compare`). When it ends it reads back from criterion's directory the
//! results of the benchmarks it ran, written during the run
//! ([`crate::criterion::load_run`]), and writes them with the run's
//! environment, the peers' notes and every peer it had to skip to
//! `<criterion dir>/compare-runs/<id>.json`. Criterion overwrites its
//! `new/` results at every run, so the record is the only place where one
//! run's results stay together.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::criterion::{Measurement, Problem};
use crate::env::Environment;

/// The folder under the criterion directory that holds the run records.
pub const RUNS_DIR: &str = "compare-runs";

/// One run of the `compare` bench.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Unique per run: start time (Unix seconds) and process id.
    pub id: String,
    /// Start and end, Unix seconds.
    pub started: u64,
    /// See [`Run::started`].
    pub finished: u64,
    /// The benchmark filter the run was given, if any.
    pub filter: Option<String>,
    /// Machine, toolchain, profile and lock file, when the run started.
    pub env: Environment,
    /// `(peer, notes)`: what each compiled-in library does while parsing.
    pub notes: Vec<(String, String)>,
    /// Every result of the run.
    pub measurements: Vec<Measurement>,
    /// Criterion outputs of the run that could not be used.
    pub problems: Vec<Problem>,
    /// Benchmarks the run did not measure, and why (a peer that rejects a
    /// file, a writer that fails on it).
    pub skipped: Vec<String>,
}

impl Run {
    /// Where a run's record goes under `criterion_dir`.
    pub fn path_in(&self, criterion_dir: &Path) -> PathBuf {
        criterion_dir
            .join(RUNS_DIR)
            .join(format!("{}.json", self.id))
    }

    /// Writes the record under `criterion_dir`; returns its path.
    pub fn write(&self, criterion_dir: &Path) -> io::Result<PathBuf> {
        let path = self.path_in(criterion_dir);
        fs::create_dir_all(criterion_dir.join(RUNS_DIR))?;
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        fs::write(&path, json)?;
        Ok(path)
    }

    /// Reads a record.
    pub fn read(path: &Path) -> Result<Run, String> {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a run record: {e}", path.display()))
    }

    /// The record of the most recent run under `criterion_dir` (by its start
    /// time), if there is one.
    pub fn latest(criterion_dir: &Path) -> Result<Option<PathBuf>, String> {
        let dir = criterion_dir.join(RUNS_DIR);
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", dir.display())),
        };
        let mut newest: Option<(u64, PathBuf)> = None;
        for entry in entries {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let run = Run::read(&path)?;
            if newest.as_ref().is_none_or(|(t, _)| run.started > *t) {
                newest = Some((run.started, path));
            }
        }
        Ok(newest.map(|(_, path)| path))
    }
}
