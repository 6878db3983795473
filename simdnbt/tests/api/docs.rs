//! Docs that cannot go stale: what the front page, the README and
//! docs/architecture.md say about the source tree, checked against it.

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The markdown table that follows the line `heading` (its `|` lines).
fn table_after<'a>(lines: impl Iterator<Item = &'a str>, heading: &str) -> Vec<String> {
    lines
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(str::to_owned)
        .collect()
}

/// A line of rustdoc markdown as plain markdown: `[text](target)` and
/// `[text]` (intra-doc links) become `text`; brackets inside code spans stay.
fn without_links(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let (mut out, mut i, mut code) = (String::new(), 0, false);
    while i < chars.len() {
        match chars[i] {
            '`' => {
                code = !code;
                out.push('`');
                i += 1;
            }
            '[' if !code => {
                let (mut j, mut inner) = (i + 1, false);
                while j < chars.len() && (chars[j] != ']' || inner) {
                    inner ^= chars[j] == '`';
                    j += 1;
                }
                out.extend(&chars[i + 1..j.min(chars.len())]);
                i = j + 1;
                if chars.get(i) == Some(&'(') {
                    while i < chars.len() && chars[i] != ')' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[test]
fn link_removal() {
    assert_eq!(
        without_links("| [`a::b`], [`c`](x::c) `p[{S:0b}]` [D](#d) |"),
        "| `a::b`, `c` `p[{S:0b}]` D |"
    );
}

#[test]
fn the_readme_task_table_is_the_front_pages() {
    let lib = read("simdnbt/src/lib.rs");
    let front = table_after(
        lib.lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .map(|l| l.strip_prefix(' ').unwrap_or(l)),
        "# Which API for which task",
    );
    let readme = read("README.md");
    let readme = table_after(readme.lines(), "## Which API for which task");
    assert!(
        front.len() > 10,
        "the front page's task table was not found"
    );
    let front: Vec<String> = front.iter().map(|l| without_links(l)).collect();
    assert_eq!(
        readme, front,
        "README.md's task table differs from simdnbt/src/lib.rs's (the README's is the front \
         page's without the links)"
    );
}

#[test]
fn architecture_has_a_row_per_source_entry() {
    let doc = read("docs/architecture.md");
    let rows: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `simdnbt/src/"))
        .filter_map(|l| l.split_once('`').map(|(path, _)| path))
        .collect();
    let mut entries = Vec::new();
    for entry in fs::read_dir(repo().join("simdnbt/src")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if entry.file_type().unwrap().is_dir() {
            entries.push(format!("{name}/"));
        } else if name.ends_with(".rs") {
            entries.push(name);
        }
    }
    for entry in &entries {
        assert!(
            rows.contains(&entry.as_str()),
            "docs/architecture.md has no row for simdnbt/src/{entry}"
        );
    }
    for row in &rows {
        assert!(
            entries.iter().any(|e| e == row),
            "docs/architecture.md has a row for simdnbt/src/{row}, which does not exist"
        );
    }
}

#[test]
fn the_front_page_lists_every_feature() {
    let manifest = read("simdnbt/Cargo.toml");
    let features: Vec<&str> = manifest
        .lines()
        .skip_while(|l| l.trim() != "[features]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| name.trim()))
        .filter(|name| !name.starts_with('#') && *name != "default")
        .collect();
    assert!(features.len() > 5);
    let lib = read("simdnbt/src/lib.rs");
    let section: String = lib
        .lines()
        .skip_while(|l| l.trim() != "//! # Features")
        .skip(1)
        .take_while(|l| !l.starts_with("//! #"))
        .collect::<Vec<_>>()
        .join(" ");
    for feature in features {
        assert!(
            section.contains(&format!("`{feature}`")),
            "the front page's Features section does not name `{feature}`"
        );
    }
}

#[test]
fn the_readme_stays_short() {
    let lines = read("README.md").lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines (at most 300): move detail to docs/ or reports/ and link it"
    );
}

/// Whether `comment` gives a number with a unit of time or an instruction
/// count ("450 instructions", "18.4k instr", "3 ns", "2.5µs").
fn has_timing_or_count(comment: &str) -> bool {
    const UNITS: [&str; 6] = ["instructions", "instruction", "instr", "ns", "µs", "ms"];
    let numeric = |w: &str| {
        let w = w.trim_start_matches(['~', '(', '+', '−', '-']);
        let w = w.strip_suffix('k').unwrap_or(w);
        !w.is_empty()
            && w.bytes().any(|b| b.is_ascii_digit())
            && w.bytes()
                .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    };
    let words: Vec<&str> = comment
        .split_whitespace()
        .map(|w| w.trim_end_matches([',', '.', ';', ':', ')']))
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        UNITS.iter().any(|unit| {
            (*w == *unit && i > 0 && numeric(words[i - 1]))
                || w.strip_suffix(unit).is_some_and(numeric)
        })
    })
}

#[test]
fn timing_and_counts_are_recognised() {
    assert!(has_timing_or_count(" about 450 instructions to move"));
    assert!(has_timing_or_count(" measured 18.4k instructions per read"));
    assert!(has_timing_or_count(" takes 2.5µs."));
    assert!(!has_timing_or_count(
        " at most 18× the input (16 bytes a node)"
    ));
    assert!(!has_timing_or_count(" in a few instructions"));
}

/// Measurements live in reports/, where they say how they were taken; a
/// comment links there. A commit hash in a comment is a measurement that
/// will not match the code after the next change, and so is an instruction
/// count or a time.
#[test]
fn no_commit_hashes_in_library_comments() {
    let mut found = Vec::new();
    let mut stack = vec![repo().join("simdnbt/src")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let Some((_, comment)) = line.split_once("//") else {
                    continue;
                };
                let hash = comment
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| {
                        (7..=12).contains(&w.len())
                            && w.bytes()
                                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                            && w.bytes().any(|b| b.is_ascii_digit())
                            && w.bytes().any(|b| b.is_ascii_lowercase())
                    });
                if hash || has_timing_or_count(comment) {
                    found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "commit hashes or measured counts in comments (put the number in reports/ and link it):\n{}",
        found.join("\n")
    );
}
