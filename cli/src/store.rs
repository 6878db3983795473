//! Writing a changed document back in the form it was read in, safely:
//! encode, write to a temporary file beside the original (for a symlink: the
//! file it points to), read it back and compare, then rename over the original.
//!
//! Binary NBT and region chunks are written from the document's own bytes:
//! every subtree no edit touched is a copy (instruction counts:
//! `reports/cli.md`). SNBT and JSON are written from the owned tree their
//! printers take, and checked by reading them back the way they were read.

use std::path::{Path, PathBuf};

use simdnbt::Encoding;
use simdnbt::compression::{Compression, Decompressed};
use simdnbt::document::Document;
use simdnbt::owned::{BaseNbt, Nbt};
use simdnbt::region::{EncodedChunk, Region};

use crate::failure::{Failure, Result};
use crate::input::{self, ChunkPos, Place, StoredAs};

/// Stores an edited document as it was stored: written to a temporary file
/// beside the original, read back, checked and renamed over it (stdin: to
/// stdout, checked). The check: what is written decodes (inflated, its
/// level.dat header split off, taken out of the region) to exactly the bytes
/// the document wrote, which read as NBT in its encoding; text reads back as
/// the same document. Refused, leaving the file as it was, otherwise.
pub fn store(place: &Place, doc: &Document, form: &mut StoredAs, w: WriteOpts) -> Result<()> {
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    if matches!(form, StoredAs::Snbt | StoredAs::Json | StoredAs::TypedJson) {
        return store_text(place, &doc.to_owned_nbt(), form, w);
    }
    let raw = doc.to_bytes();
    let bytes = encode(&raw, form, w.level).map_err(|f| refuse(f.message))?;
    let form = &*form;
    let verify = |written: &[u8]| -> Result<()> {
        let back = decode(place, written, form)
            .map_err(|f| refuse(format!("the result would not read back: {}", f.message)))?;
        if back != raw || !reads(&back, form) {
            return Err(refuse(
                "the result would read back as a different document".into(),
            ));
        }
        Ok(())
    };
    write_checked(place, &bytes, &verify, w)
}

/// Writes `bytes` over `place` once `verify` accepts them (stdin: to stdout).
fn write_checked(
    place: &Place,
    bytes: &[u8],
    verify: &dyn Fn(&[u8]) -> Result<()>,
    w: WriteOpts,
) -> Result<()> {
    match place {
        Place::File(link) => replace_verified(link, bytes, verify, w),
        Place::Std => {
            verify(bytes)?;
            if w.dry_run {
                return Ok(());
            }
            crate::output::write_stdout(bytes)
        }
    }
}

/// Whether `bytes` (a document as [`decode`] gives it back) read as NBT in
/// the encoding `form` says.
fn reads(bytes: &[u8], form: &StoredAs) -> bool {
    match form {
        StoredAs::Binary {
            encoding: Encoding::LittleEndian,
            ..
        } => simdnbt::bedrock::to_big_endian(bytes).is_ok(),
        StoredAs::Binary {
            encoding: Encoding::Network,
            ..
        } => simdnbt::bedrock::from_network(bytes).is_ok(),
        _ => simdnbt::borrow::read(&mut std::io::Cursor::new(bytes)).is_ok(),
    }
}

/// The bytes of the document `raw` (in its own encoding) stored as `form`
/// (for a chunk: the whole region file), compressed at zlib/gzip `level`.
fn encode(raw: &[u8], form: &mut StoredAs, level: u32) -> Result<Vec<u8>> {
    match form {
        StoredAs::Binary {
            compression,
            header,
            ..
        } => {
            let body = input::with_header(raw.to_vec(), *header)?;
            Ok(match compression {
                Compression::Raw => body,
                c => simdnbt::compression::compress_with_level(&body, *c, level),
            })
        }
        StoredAs::Chunk {
            region,
            pos,
            compression,
        } => {
            let chunk = EncodedChunk::with_level(raw, *compression, level)
                .map_err(|e| Failure::new(format!("cannot store the chunk: {e}")))?;
            put_chunk(region, *pos, &chunk)?;
            Ok(region.as_bytes().to_vec())
        }
        StoredAs::Snbt | StoredAs::Json | StoredAs::TypedJson => {
            Err(Failure::new("text is written by `store_text`"))
        }
    }
}

/// The document bytes `written` holds, stored as `form`.
fn decode(place: &Place, written: &[u8], form: &StoredAs) -> Result<Vec<u8>> {
    match form {
        StoredAs::Binary { header, .. } => {
            let file = Decompressed::from_bytes(written)
                .map_err(|e| Failure::new(format!("{place}: {e}")))?;
            let Some(header) = header else {
                return Ok(file.into_bytes());
            };
            match simdnbt::bedrock::split_level_header(file.as_bytes()) {
                Some((back, body)) if back.version == header.version => Ok(body.to_vec()),
                _ => Err(Failure::new(format!(
                    "{place}: the level.dat header is not as it was"
                ))),
            }
        }
        StoredAs::Chunk { pos, .. } => {
            let (region, _): (Region, _) = input::open_region_lenient(place, written.to_vec())?;
            region
                .chunk(pos.x, pos.z)
                .map_err(|e| Failure::new(format!("{place}: {e}")))?
                .ok_or_else(|| Failure::new(format!("{place}: chunk {},{} is gone", pos.x, pos.z)))
        }
        StoredAs::Snbt | StoredAs::Json | StoredAs::TypedJson => {
            Err(Failure::new("text is read back by `store_text`"))
        }
    }
}

/// [`store`] for SNBT and JSON text: printed from the owned tree, and read
/// back as the same document (plain JSON, which has no NBT types and reads
/// back retyped: printing again gives the same text).
fn store_text(place: &Place, nbt: &Nbt, form: &StoredAs, w: WriteOpts) -> Result<()> {
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    // Text can hold what binary NBT cannot; a text file is held to the
    // binary limits so that every form of a world gets the same answer and
    // the file still converts to NBT.
    crate::output::uncompressed(nbt).map_err(|f| {
        refuse(format!(
            "the result could not be stored as binary NBT ({}), and text files are held to \
             the same limits",
            f.message
        ))
    })?;
    let bytes = text(nbt, form).map_err(|f| refuse(f.message))?;
    let format = match form {
        StoredAs::Snbt => input::InputFormat::Snbt,
        _ => input::InputFormat::Json,
    };
    let verify = |written: &[u8]| -> Result<()> {
        let (back, _) = input::decode_text(place, written, format)
            .map_err(|f| refuse(format!("the result would not read back: {}", f.message)))?;
        let back = Nbt::Some(back);
        let same = match form {
            StoredAs::Json => text(&back, form).is_ok_and(|again| again == written),
            _ => back == *nbt,
        };
        if !same {
            return Err(refuse(
                "the result would read back as a different document".into(),
            ));
        }
        Ok(())
    };
    write_checked(place, &bytes, &verify, w)
}

/// `nbt` as the text `form` names, pretty.
fn text(nbt: &Nbt, form: &StoredAs) -> Result<Vec<u8>> {
    use crate::output::{self, Layout};
    let root: &BaseNbt = output::document(nbt)?;
    match form {
        StoredAs::Snbt => Ok(output::snbt_text(root, Layout::Pretty)?.into_bytes()),
        StoredAs::Json => output::json_text(nbt, Layout::Pretty),
        _ => {
            let mut out = Vec::new();
            simdnbt::json::to_writer_pretty(&mut out, root)
                .map_err(|e| Failure::new(format!("cannot write as typed JSON: {e}")))?;
            out.push(b'\n');
            Ok(out)
        }
    }
}

/// Puts `chunk` into `region` at `pos`; refuses one that would need an
/// external `.mcc` file.
pub fn put_chunk(region: &mut Region, pos: ChunkPos, chunk: &EncodedChunk) -> Result<()> {
    region
        .write_encoded(pos.x, pos.z, chunk)
        .map_err(|e| Failure::new(format!("cannot store the chunk: {e}")))?;
    if region.info(pos.x, pos.z).is_some_and(|i| i.external) {
        return Err(Failure::new(
            "the changed chunk is over 1 MiB compressed and would need an external \
             .mcc file, which `nbt` does not write",
        ));
    }
    Ok(())
}

/// How a changed file is written.
#[derive(Clone, Copy, Debug)]
pub struct WriteOpts {
    /// Encode and check the result, and write nothing.
    pub dry_run: bool,
    /// Keep the original as `FILE.bak` beside the file (beside the target,
    /// for a symlink); refused when that name is taken.
    pub backup: bool,
    /// The zlib/gzip level (0..=9) of what is compressed again.
    pub level: u32,
    /// Wait for a lock another run holds instead of refusing.
    pub wait: bool,
}

impl WriteOpts {
    /// The lock on a file to edit, taken before it is read and held until
    /// it is replaced (none for a dry run).
    pub fn lock(&self, path: &Path) -> Result<Option<crate::lock::Held>> {
        match self.dry_run {
            true => Ok(None),
            false => crate::lock::file(path, self.wait).map(Some),
        }
    }
}

impl Default for WriteOpts {
    fn default() -> Self {
        WriteOpts {
            dry_run: false,
            backup: false,
            level: DEFAULT_LEVEL,
            wait: false,
        }
    }
}

/// Refuses a value binary NBT cannot hold (a string over 65535 bytes of
/// MUTF-8, nesting past 512), before any file is read: such a value is
/// refused for every form, `.snbt` and `.json` files included, so that one
/// run gives one answer for it and a text file stays convertible to NBT.
pub fn storable(value: &simdnbt::owned::NbtTag) -> Result<()> {
    let mut root = simdnbt::owned::NbtCompound::new();
    root.insert("", value.clone());
    let nbt = Nbt::Some(simdnbt::owned::BaseNbt::new("", root));
    crate::output::uncompressed(&nbt).map(drop).map_err(|f| {
        Failure::new(format!(
            "refusing to write the value: binary NBT cannot hold it ({}), so no file gets it, \
             text files (.snbt, .json) included; nothing was changed",
            f.message
        ))
    })
}

/// The level `set`, `rm` and `replace` compress at unless told otherwise.
pub const DEFAULT_LEVEL: u32 = simdnbt::region::DEFAULT_LEVEL;

/// Replaces the file at `link` with `bytes`: writes them to a temporary file
/// beside it, reads that back and lets `verify` judge what is on disk, keeps
/// the original as `FILE.bak` if asked, then renames the temporary file over
/// the original. Anything failing leaves the original as it was. A symlink is
/// edited through: the file it points to is replaced (the one the game
/// reads), and the link stays a link. With `dry_run`, `verify` judges `bytes`
/// and nothing is written.
pub fn replace_verified(
    link: &Path,
    bytes: &[u8],
    verify: &dyn Fn(&[u8]) -> Result<()>,
    opts: WriteOpts,
) -> Result<()> {
    if opts.dry_run {
        return verify(bytes);
    }
    let target = std::fs::canonicalize(link)
        .map_err(|e| Failure::new(format!("cannot resolve {}: {e}", link.display())))?;
    let path = &target;
    let temp = TempFile::beside(path, "tmp")?;
    temp.write(bytes)?;
    let on_disk = std::fs::read(&temp.path)
        .map_err(|e| Failure::new(format!("cannot read back {}: {e}", temp.path.display())))?;
    verify(&on_disk)?;
    if opts.backup {
        keep_backup(path)?;
    }
    injected_failure(path)?;
    temp.replace(path)
}

/// `FILE.bak` beside `path`, holding its current bytes, written through a
/// temporary file and a rename like the edit itself. An existing `FILE.bak`
/// is never overwritten (it may be the only copy of an older original).
fn keep_backup(path: &Path) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(".bak");
    let backup = path.with_file_name(name);
    if std::fs::symlink_metadata(&backup).is_ok() {
        return Err(Failure::new(format!(
            "refusing to write {}: its backup {} exists (move it away, or drop --backup); \
             it is unchanged",
            path.display(),
            backup.display()
        )));
    }
    let original = std::fs::read(path)
        .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    let temp = TempFile::beside(&backup, "bak.tmp")?;
    temp.write(&original)?;
    temp.replace(&backup)
}

/// The environment variable the tests use to make a write fail part way:
/// `error:NAME` makes replacing a file named NAME fail (reported, the other
/// files go on), `abort:NAME` ends the process at that point, as a kill or a
/// power cut would, with the temporary file written and not yet renamed. Not
/// for users; documented here only.
const FAIL_VAR: &str = "NBT_TEST_FAIL_BEFORE_RENAME";

fn injected_failure(path: &Path) -> Result<()> {
    let Some(rule) = std::env::var_os(FAIL_VAR) else {
        return Ok(());
    };
    let rule = rule.to_string_lossy();
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    match rule.split_once(':') {
        Some(("error", n)) if n == name => Err(Failure::new(format!(
            "cannot replace {}: failure injected by {FAIL_VAR}",
            path.display()
        ))),
        Some(("abort", n)) if n == name => std::process::abort(),
        _ => Ok(()),
    }
}

/// A temporary file next to the one it will replace (same folder, so the
/// rename is atomic); removed unless it replaced the target.
pub(crate) struct TempFile {
    path: PathBuf,
    /// Whether this process made the file (and so may remove it).
    created: std::cell::Cell<bool>,
    /// Whether it replaced the target (and so must not be removed).
    keep: std::cell::Cell<bool>,
}

impl TempFile {
    pub(crate) fn beside(target: &Path, suffix: &str) -> Result<Self> {
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map_or_else(|| "nbt".into(), |n| n.to_string_lossy().into_owned());
        let path = dir.join(format!(".{name}.nbt-{}.{suffix}", std::process::id()));
        Ok(Self {
            path,
            created: std::cell::Cell::new(false),
            keep: std::cell::Cell::new(false),
        })
    }

    /// Creates the file (it must not exist yet), to be written.
    pub(crate) fn create(&self) -> Result<std::fs::File> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.path)
            .map_err(|e| self.failure(e))?;
        self.created.set(true);
        Ok(file)
    }

    /// A failure to write the file.
    pub(crate) fn failure(&self, e: std::io::Error) -> Failure {
        Failure::new(format!("cannot write {}: {e}", self.path.display()))
    }

    fn write(&self, bytes: &[u8]) -> Result<()> {
        use std::io::Write;
        let mut file = self.create()?;
        file.write_all(bytes).map_err(|e| self.failure(e))?;
        file.sync_all().map_err(|e| self.failure(e))
    }

    pub(crate) fn replace(self, target: &Path) -> Result<()> {
        if let Ok(meta) = std::fs::metadata(target) {
            // Keep the file's permissions; failing to is not worth refusing over.
            let _ = std::fs::set_permissions(&self.path, meta.permissions());
        }
        std::fs::rename(&self.path, target).map_err(|e| {
            Failure::new(format!(
                "cannot replace {} with {}: {e}",
                target.display(),
                self.path.display()
            ))
        })?;
        self.keep.set(true);
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.created.get() && !self.keep.get() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
