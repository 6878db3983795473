//! Output: the forms a document is written in, and writing to stdout or a file.

use std::io::{IsTerminal, Write};

use simdnbt::compression::{self, Compression};
use simdnbt::document::{Document, Framing};
use simdnbt::owned::{BaseNbt, Nbt};
use simdnbt::snbt::ToSnbt;

use crate::failure::{Failure, Result};
use simdnbt::Encoding;
use simdnbt::bedrock::LevelHeader;

use crate::input::Place;

/// Writes `bytes` to stdout. A closed pipe (`nbt show x | head`) is not an error.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::new(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes `bytes` to `place` (`-`: stdout). Binary output is not sent to a terminal.
pub fn write_to(place: &Place, bytes: &[u8], binary: bool) -> Result<()> {
    match place {
        Place::Std => {
            if binary && std::io::stdout().is_terminal() {
                return Err(Failure::new(
                    "not writing binary NBT to a terminal: give -o FILE, or redirect stdout",
                ));
            }
            write_stdout(bytes)
        }
        Place::File(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display()))),
    }
}

/// How text output is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Line breaks and indentation.
    Pretty,
    /// Pretty, with ANSI colours (SNBT only).
    Colored,
    /// One line.
    Compact,
}

/// SNBT of a document or tag, with a final line break.
pub fn snbt_text<T: ToSnbt + ?Sized>(value: &T, layout: Layout) -> Result<String> {
    let text = match layout {
        Layout::Pretty => simdnbt::snbt::to_string_pretty(value),
        Layout::Colored => simdnbt::snbt::to_string_pretty_colored(value),
        Layout::Compact => simdnbt::snbt::to_string(value),
    };
    let mut text = text.map_err(|e| Failure::new(format!("cannot write as SNBT: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// SNBT of a whole document, with a final line break; a single End byte
/// prints as the empty compound.
pub fn document_snbt(doc: Option<&Document>, layout: Layout) -> Result<String> {
    match doc {
        Some(doc) => snbt_text(doc, layout),
        None => snbt_text(&simdnbt::owned::NbtCompound::new(), layout),
    }
}

/// JSON (the serde form of the owned tree) of a document, with a final line break.
pub fn json_text(nbt: &Nbt, layout: Layout) -> Result<Vec<u8>> {
    let root = document(nbt)?;
    let text = match layout {
        Layout::Compact => serde_json::to_vec(root),
        _ => serde_json::to_vec_pretty(root),
    };
    let mut text = text.map_err(|e| Failure::new(format!("cannot write as JSON: {e}")))?;
    text.push(b'\n');
    Ok(text)
}

/// The document of a file, refusing an End root where the output form (SNBT,
/// JSON) has no way to say "no document".
pub fn document(nbt: &Nbt) -> Result<&BaseNbt> {
    match nbt {
        Nbt::Some(base) => Ok(base),
        Nbt::None => Err(Failure::new(
            "the input holds no document (a single End byte), which SNBT and JSON cannot express",
        )),
    }
}

/// The owned tree of a document, for the printers that take one (SNBT and
/// JSON; [`document`] refuses a single End byte for them).
pub fn owned(doc: Option<&Document>) -> Nbt {
    doc.map_or(Nbt::None, Document::to_owned_nbt)
}

/// Binary NBT in `encoding` (after a Bedrock level.dat `header` when there
/// is one), compressed as `compression` at zlib/gzip `level` (0..=9): the
/// document's bytes, re-encoded by the library when `encoding` is not its
/// own (a single End byte is that byte in every encoding).
pub fn binary(
    doc: Option<&Document>,
    compression: Compression,
    (encoding, header): (Encoding, Option<LevelHeader>),
    level: u32,
) -> Result<Vec<u8>> {
    let mut body = Vec::new();
    match doc {
        Some(doc) => doc.write_in(Framing::Named, encoding, &mut body),
        None => body.push(simdnbt::tag_id::END),
    }
    let raw = crate::input::with_header(body, header)?;
    Ok(match compression {
        Compression::Raw => raw,
        c => compression::compress_with_level(&raw, c, level),
    })
}

/// Uncompressed big-endian NBT.
pub fn uncompressed(nbt: &Nbt) -> Result<Vec<u8>> {
    let mut raw = Vec::new();
    nbt.write(&mut raw)
        .map_err(|e| Failure::new(format!("cannot write as NBT: {e}")))?;
    Ok(raw)
}
