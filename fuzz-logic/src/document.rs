//! `document_edit`: the document model (`simdnbt::document`) reads exactly
//! what the borrow reader reads, in every root form (same value, or the same
//! error at the same offset, and the same cursor), writes every document back
//! byte for byte; and random edit sequences applied to a document and to an
//! owned tree give the same bytes after every edit, refused edits change
//! nothing, and every write reads back (`testkit::edit`).
//!
//! Input: raw bytes, a document followed by the bytes the edits are drawn
//! from (a corpus file alone edits with choices drawn from its own bytes); or,
//! when the first byte is [`STRUCTURED_SELECTOR`] or more, bytes for the
//! structured generator (`generate::document`), whose unused rest draws the
//! edits.

use std::io::Cursor;

use simdnbt::ReadOptions;
use simdnbt::document::{self, Form};
use testkit::edit::{Source, check_random_edits};

use crate::generate;
pub use crate::roundtrip::STRUCTURED_SELECTOR;

/// Edits per execution (each compares whole documents).
const MAX_EDITS: usize = 48;

/// The `document_edit` target.
pub fn document_edit(data: &[u8]) {
    agree(data);
    if data.first().is_some_and(|&b| b >= STRUCTURED_SELECTOR) {
        structured(&data[1..]);
        return;
    }
    let mut c = Cursor::new(data);
    let Ok(Some(doc)) = document::read(&mut c) else {
        return;
    };
    let end = c.position() as usize;
    assert!(doc.to_bytes() == data[..end], "write(read(bytes)) != bytes");
    let rest = &data[end..];
    let choices: Vec<u8> = if rest.is_empty() {
        data[..end].iter().rev().copied().collect()
    } else {
        rest.to_vec()
    };
    edit(&unnamed(&data[..end]), &choices);
}

/// Generated documents, edited with the generator's unused bytes.
fn structured(data: &[u8]) {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(generated) = generate::document(&mut u) else {
        return;
    };
    let simdnbt::owned::Nbt::Some(root) = generated.nbt else {
        return;
    };
    let mut bytes = Vec::new();
    // Documents built to break a writer limit are the roundtrip target's job.
    if root.write(&mut bytes).is_err() {
        return;
    }
    let rest = u.take_rest().to_vec();
    edit(&unnamed(&bytes), &rest);
}

/// The unnamed form (id, payload) of a named document.
fn unnamed(named: &[u8]) -> Vec<u8> {
    let name_len = u16::from_be_bytes([named[1], named[2]]) as usize;
    let mut v = vec![named[0]];
    v.extend_from_slice(&named[3 + name_len..]);
    v
}

/// Runs an edit script drawn from `choices` on the document in `bytes`
/// (unnamed form); the first choice picks how often it is compacted.
fn edit(bytes: &[u8], choices: &[u8]) {
    let Some((&every, choices)) = choices.split_first() else {
        return;
    };
    let compact_every = (every % 8) as usize * 3;
    check_random_edits(bytes, &mut Source::new(choices), MAX_EDITS, compact_every);
}

/// The document reader and the borrow reader answer alike in every root form.
fn agree(data: &[u8]) {
    let opts = ReadOptions::default();
    testkit::document::agree(data, &opts, "document_edit");
    // Any root type in the named form reads and writes back exactly.
    let mut c = Cursor::new(data);
    if let Ok(Some(doc)) = document::read_root(&mut c, Form::Named, &opts) {
        let end = c.position() as usize;
        assert!(doc.to_bytes() == data[..end], "read_root: write != bytes");
    }
}
