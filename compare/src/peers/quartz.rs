//! quartz_nbt 0.2: `io::read_nbt` into `NbtCompound` (HashMap without `preserve_order`).

use ::quartz_nbt::io::{Flavor, read_nbt, write_nbt};
use ::quartz_nbt::{NbtCompound, NbtTag};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
use testkit::{Doc, List, Order, Value};

type Parsed = (NbtCompound, String);

/// quartz_nbt's `NbtCompound` and root name.
pub struct Quartz;

impl Adapter for Quartz {
    type Tree<'a> = Parsed;
    const INFO: Info = Info {
        name: "quartz",
        krate: "quartz_nbt",
        version: "0.2.9",
        nightly: false,
        order: Order::Unordered,
        notes: "Owned tree read through `io::Read`; compounds are `HashMap`s (default features: \
                order lost, duplicates collapse, written in hash order). Every string is read into \
                a fresh Vec then decoded from Java CESU-8 into `String`; arrays converted to native \
                Vecs. Lists are `Vec<NbtTag>`: an empty list loses its element type.",
    };

    fn parse(input: &[u8]) -> Result<Parsed, String> {
        read_nbt(&mut &input[..], Flavor::Uncompressed).map_err(|e| e.to_string())
    }

    fn write((c, name): &Parsed) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let _ = write_nbt(&mut out, Some(name), c, Flavor::Uncompressed);
        Ok(out)
    }

    fn visit((c, name): &Parsed) {
        sink(name.as_str());
        visit_compound(c);
    }

    fn to_canonical((c, name): &Parsed) -> Result<Doc, String> {
        Ok(Doc::named(name.clone(), Value::Compound(compound(c))))
    }

    const EDITS: bool = true;

    fn edit((root, _): &mut Parsed, script: &EditScript) -> Result<(), String> {
        script.edit(root)
    }
}

impl EditCompound for NbtCompound {
    type Tag = NbtTag;
    fn entry(&mut self, key: &str) -> Option<&mut NbtTag> {
        self.inner_mut().get_mut(key)
    }
    fn compound(tag: &mut NbtTag) -> Option<&mut Self> {
        match tag {
            NbtTag::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut NbtTag, i: usize) -> Option<&mut Self> {
        match tag {
            NbtTag::List(l) => Self::compound(l.inner_mut().get_mut(i)?),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        self.inner_mut().remove(key).is_some()
    }
    fn insert(&mut self, key: &str, tag: NbtTag) {
        NbtCompound::insert(self, key.to_owned(), tag);
    }
    plain_leaf!(NbtTag);
}

fn visit_compound(c: &NbtCompound) {
    for (k, v) in c.inner() {
        sink(k.as_str());
        visit(v);
    }
}

fn visit(v: &NbtTag) {
    match v {
        NbtTag::String(s) => sink(s.as_str()),
        NbtTag::ByteArray(a) => sink(a.as_slice()),
        NbtTag::IntArray(a) => sink(a.as_slice()),
        NbtTag::LongArray(a) => sink(a.as_slice()),
        NbtTag::List(l) => l.iter().for_each(visit),
        NbtTag::Compound(c) => visit_compound(c),
        other => sink(other),
    }
}

fn compound(c: &NbtCompound) -> Vec<(String, Value)> {
    c.inner()
        .iter()
        .map(|(k, v)| (k.clone(), value(v)))
        .collect()
}

fn value(v: &NbtTag) -> Value {
    match v {
        NbtTag::Byte(x) => Value::Byte(*x),
        NbtTag::Short(x) => Value::Short(*x),
        NbtTag::Int(x) => Value::Int(*x),
        NbtTag::Long(x) => Value::Long(*x),
        NbtTag::Float(x) => Value::float(*x),
        NbtTag::Double(x) => Value::double(*x),
        NbtTag::ByteArray(a) => Value::byte_array_i8(a),
        NbtTag::String(s) => Value::String(s.clone()),
        NbtTag::List(l) => Value::List(List::untyped(l.iter().map(value).collect())),
        NbtTag::Compound(c) => Value::Compound(compound(c)),
        NbtTag::IntArray(a) => Value::IntArray(a.clone()),
        NbtTag::LongArray(a) => Value::LongArray(a.clone()),
    }
}
