//! `set` and `rm` on binary NBT through `simdnbt::document`: the file (gzip,
//! zlib or raw; Java or Bedrock) or region chunk is read into a document,
//! edited in place, and written back copying every subtree the edit did not
//! touch, instead of being built into an owned tree and encoded again
//! (instruction counts: `reports/cli.md`).
//!
//! Anything out of the ordinary goes to the owned path (`input`, `store`),
//! which says what is wrong in its words: an input that does not read as a
//! whole Java document (it may be Bedrock, read with a notice, or broken),
//! and an edit the document refuses (a string over 65535 bytes, nesting
//! past 512), which the owned path refuses when it writes. So every message
//! and exit status is the owned path's.

use std::io::Cursor;

use simdnbt::Encoding;
use simdnbt::compression::{Compression, Decompressed};
use simdnbt::document::Document;
use simdnbt::region::{EncodedChunk, Region};

use crate::failure::{Failure, Result};
use crate::input::{self, ChunkPos, InputFormat, InputOpts, Place, StoredAs};
use crate::store::WriteOpts;

/// A document read for editing, and how it was stored ([`StoredAs::Binary`] or
/// [`StoredAs::Chunk`]).
pub struct Stored {
    /// The document.
    pub doc: Document,
    /// How it was stored.
    pub form: StoredAs,
}

/// Reads `place` for editing, when the document model takes it: a binary
/// NBT file that reads as one whole Java document (or, with `--le` or
/// `--varint`, as Bedrock), or the chunk `--chunk` names in a region file.
/// `None` for anything else (stdin, text, an End root, an error): the owned
/// path reads it, and says what is wrong.
pub fn open(place: &Place, opts: &InputOpts) -> Option<Stored> {
    if *place == Place::Std {
        return None;
    }
    match (opts.format(place), opts.chunk) {
        (InputFormat::Nbt, None) => open_binary(place, opts.binary_form()),
        (InputFormat::Region, Some(pos)) if !opts.le && !opts.varint => open_chunk(place, pos),
        _ => None,
    }
}

fn open_binary(place: &Place, binary: Encoding) -> Option<Stored> {
    let bytes = place.read_all().ok()?;
    let file = Decompressed::from_bytes(&bytes).ok()?;
    let compression = file.compression();
    let (doc, header) = match binary {
        Encoding::BigEndian => {
            let mut cursor = Cursor::new(file.as_bytes());
            let doc = simdnbt::document::read(&mut cursor).ok()??;
            // Bytes after the root: the owned path tries it as Bedrock.
            if cursor.position() as usize != file.as_bytes().len() {
                return None;
            }
            (doc, None)
        }
        bedrock => {
            let (java, header) = input::bedrock_to_java(file.as_bytes(), bedrock).ok()?;
            (Document::from_vec(java).ok()??, header)
        }
    };
    Some(Stored {
        doc,
        form: StoredAs::Binary {
            compression,
            encoding: binary,
            header,
        },
    })
}

fn open_chunk(place: &Place, pos: ChunkPos) -> Option<Stored> {
    input::check_in_region(place, pos).ok()?;
    let (region, _) = input::open_region_lenient(place, place.read_all().ok()?).ok()?;
    let compression = region.info(pos.x, pos.z)?.compression?;
    let bytes = region.chunk(pos.x, pos.z).ok()??;
    let doc = Document::from_vec(bytes).ok()??;
    Some(Stored {
        doc,
        form: StoredAs::Chunk {
            region: Box::new(region),
            pos,
            compression,
        },
    })
}

/// Stores an edited document as [`crate::store::store`] does: encoded as it
/// was stored, written to a temporary file beside the original, read back,
/// checked and renamed over it. The check: what is on disk decodes (inflated,
/// made big-endian, taken out of the region) to exactly the bytes the
/// document wrote, which read as NBT.
pub fn store(place: &Place, stored: &mut Stored, w: WriteOpts) -> Result<()> {
    let refuse =
        |why: String| Failure::new(format!("refusing to write {place}: {why}; it is unchanged"));
    let raw = stored.doc.to_bytes();
    let bytes = encode(&raw, &mut stored.form, w.level).map_err(|f| refuse(f.message))?;
    let form = &stored.form;
    let verify = |written: &[u8]| -> Result<()> {
        let back = decode(place, written, form)
            .map_err(|f| refuse(format!("the result would not read back: {}", f.message)))?;
        let reads = simdnbt::borrow::read(&mut Cursor::new(&back[..])).is_ok();
        if back != raw || !reads {
            return Err(refuse(
                "the result would read back as a different document".into(),
            ));
        }
        Ok(())
    };
    match place {
        Place::File(link) => crate::store::replace_verified(link, &bytes, &verify, w),
        // `open` takes files only.
        Place::Std => Err(refuse("stdin is edited through the owned tree".into())),
    }
}

/// The bytes of the document `raw` (big-endian NBT) stored as `form`.
fn encode(raw: &[u8], form: &mut StoredAs, level: u32) -> Result<Vec<u8>> {
    match form {
        StoredAs::Binary {
            compression,
            encoding,
            header,
        } => {
            let body = input::java_to(raw, *encoding, *header)?;
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
            Err(Failure::new("text is edited through the owned tree"))
        }
    }
}

/// The big-endian document bytes `written` holds, stored as `form`.
fn decode(place: &Place, written: &[u8], form: &StoredAs) -> Result<Vec<u8>> {
    match form {
        StoredAs::Binary { encoding, .. } => {
            let file = Decompressed::from_bytes(written)
                .map_err(|e| Failure::new(format!("{place}: {e}")))?;
            match encoding {
                Encoding::BigEndian => Ok(file.into_bytes()),
                bedrock => input::bedrock_to_java(file.as_bytes(), *bedrock)
                    .map(|(java, _)| java)
                    .map_err(Failure::new),
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
            Err(Failure::new("text is edited through the owned tree"))
        }
    }
}
