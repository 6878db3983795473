//! Reading every input `set`, `rm` and `replace` edit into a
//! `simdnbt::document::Document`, and storing it back. Binary NBT (gzip,
//! zlib or raw; Java, or Bedrock little-endian or network form, read by the
//! library's Bedrock document) and region chunks are read straight into a
//! document, edited in place, and written back copying every subtree the edit
//! did not touch, instead of being built into an owned tree and encoded again
//! (instruction counts: `reports/cli.md`). SNBT and JSON text is read by
//! `input`'s reader, converted, and written back by `store` in its own form.
//!
//! What cannot be read is refused in the words `input`'s reader uses for it
//! (so `show` and `set` say the same of a broken file), with the same exit
//! status.

use std::io::Cursor;

use simdnbt::Encoding;
use simdnbt::bedrock::LevelHeader;
use simdnbt::compression::{Compression, Decompressed};
use simdnbt::document::Document;
use simdnbt::owned::Nbt;
use simdnbt::region::{EncodedChunk, Region};

use crate::failure::{Failure, Result};
use crate::input::{self, ChunkPos, InputFormat, InputOpts, OwnedDocument, Place, StoredAs};
use crate::store::WriteOpts;

/// A document read for editing, and how it was stored.
pub struct Stored {
    /// The document.
    pub doc: Document,
    /// How it was stored (for binary NBT, `doc`'s own encoding).
    pub form: StoredAs,
}

/// Reads `place` for editing: a file or stdin in any form the tool reads, or
/// the chunk `--chunk` names in a region file. `Ok(None)` for a document
/// that is a single End byte (there is nothing to edit).
pub fn open(place: &Place, opts: &InputOpts) -> Result<Option<Stored>> {
    match (opts.format(place), opts.chunk) {
        (InputFormat::Nbt, None) => open_binary(place, &place.read_all()?, opts.binary_form()),
        (InputFormat::Region, Some(pos)) if !opts.le && !opts.varint => open_chunk(place, pos),
        // Text, or options that do not fit the input: `input` reads it, or
        // says what is wrong.
        _ => from_owned(place, input::open_document(place, opts)?),
    }
}

fn open_binary(place: &Place, bytes: &[u8], binary: Encoding) -> Result<Option<Stored>> {
    let file =
        Decompressed::from_bytes(bytes).map_err(|e| Failure::new(format!("{place}: {e}")))?;
    let compression = file.compression();
    let data = file.as_bytes();
    let note = input::inflated_note(compression);
    let encoding = match binary {
        Encoding::BigEndian => {
            // Java first, as `input` reads it: only a document that fails,
            // or leaves bytes after its root, is tried as Bedrock.
            let mut cursor = Cursor::new(data);
            let read = simdnbt::document::read(&mut cursor);
            let whole = read.is_ok() && cursor.position() as usize == data.len();
            match input::bedrock_instead(data, whole) {
                Some(bedrock) => bedrock,
                None => {
                    let doc = read.map_err(|e| {
                        Failure::new(format!(
                            "{place}: invalid NBT: {}",
                            crate::locate::describe(&e, data, &note)
                        ))
                    })?;
                    return Ok(doc.map(|doc| Stored {
                        doc,
                        form: StoredAs::Binary {
                            compression,
                            encoding: Encoding::BigEndian,
                            header: None,
                        },
                    }));
                }
            }
        }
        bedrock => bedrock,
    };
    let (doc, header) =
        read_bedrock(data, encoding).map_err(|e| Failure::new(format!("{place}: {e}{note}")))?;
    if binary == Encoding::BigEndian {
        input::bedrock_notice(place, encoding, header);
    }
    Ok(doc.map(|doc| Stored {
        doc,
        form: StoredAs::Binary {
            compression,
            encoding,
            header,
        },
    }))
}

/// The whole Bedrock document `data` holds in `encoding` (little-endian:
/// after a level.dat header when it has one), read by the library's Bedrock
/// document, which keeps its encoding; and the header.
fn read_bedrock(
    data: &[u8],
    encoding: Encoding,
) -> std::result::Result<(Option<Document>, Option<LevelHeader>), String> {
    use simdnbt::document::bedrock;
    let (header, body) = match simdnbt::bedrock::split_level_header(data) {
        Some((header, body)) if encoding == Encoding::LittleEndian => (Some(header), body),
        _ => (None, data),
    };
    let mut cursor = Cursor::new(body);
    let read = match encoding {
        Encoding::Network => bedrock::read_network(&mut cursor),
        _ => bedrock::read_le(&mut cursor),
    };
    match read {
        Ok(doc) if cursor.position() as usize == body.len() => Ok((doc, header)),
        // Broken, or bytes after the root: said as `input` says it (the
        // whole-document transcoder runs the same core, so it finds the same
        // problem at the same offset).
        other => Err(match (input::bedrock_to_java(data, encoding), other) {
            (Err(message), _) => message,
            (Ok(_), Err(e)) => format!("cannot read as a document: {e}"),
            (Ok(_), Ok(_)) => "bytes after the document".into(),
        }),
    }
}

fn open_chunk(place: &Place, pos: ChunkPos) -> Result<Option<Stored>> {
    let (region, bytes, compression) = input::read_chunk(place, place.read_all()?, pos)?;
    let doc = match Document::from_vec(bytes) {
        Ok(doc) => doc,
        Err(e) => {
            // The bytes again, to say which value the error is in.
            let (bytes, _) = input::chunk_bytes(place, &region, pos)?;
            return Err(input::invalid_chunk(place, pos, &e, &bytes));
        }
    };
    Ok(doc.map(|doc| Stored {
        doc,
        form: StoredAs::Chunk {
            region: Box::new(region),
            pos,
            compression,
        },
    }))
}

/// A document `input` read (SNBT or JSON text) as a document. Text can hold
/// what binary NBT cannot (a string over 65535 bytes, nesting past 512); such
/// a file is refused, as `store` refuses to write one.
fn from_owned(place: &Place, read: OwnedDocument) -> Result<Option<Stored>> {
    let Nbt::Some(base) = &read.nbt else {
        return Ok(None);
    };
    let doc = Document::from_owned(base).map_err(|e| {
        Failure::new(format!(
            "refusing to edit {place}: binary NBT cannot hold it ({e}), and text files are \
             held to the same limits; it is unchanged"
        ))
    })?;
    Ok(Some(Stored {
        doc,
        form: read.stored,
    }))
}

/// Stores an edited document as it was stored: written to a temporary file
/// beside the original, read back, checked and renamed over it (stdin: to
/// stdout, checked). The check: what is written decodes (inflated, its
/// level.dat header split off, taken out of the region) to exactly the bytes
/// the document wrote, which read as NBT in its encoding. Text is written by
/// [`crate::store::store`], which checks it its way.
pub fn store(place: &Place, stored: &mut Stored, w: WriteOpts) -> Result<()> {
    if matches!(
        stored.form,
        StoredAs::Snbt | StoredAs::Json | StoredAs::TypedJson
    ) {
        let form = std::mem::replace(&mut stored.form, StoredAs::Snbt);
        let mut text = OwnedDocument {
            nbt: stored.doc.to_owned_nbt(),
            stored: form,
        };
        let done = crate::store::store(place, &mut text, w);
        stored.form = text.stored;
        return done;
    }
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    let raw = stored.doc.to_bytes();
    let bytes = encode(&raw, &mut stored.form, w.level).map_err(|f| refuse(f.message))?;
    let form = &stored.form;
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
    match place {
        Place::File(link) => crate::store::replace_verified(link, &bytes, &verify, w),
        Place::Std => {
            verify(&bytes)?;
            if w.dry_run {
                return Ok(());
            }
            crate::output::write_stdout(&bytes)
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
        _ => simdnbt::borrow::read(&mut Cursor::new(bytes)).is_ok(),
    }
}

/// The bytes of the document `raw` (in its own encoding) stored as `form`.
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
            crate::store::put_chunk(region, *pos, &chunk)?;
            Ok(region.as_bytes().to_vec())
        }
        StoredAs::Snbt | StoredAs::Json | StoredAs::TypedJson => {
            Err(Failure::new("text is written by `store`"))
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
            Err(Failure::new("text is written by `store`"))
        }
    }
}
