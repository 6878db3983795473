//! Report generator: turns the record of one run of the `compare` bench
//! ([`compare_results::record::Run`]) into `compare.md`, `headline.md` and SVG
//! bar charts in `charts/`.
//!
//! ```no_run
//! use compare_report::{self as report, Config};
//! let root = std::path::Path::new(".");
//! let config = Config::new(root.join("reports"));
//! let path = compare_results::record::Run::latest(&root.join("target/criterion")).unwrap().unwrap();
//! let run = compare_results::record::Run::read(&path).unwrap();
//! let outcome = report::generate(&config, &[run]).unwrap();
//! for problem in &outcome.problems {
//!     eprintln!("warning: {problem}");
//! }
//! ```
//!
//! One run's results, never a mix: criterion's directory holds the latest
//! result of every benchmark ever run, from any run, so the report reads the
//! record the bench wrote when it ended instead. Several records are combined
//! only on request ([`Config::allow_mixed_runs`]) and the report then says so
//! and names each. With no usable result nothing is written.
#![deny(missing_docs)]

pub mod chart;
pub mod markdown;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use compare_results::criterion::{Loaded, Problem, ProblemKind, Workload};
use compare_results::env::format_utc;
use compare_results::headline;
use compare_results::record::Run;
use compare_results::tables;

/// File the headline table is about.
pub const HEADLINE_FILE: &str = "complex_player.dat";

/// Where to write to and what to accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Directory that receives `compare.md`, `headline.md` and `charts/`.
    pub out_dir: PathBuf,
    /// File the headline table is about (default [`HEADLINE_FILE`]).
    pub headline_file: String,
    /// How the run records are named in the report (paths relative to the
    /// workspace, so no machine-specific path ends up in a committed file).
    pub runs_label: String,
    /// Combine several runs (the report then names each and does not claim
    /// one run); without it, more than one run is [`Error::MixedRuns`].
    pub allow_mixed_runs: bool,
}

impl Config {
    /// A config with the default headline file.
    pub fn new(out_dir: impl Into<PathBuf>) -> Config {
        Config {
            out_dir: out_dir.into(),
            headline_file: HEADLINE_FILE.to_owned(),
            runs_label: "(unnamed)".to_owned(),
            allow_mixed_runs: false,
        }
    }
}

/// What [`generate`] wrote and what it had to skip.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Path of `compare.md`.
    pub markdown: PathBuf,
    /// Path of `headline.md`.
    pub headline: PathBuf,
    /// Paths of the SVG charts written.
    pub charts: Vec<PathBuf>,
    /// Charts from an earlier run that no longer have a table, removed.
    pub removed_charts: Vec<PathBuf>,
    /// Number of benchmark results used.
    pub measurements: usize,
    /// Inputs skipped or flagged (also listed at the end of `compare.md`).
    pub problems: Vec<Problem>,
}

/// Why [`generate`] failed. Bad individual results are not errors: they end
/// up in [`Outcome::problems`].
#[derive(Debug)]
pub enum Error {
    /// A run record could not be read.
    Run(String),
    /// More than one run was given without [`Config::allow_mixed_runs`].
    MixedRuns(Vec<String>),
    /// No usable result: nothing was written.
    NoResults(String),
    /// An output file or directory could not be written.
    Write(PathBuf, io::Error),
    /// plotters failed to draw a chart.
    Chart(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Run(e) => write!(f, "{e}"),
            Error::MixedRuns(runs) => write!(
                f,
                "{} runs given ({}): a report comes from one run; pass --allow-mixed-runs to \
                 combine them (the report then names each run)",
                runs.len(),
                runs.join(", ")
            ),
            Error::NoResults(why) => write!(f, "no usable results ({why}); nothing written"),
            Error::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            Error::Chart(e) => write!(f, "chart: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Write(_, e) => Some(e),
            _ => None,
        }
    }
}

/// One sentence naming the run (or runs) the results come from.
pub fn provenance(runs: &[Run]) -> String {
    let describe = |r: &Run| {
        let end = format_utc(std::time::UNIX_EPOCH + std::time::Duration::from_secs(r.finished));
        let filter = r
            .filter
            .as_deref()
            .map_or_else(String::new, |f| format!(", filter `{f}`"));
        format!("run `{}` ({} to {end}{filter})", r.id, r.env.date)
    };
    match runs {
        [one] => format!("One run of the `compare` bench: {}.", describe(one)),
        many => {
            let toolchains: std::collections::BTreeSet<&str> =
                many.iter().map(|r| r.env.rustc.as_str()).collect();
            format!(
                "Combined from {} runs of the `compare` bench (on request; ratios across runs \
                 compare different moments of the machine{}): {}.",
                many.len(),
                if toolchains.len() > 1 {
                    ", and the runs used different toolchains"
                } else {
                    ""
                },
                many.iter().map(describe).collect::<Vec<_>>().join("; ")
            )
        }
    }
}

/// The sentence under the headline table, the same in `headline.md` and
/// `compare.md`.
fn headline_provenance(provenance: &str) -> String {
    format!("{provenance} See `reports/compare.md` for the machine and method.")
}

/// The results of `runs`, each benchmark once: a benchmark in two runs is
/// taken from the later run, the other result becomes a problem.
fn combine(runs: &[Run]) -> Loaded {
    let mut order: Vec<&Run> = runs.iter().collect();
    order.sort_by_key(|r| std::cmp::Reverse(r.started));
    let mut loaded = Loaded::default();
    for run in order {
        loaded.problems.extend(run.problems.iter().cloned());
        for m in &run.measurements {
            if loaded.measurements.iter().any(|o| o.id() == m.id()) {
                loaded.problems.push(Problem {
                    path: m.source.clone(),
                    kind: ProblemKind::OtherRun,
                    message: format!("{} also in a later run (`{}` left out)", m.id(), run.id),
                });
            } else {
                loaded.measurements.push(m.clone());
            }
        }
    }
    loaded
        .measurements
        .sort_by(|a, b| (&a.file, a.workload, &a.peer).cmp(&(&b.file, b.workload, &b.peer)));
    loaded.problems.sort_by(|a, b| a.path.cmp(&b.path));
    loaded
}

/// Writes the report, headline and charts of `runs` under `config.out_dir`.
/// Checks everything before writing anything: several runs need
/// [`Config::allow_mixed_runs`], and with no usable result nothing is written.
pub fn generate(config: &Config, runs: &[Run]) -> Result<Outcome, Error> {
    if runs.is_empty() {
        return Err(Error::NoResults("no run record given".into()));
    }
    if runs.len() > 1 && !config.allow_mixed_runs {
        return Err(Error::MixedRuns(
            runs.iter()
                .map(|r| format!("`{}` ({})", r.id, r.env.date))
                .collect(),
        ));
    }
    let loaded = combine(runs);
    if loaded.measurements.is_empty() {
        return Err(Error::NoResults(format!(
            "the run recorded no result{}",
            if loaded.problems.is_empty() {
                String::new()
            } else {
                format!(" and {} problem(s)", loaded.problems.len())
            }
        )));
    }
    let tables = tables::build(&loaded.measurements);
    let provenance = provenance(runs);
    let env = &runs[0].env;
    let mut notes: Vec<(&str, &str)> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    for run in runs {
        for (peer, text) in &run.notes {
            if !notes.iter().any(|(p, _)| p == peer) {
                notes.push((peer, text));
            }
        }
        skipped.extend(run.skipped.iter().cloned());
    }

    let charts_dir = config.out_dir.join("charts");
    fs::create_dir_all(&charts_dir).map_err(|e| Error::Write(charts_dir.clone(), e))?;
    let mut svgs = Vec::with_capacity(tables.len());
    for table in &tables {
        svgs.push((
            chart::file_name(table),
            chart::render(table).map_err(Error::Chart)?,
        ));
    }
    let stale = stale_charts(&charts_dir, &tables);
    for path in &stale {
        fs::remove_file(path).map_err(|e| Error::Write(path.clone(), e))?;
    }
    let mut chart_names = Vec::with_capacity(svgs.len());
    let mut chart_paths = Vec::with_capacity(svgs.len());
    for (name, svg) in &svgs {
        let path = charts_dir.join(name);
        write(&path, svg)?;
        chart_names.push(Some(name.clone()));
        chart_paths.push(path);
    }

    let md = markdown::report(&markdown::Inputs {
        env,
        provenance: &provenance,
        skipped: &skipped,
        loaded: &loaded,
        tables: &tables,
        notes: &notes,
        runs_label: &config.runs_label,
        headline_file: &config.headline_file,
        charts: &chart_names,
    });
    let markdown_path = config.out_dir.join("compare.md");
    write(&markdown_path, &md)?;

    let headline = format!(
        "<!-- generated by `cargo run --release -p compare-report -- --out reports`; {} -->\n{}",
        env.date,
        headline::table(
            &config.headline_file,
            &loaded.measurements,
            &headline_provenance(&provenance),
        )
    );
    let headline_path = config.out_dir.join("headline.md");
    write(&headline_path, &headline)?;

    Ok(Outcome {
        markdown: markdown_path,
        headline: headline_path,
        charts: chart_paths,
        removed_charts: stale,
        measurements: loaded.measurements.len(),
        problems: loaded.problems,
    })
}

/// Chart files in `charts_dir` named like ours (`*-read.svg`, `*-write.svg`,
/// `*-decode_all.svg`) that this run will not write: left over from files
/// or peers that are gone. Anything else in the directory is left alone.
fn stale_charts(charts_dir: &Path, tables: &[tables::Table]) -> Vec<PathBuf> {
    let current: Vec<String> = tables.iter().map(chart::file_name).collect();
    let Ok(entries) = fs::read_dir(charts_dir) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let ours = Workload::ALL
                .iter()
                .any(|w| name.ends_with(&format!("-{}.svg", w.as_str())));
            ours && !current.contains(&name) && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| e.path())
        .collect();
    stale.sort();
    stale
}

fn write(path: &Path, contents: &str) -> Result<(), Error> {
    fs::write(path, contents).map_err(|e| Error::Write(path.to_owned(), e))
}
