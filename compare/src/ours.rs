//! Adapters for simdnbt itself (this workspace's crate) and, behind `nightly-peers`,
//! for crates.io simdnbt 0.10 (`upstream_borrow`, `upstream_owned`). Our crate follows
//! the upstream API, so one macro serves both.

use crate::peers::Peer;

macro_rules! simdnbt_adapters {
    ($krate:ident, $borrow:literal, $owned:literal, $pkg:literal, $version:literal, $nightly:expr,
     $borrow_notes:expr, $owned_notes:expr) => {
        use std::hint::black_box;
        use std::io::Cursor;

        use ::$krate::{borrow, owned};

        use crate::peers::{sink, Peer};
        use crate::reference::mutf8_lossy;
        use crate::value::{Doc, List, Order, Value};

        fn read_b(input: &[u8]) -> Result<borrow::Nbt<'_>, String> {
            borrow::read(&mut Cursor::new(input)).map_err(|e| e.to_string())
        }

        fn read_o(input: &[u8]) -> Result<owned::Nbt, String> {
            owned::read(&mut Cursor::new(input)).map_err(|e| e.to_string())
        }

        #[allow(clippy::let_unit_value)]
        fn write_b(n: &borrow::Nbt<'_>) -> Vec<u8> {
            let mut out = Vec::new();
            let _ = n.write(&mut out);
            out
        }

        #[allow(clippy::let_unit_value)]
        fn write_o(n: &owned::Nbt) -> Vec<u8> {
            let mut out = Vec::new();
            let _ = n.write(&mut out);
            out
        }

        pub const BORROW: Peer = Peer {
            name: $borrow,
            krate: $pkg,
            version: $version,
            nightly: $nightly,
            order: Order::Exact,
            notes: $borrow_notes,
            validate: |input| read_b(input).map(drop),
            read: |input| {
                Box::new(move || {
                    sink(borrow::read(&mut Cursor::new(black_box(input))));
                })
            },
            write: Some(|input| {
                let n = read_b(input)?;
                Ok(Box::new(move || sink(write_b(black_box(&n)))))
            }),
            decode_all: Some(|input| {
                Box::new(move || {
                    if let Ok(borrow::Nbt::Some(n)) =
                        borrow::read(&mut Cursor::new(black_box(input)))
                    {
                        sink(n.name().to_str());
                        b_visit_compound(&n.as_compound());
                    }
                })
            }),
            to_canonical: |input| match read_b(input)? {
                borrow::Nbt::Some(n) => Ok(Doc::named(
                    mutf8_lossy(n.name().as_bytes()),
                    Value::Compound(b_compound(&n.as_compound())),
                )),
                borrow::Nbt::None => Err("End root: no document".into()),
            },
            write_bytes: Some(|input| Ok(write_b(&read_b(input)?))),
        };

        pub const OWNED: Peer = Peer {
            name: $owned,
            krate: $pkg,
            version: $version,
            nightly: $nightly,
            order: Order::Exact,
            notes: $owned_notes,
            validate: |input| read_o(input).map(drop),
            read: |input| {
                Box::new(move || {
                    sink(owned::read(&mut Cursor::new(black_box(input))));
                })
            },
            write: Some(|input| {
                let n = read_o(input)?;
                Ok(Box::new(move || sink(write_o(black_box(&n)))))
            }),
            decode_all: Some(|input| {
                Box::new(move || {
                    if let Ok(owned::Nbt::Some(n)) = owned::read(&mut Cursor::new(black_box(input)))
                    {
                        sink(n.name().to_str());
                        o_visit_compound(&n);
                    }
                })
            }),
            to_canonical: |input| match read_o(input)? {
                owned::Nbt::Some(n) => Ok(Doc::named(
                    mutf8_lossy(n.name().as_bytes()),
                    Value::Compound(o_compound(&n)),
                )),
                owned::Nbt::None => Err("End root: no document".into()),
            },
            write_bytes: Some(|input| {
                let n = read_o(input)?;
                let mut out = Vec::new();
                #[allow(clippy::let_unit_value)]
                let r = n.write(&mut out);
                o_write_result(r)?;
                Ok(out)
            }),
        };

        fn b_visit_compound(c: &borrow::NbtCompound<'_, '_>) {
            for (k, t) in c.iter() {
                sink(k.to_str());
                b_visit_tag(&t);
            }
        }

        fn b_visit_tag(t: &borrow::NbtTag<'_, '_>) {
            match t.id() {
                7 => sink(t.byte_array()),
                8 => sink(t.string().map(|s| s.to_str())),
                9 => {
                    if let Some(l) = t.list() {
                        b_visit_list(&l)
                    }
                }
                10 => {
                    if let Some(c) = t.compound() {
                        b_visit_compound(&c)
                    }
                }
                11 => sink(t.int_array()),
                12 => sink(t.long_array()),
                _ => sink(t),
            }
        }

        fn b_visit_list(l: &borrow::NbtList<'_, '_>) {
            match l.id() {
                1 => sink(l.bytes()),
                2 => sink(l.shorts()),
                3 => sink(l.ints()),
                4 => sink(l.longs()),
                5 => sink(l.floats()),
                6 => sink(l.doubles()),
                7 => sink(l.byte_arrays()),
                8 => l
                    .strings()
                    .into_iter()
                    .flatten()
                    .for_each(|s| sink(s.to_str())),
                9 => l
                    .lists()
                    .into_iter()
                    .flatten()
                    .for_each(|x| b_visit_list(&x)),
                10 => l
                    .compounds()
                    .into_iter()
                    .flatten()
                    .for_each(|c| b_visit_compound(&c)),
                11 => l
                    .int_arrays()
                    .into_iter()
                    .flatten()
                    .for_each(|a| sink(a.to_vec())),
                12 => l
                    .long_arrays()
                    .into_iter()
                    .flatten()
                    .for_each(|a| sink(a.to_vec())),
                _ => {}
            }
        }

        fn b_compound(c: &borrow::NbtCompound<'_, '_>) -> Vec<(String, Value)> {
            c.iter()
                .map(|(k, t)| (mutf8_lossy(k.as_bytes()), b_tag(&t)))
                .collect()
        }

        fn b_tag(t: &borrow::NbtTag<'_, '_>) -> Value {
            const E: &str = "tag id and getter disagree";
            match t.id() {
                1 => Value::Byte(t.byte().expect(E)),
                2 => Value::Short(t.short().expect(E)),
                3 => Value::Int(t.int().expect(E)),
                4 => Value::Long(t.long().expect(E)),
                5 => Value::float(t.float().expect(E)),
                6 => Value::double(t.double().expect(E)),
                7 => Value::ByteArray(t.byte_array().expect(E).to_vec()),
                8 => Value::String(mutf8_lossy(t.string().expect(E).as_bytes())),
                9 => Value::List(b_list(&t.list().expect(E))),
                10 => Value::Compound(b_compound(&t.compound().expect(E))),
                11 => Value::IntArray(t.int_array().expect(E)),
                12 => Value::LongArray(t.long_array().expect(E)),
                other => panic!("tag id {other}"),
            }
        }

        fn b_list(l: &borrow::NbtList<'_, '_>) -> List {
            const E: &str = "list id and getter disagree";
            let id = l.id();
            let items: Vec<Value> = match id {
                0 => vec![],
                1 => l
                    .bytes()
                    .expect(E)
                    .iter()
                    .map(|x| Value::Byte(*x))
                    .collect(),
                2 => l.shorts().expect(E).into_iter().map(Value::Short).collect(),
                3 => l.ints().expect(E).into_iter().map(Value::Int).collect(),
                4 => l.longs().expect(E).into_iter().map(Value::Long).collect(),
                5 => l.floats().expect(E).into_iter().map(Value::float).collect(),
                6 => l
                    .doubles()
                    .expect(E)
                    .into_iter()
                    .map(Value::double)
                    .collect(),
                7 => l
                    .byte_arrays()
                    .expect(E)
                    .iter()
                    .map(|a| Value::ByteArray(a.to_vec()))
                    .collect(),
                8 => l
                    .strings()
                    .expect(E)
                    .iter()
                    .map(|s| Value::String(mutf8_lossy(s.as_bytes())))
                    .collect(),
                9 => l
                    .lists()
                    .expect(E)
                    .into_iter()
                    .map(|x| Value::List(b_list(&x)))
                    .collect(),
                10 => l
                    .compounds()
                    .expect(E)
                    .into_iter()
                    .map(|c| Value::Compound(b_compound(&c)))
                    .collect(),
                11 => l
                    .int_arrays()
                    .expect(E)
                    .iter()
                    .map(|a| Value::IntArray(a.to_vec()))
                    .collect(),
                12 => l
                    .long_arrays()
                    .expect(E)
                    .iter()
                    .map(|a| Value::LongArray(a.to_vec()))
                    .collect(),
                other => panic!("list id {other}"),
            };
            List::typed(id, items)
        }

        fn o_visit_compound(c: &owned::NbtCompound) {
            for (k, t) in c.iter() {
                sink(k.to_str());
                match t {
                    owned::NbtTag::String(s) => sink(s.to_str()),
                    owned::NbtTag::List(l) => o_visit_list(l),
                    owned::NbtTag::Compound(c) => o_visit_compound(c),
                    // arrays are already native Vecs
                    other => sink(other),
                }
            }
        }

        fn o_visit_list(l: &owned::NbtList) {
            match l {
                owned::NbtList::String(v) => v.iter().for_each(|s| sink(s.to_str())),
                owned::NbtList::List(v) => v.iter().for_each(o_visit_list),
                owned::NbtList::Compound(v) => v.iter().for_each(o_visit_compound),
                other => sink(other),
            }
        }

        fn o_compound(c: &owned::NbtCompound) -> Vec<(String, Value)> {
            c.iter()
                .map(|(k, t)| (mutf8_lossy(k.as_bytes()), o_tag(t)))
                .collect()
        }

        fn o_tag(t: &owned::NbtTag) -> Value {
            use owned::NbtTag as T;
            match t {
                T::Byte(x) => Value::Byte(*x),
                T::Short(x) => Value::Short(*x),
                T::Int(x) => Value::Int(*x),
                T::Long(x) => Value::Long(*x),
                T::Float(x) => Value::float(*x),
                T::Double(x) => Value::double(*x),
                T::ByteArray(a) => Value::ByteArray(a.clone()),
                T::String(s) => Value::String(mutf8_lossy(s.as_bytes())),
                T::List(l) => Value::List(o_list(l)),
                T::Compound(c) => Value::Compound(o_compound(c)),
                T::IntArray(a) => Value::IntArray(a.clone()),
                T::LongArray(a) => Value::LongArray(a.clone()),
            }
        }

        fn o_list(l: &owned::NbtList) -> List {
            use owned::NbtList as L;
            let t = List::typed;
            match l {
                L::Empty => t(0, vec![]),
                L::Byte(v) => t(1, v.iter().map(|x| Value::Byte(*x)).collect()),
                L::Short(v) => t(2, v.iter().map(|x| Value::Short(*x)).collect()),
                L::Int(v) => t(3, v.iter().map(|x| Value::Int(*x)).collect()),
                L::Long(v) => t(4, v.iter().map(|x| Value::Long(*x)).collect()),
                L::Float(v) => t(5, v.iter().map(|x| Value::float(*x)).collect()),
                L::Double(v) => t(6, v.iter().map(|x| Value::double(*x)).collect()),
                L::ByteArray(v) => t(7, v.iter().map(|a| Value::ByteArray(a.clone())).collect()),
                L::String(v) => t(
                    8,
                    v.iter()
                        .map(|s| Value::String(mutf8_lossy(s.as_bytes())))
                        .collect(),
                ),
                L::List(v) => t(9, v.iter().map(|x| Value::List(o_list(x))).collect()),
                L::Compound(v) => t(
                    10,
                    v.iter().map(|c| Value::Compound(o_compound(c))).collect(),
                ),
                L::IntArray(v) => t(11, v.iter().map(|a| Value::IntArray(a.clone())).collect()),
                L::LongArray(v) => t(12, v.iter().map(|a| Value::LongArray(a.clone())).collect()),
            }
        }
    };
}

/// Our owned writer returns `Result<(), WriteError>`; upstream's returns `()`.
trait WriteResult {
    fn into_result(self) -> Result<(), String>;
}
impl WriteResult for () {
    fn into_result(self) -> Result<(), String> {
        Ok(())
    }
}
impl<E: std::fmt::Display> WriteResult for Result<(), E> {
    fn into_result(self) -> Result<(), String> {
        self.map_err(|e| e.to_string())
    }
}
fn o_write_result(r: impl WriteResult) -> Result<(), String> {
    r.into_result()
}

mod this {
    use super::o_write_result;
    simdnbt_adapters!(
        simdnbt,
        "simdnbt_borrow",
        "simdnbt_owned",
        "simdnbt",
        "0.11.0",
        false,
        "This workspace's borrowed reader: one validating pass builds a compact tape of \
         tag positions over the input; strings stay raw MUTF-8 slices (decoded on request, \
         lossy or checked) and arrays stay big-endian slices (converted on request). Keeps \
         order, duplicate keys, float bits and empty-list element types; depth limit 512; \
         lengths checked before allocation. Its writer copies the validated input bytes.",
        "This workspace's owned tree: strings copied as raw MUTF-8 (not decoded), arrays and \
         primitive lists converted to native Vecs while parsing. Keeps order, duplicate keys \
         and empty-list element types; the writer re-encodes and returns an error instead of \
         writing an invalid file."
    );
}

/// `simdnbt_borrow` and `simdnbt_owned`.
pub fn peers() -> Vec<Peer> {
    vec![this::BORROW, this::OWNED]
}

#[cfg(feature = "nightly-peers")]
mod upstream {
    use super::o_write_result;
    simdnbt_adapters!(
        upstream_simdnbt,
        "upstream_borrow",
        "upstream_owned",
        "simdnbt",
        "0.10.0",
        true,
        "crates.io simdnbt 0.10 borrowed reader (nightly: portable SIMD): builds a tape over \
         the input; strings stay raw MUTF-8, arrays stay big-endian until requested. Keeps \
         order and duplicates.",
        "crates.io simdnbt 0.10 owned tree: strings copied as raw MUTF-8, arrays converted to \
         native Vecs; a list of End becomes `NbtList::Empty`."
    );
}

/// `upstream_borrow` and `upstream_owned`.
#[cfg(feature = "nightly-peers")]
pub fn upstream_peers() -> Vec<Peer> {
    vec![upstream::BORROW, upstream::OWNED]
}
