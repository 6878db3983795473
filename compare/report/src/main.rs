//! Writes `reports/compare.md`, `reports/headline.md` and
//! `reports/charts/*.svg` from criterion's output.
//!
//! ```text
//! cargo run -p compare --release --bin report -- [--criterion-dir DIR] [--out DIR]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use compare::report::{self, Config, env::Environment};

const USAGE: &str = "\
usage: report [--criterion-dir DIR] [--out DIR] [--headline-file FILE]

  --criterion-dir DIR   criterion output to read (default <workspace>/target/criterion)
  --out DIR             where compare.md, headline.md and charts/ go (default <workspace>/reports)
  --headline-file FILE  file for the headline table (default complex_player.dat)";

fn main() -> ExitCode {
    let root = workspace_root();
    let mut config = Config::new(root.join("target/criterion"), root.join("reports"));
    config.shown_relative_to = Some(root.clone());
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
            "--criterion-dir" | "--out" | "--headline-file" => {
                let Some(v) = value() else {
                    eprintln!("error: {flag} needs a value\n\n{USAGE}");
                    return ExitCode::from(2);
                };
                match flag.as_str() {
                    "--criterion-dir" => config.criterion_dir = PathBuf::from(v),
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

    let env = Environment::detect(&root);
    match report::generate(&config, &env, &compare::peer_notes()) {
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
            if outcome.measurements == 0 {
                eprintln!(
                    "error: no usable results under {}",
                    config.criterion_dir.display()
                );
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's manifest directory.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_owned()
}
