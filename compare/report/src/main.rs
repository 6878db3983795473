//! Writes `compare.md`, `headline.md` and `charts/*.svg` from the record of
//! one run of the `compare` bench.
//!
//! ```text
//! cargo run --release -p compare-report -- [--run FILE]... [--out DIR]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use compare_report::{self as report, Config};
use compare_results::record::Run;

const USAGE: &str = "\
usage: report [--run FILE]... [--out DIR] [--headline-file FILE] [--allow-mixed-runs]

  --run FILE            a run record the bench wrote (default: the newest under
                        <workspace>/target/criterion/compare-runs/)
  --out DIR             where compare.md, headline.md and charts/ go
                        (default <workspace>/target/report; the committed report: --out reports)
  --headline-file FILE  file for the headline table (default complex_player.dat)
  --allow-mixed-runs    combine several --run records (the report names each run)";

fn main() -> ExitCode {
    let root = workspace_root();
    let mut config = Config::new(root.join("target/report"));
    let mut runs: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next());
        match flag.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--allow-mixed-runs" => config.allow_mixed_runs = true,
            "--run" | "--out" | "--headline-file" => {
                let Some(v) = value() else {
                    eprintln!("error: {flag} needs a value\n\n{USAGE}");
                    return ExitCode::from(2);
                };
                match flag.as_str() {
                    "--run" => runs.push(PathBuf::from(v)),
                    "--out" => config.out_dir = PathBuf::from(v),
                    _ => config.headline_file = v,
                }
            }
            _ => {
                eprintln!("error: unexpected argument `{arg}`\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    if runs.is_empty() {
        let criterion = root.join("target/criterion");
        match Run::latest(&criterion) {
            Ok(Some(path)) => runs.push(path),
            Ok(None) => {
                eprintln!(
                    "error: no run record under {} (run `cargo bench 'compare/complex_player.dat/'` \
                     or `cargo bench -p compare --bench compare` first); nothing written",
                    criterion.join(compare_results::record::RUNS_DIR).display()
                );
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    config.runs_label = runs
        .iter()
        .map(|p| format!("`{}`", p.strip_prefix(&root).unwrap_or(p).display()))
        .collect::<Vec<_>>()
        .join(", ");
    let records = match runs
        .iter()
        .map(|p| Run::read(p))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(records) => records,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };

    match report::generate(&config, &records) {
        Ok(outcome) => {
            for p in &outcome.problems {
                eprintln!("warning: {p}");
            }
            for p in &outcome.removed_charts {
                println!("removed stale chart {}", p.display());
            }
            println!(
                "wrote {} ({} results, {} charts) and {}",
                outcome.markdown.display(),
                outcome.measurements,
                outcome.charts.len(),
                outcome.headline.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: two levels above this crate's manifest directory.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).unwrap_or(manifest).to_owned()
}
