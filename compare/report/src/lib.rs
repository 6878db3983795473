//! Report generator: turns criterion's output for the `compare/<file>`
//! benchmark groups into `reports/compare.md`, `reports/headline.md` and SVG
//! bar charts in `reports/charts/`.
//!
//! ```no_run
//! use compare::report::{self, env::Environment, Config};
//! let root = std::path::Path::new(".");
//! let config = Config::new(root.join("target/criterion"), root.join("reports"));
//! let env = Environment::detect(root);
//! let outcome = report::generate(&config, &env, &compare::peer_notes()).unwrap();
//! for problem in &outcome.problems {
//!     eprintln!("warning: {problem}");
//! }
//! ```
//!
//! Per-peer notes come in as `(peer name, notes)` pairs; the bin passes the
//! adapter table's own notes ([`crate::peer_notes`]), so each peer's
//! description lives in one place, beside its adapter. Build the report with
//! the same features as the bench run (`nightly-peers`) to get the nightly
//! peers' notes too.
#![deny(missing_docs)]

pub mod chart;
pub mod env;
pub mod format;
pub mod markdown;
pub mod peers;
pub mod results;
pub mod tables;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use env::Environment;
use results::{Loaded, Problem};

/// File the headline table is about.
pub const HEADLINE_FILE: &str = "complex_player.dat";

/// Where to read from and write to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// criterion's output directory (normally `<workspace>/target/criterion`).
    pub criterion_dir: PathBuf,
    /// Directory that receives `compare.md`, `headline.md` and `charts/`.
    pub out_dir: PathBuf,
    /// File the headline table is about (default [`HEADLINE_FILE`]).
    pub headline_file: String,
    /// If set, paths under this directory (normally the workspace root) are
    /// shown relative to it in the report, keeping machine-specific paths
    /// out of committed files.
    pub shown_relative_to: Option<PathBuf>,
}

impl Config {
    /// A config with the default headline file.
    pub fn new(criterion_dir: impl Into<PathBuf>, out_dir: impl Into<PathBuf>) -> Config {
        Config {
            criterion_dir: criterion_dir.into(),
            out_dir: out_dir.into(),
            headline_file: HEADLINE_FILE.to_owned(),
            shown_relative_to: None,
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

/// Why [`generate`] failed. Bad individual inputs are not errors: they end
/// up in [`Outcome::problems`].
#[derive(Debug)]
pub enum Error {
    /// The criterion directory could not be read.
    CriterionDir(PathBuf, io::Error),
    /// An output file or directory could not be written.
    Write(PathBuf, io::Error),
    /// plotters failed to draw a chart.
    Chart(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::CriterionDir(p, e) => write!(
                f,
                "cannot read criterion output in {}: {e} (run `cargo bench -p compare` first)",
                p.display()
            ),
            Error::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            Error::Chart(e) => write!(f, "chart: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::CriterionDir(_, e) | Error::Write(_, e) => Some(e),
            Error::Chart(_) => None,
        }
    }
}

/// Loads the results under `config.criterion_dir` and writes the report,
/// headline and charts under `config.out_dir`. `notes` are `(peer, notes)`
/// pairs for the per-peer notes section; peers that ran without an entry are
/// listed as having no notes.
pub fn generate(
    config: &Config,
    env: &Environment,
    notes: &[(&str, &str)],
) -> Result<Outcome, Error> {
    let loaded = load(&config.criterion_dir)?;
    let tables = tables::build(&loaded.measurements);

    let charts_dir = config.out_dir.join("charts");
    fs::create_dir_all(&charts_dir).map_err(|e| Error::Write(charts_dir.clone(), e))?;
    let stale = stale_charts(&charts_dir, &tables);
    for path in &stale {
        fs::remove_file(path).map_err(|e| Error::Write(path.clone(), e))?;
    }
    let mut chart_names = Vec::with_capacity(tables.len());
    let mut chart_paths = Vec::with_capacity(tables.len());
    for table in &tables {
        let svg = chart::render(table).map_err(Error::Chart)?;
        let name = chart::file_name(table);
        let path = charts_dir.join(&name);
        write(&path, &svg)?;
        chart_names.push(Some(name));
        chart_paths.push(path);
    }

    let criterion_label = match &config.shown_relative_to {
        Some(base) => config
            .criterion_dir
            .strip_prefix(base)
            .unwrap_or(&config.criterion_dir),
        None => &config.criterion_dir,
    }
    .display()
    .to_string();
    let md = markdown::report(&markdown::Inputs {
        env,
        loaded: &loaded,
        tables: &tables,
        notes,
        criterion_dir: &config.criterion_dir,
        criterion_label: &criterion_label,
        headline_file: &config.headline_file,
        charts: &chart_names,
    });
    let markdown_path = config.out_dir.join("compare.md");
    write(&markdown_path, &md)?;

    let headline = format!(
        "<!-- generated by `cargo run -p compare --release --bin report`; {} -->\n{}",
        env.generated_at,
        markdown::headline_table(&config.headline_file, &loaded.measurements)
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

/// Loads criterion results, flagging peers not in [`peers::KNOWN`].
pub fn load(criterion_dir: &Path) -> Result<Loaded, Error> {
    results::load(criterion_dir, &|p| peers::find(p).is_some())
        .map_err(|e| Error::CriterionDir(criterion_dir.to_owned(), e))
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
            let ours = results::Workload::ALL
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
