//! `document_edit`: the document model (`simdnbt::document`) reads exactly
//! what the borrow reader reads, in every root form (same value, or the same
//! error at the same offset, and the same cursor), writes every document back
//! byte for byte; and random edit sequences applied to a document and to an
//! owned tree give the same bytes after every edit, refused edits change
//! nothing, and every write reads back (`testkit::edit`); bursts of
//! hundreds of pushes into one nested container (lists of numbers grow in
//! their room, blocks move, large values make the document compact itself)
//! agree with the owned tree; and a document read deeper than 512 levels
//! compacts at its own depth.
//!
//! Input: raw bytes, a document followed by the bytes the edits are drawn
//! from (a corpus file alone edits with choices drawn from its own bytes); or,
//! when the first byte is [`STRUCTURED_SELECTOR`] or more, bytes for the
//! structured generator (`generate::document`), whose unused rest draws the
//! edits.

use std::io::Cursor;

use simdnbt::document::{self, Document, Framing};
use simdnbt::owned::NbtTag;
use simdnbt::{ReadOptions, borrow};
use testkit::edit::{
    Edit, Op, Source, apply_document, apply_owned, check_random_edits, random_edit,
};

use crate::generate;
pub use crate::roundtrip::STRUCTURED_SELECTOR;

/// Edits per execution (each compares whole documents).
const MAX_EDITS: usize = 48;
/// The most pushes in a burst (compared once, at its end).
const MAX_BURST: usize = 600;
/// The depth limit of the deep reads: past the default 512.
const DEEP: u32 = 2048;

/// The `document_edit` target.
pub fn document_edit(data: &[u8]) {
    agree(data);
    deep(data);
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
    if every >= 0xf0 {
        burst(bytes, &mut Source::new(choices));
        return;
    }
    check_random_edits(bytes, &mut Source::new(choices), MAX_EDITS, compact_every);
}

/// A burst: one push (into a list, or a key appended to a compound) drawn
/// from `src`, repeated up to [`MAX_BURST`] times into the same container
/// of the document (unnamed form) in `bytes` and of the owned tree; they
/// must answer alike every time and write the same bytes at the end, before
/// and after a compaction. Its value is sometimes made large (a string of
/// up to 4 KiB), so that the document passes its compaction threshold.
fn burst(bytes: &[u8], src: &mut Source<'_>) {
    let (Ok(mut doc), Ok(mut tree)) = (
        document::read_tag(&mut Cursor::new(bytes)),
        simdnbt::owned::read_tag(&mut Cursor::new(bytes)),
    ) else {
        return;
    };
    let Some(Edit { path, op }) = random_edit(&tree, src) else {
        return;
    };
    let big = |src: &mut Source<'_>| {
        let len = src.below(4097);
        NbtTag::String("b".repeat(len).into())
    };
    let op = match op {
        Op::Push(NbtTag::String(_)) if src.below(2) == 0 => Op::Push(big(src)),
        Op::Set(key, _) | Op::Insert(key, _) if src.below(2) == 0 => Op::Insert(key, big(src)),
        op @ (Op::Push(_) | Op::Insert(..)) => op,
        _ => return,
    };
    let times = 1 + src.below(MAX_BURST);
    for i in 0..times {
        // Compound keys made distinct, so each push appends.
        let op = match &op {
            Op::Insert(key, v) => Op::Insert(format!("{key}{i}"), v.clone()),
            op => op.clone(),
        };
        let edit = Edit {
            path: path.clone(),
            op,
        };
        let d = apply_document(&mut doc, &edit);
        let o = apply_owned(&mut tree, &edit);
        assert_eq!(d, o, "push {i} of a burst of {edit:?}: the models differ");
        if d.is_err() {
            break;
        }
    }
    let mut expected = Vec::new();
    tree.write(&mut expected)
        .expect("the reference tree writes");
    assert!(
        unnamed_bytes(&doc) == expected,
        "after a burst the models differ"
    );
    doc.compact();
    assert!(
        unnamed_bytes(&doc) == expected,
        "compaction changed the document"
    );
}

fn unnamed_bytes(doc: &Document) -> Vec<u8> {
    let mut out = Vec::new();
    doc.write_as(Framing::Unnamed, &mut out);
    out
}

/// A document read past the default depth limit (by the document reader,
/// and made from the borrow reader's tree, whose edits keep to 512)
/// compacts at its own depth, to the same bytes.
fn deep(data: &[u8]) {
    let opts = ReadOptions::default().max_depth(DEEP);
    let mut c = Cursor::new(data);
    if let Ok(Some(mut doc)) = document::read_with(&mut c, &opts) {
        let before = doc.to_bytes();
        doc.compact();
        assert!(doc.to_bytes() == before, "compaction of a deep document");
    }
    if let Ok(borrow::Nbt::Some(nbt)) = borrow::read_with(&mut Cursor::new(data), &opts) {
        let mut doc = Document::from_borrow(&nbt);
        let before = doc.to_bytes();
        doc.compact();
        assert!(
            doc.to_bytes() == before,
            "compaction of a borrowed deep document"
        );
    }
}

/// The document reader and the borrow reader answer alike in every root form.
fn agree(data: &[u8]) {
    let opts = ReadOptions::default();
    testkit::document::agree(data, &opts, "document_edit");
    // Any root type in the named form reads and writes back exactly.
    let mut c = Cursor::new(data);
    if let Ok(Some(doc)) = document::read_root(&mut c, Framing::Named, &opts) {
        let end = c.position() as usize;
        assert!(doc.to_bytes() == data[..end], "read_root: write != bytes");
    }
}
