//! Adapters for simdnbt itself (this workspace's crate) and, behind `nightly-peers`,
//! for crates.io simdnbt 0.10 (`upstream_borrow`, `upstream_owned`). Our crate follows
//! the upstream API, so one macro serves both.

use crate::peers::Peer;

macro_rules! simdnbt_adapters {
    ($krate:ident, $convert:path, $borrow:literal, $owned:literal, $pkg:literal, $version:literal, $nightly:expr,
     $borrow_notes:expr, $owned_notes:expr) => {
        use std::hint::black_box;
        use std::io::Cursor;

        use ::$krate::{borrow, owned};

        use testkit::mutf8::{lossy as mutf8_lossy, lossy_ok};
        use testkit::{Doc, Order, Value};
        use $convert as convert;

        use crate::peers::{sink, Peer};

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
            let Ok(v) = convert::borrow_compound(c, &lossy_ok);
            v
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
            let Ok(v) = convert::owned_compound(c, &lossy_ok);
            v
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
        testkit::from_simdnbt,
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
        crate::upstream::convert,
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
