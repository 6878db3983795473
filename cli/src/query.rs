//! `nbt get`, `nbt set`, `nbt rm`, and `nbt show FILE PATH`: NBT paths
//! (`simdnbt::path`) against a document.

use simdnbt::owned::{Nbt, NbtCompound, NbtTag};
use simdnbt::path::NbtPath;

use crate::failure::{Failure, Result};
use crate::input::{self, Document, InputOpts, Opened, Place};
use crate::output::Layout;

/// How `get` prints each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueStyle {
    /// Compact SNBT.
    Snbt,
    /// Strings without quotes or escapes; everything else as SNBT.
    Raw,
    /// JSON (the serde form of the tree).
    Json,
}

/// Parses a path argument, saying where it is wrong.
pub fn parse_path(text: &str) -> Result<NbtPath> {
    NbtPath::parse(text).map_err(|e| Failure::new(format!("invalid path `{text}`: {e}")))
}

/// One value as a line of `get` output (no line break).
pub fn format_value(tag: &NbtTag, style: ValueStyle) -> Result<String> {
    match (style, tag) {
        (ValueStyle::Raw, NbtTag::String(s)) => Ok(s.to_str().into_owned()),
        (ValueStyle::Json, tag) => serde_json::to_string(tag)
            .map_err(|e| Failure::new(format!("cannot write as JSON: {e}"))),
        (_, tag) => simdnbt::snbt::to_string(tag)
            .map_err(|e| Failure::new(format!("cannot print as SNBT: {e}"))),
    }
}

/// Every value `path` selects in `root`, as tags.
pub fn select(path: &NbtPath, root: &NbtCompound) -> Vec<NbtTag> {
    path.get_all(root)
        .into_iter()
        .map(|v| v.to_tag().into_owned())
        .collect()
}

/// `nbt get`: the values, one per line; for a region file without `--chunk`,
/// every chunk's, each line starting `X,Z<TAB>` (a chunk that cannot be read
/// is named on stderr and skipped, and the exit status is 2). Exit status 1
/// when nothing matches.
pub fn get(place: &Place, opts: &InputOpts, path: &str, style: ValueStyle) -> Result<u8> {
    let path = parse_path(path)?;
    let mut out = String::new();
    let mut found = 0usize;
    let mut unreadable = 0usize;
    match input::open(place, opts)? {
        Opened::Document(doc) => {
            for tag in select(&path, &doc.nbt) {
                out.push_str(&format_value(&tag, style)?);
                out.push('\n');
                found += 1;
            }
        }
        Opened::Region(region) => {
            for info in region.chunks() {
                let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
                // A chunk that cannot be read is reported and skipped, so the
                // others still answer; the exit status says some failed.
                let nbt = match region.chunk(x, z) {
                    Ok(bytes) => input::parse_nbt(&bytes.unwrap_or_default())
                        .map_err(|e| format!("{place}: chunk {x},{z}: invalid NBT: {e}")),
                    Err(e) => Err(format!("{place}: {e}")),
                };
                let nbt = match nbt {
                    Ok(nbt) => nbt,
                    Err(message) => {
                        eprintln!("nbt: {message}; skipped");
                        unreadable += 1;
                        continue;
                    }
                };
                for tag in select(&path, &nbt) {
                    out.push_str(&format!("{x},{z}\t{}\n", format_value(&tag, style)?));
                    found += 1;
                }
            }
        }
    }
    crate::output::write_stdout(out.as_bytes())?;
    if unreadable > 0 {
        return Err(Failure::new(format!(
            "{place}: {unreadable} {} could not be read",
            if unreadable == 1 { "chunk" } else { "chunks" }
        )));
    }
    if found == 0 {
        return Err(Failure::no(format!("{place}: nothing matches `{path}`")));
    }
    Ok(0)
}

fn root_mut<'d>(place: &Place, doc: &'d mut Document) -> Result<&'d mut NbtCompound> {
    match &mut doc.nbt {
        Nbt::Some(base) => Ok(base),
        Nbt::None => Err(Failure::new(format!(
            "{place} holds no document (a single End byte): nothing to edit"
        ))),
    }
}

fn values(n: usize) -> &'static str {
    if n == 1 { "value" } else { "values" }
}

/// `nbt set`: every place `path` selects gets `value` (SNBT); the file is
/// rewritten in its own form (or the result goes to stdout for `-`).
pub fn set(place: &Place, opts: &InputOpts, path: &str, value: &str) -> Result<u8> {
    let path = parse_path(path)?;
    let value = simdnbt::snbt::from_str(value)
        .map_err(|e| Failure::new(format!("invalid SNBT value `{value}`: {e}")))?;
    let mut doc = input::open_document(place, opts)?;
    let n = path
        .set(root_mut(place, &mut doc)?, value)
        .map_err(|e| Failure::new(format!("{place}: cannot set {e}")))?;
    crate::store::store(place, &mut doc)?;
    eprintln!("{place}: set {n} {}", values(n));
    Ok(0)
}

/// `nbt rm`: removes every value `path` selects; exit status 1 (and the file
/// untouched) when nothing matches.
pub fn rm(place: &Place, opts: &InputOpts, path: &str) -> Result<u8> {
    let path = parse_path(path)?;
    let mut doc = input::open_document(place, opts)?;
    let n = path.remove(root_mut(place, &mut doc)?);
    if n == 0 {
        return Err(Failure::no(format!(
            "{place}: nothing matches `{path}`; the file is unchanged"
        )));
    }
    crate::store::store(place, &mut doc)?;
    eprintln!("{place}: removed {n} {}", values(n));
    Ok(0)
}

/// `nbt show FILE PATH`: each selected value as pretty SNBT.
pub fn show(doc: &Document, path: &str, layout: Layout) -> Result<String> {
    let path = parse_path(path)?;
    let found = select(&path, &doc.nbt);
    if found.is_empty() {
        return Err(Failure::no(format!("nothing matches `{path}`")));
    }
    let mut out = String::new();
    for tag in &found {
        out.push_str(&crate::output::snbt_text(tag, layout)?);
    }
    Ok(out)
}
