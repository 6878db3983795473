//! Runs the report generator on a run record made from the committed
//! criterion fixture in `compare/results/tests/fixtures/criterion` (2 files ×
//! 3 peers × read/write, plus an extra `simdnbt_owned_write`, an unknown peer,
//! a stale `base/` copy and four bad inputs) and checks what it writes, and
//! that it refuses to mix runs or to write a report of nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use compare_report::{self as report, Config, Error};
use compare_results::criterion::{self, ProblemKind};
use compare_results::env::{Environment, LockPackage};
use compare_results::record::Run;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/tests/fixtures/criterion")
}

/// A fresh, empty directory under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "compare-report-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn test_env() -> Environment {
    Environment {
        date: "2026-01-02 03:04 UTC".into(),
        cpu: "Test CPU 9000".into(),
        cores: 2,
        os: "TestOS, linux kernel 1.2.3".into(),
        rustc: "rustc 1.95.0 (test)".into(),
        profile: "fat LTO, codegen-units = 1".into(),
        lock_packages: vec![
            LockPackage {
                name: "simdnbt".into(),
                version: "0.11.0".into(),
                source: None,
            },
            LockPackage {
                name: "simdnbt".into(),
                version: "0.10.0".into(),
                source: Some("registry+https://github.com/rust-lang/crates.io-index".into()),
            },
            LockPackage {
                name: "fastnbt".into(),
                version: "2.6.3".into(),
                source: Some("registry+https://github.com/rust-lang/crates.io-index".into()),
            },
        ],
    }
}

/// The record a run measuring the fixture's results would write.
fn record(id: &str, started: u64) -> Run {
    let loaded =
        criterion::load(&fixture(), &|p| compare_results::peers::find(p).is_some()).unwrap();
    Run {
        id: id.into(),
        started,
        finished: started + 600,
        filter: Some("compare/".into()),
        env: test_env(),
        notes: vec![("fastnbt".into(), "TEST NOTE for fastnbt.".into())],
        measurements: loaded.measurements,
        problems: loaded.problems,
        skipped: vec!["compare/bigtest.nbt: skipping crab (crab_nbt@0.2.11): TEST SKIP".into()],
    }
}

fn config(out: &Path) -> Config {
    let mut config = Config::new(out);
    config.runs_label = "`target/criterion/compare-runs/test.json`".into();
    config
}

struct Generated {
    out: PathBuf,
    outcome: report::Outcome,
    md: String,
}

fn run() -> Generated {
    let out = temp_dir("out");
    let outcome = report::generate(&config(&out), &[record("1767323040-42", 1_767_323_040)])
        .expect("generate");
    let md = fs::read_to_string(out.join("compare.md")).unwrap();
    Generated { out, outcome, md }
}

/// The markdown table rows (`| a | b | … |` lines after the header and
/// separator) that follow `heading` within `md`, as trimmed cells.
fn table_after(md: &str, file: &str, workload_heading: &str) -> Vec<Vec<String>> {
    let file_at = md
        .find(&format!("### {file}\n"))
        .unwrap_or_else(|| panic!("no section for {file}"));
    let rest = &md[file_at..];
    let wl_at = rest
        .find(&format!("#### {workload_heading}\n"))
        .unwrap_or_else(|| panic!("no {workload_heading} table for {file}"));
    rest[wl_at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

fn peer_of(cell: &str) -> &str {
    cell.trim_start_matches("**")
        .split("**")
        .next()
        .unwrap()
        .trim()
}

/// Parses `3.15 GiB/s` / `1000.0 MiB/s` into MiB/s.
fn mib_per_sec(cell: &str) -> f64 {
    let (n, unit) = cell.split_once(' ').unwrap();
    let n: f64 = n.parse().unwrap();
    match unit {
        "GiB/s" => n * 1024.0,
        "MiB/s" => n,
        "KiB/s" => n / 1024.0,
        u => panic!("unit {u}"),
    }
}

#[test]
fn tables_are_present_sorted_and_ratios_right() {
    let r = run();
    assert_eq!(r.outcome.measurements, 14, "{:#?}", r.outcome.problems);
    for file in ["bigtest.nbt", "complex_player.dat"] {
        for wl in ["Read", "Write"] {
            let rows = table_after(&r.md, file, wl);
            assert!(rows.len() >= 3, "{file} {wl}: {rows:?}");
            let speeds: Vec<f64> = rows.iter().map(|row| mib_per_sec(&row[1])).collect();
            assert!(
                speeds.windows(2).all(|w| w[0] >= w[1]),
                "{file} {wl} not fastest first: {speeds:?}"
            );
        }
    }
    assert!(
        !r.md.contains("#### Decode all"),
        "no decode_all results in the fixture"
    );

    let read = table_after(&r.md, "complex_player.dat", "Read");
    let peers: Vec<&str> = read.iter().map(|row| peer_of(&row[0])).collect();
    assert_eq!(peers, ["na_nbt_borrow", "simdnbt_borrow", "fastnbt"]);
    // 3380 bytes in 1000 ns, with the median's confidence interval.
    assert_eq!(read[1][1], "3.15 GiB/s");
    assert_eq!(read[1][2], "1.000 µs (980.0 ns – 1.030 µs)");
    let ratios: Vec<&str> = read.iter().map(|row| row[3].as_str()).collect();
    assert_eq!(ratios, ["1.25×", "1.00×", "0.50×"]);
    assert!(r.md.contains("| Ratio vs `simdnbt_borrow` |"));

    // bigtest write: simdnbt_owned is the fastest of ours and the baseline.
    let write = table_after(&r.md, "bigtest.nbt", "Write");
    let got: Vec<(&str, &str)> = write
        .iter()
        .map(|row| (peer_of(&row[0]), row[3].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("simdnbt_owned", "1.00×"),
            ("simdnbt_borrow", "0.50×"),
            ("fastnbt", "0.40×"),
            ("na_nbt_borrow", "0.25×")
        ]
    );
    assert!(r.md.contains("Ratios against `simdnbt_owned` (the fastest of ours)"));
    assert!(r.md.contains("| Ratio vs `simdnbt_owned` |"));

    // bigtest read: the stale base/ copy (1 ns) is ignored; the unknown peer
    // is reported; half the baseline's throughput shows 0.50×.
    let read = table_after(&r.md, "bigtest.nbt", "Read");
    let got: Vec<(&str, &str, &str)> = read
        .iter()
        .map(|row| (peer_of(&row[0]), row[1].as_str(), row[3].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("simdnbt_borrow", "1.95 GiB/s", "1.00×"),
            ("na_nbt_borrow", "1000.0 MiB/s", "0.50×"),
            ("fastnbt", "400.0 MiB/s", "0.20×"),
            ("mystery", "200.0 MiB/s", "0.10×")
        ]
    );
}

#[test]
fn header_notes_and_headline() {
    let r = run();
    let md = &r.md;
    for needle in [
        "2026-01-02 03:04 UTC",
        "Test CPU 9000, 2 logical cores; TestOS, linux kernel 1.2.3",
        "rustc 1.95.0 (test)",
        "fat LTO, codegen-units = 1",
        "cargo bench -p compare --bench compare",
        "from the run record `target/criterion/compare-runs/test.json`.",
        "cargo run --release -p compare-report -- --out reports",
        "- **Run:** One run of the `compare` bench: run `1767323040-42` (2026-01-02 03:04 UTC to 2026-01-02 03:14 UTC, filter `compare/`).",
        "## Benchmarks the run skipped",
        "- compare/bigtest.nbt: skipping crab (crab_nbt@0.2.11): TEST SKIP",
        // versions from the lock file, ours vs upstream told apart
        "| **simdnbt_borrow** (ours) | `simdnbt` (this workspace) | 0.11.0 | read, write |",
        "| upstream_borrow | `simdnbt` | 0.10.0 | did not run |",
        "| fastnbt | `fastnbt` | 2.6.3 | read, write |",
        "| na_nbt_borrow | `na_nbt` | not in Cargo.lock | read, write |",
        "| mystery | unknown peer | not in Cargo.lock | read |",
        // notes passed in, and peers without any
        "- fastnbt: TEST NOTE for fastnbt.",
        "- na_nbt_borrow: (no notes recorded)",
        "![complex_player.dat read chart](charts/complex_player.dat-read.svg)",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }

    let headline = fs::read_to_string(&r.outcome.headline).unwrap();
    assert_eq!(r.outcome.headline, r.out.join("headline.md"));
    assert!(headline.contains(
        "| Library | Read | Read ratio | Read ÷ floor | Write | Write ratio | Decode all | \
         Decode all ratio | Decode all ÷ floor |"
    ));
    // The test run has no floor: its column is empty, and the note says why.
    assert!(
        headline.contains(
            "| na_nbt_borrow | 3.93 GiB/s | 1.25× | — | 1.05 GiB/s | 0.50× | — | — | — |"
        ),
        "{headline}"
    );
    assert!(
        headline.contains("| fastnbt | 1.57 GiB/s | 0.50× | — | 537.2 MiB/s | 0.25× | — | — | — |"),
        "{headline}"
    );
    assert!(headline.contains("no floor ran"), "{headline}");
    assert!(headline.contains("One run of the `compare` bench: run `1767323040-42`"));
    assert!(
        !headline.contains("bigtest"),
        "headline is complex_player.dat only"
    );
    // the same table is embedded in compare.md
    let body = headline.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(
        md.contains(body.trim()),
        "headline not embedded in compare.md"
    );
}

#[test]
fn bad_inputs_are_reported_not_fatal() {
    let r = run();
    let kind_of = |dir: &str| {
        r.outcome
            .problems
            .iter()
            .find(|p| p.path.to_string_lossy().contains(dir))
            .unwrap_or_else(|| panic!("no problem recorded for {dir}: {:#?}", r.outcome.problems))
            .kind
    };
    assert_eq!(kind_of("broken_read"), ProblemKind::Malformed);
    assert_eq!(kind_of("noestimates_read"), ProblemKind::Malformed);
    assert_eq!(kind_of("other_group"), ProblemKind::Unrecognised);
    assert_eq!(kind_of("fastnbt_parse"), ProblemKind::Unrecognised);
    assert_eq!(kind_of("mystery_read"), ProblemKind::UnknownPeer);
    assert_eq!(r.outcome.problems.len(), 5, "{:#?}", r.outcome.problems);
    assert!(r.md.contains("## Inputs not used as-is"));
    assert!(r.md.contains("| `compare_bigtest.nbt/broken_read/new/benchmark.json` | malformed |"));
}

#[test]
fn no_usable_result_writes_nothing() {
    let out = temp_dir("empty").join("out");
    let mut empty = record("1-1", 1);
    empty.measurements.clear();
    match report::generate(&config(&out), &[empty]) {
        Err(Error::NoResults(why)) => assert!(why.contains("5 problem(s)"), "{why}"),
        other => panic!("expected NoResults, got {other:?}"),
    }
    assert!(!out.exists(), "nothing may be written");
    assert!(matches!(
        report::generate(&config(&out), &[]),
        Err(Error::NoResults(_))
    ));
    assert!(!out.exists());
}

#[test]
fn runs_are_never_mixed_silently() {
    let out = temp_dir("mixed");
    let (a, b) = (record("100-1", 100), record("200-2", 200));
    match report::generate(&config(&out), &[a.clone(), b.clone()]) {
        Err(Error::MixedRuns(runs)) => assert_eq!(runs.len(), 2),
        other => panic!("expected MixedRuns, got {other:?}"),
    }
    assert!(
        fs::read_dir(&out).unwrap().next().is_none(),
        "nothing written"
    );

    // On request: the report names both runs, claims no single run, and each
    // benchmark comes from the later run only.
    let mut config = config(&out);
    config.allow_mixed_runs = true;
    let outcome = report::generate(&config, &[a, b]).unwrap();
    let md = fs::read_to_string(outcome.markdown).unwrap();
    assert!(
        md.contains("Combined from 2 runs of the `compare` bench"),
        "{md}"
    );
    assert!(md.contains("run `100-1`") && md.contains("run `200-2`"));
    assert!(!md.contains("One run of"));
    assert_eq!(outcome.measurements, 14);
    let other_run = outcome
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::OtherRun)
        .count();
    assert_eq!(other_run, 14, "every result of the earlier run left out");
}

#[test]
fn charts_are_well_formed_svg() {
    let r = run();
    let mut names: Vec<String> = r
        .outcome
        .charts
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "bigtest.nbt-read.svg",
            "bigtest.nbt-write.svg",
            "complex_player.dat-read.svg",
            "complex_player.dat-write.svg"
        ]
    );
    for path in &r.outcome.charts {
        assert_eq!(path.parent().unwrap(), r.out.join("charts"));
        let svg = fs::read_to_string(path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", path.display());
        check_xml(&svg).unwrap_or_else(|e| panic!("{} is not well-formed: {e}", path.display()));
        for peer in ["simdnbt_borrow", "na_nbt_borrow", "fastnbt"] {
            assert!(
                svg.contains(&format!(">\n{peer}\n</text>")),
                "{} lacks {peer}",
                path.display()
            );
        }
        // ours highlighted
        assert!(
            svg.contains("fill=\"#D9480F\""),
            "{} has no highlighted bar",
            path.display()
        );
        assert!(
            svg.contains("fill=\"#6B7F99\""),
            "{} has no other bar",
            path.display()
        );
    }
}

#[test]
fn stale_charts_are_removed_others_kept() {
    let out = temp_dir("stale");
    fs::create_dir_all(out.join("charts")).unwrap();
    let stale = out.join("charts/gone.nbt-read.svg");
    let keep = out.join("charts/logo.svg");
    fs::write(&stale, "<svg/>").unwrap();
    fs::write(&keep, "<svg/>").unwrap();
    let outcome = report::generate(&config(&out), &[record("1-1", 1)]).unwrap();
    assert_eq!(outcome.removed_charts, std::slice::from_ref(&stale));
    assert!(!stale.exists());
    assert!(keep.exists());
}

#[test]
fn cli_writes_the_report() {
    let out = temp_dir("cli");
    let record = record("300-3", 300).write(&out.join("criterion")).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg("--run")
        .arg(&record)
        .arg(format!("--out={}", out.display()))
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("broken_read"),
        "{stderr}"
    );
    assert!(out.join("compare.md").is_file());
    assert!(out.join("headline.md").is_file());
    assert!(out.join("charts/complex_player.dat-write.svg").is_file());

    let mixed = Command::new(env!("CARGO_BIN_EXE_report"))
        .args(["--run", &record.display().to_string()])
        .args(["--run", &record.display().to_string()])
        .arg(format!("--out={}", out.join("mixed").display()))
        .output()
        .unwrap();
    assert_eq!(mixed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("--allow-mixed-runs"));
    assert!(!out.join("mixed").exists());

    let missing = Command::new(env!("CARGO_BIN_EXE_report"))
        .args(["--run", "/nonexistent/run.json"])
        .arg(format!("--out={}", out.join("missing").display()))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(!out.join("missing").exists());

    let bad = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("usage:"));
}

/// A small well-formedness check: balanced, properly nested tags, quoted
/// attributes, and no stray `<` or bare `&` in text.
fn check_xml(s: &str) -> Result<(), String> {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = s;
    let mut roots = 0;
    while let Some(lt) = rest.find('<') {
        check_text(&rest[..lt])?;
        let after = &rest[lt + 1..];
        let gt = after.find('>').ok_or("unterminated tag")?;
        let tag = &after[..gt];
        rest = &after[gt + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or_else(|| format!("stray </{name}>"))?;
            if open != name.trim() {
                return Err(format!("<{open}> closed by </{name}>"));
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body.split_whitespace().next().ok_or("empty tag")?;
        if body.matches('"').count() % 2 != 0 {
            return Err(format!("unbalanced quotes in <{tag}>"));
        }
        if stack.is_empty() {
            roots += 1;
        }
        if !self_closing {
            stack.push(name);
        }
    }
    check_text(rest)?;
    match (stack.last(), roots) {
        (Some(open), _) => Err(format!("<{open}> never closed")),
        (None, 1) => Ok(()),
        (None, n) => Err(format!("{n} root elements")),
    }
}

fn check_text(text: &str) -> Result<(), String> {
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..];
        let ok = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"]
            .iter()
            .any(|e| entity.starts_with(e));
        if !ok {
            return Err(format!("bare & in text {text:?}"));
        }
    }
    Ok(())
}
