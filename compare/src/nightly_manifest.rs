//! compare/nightly/Cargo.toml builds this crate's sources with the
//! nightly-only peers, in a workspace of its own (it says why). These tests
//! hold it to the manifests it repeats: the same dependencies as
//! compare/Cargo.toml and compare/icount/Cargo.toml, and the root
//! workspace's profiles and lints, so a nightly run measures the same build.

use std::collections::BTreeMap;

const NIGHTLY: &str = include_str!("../nightly/Cargo.toml");
const COMPARE: &str = include_str!("../Cargo.toml");
const ICOUNT: &str = include_str!("../icount/Cargo.toml");
const ROOT: &str = include_str!("../../Cargo.toml");

/// The dependencies only the nightly build has.
const NIGHTLY_ONLY: [&str; 2] = ["azalea-nbt", "upstream-simdnbt"];
/// The dependencies only benches the nightly build leaves out use (the
/// codec bench's codecs): nightly cargo reports them unused there.
const STABLE_ONLY: [&str; 1] = ["compare-codecs"];

/// The `key = value` lines of section `name`, comments and blank lines left out.
fn section(manifest: &str, name: &str) -> Vec<String> {
    let mut inside = false;
    let mut lines = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == format!("[{name}]");
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            lines.push(line.to_owned());
        }
    }
    lines
}

/// A dependency as `(key, value)` fields: a plain `"1.0"` is `version`; a
/// `path` is resolved against `dir` (the manifest's folder, from the
/// repository root); `features` is a sorted list.
fn dependency(value: &str, dir: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let Some(table) = value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) else {
        fields.insert("version".to_owned(), value.to_owned());
        return fields;
    };
    let (mut field, mut depth) = (String::new(), 0);
    for c in table.chars().chain([',']) {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                if let Some((k, v)) = field.split_once('=') {
                    fields.insert(k.trim().to_owned(), v.trim().to_owned());
                }
                field.clear();
                continue;
            }
            _ => {}
        }
        field.push(c);
    }
    if let Some(path) = fields.get_mut("path") {
        let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for part in path.trim_matches('"').split('/') {
            match part {
                ".." => {
                    parts.pop();
                }
                "." => {}
                p => parts.push(p),
            }
        }
        *path = parts.join("/");
    }
    if let Some(features) = fields.get_mut("features") {
        let mut list: Vec<&str> = features
            .trim_matches(['[', ']'])
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .collect();
        list.sort();
        *features = list.join(", ");
    }
    fields
}

fn dependencies(
    manifest: &str,
    name: &str,
    dir: &str,
) -> BTreeMap<String, BTreeMap<String, String>> {
    section(manifest, name)
        .iter()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.trim().to_owned(), dependency(v.trim(), dir)))
        .collect()
}

#[test]
fn the_nightly_build_has_the_same_dependencies() {
    let nightly = dependencies(NIGHTLY, "dependencies", "compare/nightly");
    let compare = dependencies(COMPARE, "dependencies", "compare");
    let icount = dependencies(ICOUNT, "dependencies", "compare/icount");
    for (name, want) in compare.iter().chain(&icount) {
        if STABLE_ONLY.contains(&name.as_str()) {
            continue;
        }
        if want.get("path").is_some_and(|p| p == "compare") {
            continue; // the driver's own library, which the nightly package is
        }
        let Some(have) = nightly.get(name) else {
            panic!("compare/nightly/Cargo.toml lacks the dependency {name}");
        };
        for (key, value) in want {
            if key == "features" {
                // The package's features are the union of compare's and icount's.
                for f in value.split(", ") {
                    assert!(
                        have.get(key).is_some_and(|h| h.split(", ").any(|x| x == f)),
                        "{name}: feature {f} missing in compare/nightly/Cargo.toml"
                    );
                }
            } else {
                assert_eq!(have.get(key), Some(value), "{name}: {key}");
            }
        }
    }
    for name in nightly.keys() {
        assert!(
            compare.contains_key(name)
                || icount.contains_key(name)
                || NIGHTLY_ONLY.contains(&name.as_str()),
            "compare/nightly/Cargo.toml has {name}, which compare/Cargo.toml and compare/icount/Cargo.toml lack"
        );
    }
    assert_eq!(
        dependencies(NIGHTLY, "dev-dependencies", "compare/nightly"),
        dependencies(COMPARE, "dev-dependencies", "compare")
    );
}

#[test]
fn the_nightly_build_has_the_root_profiles_and_lints() {
    for profile in [
        "profile.release",
        "profile.bench",
        "profile.dev.package.\"*\"",
    ] {
        assert_eq!(
            section(NIGHTLY, profile),
            section(ROOT, profile),
            "[{profile}]"
        );
    }
    for tool in ["rust", "clippy"] {
        let root: Vec<String> = section(ROOT, &format!("workspace.lints.{tool}"))
            .into_iter()
            // The nightly build has the feature this declares.
            .filter(|l| !l.starts_with("unexpected_cfgs"))
            .collect();
        assert_eq!(
            section(NIGHTLY, &format!("lints.{tool}")),
            root,
            "[lints.{tool}]"
        );
    }
}
