//! What every bench of this crate shares: the command line criterion is given
//! (its filter applied *before* any input is loaded or prepared, so a bench the
//! filter excludes does no work and prints nothing), and, for the `compare`
//! bench, the run record and the closing summary.
//!
//! `cargo bench FILTER` runs every bench binary with the same arguments;
//! criterion would skip the benchmarks the filter excludes, but only after the
//! bench had loaded its inputs, validated every peer and printed its skip
//! lines. [`Args::wants`] answers with criterion's own rule (a regex search
//! over the benchmark id, `--exact` for equality, `--ignored` for none).

use std::path::PathBuf;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use compare_results::criterion::load_run;
use compare_results::env::Environment;
use compare_results::record::Run;
use regex::Regex;

/// What the bench was asked to do, parsed from the arguments criterion gets.
pub struct Args {
    filter: Filter,
    /// The filter as given.
    pub filter_text: Option<String>,
    /// `cargo bench` passes `--bench`; without it (`cargo test --benches`)
    /// criterion runs each benchmark once as a test and measures nothing.
    pub measuring: bool,
}

enum Filter {
    All,
    Regex(Regex),
    Exact(String),
    None,
}

/// criterion 0.7's options that take a value (the next argument, or `=value`).
const TAKES_VALUE: &[&str] = &[
    "--color",
    "-c",
    "--save-baseline",
    "-s",
    "--baseline",
    "-b",
    "--baseline-lenient",
    "--load-baseline",
    "--format",
    "--profile-time",
    "--sample-size",
    "--warm-up-time",
    "--measurement-time",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--plotting-backend",
    "--output-format",
];

impl Args {
    /// This process's arguments.
    pub fn from_env() -> Args {
        Args::parse(std::env::args().skip(1))
    }

    /// Parses criterion's command line as criterion does; an invalid regex
    /// filter exits with criterion's message, before any work.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Args {
        let mut args = args.into_iter();
        let (mut filter, mut exact, mut ignored) = (None, false, false);
        let (mut bench, mut test, mut list, mut profile) = (false, false, false, false);
        while let Some(arg) = args.next() {
            let flag = arg.split_once('=').map_or(arg.as_str(), |(f, _)| f);
            match flag {
                "--exact" => exact = true,
                "--ignored" => ignored = true,
                "--bench" => bench = true,
                "--test" => test = true,
                "--list" => list = true,
                "--profile-time" => profile = true,
                _ => {}
            }
            if TAKES_VALUE.contains(&flag) && !arg.contains('=') {
                args.next();
            } else if !arg.starts_with('-') {
                filter = Some(arg);
            }
        }
        let compiled = match (&filter, ignored, exact) {
            (_, true, _) => Filter::None,
            (None, ..) => Filter::All,
            (Some(f), _, true) => Filter::Exact(f.clone()),
            (Some(f), _, false) => match Regex::new(f) {
                Ok(r) => Filter::Regex(r),
                Err(e) => {
                    eprintln!("Unable to parse '{f}' as a regular expression: {e}");
                    std::process::exit(1);
                }
            },
        };
        Args {
            filter: compiled,
            filter_text: filter,
            measuring: bench && !test && !list && !profile,
        }
    }

    /// Whether criterion will run the benchmark with this full id
    /// (`group/function`).
    pub fn wants(&self, id: &str) -> bool {
        match &self.filter {
            Filter::All => true,
            Filter::Regex(r) => r.is_match(id),
            Filter::Exact(e) => e == id,
            Filter::None => false,
        }
    }

    /// Whether criterion will run any of these ids.
    pub fn wants_any<S: AsRef<str>>(&self, ids: impl IntoIterator<Item = S>) -> bool {
        ids.into_iter().any(|id| self.wants(id.as_ref()))
    }
}

/// The directory criterion writes to, found as criterion 0.7 finds it:
/// `$CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`, cargo's target
/// directory (`cargo metadata`), or `target/criterion`.
pub fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    let metadata = std::env::var_os("CARGO").and_then(|cargo| {
        let out = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .output()
            .ok()?;
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
        Some(PathBuf::from(v.get("target_directory")?.as_str()?))
    });
    metadata.map_or_else(
        || PathBuf::from("target/criterion"),
        |t| t.join("criterion"),
    )
}

/// The record of the `compare` bench's run, collected while it runs.
pub struct Recorder {
    started: SystemTime,
    env: Environment,
    /// Ids of the benchmarks registered with criterion.
    registered: Vec<String>,
    skipped: Vec<String>,
}

impl Recorder {
    /// Starts a run: notes the time and the environment.
    pub fn start() -> Recorder {
        // This package's folder: compare/, or compare/nightly/ when built with
        // the nightly-only peers, a workspace of its own whose Cargo.lock
        // holds their versions. The nearest folder with a Cargo.lock is the
        // workspace the bench was built in.
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let find = |file: &str| {
            manifest
                .ancestors()
                .find(|d| d.join(file).is_file())
                .unwrap_or(manifest)
        };
        Recorder {
            started: SystemTime::now(),
            env: Environment::detect(
                find("Cargo.lock"),
                &find("benches/compare.rs").join("benches"),
            ),
            registered: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// A benchmark handed to criterion.
    pub fn registered(&mut self, id: String) {
        self.registered.push(id);
    }

    /// A benchmark not run, and why: printed now, kept in the record.
    pub fn skip(&mut self, line: String) {
        eprintln!("{line}");
        self.skipped.push(line);
    }

    /// Ends the run: reads back what criterion measured during it, writes the
    /// run record and prints the headline for each file. Nothing is written
    /// when the run measured nothing (`cargo test --benches`, `--list`, a
    /// filter that matched nothing).
    pub fn finish(self, args: &Args, headline_files: &[&str]) {
        if !args.measuring {
            return;
        }
        let dir = criterion_dir();
        let wanted = |id: &str| self.registered.iter().any(|r| r == id);
        let loaded = match load_run(&dir, &|_| true, Some(self.started), &wanted) {
            Ok(loaded) => loaded,
            Err(e) => {
                eprintln!(
                    "compare: cannot read criterion's results in {}: {e}",
                    dir.display()
                );
                std::process::exit(1);
            }
        };
        if loaded.measurements.is_empty() {
            return;
        }
        let secs = |t: SystemTime| t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let run = Run {
            id: format!("{}-{}", secs(self.started), std::process::id()),
            started: secs(self.started),
            finished: secs(SystemTime::now()),
            filter: args.filter_text.clone(),
            env: self.env,
            notes: crate::peer_notes()
                .into_iter()
                .map(|(p, n)| (p.to_owned(), n.to_owned()))
                .collect(),
            measurements: loaded.measurements,
            problems: loaded.problems,
            skipped: self.skipped,
        };
        let path = match run.write(&dir) {
            Ok(path) => path,
            Err(e) => {
                eprintln!(
                    "compare: cannot write the run record in {}: {e}",
                    dir.display()
                );
                std::process::exit(1);
            }
        };
        for file in headline_files {
            if run.measurements.iter().any(|m| m.file == *file) {
                println!(
                    "\n{}",
                    compare_results::headline::table(file, &run.measurements, "This run.")
                );
            }
        }
        for p in &run.problems {
            eprintln!("compare: {p}");
        }
        println!(
            "{} results; run record {}\n\
             Full report with charts: `cargo run --release -p compare-report` \
             writes target/report/compare.md and target/report/charts/*.svg from it.",
            run.measurements.len(),
            path.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Args {
        Args::parse(v.iter().map(|s| s.to_string()))
    }

    #[test]
    fn filter_as_criterion_applies_it() {
        let a = args(&["--bench", "compare/complex_player.dat/"]);
        assert!(a.measuring);
        assert!(a.wants("compare/complex_player.dat/simdnbt_borrow_read"));
        assert!(!a.wants("compare/bigtest.nbt/simdnbt_borrow_read"));
        assert!(!a.wants("serde/complex_player.dat/simdnbt_serde_read"));
        // A regex search, as criterion's: `.` matches any byte, no anchors.
        assert!(args(&["--bench", "player"]).wants("compare/complex_player.dat/x"));
        let exact = args(&["--bench", "--exact", "compare/a/x_read"]);
        assert!(exact.wants("compare/a/x_read") && !exact.wants("compare/a/x_read2"));
        assert!(!args(&["--bench", "--ignored"]).wants("anything"));
        assert!(args(&["--bench"]).wants("anything"));
    }

    #[test]
    fn option_values_are_not_filters() {
        let a = args(&[
            "--bench",
            "--save-baseline",
            "main",
            "--sample-size=10",
            "mutf8/",
        ]);
        assert_eq!(a.filter_text.as_deref(), Some("mutf8/"));
        let a = args(&["--bench", "--measurement-time", "3"]);
        assert_eq!(a.filter_text, None);
    }

    #[test]
    fn only_bench_mode_measures() {
        assert!(!args(&[]).measuring); // `cargo test --benches`
        assert!(!args(&["--bench", "--list"]).measuring);
        assert!(!args(&["--bench", "--profile-time", "5"]).measuring);
    }
}
