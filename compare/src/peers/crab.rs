//! crab_nbt 0.2: owned `Nbt { name, root_tag }` with Vec-backed compounds.

use ::crab_nbt::{Nbt, NbtCompound, NbtTag};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
use testkit::{Doc, List, Order, Value};

/// crab_nbt's owned tree.
pub struct Crab;

impl Adapter for Crab {
    type Tree<'a> = Nbt;
    const INFO: Info = Info {
        name: "crab",
        krate: "crab_nbt",
        version: "0.2.11",
        nightly: false,
        order: Order::Exact,
        notes: "Owned tree over the `bytes::Buf` trait; compounds are Vecs in input order, but \
                inserting scans for an existing key (quadratic in compound size) and drops later \
                duplicates. Strings decoded from Java CESU-8 into `String`; arrays converted to \
                native Vecs (byte arrays copied into `Bytes`). Lists are `Vec<NbtTag>`: an empty \
                list loses its element type. A tag that fails to parse silently ends its compound, and a \
                compound cut short by the end of input is accepted as complete; `Buf` getters \
                panic on some truncations. Writes into a fresh `Bytes`.",
    };

    fn parse(input: &[u8]) -> Result<Nbt, String> {
        Nbt::read(&mut &input[..]).map_err(|e| e.to_string())
    }

    fn write(n: &Nbt) -> Result<Vec<u8>, String> {
        Ok(n.write().to_vec())
    }

    fn visit(n: &Nbt) {
        sink(n.name.as_str());
        visit_compound(&n.root_tag);
    }

    fn to_canonical(n: &Nbt) -> Result<Doc, String> {
        Ok(Doc::named(
            n.name.clone(),
            Value::Compound(compound(&n.root_tag)),
        ))
    }

    const EDITS: bool = true;

    /// Compounds are a public `Vec` of entries: a change or removal finds its
    /// key by a linear scan, an insert goes through `NbtCompound::put` (which
    /// scans for the key first).
    fn edit(n: &mut Nbt, script: &EditScript) -> Result<(), String> {
        script.edit(&mut n.root_tag)
    }
}

impl EditCompound for NbtCompound {
    type Tag = NbtTag;
    fn entry(&mut self, key: &str) -> Option<&mut NbtTag> {
        self.child_tags
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
    fn compound(tag: &mut NbtTag) -> Option<&mut Self> {
        match tag {
            NbtTag::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut NbtTag, i: usize) -> Option<&mut Self> {
        match tag {
            NbtTag::List(l) => Self::compound(l.get_mut(i)?),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        let i = self.child_tags.iter().position(|(k, _)| k == key);
        i.map(|i| self.child_tags.remove(i)).is_some()
    }
    fn insert(&mut self, key: &str, tag: NbtTag) {
        self.put(key.to_owned(), tag);
    }
    plain_leaf!(NbtTag);
}

fn visit_compound(c: &NbtCompound) {
    for (k, v) in &c.child_tags {
        sink(k.as_str());
        visit(v);
    }
}

fn visit(v: &NbtTag) {
    match v {
        NbtTag::String(s) => sink(s.as_str()),
        NbtTag::ByteArray(a) => sink(&a[..]),
        NbtTag::IntArray(a) => sink(a.as_slice()),
        NbtTag::LongArray(a) => sink(a.as_slice()),
        NbtTag::List(l) => l.iter().for_each(visit),
        NbtTag::Compound(c) => visit_compound(c),
        other => sink(other),
    }
}

fn compound(c: &NbtCompound) -> Vec<(String, Value)> {
    c.child_tags
        .iter()
        .map(|(k, v)| (k.clone(), value(v)))
        .collect()
}

fn value(v: &NbtTag) -> Value {
    match v {
        NbtTag::End => Value::Compound(vec![("<End>".into(), Value::Byte(0))]),
        NbtTag::Byte(x) => Value::Byte(*x),
        NbtTag::Short(x) => Value::Short(*x),
        NbtTag::Int(x) => Value::Int(*x),
        NbtTag::Long(x) => Value::Long(*x),
        NbtTag::Float(x) => Value::float(*x),
        NbtTag::Double(x) => Value::double(*x),
        NbtTag::ByteArray(a) => Value::ByteArray(a.to_vec()),
        NbtTag::String(s) => Value::String(s.clone()),
        NbtTag::List(l) => Value::List(List::untyped(l.iter().map(value).collect())),
        NbtTag::Compound(c) => Value::Compound(compound(c)),
        NbtTag::IntArray(a) => Value::IntArray(a.clone()),
        NbtTag::LongArray(a) => Value::LongArray(a.clone()),
    }
}
