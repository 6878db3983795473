//! fastnbt 2.6: serde deserializer into the dynamic `fastnbt::Value`.

use ::fastnbt::Value as FValue;

use std::collections::HashMap;

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditScript, Step};
use testkit::peers::from_fastnbt;
use testkit::{Doc, Order, Value};

/// fastnbt's dynamic `Value`.
pub struct Fastnbt;

impl Adapter for Fastnbt {
    type Tree<'a> = FValue;
    const INFO: Info = Info {
        name: "fastnbt",
        krate: "fastnbt",
        version: "2.6.3",
        nightly: false,
        order: Order::Unordered,
        notes: "serde: `from_bytes::<fastnbt::Value>`; compounds are `HashMap`s (order lost, \
                duplicates collapse; written in hash order). Strings decoded from Java CESU-8 into \
                `String`; arrays converted to native Vecs. Lists are `Vec<Value>`: an empty list \
                loses its element type. The root name is dropped (its writer writes an empty one).",
    };

    fn parse(input: &[u8]) -> Result<FValue, String> {
        ::fastnbt::from_bytes::<FValue>(input).map_err(|e| e.to_string())
    }

    fn write(v: &FValue) -> Result<Vec<u8>, String> {
        ::fastnbt::to_bytes(v).map_err(|e| e.to_string())
    }

    fn visit(v: &FValue) {
        visit_value(v);
    }

    fn to_canonical(v: &FValue) -> Result<Doc, String> {
        Ok(Doc::unnamed(from_fastnbt(v)))
    }

    const EDITS: bool = true;

    fn edit(v: &mut FValue, script: &EditScript) -> Result<(), String> {
        let FValue::Compound(root) = v else {
            return Err("the root is not a compound".into());
        };
        for (path, value) in &script.changes {
            let (c, key) = parent(root, path)?;
            *c.get_mut(key).ok_or("no such key")? = leaf(value)?;
        }
        for path in &script.removes {
            let (c, key) = parent(root, path)?;
            c.remove(key);
        }
        for (key, value) in &script.inserts {
            root.insert(key.clone(), leaf(value)?);
        }
        Ok(())
    }
}

type Map = HashMap<String, FValue>;

/// The compound holding the value at `path`, and the value's key.
fn parent<'c>(root: &'c mut Map, path: &'c [Step]) -> Result<(&'c mut Map, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        c = match (c.get_mut(key.as_str()).ok_or("no such key")?, rest) {
            (FValue::Compound(inner), _) => {
                steps = rest;
                inner
            }
            (FValue::List(v), [Step::Index(i), rest @ ..]) => {
                steps = rest;
                match v.get_mut(*i).ok_or("no such element")? {
                    FValue::Compound(inner) => inner,
                    _ => return Err("not a compound".into()),
                }
            }
            _ => return Err("the path leads nowhere".into()),
        };
    }
    Ok((c, last.key()?))
}

/// fastnbt's value of an edit's value (numbers and strings).
fn leaf(v: &Value) -> Result<FValue, String> {
    Ok(match v {
        Value::Byte(x) => FValue::Byte(*x),
        Value::Short(x) => FValue::Short(*x),
        Value::Int(x) => FValue::Int(*x),
        Value::Long(x) => FValue::Long(*x),
        Value::Float(bits) => FValue::Float(f32::from_bits(*bits)),
        Value::Double(bits) => FValue::Double(f64::from_bits(*bits)),
        Value::String(s) => FValue::String(s.clone()),
        other => return Err(format!("not an edit value: {other:?}")),
    })
}

fn visit_value(v: &FValue) {
    match v {
        FValue::String(s) => sink(s.as_str()),
        FValue::ByteArray(a) => sink(&a[..]),
        FValue::IntArray(a) => sink(&a[..]),
        FValue::LongArray(a) => sink(&a[..]),
        FValue::List(l) => l.iter().for_each(visit_value),
        FValue::Compound(c) => c.iter().for_each(|(k, v)| {
            sink(k.as_str());
            visit_value(v)
        }),
        other => sink(other),
    }
}
