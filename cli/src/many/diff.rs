//! `nbt diff` over many documents: two region files chunk by chunk, two
//! folders file by file (matched by their path below each folder). Each line
//! of a document's differences is prefixed with where it is (`FILE chunk (X,
//! Z): ~ PATH: OLD -> NEW`); a file or chunk present on one side only is
//! `- WHERE` or `+ WHERE`. Identical bytes are not parsed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use simdnbt::document::Document;
use simdnbt::region::{LocalPos, Region};

use crate::failure::{Failure, Result};
use crate::input::{self, InputOpts};
use crate::walk::Inputs;

/// What comparing two inputs found: difference lines, and failures (files or
/// chunks that could not be read, as messages).
#[derive(Default)]
pub struct Differences {
    /// Lines, in order.
    pub lines: Vec<String>,
    /// What could not be read.
    pub failures: Vec<String>,
}

impl Differences {
    fn append(&mut self, mut other: Differences) {
        self.lines.append(&mut other.lines);
        self.failures.append(&mut other.failures);
    }
}

/// The difference lines of two documents (the root's name, then by path),
/// each prefixed with `prefix` when it is not empty.
pub fn documents(a: Option<&Document>, b: Option<&Document>, prefix: &str) -> Vec<String> {
    let mut lines = Vec::new();
    // A single End byte compares as an unnamed empty compound.
    fn name(d: Option<&Document>) -> std::borrow::Cow<'_, str> {
        d.map(|d| d.name().to_str()).unwrap_or_default()
    }
    if name(a) != name(b) {
        lines.push(format!("~ (root name): {:?} -> {:?}", name(a), name(b)));
    }
    lines.extend(crate::diff::documents(a, b));
    if !prefix.is_empty() {
        for line in &mut lines {
            *line = format!("{prefix}: {line}");
        }
    }
    lines
}

/// Two region files, chunk by chunk (header order); `name` is how lines name
/// the file (empty: lines name the chunk only).
pub fn regions(a: &Path, b: &Path, name: &str) -> Differences {
    // A bad header entry costs only its own chunk: named as a failure.
    let open = |path: &Path| {
        let place = super::place(path);
        let bytes = std::fs::read(path)
            .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
        input::open_region_lenient(&place, bytes).map(|(region, bad)| {
            let bad: Vec<(Option<LocalPos>, String)> = bad
                .iter()
                .map(|e| (e.pos(), input::skipped_chunk(&place, e)))
                .collect();
            (region, bad)
        })
    };
    let mut skipped = Vec::new();
    let (ra, rb) = match (open(a), open(b)) {
        (Ok((ra, bad_a)), Ok((rb, bad_b))) => {
            skipped.extend(bad_a.into_iter().chain(bad_b));
            (ra, rb)
        }
        (ra, rb) => {
            let failures = [ra.err(), rb.err()]
                .into_iter()
                .flatten()
                .map(|f| f.message)
                .collect();
            return Differences {
                lines: Vec::new(),
                failures,
            };
        }
    };
    let index = |p: LocalPos| usize::from(p.x) + 32 * usize::from(p.z);
    // A chunk skipped on either side is not compared (it is not absent).
    let unread: BTreeSet<usize> = skipped
        .iter()
        .filter_map(|(p, _)| Some(index((*p)?)))
        .collect();
    let present: BTreeSet<usize> = ra
        .chunks()
        .chain(rb.chunks())
        .map(|i| index(i.pos))
        .filter(|i| !unread.contains(i))
        .collect();
    let per_chunk: Vec<Differences> = present
        .into_par_iter()
        .map(|i| {
            let pos = LocalPos {
                x: (i % 32) as u8,
                z: (i / 32) as u8,
            };
            let at = match name {
                "" => format!("chunk {pos}"),
                _ => format!("{name} chunk {pos}"),
            };
            chunk(&ra, &rb, pos, &at)
        })
        .collect();
    let mut all = Differences {
        lines: Vec::new(),
        failures: skipped.into_iter().map(|(_, m)| m).collect(),
    };
    for d in per_chunk {
        all.append(d);
    }
    all
}

/// One chunk of two regions.
fn chunk(ra: &Region, rb: &Region, pos: LocalPos, at: &str) -> Differences {
    let (x, z) = (i32::from(pos.x), i32::from(pos.z));
    let read = |r: &Region| -> std::result::Result<Option<Vec<u8>>, String> {
        r.chunk(x, z).map_err(|e| format!("{at}: {e}"))
    };
    let mut d = Differences::default();
    match (read(ra), read(rb)) {
        (Ok(None), Ok(None)) => {}
        (Ok(Some(_)), Ok(None)) => d.lines.push(format!("- {at}")),
        (Ok(None), Ok(Some(_))) => d.lines.push(format!("+ {at}")),
        (Ok(Some(a)), Ok(Some(b))) if a == b => {}
        (Ok(Some(a)), Ok(Some(b))) => {
            let parse = |bytes: Vec<u8>| {
                Document::from_vec(bytes).map_err(|e| format!("{at}: invalid NBT: {e}"))
            };
            match (parse(a), parse(b)) {
                (Ok(na), Ok(nb)) => d.lines = documents(na.as_ref(), nb.as_ref(), at),
                (na, nb) => d
                    .failures
                    .extend([na.err(), nb.err()].into_iter().flatten()),
            }
        }
        (ea, eb) => d
            .failures
            .extend([ea.err(), eb.err()].into_iter().flatten()),
    }
    d
}

/// Two folders: every file found below either (by the walker), matched by
/// its path relative to its folder.
pub fn folders(a: &Path, b: &Path, opts: &InputOpts) -> Differences {
    let list = |root: &Path| {
        let inputs = Inputs::collect(&[root.to_owned()]);
        let files: BTreeSet<PathBuf> = inputs
            .regions
            .iter()
            .chain(&inputs.documents)
            .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_owned))
            .collect();
        (files, inputs.unreadable)
    };
    let (fa, ua) = list(a);
    let (fb, ub) = list(b);
    let all: Vec<&PathBuf> = fa.union(&fb).collect();
    let per_file: Vec<Differences> = all
        .into_par_iter()
        .map(|rel| {
            let name = rel.display().to_string();
            match (fa.contains(rel), fb.contains(rel)) {
                (true, false) => Differences {
                    lines: vec![format!("- {name}")],
                    ..Differences::default()
                },
                (false, true) => Differences {
                    lines: vec![format!("+ {name}")],
                    ..Differences::default()
                },
                _ => file(&a.join(rel), &b.join(rel), &name, opts),
            }
        })
        .collect();
    let mut found = Differences {
        failures: ua.into_iter().chain(ub).collect(),
        ..Differences::default()
    };
    for d in per_file {
        found.append(d);
    }
    found
}

/// One file present in both folders.
fn file(a: &Path, b: &Path, name: &str, opts: &InputOpts) -> Differences {
    if let (Ok(x), Ok(y)) = (std::fs::read(a), std::fs::read(b))
        && x == y
    {
        return Differences::default();
    }
    if crate::walk::is_region(a) {
        return regions(a, b, name);
    }
    let open = |p: &Path| {
        let place = super::place(p);
        input::open_document(&place, &opts.in_folder(&place))
    };
    match (open(a), open(b)) {
        (Ok(da), Ok(db)) => Differences {
            lines: documents(da.doc.as_ref(), db.doc.as_ref(), name),
            ..Differences::default()
        },
        (da, db) => Differences {
            failures: [da.err(), db.err()]
                .into_iter()
                .flatten()
                .map(|f| f.message)
                .collect(),
            ..Differences::default()
        },
    }
}

/// Prints `found` (lines on stdout, failures on stderr); the exit status: 0
/// equal, 1 different, 2 something could not be read.
pub fn report(found: Differences) -> Result<u8> {
    let mut text = found.lines.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    crate::output::write_stdout(text.as_bytes())?;
    for failure in &found.failures {
        eprintln!("nbt: {failure}");
    }
    Ok(if !found.failures.is_empty() {
        crate::failure::TROUBLE
    } else if found.lines.is_empty() {
        0
    } else {
        crate::failure::NO
    })
}
