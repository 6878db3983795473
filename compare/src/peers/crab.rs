//! crab_nbt 0.2: owned `Nbt { name, root_tag }` with Vec-backed compounds.

use ::crab_nbt::{Nbt, NbtCompound, NbtTag};

use super::{parse_bench, sink, write_bench, Peer};
use testkit::{Doc, List, Order, Value};

fn parse(input: &[u8]) -> Result<Nbt, String> {
    Nbt::read(&mut &input[..]).map_err(|e| e.to_string())
}

fn write(n: &Nbt) -> Vec<u8> {
    n.write().to_vec()
}

pub const PEER: Peer = Peer {
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
    validate: |input| parse(input).map(drop),
    read: |input| parse_bench(input, |mut i| Nbt::read(&mut i)),
    write: Some(|input| Ok(write_bench(parse(input)?, write))),
    decode_all: Some(|input| {
        Box::new(move || {
            if let Ok(n) = Nbt::read(&mut std::hint::black_box(input)) {
                sink(n.name.as_str());
                visit_compound(&n.root_tag);
            }
        })
    }),
    to_canonical: |input| {
        let n = parse(input)?;
        Ok(Doc::named(n.name.clone(), Value::Compound(compound(&n.root_tag))))
    },
    write_bytes: Some(|input| Ok(write(&parse(input)?))),
};

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
