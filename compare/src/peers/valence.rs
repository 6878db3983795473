//! valence_nbt 0.8 (`binary` feature): owned `Compound` (BTreeMap without `preserve_order`).

use ::valence_nbt::{Compound, List as VList, Value as VValue, from_binary, to_binary};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditScript, Step};
use testkit::peers::from_valence;
use testkit::{Doc, Order, Value};

type Parsed = (Compound<String>, String);

/// valence_nbt's `Compound` and root name.
pub struct Valence;

impl Adapter for Valence {
    type Tree<'a> = Parsed;
    const INFO: Info = Info {
        name: "valence",
        krate: "valence_nbt",
        version: "0.8.0",
        nightly: false,
        order: Order::Unordered,
        notes: "Owned tree; compounds are BTreeMaps (default features, as in the upstream \
                benchmark), so keys come back sorted and a duplicate key replaces the earlier one. \
                Strings decoded from Java CESU-8 into `String` (invalid data is an error); arrays \
                and primitive lists converted to native Vecs. Lists are typed enums: empty lists \
                keep their element type. Depth limit 512.",
    };

    fn parse(input: &[u8]) -> Result<Parsed, String> {
        from_binary::<String>(&mut &input[..]).map_err(|e| e.to_string())
    }

    fn write((c, name): &Parsed) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let _ = to_binary(c, &mut out, name);
        Ok(out)
    }

    fn visit((c, name): &Parsed) {
        sink(name.as_str());
        visit_compound(c);
    }

    fn to_canonical((c, name): &Parsed) -> Result<Doc, String> {
        Ok(Doc::named(name.clone(), Value::Compound(from_valence(c))))
    }

    const EDITS: bool = true;

    fn edit((root, _): &mut Parsed, script: &EditScript) -> Result<(), String> {
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

/// The compound holding the value at `path`, and the value's key.
fn parent<'c>(
    root: &'c mut Compound<String>,
    path: &'c [Step],
) -> Result<(&'c mut Compound<String>, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        c = match (c.get_mut(key.as_str()).ok_or("no such key")?, rest) {
            (VValue::Compound(inner), _) => {
                steps = rest;
                inner
            }
            (VValue::List(VList::Compound(v)), [Step::Index(i), rest @ ..]) => {
                steps = rest;
                v.get_mut(*i).ok_or("no such element")?
            }
            _ => return Err("the path leads nowhere".into()),
        };
    }
    Ok((c, last.key()?))
}

/// valence's value of an edit's value (numbers and strings).
fn leaf(v: &Value) -> Result<VValue<String>, String> {
    Ok(match v {
        Value::Byte(x) => VValue::Byte(*x),
        Value::Short(x) => VValue::Short(*x),
        Value::Int(x) => VValue::Int(*x),
        Value::Long(x) => VValue::Long(*x),
        Value::Float(bits) => VValue::Float(f32::from_bits(*bits)),
        Value::Double(bits) => VValue::Double(f64::from_bits(*bits)),
        Value::String(s) => VValue::String(s.clone()),
        other => return Err(format!("not an edit value: {other:?}")),
    })
}

fn visit_compound(c: &Compound<String>) {
    for (k, v) in c.iter() {
        sink(k.as_str());
        visit(v);
    }
}

fn visit(v: &VValue<String>) {
    match v {
        VValue::String(s) => sink(s.as_str()),
        VValue::ByteArray(a) => sink(a.as_slice()),
        VValue::IntArray(a) => sink(a.as_slice()),
        VValue::LongArray(a) => sink(a.as_slice()),
        VValue::List(l) => visit_list(l),
        VValue::Compound(c) => visit_compound(c),
        other => sink(other),
    }
}

fn visit_list(l: &VList<String>) {
    match l {
        VList::String(v) => v.iter().for_each(|s| sink(s.as_str())),
        VList::List(v) => v.iter().for_each(visit_list),
        VList::Compound(v) => v.iter().for_each(visit_compound),
        other => sink(other),
    }
}
