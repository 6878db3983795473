//! hematite-nbt 0.5 (crate `nbt`, default features off): `Blob` of `HashMap` compounds.

use ::nbt::{Blob, Map, Value as HValue};

use crate::adapter::{Adapter, Bench, Info, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
use testkit::{Doc, List, Order, Value};

/// The input split after the root header (tag id and name), which hematite's
/// `Value` API does not read or write (its `raw` module is private).
fn split_header(input: &[u8]) -> Result<(&[u8], &[u8]), String> {
    if input.len() < 3 || input[0] != 10 {
        return Err("root is not a compound".into());
    }
    let name_len = u16::from_be_bytes([input[1], input[2]]) as usize;
    if input.len() < 3 + name_len {
        return Err("truncated root name".into());
    }
    Ok(input.split_at(3 + name_len))
}

/// `Blob` hides its name and entries, so the canonical value reads the same payload
/// with `nbt::Value::from_reader` (what `Blob::from_reader` itself calls) after the header.
fn root_value(input: &[u8]) -> Result<HValue, String> {
    let (_, mut rest) = split_header(input)?;
    HValue::from_reader(10, &mut rest).map_err(|e| e.to_string())
}

/// hematite's `Blob`, and the input (the `Blob` hides its entries: see [`root_value`]).
/// Its edit workload runs on [`HematiteValue`]: `Blob` can only `insert` into
/// the root (no `get_mut`, no `remove`).
pub struct Hematite;

impl Adapter for Hematite {
    type Tree<'a> = (Blob, &'a [u8]);
    const INFO: Info = Info {
        name: "hematite",
        krate: "hematite-nbt",
        version: "0.5.2",
        nightly: false,
        order: Order::Unordered,
        notes: "Owned tree read through `io::Read` with per-field reads; compounds are \
                `HashMap`s (order lost, a duplicate key replaces the earlier one; written back in \
                hash order). Strings decoded from Java CESU-8 into `String`; arrays converted to \
                native Vecs. Lists are `Vec<Value>`: an empty list loses its element type. \
                No depth limit. The root name is kept but not exposed. The edit workload runs \
                on its `Value` tree (`Blob` has no `get_mut` or `remove`).",
    };

    fn parse(input: &[u8]) -> Result<(Blob, &[u8]), String> {
        Blob::from_reader(&mut &input[..])
            .map(|b| (b, input))
            .map_err(|e| e.to_string())
    }

    fn write((b, _): &(Blob, &[u8])) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let _ = b.to_writer(&mut out);
        Ok(out)
    }

    fn visit((_, input): &(Blob, &[u8])) {
        if let Ok(v) = root_value(input) {
            visit_value(&v);
        }
    }

    fn to_canonical((_, input): &(Blob, &[u8])) -> Result<Doc, String> {
        Ok(Doc::unnamed(value(&root_value(input)?)))
    }

    /// Times only the `Value` read (`Blob::from_reader` hides what it read).
    fn decode_all_bench(input: &[u8]) -> Bench<'_> {
        Box::new(move || {
            if let Ok(v) = root_value(std::hint::black_box(input)) {
                visit_value(&v);
            }
        })
    }
}

/// hematite's mutable tree: the root compound as a `Value` (its `Compound` is
/// a public `HashMap`) and the input's root header, copied back verbatim on
/// write (the `Value` API reads and writes payloads only). Used only for
/// the edit workload of [`Hematite`] (`Peer::edits_with`); the read it times
/// is `Blob::from_reader`'s own work minus decoding the root name.
pub struct HematiteValue;

impl Adapter for HematiteValue {
    type Tree<'a> = (HValue, &'a [u8]);
    const INFO: Info = Hematite::INFO;
    const VISITS: bool = false;
    const EDITS: bool = true;

    fn parse(input: &[u8]) -> Result<(HValue, &[u8]), String> {
        let (header, mut rest) = split_header(input)?;
        let v = HValue::from_reader(10, &mut rest).map_err(|e| e.to_string())?;
        Ok((v, header))
    }

    fn write((v, header): &(HValue, &[u8])) -> Result<Vec<u8>, String> {
        let mut out = header.to_vec();
        v.to_writer(&mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// Never called (`VISITS` is false): [`Hematite`] measures decode_all.
    fn visit(_: &(HValue, &[u8])) {}

    fn to_canonical((v, _): &(HValue, &[u8])) -> Result<Doc, String> {
        Ok(Doc::unnamed(value(v)))
    }

    fn edit((v, _): &mut (HValue, &[u8]), script: &EditScript) -> Result<(), String> {
        match v {
            HValue::Compound(root) => script.edit(root),
            _ => Err("the root is not a compound".into()),
        }
    }
}

impl EditCompound for Map<String, HValue> {
    type Tag = HValue;
    fn entry(&mut self, key: &str) -> Option<&mut HValue> {
        self.get_mut(key)
    }
    fn compound(tag: &mut HValue) -> Option<&mut Self> {
        match tag {
            HValue::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut HValue, i: usize) -> Option<&mut Self> {
        match tag {
            HValue::List(l) => Self::compound(l.get_mut(i)?),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        Map::remove(self, key).is_some()
    }
    fn insert(&mut self, key: &str, tag: HValue) {
        Map::insert(self, key.to_owned(), tag);
    }
    plain_leaf!(HValue);
}

fn visit_value(v: &HValue) {
    match v {
        HValue::String(s) => sink(s.as_str()),
        HValue::ByteArray(a) => sink(a.as_slice()),
        HValue::IntArray(a) => sink(a.as_slice()),
        HValue::LongArray(a) => sink(a.as_slice()),
        HValue::List(l) => l.iter().for_each(visit_value),
        HValue::Compound(c) => c.iter().for_each(|(k, v)| {
            sink(k.as_str());
            visit_value(v)
        }),
        other => sink(other),
    }
}

fn value(v: &HValue) -> Value {
    match v {
        HValue::Byte(x) => Value::Byte(*x),
        HValue::Short(x) => Value::Short(*x),
        HValue::Int(x) => Value::Int(*x),
        HValue::Long(x) => Value::Long(*x),
        HValue::Float(x) => Value::float(*x),
        HValue::Double(x) => Value::double(*x),
        HValue::ByteArray(a) => Value::byte_array_i8(a),
        HValue::String(s) => Value::String(s.clone()),
        HValue::List(l) => Value::List(List::untyped(l.iter().map(value).collect())),
        HValue::Compound(c) => {
            Value::Compound(c.iter().map(|(k, v)| (k.clone(), value(v))).collect())
        }
        HValue::IntArray(a) => Value::IntArray(a.clone()),
        HValue::LongArray(a) => Value::LongArray(a.clone()),
    }
}
