//! shen-nbt5 0.4: one owned `NbtValue` enum, everything decoded while parsing.

use ::shen_nbt5::{NbtValue, nbt_version::Java};

use crate::adapter::{Adapter, Bench, Info, edit_bench_with, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
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
        match v {
            NbtValue::Compound(_, root) => script.edit(root),
            _ => Err("the root is not a compound".into()),
        }
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

impl EditCompound for Vec<(String, NbtValue)> {
    type Tag = NbtValue;
    fn entry(&mut self, key: &str) -> Option<&mut NbtValue> {
        self.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    fn compound(tag: &mut NbtValue) -> Option<&mut Self> {
        match tag {
            NbtValue::Compound(_, c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut NbtValue, i: usize) -> Option<&mut Self> {
        match tag {
            NbtValue::List(l) => Self::compound(l.get_mut(i)?),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        let i = self.iter().position(|(k, _)| k == key);
        i.map(|i| Vec::remove(self, i)).is_some()
    }
    fn insert(&mut self, key: &str, tag: NbtValue) {
        self.push((key.to_owned(), tag));
    }
    plain_leaf!(NbtValue);
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
