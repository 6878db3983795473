//! Where and how a benchmark run ran: date, machine, toolchain, build profile
//! and crate versions. The bench detects it when it runs and keeps it in the
//! run record ([`crate::record::Run`]), so the report states the run's facts,
//! not those of the moment it was generated.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::peers::{PackageSource, Peer};

/// Facts for the report header. [`Environment::detect`] fills it from the
/// running machine; tests build one by hand for deterministic output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// When the run started, e.g. `2026-11-30 04:10 UTC`.
    pub date: String,
    /// CPU model name from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical CPUs the OS reports.
    pub cores: usize,
    /// Operating system and kernel, e.g. `Debian GNU/Linux 12 (bookworm), Linux 6.1.0`.
    pub os: String,
    /// Output of `rustc -vV`, trimmed.
    pub rustc: String,
    /// One line describing the `[profile.release]` / `[profile.bench]` settings.
    pub profile: String,
    /// `Cargo.lock` packages: `(name, version, source)`; `source` is `None`
    /// for workspace members.
    pub lock_packages: Vec<LockPackage>,
}

/// One `[[package]]` entry of `Cargo.lock`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockPackage {
    /// Package name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// The `source` line, `None` for path/workspace packages.
    pub source: Option<String>,
}

impl Environment {
    /// Gathers the environment of the running machine. `workspace_root` is
    /// where `Cargo.toml` and `Cargo.lock` are read from (the root of the
    /// workspace the benches were built in), `benches` the folder of the
    /// bench sources (`compare/benches`). Anything that cannot be found is
    /// recorded as `unknown`, never an error.
    pub fn detect(workspace_root: &Path, benches: &Path) -> Environment {
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == "model name").then(|| v.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".into());
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        let lock = fs::read_to_string(workspace_root.join("Cargo.lock")).unwrap_or_default();
        let manifest = fs::read_to_string(workspace_root.join("Cargo.toml")).unwrap_or_default();
        let lock_packages = parse_cargo_lock(&lock);
        Environment {
            date: format_utc(SystemTime::now()),
            cpu,
            cores,
            os: os_description(),
            rustc: rustc_version(),
            profile: describe_profile(&manifest, &lock_packages, &bench_sources(benches)),
            lock_packages,
        }
    }

    /// The version of `peer`'s crate in `Cargo.lock`, if present. A crate
    /// that is also another peer's dependency can be in the lock file twice
    /// (valence_nbt 0.8, which `compare` pins, and 0.6, which azalea pulls
    /// in): the newest is the one the benches use.
    pub fn version_of(&self, peer: &Peer) -> Option<&str> {
        self.lock_packages
            .iter()
            .filter(|p| {
                p.name == peer.package
                    && match peer.source {
                        PackageSource::Workspace => p.source.is_none(),
                        PackageSource::Registry => p.source.is_some(),
                    }
            })
            .max_by_key(|p| version_key(&p.version))
            .map(|p| p.version.as_str())
    }
}

/// A version's numeric parts, for ordering (`0.10.0` after `0.9.1`).
fn version_key(version: &str) -> Vec<u64> {
    version
        .split(['.', '-', '+'])
        .map(|part| part.parse().unwrap_or(0))
        .collect()
}

/// All `*.rs` sources in `benches`, concatenated (empty if none).
fn bench_sources(benches: &Path) -> String {
    let mut paths: Vec<_> = fs::read_dir(benches)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .collect::<Vec<_>>()
        .join("\n")
}

fn os_description() -> String {
    let release = fs::read_to_string("/etc/os-release").unwrap_or_default();
    let name = release
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_owned());
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|s| s.trim().to_owned());
    let os = std::env::consts::OS;
    match (name, kernel) {
        (Some(n), Some(k)) => format!("{n}, {os} kernel {k}"),
        (Some(n), None) => n,
        (None, Some(k)) => format!("{os} kernel {k}"),
        (None, None) => os.to_owned(),
    }
}

fn rustc_version() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    match Command::new(rustc).arg("-vV").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        _ => "unknown (`rustc -vV` failed)".into(),
    }
}

/// Reads `lto` and `codegen-units` from the workspace manifest's
/// `[profile.release]` (which `[profile.bench]` inherits here), and whether
/// the bench sources declare a mimalloc `#[global_allocator]` (with its
/// version from the lock file), into one sentence. Only what is found is
/// claimed.
pub fn describe_profile(manifest: &str, lock: &[LockPackage], bench_sources: &str) -> String {
    let mut section = "";
    let (mut lto, mut cgu, mut bench_inherits) = (None, None, None);
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let (k, v) = (k.trim(), v.trim().trim_matches('"'));
        match (section, k) {
            ("[profile.release]", "lto") => lto = Some(v.to_owned()),
            ("[profile.release]", "codegen-units") => cgu = Some(v.to_owned()),
            ("[profile.bench]", "inherits") => bench_inherits = Some(v.to_owned()),
            _ => {}
        }
    }
    let mut parts = Vec::new();
    parts.push(match lto.as_deref() {
        Some("fat") | Some("true") => "fat LTO".to_owned(),
        Some(v) => format!("lto = {v}"),
        None => "default LTO (none set)".to_owned(),
    });
    parts.push(match cgu {
        Some(v) => format!("codegen-units = {v}"),
        None => "default codegen-units".to_owned(),
    });
    let bench = match bench_inherits.as_deref() {
        Some("release") => "`bench` inherits `release`",
        _ => "`bench` profile as configured",
    };
    let mimalloc = lock.iter().find(|p| p.name == "mimalloc");
    let declared = bench_sources.contains("#[global_allocator]")
        && bench_sources.to_ascii_lowercase().contains("mimalloc");
    let alloc = match (declared, mimalloc) {
        (true, Some(p)) => format!(
            "mimalloc {} as the global allocator (`#[global_allocator]` in `compare/benches`), \
             as upstream simdnbt's benchmark harness uses",
            p.version
        ),
        (true, None) => {
            "mimalloc as the global allocator (`#[global_allocator]` in `compare/benches`), \
             as upstream simdnbt's benchmark harness uses"
                .to_owned()
        }
        (false, Some(p)) => format!(
            "mimalloc {} is in Cargo.lock but no mimalloc `#[global_allocator]` was found in \
             `compare/benches`, so the allocator is unverified",
            p.version
        ),
        (false, None) => {
            "the system allocator (no mimalloc in Cargo.lock; upstream's harness uses mimalloc)"
                .to_owned()
        }
    };
    format!("{} ({bench}); {alloc}", parts.join(", "))
}

/// Parses the `[[package]]` entries of a `Cargo.lock` (any lock version).
/// Only `name`, `version` and `source` are read.
pub fn parse_cargo_lock(text: &str) -> Vec<LockPackage> {
    let mut out = Vec::new();
    let mut cur: Option<(Option<String>, Option<String>, Option<String>)> = None;
    let flush = |cur: &mut Option<(Option<String>, Option<String>, Option<String>)>,
                 out: &mut Vec<LockPackage>| {
        if let Some((Some(name), Some(version), source)) = cur.take() {
            out.push(LockPackage {
                name,
                version,
                source,
            });
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            flush(&mut cur, &mut out);
            if line == "[[package]]" {
                cur = Some((None, None, None));
            }
            continue;
        }
        let Some(entry) = cur.as_mut() else { continue };
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim();
        if !(v.starts_with('"') && v.ends_with('"') && v.len() >= 2) {
            continue;
        }
        let v = v[1..v.len() - 1].to_owned();
        match k.trim() {
            "name" => entry.0 = Some(v),
            "version" => entry.1 = Some(v),
            "source" => entry.2 = Some(v),
            _ => {}
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// Formats a time as `YYYY-MM-DD HH:MM UTC` without a date library.
pub fn format_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn utc_dates() {
        assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34:56 UTC
        assert_eq!(
            format_utc(UNIX_EPOCH + Duration::from_secs(951_827_696)),
            "2000-02-29 12:34 UTC"
        );
        // 2026-11-30 04:00:00 UTC
        assert_eq!(
            format_utc(UNIX_EPOCH + Duration::from_secs(1_796_011_200)),
            "2026-11-30 04:00 UTC"
        );
    }

    #[test]
    fn lock_parsing() {
        let lock = "version = 3\n\n[[package]]\nname = \"simdnbt\"\nversion = \"0.11.0\"\ndependencies = [\n \"corpus\",\n]\n\n[[package]]\nname = \"simdnbt\"\nversion = \"0.10.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"ab\"\n";
        let p = parse_cargo_lock(lock);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].version, "0.11.0");
        assert!(p[0].source.is_none());
        assert_eq!(p[1].version, "0.10.0");
        assert!(p[1].source.as_deref().unwrap().starts_with("registry+"));
    }

    #[test]
    fn a_crate_in_the_lock_twice_reports_the_newest() {
        let pkg = |version: &str| LockPackage {
            name: "valence_nbt".into(),
            version: version.into(),
            source: Some("registry+x".into()),
        };
        let env = Environment {
            date: String::new(),
            cpu: String::new(),
            cores: 0,
            os: String::new(),
            rustc: String::new(),
            profile: String::new(),
            lock_packages: vec![pkg("0.6.1"), pkg("0.10.0"), pkg("0.8.0")],
        };
        let valence = crate::peers::find("valence").unwrap();
        assert_eq!(env.version_of(valence), Some("0.10.0"));
    }

    #[test]
    fn profile_sentence() {
        let manifest = "[profile.release]\nlto = \"fat\"\ncodegen-units = 1\n\n[profile.bench]\ninherits = \"release\"\n";
        let s = describe_profile(manifest, &[], "");
        assert!(
            s.starts_with("fat LTO, codegen-units = 1 (`bench` inherits `release`)"),
            "{s}"
        );
        assert!(
            s.ends_with(
                "the system allocator (no mimalloc in Cargo.lock; upstream's harness uses mimalloc)"
            ),
            "{s}"
        );
        let lock = [LockPackage {
            name: "mimalloc".into(),
            version: "0.1.48".into(),
            source: Some("registry+x".into()),
        }];
        let s = describe_profile(manifest, &lock, "");
        assert!(
            s.contains("mimalloc 0.1.48 is in Cargo.lock but no mimalloc `#[global_allocator]`"),
            "{s}"
        );
        let bench = "#[global_allocator]\nstatic GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;";
        let s = describe_profile(manifest, &lock, bench);
        assert!(
            s.contains("; mimalloc 0.1.48 as the global allocator"),
            "{s}"
        );
    }
}
