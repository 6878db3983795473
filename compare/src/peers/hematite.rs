//! hematite-nbt 0.5 (crate `nbt`, default features off): `Blob` of `HashMap` compounds.

use ::nbt::{Blob, Value as HValue};

use crate::adapter::{Adapter, Bench, Info, sink};
use testkit::{Doc, List, Order, Value};

/// `Blob` hides its name and entries, so the canonical value reads the same payload
/// with `nbt::Value::from_reader` (what `Blob::from_reader` itself calls) after the header.
fn root_value(input: &[u8]) -> Result<HValue, String> {
    if input.len() < 3 || input[0] != 10 {
        return Err("root is not a compound".into());
    }
    let name_len = u16::from_be_bytes([input[1], input[2]]) as usize;
    let mut rest = input.get(3 + name_len..).ok_or("truncated root name")?;
    HValue::from_reader(10, &mut rest).map_err(|e| e.to_string())
}

/// hematite's `Blob`, and the input (the `Blob` hides its entries: see [`root_value`]).
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
                No depth limit. The root name is kept but not exposed.",
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
