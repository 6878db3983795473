//! What comes before a root value's payload, and the cursor around it:
//! shared by every reader, so they treat roots alike.

use std::io::Cursor;

use super::wire::{BigEndian, Wire};
use crate::error::{Error, ErrorKind};
use crate::tag_id::*;

/// The whole input and the cursor's position in it (clamped to its length).
pub(crate) fn cursor_parts<'a>(data: &Cursor<&'a [u8]>) -> (&'a [u8], usize) {
    let bytes: &'a [u8] = data.get_ref();
    let pos = usize::try_from(data.position())
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    (bytes, pos)
}

/// The error for a root byte that is not the expected tag; says so when the
/// input is really compressed.
#[cold]
pub(crate) fn root_type_error(bytes: &[u8], pos: usize) -> Error {
    let kind = match bytes[pos..] {
        [0x1f, 0x8b, ..] => ErrorKind::GzipCompressed,
        [0x78, 0x01 | 0x5e | 0x9c | 0xda, ..] => ErrorKind::ZlibCompressed,
        [id, ..] if id > LONG_ARRAY => ErrorKind::UnknownTagId(id),
        [id, ..] => ErrorKind::InvalidRootType(id),
        [] => ErrorKind::UnexpectedEof,
    };
    Error::new(kind, pos)
}

/// What comes before a root compound's payload.
pub(crate) enum RootPrefix {
    /// The root is End: no document; it ends at `end`.
    End { end: usize },
    /// A compound root starting at `start`, its name's length at `name_off`
    /// (`None` in the unnamed network form), its payload at `payload`.
    Compound {
        start: usize,
        name_off: Option<usize>,
        payload: usize,
    },
}

/// Reads the root tag id and name at `start` (shared by both readers).
pub(crate) fn root_prefix(bytes: &[u8], start: usize, named: bool) -> Result<RootPrefix, Error> {
    root_prefix_in::<BigEndian>(bytes, start, named)
}

/// [`root_prefix`] for input in form `W`.
pub(crate) fn root_prefix_in<W: Wire>(
    bytes: &[u8],
    start: usize,
    named: bool,
) -> Result<RootPrefix, Error> {
    match bytes.get(start) {
        None => return Err(Error::new(ErrorKind::UnexpectedEof, start)),
        Some(&END) => return Ok(RootPrefix::End { end: start + 1 }),
        Some(&COMPOUND) => {}
        Some(_) => return Err(root_type_error(bytes, start)),
    }
    let mut pos = start + 1;
    let name_off = pos;
    if named && W::VARINT {
        super::check::list_element::<W>(bytes, &mut pos, STRING)?;
    } else if named {
        let len = match bytes.get(pos..pos + 2) {
            // SAFETY: `b` is two bytes.
            Some(b) => (unsafe { super::wire::u16_at::<W>(b, 0) }) as usize,
            None => return Err(Error::new(ErrorKind::UnexpectedEof, bytes.len())),
        };
        pos += 2 + len;
        if pos > bytes.len() {
            return Err(Error::new(ErrorKind::UnexpectedEof, bytes.len()));
        }
    }
    Ok(RootPrefix::Compound {
        start,
        name_off: named.then_some(name_off),
        payload: pos,
    })
}

/// Reads the tag id of an unnamed root at `pos`: `None` for End, else the id
/// and where its payload starts (shared by both readers).
pub(crate) fn tag_prefix(bytes: &[u8], pos: usize) -> Result<Option<(u8, usize)>, Error> {
    let id = *bytes
        .get(pos)
        .ok_or(Error::new(ErrorKind::UnexpectedEof, pos))?;
    if id == END {
        return Ok(None);
    }
    if id > LONG_ARRAY {
        return Err(root_type_error(bytes, pos));
    }
    Ok(Some((id, pos + 1)))
}

/// Refuses a compound payload at `pos` that is really a compressed stream
/// (whose first bytes are no tag id either way): says what it is.
pub(crate) fn not_compressed(bytes: &[u8], pos: usize) -> Result<(), Error> {
    if let [0x1f, 0x8b, ..] | [0x78, 0x01 | 0x5e | 0x9c | 0xda, ..] = bytes[pos..] {
        return Err(root_type_error(bytes, pos));
    }
    Ok(())
}
