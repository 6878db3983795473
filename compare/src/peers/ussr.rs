//! ussr-nbt 0.2: a borrowed tree of slices into the input, and an owned tree.

use ::ussr_nbt::mutf8::{MString, mstr};
use ::ussr_nbt::{borrow, owned};

use crate::adapter::{Adapter, Info, sink};
use crate::edit_workload::{EditCompound, EditScript};
use testkit::mutf8::lossy;
use testkit::{Doc, List, Order, Value};

const ERR: fn(::ussr_nbt::NbtReadError) -> String = |e| e.to_string();

/// ussr-nbt's borrowed tree. No edit workload: its keys, strings and arrays
/// are `&'a` slices of the input, so a number changes in place but every new
/// key or string (5 inserted keys, changed strings) has to be borrowed from
/// storage the caller keeps beside the input for the tree's whole life; the
/// library has no owned variant in `borrow::Tag`. Its mutable tree is the
/// owned one ([`Owned`], `ussr_owned`), which has the edit workload.
pub struct Borrow;

impl Adapter for Borrow {
    type Tree<'a> = borrow::Nbt<'a>;
    const INFO: Info = Info {
        name: "ussr_borrow",
        krate: "ussr-nbt",
        version: "0.2.1",
        nightly: false,
        order: Order::Exact,
        notes: "Borrowed tree (Vec of entries per compound) whose strings, byte arrays and \
                numeric arrays/lists are slices of the input: no MUTF-8 validation or decoding, \
                no byte-order conversion while parsing. Keeps order and duplicates. An empty list \
                becomes `List::Empty` (element type lost; written back as End). Default depth \
                limit 128. Root must be a compound.",
    };

    fn parse(input: &[u8]) -> Result<borrow::Nbt<'_>, String> {
        borrow::Nbt::read(&mut &input[..]).map_err(ERR)
    }

    fn write(n: &borrow::Nbt<'_>) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        n.write(&mut out);
        Ok(out)
    }

    fn visit(n: &borrow::Nbt<'_>) {
        sink(n.name.decode());
        visit_borrow_compound(&n.compound);
    }

    fn to_canonical(n: &borrow::Nbt<'_>) -> Result<Doc, String> {
        Ok(Doc::named(
            lossy(n.name.as_bytes()),
            Value::Compound(canon_borrow_compound(&n.compound)),
        ))
    }
}

/// ussr-nbt's owned tree.
pub struct Owned;

impl Adapter for Owned {
    type Tree<'a> = owned::Nbt;
    const INFO: Info = Info {
        name: "ussr_owned",
        krate: "ussr-nbt",
        version: "0.2.1",
        nightly: false,
        order: Order::Exact,
        notes: "Owned tree read from any `io::Read`: strings copied as raw MUTF-8 (not decoded), \
                numeric arrays and lists copied as raw big-endian bytes (`RawVec`, converted on \
                request). Keeps order and duplicates; empty lists become `List::Empty` (type lost). \
                Default depth limit 128.",
    };

    fn parse(input: &[u8]) -> Result<owned::Nbt, String> {
        owned::Nbt::read(&mut &input[..]).map_err(ERR)
    }

    fn write(n: &owned::Nbt) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        n.write(&mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn visit(n: &owned::Nbt) {
        sink(n.name.decode());
        visit_owned_compound(&n.compound);
    }

    fn to_canonical(n: &owned::Nbt) -> Result<Doc, String> {
        Ok(Doc::named(
            lossy(n.name.as_bytes()),
            Value::Compound(canon_owned_compound(&n.compound)),
        ))
    }

    const EDITS: bool = true;

    /// Compounds are a public `Vec` of (raw MUTF-8 key, tag): a change or
    /// removal finds its key by comparing bytes with the key encoded by
    /// `mstr::from_string`; new keys and strings are encoded by `MString::from`.
    fn edit(n: &mut owned::Nbt, script: &EditScript) -> Result<(), String> {
        script.edit(&mut n.compound)
    }
}

impl EditCompound for owned::Compound {
    type Tag = owned::Tag;
    fn entry(&mut self, key: &str) -> Option<&mut owned::Tag> {
        let key = mstr::from_string(key);
        self.tags
            .iter_mut()
            .find(|(k, _)| k.as_bytes() == key.as_bytes())
            .map(|(_, v)| v)
    }
    fn compound(tag: &mut owned::Tag) -> Option<&mut Self> {
        match tag {
            owned::Tag::Compound(c) => Some(c),
            _ => None,
        }
    }
    fn element(tag: &mut owned::Tag, i: usize) -> Option<&mut Self> {
        match tag {
            owned::Tag::List(owned::List::Compound(l)) => l.get_mut(i),
            _ => None,
        }
    }
    fn remove(&mut self, key: &str) -> bool {
        let key = mstr::from_string(key);
        let i = self
            .tags
            .iter()
            .position(|(k, _)| k.as_bytes() == key.as_bytes());
        i.map(|i| self.tags.remove(i)).is_some()
    }
    fn insert(&mut self, key: &str, tag: owned::Tag) {
        self.tags.push((MString::from(key), tag));
    }
    /// A Byte is `u8` and a string raw MUTF-8 in ussr's tags.
    fn leaf(v: &Value) -> Result<owned::Tag, String> {
        Ok(match v {
            Value::Byte(x) => owned::Tag::Byte(*x as u8),
            Value::Short(x) => owned::Tag::Short(*x),
            Value::Int(x) => owned::Tag::Int(*x),
            Value::Long(x) => owned::Tag::Long(*x),
            Value::Float(bits) => owned::Tag::Float(f32::from_bits(*bits)),
            Value::Double(bits) => owned::Tag::Double(f64::from_bits(*bits)),
            Value::String(s) => owned::Tag::String(MString::from(s.as_str())),
            other => return Err(format!("not an edit value: {other:?}")),
        })
    }
}

fn visit_borrow_compound(c: &borrow::Compound<'_>) {
    for (k, t) in &c.tags {
        sink(k.decode());
        match t {
            borrow::Tag::String(s) => sink(s.decode()),
            borrow::Tag::ByteArray(a) => sink(*a),
            borrow::Tag::IntArray(a) => sink(a.to_slice()),
            borrow::Tag::LongArray(a) => sink(a.to_slice()),
            borrow::Tag::List(l) => visit_borrow_list(l),
            borrow::Tag::Compound(c) => visit_borrow_compound(c),
            other => sink(other),
        }
    }
}

fn visit_borrow_list(l: &borrow::List<'_>) {
    match l {
        borrow::List::Empty => {}
        borrow::List::Byte(v) => sink(*v),
        borrow::List::Short(v) => sink(v.to_slice()),
        borrow::List::Int(v) => sink(v.to_slice()),
        borrow::List::Long(v) => sink(v.to_slice()),
        borrow::List::Float(v) => sink(v.to_slice()),
        borrow::List::Double(v) => sink(v.to_slice()),
        borrow::List::ByteArray(v) => sink(v),
        borrow::List::String(v) => v.iter().for_each(|s| sink(s.decode())),
        borrow::List::List(v) => v.iter().for_each(visit_borrow_list),
        borrow::List::Compound(v) => v.iter().for_each(visit_borrow_compound),
        borrow::List::IntArray(v) => v.iter().for_each(|a| sink(a.to_slice())),
        borrow::List::LongArray(v) => v.iter().for_each(|a| sink(a.to_slice())),
    }
}

fn visit_owned_compound(c: &owned::Compound) {
    for (k, t) in &c.tags {
        sink(k.decode());
        match t {
            owned::Tag::String(s) => sink(s.decode()),
            owned::Tag::ByteArray(a) => sink(a),
            owned::Tag::IntArray(a) => sink(a.to_vec()),
            owned::Tag::LongArray(a) => sink(a.to_vec()),
            owned::Tag::List(l) => visit_owned_list(l),
            owned::Tag::Compound(c) => visit_owned_compound(c),
            other => sink(other),
        }
    }
}

fn visit_owned_list(l: &owned::List) {
    match l {
        owned::List::Empty => {}
        owned::List::Byte(v) => sink(v),
        owned::List::Short(v) => sink(v.to_vec()),
        owned::List::Int(v) => sink(v.to_vec()),
        owned::List::Long(v) => sink(v.to_vec()),
        owned::List::Float(v) => sink(v.to_vec()),
        owned::List::Double(v) => sink(v.to_vec()),
        owned::List::ByteArray(v) => sink(v),
        owned::List::String(v) => v.iter().for_each(|s| sink(s.decode())),
        owned::List::List(v) => v.iter().for_each(visit_owned_list),
        owned::List::Compound(v) => v.iter().for_each(visit_owned_compound),
        owned::List::IntArray(v) => v.iter().for_each(|a| sink(a.to_vec())),
        owned::List::LongArray(v) => v.iter().for_each(|a| sink(a.to_vec())),
    }
}

fn canon_borrow_compound(c: &borrow::Compound<'_>) -> Vec<(String, Value)> {
    c.tags
        .iter()
        .map(|(k, t)| {
            let v = match t {
                borrow::Tag::Byte(b) => Value::Byte(*b as i8),
                borrow::Tag::Short(b) => Value::Short(*b),
                borrow::Tag::Int(b) => Value::Int(*b),
                borrow::Tag::Long(b) => Value::Long(*b),
                borrow::Tag::Float(b) => Value::float(*b),
                borrow::Tag::Double(b) => Value::double(*b),
                borrow::Tag::ByteArray(a) => Value::ByteArray(a.to_vec()),
                borrow::Tag::String(s) => Value::String(lossy(s.as_bytes())),
                borrow::Tag::List(l) => Value::List(canon_borrow_list(l)),
                borrow::Tag::Compound(c) => Value::Compound(canon_borrow_compound(c)),
                borrow::Tag::IntArray(a) => Value::IntArray(a.to_slice().into_owned()),
                borrow::Tag::LongArray(a) => Value::LongArray(a.to_slice().into_owned()),
            };
            (lossy(k.as_bytes()), v)
        })
        .collect()
}

fn canon_borrow_list(l: &borrow::List<'_>) -> List {
    use borrow::List as L;
    let (id, items): (u8, Vec<Value>) = match l {
        L::Empty => return List::untyped(vec![]),
        L::Byte(v) => (1, v.iter().map(|b| Value::Byte(*b as i8)).collect()),
        L::Short(v) => (2, v.to_slice().iter().map(|x| Value::Short(*x)).collect()),
        L::Int(v) => (3, v.to_slice().iter().map(|x| Value::Int(*x)).collect()),
        L::Long(v) => (4, v.to_slice().iter().map(|x| Value::Long(*x)).collect()),
        L::Float(v) => (5, v.to_slice().iter().map(|x| Value::float(*x)).collect()),
        L::Double(v) => (6, v.to_slice().iter().map(|x| Value::double(*x)).collect()),
        L::ByteArray(v) => (7, v.iter().map(|a| Value::ByteArray(a.to_vec())).collect()),
        L::String(v) => (
            8,
            v.iter()
                .map(|s| Value::String(lossy(s.as_bytes())))
                .collect(),
        ),
        L::List(v) => (
            9,
            v.iter()
                .map(|x| Value::List(canon_borrow_list(x)))
                .collect(),
        ),
        L::Compound(v) => (
            10,
            v.iter()
                .map(|c| Value::Compound(canon_borrow_compound(c)))
                .collect(),
        ),
        L::IntArray(v) => (
            11,
            v.iter()
                .map(|a| Value::IntArray(a.to_slice().into_owned()))
                .collect(),
        ),
        L::LongArray(v) => (
            12,
            v.iter()
                .map(|a| Value::LongArray(a.to_slice().into_owned()))
                .collect(),
        ),
    };
    List::typed(id, items)
}

fn canon_owned_compound(c: &owned::Compound) -> Vec<(String, Value)> {
    c.tags
        .iter()
        .map(|(k, t)| {
            let v = match t {
                owned::Tag::Byte(b) => Value::Byte(*b as i8),
                owned::Tag::Short(b) => Value::Short(*b),
                owned::Tag::Int(b) => Value::Int(*b),
                owned::Tag::Long(b) => Value::Long(*b),
                owned::Tag::Float(b) => Value::float(*b),
                owned::Tag::Double(b) => Value::double(*b),
                owned::Tag::ByteArray(a) => Value::ByteArray(a.clone()),
                owned::Tag::String(s) => Value::String(lossy(s.as_bytes())),
                owned::Tag::List(l) => Value::List(canon_owned_list(l)),
                owned::Tag::Compound(c) => Value::Compound(canon_owned_compound(c)),
                owned::Tag::IntArray(a) => Value::IntArray(a.to_vec()),
                owned::Tag::LongArray(a) => Value::LongArray(a.to_vec()),
            };
            (lossy(k.as_bytes()), v)
        })
        .collect()
}

fn canon_owned_list(l: &owned::List) -> List {
    use owned::List as L;
    let (id, items): (u8, Vec<Value>) = match l {
        L::Empty => return List::untyped(vec![]),
        L::Byte(v) => (1, v.iter().map(|b| Value::Byte(*b as i8)).collect()),
        L::Short(v) => (2, v.to_vec().into_iter().map(Value::Short).collect()),
        L::Int(v) => (3, v.to_vec().into_iter().map(Value::Int).collect()),
        L::Long(v) => (4, v.to_vec().into_iter().map(Value::Long).collect()),
        L::Float(v) => (5, v.to_vec().into_iter().map(Value::float).collect()),
        L::Double(v) => (6, v.to_vec().into_iter().map(Value::double).collect()),
        L::ByteArray(v) => (7, v.iter().map(|a| Value::ByteArray(a.clone())).collect()),
        L::String(v) => (
            8,
            v.iter()
                .map(|s| Value::String(lossy(s.as_bytes())))
                .collect(),
        ),
        L::List(v) => (
            9,
            v.iter().map(|x| Value::List(canon_owned_list(x))).collect(),
        ),
        L::Compound(v) => (
            10,
            v.iter()
                .map(|c| Value::Compound(canon_owned_compound(c)))
                .collect(),
        ),
        L::IntArray(v) => (11, v.iter().map(|a| Value::IntArray(a.to_vec())).collect()),
        L::LongArray(v) => (12, v.iter().map(|a| Value::LongArray(a.to_vec())).collect()),
    };
    List::typed(id, items)
}
