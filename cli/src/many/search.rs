//! Reading many documents: `nbt find`, and `nbt get` over a folder or a whole
//! region file. Region files go through the library's parallel scan (each
//! chunk parsed with the borrow reader, never built as a tree); other files
//! are read as a single file is.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use simdnbt::document::Document;
use simdnbt::owned::NbtTag;
use simdnbt::path::NbtPath;
use simdnbt::region::scan::Scan;

use super::{Summary, Where};
use crate::input::{self, InputOpts};
use crate::report::progress_bar;
use crate::walk::Inputs;

/// One value a path selected, with the concrete path to it.
pub type Found = (NbtPath, NbtTag);

/// Every value `path` selects in `doc` (none in a document that is a single
/// End byte), with the concrete path to each.
pub fn resolve(path: &NbtPath, doc: Option<&Document>) -> Vec<Found> {
    let Some(doc) = doc else {
        return Vec::new();
    };
    path.resolve_all(doc)
        .into_iter()
        .map(|(at, value)| (at, value.to_owned()))
        .collect()
}

/// The text `line` makes of one match (with its line break).
pub type Line<'l> = dyn Fn(&Where<'_>, &Found) -> String + Sync + 'l;

/// Runs `path` over every document of `inputs`, and prints on stdout the
/// text `line` makes of each match, in walk order (files first, then region
/// files, chunks in header order). Failures go to stderr as they are found.
/// Returns the counts; `summary.matches` is the number of matches.
pub fn search(inputs: &Inputs, opts: &InputOpts, path: &NbtPath, line: &Line<'_>) -> Summary {
    let mut summary = Summary::of(inputs);
    let bar = progress_bar(summary.bytes);
    let failed = Mutex::new(0usize);
    let fail = |message: String| {
        bar.suspend(|| eprintln!("nbt: {message}"));
        *failed.lock().unwrap_or_else(|e| e.into_inner()) += 1;
    };
    for message in &inputs.unreadable {
        eprintln!("nbt: {message}");
    }

    let documents: Vec<(String, usize)> = inputs
        .documents
        .par_iter()
        .map(|file| {
            let place = super::place(file);
            let doc = input::open_document(&place, &opts.in_folder(&place));
            bar.inc(std::fs::metadata(file).map_or(0, |m| m.len()));
            match doc {
                Ok(doc) => {
                    let at = Where { file, chunk: None };
                    let found = resolve(path, doc.doc.as_ref());
                    let text = found.iter().map(|f| line(&at, f)).collect();
                    (text, found.len())
                }
                Err(f) => {
                    fail(f.message);
                    (String::new(), 0)
                }
            }
        })
        .collect();
    let mut out = String::new();
    for (text, n) in documents {
        out.push_str(&text);
        summary.matches += n;
    }
    crate::output::write_stdout(out.as_bytes()).ok();

    if !inputs.regions.is_empty() {
        let order: HashMap<&Path, usize> = inputs
            .regions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_path(), i))
            .collect();
        // (region, chunk index, text, matches) per chunk that matched.
        type Chunks = Vec<(usize, usize, String, usize)>;
        let report = Scan::files(inputs.regions.clone())
            .on_progress(|bytes| bar.inc(bytes))
            .run(
                Chunks::new,
                |acc, chunk, nbt| {
                    let found = path.resolve_all(nbt.as_compound());
                    if found.is_empty() {
                        return;
                    }
                    let at = Where {
                        file: chunk.region,
                        chunk: Some(chunk.info.pos),
                    };
                    let n = found.len();
                    let text = found
                        .into_iter()
                        .map(|(p, v)| line(&at, &(p, v.to_owned())))
                        .collect::<String>();
                    let region = order.get(chunk.region).copied().unwrap_or(usize::MAX);
                    let pos = chunk.info.pos;
                    let index = usize::from(pos.x) + 32 * usize::from(pos.z);
                    acc.push((region, index, text, n));
                },
                |mut a, mut b| {
                    a.append(&mut b);
                    a
                },
            );
        let mut chunks = report.value;
        chunks.sort_by_key(|c| (c.0, c.1));
        summary.chunks += report.chunks;
        for error in report.errors {
            if let simdnbt::region::scan::ScanErrorKind::Region(e) = &error.kind
                && super::is_header_entry_error(e)
            {
                summary.skipped.push(error.to_string());
            }
            fail(crate::check::scan_error_message(&error));
        }
        let mut out = String::new();
        for (_, _, text, n) in chunks {
            out.push_str(&text);
            summary.matches += n;
        }
        crate::output::write_stdout(out.as_bytes()).ok();
    }
    bar.finish_and_clear();
    summary.failed += failed.into_inner().unwrap_or_else(|e| e.into_inner());
    summary
}

/// Runs [`search`] and prints its summary (`searched …`) on stderr; the exit
/// status: 0 some match, 1 none, 2 something failed.
pub fn run(inputs: &Inputs, opts: &InputOpts, path: &NbtPath, line: &Line<'_>) -> u8 {
    let start = Instant::now();
    let summary = search(inputs, opts, path, line);
    eprintln!("{}", summary.line("searched", start, false, false));
    if summary.failed > 0 {
        crate::failure::TROUBLE
    } else if summary.matches == 0 {
        crate::failure::NO
    } else {
        0
    }
}
