//! valence_nbt 0.8 (`binary` feature): owned `Compound` (BTreeMap without `preserve_order`).

use ::valence_nbt::{Compound, List as VList, Value as VValue, from_binary, to_binary};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditCompound, EditScript, plain_leaf};
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
        script.edit(root)
    }
}

impl EditCompound for Compound<String> {
    type Tag = VValue<String>;
    fn entry(&mut self, key: &str) -> Option<&mut VValue<String>> {
        self.get_mut(key)
    }
    fn compound(tag: &mut VValue<String>) -> Option<&mut Self> {
        match tag {
            VValue::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut VValue<String>, i: usize) -> Option<&mut Self> {
        match tag {
            VValue::List(VList::Compound(l)) => l.get_mut(i),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        Compound::remove(self, key).is_some()
    }
    fn insert(&mut self, key: &str, tag: VValue<String>) {
        Compound::insert(self, key.to_owned(), tag);
    }
    plain_leaf!(VValue);
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
