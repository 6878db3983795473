//! fastnbt 2.6: serde deserializer into the dynamic `fastnbt::Value`.

use ::fastnbt::Value as FValue;

use crate::adapter::{Adapter, Info, sink};
use testkit::peers::from_fastnbt;
use testkit::{Doc, Order};

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
