//! Converters from the two peer libraries both `compare` and fuzz-logic hold
//! simdnbt to (feature `peers`): fastnbt 2.6's dynamic `Value` and valence_nbt
//! 0.8's `Compound`. Both decode strings while parsing, so their text is taken as is.

use fastnbt::Value as F;
use valence_nbt::{Compound, List as VList, Value as V};

use crate::value::{List, Value};

/// A fastnbt value. Its lists are `Vec<Value>`, so the element type is taken from
/// the first element and an empty list has none ([`List::untyped`]).
pub fn from_fastnbt(v: &F) -> Value {
    match v {
        F::Byte(x) => Value::Byte(*x),
        F::Short(x) => Value::Short(*x),
        F::Int(x) => Value::Int(*x),
        F::Long(x) => Value::Long(*x),
        F::Float(x) => Value::float(*x),
        F::Double(x) => Value::double(*x),
        F::ByteArray(a) => Value::byte_array_i8(a),
        F::String(s) => Value::String(s.clone()),
        F::List(l) => Value::List(List::untyped(l.iter().map(from_fastnbt).collect())),
        F::Compound(c) => Value::Compound(
            c.iter()
                .map(|(k, v)| (k.clone(), from_fastnbt(v)))
                .collect(),
        ),
        F::IntArray(a) => Value::IntArray(a.to_vec()),
        F::LongArray(a) => Value::LongArray(a.to_vec()),
    }
}

/// The entries of a valence_nbt compound, in its iteration order (sorted keys
/// without its `preserve_order` feature). Lists keep their element type.
pub fn from_valence(c: &Compound<String>) -> Vec<(String, Value)> {
    c.iter()
        .map(|(k, v)| (k.clone(), valence_value(v)))
        .collect()
}

fn valence_value(v: &V<String>) -> Value {
    match v {
        V::Byte(x) => Value::Byte(*x),
        V::Short(x) => Value::Short(*x),
        V::Int(x) => Value::Int(*x),
        V::Long(x) => Value::Long(*x),
        V::Float(x) => Value::float(*x),
        V::Double(x) => Value::double(*x),
        V::ByteArray(a) => Value::byte_array_i8(a),
        V::String(s) => Value::String(s.clone()),
        V::List(l) => Value::List(valence_list(l)),
        V::Compound(c) => Value::Compound(from_valence(c)),
        V::IntArray(a) => Value::IntArray(a.clone()),
        V::LongArray(a) => Value::LongArray(a.clone()),
    }
}

fn valence_list(l: &VList<String>) -> List {
    let t = List::typed;
    match l {
        VList::End => t(0, vec![]),
        VList::Byte(v) => t(1, v.iter().map(|x| Value::Byte(*x)).collect()),
        VList::Short(v) => t(2, v.iter().map(|x| Value::Short(*x)).collect()),
        VList::Int(v) => t(3, v.iter().map(|x| Value::Int(*x)).collect()),
        VList::Long(v) => t(4, v.iter().map(|x| Value::Long(*x)).collect()),
        VList::Float(v) => t(5, v.iter().map(|x| Value::float(*x)).collect()),
        VList::Double(v) => t(6, v.iter().map(|x| Value::double(*x)).collect()),
        VList::ByteArray(v) => t(7, v.iter().map(|a| Value::byte_array_i8(a)).collect()),
        VList::String(v) => t(8, v.iter().map(|s| Value::String(s.clone())).collect()),
        VList::List(v) => t(9, v.iter().map(|x| Value::List(valence_list(x))).collect()),
        VList::Compound(v) => t(
            10,
            v.iter().map(|c| Value::Compound(from_valence(c))).collect(),
        ),
        VList::IntArray(v) => t(11, v.iter().map(|a| Value::IntArray(a.clone())).collect()),
        VList::LongArray(v) => t(12, v.iter().map(|a| Value::LongArray(a.clone())).collect()),
    }
}
