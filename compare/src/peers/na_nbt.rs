//! na_nbt 0.2: a borrowed reader that builds an index ("marks") over the input and
//! reads values lazily, and an owned mutable tree.

use ::na_nbt::{
    read_borrowed, read_owned, CompoundRef, ListBase, ListRef, NativeEndian, ValueRef, VisitRef,
    Writable, BE,
};

use super::{parse_bench, sink, Peer};
use crate::reference::mutf8_lossy;
use crate::value::{Doc, List, Order, Value};

pub const BORROW: Peer = Peer {
    name: "na_nbt_borrow",
    krate: "na_nbt",
    version: "0.2.1",
    nightly: false,
    order: Order::Exact,
    notes: "Borrowed: one pass records an index of container offsets; scalars, strings and \
            arrays are read from the input on access. Strings stay raw MUTF-8 (decoded on \
            request, lossy or checked); arrays stay big-endian slices. Keeps order, duplicates \
            and empty-list element types. Does not expose the root name, and its writer \
            writes an empty root name. Trailing bytes after the root are accepted.",
    validate: |input| {
        read_borrowed::<BE>(input)
            .map(drop)
            .map_err(|e| format!("{e:?}"))
    },
    read: |input| parse_bench(input, read_borrowed::<BE>),
    write: Some(|input| {
        let doc = read_borrowed::<BE>(input).map_err(|e| format!("{e:?}"))?;
        Ok(Box::new(move || {
            sink(doc.root().write_to_vec::<BE>());
        }))
    }),
    decode_all: Some(|input| {
        Box::new(move || {
            if let Ok(doc) = read_borrowed::<BE>(std::hint::black_box(input)) {
                visit::<_, true>(&doc.root());
            }
        })
    }),
    to_canonical: |input| {
        let doc = read_borrowed::<BE>(input).map_err(|e| format!("{e:?}"))?;
        Ok(Doc::unnamed(canonical(&doc.root())?))
    },
    write_bytes: Some(|input| {
        let doc = read_borrowed::<BE>(input).map_err(|e| format!("{e:?}"))?;
        let out = doc.root().write_to_vec::<BE>();
        Ok(out)
    }),
};

/// An owned-tree adapter for one storage order `$store` (`CONVERT`: its
/// arrays are big-endian, so visiting converts them, as in borrowed mode).
macro_rules! owned_peer {
    ($name:literal, $store:ty, $convert:literal, $notes:expr) => {
        Peer {
            name: $name,
            krate: "na_nbt",
            version: "0.2.1",
            nightly: false,
            order: Order::Exact,
            notes: $notes,
            validate: |input| {
                read_owned::<BE, $store>(input)
                    .map(drop)
                    .map_err(|e| format!("{e:?}"))
            },
            read: |input| parse_bench(input, read_owned::<BE, $store>),
            write: Some(|input| {
                let v = read_owned::<BE, $store>(input).map_err(|e| format!("{e:?}"))?;
                Ok(Box::new(move || {
                    sink(std::hint::black_box(&v).write_to_vec::<BE>());
                }))
            }),
            decode_all: Some(|input| {
                Box::new(move || {
                    if let Ok(v) = read_owned::<BE, $store>(std::hint::black_box(input)) {
                        visit::<_, $convert>(&v.to_ref());
                    }
                })
            }),
            to_canonical: |input| {
                let v = read_owned::<BE, $store>(input).map_err(|e| format!("{e:?}"))?;
                Ok(Doc::unnamed(canonical(&v.to_ref())?))
            },
            write_bytes: Some(|input| {
                let v = read_owned::<BE, $store>(input).map_err(|e| format!("{e:?}"))?;
                Ok(v.write_to_vec::<BE>())
            }),
        }
    };
}

pub const OWNED: Peer = owned_peer!(
    "na_nbt_owned",
    NativeEndian,
    false,
    "Owned mutable tree read with `read_owned::<BE, NativeEndian>`: arrays and \
     primitive lists are converted to native byte order while parsing; strings are \
     copied as raw MUTF-8 (not decoded). Keeps order, duplicates and empty-list element \
     types. Rejects trailing bytes after the root. No root name (writes an empty one)."
);

/// na_nbt's owned tree in its other storage order: `read_owned::<BE, BE>` keeps
/// arrays and primitive lists big-endian (no conversion while parsing, so
/// reading is cheaper and writing is a copy; values are swapped on access).
/// The owned targets are measured against both orders.
pub const OWNED_BE: Peer = owned_peer!(
    "na_nbt_owned_be",
    BE,
    true,
    "Owned mutable tree read with `read_owned::<BE, BE>`: arrays and primitive lists \
     stay big-endian in memory (converted on access, not while parsing); otherwise as \
     na_nbt_owned."
);

/// Visits every tag. `CONVERT`: arrays are stored big-endian and must be converted
/// (borrowed mode); otherwise they are already native and only touched.
fn visit<'s, V: ValueRef<'s>, const CONVERT: bool>(v: &V) {
    v.visit(|x| match x {
        VisitRef::String(s) => sink(s.decode_lossy()),
        VisitRef::ByteArray(a) => sink(&a[..]),
        VisitRef::IntArray(a) => {
            if CONVERT {
                sink(a.iter().map(|x| x.get()).collect::<Vec<i32>>())
            } else {
                sink(&a[..])
            }
        }
        VisitRef::LongArray(a) => {
            if CONVERT {
                sink(a.iter().map(|x| x.get()).collect::<Vec<i64>>())
            } else {
                sink(&a[..])
            }
        }
        VisitRef::List(l) => {
            for e in l.iter() {
                visit::<_, CONVERT>(&e);
            }
        }
        VisitRef::Compound(c) => {
            for (k, e) in c.iter() {
                sink(k.decode_lossy());
                visit::<_, CONVERT>(&e);
            }
        }
        other => sink(other),
    })
}

fn canonical<'s, V: ValueRef<'s>>(v: &V) -> Result<Value, String> {
    v.visit(|x| {
        Ok(match x {
            VisitRef::End(_) => return Err("End tag as a value".into()),
            VisitRef::Byte(b) => Value::Byte(*b),
            VisitRef::Short(b) => Value::Short(*b),
            VisitRef::Int(b) => Value::Int(*b),
            VisitRef::Long(b) => Value::Long(*b),
            VisitRef::Float(b) => Value::float(*b),
            VisitRef::Double(b) => Value::double(*b),
            VisitRef::ByteArray(a) => Value::byte_array_i8(a),
            VisitRef::String(s) => Value::String(mutf8_lossy(s.as_bytes())),
            VisitRef::IntArray(a) => Value::IntArray(a.iter().map(|x| x.get()).collect()),
            VisitRef::LongArray(a) => Value::LongArray(a.iter().map(|x| x.get()).collect()),
            VisitRef::List(l) => Value::List(List::typed(
                l.element_tag_id() as u8,
                l.iter().map(|e| canonical(&e)).collect::<Result<_, _>>()?,
            )),
            VisitRef::Compound(c) => Value::Compound(
                c.iter()
                    .map(|(k, e)| Ok((mutf8_lossy(k.as_bytes()), canonical(&e)?)))
                    .collect::<Result<_, String>>()?,
            ),
        })
    })
}
