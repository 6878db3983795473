//! quartz_nbt 0.2: `io::read_nbt` into `NbtCompound` (HashMap without `preserve_order`).

use ::quartz_nbt::io::{Flavor, read_nbt, write_nbt};
use ::quartz_nbt::{NbtCompound, NbtTag};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditScript, Step};
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
        for (path, value) in &script.changes {
            let (c, key) = parent(root, path)?;
            *c.inner_mut().get_mut(key).ok_or("no such key")? = leaf(value)?;
        }
        for path in &script.removes {
            let (c, key) = parent(root, path)?;
            c.inner_mut().remove(key);
        }
        for (key, value) in &script.inserts {
            root.insert(key.clone(), leaf(value)?);
        }
        Ok(())
    }
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

/// The compound holding the value at `path`, and the value's key.
fn parent<'c>(
    root: &'c mut NbtCompound,
    path: &'c [Step],
) -> Result<(&'c mut NbtCompound, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        let tag = c.inner_mut().get_mut(key.as_str()).ok_or("no such key")?;
        c = match (tag, rest) {
            (NbtTag::Compound(inner), _) => {
                steps = rest;
                inner
            }
            (NbtTag::List(l), [Step::Index(i), rest @ ..]) => {
                steps = rest;
                match l.inner_mut().get_mut(*i).ok_or("no such element")? {
                    NbtTag::Compound(inner) => inner,
                    _ => return Err("not a compound".into()),
                }
            }
            _ => return Err("the path leads nowhere".into()),
        };
    }
    Ok((c, last.key()?))
}

/// quartz's tag of an edit's value (numbers and strings).
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
