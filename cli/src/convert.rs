//! `nbt convert`: a document in another form.

use clap::ValueEnum;
use simdnbt::compression::{self, Compression};
use simdnbt::owned::Nbt;

use crate::failure::{Failure, Result};
use crate::input::{Document, Form, LittleEndian};

/// The forms `convert --to` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Uncompressed binary NBT (big-endian, Java Edition).
    Nbt,
    /// Pretty SNBT text (`--compact` for one line).
    Snbt,
    /// Pretty JSON (`--compact` for one line); NBT types are not kept.
    Json,
    /// gzip-compressed NBT (player and level `.dat` files).
    Gzip,
    /// zlib-compressed NBT.
    Zlib,
    /// Uncompressed little-endian NBT (Bedrock Edition), with a level.dat
    /// header when the input had one (`--le` input).
    NbtLe,
}

impl OutputFormat {
    /// Whether the output is binary (not for a terminal).
    pub fn is_binary(self) -> bool {
        !matches!(self, OutputFormat::Snbt | OutputFormat::Json)
    }
}

/// The bytes of the document as `to`.
pub fn convert(doc: &Document, to: OutputFormat, compact: bool) -> Result<Vec<u8>> {
    let nbt = &doc.nbt;
    let binary = |compression: Compression| -> Result<Vec<u8>> {
        let mut raw = Vec::new();
        nbt.write(&mut raw)
            .map_err(|e| Failure::new(format!("cannot write as NBT: {e}")))?;
        Ok(match compression {
            Compression::Raw => raw,
            c => compression::compress(&raw, c),
        })
    };
    match to {
        OutputFormat::Nbt => binary(Compression::Raw),
        OutputFormat::Gzip => binary(Compression::Gzip),
        OutputFormat::Zlib => binary(Compression::Zlib),
        OutputFormat::NbtLe => {
            let framing = match doc.form {
                Form::Binary { le: Some(le), .. } => le,
                _ => LittleEndian { header: None },
            };
            crate::input::big_to_little(&binary(Compression::Raw)?, framing)
        }
        OutputFormat::Snbt => {
            let root = document(nbt)?;
            let text = if compact {
                simdnbt::snbt::to_string(root)
            } else {
                simdnbt::snbt::to_string_pretty(root)
            };
            let mut text = text.map_err(|e| Failure::new(format!("cannot write as SNBT: {e}")))?;
            text.push('\n');
            Ok(text.into_bytes())
        }
        OutputFormat::Json => {
            let root = document(nbt)?;
            let text = if compact {
                serde_json::to_vec(root)
            } else {
                serde_json::to_vec_pretty(root)
            };
            let mut text = text.map_err(|e| Failure::new(format!("cannot write as JSON: {e}")))?;
            text.push(b'\n');
            Ok(text)
        }
    }
}

/// The document of a file, refusing an End root for the text forms (they have
/// no way to say "no document").
fn document(nbt: &Nbt) -> Result<&simdnbt::owned::BaseNbt> {
    match nbt {
        Nbt::Some(base) => Ok(base),
        Nbt::None => Err(Failure::new(
            "the input holds no document (a single End byte), which SNBT and JSON cannot express",
        )),
    }
}
