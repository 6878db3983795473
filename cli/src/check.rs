//! `nbt check`: validate NBT files and every chunk of region files, in
//! parallel, and say where the first problem of each bad file is.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use simdnbt::Encoding;
use simdnbt::bedrock::DetectedForm;
use simdnbt::compression::Decompressed;
use simdnbt::region::Region;
use simdnbt::region::scan::{Scan, ScanError, ScanErrorKind};

use crate::failure::{NO, TROUBLE};
use crate::input::{InputFormat, bedrock_to_java, inflated_note};
use crate::locate::describe;
use crate::report::{count, progress_bar};
use crate::walk::Inputs;

/// The first problem of one NBT file, or `None` when it is valid; and the
/// NBT bytes it parsed.
fn check_nbt_file(path: &Path, form: Encoding) -> (Option<String>, u64) {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return (Some(format!("cannot read: {e}")), 0),
    };
    if crate::walk::is_snbt(path) {
        return check_snbt_bytes(&bytes);
    }
    check_nbt_bytes(&bytes, form)
}

/// [`check_nbt_file`] for an SNBT file: UTF-8 text holding one compound.
fn check_snbt_bytes(bytes: &[u8]) -> (Option<String>, u64) {
    let place = crate::input::Place::File(PathBuf::new());
    match crate::input::decode_text(&place, bytes, InputFormat::Snbt) {
        Ok(_) => (None, bytes.len() as u64),
        // The message starts with the (empty) place: keep what follows.
        Err(f) => (Some(f.message.trim_start_matches(": ").to_owned()), 0),
    }
}

/// [`check_nbt_file`] on the file's bytes, binary NBT in form `form`.
fn check_nbt_bytes(bytes: &[u8], form: Encoding) -> (Option<String>, u64) {
    let file = match Decompressed::from_bytes(bytes) {
        Ok(file) => file,
        Err(e) => return (Some(e.to_string()), 0),
    };
    let note = inflated_note(file.compression());
    let java;
    let bedrock = match form {
        Encoding::BigEndian => None,
        bedrock => Some(bedrock_to_java(file.as_bytes(), bedrock)),
    };
    let nbt = if let Some(read) = bedrock {
        match read {
            Ok((bytes, _)) => {
                java = bytes;
                &java[..]
            }
            Err(message) => return (Some(format!("{message}{note}")), 0),
        }
    } else {
        file.as_bytes()
    };
    // Bytes after the document are not an error (docs/format.md §3): the
    // reader stops at the end of the root, as Minecraft does.
    match simdnbt::borrow::read(&mut Cursor::new(nbt)) {
        Ok(_) => (None, nbt.len() as u64),
        Err(e) => {
            // A Bedrock file checked without its flag: say which flag reads it
            // (looked for only when the Java read failed).
            let hint = match (form, simdnbt::bedrock::detect(nbt)) {
                (Encoding::BigEndian, DetectedForm::LittleEndian | DetectedForm::LevelDat) => {
                    " (it reads as Bedrock little-endian NBT: check it with --le)"
                }
                (Encoding::BigEndian, DetectedForm::Network) => {
                    " (it reads as Bedrock network-form NBT: check it with --varint)"
                }
                _ => "",
            };
            (
                Some(format!("invalid NBT: {}{hint}", describe(&e, nbt, &note))),
                0,
            )
        }
    }
}

/// A scan error's message; a chunk that is not valid NBT is read again (only
/// broken chunks are) to name the path its error is in.
pub(crate) fn scan_error_message(error: &ScanError) -> String {
    if let ScanErrorKind::Nbt { info, error: e } = &error.kind {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        if let Ok(Some(bytes)) = Region::open_lenient(&error.path).and_then(|(r, _)| r.chunk(x, z))
        {
            return format!(
                "{}: chunk {}: invalid NBT: {}",
                error.path.display(),
                info.pos,
                describe(e, &bytes, "")
            );
        }
    }
    error.to_string()
}

/// Totals of one run.
#[derive(Default)]
struct Tally {
    files: usize,
    chunks: usize,
    file_bytes: u64,
    nbt_bytes: u64,
    /// First problem of each bad file, by file; with the count of further ones.
    bad: BTreeMap<PathBuf, (String, usize)>,
}

impl Tally {
    fn bad(&mut self, path: PathBuf, message: String) {
        self.bad
            .entry(path)
            .and_modify(|(_, more)| *more += 1)
            .or_insert((message, 0));
    }
}

/// Runs the check and prints the report; returns the exit status.
pub fn run(args: &[PathBuf], form: Encoding) -> u8 {
    let start = Instant::now();
    let inputs = Inputs::collect(args);
    for message in &inputs.unreadable {
        println!("{message}");
    }
    let sizes = |paths: &[PathBuf]| -> u64 {
        paths
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    };
    let nbt_file_bytes = sizes(&inputs.documents);
    let region_bytes = sizes(&inputs.regions);
    let bar = progress_bar(nbt_file_bytes + region_bytes);

    let tally = Mutex::new(Tally {
        files: inputs.documents.len() + inputs.regions.len(),
        file_bytes: nbt_file_bytes + region_bytes,
        ..Tally::default()
    });
    let lock = || tally.lock().unwrap_or_else(|e| e.into_inner());

    inputs.documents.par_iter().for_each(|path| {
        let (problem, parsed) = check_nbt_file(path, form);
        bar.inc(std::fs::metadata(path).map_or(0, |m| m.len()));
        let mut t = lock();
        t.nbt_bytes += parsed;
        if let Some(message) = problem {
            t.bad(path.clone(), message);
        }
    });

    if !inputs.regions.is_empty() {
        let report = Scan::files(inputs.regions.clone())
            .on_progress(|bytes| bar.inc(bytes))
            .run(|| (), |_, _, _| {}, |(), ()| ());
        let mut t = lock();
        t.chunks += report.chunks;
        t.nbt_bytes += report.inflated_bytes;
        for error in report.errors {
            let message = scan_error_message(&error);
            // The scan's message starts with the region's path; it is the key here.
            let prefix = format!("{}: ", error.path.display());
            let message = message.strip_prefix(&prefix).unwrap_or(&message).to_owned();
            t.bad(error.path, message);
        }
    }
    bar.finish_and_clear();

    let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    for (path, (message, more)) in &t.bad {
        let more = match more {
            0 => String::new(),
            n => format!(" (and {n} more problems in this file)"),
        };
        println!("{}: {message}{more}", path.display());
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let mb = |bytes: u64| bytes as f64 / 1e6;
    eprintln!(
        "checked {} ({}, {}; {}): {:.1} MB read, {:.1} MB of NBT parsed in {:.2} s ({:.0} files/s, {:.1} MB/s); {} invalid",
        count(t.files, "file"),
        count(inputs.regions.len(), "region file"),
        count(t.chunks, "chunk"),
        count(inputs.documents.len(), "NBT file"),
        mb(t.file_bytes),
        mb(t.nbt_bytes),
        seconds,
        t.files as f64 / seconds,
        mb(t.file_bytes) / seconds,
        t.bad.len(),
    );
    if !inputs.unreadable.is_empty() {
        TROUBLE
    } else if !t.bad.is_empty() {
        NO
    } else {
        0
    }
}
