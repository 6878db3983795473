//! `nbt get`, `nbt set`, `nbt rm`, `nbt replace`, and `nbt show FILE PATH`:
//! NBT paths (`simdnbt::path`) against a document: every input is read into
//! a `simdnbt::document::Document` (`input::open`), and each edit is one
//! closure over it.

use simdnbt::document::{DocValue, Document};
use simdnbt::owned::NbtTag;
use simdnbt::path::{NbtPath, PathError, PathErrorKind};

use crate::failure::{Failure, Result};
use crate::input::{self, InputOpts, Opened, Place};
use crate::many::edit::Change;
use crate::many::search::Found;
use crate::many::{self, Where};
use crate::output::Layout;
use crate::report::count;
use crate::store::WriteOpts;

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

/// Every value `path` selects in `doc` (none in a document that is a single
/// End byte), as tags.
pub fn select(path: &NbtPath, doc: Option<&Document>) -> Vec<NbtTag> {
    let Some(doc) = doc else {
        return Vec::new();
    };
    path.get_all(doc).iter().map(DocValue::to_owned).collect()
}

/// `nbt get`: the values, one per line; over many documents (a folder, or a
/// region file without `--chunk`), each line starts with where the value is,
/// `FILE[ chunk (X, Z)]<TAB>` (a file or chunk that cannot be read is named on
/// stderr and skipped, and the exit status is 2). Exit status 1 when nothing
/// matches.
pub fn get(place: &Place, opts: &InputOpts, path: &str, style: ValueStyle) -> Result<u8> {
    let path = parse_path(path)?;
    if let (true, Place::File(file)) = (many::is_many(place, opts), place) {
        let line = |at: &Where<'_>, (_, value): &Found| match format_value(value, style) {
            Ok(text) => format!("{at}\t{text}\n"),
            Err(f) => format!("{at}\t<{}>\n", f.message),
        };
        let inputs = many::inputs(file, opts);
        return Ok(many::search::run(&inputs, opts, &path, &line));
    }
    let mut out = String::new();
    let mut found = 0usize;
    match input::open(place, opts)? {
        Opened::Document(doc) => {
            for tag in select(&path, doc.doc.as_ref()) {
                out.push_str(&format_value(&tag, style)?);
                out.push('\n');
                found += 1;
            }
        }
        // A region without --chunk is many documents, handled above.
        Opened::Region(_) => unreachable_region(place)?,
    }
    crate::output::write_stdout(out.as_bytes())?;
    if found == 0 {
        return Err(Failure::no(format!("{place}: nothing matches `{path}`")));
    }
    Ok(0)
}

fn unreachable_region(place: &Place) -> Result<()> {
    Err(Failure::new(format!(
        "{place} is a region file: say which chunk with --chunk X,Z"
    )))
}

/// The edit `nbt set` makes: every place `path` selects gets `value`. A
/// place that already holds `value` is matched and not changed. A path that
/// selects no place is an error when `strict` (one document); otherwise (one
/// of many documents) a document where the path selects no value is not
/// changed at all.
pub fn set_edit(
    path: &NbtPath,
    value: &NbtTag,
    doc: &mut Document,
    strict: bool,
) -> std::result::Result<Change, String> {
    let before = path.get_all(&*doc);
    if before.is_empty() && !strict {
        // Over many documents, a document without the value is left alone
        // (not given a new key): `set world/ DataVersion 1` edits only the
        // documents that have one.
        return Ok(Change::default());
    }
    let same = before
        .iter()
        .filter(|v| DocValue::to_owned(v) == *value)
        .count();
    match path.set(doc, value.clone()) {
        // `set` may also create a missing last key: such a place is changed.
        Ok(n) => Ok(Change {
            matched: n,
            changed: n.saturating_sub(same),
            ..Change::default()
        }),
        Err(e) if !strict && *e.kind() == PathErrorKind::NothingSelected => Ok(Change::default()),
        Err(e) => Err(edit_error("set", &e)),
    }
}

/// What is said of an edit `path` could not make (`verb`: `set`, `replace`).
fn edit_error(verb: &str, e: &PathError) -> String {
    match e.kind() {
        // The document is unchanged: nothing is written.
        PathErrorKind::Refused { at, error } => format!(
            "refusing to write the result, which could not be stored as binary NBT \
             ({at}: {error})"
        ),
        _ => format!("cannot {verb} {e}"),
    }
}

/// The edit `nbt rm` makes: every value `path` selects is removed.
pub fn rm_edit(path: &NbtPath, doc: &mut Document) -> std::result::Result<Change, String> {
    let n = path.remove(doc);
    Ok(Change {
        matched: n,
        changed: n,
        ..Change::default()
    })
}

/// The edit `nbt replace` makes: in every string `path` selects, `from`
/// replaced by `to` (every occurrence; with `regex`, `from` is a regular
/// expression and `to` may name its groups: [`crate::template`]); how many
/// strings changed. `show`: describe each change (`PATH: OLD -> NEW`), for
/// `--dry-run`.
pub fn replace_edit(
    path: &NbtPath,
    pattern: &Pattern,
    show: bool,
    doc: &mut Document,
) -> std::result::Result<Change, String> {
    let mut edits = Vec::new();
    let mut matched = 0;
    let mut shown = Vec::new();
    let found = path.resolve_all(&*doc);
    for (at, value) in found {
        let text = match value {
            DocValue::String(s) => s,
            DocValue::Tag(tag) => match tag.string() {
                Some(s) => s,
                None => continue,
            },
            _ => continue,
        };
        matched += 1;
        // A string that is not Unicode text (a lone surrogate, bytes that
        // are not MUTF-8) reads as text only with U+FFFD in those places:
        // writing that back would change more than the match, silently.
        let (old, exact) = match text.try_to_str() {
            Ok(old) => (old, true),
            Err(_) => (text.to_str(), false),
        };
        let new = pattern.replace_all(&old);
        if new != *old {
            if !exact {
                return Err(format!(
                    "refusing to replace in {at}: the string is not Unicode text (it holds \
                     a lone surrogate or bytes that are not MUTF-8), and the text replaced \
                     would have U+FFFD in their place; nothing was written"
                ));
            }
            if show {
                let quoted = |t: &str| {
                    simdnbt::snbt::to_string(&NbtTag::String(t.into()))
                        .unwrap_or_else(|_| format!("{t:?}"))
                };
                shown.push(format!("{at}: {} -> {}", quoted(&old), quoted(&new)));
            }
            edits.push((at, new));
        }
    }
    // Each path is concrete, and a string set in place of a string moves
    // no other value: every path still names its string.
    for (at, new) in &edits {
        at.set(doc, NbtTag::String(new.as_str().into()))
            .map_err(|e| edit_error("replace", &e))?;
    }
    Ok(Change {
        matched,
        changed: edits.len(),
        shown,
    })
}

/// What `nbt replace` looks for, and what it puts in its place.
pub enum Pattern {
    /// A literal substring (not empty), and its replacement.
    Literal(String, String),
    /// A regular expression (the `regex` crate's syntax), and the
    /// replacement with its group references parsed.
    Regex(regex::Regex, crate::template::Template),
}

impl Pattern {
    /// `from` as given, or compiled as a regular expression; `to` checked
    /// against its groups, so that a wrong reference is refused before
    /// anything is read or written.
    pub fn new(from: &str, to: &str, regex: bool) -> Result<Self> {
        if regex {
            let re = regex::Regex::new(from)
                .map_err(|e| Failure::new(format!("invalid regular expression `{from}`: {e}")))?;
            let template = crate::template::Template::parse(to, &re)
                .map_err(|m| Failure::new(format!("invalid replacement `{to}`: {m}")))?;
            Ok(Pattern::Regex(re, template))
        } else if from.is_empty() {
            Err(Failure::new("FROM is empty: say which text to replace"))
        } else {
            Ok(Pattern::Literal(from.to_owned(), to.to_owned()))
        }
    }

    /// `text` with every occurrence replaced.
    pub fn replace_all(&self, text: &str) -> String {
        match self {
            Pattern::Literal(from, to) => text.replace(from.as_str(), to),
            Pattern::Regex(re, template) => template.replace_all(re, text),
        }
    }
}

/// An edit of one document, for one file or many.
pub use crate::many::edit::Edit;

/// Runs `edit` on `place`: one document (a file, a chunk named by
/// `--chunk`, or stdin with the result on stdout), or many (a folder, or a
/// region file without `--chunk`). For one document, nothing matching is
/// exit status 1 and the file untouched; `verb` names what was done.
pub fn edit(
    place: &Place,
    opts: &InputOpts,
    path: &NbtPath,
    edit: Edit<'_>,
    verb: &str,
    w: WriteOpts,
) -> Result<u8> {
    if let (true, Place::File(file)) = (many::is_many(place, opts), place) {
        let inputs = many::inputs(file, opts);
        return Ok(many::edit::run(&inputs, opts, edit, verb, w));
    }
    let _lock = match place {
        Place::File(path) => w.lock(path)?,
        Place::Std => None,
    };
    let mut stored = input::open_document(place, opts)?;
    let Some(doc) = stored.doc.as_mut() else {
        return Err(Failure::new(format!(
            "{place} holds no document (a single End byte): nothing to edit"
        )));
    };
    let change = edit(doc).map_err(|m| Failure::new(format!("{place}: {m}")))?;
    if let Some(code) = unchanged(place, path, &change)? {
        return Ok(code);
    }
    crate::store::store(place, doc, &mut stored.form, w)?;
    Ok(done(place, verb, change, w))
}

/// After an edit of one document: the exit status when there is nothing to
/// write (nothing matched: an error, status 1; everything already so: 0).
fn unchanged(place: &Place, path: &NbtPath, change: &Change) -> Result<Option<u8>> {
    if change.matched == 0 {
        return Err(Failure::no(format!(
            "{place}: nothing matches `{path}`; the file is unchanged"
        )));
    }
    if change.changed == 0 {
        eprintln!(
            "{place}: {} already so; the file is unchanged",
            count(change.matched, "value")
        );
        return Ok(Some(0));
    }
    Ok(None)
}

/// After an edit of one document was stored: says what was done; status 0.
fn done(place: &Place, verb: &str, change: Change, w: WriteOpts) -> u8 {
    for line in &change.shown {
        eprintln!("{place}: {line}");
    }
    let would = if w.dry_run { "would have " } else { "" };
    eprintln!("{place}: {would}{verb} {}", count(change.changed, "value"));
    0
}

/// `nbt rm FILE.mca --chunk X,Z` with no path: removes the chunk from the
/// region (its sectors become free; the rest of the file is unchanged).
pub fn rm_chunk(place: &Place, opts: &InputOpts, w: WriteOpts) -> Result<u8> {
    let Some(pos) = opts.chunk else {
        return Err(Failure::new(
            "say what to remove: an NBT path, or --chunk X,Z for a whole chunk of a region file",
        ));
    };
    let Place::File(file) = place else {
        return Err(Failure::new("a chunk of stdin cannot be removed in place"));
    };
    if opts.format(place) != input::InputFormat::Region {
        return Err(Failure::new(format!(
            "{place}: --chunk is for region files (.mca)"
        )));
    }
    input::check_in_region(place, pos)?;
    let _lock = w.lock(file)?;
    // The chunk is not read: a chunk that does not decode can be removed too.
    // A chunk with a bad header entry can be removed too (its entry goes).
    let (mut region, bad) = input::open_region_lenient(place, place.read_all()?)?;
    let local = (pos.x.rem_euclid(32), pos.z.rem_euclid(32));
    let was_bad = bad
        .iter()
        .filter_map(|e| e.pos())
        .any(|p| (i32::from(p.x), i32::from(p.z)) == local);
    let before = region.clone();
    if !region.remove_chunk(pos.x, pos.z) {
        return Err(Failure::no(format!(
            "{place}: chunk {},{} is not in the region; the file is unchanged",
            pos.x, pos.z
        )));
    }
    let verify = |written: &[u8]| -> Result<()> {
        let (back, _) = input::open_region_lenient(place, written.to_vec())?;
        let kept = before
            .chunks()
            .filter(|i| (i32::from(i.pos.x), i32::from(i.pos.z)) != local)
            .all(|i| back.info(i.pos.x.into(), i.pos.z.into()) == Some(i));
        let gone = back.info(local.0, local.1).is_none();
        let removed = usize::from(!was_bad);
        if kept && gone && back.chunks().count() + removed == before.chunks().count() {
            Ok(())
        } else {
            Err(Failure::new(format!(
                "refusing to write {place}: the result would not hold the other chunks as they were"
            )))
        }
    };
    crate::store::replace_verified(file, region.as_bytes(), &verify, w)?;
    let would = if w.dry_run { "would have " } else { "" };
    eprintln!("{place}: {would}removed chunk {},{}", pos.x, pos.z);
    Ok(0)
}

/// `nbt show FILE PATH`: each selected value as pretty SNBT.
pub fn show(doc: Option<&Document>, path: &str, layout: Layout) -> Result<String> {
    let path = parse_path(path)?;
    let found = select(&path, doc);
    if found.is_empty() {
        return Err(Failure::no(format!("nothing matches `{path}`")));
    }
    let mut out = String::new();
    for tag in &found {
        out.push_str(&crate::output::snbt_text(tag, layout)?);
    }
    Ok(out)
}

/// How `find` prints what it finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindStyle {
    /// `FILE[ chunk (X, Z)] PATH = VALUE`, one line per match.
    Lines,
    /// One JSON object per match: `file`, `chunk` (`[x, z]` or `null`), `path`, `value`.
    Json,
    /// Only the number of matches.
    Count,
}

/// One match as `find` prints it (with its line break).
fn find_line(at: &Where<'_>, (path, value): &Found, style: FindStyle) -> String {
    match style {
        FindStyle::Count => String::new(),
        FindStyle::Lines => match format_value(value, ValueStyle::Snbt) {
            Ok(text) => format!("{at} {path} = {text}\n"),
            Err(f) => format!("{at} {path} = <{}>\n", f.message),
        },
        FindStyle::Json => {
            // Built by hand to keep the keys in this order (serde_json's map sorts them).
            let text = |r: serde_json::Result<String>| r.unwrap_or_else(|_| "null".into());
            format!(
                "{{\"file\":{},\"chunk\":{},\"path\":{},\"value\":{}}}\n",
                text(serde_json::to_string(&at.file.to_string_lossy())),
                text(serde_json::to_string(&at.chunk.map(|p| [p.x, p.z]))),
                text(serde_json::to_string(&path.to_string())),
                text(serde_json::to_string(value)),
            )
        }
    }
}

/// `nbt find`: every value `path` selects in a file, a folder (every file
/// below it) or a region file (every chunk, or the one `--chunk` names),
/// printed with where it is; a summary on stderr.
pub fn find(place: &Place, opts: &InputOpts, path: &str, style: FindStyle) -> Result<u8> {
    let path = parse_path(path)?;
    let line = |at: &Where<'_>, found: &Found| find_line(at, found, style);
    let (code, matches) = match place {
        Place::File(file) if opts.chunk.is_none() => {
            let inputs = many::inputs(file, opts);
            let start = std::time::Instant::now();
            let summary = many::search::search(&inputs, opts, &path, &line);
            eprintln!("{}", summary.line("searched", start, false, false));
            let code = match (summary.failed, summary.matches) {
                (1.., _) => crate::failure::TROUBLE,
                (0, 0) => crate::failure::NO,
                _ => 0,
            };
            (code, summary.matches)
        }
        _ => {
            let doc = input::open_document(place, opts)?;
            let name = place.to_string();
            let at = Where {
                file: std::path::Path::new(&name),
                chunk: opts.chunk.map(|p| simdnbt::region::LocalPos {
                    x: p.x.rem_euclid(32) as u8,
                    z: p.z.rem_euclid(32) as u8,
                }),
            };
            let found = many::search::resolve(&path, doc.doc.as_ref());
            let mut out = String::new();
            for found in &found {
                out.push_str(&line(&at, found));
            }
            crate::output::write_stdout(out.as_bytes())?;
            let code = if found.is_empty() {
                crate::failure::NO
            } else {
                0
            };
            (code, found.len())
        }
    };
    if style == FindStyle::Count {
        crate::output::write_stdout(format!("{matches}\n").as_bytes())?;
    }
    Ok(code)
}
