//! fastnbt 2.6: serde deserializer into the dynamic `fastnbt::Value`.

use ::fastnbt::Value as FValue;

use super::{parse_bench, sink, write_bench, Peer};
use testkit::peers::from_fastnbt;
use testkit::{Doc, Order};

fn parse(input: &[u8]) -> Result<FValue, String> {
    ::fastnbt::from_bytes::<FValue>(input).map_err(|e| e.to_string())
}

fn write(v: &FValue) -> Vec<u8> {
    ::fastnbt::to_bytes(v).unwrap_or_default()
}

pub const PEER: Peer = Peer {
    name: "fastnbt",
    krate: "fastnbt",
    version: "2.6.3",
    nightly: false,
    order: Order::Unordered,
    notes: "serde: `from_bytes::<fastnbt::Value>`; compounds are `HashMap`s (order lost, \
            duplicates collapse; written in hash order). Strings decoded from Java CESU-8 into \
            `String`; arrays converted to native Vecs. Lists are `Vec<Value>`: an empty list \
            loses its element type. The root name is dropped (its writer writes an empty one).",
    validate: |input| parse(input).map(drop),
    read: |input| parse_bench(input, ::fastnbt::from_bytes::<FValue>),
    write: Some(|input| Ok(write_bench(parse(input)?, write))),
    decode_all: Some(|input| {
        Box::new(move || {
            if let Ok(v) = ::fastnbt::from_bytes::<FValue>(std::hint::black_box(input)) {
                visit(&v);
            }
        })
    }),
    to_canonical: |input| Ok(Doc::unnamed(from_fastnbt(&parse(input)?))),
    write_bytes: Some(|input| ::fastnbt::to_bytes(&parse(input)?).map_err(|e| e.to_string())),
};

fn visit(v: &FValue) {
    match v {
        FValue::String(s) => sink(s.as_str()),
        FValue::ByteArray(a) => sink(&a[..]),
        FValue::IntArray(a) => sink(&a[..]),
        FValue::LongArray(a) => sink(&a[..]),
        FValue::List(l) => l.iter().for_each(visit),
        FValue::Compound(c) => c.iter().for_each(|(k, v)| {
            sink(k.as_str());
            visit(v)
        }),
        other => sink(other),
    }
}
