//! `simdnbt_doc`: this workspace's mutable document (`simdnbt::document`): the
//! input copied once, one arena of nodes, untouched subtrees written back as
//! copies of the stored bytes.

use std::io::Cursor;

use simdnbt::document::{self, Document, NbtCompound, NbtCompoundMut, NbtList, NbtTag};
use testkit::from_simdnbt as convert;
use testkit::mutf8::{lossy, lossy_ok};
use testkit::{Doc, Order, Value};

use super::ours::owned_leaf;
use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditScript, Step};

/// The document model.
pub struct SimdnbtDoc;

impl Adapter for SimdnbtDoc {
    type Tree<'a> = Document;
    const EDITS: bool = true;
    const INFO: Info = Info {
        name: "simdnbt_doc",
        krate: "simdnbt",
        version: "0.11.0",
        nightly: false,
        order: Order::Exact,
        notes: "This workspace's mutable document: one validating pass (the borrow reader's) \
                builds an arena of 16-byte nodes over a copy of the input; strings stay raw \
                MUTF-8 and arrays big-endian in that copy (decoded on request). Keeps order, \
                duplicate keys, float bits and empty-list element types. Edits append or change \
                bytes in place; the writer copies every untouched subtree from the stored bytes.",
    };

    fn parse(input: &[u8]) -> Result<Document, String> {
        document::read(&mut Cursor::new(input))
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "End root: no document".to_string())
    }

    fn write(doc: &Document) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        doc.write(&mut out);
        Ok(out)
    }

    fn visit(doc: &Document) {
        sink(doc.name().to_str());
        if let Some(root) = doc.as_compound() {
            visit_compound(&root);
        }
    }

    fn edit(doc: &mut Document, script: &EditScript) -> Result<(), String> {
        let mut root = doc.as_compound_mut().ok_or("the root is not a compound")?;
        for (path, value) in &script.changes {
            let tag = owned_leaf(value)?;
            at(&mut root, path, |c, key| {
                c.set(key, tag).map_err(|e| e.to_string())
            })??;
        }
        for path in &script.removes {
            at(&mut root, path, |c, key| c.remove(key))?;
        }
        for (key, value) in &script.inserts {
            root.insert(key, owned_leaf(value)?)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn to_canonical(doc: &Document) -> Result<Doc, String> {
        let root = doc.as_compound().ok_or("the root is not a compound")?;
        let Ok(root) = convert::owned_compound(&root.to_owned(), &lossy_ok);
        Ok(Doc::named(
            lossy(doc.name().as_bytes()),
            Value::Compound(root),
        ))
    }
}

/// Runs `f` on the compound holding the value at `path` below `c`, with the
/// value's key.
fn at<R>(
    c: &mut NbtCompoundMut<'_>,
    path: &[Step],
    f: impl FnOnce(&mut NbtCompoundMut<'_>, &str) -> R,
) -> Result<R, String> {
    match path {
        [last] => Ok(f(c, last.key()?)),
        [Step::Key(key), Step::Index(i), rest @ ..] => {
            let mut list = c.list_mut(key.as_str()).ok_or("no such list")?;
            at(
                &mut list.compound_mut(*i).ok_or("no such element")?,
                rest,
                f,
            )
        }
        [Step::Key(key), rest @ ..] => at(
            &mut c.compound_mut(key.as_str()).ok_or("no such compound")?,
            rest,
            f,
        ),
        _ => Err("the path leads nowhere".into()),
    }
}

fn visit_compound(c: &NbtCompound<'_>) {
    for (k, t) in c.iter() {
        sink(k.to_str());
        visit_tag(&t);
    }
}

fn visit_tag(t: &NbtTag<'_>) {
    match t.id() {
        7 => sink(t.byte_array()),
        8 => sink(t.string().map(|s| s.to_str())),
        9 => {
            if let Some(l) = t.list() {
                visit_list(&l)
            }
        }
        10 => {
            if let Some(c) = t.compound() {
                visit_compound(&c)
            }
        }
        11 => sink(t.int_array()),
        12 => sink(t.long_array()),
        _ => sink(t),
    }
}

fn visit_list(l: &NbtList<'_>) {
    match l.id() {
        1 => sink(l.bytes()),
        2 => sink(l.shorts()),
        3 => sink(l.ints()),
        4 => sink(l.longs()),
        5 => sink(l.floats()),
        6 => sink(l.doubles()),
        7 => l.byte_arrays().into_iter().flatten().for_each(sink),
        8 => l
            .strings()
            .into_iter()
            .flatten()
            .for_each(|s| sink(s.to_str())),
        9 => l.lists().into_iter().flatten().for_each(|x| visit_list(&x)),
        10 => l
            .compounds()
            .into_iter()
            .flatten()
            .for_each(|c| visit_compound(&c)),
        11 => l
            .int_arrays()
            .into_iter()
            .flatten()
            .for_each(|a| sink(a.to_vec())),
        12 => l
            .long_arrays()
            .into_iter()
            .flatten()
            .for_each(|a| sink(a.to_vec())),
        _ => {}
    }
}
