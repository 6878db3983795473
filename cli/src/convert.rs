//! `nbt convert`: a document in another form.

use clap::ValueEnum;
use simdnbt::compression::Compression;

use crate::failure::Result;
use crate::input::{Document, Form, LittleEndian};
use crate::output::{self, Layout};

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
    let layout = if compact {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    match to {
        OutputFormat::Nbt => output::binary(nbt, Compression::Raw, None),
        OutputFormat::Gzip => output::binary(nbt, Compression::Gzip, None),
        OutputFormat::Zlib => output::binary(nbt, Compression::Zlib, None),
        OutputFormat::NbtLe => {
            let framing = match doc.form {
                Form::Binary { le: Some(le), .. } => le,
                _ => LittleEndian { header: None },
            };
            output::binary(nbt, Compression::Raw, Some(framing))
        }
        OutputFormat::Snbt => Ok(output::snbt_text(output::document(nbt)?, layout)?.into_bytes()),
        OutputFormat::Json => output::json_text(nbt, layout),
    }
}
