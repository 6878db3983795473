//! shen-nbt5 0.4: one owned `NbtValue` enum, everything decoded while parsing.

use ::shen_nbt5::{NbtValue, nbt_version::Java};

use crate::adapter::{Adapter, Bench, Info, edit_bench_with, sink};
use crate::edit_workload::{EditScript, Step};
use testkit::{Doc, List, Order, Value};

/// shen-nbt5's `NbtValue`.
pub struct Shen;

impl Adapter for Shen {
    type Tree<'a> = NbtValue;
    const INFO: Info = Info {
        name: "shen",
        krate: "shen-nbt5",
        version: "0.4.6",
        nightly: false,
        order: Order::Exact,
        notes: "Owned tree built in one pass; strings are decoded as plain UTF-8 with \
                `from_utf8_lossy`, NOT MUTF-8 (so `C0 80` and 6-byte supplementary characters \
                become U+FFFD, and its writer emits UTF-8); arrays converted to native Vecs. Lists \
                are `Vec<NbtValue>`: an empty list loses its element type and is written as End. \
                Keeps order and duplicates. Needs the input as `&mut [u8]` (the bench copies it once, \
                untimed). Bounds are checked by indexing, so truncated input panics rather than \
                erroring; no depth limit.",
    };

    fn parse(input: &[u8]) -> Result<NbtValue, String> {
        // `from_binary` takes `&mut [u8]` (it does not modify it); untimed callers can
        // afford the copy, the benches below copy once per input instead.
        NbtValue::from_binary::<Java>(&mut input.to_vec()).map_err(|e| e.to_string())
    }

    fn write(v: &NbtValue) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let _ = v.write_to::<Java>(&mut out);
        Ok(out)
    }

    fn visit(v: &NbtValue) {
        visit_value(v);
    }

    fn to_canonical(v: &NbtValue) -> Result<Doc, String> {
        match v {
            NbtValue::Compound(name, entries) => Ok(Doc {
                name: name.clone(),
                root: Value::Compound(compound(entries)),
            }),
            _ => Err("root is not a compound".into()),
        }
    }

    fn read_bench(input: &[u8]) -> Bench<'_> {
        let mut buf = input.to_vec();
        Box::new(move || {
            sink(NbtValue::from_binary::<Java>(std::hint::black_box(
                &mut buf,
            )));
        })
    }

    fn decode_all_bench(input: &[u8]) -> Bench<'_> {
        let mut buf = input.to_vec();
        Box::new(move || {
            if let Ok(v) = NbtValue::from_binary::<Java>(std::hint::black_box(&mut buf)) {
                visit_value(&v);
            }
        })
    }

    const EDITS: bool = true;

    /// Compounds are `Vec`s of entries in one public enum: a change or removal
    /// finds its key by a linear scan, an insert pushes.
    fn edit(v: &mut NbtValue, script: &EditScript) -> Result<(), String> {
        let NbtValue::Compound(_, root) = v else {
            return Err("the root is not a compound".into());
        };
        for (path, value) in &script.changes {
            let (c, key) = parent(root, path)?;
            *entry(c, key)? = leaf(value)?;
        }
        for path in &script.removes {
            let (c, key) = parent(root, path)?;
            let i = c.iter().position(|(k, _)| k == key).ok_or("no such key")?;
            c.remove(i);
        }
        for (key, value) in &script.inserts {
            root.push((key.clone(), leaf(value)?));
        }
        Ok(())
    }

    /// As the `read` bench: the input is copied once (untimed) into the
    /// `&mut [u8]` the parser takes.
    fn edit_bench(input: &[u8]) -> Result<Bench<'_>, String> {
        let mut buf = input.to_vec();
        edit_bench_with::<Self>(input, move || {
            NbtValue::from_binary::<Java>(std::hint::black_box(&mut buf)).map_err(|e| e.to_string())
        })
    }
}

type Entries = Vec<(String, NbtValue)>;

/// The value of `key` in `c`.
fn entry<'c>(c: &'c mut Entries, key: &str) -> Result<&'c mut NbtValue, String> {
    c.iter_mut()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .ok_or_else(|| "no such key".into())
}

/// The compound holding the value at `path`, and the value's key.
fn parent<'c>(
    root: &'c mut Entries,
    path: &'c [Step],
) -> Result<(&'c mut Entries, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        c = match (entry(c, key)?, rest) {
            (NbtValue::Compound(_, inner), _) => {
                steps = rest;
                inner
            }
            (NbtValue::List(l), [Step::Index(i), rest @ ..]) => {
                steps = rest;
                match l.get_mut(*i).ok_or("no such element")? {
                    NbtValue::Compound(_, inner) => inner,
                    _ => return Err("not a compound".into()),
                }
            }
            _ => return Err("the path leads nowhere".into()),
        };
    }
    Ok((c, last.key()?))
}

/// shen's value of an edit's value (numbers and strings).
fn leaf(v: &Value) -> Result<NbtValue, String> {
    Ok(match v {
        Value::Byte(x) => NbtValue::Byte(*x),
        Value::Short(x) => NbtValue::Short(*x),
        Value::Int(x) => NbtValue::Int(*x),
        Value::Long(x) => NbtValue::Long(*x),
        Value::Float(bits) => NbtValue::Float(f32::from_bits(*bits)),
        Value::Double(bits) => NbtValue::Double(f64::from_bits(*bits)),
        Value::String(s) => NbtValue::String(s.clone()),
        other => return Err(format!("not an edit value: {other:?}")),
    })
}

/// Everything is already decoded: touch every string and array.
fn visit_value(v: &NbtValue) {
    match v {
        NbtValue::String(s) => sink(s.as_str()),
        NbtValue::ByteArray(a) => sink(a.as_slice()),
        NbtValue::IntArray(a) => sink(a.as_slice()),
        NbtValue::LongArray(a) => sink(a.as_slice()),
        NbtValue::List(l) => l.iter().for_each(visit_value),
        NbtValue::Compound(_, c) => c.iter().for_each(|(k, v)| {
            sink(k.as_str());
            visit_value(v)
        }),
        other => sink(other),
    }
}

fn compound(entries: &[(String, NbtValue)]) -> Vec<(String, Value)> {
    entries.iter().map(|(k, v)| (k.clone(), value(v))).collect()
}

fn value(v: &NbtValue) -> Value {
    match v {
        NbtValue::Byte(x) => Value::Byte(*x),
        NbtValue::Short(x) => Value::Short(*x),
        NbtValue::Int(x) => Value::Int(*x),
        NbtValue::Long(x) => Value::Long(*x),
        NbtValue::Float(x) => Value::float(*x),
        NbtValue::Double(x) => Value::double(*x),
        NbtValue::ByteArray(a) => Value::byte_array_i8(a),
        NbtValue::String(s) => Value::String(s.clone()),
        NbtValue::List(l) => Value::List(List::untyped(l.iter().map(value).collect())),
        NbtValue::Compound(_, c) => Value::Compound(compound(c)),
        NbtValue::IntArray(a) => Value::IntArray(a.clone()),
        NbtValue::LongArray(a) => Value::LongArray(a.clone()),
    }
}
