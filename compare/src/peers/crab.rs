//! crab_nbt 0.2: owned `Nbt { name, root_tag }` with Vec-backed compounds.

use ::crab_nbt::{Nbt, NbtCompound, NbtTag};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditScript, Step};
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
        for (path, value) in &script.changes {
            let (c, key) = parent(&mut n.root_tag, path)?;
            *entry(c, key)? = leaf(value)?;
        }
        for path in &script.removes {
            let (c, key) = parent(&mut n.root_tag, path)?;
            let i = c
                .child_tags
                .iter()
                .position(|(k, _)| k == key)
                .ok_or("no such key")?;
            c.child_tags.remove(i);
        }
        for (key, value) in &script.inserts {
            n.root_tag.put(key.clone(), leaf(value)?);
        }
        Ok(())
    }
}

/// The value of `key` in `c`.
fn entry<'c>(c: &'c mut NbtCompound, key: &str) -> Result<&'c mut NbtTag, String> {
    c.child_tags
        .iter_mut()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .ok_or_else(|| "no such key".into())
}

/// The compound holding the value at `path`, and the value's key.
fn parent<'c>(
    root: &'c mut NbtCompound,
    path: &'c [Step],
) -> Result<(&'c mut NbtCompound, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        c = match (entry(c, key)?, rest) {
            (NbtTag::Compound(inner), _) => {
                steps = rest;
                inner
            }
            (NbtTag::List(l), [Step::Index(i), rest @ ..]) => {
                steps = rest;
                match l.get_mut(*i).ok_or("no such element")? {
                    NbtTag::Compound(inner) => inner,
                    _ => return Err("not a compound".into()),
                }
            }
            _ => return Err("the path leads nowhere".into()),
        };
    }
    Ok((c, last.key()?))
}

/// crab's tag of an edit's value (numbers and strings).
fn leaf(v: &Value) -> Result<NbtTag, String> {
    Ok(match v {
        Value::Byte(x) => NbtTag::Byte(*x),
        Value::Short(x) => NbtTag::Short(*x),
        Value::Int(x) => NbtTag::Int(*x),
        Value::Long(x) => NbtTag::Long(*x),
        Value::Float(bits) => NbtTag::Float(f32::from_bits(*bits)),
        Value::Double(bits) => NbtTag::Double(f64::from_bits(*bits)),
        Value::String(s) => NbtTag::String(s.clone()),
        other => return Err(format!("not an edit value: {other:?}")),
    })
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
