//! `nbt convert`: a document in another form.
//!
//! The root's name travels with binary forms only: SNBT and JSON hold the root
//! compound. Converting to them drops a non-empty name with a notice on stderr
//! naming it (never silently); `--root-name` puts it back on the way to binary.

use clap::ValueEnum;
use simdnbt::compression::Compression;

use simdnbt::Encoding;
use simdnbt::document::Document;

use crate::failure::{Failure, Result};
use crate::input::{Stored, StoredAs};
use crate::output::{self, Layout};
use crate::store::DEFAULT_LEVEL;

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
    /// Bedrock's network form (VarInt lengths and integers, as in packets).
    NbtVarint,
}

impl OutputFormat {
    /// Whether the output is binary (not for a terminal).
    pub fn is_binary(self) -> bool {
        !matches!(self, OutputFormat::Snbt | OutputFormat::Json)
    }
}

/// `--root-name`: names the root of binary output `name`. SNBT and JSON have
/// no root name to set, so asking for one there is an error, not ignored.
pub fn name_root(doc: &mut Stored, to: OutputFormat, name: Option<String>) -> Result<()> {
    let Some(name) = name else {
        return Ok(());
    };
    if !to.is_binary() {
        return Err(Failure::new(
            "--root-name is for binary output (nbt, gzip, zlib, nbt-le, nbt-varint): SNBT and JSON hold \
             the root compound only, without a name",
        ));
    }
    if let Some(doc) = &mut doc.doc {
        doc.set_name(&name)
            .map_err(|e| Failure::new(format!("cannot name the root {name:?}: {e}")))?;
    }
    Ok(())
}

/// The notice for converting a document with a non-empty root name to a form
/// that cannot hold it (SNBT, JSON), saying how to get it back.
pub fn dropped_name_notice(doc: &Stored, to: OutputFormat) -> Option<String> {
    let name = doc.doc.as_ref()?.name().to_str();
    if to.is_binary() || name.is_empty() {
        return None;
    }
    let form = if to == OutputFormat::Json {
        "JSON"
    } else {
        "SNBT"
    };
    Some(format!(
        "the root's name {name:?} is not kept ({form} holds the root compound only); \
         to restore it, convert back with --root-name {}",
        shell_word(&name)
    ))
}

/// `text` as one shell word: as it is when it is plain, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.:/".contains(&b));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Java Edition's binary NBT: big-endian, no header.
const JAVA: (Encoding, Option<simdnbt::bedrock::LevelHeader>) = (Encoding::BigEndian, None);

/// The bytes of the document as `to`.
pub fn convert(stored: &Stored, to: OutputFormat, compact: bool) -> Result<Vec<u8>> {
    let doc = stored.doc.as_ref();
    let layout = if compact {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    match to {
        OutputFormat::Nbt => output::binary(doc, Compression::Raw, JAVA, DEFAULT_LEVEL),
        OutputFormat::Gzip => output::binary(doc, Compression::Gzip, JAVA, DEFAULT_LEVEL),
        OutputFormat::Zlib => output::binary(doc, Compression::Zlib, JAVA, DEFAULT_LEVEL),
        OutputFormat::NbtLe => {
            // The level.dat header is kept when the input had one.
            let header = match stored.form {
                StoredAs::Binary {
                    encoding: Encoding::LittleEndian,
                    header,
                    ..
                } => header,
                _ => None,
            };
            let le = (Encoding::LittleEndian, header);
            output::binary(doc, Compression::Raw, le, DEFAULT_LEVEL)
        }
        OutputFormat::NbtVarint => {
            let network = (Encoding::Network, None);
            output::binary(doc, Compression::Raw, network, DEFAULT_LEVEL)
        }
        // The text printers take the owned tree.
        OutputFormat::Snbt => {
            let nbt = output::owned(doc);
            Ok(output::snbt_text(output::document(&nbt)?, layout)?.into_bytes())
        }
        OutputFormat::Json => output::json_text(&output::owned(doc), layout),
    }
}

/// The extension of a file holding one document as `to`.
fn file_extension(to: OutputFormat) -> &'static str {
    match to {
        OutputFormat::Snbt => "snbt",
        OutputFormat::Json => "json",
        _ => "nbt",
    }
}

/// `nbt convert FILE.mca`: every chunk, in header order. Text goes to stdout
/// (`-o -`), each chunk under a line `# FILE chunk (X, Z)`; with `-o DIR`
/// (made if missing), each chunk is a file `DIR/chunk.X.Z.EXT` (local
/// coordinates, as `--chunk` and `show` give them). A chunk that cannot be
/// read is named on stderr and skipped; the exit status is then 2.
pub fn region(
    place: &crate::input::Place,
    to: OutputFormat,
    compact: bool,
    typed: bool,
    output: &crate::input::Place,
) -> Result<u8> {
    use crate::input::Place;
    let region = crate::input::open_region(place, place.read_all()?)?;
    if let Place::File(dir) = output {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::new(format!("cannot make folder {}: {e}", dir.display())))?;
    } else if to.is_binary() {
        return Err(Failure::new(
            "a region file holds many chunks: give -o DIR for binary output (one file per chunk)",
        ));
    }
    let mut failed = 0usize;
    let mut out = Vec::new();
    for info in region.chunks() {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        let at = format!("{place} chunk {}", info.pos);
        let doc = match region.chunk(x, z) {
            Ok(bytes) => Document::from_vec(bytes.unwrap_or_default())
                .map_err(|e| format!("{at}: invalid NBT: {e}")),
            Err(e) => Err(format!("{at}: {e}")),
        };
        let doc = match doc {
            Ok(doc) => doc,
            Err(message) => {
                eprintln!("nbt: {message}; skipped");
                failed += 1;
                continue;
            }
        };
        let doc = Stored {
            doc,
            form: StoredAs::Snbt,
        };
        let bytes = match typed {
            true => typed_json(&doc, to, compact)?,
            false => convert(&doc, to, compact)?,
        };
        match output {
            Place::File(dir) => {
                let file = dir.join(format!("chunk.{x}.{z}.{}", file_extension(to)));
                output::write_to(&Place::File(file), &bytes, true)?;
            }
            Place::Std => {
                out.extend_from_slice(format!("# {at}\n").as_bytes());
                out.extend_from_slice(&bytes);
            }
        }
    }
    output::write_stdout(&out)?;
    if failed > 0 {
        return Err(Failure::new(format!(
            "{place}: {} could not be read",
            crate::report::count(failed, "chunk")
        )));
    }
    Ok(0)
}

/// `--typed`: the document as typed JSON (`simdnbt::json`), root name included.
pub fn typed_json(doc: &Stored, to: OutputFormat, compact: bool) -> Result<Vec<u8>> {
    if to != OutputFormat::Json {
        return Err(Failure::new("--typed is for --to json"));
    }
    let nbt = output::owned(doc.doc.as_ref());
    let root = output::document(&nbt)?;
    let mut out = Vec::new();
    match compact {
        true => simdnbt::json::to_writer(&mut out, root),
        false => simdnbt::json::to_writer_pretty(&mut out, root),
    }
    .map_err(|e| Failure::new(format!("cannot write as typed JSON: {e}")))?;
    out.push(b'\n');
    Ok(out)
}
