//! valence_nbt 0.8 (`binary` feature): owned `Compound` (BTreeMap without `preserve_order`).

use ::valence_nbt::{from_binary, to_binary, Compound, List as VList, Value as VValue};

use super::{parse_bench, sink, write_bench, Peer};
use testkit::peers::from_valence;
use testkit::{Doc, Order, Value};

type Parsed = (Compound<String>, String);

fn parse(input: &[u8]) -> Result<Parsed, String> {
    from_binary::<String>(&mut &input[..]).map_err(|e| e.to_string())
}

fn write(p: &Parsed) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = to_binary(&p.0, &mut out, &p.1);
    out
}

pub const PEER: Peer = Peer {
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
    validate: |input| parse(input).map(drop),
    read: |input| parse_bench(input, |mut i| from_binary::<String>(&mut i)),
    write: Some(|input| Ok(write_bench(parse(input)?, write))),
    decode_all: Some(|input| {
        Box::new(move || {
            if let Ok((c, name)) = from_binary::<String>(&mut std::hint::black_box(input)) {
                sink(name.as_str());
                visit_compound(&c);
            }
        })
    }),
    to_canonical: |input| {
        let (c, name) = parse(input)?;
        Ok(Doc::named(name, Value::Compound(from_valence(&c))))
    },
    write_bytes: Some(|input| Ok(write(&parse(input)?))),
};

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
