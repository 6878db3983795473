//! fastnbt 2.6: serde deserializer into the dynamic `fastnbt::Value`.

use ::fastnbt::Value as FValue;

use std::collections::HashMap;

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
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

    const EDITS: bool = true;

    fn edit(v: &mut FValue, script: &EditScript) -> Result<(), String> {
        match v {
            FValue::Compound(root) => script.edit(root),
            _ => Err("the root is not a compound".into()),
        }
    }
}

impl EditCompound for HashMap<String, FValue> {
    type Tag = FValue;
    fn entry(&mut self, key: &str) -> Option<&mut FValue> {
        self.get_mut(key)
    }
    fn compound(tag: &mut FValue) -> Option<&mut Self> {
        match tag {
            FValue::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut FValue, i: usize) -> Option<&mut Self> {
        match tag {
            FValue::List(l) => Self::compound(l.get_mut(i)?),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        HashMap::remove(self, key).is_some()
    }
    fn insert(&mut self, key: &str, tag: FValue) {
        HashMap::insert(self, key.to_owned(), tag);
    }
    plain_leaf!(FValue);
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
