//! azalea-nbt 0.8 (nightly only): owned `Nbt` enum with sorted-Vec compounds.

use std::io::Cursor;

use ::azalea_nbt::{Nbt, NbtCompound, NbtList};

use crate::adapter::{Adapter, Info, sink};
use testkit::{Doc, List, Order, Value};

/// azalea-nbt's owned `Nbt`.
pub struct Azalea;

impl Adapter for Azalea {
    type Tree<'a> = Nbt;
    const INFO: Info = Info {
        name: "azalea",
        krate: "azalea-nbt",
        version: "0.8.0",
        nightly: true,
        order: Order::Unordered,
        notes: "Owned tree (nightly: `min_specialization`); compounds are Vecs sorted by key once \
                they pass a size threshold (order not kept for larger compounds). Strings decoded \
                as plain UTF-8 into `CompactString`, falling back to lossy, NOT MUTF-8 (`C0 80` and \
                6-byte supplementary characters become U+FFFD). Arrays converted to native Vecs. \
                Lists are typed enums, but every empty list becomes `NbtList::Empty` (type lost). \
                The root is returned as a one-entry compound {root name: root}. A missing tag id at the \
                end of input reads as End, so truncated documents can parse as Ok.",
    };

    fn parse(input: &[u8]) -> Result<Nbt, String> {
        Nbt::read(&mut Cursor::new(input)).map_err(|e| e.to_string())
    }

    fn write(n: &Nbt) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        n.write(&mut out);
        Ok(out)
    }

    fn visit(n: &Nbt) {
        visit_value(n);
    }

    fn to_canonical(n: &Nbt) -> Result<Doc, String> {
        match n {
            Nbt::Compound(outer) => {
                let mut it = outer.iter();
                match (it.next(), it.next()) {
                    (Some((name, root)), None) => Ok(Doc::named(name.to_string(), value(root))),
                    _ => Err("root wrapper is not a one-entry compound".into()),
                }
            }
            _ => Err("root is not a compound".into()),
        }
    }
}

fn visit_value(v: &Nbt) {
    match v {
        Nbt::String(s) => sink(s.as_str()),
        Nbt::ByteArray(a) => sink(a.as_slice()),
        Nbt::IntArray(a) => sink(a.as_slice()),
        Nbt::LongArray(a) => sink(a.as_slice()),
        Nbt::List(l) => visit_list(l),
        Nbt::Compound(c) => visit_compound(c),
        other => sink(other),
    }
}

fn visit_compound(c: &NbtCompound) {
    for (k, v) in c.iter() {
        sink(k.as_str());
        visit_value(v);
    }
}

fn visit_list(l: &NbtList) {
    match l {
        NbtList::String(v) => v.iter().for_each(|s| sink(s.as_str())),
        NbtList::List(v) => v.iter().for_each(visit_list),
        NbtList::Compound(v) => v.iter().for_each(visit_compound),
        other => sink(other),
    }
}

fn compound(c: &NbtCompound) -> Vec<(String, Value)> {
    c.iter().map(|(k, v)| (k.to_string(), value(v))).collect()
}

fn value(v: &Nbt) -> Value {
    match v {
        Nbt::End => Value::Compound(vec![("<End>".into(), Value::Byte(0))]),
        Nbt::Byte(x) => Value::Byte(*x),
        Nbt::Short(x) => Value::Short(*x),
        Nbt::Int(x) => Value::Int(*x),
        Nbt::Long(x) => Value::Long(*x),
        Nbt::Float(x) => Value::float(*x),
        Nbt::Double(x) => Value::double(*x),
        Nbt::ByteArray(a) => Value::ByteArray(a.clone()),
        Nbt::String(s) => Value::String(s.to_string()),
        Nbt::List(l) => Value::List(list(l)),
        Nbt::Compound(c) => Value::Compound(compound(c)),
        Nbt::IntArray(a) => Value::IntArray(a.clone()),
        Nbt::LongArray(a) => Value::LongArray(a.clone()),
    }
}

fn list(l: &NbtList) -> List {
    let t = |id: u8, items: Vec<Value>| List::typed(id, items);
    match l {
        NbtList::Empty => List::untyped(vec![]),
        NbtList::Byte(v) => t(1, v.iter().map(|x| Value::Byte(*x)).collect()),
        NbtList::Short(v) => t(2, v.iter().map(|x| Value::Short(*x)).collect()),
        NbtList::Int(v) => t(3, v.iter().map(|x| Value::Int(*x)).collect()),
        NbtList::Long(v) => t(4, v.iter().map(|x| Value::Long(*x)).collect()),
        NbtList::Float(v) => t(5, v.iter().map(|x| Value::float(*x)).collect()),
        NbtList::Double(v) => t(6, v.iter().map(|x| Value::double(*x)).collect()),
        NbtList::ByteArray(v) => t(7, v.iter().map(|a| Value::ByteArray(a.clone())).collect()),
        NbtList::String(v) => t(8, v.iter().map(|s| Value::String(s.to_string())).collect()),
        NbtList::List(v) => t(9, v.iter().map(|x| Value::List(list(x))).collect()),
        NbtList::Compound(v) => t(10, v.iter().map(|c| Value::Compound(compound(c))).collect()),
        NbtList::IntArray(v) => t(11, v.iter().map(|a| Value::IntArray(a.clone())).collect()),
        NbtList::LongArray(v) => t(12, v.iter().map(|a| Value::LongArray(a.clone())).collect()),
    }
}
